"""Soul of the Empire: the unit on the Gospel card (rule text, Power Cards: "Gospel
(Start). Durable: Choose a faction and place one of their units from supply on this
card."; RULINGS.md R26), found by the random-agent fuzz (``tabula fuzz``)."""

from __future__ import annotations

from games.soul_of_the_empire.model import Plunder
from tests.games.soul_of_the_empire.test_soul_of_the_empire_rules import (
    FixedRng,
    board,
    fight,
    fresh,
    g,
    seat,
    set_f,
)


def test_exploited_gospel_returns_its_unit_to_the_supply() -> None:
    """R26: when Gospel is discarded (here by the Coalition's Exploit), the unit on it goes
    back to its faction's supply and no faction is named any more; no unit vanishes."""
    s = board(fresh(), {"gallia": {"christians": 1, "coalition": 4}})
    rome = s.factions["rome"].supply
    s = set_f(s, "rome", supply=rome - 1)  # the Roman unit placed on the card
    s = set_f(s, "christians", durable=("gospel",), gospel="rome", hand=())
    s = set_f(s, "coalition", rage=2)
    s = fight(s, "coalition", "christians", "gallia", "berserker-charge", "turn-the-other-cheek")
    assert s.combat is not None and s.combat.stage == "plunder"
    after = g.apply(s, seat(s, "coalition"), Plunder(option="exploit", card="gospel"), FixedRng()).state
    assert "gospel" not in after.factions["christians"].durable
    assert after.factions["rome"].supply == rome
    assert after.factions["christians"].gospel is None
