"""A child process spoken to in JSON lines (the test workers ``tests.pg_worker`` and
``tests.e2e.shard_worker``): each command written to its stdin carries an ``id``, and each
line it prints answers the command of that id."""

from __future__ import annotations

import asyncio
import json
from typing import Any


class JsonLinesLink:
    """Sends commands to ``proc`` (``send``) and resolves each one's future with its answer,
    once ``start_reading`` has started the reader task (``reader``)."""

    def __init__(self, proc: asyncio.subprocess.Process) -> None:
        self.proc = proc
        self.pending: dict[Any, asyncio.Future[dict[str, Any]]] = {}
        self.reader: asyncio.Task[None] | None = None

    def start_reading(self) -> None:
        self.reader = asyncio.get_running_loop().create_task(self._read())

    async def _read(self) -> None:
        assert self.proc.stdout is not None
        while line := await self.proc.stdout.readline():
            msg = json.loads(line)
            self.pending.pop(msg["id"]).set_result(msg)

    def send(self, cmd: dict[str, Any]) -> asyncio.Future[dict[str, Any]]:
        """Write ``cmd`` (with its ``id``); the future is its answer."""
        fut: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.pending[cmd["id"]] = fut
        assert self.proc.stdin is not None
        self.proc.stdin.write((json.dumps(cmd) + "\n").encode())
        return fut
