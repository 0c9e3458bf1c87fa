"""Story Record commands (RB L951-962): the party's name, the Party Leader, Followers, Outcomes,
Story Record statuses, the Adventure Track (`chapter complete|skip|fail`) and chapter briefings
(`chapter show`).

Every write edits story.toml in place (tomlkit): comments, key order and unknown keys survive; lists
are appended to in the order things happen and turn one-entry-per-line once they hold two names, so
two players' additions merge cleanly in git.

`record_chapter(c, chapter, state, force)` is the one way a chapter is written on the track; `adventure
end --won` calls it too.
"""


from typing import TYPE_CHECKING, Annotated, Optional

import typer

from ...values import replace as replace_record

from ...errors import RuleError, UsageError
from ...model import chapter_id
from ..common import CommitOpt, ForceOpt, JsonOpt, finish, open_campaign, warn_all
from ..terminal import term

if TYPE_CHECKING:
    from ...campaign import Campaign

# The Story Record's lists of names: key in story.toml, catalog kind, what one entry is called,
# the command that edits it, the rulebook lines.
LISTS = {
    "followers": ("followers", "Follower", "follower", "RB L455-459"),
    "outcomes": ("outcomes", "Outcome", "outcome", "RB L962"),
    "statuses": ("story_statuses", "status", "status", None),
}
# Where a missing top-level key is written: after the first of these keys the file has.
PLACE_AFTER = {
    "party": ("campaign", "schema"),
    "leader": ("party", "campaign", "schema"),
    "followers": ("leader", "party", "campaign", "schema"),
    "outcomes": ("followers", "leader", "party", "campaign", "schema"),
    "statuses": ("outcomes", "followers", "leader", "party", "campaign", "schema"),
}


def _today() -> str:
    """The date written with a correction (a function, so tests can fix it)."""
    import datetime

    return datetime.date.today().isoformat()


# ------------------------------------------------------------------------------- editing helpers


def _insert_top(doc, key: str, value) -> None:
    """Add a top-level key next to its neighbours (PLACE_AFTER), else after the other keys."""
    for prev in PLACE_AFTER.get(key, ()):
        if prev in doc:
            doc._insert_after(prev, key, value)  # tomlkit 0.13 (pinned): keeps everything else as is
            return
    doc[key] = value


def _chapter_key(table, ch: str) -> str | None:
    """The key the file uses for chapter `ch` in a table ("03", or "3" as a user may write it)."""
    for key in table:
        try:
            if chapter_id(key) == ch:
                return key
        except ValueError:
            continue
    return None


def _put_chapter(table, ch: str, value) -> None:
    """Set chapter `ch` in a [track]-like table, a new key going in chapter order."""
    from tomlkit.items import KeyType, SingleKey

    key = _chapter_key(table, ch)
    if key is not None:
        table[key] = value  # keeps the line's comment
        return
    present = {}
    for k in table:
        try:
            present[chapter_id(k)] = k
        except ValueError:
            continue
    new = SingleKey(ch, t=KeyType.Basic)  # "05", quoted like the rest of the track
    before = [c for c in present if c < ch]
    after = [c for c in present if c > ch]
    body = table.value
    if before:
        body._insert_after(present[max(before)], new, value)
    elif after:
        body._insert_at(body._map[present[min(after)]], new, value)
    else:
        table.add(new, value)


def _put_in_table(doc, name: str, ch: str, value, after: str | None = None) -> None:
    """Set chapter `ch` in table `name`, creating the table (after table `after`) if missing."""
    import tomlkit

    if name in doc:
        _put_chapter(doc[name], ch, value)
        return
    table = tomlkit.table()
    _put_chapter(table, ch, value)
    table.add(tomlkit.nl())  # a blank line before the next table
    if after is not None and after in doc:
        doc._insert_after(after, name, table)
    else:
        doc[name] = table


def _append_name(doc, key: str, name: str) -> None:
    import tomlkit

    arr = doc.get(key)
    if arr is None:
        arr = tomlkit.array()
        arr.append(name)
        _insert_top(doc, key, arr)
        return
    arr.append(name)
    if len(arr) >= 2:
        arr.multiline(True)  # one name per line: merge-friendly


