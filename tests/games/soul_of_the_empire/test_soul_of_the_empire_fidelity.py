"""Soul of the Empire against its rule text (shared/seeds/000_ee59181bd146d771.txt): the
revolts' own yellow dice and units, Salvage's choices, conversion from every source the text
names, and the free move after a conversion. Each test quotes the sentence it enforces.
"""

from __future__ import annotations

import pytest

from games.core import IllegalActionError
from games.soul_of_the_empire.model import Keep, Move, Path, PlayPower, Plunder, State
from tests.games.soul_of_the_empire.test_soul_of_the_empire_rules import (
    act,
    board,
    dice,
    fight,
    fresh,
    g,
    play,
    seat,
    set_f,
    turn_of,
    units,
)


def parse(s: State, faction: str, text: str):
    return g.parse_action(s, seat(s, faction), text)


def two_revolts() -> State:
    """Merchant Revolt in Sicilia (yellow 4), Peasant Revolt in Pannonia (yellow 2), the
    Jewish Main Phase."""
    s = play(fresh(), "jews", "start", PlayPower(card="merchant-revolt", territory="sicilia"), rolls=[4])
    s = act(s, "jews", Keep())
    s = s.model_copy(update={"power_played": 0})
    s = play(s, "jews", "start", PlayPower(card="peasant-revolt", territory="pannonia"), rolls=[2])
    s = act(s, "jews", Keep())
    return turn_of(s, "jews")


def test_yellow_die_moves_only_its_own_revolts_units() -> None:
    """Jewish Revolt Power Cards: "If multiple revolts are active, the yellow die on each card
    can only be used for that revolt's units." (RULINGS.md R13)"""
    s = two_revolts()
    assert [r.units for r in s.revolts] == [{"sicilia": 5}, {"pannonia": 5}]
    with pytest.raises(IllegalActionError, match="Merchant Revolt moves only that revolt's units"):
        act(s, "jews", parse(s, "jews", "move gray yellow 4: 2 Pannonia-Italia"))
    merchant = next(k for k, v in g.yellow_dice(s) if v == 4)
    for a in g.legal_actions(s, seat(s, "jews")):
        if isinstance(a, Move) and a.yellow and a.die == merchant:
            assert all(p.route[0] == "sicilia" for p in a.paths), a
    # each die moves its own units, which keep their revolt where they go
    t = act(s, "jews", parse(s, "jews", "move gray yellow 2: 2 Pannonia-Italia"))
    t = act(t, "jews", parse(t, "jews", "move gray yellow 4: 1 Sicilia-Italia"))
    assert units(t, "italia", "gray") == 3
    assert [r.units for r in t.revolts] == [{"sicilia": 4, "italia": 1}, {"pannonia": 3, "italia": 2}]
    # from a shared territory the Merchant die moves its 1 unit there, not 2
    t = t.model_copy(update={"revolts": tuple(r.model_copy(update={"dice": tuple(d.model_copy(update={"place": "unspent"}) for d in r.dice)}) for r in t.revolts)})
    with pytest.raises(IllegalActionError, match="it has 1 unit in Italia, not 2"):
        act(t, "jews", parse(t, "jews", "move gray yellow 4: 2 Italia-Rome"))


def test_yellow_die_attacks_only_with_its_own_revolts_units() -> None:
    """Merchant Revolt: "You may use this die to move or initiate combat with the Gray Faction
    units for this revolt each turn." (RULINGS.md R13)"""
    s = board(two_revolts(), {"sicilia": {"gray": 5}, "pannonia": {"gray": 5, "rome": 2}})
    with pytest.raises(IllegalActionError, match="initiates combat only with that revolt's units"):
        act(s, "jews", parse(s, "jews", "attack gray yellow 4: Rome in Pannonia"))
    t = act(s, "jews", parse(s, "jews", "attack gray yellow 2: Rome in Pannonia"))
    assert t.combat is not None and t.combat.attacker == "gray"


