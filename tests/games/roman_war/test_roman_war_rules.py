"""Roman War rules, from the rule text (shared/seeds/001) and games/roman_war/RULINGS.md.

Each test names the part of the text or the ruling it checks. States are built
directly (tests/games/roman_war/test_roman_war_helpers.py); the rng keeps every order as built.
"""

from __future__ import annotations

import pytest

from games.core import GameError, IllegalActionError, NotYourTurnError, Rng
from games.roman_war.game import GAME, Options, hannibal_draws
from games.roman_war.model import (
    ManeuverChanged,
    PowerChanged,
    StackItem,
)

from .test_roman_war_helpers import Fixed, act, act_events, cid, make_state, names, roman


def finish_turn(s):
    """Say done until the active seat's turn is over."""
    now = (s.round, s.turn)
    for _ in range(20):
        if s.phase == "over" or (s.round, s.turn) != now:
            return s
        (x,) = GAME.to_act(s)
        if s.phase == "end":
            s = GAME.apply(s, x, GAME.legal_actions(s, x)[0], Fixed()).state
            continue
        s = act(s, x, "done")
    raise AssertionError("the turn did not end")


# ----------------------------------------------------------------------------- data


def test_starter_decks_are_thirty_cards_and_distinct():
    """Issue: at least three distinct starter decks of about 30 cards for up to four players."""
    lists = {d: GAME.data.deck_list(d) for d in GAME.data.decks}
    assert len(lists) == 4
    assert all(len(v) == 30 for v in lists.values())
    assert len({tuple(sorted(v)) for v in lists.values()}) == 4
    for deck in lists.values():
        types = {GAME.card(c).type for c in deck}
        assert types == {"Maneuver", "Encampment", "Token", "Defense", "Tactic"}


def test_every_card_is_marked_authored():
    """DESIGN: each authored item is marked as authored."""
    assert all(c.authored for c in GAME.data.cards.values())
    assert all(c.authored for c in GAME.data.hannibal.values())
    assert all(d.authored for d in GAME.data.decks.values())
    assert {c.type for c in GAME.data.hannibal.values()} == {"Ambush", "Encampment"}


def test_eight_level_abilities_with_their_costs():
    """Level Abilities: the eight abilities, 11 high-tier / 7 low-tier Cost (R6)."""
    from games.roman_war.data import ABILITY_COST

    abilities = GAME.data.abilities
    assert [a.name for a in abilities.values()] == [
        "Benevolence",
        "Brotherly Horse",
        "Restoration",
        "Deliverance",
        "Vibrancy",
        "Cost Zone Power",
        "Speed",
        "Foresight",
    ]
    assert abilities["benevolence"].alias == "Double Defense"
    assert ABILITY_COST == {"high": 11, "low": 7}


# ----------------------------------------------------------------------------- setup and draws


def test_setup_power_three_of_ten_and_hands():
    """Power & Maneuver: start at 3/10 Power, Maneuver 0; R4: 4 cards, then the first draw."""
    s = GAME.setup([0, 1, 2], Options(), Rng(5, 0)).state
    assert [r.power for r in s.romans] == [3, 3, 3]
    assert [r.maneuver for r in s.romans] == [0, 0, 0]
    assert len(s.romans[0].hand) == 4 + 2  # the active player has drawn Maneuver + 2
    assert [len(r.hand) for r in s.romans[1:]] == [4, 4]
    assert s.phase == "cost" and s.round == 1 and s.active == 0


@pytest.mark.parametrize("level", [0, 1, 2, 3])
def test_draw_maneuver_plus_two(level):
    """First phase: draw cards equal to Maneuver + 2."""
    s = make_state([roman(maneuver=level)], hannibal_deck=(), level_abilities=False)
    s = finish_turn(s)
    assert len(s.romans[0].hand) == level + 2


@pytest.mark.parametrize(("level", "count"), [(0, 1), (1, 2), (2, 4), (3, 5)])
def test_hannibal_draw_rule(level, count):
    """Hannibal draws and plays the Roman's draw minus 1; at Maneuver 2+, Maneuver + 2 (R8)."""
    assert hannibal_draws(level) == count
    s = make_state(
        [roman(maneuver=level)], phase="cost", hannibal_deck=["Gallic Levies"] * 8, level_abilities=False
    )
    s = act(s, 0, "done")
    assert len(s.encampments) == count
    assert len(s.hannibal_deck) == 8 - count


def test_hannibal_ambushes_target_the_active_roman():
    """R8: in co-op every Ambush drawn is played at once, at the active Roman."""
    s = make_state([roman(), roman("scipio")], phase="cost", active=1, hannibal_deck=["Numidian Raid"] * 3)
    s = act(s, 1, "done")
    assert [a.target for a in s.ambushes] == [1]
    assert s.phase == "defense"


