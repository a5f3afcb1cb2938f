"""End-to-end benchmark of the Discord bot: the real discord.py client against the local
Discord API emulator (tests/fakediscord), both on 127.0.0.1 in this process.

    python bench/e2e.py [--actions 40] [--sessions 20] [--per-session 10] [--no-validate]

Prints the median and p95 milliseconds

- from an interaction (slash command, button click, autocomplete) to its first response
  (target under 50 ms): the moment the emulator receives the interaction callback;
- from a ``/play`` or ``/game status`` to the followup that carries the board image
  (target under 300 ms for one game, p95 under 1 s with the games at once), and under load how
  much of it each image waited for the board pool (``render.pool``: its queue and the drawing;
  the rest is the host, the outbox and the emulator);

measured over one game of Barbarian Hordes (three humans and an AI seat) played action by
action, then the same figures and the throughput with ``--sessions`` games played at once (two humans and two AI
seats each, ``--per-session`` human actions each): human actions per second, and the errors,
which must be none (an apology sent to a player, an error logged, a request Discord would
reject, a request to an unknown route). Exits 1 when there was an error.

Times include both sides (emulator and bot share one event loop and one CPU), the board
rendering (in ``render.pool``'s worker processes) and SQLite with ``synchronous=FULL`` on a temporary file.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import logging
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import discord.gateway  # noqa: E402
import discord.http  # noqa: E402
import yarl  # noqa: E402

from bot.discordbot.client import TabulaBot  # noqa: E402
from bot.discordbot.settings import BotSettings  # noqa: E402
from tests.fakediscord import Channel, FakeDiscord, InteractionRecord, User  # noqa: E402
from tests.fakediscord.fixtures import running  # noqa: E402

APOLOGY = "went wrong on our side"
WAIT = 120.0  # seconds to wait for an answer before calling it an error (a loaded machine is slow)


class BenchBot(TabulaBot):
    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        pass  # Discord asks for 5 s between IDENTIFYs; the emulator does not


class ErrorLog(logging.Handler):
    """Collects every ERROR (or worse) logged by the bot or discord.py."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


def ms(seconds: float) -> float:
    return seconds * 1000.0


def pct(values: list[float], p: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, max(0, round(p / 100 * len(s) + 0.5) - 1))]


def board_followup_time(rec: InteractionRecord) -> float | None:
    """When the followup that carries board.png arrived (perf_counter seconds), or None."""
    for m, t in zip(rec.followups, rec.followup_times, strict=False):
        if any(f.filename == "board.png" for f in m.files):
            return t
    return None


class Bench:
    def __init__(self, fake: FakeDiscord, bot: TabulaBot) -> None:
        self.fake = fake
        self.bot = bot
        self.first: dict[str, list[float]] = {"slash": [], "click": [], "autocomplete": []}
        self.board: list[float] = []
        self.apologies: list[str] = []

    def record(self, kind: str, rec: InteractionRecord) -> None:
        assert rec.responded_at is not None
        self.first[kind].append(ms(rec.responded_at - rec.sent_at))
        t = board_followup_time(rec)
        if t is not None:
            self.board.append(ms(t - rec.sent_at))
        if rec.callback_type != 8 and APOLOGY in rec.text():
            self.apologies.append(rec.text())

    async def slash(self, user: User, channel: Channel, command: str, **options: Any) -> InteractionRecord:
        rec = await (await self.fake.slash(user, channel, command, **options)).response(WAIT)
        if command in ("play", "game status") and rec.callback_type == 5:
            await self.fake.wait_until(
                lambda: board_followup_time(rec) is not None or not rec.loading, timeout=WAIT
            )
        return rec

    async def legal(self, user: User, channel: Channel) -> list[str]:
        rec = await (
            await self.fake.autocomplete(user, channel, "play", focused="action", action="")
        ).response(WAIT)
        self.record("autocomplete", rec)
        return [c["value"] for c in rec.choices]

    async def open_game(self, channel: Channel, humans: list[User], ai: int) -> int:
        await self.slash(humans[0], channel, "game new", game="barbarian-hordes", options="round_limit=1")
        for u in humans[1:]:
            await self.slash(u, channel, "game join")
        await self.slash(humans[0], channel, "game ai", count=ai)
        await self.slash(humans[0], channel, "game start")
        rec = await self.bot.host.storage.open_session(channel.id)
        assert rec is not None and rec.status == "active", "the game did not start"
        return rec.id

    async def waiting(self, session_id: int, humans: list[User]) -> User | None:
        rec = await self.bot.host.storage.get_session(session_id)
        if rec.status != "active":
            return None
        users = {u.id: u for u in humans}
        for s in rec.seats:
            if s.seat in rec.to_act and s.user_id in users:
                return users[s.user_id]
        raise AssertionError(f"session {session_id}: no human is asked, to_act={rec.to_act}")

    def button(self, user: User, session_id: int, seq: int) -> tuple[Any, str] | None:
        """A choice button only ``user`` sees, for a question asked after action ``seq`` (the
        session's latest) of the session."""
        prefix = (f"tabula:p:{session_id}:{seq}.", f"tabula:q:{session_id}:{seq}.")
        for m in sorted(self.fake.visible_to(user), key=lambda m: m.id, reverse=True):
            if m.audience is None:
                continue
            ids = [c for c in m.custom_ids() if c.startswith(prefix)]
            if ids:
                return m, ids[0]
        return None

    async def act(
        self, user: User, channel: Channel, session_id: int, rng: random.Random, click: bool
    ) -> None:
        seq = (await self.bot.host.storage.get_session(session_id)).seq
        found = self.button(user, session_id, seq) if click else None
        if found is not None:
            msg, cid = found
            rec = await (await self.fake.click(user, msg, cid)).response(WAIT)
            self.record("click", rec)
            return
        choices = await self.legal(user, channel)
        if not choices:
            raise AssertionError("autocomplete offered nothing to the player who must act")
        rec = await self.slash(user, channel, "play", action=rng.choice(choices))
        self.record("slash", rec)