def test_revolt_ends_alone_when_its_units_are_gone() -> None:
    """Jewish Revolt Power Cards: "If a revolt loses all of its units, discard the revolt card
    face up into the Jewish Power Card Discard pile. Return the yellow die to the extra dice
    pool." The other revolt goes on with its card and die (RULINGS.md R13)."""
    s = two_revolts()
    assert s.yellow == 2
    s = board(s, {"sicilia": {"gray": 1, "rome": 6}, "pannonia": {"gray": 5}})
    s = dice(s, "jews", [3])
    t = fight(s, "rome", "gray", "sicilia", "legio", "levy-of-galilee")
    assert t.combat is None and t.last_combat.winner == "rome" and units(t, "sicilia", "gray") == 0
    assert [r.card for r in t.revolts] == ["peasant-revolt"]
    assert t.revolts[0].units == {"pannonia": 5} and len(t.revolts[0].dice) == 1
    assert t.yellow == 3
    jews = t.factions["jews"]
    assert "merchant-revolt" in jews.discard and "peasant-revolt" not in jews.discard
    assert "merchant-revolt" not in jews.durable


def test_gray_units_shared_territory_removed_from_largest_revolt_first() -> None:
    """RULINGS.md R13: Gray units removed from a territory where two revolts have units come
    from the revolt with the most units there; a revolt ends only with its last unit."""
    s = two_revolts()
    s = act(s, "jews", Move(die=next(k for k, v in g.yellow_dice(s) if v == 2), paths=(Path(count=1, route=("pannonia", "italia")),), gray=True, yellow=True))
    s = act(s, "jews", Move(die=next(k for k, v in g.yellow_dice(s) if v == 4), paths=(Path(count=3, route=("sicilia", "italia")),), gray=True, yellow=True))
    s = board(s, {"sicilia": {"gray": 2}, "pannonia": {"gray": 4}, "italia": {"gray": 4, "rome": 6}})
    assert [r.units.get("italia") for r in s.revolts] == [3, 1]
    s = set_f(s, "jews", dice=s.factions["jews"].dice)
    t = fight(s, "rome", "gray", "italia", "legio", "levy-of-galilee")
    assert units(t, "italia", "gray") == 0
    assert [r.units for r in t.revolts] == [{"sicilia": 2}, {"pannonia": 4}]


def test_two_yellow_dice_of_one_value_name_their_revolt() -> None:
    """Two revolts each with a yellow 4: the notation names the revolt (``move gray yellow 4
    Peasant Revolt: ...``) and every legal action reads back as itself (RULINGS.md R13)."""
    s = play(fresh(), "jews", "start", PlayPower(card="merchant-revolt", territory="sicilia"), rolls=[4])
    s = act(s, "jews", Keep()).model_copy(update={"power_played": 0})
    s = play(s, "jews", "start", PlayPower(card="peasant-revolt", territory="pannonia"), rolls=[4])
    s = turn_of(act(s, "jews", Keep()), "jews")
    acts = [a for a in g.legal_actions(s, seat(s, "jews")) if isinstance(a, Move) and a.yellow]
    assert {g.yellow_revolt(s, a.die) for a in acts} == {"merchant-revolt", "peasant-revolt"}
    for a in acts:
        text = g.format_action(s, a)
        assert "Revolt" in text and parse(s, "jews", text) == a
    t = act(s, "jews", parse(s, "jews", "move gray yellow 4: 2 Pannonia-Italia"))  # the revolt whose units fit
    assert t.revolts[1].dice[0].place == "spent" and t.revolts[0].dice[0].place == "unspent"


@pytest.mark.parametrize("seed", [1, 4])
def test_revolt_units_match_the_board_in_whole_games(seed: int) -> None:
    """RULINGS.md R13 as an invariant over heuristic games: in every territory the revolts'
    own units add up to the Gray units on the board, and no revolt stays in play without units."""
    import random

    from games.core import Rng, start
    from games.soul_of_the_empire.agent import HeuristicAgent

    s = start(g, [0, 1, 2, 3], g.Options(), seed).state
    agents = [HeuristicAgent(seed + k) for k in range(4)]
    pick = random.Random(seed)
    revolts_seen = 0
    for step in range(4000):
        if g.outcome(s) is not None:
            break
        prompts = sorted(g.to_act(s))
        who = prompts[int(pick.random() * len(prompts))]
        s = g.apply(s, who, agents[who].choose(g, s, who), Rng(seed, step)).state
        revolts_seen = max(revolts_seen, len(s.revolts))
        for t in g.data.territories:
            assert sum(r.units.get(t, 0) for r in s.revolts) == g.units(s, t, "gray"), (step, t)
        if s.combat is None and s.extra_roll is None:
            assert all(r.on_board > 0 for r in s.revolts), step
    assert revolts_seen > 0


