"""One named background task of the bot (the outbox's delivery, the reminders): started once,
cancelled and awaited on stop."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Coroutine
from typing import Any


class Background:
    """Runs ``loop()`` as the asyncio task ``name`` between ``start`` and ``stop``."""

    def __init__(self, name: str, loop: Callable[[], Coroutine[Any, Any, None]]) -> None:
        self.name = name
        self._loop = loop
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Start the task unless it is running already."""
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._loop(), name=self.name)

    async def stop(self) -> None:
        """Cancel the task and wait until it has ended."""
        if self._task is not None:
            task, self._task = self._task, None
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
