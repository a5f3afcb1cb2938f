"""Barbarian Hordes rules, from the rule text (shared/seeds/004) and RULINGS.md.

Each test names the section of the text or the ruling it checks. Dice are
scripted (tests/bh_helpers.Dice) so every value asserted follows from the rules.
"""

from __future__ import annotations

from collections import Counter

import pytest

from games.barbarian_hordes.game import GAME, Options
from games.barbarian_hordes.model import CardsReceived, HandSeen, Pass, PickNation
from games.core import GameError, IllegalActionError, NotYourTurnError, Rng
from tests.bh_helpers import Dice, act, act_events, card_id, hand_names, make_state, nation_id

# ----------------------------------------------------------------------------- the deck


def test_card_list_has_one_card_per_listed_entry():
    """CARD LIST: the deck contains one of each card listed (107 entries)."""
    cards = GAME.data.cards
    assert len(cards) == 107
    types = Counter(c.types for c in cards.values())
    assert types["X"] == 19 and types["G"] == 14 and types["C"] == 20 and types["XG"] == 4
    assert types["K"] == 5 and types["Q"] == 9 and types["V"] == 5 and types["M"] == 5


def test_both_intrigue_cards_exist():
    """CARD LIST: "Intrigue I" and "Intrigue D" are two different cards."""
    intrigues = {c.id: c.types for c in GAME.data.cards.values() if c.name == "Intrigue"}
    assert intrigues == {"intrigue-i": "I", "intrigue-d": "D"}


def test_card_force_and_defender_attacker_only_notes():
    """CARD LIST: F+n bonuses and DO/AO notes as printed."""
    assert GAME.card("great-leader").force == 10 and GAME.card("great-leader").types == "LC"
    assert GAME.card("fortifications").only == "DO" and GAME.card("fortifications").force == 8
    assert GAME.card("siege-engines").only == "AO"
    assert GAME.card("logistic-strategy").force == 9


def test_quaternary_nations_have_no_abilities():
    """THE NATIONS: at least eight quaternary nations, without special abilities."""
    quaternary = [n for n in GAME.data.nations.values() if n.tier == 4]
    assert len(quaternary) >= 8
    assert all(n.abilities == () for n in quaternary)
    assert {"Franks", "Slavs", "Burgundians"} <= {n.name for n in quaternary}


# ----------------------------------------------------------------------------- setup


def test_setup_tokens_and_cards():
    """SETUP: 5 Territory Tokens, 10 Army Tokens, 5 randomly dealt cards each."""
    step = GAME.setup(range(4), Options(), Rng(1, 0))
    s = step.state
    for p in s.players:
        assert (p.territories, p.armies, len(p.hand)) == (5, 10, 5)
    assert len(s.deck) == 107 - 20
    assert s.phase == "draft"


def test_r2_turn_order_high_roll_first_ties_reroll():
    """R2: highest 1D10 goes first; tied players reroll among themselves."""
    rng = Dice(5, 5, 3, 2, 6)  # seats 0,1 tie on 5 and reroll 2 and 6; seat 2 rolled 3
    s = GAME.setup([0, 1, 2], Options(), rng).state
    assert s.turn_order == (1, 0, 2)


def test_r14_draft_takes_primary_nations_first():
    """THE NATIONS / R14: picks start with the Primary nations, then secondary..."""
    s = GAME.setup(range(5), Options(), Rng(3, 0)).state
    for _ in range(4):
        seat = next(iter(GAME.to_act(s)))
        pool = {a.nation for a in GAME.legal_actions(s, seat)}
        assert pool <= {"western-roman-empire", "huns", "visigoths", "ostrogoths"}
        s = GAME.apply(s, seat, PickNation(nation=sorted(pool)[0]), Rng(3, 1)).state
    seat = next(iter(GAME.to_act(s)))
    assert {a.nation for a in GAME.legal_actions(s, seat)} == {"eastern-roman-empire", "vandals"}
    with pytest.raises(IllegalActionError, match="available: Eastern Roman Empire, Vandals"):
        GAME.apply(s, seat, PickNation(nation="franks"), Rng(3, 2))


def test_three_player_variant_needs_three_players():
    """THREE PLAYER VARIANT: Rome, Attila the Hun, Goths; three players only."""
    with pytest.raises(IllegalActionError, match="exactly 3"):
        GAME.setup(range(4), Options(variant="three-player"), Rng(1, 0))
    s = GAME.setup(range(3), Options(variant="three-player"), Rng(1, 0)).state
    seat = next(iter(GAME.to_act(s)))
    assert {a.nation for a in GAME.legal_actions(s, seat)} == {"rome", "attila-the-hun", "goths"}


