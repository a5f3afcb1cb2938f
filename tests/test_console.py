"""The terminal console over the host: hot-seat hidden hands, stop and resume from a file."""

from __future__ import annotations

import argparse
import asyncio
import io
import itertools
import re

import tests.toygame  # noqa: F401  (registers "count")
from bot.commands import play as play_command
from bot.console import Console
from storage import SqliteStorage
from storage.replay import verify_session


def scripted(lines, stop_after: int | None = None):
    """A reader that answers from ``lines`` (cycled), raising EOFError after ``stop_after`` reads."""
    it = itertools.cycle(lines)
    count = itertools.count()

    def read(prompt: str) -> str:
        if stop_after is not None and next(count) >= stop_after:
            raise EOFError
        return next(it)

    return read


def test_hot_seat_keeps_hands_private_stop_and_resume(tmp_path):
    db = str(tmp_path / "game.db")
    out = io.StringIO()
    console = Console("count", 2, 0, seed=5, options={"target": 12}, out=out,
                      read=scripted(["", "add", "pass"], stop_after=9), db=db)
    assert console.run() == 0
    text = out.getvalue()
    assert "Stopped. Resume with: tabula play --db" in text
    # nothing private is shown before a player has the keyboard; then each sees one hand, their own
    chunks = re.split(r"--- Pass the keyboard to (Player \d)", text)
    assert "(private)" not in chunks[0]
    seen = {}
    for player, chunk in zip(chunks[1::2], chunks[2::2], strict=True):
        hands = re.findall(r"\(private\) Your hand: ([\d, ]+)\.", chunk)
        assert len(hands) <= 1
        if hands:
            assert player not in seen
            seen[player] = hands[0]
    assert set(seen) == {"Player 1", "Player 2"}

    out2 = io.StringIO()
    resumed = Console(None, out=out2, read=scripted(["", "add", "pass"]), db=db, resume=True)
    assert resumed.run() == 0
    text2 = out2.getvalue()
    assert "Resuming Count" in text2 and "Game over" in text2

    async def check():
        async with SqliteStorage(db) as st:
            (rec,) = await st.sessions_with_status("finished")
            ok, lines = await verify_session(st, rec.id)
            assert ok, lines
            assert rec.seq > 9

    asyncio.run(check())


def test_a_file_with_an_unfinished_game_needs_resume(tmp_path, capsys):
    db = str(tmp_path / "g.db")
    Console("count", 2, 1, out=io.StringIO(), read=scripted([], stop_after=0), db=db).run()
    assert Console("count", 2, 1, out=io.StringIO(), read=scripted([]), db=db).run() == 2
    assert "--resume" in capsys.readouterr().err
    assert Console(None, out=io.StringIO(), read=scripted([]), db=str(tmp_path / "empty.db"),
                   resume=True).run() == 2
    args = argparse.Namespace(game=None, players=2, ai=None, seed=None, agents="heuristic", db=None, resume=True)
    assert play_command.run(args) == 2


def test_single_player_against_ai_with_help_and_bad_input(tmp_path):
    out = io.StringIO()
    console = Console("count", 3, 2, seed=9, options={"target": 15}, out=out,
                      read=scripted(["help", "dance", "hand", "status", "log", "add", "pass"]))
    assert console.run() == 0
    text = out.getvalue()
    assert "Legal now" in text and "add" in text
    assert "'dance' is not an action here" in text
    assert "Pass the keyboard" not in text
    assert "Game over" in text
