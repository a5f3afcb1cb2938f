"""Rules tests for Soul of the Empire, built on hand-made states.

Each test names the rule text section (shared/seeds/000_ee59181bd146d771.txt) or the ruling
(games/soul_of_the_empire/RULINGS.md) it checks.
"""

from __future__ import annotations

from typing import Any

import pytest

from games.core import GameError, IllegalActionError, NotYourTurnError, Rng, start
from games.soul_of_the_empire.game import GAME, Options
from games.soul_of_the_empire.model import (
    Attack,
    Block,
    Buy,
    Claim,
    ClaimMarker,
    Commit,
    Crucify,
    Die,
    DiscardObjective,
    DiscardPower,
    Done,
    Elder,
    EndMain,
    Give,
    Keep,
    Lower,
    Marker,
    Move,
    Pass,
    Path,
    PlayPower,
    Plunder,
    Prepare,
    Rage,
    Raise,
    Ready,
    Recruit,
    Redirect,
    Regroup,
    Reroll,
    Reveal,
    Score,
    Shift,
    State,
    Unblock,
)
from games.soul_of_the_empire.queries import is_sequence

g = GAME
SEED = 12345


class FixedRng(Rng):
    """An Rng whose dice come from a script (then 1s)."""

    def __init__(self, dice: list[int] | None = None) -> None:
        super().__init__(0, 0)
        self.script = list(dice or [])

    def die(self, sides: int = 6) -> int:
        return self.script.pop(0) if self.script else 1


def fresh(players: int = 4, options: Options | None = None) -> State:
    """A set-up game skipped to the active faction's Main Phase with an empty board and
    the Coalition's Rage at 0."""
    s = start(g, list(range(players)), options or Options(), SEED).state
    s = set_f(s, "coalition", rage=0)
    return s.model_copy(
        update={
            "phase": "main",
            "markers_to_place": (),
            "final_left": 0,
            "rolling": None,
            "roll_queue": (),
            "board": {},
            "markers": (),
            "objectives": (),
        }
    )


def turn_of(s: State, faction: str, phase: str = "main") -> State:
    return s.model_copy(update={"turn": s.order.index(faction), "phase": phase})


def board(s: State, cells: dict[str, dict[str, int]]) -> State:
    """Put the given units on the board (supplies adjusted to keep the totals)."""
    factions = dict(s.factions)
    for fid, f in s.factions.items():
        before = sum(c.get(fid, 0) for c in s.board.values())
        after = sum(c.get(fid, 0) for c in cells.values())
        factions[fid] = f.model_copy(update={"supply": f.supply + before - after})
    # each revolt keeps only its units still on the new board (RULINGS.md R13)
    revolts = []
    for r in s.revolts:
        kept = {t: min(k, cells.get(t, {}).get("gray", 0)) for t, k in r.units.items()}
        revolts.append(r.model_copy(update={"units": {t: k for t, k in kept.items() if k > 0}}))
    return s.model_copy(
        update={"board": {t: dict(c) for t, c in cells.items()}, "factions": factions, "revolts": tuple(revolts)}
    )


def dice(s: State, faction: str, values: list[int], seq: list[bool] | None = None) -> State:
    seq = seq or [True] * len(values)
    ds = [Die(value=v, place="unspent", seq=q) for v, q in zip(values, seq, strict=True)]
    ds += [Die(place="spent") for _ in range(5 - len(ds))]
    return set_f(s, faction, dice=tuple(ds))


def set_f(s: State, faction: str, **fields: Any) -> State:
    factions = dict(s.factions)
    factions[faction] = factions[faction].model_copy(update=fields)
    return s.model_copy(update={"factions": factions})


def seat(s: State, faction: str) -> int:
    return g.seat_of(s, faction)


def act(s: State, faction: str, a: Any, rolls: list[int] | None = None) -> State:
    return g.apply(s, seat(s, faction), a, FixedRng(rolls)).state


def die_of(s: State, faction: str, value: int) -> int:
    return next(
        i for i, d in enumerate(s.factions[faction].dice) if d.place == "unspent" and d.value == value
    )


def fight(
    s: State, attacker: str, defender: str, territory: str, a_card: str, d_card: str, **kw: Any
) -> State:
    """Initiate combat and commit both Combat Cards."""
    s = turn_of(s, attacker if attacker != "gray" else "jews")
    s = dice(s, "jews" if attacker == "gray" else attacker, [1])
    s = act(s, attacker, Attack(die=0, territory=territory, target=defender, gray=attacker == "gray"))
    s = pass_elder(s)
    s = prepare(s, attacker, kw.get("a_power"), kw.get("conscript", 0))
    s = prepare(s, defender, kw.get("d_power"))
    s = act(s, attacker, Commit(card=a_card))
    return act(s, defender, Commit(card=d_card))


def pass_elder(s: State) -> State:
    """Answer ``pass`` for each side asked about Elder that does not hold it (a side that
    could hold Elder is asked either way, RULINGS.md R25)."""
    while s.combat is not None and s.combat.question == "elder_play" and not g._elder_card(s, s.combat.asking):
        s = act(s, s.combat.asking, Pass())
    return s


def prepare(s: State, side: str, power: str | None = None, conscript: int = 0) -> State:
    """Answer the question before the Combat Cards for ``side`` if it is asked: ``power`` face
    down, ``conscript`` captured units from the largest groups, or pass (RULINGS.md R9)."""
    if s.combat is None or s.combat.stage != "powers" or side not in g._powers_asked(s):
        assert power is None and not conscript, f"{side} is not asked before the Combat Cards"
        return s
    units = g.conscript_default(s, conscript) if conscript else ()
    return act(s, side, Prepare(power=power, conscript=units) if power or units else Pass())


def pass_powers(s: State) -> State:
    """Pass for every side asked before the Combat Cards (no face-down Power Card, RULINGS.md R9)."""
    while s.combat is not None and s.combat.stage == "powers" and g._powers_asked(s):
        s = act(s, g._powers_asked(s)[0], Pass())
    return s


def units(s: State, t: str, f: str) -> int:
    return g.units(s, t, f)


# --------------------------------------------------------------------------- setup


def test_setup_four_players_components() -> None:
    """Components and Setup: unit totals, 4 face-up Objective Cards, Roman markers in Dacia and
    Armenia, the Jewish Revolt card in the Jewish hand, Rome first."""
    s = start(g, [0, 1, 2, 3], Options(), SEED).state
    totals = {"rome": 50, "christians": 17, "coalition": 25, "jews": 21, "gray": 15}
    for f, n in totals.items():
        assert s.factions[f].supply + g.on_board(s, f) == n
    assert len(s.objectives) == 4 and len(s.objective_deck) == 19
    assert {m.territory for m in s.markers} == {"dacia", "armenia"}
    assert [g.data.card(c).name for c in s.factions["jews"].hand] == ["Jewish Revolt"]
    assert all(
        len(s.factions[f].deck) + len(s.factions[f].hand) == 16 for f in ("rome", "jews", "christians")
    )
    assert s.order[0] == "rome" and s.factions["coalition"].deck == ()
    assert s.markers_to_place == ("jews", "christians", "jews", "christians")


def test_marker_placement_not_adjacent() -> None:
    """Setup step 4: markers go in the Roman Empire, not with or adjacent to another marker."""
    s = start(g, [0, 1, 2, 3], Options(), SEED).state
    spots = g.marker_spots(s)
    assert "moesia" not in spots and "dacia" not in spots  # Moesia is adjacent to Dacia
    assert "germania" not in spots  # outside the Empire
    with pytest.raises(IllegalActionError):
        g.apply(s, seat(s, "jews"), g.parse_action(s, seat(s, "jews"), "marker Galatia"), Rng(1, 1))
    s2 = g.apply(s, seat(s, "jews"), g.parse_action(s, seat(s, "jews"), "marker Jerusalem"), Rng(1, 1)).state
    assert "galilaea" not in g.marker_spots(s2)


def test_three_player_rules_and_markers() -> None:
    """3 Player Setup: Rome must be selected; a missing Jewish faction's markers go 1 to the
    Christians and 1 to Rome (RULINGS.md R2)."""
    with pytest.raises(IllegalActionError):
        start(g, [0, 1, 2], Options(factions=("Jewish", "Coalition", "Christian")), SEED)
    s = start(g, [0, 1, 2], Options(factions=("Rome", "Coalition", "Christian")), SEED).state
    assert s.markers_to_place == ("christians", "christians", "christians", "rome")
    assert "gray" not in s.factions


def test_setup_ends_with_roll_and_ready() -> None:
    """Setup steps 3-5: after the markers Rome places its final 8 units, then every faction
    rolls and readies, then Rome's Start Phase."""
    s = start(g, [0, 1, 2, 3], Options(), SEED).state
    n = 1
    while s.phase != "start":
        x = min(g.to_act(s))
        s = g.apply(s, x, g.legal_actions(s, x)[0], Rng(SEED, n)).state
        n += 1
    assert s.active == "rome" and s.round == 1
    assert g.on_board(s, "rome") == 28 + 8
    for f in ("rome", "jews", "coalition", "christians"):
        assert all(d.place == "unspent" for d in s.factions[f].dice)


# --------------------------------------------------------------------------- dice


