"""Soul of the Empire: the choices the rule text gives a player are among the legal actions
offered (what the buttons show), not only accepted when typed. Each test quotes its sentence of
the rule text (shared/seeds/000_ee59181bd146d771.txt).
"""

from __future__ import annotations

import pytest

from games.core import IllegalActionError
from games.soul_of_the_empire.model import Attack, PlayPower
from tests.games.soul_of_the_empire.test_soul_of_the_empire_rules import (
    act,
    board,
    dice,
    fresh,
    g,
    play,
    seat,
    set_f,
    turn_of,
    units,
)


def test_any_sequence_die_may_initiate_combat() -> None:
    """Initiate Combat: "The value of the die used to initiate combat does not impact the combat
    in any way. Move the die to the Spent Dice area." — which die of the Dice Sequence to spend is
    the player's (it decides the dice left): each value is offered, not only the first."""
    s = board(fresh(), {"jerusalem": {"rome": 2, "jews": 2}})
    s = dice(turn_of(s, "rome"), "rome", [2, 3, 4])
    offered = [a for a in g.legal_actions(s, seat(s, "rome")) if isinstance(a, Attack)]
    assert sorted(g.format_action(s, a) for a in offered) == [
        "attack 2: Jewish in Jerusalem",
        "attack 3: Jewish in Jerusalem",
        "attack 4: Jewish in Jerusalem",
    ]


def test_agent_attacks_with_its_lowest_die() -> None:
    """The heuristic player spends its lowest die on a combat (the value does not count there)."""
    from games.soul_of_the_empire.agent import HeuristicAgent

    s = board(fresh(), {"jerusalem": {"rome": 6, "jews": 1}})
    s = dice(turn_of(s, "rome"), "rome", [4, 3, 2]).model_copy(update={"bought": 6})
    chosen = [HeuristicAgent(k).choose(g, s, seat(s, "rome")) for k in range(12)]
    attacks = [a for a in chosen if isinstance(a, Attack)]
    assert attacks and all(s.factions["rome"].dice[a.die].value == 2 for a in attacks)


def test_holy_spirit_the_christians_choose_the_faction_converted() -> None:
    """Holy Spirit (data/power.toml, authored from "convert 1 unit in all territories"): "remove
    1 unit of another faction of your choice there" — where several other factions share the
    territory the Christians name the one converted (``Rome in Syria``); the options offer each
    faction; named nowhere, the largest there is taken. (The card said "your choice" and the game
    always took the largest.)"""
    s = board(
        fresh(), {"syria": {"christians": 1, "rome": 3, "jews": 1}, "rome": {"christians": 1, "coalition": 1}}
    )
    s = set_f(turn_of(s, "christians"), "christians", hand=("holy-spirit",))
    cs = seat(s, "christians")
    offered = {g.format_action(s, a) for a in g.legal_actions(s, cs) if isinstance(a, PlayPower)}
    assert "play Holy Spirit: Coalition in Rome, Jewish in Syria" in offered
    assert "play Holy Spirit: Coalition in Rome, Rome in Syria" in offered
    t = act(s, "christians", g.parse_action(s, cs, "play Holy Spirit: Jewish in Syria, Coalition in Rome"))
    assert units(t, "syria", "jews") == 0 and units(t, "syria", "rome") == 3
    assert units(t, "syria", "christians") == 2 and units(t, "rome", "coalition") == 0
    assert t.factions["christians"].converted == 2
    with pytest.raises(IllegalActionError, match="every territory"):
        act(s, "christians", g.parse_action(s, cs, "play Holy Spirit: Jewish in Syria"))
    with pytest.raises(IllegalActionError, match="no Christian unit"):
        act(
            s,
            "christians",
            g.parse_action(s, cs, "play Holy Spirit: Jewish in Syria, Coalition in Rome, Rome in Gallia"),
        )
    largest = act(s, "christians", PlayPower(card="holy-spirit"))
    assert units(largest, "syria", "rome") == 2 and units(largest, "syria", "jews") == 1


