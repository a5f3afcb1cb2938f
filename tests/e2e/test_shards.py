"""The sharded deployment end to end: two bot processes (``--shard-count 2``, shard 0 and
shard 1, each a process of its own as ``tabula run`` starts them, see ``shard_worker.py``)
against the Discord emulator, which routes each guild's gateway events to its shard's
connection, both on one PostgreSQL schema.

A game of Barbarian Hordes is played in a guild of each shard, both at once, two players
each, by ``/play``. Mid-game the clock moves 12.5 hours on: each process reminds the
players of its own game. Then shard 1's process is killed (SIGKILL) with an action in flight;
shard 0's game goes on meanwhile; the process is restarted, the unanswered interaction is
delivered again (and an action it had answered, too), and both games are played to their end. Then: every action a player was
told was played is in the action log exactly once, no interaction is stored twice, the
in-flight one is stored once, each log replays, the other shard's game never waited, no
reminder was sent twice (not by the restarted process, not by the other shard's), and no
process logged an error.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from bot.commands.sync import sync_commands
from bot.discordbot.settings import BotSettings
from storage.postgres import PostgresStorage
from storage.replay import check_database, replay_session
from tests.fakediscord import Channel, FakeDiscord, InteractionRecord, User
from tests.jsonlines import JsonLinesLink

pytestmark = pytest.mark.timeout(90)

ROOT = Path(__file__).resolve().parents[2]
WAIT = 45.0  # seconds for a process or an answer before the test fails
HOUR = 3600.0
REMINDED = "the game is waiting for you"
MAX_ACTIONS = 120  # per game: it must end well before


class Worker(JsonLinesLink):
    """A ``tests.e2e.shard_worker`` process: ``ask`` sends a command and awaits its answer."""

    def __init__(self, proc: asyncio.subprocess.Process, shard: int) -> None:
        super().__init__(proc)
        self.shard = shard
        self.ids = iter(range(1, 1 << 30))

    async def ready(self, log: Path) -> None:
        assert self.proc.stdout is not None
        line = await asyncio.wait_for(self.proc.stdout.readline(), WAIT)
        assert line and json.loads(line) == {"ready": True}, (line, log.read_text()[-3000:])
        self.start_reading()

    async def ask(self, op: str, **kw: Any) -> dict[str, Any]:
        return await asyncio.wait_for(self.send({"id": next(self.ids), "op": op, **kw}), WAIT)

    async def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        await self.proc.wait()
        if self.reader is not None:
            self.reader.cancel()

    async def quit(self) -> None:
        if self.proc.returncode is None and self.proc.stdin is not None:
            self.proc.stdin.write(b'{"op": "quit"}\n')
            self.proc.stdin.close()
            try:
                await asyncio.wait_for(self.proc.wait(), WAIT)
            except TimeoutError:
                self.proc.kill()
                await self.proc.wait()


async def start_worker(fake: FakeDiscord, url: str, shard: int, offset: float, tmp: Path, n: int) -> Worker:
    log = tmp / f"shard{shard}-{n}.log"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TABULA_", "DISCORD_"))}
    # response windows and waits far longer than the reminder interval: moving the clock
    # makes reminders due and nothing else
    env.update(PYTHONPATH=str(ROOT), TABULA_RESPOND_SECONDS=str(30 * 24 * HOUR),
               TABULA_WAIT_SECONDS=str(30 * 24 * HOUR))
    with log.open("w") as err:
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "tests.e2e.shard_worker", fake.api_base, fake.gateway_url, fake.token, url,
            str(shard), "2", str(offset), cwd=tmp, env=env,
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=err)
    w = Worker(proc, shard)
    await w.ready(log)
    return w


@dataclass
class Game:
    """A game in a guild of one shard, and what its players sent and were told."""

    shard: int
    channel: Channel
    players: list[User]
    session: int = 0
    sent: list[str] = field(default_factory=list)  # interaction ids of every /play
    told: list[str] = field(default_factory=list)  # those answered with the public update


async def settled(fake: FakeDiscord, rec: InteractionRecord, followups: int = 0) -> InteractionRecord:
    """``rec`` once the bot answered it for good: a message, or a deferral and its first followup."""
    await fake.wait_until(lambda: rec.callback_type in (4, 6, 7, 8) or len(rec.followups) > followups, WAIT)
    return rec


def told_played(rec: InteractionRecord, followups: int = 0) -> bool:
    """Whether the player saw the public update of their action (sent once it is committed)."""
    return any(not m.ephemeral for m in rec.followups[followups:])


def reminders(fake: FakeDiscord, game: Game) -> Counter[int]:
    """How many reminders each player got in the game's channel."""
    return Counter(u for m in fake.channel_messages(game.channel) if REMINDED in m.content
                   for u in m.mentioned_user_ids())