def test_dice_sequences() -> None:
    """Building a Dice Sequence: a set or a run; anything else is not a sequence."""
    assert is_sequence([5, 5, 5, 5, 5]) and is_sequence([2, 3]) and is_sequence([4])
    assert is_sequence([3, 1, 2])
    assert not is_sequence([2, 4]) and not is_sequence([2, 2, 3]) and not is_sequence([])


def test_roll_and_ready_three_rolls() -> None:
    """Roll and ready: up to three rolls, choosing which dice to reroll; the sequence must be a
    set or a run; the other dice stay Unspent outside it (RULINGS.md R3)."""
    s = fresh()
    s = set_f(s, "rome", dice=tuple(Die() for _ in range(5)))
    ctx_s = s.model_copy(update={"phase": "end"})
    from games.soul_of_the_empire.game import _Ctx

    ctx = _Ctx(ctx_s, FixedRng([1, 2, 4, 6, 6]))
    g._start_rolling(ctx, "rome", "pass")
    s = ctx.s
    assert [d.value for d in s.factions["rome"].dice] == [1, 2, 4, 6, 6]
    s = act(s, "rome", Reroll(dice=(0, 1)), rolls=[6, 3])
    s = act(s, "rome", Reroll(dice=(1,)), rolls=[5])
    with pytest.raises(IllegalActionError):
        act(s, "rome", Reroll(dice=(2,)))
    with pytest.raises(IllegalActionError):
        act(s, "rome", Ready(dice=(2, 3)))  # 4 and 6: neither a set nor a run
    with pytest.raises(IllegalActionError):
        act(s, "rome", Ready(dice=(1, 3, 4)))
    s = act(s, "rome", Ready(dice=(0, 3, 4)))
    ds = s.factions["rome"].dice
    assert [d.seq for d in ds] == [True, False, False, True, True]
    assert all(d.place == "unspent" for d in ds)


def test_actions_need_a_sequence_die() -> None:
    """Main Phase: each action takes a die from the Dice Sequence; an outside die only helps
    the actions marked *."""
    s = board(turn_of(fresh(), "rome"), {"rome": {"rome": 2}})
    s = dice(s, "rome", [3, 1], [True, False])
    with pytest.raises(IllegalActionError, match="Dice Sequence"):
        act(s, "rome", Move(die=1, paths=(Path(count=1, route=("rome", "italia")),)))
    s2 = act(s, "rome", Buy(die=0, extra=1))
    assert s2.bought == 2


# --------------------------------------------------------------------------- move and recruit


def test_move_points_and_paths() -> None:
    """Move Units: 1 point per unit per territory; points may be split among units and
    routes, also across the sea ("dots across water")."""
    s = board(turn_of(fresh(), "rome"), {"rome": {"rome": 4}, "syria": {"rome": 1}})
    s = dice(s, "rome", [5])
    s = act(
        s,
        "rome",
        g.parse_action(s, seat(s, "rome"), "move 5: 2 Rome-Italia-Gallia, 1 Syria-Cilicia"),
    )
    assert units(s, "gallia", "rome") == 2 and units(s, "cilicia", "rome") == 1
    s = dice(s, "rome", [2])
    with pytest.raises(IllegalActionError, match="costs 3"):
        act(s, "rome", Move(die=0, paths=(Path(count=3, route=("rome", "sicilia")),)))
    s2 = act(s, "rome", Move(die=0, paths=(Path(count=2, route=("rome", "sicilia")),)))
    assert units(s2, "sicilia", "rome") == 2  # Rome - Sicilia is a sea link
    with pytest.raises(IllegalActionError, match="not adjacent"):
        act(s, "rome", Move(die=0, paths=(Path(count=1, route=("rome", "gallia")),)))


def test_six_unit_limit() -> None:
    """Important Terms: at most 6 units of a faction in a territory; Gray and Jewish units are
    counted apart."""
    s = board(turn_of(fresh(), "rome"), {"rome": {"rome": 3}, "italia": {"rome": 5}})
    s = dice(s, "rome", [2])
    with pytest.raises(IllegalActionError, match="At most 6"):
        act(s, "rome", Move(die=0, paths=(Path(count=2, route=("rome", "italia")),)))
    s = board(turn_of(fresh(), "jews"), {"jerusalem": {"jews": 6, "gray": 6}})
    assert g.sole(s, "jerusalem", "jews")


def test_coalition_freezes_and_cannot_leave() -> None:
    """Move Units, Limitation: others may not move through or out of a territory with a
    Coalition piece; a Coalition piece cannot leave a territory occupied by another faction."""
    s = board(
        turn_of(fresh(), "rome"),
        {"italia": {"rome": 2}, "gallia": {"coalition": 1}, "pannonia": {"rome": 1, "coalition": 1}},
    )
    s = dice(s, "rome", [3])
    with pytest.raises(IllegalActionError, match="through Gallia"):
        act(s, "rome", Move(die=0, paths=(Path(count=1, route=("italia", "gallia", "hispania")),)))
    with pytest.raises(IllegalActionError, match="out of Pannonia"):
        act(s, "rome", Move(die=0, paths=(Path(count=1, route=("pannonia", "italia")),)))
    s2 = act(s, "rome", Move(die=0, paths=(Path(count=1, route=("italia", "gallia")),)))
    assert units(s2, "gallia", "rome") == 1  # entering is allowed
    c = dice(turn_of(s, "coalition"), "coalition", [2])
    with pytest.raises(IllegalActionError, match="cannot move out"):
        act(c, "coalition", Move(die=0, paths=(Path(count=1, route=("pannonia", "dacia")),)))


def test_roman_jewish_christian_move_through_each_other() -> None:
    """Move Units: Roman, Jewish and Christian units move through each other."""
    s = board(
        turn_of(fresh(), "christians"), {"syria": {"christians": 1}, "galilaea": {"jews": 3, "rome": 1}}
    )
    s = dice(s, "christians", [2])
    s = act(s, "christians", Move(die=0, paths=(Path(count=1, route=("syria", "galilaea", "jerusalem")),)))
    assert units(s, "jerusalem", "christians") == 1


def test_recruit_rules() -> None:
    """Recruit Units: 1 unit per pip into territories with your units and no Coalition units;
    the Coalition only where it is alone; with no units on the board, one start territory."""
    s = board(turn_of(fresh(), "jews"), {"jerusalem": {"jews": 1}, "samaria": {"jews": 1, "coalition": 1}})
    s = dice(s, "jews", [4])
    s2 = act(s, "jews", g.parse_action(s, seat(s, "jews"), "recruit 4: 3 Jerusalem"))
    assert units(s2, "jerusalem", "jews") == 4
    with pytest.raises(IllegalActionError, match="cannot recruit in Samaria"):
        act(s, "jews", Recruit(die=0, placements=(("samaria", 1),)))
    with pytest.raises(IllegalActionError):
        act(s, "jews", Recruit(die=0, placements=(("jerusalem", 5),)))
    c = board(
        turn_of(fresh(), "coalition"), {"germania": {"coalition": 1}, "dacia": {"coalition": 1, "rome": 1}}
    )
    c = dice(c, "coalition", [2])
    spots, _ = g.recruit_spots(c, "coalition")
    assert spots == ["germania"]
    e = dice(turn_of(fresh(), "christians"), "christians", [3])
    spots, only_one = g.recruit_spots(e, "christians")
    assert only_one and set(spots) == {"jerusalem", "galilaea", "syria"}
    with pytest.raises(IllegalActionError, match="one starting territory"):
        act(e, "christians", Recruit(die=0, placements=(("jerusalem", 1), ("syria", 1))))


def test_recruit_empty_supply() -> None:
    """Recruit Units: with an empty unit supply you cannot recruit."""
    s = board(turn_of(fresh(), "christians"), {"jerusalem": {"christians": 2}})
    s = dice(set_f(s, "christians", supply=0), "christians", [3])
    with pytest.raises(IllegalActionError, match="empty"):
        act(s, "christians", Recruit(die=0, placements=(("jerusalem", 1),)))


# --------------------------------------------------------------------------- combat


def test_combat_value_example() -> None:
    """Combat Value Example: Rome 4 units + 5 = 9 against the Coalition 3 units + 2 Rage + 6 = 11;
    the Coalition wins, the Roman units return to supply, Rage falls by 1 and it may plunder."""
    s = board(fresh(), {"gallia": {"rome": 4, "coalition": 3}})
    s = set_f(s, "coalition", rage=2)
    supply = s.factions["rome"].supply
    s = fight(s, "coalition", "rome", "gallia", "berserker-charge", "legio")
    r = s.last_combat
    assert (r.attacker_value, r.defender_value, r.winner) == (11, 9, "coalition")
    assert units(s, "gallia", "rome") == 0 and s.factions["rome"].supply == supply + 4
    assert s.factions["coalition"].rage == 1
    assert s.combat is not None and s.combat.stage == "plunder"
    assert set(s.factions["rome"].combat_used) == {"legio"}


def test_combat_example_if_rome_had_won() -> None:
    """Combat Value Example, Note: had Rome won, it would have captured the Coalition units."""
    s = board(fresh(), {"gallia": {"rome": 4, "coalition": 3}})
    s = fight(s, "coalition", "rome", "gallia", "feigned-retreat", "pilum-volley")
    assert s.last_combat.winner == "rome"
    assert s.factions["rome"].captured == {"coalition": 3} and s.factions["rome"].capture_track == 3
    assert s.factions["coalition"].rage == 1  # the Coalition lost: Rage + 1