def _remove_name(doc, key: str, name: str) -> None:
    import tomlkit

    arr = doc[key]
    index = next(i for i, v in enumerate(arr) if str(v) == name)
    del arr[index]
    if len(arr) == 0:
        doc[key] = tomlkit.array()  # `[]`, not an empty multiline bracket; keeps the comment


# ----------------------------------------------------------------------------------- party, leader


def party(
    name: Annotated[str, typer.Argument(help="The party's name, as on the Story Record.")],
    commit: CommitOpt = False,
) -> None:
    """Set the party's name (Story Record, RB L959).

    Example: drunagor party "Safeguard Corporation"
    """
    name = name.strip()
    if not name:
        raise UsageError("the party name is empty", remedy='give one, e.g. drunagor party "Safeguard Corporation"')
    with open_campaign(write=True) as c:
        doc = c.story_file.edit()
        if "party" in doc:
            if c.story.party != name:
                doc["party"] = name
        else:
            _insert_top(doc, "party", name)
        finish(c, f"party name: {name}", commit)


def _find_leader(c: "Campaign", query: str):
    """The active hero `query` names (case-insensitive, unique prefix)."""
    from ...names import lookup

    active = {h.name: h for h in c.active_heroes().values()}
    try:
        return lookup(query, active, "active hero")
    except UsageError as exc:
        retired = {h.name: h for h in c.heroes.values() if not h.active}
        try:
            gone = lookup(query, retired, "hero")
        except UsageError:
            gone = None
        names = ", ".join(sorted(active))
        remedy = f"the Party Leader is one of the active heroes: {names}" if active else \
            "add the heroes first (drunagor hero add NAME --role ROLE)"
        if gone is not None:
            raise RuleError(f"{gone.name} has left the party (retired); the Party Leader must be an active hero",
                            file=c.story_file.shown, rule="leader", remedy=remedy) from None
        raise UsageError(exc.message, rule="leader",
                         remedy=(exc.remedy + "; " if exc.remedy and "did you mean" in exc.remedy else "") + remedy
                         ) from None


def leader(
    hero: Annotated[str, typer.Argument(help="An active hero (case-insensitive; a unique prefix is enough).")],
    commit: CommitOpt = False,
) -> None:
    """Set the Party Leader, who breaks the ties the rules leave to the party (RB L453, L1072).

    Example: drunagor leader Andreas
    """
    with open_campaign(write=True) as c:
        chosen = _find_leader(c, hero)
        doc = c.story_file.edit()
        if "leader" in doc:
            if c.story.leader != chosen.name:
                doc["leader"] = chosen.name
        else:
            _insert_top(doc, "leader", chosen.name)
        finish(c, f"Party Leader: {chosen.name}", commit)


# ------------------------------------------------------------------------ followers, outcomes, ...


def _known(key: str) -> tuple[str, ...]:
    from ... import catalog

    return catalog.names(LISTS[key][0])


def _resolve_new(key: str, query: str) -> tuple[str, str | None]:
    """(the name to write, a warning or None): the catalog spelling of a known name (any case, or a
    unique prefix of it); an unknown name as typed, with a warning that suggests the closest one."""
    from ... import catalog

    typed = " ".join(query.split())
    if not typed:
        raise UsageError("the name is empty", remedy="give the name as written in the book")
    known = _known(key)
    exact = catalog.canonical(typed, known)
    if exact is not None:
        return exact, None
    starts = [n for n in known if n.casefold().startswith(typed.casefold())]
    if len(starts) == 1:
        return starts[0], None
    what = LISTS[key][1]
    if starts:
        raise UsageError(f"{typed!r} could be any of: {', '.join(starts)}", remedy=f"type more of the {what}'s name")
    from ...checks.story import suggest

    hint = suggest(typed, known)
    suggestion = f"did you mean {hint!r}? " if hint else ""
    return typed, (f"{typed!r} is not a {what} drunagor knows; {suggestion}recorded as typed "
                   f"(drunagor check --strict reports it until it is fixed)")


