"""The command line as a newcomer meets it: game ids in --help, seats numbered from 1 in
`tabula verify`, Roman War's simulate line naming Hannibal's wins."""

from __future__ import annotations

import asyncio
import io

import pytest

from bot.cli import main
from games.core.registry import all_games


@pytest.mark.parametrize("command", ["play", "render"])
def test_help_lists_every_game_id(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main([command, "--help"])
    text = " ".join(capsys.readouterr().out.split())
    for game in all_games():
        if type(game).__module__.startswith("games."):  # the tests' toy games are not packages of games/
            assert game.id in text


def test_roman_war_simulate_names_hannibals_wins(capsys: pytest.CaptureFixture[str]) -> None:
    """Roman War solo/co-op: a game the Hannibal deck wins has no winning seat; the report
    calls those games Hannibal's wins, not "games without a winner"."""
    assert main(["simulate", "roman-war", "--games", "2", "--players", "1", "--seed", "2"]) == 0
    out = capsys.readouterr().out
    assert "games Hannibal won" in out and "games without a winner" not in out


def test_verify_numbers_seats_from_1(tmp_path) -> None:
    """`tabula verify` names the winning seats as the game does: their nation or faction, else
    "seat N" numbered from 1, as everywhere else."""
    import tests.toygame  # noqa: F401  (registers "count")
    from bot.console import Console
    from storage import SqliteStorage
    from storage.replay import verify_session

    db = str(tmp_path / "g.db")
    Console("count", 2, 2, seed=4, options={"target": 6}, out=io.StringIO(), read=lambda p: "", db=db).run()

    async def check() -> list[str]:
        async with SqliteStorage(db) as st:
            (rec,) = await st.sessions_with_status("finished")
            ok, lines = await verify_session(st, rec.id)
            assert ok, lines
            return lines

    lines = asyncio.run(check())
    outcome = next(x for x in lines if x.startswith("Outcome:"))
    assert outcome.startswith("Outcome: seat ") and "seat 0" not in outcome and "[0" not in outcome


def test_verify_of_an_unknown_session_says_which_command(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:
    """`tabula verify 2` on a database without session 2 answers as `export` does: the
    command's name first, then "There is no game session #2.", exit status 2."""
    import tests.toygame  # noqa: F401  (registers "count")
    from bot.console import Console

    db = str(tmp_path / "g.db")
    Console("count", 2, 2, seed=4, options={"target": 6}, out=io.StringIO(), read=lambda p: "", db=db).run()
    assert main(["verify", "--db", db, "2"]) == 2
    assert capsys.readouterr().err.strip() == "tabula verify: There is no game session #2."