def test_highest_wins_and_ties_to_defender() -> None:
    """Resolving Combat: the highest wins between Romans, Jews and Coalition; ties go to the
    defender; the Jews return the losers to supply."""
    s = board(fresh(), {"jerusalem": {"rome": 3, "jews": 3}})
    t = fight(s, "rome", "jews", "jerusalem", "legio", "maccabean-zeal")  # 3+5 vs 3+5+1
    assert t.last_combat.winner == "jews" and units(t, "jerusalem", "rome") == 0
    t = fight(s, "rome", "jews", "jerusalem", "legio", "shofar")  # 8 vs 9
    assert t.last_combat.winner == "jews"
    t = fight(s, "jews", "rome", "jerusalem", "shofar", "pilum-volley")  # 9 vs 9 - hinder -> tie? 9-1=8 vs 9
    assert t.last_combat.winner == "rome"
    t = fight(s, "jews", "rome", "jerusalem", "maccabean-zeal", "legio")  # 3+5+1=9 vs 8
    assert t.last_combat.winner == "jews"
    tie = fight(s, "jews", "rome", "jerusalem", "hill-fortress", "testudo")  # 7 vs 7: defender
    assert tie.last_combat.attacker_value == tie.last_combat.defender_value
    assert tie.last_combat.winner == "rome"


def test_lowest_wins_against_christians_and_conversion() -> None:
    """Resolving Combat: the lowest wins when Romans/Jews fight Christians; the Christians
    convert as many units as the difference and advance the tracker (RULINGS.md R10)."""
    assert g.lowest_wins("rome", "christians") and g.lowest_wins("christians", "jews")
    assert not g.lowest_wins("christians", "coalition") and not g.lowest_wins("rome", "jews")
    s = board(fresh(), {"rome": {"rome": 5, "christians": 1}})
    s = fight(s, "christians", "rome", "rome", "turn-the-other-cheek", "pilum-volley")
    # Christians 1 + 0 - 1 (edge) = 0; Rome 5 + 6 = 11; hinder moves Christians 1 toward losing: 1
    r = s.last_combat
    assert r.winner == "christians" and r.attacker_value == 1 and r.defender_value == 11
    assert units(s, "rome", "rome") == 0
    s = act(s, "christians", g.legal_actions(s, seat(s, "christians"))[0])  # as many as possible
    assert units(s, "rome", "christians") == 6  # 1 + 5 converted
    assert s.factions["christians"].converted == 5


def test_christians_against_coalition_highest_wins() -> None:
    """Resolving Combat: the highest wins when Christians fight the Coalition."""
    s = board(fresh(), {"germania": {"christians": 3, "coalition": 1}})
    s = fight(s, "christians", "coalition", "germania", "stephens-witness", "feigned-retreat")
    assert s.last_combat.winner == "christians"
    assert units(s, "germania", "coalition") == 0 and s.factions["coalition"].rage == 1


def test_rome_captures_christians_when_lowest() -> None:
    """Resolving Combat: if the winner is Rome, all the losing units are captured."""
    s = board(fresh(), {"syria": {"rome": 1, "christians": 3}})
    s = fight(s, "rome", "christians", "syria", "pax-deorum", "stephens-witness")
    assert s.last_combat.winner == "rome"
    assert s.factions["rome"].captured == {"christians": 3} and units(s, "syria", "christians") == 0


def test_christian_modifier() -> None:
    """Modifiers: when the Coalition fights Rome or the Jews with Christians in the territory,
    subtract the Christian units from the Coalition's value; not in the 2-player game when one
    player controls both (2-Player Rules 4)."""
    s = board(fresh(), {"syria": {"rome": 2, "coalition": 3, "christians": 2}})
    assert g.combat_value(s, "syria", "coalition", "rome", 4) == 3 + 4 - 2
    assert g.combat_value(s, "syria", "coalition", "christians", 4) == 3 + 4
    two = board(fresh(2), {"syria": {"rome": 2, "coalition": 3, "christians": 2}})
    assert g.combat_value(two, "syria", "coalition", "rome", 4) == 7


def test_card_effect_order_and_cancel() -> None:
    """Initiate Combat: a card that cancels the other is resolved first; a kill that removes the
    final unit gives the other side the win with no losses."""
    s = board(fresh(), {"gallia": {"rome": 1, "coalition": 3}})
    t = fight(s, "coalition", "rome", "gallia", "parthian-shot", "legio")  # kills the only Roman unit
    assert t.last_combat.winner == "coalition" and units(t, "gallia", "coalition") == 3
    c = fight(s, "coalition", "rome", "gallia", "parthian-shot", "testudo")  # cancelled
    assert units(c, "gallia", "rome") in (0, 1)
    assert "cancels" in c.last_combat.text


def test_rage_bounds_and_plunder_needs_rage() -> None:
    """Rage runs from -2 to 3; the Coalition cannot plunder if it cannot decrease its Rage."""
    s = board(fresh(), {"gallia": {"rome": 1, "coalition": 4}})
    s = set_f(s, "coalition", rage=-1)
    t = fight(s, "coalition", "rome", "gallia", "berserker-charge", "pax-deorum")
    assert t.factions["coalition"].rage == -2 and t.combat is None  # no plunder at -2
    u = board(fresh(), {"gallia": {"rome": 6, "coalition": 1}})
    u = set_f(u, "coalition", rage=3)
    u = fight(u, "coalition", "rome", "gallia", "feigned-retreat", "pilum-volley")
    assert u.last_combat.winner == "rome" and u.factions["coalition"].rage == 3
    r = dice(turn_of(fresh(), "coalition"), "coalition", [6, 1], [True, False])
    r = act(r, "coalition", Rage(die=0))
    assert r.factions["coalition"].rage == 3
    with pytest.raises(IllegalActionError, match="above 3"):
        act(dice(r, "coalition", [4]), "coalition", Rage(die=0))


def test_rage_costs_two_pips() -> None:
    """Increase Rage: 2 pips per point, odd dice rounded down; a second die from outside the
    sequence may help."""
    s = dice(turn_of(fresh(), "coalition"), "coalition", [3, 1], [True, False])
    assert act(s, "coalition", Rage(die=0)).factions["coalition"].rage == 1
    assert act(s, "coalition", Rage(die=0, extra=1)).factions["coalition"].rage == 2


def test_plunder_rampage_salvage_exploit() -> None:
    """Plunder: rampage, salvage, exploit — one option, for 1 more Rage (RULINGS.md R14)."""
    s = board(fresh(), {"gallia": {"rome": 2, "coalition": 4}})
    s = set_f(s, "coalition", rage=2)
    s = set_f(s, "rome", hand=("crucify", "circus-maximus"), durable=("give-to-caesar",))
    s = fight(s, "coalition", "rome", "gallia", "berserker-charge", "pax-deorum")
    assert s.combat.stage == "plunder"
    r = act(s, "coalition", Plunder(option="rampage", territory="italia", count=3))
    assert units(r, "italia", "coalition") == 3 and units(r, "gallia", "coalition") == 1
    assert r.factions["coalition"].rage == 0
    v = act(s, "coalition", Plunder(option="salvage"))
    assert v.factions["coalition"].hand == ("circus-maximus",)  # Crucify may not be stolen
    e = act(s, "coalition", Plunder(option="exploit", card="give-to-caesar"))
    assert e.factions["rome"].durable == () and "give-to-caesar" in e.factions["rome"].discard
    n = act(s, "coalition", Plunder(option="none"))
    assert n.factions["coalition"].rage == 1 and n.combat is None


def test_salvage_from_discard_then_deck() -> None:
    """Salvage: with no hand, the card selected from the discard pile; with neither, one of the
    deck's top two (here the only one that may be stolen), the other to the bottom."""
    s = board(fresh(), {"gallia": {"rome": 1, "coalition": 4}})
    s = set_f(s, "coalition", rage=2)
    s = set_f(s, "rome", hand=(), discard=("auxiliaries",))
    s = fight(s, "coalition", "rome", "gallia", "berserker-charge", "pax-deorum")
    t = act(s, "coalition", Plunder(option="salvage", card="auxiliaries"))
    assert t.factions["coalition"].hand == ("auxiliaries",)
    s2 = set_f(s, "rome", hand=(), discard=(), deck=("crucify", "conscription", "auxiliaries"))
    t = act(s2, "coalition", Plunder(option="salvage"))
    assert t.factions["coalition"].hand == ("conscription",)
    assert t.factions["rome"].deck == ("auxiliaries", "crucify")


# --------------------------------------------------------------------------- objectives, buying


