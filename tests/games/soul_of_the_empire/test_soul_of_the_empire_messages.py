"""Messages of Soul of the Empire a player reads: plunder, combat results, salvage, the
conversion tracker, notation answers and the status text.

Each test names the rule text section (shared/seeds/000_ee59181bd146d771.txt) or the ruling
(games/soul_of_the_empire/RULINGS.md) it checks.
"""

from __future__ import annotations

import pytest

from games.core import GameError, IllegalActionError, start
from games.soul_of_the_empire.game import Options
from games.soul_of_the_empire.model import CardsDrawn, Die, Note, Plunder
from games.soul_of_the_empire.text import summary
from tests.games.soul_of_the_empire.test_soul_of_the_empire_rules import (
    FixedRng,
    act,
    board,
    dice,
    fight,
    fresh,
    g,
    seat,
    set_f,
    turn_of,
    units,
)

# --------------------------------------------------------------------------- plunder


def test_plunder_costs_one_rage_and_says_so() -> None:
    """Resolving Combat: "Plunder reduces Rage by 1 additional point." The note and the Last
    combat text both state the Rage after the plunder (RULINGS.md R14)."""
    s = board(fresh(), {"gallia": {"rome": 2, "coalition": 4}})
    s = set_f(s, "coalition", rage=2)
    s = set_f(s, "rome", hand=("circus-maximus",))
    s = fight(s, "coalition", "rome", "gallia", "berserker-charge", "pax-deorum")
    assert s.factions["coalition"].rage == 1 and s.combat.stage == "plunder"
    assert "1 more Rage" in g.to_act(s)[seat(s, "coalition")].text
    r = g.apply(s, seat(s, "coalition"), Plunder(option="rampage", territory="italia", count=3), FixedRng())
    assert r.state.factions["coalition"].rage == 0
    notes = [e.text for e in r.events if isinstance(e, Note)]
    assert any("Rampage! 3 Coalition units sweep into Italia" in n and "Rage falls to 0" in n for n in notes)
    assert r.state.last_combat.text.endswith(
        "Plunder: Rampage! 3 Coalition units sweep into Italia; Coalition Rage falls to 0."
    )
    e = g.apply(s, seat(s, "coalition"), Plunder(option="exploit"), FixedRng())
    assert any(
        "discards Circus Maximus" in n.text and "Rage falls to 0" in n.text
        for n in e.events
        if isinstance(n, Note)
    )


def test_exploit_not_offered_with_nothing_to_discard() -> None:
    """RULINGS.md R14: Exploit discards a face-up Durable card or a card from the hand; with
    neither it would do nothing, so it is not offered and is refused with the reason; Rage
    does not change."""
    s = board(fresh(), {"arabia": {"jews": 1, "coalition": 4}})
    s = set_f(s, "coalition", rage=1)
    s = set_f(s, "jews", hand=(), durable=())
    s = fight(s, "coalition", "jews", "arabia", "berserker-charge", "shofar")
    assert s.combat is not None and s.combat.stage == "plunder"
    opts = g.legal_actions(s, seat(s, "coalition"))
    assert not any(isinstance(a, Plunder) and a.option == "exploit" for a in opts)
    with pytest.raises(IllegalActionError, match="no Power Card in hand"):
        act(s, "coalition", Plunder(option="exploit"))
    assert s.factions["coalition"].rage == 0


def test_salvage_offered_whatever_the_hidden_hand_holds() -> None:
    """RULINGS.md R14: whether the hand holds a card that may be stolen is hidden, so Salvage is
    offered whenever the hand is not empty; a hand holding only cards that may not be stolen
    gives nothing, and the message says so."""
    s = board(fresh(), {"gallia": {"rome": 1, "coalition": 4}})
    s = set_f(s, "coalition", rage=2)
    s = set_f(s, "rome", hand=("crucify",), durable=())
    s = fight(s, "coalition", "rome", "gallia", "berserker-charge", "pax-deorum")
    opts = g.legal_actions(s, seat(s, "coalition"))
    assert Plunder(option="salvage") in opts and Plunder(option="exploit") in opts
    t = g.apply(s, seat(s, "coalition"), Plunder(option="salvage"), FixedRng())
    assert t.state.factions["coalition"].hand == () and t.state.factions["rome"].hand == ("crucify",)
    assert any("finds nothing" in getattr(e, "text", "") for e in t.events)


