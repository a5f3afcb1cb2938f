"""``tabula backup``, ``tabula db check|info`` and ``tabula verify``."""

from __future__ import annotations

import asyncio
import os
import random
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from bot.cli import main
from tests.host_helpers import host_on, new_game, play_moves


def make_db(path: str, *, finish: bool) -> int:
    async def go() -> int:
        async with host_on(path, snapshot_every=3) as host:
            r = await new_game(host, options={"target": 6 if finish else 500})
            r = await play_moves(host, 30 if finish else 7, reply=r)
            return r.session_id

    return asyncio.run(go())


def test_backup_and_check(tmp_path, capsys):
    db = str(tmp_path / "live.db")
    make_db(db, finish=False)
    copy = str(tmp_path / "copy.db")
    assert main(["backup", copy, "--db", db]) == 0
    assert "Backed up" in capsys.readouterr().out
    assert main(["db", "check", "--db", copy]) == 0
    out = capsys.readouterr().out
    assert "integrity_check: ok" in out and "active sessions replayed: 1" in out and out.strip().endswith("OK")
    assert main(["db", "info", "--db", copy]) == 0
    assert "1 active" in capsys.readouterr().out
    con = sqlite3.connect(copy)
    con.execute("UPDATE snapshots SET state = json_set(state, '$.total', 77) WHERE seq = 3")
    con.commit()
    con.close()
    assert main(["db", "check", "--db", copy]) == 1
    assert "PROBLEM" in capsys.readouterr().out
    assert main(["db", "check", "--db", str(tmp_path / "missing.db")]) == 2
    assert main(["backup", db, "--db", db]) == 2


def test_verify(tmp_path, capsys):
    db = str(tmp_path / "done.db")
    session = make_db(db, finish=True)
    assert main(["verify", str(session), "--db", db]) == 0
    out = capsys.readouterr().out
    assert "matches the hash published" in out and "VERIFIED" in out
    assert main(["verify", "999", "--db", db]) == 2
    live = str(tmp_path / "live.db")
    session = make_db(live, finish=False)
    assert main(["verify", str(session), "--db", live]) == 1
    assert "seed stays secret" in capsys.readouterr().out


ROOT = Path(__file__).resolve().parent.parent


def tabula(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    """Run ``tabula ARGS`` in a fresh process; a hang fails the test (timeout) instead of blocking it."""
    return subprocess.run([sys.executable, "-m", "bot.cli", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=120, stdin=subprocess.DEVNULL, env={**os.environ, "PYTHONPATH": str(ROOT)})


def damaged_files(tmp_path: Path) -> list[Path]:
    noise = tmp_path / "noise.db"
    noise.write_bytes(random.Random(7).randbytes(8192))
    text = tmp_path / "notes.db"
    text.write_text("shopping list\n" * 50, encoding="utf-8")
    whole = tmp_path / "whole.db"
    make_db(str(whole), finish=False)
    cut = tmp_path / "cut.db"
    data = whole.read_bytes()
    cut.write_bytes(data[: len(data) // 3])
    return [noise, text, cut]


@pytest.mark.parametrize("command", [
    ["db", "check"], ["db", "info"], ["verify", "1"], ["backup", "copy.db"], ["play", "--resume"],
])
def test_a_damaged_file_gives_one_line_and_exits(tmp_path, command):
    for bad in damaged_files(tmp_path):
        done = tabula(*command, "--db", str(bad), cwd=tmp_path)
        out = done.stdout + done.stderr
        assert done.returncode != 0, out
        assert "Traceback" not in out, out
        assert f"{bad} is not a Tabula database or is damaged" in out, out
        assert "restore a backup" in out
        if command == ["db", "check"]:
            assert done.returncode == 1 and out.strip().endswith("FAILED")
        assert not (tmp_path / "copy.db").exists()


def test_backup_into_a_new_folder(tmp_path, capsys):
    db = str(tmp_path / "live.db")
    make_db(db, finish=False)
    target = tmp_path / "backups" / "2026" / "b1.db"
    assert main(["backup", str(target), "--db", db]) == 0
    assert target.exists() and "Backed up" in capsys.readouterr().out
    blocker = tmp_path / "afile"
    blocker.write_text("x")
    assert main(["backup", str(blocker / "b1.db"), "--db", db]) == 2
    err = capsys.readouterr().err
    assert "Cannot create the folder" in err and len(err.strip().splitlines()) == 1