def test_claim_and_score_objective() -> None:
    """Claim an Objective Card with any die; score it in the End Phase after rolling; the die
    is not rerolled; another claimant's die returns; a new card is turned up."""
    s = board(turn_of(fresh(), "jews"), {"jerusalem": {"jews": 4}})
    s = s.model_copy(update={"objectives": ("pax-romana", "the-temple"), "objective_deck": ("masada",)})
    s = dice(s, "jews", [1, 2])
    s = dice(s, "christians", [3])
    s = set_f(
        s,
        "christians",
        dice=(Die(value=3, place="objective", on="pax-romana"),) + s.factions["christians"].dice[1:],
    )
    s = act(s, "jews", Claim(die=0, card="pax-romana"))
    s = act(s, "jews", EndMain())
    s = act(s, "jews", Done(), rolls=[4, 4, 4, 4])
    s = act(
        s, "jews", Ready(dice=tuple(i for i, d in enumerate(s.factions["jews"].dice) if d.place == "unspent"))
    )
    assert s.scoring is not None and g.scoring_options(s) == ["pax-romana"]
    s = act(s, "jews", Score(card="pax-romana"))
    assert s.factions["jews"].points == 1 and s.scored["jews"] == ("pax-romana",)
    assert s.objectives == ("the-temple", "masada")
    assert s.factions["christians"].dice[0].place == "spent"
    assert any(d.place == "spent" and d.value == 0 for d in s.factions["jews"].dice)


def test_roman_start_phase_objectives() -> None:
    """Start Phase step 3: Rome scores its claimed "Score in Start Phase" cards then, not in
    the End Phase."""
    s = board(turn_of(fresh(), "rome", "start"), {"italia": {"rome": 1}, "gallia": {"rome": 1}})
    s = s.model_copy(update={"objectives": ("pax-romana",)})
    s = set_f(
        s, "rome", dice=(Die(value=2, place="objective", on="pax-romana"),) + tuple(Die() for _ in range(4))
    )
    s = act(s, "rome", Done())
    s = act(s, "rome", Score(card="pax-romana"))
    assert s.factions["rome"].points == 1 and s.phase == "main"


def test_buy_power_cards() -> None:
    """Purchasing Power Cards: 2 pips each (3 pips buy 1), at most 6 a turn, drawn in the End
    Phase; hand limit 3, discard down."""
    s = turn_of(fresh(), "rome")
    s = set_f(s, "rome", hand=("crucify", "conscription"))
    s = dice(s, "rome", [3, 6, 6, 6, 6], [True, True, False, False, False])
    s = act(s, "rome", Buy(die=0))
    assert s.bought == 1
    s = act(s, "rome", Buy(die=1, extra=2))
    assert s.bought == 6
    with pytest.raises(IllegalActionError):
        act(dice(s, "rome", [6]), "rome", Buy(die=0))
    s = act(s, "rome", EndMain())
    s = act(s, "rome", Done())
    assert s.phase == "discard" and len(s.factions["rome"].hand) == 8
    for _ in range(5):
        s = act(s, "rome", DiscardPower(card=s.factions["rome"].hand[0]))
    assert s.rolling is not None and len(s.factions["rome"].hand) == 3


def test_one_power_card_a_turn() -> None:
    """Faction Power Cards: only 1 Power Card each turn."""
    s = turn_of(fresh(), "rome", "start")
    s = set_f(s, "rome", hand=("crucify", "conscription"))
    s = act(s, "rome", PlayPower(card="crucify"))
    assert s.factions["rome"].durable == ("crucify",)
    with pytest.raises(IllegalActionError, match="only 1"):
        act(s, "rome", PlayPower(card="conscription"))


def test_block_and_unblock() -> None:
    """Block an Objective: exactly 6 pips, not a claimed objective, 1 per card and 1 per
    faction; the blocked objective cannot be claimed; unblock with any die."""
    s = turn_of(fresh(), "coalition")
    s = s.model_copy(update={"objectives": ("pax-romana", "the-temple")})
    s = dice(s, "coalition", [4, 2, 1], [True, False, False])
    with pytest.raises(IllegalActionError, match="exactly 6"):
        act(s, "coalition", Block(die=0, extra=2, card="pax-romana", target="jews"))
    b = act(s, "coalition", Block(die=0, extra=1, card="pax-romana", target="jews"))
    assert g.blocked(b, "pax-romana", "jews")
    assert not g._can_block(b, "the-temple", "jews") and not g._can_block(b, "pax-romana", "rome")
    j = dice(turn_of(b, "jews"), "jews", [3])
    with pytest.raises(IllegalActionError):
        act(j, "jews", Claim(die=0, card="pax-romana"))
    ds = list(b.factions["coalition"].dice)
    ds[3] = Die(value=1, place="unspent", seq=True)
    u = act(set_f(b, "coalition", dice=tuple(ds)), "coalition", Unblock(die=3, card="pax-romana"))
    assert not g.blocked(u, "pax-romana", "jews")


def test_markers_claim_and_score() -> None:
    """Claim and score an Objective Point Marker: any die; sole occupancy in the End Phase;
    a second marker of one faction costs it 1 point and gives 1 more."""
    s = board(
        turn_of(fresh(), "coalition"), {"dacia": {"coalition": 2}, "armenia": {"coalition": 1, "rome": 1}}
    )
    s = s.model_copy(
        update={
            "markers": (Marker(owner="rome", territory="dacia"), Marker(owner="rome", territory="armenia"))
        }
    )
    s = set_f(s, "rome", points=2)
    s = dice(s, "coalition", [1, 1])
    s = act(s, "coalition", ClaimMarker(die=0, territory="dacia"))
    s = act(s, "coalition", ClaimMarker(die=1, territory="armenia"))
    s = act(s, "coalition", EndMain())
    s = act(s, "coalition", Done(), rolls=[2, 2, 2])
    s = act(
        s,
        "coalition",
        Ready(
            dice=tuple(
                i for i, d in enumerate(s.factions["coalition"].dice) if d.place == "unspent" and d.value == 2
            )
        ),
    )
    assert s.factions["coalition"].points == 1  # Armenia is not held alone
    assert s.factions["coalition"].markers == ("rome",)
    s = board(s, {"dacia": {"coalition": 2}, "armenia": {"coalition": 1}})
    s = turn_of(s, "coalition", "end")
    s = act(s, "coalition", Done(), rolls=[3, 3, 3, 3])
    s = act(
        s,
        "coalition",
        Ready(
            dice=tuple(
                i for i, d in enumerate(s.factions["coalition"].dice) if d.place == "unspent" and d.value == 3
            )
        ),
    )
    assert s.factions["coalition"].points == 3 and s.factions["rome"].points == 1


def test_region_scoring() -> None:
    """Score Sole Occupancy of a Region: 1 point, once a game; 1 unit leaves the board."""
    s = board(
        turn_of(fresh(), "coalition", "end"),
        {"britannia": {"coalition": 1}, "gallia": {"coalition": 2}, "hispania": {"coalition": 1}},
    )
    s = dice(s, "coalition", [1])
    s = act(s, "coalition", Done(), rolls=[5])
    s = act(s, "coalition", Ready(dice=(0,)))
    s = act(s, "coalition", Pass())  # the unit taken: from the largest stack (RULINGS.md R12)
    assert s.factions["coalition"].points == 1 and s.factions["coalition"].regions_scored == ("yellow",)
    assert g.on_board(s, "coalition") == 3


def test_passing_gathers_all_dice() -> None:
    """Passing: all dice are gathered (Objective Cards, markers, spent) and rolled."""
    s = turn_of(fresh(), "jews", "start")
    s = s.model_copy(update={"objectives": ("the-temple",)})
    s = set_f(
        s, "jews", dice=(Die(value=5, place="objective", on="the-temple"),) + tuple(Die() for _ in range(4))
    )
    s = act(s, "jews", Pass(), rolls=[6, 6, 6, 6, 6])
    assert all(d.place == "unspent" for d in s.factions["jews"].dice) and g.claims(s, "the-temple") == {}


# --------------------------------------------------------------------------- special victories


def test_special_victories() -> None:
    """Winning The Game: each special victory ends the game at once."""
    s = board(fresh(), {"rome": {"coalition": 1}, "italia": {"coalition": 2}})
    assert g.special_victory(s, "coalition")
    s = board(
        fresh(), {"rome": {"christians": 1}, "jerusalem": {"christians": 1}, "germania": {"christians": 1}}
    )
    assert not g.special_victory(s, "christians")
    assert g.special_victory(set_f(s, "christians", converted=18), "christians")
    assert g.special_victory(set_f(fresh(), "rome", capture_track=25), "rome")
    blue = {
        "jerusalem": {"jews": 1},
        "galilaea": {"gray": 2},
        "samaria": {"jews": 1, "gray": 1},
        "idumaea": {"jews": 1},
    }
    assert g.special_victory(board(fresh(), blue), "jews")
    assert not g.special_victory(board(fresh(), {**blue, "idumaea": {"jews": 1, "rome": 1}}), "jews")


def test_special_victories_read_the_territories_they_name() -> None:
    """Winning The Game names where each special victory is held: the Coalition Rome and
    Italia, the Christians Rome, Jerusalem and Germania, the Jews every Judean (blue)
    territory; Rome's counts captures only. Units elsewhere leave the answer as it was."""
    assert g.victory_territories("coalition") == {"rome", "italia"}
    assert g.victory_territories("christians") == {"rome", "jerusalem", "germania"}
    assert g.victory_territories("jews") == {"jerusalem", "galilaea", "samaria", "idumaea"}
    assert g.victory_territories("jews") == set(g.data.region_territories("blue"))
    assert g.victory_territories("rome") == frozenset()
    s = board(fresh(), {"rome": {"coalition": 1}, "italia": {"coalition": 2}})
    far = board(s, {**s.board, "gallia": {"rome": 3}, "jerusalem": {"jews": 2}})
    assert g.special_victory(far, "coalition") == g.special_victory(s, "coalition")