def _resolve_recorded(key: str, query: str, recorded: tuple[str, ...], file) -> str:
    """The recorded entry `query` names (any case, or a unique prefix); a refusal when none."""
    from ... import catalog

    typed = " ".join(query.split())
    exact = catalog.canonical(typed, recorded) if typed else None
    if exact is not None:
        return exact
    starts = list(dict.fromkeys(n for n in recorded if typed and n.casefold().startswith(typed.casefold())))
    if len(starts) == 1:
        return starts[0]
    _, what, cmd, rb = LISTS[key]
    if starts:
        raise UsageError(f"{typed!r} could be any of: {', '.join(starts)}", remedy=f"type more of the {what}'s name")
    listed = ", ".join(recorded) if recorded else "none"
    where = f" ({rb})" if rb else ""
    raise RuleError(f"there is no {what} {typed!r} on the Story Record{where}", file=file.shown,
                    line=file.line((key,)), rule=key,
                    remedy=f"the {key} recorded are: {listed}")


def _add(key: str, query: str, commit: bool) -> None:
    from ... import catalog

    name, warning = _resolve_new(key, query)
    _, what, cmd, rb = LISTS[key]
    with open_campaign(write=True) as c:
        f = c.story_file
        recorded = getattr(c.story, key)
        twin = catalog.canonical(name, recorded)
        if twin is not None:
            raise RuleError(f"{what} {twin!r} is already written on the Story Record", file=f.shown,
                            line=f.line((key,)), rule=key,
                            remedy="each name is written once; nothing to do")
        if warning:
            term.warn(warning)
        _append_name(f.edit(), key, name)
        finish(c, _added(key, name), commit)


def _added(key: str, name: str) -> str:
    if key == "followers":
        return f"{name} follows the party: Follower written on the Story Record (RB L455)"
    if key == "outcomes":
        return f"Outcome {name} written on the Story Record (RB L962)"
    return f"Story Record status {name} written"


def _remove(key: str, query: str, commit: bool) -> None:
    with open_campaign(write=True) as c:
        f = c.story_file
        name = _resolve_recorded(key, query, getattr(c.story, key), f)
        _remove_name(f.edit(), key, name)
        if key == "followers":
            message = f"{name} erased from the Story Record's Followers (RB L459)"
        elif key == "outcomes":
            message = f"Outcome {name} erased from the Story Record"
        else:
            message = f"Story Record status {name} erased"
        finish(c, message, commit)


NameArg = Annotated[str, typer.Argument(help="The name as written in the book (any case; a unique prefix of a known name is enough).")]

follower_app = typer.Typer(help="Followers on the Story Record (RB L447-463).", no_args_is_help=True)
outcome_app = typer.Typer(help="Outcomes on the Story Record (RB L962).", no_args_is_help=True)
status_app = typer.Typer(help="Story Record statuses (the party's; a hero's are `drunagor hero status`).",
                         no_args_is_help=True)


@follower_app.command("add")
def follower_add(name: NameArg, commit: CommitOpt = False) -> None:
    """Write a Follower on the Story Record when the party recruits one (RB L455).

    A name drunagor does not know is accepted with a warning that suggests the closest known one.

    Example: drunagor follower add "Maya the Ranger"
    """
    _add("followers", name, commit)


@follower_app.command("remove")
def follower_remove(name: NameArg, commit: CommitOpt = False) -> None:
    """Erase a Follower who was defeated or dismissed (RB L459).

    Example: drunagor follower remove vorn
    """
    _remove("followers", name, commit)


@outcome_app.command("add")
def outcome_add(name: NameArg, commit: CommitOpt = False) -> None:
    """Write an Outcome on the Story Record when the book says so (RB L962).

    Example: drunagor outcome add "Promised Reward"
    """
    _add("outcomes", name, commit)


@outcome_app.command("remove")
def outcome_remove(name: NameArg, commit: CommitOpt = False) -> None:
    """Erase an Outcome from the Story Record.

    Example: drunagor outcome remove "Drinking Pal"
    """
    _remove("outcomes", name, commit)