def test_cost_zone_up_to_four_face_down():
    """Cost Zone phase: up to 4 cards face down; placing does not change Power."""
    s = make_state([roman(hand=["March"] * 6)], phase="cost")
    for _ in range(4):
        s = act(s, 0, "cost March")
    assert len(s.romans[0].cost_zone) == 4 and s.romans[0].power == 3
    assert all(not c.face_up for c in s.romans[0].cost_zone)
    with pytest.raises(IllegalActionError, match="4 cards"):
        GAME.apply(s, 0, GAME.action_from_json({"kind": "cost", "card": "march"}), Fixed())


def test_end_phase_hand_limit():
    """End phase: discard down to the hand limit (7, R4); nothing else happens."""
    s = make_state([roman(hand=["Scutum"] * 9)], hannibal_deck=())
    s = act(s, 0, "done")
    assert s.phase == "end"
    s = act(s, 0, "discard Scutum")
    s = act(s, 0, "discard Scutum")
    assert s.phase == "cost" and s.round == 2


# ----------------------------------------------------------------------------- Power, overflow


def test_failed_ambush_costs_one_power():
    """Defend ambush or suffer Chaos: a failed Ambush is -1 Power (H-1)."""
    s = make_state([roman()], phase="defense", ambushes=["Balearic Slingers"])
    s = act(s, 0, "done")
    assert s.romans[0].power == 2 and s.phase == "main"
    assert s.hannibal_discard == (cid("Balearic Slingers"),)


def test_overflow_rule_discard_per_point_from_hand_or_cost_zone():
    """Overflow Rule: losing Power at 0 forces a discard per point, from hand OR Cost Zone."""
    s = make_state(
        [roman(power=0, hand=["Scutum"], cost=1)],
        phase="defense",
        ambushes=["Balearic Slingers", "Balearic Slingers"],
    )
    s = act(s, 0, "done")
    s = act(s, 0, "pass")  # asked to respond (it could hold Rally or Testudo; R23), it passes
    assert s.romans[0].overflow == 1
    assert "discard" in GAME.to_act(s)[0].text
    s = act(s, 0, "discard Levy from cost zone")
    assert s.romans[0].cost_zone == () and s.romans[0].hand == (cid("Scutum"),)
    s2 = act(s, 0, "discard Scutum")  # the second Ambush
    assert s2.romans[0].hand == () and s2.phase == "main"


def test_overflow_only_for_the_points_below_zero():
    """Overflow: -2 at Power 1 takes the 1 and one card (Cavalry Charge: H-1 and H-1)."""
    s = make_state([roman(power=1, hand=["Scutum", "Rally"])], phase="defense", ambushes=["Cavalry Charge"])
    s = act(s, 0, "done")
    assert s.romans[0].power == 0 and s.romans[0].overflow == 1


def test_overflow_with_nothing_left_is_forgiven():
    """R12: with no card in hand or Cost Zone, the rest of the overflow is forgiven."""
    s = make_state([roman(power=0)], phase="defense", ambushes=["Cavalry Charge"])
    s = act(s, 0, "done")
    assert s.romans[0].overflow == 0 and s.phase == "main"


def test_power_capped_at_ten():
    """Power is out of 10."""
    s = make_state([roman(power=10, hand=["Rally"], cost=1)])
    s = act(s, 0, "play Rally")
    assert s.romans[0].power == 10


# ----------------------------------------------------------------------------- Maneuver and levels


def test_resolved_maneuver_card_raises_level():
    """Each resolved Maneuver card raises the level by 1 (0 -> 1 -> 2 -> 3), never past 3."""
    s = make_state([roman(hand=["March", "March"], cost=6, maneuver=2)], level_abilities=False)
    s = act(s, 0, "play March")
    assert s.romans[0].maneuver == 3
    s = act(s, 0, "play March")
    assert s.romans[0].maneuver == 3


def test_free_ability_when_all_players_reach_the_next_level():
    """Level Abilities: each time all players reach the next level, the team chooses one, free (R7)."""
    s = make_state([roman(hand=["March"], cost=3), roman("scipio", maneuver=1)])
    s = act(s, 0, "play March")
    assert s.shared_level == 1
    prompt = GAME.to_act(s)[0]
    assert "free level ability" in prompt.text
    s = act(s, 0, "take Speed")
    assert s.abilities == ("speed",) and not s.pending


