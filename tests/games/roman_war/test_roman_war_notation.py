"""Roman War notation fuzz and autocomplete (ARCHITECTURE.md, "Notation").

Whatever a player types, ``parse_action`` returns a legal action whose text reads back
to it, or raises a ``GameError`` with a player-safe message, and never changes the
state. States come from real playouts covering every phase and pending decision.
"""

from __future__ import annotations

import random
from functools import lru_cache
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.core import (
    AmbiguousActionError,
    GameError,
    InvalidNotationError,
    NotYourTurnError,
    Rng,
    apply_at,
    start,
)
from games.core.agents import make_agent
from games.roman_war.game import GAME, Options

FUZZ = settings(
    max_examples=120,
    database=None,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)


def situation(s: Any) -> str:
    if any(r.overflow for r in s.romans):
        return "overflow"
    if s.pending:
        return "pending-" + s.pending[-1].kind
    return s.phase


@lru_cache(maxsize=1)
def reachable_states() -> dict[str, list[Any]]:
    found: dict[str, list[Any]] = {}
    for seed in range(1, 16):
        n = 1 + seed % 4
        opts = Options(mode="duel") if seed % 5 == 0 and n >= 2 else Options()
        s = start(GAME, list(range(n)), opts, seed).state
        kind = "heuristic" if seed % 2 else "random"
        agents = [make_agent(GAME, kind, seed * 10 + x) for x in range(n)]
        pick = random.Random(seed)
        step = 0
        while True:
            bucket = found.setdefault(situation(s), [])
            if len(bucket) < 2:
                bucket.append(s)
            if GAME.outcome(s) is not None:
                break
            seat = pick.choice(sorted(GAME.to_act(s)))
            step += 1
            s = apply_at(GAME, s, seat, agents[seat].choose(GAME, s, seat), seed, step).state
    return found


def live_states() -> list[Any]:
    return [s for k, v in sorted(reachable_states().items()) if k != "over" for s in v]


def test_situations_are_reached() -> None:
    assert set(reachable_states()) >= {
        "cost",
        "defense",
        "main",
        "hannibal",
        "pending-boost",
        "pending-level",
        "over",
    }


WORDS = ["cost", "play", "rotate", "defend", "assault", "boost", "choose", "take", "buy", "use", "discard",
         "adjust", "done", "pass", "on", "to", "at", "from", "cost zone", "+", "1", "0", "-1", "99", "", "é", "🐘"]  # fmt: skip
NAMES = sorted({c.name for c in GAME.data.cards.values()} | {c.name for c in GAME.data.hannibal.values()})


def token() -> st.SearchStrategy[str]:
    name = st.sampled_from(NAMES)
    return st.one_of(
        st.sampled_from(WORDS),
        name,
        name.map(str.lower),
        name.map(lambda x: x[: max(1, len(x) // 2)]),
        st.text(max_size=5),
    )


TEXT = st.one_of(st.text(max_size=30), st.lists(token(), min_size=1, max_size=6).map(" ".join))


@FUZZ
@given(text=TEXT)
def test_any_text_gives_a_legal_action_or_a_game_error(text: str) -> None:
    for s in live_states():
        for seat in sorted(GAME.to_act(s)):
            before = s.model_dump()
            try:
                a = GAME.parse_action(s, seat, text)
            except GameError as e:
                assert e.message.strip() and e.code
                if isinstance(e, AmbiguousActionError):
                    assert e.candidates
            else:
                GAME.apply(s, seat, a, Rng(1, 1))
                assert GAME.parse_action(s, seat, GAME.format_action(s, a)) == a
            assert s.model_dump() == before


def test_not_prompted_seat_is_told() -> None:
    for s in live_states():
        others = [x for x in range(len(s.romans) + (s.hannibal_seat is not None)) if x not in GAME.to_act(s)]
        for seat in others[:1]:
            with pytest.raises(NotYourTurnError):
                GAME.parse_action(s, seat, "done")


def test_every_legal_action_round_trips_and_completes() -> None:
    """parse(format(a)) == a, and autocomplete from "" offers the legal texts."""
    for s in live_states():
        for seat in sorted(GAME.to_act(s)):
            legal = GAME.legal_actions(s, seat)
            texts = [GAME.format_action(s, a) for a in legal]
            assert len(set(texts)) == len(texts), texts
            for a, t in zip(legal, texts, strict=True):
                assert GAME.parse_action(s, seat, t) == a
            assert GAME.complete(s, seat, "")[:25] == texts[:25]


def test_prefixes_and_case_are_accepted() -> None:
    """Accept what people naturally type: case, unambiguous prefixes, word prefixes."""
    from .test_roman_war_helpers import make_state, roman

    s = make_state([roman(hand=["Sack the Camp", "Supply Train"], cost=5)], encampments=["Camp at Capua"])
    assert GAME.parse_action(s, 0, "PLAY SACK").card == "sack-the-camp"
    assert GAME.parse_action(s, 0, "play sack camp").card == "sack-the-camp"
    assert GAME.parse_action(s, 0, "assault camp at cap").target == s.encampments[0].uid
    with pytest.raises(AmbiguousActionError) as e:
        GAME.parse_action(s, 0, "play s")
    assert set(e.value.candidates) == {"play Sack the Camp", "play Supply Train"}
    assert GAME.complete(s, 0, "pl") == ["play Sack the Camp", "play Supply Train"]
    # the verb may be shortened too
    assert GAME.parse_action(s, 0, "pl sack").card == "sack-the-camp"
    assert GAME.parse_action(s, 0, "ass camp at capua").target == s.encampments[0].uid


@pytest.mark.parametrize("text", ["\u200b", "\ufeff", "🙂", "--", "{}", "!!!"])
def test_text_without_a_word_is_no_action(text: str) -> None:
    """A line of symbols or invisible characters names no action: it is refused as an unknown
    action with the command words legal now, not read as the cut-short form of every legal
    action (which played 'done' when it was the only one, a zero-width space ending a turn)."""
    from .test_roman_war_helpers import make_state, roman

    only_done = make_state([roman(hand=[], cost=0)], phase="main")
    assert [GAME.format_action(only_done, a) for a in GAME.legal_actions(only_done, 0)] == ["done"]
    several = make_state([roman(hand=["Sack the Camp", "Supply Train"], cost=5)], encampments=["Camp at Capua"])
    for s in (only_done, several):
        before = s.model_dump()
        with pytest.raises(InvalidNotationError) as e:
            GAME.parse_action(s, 0, text)
        assert not isinstance(e.value, AmbiguousActionError)
        assert e.value.message.startswith("Unknown action ") and "command words legal now: " in e.value.message
        assert s.model_dump() == before
    assert "done" in GAME.parse_action(only_done, 0, "done").model_dump_json()