async def waiting(st: PostgresStorage, game: Game) -> list[User]:
    rec = await st.get_session(game.session)
    by_id = {u.id: u for u in game.players}
    return [by_id[s.user_id] for s in rec.seats if s.seat in rec.to_act and s.user_id in by_id]


async def slash(fake: FakeDiscord, user: User, channel: Channel, command: str, **options: Any) -> InteractionRecord:
    return await settled(fake, await fake.slash(user, channel, command, **options))


async def choose(fake: FakeDiscord, user: User, game: Game) -> str | None:
    """What the player plays: ``done`` or ``pass`` when offered (short games), else the first suggestion."""
    ac = await (await fake.autocomplete(user, game.channel, "play", focused="action", action="")).response(WAIT)
    values = [c["value"] for c in ac.choices]
    return next((v for v in values if v in ("done", "pass")), values[0] if values else None)


async def play(fake: FakeDiscord, st: PostgresStorage, game: Game, steps: int | None = None) -> int:
    """Up to ``steps`` actions of the game's asked players (all, to its end, when None); each
    answered before the next. Returns the number the players were told were played."""
    played = 0
    while steps is None or played < steps:
        rec = await st.get_session(game.session)
        if rec.status != "active":
            break
        assert len(game.sent) < MAX_ACTIONS, "the game does not end"
        user = (await waiting(st, game))[0]
        action = await choose(fake, user, game)
        assert action is not None, f"nothing offered to {user.username}"
        r = await fake.slash(user, game.channel, "play", action=action)
        game.sent.append(str(r.id))
        await settled(fake, r)
        if told_played(r):
            game.told.append(str(r.id))
            played += 1
    return played


async def open_game(fake: FakeDiscord, st: PostgresStorage, game: Game) -> None:
    first, second = game.players
    await slash(fake, first, game.channel, "game new", game="barbarian-hordes", options="round_limit=1")
    await slash(fake, second, game.channel, "game join")
    await slash(fake, first, game.channel, "game start")
    rec = await st.open_session(game.channel.id)
    assert rec is not None and rec.status == "active", "the game did not start"
    game.session = rec.id