def test_levels_reached_at_once_give_no_pick_beyond_the_abilities_left():
    """R7: "Each of L1, L2, L3 gives one pick, once", of an ability "not yet held": with one ability left
    unheld, reaching L1-L3 at once (a manual adjust) gives one pick, and the game goes on after it (a
    random game once asked a second pick with nothing left to take, and locked)."""
    held = ("benevolence", "brotherly-horse", "deliverance", "vibrancy", "cost-zone-power", "speed", "foresight")
    s = make_state([roman(), roman("scipio", maneuver=3)], abilities=held, manual=True)
    s = act(s, 0, "adjust maneuver 3")
    assert s.shared_level == 3
    assert [p.kind for p in s.pending] == ["level"]
    s = act(s, 0, "take Restoration")
    assert "restoration" in s.abilities and not s.pending
    assert GAME.legal_actions(s, 0)


def test_no_free_ability_until_every_player_reaches_it():
    """R7: "all players reach the next Domination Level"."""
    s = make_state([roman(hand=["March"], cost=3), roman("scipio")])
    s = act(s, 0, "play March")
    assert s.shared_level == 0 and not s.pending


def test_buy_ability_right_after_cost_zone_phase():
    """Purchase by spending Cost (11 high / 7 low) right after your own Cost Zone phase (R6)."""
    s = make_state([roman(cost=12)], phase="cost", hannibal_deck=())
    s = act(s, 0, "done")
    assert s.phase == "purchase"
    s = act(s, 0, "buy Deliverance")
    assert "deliverance" in s.abilities and GAME.untapped(s, 0) == 1
    s2 = make_state([roman(cost=7)], phase="cost", hannibal_deck=())
    s2 = act(s2, 0, "done")
    assert s2.phase == "purchase"
    assert {a.ability for a in GAME.legal_actions(s2, 0) if a.kind == "ability"} == {
        "brotherly-horse",
        "vibrancy",
        "cost-zone-power",
        "foresight",
    }


def test_level_abilities_can_be_turned_off():
    """Toggle the whole system on/off: no free pick and no purchase."""
    s = make_state([roman(hand=["March"], cost=14)], level_abilities=False)
    s = act(s, 0, "play March")
    assert s.shared_level == 1 and not s.pending
    s = make_state([roman(cost=14)], phase="cost", level_abilities=False, hannibal_deck=())
    assert act(s, 0, "done").phase == "main"


def test_benevolence_teammate_pays_to_defend():
    """Benevolence / Double Defense: any player may spend their own Cost Zone to help defend."""
    s = make_state(
        [roman(), roman("scipio", cost=2)],
        phase="defense",
        ambushes=["Trasimene Fog"],
        abilities=["benevolence"],
    )
    s = act(s, 0, "done")
    assert GAME.to_act(s) and 1 in GAME.to_act(s)
    s = act(s, 1, "defend Trasimene Fog")
    assert s.romans[0].power == 3 and GAME.untapped(s, 1) == 0
    assert cid("Trasimene Fog") in s.defended_pile and s.phase == "main"


def test_without_benevolence_only_the_target_defends():
    """Benevolence is what lets another player help; without it nobody is asked."""
    s = make_state([roman(), roman("scipio", cost=2)], phase="defense", ambushes=["Trasimene Fog"])
    s = act(s, 0, "done")
    assert s.romans[0].power == 2 and s.phase == "main"


def test_brotherly_horse_redirects_the_beneficial_effect():
    """Brotherly Horse: redirect your next card's beneficial effect to a teammate (R7)."""
    s = make_state(
        [roman(hand=["Supply Train", "Supply Train"], cost=2), roman("scipio")], abilities=["brotherly-horse"]
    )
    s = act(s, 0, "play Supply Train to Scipio")
    assert len(s.romans[1].hand) == 2 and s.romans[0].hand == (cid("Supply Train"),)
    assert all(a.to is None for a in GAME.legal_actions(s, 0) if a.kind == "play")  # once per turn


def test_restoration_shuffles_up_to_fifteen_discards_back():
    """Restoration: every Roman shuffles up to 15 random cards from the discard pile into the deck."""
    s = make_state(
        [roman(discard=["March"] * 20, deck=[]), roman("scipio", discard=["Scutum"] * 3, deck=[])],
        abilities=["restoration"],
        charged=["restoration"],
    )
    s = act(s, 0, "use Restoration")
    assert (len(s.romans[0].deck), len(s.romans[0].discard)) == (15, 5)
    assert (len(s.romans[1].deck), len(s.romans[1].discard)) == (3, 0)
    assert "restoration" not in s.charged
    assert not [a for a in GAME.legal_actions(s, 0) if a.kind == "use"]