def test_no_plunder_question_when_nothing_can_be_plundered() -> None:
    """RULINGS.md R9/R14: only a faction with a real choice is asked: no room to rampage, nothing
    to salvage or exploit, so no plunder question."""
    cells = {"arabia": {"jews": 1, "coalition": 6}}
    for t in g.data.adjacent["arabia"]:
        cells[t] = {"coalition": 6}
    s = fresh()
    s = set_f(s, "coalition", supply=60)
    s = board(s, cells)
    s = set_f(s, "coalition", rage=2)
    s = set_f(s, "jews", hand=(), durable=(), discard=(), deck=())
    s = fight(s, "coalition", "jews", "arabia", "berserker-charge", "shofar")
    assert s.last_combat.winner == "coalition"
    assert s.combat is None and s.factions["coalition"].rage == 1


def test_salvage_says_where_the_card_came_from() -> None:
    """RULINGS.md R14: with no hand, Salvage takes from the discard pile; the message says so,
    and the card's name is shown only to the Coalition's and the loser's seats."""
    s = board(fresh(), {"gallia": {"rome": 1, "coalition": 4}})
    s = set_f(s, "coalition", rage=2)
    s = set_f(s, "rome", hand=(), discard=("auxiliaries",))
    s = fight(s, "coalition", "rome", "gallia", "berserker-charge", "pax-deorum")
    r = g.apply(s, seat(s, "coalition"), Plunder(option="salvage", card="auxiliaries"), FixedRng())
    name = g.card_name("auxiliaries")
    private = [e for e in r.events if name in getattr(e, "text", "") or name in getattr(e, "names", ())]
    assert private and all(set(e.visible_to) <= {seat(s, "coalition"), seat(s, "rome")} for e in private)
    rome_note = next(e for e in r.events if isinstance(e, Note) and e.visible_to == (seat(s, "rome"),))
    assert rome_note.text == f"The Coalition took your {name} from your discard pile (your hand is empty)."
    public = [e.text for e in r.events if isinstance(e, Note) and e.visible_to is None]
    assert any("from its discard pile" in t for t in public)
    assert any(isinstance(e, CardsDrawn) and e.visible_to == (seat(s, "coalition"),) for e in r.events)


# --------------------------------------------------------------------------- combat results


def test_result_line_says_lowest_wins() -> None:
    """Resolving Combat: "Lowest combat value wins combat when Romans/Jewish fight Christians."
    The result line says so."""
    s = board(fresh(), {"rome": {"rome": 5, "christians": 1}})
    s = fight(s, "christians", "rome", "rome", "turn-the-other-cheek", "pilum-volley")
    assert "Combat Values: Christian 1, Rome 11 (lowest wins); Christian wins" in s.last_combat.text


def test_tie_goes_to_the_defender_in_words() -> None:
    """Resolving Combat: "Ties go to the defender." The result line says so."""
    s = board(fresh(), {"jerusalem": {"rome": 3, "jews": 3}})
    s = fight(s, "jews", "rome", "jerusalem", "hill-fortress", "testudo")
    r = s.last_combat
    assert r.attacker_value == r.defender_value == 7
    assert "Combat Values: Jewish 7, Rome 7; a tie goes to the defender, Rome" in r.text


def test_combat_power_card_effect_is_shown() -> None:
    """Power Cards (Hasmonean Valour: "your Combat Value moves 2 toward winning"): the combat
    text shows what the card did."""
    s = board(fresh(), {"jerusalem": {"rome": 3, "jews": 3}})
    s = set_f(s, "jews", hand=("hasmonean-valour",))
    s = fight(s, "jews", "rome", "jerusalem", "hill-fortress", "testudo", a_power="hasmonean-valour")
    assert "Hasmonean Valour: Jewish +2 toward winning" in s.last_combat.text
    assert s.last_combat.attacker_value == 9


# --------------------------------------------------------------------------- conversion tracker