def test_victory_is_checked_the_moment_it_occurs() -> None:
    """Winning The Game: play stops immediately (here: a capture reaching 25)."""
    s = board(fresh(), {"gallia": {"rome": 4, "coalition": 2}})
    s = set_f(s, "rome", capture_track=23)
    s = fight(s, "rome", "coalition", "gallia", "pilum-volley", "feigned-retreat")
    assert s.phase == "over" and s.winners == (seat(s, "rome"),)
    assert g.outcome(s).winners == (0,)
    with pytest.raises(GameError):
        g.apply(s, 0, EndMain(), Rng(1, 1))


def test_seven_points_wins() -> None:
    """Winning The Game: 7 objective points."""
    s = board(turn_of(fresh(), "jews"), {"jerusalem": {"jews": 4}})
    s = set_f(s, "jews", points=6)
    s = s.model_copy(update={"objectives": ("pax-romana",)})
    s = set_f(
        s, "jews", dice=(Die(value=2, place="objective", on="pax-romana"),) + tuple(Die() for _ in range(4))
    )
    s = act(s, "jews", EndMain())
    s = act(s, "jews", Done(), rolls=[1, 1, 1, 1])
    s = act(s, "jews", Ready(dice=(1,)))
    s = act(s, "jews", Score(card="pax-romana"))
    assert s.phase == "over" and "7 points" in s.end_reason


# --------------------------------------------------------------------------- 2 players


def test_two_player_setup_and_order() -> None:
    """2-Player Rules: one seat Rome, the other the Coalition; Rome first, then alternating;
    the non-Coalition seat places the 4 markers."""
    s = start(g, [0, 1], Options(), SEED).state
    assert s.order == ("rome", "coalition", "jews", "christians")
    assert g.acting(s, 0) == "rome" and g.acting(s, 1) is None
    with pytest.raises(IllegalActionError):
        start(g, [0, 1], Options(factions=("Rome+Coalition", "Jewish+Christian")), SEED)
    t = start(g, [0, 1], Options(factions=("Coalition+Jewish", None)), SEED).state
    assert t.order == ("rome", "coalition", "christians", "jews")


def test_two_player_no_attack_own_and_move_through() -> None:
    """2-Player Rules 1-2: the Coalition and its partner move through each other; factions of
    one player cannot attack each other; the partner still cannot recruit with Coalition units."""
    s = board(
        turn_of(fresh(2), "christians"),
        {"gallia": {"christians": 1, "coalition": 2}, "germania": {"coalition": 1}},
    )
    s = dice(s, "christians", [2])
    assert ("gallia", "coalition") not in g._attack_targets(s, "christians")
    s2 = act(s, "christians", Move(die=0, paths=(Path(count=1, route=("gallia", "germania", "sarmatia")),)))
    assert units(s2, "sarmatia", "christians") == 1
    spots, _ = g.recruit_spots(s, "christians")
    assert "gallia" not in spots


def test_two_player_discard_objective() -> None:
    """2-Player Rules 5: discard an unclaimed Objective Card with exactly 6 pips; not with
    another faction's die on it; cards that need 4 factions cannot be claimed."""
    s = turn_of(fresh(2), "rome")
    s = s.model_copy(update={"objectives": ("the-forum", "the-temple"), "objective_deck": ("masada",)})
    s = dice(s, "rome", [4, 2], [True, False])
    assert not g._can_claim(s, "rome", "the-forum")
    t = act(s, "rome", DiscardObjective(die=0, extra=1, card="the-forum"))
    assert t.objectives == ("the-temple", "masada") and t.objective_discard == ("the-forum",)
    with pytest.raises(IllegalActionError, match="exactly 6"):
        act(s, "rome", DiscardObjective(die=0, card="the-forum"))
    c = set_f(
        s,
        "coalition",
        dice=(Die(value=6, place="block", on="the-temple", target="jews"),) + tuple(Die() for _ in range(4)),
    )
    with pytest.raises(IllegalActionError):
        act(c, "rome", DiscardObjective(die=0, extra=1, card="the-temple"))
    with pytest.raises(IllegalActionError):
        act(fresh(), "rome", DiscardObjective(die=0, extra=1, card="the-forum"))


def test_two_player_win_needs_three_on_second() -> None:
    """2-Player Rules, Win Conditions: 7 points with one faction and 3 with the other (R21)."""
    s = set_f(fresh(2), "jews", points=7)
    s = set_f(s, "rome", points=2)
    from games.soul_of_the_empire.game import _Ctx

    ctx = _Ctx(s, Rng(1, 1))
    assert not g._check_victory(ctx)
    ctx = _Ctx(set_f(s, "rome", points=3), Rng(1, 1))
    assert g._check_victory(ctx) and ctx.s.winners == (0,)


# --------------------------------------------------------------------------- Roman Power Cards


def play(s: State, faction: str, phase: str, a: PlayPower, rolls: list[int] | None = None) -> State:
    s = turn_of(s, faction, phase)
    s = set_f(s, faction, hand=(a.card,) + s.factions[faction].hand)
    return act(s, faction, a, rolls)


def test_advanced_culture() -> None:
    """Advanced Culture: choose the values of up to 3 Unspent Dice."""
    s = dice(fresh(), "rome", [1, 2, 3, 4])
    s = play(s, "rome", "start", PlayPower(card="advanced-culture", values=(6, 6, 6)))
    assert sorted(d.value for d in s.factions["rome"].dice if d.place == "unspent") == [4, 6, 6, 6]


def test_auxiliaries() -> None:
    """Auxiliaries: every Start Phase 2 units from supply anywhere in the Empire, not on a marker."""
    s = fresh().model_copy(update={"markers": (Marker(owner="jews", territory="asia"),)})
    s = play(s, "rome", "start", PlayPower(card="auxiliaries"))
    with pytest.raises(IllegalActionError, match="Objective Point Marker"):
        act(s, "rome", PlayPower(card="auxiliaries", territories=("asia", "asia")))
    s = act(s, "rome", g.parse_action(s, seat(s, "rome"), "play Auxiliaries: Hispania, Achaea"))
    assert units(s, "hispania", "rome") == 1 and units(s, "achaea", "rome") == 1
    with pytest.raises(IllegalActionError):
        act(s, "rome", PlayPower(card="auxiliaries", territories=("achaea",)))


def test_circus_maximus() -> None:
    """Circus Maximus: 4 non-Roman pieces captured, at most 1 Christian."""
    s = board(fresh(), {"gallia": {"coalition": 3}, "syria": {"christians": 2}})
    with pytest.raises(IllegalActionError, match="only 1 Christian"):
        play(
            s,
            "rome",
            "main",
            PlayPower(card="circus-maximus", territories=("syria/christians", "syria/christians")),
        )
    s = play(
        s,
        "rome",
        "main",
        PlayPower(card="circus-maximus", territories=("gallia/coalition",) * 3 + ("syria/christians",)),
    )
    assert (
        s.factions["rome"].captured == {"coalition": 3, "christians": 1}
        and s.factions["rome"].capture_track == 4
    )


def test_collect_tribute() -> None:
    """Collect Tribute: "Each faction must lower an Unspent die by 1 pip. You may increase Unspent
    die (or dice) equal to the number of pips other factions lowered (2 or 3). If another faction
    has only 1s in their Unspent Dice Area, they must move a die to their Spent Dice Area." Each
    faction names its die, Rome its raises (RULINGS.md R15)."""
    s = dice(fresh(), "rome", [2, 2])
    s = dice(s, "jews", [4, 2, 1])
    s = dice(s, "coalition", [1, 1], [True, False])
    s = dice(s, "christians", [3])
    s = play(s, "rome", "main", PlayPower(card="collect-tribute"))
    assert s.order == ("rome", "coalition", "jews", "christians")
    assert g.acting(s, seat(s, "coalition")) == "coalition"
    s = act(s, "coalition", Lower(die=1))
    s = act(s, "jews", Lower(die=0))
    assert [d.value for d in s.factions["jews"].dice[:3]] == [3, 2, 1]
    assert [d.place for d in s.factions["coalition"].dice[:2]] == ["unspent", "spent"]
    assert s.factions["christians"].dice[0].value == 2  # its only choice
    assert s.tribute is not None and s.tribute.collected == 3
    for _ in range(3):
        s = act(s, "rome", Raise(die=0))
    assert [d.value for d in s.factions["rome"].dice[:2]] == [5, 2] and s.tribute is None


def test_conscription() -> None:
    """Conscription: add up to 2 captured units before choosing cards; they return to their
    supply after combat and the capture track falls."""
    s = board(fresh(), {"gallia": {"rome": 3, "coalition": 3}})
    s = set_f(s, "rome", durable=("conscription",), captured={"jews": 2}, capture_track=2)
    s = fight(s, "rome", "coalition", "gallia", "legio", "feigned-retreat", conscript=2)
    assert s.last_combat.attacker_value == 3 + 5 + 2
    assert s.factions["rome"].captured.get("jews", 0) == 0 and s.factions["jews"].supply >= 14
    assert s.factions["rome"].capture_track == 3  # 2 - 2 + 3 captured Coalition units


