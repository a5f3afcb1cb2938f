"""A bot process stand-in for the multi-process PostgreSQL tests: a host (and the reminder
task) on a shared database, driven by JSON lines on stdin, answering JSON lines on stdout.

Usage: ``python -m tests.pg_worker DATABASE_URL NAME [SHARD/COUNT]``; with ``SHARD/COUNT`` the
process owns only the guilds of that shard (Discord's ``(guild_id >> 22) % COUNT``), as a bot
run with ``--shard-count COUNT --shard-ids SHARD``. Commands (each runs in its own task,
so several are in flight at once, as in a bot):

- ``{"id": ..., "op": "act", "channel": C, "user": U, "text": T, "iid": I}`` ->
  ``{"id": ..., "iid": I, "result": "applied" | "duplicate", "session": S, "version": V}`` or
  ``{"id": ..., "result": "rejected", "error": ...}``
- ``{"id": ..., "op": "remind", "now": T}`` -> ``{"id": ..., "pings": [...], "published": [...]}``:
  one pass of the Discord bot's reminder task (response-window deadlines, then reminders),
  with the messages it would send.
- ``{"op": "quit"}``
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import sys
from typing import Any

import tests.toygame  # noqa: F401  (registers "count")
from bot.discordbot.client import shard_of
from bot.discordbot.reminders import Reminders
from bot.discordbot.settings import BotSettings
from bot.host import Host
from games.core import GameError
from storage.postgres import PostgresStorage
from tests.host_helpers import Clock, settings


class _Channel:
    def __init__(self, bot: _Bot, channel_id: int) -> None:
        self.bot, self.id = bot, channel_id

    async def send(self, text: str, **_: Any) -> None:
        self.bot.pings.append({"channel": self.id, "text": text})


class _Outbox:
    def __init__(self, bot: _Bot) -> None:
        self.bot = bot

    async def publish(self, channel: Any, reply: Any) -> None:
        self.bot.published.append({"session": reply.session_id, "version": reply.version, "text": reply.text})


class _Tracker:
    @contextlib.asynccontextmanager
    async def busy(self) -> Any:
        yield


class _Bot:
    """What ``Reminders`` uses of ``TabulaBot``; messages are recorded instead of sent."""

    def __init__(self, host: Host, shard: tuple[int, int] | None = None) -> None:
        self.host = host
        self.shard = shard
        self.settings = BotSettings(discord_token="x", reminder_hours=12.0)
        self.clock = host.clock
        self.tracker = _Tracker()
        self.outbox = _Outbox(self)
        self.pings: list[dict[str, Any]] = []
        self.published: list[dict[str, Any]] = []

    def owns_guild(self, guild_id: int | None) -> bool:
        return self.shard is None or shard_of(guild_id, self.shard[1]) == self.shard[0]

    async def session_channel(self, session_id: int) -> int:
        return (await self.host.storage.get_session(session_id)).channel_id

    def get_channel(self, channel_id: int) -> _Channel:
        return _Channel(self, channel_id)

    def dispatch(self, event_name: str, /, *args: Any, **kwargs: Any) -> None:
        pass  # the reminders cog's events; nothing listens here


async def handle(host: Host, reminders: Reminders, bot: _Bot, cmd: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {"id": cmd["id"]}
    if cmd["op"] == "act":
        try:
            reply = await host.act(cmd["channel"], cmd["user"], cmd["text"], interaction_id=cmd["iid"])
        except GameError as e:
            return {**out, "result": "rejected", "error": type(e).__name__}
        rec = await host.storage.get_session(reply.session_id)
        return {**out, "iid": cmd["iid"], "result": "duplicate" if reply.duplicate else "applied", "session": rec.id,
                "version": reply.version}
    if cmd["op"] == "remind":
        before_p, before_m = len(bot.pings), len(bot.published)
        await reminders.run_once(cmd["now"])
        return {**out, "pings": bot.pings[before_p:], "published": bot.published[before_m:]}
    raise ValueError(f"unknown op {cmd['op']!r}")


async def main(url: str, name: str, shard: tuple[int, int] | None = None) -> None:
    st = PostgresStorage(url, max_connections=4, max_lock_connections=4)
    await st.open()
    host = Host(st, settings(), clock=Clock())
    bot = _Bot(host, shard)
    reminders = Reminders(bot)  # type: ignore[arg-type]
    loop = asyncio.get_running_loop()
    tasks: set[asyncio.Task[None]] = set()

    async def run(cmd: dict[str, Any]) -> None:
        try:
            result = await handle(host, reminders, bot, cmd)
        except Exception as e:  # noqa: BLE001 - reported to the test, which fails on it
            result = {"id": cmd.get("id"), "result": "crashed", "error": repr(e)}
        print(json.dumps({"worker": name, **result}), flush=True)

    print("ready", flush=True)
    while True:
        line = await loop.run_in_executor(None, sys.stdin.readline)
        if not line:
            break
        cmd = json.loads(line)
        if cmd["op"] == "quit":
            break
        task = loop.create_task(run(cmd))
        tasks.add(task)
        task.add_done_callback(tasks.discard)
    if tasks:
        await asyncio.gather(*tasks)
    await st.close()


if __name__ == "__main__":
    shard_arg = sys.argv[3].split("/") if len(sys.argv) > 3 else None
    asyncio.run(main(sys.argv[1], sys.argv[2], None if shard_arg is None else (int(shard_arg[0]), int(shard_arg[1]))))
