"""Command-line arguments: bad input gives one line and exit 2, never a traceback."""

from __future__ import annotations

import pytest

from bot.cli import main


@pytest.mark.parametrize("argv, expected", [
    (["render", "barbarian-hordes", "--steps", "2", "--viewer", "9"], "--viewer is a seat number from 1 to 4"),
    (["render", "barbarian-hordes", "--steps", "2", "--viewer", "0"], "--viewer is a seat number from 1 to 4"),
    (["render", "barbarian-hordes", "--steps", "2", "--players", "13"], "takes 2 to 12 players, not 13"),
    (["render", "no-such-game", "--steps", "2"], "Unknown game 'no-such-game'"),
    (["render", "barbarian-hordes", "--steps", "2", "--out", "/nonexistent-dir/sub/x.png"], "cannot write"),
])
def test_render_mistakes_are_one_line(argv, expected, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert expected in err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_render_names_the_seat_it_draws(tmp_path, capsys):
    out = tmp_path / "seat2.png"
    assert main(["render", "barbarian-hordes", "--steps", "3", "--viewer", "2", "--out", str(out)]) == 0
    assert "seat 2's view" in capsys.readouterr().out and out.stat().st_size > 0


@pytest.mark.parametrize("command", [["play", "barbarian-hordes"], ["render", "barbarian-hordes"],
                                     ["simulate", "barbarian-hordes"], ["fuzz", "barbarian-hordes"]])
@pytest.mark.parametrize("seed", ["99999999999999999999999", "-1", str(2**63), "seven"])
def test_seeds_are_checked_by_the_parser(command, seed, capsys):
    with pytest.raises(SystemExit) as stop:
        main([*command, "--seed", seed])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert "argument --seed" in err and "Traceback" not in err


def test_the_largest_seed_is_accepted(tmp_path, capsys):
    out = tmp_path / "b.png"
    assert main(["render", "barbarian-hordes", "--steps", "1", "--seed", str(2**63 - 1), "--out", str(out)]) == 0


def test_play_option_pairs_are_read_as_json_when_they_can_be() -> None:
    from bot.commands.play import option_pair

    assert option_pair("round_limit=8") == ("round_limit", 8)
    assert option_pair("variant=three-player") == ("variant", "three-player")
    assert option_pair("ask-all=false") == ("ask_all", False)


def test_play_passes_game_options_three_player_variant() -> None:
    """THREE PLAYER VARIANT reachable from the terminal: the draft offers Rome, Attila the Hun, Goths."""
    import subprocess
    import sys

    out = subprocess.run(
        [sys.executable, "-m", "bot.cli", "play", "barbarian-hordes", "--players", "3", "--ai", "2",
         "--seed", "4", "-o", "variant=three-player"],
        input="help\nquit\n", capture_output=True, text=True, timeout=60,
    )
    assert "pick Rome" in out.stdout and "pick Goths" in out.stdout, out.stdout + out.stderr


@pytest.mark.parametrize("argv, expected", [
    (["export", "--html", "out", "abc"], "argument session: 'abc' is not a whole number (e.g. 12)"),
    (["export", "--html", "out", "--max-mib", "x", "1"], "argument --max-mib: 'x' is not a number (e.g. 2.5)"),
    (["verify", "abc"], "'abc' is not a whole number"),
    (["render", "barbarian-hordes", "--steps", "many"], "'many' is not a whole number"),
    (["play", "barbarian-hordes", "--players", "four"], "'four' is not a whole number"),
])
def test_numbers_are_refused_in_words(argv, expected, capsys):
    """A number argument that is not one says so in words, not "invalid int value"."""
    with pytest.raises(SystemExit) as e:
        main(argv)
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert expected in err and "invalid int value" not in err and "invalid float value" not in err


def test_export_into_a_file_says_it_is_a_file_not_a_folder(tmp_path, capsys):
    """`--html` names a folder; an existing file there is refused before any work, and not touched."""
    target = tmp_path / "page.html"
    target.write_text("keep")
    assert main(["export", "--db", str(tmp_path / "t.db"), "--html", str(target), "1"]) == 2
    assert f"{target} is a file, not a folder" in capsys.readouterr().err
    assert target.read_text() == "keep"


def test_play_refuses_an_empty_db_name(capsys):
    """`--db ''` would otherwise play a game that is quietly not saved."""
    assert main(["play", "count", "--db", ""]) == 2
    err = capsys.readouterr().err
    assert "--db needs a file name" in err and "Traceback" not in err