def test_conversion_tracker_stops_at_18_and_status_names_the_victory() -> None:
    """Victory: "Christian: Convert 18 units and have at least 1 unit in Rome, Jerusalem, and
    Germania"; the tracker stops at 18 (RULINGS.md R24) and the status text names the other
    conditions."""
    s = board(fresh(), {"syria": {"rome": 5, "christians": 1}})
    s = set_f(s, "christians", converted=16)
    s = fight(s, "christians", "rome", "syria", "turn-the-other-cheek", "pilum-volley")
    assert s.conversion is not None and "the Christians may convert up to" in s.last_combat.text
    r = g.apply(s, seat(s, "christians"), g.legal_actions(s, seat(s, "christians"))[0], FixedRng())
    s = r.state
    assert s.factions["christians"].converted == 18
    assert any("conversion tracker 18" in getattr(e, "text", "") for e in r.events)
    text = summary(g, g.view(s, None))
    assert (
        "converted 18/18; special victory needs units in Rome, Jerusalem, Germania (missing Rome, Jerusalem, Germania)"
        in text
    )
    assert units(s, "syria", "christians") > 1


# --------------------------------------------------------------------------- notation answers


def parse(s, faction: str, text: str):
    return g.parse_action(s, seat(s, faction), text)


def main_jews():
    s = board(turn_of(fresh(), "jews"), {"jerusalem": {"jews": 2}, "galilaea": {"jews": 1}})
    return dice(s, "jews", [2, 3])


def test_text_after_a_command_word_not_understood() -> None:
    """RULINGS.md R19 (ending the Main Phase): `end` followed by other text is refused, saying
    the text after `end` was not understood rather than that `end` is unknown."""
    with pytest.raises(GameError) as e:
        parse(main_jews(), "jews", "end; rm -rf /")
    assert "The text after 'end' ('rm -rf /') was not understood" in str(e.value)
    assert "Unknown action 'end'" not in str(e.value)


def test_unknown_word_is_shown_and_long_input_shortened() -> None:
    """Notation: the word typed is echoed (shortened), never an empty or 5,000-character echo."""
    with pytest.raises(GameError, match="Unknown action '💀'"):
        parse(main_jews(), "jews", "💀 end")
    with pytest.raises(GameError) as e:
        parse(main_jews(), "jews", "x" * 5000)
    assert len(str(e.value)) < 300 and "…" in str(e.value)


def test_ambiguous_territory_prefers_the_legal_one() -> None:
    """Jewish Revolt (Power Card) is played in a territory: of Galatia, Galilaea and Gallia only
    Galilaea is legal here, so `gal` reads as Galilaea."""
    s = turn_of(board(fresh(), {"galilaea": {"rome": 1}}), "jews", "start")
    s = set_f(s, "jews", hand=("jewish-revolt",))
    assert parse(s, "jews", "play jewish in gal").territory == "galilaea"


def test_place_final_units_lists_legal_territories() -> None:
    """RULINGS.md R4: Rome places its final units one at a time, where it has units or a marker;
    a count is refused with the form to use, and a name that fits no legal territory lists the
    legal ones, not all 31."""
    s = turn_of(fresh(), "rome").model_copy(update={"phase": "final", "final_left": 3})
    s = board(s, {"italia": {"rome": 2}, "syria": {"rome": 1}})
    with pytest.raises(GameError, match="one at a time: place Italia"):
        parse(s, "rome", "place 3 Italia")
    with pytest.raises(GameError, match="none is legal here; legal: Italia, Syria"):
        parse(s, "rome", "place Gal")
    with pytest.raises(GameError, match="legal here: Italia, Syria"):
        parse(s, "rome", "place Nowhere")


def test_recruit_example_built_from_the_die() -> None:
    """Recruit Units: a die recruits 1 unit per pip; the refusal's example recruits no more
    than the die, into territories where recruiting is legal."""
    with pytest.raises(IllegalActionError) as e:
        act(main_jews(), "jews", parse(main_jews(), "jews", "recruit 2: 3 Jerusalem"))
    assert str(e.value) == "Recruit 1 to 2 units with a 2, not 3; e.g. recruit 2: 1 Galilaea, 1 Jerusalem."


