"""Conservation of Soul of the Empire's components (games/soul_of_the_empire/invariants.py) in
positions the random-agent fuzz reached, built from a real setup so that every unit, die and card
is somewhere; each test cites the sentence of the rule text
(shared/seeds/000_ee59181bd146d771.txt) that says where the component goes.
"""

from __future__ import annotations

from games.core import start
from games.soul_of_the_empire import invariants
from games.soul_of_the_empire.game import Options
from games.soul_of_the_empire.model import Done, Ready, Regroup, State, TakeUnit
from tests.games.soul_of_the_empire.test_soul_of_the_empire_rules import SEED, act, board, dice, g, set_f


def set_up(players: int = 4) -> State:
    """A real setup (every component in its place) skipped to the Main Phase, Rage at 0."""
    s = start(g, list(range(players)), Options(), SEED).state
    s = set_f(s, "coalition", rage=0)
    s = s.model_copy(update={"phase": "main", "markers_to_place": (), "rolling": None, "roll_queue": ()})
    assert invariants.check(g, s) == []
    return s


def coalition_end_phase(s: State, cells: dict[str, dict[str, int]]) -> State:
    """The Coalition's End Phase with ``cells`` as the whole board, rolled and readied (one
    die): the scoring steps that follow "Roll and ready your dice" run."""
    s = board(s.model_copy(update={"turn": s.order.index("coalition"), "phase": "end"}), cells)
    s = dice(s, "coalition", [1])
    s = act(s, "coalition", Done(), rolls=[5])
    return act(s, "coalition", Ready(dice=(0,)))


def test_region_scoring_puts_the_unit_on_the_faction_board() -> None:
    """Score Sole Occupancy of a Region and Regroup: "After scoring, the Coalition player must
    take 1 unit from that region and place it in the appropriate spot on their faction board."
    The unit leaves the map for the faction board, where it is still one of the Coalition's 25
    units ("25 Coalition units (green)"): nothing vanishes, before the regroup or after it (the
    fuzz found the count 24 after the Coalition scored Hispania, Gallia and Britannia)."""
    cells = {"britannia": {"coalition": 1}, "gallia": {"coalition": 2}, "hispania": {"coalition": 2}}
    s = coalition_end_phase(set_up(), cells)
    assert invariants.check(g, s) == []  # asked where the unit comes from: still on the map
    s = act(s, "coalition", TakeUnit(territory="hispania"))
    co = s.factions["coalition"]
    assert co.regions_scored == ("yellow",) and g.on_board(s, "coalition") == 4
    assert co.supply + g.on_board(s, "coalition") == 24  # the 25th is on the faction board
    assert invariants.check(g, s) == []
    s = act(s, "coalition", Regroup(territory="britannia", sources=(("gallia", 2), ("hispania", 1))))
    assert s.board["britannia"] == {"coalition": 4} and invariants.check(g, s) == []


def test_two_regions_two_units_on_the_faction_board() -> None:
    """Score Sole Occupancy of a Region: one unit per region scored goes to the faction board
    ("take 1 unit from that region"), so two regions scored at once leave two there; the
    conservation count holds with two, and would not with one unit lost or kept on the map."""
    blue = {t: {"coalition": 1} for t in g.data.region_territories("blue")}
    yellow = {t: {"coalition": 1} for t in g.data.region_territories("yellow")}
    s = coalition_end_phase(set_up(), {**blue, **yellow})
    while s.regroup is not None:
        s = act(s, "coalition", g.legal_actions(s, g.seat_of(s, "coalition"))[-1])
    co = s.factions["coalition"]
    assert sorted(co.regions_scored) == ["blue", "yellow"]
    assert co.supply + g.on_board(s, "coalition") == 23
    assert invariants.check(g, s) == []