@status_app.command("add")
def status_add(name: NameArg, commit: CommitOpt = False) -> None:
    """Write a status on the Story Record (the party's, not a hero's).

    Example: drunagor status add "Dark Past"
    """
    _add("statuses", name, commit)


@status_app.command("remove")
def status_remove(name: NameArg, commit: CommitOpt = False) -> None:
    """Erase a status from the Story Record.

    Example: drunagor status remove "Imminent Danger"
    """
    _remove("statuses", name, commit)


# ---------------------------------------------------------------------------- the Adventure Track


def _chapter_arg(value, story=None) -> str:
    """"5", 5 or "05" -> "05"; a usage error for anything else (there is no chapter 10)."""
    try:
        return chapter_id(value)
    except ValueError:
        done = ""
        if story is not None and story.next_chapter() is None:
            done = "; the campaign is finished: chapter 09 is on the Adventure Track"
        raise UsageError(f"no chapter {str(value)!r}: the Awakenings campaign has chapters 01 to 09{done}",
                         remedy="give a chapter number from 1 to 9") from None


def _refusal(move, f) -> RuleError:
    nxt = move.next_open
    n = int(move.chapter)
    if move.before is None:
        remedy = (f"play chapter {nxt} first (drunagor chapter complete|skip|fail {int(nxt)}), or correct "
                  f"history with `drunagor chapter {_verb(move.action)} {n} --force` (recorded in story.toml)")
    elif move.before == move.action:
        remedy = ("nothing to record; " + (f"the next unfilled slot is chapter {nxt}" if nxt
                                           else "the campaign is finished"))
    elif move.action == "failed":
        remedy = ((f"the next unfilled slot is chapter {nxt}; " if nxt else "")
                  + f"to record a forgotten attempt anyway: drunagor chapter fail {n} --force (recorded in story.toml)")
    else:
        remedy = (f"to correct history: drunagor chapter {_verb(move.action)} {n} --force "
                  "(recorded in story.toml)")
    key = _chapter_key(f.data.get("track", {}), move.chapter)
    line = f.line(("track", key)) if key else f.line(("track",))
    return RuleError(f"{move.problem} (RB L961)", file=f.shown, line=line, rule="adventure-track", remedy=remedy)


def _verb(action: str) -> str:
    return {"completed": "complete", "skipped": "skip", "failed": "fail"}[action]


def _record(c: "Campaign", chapter, state: str, force: bool) -> tuple[str, list[str]]:
    """Validate and write one chapter on the Adventure Track: (the one-line message, more lines)."""

    from ...rules import track

    story = c.story
    ch = _chapter_arg(chapter, story)
    if state not in track.ACTIONS:
        raise ValueError(f"state must be one of {', '.join(track.ACTIONS)}, not {state!r}")
    move = track.plan(story.track, ch, state)
    f = c.story_file
    if move.problem and not force:
        raise _refusal(move, f)
    if not move.changes:
        return f"chapter {ch} is already {move.before}", []
    doc = f.edit()
    new_track = dict(story.track)
    failures = dict(story.failures)
    if move.fills:
        _put_in_table(doc, "track", ch, state)
        new_track[ch] = state
    else:
        failures[ch] = failures.get(ch, 0) + 1
        _put_in_table(doc, "failures", ch, failures[ch], after="track")
    corrected = ""
    if move.problem:  # --force corrected history: say so in the file (SPEC 5)
        import tomlkit

        line = track.correction(_today(), move)
        arr = doc.get("corrections")
        if arr is None:
            arr = tomlkit.array()
            _insert_top(doc, "corrections", arr)
            arr = doc["corrections"]
        arr.append(line)
        arr.multiline(True)
        corrected = f"; history corrected with --force (was {move.before or 'open'}), recorded under corrections"
    after = replace_record(story, track=new_track, failures=failures)
    if state == "completed":
        return f"chapter {ch} completed{corrected}", _reward_lines(c, ch, after)
    if state == "skipped":
        lines = ["Skipped chapters give no rewards (RB L1084)."]
        if track.is_finished(new_track):
            lines.append("The campaign is finished: chapter 09 is on the Adventure Track.")
        return f"chapter {ch} skipped{corrected}", lines
    n = failures[ch]
    lines = [f"Chapter {ch} stays open on the Adventure Track: play it again (RB L961).",
             "Replaying? The rulebook suggests Taking It Easy, e.g. one more Trauma Cube per hero "
             "(rules.trauma_limit, RB L1022-1028)."]
    return f"chapter {ch}: failed attempt recorded ({n} so far){corrected}", lines