async def test_two_shard_processes_one_killed_and_restarted(pg_schema: str, fake_discord: FakeDiscord,
                                                            tmp_path: Path, monkeypatch) -> None:
    fake = fake_discord
    fake.shards = 2
    monkeypatch.chdir(tmp_path)
    games = []
    for shard, names in ((0, ("alice", "bob")), (1, ("carol", "dave"))):
        g = fake.add_guild(f"guild of shard {shard}", shard=shard)
        ch = fake.add_text_channel(g, "games")
        fake.deny(ch, "create_public_threads")  # each game is played in its channel
        users = [fake.add_user(n) for n in names]
        for u in users:
            fake.add_member(g, u)
        games.append(Game(shard, ch, users))
    g0, g1 = games
    await sync_commands(BotSettings(discord_token=fake.token, database=pg_schema), fake.token, None)  # tabula sync
    async with PostgresStorage(pg_schema) as st:  # the players' view of the games, and the tables made once
        offset = 0.0
        workers = [await start_worker(fake, pg_schema, k, offset, tmp_path, 1) for k in (0, 1)]
        try:
            assert sorted(fake.identified) == [(0, 2), (1, 2)]
            await asyncio.gather(*(open_game(fake, st, g) for g in games))
            await asyncio.gather(*(play(fake, st, g, 4) for g in games))

            # 12.5 hours later each process reminds the players of its own shard's game, once
            offset = 12.5 * HOUR
            for w in workers:
                await w.ask("clock", offset=offset)
            sent = await asyncio.gather(*(w.ask("remind") for w in workers))
            for g, answer in zip(games, sent, strict=True):
                asked = await waiting(st, g)
                assert asked and reminders(fake, g) == Counter(u.id for u in asked), g.shard
                assert answer["sent"] == len(asked)
            reminded = [reminders(fake, g) for g in games]

            # shard 1's process dies with an action in flight (the rules took it: deferred)
            last_told = g1.told[-1]
            user = (await waiting(st, g1))[0]
            action = await choose(fake, user, g1)
            inflight = await fake.slash(user, g1.channel, "play", action=action)
            g1.sent.append(str(inflight.id))
            await inflight.response(WAIT)
            await workers[1].kill()
            was_told = told_played(inflight)
            if was_told:
                g1.told.append(str(inflight.id))

            # shard 0's game goes on meanwhile; its process reminds nobody of shard 1's game
            assert await play(fake, st, g0, 3) == 3 or (await st.get_session(g0.session)).status == "finished"
            assert (await workers[0].ask("remind"))["sent"] == 0

            # restarted: its reminder passes (at start and now) send nothing again
            workers[1] = await start_worker(fake, pg_schema, 1, offset, tmp_path, 2)
            assert (await workers[1].ask("remind"))["sent"] == 0
            assert [reminders(fake, g) for g in games] == reminded
            assert sorted(fake.identified) == [(0, 2), (1, 2), (1, 2)]

            # the unanswered interaction reaches the new process: stored once, whatever the
            # old one had done with it
            before = len(inflight.followups)
            await settled(fake, await fake.redeliver(inflight, acknowledged=False), before)
            if told_played(inflight, before):
                assert not was_told
                g1.told.append(str(inflight.id))
            else:
                assert "already done" in inflight.text(), inflight.text()

            # and an action the old process had answered, delivered again: not applied twice
            answered = fake.interactions[int(last_told)]
            before = len(answered.followups)
            await settled(fake, await fake.redeliver(answered, acknowledged=False), before)
            assert not told_played(answered, before) and "already done" in answered.text(), answered.text()

            await asyncio.gather(*(play(fake, st, g) for g in games))
            for w in workers:
                await w.ask("idle")
                assert (await w.ask("remind"))["sent"] == 0
        finally:
            for w in workers:
                await w.quit()

        for log in sorted(tmp_path.glob("shard*.log")):
            text = log.read_text()
            assert " ERROR " not in text and "Traceback" not in text, f"{log.name}:\n{text[-3000:]}"
        assert [reminders(fake, g) for g in games] == reminded, "no reminder sent twice"
        for g in games:
            rec = await st.get_session(g.session)
            assert rec.status == "finished"
            rows = await st.actions(rec.id)
            assert [x.seq for x in rows] == list(range(rec.seq + 1))
            stored = Counter(x.interaction_id for x in rows if x.interaction_id is not None)
            assert all(n == 1 for n in stored.values()), f"applied twice: {stored}"
            assert set(g.told) <= set(stored) <= set(g.sent), (g.shard, g.told, stored, g.sent)
            assert (await replay_session(st, rec)).problems == []
        assert str(inflight.id) in {x.interaction_id for x in await st.actions(g1.session)}
        assert (await check_database(st)).ok
        print(f"\nshard 0: {len(g0.told)} actions, shard 1: {len(g1.told)} actions; the in-flight one "
              f"{'answered before' if was_told else 'answered after'} the kill")
