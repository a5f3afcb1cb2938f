"""``tabula run`` and ``tabula sync`` explain Discord's refusals and a missing network in one line."""

from __future__ import annotations

import argparse
import asyncio
import socket

import discord.http
import pytest

from bot.commands import run as run_cmd
from bot.commands import sync as sync_cmd
from bot.commands.discord_errors import wait_text
from tests.fakediscord import FakeDiscord

pytestmark = pytest.mark.timeout(60)

SYNC_ARGS = argparse.Namespace(db=None, guild=None, global_=True)


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]  # closed again when the block ends: connections are refused


def _stderr_lines(capsys: pytest.CaptureFixture[str]) -> list[str]:
    return [line for line in capsys.readouterr().err.splitlines() if line.strip()]


def test_run_without_network_says_so_in_one_line(tmp_path, monkeypatch, capsys) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DISCORD_TOKEN", "x.y.z")
    monkeypatch.setenv("TABULA_LOG_LEVEL", "ERROR")
    monkeypatch.setattr(discord.http.Route, "BASE", f"http://127.0.0.1:{_closed_port()}/api/v10")
    assert run_cmd.run(argparse.Namespace(db=str(tmp_path / "t.db"), database=None, shard_count=None,
                                          shards=None)) == 1
    lines = [line for line in _stderr_lines(capsys) if "tabula run" in line or "Traceback" in line]
    assert len(lines) == 1, lines
    assert lines[0].startswith("tabula run: Could not reach Discord") and "network" in lines[0]


async def test_sync_reports_a_long_rate_limit_instead_of_waiting(fake_discord: FakeDiscord, tmp_path,
                                                                  monkeypatch, capsys) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DISCORD_TOKEN", fake_discord.token)
    fake_discord.fail("PUT", r"/applications/\d+/commands$", 429, retry_after=3600)
    rc = await asyncio.wait_for(asyncio.to_thread(sync_cmd.run, SYNC_ARGS), timeout=20)
    assert rc == 1
    lines = _stderr_lines(capsys)
    assert len(lines) == 1, lines
    assert "wait 1 h 0 min (3600 s)" in lines[-1] and lines[-1].startswith("tabula sync:")


async def test_sync_names_the_daily_command_limit(fake_discord: FakeDiscord, tmp_path, monkeypatch,
                                                   capsys) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DISCORD_TOKEN", fake_discord.token)
    fake_discord.fail("PUT", r"/applications/\d+/commands$", 400, code=30034,
                      message="Max number of daily application command creates has been reached (200)")
    rc = await asyncio.wait_for(asyncio.to_thread(sync_cmd.run, SYNC_ARGS), timeout=20)
    assert rc == 1
    lines = _stderr_lines(capsys)
    assert not any("Traceback" in x for x in lines)
    assert lines[-1].startswith("tabula sync: Discord's daily limit") and "tomorrow" in lines[-1]


@pytest.mark.parametrize(("seconds", "text"), [(5, "5 s"), (90, "1 min 30 s"), (3600, "1 h 0 min"),
                                               (90061, "25 h 1 min")])
def test_wait_text(seconds: float, text: str) -> None:
    assert wait_text(seconds) == text