def coalition_beats_rome(**rome) -> State:
    """The Coalition has just beaten Rome in Gallia and may plunder (Rage 2)."""
    s = board(fresh(), {"gallia": {"rome": 1, "coalition": 4}, "germania": {"jews": 2}})
    s = set_f(s, "coalition", rage=2)
    s = set_f(s, "rome", **rome)
    s = fight(s, "coalition", "rome", "gallia", "berserker-charge", "pax-deorum")
    assert s.combat is not None and s.combat.stage == "plunder"
    return s


def test_salvage_selects_any_card_of_the_discard_pile() -> None:
    """Salvage: "If they do not have any Power Cards in their hand, you may select any Power
    Card from their discard pile." (RULINGS.md R14)"""
    s = coalition_beats_rome(hand=(), discard=("legion-levy", "circus-maximus"))
    co = seat(s, "coalition")
    salvages = [a for a in g.legal_actions(s, co) if isinstance(a, Plunder) and a.option == "salvage"]
    assert salvages == [
        Plunder(option="salvage", card="legion-levy"),
        Plunder(option="salvage", card="circus-maximus"),
    ]
    with pytest.raises(IllegalActionError, match="salvage Legion Levy"):
        act(s, "coalition", Plunder(option="salvage"))
    for a in salvages:
        assert parse(s, "coalition", g.format_action(s, a)) == a
    t = act(s, "coalition", parse(s, "coalition", "salvage Legion Levy"))
    assert t.factions["coalition"].hand == ("legion-levy",)
    assert t.factions["rome"].discard == ("circus-maximus",)


def test_salvage_from_the_deck_selects_one_of_two() -> None:
    """Salvage: "If there are no cards in their discard pile, draw two Power Cards from the top
    of their deck, select one to keep, and return the other card to the bottom of their Power
    Card deck." The Coalition chooses; the prompt others see names no card (RULINGS.md R14)."""
    s = coalition_beats_rome(hand=(), discard=(), deck=("legion-levy", "circus-maximus", "tithe"))
    assert Plunder(option="salvage") in g.legal_actions(s, seat(s, "coalition"))
    t = act(s, "coalition", Plunder(option="salvage"))
    assert t.combat is not None and t.combat.stage == "salvage"
    assert t.factions["coalition"].rage == 0
    co = seat(t, "coalition")
    picks = g.legal_actions(t, co)
    assert picks == [
        Plunder(option="salvage", card="legion-levy"),
        Plunder(option="salvage", card="circus-maximus"),
    ]
    assert list(g.to_act(t)) == [co]
    prompt = g.to_act(t)[co].text
    assert "Legion" not in prompt and "Circus" not in prompt and "select one" in prompt
    assert not g.notation_is_public(t, co, picks[1])
    u = act(t, "coalition", parse(t, "coalition", "salvage Circus Maximus"))
    assert u.combat is None and u.factions["coalition"].hand == ("circus-maximus",)
    assert u.factions["rome"].deck == ("tithe", "legion-levy")
    with pytest.raises(IllegalActionError, match="select one of the two cards"):
        act(t, "coalition", Plunder(option="salvage", card="tithe"))


def test_coalition_plays_salvaged_circus_maximus() -> None:
    """Salvage: "The Coalition faction can then play the Power Card in accordance with the card
    instructions." Circus Maximus: "Take any 4 non-Roman pieces off the board ... Removed units
    are captured to the Roman Captured Unit Area." (RULINGS.md R14)"""
    s = coalition_beats_rome(hand=(), discard=("legion-levy", "circus-maximus"))
    s = act(s, "coalition", Plunder(option="salvage", card="circus-maximus"))
    s = s.model_copy(update={"power_played": 0})
    plays = [a for a in g.legal_actions(s, seat(s, "coalition")) if isinstance(a, PlayPower)]
    assert any(a.card == "circus-maximus" for a in plays)
    before = s.factions["rome"].capture_track
    t = act(s, "coalition", parse(s, "coalition", "play Circus Maximus: Jewish in Germania, Jewish in Germania"))
    assert units(t, "germania", "jews") == 0 and t.factions["rome"].captured.get("jews") == 2
    assert t.factions["rome"].capture_track == before + 2
    assert "circus-maximus" in t.factions["rome"].discard  # "discarded in the original faction's discard pile"
    assert t.factions["coalition"].hand == ()


