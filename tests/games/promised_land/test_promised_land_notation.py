"""Promised Land notation fuzz (ARCHITECTURE.md, "Notation" and the GameError family).

Whatever a player types, ``parse_action`` returns a legal action or raises a GameError
with a non-empty message, and never changes the state; every legal action's notation
parses back to it; autocomplete offers only legal actions. States are reached by real
playouts and cover every phase: the placement order, placement, discards, Kingdom building, retreats, Actions,
Collect revenue, Buy Artefact and the end.
"""

from __future__ import annotations

import random
from functools import lru_cache
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.core import GameError, GameOverError, NotYourTurnError, apply_at, get_game, start
from games.core.agents import make_agent

GAME = get_game("promised-land")
FUZZ = settings(
    max_examples=200,
    database=None,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)


def situation(s: Any) -> str:
    if s.phase != "turn":
        return s.phase
    if s.turn.retreats:
        return "retreat"
    return s.turn.phase


@lru_cache(maxsize=1)
def reachable_states() -> dict[str, list[Any]]:
    """Situation -> up to two states met in heuristic and random playouts."""
    found: dict[str, list[Any]] = {}
    for seed in range(1, 5):
        n = 2 + seed
        s = start(GAME, list(range(n)), GAME.Options(), seed).state
        agents = [make_agent(GAME, "heuristic" if seed % 2 else "random", seed * 10 + x) for x in range(n)]
        pick = random.Random(seed)
        step = 0
        while True:
            bucket = found.setdefault(situation(s), [])
            if len(bucket) < 2 and pick.random() < 0.2:
                bucket.append(s)
            if GAME.outcome(s) is not None:
                found.setdefault("over", []).append(s)
                break
            seat = pick.choice(sorted(GAME.to_act(s)))
            step += 1
            s = apply_at(GAME, s, seat, agents[seat].choose(GAME, s, seat), seed, step).state
    return found


def live() -> list[Any]:
    return [s for k, v in sorted(reachable_states().items()) if k != "over" for s in v]


def test_every_situation_is_reached() -> None:
    assert {"order", "place", "discard", "kb", "actions", "buy", "retreat", "over"} <= set(reachable_states())


def test_every_legal_action_round_trips() -> None:
    for s in live():
        for seat in GAME.to_act(s):
            for a in GAME.legal_actions(s, seat):
                text = GAME.format_action(s, a)
                assert GAME.parse_action(s, seat, text) == a, text
                assert GAME.parse_action(s, seat, text.upper()) == a, text


WORDS = [
    "attack",
    "force",
    "place",
    "farmer",
    "priest",
    "in",
    "from",
    "jericho",
    "heshbon",
    "done",
    "for",
    "gold",
    "royal",
    "kingdom",
    "collect",
    "buy",
    "play",
    "retreat",
    "to",
    "supply",
    "discard",
    "ark",
    "2",
    "tribute",
    "é",
    "",
    "#",
    "1",
]


@FUZZ
@given(
    st.lists(st.sampled_from(WORDS), max_size=6),
    st.text(max_size=12),
    st.integers(min_value=0, max_value=10**6),
)
def test_any_text_gives_a_legal_action_or_a_game_error(words: list[str], noise: str, pick: int) -> None:
    states = live()
    s = states[pick % len(states)]
    seats = sorted(GAME.to_act(s))
    seat = seats[pick % len(seats)]
    before = s.model_dump()
    for text in (" ".join(words), noise, " ".join(words) + noise):
        try:
            a = GAME.parse_action(s, seat, text)
        except GameError as e:
            assert e.message.strip()
        else:
            assert a in GAME.legal_actions(s, seat)
    assert s.model_dump() == before


def test_not_prompted_and_game_over() -> None:
    for s in live():
        prompted = GAME.to_act(s)
        for seat in range(len(s.players)):
            if seat not in prompted:
                with pytest.raises(NotYourTurnError):
                    GAME.parse_action(s, seat, "done")
    over = reachable_states()["over"][0]
    with pytest.raises(GameOverError):
        GAME.parse_action(over, 0, "done")
    assert GAME.complete(over, 0, "") == []


def test_autocomplete_offers_legal_actions() -> None:
    for s in live()[:8]:
        for seat in GAME.to_act(s):
            texts = {GAME.format_action(s, a) for a in GAME.legal_actions(s, seat)}
            for prefix in ("", "a", "d", "pl", "ro"):
                got = GAME.complete(s, seat, prefix)
                assert set(got) <= texts  # the host cuts the list to what Discord shows
