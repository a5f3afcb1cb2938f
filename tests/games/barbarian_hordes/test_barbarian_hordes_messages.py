"""Barbarian Hordes: what a player is told when a typed action is incomplete or not possible
(each message says what was wrong and what would be legal, and changes nothing)."""

from __future__ import annotations

import pytest

from games.barbarian_hordes.game import GAME
from games.core import AmbiguousActionError, GameError, IllegalActionError, InvalidNotationError
from tests.bh_helpers import act, make_state


def _message(s, seat: int, text: str) -> str:
    with pytest.raises(GameError) as e:
        GAME.parse_action(s, seat, text)
    return e.value.message


def _war(nations, hands, attacker=0, defender=1):
    s = make_state(nations, phase="conquest", active=attacker, conquests_left=2, hands=hands)
    return act(s, attacker, f"attack {nations[defender]}")


def test_play_alone_lists_only_the_cards_playable_now():
    """`play` alone in an opponent's Event Phase names the plays legal then (X, P and I cards:
    Card List Notation), not every card held."""
    s = make_state(["Huns", "Visigoths"], hands=[["Tribes"], ["Insurrection", "Tribes", "Cavalry", "Peace", "Conquest"]])
    s = act(s, 0, "done")
    with pytest.raises(AmbiguousActionError) as e:
        GAME.parse_action(s, 1, "play")
    assert e.value.message == "'play' could be play Insurrection, play Peace; which one?"
    assert e.value.candidates == ("play Insurrection", "play Peace")


def test_play_alone_with_one_playable_card_names_it():
    s = make_state(["Huns", "Visigoths"], hands=[["Tribes"], ["Insurrection", "Tribes", "Cavalry"]])
    s = act(s, 0, "done")
    assert _message(s, 1, "play") == "'play' needs more; legal now: play Insurrection."


def test_fight_with_and_nothing_after_it_asks_which_cards():
    """`fight with` alone asks which card, listing the commitments legal (CONQUEST PHASE), and
    never reads "with" as a card's name."""
    s = _war(["Huns", "Visigoths"], [["Cavalry", "Infantry", "Tribes"], []])
    message = _message(s, 0, "fight with")
    assert message.startswith("'fight with' could be fight with Cavalry, fight with Infantry, fight with Cavalry, Infantry")
    assert "'with'" not in message and "Tribes" not in message


def test_fight_with_holding_no_war_card_says_to_fight_with_none():
    s = _war(["Huns", "Visigoths"], [["Tribes"], []])
    with pytest.raises(InvalidNotationError) as e:
        GAME.parse_action(s, 0, "fight with")
    assert e.value.message == "Fight with which card? legal now: fight."


@pytest.mark.parametrize(
    ("seat", "why"),
    [
        (0, "you are the attacker, and the attacker cannot block its own war (Card List Notation)"),
        (1, "you hold no card that can block this war: that takes an I card or a P card (Card List Notation)"),
        (2, "you hold no card that can block this war: that takes an I card (a P card blocks for the defender "
            "only) (Card List Notation)"),
    ],
)
def test_block_without_a_blocking_card_says_so_plainly(seat: int, why: str):
    """`block with Peace` by a seat holding no I card (nor, as the defender, a P card) says it
    holds no card that can block, and what it may do instead (Card List Notation: "P = Play on
    opponents turn: He may not attack you this turn. I = ... He may not attack at all this turn")."""
    s = _war(["Huns", "Visigoths", "Ostrogoths"], [["Cavalry"], ["Infantry"], ["Cavalry"]])
    with pytest.raises(IllegalActionError) as e:
        GAME.parse_action(s, seat, "block with Peace")
    assert e.value.message.startswith(f"'block' is not possible now: {why}; legal now: ")
    assert "the question now is" not in e.value.message



def test_block_with_a_card_that_cannot_block_outside_a_war_says_when_a_war_is_blocked():
    s = make_state(["Huns", "Visigoths"], phase="conquest", hands=[["Cavalry"], []])
    assert _message(s, 0, "block with Cavalry").startswith(
        "'block' is not possible now: a war is blocked while its sides commit, with an I card"
    )


@pytest.mark.parametrize(("typed", "phase"), [("pass", "Event"), ("skip", "Event"), ("done", None)])
def test_a_word_read_as_done_tells_its_player_the_phase_ends(typed: str, phase: str | None):
    """EVENT PHASE ends when its player says done; `pass` (or `skip`) there is done, and its
    player is told so: "'pass' here means done: you end your Event Phase"."""
    s = make_state(["Huns", "Visigoths"], hands=[["Tribes"], []])
    a = GAME.parse_action(s, 0, typed)
    note = GAME.acted_note(s, 0, a, typed)
    assert note == (f"'{typed}' here means done: you end your {phase} Phase." if phase else None)
