"""The TOML store: the one layer that reads and writes campaign files, one module a job:

- read.py: safe reading (regular files inside the campaign, size cap, limits, conflict markers, parse);
- lines.py: the key -> line lookup (FILE:LINE in every message);
- tomlfile.py: `TomlFile`, a file as read, and `load`;
- schema.py: `schema = N`, the newer- and older-schema refusals, the table of migration steps;
- atomic.py: one file written atomically; transaction.py: a command's files committed all or nothing (its
  journal the commit point); journal.py: a killed command's journal checked and rolled forward;
- lock.py: the campaign lock; paths.py: paths for display; folders.py: what stands at a file's name;
- session.py: a campaign's files as one session (the lock and its upgrade, the scan, the files open, the
  staged changes, the stale-read check, save()); campaign.py's Campaign is the typed campaign over it;
- edit.py: the TOML editing layer; tomlkit_adapter.py: the one door to tomlkit (the only module that
  imports it, its private names included); adventure.py: the adventure.toml codec;
  merge.py: the three-way merge of values; tomltext.py: TOML text for the tool-written files.

Reading uses the standard library's `tomllib` (fast, plain values); a file is parsed a second time
with tomlkit only when a command edits it, so comments, key order, blank lines and unknown keys
survive (STYLE.md: parse, mutate in place, write back; never rebuild a table from a dict).

Writing (SPEC section 6) is atomic and all or nothing (atomic.py, transaction.py, journal.py). No lost
update: every command reads under a shared lock (so it never sees half of a multi-file write) and turns
it exclusive to write (lock.py); a command waits for a writer, a writer for every other command, or
stops with exit 4 after LOCK_TIMEOUT seconds. Never overwrite someone else's change: just before the rename, every
file the command read or writes is compared with the bytes it read (exit 4, nothing written).

This package's names below are what the rest of drunagor uses (`store.load`, `store.Transaction`...).
"""

from __future__ import annotations

from .atomic import JOURNAL, TMP_SUFFIX, atomic_write, fsync_dir
from .journal import GITIGNORE_PATTERNS, complete_pending, journal_files, journal_ops, pending_journal, roll_forward
from .lines import line_of
from .lock import LOCK, LOCK_TIMEOUT, CampaignLock
from .paths import display
from .read import (
    MAX_DEPTH,
    MAX_ENTRIES,
    MAX_FILE_BYTES,
    MAX_TEXT,
    check_inside,
    check_limits,
    conflict_error,
    conflict_lines,
    current_bytes,
    has_conflict,
    not_regular,
    parse,
    peek,
    read_bytes,
)
from .schema import SCHEMA, newer, newer_refusal, schema_of
from .tomlfile import TomlFile, load
from .transaction import Transaction

__all__ = [
    "GITIGNORE_PATTERNS", "JOURNAL", "LOCK", "LOCK_TIMEOUT", "MAX_DEPTH", "MAX_ENTRIES", "MAX_FILE_BYTES",
    "MAX_TEXT", "SCHEMA", "TMP_SUFFIX", "CampaignLock", "TomlFile", "Transaction", "atomic_write",
    "check_inside", "check_limits", "complete_pending", "conflict_error", "conflict_lines", "current_bytes",
    "display", "fsync_dir", "has_conflict", "journal_files", "journal_ops", "line_of", "load", "newer", "newer_refusal",
    "not_regular", "parse", "peek", "pending_journal", "read_bytes", "roll_forward", "schema_of",
]
