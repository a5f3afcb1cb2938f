"""Barbarian Hordes: what the rule text (shared/seeds/004_d98ff79b6a56a13b.txt) says a player
"may" do is offered as a choice, never made for the player. Each test quotes its sentence.
"""

from __future__ import annotations

from games.barbarian_hordes.game import GAME
from tests.bh_helpers import act, make_state


def _wiped_out_seat_1():
    """Seat 1 (Visigoths, 1 Territory Token) loses a war and is wiped out; its turn comes."""
    s = make_state(["Huns", "Visigoths", "Ostrogoths"], phase="conquest", territories=[5, 1, 5],
                   armies=[30, 1, 10], conquests_left=1)  # fmt: skip
    s = act(s, 0, "attack Visigoths")
    s = act(s, 2, "pass")
    s = act(s, 0, "fight")
    s = act(s, 1, "fight", 5, 1, 1, 1)
    assert s.players[1].status == "out"
    if s.phase == "end":
        s = act(s, 0, "done")
    assert s.phase == "reentry" and set(GAME.to_act(s)) == {1}
    return s


def test_r13_wiped_out_player_may_decline_to_reenter():
    """DEFEAT: "He may renter the game as another Nation not yet played" — a choice: the
    wiped-out player is offered the nations and `pass`; passing keeps it out for good and
    the next nation's turn begins (R13)."""
    s = _wiped_out_seat_1()
    legal = [GAME.format_action(s, a) for a in GAME.legal_actions(s, 1)]
    assert "pass" in legal and "pick Franks" in legal
    assert "pass" in GAME.to_act(s)[1].text
    s = act(s, 1, "pass", 2, 3, 4)  # Ostrogoths: Fate 1D6 = 2, Recruit rolled twice (Populous)
    assert s.players[1].status == "eliminated" and 1 not in s.seating
    assert s.active == 2 and s.phase == "event"


def test_r13_declining_leaves_last_nation_standing():
    """R15 with DEFEAT's "may": when the only wiped-out player declines and one nation is
    left, that nation wins."""
    s = make_state(["Huns", "Visigoths"], phase="conquest", territories=[5, 1], armies=[30, 1])
    s = act(s, 0, "attack Visigoths")
    s = act(s, 0, "fight")
    s = act(s, 1, "fight", 5, 1, 1, 1)
    if s.phase == "end":
        s = act(s, 0, "done")
    assert s.phase == "reentry"
    s = act(s, 1, "pass")
    assert s.phase == "over" and GAME.outcome(s).winners == (0,)


def test_r10_q_card_playable_after_the_last_conquest_phase():
    """Q = "Gain an Extra Conquest Phase", which R10 lets be played in the Conquest Phase: after
    the war that used the last Conquest Phase, a player holding a Q card is asked (the phase does
    not end by itself) and may play it and attack again."""
    s = make_state(["Visigoths", "Huns", "Ostrogoths"], phase="conquest", hands=[["Campaign"], [], []],
                   armies=[20, 10, 10], conquests_left=1)  # fmt: skip
    s = act(s, 0, "attack Huns")
    s = act(s, 2, "pass")
    s = act(s, 0, "fight")
    s = act(s, 1, "fight", 9, 1, 3, 4)
    assert s.conquests_left == 0
    assert s.phase == "conquest" and set(GAME.to_act(s)) == {0}
    legal = [GAME.format_action(s, a) for a in GAME.legal_actions(s, 0)]
    assert "play Campaign" in legal and "done" in legal
    assert not [x for x in legal if x.startswith("attack")]
    s = act(s, 0, "play Campaign")
    assert s.conquests_left == 1
    assert "attack Huns" in [GAME.format_action(s, a) for a in GAME.legal_actions(s, 0)]


def test_r11_conquest_ends_by_itself_when_a_q_card_could_not_help():
    """R11: with an I card played on it ("He may not attack at all this turn") a Q card gives
    nothing to do, so the Conquest Phase still ends by itself."""
    s = make_state(["Huns", "Visigoths", "Ostrogoths"], hands=[["Campaign"], [], ["Succession"]],
                   conquests_left=1)  # fmt: skip
    s = act(s, 0, "done")
    s = act(s, 2, "play Succession")
    s = act(s, 1, "pass")
    s = act(s, 2, "pass", 1, 1)
    assert s.active == 1


def _end_phase_with(hand):
    """Seat 0 (Huns) reaches its End Phase holding ``hand`` (nine cards: one over the limit)."""
    s = make_state(["Huns", "Vandals", "Franks"], hands=[hand, [], []], phase="conquest", conquests_left=0)
    s = act(s, 0, "done")
    assert s.phase == "end" and set(GAME.to_act(s)) == {0}
    return s


def test_s_card_play_anytime_also_in_the_end_phase():
    """S = "Look at opponents hand: play anytime" (R12): the End Phase asks the player to
    discard, and it may play its S card there too (looking at a hand); the card played
    leaves the hand, which is then within the limit, so the turn ends without a discard."""
    hand = ["Scouts", "Epidemic", "Pestilence", "Famine", "Decadence", "Corruption", "Conspiracies",
            "Disorder", "Factionalism"]  # fmt: skip
    s = _end_phase_with(hand)
    legal = [GAME.format_action(s, a) for a in GAME.legal_actions(s, 0)]
    assert "play Scouts on Vandals" in legal and "discard Scouts" in legal
    s = act(s, 0, "play Scouts on Vandals", 3, 1)  # the Vandals' Fate Phase: 3 cards, then stay
    assert len(s.players[0].hand) == 8 and s.active == 1


def test_s_card_in_the_end_phase_still_leaves_the_excess_to_discard():
    """R12 and END PHASE "Discard excess cards": an S card played in the End Phase with two
    cards over the limit leaves one to discard; the player is asked again."""
    hand = ["Scouts", "Spies", "Epidemic", "Pestilence", "Famine", "Decadence", "Corruption",
            "Conspiracies", "Disorder", "Factionalism"]  # fmt: skip
    s = _end_phase_with(hand)
    s = act(s, 0, "play Scouts on Franks")
    assert s.phase == "end" and s.active == 0 and len(s.players[0].hand) == 9
    assert "discard 1 card" in GAME.to_act(s)[0].text


def test_r5_an_ally_may_send_a_y_card():
    """CONQUEST PHASE: "Allies = Other players may send the combatants Armies and Cards", any
    card the war can use, so a Y card too ("Y = Automatic Stalemate in Conquest Phase"): an
    ally sends it to the defender and the war is a stalemate, whatever the totals (R5)."""
    s = make_state(["Huns", "Visigoths", "Ostrogoths"], phase="conquest", hands=[[], [], ["Driven Out"]],
                   armies=[30, 5, 10], conquests_left=1)  # fmt: skip
    s = act(s, 0, "attack Visigoths")
    legal = [GAME.format_action(s, a) for a in GAME.legal_actions(s, 2)]
    assert "support Visigoths with Driven Out" in legal
    s = act(s, 2, "support Visigoths with Driven Out")
    s = act(s, 0, "fight")
    s = act(s, 1, "fight", 10, 1, 2, 2, 1, 1)  # the war's dice; then the Visigoths' Fate and Recruit
    assert s.last_war.outcome == "stalemate"
    assert s.players[1].territories == 5
    assert "driven-out" in s.discard
