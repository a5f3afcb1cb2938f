"""One bot process of a sharded deployment, against the Discord emulator, for
``tests/e2e/test_shards.py``: the real bot (``make_bot``, as ``tabula run --shard-count COUNT
--shards SHARD`` makes it) on a PostgreSQL database, with discord.py pointed at the emulator.

Usage: ``python -m tests.e2e.shard_worker API_BASE GATEWAY_URL TOKEN DATABASE SHARD COUNT OFFSET``.
The bot's clock is the real time plus ``OFFSET`` seconds (the test moves it forward to make
reminders due). Its reminder task runs one pass at start and then only when asked. JSON lines
on stdin, answered on stdout (the first line out is ``{"ready": true}``):

- ``{"id": ..., "op": "clock", "offset": S}`` -> ``{"id": ...}``: the clock is now real time + S
- ``{"id": ..., "op": "remind"}`` -> ``{"id": ..., "sent": N}``: one reminder pass
- ``{"id": ..., "op": "idle"}`` -> ``{"id": ...}``: once everything in progress is done
- ``{"op": "quit"}``: close the bot and exit
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
import sys
import threading
import time
from types import SimpleNamespace
from typing import Any

import discord.gateway
import discord.http
import yarl

from bot.discordbot.client import make_bot
from bot.discordbot.settings import BotSettings
from tests.fakediscord.fixtures import running


async def serve(api_base: str, gateway_url: str, token: str, database: str, shard: int, count: int,
                offset: float) -> None:
    discord.http.Route.BASE = api_base  # type: ignore[misc]
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)
    clock_offset = [offset]
    seeds = itertools.count(1000 * (shard + 1))
    settings = BotSettings(discord_token=token, database=database, reminder_check_seconds=86400.0)
    bot = make_bot(settings, shard_count=count, shard_ids=[shard], clock=lambda: time.time() + clock_offset[0],
                   guild_ready_timeout=0.01, host_args={"seeds": lambda: next(seeds)})
    loop = asyncio.get_running_loop()
    asks: asyncio.Queue[dict[str, Any]] = asyncio.Queue()

    def read() -> None:
        for line in sys.stdin:
            loop.call_soon_threadsafe(asks.put_nowait, json.loads(line))
        loop.call_soon_threadsafe(asks.put_nowait, {"op": "quit"})

    def say(msg: dict[str, Any]) -> None:
        sys.stdout.write(json.dumps(msg) + "\n")
        sys.stdout.flush()

    async def answer(ask: dict[str, Any]) -> None:
        out: dict[str, Any] = {"id": ask.get("id")}
        if ask["op"] == "clock":
            clock_offset[0] = float(ask["offset"])
        elif ask["op"] == "remind":
            assert bot.reminders is not None
            out["sent"] = await bot.reminders.run_once()
        elif ask["op"] == "idle":
            await bot.tracker.idle()
        say(out)

    async with running(bot, SimpleNamespace(token=token), timeout=60.0):  # type: ignore[arg-type]
        say({"ready": True})
        threading.Thread(target=read, daemon=True).start()
        tasks: set[asyncio.Task[None]] = set()
        while (ask := await asks.get())["op"] != "quit":
            task = asyncio.create_task(answer(ask))
            tasks.add(task)
            task.add_done_callback(tasks.discard)
        with contextlib.suppress(Exception):
            await asyncio.wait_for(bot.tracker.idle(), 30)


def main() -> None:
    api_base, gateway_url, token, database, shard, count, offset = sys.argv[1:8]
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr,
                        format=f"%(asctime)s shard {shard} %(levelname)s %(name)s: %(message)s")
    asyncio.run(serve(api_base, gateway_url, token, database, int(shard), int(count), float(offset)))


if __name__ == "__main__":
    main()
