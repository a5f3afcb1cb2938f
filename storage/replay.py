"""State = latest snapshot + replay of the later actions (ARCHITECTURE.md, "Sessions and storage").

Also the audits built on replay: ``check_database`` (``tabula db check``) and
``verify_session`` (``tabula verify``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.core import Game, GameError, Outcome, Rng, get_game, start

from .base import ActionRecord, CheckReport, SessionRecord, Storage, seed_hash


def _short(error: BaseException, limit: int = 160) -> str:
    """An exception's text cut to ``limit`` characters (a damaged row can hold kilobytes)."""
    text = "".join(c if c.isprintable() else "\N{REPLACEMENT CHARACTER}" for c in str(error))
    return text if len(text) <= limit else text[: limit - 1] + "…"


def short_error(error: BaseException, limit: int = 160) -> str:
    """``_short`` on one line: a pydantic ValidationError's lines joined with spaces."""
    return _short(Exception(" ".join(str(error).split())), limit)


def rules_note(game: Game, version: int) -> str:
    """How a session's rules version compares with the one ``game`` plays, for a message:
    ``"an older version of Soul of the Empire's rules (version 1; this bot plays version 2)"``."""
    age = "an older" if version < game.rules_version else "a newer" if version > game.rules_version else "this"
    return f"{age} version of {game.title}'s rules (version {version}; this bot plays version {game.rules_version})"


def options_of(game: Game, rec: SessionRecord) -> Any:
    """The session's options as the game's ``Options`` model."""
    return game.Options.model_validate(rec.options)


def seats_of(rec: SessionRecord) -> list[int]:
    """The seat numbers passed to ``Game.setup``: 0 .. len(seats) - 1."""
    return list(range(len(rec.seats)))


def state_json(state: Any) -> dict[str, Any]:
    """A state as stored in snapshots."""
    return state.model_dump(mode="json")


def replay_rows(game: Game, state: Any, rows: list[ActionRecord], seed: int) -> Any:
    """Apply logged rows (seq >= 1, in order) to ``state``; row seq n draws from Rng(seed, n).

    Raises the GameError of a row that does not apply (a corrupt log)."""
    for row in rows:
        if row.seat is None or row.action is None:
            raise GameError(f"log row {row.seq} has no seat or action")
        action = game.action_from_json(row.action)
        state = game.apply(state, row.seat, action, Rng(seed, row.seq)).state
    return state


async def load_state(storage: Storage, game: Game, rec: SessionRecord) -> Any:
    """The state of a started session after action ``rec.seq``.

    Reads the newest snapshot at or before ``rec.seq`` and replays the rows after it
    (at most the snapshot interval); without a snapshot it sets up from the seed.

    Raises
    ------
    GameError
        The log does not replay (corrupt or written by incompatible rules).
    """
    snap = await storage.latest_snapshot(rec.id, rec.seq)
    if snap is None:
        state = start(game, seats_of(rec), options_of(game, rec), rec.seed).state
        after = 0
    else:
        after, data = snap
        state = game.state_from_json(data)
    rows = await storage.actions(rec.id, after=after, through=rec.seq)
    return replay_rows(game, state, rows, rec.seed)


@dataclass(frozen=True)
class Replayed:
    """A full replay from the seed: the final state, the outcome, and problems found.

    ``old_rules``: for a session saved under another ``rules_version`` of its game whose log
    no longer replays (or no longer matches its snapshots, whose turn it is or its outcome),
    one line saying so; those differences are then not ``problems`` (the rules changed, the
    database is sound)."""

    state: Any
    outcome: Outcome | None
    problems: list[str]
    old_rules: str | None = None


async def replay_session(storage: Storage, rec: SessionRecord) -> Replayed:
    """Replay session ``rec.id`` from setup through every logged row, comparing each stored
    snapshot and the stored ``to_act`` and ``outcome``. The session, its log and its snapshots
    are read in one transaction (``Storage.session_log``), so a game being played meanwhile is
    seen at one moment. Never raises for a bad log: problems are returned as sentences naming
    the session and seq."""
    name = f"session {rec.id} ({rec.game_id}, channel {rec.channel_id})"
    try:
        rec, rows, snap_list = await storage.session_log(rec.id)
    except Exception as e:  # noqa: BLE001 - a damaged row is reported, not raised
        return Replayed(None, None, [f"{name}: its log cannot be read: {_short(e)}"])
    snaps = dict(snap_list)
    problems: list[str] = []
    try:
        game = get_game(rec.game_id)
    except Exception as e:  # noqa: BLE001 - reported, not raised
        return Replayed(None, None, [f"{name}: cannot set up: {e}"])
    try:
        state = start(game, seats_of(rec), options_of(game, rec), rec.seed).state
    except Exception as e:  # noqa: BLE001 - reported, not raised
        return _judged(game, rec, name, Replayed(None, None, []), [f"cannot set up: {short_error(e)}"])
    seqs = [r.seq for r in rows]
    if seqs != list(range(rec.seq + 1)):
        problems.append(f"{name}: log rows {seqs[:3]}...{seqs[-3:]} are not 0..{rec.seq} without gaps")
    differs: list[str] = []  # what the rules decide: told apart from damage when the rules changed
    for row in rows:
        if row.seq == 0:
            continue
        try:
            state = replay_rows(game, state, [row], rec.seed)
        except Exception as e:  # noqa: BLE001
            differs.append(f"action {row.seq} ({row.notation!r}) does not replay: {short_error(e)}")
            return _judged(game, rec, name, Replayed(state, None, problems), differs)
        if row.seq in snaps and snaps[row.seq] != state_json(state):
            differs.append(f"snapshot at action {row.seq} differs from the replayed state")
    extra = sorted(s for s in snaps if s > rec.seq)
    if extra:
        problems.append(f"{name}: snapshots after the last action: {extra}")
    to_act = tuple(sorted(game.to_act(state)))
    if rec.status == "active" and to_act != tuple(sorted(rec.to_act)):
        differs.append(f"stored seats to act {list(rec.to_act)} but the replay asks {list(to_act)}")
    outcome = game.outcome(state)
    if rec.status == "finished":
        stored = None if rec.outcome is None else Outcome.model_validate(rec.outcome)
        if stored != outcome:
            differs.append(f"stored outcome {stored} but the replay gives {outcome}")
    return _judged(game, rec, name, Replayed(state, outcome, problems), differs)