async def latency(bench: Bench, channel: Channel, humans: list[User], actions: int) -> None:
    """One game, one interaction at a time, each fully handled before the next."""
    sid = await bench.open_game(channel, humans, ai=1)
    rng = random.Random(1)
    for i in range(actions):
        user = await bench.waiting(sid, humans)
        if user is None:
            sid = await bench.open_game(channel, humans, ai=1)  # finished: play another
            continue
        if i % 5 == 4:
            rec = await bench.slash(user, channel, "game status")
            bench.record("slash", rec)
            await bench.bot.tracker.idle()
        await bench.act(user, channel, sid, rng, click=i % 2 == 1)
        await bench.bot.tracker.idle()


async def throughput(
    bench: Bench, channels: list[Channel], players: list[list[User]], per_session: int
) -> tuple[int, float]:
    """``len(channels)`` games at once; returns (human actions, seconds)."""
    sids = []
    for ch, humans in zip(channels, players, strict=True):
        sids.append(await bench.open_game(ch, humans, ai=2))
    await bench.bot.tracker.idle()

    async def one(k: int) -> int:
        rng = random.Random(100 + k)
        done = 0
        for i in range(per_session):
            user = await bench.waiting(sids[k], players[k])
            if user is None:
                break
            await bench.act(user, channels[k], sids[k], rng, click=i % 2 == 1)
            done += 1
        return done

    start = time.perf_counter()
    counts = await asyncio.gather(*(one(k) for k in range(len(channels))))
    await bench.bot.tracker.idle()
    return sum(counts), time.perf_counter() - start


def pool_waits() -> list[tuple[str, float]]:
    """(kind, seconds) of each request to the board pool so far: how long its caller waited for
    the PNG (``render.pool.RenderPool.waits``; none before the pool kept them)."""
    with contextlib.suppress(Exception):
        from bot.discordbot import boards

        return [w for p in list(getattr(boards, "_BOARDS", {}).values()) for w in getattr(p, "waits", [])]
    return []


def everything_of(first: dict[str, list[float]]) -> list[float]:
    return [x for v in first.values() for x in v]


def line(name: str, values: list[float], target: float | None = None) -> str:
    if not values:
        return f"{name:<34} (no samples)"
    med, p95 = statistics.median(values), pct(values, 95)
    goal = f"   target < {target:.0f} ms: {'ok' if p95 < target else 'MISSED'} (p95)" if target else ""
    return f"{name:<34} median {med:7.1f} ms   p95 {p95:7.1f} ms   n={len(values):<4}{goal}"