def test_deliverance_breaks_three_and_recharges_at_a_new_level():
    """Deliverance: break up to 3 Hannibal's Encampments (to the Defended pile); recharges at every new level."""
    s = make_state(
        [roman(hand=["March"], cost=3)],
        encampments=["Gallic Levies", "Camp in Bruttium", "Camp at Capua", "Camp at Gerunium"],
        abilities=["deliverance"],
        charged=["deliverance"],
    )
    s = act(s, 0, "use Deliverance")
    assert [GAME.name(e.card) for e in s.encampments] == ["Gallic Levies"]
    assert len(s.defended_pile) == 3 and s.charged == ()
    s = act(s, 0, "play March")  # L1 for the whole (one-player) team
    assert s.charged == ("deliverance",)


def test_vibrancy_flips_two_cost_zone_cards_face_up():
    """Vibrancy: flip 2 Cost Zone cards face-up after your Cost phase; R11: they can be played."""
    s = make_state(
        [roman(hand=["Rally", "Scutum", "March"], cost=2)],
        phase="cost",
        abilities=["vibrancy"],
        hannibal_deck=(),
    )
    s = act(s, 0, "cost Rally")
    s = act(s, 0, "cost Scutum")
    s = act(s, 0, "done")
    up = [c.card for c in s.romans[0].cost_zone if c.face_up]
    assert names(up) == ["Rally", "Scutum"]
    assert "play Rally from cost zone" in GAME.complete(s, 0, "play")


def test_cost_zone_power_draws_to_the_cost_zone():
    """Cost Zone Power: gained 3+ Power this turn? Draw a card straight to your Cost Zone at end of turn."""
    s = make_state(
        [roman(hand=["Rally"] * 3, cost=3, power=1)], abilities=["cost-zone-power"], hannibal_deck=()
    )
    for _ in range(3):
        s = act(s, 0, "play Rally")
    before = len(s.romans[0].cost_zone)
    s = act(s, 0, "done")
    assert len(s.romans[0].cost_zone) == before + 1


def test_speed_plays_a_maneuver_outside_the_main_phase():
    """Speed: play 1 Encampment/Maneuver card at any time on your turn (once)."""
    s = make_state([roman(hand=["March", "March"], cost=6)], phase="cost", abilities=["speed"])
    s = act(s, 0, "play March")
    assert s.romans[0].maneuver == 1 and s.speed_used
    assert not [a for a in GAME.legal_actions(s, 0) if a.kind == "play"]
    s2 = make_state([roman(hand=["March"], cost=6)], phase="cost")
    with pytest.raises(GameError):
        GAME.parse_action(s2, 0, "play March")


def test_foresight_reveals_the_next_draws():
    """Foresight: reveal the Hannibal deck's next draws at the start of your Cost phase."""
    deck = ["Camp at Capua", "Numidian Raid", "Gallic Levies", "Cannae"]
    s = make_state([roman(maneuver=1)], abilities=["foresight"], hannibal_deck=deck, level_abilities=True)
    s = finish_turn(s)
    v = GAME.view(s, None)
    assert [c.name for c in v.foresight] == ["Camp at Capua", "Numidian Raid"]  # Maneuver 1: Hannibal draws 2


# ----------------------------------------------------------------------------- playing a card


def test_defended_ambush_never_reaches_the_stack():
    """Five steps: defended, it never reaches the stack and nothing on it happens."""
    s = make_state([roman(hand=["Scutum"], cost=1)], phase="defense", ambushes=["Numidian Raid"])
    s = act(s, 0, "play Scutum on Numidian Raid")
    s = act(s, 0, "done")
    assert s.romans[0].power == 3 and cid("Numidian Raid") in s.defended_pile


def test_defend_by_paying_the_defense_cost():
    """The defense cost on the card (R n) is what answering it takes; R X = Encampments + 1 (R9)."""
    s = make_state(
        [roman(cost=3)], phase="defense", ambushes=["Cannae"], encampments=["Gallic Levies", "Gallic Levies"]
    )
    assert GAME.ambush_cost(s, cid("Cannae")) == 3
    s = act(s, 0, "defend Cannae")
    assert GAME.untapped(s, 0) == 0 and s.ambushes[0].defended


def test_gain_x_minus_three_power():
    """The text's example "Defend an Ambush -> Gain X -3 Power" (R20): X is the Ambush's defense cost."""
    s = make_state(
        [roman(hand=["Counter-Ambush"], cost=3)],
        phase="defense",
        ambushes=["Cannae"],
        encampments=["Gallic Levies"] * 4,
    )
    s = act(s, 0, "play Counter-Ambush on Cannae")  # R X = 5
    assert s.romans[0].power == 5