def _judged(game: Game, rec: SessionRecord, name: str, replayed: Replayed, differs: list[str]) -> Replayed:
    """``replayed`` with what the rules decided differently (``differs``): problems of a session
    saved under the rules this code plays, else its one ``old_rules`` line."""
    if not differs:
        return replayed
    if rec.rules_version == game.rules_version:
        return Replayed(replayed.state, replayed.outcome, [*replayed.problems, *(f"{name}: {d}" for d in differs)])
    if rec.status == "active":
        how = ("suspended; its creator or a moderator ends it with /game abandon" if rec.suspended is not None
               else "the bot suspends it when it next loads it; /game abandon ends it")
    else:
        how = f"{rec.status}; its log is kept, this version cannot replay it"
    more = f" (and {len(differs) - 1} more difference(s))" if len(differs) > 1 else ""
    line = f"{name}: saved under {rules_note(game, rec.rules_version)}: {differs[0]}{more}; {how}"
    return Replayed(replayed.state, replayed.outcome, replayed.problems, line)


#: The sessions ``check_database`` replays: every started one (one abandoned in its lobby has no log).
CHECKED_STATUSES = ("active", "finished", "abandoned")


async def check_database(storage: Storage) -> CheckReport:
    """The backend's integrity and foreign-key checks (for SQLite also every row read back,
    ``storage.audit``), then a full replay of every started session (active, finished,
    abandoned), each read in one transaction. Reads only."""
    integrity, fks = await storage.integrity()
    problems: list[str] = []
    old_rules: list[str] = []
    try:
        sessions = [r for r in await storage.sessions_with_status(*CHECKED_STATUSES) if r.started_at is not None]
    except Exception as e:  # noqa: BLE001 - the sessions table itself is damaged
        return CheckReport(integrity, fks, 0, [f"the list of sessions cannot be read: {_short(e)}"])
    for rec in sessions:
        result = await replay_session(storage, rec)
        problems.extend(result.problems)
        if result.old_rules is not None:
            old_rules.append(result.old_rules)
    return CheckReport(integrity, fks, len(sessions), problems, old_rules)


async def verify_session(storage: Storage, session_id: int) -> tuple[bool, list[str]]:
    """Fairness check of a finished session: sha256(seed) equals the hash published at
    the start, and the log replays from the seed to the stored outcome. A session saved
    under another version of its game's rules that no longer replays is not verified
    (ok False) and a line says so (``Replayed.old_rules``).

    Returns (ok, lines to print). Raises UnknownSessionError."""
    rec = await storage.get_session(session_id)
    where = "in the terminal" if rec.guild_id is None and rec.channel_id == 0 else f"in channel {rec.channel_id}"
    lines = [f"Session {rec.id}: {rec.game_id} {where}, {rec.status}."]
    if rec.status not in ("finished", "abandoned"):
        return False, [*lines, "The game is not over: its seed stays secret until the end."]
    ok = True
    digest = seed_hash(rec.seed)
    if digest == rec.seed_hash:
        lines.append(f"Seed {rec.seed}: sha256 {digest} matches the hash published at the start.")
    else:
        ok = False
        lines.append(f"Seed {rec.seed}: sha256 {digest} does NOT match the published {rec.seed_hash}.")
    result = await replay_session(storage, rec)
    if result.old_rules is None:
        lines.append(f"Replayed {rec.seq} actions from the seed.")
    if result.outcome is not None:
        game = get_game(rec.game_id)
        won = [game.seat_label(result.state, x) for x in result.outcome.winners]
        who = (f"{won[0]} wins" if len(won) == 1 else
               f"{', '.join(won)} win" if won else "no winner")
        lines.append(f"Outcome: {who}; {result.outcome.reason}")
    if result.old_rules is not None:
        ok = False
        lines.append(f"{result.old_rules}. A release of Tabula that plays that version can verify it.")
    if result.problems:
        ok = False
        lines.extend(result.problems)
    elif result.old_rules is None:
        lines.append("The log replays to the stored outcome." if rec.status == "finished" else
                     "The log replays cleanly (the game was abandoned).")
    return ok, lines