# ----------------------------------------------------------------------------- fate and recruit


def _start_turn(nations, rolls, **kw):
    """Finish the previous seat's turn (seat n-1 ends with no cards) so seat 0 starts."""
    n = len(nations)
    s = make_state(nations, phase="conquest", active=n - 1, **kw)
    return GAME.apply(s, n - 1, GAME.parse_action(s, n - 1, "done"), Dice(*rolls))


def test_fate_phase_draws_1d6_and_recruit_gains_1d6():
    """FATE PHASE: draw 1D6 cards. RECRUIT PHASE: gain 1D6 Army Tokens."""
    step = _start_turn(["Huns", "Visigoths"], [4, 3])
    s = step.state
    assert len(s.players[0].hand) == 4
    assert s.players[0].armies == 13
    assert s.phase == "event" and s.active == 0
    private = [e for e in step.events if isinstance(e, CardsReceived)]
    assert private and all(e.visible_to == (0,) for e in private)


def test_eastern_roman_empire_draws_an_extra_card():
    """Eastern Roman Empire, Manipulators: draw an extra card in Fate Phase."""
    s = _start_turn(["Eastern Roman Empire", "Huns"], [2, 1]).state
    assert len(s.players[0].hand) == 3


def test_ostrogoths_recruit_with_the_better_of_two_rolls():
    """Ostrogoths, Populous: roll twice and use the better roll in Recruit Phase."""
    s = _start_turn(["Ostrogoths", "Huns"], [1, 2, 6]).state
    assert s.players[0].armies == 16


def test_r4_empty_deck_reshuffles_the_discard_pile():
    """FATE PHASE / R4: if the deck runs out, shuffle the discard and draw from it."""
    s = _start_turn(
        ["Huns", "Visigoths"], [5, 1], deck=["Famine", "Epidemic"], discard=["Slaves", "Allies", "Host"]
    ).state
    assert sorted(hand_names(s, 0)) == ["Allies", "Epidemic", "Famine", "Host", "Slaves"]
    assert s.deck == () and s.discard == ()


def test_r4_draw_stops_short_when_deck_and_discard_are_empty():
    """R4: with both piles empty, the draw stops short."""
    s = _start_turn(["Huns", "Visigoths"], [6, 1], deck=["Famine"], discard=[]).state
    assert hand_names(s, 0) == ["Famine"]


def test_r3_vandals_may_change_seat_in_their_fate_phase():
    """Vandals, Migratory / R3: may change seating position in their own Fate Phase."""
    step = _start_turn(["Vandals", "Huns", "Visigoths", "Ostrogoths"], [1])
    s = step.state
    assert s.phase == "fate" and s.active == 0
    assert GAME.neighbours(s, 0) == (1, 3)
    s = act(s, 0, "move between Huns and Visigoths", 2)  # then recruit rolls 2
    assert s.seating == (1, 0, 2, 3)
    assert set(GAME.neighbours(s, 0)) == {1, 2}
    assert s.phase == "event" and s.players[0].armies == 12


# ----------------------------------------------------------------------------- event phase


def test_g_card_gains_1d6_armies():
    """G = Gain 1D6 Armies in Event Phase."""
    s = make_state(["Huns", "Visigoths"], hands=[["Slaves"], []])
    s = act(s, 0, "play Slaves", 4)
    assert s.players[0].armies == 14 and "slaves" in s.discard


def test_d_card_draws_three():
    """D = Draw 3 cards in Event Phase."""
    s = make_state(["Huns", "Visigoths"], hands=[["Prophecy"], []])
    s = act(s, 0, "play Prophecy")
    assert len(s.players[0].hand) == 3


def test_r9_v_card_only_after_a_won_war():
    """V / R9: only after you have won in Conquest Phase; uses one win."""
    s = make_state(["Huns", "Visigoths"], hands=[["Pillage"], []])
    with pytest.raises(IllegalActionError, match="won"):
        act(s, 0, "play Pillage")
    s = make_state(["Huns", "Visigoths"], hands=[["Pillage"], []], wins=[1, 0])
    s = act(s, 0, "play Pillage", 3)
    assert s.players[0].armies == 13 and s.players[0].wins == 0