def test_gladiator_games_captures_up_to_2_units_of_any_other_factions() -> None:
    """Gladiator Games (data/power.toml, authored): "capture up to 2 non-Roman units there" —
    Rome may take 1 unit only, or 1 each of two factions (``Christian in Rome, Jewish in
    Rome``), not only 2 of one faction; the options offer these."""
    s = board(fresh(), {"rome": {"rome": 3, "christians": 2, "jews": 1}})
    s = set_f(turn_of(s, "rome"), "rome", hand=("gladiator-games",))
    rs = seat(s, "rome")
    offered = {g.format_action(s, a) for a in g.legal_actions(s, rs) if isinstance(a, PlayPower)}
    assert {
        "play Gladiator Games in Rome on Christian",
        "play Gladiator Games: Christian in Rome",
        "play Gladiator Games: Christian in Rome, Jewish in Rome",
    } <= offered
    one = act(s, "rome", g.parse_action(s, rs, "play Gladiator Games: Christian in Rome"))
    assert units(one, "rome", "christians") == 1 and one.factions["rome"].captured == {"christians": 1}
    two = act(s, "rome", g.parse_action(s, rs, "play Gladiator Games: Christian in Rome, Jewish in Rome"))
    assert (
        two.factions["rome"].captured == {"christians": 1, "jews": 1}
        and two.factions["rome"].capture_track == 2
    )
    with pytest.raises(IllegalActionError, match="up to 2"):
        act(
            s,
            "rome",
            g.parse_action(
                s, rs, "play Gladiator Games: Christian in Rome, Christian in Rome, Jewish in Rome"
            ),
        )
    with pytest.raises(IllegalActionError, match="one territory"):
        t = board(s, {"rome": {"rome": 3, "christians": 2}, "gallia": {"rome": 3, "jews": 1}})
        act(t, "rome", g.parse_action(t, rs, "play Gladiator Games: Christian in Rome, Jewish in Gallia"))


def test_the_coalition_chooses_the_unit_taken_from_a_scored_region() -> None:
    """Score Sole Occupancy of a Region and Regroup: "After scoring, the Coalition player must take
    1 unit from that region and place it in the appropriate spot on their faction board." — the
    player takes it: the Coalition is asked from which territory of the region (``take
    Britannia``), every one offered, before the regroup; ``pass`` (a player out of time) takes it
    from the largest stack. (The game took it from the largest stack by itself.)"""
    from games.soul_of_the_empire.model import Done, Pass, Ready, TakeUnit

    cells = {"britannia": {"coalition": 1}, "gallia": {"coalition": 3}, "hispania": {"coalition": 2}}
    s = board(turn_of(fresh(), "coalition", "end"), cells)
    s = dice(s, "coalition", [1])
    s = act(s, "coalition", Done(), rolls=[5])
    s = act(s, "coalition", Ready(dice=(0,)))
    co = seat(s, "coalition")
    assert s.factions["coalition"].points == 1 and s.regroup is not None and g.on_board(s, "coalition") == 6
    assert "take 1 unit" in g.to_act(s)[co].text
    assert [g.format_action(s, a) for a in g.legal_actions(s, co)] == [
        "take Britannia",
        "take Gallia",
        "take Hispania",
        "pass",
    ]
    t = act(s, "coalition", g.parse_action(s, co, "take Britannia"))
    assert units(t, "britannia", "coalition") == 0 and units(t, "gallia", "coalition") == 3
    assert t.regroup is not None and "regroup" in g.to_act(t)[co].text  # the regroup follows
    p = act(s, "coalition", Pass())
    assert units(p, "gallia", "coalition") == 2 and units(p, "britannia", "coalition") == 1
    with pytest.raises(IllegalActionError, match="Britannia, Gallia or Hispania"):
        act(s, "coalition", TakeUnit(territory="rome"))


def test_auxiliaries_units_are_placed_before_the_start_phase_ends() -> None:
    """Auxiliaries (Start), Durable: "During the Start Phase, take 2 units from supply and place them
    anywhere in the Roman Empire." — the card directs it, with no "may": the Start Phase does not
    end before the 2 units are placed (``done`` is not offered and is refused), and 2 it is, or
    as many as the supply holds. (The Start Phase could end with them unplaced.)"""
    from games.soul_of_the_empire.model import Done

    s = set_f(turn_of(fresh(), "rome", "start"), "rome", durable=("auxiliaries",))
    s = s.model_copy(update={"acted": True})
    rs = seat(s, "rome")
    assert Done() not in g.legal_actions(s, rs)
    with pytest.raises(IllegalActionError, match="Auxiliaries"):
        act(s, "rome", Done())
    with pytest.raises(IllegalActionError, match="2 units"):
        act(s, "rome", PlayPower(card="auxiliaries", territories=("gallia",)))
    t = act(s, "rome", g.parse_action(s, rs, "play Auxiliaries: Gallia, Italia"))
    assert Done() in g.legal_actions(t, rs) and act(t, "rome", Done()).phase == "main"
    short = set_f(s, "rome", supply=1)
    assert act(short, "rome", PlayPower(card="auxiliaries", territories=("gallia",))).auxiliaries_used
    empty = set_f(s, "rome", supply=0)
    assert act(empty, "rome", Done()).phase == "main"


