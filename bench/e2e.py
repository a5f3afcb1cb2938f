"""End-to-end benchmark of the Discord bot: the real discord.py client against the local
Discord API emulator (tests/fakediscord), on 127.0.0.1.

    python bench/e2e.py [--actions 40] [--sessions 20] [--per-session 10] [--no-validate] [--one-process]

Prints the median and p95 milliseconds

- from an interaction (slash command, button click, autocomplete) to its first response
  (target under 50 ms): the moment the emulator's server takes the interaction callback, before
  it reads and checks the body (as Discord times its 3-second window: by the callback's arrival);
- from a ``/play`` or ``/game status`` to the followup that carries the board image
  (target under 300 ms for one game, p95 under 1 s with the games at once; at its arrival too), and under load how
  much of it each image waited for the board pool (``render.pool``: its queue and the drawing;
  the rest is the host, the outbox and the emulator);

measured over one game of Barbarian Hordes (three humans and an AI seat) played action by
action, then the same figures and the throughput with ``--sessions`` games played at once (two humans and two AI
seats each, ``--per-session`` human actions each): human actions per second, the CPU time each
human action cost the bot's process, its board workers and the emulator's side, and the errors,
which must be none (an apology sent to a player, an error logged, a request Discord would
reject, a request to an unknown route). Exits 1 when there was an error.

The bot runs in a process of its own, as it would against Discord, whose servers are not on the
bot's CPU: the emulator (which still validates every request body against Discord's OpenAPI
description, unless ``--no-validate``) and the players (the bench's driver, which reads who is
asked from the bot's database through a read-only connection of its own) run in the bench's
process. Both processes share the machine's cores, so the emulator's work still competes for
CPU, but the bot's first responses no longer wait in one event loop behind the emulator's
validation of other requests. ``--one-process`` runs the setup of the figures measured before
that (the bot, the emulator and the players in one process and one event loop), for comparison.

Times include both sides, the board rendering (in ``render.pool``'s worker processes) and
SQLite with ``synchronous=FULL`` on a temporary file.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import itertools
import logging
import multiprocessing
import os
import random
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import discord.gateway  # noqa: E402
import discord.http  # noqa: E402
import yarl  # noqa: E402

from bot.discordbot.client import TabulaBot  # noqa: E402
from bot.discordbot.settings import BotSettings  # noqa: E402
from tests.e2e.clicking import step_components  # noqa: E402
from tests.fakediscord import Channel, FakeDiscord, InteractionRecord, User  # noqa: E402
from tests.fakediscord.fixtures import running  # noqa: E402

APOLOGY = "went wrong on our side"
PROMPT_POLL, PROMPT_POLLS = 0.05, 20  # a player looks for their prompt every 50 ms, for a second
CLICK_WAIT = 30.0  # seconds for a deferred click's answer before it counts as an error
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


FILED_RATE = 5.5  # human actions per second with 20 games at once, as measured when the throughput target was set


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
    def __init__(self, fake: FakeDiscord, link: LocalBot | RemoteBot) -> None:
        self.fake = fake
        self.link = link  # the bot: what the players look up in the game, and when it is idle
        self.first: dict[str, list[float]] = {"slash": [], "click": [], "autocomplete": []}
        self.board: list[float] = []
        self.apologies: list[str] = []
        self.unanswered: list[str] = []  # clicks deferred and never answered

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
        rec = await self.link.open_session(channel.id)
        assert rec is not None and rec.status == "active", "the game did not start"
        return rec.id

    async def waiting(self, session_id: int, humans: list[User]) -> User | None:
        rec = await self.link.session(session_id)
        if rec.status != "active":
            return None
        users = {u.id: u for u in humans}
        for s in rec.seats:
            if s.seat in rec.to_act and s.user_id in users:
                return users[s.user_id]
        raise AssertionError(f"session {session_id}: no human is asked, to_act={rec.to_act}")

    async def act(
        self, user: User, channel: Channel, session_id: int, rng: random.Random, click: bool
    ) -> bool:
        """One action of ``user``: clicked through the steps of their private prompt (with
        ``click``, when there is one for the session's latest question), else typed with
        ``/play`` after asking autocomplete what is legal. False when the game moved on
        before anything was played (the player is no longer asked)."""
        seq = (await self.link.session(session_id)).seq
        message = await self.prompt_of(user, session_id, seq) if click else None
        if message is not None:
            await self.click_through(user, message, session_id, rng)
            return True
        choices = await self.legal(user, channel)
        if not choices:
            # an AI seat asked at the same time may have ended the question meanwhile (a block
            # calls a war off): only a player still asked at the same point must be offered some
            rec = await self.link.session(session_id)
            asked = any(s.seat in rec.to_act and s.user_id == user.id for s in rec.seats)
            if rec.seq != seq or rec.status != "active" or not asked:
                return False
            raise AssertionError("autocomplete offered nothing to the player who must act")
        rec = await self.slash(user, channel, "play", action=rng.choice(choices))
        self.record("slash", rec)
        return True

    async def prompt_of(self, user: User, session_id: int, seq: int) -> Any:
        """The private message asking ``user`` the session's question after action ``seq`` with
        choices to click, once it has come (the update that asks them is delivered after the
        commit the bench read), or None when none comes within a second."""
        for _ in range(PROMPT_POLLS):
            for m in reversed(self.fake.private_to(user)):
                if step_components(m, session_id, seq):
                    return m
            await asyncio.sleep(PROMPT_POLL)
        return None

    async def click_through(self, user: User, message: Any, session_id: int, rng: random.Random) -> None:
        """Click the steps of ``message`` at random (a button, or a menu's values) until the
        choices name an action and it is played, as a player on a phone would: each click's
        first response counts; the last one is waited for until its prompt says what was
        chosen (or it was refused)."""
        token = None
        for _ in range(20):
            m = self.fake.messages[message.id]
            comps = step_components(m, session_id)
            if token is not None:
                comps = [c for c in comps if c["custom_id"].split(":")[3] == token]
            if not comps:
                return
            token = comps[0]["custom_id"].split(":")[3]
            comp = rng.choice(comps)
            edits = m.edits
            if comp["type"] == 3:
                values = [o["value"] for o in comp["options"]]
                lo, hi = comp.get("min_values", 1), comp.get("max_values", 1)
                picked = rng.sample(values, rng.randint(lo, min(hi, len(values))))
                sent = await self.fake.select(user, m, comp["custom_id"], picked)
            else:
                sent = await self.fake.click(user, m, comp["custom_id"])
            rec = await sent.response(WAIT)
            self.record("click", rec)
            if (
                rec.callback_type == 4
                and rec.original is not None
                and step_components(rec.original, session_id)
            ):
                message = rec.original  # the next step came as a new private reply
                continue
            if rec.callback_type == 7 and "You chose" not in self.fake.messages[message.id].content:
                continue  # the next step, shown in place
            if rec.callback_type in (5, 6):  # deferred: the answer follows once the action is stored
                mid = message.id
                try:
                    await self.fake.wait_until(
                        # its prompt edited (with what was chosen, or already superseded by the
                        # next question: a waiter may wake after both edits), or a followup
                        lambda: self.fake.messages[mid].edits > edits or rec.followups,  # noqa: B023
                        timeout=CLICK_WAIT,
                    )
                except TimeoutError:
                    m = self.fake.messages[mid]
                    self.unanswered.append(
                        f"click {comp['custom_id']} (response {rec.callback_type}) never answered: "
                        f"message {m.content[-120:]!r}, {m.edits} edits, deleted={m.deleted}"
                    )
            return


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
            await bench.link.idle()
        await bench.act(user, channel, sid, rng, click=i % 2 == 1)
        await bench.link.idle()


async def throughput(
    bench: Bench, channels: list[Channel], players: list[list[User]], per_session: int
) -> tuple[int, float]:
    """``len(channels)`` games at once; returns (human actions, seconds)."""
    sids = []
    for ch, humans in zip(channels, players, strict=True):
        sids.append(await bench.open_game(ch, humans, ai=2))
    await bench.link.idle()

    async def one(k: int) -> int:
        rng = random.Random(100 + k)
        done = 0
        for i in range(3 * per_session):
            if done == per_session:
                break
            user = await bench.waiting(sids[k], players[k])
            if user is None:
                break
            done += await bench.act(user, channels[k], sids[k], rng, click=i % 2 == 1)
        return done

    start = time.perf_counter()
    counts = await asyncio.gather(*(one(k) for k in range(len(channels))))
    await bench.link.idle()
    return sum(counts), time.perf_counter() - start


def everything_of(first: dict[str, list[float]]) -> list[float]:
    return [x for v in first.values() for x in v]


def line(name: str, values: list[float], target: float | None = None) -> str:
    if not values:
        return f"{name:<34} (no samples)"
    med, p95 = statistics.median(values), pct(values, 95)
    goal = f"   target < {target:.0f} ms: {'ok' if p95 < target else 'MISSED'} (p95)" if target else ""
    return f"{name:<34} median {med:7.1f} ms   p95 {p95:7.1f} ms   n={len(values):<4}{goal}"


def process_cpu(pid: int) -> float | None:
    """CPU seconds (user and system) another process has used so far, from /proc; None where
    that cannot be read."""
    with contextlib.suppress(OSError, ValueError, IndexError):
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return None


def bot_figures(errors: ErrorLog) -> dict[str, Any]:
    """What the bot's process knows of a run so far: the errors it logged, its CPU seconds,
    the board pool's counts and each request's wait for its PNG (``render.pool.RenderPool.waits``),
    and the CPU seconds of the pool's worker processes."""
    figures: dict[str, Any] = {
        "errors": [f"{r.name}: {r.getMessage()[:160]}" for r in errors.records],
        "cpu": time.process_time(),
        "drawn": 0,
        "coalesced": 0,
        "shared": 0,
        "waits": [],
        "render_cpu": None,
    }
    with contextlib.suppress(Exception):  # the board pool's counts (absent before render.pool)
        from bot.discordbot import boards

        pools = list(getattr(boards, "_BOARDS", {}).values())
        for k in ("drawn", "coalesced", "shared"):
            figures[k] = sum(getattr(p, k) for p in pools)
        figures["waits"] = [w for p in pools for w in getattr(p, "waits", [])]
    with contextlib.suppress(Exception):
        from render import pool

        workers = list((getattr(pool._SHARED, "_processes", None) or {}).keys())
        cpus = [process_cpu(pid) for pid in workers]
        figures["render_cpu"] = sum(c for c in cpus if c is not None) if workers else None
    return figures


class LocalBot:
    """The bot in the bench's own process (``--one-process``): asked directly."""

    def __init__(self, bot: TabulaBot, errors: ErrorLog) -> None:
        self.bot, self.errors = bot, errors

    async def session(self, session_id: int) -> Any:
        return await self.bot.host.storage.get_session(session_id)

    async def open_session(self, channel_id: int) -> Any:
        return await self.bot.host.storage.open_session(channel_id)

    async def idle(self) -> None:
        await self.bot.tracker.idle()

    async def figures(self) -> dict[str, Any]:
        return bot_figures(self.errors)


class RemoteBot:
    """The bot in a process of its own, asked over a pipe (``idle``, ``figures``). What the
    players look up in the game (who is asked, the latest action) is read from the bot's
    database through a read-only connection of this process, as another process would, so that
    the bot's process does only what Discord's users would make it do."""

    def __init__(self, conn: Any, storage: Any) -> None:
        self.conn, self.storage = conn, storage
        self.loop = asyncio.get_running_loop()
        self.pending: dict[int, asyncio.Future[Any]] = {}
        self.ids = itertools.count(1)
        threading.Thread(target=self._read, daemon=True, name="bench-bot-link").start()

    def _read(self) -> None:
        while True:
            try:
                rid, value = self.conn.recv()
            except (EOFError, OSError):
                value = RuntimeError("the bot's process ended")
                for rid in list(self.pending):
                    self.loop.call_soon_threadsafe(self._resolve, rid, value)
                return
            self.loop.call_soon_threadsafe(self._resolve, rid, value)

    def _resolve(self, rid: int, value: Any) -> None:
        fut = self.pending.pop(rid, None)
        if fut is None or fut.done():
            return
        if isinstance(value, BaseException):
            fut.set_exception(value)
        else:
            fut.set_result(value)

    async def call(self, op: str) -> Any:
        rid = next(self.ids)
        fut = self.loop.create_future()
        self.pending[rid] = fut
        self.conn.send((rid, op))
        return await fut

    async def session(self, session_id: int) -> Any:
        return await self.storage.get_session(session_id)

    async def open_session(self, channel_id: int) -> Any:
        return await self.storage.open_session(channel_id)

    async def idle(self) -> None:
        await self.call("idle")

    async def figures(self) -> dict[str, Any]:
        return dict(await self.call("figures"))


def bot_process(conn: Any, token: str, api_base: str, gateway_url: str, db: str, guild_id: int) -> None:
    """The bot's process (``multiprocessing``, spawned): the real bot against the emulator at
    ``api_base``, answering the bench's ``idle`` and ``figures`` over ``conn``."""
    asyncio.run(_serve_bot(conn, token, api_base, gateway_url, db, guild_id))


async def _serve_bot(conn: Any, token: str, api_base: str, gateway_url: str, db: str, guild_id: int) -> None:
    errors = ErrorLog()
    for name in ("tabula", "discord"):
        logging.getLogger(name).addHandler(errors)
    logging.basicConfig(level=logging.CRITICAL)
    discord.http.Route.BASE = api_base  # type: ignore[misc]
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)
    seeds = itertools.count(2024)
    settings = BotSettings(discord_token=token, db=db)
    bot = BenchBot(
        settings, reminders=False, guild_ready_timeout=0.01, host_args={"seeds": lambda: next(seeds)}
    )
    loop = asyncio.get_running_loop()
    asks: asyncio.Queue[tuple[int, str]] = asyncio.Queue()

    def read() -> None:
        while True:
            try:
                ask = conn.recv()
            except (EOFError, OSError):  # the bench is gone: stop, and leave at once if stopping hangs
                ask = (0, "stop")
                threading.Timer(30.0, os._exit, (1,)).start()
            loop.call_soon_threadsafe(asks.put_nowait, ask)
            if ask[1] == "stop":
                return

    async def answer(rid: int, op: str) -> None:
        try:
            if op == "idle":
                await bot.tracker.idle()
                value: Any = None
            elif op == "figures":
                value = bot_figures(errors)
            else:
                value = ValueError(f"unknown request {op!r}")
        except Exception as e:  # sent back to the bench, which raises it
            value = RuntimeError(f"{type(e).__name__}: {e}")
        conn.send((rid, value))

    try:
        async with running(bot, SimpleNamespace(token=token), timeout=WAIT):  # type: ignore[arg-type]
            await bot.sync_commands(guild_id)
            conn.send((0, "ready"))
            threading.Thread(target=read, daemon=True, name="bench-bot-link").start()
            tasks = set()
            while True:
                rid, op = await asks.get()
                if op == "stop":
                    break
                task = asyncio.create_task(answer(rid, op))
                tasks.add(task)
                task.add_done_callback(tasks.discard)
    except BaseException as e:
        with contextlib.suppress(Exception):
            conn.send((0, RuntimeError(f"the bot failed: {type(e).__name__}: {e}")))
        raise
    finally:
        with contextlib.suppress(Exception):
            await bot.close()
    with contextlib.suppress(Exception):
        conn.send((0, "stopped"))


@dataclasses.dataclass
class World:
    guild: Any
    lat_channel: Channel
    lat_users: list[User]
    channels: list[Channel]
    players: list[list[User]]


def build_world(fake: FakeDiscord, sessions: int) -> World:
    guild = fake.add_guild("Bench")
    lat_channel = fake.add_text_channel(guild, "latency")
    lat_users = [fake.add_user(f"player{i}") for i in range(3)]
    channels, players = [], []
    for k in range(sessions):
        ch = fake.add_text_channel(guild, f"game-{k}")
        fake.deny(ch, "create_public_threads")  # each game is played in its channel
        channels.append(ch)
        players.append([fake.add_user(f"s{k}p{i}") for i in range(2)])
    fake.deny(lat_channel, "create_public_threads")
    for u in lat_users + [u for ps in players for u in ps]:
        fake.add_member(guild, u)
    return World(guild, lat_channel, lat_users, channels, players)


@dataclasses.dataclass
class Run:
    """What one run measured."""

    first: dict[str, list[float]]
    board: list[float]
    loaded_first: dict[str, list[float]]
    loaded_board: list[float]
    actions: int
    seconds: float
    before: dict[str, Any]  # the bot's figures before the sessions at once, and after
    after: dict[str, Any]
    discord_cpu: float  # CPU seconds of the bench's process (the emulator and the players) meanwhile
    apologies: list[str]
    unanswered: list[str]


async def drive(bench: Bench, world: World, args: argparse.Namespace) -> Run:
    await latency(bench, world.lat_channel, world.lat_users, args.actions)
    first = {k: list(v) for k, v in bench.first.items()}
    board = list(bench.board)
    bench.first = {k: [] for k in bench.first}
    bench.board = []
    before = await bench.link.figures()
    cpu = time.process_time()
    n, seconds = await throughput(bench, world.channels, world.players, args.per_session)
    discord_cpu = time.process_time() - cpu
    after = await bench.link.figures()
    loaded_first = {k: list(v) for k, v in bench.first.items()}
    return Run(
        first,
        board,
        loaded_first,
        list(bench.board),
        n,
        seconds,
        before,
        after,
        discord_cpu,
        list(bench.apologies),
        list(bench.unanswered),
    )


async def one_process(fake: FakeDiscord, world: World, args: argparse.Namespace, tmp: str) -> Run:
    """The bot in the bench's process and event loop, beside the emulator and the players
    (``--one-process``: the setup of the figures measured before the bot had a process of its own)."""
    errors = ErrorLog()
    for name in ("tabula", "discord"):
        logging.getLogger(name).addHandler(errors)
    discord.http.Route.BASE = fake.api_base  # type: ignore[misc]
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(fake.gateway_url)
    seeds = itertools.count(2024)
    settings = BotSettings(discord_token=fake.token, db=str(Path(tmp) / "bench.db"))
    bot = BenchBot(
        settings, reminders=False, guild_ready_timeout=0.01, host_args={"seeds": lambda: next(seeds)}
    )
    try:
        async with running(bot, fake, timeout=WAIT):
            await bot.sync_commands(world.guild.id)
            return await drive(Bench(fake, LocalBot(bot, errors)), world, args)
    finally:
        with contextlib.suppress(Exception):  # an early failure left the bot (and its database) open
            await bot.close()


async def two_processes(fake: FakeDiscord, world: World, args: argparse.Namespace, tmp: str) -> Run:
    """The bot in a process of its own (spawned), the emulator and the players in this one."""
    from storage.sqlite import SqliteStorage

    db = str(Path(tmp) / "bench.db")
    ctx = multiprocessing.get_context("spawn")
    here, there = ctx.Pipe()
    proc = ctx.Process(
        target=bot_process,
        name="tabula-bench-bot",
        args=(there, fake.token, fake.api_base, fake.gateway_url, db, world.guild.id),
    )
    proc.start()
    there.close()
    reader = None
    try:
        _, hello = await asyncio.wait_for(asyncio.to_thread(here.recv), WAIT)
        if isinstance(hello, BaseException):
            raise hello
        reader = SqliteStorage(db, read_only=True)
        await reader.open()
        link = RemoteBot(here, reader)
        return await drive(Bench(fake, link), world, args)
    finally:
        if reader is not None:
            await reader.close()
        with contextlib.suppress(Exception):
            here.send((0, "stop"))
        await asyncio.to_thread(proc.join, WAIT)
        if proc.is_alive():
            proc.terminate()
            proc.join(10)
        here.close()


def ms_per(seconds: float | None, n: int) -> str:
    return "?" if seconds is None or not n else f"{1000 * seconds / n:.1f} ms"


async def main(args: argparse.Namespace) -> int:
    logging.basicConfig(level=logging.CRITICAL)
    fake = await FakeDiscord(validate=args.validate).start()
    fake.response_deadline = args.deadline
    world = build_world(fake, args.sessions)
    with tempfile.TemporaryDirectory() as tmp:
        try:
            run = await (one_process if args.one_process else two_processes)(fake, world, args, tmp)
        finally:
            await fake.stop()
    return report(args, fake, run)


def report(args: argparse.Namespace, fake: FakeDiscord, run: Run) -> int:
    problems = [f"apology: {t[:120]}" for t in run.apologies] + run.unanswered
    problems += [f"logged: {e}" for e in run.after["errors"]]
    problems += [f"rejected by Discord: {r.method} {r.path} {r.error_code}" for r in fake.rejected]
    problems += [f"unknown route: {r.method} {r.path}" for r in fake.unknown_routes]
    slow = [x for x in [*everything_of(run.first), *everything_of(run.loaded_first)] if x > 3000.0]
    if slow:
        problems.append(
            f"{len(slow)} first responses later than Discord's 3 s (emulator deadline {args.deadline:g} s)"
        )
    setup = (
        "the bot, the emulator and the players in one process and event loop"
        if args.one_process
        else "the bot in its own process; the emulator and the players in another"
    )
    check = "requests validated against Discord's OpenAPI description" if args.validate else "no validation"
    print(f"Setup: {setup} ({check})")
    everything = everything_of(run.first)
    print(f"Tabula end to end through the Discord emulator ({args.actions} interactions, one at a time)")
    print(line("first response, all interactions", everything, 50))
    for kind, values in run.first.items():
        print(line(f"  {kind}", values))
    print(line("board image followup", run.board, 300))
    print(f"Under load: {args.sessions} sessions played at once")
    print(line("first response, all interactions", everything_of(run.loaded_first), 50))
    for kind, values in run.loaded_first.items():
        print(line(f"  {kind}", values))
    print(line("board image followup", run.loaded_board, 1000))
    n, seconds = run.actions, run.seconds
    print(
        f"throughput: {args.sessions} sessions at once, {n} human actions in {seconds:.2f} s = "
        f"{n / seconds:.1f} actions/s ({len(fake.requests)} HTTP requests in all)"
        + (f"  target >= {4 * FILED_RATE:.0f} actions/s (4x the {FILED_RATE} measured when the target was set, "
           f"at the default 20 x 10): {'ok' if n / seconds >= 4 * FILED_RATE else 'MISSED'}"
           if (args.sessions, args.per_session) == (20, 10) else "")
    )
    before, after = run.before, run.after
    bot_cpu = after["cpu"] - before["cpu"]
    render_cpu = (
        after["render_cpu"] - before["render_cpu"]
        if after["render_cpu"] is not None and before["render_cpu"] is not None
        else None
    )
    if args.one_process:
        print(
            f"CPU per human action under load: {ms_per(bot_cpu, n)} in the process (bot, emulator and players), "
            f"{ms_per(render_cpu, n)} in the board workers"
        )
    else:
        print(
            f"CPU per human action under load: {ms_per(bot_cpu, n)} in the bot's process, "
            f"{ms_per(render_cpu, n)} in its board workers, {ms_per(run.discord_cpu, n)} in the emulator's "
            "and players' process"
        )
    print(
        f"board pool: {after['drawn']} drawn, {after['coalesced']} superseded while waiting, "
        f"{after['shared']} shared or cached"
    )
    loaded_waits = after["waits"][len(before["waits"]) :]
    for kind in ("board", "hand", "changed", "crop"):
        waits = [ms(w) for k, w in loaded_waits if k == kind]
        if waits:
            print(
                line(f"  under load, {kind} image waited", waits)
                + "  (from the request to the PNG: queue and drawing)"
            )
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
        "(its CPU time competes with the bot's, and in --one-process delays the bot's event loop)",
    )
    parser.add_argument(
        "--one-process",
        action="store_true",
        help="run the bot in the bench's process and event loop, beside the emulator (the setup of "
        "the figures measured before the bot had a process of its own)",
    )
    sys.exit(asyncio.run(main(parser.parse_args())))


if __name__ == "__main__":
    cli()