def test_crucify() -> None:
    """Crucify: when Rome loses units in combat, a captured unit returns instead of 1 Roman unit."""
    s = board(fresh(), {"gallia": {"rome": 2, "coalition": 3}})
    s = set_f(s, "rome", durable=("crucify",), captured={"christians": 1}, capture_track=1)
    s = set_f(s, "coalition", rage=0)
    s = fight(s, "coalition", "rome", "gallia", "berserker-charge", "pax-deorum")
    assert s.combat.question == "crucify"  # Rome chooses (RULINGS.md R16)
    s = act(s, "rome", Crucify(faction="christians"))
    assert units(s, "gallia", "rome") == 1 and s.factions["rome"].capture_track == 0


def test_die_by_the_sword() -> None:
    """Die by the Sword: remove up to 3 Roman units from 1 territory (leaving 1) and as many
    units anywhere, all to supply."""
    s = board(fresh(), {"rome": {"rome": 4}, "germania": {"coalition": 4}})
    with pytest.raises(IllegalActionError):
        play(
            s,
            "rome",
            "start",
            PlayPower(card="die-by-the-sword", territory="rome", territories=("germania/coalition",) * 4),
        )
    s = play(
        s,
        "rome",
        "start",
        PlayPower(card="die-by-the-sword", territory="rome", territories=("germania/coalition",) * 3),
    )
    assert units(s, "rome", "rome") == 1 and units(s, "germania", "coalition") == 1


def test_give_to_caesar() -> None:
    """Give to Caesar: "Whenever a faction purchases Power Cards, you may increase the value of 1
    Unspent Die by 1 pip." Rome chooses the die (or none) in a response window (RULINGS.md R15)."""
    s = set_f(fresh(), "rome", durable=("give-to-caesar",))
    s = dice(s, "rome", [3, 5, 6], [True, False, True])
    s = dice(turn_of(s, "jews"), "jews", [4])
    s = act(s, "jews", Buy(die=0))
    assert s.window is not None and s.window.kind == "caesar"
    assert g.acting(s, seat(s, "rome")) == "rome" and g.acting(s, seat(s, "jews")) is None
    assert g.to_act(s)[seat(s, "rome")].kind == "respond"
    assert g.legal_actions(s, seat(s, "rome")) == [Pass(), Raise(die=0), Raise(die=1)]  # not the 6
    roundtrip(s, "rome")
    r = act(s, "rome", g.parse_action(s, seat(s, "rome"), "raise 5 outside"))
    assert [d.value for d in r.factions["rome"].dice[:3]] == [3, 6, 6] and r.window is None
    with pytest.raises(IllegalActionError):
        act(s, "rome", Raise(die=2))
    p = act(s, "rome", Pass())
    assert [d.value for d in p.factions["rome"].dice[:3]] == [3, 5, 6] and p.window is None
    assert act(p, "jews", EndMain()).phase == "end"


def test_persecution() -> None:
    """The unnamed Roman card (Persecution): 1 Christian from up to 3 territories with Roman
    units; 1 captured, the rest to supply."""
    s = board(
        fresh(),
        {
            "rome": {"rome": 1, "christians": 2},
            "syria": {"rome": 1, "christians": 1},
            "asia": {"christians": 1},
        },
    )
    with pytest.raises(IllegalActionError):
        play(s, "rome", "main", PlayPower(card="persecution", territories=("asia",)))
    s = play(s, "rome", "end", PlayPower(card="persecution", territories=("rome", "syria")))
    assert units(s, "rome", "christians") == 1 and units(s, "syria", "christians") == 0
    assert s.factions["rome"].captured == {"christians": 1}


# --------------------------------------------------------------------------- Jewish Power Cards


def test_high_priest_letter() -> None:
    """High Priest Letter: 1 Christian unit from every Blue territory with Jewish or Gray units."""
    s = board(
        fresh(),
        {
            "jerusalem": {"jews": 1, "christians": 2},
            "galilaea": {"gray": 1, "christians": 1},
            "samaria": {"christians": 1},
        },
    )
    s = play(s, "jews", "main", PlayPower(card="high-priest-letter"))
    assert units(s, "jerusalem", "christians") == 1 and units(s, "galilaea", "christians") == 0
    assert units(s, "samaria", "christians") == 1


def test_industry() -> None:
    """Industry: draw up to the hand limit; another Power Card may be played this turn."""
    s = set_f(fresh(), "jews", hand=("tithe",))
    s = dice(s, "jews", [2])
    s = play(s, "jews", "main", PlayPower(card="industry"))
    assert len(s.factions["jews"].hand) == 3 and s.power_limit == 2
    s = act(s, "jews", PlayPower(card="tithe", values=(2,)))
    assert s.factions["jews"].dice[0].value == 6


def test_merchant_and_peasant_revolts() -> None:
    """Merchant Revolt: 5 Gray units in a coastal Empire territory without a marker, a yellow
    die; Peasant Revolt: a territory adjacent to the red region. The Gray move with the yellow
    die; a crushed revolt is discarded and its die returns (RULINGS.md R13)."""
    s = fresh().model_copy(update={"markers": (Marker(owner="jews", territory="africa"),)})
    with pytest.raises(IllegalActionError):
        play(s, "jews", "start", PlayPower(card="merchant-revolt", territory="pannonia"))  # not coastal
    with pytest.raises(IllegalActionError):
        play(s, "jews", "start", PlayPower(card="merchant-revolt", territory="africa"))  # marker
    m = play(s, "jews", "start", PlayPower(card="merchant-revolt", territory="sicilia"), rolls=[4])
    assert units(m, "sicilia", "gray") == 5 and m.yellow == 3 and m.revolts[0].dice[0].value == 4
    m = act(m, "jews", Keep())
    assert "pannonia" in g._revolt_spots(s, "peasant-revolt") and "syria" not in g._revolt_spots(
        s, "peasant-revolt"
    )
    m = turn_of(m, "jews")
    m = act(m, "jews", g.parse_action(m, seat(m, "jews"), "move gray yellow 4: 4 Sicilia-Rome"))
    assert units(m, "rome", "gray") == 4 and m.revolts[0].dice[0].place == "spent"
    crushed = board(m, {"rome": {"rome": 3}})
    from games.soul_of_the_empire.game import _Ctx

    ctx = _Ctx(crushed, Rng(1, 1))
    g._revolt_check(ctx)
    assert ctx.s.revolts == () and ctx.s.yellow == 4 and "merchant-revolt" in ctx.s.factions["jews"].discard


def test_pharaohs_fate() -> None:
    """Pharaoh's Fate: "choose whether or not to reveal this card. If revealed, the combat results
    are reversed. If not revealed, return this card to your hand."""
    s = board(fresh(), {"jerusalem": {"rome": 5, "jews": 1}})
    s = set_f(s, "jews", hand=("pharaohs-fate",))
    t = fight(s, "rome", "jews", "jerusalem", "legio", "levy-of-galilee", d_power="pharaohs-fate")
    assert t.combat.question == "pharaoh" and t.combat.winner == "rome"  # RULINGS.md R9
    t = act(t, "jews", Reveal())
    assert t.last_combat.winner == "jews" and units(t, "jerusalem", "rome") == 0
    assert "pharaohs-fate" in t.factions["jews"].discard
    s2 = board(fresh(), {"jerusalem": {"rome": 1, "jews": 5}})
    s2 = set_f(s2, "jews", hand=("pharaohs-fate",))
    u = fight(s2, "rome", "jews", "jerusalem", "pax-deorum", "shofar", d_power="pharaohs-fate")
    assert u.combat.question == "pharaoh" and u.combat.winner == "jews"  # asked winning too (R9)
    u = act(u, "jews", Keep())
    assert u.last_combat.winner == "jews" and u.factions["jews"].hand == ("pharaohs-fate",)


def test_pharisee() -> None:
    """Pharisee: every revolt gains 1 more yellow die (if available)."""
    s = fresh()
    s = play(s, "jews", "start", PlayPower(card="jewish-revolt", territory="samaria"), rolls=[2])
    s = act(s, "jews", Keep())
    s = s.model_copy(update={"power_played": 0, "turn": s.order.index("jews")})
    s = play(s, "jews", "start", PlayPower(card="pharisee"), rolls=[5])
    assert [d.value for d in s.revolts[0].dice] == [2, 5] and s.yellow == 2
    assert s.extra_roll is not None and s.extra_roll.dice == (1,)  # only the new die


def test_promised_land() -> None:
    """Promised Land: when another faction moves out of the blue region, the Jews choose where
    those units go (RULINGS.md R22)."""
    s = board(turn_of(fresh(), "rome"), {"jerusalem": {"rome": 2}})
    s = set_f(s, "jews", hand=("promised-land",))
    s = dice(s, "rome", [4])
    s = act(s, "rome", Move(die=0, paths=(Path(count=2, route=("jerusalem", "samaria", "aegyptus")),)))
    assert s.window is not None and g.acting(s, seat(s, "jews")) == "jews"
    with pytest.raises(NotYourTurnError):
        g.apply(s, seat(s, "rome"), EndMain(), Rng(1, 1))
    t = act(s, "jews", Redirect(card="promised-land", territory="arabia"))
    assert units(t, "arabia", "rome") == 2 and units(t, "aegyptus", "rome") == 0 and t.window is None
    assert act(s, "jews", Pass()).window is None


