"""``tabula backup``, ``tabula db check|info`` and ``tabula verify``."""

from __future__ import annotations

import asyncio
import sqlite3

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
