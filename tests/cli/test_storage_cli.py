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
    assert "integrity_check: ok" in out and "sessions replayed (active, finished, abandoned): 1" in out
    assert out.strip().endswith("OK")
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


ROOT = Path(__file__).resolve().parents[2]


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


# ---------------------------------------------------------------- a check that can be trusted


def test_check_while_other_connections_write_reports_no_false_problem(tmp_path):
    """Each session is read in one transaction: games played meanwhile are never half read
    (before, a session's record, moves and snapshots came from separate queries and the check
    reported "stored seats to act [0] but the replay asks [0, 1]")."""
    from storage import SqliteStorage
    from storage.replay import check_database

    db = str(tmp_path / "busy.db")

    async def go() -> list[str]:
        writers = [SqliteStorage(db) for _ in range(3)]
        for w in writers:
            await w.open()
        from bot.host import Host
        from tests.host_helpers import Clock, settings

        hosts = [Host(w, settings(db=db, snapshot_every=2), clock=Clock(), seeds=lambda: 5) for w in writers]
        for i, host in enumerate(hosts):
            await new_game(host, channel=100 + i, options={"target": 10_000})
        stop = asyncio.Event()

        async def write(host, channel: int) -> None:
            while not stop.is_set():
                await play_moves(host, 1, channel=channel)

        tasks = [asyncio.create_task(write(h, 100 + i)) for i, h in enumerate(hosts)]
        problems: list[str] = []
        checker = SqliteStorage(db, read_only=True)
        await checker.open()
        try:
            for _ in range(25):
                report = await check_database(checker)
                problems += report.problems + [x for x in report.integrity if x != "ok"]
                await asyncio.sleep(0)
        finally:
            stop.set()
            await asyncio.gather(*tasks)
            await checker.close()
            for w in writers:
                await w.close()
        return problems

    assert asyncio.run(go()) == []


def test_check_and_info_never_write_to_an_empty_file(tmp_path):
    """A zero-length file is reported, not given a fresh schema and called OK."""
    empty = tmp_path / "empty.db"
    empty.write_bytes(b"")
    for command in (["db", "check"], ["db", "info"], ["backup", "copy.db"]):
        done = tabula(*command, "--db", str(empty), cwd=tmp_path)
        out = done.stdout + done.stderr
        assert done.returncode == 1, out
        assert "has no Tabula tables" in out and "Traceback" not in out
        assert empty.stat().st_size == 0
        assert sorted(p.name for p in tmp_path.iterdir()) == ["empty.db"], "nothing written beside it"


def _damage_a_row(path: Path, needle: bytes) -> None:
    data = bytearray(path.read_bytes())
    at = data.find(needle)
    assert at > 0
    data[at + 1: at + 5] = b"\xff\xfe{\x00"
    path.write_bytes(bytes(data))


def test_random_bytes_inside_a_stored_action_are_found_and_named(tmp_path):
    """integrity_check passes such a file (the b-tree is intact); reading every row back does not."""
    db = tmp_path / "g.db"
    make_db(str(db), finish=True)  # a finished game: before, only active ones were replayed
    _damage_a_row(db, b'"kind"')
    assert sqlite3.connect(db).execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    done = tabula("db", "check", "--db", str(db), cwd=tmp_path)
    out = done.stdout
    assert done.returncode == 1 and out.strip().endswith("FAILED"), out
    assert "PROBLEM: table actions (session_id=1, seq=" in out and "Traceback" not in out + done.stderr


def test_a_damaged_page_is_named_with_its_table(tmp_path):
    db = tmp_path / "g.db"
    make_db(str(db), finish=False)
    con = sqlite3.connect(db)
    page_size = con.execute("PRAGMA page_size").fetchone()[0]
    root = con.execute("SELECT rootpage FROM sqlite_schema WHERE name = 'snapshots'").fetchone()[0]
    con.close()
    data = bytearray(db.read_bytes())
    start = (root - 1) * page_size
    data[start: start + 12] = b"\x63" * 12  # not a b-tree page type
    db.write_bytes(bytes(data))
    done = tabula("db", "check", "--db", str(db), cwd=tmp_path)
    out = done.stdout + done.stderr
    assert done.returncode == 1, out
    assert f"table snapshots (b-tree at page {root}): cannot be read" in out, out


def test_backup_checks_its_copy_and_says_it_is_damaged(tmp_path):
    db = tmp_path / "g.db"
    make_db(str(db), finish=False)
    _damage_a_row(db, b'"kind"')
    done = tabula("backup", "copy.db", "--db", str(db), cwd=tmp_path)
    assert done.returncode == 1
    assert "the copy is damaged, so the database is too" in done.stderr
    assert "table actions (session_id=1, seq=" in done.stderr


@pytest.mark.parametrize("target", ["live.db-wal", "live.db-shm", "other.db-journal"])
def test_backup_refuses_sqlite_side_files(tmp_path, capsys, target):
    """Writing a backup over a live database's write-ahead log loses committed games."""
    db = str(tmp_path / "live.db")
    make_db(db, finish=False)
    assert main(["backup", str(tmp_path / target), "--db", db]) == 2
    err = capsys.readouterr().err
    assert "not a database" in err and "loses committed games" in err
    assert main(["backup", str(tmp_path / "b.db"), "--db", db + "-wal"]) == 2


def test_db_check_lists_games_saved_under_older_rules_and_verify_and_export_say_why(tmp_path, capsys):
    """A Soul of the Empire game stored by rules version 1 (``tests.old_rules``): ``db check`` lists
    it apart (OK: the database is sound), ``db info`` counts it suspended once the bot has loaded
    it; once abandoned, ``verify`` says why it cannot verify it and ``export`` writes its page."""
    from tests.host_helpers import ALICE, BOB, CHANNEL, GUILD, Clock
    from tests.old_rules import store_old_soul

    db = str(tmp_path / "old.db")

    async def store() -> int:
        async with host_on(db) as host:
            rec = await store_old_soul(host.storage, guild=GUILD, channel=CHANNEL, users=(ALICE, BOB), now=Clock()())
            return rec.id

    session = asyncio.run(store())
    assert main(["db", "check", "--db", db]) == 0
    out = capsys.readouterr().out
    assert "1 saved under other rules" in out and out.strip().endswith("OK")
    assert (f"OLD RULES: session {session} (soul-of-the-empire, channel {CHANNEL}): saved under an older version "
            "of Soul of the Empire's rules (version 1; this bot plays version 2)") in out

    async def suspend_and_abandon(abandon: bool) -> None:
        async with host_on(db) as host:
            await host.tick()
            if abandon:
                await host.abandon(CHANNEL, ALICE)

    asyncio.run(suspend_and_abandon(False))
    assert main(["db", "info", "--db", db]) == 0
    assert (f"1 suspended (saved under older rules; /game abandon game:<number>): #{session} (soul-of-the-empire, "
            "rules version 1; plays 2)") in capsys.readouterr().out
    asyncio.run(suspend_and_abandon(True))
    assert main(["verify", str(session), "--db", db]) == 1
    out = capsys.readouterr().out
    assert "NOT VERIFIED" in out and "does not replay" in out and "A release of Tabula that plays that version" in out
    assert main(["export", str(session), "--html", str(tmp_path / "pages"), "--db", db]) == 0
    page = (tmp_path / "pages" / f"game-{session}.html").read_text(encoding="utf-8")
    assert "its log no longer replays" in page
