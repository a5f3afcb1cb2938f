"""A --db that cannot be a Tabula database (a folder, a missing folder, an unreadable file, another
application's SQLite file) is refused with one line before anything is opened or written; option
errors come before the game banner; ``tabula render --out`` writes PNG files only."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys

import pytest

from bot.cli import main

DB_COMMANDS = [
    ["db", "check"],
    ["db", "info"],
    ["verify", "1"],
    ["export", "1", "--html", "OUT"],
    ["backup", "COPY"],
    ["stats"],
    ["ratings", "rebuild"],
    ["play", "barbarian-hordes"],
    ["play", "--resume"],
    ["run"],
    ["migrate", "--to", "postgresql://tabula@localhost/tabula"],
]


def _argv(command: list[str], db: str, tmp_path) -> list[str]:
    argv = [a.replace("OUT", str(tmp_path / "page")).replace("COPY", str(tmp_path / "copy.db")) for a in command]
    return [*argv, "--from" if command[0] == "migrate" else "--db", db]


def _one_line_refusal(capsys, *words: str) -> None:
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err + captured.out
    lines = [line for line in captured.err.splitlines() if line.strip()]
    assert len(lines) == 1, captured
    assert all(w in lines[0] for w in words), lines[0]
    assert "Type 'help'" not in captured.out and "saved" not in captured.err


@pytest.mark.parametrize("command", DB_COMMANDS, ids=lambda c: " ".join(c[:2]))
def test_a_folder_as_db_is_refused_in_one_line(tmp_path, capsys, monkeypatch, command):
    monkeypatch.setenv("DISCORD_TOKEN", "x" * 60)
    folder = tmp_path / "games"
    folder.mkdir()
    assert main(_argv(command, str(folder), tmp_path)) == 2
    _one_line_refusal(capsys, str(folder), "is a folder")
    assert list(folder.iterdir()) == []
    assert not (tmp_path / "games.log").exists()  # no incident log beside the folder


@pytest.mark.parametrize("command", DB_COMMANDS, ids=lambda c: " ".join(c[:2]))
def test_a_missing_parent_folder_is_refused_in_one_line(tmp_path, capsys, monkeypatch, command):
    monkeypatch.setenv("DISCORD_TOKEN", "x" * 60)
    db = tmp_path / "nowhere" / "tabula.db"
    assert main(_argv(command, str(db), tmp_path)) == 2
    _one_line_refusal(capsys, "does not exist")
    assert not (tmp_path / "nowhere").exists()


def _deny(monkeypatch, path, mode: int) -> None:
    """Make ``os.access`` refuse ``mode`` on ``path`` (the tests may run as root, who is never refused)."""
    real = os.access

    def access(p, m, *a, **k):
        return False if os.fspath(p) == str(path) and m & mode else real(p, m, *a, **k)

    monkeypatch.setattr(os, "access", access)


@pytest.mark.parametrize("command", [["db", "check"], ["play", "credo"], ["verify", "1"], ["backup", "COPY"]],
                         ids=" ".join)
def test_an_unreadable_file_is_refused_in_one_line(tmp_path, capsys, monkeypatch, command):
    db = tmp_path / "locked.db"
    db.write_bytes(b"")
    _deny(monkeypatch, db, os.R_OK)
    assert main(_argv(command, str(db), tmp_path)) == 2
    _one_line_refusal(capsys, "cannot read")


@pytest.mark.parametrize("command", [["play", "credo"], ["play", "--resume"], ["run"]], ids=" ".join)
def test_a_read_only_file_is_refused_by_commands_that_write(tmp_path, capsys, monkeypatch, command):
    monkeypatch.setenv("DISCORD_TOKEN", "x" * 60)
    db = tmp_path / "readonly.db"
    db.write_bytes(b"")
    _deny(monkeypatch, db, os.W_OK)
    assert main(_argv(command, str(db), tmp_path)) == 2
    _one_line_refusal(capsys, "cannot write")


def _foreign(path) -> bytes:
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE invoices (id INTEGER PRIMARY KEY, total REAL)")
    con.execute("INSERT INTO invoices (total) VALUES (12.5)")
    con.commit()
    con.close()
    return path.read_bytes()


def test_db_check_names_another_applications_file_and_does_not_call_it_empty(tmp_path, capsys):
    db = tmp_path / "accounts.db"
    before = _foreign(db)
    assert main(["db", "check", "--db", str(db)]) == 1
    out = capsys.readouterr().out
    assert "another application's tables (invoices)" in out and "empty" not in out
    assert db.read_bytes() == before


@pytest.mark.parametrize("game", ["barbarian-hordes", "credo", "promised-land", "roman-war", "soul-of-the-empire"])
def test_play_never_writes_tabula_tables_into_another_applications_file(tmp_path, capsys, game):
    db = tmp_path / "accounts.db"
    before = _foreign(db)
    assert main(["play", game, "--db", str(db)]) == 1
    _one_line_refusal(capsys, "is not a Tabula database", "invoices")
    assert db.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["accounts.db"]


def test_an_empty_new_file_still_becomes_a_tabula_database(tmp_path):
    db = tmp_path / "new.db"
    sqlite3.connect(db).close()  # a zero-length file: no tables, so not foreign
    proc = subprocess.run([sys.executable, "-m", "bot.cli", "play", "credo", "--db", str(db)],
                          input="stop\n", capture_output=True, text=True, timeout=120)
    assert "Resume with" in proc.stdout, proc.stderr
    assert main(["db", "info", "--db", str(db)]) == 0


@pytest.mark.parametrize("game, players, options, expected", [
    ("roman-war", "1", ["-o", "mode=duel"], "A duel takes 2 to 4 players"),
    ("barbarian-hordes", "4", ["-o", "bogus=1"], "Invalid options for Barbarian Hordes"),
    ("credo", "4", ["-o", "bogus=1"], "Invalid options for Credo"),
    ("promised-land", "4", ["-o", "bogus=1"], "Invalid options for Promised Land"),
    ("soul-of-the-empire", "4", ["-o", "bogus=1"], "Invalid options for Soul of the Empire"),
    ("roman-war", "4", ["-o", "mode=nonsense"], "Roman War"),
])
def test_an_option_error_is_printed_without_the_game_banner(capsys, game, players, options, expected):
    assert main(["play", game, "--players", players, *options]) == 2
    captured = capsys.readouterr()
    assert expected in captured.err
    assert "Type 'help'" not in captured.out


@pytest.mark.parametrize("name", ["board.jpg", "board.jpeg", "board", "board.png.txt"])
def test_render_refuses_an_out_name_that_is_not_png(tmp_path, capsys, name):
    out = tmp_path / name
    assert main(["render", "credo", "--steps", "1", "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert "must end in .png" in err and not out.exists()


def test_render_writes_png_under_a_png_name(tmp_path, capsys):
    out = tmp_path / "board.PNG"
    assert main(["render", "credo", "--steps", "1", "--out", str(out)]) == 0
    assert out.read_bytes().startswith(b"\x89PNG\r\n\x1a\n")


def test_an_unknown_option_reads_as_one_sentence() -> None:
    """"Invalid options for Credo: there is no option 'bogus'." (no capital mid-sentence)."""
    from pydantic import ValidationError

    from games.core import get_game
    from games.core.options import options_message
    g = get_game("credo")
    with pytest.raises(ValidationError) as e:
        g.Options.model_validate({"bogus": 1})
    assert options_message("Credo", g.Options, e.value).startswith(
        "Invalid options for Credo: there is no option 'bogus'.")