def test_r3_m_card_changes_seating_in_event_phase():
    """M = Player may change his Seating Position in Event Phase (R3)."""
    s = make_state(["Huns", "Visigoths", "Ostrogoths", "Vandals"], hands=[["Migration"], [], [], []])
    s = act(s, 0, "play Migration between Visigoths and Ostrogoths")
    assert s.seating == (1, 0, 2, 3)


def test_r3_no_seat_change_with_three_nations():
    """R3: with fewer than three other nations, no place changes neighbours."""
    s = make_state(["Huns", "Visigoths", "Ostrogoths"], hands=[["Migration"], [], []])
    with pytest.raises(GameError):
        act(s, 0, "play Migration between Visigoths and Ostrogoths")


def test_c_card_cannot_be_played_in_event_phase():
    """C = Event played during Conquest Phase: not in the Event Phase."""
    s = make_state(["Huns", "Visigoths"], hands=[["Cavalry"], []])
    with pytest.raises(IllegalActionError, match="cannot be played"):
        act(s, 0, "play Cavalry")


def test_r8_x_card_in_opponents_event_phase():
    """X / R8: played in an opponent's Event Phase, the target loses 1D6 Armies."""
    s = make_state(["Huns", "Visigoths", "Ostrogoths"], hands=[[], ["Famine"], []])
    s = act(s, 0, "done")
    assert set(GAME.to_act(s)) == {1, 2}
    assert all(p.kind == "respond" for p in GAME.to_act(s).values())
    s = act(s, 1, "play Famine", 5)
    assert s.players[0].armies == 5
    s = act(s, 1, "pass")
    s = act(s, 2, "pass")
    assert s.phase == "conquest"


def test_r8_xg_card_takes_what_the_target_loses():
    """XG / R8: the target loses 1D6 Army Tokens; the player gains as many as were lost."""
    s = make_state(["Huns", "Visigoths"], hands=[[], ["Tribute"]], armies=[3, 10])
    s = act(s, 0, "done")
    s = act(s, 1, "play Tribute", 6)
    assert s.players[0].armies == 0 and s.players[1].armies == 13


def test_r7_k_card_negates_leader_in_event_phase():
    """K = Negate a Leader card just played (R7): a negated Wise Leader gains nothing."""
    s = make_state(["Huns", "Visigoths", "Ostrogoths"], hands=[["Wise Leader"], ["Assassination"], []])
    s = act(s, 0, "play Wise Leader")
    assert set(GAME.to_act(s)) == {1, 2}
    s = act(s, 1, "play Assassination")
    assert s.players[0].armies == 10
    assert {"wise-leader", "assassination"} <= set(s.discard)
    assert GAME.to_act(s).keys() == {0}


def test_r7_leader_takes_effect_when_nobody_negates():
    """R7: when every other nation passes, the Leader card takes effect."""
    s = make_state(["Huns", "Visigoths", "Ostrogoths"], hands=[["Wise Leader"], [], []])
    s = act(s, 0, "play Wise Leader")
    s = act(s, 1, "pass")
    s = act(s, 2, "pass", 4)
    assert s.players[0].armies == 14


def test_s_card_shows_a_hand_to_its_player_only():
    """S = Look at opponents hand: play anytime (R12). Only the player sees it."""
    s = make_state(["Huns", "Visigoths"], hands=[["Spies"], ["Famine", "Cavalry"]])
    step = act_events(s, 0, "play Spies on Visigoths")
    seen = [e for e in step.events if isinstance(e, HandSeen)]
    assert seen and seen[0].visible_to == (0,)
    assert set(seen[0].names) == {"Famine", "Cavalry"}


# ----------------------------------------------------------------------------- conquest


def _war(nations, attacker=0, defender=1, **kw):
    kw.setdefault("conquests_left", 2)
    s = make_state(nations, phase="conquest", active=attacker, **kw)
    return act(s, attacker, f"attack {nations[defender]}")