def _reward_lines(c: "Campaign", ch: str, after) -> list[str]:
    from ... import catalog
    from ...rules import rewards, track

    got = rewards.chapter_reward(ch)
    ref = catalog.chapter(ch).refs.get("reward", "RB L1005-1016")
    if got.is_zero():
        lines = [f"Chapter {ch} gives the heroes no rewards to record ({ref})."]
    else:
        lines = [f"Chapter {ch} rewards each hero: {rewards.describe(got)} ({ref})."]
    owing = False
    party = list(c.heroes.values())  # a Spoils card handed over counts for the hero who earned it
    for hero in c.active_heroes().values():
        owed = rewards.owed_for(hero, after, party)
        owing = owing or not owed.is_zero()
        lines.append(f"{hero.name} now owes: {rewards.describe(owed) or 'nothing'}")
    if owing:  # after "no rewards", what is owed comes from earlier chapters (issue 13)
        lines.append(("Record them" if not got.is_zero() else "They are owed from earlier chapters; record them")
                     + " with drunagor hero learn, hero ability and hero gain.")
    if track.is_finished(after.track):
        lines.append("The campaign is finished: chapter 09 is on the Adventure Track.")
    return lines


def record_chapter(c: "Campaign", chapter: str, state: str, force: bool = False) -> list[str]:
    """Write `chapter` on the Adventure Track of a campaign opened for writing, and return the lines
    to print after the command's one-line message.

    `state` is "completed", "skipped" or "failed" (a failed attempt: `[failures]` gains one, the slot
    stays open). Only the next unfilled slot may be filled (RB L961); anything else raises RuleError
    unless `force`, which writes the correction under `corrections`. Completing returns the rewards
    every active hero now owes (RB L1005-1016); skipping gives none (RB L1084).

    It edits the story document in place and does not save: the caller ends with finish(). Note that
    `c.story` still holds the Story Record as it was read.
    """
    return _record(c, chapter, state, force)[1]


def _refuse_under_way(c: "Campaign", n: str, state: str, force: bool) -> None:
    """`chapter complete|skip|fail N` while the adventure of chapter N is under way: the adventure ends
    with `adventure end`, which records the chapter itself (through record_chapter, not here). Filling the
    slot behind its back left adventure.toml with no way out. --force still records it (a correction);
    `adventure end` then only archives."""
    f = c.adventure_file
    if f is None or force:
        return
    try:
        under_way = chapter_id(f.data.get("chapter"))
    except (ValueError, TypeError):
        return  # a broken adventure.toml is `check`'s to report
    if under_way != _chapter_arg(n, c.story):
        return
    remedy = ("end it with `drunagor adventure end --won` (completes the chapter) or `--lost` (records a failed "
              "attempt), which also archives it")
    if state == "skipped":
        remedy += "; then skip the chapter if the party gives it up"
    raise RuleError(f"the adventure of chapter {under_way} is under way", file=f.shown, rule="adventure",
                    remedy=remedy)


def _fill(n: str, state: str, force: bool, commit: bool) -> None:
    with open_campaign(write=True) as c:
        _refuse_under_way(c, n, state, force)
        message, lines = _record(c, n, state, force)
        changed = finish(c, message, commit)
    if changed:
        for line in lines:
            term.line(line)


ChapterArg = Annotated[str, typer.Argument(metavar="N", help="Chapter number, 1 to 9.")]

chapter_app = typer.Typer(help="The Adventure Track (RB L961) and chapter briefings (RB L1058-1309).",
                          no_args_is_help=True)