def test_die_by_the_sword_removes_any_unit_for_each_roman_unit() -> None:
    """Die by the Sword: "From 1 territory, remove up to 3 Roman units (you must leave at least 1).
    For every unit removed, remove 1 unit from any territory" — any unit: the Coalition playing a
    salvaged copy (RULINGS.md R14) removes Roman units from one territory and, for each, a unit of
    any faction, Roman units too; the options offer them. (Roman units could not be named.)"""
    from games.soul_of_the_empire.model import PlayPower as Play

    s = board(fresh(), {"italia": {"rome": 4}, "gallia": {"rome": 2}, "germania": {"coalition": 2}})
    s = set_f(turn_of(s, "coalition", "start"), "coalition", hand=("die-by-the-sword",))
    co = seat(s, "coalition")
    offered = [a for a in g.legal_actions(s, co) if isinstance(a, Play)]
    assert any(p.endswith("/rome") for a in offered for p in a.territories)
    t = act(
        s,
        "coalition",
        g.parse_action(s, co, "play Die by the Sword in Italia: Rome in Gallia, Rome in Gallia"),
    )
    assert units(t, "italia", "rome") == 2 and units(t, "gallia", "rome") == 0


def test_moving_a_block_costs_6_pips() -> None:
    """Block/Unblock an Objective: "Moving the die (or dice) to another objective requires another 6
    pips." — the Coalition, blocking the Jews on Pax Romana, moves its block to the Jews' objective
    on The Temple for 6 pips (no extra die to unblock first); the dice that blocked Pax Romana go to
    its Spent Dice area. (Moving needed a die to unblock, then 6 pips.)"""
    from games.soul_of_the_empire.model import Block, Die

    s = turn_of(fresh(), "coalition").model_copy(update={"objectives": ("pax-romana", "the-temple")})
    s = dice(s, "coalition", [4, 2], [True, False])
    old = Die(value=6, place="block", on="pax-romana", target="jews")
    s = set_f(s, "coalition", dice=s.factions["coalition"].dice[:4] + (old,))
    co = seat(s, "coalition")
    assert Block(die=0, extra=1, card="the-temple", target="jews") in g.legal_actions(s, co)
    t = act(s, "coalition", g.parse_action(s, co, "block 4+2: Jewish on The Temple"))
    assert g.blocked(t, "the-temple", "jews") and not g.blocked(t, "pax-romana", "jews")
    assert t.factions["coalition"].dice[4].place == "spent"
    assert {d.place for d in t.factions["coalition"].dice[:2]} == {"block"}


def test_a_revolt_may_rise_where_gray_units_already_are() -> None:
    """Peasant Revolt: "Place 5 Gray Faction units in any 1 territory adjacent to the red region. Do
    not place these units on a territory with an Objective Point Marker." — any such territory where
    the 5 fit (the 6-unit limit: "There may be up to 6 Gray Faction ... units in a territory"), Gray
    units of another revolt there or not; each revolt keeps its own units (RULINGS.md R13). (A
    territory with any Gray unit was refused.)"""
    from games.soul_of_the_empire.model import Keep

    s = play(fresh(), "jews", "start", PlayPower(card="merchant-revolt", territory="gallia"), rolls=[4])
    s = act(s, "jews", Keep()).model_copy(update={"power_played": 0})
    s = board(s, {"gallia": {"gray": 1}})
    assert "gallia" in g._revolt_spots(s, "peasant-revolt")
    t = play(s, "jews", "start", PlayPower(card="peasant-revolt", territory="gallia"), rolls=[2])
    assert units(t, "gallia", "gray") == 6
    assert [r.units for r in t.revolts] == [{"gallia": 1}, {"gallia": 5}]
    crowded = board(s, {"gallia": {"gray": 2}})
    assert "gallia" not in g._revolt_spots(crowded, "peasant-revolt")  # 2 + 5 would exceed 6