def test_r12_s_card_during_the_war_commitments():
    """S = "Look at opponents hand: play anytime" (R12), also while the war's commitments are
    made: the hand seen still holds the cards its player committed (they leave it at the
    reveal), so nothing of the secret commitment shows; the seat then still commits."""
    s = _war(["Huns", "Visigoths", "Ostrogoths"], hands=[["Cavalry"], ["Infantry"], ["Scouts"]])
    s = act(s, 0, "fight with Cavalry")
    assert "play Scouts on Huns" in [GAME.format_action(s, a) for a in GAME.legal_actions(s, 2)]
    step = act_events(s, 2, "play Scouts on Huns")
    seen = [e for e in step.events if isinstance(e, HandSeen)]
    assert seen and seen[0].visible_to == (2,) and set(seen[0].names) == {"Cavalry"}
    t = step.state
    assert t.war is not None and 2 in GAME.to_act(t) and "Scouts" not in [
        GAME.card(c).display for c in t.players[2].hand
    ]
    t = act(t, 2, "pass")
    t = act(t, 1, "fight", 5, 1, 1, 1)
    assert t.war is None or t.war.stage != "commit"


def test_conquest_phase_attacker_and_defender_cannot_pass_the_war():
    """CONQUEST PHASE: "You are the Attacker. The target player is the Defender"; the player
    with the higher WT wins the War. Both combatants are in it: `pass` is refused with the
    fights open to them (it is not among the legal actions help lists), and changes nothing;
    an ally ("Other players may send the combatants Armies and Cards") may still pass."""
    s = _war(["Huns", "Visigoths", "Ostrogoths"], hands=[["Cavalry"], [], []])
    for seat, role, fights in ((0, "Attacker", "fight with Cavalry"), (1, "Defender", None)):
        legal = [GAME.format_action(s, a) for a in GAME.legal_actions(s, seat)]
        assert "pass" not in legal and "fight" in legal
        before = s.model_dump()
        with pytest.raises(GameError) as refused:
            act(s, seat, "pass")
        assert "fight" in refused.value.message
        if fights:
            assert fights in refused.value.message
        assert s.model_dump() == before
        # the same action built directly (not typed) is refused by the rules too
        with pytest.raises(IllegalActionError, match=f"You are the {role} in this war and cannot pass"):
            GAME.apply(s, seat, Pass(), Rng(1, 1))
    assert "pass" in [GAME.format_action(s, a) for a in GAME.legal_actions(s, 2)]
    act(s, 2, "pass")


def test_attack_only_immediate_neighbours():
    """CONQUEST PHASE: you may attack the player to your immediate left or right."""
    s = make_state(["Huns", "Visigoths", "Ostrogoths", "Vandals"], phase="conquest")
    with pytest.raises(IllegalActionError, match="You may attack: Visigoths, Vandals"):
        act(s, 0, "attack Ostrogoths")


def test_war_arithmetic_winner_and_loser():
    """CONQUEST PHASE: WT = Army Tokens + Force Bonuses + 1D10; loser loses 1D6,
    winner 1D6 - 3, winner takes a Territory Token."""
    s = _war(["Huns", "Visigoths"], hands=[["Cavalry"], []], armies=[10, 12])
    s = act(s, 0, "fight with Cavalry")
    # dice: attacker 1D10 = 5, defender 1D10 = 2; loser 1D6 = 4, winner 1D6 = 5
    s = act(s, 1, "fight", 5, 2, 4, 5)
    w = s.last_war
    assert (w.attacker_total, w.defender_total) == (10 + 3 + 5, 12 + 2)
    assert w.outcome == "attacker"
    assert (s.players[0].armies, s.players[1].armies) == (10 - 2, 12 - 4)
    assert (s.players[0].territories, s.players[1].territories) == (6, 4)
    assert s.conquests_left == 1 and s.players[0].wins == 1


def test_winner_loss_is_never_negative():
    """CONQUEST PHASE: the Winner loses 1D6 - 3 Army Tokens (a roll of 1-3 costs nothing)."""
    s = _war(["Huns", "Visigoths"], armies=[20, 5])
    s = act(s, 0, "fight")
    s = act(s, 1, "fight", 1, 1, 6, 2)
    assert s.players[0].armies == 20 and s.players[1].armies == 0


@pytest.mark.parametrize("a_roll,d_roll", [(5, 5), (6, 5), (5, 6)])
def test_stalemate_when_totals_equal_or_differ_by_one(a_roll, d_roll):
    """CONQUEST PHASE: if WT are equal or differ only by 1 there is a stalemate; both lose 1D6."""
    s = _war(["Huns", "Visigoths"])
    s = act(s, 0, "fight")
    s = act(s, 1, "fight", a_roll, d_roll, 3, 4)
    assert s.last_war.outcome == "stalemate"
    assert (s.players[0].armies, s.players[1].armies) == (7, 6)
    assert (s.players[0].territories, s.players[1].territories) == (5, 5)