def test_response_counters_an_ambush_on_the_stack():
    """Fast cards may be played onto the stack; Feigned Retreat counters the failed Ambush (R15)."""
    s = make_state(
        [roman(), roman("scipio", hand=["Feigned Retreat"], cost=2)],
        phase="defense",
        ambushes=["Numidian Raid"],
    )
    s = act(s, 0, "done")
    assert GAME.to_act(s) == {1: GAME.to_act(s)[1]} and GAME.to_act(s)[1].kind == "respond"
    s = act(s, 1, "play Feigned Retreat")
    assert s.romans[0].power == 3 and cid("Numidian Raid") in s.defended_pile and s.phase == "main"


def test_who_is_asked_to_respond_does_not_depend_on_the_hand():
    """R23 ("Who is asked to respond never depends on a hand"): a Roman with a card in hand
    and an untapped Cost Zone paying for a fast Tactic of its deck is asked to respond to
    a failed Ambush whether it holds Feigned Retreat or only a Scutum; the public prompts
    are the same. A Roman with an empty hand is not asked (a hand's size is public)."""
    from games.core.secrets import public_prompts

    prompts = {}
    for hand in (["Feigned Retreat"], ["Scutum"]):
        s = make_state(
            [roman(), roman("scipio", hand=hand, cost=2)],
            phase="defense",
            ambushes=["Numidian Raid"],
        )
        s = act(s, 0, "done")
        prompts[hand[0]] = public_prompts(GAME, s)
    assert prompts["Feigned Retreat"] == prompts["Scutum"]
    assert [seat for seat, kind, _ in prompts["Scutum"]] == [1]
    s = act(s, 1, "pass")  # holding nothing fast, it passes
    assert s.phase == "main"


def test_testudo_prevents_the_power_loss_only():
    """Testudo: the Ambush still resolves (its Chaos), but no Power is lost."""
    s = make_state([roman(hand=["Testudo", "Scutum"], cost=1)], phase="defense", ambushes=["Numidian Raid"])
    s = act(s, 0, "done")
    s = act(s, 0, "play Testudo")
    assert s.romans[0].power == 3 and s.romans[0].hand == ()  # Numidian Raid discarded the Scutum


def test_boosts_cannot_be_countered():
    """A boost action cannot be countered: a counter only ever takes an Ambush off the stack (R16)."""
    from games.roman_war.data import Effect
    from games.roman_war.game import _Ctx

    s = make_state([roman()])
    card = StackItem(uid=50, kind="card", seat=0, card=cid("Forced March"), stage="text")
    boost = StackItem(uid=51, kind="boost", seat=0, card=cid("Forced March"), boost=0, parent=50)
    s = s.model_copy(update={"stack": (card, boost)})
    ctx = _Ctx(s, Fixed())
    GAME._effect(
        ctx, StackItem(uid=52, kind="card", seat=0, card=cid("Feigned Retreat")), Effect(do="counter"), False
    )
    assert ctx.s.stack == (card, boost)


def test_boost_without_fast_mark_comes_after_the_action():
    """If a card shows no bolt, its boosts are offered after the action."""
    s = make_state([roman(hand=["Forced March"], cost=5)], level_abilities=False)
    st = act_events(s, 0, "play Forced March")
    assert any(isinstance(e, ManeuverChanged) for e in st.events)
    s = st.state
    assert "boost" in GAME.to_act(s)[0].text
    st = act_events(s, 0, "boost 1")
    assert [e.delta for e in st.events if isinstance(e, PowerChanged)] == [1]
    assert st.state.romans[0].power == 4 and st.state.stack == ()


def test_fast_boost_is_taken_before_the_action():
    """The fast mark: taken before the card's own action, so the card knows it was boosted."""
    s = make_state([roman(hand=["Night March"], cost=4)], level_abilities=False)
    s = act(s, 0, "play Night March")
    assert s.romans[0].maneuver == 0  # not yet resolved: the boost window comes first
    s = act(s, 0, "boost 1")
    assert s.romans[0].maneuver == 1 and len(s.romans[0].hand) == 2
    s2 = make_state([roman(hand=["Night March"], cost=4)], level_abilities=False)
    s2 = act(act(s2, 0, "play Night March"), 0, "pass")
    assert s2.romans[0].maneuver == 1 and len(s2.romans[0].hand) == 0


def test_any_payer_boost_paid_by_a_teammate():
    """Whoever is allowed to pay may take the boost; the boost belongs to the card's player (R14)."""
    s = make_state(
        [roman(hand=["Flanking Maneuver"], cost=5), roman("scipio", cost=2)],
        encampments=["Camp at Capua"],
        level_abilities=False,
    )
    s = act(s, 0, "play Flanking Maneuver")
    assert list(GAME.to_act(s)) == [1]  # the card's player has nothing left to pay with
    s = act(s, 1, "boost 1")
    assert s.encampments == () and GAME.untapped(s, 1) == 0 and s.romans[0].maneuver == 1


