"""Story Record operations (RB L951-962): the party's name, the Party Leader, Followers, Outcomes,
Story Record statuses, and the Adventure Track (`chapter complete|skip|fail`, `adventure end`).

Every write edits story.toml in place through the store's editing layer: comments, key order and
keys a user added survive; a list holds one name per line, in the order things happen, so two
players' additions merge cleanly in git. Nothing is saved here: the caller saves the campaign.

    with Campaign(root) as c:
        change = ops.story.record_chapter(c, "03", "completed")
        c.save()
    change.summary   # "chapter 03 completed"
    change.notes     # the rewards every active hero now owes (RB L1005-1016)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .. import catalog
from ..errors import RuleError, UsageError
from ..model import chapter_id
from ..names import closest, lookup, match, resolve
from ..rules import cards, rewards, track
from ..rules.chapters import counters_kept, ending_triggers, losing_conditions, setup_numbers
from ..rules.checklist import checklist, checklist_lines
from ..rules.heroes import RECORD_WITH
from ..store import edit
from ..text import a, joined
from ..values import replace
from . import Change, Line
from .cards import known_names, resolve_card
from .typed import typed_chapter

if TYPE_CHECKING:
    from ..campaign import Campaign
    from ..model import Hero, Story
    from ..rules.track import Move

# The Story Record's lists of names: key in story.toml -> (catalog kind, what one entry is called,
# the command that edits it, the rulebook lines).
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
    "stash": ("statuses", "outcomes", "followers", "leader", "party", "campaign", "schema"),
}
VERBS = {"completed": "complete", "skipped": "skip", "failed": "fail"}


def _today() -> str:
    """The date written with a correction (a function, so tests can fix it)."""
    import datetime

    return datetime.date.today().isoformat()


# ----------------------------------------------------------------------------------- party, leader


def set_party(c: Campaign, name: str) -> Change:
    """Set the party's name (Story Record, RB L959)."""
    name = name.strip()
    if not name:
        raise UsageError("the party name is empty", remedy='give one, e.g. drunagor party "Safeguard Corporation"')
    edit.set_value(c.story_file.edit(), "party", name, PLACE_AFTER["party"])
    return Change(f"party name: {name}", data={"party": name})


def find_leader(c: Campaign, query: str) -> Hero:
    """The active hero `query` names (case-insensitive, unique prefix); a retired hero is refused."""
    active = {h.name: h for h in c.active_heroes().values()}
    try:
        return lookup(query, active, "active hero", game=True)
    except (UsageError, RuleError) as exc:
        retired = {h.name: h for h in c.heroes.values() if not h.active}
        try:
            gone = lookup(query, retired, "hero", game=True)
        except (UsageError, RuleError):
            gone = None
        names = ", ".join(sorted(active))
        remedy = f"the Party Leader is one of the active heroes: {names}" if active else \
            "add the heroes first (drunagor hero add NAME --role ROLE)"
        if gone is not None:
            raise RuleError(f"{gone.name} has left the party (retired); the Party Leader must be an active hero",
                            file=c.story_file.shown, rule="leader", remedy=remedy) from None
        hint = exc.remedy + "; " if exc.remedy and "did you mean" in exc.remedy else ""
        raise type(exc)(exc.message, rule="leader", remedy=hint + remedy) from None


def set_leader(c: Campaign, hero: str) -> Change:
    """Set the Party Leader, who breaks the ties the rules leave to the party (RB L453, L1072)."""
    chosen = find_leader(c, hero)
    edit.set_value(c.story_file.edit(), "leader", chosen.name, PLACE_AFTER["leader"])
    return Change(f"Party Leader: {chosen.name}", data={"leader": chosen.name})


# ------------------------------------------------------------------------ followers, outcomes, ...


def _known(key: str) -> tuple[str, ...]:
    return catalog.names(LISTS[key][0])


def _resolve_new(key: str, query: str, new: bool) -> str:
    """The name to write: the catalog spelling of a known name (any case, or a unique prefix of it);
    a name drunagor does not know only with `new` (else refused with the closest name: a typo is
    never written as a side effect)."""
    typed = " ".join(query.split())
    if not typed:
        raise UsageError("the name is empty", remedy="give the name as written in the book")
    what = LISTS[key][1]
    try:
        return resolve(typed, _known(key), what, game=True, new=new,
                       new_hint=f"if it is {a(what)} drunagor does not know, add --new to record it")
    except UsageError as exc:  # several names begin so
        exc.remedy = f"type more of the {what}'s name"
        raise


