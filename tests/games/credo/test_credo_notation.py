"""Credo notation (ARCHITECTURE.md, "Notation"; games/credo/notation.py).

Whatever a player types, ``parse_action`` returns a legal action or raises a
GameError with a player-safe message; every legal action's text reads back as
itself; prefixes of words are accepted; a seat not prompted gets NotYourTurnError.
"""

from __future__ import annotations

import random
from functools import lru_cache
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.core import AmbiguousActionError, GameError, NotYourTurnError, apply_at, start
from games.core.agents import make_agent
from games.credo import GAME
from games.credo.model import Play, Vote

FUZZ = settings(max_examples=200, database=None, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow])  # fmt: skip


def situation(s: Any) -> str:
    if s.phase != "play":
        return s.phase
    if s.tasks:
        return "task"
    if s.window is not None:
        return f"window-{s.window.kind}"
    if s.council is not None:
        return f"council-{s.council.stage}"
    return s.stage


@lru_cache(maxsize=1)
def states() -> dict[str, list[Any]]:
    found: dict[str, list[Any]] = {}
    for seed in range(1, 6):
        n = 3 + seed % 4
        rnd = random.Random(seed)
        s = start(GAME, list(range(n)), GAME.Options(), seed).state
        agents = [make_agent(GAME, "heuristic" if x % 2 else "random", seed + x) for x in range(n)]
        step = 0
        while GAME.outcome(s) is None and step < 3000:
            found.setdefault(situation(s), [])
            if len(found[situation(s)]) < 3:
                found[situation(s)].append(s)
            seat = rnd.choice(sorted(GAME.to_act(s)))
            step += 1
            s = apply_at(GAME, s, seat, agents[seat].choose(GAME, s, seat), seed, step).state
        found.setdefault("over", [s])
    return found


def all_states() -> list[Any]:
    return [s for group in states().values() for s in group]


def test_situations_reached() -> None:
    """The playouts reach set-up, tasks, windows, debates, votes and the end."""
    assert {
        "setup",
        "task",
        "window-answer",
        "window-debate",
        "council-vote",
        "main",
        "article",
        "over",
    } <= set(states())


def test_round_trip_every_legal_action() -> None:
    for s in all_states():
        for seat in GAME.to_act(s):
            for a in GAME.legal_actions(s, seat):
                text = GAME.format_action(s, a)
                assert GAME.parse_action(s, seat, text) == a, text
                assert GAME.parse_action(s, seat, text.upper()) == a


def test_not_prompted_seat() -> None:
    for s in all_states():
        if GAME.outcome(s) is not None:
            continue
        prompts = GAME.to_act(s)
        for seat in range(len(s.players)):
            if seat not in prompts:
                with pytest.raises(NotYourTurnError):
                    GAME.parse_action(s, seat, "done")


def test_word_prefixes_and_ambiguity() -> None:
    """Prefixes of words are read; several fits give the candidates."""
    for s in all_states():
        for seat in GAME.to_act(s):
            legal = GAME.legal_actions(s, seat)
            plays = [a for a in legal if isinstance(a, Play) and a.target is not None and a.bishop is None]
            for a in plays[:2]:
                words = GAME.format_action(s, a).split()
                short = " ".join(w[:4] for w in words)
                try:
                    assert GAME.parse_action(s, seat, short) == a
                except AmbiguousActionError as e:
                    assert GAME.format_action(s, a) in e.candidates
            votes = [a for a in legal if isinstance(a, Vote)]
            if len(votes) > 1:
                with pytest.raises(AmbiguousActionError):
                    GAME.parse_action(s, seat, "vote")


def test_complete_offers_legal_text() -> None:
    for s in all_states():
        for seat in GAME.to_act(s):
            texts = {GAME.format_action(s, a) for a in GAME.legal_actions(s, seat)}
            got = GAME.complete(s, seat, "")
            assert got and set(got) <= texts and len(got) <= 25
            first = sorted(texts)[0]
            assert first in GAME.complete(s, seat, first[:3]) or len(GAME.complete(s, seat, first[:3])) == 25


@FUZZ
@given(text=st.text(max_size=40), which=st.integers(min_value=0, max_value=10_000))
def test_any_text_is_an_action_or_a_game_error(text: str, which: int) -> None:
    pool = [s for s in all_states() if GAME.outcome(s) is None]
    s = pool[which % len(pool)]
    seat = sorted(GAME.to_act(s))[0]
    before = s.model_dump()
    try:
        a = GAME.parse_action(s, seat, text)
    except GameError as e:
        assert e.message.strip()
    else:
        assert a in GAME.legal_actions(s, seat) or GAME.apply(
            s, seat, a, __import__("games.core").core.Rng(1, 1)
        )
    assert s.model_dump() == before


def test_unknown_name_lists_what_is_legal() -> None:
    s = next(s for s in all_states() if situation(s) == "main")
    seat = s.active
    with pytest.raises(GameError) as e:
        GAME.parse_action(s, seat, "play Nonexistent Card")
    assert "done" in e.value.message or "play" in e.value.message


def _new_decisions() -> list[Any]:
    """States waiting on the choices the rule text gives a player: Proselytism 2's
    "2 Bishop or 3 Follower cards", Evangelic Campaign's Churches, Bad Times' Bishops."""
    from tests.games.credo.test_credo_rules import act, art, council_state, ev, fol, make, mat, two

    out = []
    target = fol(100000, 4) + ("b-nicea", "b-gaza", "l-prefect-of-gaul")
    s = make(church=[("b-caesarea",), target, ()], hands=[(ev("Proselytism"),), (), ()])
    out.append(act(s, 0, Play(card=ev("Proselytism"), bishop="b-caesarea", target=1), *two(2)))
    s = make(
        n=4,
        church=[("b-nicea",), fol(5000, 2), fol(10000, 2), fol(20000, 2)],
        hands=[(ev("Evangelic Campaign"),), (), (), ()],
    )
    s = act(s, 0, Play(card=ev("Evangelic Campaign"), bishop="b-nicea"))
    out += [s, act(s, 0, GAME.legal_actions(s, 0)[0], *two(7))]
    bishops = ("p-alexandria", "p-antioch") + tuple(
        f"b-{x}" for x in ("assos", "athens", "corinth", "edessa", "tyre", "laodicea", "seleucia", "nyssa")
    ) + ("b-nicea",)  # fmt: skip
    s = council_state(
        [mat(faith=[art("Article 1 Orthodox")]), mat(faith=[art("Article 1 Tritheist")]), mat()],
        [(), bishops, ()],
        hands=[(ev("Bad Times"),), (), ()],
    )
    for seat, a in ((0, "convoke"), (1, "pass"), (2, "pass")):
        s = act(s, seat, GAME.parse_action(s, seat, a))
    out.append(act(s, 0, Play(card=ev("Bad Times"), target=1)))
    return out


def test_new_decisions_round_trip_and_complete() -> None:
    """The preacher's, campaigner's and rival's choices read back and autocomplete."""
    kinds = []
    for s in _new_decisions():
        assert s.tasks
        kinds.append(s.tasks[0].kind)
        seat = s.tasks[0].chooser
        texts = [GAME.format_action(s, a) for a in GAME.legal_actions(s, seat)]
        assert len(texts) > 1
        for a in GAME.legal_actions(s, seat):
            text = GAME.format_action(s, a)
            assert GAME.parse_action(s, seat, text) == a and GAME.parse_action(s, seat, text.lower()) == a
        assert set(GAME.complete(s, seat, "pick")) == set(texts)
    assert kinds == ["either", "campaign", "campaign", "away"]
