"""Soak test of the host: many games for a bounded time with random leaves, deleted
channels, servers that remove the bot, restarts and time passing; at the end every
session must be finished, abandoned, orphaned, or waiting on a deadline that exists.

    python -m bench.soak [--seconds 600] [--games 60] [--seed 1] [--db FILE]

A bounded slice runs in the test suite (tests/cli/test_soak.py). Time is a fake clock moved
by the run (hours at a time), so a week of waits passes in a moment; the database is a
real SQLite file, reopened by a new host at every restart. Games are the toy game
"Count" (from tests/) and the five real games, 2 to 4 seats, some of them AI.

Prints one line of counts and, for any session that is stuck, why; exits 1 when one is.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import tests.toygame  # noqa: E402,F401  (registers "count")
from bot.host import Host, HostSettings  # noqa: E402
from games.core import GameError, get_game  # noqa: E402
from storage import SessionRecord, SqliteStorage  # noqa: E402

GAMES = ("count", "count", "count", "barbarian-hordes", "credo", "promised-land", "soul-of-the-empire",
         "roman-war")
GUILDS = (1, 2, 3)
USERS = tuple(range(100, 140))
HOUR = 3600.0


class Clock:
    def __init__(self, t: float = 1_800_000_000.0) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t


@dataclass
class Report:
    """What a soak run did and how its sessions ended."""

    seconds: float = 0.0
    steps: Counter[str] = field(default_factory=Counter)
    ends: Counter[str] = field(default_factory=Counter)
    stuck: list[str] = field(default_factory=list)

    def line(self) -> str:
        steps = ", ".join(f"{k} {v}" for k, v in sorted(self.steps.items()))
        ends = ", ".join(f"{k} {v}" for k, v in sorted(self.ends.items()))
        return f"{self.seconds:.1f} s; steps: {steps}; sessions: {ends}; stuck: {len(self.stuck)}"


def stuck_reason(rec: SessionRecord, now: float) -> str | None:
    """Why ``rec`` is stuck, or None: finished, abandoned and orphaned sessions are not; an
    active one must wait on a human seat with a deadline that exists."""
    if rec.status in ("finished", "abandoned") or rec.orphaned is not None:
        return None
    if rec.status == "lobby":
        return f"#{rec.id} is still a lobby"
    if rec.attention is not None:
        return f"#{rec.id} was stopped by incident {rec.attention.get('incident')} ({rec.attention.get('what')})"
    humans = {s.seat for s in rec.seats if s.user_id is not None}
    waited = set(rec.to_act) & humans
    if not waited:
        return f"#{rec.id} ({rec.game_id}) waits on no human seat (to act: {list(rec.to_act)})"
    due = [d for d in (rec.deadline, rec.wait_deadline) if d is not None]
    if not due:
        return f"#{rec.id} ({rec.game_id}) waits on seats {sorted(waited)} with no deadline"
    return None


class Soak:
    def __init__(self, path: str, seed: int, games: int, clock: Clock | None = None) -> None:
        self.path = path
        self.rng = random.Random(seed)
        self.games = games
        self.clock = clock or Clock()
        self.seeds = iter(random.Random(seed + 1).getrandbits(62) for _ in range(10**9))
        self.host: Host | None = None
        self.storage: SqliteStorage | None = None
        self.next_channel = 1000
        self.report = Report()

    async def open(self) -> Host:
        self.storage = SqliteStorage(self.path)
        await self.storage.open()
        settings = HostSettings(db=self.path, respond_seconds=6 * HOUR, wait_seconds=48 * HOUR)
        self.host = Host(self.storage, settings, clock=self.clock, seeds=lambda: next(self.seeds))
        return self.host

    async def close(self) -> None:
        if self.storage is not None:
            await self.storage.close()
        self.storage = self.host = None

    async def new_game(self) -> None:
        host = self.host
        assert host is not None
        game = get_game(self.rng.choice(GAMES))
        channel = self.next_channel
        self.next_channel += 1
        guild = self.rng.choice(GUILDS)
        n = self.rng.randint(max(2, game.min_players), min(4, game.max_players))
        humans = self.rng.sample(USERS, self.rng.randint(1, n))
        options: dict[str, Any] = {"target": 25} if game.id == "count" else {}
        if game.id == "barbarian-hordes":
            options = {"round_limit": 3}
        try:
            await host.create(guild, channel, humans[0], game.id, options)
            for user in humans[1:]:
                await host.join(channel, user)
            if n > len(humans):
                await host.add_ai(channel, humans[0], n - len(humans))
            await host.start(channel, humans[0])
        except GameError as e:
            self.report.steps[f"refused start ({type(e).__name__})"] += 1
            rec = await host.storage.open_session(channel)
            if rec is not None:
                await host.abandon(channel, rec.created_by)
            return
        self.report.steps["games started"] += 1

    async def open_sessions(self) -> list[SessionRecord]:
        assert self.host is not None
        return await self.host.storage.sessions_with_status("active")

    async def step(self) -> None:
        host = self.host
        assert host is not None
        live = [r for r in await self.open_sessions() if r.orphaned is None]
        if len(live) < self.games:
            await self.new_game()
            return
        roll = self.rng.random()
        rec = self.rng.choice(live)
        humans = {s.seat: s.user_id for s in rec.seats if s.user_id is not None}
        if roll < 0.70:
            waiting = [humans[s] for s in rec.to_act if s in humans]
            if not waiting:
                return
            user = self.rng.choice(waiting)
            choices = await host.complete(rec.channel_id, user, "", limit=None)
            if not choices:
                return
            try:
                await host.act(rec.channel_id, user, self.rng.choice(choices))
                self.report.steps["actions"] += 1
            except GameError as e:
                self.report.steps[f"refused ({type(e).__name__})"] += 1
        elif roll < 0.75 and humans:
            await host.leave(rec.channel_id, self.rng.choice(list(humans.values())))
            self.report.steps["leaves"] += 1
        elif roll < 0.78:
            await host.orphan(channel_id=rec.channel_id, why="its channel was deleted")
            self.report.steps["channels deleted"] += 1
        elif roll < 0.79:
            await host.orphan(guild_id=rec.guild_id, why="the bot was removed from the server")
            self.report.steps["servers removed the bot"] += 1
        elif roll < 0.84:
            await self.close()
            await self.open()
            self.report.steps["restarts"] += 1
        elif roll < 0.87:
            gone = [r for r in await self.open_sessions() if r.orphaned is not None]
            if gone:
                victim = self.rng.choice(gone)
                await host.abandon(999_999, 1, is_moderator=True, session_id=victim.id, guild_id=victim.guild_id)
                self.report.steps["orphans abandoned"] += 1
        else:
            self.clock.t += self.rng.uniform(1, 30) * HOUR
            self.report.steps["ticks"] += 1
            self.report.steps["timeouts answered"] += len(await host.tick())

    async def run(self, seconds: float) -> Report:
        start = time.perf_counter()
        await self.open()
        try:
            while time.perf_counter() - start < seconds:
                await self.step()
            # let time pass: every wait ends by a deadline, so nothing may stay stuck
            for _ in range(40):
                self.clock.t += 49 * HOUR
                assert self.host is not None
                if not await self.host.tick():
                    break
            assert self.host is not None
            recs = await self.host.storage.sessions_with_status("lobby", "active", "finished", "abandoned")
            for rec in recs:
                self.report.ends[rec.shown_status] += 1
                why = stuck_reason(rec, self.clock())
                if why:
                    self.report.stuck.append(why)
        finally:
            await self.close()
        self.report.seconds = time.perf_counter() - start
        return self.report


async def soak(path: str, *, seconds: float, games: int = 30, seed: int = 1) -> Report:
    """Run a soak on the SQLite file ``path`` for about ``seconds`` (wall clock) with
    ``games`` live games at a time; returns the Report (``stuck`` lists the problems)."""
    return await Soak(path, seed, games).run(seconds)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.soak", description=__doc__.split("\n\n")[0])
    p.add_argument("--seconds", type=float, default=600.0)
    p.add_argument("--games", type=int, default=60)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--db", default=None, help="SQLite file (default: a new temporary one)")
    args = p.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        path = args.db or str(Path(tmp) / "soak.db")
        report = asyncio.run(soak(path, seconds=args.seconds, games=args.games, seed=args.seed))
    print(report.line())
    for why in report.stuck:
        print("STUCK", why)
    return 1 if report.stuck else 0


if __name__ == "__main__":
    sys.exit(main())
