"""Soul of the Empire refusals of a die or an objective: each says what was wrong and what
would be legal, and changes nothing.

Each test names the rule text section (shared/seeds/000_ee59181bd146d771.txt) or the ruling
(games/soul_of_the_empire/RULINGS.md) it checks.
"""

from __future__ import annotations

import pytest

from games.core import GameError, IllegalActionError, InvalidNotationError
from games.soul_of_the_empire.model import Die
from tests.games.soul_of_the_empire.test_soul_of_the_empire_messages import rolled
from tests.games.soul_of_the_empire.test_soul_of_the_empire_rules import (
    act,
    board,
    dice,
    fresh,
    g,
    seat,
    set_f,
    turn_of,
)


def _refusal(s, faction: str, text: str) -> GameError:
    with pytest.raises(GameError) as e:
        g.parse_action(s, seat(s, faction), text)
    return e.value


def _rome(players: int = 4, objectives=("pax-romana", "the-temple", "the-legions", "masada")):
    s = turn_of(fresh(players), "rome").model_copy(update={"objectives": objectives})
    return dice(s, "rome", [4, 4, 4, 1, 3], seq=[True, True, True, False, False])


@pytest.mark.parametrize("typed", ["ready 99999999999999999999", "ready 7", "ready 0", "ready 4 9"])
def test_a_die_value_outside_1_to_6_says_dice_show_1_to_6(typed: str) -> None:
    """Dice: the game's dice are six-sided, so a value typed outside 1 to 6 is named as no die's
    value (shortened when long), with the legal choices."""
    e = _refusal(rolled([1, 4, 4, 3, 4]), "rome", typed)
    assert isinstance(e, InvalidNotationError)
    assert e.message.startswith("A die shows 1 to 6; ")
    assert "Legal: ready 4 4 4, " in e.message
    assert len(e.message) < 400


def test_buy_with_a_value_outside_1_to_6_lists_the_legal_buys() -> None:
    e = _refusal(_rome(), "rome", "buy 7")
    assert e.message == (
        "A die shows 1 to 6; 7 is not the value of a die. A die outside your Dice Sequence (1, 3) is named "
        "after a +, added to one of the sequence (as in buy 4+3). Legal: buy 4, buy 4+3."
    )


def test_buy_with_a_die_not_in_the_sequence_says_an_outside_die_goes_after_a_plus() -> None:
    """Main Phase key: "an additional die may be used from outside the dice sequence" for a buy
    (RULINGS.md: `buy 3+1`): the refusal of a die not in the sequence says so and lists the buys."""
    e = _refusal(_rome(), "rome", "buy 3")
    assert isinstance(e, IllegalActionError)
    assert e.message == (
        "No 3 in your Dice Sequence; you have: 4. A die outside your Dice Sequence (1, 3) is named after "
        "a +, added to one of the sequence (as in buy 4+3). Legal: buy 4, buy 4+3."
    )


def test_claim_of_an_objective_card_not_face_up_says_so() -> None:
    """RULINGS.md R17: an objective is claimed on a face-up Objective Card; the refusal names the
    card and the ones that may be claimed, before any question of the die."""
    e = _refusal(_rome(), "rome", "claim 2: the danube")
    assert e.message == (
        "The Danube is not face up: an objective is claimed on a face-up Objective Card; you may claim: "
        "Pax Romana, The Temple, The Legions, Masada."
    )


def test_claim_of_an_objective_claimed_already_says_so() -> None:
    """RULINGS.md R17: a faction holds at most one die on a card."""
    s = act(_rome(), "rome", g.parse_action(_rome(), seat(_rome(), "rome"), "claim 4: Pax Romana"))
    e = _refusal(s, "rome", "claim 4: pax romana")
    assert e.message == (
        "Rome has claimed its objective on Pax Romana already (a faction holds one die on a card, R17); "
        "you may claim: The Temple, The Legions, Masada."
    )


def test_claim_of_a_blocked_objective_says_the_coalition_blocks_it() -> None:
    """RULINGS.md R17: "a blocked one cannot be claimed"."""
    s = _rome()
    co = s.factions["coalition"].dice
    s = set_f(s, "coalition", dice=(Die(value=5, place="block", on="the-temple", target="rome"), *co[1:]))
    assert _refusal(s, "rome", "claim 4: The Temple").message.startswith(
        "The Coalition blocks Rome's objective on The Temple, and a blocked objective cannot be claimed (R17); "
        "you may claim: Pax Romana, The Legions, Masada."
    )


def test_claim_of_a_card_not_for_two_players_says_so() -> None:
    """2-Player Rules 5: "Some objective cards cannot be achieved in 2-Player games."
    (RULINGS.md R17: they cannot be claimed there)."""
    e = _refusal(_rome(2, ("city-of-antioch", "pax-romana")), "rome", "claim 4: City of Antioch")
    assert e.message == (
        "City of Antioch cannot be achieved in the 2-player game (2-Player Rules 5), so it cannot be claimed; "
        "you may claim: Pax Romana."
    )


# --------------------------------------------------------------------------- what an action did


def test_pass_in_the_start_phase_tells_its_player_the_whole_turn_is_passed() -> None:
    """Passing: "Instead of playing their 3 phases, a faction may choose to pass. In this case,
    the faction gathers all their dice and immediately rolls and readies them"."""
    s = _rome().model_copy(update={"phase": "start", "acted": False})
    a = g.parse_action(s, seat(s, "rome"), "pass")
    assert g.acted_note(s, seat(s, "rome"), a, "pass") == (
        "pass: Rome passes its whole turn instead of playing its 3 phases (Passing): all its dice are "
        "gathered, then rolled and readied for its next turn."
    )


def test_end_with_dice_unspent_says_how_many_are_left() -> None:
    """Roll and Ready: "During the End Phase of a turn, a faction will only roll and ready the dice
    (or die) in the Unspent and Spent Dice areas": `end` with dice of the sequence unspent tells
    its player how many (and changes nothing else: no confirmation is asked)."""
    s = _rome()
    a = g.parse_action(s, seat(s, "rome"), "end")
    assert g.acted_note(s, seat(s, "rome"), a, "end") == (
        "end: Rome ends its Main Phase with 3 dice of its Dice Sequence unspent (4 4 4); they are rolled "
        "again in the End Phase."
    )
    assert act(s, "rome", a).phase == "end"
    spent = dice(s, "rome", [], [])
    assert g.acted_note(spent, seat(spent, "rome"), a, "end") is None


@pytest.mark.parametrize("typed", ["move 4: -1 Rome-Italia", "move 4: 0 Rome-Italia"])
def test_a_move_of_no_or_a_negative_count_of_units_says_move_at_least_one(typed: str) -> None:
    """Main Phase, Move Units ("Each unit costs 1 point to move to 1 adjacent territory"): a
    count of units below 1 is refused as a count, not read as a territory called '1 Rome'."""
    s = dice(board(turn_of(fresh(), "rome"), {"rome": {"rome": 4}}), "rome", [4])
    e = _refusal(s, "rome", typed)
    assert isinstance(e, InvalidNotationError)
    assert e.message == "Move at least 1 unit."