# --------------------------------------------------------------------------- Christian Power Cards


def test_city_riot() -> None:
    """City Riot: every unit leaves a territory with Christian and other units."""
    s = board(fresh(), {"syria": {"christians": 1, "rome": 2}})
    s = play(s, "christians", "main", PlayPower(card="city-riot", territory="syria"))
    assert g.occupants(s, "syria") == set()
    assert g.on_board(s, "rome") == 2 and g.on_board(s, "christians") == 1


def test_city_riot_destinations_chosen() -> None:
    """City Riot: "Choose a territory with your unit(s) and at least 1 other faction's unit. Move
    all units out of that territory into adjacent territory(ies)." The player names where each
    unit goes (RULINGS.md R15)."""
    s = board(fresh(), {"syria": {"christians": 1, "rome": 2}})
    a, b = g.data.adjacent["syria"][:2]
    text = f"play City Riot in Syria: Rome in {g.tname(a)}, Rome in {g.tname(b)}, Christian in {g.tname(b)}"
    s = turn_of(s, "christians")
    s = set_f(s, "christians", hand=("city-riot",))
    riot = g.parse_action(s, seat(s, "christians"), text)
    assert riot.territories == (f"{a}/rome", f"{b}/rome", f"{b}/christians")
    assert g.parse_action(s, seat(s, "christians"), g.format_action(s, riot)) == riot
    t = act(s, "christians", riot)
    assert (units(t, a, "rome"), units(t, b, "rome"), units(t, b, "christians")) == (1, 1, 1)
    assert g.occupants(t, "syria") == set()
    with pytest.raises(IllegalActionError, match="all 2"):
        act(s, "christians", riot.model_copy(update={"territories": (f"{a}/rome", f"{b}/christians")}))
    with pytest.raises(IllegalActionError, match="not adjacent"):
        act(
            s,
            "christians",
            riot.model_copy(update={"territories": ("britannia/rome",) * 2 + (f"{a}/christians",)}),
        )


def test_divine_messenger() -> None:
    """Divine Messenger: another full turn after this one, without Power Cards."""
    s = dice(fresh(), "christians", [1])
    s = play(s, "christians", "start", PlayPower(card="divine-messenger"))
    s = act(s, "christians", Done())
    s = act(s, "christians", EndMain())
    s = act(s, "christians", Done(), rolls=[3, 3, 3, 3, 3])
    s = act(s, "christians", Ready(dice=(0,)))
    assert s.active == "christians" and s.second_turn and s.power_limit == 0


def test_elder() -> None:
    """Elder: no other Power Cards affect the combat; -1 in the Elder side's favour."""
    s = board(fresh(), {"germania": {"christians": 2, "coalition": 2}})
    s = set_f(s, "christians", hand=("elder",))
    s = dice(turn_of(s, "coalition"), "coalition", [1])
    s = act(s, "coalition", Attack(die=0, territory="germania", target="christians"))
    s = act(s, "christians", Elder())  # face up before the Combat Cards (RULINGS.md R9)
    s = act(s, "coalition", Commit(card="feigned-retreat"))
    s = act(s, "christians", Commit(card="fellowship"))
    # Coalition 2 + 1 + 2 (edge) = 5; Christians 2 + 1 reinforced + 3 = 6; Elder -1 to the Coalition
    s = act(s, "christians", Elder(choice="theirs"))
    assert s.last_combat.attacker_value == 4 and s.last_combat.defender_value == 6
    assert s.last_combat.winner == "christians"


def test_enrapture() -> None:
    """Enrapture: after claiming an Objective Card, reroll a Spent die once and use it."""
    s = turn_of(fresh(), "christians")
    s = s.model_copy(update={"objectives": ("the-temple",)})
    s = set_f(s, "christians", durable=("enrapture",))
    s = dice(s, "christians", [2])
    s = act(s, "christians", Claim(die=0, card="the-temple"), rolls=[5])
    assert [d.value for d in s.factions["christians"].dice if d.place == "unspent"] == [5]


def test_giving() -> None:
    """Giving: "One faction of your choice gives you 4 pips from Unspent die(dice) to purchase 2
    Power Cards. You immediately draw the top 2 Power Cards." The faction named gives the dice
    of its choice (RULINGS.md R15)."""
    s = dice(fresh(), "rome", [3, 3, 1], [True, True, False])
    s = set_f(s, "christians", hand=())
    s = play(s, "christians", "main", PlayPower(card="giving", target="rome"))
    assert g.acting(s, seat(s, "rome")) == "rome"
    s = act(s, "rome", Give(die=0))
    s = act(s, "rome", Give(die=2))
    assert [d.place for d in s.factions["rome"].dice[:3]] == ["spent", "unspent", "spent"]
    assert s.giving is None and len(s.factions["christians"].hand) == 2


def test_gospel() -> None:
    """Gospel: name a faction; whenever it moves, 1 Christian unit may move 1 territory."""
    s = board(fresh(), {"syria": {"christians": 1}, "italia": {"rome": 1}})
    s = play(s, "christians", "start", PlayPower(card="gospel", target="rome"))
    assert s.factions["christians"].gospel == "rome"
    s = dice(turn_of(s, "rome"), "rome", [1])
    s = act(s, "rome", Move(die=0, paths=(Path(count=1, route=("italia", "rome")),)))
    assert s.window is not None and s.window.kind == "gospel"
    s = act(s, "christians", Shift(faction="christians", source="syria", destination="cilicia"))
    assert units(s, "cilicia", "christians") == 1


def test_grace() -> None:
    """Grace: once a turn, move through Coalition units, reverse a combat result or recruit among
    Coalition units; not the same thing two turns in a row."""
    s = board(turn_of(fresh(), "christians"), {"germania": {"christians": 1, "coalition": 3}})
    s = set_f(s, "christians", durable=("grace",))
    s = dice(s, "christians", [2, 2])
    t = act(s, "christians", Move(die=0, paths=(Path(count=1, route=("germania", "gallia")),)))
    assert units(t, "gallia", "christians") == 1 and t.factions["christians"].grace_now == 1
    with pytest.raises(IllegalActionError):
        act(t, "christians", Recruit(die=1, placements=(("germania", 1),)))
    u = set_f(s, "christians", grace_last=1)
    with pytest.raises(IllegalActionError):
        act(u, "christians", Move(die=0, paths=(Path(count=1, route=("germania", "gallia")),)))
    r = act(u, "christians", Recruit(die=0, placements=(("germania", 2),)))
    assert units(r, "germania", "christians") == 3


def test_guardian_angel() -> None:
    """Guardian Angel: revealed only on a loss, no losses; returned to hand after a win."""
    s = board(fresh(), {"gallia": {"christians": 2, "coalition": 4}})
    s = set_f(s, "christians", hand=("guardian-angel",))
    t = fight(
        s,
        "coalition",
        "christians",
        "gallia",
        "berserker-charge",
        "turn-the-other-cheek",
        d_power="guardian-angel",
    )
    assert t.last_combat.winner == "coalition" and units(t, "gallia", "christians") == 2
    assert "guardian-angel" in t.factions["christians"].discard


def test_help_the_wounded() -> None:
    """Help the Wounded: in the Start Phase move 1 unit of each other faction 1 space."""
    s = board(fresh(), {"syria": {"rome": 2}, "gallia": {"coalition": 1}})
    s = set_f(s, "christians", durable=("help-the-wounded",))
    s = turn_of(s, "christians", "start")
    s = act(s, "christians", Shift(faction="rome", source="syria", destination="cilicia"))
    assert units(s, "cilicia", "rome") == 1
    with pytest.raises(IllegalActionError):
        act(s, "christians", Shift(faction="rome", source="syria", destination="cilicia"))
    s = act(s, "christians", Shift(faction="coalition", source="gallia", destination="hispania"))
    assert units(s, "hispania", "coalition") == 1


def test_holy_spirit() -> None:
    """Holy Spirit (named in the transcription notes): convert 1 unit in all territories with
    Christian units."""
    s = board(fresh(), {"syria": {"christians": 1, "rome": 2}, "rome": {"christians": 1, "coalition": 1}})
    s = play(s, "christians", "main", PlayPower(card="holy-spirit"))
    assert units(s, "syria", "christians") == 2 and units(s, "rome", "coalition") == 0
    assert s.factions["christians"].converted == 2


def test_gladiator_games() -> None:
    """Gladiator Games (named in the transcription notes): with at least 3 Roman units in a
    territory, capture up to 2 non-Roman units there."""
    s = board(fresh(), {"rome": {"rome": 3, "christians": 3}, "syria": {"rome": 2, "jews": 1}})
    with pytest.raises(IllegalActionError, match="at least 3"):
        play(s, "rome", "main", PlayPower(card="gladiator-games", territory="syria", target="jews"))
    s = play(s, "rome", "main", PlayPower(card="gladiator-games", territory="rome", target="christians"))
    assert units(s, "rome", "christians") == 1 and s.factions["rome"].captured == {"christians": 2}