def _resolve_recorded(c: Campaign, key: str, query: str) -> tuple[str, int]:
    """(the recorded entry `query` names, its index): the one resolver's order against the names on the
    Story Record; else a refusal (exit 1) with the closest one."""
    f = c.story_file
    recorded: tuple[str, ...] = getattr(c.story, key)
    typed = " ".join(query.split())
    _, what, _, rb = LISTS[key]
    try:
        name = match(typed, recorded) if typed else None
    except UsageError as exc:  # several names begin so
        exc.remedy = f"type more of the {what}'s name"
        raise
    if name is None:
        hint = closest(typed, recorded)
        listed = ", ".join(recorded) if recorded else "none"
        where = f" ({rb})" if rb else ""
        raise f.refuse((key,), f"there is no {what} {typed!r} on the Story Record{where}", rule=key,
                       remedy=(f"did you mean {hint!r}? " if hint else "") + f"the {key} recorded are: {listed}")
    return name, recorded.index(name)


def add_name(c: Campaign, key: str, query: str, new: bool = False) -> Change:
    """Write a name on one of the Story Record's lists (`followers`, `outcomes`, `statuses`); a name
    drunagor does not know only with `new`."""
    name = _resolve_new(key, query, new)
    what = LISTS[key][1]
    f = c.story_file
    twin = catalog.canonical(name, getattr(c.story, key))
    if twin is not None:
        raise f.refuse((key,), f"{what} {twin!r} is already written on the Story Record", rule=key,
                       remedy="each name is written once; nothing to do")
    edit.append_entry(f.edit(), key, name, PLACE_AFTER[key])
    if key == "followers":
        summary = f"{name} follows the party: Follower written on the Story Record (RB L455)"
    elif key == "outcomes":
        summary = f"Outcome {name} written on the Story Record (RB L962)"
    else:
        summary = f"Story Record status {name} written"
    return Change(summary, data={key[:-1]: name})


def remove_name(c: Campaign, key: str, query: str) -> Change:
    """Erase a name from one of the Story Record's lists (the inverse of add_name)."""
    name, index = _resolve_recorded(c, key, query)
    edit.remove_entry(c.story_file.edit(), key, index)
    if key == "followers":
        summary = f"{name} erased from the Story Record's Followers (RB L459)"
    elif key == "outcomes":
        summary = f"Outcome {name} erased from the Story Record"
    else:
        summary = f"Story Record status {name} erased"
    return Change(summary, data={key[:-1]: name})


def add_follower(c: Campaign, name: str, new: bool = False) -> Change:
    """A Follower joins the party (RB L455)."""
    return add_name(c, "followers", name, new)


def remove_follower(c: Campaign, name: str) -> Change:
    """A Follower is defeated or dismissed, or was written by mistake (RB L459)."""
    return remove_name(c, "followers", name)


def add_outcome(c: Campaign, name: str, new: bool = False) -> Change:
    """The book says to write an Outcome (RB L962)."""
    return add_name(c, "outcomes", name, new)


def remove_outcome(c: Campaign, name: str) -> Change:
    return remove_name(c, "outcomes", name)


def add_status(c: Campaign, name: str, new: bool = False) -> Change:
    """A status of the Story Record (the party's; a hero's are in the Campaign Log)."""
    return add_name(c, "statuses", name, new)


def remove_status(c: Campaign, name: str) -> Change:
    return remove_name(c, "statuses", name)


# ---------------------------------------------------------------------------- the Adventure Track


def chapter_arg(value: Any, c: Campaign | None = None) -> str:
    """"5", 5 or "05" -> "05"; a usage error for anything else (there is no chapter 10)."""
    typed_chapter(value)
    try:
        return chapter_id(value)
    except ValueError:
        done = ""
        if c is not None and c.story.next_chapter() is None:
            done = "; the campaign is finished: chapter 09 is on the Adventure Track"
        raise RuleError(f"no chapter {str(value)!r}: the Awakenings campaign has chapters 01 to 09{done}",
                         remedy="give a chapter number from 1 to 9") from None


