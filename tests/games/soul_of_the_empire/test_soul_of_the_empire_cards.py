"""The authored Power Cards of Soul of the Empire (data/power.toml, ``authored = true``) that
move or recruit without a die, and Synagogue: each test quotes the card's text.

Movement costs follow Move Units: "Each unit costs 1 point to move to 1 adjacent territory."
"""

from __future__ import annotations

import pytest

from games.core import IllegalActionError
from games.soul_of_the_empire.model import Path, PlayPower, Recruit

from .test_soul_of_the_empire_rules import act, board, dice, fresh, g, play, seat, set_f, turn_of, units


def unspent(s, faction: str) -> list[int]:
    return [d.value for d in s.factions[faction].dice if d.place == "unspent"]


def check_round_trip(s, faction: str, a: PlayPower) -> None:
    text = g.format_action(s, a)
    assert g.parse_action(s, seat(s, faction), text) == a, text


@pytest.mark.parametrize(
    ("card", "faction", "points"),
    [("roman-roads", "rome", 4), ("caravan", "jews", 3), ("missionary-journey", "christians", 4)],
)
def test_movement_cards_move_with_their_points_without_spending_a_die(
    card: str, faction: str, points: int
) -> None:
    """Roman Roads: "Move Roman units with 4 movement points without spending a die."
    Caravan: "... Jewish units with 3 movement points ...". Missionary Journey: "... Christian
    units with 4 movement points ...". Each unit costs 1 point per territory entered."""
    s = board(fresh(), {"hispania": {faction: 4}})
    s = dice(turn_of(s, faction), faction, [2, 3])
    # `points` units one step each uses every point
    a = PlayPower(card=card, paths=(Path(count=points, route=("hispania", "gallia")),))
    s = set_f(s, faction, hand=(card,))
    check_round_trip(s, faction, a)
    after = act(s, faction, a)
    assert units(after, "gallia", faction) == points and units(after, "hispania", faction) == 4 - points
    assert unspent(after, faction) == [2, 3], "no die is spent"
    assert card not in after.factions[faction].hand and card in after.factions[faction].discard
    # one more point than the card gives is refused, and nothing changes
    route = ("hispania", "gallia", "italia", "pannonia", "dacia", "sarmatia")[: points + 2]
    too_far = PlayPower(card=card, paths=(Path(count=1, route=route),))
    with pytest.raises(
        IllegalActionError, match=f"costs {points + 1} points; you have {points} movement points"
    ):
        act(s, faction, too_far)


def test_roman_roads_divides_its_points_between_groups() -> None:
    """Roman Roads with Move Units: "Movement points may be divided in any way the player
    decides" — 2 units 1 territory and 1 unit 2 territories use the 4 points."""
    s = board(fresh(), {"hispania": {"rome": 3}})
    s = set_f(turn_of(s, "rome"), "rome", hand=("roman-roads",))
    a = PlayPower(
        card="roman-roads",
        paths=(
            Path(count=2, route=("hispania", "gallia")),
            Path(count=1, route=("hispania", "gallia", "italia")),
        ),
    )
    after = act(s, "rome", a)
    assert (
        units(after, "gallia", "rome"),
        units(after, "italia", "rome"),
        units(after, "hispania", "rome"),
    ) == (2, 1, 0)


@pytest.mark.parametrize(("card", "faction"), [("legion-levy", "rome"), ("pentecost", "christians")])
def test_recruit_cards_recruit_three_without_a_die(card: str, faction: str) -> None:
    """Legion Levy / Pentecost: "Recruit 3 units without spending a die (the Recruit Units
    placement rules apply)." — only where the faction has units and no Coalition units."""
    s = board(fresh(), {"syria": {faction: 1}, "galatia": {faction: 1, "coalition": 1}})
    s = dice(s, faction, [4])
    supply = s.factions[faction].supply
    with pytest.raises(IllegalActionError):
        play(s, faction, "main", PlayPower(card=card, territories=("galatia", "syria", "syria")))
    after = play(s, faction, "main", PlayPower(card=card, territories=("syria", "syria", "syria")))
    assert units(after, "syria", faction) == 4
    assert after.factions[faction].supply == supply - 3
    assert unspent(after, faction) == [4], "no die is spent"


def test_synagogue_adds_one_unit_to_each_recruit() -> None:
    """Synagogue (Durable): "Whenever you recruit units, recruit 1 more unit (from supply)." A
    2-pip recruit may place 3 Jewish units; without the card 3 is refused."""
    s = board(turn_of(fresh(), "jews"), {"jerusalem": {"jews": 1}})
    s = dice(s, "jews", [2])
    with pytest.raises(IllegalActionError, match="Recruit 1 to 2 units"):
        act(s, "jews", Recruit(die=0, placements=(("jerusalem", 3),)))
    s = set_f(s, "jews", durable=("synagogue",))
    with_card = act(s, "jews", Recruit(die=0, placements=(("jerusalem", 3),)))
    assert units(with_card, "jerusalem", "jews") == 4
