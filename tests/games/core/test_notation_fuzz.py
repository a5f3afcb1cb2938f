"""Notation fuzz (ARCHITECTURE.md, "Notation" and the GameError family).

Whatever a player types, ``parse_action`` either returns an action that applies,
or raises a ``GameError`` subclass with a non-empty, player-safe message; it
never raises anything else and never changes the state. A seat that is not
prompted always gets ``NotYourTurnError``. Unknown card and nation names are
answered with what would be legal.

The states are reached by real playouts (every phase, wars in both stages,
response windows, re-entry, the end of the game), built once per module.
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
    GameOverError,
    NotYourTurnError,
    Rng,
    apply_at,
    get_game,
    start,
)
from games.core.agents import make_agent

GAME = get_game("barbarian-hordes")
PER_SITUATION = 2
FUZZ = settings(
    max_examples=300,
    database=None,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)


def situation(s: Any) -> str:
    if s.phase in ("over", "draft", "reentry"):
        return s.phase
    if s.war is not None:
        return f"war-{s.war.stage}"
    if s.windows:
        return f"window-{s.windows[-1].kind}"
    return s.phase


@lru_cache(maxsize=1)
def reachable_states() -> dict[str, list[Any]]:
    """Situation -> up to PER_SITUATION states met in heuristic and random playouts."""
    found: dict[str, list[Any]] = {}
    for seed in range(1, 30):
        n = 3 + seed % 6
        s = start(GAME, list(range(n)), GAME.Options(), seed).state
        kind = "heuristic" if seed % 2 else "random"
        agents = [make_agent(GAME, kind, seed * 100 + x) for x in range(n)]
        pick = random.Random(seed)
        step = 0
        while True:
            bucket = found.setdefault(situation(s), [])
            if len(bucket) < PER_SITUATION and (not bucket or bucket[-1].players != s.players):
                bucket.append(s)
            if GAME.outcome(s) is not None:
                break
            seat = pick.choice(sorted(GAME.to_act(s)))
            step += 1
            s = apply_at(GAME, s, seat, agents[seat].choose(GAME, s, seat), seed, step).state
    return found


def live_states() -> list[Any]:
    return [s for k, v in sorted(reachable_states().items()) if k != "over" for s in v]


def test_every_situation_is_reached() -> None:
    assert set(reachable_states()) >= {
        "draft",
        "reentry",
        "fate",
        "event",
        "conquest",
        "end",
        "war-commit",
        "war-negate",
        "window-negate",
        "window-opponents",
        "over",
    }


# --------------------------------------------------------------------------- text

WORDS = [
    "pick", "move", "between", "play", "attack", "fight", "with", "support", "block", "discard",
    "done", "pass", "on", "and", "sacrifice", "armies", "army", ",", "+", "&", "0", "1", "3", "-2",
    "99999999999999999999", "", " ", "\t", "\n", "é", "ß", "İ", "\u200b", "\x00", "🐎",
]  # fmt: skip


def names() -> list[str]:
    cards = sorted({c.display for c in GAME.data.cards.values()})
    nations = sorted({n.name for n in GAME.data.nations.values()})
    return cards + nations


def token() -> st.SearchStrategy[str]:
    name = st.sampled_from(names())
    return st.one_of(
        st.sampled_from(WORDS),
        name,
        name.map(str.upper),
        name.map(lambda x: x[: max(1, len(x) // 2)]),
        st.text(max_size=6),
    )


TEXT = st.one_of(
    st.text(max_size=40),
    st.lists(token(), min_size=1, max_size=8).map(" ".join),
    st.tuples(st.sampled_from(WORDS[:12]), st.lists(token(), max_size=5)).map(
        lambda t: " ".join([t[0], *t[1]])
    ),
)


def check_parse(s: Any, seat: int, text: str) -> None:
    before = s.model_dump()
    try:
        action = GAME.parse_action(s, seat, text)
    except GameError as e:
        assert isinstance(e.message, str) and e.message.strip(), f"empty message for {text!r}"
        assert str(e) == e.message
        assert e.code
        if isinstance(e, AmbiguousActionError):
            assert e.candidates, f"an ambiguity without candidates for {text!r}"
    else:
        GAME.apply(s, seat, action, Rng(1, 1))  # must not raise
        assert GAME.parse_action(s, seat, GAME.format_action(s, action)) == action
    assert s.model_dump() == before, f"parse_action({text!r}) changed the state"


@FUZZ
@given(text=TEXT)
def test_any_text_parses_to_a_legal_action_or_a_game_error(text: str) -> None:
    for s in live_states():
        for seat in sorted(GAME.to_act(s)):
            check_parse(s, seat, text)


def test_pass_and_done_are_accepted_only_when_legal() -> None:
    """An accepted action is one that help lists: ``pass`` and ``done`` typed in every
    reached situation either are refused or read as an action among ``legal_actions``
    (CONQUEST PHASE: the Attacker and the Defender fight; they cannot pass the war)."""
    for s in live_states():
        for seat in sorted(GAME.to_act(s)):
            for text in ("pass", "done"):
                try:
                    action = GAME.parse_action(s, seat, text)
                except GameError:
                    continue
                assert action in list(GAME.legal_actions(s, seat)), (situation(s), seat, text)


@FUZZ
@given(text=TEXT)
def test_a_seat_not_prompted_is_told_it_is_not_its_turn(text: str) -> None:
    for s in live_states():
        prompted = GAME.to_act(s)
        others = [x for x in range(len(s.players)) if x not in prompted]
        for seat in others[:2]:
            before = s.model_dump()
            with pytest.raises(NotYourTurnError) as err:
                GAME.parse_action(s, seat, text)
            assert err.value.message.strip()
            assert s.model_dump() == before


@FUZZ
@given(text=TEXT)
def test_a_finished_game_refuses_every_text_with_a_game_error(text: str) -> None:
    for s in reachable_states()["over"]:
        for seat in range(len(s.players)):
            check_parse(s, seat, text)
            with pytest.raises(GameError):
                GAME.parse_action(s, seat, text)


def test_a_finished_game_answers_game_over() -> None:
    s = reachable_states()["over"][0]
    with pytest.raises(GameOverError):
        GAME.parse_action(s, 0, "pass")


# --------------------------------------------------------------------------- unknown names


def first(kind: str, ok: Any = lambda s, seat: True) -> tuple[Any, int]:
    for s in reachable_states()[kind]:
        for seat in sorted(GAME.to_act(s)):
            if ok(s, seat):
                return s, seat
    pytest.skip(f"no {kind} state with that property")  # pragma: no cover


def hand_names(s: Any, seat: int) -> list[str]:
    return [GAME.card(c).display for c in s.players[seat].hand]


def nation(s: Any, seat: int) -> str:
    return GAME.nation_name(s, seat)


def assert_lists(message: str, expected: list[str]) -> None:
    assert expected
    missing = [x for x in expected if x not in message]
    assert not missing, f"{message!r} does not list {missing}"


def test_unknown_nation_in_the_draft_lists_the_nations_to_pick() -> None:
    s, seat = first("draft")
    with pytest.raises(GameError) as err:
        GAME.parse_action(s, seat, "pick Atlantis")
    pool = [GAME.data.nation(n).name for n in GAME.nation_pool(s, reentry=False)]
    assert_lists(err.value.message, pool)


def test_unknown_nation_on_reentry_lists_the_nations_to_pick() -> None:
    s, seat = first("reentry")
    with pytest.raises(GameError) as err:
        GAME.parse_action(s, seat, "pick Atlantis")
    pool = sorted(GAME.data.nation(n).name for n in GAME.nation_pool(s, reentry=True))
    assert_lists(err.value.message, pool[:12])


def legal_now(s: Any, seat: int) -> list[Any]:
    space = GAME.legal_actions(s, seat)
    return [space[i] for i in range(min(len(space), 400))]


def test_unknown_card_lists_the_cards_that_could_be_played() -> None:
    """In every situation: "play <unknown card>" names every card that may be played
    now or, when none may, says what is legal instead."""
    checked = 0
    for s in live_states():
        if s.phase in ("draft", "reentry"):
            continue
        for seat in sorted(GAME.to_act(s)):
            if not s.players[seat].hand:
                continue
            with pytest.raises(GameError) as err:
                GAME.parse_action(s, seat, "play Zzyzx Horn")
            legal = legal_now(s, seat)
            playable = sorted({GAME.card(a.card).display for a in legal if type(a).__name__ == "PlayCard"})
            if playable:
                assert_lists(err.value.message, playable[:12])
            else:
                said = [GAME.format_action(s, a) for a in legal[:3]]
                assert any(x in err.value.message for x in said), (err.value.message, said)
            checked += 1
    assert checked >= 10


def test_unknown_card_in_a_discard_lists_the_hand() -> None:
    s, seat = first("end")
    with pytest.raises(GameError) as err:
        GAME.parse_action(s, seat, "discard Zzyzx Horn")
    assert_lists(err.value.message, hand_names(s, seat))


def test_unknown_nation_to_attack_lists_the_targets() -> None:
    s, seat = first("conquest", lambda s, seat: bool(GAME.attack_targets(s)))
    with pytest.raises(GameError) as err:
        GAME.parse_action(s, seat, "attack Atlantis")
    assert_lists(err.value.message, [nation(s, t) for t in GAME.attack_targets(s)])


def test_unknown_card_in_a_war_lists_the_hand() -> None:
    s, seat = first(
        "war-commit", lambda s, seat: seat in (s.war.attacker, s.war.defender) and bool(s.players[seat].hand)
    )
    with pytest.raises(GameError) as err:
        GAME.parse_action(s, seat, "fight with Zzyzx Horn")
    assert_lists(err.value.message, hand_names(s, seat))


def test_unknown_side_to_support_lists_the_nations() -> None:
    s, seat = first("war-commit", lambda s, seat: seat not in (s.war.attacker, s.war.defender))
    with pytest.raises(GameError) as err:
        GAME.parse_action(s, seat, "support Atlantis with 1 armies")
    assert_lists(err.value.message, [nation(s, s.war.attacker), nation(s, s.war.defender)])


def test_unknown_verb_says_what_is_legal() -> None:
    s, seat = first("conquest")
    with pytest.raises(GameError) as err:
        GAME.parse_action(s, seat, "surrender")
    assert "done" in err.value.message
