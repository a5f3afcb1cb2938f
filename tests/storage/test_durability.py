"""Restart, crash and concurrency: sessions survive closing the database, SIGKILL at
random points, and many simultaneous calls."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from bot.host import Host, NotSeatedError, OutdatedActionError
from games.core import GameError, InvalidNotationError, NotYourTurnError, StaleStateError
from storage import SqliteStorage
from storage.replay import check_database, replay_session
from tests.host_helpers import (
    ALICE,
    BOB,
    CAROL,
    CHANNEL,
    OUTSIDER,
    Clock,
    host_on,
    make_storage,
    new_game,
    play_moves,
    settings,
    turn_of,
)

ROOT = Path(__file__).resolve().parents[2]
RUNS = 24


async def snapshot_of(host: Host, users: tuple[int, ...]) -> dict:
    """Everything a restart must keep: state per viewer, seats, log per viewer, prompts."""
    public = await host.view(CHANNEL)
    rec = await host.storage.open_session(CHANNEL)
    return {
        "record": rec,
        "public_view": public.image.view,
        "prompts": public.prompts,
        "text": public.text,
        "views": {u: (await host.hand(CHANNEL, u)).private[0].view for u in users},
        "logs": {u: (await host.log(CHANNEL, u, per_page=100)).log for u in (*users, OUTSIDER)},
    }


@pytest.mark.usefixtures("backend")
async def test_restart_mid_game_keeps_state_seats_log_and_turn(tmp_path):
    path = str(tmp_path / "restart.db")
    clock = Clock()
    users = (ALICE, BOB, CAROL)
    async with host_on(path, clock=clock, snapshot_every=4) as host:
        r = await new_game(host, users, options={"target": 300})
        r = await play_moves(host, 9, prefer="roll", reply=r)
        # leave a response window open across the restart
        user, _ = turn_of(r)
        while turn_of(r)[1] != "turn":
            r = await play_moves(host, 1, reply=r)
        user, _ = turn_of(r)
        hand = (await host.hand(CHANNEL, user)).private[0].view.hand
        r = await host.act(CHANNEL, user, f"play {hand[0]}")
        before = await snapshot_of(host, users)
    assert any(p.kind == "respond" for p in before["prompts"])
    async with host_on(path, clock=clock, snapshot_every=4) as host:
        after = await snapshot_of(host, users)
        assert after == before
        # and the game goes on from there, deadline included
        clock.advance(10 * 3600)
        replies = await host.tick()
        assert len(replies) == 1 and replies[0].status == "active"
        assert (await check_database(host.storage)).ok


@pytest.mark.usefixtures("backend")
async def test_concurrent_acts_apply_exactly_one_action_per_turn():
    async with host_on() as host:
        r = await new_game(host, (ALICE, BOB, CAROL), options={"target": 1000})
        for round_ in range(4):
            user, _ = turn_of(r)
            version = r.version
            rec = await host.storage.open_session(CHANNEL)
            seated = [u for u in (ALICE, BOB, CAROL) if u != user]
            calls = []
            for i in range(50):
                kind = i % 5
                if kind in (0, 1):
                    calls.append(("legal", host.act(CHANNEL, user, "add", version=version, interaction_id=None)))
                elif kind == 2:
                    calls.append(("wrong", host.act(CHANNEL, seated[i % 2], "add", version=version)))
                elif kind == 3:
                    calls.append(("outsider", host.act(CHANNEL, OUTSIDER + i, "add")))
                else:
                    calls.append(("garbage", host.act(CHANNEL, user, "dance", version=version)))
            random.Random(round_).shuffle(calls)
            results = await asyncio.gather(*(c for _, c in calls), return_exceptions=True)
            applied = [res for res in results if not isinstance(res, BaseException)]
            assert len(applied) == 1
            for (kind, _), res in zip(calls, results, strict=True):
                assert not isinstance(res, BaseException) or isinstance(res, GameError), res
                if kind == "wrong":
                    assert isinstance(res, NotYourTurnError | StaleStateError)
                elif kind == "outsider":
                    assert isinstance(res, NotSeatedError)
                elif kind == "garbage":
                    assert isinstance(res, InvalidNotationError | StaleStateError | NotYourTurnError)
                elif isinstance(res, BaseException):
                    assert isinstance(res, StaleStateError)
            after = await host.storage.open_session(CHANNEL)
            assert after.seq == rec.seq + 1 and after.version == version + 1
            rows = await host.storage.actions(after.id, after=rec.seq)
            assert [(x.user_id, x.notation) for x in rows] == [(user, "add")]
            r = applied[0]
        # typed commands are bound on receipt to the question asked then: the repeats answered
        # a question that is gone by the time they are handled (outdated, never applied)
        user, _ = turn_of(r)
        results = await asyncio.gather(*(host.act(CHANNEL, user, "add") for _ in range(50)),
                                       return_exceptions=True)
        assert sum(not isinstance(x, BaseException) for x in results) == 1
        assert all(isinstance(x, OutdatedActionError) for x in results if isinstance(x, BaseException))
        assert (await check_database(host.storage)).ok


@pytest.mark.usefixtures("backend")
async def test_two_hosts_on_one_file_never_both_apply(tmp_path):
    path = str(tmp_path / "two.db")
    async with host_on(path) as first:
        r = await new_game(first, options={"target": 1000})
        second_storage = await make_storage(path)
        await second_storage.open()
        try:
            second = Host(second_storage, settings(), clock=Clock())
            for _ in range(5):
                user, _ = turn_of(r)
                calls = [h.act(CHANNEL, user, "add", version=r.version) for h in (first, second) for _ in range(5)]
                results = await asyncio.gather(*calls, return_exceptions=True)
                ok = [x for x in results if not isinstance(x, BaseException)]
                assert len(ok) == 1
                assert all(isinstance(x, StaleStateError) for x in results if isinstance(x, BaseException))
                r = ok[0]
            rec = await first.storage.open_session(CHANNEL)
            assert rec.seq == 5
            assert (await replay_session(first.storage, rec)).problems == []
        finally:
            await second_storage.close()


def _worker(path: str, seed: int) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen([sys.executable, "-m", "tests.crash_worker", path, str(seed)], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


@pytest.mark.timeout(170)
async def test_sigkill_at_random_points_loses_no_committed_action(tmp_path):
    path = str(tmp_path / "crash.db")
    rand = random.Random(2024)
    committed: dict[int, int] = {}  # session -> highest seq reported as committed (and not undone since)
    kills = reported = 0
    for run in range(RUNS):
        proc = _worker(path, run)
        try:
            assert proc.stdout is not None
            first = proc.stdout.readline()
            assert first.strip() == "ready", (first, proc.stderr.read() if proc.poll() is not None else "")
            for _ in range(rand.randint(0, 40)):
                line = proc.stdout.readline().split()
                if not line:  # the worker stopped by itself: an exception it did not expect
                    proc.wait()
                    pytest.fail(f"the worker died on its own: {proc.stderr.read()[-2000:]}")
                what, session, seq = line[0], int(line[1]), int(line[2])
                if what == "committed":
                    committed[session] = max(committed.get(session, 0), seq)
                    reported += 1
                else:  # an undo may drop actions: the floor is what the worker says next
                    committed[session] = seq
        finally:
            proc.send_signal(signal.SIGKILL)
            proc.wait()
            kills += 1
        async with SqliteStorage(path) as st:
            for session, seq in committed.items():
                rec = await st.get_session(session)
                # actions a worker reported may be followed by more, never fewer (undo aside)
                assert rec.seq >= seq, (session, seq, rec.seq)
                rows = await st.actions(session)
                assert [x.seq for x in rows] == list(range(rec.seq + 1))
            report = await check_database(st)
            assert report.ok, report
            for rec in await st.sessions_with_status("finished"):
                assert (await replay_session(st, rec)).problems == []
    assert kills == RUNS and reported > RUNS