@chapter_app.command("complete")
def chapter_complete(n: ChapterArg, force: ForceOpt = False, commit: CommitOpt = False) -> None:
    """Fill the next slot of the Adventure Track as completed; list the rewards each hero now owes.

    Only the next unfilled slot may be filled (RB L961). --force corrects history and is recorded in story.toml.
    The chapter of the adventure under way is ended by `drunagor adventure end --won|--lost` instead.

    Example: drunagor adventure end --won && drunagor chapter complete 6
    """
    _fill(n, "completed", force, commit)


@chapter_app.command("skip")
def chapter_skip(n: ChapterArg, force: ForceOpt = False, commit: CommitOpt = False) -> None:
    """Fill the next slot of the Adventure Track as skipped: no rewards (RB L1084).

    Only the next unfilled slot may be filled (RB L961). --force corrects history and is recorded in story.toml.
    The chapter of the adventure under way is ended by `drunagor adventure end --won|--lost` instead.

    Example: drunagor adventure end --lost && drunagor chapter skip 5
    """
    _fill(n, "skipped", force, commit)


@chapter_app.command("fail")
def chapter_fail(n: ChapterArg, force: ForceOpt = False, commit: CommitOpt = False) -> None:
    """Record a failed attempt at the next chapter; its slot stays open.

    The attempts are counted under failures in story.toml. --force records one for another chapter.
    The chapter of the adventure under way is ended by `drunagor adventure end --lost` instead.

    Example: drunagor adventure end --won && drunagor chapter fail 6
    """
    _fill(n, "failed", force, commit)


# ------------------------------------------------------------------------------- chapter briefing

CARD_KINDS = {"minion": "Minion card", "scenario": "Scenario Monster card"}
ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth")


def _plural(n: int, one: str, many: str | None = None) -> str:
    return f"{n} {one if n == 1 else (many or one + 's')}"


def briefing_lines(b: dict) -> list[str]:
    """The briefing of `chapter show` as text lines (b: the --json shape)."""
    refs = b["refs"]
    k = b["heroes"]

    def ref(key: str, extra: str = "") -> str:
        text = ", ".join(x for x in (refs.get(key), extra) if x)
        return f" ({text})" if text else ""

    lines = []
    sd = b["stirring_darkness"]
    lines.append("Stirring Darkness: " + (f"{_plural(sd, 'Rune')} of each colour from the bag to the Initiative "
                                          f"Track{ref('stirring_darkness')}" if sd is not None else "none"))
    lines.append(f"Recall penalty: {_plural(b['recall_penalty'], 'Curse Cube')} per Recall Action"
                 f"{ref('recall_penalty')}")
    raid = b["raid"]
    if raid is None:
        lines.append("Raid: none")
    else:
        summons = " and ".join(f"{s['minion']} ({CARD_KINDS.get(s['kind'], s['kind'])}, {s['models']} models)"
                               for s in raid["summons"])
        name = f" ({b['mechanic']})" if b["mechanic"] and b["mechanic"] != raid["card"] else ""
        party = (f"; raid party of {_plural(b['raid_party'], 'minion')} for {_plural(k, 'hero', 'heroes')}"
                 if b["raid_party"] else "")
        lines.append(f"Raid: {raid['card']} card{name}, face A up; summons {summons}{party}"
                     f"{ref('raid', 'L305-308' if b['raid_party'] else '')}")
    if b["mechanic"] and raid is None:
        lines.append(f"Mechanic: {b['mechanic']}{ref('mechanic')}")
    if refs.get("siege"):
        lines.append("Siege: a monster that cannot spawn activates the first monster of its own kind on the "
                     f"Monster Status board, not the strongest{ref('siege')}")
    if b["darkness_nodes"]:
        lines.append("Darkness Nodes: each Pile of Runes in a setup takes 1 Rune of each colour from the "
                     f"Initiative Track{ref('darkness_nodes')}")
    if b["tie_breaker_runes"] is not None:
        lines.append(f"Tie Breaker: {_plural(b['tie_breaker_runes'], 'Rune')} per Tie Breaker (6 - "
                     f"{_plural(k, 'hero', 'heroes')}) back to the bag, for 1 AC next to a Pile of Runes"
                     f"{ref('tie_breaker')}")
    if b["camaraderie_followers"] is not None:
        lines.append(f"Camaraderie: recruit {_plural(b['camaraderie_followers'], 'Follower')} (5 - "
                     f"{_plural(k, 'hero', 'heroes')}) from {', '.join(b['camaraderie_from'] or [])}"
                     f"{ref('camaraderie')}")
    if b["boss_health"] is not None:
        per = b["boss_health"] // k
        lines.append(f"Boss: {b['boss']}, {b['boss_health']} Health ({per} x {_plural(k, 'hero', 'heroes')})"
                     f"{ref('boss')}")
    t = b["trauma_limit"]
    nxt = ORDINALS[t] if t < len(ORDINALS) else f"{t + 1}th"
    lines.append(f"Trauma limit: {_plural(t, 'Trauma Cube')} per hero; the {nxt} defeats the hero and the "
                 "adventure fails (RB L1026-1032)")
    if b["fails_on_last_rune"]:
        lines.append(f"The adventure also fails when the last Rune in the bag is drawn{ref('losing')}")
    return lines


