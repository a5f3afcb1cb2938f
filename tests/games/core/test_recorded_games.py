"""Recorded seeded games replay identically (ARCHITECTURE.md, "Testing").

Every file under tests/fixtures/<game>/ is a game played by the heuristic agents for one
player count and variant (`python -m tests.record_fixtures` writes them). Replaying its
actions from its seed must give the same notation for every action, the same spectator
view after every step, the same final state and the same outcome. A change that alters
any of these either is a mistake or is a rules change made on purpose, which re-records
the game's fixtures in the same commit.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import games  # noqa: F401
from games.core.record import check_record
from games.core.registry import all_games, get_game

FIXTURES = Path(__file__).parents[2] / "fixtures"
FILES = sorted(FIXTURES.glob("*/*.json"))


def test_every_game_has_recorded_games():
    """Every game of the project's packages (not the tests' toy game) has recorded games."""
    shipped = {g.id for g in all_games() if type(g).__module__.startswith("games.")}
    assert shipped == {p.parent.name for p in FILES}


@pytest.mark.parametrize("path", FILES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_recorded_game_replays_identically(path):
    record = json.loads(path.read_text())
    problems = check_record(get_game(record["game"]), record)
    assert not problems, f"{path.name}: " + "; ".join(problems[:5])
