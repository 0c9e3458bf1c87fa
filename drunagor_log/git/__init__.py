"""Git for campaigns, and the only caller of the `git` program (runner.run).

- runner: run git, GitFailed and its reason, the repository holding a campaign;
- commits: commit exactly the files a command changed; the campaign's uncommitted files;
- history: the campaign's drunagor commits, and undo;
- merges: the branch's upstream, fetch, merge, the merge under way, push (what `drunagor sync` drives);
- objects: another branch's trees and blobs, the index's entries, a merge's unmerged stages;
- driver_setup: the merge driver's registration and check, the files `new` writes for git, git's line merge;
- planted: a journal that came with the repository, refused before the campaign's open completes it.

Imported and started only when a command asks for git.
"""
