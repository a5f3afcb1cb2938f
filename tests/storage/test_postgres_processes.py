"""Several bot processes on one PostgreSQL database.

- Two host processes receive interleaved actions for the same sessions (the same interaction
  delivered to both, two different clicks for one turn, consecutive turns of a game handled
  by alternate processes, every session in flight at once): no action is lost, none is
  applied twice, and every session replays to its stored state.
- Three processes run the reminder task at the same moment: a due reminder is sent exactly
  once, and a response window that expired is closed exactly once.
- A sharded deployment: two processes, each owning the guilds of its shard, play games in
  both at once; one is killed (SIGKILL) with actions in flight and restarted: no action is
  lost, none is applied twice, no reminder is sent twice.
"""

from __future__ import annotations

import asyncio
import itertools
import os
import sys
from collections import Counter
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

from bot.host import Host
from games.core import get_game
from storage.postgres import PostgresStorage
from storage.replay import check_database, load_state, replay_session, state_json
from tests.host_helpers import ALICE, BOB, Clock, new_game, settings, turn_of
from tests.jsonlines import JsonLinesLink

ROOT = Path(__file__).resolve().parents[2]
SESSIONS = 6
ROUNDS = 12
WAIT = 60.0  # seconds: a worker that does not answer within this fails the test


class Worker(JsonLinesLink):
    """One ``tests.pg_worker`` process; ``ask`` sends commands and awaits their answers."""

    def __init__(self, proc: asyncio.subprocess.Process, name: str) -> None:
        super().__init__(proc)
        self.name = name
        self.start_reading()