def test_own_factions_never_fight_two_players() -> None:
    """2-Player Rules: "Factions controlled by the same player CANNOT attack each other."
    (RULINGS.md R7): the refusal says so."""
    s = board(fresh(2), {"jerusalem": {"jews": 2, "rome": 2}})
    s = dice(turn_of(s, "rome"), "rome", [4])
    with pytest.raises(IllegalActionError, match="both your factions.*never fight each other"):
        act(s, "rome", parse(s, "rome", "attack 4: Jewish in Jerusalem"))


def test_one_roll_left_is_singular() -> None:
    """Roll and Ready (3 rolls): the prompt says "1 roll left", not "1 rolls left"."""
    s = start(g, [0, 1, 2, 3], Options(), 7).state
    while s.rolling is None or s.rolling.rerolls != 1:
        f = next(x for x in range(4) if g.acting(s, x) is not None)
        acts = g.legal_actions(s, f)
        pick = next((a for a in acts if type(a).__name__ == "Reroll"), acts[0])
        s = g.apply(s, f, pick, FixedRng()).state
    text = " ".join(p.text for p in g.to_act(s).values())
    assert "(1 roll left)" in text and "1 rolls" not in text


def test_no_rolls_left_does_not_offer_a_reroll() -> None:
    """Roll and Ready (3 rolls): once the rolls are spent the prompt asks only to ready the dice."""
    s = start(g, [0, 1, 2, 3], Options(), 7).state
    while s.rolling is None or s.rolling.rerolls != 0:
        f = next(x for x in range(4) if g.acting(s, x) is not None)
        acts = g.legal_actions(s, f)
        pick = next((a for a in acts if type(a).__name__ == "Reroll"), acts[0])
        s = g.apply(s, f, pick, FixedRng()).state
    text = " ".join(p.text for p in g.to_act(s).values())
    assert "no rolls left: ready your Dice Sequence" in text and "reroll" not in text


# --------------------------------------------------------------------------- status text


def test_status_text_in_words() -> None:
    """Setup step 3-4 (Rome delays its final units) and the Dice Sequence: the status text
    names the setup steps and the dice in words, factions in play order (RULINGS.md R1)."""
    s = turn_of(fresh(), "rome").model_copy(update={"phase": "final", "final_left": 3})
    assert summary(g, g.view(s, None)).splitlines()[0] == "Setup: Rome's final units."
    s = dice(turn_of(fresh(), "coalition"), "coalition", [3, 4, 5, 2], [True, True, True, False])
    d = list(s.factions["coalition"].dice)
    d[4] = Die(value=5, place="marker", on="hispania")
    s = set_f(s, "coalition", dice=tuple(d))
    r = list(s.factions["rome"].dice)
    r[0] = Die(value=4, place="power")
    s = set_f(s, "rome", dice=tuple(r))
    text = summary(g, g.view(s, None))
    lines = text.splitlines()
    assert lines[0] == "Round 1, Main Phase — the Coalition turn."
    assert "dice: sequence 3 4 5, outside the sequence 2, 5 on the marker in Hispania" in text
    assert "4 paid for a card" in text
    assert "@" not in text and "(buy)" not in text and "*" not in text
    names = [x.split(" (seat")[0].strip() for x in lines if "(seat" in x]
    assert names[:4] == [g.fname(f) for f in s.order]


def test_final_unit_refusal_names_what_is_wrong_with_the_territory() -> None:
    """Setup (RULINGS.md R4): Rome's final units go where Rome has units or a marker lies, at
    most 6 ("Important Terms": at most 6 units of a faction in a territory). A refused
    territory is named with its own reason (full, or neither units nor a marker), the legal
    ones listed; nothing changes."""
    from games.soul_of_the_empire.actions import PlaceMarker, PlaceUnit

    s = start(g, [0, 1, 2, 3], Options(), 3).state
    while s.phase == "markers":
        who = next(iter(g.to_act(s)))
        spot = next(a for a in g.legal_actions(s, who) if isinstance(a, PlaceMarker))
        s = g.apply(s, who, spot, FixedRng()).state
    assert s.phase == "final" and s.final_left == 8
    rome = seat(s, "rome")
    s = board(s, {**s.board, "rome": {**s.board["rome"], "rome": 6}})
    before = s.model_dump()
    with pytest.raises(IllegalActionError) as e:
        g.apply(s, rome, PlaceUnit(territory="rome"), FixedRng())
    assert e.value.message.startswith("Rome already has 6 units in Rome, the most a territory holds; ")
    assert "choose: " in e.value.message and "Italia" in e.value.message.split("choose: ")[1]
    assert "Rome," not in e.value.message.split("choose: ")[1]
    empty = next(t for t in g.data.territories if units(s, t, "rome") == 0 and g.marker_at(s, t) is None)
    with pytest.raises(IllegalActionError) as e:
        g.apply(s, rome, PlaceUnit(territory=empty), FixedRng())
    assert e.value.message.startswith(f"{g.tname(empty)} holds no Roman unit and no Objective Point Marker; ")
    assert s.model_dump() == before