def _track_line(b: dict) -> str:
    state, n = b["state"], b["failures"]
    tries = f"; {_plural(n, 'failed attempt')}" if n else ""
    if state:
        return f"Adventure Track: {state}{tries}"
    if b["next"]:
        return f"Adventure Track: the next unfilled slot{tries}"
    return f"Adventure Track: open; chapter {b['first_open']} is the next unfilled slot{tries}"


@chapter_app.command("show")
def chapter_show(
    n: Annotated[Optional[str], typer.Argument(metavar="[N]", help="Chapter number (default: the next one).")] = None,
    heroes: Annotated[Optional[int], typer.Option("--heroes", metavar="K",
                                                  help="Number of heroes (default: the party's active heroes).")] = None,
    json: JsonOpt = False,
) -> None:
    """The briefing for chapter N (default: the next), with the party's numbers filled in.

    Stirring Darkness, recall penalty, raid card and its minions, Darkness Nodes, trauma limit.

    Tie Breaker runes (6 - heroes), Camaraderie Followers (5 - heroes), boss Health (40 x heroes).

    Example: drunagor chapter show 7 --heroes 3
    """
    from ... import catalog
    from ...rules import track

    with open_campaign() as c:
        story = c.story
        if n is None:
            ch = story.next_chapter()
            if ch is None:
                raise UsageError("the campaign is finished: chapter 09 is on the Adventure Track, so there is "
                                 "no next chapter", remedy="name one, e.g. drunagor chapter show 9")
        else:
            ch = _chapter_arg(n, story)
        if heroes is None:
            k = len(c.active_heroes())
            if k == 0:
                raise UsageError("the party has no active heroes yet, so its numbers cannot be filled in",
                                 remedy="say how many will play: --heroes K (1 to 5)")
            if k not in track.HEROES:
                raise UsageError(f"the party has {k} active heroes; a party has 1 to 5",
                                 remedy="say how many will play: --heroes K (1 to 5)")
        else:
            k = heroes
            if k not in track.HEROES:
                raise UsageError(f"--heroes must be from 1 to 5, not {k}",
                                 remedy="4 heroes; 5 with extra-hero content (RB L941-943)")
        warn_all(c)
    b = track.briefing(catalog.chapter(ch), k, story.rules.trauma_limit)
    first_open = story.next_chapter()
    b["state"] = story.track.get(ch)
    b["failures"] = story.failures.get(ch, 0)
    b["next"] = ch == first_open
    if json:
        term.json(b)
        return
    b["first_open"] = first_open
    term.heading(f"Chapter {ch}: {b['title']}, for {_plural(k, 'hero', 'heroes')}")
    for line in briefing_lines(b):
        term.line(line)
    term.line(_track_line(b))


def register(app: typer.Typer) -> None:
    app.command()(party)
    app.command()(leader)
    app.add_typer(follower_app, name="follower")
    app.add_typer(outcome_app, name="outcome")
    app.add_typer(status_app, name="status")
    app.add_typer(chapter_app, name="chapter")