def test_conversion_draws_on_christian_units_elsewhere_on_the_board() -> None:
    """Resolving Combat: "Christian units may then replace them from their supply, from the
    Roman Captured Unit Space, or from other locations on the board." With the supply empty and
    no captured Christians, the 4 Christian units elsewhere can still convert (RULINGS.md R10)."""
    s = board(fresh(), {"syria": {"rome": 4, "christians": 1}, "galatia": {"christians": 2}, "cilicia": {"christians": 2}})
    s = set_f(s, "christians", supply=0)
    t = fight(s, "rome", "christians", "syria", "legio", "sermon-on-the-mount")
    assert t.last_combat.winner == "christians" and units(t, "syria", "rome") == 0
    assert t.conversion is not None and t.conversion.count == 4
    cs = seat(t, "christians")
    assert list(g.to_act(t)) == [cs] and g.to_act(t)[cs].kind == "respond"
    for a in g.legal_actions(t, cs):
        assert parse(t, "christians", g.format_action(t, a)) == a
    u = act(t, "christians", parse(t, "christians", "convert 2 Galatia, 1 Cilicia"))
    assert units(u, "syria", "christians") == 4 and units(u, "galatia", "christians") == 0
    assert units(u, "cilicia", "christians") == 1 and u.factions["christians"].converted == 3
    assert u.conversion is None
    with pytest.raises(IllegalActionError, match="at most 4"):
        act(t, "christians", parse(t, "christians", "convert 2 Galatia, 2 Cilicia, 1 supply"))
    with pytest.raises(IllegalActionError, match="supply has 0"):
        act(t, "christians", parse(t, "christians", "convert 1 supply"))


def test_conversion_is_the_christians_choice() -> None:
    """Resolving Combat: Christian units "may" replace the removed units: from the supply, the
    Roman Captured Unit Space (the capture track stays: "these spaces do not need to be
    refilled"), fewer, or none (pass) (RULINGS.md R10)."""
    s = board(fresh(), {"syria": {"rome": 4, "christians": 1}})
    s = set_f(s, "rome", captured={"christians": 2}, capture_track=2)
    t = fight(s, "rome", "christians", "syria", "legio", "sermon-on-the-mount")
    u = act(t, "christians", parse(t, "christians", "convert 2 captured, 1 supply"))
    assert units(u, "syria", "christians") == 4 and u.factions["rome"].captured == {}
    assert u.factions["rome"].capture_track == 2 and u.factions["christians"].converted == 3
    none = act(t, "christians", parse(t, "christians", "pass"))
    assert units(none, "syria", "christians") == 1 and none.factions["christians"].converted == 0


def test_units_over_the_limit_move_where_the_christians_choose() -> None:
    """Resolving Combat: "After conversion if Christian units exceed the 6-unit limit, move
    excess units into adjacent territories (free move)." The Christians choose where
    (RULINGS.md R10)."""
    s = board(fresh(), {"syria": {"rome": 6, "christians": 5}, "arabia": {"coalition": 1}})
    t = fight(s, "rome", "christians", "syria", "legio", "sermon-on-the-mount")
    t = act(t, "christians", parse(t, "christians", "convert 5 supply"))
    assert units(t, "syria", "christians") == 10
    assert t.conversion is not None and t.conversion.stage == "spread" and t.conversion.excess == 4
    with pytest.raises(IllegalActionError, match="move 4 Christian units"):
        act(t, "christians", parse(t, "christians", "spread 2 Cilicia"))
    with pytest.raises(IllegalActionError, match="not adjacent"):
        act(t, "christians", parse(t, "christians", "spread 4 Italia"))
    u = act(t, "christians", parse(t, "christians", "spread 2 Cilicia, 2 Galilaea"))
    assert units(u, "syria", "christians") == 6 and units(u, "cilicia", "christians") == 2
    assert units(u, "galilaea", "christians") == 2 and units(u, "arabia", "christians") == 0
    assert u.conversion is None and u.factions["christians"].converted == 5


def test_no_units_on_board_recruit_only_to_a_free_starting_territory() -> None:
    """Recruit Units: "If all your pieces were removed from the board, you can only recruit to
    one of the starting territories described on your player board. Roman, Jewish, and Christian
    factions may not recruit to a starting territory that has a Coalition piece in it."
    (RULINGS.md R23): with every starting territory held by the Coalition, no recruiting."""
    cells = {t: {"coalition": 1} for t in ("jerusalem", "galilaea", "syria")}
    s = dice(board(turn_of(fresh(), "christians"), cells), "christians", [3])
    assert g.recruit_spots(s, "christians") == ([], True)
    with pytest.raises(IllegalActionError, match="only recruit to one of your starting territories"):
        act(s, "christians", parse(s, "christians", "recruit 3: 3 Rome"))
    assert not any(a.kind == "recruit" for a in g.legal_actions(s, seat(s, "christians")))


