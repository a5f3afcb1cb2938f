"""``tabula simulate``: AI-only games, the report, and the exit status on errors."""

from __future__ import annotations

import argparse
import io
import re
from typing import Any

import pytest

from bot.cli import main
from bot.commands import simulate
from games.core import get_game


def test_simulate_twenty_games(capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["simulate", "barbarian-hordes", "--games", "20", "--seed", "1"])
    out = capsys.readouterr().out
    assert status == 0, out
    assert "Barbarian Hordes: 20 games, 4 players, heuristic agents, seed 1" in out
    assert re.search(r"games per second: \d+\.\d", out)
    assert re.search(r"mean turns \(rounds\): \d+\.\d\d", out)
    assert re.search(r"mean actions per game: \d+\.\d", out)
    assert "errors: 0" in out
    # the win table names nations, and its wins add up to the games with a winner
    rows = re.findall(r"^  (\S.*?)\s+(\d+)\s+(\d+)\s+(\d+\.\d)%$", out, flags=re.M)
    assert rows
    names = {r[0] for r in rows}
    assert names & {"Huns", "Ostrogoths", "Visigoths", "Western Roman Empire"}
    no_winner = int(re.search(r"games without a winner: (\d+)", out).group(1))
    assert sum(int(r[2]) for r in rows) == 20 - no_winner


def test_simulate_is_deterministic(capsys: pytest.CaptureFixture[str]) -> None:
    outs = []
    for _ in range(2):
        assert (
            main(["simulate", "barbarian-hordes", "--games", "5", "--seed", "9", "--agents", "random"]) == 0
        )
        out = capsys.readouterr().out
        outs.append(re.sub(r"games per second: .*", "", out))
    assert outs[0] == outs[1]


def test_simulate_player_range(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "barbarian-hordes", "--games", "4", "--players", "2-3"]) == 0
    assert "2-3 players" in capsys.readouterr().out


def test_simulate_rejects_bad_arguments(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "barbarian-hordes", "--games", "1", "--players", "13"]) == 2
    assert "2 to 12 players" in capsys.readouterr().err
    assert main(["simulate", "no-such-game", "--games", "1"]) == 2
    assert "barbarian-hordes" in capsys.readouterr().err


class Broken:
    """Barbarian Hordes that fails at its 7th action: to see an error reported."""

    def __init__(self, game: Any) -> None:
        self._game = game

    def __getattr__(self, name: str) -> Any:
        return getattr(self._game, name)

    def apply(self, s: Any, seat: int, a: Any, rng: Any) -> Any:
        if rng.step == 7:
            raise KeyError("boom")
        return self._game.apply(s, seat, a, rng)


def test_an_error_is_reported_and_fails_the_run(monkeypatch: pytest.MonkeyPatch) -> None:
    broken = Broken(get_game("barbarian-hordes"))
    monkeypatch.setattr(simulate, "get_game", lambda _id: broken)
    out = io.StringIO()
    args = simulate.add_parser(argparse.ArgumentParser().add_subparsers()).parse_args(
        ["barbarian-hordes", "--games", "3", "--seed", "4"]
    )
    assert simulate.run(args, out) == 1
    text = out.getvalue()
    assert "errors: 3" in text
    seed0 = simulate.game_seed(4, 0)
    assert f"game 0 (seed {seed0}, 4 players) at step 7: KeyError: 'boom'" in text


def test_step_limit_is_an_error() -> None:
    report = simulate.simulate(get_game("barbarian-hordes"), 2, seed=1, max_steps=10)
    assert len(report.errors) == 2
    assert report.errors[0].kind == "StepLimitError"
    assert report.errors[0].step == 10