def _refusal(move: Move, f: Any, under_way: str | None = None) -> RuleError:
    nxt = move.next_open
    n = int(move.chapter)
    force = f"drunagor chapter {VERBS[move.action]} {n} --force"
    if move.before is None and under_way == nxt:
        remedy = (f"chapter {nxt} is under way: end it first (drunagor adventure end --won|--lost), or correct "
                  f"history with `{force}` (recorded in story.toml)")
    elif move.before is None:
        remedy = (f"play chapter {nxt} first (drunagor chapter complete|skip|fail {int(nxt or 0)}), or correct "
                  f"history with `{force}` (recorded in story.toml)")
    elif move.before == move.action:
        remedy = ("nothing to record" + (f"; the next unfilled slot is chapter {nxt}" if nxt else ""))
    elif move.action == "failed":
        remedy = ((f"the next unfilled slot is chapter {nxt}; " if nxt else "")
                  + f"to record a forgotten attempt anyway: {force} (recorded in story.toml)")
    else:
        remedy = f"to correct history: {force} (recorded in story.toml)"
    key = edit.chapter_key(f.data.get("track", {}), move.chapter, chapter_id)
    return f.refuse(("track", key) if key else ("track",), f"{move.problem} (RB L961)", rule="adventure-track",
                    remedy=remedy)


def record_chapter(c: Campaign, chapter: Any, state: str, force: bool = False) -> Change:
    """Write `chapter` on the Adventure Track; the one way a chapter is written (`adventure end` too).

    `state` is "completed", "skipped" or "failed" (a failed attempt: `[failures]` gains one, the slot
    stays open). Only the next unfilled slot may be filled (RB L961); anything else is a RuleError
    unless `force`, which writes the correction under `corrections`. Completing lists in `notes` the
    rewards every active hero now owes (RB L1005-1016); skipping gives none (RB L1084).

    It edits the story document and does not save; `c.story` still holds the Story Record as read.
    """
    ch = chapter_arg(chapter, c)
    if state not in track.ACTIONS:
        raise ValueError(f"state must be one of {', '.join(track.ACTIONS)}, not {state!r}")
    story, f = c.story, c.story_file
    move = track.plan(story.track, ch, state)
    if move.problem and not force:
        raise _refusal(move, f, _chapter_under_way(c))
    if not move.changes:
        return Change(f"chapter {ch} is already {move.before}", data={"chapter": ch, "state": move.before})
    failures = _write_move(c, move)
    corrected = ""
    if move.problem:  # --force corrected history: say so in the file (SPEC 5)
        edit.append_entry(f.edit(), "corrections", track.correction(_today(), move))
        corrected = f"; history corrected with --force (was {move.before or 'open'}), recorded under corrections"
    data = {"chapter": ch, "state": state, "corrected": bool(move.problem)}
    if state == "failed":
        n = failures[ch]
        easy = story.rules.trauma_limit >= 2  # already Taking It Easy (or easier): nothing to suggest
        lines = (f"Chapter {ch} stays open on the Adventure Track: play it again (RB L961).",
                 "Replaying Taking It Easy already: each hero holds 2 Trauma Cubes, the third defeats them "
                 "(RB L1028)." if easy else
                 "Replaying? The rulebook suggests Taking It Easy, one more Trauma Cube per hero "
                 "(RB L1022-1028): drunagor rules set --difficulty easy.")
        return Change(f"chapter {ch}: failed attempt recorded ({n} so far){corrected}", lines, data=data)
    new_track = {**story.track, ch: state}
    if state == "completed":
        after = replace(story, track=new_track, failures=failures)
        return Change(f"chapter {ch} completed{corrected}", tuple(_reward_lines(c, ch, after)), data=data)
    skipped = ["Skipped chapters give no rewards (RB L1084)."]
    if track.is_finished(new_track):
        skipped.append("The campaign is finished: chapter 09 is on the Adventure Track.")
    return Change(f"chapter {ch} skipped{corrected}", tuple(skipped), data=data)