def test_advanced_culture_the_player_chooses_the_dice() -> None:
    """Advanced Culture: "You may choose the values of up to 3 Unspent Dice." Which dice take
    the new values is the player's choice, not always the lowest ones."""
    s = dice(fresh(), "rome", [1, 2, 5], [False, True, False])
    s = set_f(s, "rome", hand=("advanced-culture",))
    s = turn_of(s, "rome", "start")
    a = parse(s, "rome", "play Advanced Culture: 2 to 6, 5 outside to 4")
    assert parse(s, "rome", g.format_action(s, a)) == a
    t = act(s, "rome", a)
    assert [(d.value, d.seq) for d in t.factions["rome"].dice[:3]] == [(1, False), (6, True), (4, False)]
    lowest = act(s, "rome", parse(s, "rome", "play Advanced Culture: 6"))
    assert [d.value for d in lowest.factions["rome"].dice[:3]] == [6, 2, 5]
    with pytest.raises(IllegalActionError, match="No Unspent 3"):
        parse(s, "rome", "play Advanced Culture: 3 to 6")


def test_exploited_revolt_card_played_again_takes_back_its_units() -> None:
    """RULINGS.md R13/R14: an Exploit discards a revolt card and its Gray units stay without a
    yellow die; when the Jews play the card again, the new units and the old ones are that
    revolt's, with the new yellow die, and the yellow die may be rolled up to 3 times."""
    s = two_revolts()
    s = board(s, {"sicilia": {"gray": 5}, "pannonia": {"gray": 5, "coalition": 3}})
    from games.core import Rng
    from games.soul_of_the_empire.game import _Ctx

    ctx = _Ctx(s, Rng(1, 1))
    g._exploit(ctx, "jews", "merchant-revolt")
    s = ctx.s
    assert s.revolts[0].discarded and s.revolts[0].dice == () and s.revolts[0].units == {"sicilia": 5}
    assert s.yellow == 3
    s = set_f(s, "jews", discard=())
    s = play(s.model_copy(update={"power_played": 0}), "jews", "start", PlayPower(card="merchant-revolt", territory="africa"), rolls=[3])
    assert [r.card for r in s.revolts] == ["merchant-revolt", "peasant-revolt"]
    assert s.revolts[0].units == {"sicilia": 5, "africa": 5} and not s.revolts[0].discarded
    assert s.extra_roll is not None and g.extra_values(s) == {0: 3}
    s = act(s, "jews", Keep())
    assert s.yellow == 2 and "merchant-revolt" in s.factions["jews"].durable


def test_scoring_a_completed_objective_is_a_choice() -> None:
    """Scoring a Claimed Objective Card: "if you have completed the requirements of any
    Objective(s) you claimed, you may score the Objective Card(s)." The faction is asked; pass
    leaves the objective claimed (its die stays on the card)."""
    from games.soul_of_the_empire.model import Die, Done, EndMain, Ready, Score

    s = board(turn_of(fresh(), "jews"), {"jerusalem": {"jews": 4}})
    s = s.model_copy(update={"objectives": ("pax-romana",), "objective_deck": ("masada",)})
    s = set_f(s, "jews", dice=(Die(value=2, place="objective", on="pax-romana"),) + tuple(Die() for _ in range(4)))
    s = act(s, "jews", EndMain())
    s = act(s, "jews", Done(), rolls=[4, 4, 4, 4])
    s = act(s, "jews", Ready(dice=(1, 2, 3, 4)))
    js = seat(s, "jews")
    assert s.scoring is not None and list(g.to_act(s)) == [js]
    assert "Pax Romana" in g.to_act(s)[js].text
    opts = g.legal_actions(s, js)
    assert opts[0] == Score(card="pax-romana") and opts[-1].kind == "pass"
    for a in opts:
        assert parse(s, "jews", g.format_action(s, a)) == a
    kept = act(s, "jews", parse(s, "jews", "pass"))
    assert kept.scoring is None and kept.factions["jews"].points == 0 and kept.active != "jews"
    assert kept.factions["jews"].dice[0].place == "objective" and kept.objectives == ("pax-romana",)
    scored = act(s, "jews", parse(s, "jews", "score Pax Romana"))
    assert scored.factions["jews"].points == 1 and scored.objectives == ("masada",)