def test_unknown_conversion_source_lists_the_supply_too() -> None:
    """Resolving Combat: the Christian units replacing the removed ones come "from their
    supply, from the Roman Captured Unit Space, or from other locations on the board"
    (RULINGS.md R10). A source that names none of them is answered with the legal sources,
    supply and captured first, not with the territories alone."""
    s = board(fresh(), {"syria": {"rome": 4, "christians": 1}, "galatia": {"christians": 2}})
    s = set_f(s, "rome", captured={"christians": 1}, capture_track=1)
    t = fight(s, "rome", "christians", "syria", "legio", "sermon-on-the-mount")
    assert t.conversion is not None and t.conversion.count == 4
    before = t.model_dump()
    with pytest.raises(GameError) as e:
        parse(t, "christians", "convert 2 mars")
    assert e.value.message == (
        "No source called 'mars'; convert from: supply, captured, Galatia (e.g. convert 2 supply)."
    )
    assert t.model_dump() == before
    t2 = set_f(t, "christians", supply=0)
    with pytest.raises(GameError) as e:
        parse(t2, "christians", "convert 1 mars")
    assert "convert from: captured, Galatia (e.g." in e.value.message
    assert parse(t, "christians", "convert 2 supply, 1 galatia").sources == (("supply", 2), ("galatia", 1))


# --------------------------------------------------------------------------- newcomer answers


def final_units(cells: dict[str, dict[str, int]]):
    """Rome placing its final units (RULINGS.md R4) with units in ``cells``."""
    s = turn_of(fresh(), "rome").model_copy(update={"phase": "final", "final_left": 3})
    return board(s, cells)


def test_a_shortened_command_word_gets_the_same_answer_as_the_full_word() -> None:
    """Galatia, Galilaea and Gallia all start with `gal`; Rome may place in Galilaea and Gallia
    only (RULINGS.md R4). `plac gal` is answered as `place gal` is: the legal two, and Galatia
    said not to be legal; a name fitting one legal territory alone reads as it with any prefix."""
    s = final_units({"italia": {"rome": 2}, "galilaea": {"rome": 1}, "gallia": {"rome": 1}})
    answers = set()
    for verb in ("place", "plac", "pla", "p", "PLACE"):
        with pytest.raises(GameError) as e:
            parse(s, "rome", f"{verb} gal")
        answers.add(e.value.message)
    assert answers == {"'gal' could be Galilaea, Gallia (Galatia is not legal here); which territory?"}
    s = final_units({"italia": {"rome": 2}, "gallia": {"rome": 1}})
    assert {parse(s, "rome", f"{v} gal").territory for v in ("place", "plac", "pl")} == {"gallia"}


def test_a_command_word_typed_alone_asks_for_what_is_missing() -> None:
    """`place` (and `plac`) alone asks where, listing the legal territories, rather than saying
    no territory is called ''; `buy` alone asks which die, with the legal purchases."""
    s = final_units({"italia": {"rome": 2}, "syria": {"rome": 1}})
    for typed in ("place", "plac", "place  "):
        with pytest.raises(GameError) as e:
            parse(s, "rome", typed)
        assert e.value.message == "place where? legal: Italia, Syria."
    s = dice(main_jews(), "jews", [2, 3], seq=[True, False])
    with pytest.raises(GameError) as e:
        parse(s, "jews", "buy")
    assert e.value.message.startswith("buy with which die? legal: buy 2") and "''" not in e.value.message


