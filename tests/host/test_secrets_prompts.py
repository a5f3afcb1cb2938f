"""Prompts never betray hands (ARCHITECTURE.md, trust invariant 3; issue 14 items 3 and 4): who
is asked, and the public text of a question, are the same whether or not a seat holds
the card. Each case cites the game's ruling. The random-game property over all five
games is in tests/host/test_secrets_property.py."""

from __future__ import annotations

from games.core.secrets import public_prompts
from games.soul_of_the_empire.game import GAME as SOUL
from games.soul_of_the_empire.model import Pass
from tests.games.soul_of_the_empire.test_soul_of_the_empire_combat_choices import act, pharaoh_attack
from tests.games.soul_of_the_empire.test_soul_of_the_empire_rules import (
    board,
    dice,
    fresh,
    seat,
    set_f,
    turn_of,
)


def _soul_attack(christian_hand: tuple[str, ...], christian_deck: tuple[str, ...]):
    from games.soul_of_the_empire.model import Attack

    s = board(fresh(), {"germania": {"christians": 2, "coalition": 2}})
    s = set_f(s, "christians", hand=christian_hand, deck=christian_deck)
    s = dice(turn_of(s, "coalition"), "coalition", [1])
    return act(s, "coalition", Attack(die=0, territory="germania", target="christians"))


def test_soul_elder_question_goes_to_a_side_that_could_hold_elder_holding_it_or_not():
    """Soul of the Empire R25 and R9 step 1: the Elder question goes to every side that could
    hold Elder (cards in hand, an Elder among hand and deck), with the same public text
    whether the Elder is in the hand or still in the deck; without it only `pass` is legal."""
    held = _soul_attack(("elder", "guardian-angel"), ("tithe",))
    not_held = _soul_attack(("tithe", "guardian-angel"), ("elder",))
    assert public_prompts(SOUL, held) == public_prompts(SOUL, not_held)
    christians = seat(held, "christians")
    assert [x for x, _, _ in public_prompts(SOUL, not_held)] == [christians]
    assert SOUL.legal_actions(not_held, christians) == [Pass()]
    passed = act(not_held, "christians", Pass())
    assert passed.combat.stage == "powers"  # Guardian Angel may still be played face down (R9 step 2)
    # an empty hand holds nothing (its size is public): no question
    empty = _soul_attack((), ("elder",))
    assert empty.combat.stage == "choose"


def test_soul_pharaohs_fate_question_does_not_name_the_face_down_card():
    """Soul of the Empire R25 and R9 step 6: the public question about a face-down Power Card
    never names it ("reveal it (reveal), or take it back into the hand unrevealed (keep)")."""
    s = pharaoh_attack([1, 3])
    prompts = public_prompts(SOUL, s)
    assert prompts and all("Pharaoh" not in text for _, _, text in prompts)
    assert any("face-down Power Card" in text and "(reveal)" in text and "(keep)" in text for _, _, text in prompts)
    view = SOUL.view(s, None)
    assert "Pharaoh" not in (view.window or "") and "Pharaoh" not in view.model_dump_json()


def test_soul_promised_land_window_opens_whether_or_not_the_card_is_held():
    """Soul of the Empire R25 and R22: units moving out of the blue region open the Promised
    Land window for the Jews whenever they could hold the card (cards in hand, a copy among
    hand and deck), with the same public prompt; without it they can only pass."""
    from games.soul_of_the_empire.model import Move, Path

    def move(hand: tuple[str, ...], deck: tuple[str, ...]):
        s = board(turn_of(fresh(), "rome"), {"jerusalem": {"rome": 2}})
        s = set_f(s, "jews", hand=hand, deck=deck)
        s = dice(s, "rome", [6])
        return act(s, "rome", Move(die=0, paths=(Path(count=1, route=("jerusalem", "samaria")),)))

    held = move(("promised-land", "tithe"), ("pharisee",))
    not_held = move(("tithe", "pharisee"), ("promised-land",))
    assert held.window is not None and held.window.kind == "promised_land"
    assert public_prompts(SOUL, held) == public_prompts(SOUL, not_held)
    assert SOUL.legal_actions(not_held, seat(not_held, "jews")) == [Pass()]