def test_y_card_forces_stalemate():
    """Y = Automatic Stalemate in Conquest Phase."""
    s = _war(["Huns", "Visigoths"], hands=[[], ["Driven Out"]], armies=[30, 5])
    s = act(s, 0, "fight")
    s = act(s, 1, "fight with Driven Out", 10, 1, 2, 2)
    assert s.last_war.outcome == "stalemate"
    assert s.players[1].territories == 5


def test_r17_western_roman_empire_force_cards_get_plus_two():
    """Western Roman Empire, Skilled: Force cards played provide an additional +2 Force."""
    s = _war(["Western Roman Empire", "Visigoths"], hands=[["Cavalry", "Infantry"], []], armies=[10, 10])
    s = act(s, 0, "fight with Cavalry, Infantry")
    s = act(s, 1, "fight", 1, 1, 1, 1)
    assert s.last_war.attacker_total == 10 + (3 + 2) * 2 + 1


def test_r17_visigoths_sacrifice_an_army_for_force_three():
    """Visigoths, Berserkers: sacrifice an Army Token to get Force +3 (once per war)."""
    s = _war(["Visigoths", "Huns"], armies=[10, 10])
    s = act(s, 0, "fight with sacrifice")
    s = act(s, 1, "fight", 1, 1, 1, 1)
    assert s.last_war.attacker_total == 9 + 3 + 1
    with pytest.raises(IllegalActionError, match="Berserkers"):
        s2 = _war(["Huns", "Visigoths"])
        act(s2, 0, "fight with sacrifice")


def test_r17_white_huns_armies_plus_one_when_attacking_only():
    """White Huns, Aggression: Army Tokens get +1 Force when Attacking."""
    s = _war(["White Huns", "Huns"], armies=[8, 10])
    s = act(s, 0, "fight")
    s = act(s, 1, "fight", 1, 1, 1, 1)
    assert s.last_war.attacker_total == 16 + 1
    s = _war(["Huns", "White Huns"], armies=[8, 10])
    s = act(s, 0, "fight")
    s = act(s, 1, "fight", 1, 1, 1, 1)
    assert s.last_war.defender_total == 10 + 1


def test_r17_sassanids_armies_plus_one_when_defending():
    """Sassanids, Defenders: Army Tokens get +1 Force when Defending."""
    s = _war(["Huns", "Sassanids"], armies=[8, 10])
    s = act(s, 0, "fight")
    s = act(s, 1, "fight", 1, 1, 1, 1)
    assert s.last_war.defender_total == 20 + 1


def test_r5_allies_send_armies_and_cards_and_are_last_casualties():
    """Allies may send Armies and Cards; Allied Armies are the last casualties (R5)."""
    s = _war(["Huns", "Visigoths", "Ostrogoths"], hands=[[], [], ["Cavalry"]], armies=[2, 20, 10])
    s = act(s, 2, "support Huns with 6 armies, Cavalry")
    s = act(s, 0, "fight")
    # attacker 2 + 6 allied + 3 = 11 + roll 10 = 21; defender 20 + 1 = 21 -> stalemate
    s = act(s, 1, "fight", 10, 1, 5, 1)
    assert s.last_war.attacker_total == 21 and s.last_war.outcome == "stalemate"
    # attacker loses 5: its own 2 first, then 3 of the 6 allied; 3 allied go home
    assert s.players[0].armies == 0
    assert s.players[2].armies == 10 - 6 + 3
    assert s.players[1].armies == 19


def test_r5_defender_only_and_attacker_only_cards():
    """DO = Defender Only, AO = Attacker Only (R5)."""
    s = _war(["Huns", "Visigoths"], hands=[["Fortifications"], ["Siege Engines"]])
    with pytest.raises(GameError):
        act(s, 0, "fight with Fortifications")
    with pytest.raises(GameError):
        act(s, 1, "fight with Siege Engines")


def test_r7_k_card_negates_a_leader_in_war():
    """K / R7: after commitments are revealed, a K card negates a Leader's Force."""
    s = _war(["Huns", "Visigoths"], hands=[["Great Leader"], ["Treason"]])
    s = act(s, 0, "fight with Great Leader")
    s = act(s, 1, "fight")
    assert s.war is not None and s.war.stage == "negate"
    s = act(s, 0, "pass")
    s = act(s, 1, "play Treason on Great Leader", 5, 5, 2, 2)
    assert s.last_war.attacker_total == 15 and s.last_war.outcome == "stalemate"