def rolled(values: list[int]):
    """Rome rolling and readying (no rerolls left) with ``values`` rolled."""
    from games.soul_of_the_empire.model import Rolling

    s = set_f(fresh(), "rome", dice=tuple(Die(value=v, place="unspent") for v in values))
    return s.model_copy(update={"phase": "end", "rolling": Rolling(faction="rome", dice=(0, 1, 2, 3, 4), rerolls=0)})


def notes(s, faction: str, text: str) -> list[str]:
    return [e.text for e in g.apply(s, seat(s, faction), parse(s, faction, text), FixedRng()).events if e.text]


def test_ready_one_die_of_a_pair_is_what_was_typed_and_the_note_says_so() -> None:
    """Using Your Dice: a Dice Sequence is a set or a run, so with two 6s rolled both `ready 6`
    and `ready 6 6` are legal. `ready 6` is the first as the notation writes it, so it readies
    one 6; the table is told the sequence holds 1 die and the other 6 stays outside it."""
    s = rolled([6, 2, 6, 1, 3])
    assert len(parse(s, "rome", "ready 6").dice) == 1 and len(parse(s, "rome", "ready 6 6").dice) == 2
    assert "Rome readied the Dice Sequence 6 (1 die; the other 6 stays outside it)." in notes(s, "rome", "ready 6")
    assert "Rome readied the Dice Sequence 6 6." in notes(s, "rome", "ready 6 6")
    assert "Rome readied the Dice Sequence 1 2 3." in notes(s, "rome", "ready 1 2 3")
    s = rolled([4, 4, 1, 4, 3])
    assert "Rome readied the Dice Sequence 4 (1 die; two other 4s stay outside it)." in notes(s, "rome", "ready 4")


def test_a_refused_ready_lists_the_sequences_as_help_writes_them() -> None:
    """A refused `ready` (neither a set nor a run) lists what could be readied in the order and
    the form of the legal actions: `3 4`, not `4 3`."""
    s = rolled([1, 4, 4, 3, 4])
    with pytest.raises(IllegalActionError) as e:
        act(s, "rome", parse(s, "rome", "ready 1 3"))
    legal = [g.format_action(s, a).removeprefix("ready ") for a in g.legal_actions(s, seat(s, "rome"))
             if type(a).__name__ == "Ready"]
    assert e.value.message.endswith("you could ready: " + ", ".join(legal) + ".")
    assert "3 4" in legal and "4 3" not in e.value.message


def test_one_point_is_singular_in_the_status_text() -> None:
    """The status line of a faction with 1 Objective Point says "1 pt", with 2 "2 pts"."""
    s = set_f(set_f(fresh(), "rome", points=1), "jews", points=2)
    text = summary(g, g.view(s, None))
    assert "Rome (seat 1): 1 pt;" in text and "Jewish (seat 3): 2 pts;" in text and "1 pts" not in text


def test_circus_maximus_counts_one_piece_in_the_singular() -> None:
    """Circus Maximus: "Take any 4 non-Roman pieces off the board"; taking 1 is told as "1
    piece captured", 2 as "2 pieces"."""
    s = board(dice(turn_of(fresh(), "rome"), "rome", [2, 3]), {"dacia": {"coalition": 2}, "rome": {"rome": 2}})
    s = set_f(s, "rome", hand=("circus-maximus",))
    assert "Circus Maximus: 1 piece captured (capture track 1)." in notes(s, "rome", "play Circus Maximus: Coalition in Dacia")
    two = notes(s, "rome", "play Circus Maximus: Coalition in Dacia, Coalition in Dacia")
    assert "Circus Maximus: 2 pieces captured (capture track 2)." in two


def test_the_summary_lists_a_marker_alone_or_beside_units_with_single_spaces() -> None:
    """Control Markers (the summary's territory lines): a territory holding only a marker reads
    'Gallia: [Jewish marker]', one with units too 'Gallia: Rome 2 [Jewish marker]'."""
    from games.soul_of_the_empire.model import Marker

    s = fresh().model_copy(update={"markers": (Marker(owner="jews", territory="gallia"),)})
    s = board(s, {"gallia": {}})
    alone = summary(g, g.view(s, None))
    with_units = summary(g, g.view(board(s, {"gallia": {"rome": 2}}), None))
    assert "Gallia: [Jewish marker]" in alone and "  [" not in alone
    assert "Gallia: Rome 2 [Jewish marker]" in with_units