def test_ally_boost_only_a_teammate_pays():
    """The glyph says who may pay: an ally boost (B+) is paid by a teammate, not the card's player."""
    s = make_state([roman(hand=["Reformed Legion"], cost=8), roman("scipio", cost=2)], level_abilities=False)
    s = act(s, 0, "play Reformed Legion")
    assert list(GAME.to_act(s)) == [1]
    s = act(s, 1, "boost 1")
    assert len(s.romans[0].hand) == 2  # D2 for the card's player


def test_top_printed_boosts_choose_one_example():
    """Boosts printed at the top: the text's "Choose one below" example (Council of War)."""
    # paid: the first boost marks the card boosted, so the rule underneath does both
    s = make_state([roman(hand=["Council of War"], cost=6, deck=["March"] * 6)])
    s = act(s, 0, "play Council of War")
    s = act(s, 0, "boost 1")
    r = s.romans[0]
    assert len(r.hand) == 3 and [c.face_up for c in r.cost_zone].count(True) == 1
    # unpaid: not boosted, its controller chooses one
    s = make_state([roman(hand=["Council of War"], cost=6, deck=["March"] * 6)])
    s = act(act(s, 0, "play Council of War"), 0, "pass")
    assert "Choose one" in GAME.to_act(s)[0].text
    s = act(s, 0, "choose 2")
    assert len(s.romans[0].hand) == 0 and [c.face_up for c in s.romans[0].cost_zone].count(True) == 1


def test_top_printed_second_boost_is_its_own_choice_before_the_text():
    """ "The second boost is a choice of its own, made when it resolves, before the rules text.\""""
    s = make_state([roman(hand=["Council of War"], cost=7, deck=["March"] * 6, power=3)])
    s = act(s, 0, "play Council of War")
    s = act(s, 0, "boost 2")
    assert "Choose one" in GAME.to_act(s)[0].text and s.romans[0].power == 3
    st = act_events(s, 0, "choose 2")  # H+1, resolved before the rules text
    s = st.state
    kinds = [type(e).__name__ for e in st.events]
    assert kinds.index("PowerChanged") < kinds.index("CardsDrawn")
    # any paid boost marks the card boosted, so the rules text does both
    assert s.romans[0].power == 4 and len(s.romans[0].hand) == 3 and s.stack == ()


def test_solo_target_change_fee():
    """Solo: a card aimed at a teammate costs a Target-Change fee of C1 and points at you."""
    s = make_state([roman(hand=["Relief Column"], cost=3)])
    s = act(s, 0, "play Relief Column")
    assert s.romans[0].power == 5 and GAME.untapped(s, 0) == 0
    s = make_state([roman(hand=["Relief Column"], cost=2)])
    with pytest.raises(IllegalActionError, match="C3"):
        GAME.apply(s, 0, GAME.action_from_json({"kind": "play", "card": "relief-column"}), Fixed())


def test_solo_fee_raised_for_a_harder_game():
    """Raise the fee to C2 or C3 for a harder game; it applies to ally boosts too (R18)."""
    s = make_state([roman(hand=["Relief Column"], cost=4)], fee=3)
    assert not [a for a in GAME.legal_actions(s, 0) if a.kind == "play"]
    s = make_state([roman(hand=["Reformed Legion"], cost=8)], fee=2, level_abilities=False)
    s = act(s, 0, "play Reformed Legion")
    s = act(s, 0, "boost 1")  # C2 + fee C2
    assert GAME.untapped(s, 0) == 0 and len(s.romans[0].hand) == 2


# ----------------------------------------------------------------------------- Hannibal's Encampments


def test_encampment_condition_each_roman_turn():
    """Check for active conditions: a Hannibal's Encampment acts on the active Roman at turn start."""
    s = make_state(
        [roman(cost=2, power=3)], encampments=["Camp at Tarentum", "Camp at Gerunium"], hannibal_deck=()
    )
    s = finish_turn(s)
    assert s.romans[0].power == 2 and GAME.untapped(s, 0) == 1


def test_assault_breaks_an_encampment():
    """R10: pay a Hannibal's Encampment's defense cost in your main phase to break it."""
    s = make_state([roman(cost=5)], encampments=["Camp at Capua"])
    s = act(s, 0, "assault Camp at Capua")
    assert s.encampments == () and s.defended_pile == (cid("Camp at Capua"),)


# ----------------------------------------------------------------------------- winning and losing


def _l3_state(round, active, others=1, encampments=("Gallic Levies",)):
    romans = [roman(hand=["March"], cost=3, maneuver=2)] + [
        roman("scipio", maneuver=3) for _ in range(others)
    ]
    romans[0], romans[active] = romans[active], romans[0]
    return make_state(
        romans, round=round, active=active, encampments=encampments, hannibal_deck=(), level_abilities=False
    )