async def spawn(url: str, name: str, *extra: str) -> asyncio.subprocess.Process:
    """A started ``tests.pg_worker`` process (not yet ready)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return await asyncio.create_subprocess_exec(
        sys.executable, "-m", "tests.pg_worker", url, name, *extra, cwd=ROOT, env=env,
        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)


async def ready(p: asyncio.subprocess.Process) -> None:
    assert p.stdout is not None
    first = await asyncio.wait_for(p.stdout.readline(), WAIT)
    assert first.strip() == b"ready", (first, await p.stderr.read() if p.stderr else b"")


@asynccontextmanager
async def workers(url: str, n: int, *, shards: bool = False) -> AsyncIterator[list[Worker]]:
    """``n`` workers; with ``shards`` worker i owns shard i of n. Those still running at
    the end are asked to quit (the list may be changed meanwhile: a restarted worker)."""
    procs = [await spawn(url, f"w{i}", *([f"{i}/{n}"] if shards else [])) for i in range(n)]
    out: list[Worker] = []
    try:
        for p in procs:
            await ready(p)
        out = [Worker(p, f"w{i}") for i, p in enumerate(procs)]
        yield out
    finally:
        procs = [w.proc for w in out] or procs
        for p in procs:
            if p.returncode is None and p.stdin is not None:
                p.stdin.write(b'{"op": "quit"}\n')
                p.stdin.close()
        for p in procs:
            try:
                await asyncio.wait_for(p.wait(), WAIT)
            except TimeoutError:
                p.kill()
                await p.wait()


async def answers(futures: list[asyncio.Future[dict[str, Any]]]) -> list[dict[str, Any]]:
    out = await asyncio.wait_for(asyncio.gather(*futures), WAIT)
    crashed = [a for a in out if a.get("result") == "crashed"]
    assert not crashed, crashed
    return out


@pytest.mark.timeout(150)
async def test_two_processes_interleaved_on_the_same_sessions_lose_nothing_and_double_nothing(pg_schema):
    ids = itertools.count()
    async with PostgresStorage(pg_schema) as st:
        host = Host(st, settings(), clock=Clock(), seeds=lambda: 99)
        channels = [7000 + i for i in range(SESSIONS)]
        for ch in channels:
            await new_game(host, (ALICE, BOB), channel=ch, options={"target": 100_000})
        tally: Counter[str] = Counter()
        async with workers(pg_schema, 2) as (a, b):
            for rnd in range(ROUNDS):
                groups = []
                for i, ch in enumerate(channels):
                    r = await host.view(ch)
                    prompt = next(p for p in r.prompts if p.user_id is not None)
                    text = "pass" if prompt.kind == "respond" else ("add", "roll", "add", "play")[(rnd + i) % 4]
                    if text == "play":
                        text = next((c for c in prompt.choices if c.startswith("play")), "add")
                    act = {"op": "act", "channel": ch, "user": prompt.user_id, "text": text}
                    mode = (rnd + i) % 4
                    iid = f"{ch}-{rnd}"
                    if mode == 0:  # the same interaction delivered to both processes
                        sent = [a.send({**act, "id": str(next(ids)), "iid": iid}),
                                b.send({**act, "id": str(next(ids)), "iid": iid})]
                    elif mode == 1:  # two clicks for one turn, one on each process
                        sent = [a.send({**act, "id": str(next(ids)), "iid": iid + "a"}),
                                b.send({**act, "id": str(next(ids)), "iid": iid + "b"})]
                    else:  # consecutive turns handled by alternate processes
                        sent = [(a, b)[mode - 2].send({**act, "id": str(next(ids)), "iid": iid})]
                    groups.append((mode, sent))
                for mode, sent in groups:
                    got = await answers(sent)
                    results = sorted(x["result"] for x in got)
                    tally.update(results)
                    assert results.count("applied") == 1, (mode, got)
                    if mode == 0:
                        assert results == ["applied", "duplicate"], got
                    if mode == 1:
                        # the second click answered a question its seat has answered since
                        other = next(x for x in got if x["result"] != "applied")
                        assert other["result"] == "rejected" and other["error"] in (
                            "NotYourTurnError", "StaleStateError", "OutdatedActionError"), got
        # every applied action is stored exactly once, and nothing else is
        total = 0
        for ch in channels:
            rec = await st.open_session(ch)
            rows = await st.actions(rec.id)
            assert [x.seq for x in rows] == list(range(rec.seq + 1))
            stored = [x.interaction_id for x in rows if x.interaction_id is not None]
            assert len(stored) == len(set(stored)) == ROUNDS  # one action per round and session
            total += len(stored)
            full = await replay_session(st, rec)
            assert full.problems == []
            assert state_json(await load_state(st, get_game(rec.game_id), rec)) == state_json(full.state)
        assert total == tally["applied"] == SESSIONS * ROUNDS
        assert (await check_database(st)).ok
        print(f"\ntwo processes: {tally['applied']} applied, {tally['duplicate']} redeliveries answered "
              f"as duplicates, {tally['rejected']} second clicks rejected, {total} actions stored")


@pytest.mark.timeout(150)
async def test_a_due_reminder_and_an_expired_window_are_handled_once_by_three_processes(pg_schema):
    ids = itertools.count()
    clock = Clock()
    async with PostgresStorage(pg_schema) as st:
        host = Host(st, settings(respond_seconds=3600.0), clock=clock, seeds=lambda: 5)
        # a game waiting for a turn (reminders), and one inside a response window (deadline)
        waiting = await new_game(host, (ALICE, BOB), channel=8000, options={"target": 1000})
        await host.set_prefs(ALICE, reminder_hours=1)
        await host.set_prefs(BOB, reminder_hours=1)
        r = await new_game(host, (ALICE, BOB), channel=8001, options={"target": 1000})
        user = next(p.user_id for p in r.prompts if p.user_id is not None)
        r = await host.act(8001, user, next(c for c in r.prompts[0].choices if c.startswith("play")))
        window = await st.get_session(r.session_id)
        assert window.deadline is not None
        rec = await st.get_session(waiting.session_id)
        async with workers(pg_schema, 3) as procs:
            def everyone(now: float) -> list[asyncio.Future[dict[str, Any]]]:
                return [w.send({"id": str(next(ids)), "op": "remind", "now": now}) for w in procs]

            # 1.5 h into the wait: the deadline (1 h) has passed, one reminder is due
            got = await answers(everyone(rec.updated_at + 1.5 * 3600))
            pings = [p for x in got for p in x["pings"] if p["channel"] == 8000]
            published = [m for x in got for m in x["published"]]
            assert len(pings) == 1 and pings[0]["text"].startswith(f"<@{turn_of(waiting)[0]}>")
            assert len(published) == 1 and published[0]["session"] == window.id
            assert "Time is up" in published[0]["text"]
            # the same moment again: nothing more
            again = await answers(everyone(rec.updated_at + 1.6 * 3600))
            assert not [p for x in again for p in x["pings"] if p["channel"] == 8000]
            assert not [m for x in again for m in x["published"]]
            # the next interval: one more reminder, once
            later = await answers(everyone(rec.updated_at + 2.5 * 3600))
            assert len([p for x in later for p in x["pings"] if p["channel"] == 8000]) == 1
        closed = await st.get_session(window.id)
        rows = await st.actions(window.id, after=window.seq)
        assert [x.notation for x in rows].count("pass") >= 1 and closed.version > window.version
        assert (await replay_session(st, closed)).problems == []
        senders = Counter(x["worker"] for x in got if x["pings"] or x["published"])
        print(f"\nthree processes: reminder sent by {dict(senders)}; window closed once "
              f"({len(rows)} action(s) appended)")


def shard_guild(shard: int, count: int, k: int) -> int:
    """The k-th guild id (k >= 1) that Discord routes to ``shard`` of ``count``."""
    return ((k * count + shard) << 22) | 12345


@pytest.mark.timeout(60)
async def test_sharded_processes_one_killed_and_restarted_lose_nothing_and_double_nothing(pg_schema):
    """Two bot processes, shard 0 and shard 1 of 2, on one database, each playing the games of
    its own guilds, both at once. Shard 0's process is killed (SIGKILL) with an action of each
    of its games in flight, after sending its reminders; it is restarted and the unanswered
    interactions are delivered again: each is stored exactly once, every answered one is
    stored, and the reminders of that moment are not sent a second time."""
    ids = itertools.count()
    clock = Clock()
    async with PostgresStorage(pg_schema) as st:
        host = Host(st, settings(), clock=clock, seeds=lambda: 31)
        games: dict[int, int] = {}  # channel -> shard
        for shard in (0, 1):
            for k in (1, 2):
                ch = 9000 + 10 * shard + k
                await host.create(shard_guild(shard, 2, k), ch, ALICE, "count", {"target": 100_000})
                await host.join(ch, BOB)
                await host.start(ch, ALICE)
                games[ch] = shard
        await host.set_prefs(ALICE, reminder_hours=1)
        await host.set_prefs(BOB, reminder_hours=1)
        sent_iids: dict[int, list[str]] = {ch: [] for ch in games}

        async def acts(ch: int, tag: str) -> dict[str, Any]:
            r = await host.view(ch)
            prompt = next(p for p in r.prompts if p.user_id is not None)
            text = "add" if "add" in prompt.choices else prompt.choices[0]
            iid = f"{ch}-{tag}"
            sent_iids[ch].append(iid)
            return {"op": "act", "channel": ch, "user": prompt.user_id, "text": text, "iid": iid}

        async def play_round(procs: list[Worker], tag: str) -> None:
            sent = [procs[shard].send({**await acts(ch, tag), "id": str(next(ids))}) for ch, shard in games.items()]
            for got in await answers(sent):
                assert got["result"] == "applied", got

        async def kill_and_restart(procs: list[Worker]) -> None:
            procs[0].proc.kill()  # SIGKILL
            await procs[0].proc.wait()
            procs[0].reader.cancel()
            restarted = await spawn(pg_schema, "w0", "0/2")
            await ready(restarted)
            procs[0] = Worker(restarted, "w0")

        async with workers(pg_schema, 2, shards=True) as procs:
            for rnd in range(2):
                await play_round(procs, f"r{rnd}")
            # shard 0 is killed with an action of each of its games in flight; shard 1 plays on
            in_flight = [{**await acts(ch, "killed"), "id": str(next(ids))} for ch, s in games.items() if s == 0]
            for cmd in in_flight:
                procs[0].send(cmd)
            others = [procs[1].send({**await acts(ch, "r3"), "id": str(next(ids))})
                      for ch, s in games.items() if s == 1]
            await kill_and_restart(procs)
            for got in await answers(others):
                assert got["result"] == "applied", got
            # the unanswered interactions come again to the new process: each is stored once
            again = await answers([procs[0].send({**cmd, "id": str(next(ids))}) for cmd in in_flight])
            assert {x["result"] for x in again} <= {"applied", "duplicate"}, again
            # an hour and a half later both shards send their reminders, each its own games'
            waited = max([(await st.open_session(ch)).updated_at for ch in games]) + 1.5 * 3600

            async def remind(workers_: list[Worker]) -> list[dict[str, Any]]:
                return await answers([w.send({"id": str(next(ids)), "op": "remind", "now": waited})
                                      for w in workers_])

            got = await remind(procs)
            assert Counter(p["channel"] for x in got for p in x["pings"]) == Counter(dict.fromkeys(games, 1)), got
            for x in got:
                assert {p["channel"] for p in x["pings"]} == {ch for ch, s in games.items() if f"w{s}" == x["worker"]}
            # shard 0 killed and restarted once more: that moment's reminders are not sent again
            await kill_and_restart(procs)
            assert [p for x in await remind(procs) for p in x["pings"]] == []
            await play_round(procs, "r4")
        for ch in games:
            rec = await st.open_session(ch)
            rows = await st.actions(rec.id)
            assert [x.seq for x in rows] == list(range(rec.seq + 1))
            stored = [x.interaction_id for x in rows if x.interaction_id is not None]
            assert len(stored) == len(set(stored)) and set(stored) == set(sent_iids[ch]), (stored, sent_iids[ch])
            assert (await replay_session(st, rec)).problems == []
        assert (await check_database(st)).ok
