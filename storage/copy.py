"""Copy a SQLite database to PostgreSQL and prove the copy identical (``tabula migrate``).

Every session is copied with its id, version, seats, whole action log, snapshots, followers
and reminder pings, in one transaction per session; then the results, ratings and mirrors, user preferences and guild
settings. The copy is verified afterwards, session by session: the stored records must be
equal, and a full replay from the seed on the copy must reach the same state as on the
original, with no problem found (``storage.replay.replay_session``).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from .base import UserPrefs
from .postgres import PostgresStorage
from .replay import replay_session, state_json
from .sqlite import SqliteStorage


class CopyError(Exception):
    """The copy cannot start (the target is not empty); nothing was written."""


@dataclass
class CopyReport:
    """What was copied (counts) and what the verification found (empty when identical)."""

    sessions: int = 0
    actions: int = 0
    replayed: int = 0
    users: int = 0
    guilds: int = 0
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


async def copy_sqlite_to_postgres(
    src: SqliteStorage, dst: PostgresStorage, *, progress: Callable[[str], None] | None = None
) -> CopyReport:
    """Copy everything in ``src`` to the empty ``dst`` (both open), then verify it.

    Raises
    ------
    CopyError
        ``dst`` already holds sessions.
    """
    say = progress or (lambda _text: None)
    existing = await dst.count_sessions()
    if existing:
        raise CopyError(f"the PostgreSQL database already holds {existing} session(s); migrate into an empty one")
    report = CopyReport()
    ids = [r[0] for r in await src.db.execute_fetchall("SELECT id FROM sessions ORDER BY id")]
    for n, sid in enumerate(ids, start=1):
        rec = await src.get_session(sid)
        rows = await src.actions(sid)
        followers = [(r[0], r[1]) for r in await src.db.execute_fetchall(
            "SELECT user_id, since FROM followers WHERE session_id = ? ORDER BY user_id", (sid,))]
        pings = [(r[0], r[1], r[2], r[3]) for r in await src.db.execute_fetchall(
            "SELECT user_id, waiting_since, pings, last_at FROM reminder_pings WHERE session_id = ?", (sid,))]
        await dst.import_session(rec, rows, await src.snapshots(sid), followers, pings)
        report.sessions += 1
        report.actions += len(rows)
        if n % 100 == 0:
            say(f"copied {n} of {len(ids)} sessions")
    await dst.finish_import()
    for pending in await src.outbox_due(float("inf"), limit=1_000_000):  # messages not delivered yet
        await dst.outbox_add(pending.session_id, pending.kind, pending.payload, pending.created_at, pending.next_at)
    for user_id, dms, hours, at, notify, auto in await src.db.execute_fetchall(
            "SELECT user_id, dms, reminder_hours, updated_at, notify, auto_pass FROM user_prefs ORDER BY user_id"):
        await dst.set_prefs(UserPrefs(user_id, bool(dms), hours, notify, None if auto is None else bool(auto)), at)
        report.users += 1
    for user_id, at in await src.db.execute_fetchall("SELECT user_id, closed_at FROM closed_dms ORDER BY user_id"):
        await dst.set_closed_dms(user_id, at)
    for sid, user_id, at in await src.db.execute_fetchall(
            "SELECT session_id, user_id, at FROM closed_dm_notices ORDER BY session_id, user_id"):
        await dst.claim_closed_dm_notice(sid, user_id, at)
    ratings = []
    for sid, seat, mark, since in await src.db.execute_fetchall(
            "SELECT session_id, seat, mark, since FROM standing_passes ORDER BY session_id, seat"):
        await dst.set_standing_pass(sid, seat, mark, since)
    for (game_id,) in await src.db.execute_fetchall("SELECT DISTINCT game_id FROM ratings ORDER BY game_id"):
        ratings.extend(await src.ratings(game_id))
    await dst.replace_results(await src.results(), ratings, time.time())
    for sid, channel_id, set_by, since in await src.db.execute_fetchall(
            "SELECT session_id, channel_id, set_by, since FROM mirrors ORDER BY session_id, channel_id"):
        await dst.set_mirror(sid, channel_id, set_by, since)
    for guild_id, _settings, at in await src.db.execute_fetchall(
            "SELECT guild_id, settings, updated_at FROM guild_settings ORDER BY guild_id"):
        await dst.set_guild_settings(guild_id, await src.get_guild_settings(guild_id), at)
        report.guilds += 1
    say(f"copied {report.sessions} sessions, {report.actions} actions; verifying")
    await _verify(src, dst, ids, report)
    return report


async def _verify(src: SqliteStorage, dst: PostgresStorage, ids: list[int], report: CopyReport) -> None:
    for sid in ids:
        a, b = await src.get_session(sid), await dst.get_session(sid)
        name = f"session {sid}"
        if a != b:
            report.problems.append(f"{name}: the stored session or its seats differ")
            continue
        if await src.actions(sid) != await dst.actions(sid):
            report.problems.append(f"{name}: the action log differs")
        if await src.snapshots(sid) != await dst.snapshots(sid):
            report.problems.append(f"{name}: the snapshots differ")
        if await src.followers(sid) != await dst.followers(sid) or \
                await src.reminder_pings(sid) != await dst.reminder_pings(sid):
            report.problems.append(f"{name}: followers or reminder pings differ")
        if a.started_at is None:
            continue  # a lobby (or a lobby abandoned before the start) has nothing to replay
        mine, theirs = await replay_session(src, a), await replay_session(dst, b)
        report.problems.extend(f"after the copy: {p}" for p in theirs.problems if p not in mine.problems)
        if mine.state is not None and (theirs.state is None or state_json(mine.state) != state_json(theirs.state)):
            report.problems.append(f"{name}: the replay of the copy reaches another state")
        report.replayed += 1
    for user_id in [r[0] for r in await src.db.execute_fetchall("SELECT user_id FROM user_prefs")]:
        if await src.get_prefs(user_id) != await dst.get_prefs(user_id):
            report.problems.append(f"user {user_id}: preferences differ")
    for guild_id in [r[0] for r in await src.db.execute_fetchall("SELECT guild_id FROM guild_settings")]:
        if await src.get_guild_settings(guild_id) != await dst.get_guild_settings(guild_id):
            report.problems.append(f"guild {guild_id}: settings differ")