def _write_move(c: Campaign, move: Move) -> dict[str, int]:
    """Fill the slot, or count the failed attempt under [failures]; the failures after the move."""
    doc = c.story_file.edit()
    failures = dict(c.story.failures)
    if move.fills:
        edit.put_in_chapter_table(doc, "track", move.chapter, move.action, chapter_id)
    else:
        failures[move.chapter] = failures.get(move.chapter, 0) + 1
        edit.put_in_chapter_table(doc, "failures", move.chapter, failures[move.chapter], chapter_id, after="track")
    return failures


def _reward_lines(c: Campaign, ch: str, after: Story) -> list[str]:
    got = rewards.chapter_reward(ch)
    ref = catalog.chapter(ch).refs.get("reward", "RB L1005-1016")
    if got.is_zero():
        lines = [f"Chapter {ch} gives the heroes no rewards to record ({ref})."]
    else:
        lines = [f"Chapter {ch} rewards each hero: {rewards.describe(got)} ({ref})."]
    commands: list[str] = []  # the commands that record what is owed, and only those
    party = list(c.heroes.values())  # a Spoils card handed over counts for the hero who earned it
    for hero in c.active_heroes().values():
        owed = rewards.owed_for(hero, after, party)
        lines.append(f"{hero.name} now owes: {rewards.describe(owed) or 'nothing'}")
        for field, n in owed.as_dict().items():
            name = " ".join(RECORD_WITH[field][1].split()[1:3])  # "hero learn", "spoils upgrade"
            name += " --reward" if field == "spoils_upgrades" else ""  # the reward, not a Chest upgrade
            if n and name not in commands:
                commands.append(name)
    if commands:  # after "no rewards", what is owed comes from earlier chapters
        lines.append(("Record them" if not got.is_zero() else "They are owed from earlier chapters; record them")
                     + " with drunagor " + joined(commands) + ".")
    if track.is_finished(after.track):
        lines.append("The campaign is finished: chapter 09 is on the Adventure Track.")
    return lines


def _chapter_under_way(c: Campaign) -> str | None:
    """The chapter of the adventure under way; None without one (or with a broken adventure.toml,
    which is `check`'s to report)."""
    f = c.adventure_file
    if f is None:
        return None
    try:
        return chapter_id(f.data.get("chapter"))
    except (ValueError, TypeError):
        return None


def _refuse_under_way(c: Campaign, n: Any, state: str, force: bool) -> None:
    """`chapter complete|skip|fail N` while the adventure of chapter N is under way: the adventure ends
    with `adventure end`, which records the chapter itself (through record_chapter). Filling the slot
    behind its back left adventure.toml with no way out. --force still records it (a correction);
    `adventure end` then only archives."""
    under_way = None if force else _chapter_under_way(c)
    f = c.adventure_file
    if f is None or under_way is None or under_way != chapter_arg(n, c):
        return
    remedy = ("end it with `drunagor adventure end --won` (completes the chapter) or `--lost` (records a failed "
              "attempt), which also archives it")
    if state == "skipped":
        remedy += "; then skip the chapter if the party gives it up"
    raise RuleError(f"the adventure of chapter {under_way} is under way", file=f.shown, rule="adventure",
                    remedy=remedy)


def fill_chapter(c: Campaign, chapter: Any, state: str, force: bool = False) -> Change:
    """`drunagor chapter complete|skip|fail N`: record_chapter, refused for the chapter of the adventure
    under way (which `adventure end` records)."""
    _refuse_under_way(c, chapter, state, force)
    return record_chapter(c, chapter, state, force)


# ------------------------------------------------------------------------------- chapter briefing


