"""Shared helpers for the storage and host tests (the toy game "count" is registered on import)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import tests.toygame  # noqa: F401  (registers "count")
from bot.host import Host, HostSettings, Reply
from storage import SqliteStorage, Storage
from tests import backends

GUILD = 1
CHANNEL = 10
ALICE, BOB, CAROL, DAVE = 100, 200, 300, 400
OUTSIDER = 999


class Clock:
    """A fake clock: seconds since the epoch, moved by hand."""

    def __init__(self, t: float = 1_700_000_000.0) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t

    def advance(self, seconds: float) -> None:
        self.t += seconds


def settings(**kw: Any) -> HostSettings:
    base: dict[str, Any] = {"db": ":memory:", "snapshot_every": 10, "respond_seconds": 3600.0}
    base.update(kw)
    return HostSettings(**base)


async def make_storage(path: str = ":memory:", **kw: Any) -> Storage:
    """An unopened storage on the test's backend (``tests.backends``): SQLite at ``path``, or
    on PostgreSQL the test's schema for ``path`` (a new one for ``":memory:"``)."""
    be = backends.CURRENT
    if not be.is_postgres:
        return SqliteStorage(path, **kw)
    from storage.postgres import PostgresStorage

    return PostgresStorage(await be.url_for(path), max_connections=4, max_lock_connections=4, **kw)


@asynccontextmanager
async def host_on(path: str = ":memory:", *, clock: Clock | None = None, seed: int = 42,
                  **kw: Any) -> AsyncIterator[Host]:
    """A Host on a fresh storage at ``path`` (SQLite, or PostgreSQL when the test runs on
    that backend, see ``tests.backends``); closed on exit."""
    st = await make_storage(path)
    await st.open()
    try:
        yield Host(st, settings(**kw), clock=clock or Clock(), seeds=lambda: seed)
    finally:
        await st.close()


async def new_game(host: Host, players: tuple[int, ...] = (ALICE, BOB), *, ai: int = 0, channel: int = CHANNEL,
                   options: dict[str, Any] | None = None) -> Reply:
    """Create, seat ``players`` (the first creates), add ``ai`` AI seats, start; the start reply."""
    await host.create(GUILD, channel, players[0], "count", options or {"target": 30})
    for user in players[1:]:
        await host.join(channel, user)
    if ai:
        await host.add_ai(channel, players[0], ai)
    return await host.start(channel, players[0])


def turn_of(reply: Reply) -> tuple[int, str]:
    """(user id, prompt kind) of the first human asked to act in ``reply``."""
    for p in reply.prompts:
        if p.user_id is not None:
            return p.user_id, p.kind
    raise AssertionError(f"no human is asked to act: {reply.text}")


async def play_moves(host: Host, n: int, *, channel: int = CHANNEL, prefer: str = "add",
                     reply: Reply | None = None) -> Reply:
    """Play ``n`` human actions: the first human prompted plays ``prefer`` if legal, else
    the first legal choice (respond windows: pass)."""
    reply = reply or await host.view(channel)
    for _ in range(n):
        if reply.status != "active":
            break
        user, kind = turn_of(reply)
        prompt = next(p for p in reply.prompts if p.user_id == user)
        text = "pass" if kind == "respond" else (prefer if prefer in prompt.choices else prompt.choices[0])
        reply = await host.act(channel, user, text)
    return reply


async def raw_sql(storage: Any, sql: str, *params: Any) -> None:
    """Run one statement directly on the test's database (to tamper with it); ``?``
    placeholders, rewritten to ``$n`` for PostgreSQL."""
    if isinstance(storage, SqliteStorage):
        await storage.db.execute(sql, params)
        return
    parts = sql.split("?")
    sql = parts[0] + "".join(f"${i}{part}" for i, part in enumerate(parts[1:], start=1))
    async with storage.pool.acquire() as conn:
        await conn.execute(sql, *params)


async def established(host: Host, session_id: int, *, after: int = 0, through: int | None = None) -> list[Any]:
    """The session's log rows after ``after`` (through ``through``) with every reveals
    verdict established, as an undo establishes those it needs (``UndoMixin._verdicts``)."""
    from games.core import get_game

    rec = await host.storage.get_session(session_id)
    rows = await host.storage.actions(session_id, after=after, through=through)
    return await host._verdicts(get_game(rec.game_id), rec, rows)