# --------------------------------------------------------------------------- notation and errors


def test_errors_say_what_is_legal() -> None:
    """Bad input raises a GameError naming what would be legal."""
    s = board(turn_of(fresh(), "rome"), {"rome": {"rome": 2}})
    s = dice(s, "rome", [3])
    with pytest.raises(GameError, match="adjacent: "):
        g.parse_action(s, 0, "move 3: 1 Rome-Gallia") and act(
            s, "rome", g.parse_action(s, 0, "move 3: 1 Rome-Gallia")
        )
    with pytest.raises(GameError, match="you have: 3"):
        g.parse_action(s, 0, "move 5: 1 Rome-Italia")
    with pytest.raises(GameError):
        g.parse_action(s, 0, "fly to the moon")
    with pytest.raises(NotYourTurnError):
        g.parse_action(s, 1, "end")


def test_complete_offers_legal_actions() -> None:
    """Autocomplete lists legal actions in notation by prefix."""
    s = board(turn_of(fresh(), "rome"), {"rome": {"rome": 2}})
    s = dice(s, "rome", [2])
    got = g.complete(s, 0, "move 2: 1 Rome-It")
    assert got and all(x.startswith("move 2: 1 Rome-Italia") for x in got)
    assert "end" in g.complete(s, 0, "en")


def test_pass_in_combat_plays_first_card() -> None:
    """RULINGS.md R9: a side that passes its secret choice plays its first unused Combat Card."""
    s = board(fresh(), {"gallia": {"rome": 2, "coalition": 2}})
    s = dice(turn_of(s, "coalition"), "coalition", [1])
    s = act(s, "coalition", Attack(die=0, territory="gallia", target="rome"))
    assert Pass() in g.legal_actions(s, seat(s, "rome"))
    s = act(s, "coalition", Pass())
    s = act(s, "rome", Commit(card="legio"))
    assert s.last_combat.attacker_card == "Berserker Charge"


# --------------------------------------------------------------------------- dice rolled up to 3 times, regroup


def roundtrip(s: State, faction: str) -> None:
    """Every legal action reads back from its notation."""
    for a in g.legal_actions(s, seat(s, faction)):
        assert g.parse_action(s, seat(s, faction), g.format_action(s, a)) == a


def test_yellow_die_rolled_up_to_three_times_when_revolt_played() -> None:
    """Jewish Revolt Power Cards: "When the revolt card is played, a single yellow die is taken
    from the extra dice pool ... Each die is rolled up to three times." (RULINGS.md R13)"""
    s = play(fresh(), "jews", "start", PlayPower(card="merchant-revolt", territory="sicilia"), rolls=[2])
    assert s.extra_roll is not None and s.extra_roll.kind == "yellow" and s.phase == "start"
    assert g.acting(s, seat(s, "jews")) == "jews" and "yellow dice" in g.to_act(s)[seat(s, "jews")].text
    roundtrip(s, "jews")
    s = act(s, "jews", g.parse_action(s, seat(s, "jews"), "reroll 2"), rolls=[3])
    assert s.revolts[0].dice[0].value == 3 and s.extra_roll.rerolls == 1
    s = act(s, "jews", g.parse_action(s, seat(s, "jews"), "reroll 3"), rolls=[6])
    assert s.revolts[0].dice[0].value == 6 and s.extra_roll.rerolls == 0
    assert g.legal_actions(s, seat(s, "jews")) == [Keep()]
    with pytest.raises(IllegalActionError, match="3 times"):
        act(s, "jews", Reroll(dice=(0,)))
    s = act(s, "jews", g.parse_action(s, seat(s, "jews"), "keep"))
    assert s.extra_roll is None and s.phase == "start" and s.revolts[0].dice[0].value == 6


def test_yellow_dice_rerolled_at_roll_and_ready() -> None:
    """The yellow die returns to its card "during Roll and Ready" and "Each die is rolled up to
    three times": after readying, the Jews may reroll the yellow dice twice (RULINGS.md R13)."""
    s = play(fresh(), "jews", "start", PlayPower(card="jewish-revolt", territory="samaria"), rolls=[2])
    s = act(s, "jews", Keep())
    s = turn_of(s, "jews", "end")
    s = dice(s, "jews", [1])
    s = act(s, "jews", Done(), rolls=[5, 5, 5, 5, 5, 1])  # five Jewish dice, then the yellow die
    assert s.revolts[0].dice[0].value == 1
    s = act(s, "jews", Ready(dice=(0, 1, 2, 3, 4)))
    assert s.extra_roll is not None and s.extra_roll.resume == "end" and s.active == "jews"
    roundtrip(s, "jews")
    s = act(s, "jews", g.parse_action(s, seat(s, "jews"), "reroll 1"), rolls=[4])
    assert s.revolts[0].dice[0].value == 4 and s.active == "jews"
    s = act(s, "jews", Keep())
    assert s.extra_roll is None and s.active != "jews" and s.phase == "start"


def test_returned_blocking_dice_rolled_up_to_three_times() -> None:
    """Scoring a Claimed Objective Card: "If the Coalition had blocked another objective on
    that card, return their die (dice). The Coalition faction may immediately roll that die
    (dice) up to 3 times, and place it in their Unspent Dice Area." (RULINGS.md R18)"""
    s = board(turn_of(fresh(), "rome", "start"), {"italia": {"rome": 1}, "gallia": {"rome": 1}})
    s = s.model_copy(update={"objectives": ("pax-romana",)})
    s = set_f(
        s, "rome", dice=(Die(value=2, place="objective", on="pax-romana"),) + tuple(Die() for _ in range(4))
    )
    s = set_f(
        s,
        "coalition",
        dice=(Die(value=6, place="block", on="pax-romana", target="jews"),) + tuple(Die() for _ in range(4)),
    )
    s = act(s, "rome", Done())
    s = act(s, "rome", Score(card="pax-romana"), rolls=[2])
    assert s.factions["rome"].points == 1 and s.phase == "start"
    assert s.extra_roll is not None and s.extra_roll.kind == "block" and s.extra_roll.resume == "main"
    assert g.acting(s, seat(s, "coalition")) == "coalition" and g.acting(s, seat(s, "rome")) is None
    assert s.factions["coalition"].dice[0].place == "unspent" and s.factions["coalition"].dice[0].value == 2
    roundtrip(s, "coalition")
    s = act(s, "coalition", g.parse_action(s, seat(s, "coalition"), "reroll 2"), rolls=[5])
    assert s.factions["coalition"].dice[0].value == 5
    s = act(s, "coalition", Keep())
    assert s.extra_roll is None and s.phase == "main" and s.active == "rome"
    assert s.factions["coalition"].dice[0].place == "unspent" and not s.factions["coalition"].dice[0].seq


def test_region_regroup() -> None:
    """Score Sole Occupancy of a Region and Regroup: "They may then regroup 6 units from this
    region into a single territory in that region. The regroup move does not require a die."
    (RULINGS.md R12)"""
    s = board(
        turn_of(fresh(), "coalition", "end"),
        {"britannia": {"coalition": 3}, "gallia": {"coalition": 4}, "hispania": {"coalition": 2}},
    )
    s = dice(s, "coalition", [1])
    s = act(s, "coalition", Done(), rolls=[5])
    s = act(s, "coalition", Ready(dice=(0,)))
    assert s.regroup is not None and s.regroup.region == "yellow" and s.active == "coalition"
    s = act(s, "coalition", g.parse_action(s, seat(s, "coalition"), "take Gallia"))
    assert units(s, "gallia", "coalition") == 3  # 1 unit went to the faction board
    roundtrip(s, "coalition")
    with pytest.raises(IllegalActionError, match="at most 6"):
        act(s, "coalition", Regroup(territory="gallia", sources=(("britannia", 3), ("hispania", 1))))
    with pytest.raises(IllegalActionError):
        act(s, "coalition", Regroup(territory="gallia", sources=(("rome", 1),)))
    t = act(
        s, "coalition", g.parse_action(s, seat(s, "coalition"), "regroup Gallia: 2 Britannia, 1 Hispania")
    )
    assert (units(t, "gallia", "coalition"), units(t, "britannia", "coalition")) == (6, 1)
    assert units(t, "hispania", "coalition") == 1 and t.regroup is None and t.active != "coalition"
    p = act(s, "coalition", Pass())
    assert p.regroup is None and p.active != "coalition" and units(p, "gallia", "coalition") == 3


def test_attacking_your_own_faction_is_refused_as_such_not_under_the_two_player_rules() -> None:
    """Initiate Combat: "a player must have at least 1 unit in the same territory as another faction":
    with 4 players, `attack: Rome in Italia` by Rome is refused because Rome would fight its own
    units — not with the 2-Player Rules' "both your factions", which concern two factions."""
    s = board(turn_of(fresh(4), "rome"), {"italia": {"rome": 2}})
    s = dice(s, "rome", [2])
    with pytest.raises(IllegalActionError) as e:
        act(s, "rome", Attack(die=0, territory="italia", target="rome"))
    msg = e.value.message
    assert "Rome cannot attack its own units" in msg, msg
    assert "2-Player" not in msg and "both your factions" not in msg, msg