def briefing(c: Campaign, chapter: Any = None, heroes: int | None = None) -> Change:
    """The briefing of chapter N (default: the next) for the party's numbers: `data` holds the
    `chapter show --json` shape, `notes` the lines a person reads."""
    story = c.story
    if chapter is None:
        ch = story.next_chapter()
        if ch is None:
            raise UsageError("the campaign is finished: chapter 09 is on the Adventure Track, so there is "
                             "no next chapter", remedy="name one, e.g. drunagor chapter show 9")
    else:
        ch = chapter_arg(chapter, c)
    k = _party_size(c, heroes)
    b = track.briefing(catalog.chapter(ch), k, story.rules.trauma_limit)
    b.update(setup_numbers(ch, k))  # SPEC 10: the setup numbers by party size
    b.update(losing=losing_conditions(ch), endings=ending_triggers(ch), chapter_counters=counters_kept(ch, k))
    first_open = story.next_chapter()
    b["state"] = story.track.get(ch)
    b["failures"] = story.failures.get(ch, 0)
    b["next"] = ch == first_open
    b["checklist"] = checklist(b)  # issue 42: every paragraph of the chapter, in the book's order
    heading = Line(f"Chapter {b['chapter']}: {b['title']}, for {track.plural(b['heroes'], 'hero', 'heroes')}", "bold")
    return Change(notes=(heading, *checklist_lines(b["checklist"]),
                         track.track_line(b["state"], b["failures"], b["next"], first_open)), data=b)


def _party_size(c: Campaign, heroes: int | None) -> int:
    if heroes is not None:
        if heroes not in track.HEROES:
            raise UsageError(f"--heroes must be from 1 to 5, not {heroes}",
                             remedy="4 heroes; 5 with extra-hero content (RB L941-943)")
        return heroes
    k = len(c.active_heroes())
    if k == 0:
        raise UsageError("the party has no active heroes yet, so its numbers cannot be filled in",
                         remedy="say how many will play: --heroes K (1 to 5)")
    if k not in track.HEROES:
        raise UsageError(f"the party has {k} active heroes; a party has 1 to 5",
                         remedy="say how many will play: --heroes K (1 to 5)")
    return k


# ------------------------------------------------------------------------------------ party stash


def add_to_stash(c: Campaign, item: str, new: bool = False) -> Change:
    """Put a Consumable Item in the party stash (story.toml `stash`): to take back a `stash remove`
    made by mistake. Only Consumable Items are stashed (RB L972-974); a card drunagor does not know
    is added only with `new`."""
    story = c.story
    name = resolve_card(item, known_names(story), new=new,
                        new_hint="if it is a card drunagor does not know, add --new to record it")
    kind = _kind_of(story, name)
    if kind is not None and kind != "consumable":
        raise c.story_file.refuse(("stash",), f"{name} is {a(kind)} card, not a Consumable Item: only Consumable "
                                  "Items go to the party stash (RB L972-974)", rule="stash",
                                  remedy="a leaving hero's other cards return to the box")
    edit.append_entry(c.story_file.edit(), "stash", name, PLACE_AFTER["stash"])
    return Change(f"party stash: {name} added ({len(story.stash) + 1} in the stash)", data={"item": name})


def _kind_of(story: Story, name: str) -> str | None:
    return cards.facts_of(name, story.cards)["kind"]


def show_stash(c: Campaign) -> Change:
    """The party stash (story.toml `stash`): the Consumable Items left by heroes who left, to hand out
    (RB L972-974). `data` is the --json object, `notes` the lines."""
    stash = list(c.story.stash)
    if not stash:
        return Change(data={"stash": stash},
                      notes=("Party stash: empty (a hero who leaves puts their Consumable Items here, RB L972-974)",))
    counts: dict[str, int] = {}
    for name in stash:
        counts[name] = counts.get(name, 0) + 1
    held = ", ".join(name if n == 1 else f"{name} x{n}" for name, n in counts.items())
    return Change(data={"stash": stash},
                  notes=(f"Party stash ({len(stash)}): {held}",
                         "hand one out with: drunagor hero give stash HERO ITEM"))


def remove_from_stash(c: Campaign, item: str) -> Change:
    """Take a card out of the party stash (recorded by mistake, or returned to the box); with two
    copies, the last one goes (so `stash add X` then `stash remove X` leaves the file as it was)."""
    story, f = c.story, c.story_file
    if not story.stash:
        raise f.refuse(("stash",), "the party stash is empty", rule="stash", remedy="nothing to take out")
    with f.about(("stash",)):
        name = resolve_card(item, story.stash)
    index = len(story.stash) - 1 - story.stash[::-1].index(name)
    edit.remove_entry(f.edit(), "stash", index)
    return Change(f"party stash: {name} taken out ({len(story.stash) - 1} left)", data={"item": name})
