"""An action that follows this process's last action in a session is computed from what that
action left (the session, its context, the cached state) and committed in one storage call,
which the storage refuses when anything changed meanwhile; the host then does it again from a
read under the session's guard, so the player never sees the difference."""

from __future__ import annotations

from typing import Any

import pytest

from games.core import NotYourTurnError
from storage.replay import replay_session
from tests.host_helpers import ALICE, BOB, CHANNEL, GUILD, OUTSIDER, host_on, make_storage, new_game, turn_of

pytestmark = pytest.mark.usefixtures("backend")


def count_calls(storage: Any, *names: str) -> dict[str, int]:
    """Count the calls of ``names`` on ``storage`` (instance attributes wrapping the methods)."""
    calls = dict.fromkeys(names, 0)
    for name in names:
        method = getattr(storage, name)

        async def counted(*args: Any, _name: str = name, _method: Any = method, **kw: Any) -> Any:
            calls[_name] += 1
            return await _method(*args, **kw)

        setattr(storage, name, counted)
    return calls


async def test_an_action_after_this_process_last_action_is_one_storage_call():
    async with host_on() as host:
        r = await host.act(CHANNEL, turn_of(await new_game(host))[0], "add")
        calls = count_calls(host.storage, "session_context", "update", "get_session", "actions")
        r = await host.act(CHANNEL, turn_of(r)[0], "add")
        assert calls == {"session_context": 0, "update": 1, "get_session": 0, "actions": 0}
        rows = await host.storage.actions(r.session_id)
        assert [row.notation for row in rows] == ["setup", "add", "add"]
        assert r.version == (await host.storage.get_session(r.session_id)).version


async def test_an_action_after_another_process_acted_is_done_again_from_a_read(tmp_path):
    """Two processes on one database (trust invariant: one writer per session): the first
    process's context is out of date after the second one's action; its next action is refused
    by the storage and done again from a read, not answered with a stale-state error."""
    path = str(tmp_path / "shared.db")
    async with host_on(path) as first:
        r = await first.act(CHANNEL, turn_of(await new_game(first))[0], "add")
        async with host_on(path) as second:  # two actions: the same seat is asked again
            r = await second.act(CHANNEL, turn_of(r)[0], "add")
            r = await second.act(CHANNEL, turn_of(r)[0], "add")
        calls = count_calls(first.storage, "session_context", "update")
        r = await first.act(CHANNEL, turn_of(r)[0], "add")
        assert calls == {"session_context": 1, "update": 2}  # refused with the old context, then from a read
        rec = await first.storage.get_session(r.session_id)
        assert rec.seq == 4 and r.version == rec.version
        assert [row.seq for row in await first.storage.actions(rec.id)] == [0, 1, 2, 3, 4]
        replayed = await replay_session(first.storage, rec)
        assert replayed.problems == [] and replayed.state.total == 4


async def test_a_follower_added_by_another_process_is_told_of_the_next_action(tmp_path):
    """The context covers followers, preferences, server settings and standing passes: a change
    to them made elsewhere refuses the quick commit, and the action read again sees it."""
    path = str(tmp_path / "shared.db")
    async with host_on(path) as host:
        r = await host.act(CHANNEL, turn_of(await new_game(host))[0], "add")
        async with await make_storage(path) as elsewhere:
            await elsewhere.follow(r.session_id, OUTSIDER, 1.0)
            await elsewhere.set_guild_settings(GUILD, {"wait_seconds": 3600}, 1.0)
        r = await host.act(CHANNEL, turn_of(r)[0], "add")
        assert r.notify == (OUTSIDER,)
        assert [row.seq for row in await host.storage.actions(r.session_id)] == [0, 1, 2]


async def test_a_refused_action_is_worded_as_from_a_read_and_changes_nothing():
    async with host_on() as host:
        r = await host.act(CHANNEL, turn_of(await new_game(host))[0], "add")
        waiting = turn_of(r)[0]
        with pytest.raises(NotYourTurnError, match="not your turn"):
            await host.act(CHANNEL, BOB if waiting == ALICE else ALICE, "add")
        r2 = await host.act(CHANNEL, waiting, "add")
        assert r2.version == r.version + 1


async def test_on_postgresql_an_action_after_the_last_one_is_one_round_trip(monkeypatch, backend):
    """Issue 22: one round trip per committed action. Every statement asyncpg sends is counted
    (the pool's reset on release too, which would be a second one)."""
    if not backend.is_postgres:
        pytest.skip("PostgreSQL only")
    import asyncpg.connection

    sent: list[str] = []
    for name in ("execute", "_execute"):
        method = getattr(asyncpg.connection.Connection, name)

        async def counted(self: Any, query: str, *args: Any, _method: Any = method, **kw: Any) -> Any:
            sent.append(query)
            return await _method(self, query, *args, **kw)

        monkeypatch.setattr(asyncpg.connection.Connection, name, counted)
    async with host_on() as host:
        r = await host.act(CHANNEL, turn_of(await new_game(host))[0], "add")
        sent.clear()
        for _ in range(3):
            r = await host.act(CHANNEL, turn_of(r)[0], "add")
        assert len(sent) == 3 and all(q.startswith("WITH ok AS") for q in sent)
        assert [row.seq for row in await host.storage.actions(r.session_id)] == [0, 1, 2, 3, 4]
