"""A command word typed alone (`place`, `buy`, `attack`) where it needs more is answered with
a question for what is missing and what is legal, in all five games: never an empty name
quoted back (`No territory called ''`), never "unknown action" for a word that is legal now."""

from __future__ import annotations

import pytest

import games  # noqa: F401  (registers the games)
from games.core import GameError, get_game
from tests.random_walk import random_walk

GAMES = ["barbarian-hordes", "credo", "promised-land", "roman-war", "soul-of-the-empire"]


def bare_answers(game_id: str, seed: int, players: int, steps: int = 250) -> list[tuple[str, str]]:
    """(typed, answer) for each command word of the legal actions (and that word cut by one
    letter) typed alone, over a random game, where the word alone is not itself legal."""
    out = []
    for p in random_walk(game_id, players, seed, steps, 400):
        for verb in sorted({t.split()[0] for t in p.texts} - set(p.texts)):
            for typed in {verb, verb[:-1] if len(verb) > 4 else verb}:
                try:
                    p.game.parse_action(p.state, p.seat, typed)
                except GameError as e:
                    out.append((typed, e.message))
    return out


@pytest.mark.parametrize("game_id", GAMES)
def test_a_command_word_alone_asks_for_what_is_missing(game_id: str) -> None:
    g = get_game(game_id)
    seen = [r for players in sorted({g.min_players, g.max_players}) for r in bare_answers(game_id, 1, players)]
    assert seen, "some command words need more than themselves"
    bad = [(t, m) for t, m in seen if "''" in m or '""' in m or m.startswith("Unknown action")]
    assert not bad, "\n".join(f"{t!r}: {m}" for t, m in bad[:10])


def test_soul_of_the_empire_asks_where_for_a_territory_and_which_die_for_a_die() -> None:
    """The answers name what is missing: `marker` alone in the markers phase asks where."""
    answers = dict(bare_answers("soul-of-the-empire", 1, 2, steps=3))
    assert answers["marker"].startswith("marker where? legal: ")
    assert answers["marke"] == answers["marker"]