def test_r6_p_card_blocks_an_attack_on_you():
    """P = He may not attack you this turn (R6); the Conquest Phase is not used."""
    s = _war(["Huns", "Visigoths", "Ostrogoths"], hands=[["Cavalry"], ["Peace"], []], conquests_left=1)
    s = act(s, 0, "fight with Cavalry")
    s = act(s, 2, "pass")
    s = act(s, 1, "block with Peace")
    assert s.last_war.outcome == "blocked"
    assert "cavalry" in s.players[0].hand  # committed cards go back
    assert s.protected == (1,) and s.conquests_left == 1
    with pytest.raises(IllegalActionError, match="P card"):
        act(s, 0, "attack Visigoths")
    act(s, 0, "attack Ostrogoths")


def test_r6_i_card_forbids_all_attacks():
    """I = He may not attack at all this turn (R6)."""
    s = make_state(["Huns", "Visigoths", "Ostrogoths"], hands=[[], [], ["Succession"]], conquests_left=1)
    s = act(s, 0, "done")
    s = act(s, 2, "play Succession")
    s = act(s, 1, "pass")
    # every attack is forbidden: the Conquest Phase ends by itself (R11); hand 0 -> next turn
    s = act(s, 2, "pass", 1, 1)
    assert s.active == 1 and s.phase == "event"


def test_huns_have_two_conquest_phases():
    """Huns, Horsemen: an extra Conquest Phase each turn."""
    s = _start_turn(["Huns", "Visigoths"], [1, 1]).state
    s = act(s, 0, "done")
    s = act(s, 1, "pass")
    assert s.conquests_left == 2


def test_q_card_gives_an_extra_conquest_phase():
    """Q = Gain an Extra Conquest Phase."""
    s = make_state(["Visigoths", "Huns"], phase="conquest", hands=[["Campaign"], []], conquests_left=1)
    s = act(s, 0, "play Campaign")
    assert s.conquests_left == 2


def test_victory_at_ten_territory_tokens():
    """VICTORY: be the first player to accumulate 10 Territory Tokens."""
    s = _war(["Huns", "Visigoths"], territories=[9, 5], armies=[30, 1])
    s = act(s, 0, "fight")
    s = act(s, 1, "fight", 5, 1, 1, 1)
    assert s.phase == "over" and s.winner == 0
    assert GAME.outcome(s).winners == (0,)
    assert GAME.to_act(s) == {}


def test_victory_line_names_the_nation_as_a_sentence_does():
    """VICTORY: the end line reads "Victory for the Huns" and "Victory for the Suebi", but
    "Victory for Rome" and "Victory for Attila the Hun" (Three Player Variant), not "the Rome"."""
    s = _war(["Huns", "Visigoths"], territories=[9, 5], armies=[30, 1])
    s = act(act(s, 0, "fight"), 1, "fight", 5, 1, 1, 1)
    assert s.end_reason == "Victory for the Huns: 10 Territory Tokens!"
    s = make_state(["Rome", "Attila the Hun", "Suebi"], variant="three-player")
    assert [GAME.the_nation(s, x) for x in range(3)] == ["Rome", "Attila the Hun", "the Suebi"]


def test_r13_wiped_out_player_reenters_as_a_new_nation():
    """DEFEAT / R13: a wiped-out player re-enters as a nation not yet played."""
    s = _war(
        ["Huns", "Visigoths", "Ostrogoths"],
        territories=[5, 1, 5],
        armies=[30, 1, 10],
        hands=[[], ["Famine"], []],
    )
    s = act(s, 2, "pass")
    s = act(s, 0, "fight")
    s = act(s, 1, "fight", 5, 1, 1, 1)
    assert s.players[1].status == "out" and 1 not in s.seating
    assert s.players[1].hand == () and "famine" in s.discard
    s = act(s, 0, "done")  # End Phase: nothing to discard; seat 1's turn comes
    assert s.phase == "reentry" and GAME.to_act(s).keys() == {1}
    pool = {a.nation for a in GAME.legal_actions(s, 1) if isinstance(a, PickNation)}
    assert "visigoths" not in pool and "huns" not in pool and "franks" in pool
    s = act(s, 1, "pick Franks", 2, 3)  # 5 cards dealt; then Fate 1D6 = 2, Recruit 1D6 = 3
    p = s.players[1]
    assert (p.nation, p.territories, p.armies, len(p.hand)) == ("franks", 5, 13, 7)
    assert s.seating == (0, 1, 2)