def test_reaching_l3_opens_the_clearing_round():
    """The clearing round: the moment the last player reaches L3 it opens, from the start of that player's turn."""
    s = act(_l3_state(3, 0), 0, "play March")
    assert s.clearing is not None and (s.clearing.opener, s.clearing.round) == (0, 3)
    assert s.phase == "main"  # reaching L3 is not the win


def test_clearing_round_won_at_that_players_next_turn():
    """Clear every Hannibal's Encampment inside that round and the Roman side wins."""
    s = act(_l3_state(3, 0), 0, "play March")
    s = s.model_copy(update={"encampments": ()})
    s = finish_turn(s)  # seat 0
    assert s.phase != "over"
    s = finish_turn(s)  # seat 1; the round closes at seat 0's next turn
    assert s.phase == "over" and s.winner == "romans" and s.round == 4
    assert GAME.outcome(s).winners == (0, 1)


def test_example_l3_in_round_9_runs_to_the_end_of_round_10():
    """Example: L3 reached in round 9; an Encampment still standing at that player's turn in round 10: the table keeps going to the end of round 10."""
    s = act(_l3_state(9, 0), 0, "play March")
    s = finish_turn(finish_turn(s))
    assert s.phase == "cost" and s.round == 10 and s.clearing.extended
    lost = finish_turn(finish_turn(s))
    assert lost.phase == "over" and lost.winner == "hannibal"
    won = finish_turn(finish_turn(s.model_copy(update={"encampments": ()})))
    assert won.phase == "over" and won.winner == "romans"


def test_example_l3_in_the_middle_of_round_10_gets_its_full_length():
    """Example: L3 reached in the middle of round 10: the clearing round still runs to that player's next turn, past the end of round 10."""
    s = act(_l3_state(10, 1, others=2), 1, "play March")
    s = finish_turn(s)  # seat 1
    s = finish_turn(s)  # seat 2: the end of round 10
    assert s.phase == "cost" and s.round == 11 and s.active == 0  # nobody loses for reaching L3 late
    lost = finish_turn(s)
    assert lost.phase == "over" and lost.winner == "hannibal"
    won = finish_turn(s.model_copy(update={"encampments": ()}))
    assert won.phase == "over" and won.winner == "romans"


def test_losing_l3_during_the_clearing_round_is_judged_at_its_end():
    """Lose L3 during the clearing round, and you are simply not finished: judged at the end of the round."""
    s = act(_l3_state(5, 0, encampments=()), 0, "play March")
    s = s.model_copy(update={"manual": True})
    s = finish_turn(s)
    s = act(s, 1, "adjust maneuver 2")  # a Cannae, say
    assert s.clearing is not None  # the clearing round is not cancelled
    s = act(s, 1, "adjust maneuver 3")  # ... and regained inside the round
    s = finish_turn(s)
    assert s.phase == "over" and s.winner == "romans"


def test_lost_l3_at_the_close_is_not_a_win_before_round_10_ends():
    """Not finished at the close, before the end of round 10: the clearing round runs on (R3)."""
    s = act(_l3_state(5, 0, encampments=()), 0, "play March")
    s = s.model_copy(update={"manual": True})
    s = finish_turn(s)
    s = act(s, 1, "adjust maneuver 2")
    s = finish_turn(s)
    assert s.phase == "cost" and s.clearing.extended and s.round == 6


def test_new_encampment_during_the_clearing_round():
    """Take a new Hannibal's Encampment during the clearing round: not finished at its close."""
    s = act(_l3_state(4, 0, encampments=()), 0, "play March")
    s = s.model_copy(update={"hannibal_deck": (cid("Gallic Levies"),)})
    s = finish_turn(s)  # seat 0 ends
    s = finish_turn(s)  # seat 1: Hannibal makes camp in its turn
    assert s.phase == "cost" and s.clearing.extended and len(s.encampments) == 1


def test_hannibal_wins_at_the_end_of_round_10():
    """Hannibal wins: the Roman side has not won by the end of round 10."""
    s = make_state([roman(), roman("scipio")], round=10, active=1, hannibal_deck=())
    s = finish_turn(s)
    assert s.phase == "over" and s.winner == "hannibal" and GAME.outcome(s).winners == ()