async def main(args: argparse.Namespace) -> int:
    errors = ErrorLog()
    for name in ("tabula", "discord"):
        logging.getLogger(name).addHandler(errors)
    logging.basicConfig(level=logging.CRITICAL)
    fake = await FakeDiscord(validate=args.validate).start()
    fake.response_deadline = args.deadline
    discord.http.Route.BASE = fake.api_base  # type: ignore[misc]
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(fake.gateway_url)
    guild = fake.add_guild("Bench")
    lat_channel = fake.add_text_channel(guild, "latency")
    lat_users = [fake.add_user(f"player{i}") for i in range(3)]
    channels, players = [], []
    for k in range(args.sessions):
        ch = fake.add_text_channel(guild, f"game-{k}")
        fake.deny(ch, "create_public_threads")  # each game is played in its channel
        channels.append(ch)
        players.append([fake.add_user(f"s{k}p{i}") for i in range(2)])
    fake.deny(lat_channel, "create_public_threads")
    for u in lat_users + [u for ps in players for u in ps]:
        fake.add_member(guild, u)
    seeds = itertools.count(2024)
    with tempfile.TemporaryDirectory() as tmp:
        settings = BotSettings(discord_token=fake.token, db=str(Path(tmp) / "bench.db"))
        bot = BenchBot(
            settings, reminders=False, guild_ready_timeout=0.01, host_args={"seeds": lambda: next(seeds)}
        )
        try:
            async with running(bot, fake, timeout=WAIT):
                await bot.sync_commands(guild.id)
                bench = Bench(fake, bot)
                await latency(bench, lat_channel, lat_users, args.actions)
                first = {k: list(v) for k, v in bench.first.items()}
                board = list(bench.board)
                bench.first = {k: [] for k in bench.first}
                bench.board = []
                waits_before = len(pool_waits())
                n, seconds = await throughput(bench, channels, players, args.per_session)
                loaded_waits = pool_waits()[waits_before:]
                loaded_first = [x for v in bench.first.values() for x in v]
                loaded_board = list(bench.board)
        finally:
            with contextlib.suppress(Exception):  # an early failure left the bot (and its database) open
                await bot.close()
            await fake.stop()
    problems = [f"apology: {t[:120]}" for t in bench.apologies]
    problems += [f"logged: {r.name}: {r.getMessage()[:160]}" for r in errors.records]
    problems += [f"rejected by Discord: {r.method} {r.path} {r.error_code}" for r in fake.rejected]
    problems += [f"unknown route: {r.method} {r.path}" for r in fake.unknown_routes]
    slow = [x for x in [*everything_of(first), *loaded_first] if x > 3000.0]
    if slow:
        problems.append(f"{len(slow)} first responses later than Discord's 3 s (emulator deadline {args.deadline:g} s)")

    everything = everything_of(first)
    print(f"Tabula end to end through the Discord emulator ({args.actions} interactions, one at a time)")
    print(line("first response, all interactions", everything, 50))
    for kind, values in first.items():
        print(line(f"  {kind}", values))
    print(line("board image followup", board, 300))
    print(f"Under load: {args.sessions} sessions played at once")
    print(line("first response, all interactions", loaded_first, 50))
    print(line("board image followup", loaded_board, 1000))
    print(
        f"throughput: {args.sessions} sessions at once, {n} human actions in {seconds:.2f} s = "
        f"{n / seconds:.1f} actions/s ({len(fake.requests)} HTTP requests in all)"
    )
    with contextlib.suppress(Exception):  # the board pool's counts (absent before render.pool)
        from bot.discordbot import boards

        pools = list(getattr(boards, "_BOARDS", {}).values())
        drawn, coalesced, shared = (sum(getattr(p, k) for p in pools) for k in ("drawn", "coalesced", "shared"))
        print(f"board pool: {drawn} drawn, {coalesced} superseded while waiting, {shared} shared or cached")
        for kind in ("board", "hand", "changed", "crop"):
            waits = [ms(w) for k, w in loaded_waits if k == kind]
            if waits:
                print(line(f"  under load, {kind} image waited", waits)
                      + "  (from the request to the PNG: queue and drawing)")
    print(f"errors: {len(problems)}")
    for p in problems[:20]:
        print("  " + p)
    return 1 if problems else 0


def cli() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--actions", type=int, default=40, help="interactions in the latency game")
    parser.add_argument("--sessions", type=int, default=20, help="games played at once")
    parser.add_argument("--per-session", type=int, default=10, help="human actions per game")
    parser.add_argument(
        "--deadline",
        type=float,
        default=3.0,
        help="seconds the emulator allows for a first response (Discord: 3); on a machine too busy to "
        "answer in 3 s, a longer one lets the run finish, and the late answers are counted as errors",
    )
    parser.add_argument(
        "--no-validate",
        dest="validate",
        action="store_false",
        help="the emulator skips checking request bodies against Discord's OpenAPI description "
        "(it runs in the same process, so the check's time counts in the figures)",
    )
    sys.exit(asyncio.run(main(parser.parse_args())))


if __name__ == "__main__":
    cli()
