"""The bot's named background tasks (bot.discordbot.background): started once under their
name, cancelled and awaited on stop, and startable again after."""

from __future__ import annotations

import asyncio

from bot.discordbot.background import Background


async def test_started_once_named_and_stopped_for_good():
    runs, ended = [], asyncio.Event()

    async def loop() -> None:
        runs.append(asyncio.current_task().get_name())
        try:
            await asyncio.sleep(3600)
        finally:
            ended.set()

    bg = Background("outbox", loop)
    await bg.stop()  # stopping what never started does nothing
    bg.start()
    bg.start()  # already running: not a second task
    await asyncio.sleep(0)
    assert runs == ["outbox"] and bg.name == "outbox"
    await bg.stop()
    assert ended.is_set()  # stop waits until the task has ended
    bg.start()  # startable again after a stop
    await asyncio.sleep(0)
    assert runs == ["outbox", "outbox"]
    await bg.stop()
    await bg.stop()