def test_r13_three_player_variant_reentry_pool():
    """R13: in the three-player variant re-entry is as a nation whose ability no variant nation has."""
    s = make_state(["Rome", "Goths", "Attila the Hun"], variant="three-player")
    pool = set(GAME.nation_pool(s, reentry=True))
    assert "vandals" in pool and "sassanids" in pool and "franks" in pool
    assert not pool & {
        "huns",
        "western-roman-empire",
        "visigoths",
        "ostrogoths",
        "eastern-roman-empire",
        "white-huns",
    }


def test_three_player_variant_abilities():
    """THREE PLAYER VARIANT: Rome = WRE + ERE; Attila = Huns + White Huns; Goths = Visigoths + Ostrogoths."""
    assert set(GAME.data.nation(nation_id("Rome")).abilities) == {"skilled", "manipulators"}
    s = make_state(["Rome", "Goths", "Attila the Hun"], variant="three-player")
    assert GAME.hand_limit(s, 0) == 10
    assert set(GAME.abilities(s, 2)) == {"horsemen", "aggression"}
    assert set(GAME.abilities(s, 1)) == {"berserkers", "populous"}


# ----------------------------------------------------------------------------- end phase

TEN_CARDS = [
    "Epidemic",
    "Famine",
    "Slaves",
    "Allies",
    "Host",
    "Unity",
    "Tribes",
    "Horde",
    "Cavalry",
    "Infantry",
]


def test_r18_hand_limit_eight_discard_excess():
    """END PHASE: max hand size is 8 cards; discard excess (R18)."""
    s = make_state(["Huns", "Visigoths"], phase="conquest", hands=[TEN_CARDS, []])
    s = act(s, 0, "done")
    assert s.phase == "end"
    with pytest.raises(IllegalActionError, match="exactly 2"):
        act(s, 0, "discard Epidemic")
    s = act(s, 0, "discard Epidemic, Famine", 1, 1)
    assert len(s.players[0].hand) == 8 and s.active == 1


def test_r18_western_roman_empire_hand_limit_ten():
    """Western Roman Empire, Skilled: Max Hand Size = 10."""
    s = make_state(["Western Roman Empire", "Visigoths"], phase="conquest", hands=[TEN_CARDS, []])
    s = act(s, 0, "done", 1, 1)
    assert s.active == 1 and len(s.players[0].hand) == 10


# ----------------------------------------------------------------------------- bad input


def test_out_of_turn_and_unknown_names_change_nothing():
    """Bad input: a specific GameError, state unchanged."""
    s = make_state(["Huns", "Visigoths"], hands=[["Slaves"], ["Famine"]])
    before = s.model_dump()
    with pytest.raises(NotYourTurnError, match="waiting for Huns"):
        GAME.parse_action(s, 1, "play Famine")
    with pytest.raises(GameError, match="Slaves"):
        GAME.parse_action(s, 0, "play Excalibur")
    with pytest.raises(GameError, match="Conquest Phase"):
        GAME.parse_action(s, 0, "attack Visigoths")
    assert s.model_dump() == before


def test_card_not_in_hand_is_refused():
    s = make_state(["Huns", "Visigoths"], hands=[["Slaves"], ["Famine"]])
    from games.barbarian_hordes.model import PlayCard

    with pytest.raises(IllegalActionError, match="not in your hand"):
        GAME.apply(s, 0, PlayCard(card=card_id("Famine")), Dice())


def test_war_prompt_names_a_block_as_conditional_and_does_not_reveal_the_hand():
    """CARD LIST NOTATION: P ("He may not attack you this turn") and I cards block an attack;
    the war's question says a block needs such a card instead of offering one to a player who
    holds none, and reads the same whatever the hand holds (the question is shown to all)."""
    prompts = []
    for hand in (["Cavalry"], ["Peace"]):
        s = _war(["Huns", "Visigoths", "Ostrogoths"], hands=[[], hand, []])
        prompts.append((GAME.to_act(s)[1].text, GAME.to_act(s)[2].text))
    assert prompts[0] == prompts[1]
    defender, ally = prompts[0]
    assert "if you hold a P or I card, you may block the attack with it" in defender
    assert "if you hold an I card, you may block the attack with it" in ally
