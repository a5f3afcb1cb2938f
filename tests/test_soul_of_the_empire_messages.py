"""Messages of Soul of the Empire a player reads: plunder, combat results, salvage, the
conversion tracker, notation answers and the status text.

Each test names the rule text section (shared/seeds/000_ee59181bd146d771.txt) or the ruling
(games/soul_of_the_empire/RULINGS.md) it checks.
"""

from __future__ import annotations

import pytest

from games.core import IllegalActionError
from games.soul_of_the_empire.model import CardsDrawn, Note, Plunder
from games.soul_of_the_empire.text import summary
from tests.test_soul_of_the_empire_rules import (
    FixedRng,
    act,
    board,
    fight,
    fresh,
    g,
    seat,
    set_f,
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
    assert r.state.last_combat.text.endswith("Plunder: Rampage! 3 Coalition units sweep into Italia; Coalition Rage falls to 0.")
    e = g.apply(s, seat(s, "coalition"), Plunder(option="exploit"), FixedRng())
    assert any("discards Circus Maximus" in n.text and "Rage falls to 0" in n.text for n in e.events if isinstance(n, Note))


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


def test_salvage_not_offered_with_nothing_to_take() -> None:
    """RULINGS.md R14: a hand holding only cards that may not be stolen gives nothing to
    Salvage, so Salvage is not offered and is refused with the reason."""
    s = board(fresh(), {"gallia": {"rome": 1, "coalition": 4}})
    s = set_f(s, "coalition", rage=2)
    s = set_f(s, "rome", hand=("crucify",), durable=())
    s = fight(s, "coalition", "rome", "gallia", "berserker-charge", "pax-deorum")
    opts = g.legal_actions(s, seat(s, "coalition"))
    assert Plunder(option="salvage") not in opts and Plunder(option="exploit") in opts
    with pytest.raises(IllegalActionError, match="may take"):
        act(s, "coalition", Plunder(option="salvage"))


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
    r = g.apply(s, seat(s, "coalition"), Plunder(option="salvage"), FixedRng())
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
    assert s.factions["christians"].converted == 18
    assert "tracker 18" in s.last_combat.text
    text = summary(g, g.view(s, None))
    assert "converted 18/18; special victory needs units in Rome, Jerusalem, Germania (missing Rome, Jerusalem, Germania)" in text
    assert units(s, "syria", "christians") > 1