def test_the_end_of_round_10_is_reported_as_after_round_10():
    """R3: the game ends "by the end of round 10"; the summary says so, not "in round 11" (the
    round counter has already moved on when the last turn of round 10 closes)."""
    from games.roman_war.text import summary

    s = finish_turn(make_state([roman(), roman("scipio")], round=10, active=1, hannibal_deck=()))
    assert summary(GAME.view(s, None)).splitlines()[0].startswith("Game over after round 10. The Roman side has not won")
    lost = finish_turn(finish_turn(act(_l3_state(9, 0), 0, "play March")))
    lost = finish_turn(finish_turn(lost))  # the clearing round ran on to the end of round 10
    assert summary(GAME.view(lost, None)).startswith("Game over after round 10.")


# ----------------------------------------------------------------------------- duel, house rule, errors


def test_duel_the_hannibal_seat_chooses():
    """Duel: a person plays the Hannibal side, choosing which Ambushes and Encampments to play and at whom."""
    s = GAME.setup([0, 1], Options(mode="duel"), Rng(3, 0)).state
    assert s.hannibal_seat == 1 and len(s.romans) == 1
    s = act(s, 0, "done")
    assert list(GAME.to_act(s)) == [1] and len(s.hannibal_hand) == 1
    v = GAME.view(s, 1)
    assert v.hannibal_hand is not None and GAME.view(s, 0).hannibal_hand is None
    a = GAME.legal_actions(s, 1)[-1]
    s = GAME.apply(s, 1, a, Fixed()).state
    s = act(s, 1, "done")
    assert s.phase in ("defense", "main")
    with pytest.raises(NotYourTurnError):
        GAME.parse_action(s, 1, "done")


def test_duel_hannibal_wins_by_grinding_power_to_nothing():
    """Duel: the Hannibal side wins by grinding Power to nothing (R17)."""
    s = make_state(
        [roman(power=1)], phase="defense", ambushes=["Balearic Slingers"], mode="duel", hannibal_deck=()
    )
    s = act(s, 0, "done")
    s = act(s, 0, "done")
    assert s.phase == "over" and s.winner == "hannibal" and GAME.outcome(s).winners == (1,)


def test_manual_adjustment_is_a_public_logged_house_rule():
    """Adjust Power or Maneuver manually (house rules): off by default, public when on."""
    s = make_state([roman()])
    with pytest.raises(GameError):
        GAME.parse_action(s, 0, "adjust power 7")
    s = s.model_copy(update={"manual": True})
    st = act_events(s, 0, "adjust power 7")
    assert st.state.romans[0].power == 7
    assert all(e.visible_to is None for e in st.events)
    assert any("House rule" in e.describe() for e in st.events)


def test_bad_input_says_what_is_legal():
    """Errors say why and what would be legal."""
    s = make_state([roman(hand=["March"], cost=1)])
    with pytest.raises(GameError) as e:
        GAME.parse_action(s, 0, "play March")
    assert "legal" in e.value.message or "may" in e.value.message
    with pytest.raises(GameError) as e:
        GAME.parse_action(s, 0, "play Elephantine")
    assert "done" in e.value.message


def test_hidden_cards_stay_hidden_in_views():
    """Views never contain another seat's hand or face-down Cost Zone cards."""
    s = make_state([roman(hand=["March"], cost=2), roman("scipio", hand=["Scutum"], cost=1)])
    spectator = GAME.view(s, None)
    assert spectator.romans[0].hand is None and spectator.romans[1].cost_zone[0].card is None
    mine = GAME.view(s, 0)
    assert mine.romans[0].hand[0].name == "March" and mine.romans[0].cost_zone[0].card is not None
    assert mine.romans[1].hand is None and mine.romans[1].cost_zone[0].card is None


def test_malformed_action_is_a_game_error():
    """Bad input always raises a GameError."""
    s = make_state([roman()])
    with pytest.raises(GameError):
        GAME.apply(s, 0, {"kind": "fly"}, Fixed())
    with pytest.raises(GameError):
        GAME.action_from_json({"kind": "play"})


def test_a_cost_refusal_counts_one_untapped_card_in_the_singular():
    """A card costing more than the untapped Cost Zone is refused with the count: "1 untapped
    Cost Zone card", not "1 ... cards" (solo game, seed 1, the first Cost Zone card laid)."""
    import random

    from games.core.replay import apply_at, start
    from games.roman_war.model import PlayCard

    g = GAME
    s = start(g, [0], g.Options(), 1).state
    rnd = random.Random(1)
    step = 0
    while g.untapped(s, 0) != 1:
        step += 1
        s = apply_at(g, s, 0, rnd.choice(list(g.legal_actions(s, 0))), 1, step).state
    dear = next(c for c in s.romans[0].hand if g.card(c).cost + g.fee_for(s, g.card(c)) > 1)
    why = g.refusal_reason(s, 0, PlayCard(card=dear), list(g.legal_actions(s, 0)))
    assert "; you have 1 untapped Cost Zone card;" in why
