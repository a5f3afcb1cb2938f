"""pytest fixtures: a DNS guard, the emulator, and discord.py pointed at it.

Use from a ``conftest.py`` with ``from tests.fakediscord.fixtures import *``.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
from collections.abc import AsyncIterator, Iterator
from typing import Any

import discord
import discord.gateway
import discord.http
import pytest
import yarl

from .server import FakeDiscord

__all__ = ["dns_guard", "fake_discord", "running"]

LOOPBACK = {None, "127.0.0.1", "localhost", "::1", "localhost.localdomain"}


@pytest.fixture(autouse=True)
def dns_guard(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Fail the test if anything looks up a host name that is not loopback."""
    attempts: list[str] = []
    real = socket.getaddrinfo

    def guarded(host: Any, *args: Any, **kwargs: Any) -> Any:
        name = host.decode() if isinstance(host, bytes) else host
        if name not in LOOPBACK:
            attempts.append(str(name))
            raise socket.gaierror(socket.EAI_NONAME, f"lookup of {name!r} refused: tests use loopback only")
        return real(host, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", guarded)
    yield attempts
    assert not attempts, f"non-loopback DNS lookups: {attempts}"


@pytest.fixture
async def fake_discord(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[FakeDiscord]:
    """A started emulator; discord.py's REST base and gateway point at it for this test.

    After the test, no request may have reached an unknown route, no request body may have been
    one Discord refuses (unless the test set ``allow_invalid``), and no interaction may have
    been answered after Discord's 3-second deadline.
    """
    fake = await FakeDiscord().start()
    monkeypatch.setattr(discord.http.Route, "BASE", fake.api_base)
    monkeypatch.setattr(discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY", yarl.URL(fake.gateway_url))
    try:
        yield fake
    finally:
        await fake.stop()
    assert not fake.unknown_routes, "requests to routes the emulator does not know: " + ", ".join(
        f"{r.method} {r.path}" for r in fake.unknown_routes
    )
    assert fake.allow_invalid or not fake.invalid, "request bodies Discord refuses (400 / 50035): " + "; ".join(
        f"{r.method} {r.path} {r.json!r:.300}" for r in fake.invalid
    )
    assert not fake.late, "interactions answered after Discord's 3-second deadline: " + ", ".join(
        f"{r.type}:{r.data.get('name') or r.data.get('custom_id')}" for r in fake.late
    )


@contextlib.asynccontextmanager
async def running(client: discord.Client, fake: FakeDiscord, timeout: float = 10.0) -> AsyncIterator[Any]:
    """Run ``client`` against ``fake`` until the block ends; waits for READY and guild data."""
    task = asyncio.create_task(client.start(fake.token), name="discord-client")
    ready = asyncio.create_task(client.wait_until_ready())
    done, _ = await asyncio.wait({task, ready}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
    if ready not in done:
        ready.cancel()
        if task in done:
            task.result()  # raises the start-up error
        raise TimeoutError("the client did not become ready")
    try:
        yield client
    finally:
        await client.close()
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.wait_for(task, timeout)
