"""The Soul of the Empire heuristic player: whole games between heuristic agents end
without error, and the agent plays each faction's own way to win (Winning The Game,
Main Phase Actions and Scoring in shared/seeds/000_ee59181bd146d771.txt).
"""

from __future__ import annotations

import pytest

from bot.commands.simulate import play_ai_game
from games.soul_of_the_empire.agent import HeuristicAgent
from games.soul_of_the_empire.game import GAME
from games.soul_of_the_empire.model import Block, Claim, ClaimMarker, Marker
from tests.games.soul_of_the_empire.test_soul_of_the_empire_rules import (
    board,
    dice,
    fresh,
    seat,
    set_f,
    turn_of,
)

g = GAME


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", [3, 11])
def test_heuristic_games_finish(players: int, seed: int) -> None:
    """Winning The Game: a game between heuristic agents ends with a winner ("The first
    player to either achieve their special victory condition or achieve 7 objective
    points wins the game"), without an error."""
    s, steps = play_ai_game(g, players, seed)
    outcome = g.outcome(s)
    assert outcome is not None and outcome.winners
    assert steps > 0


def test_heuristic_games_repeat_for_a_seed() -> None:
    """The same seed gives the same game (agents seeded from the session seed)."""
    a, steps_a = play_ai_game(g, 4, 5)
    b, steps_b = play_ai_game(g, 4, 5)
    assert steps_a == steps_b
    assert a == b


def test_coalition_claims_a_marker_it_holds_alone() -> None:
    """Claim an Objective Point Marker (Coalition Only): any die; scoring requires sole
    occupancy of that territory, so the Coalition claims the marker where it is alone."""
    s = board(turn_of(fresh(), "coalition"), {"gallia": {"coalition": 2}, "hispania": {"rome": 1}})
    s = s.model_copy(update={"markers": (Marker(owner="jews", territory="gallia"),)})
    s = dice(s, "coalition", [2, 3])
    a = HeuristicAgent(1).choose(g, s, seat(s, "coalition"))
    assert a == ClaimMarker(die=0, territory="gallia") or a == ClaimMarker(die=1, territory="gallia")


def test_coalition_blocks_the_leaders_completed_objective() -> None:
    """Block/Unblock an Objective (Coalition Only): exactly 6 pips, on an objective not
    yet claimed; the Coalition blocks the objective the leader (5 points) has done."""
    s = board(turn_of(fresh(), "coalition"), {"jerusalem": {"jews": 4}, "germania": {"coalition": 2}})
    s = s.model_copy(update={"objectives": ("pax-romana",)})
    s = set_f(s, "jews", points=5)
    s = dice(s, "coalition", [6])
    assert g.objective_met(s, "jews", "pax-romana")
    a = HeuristicAgent(1).choose(g, s, seat(s, "coalition"))
    assert a == Block(die=0, card="pax-romana", target="jews")


def test_rome_claims_a_completed_objective() -> None:
    """Claim an Objective Card: any die; Rome's objective on The Temple (3 units in
    Jerusalem, scored in the End Phase) is done, so Rome claims it."""
    s = board(turn_of(fresh(), "rome"), {"jerusalem": {"rome": 3}})
    s = s.model_copy(update={"objectives": ("the-temple",)})
    s = dice(s, "rome", [4])
    a = HeuristicAgent(1).choose(g, s, seat(s, "rome"))
    assert a == Claim(die=0, card="the-temple")


def test_rome_leaves_a_start_phase_objective_a_rival_scores_first() -> None:
    """Order of Play (Start Phase 3) and Scoring a Claimed Objective Card: Rome scores
    "Score in Start Phase" objectives only at its next Start Phase, and a faction that
    scores the card first returns Rome's die. With the Jewish objective on The
    Provinces done too, Rome does not spend a die on its own; without it, Rome claims."""
    cells = {t: {"rome": 1} for t in ("rome", "gallia", "pannonia", "asia", "africa")}
    s = board(turn_of(fresh(), "rome"), cells)
    s = s.model_copy(update={"objectives": ("the-provinces",)})
    s = dice(s, "rome", [4])
    assert g.objective_met(s, "rome", "the-provinces")
    assert HeuristicAgent(1).choose(g, s, seat(s, "rome")) == Claim(die=0, card="the-provinces")
    raced = board(s, {**cells, **{t: {"jews": 2} for t in ("jerusalem", "samaria", "galilaea")}})
    assert g.objective_met(raced, "rome", "the-provinces") and g.objective_met(raced, "jews", "the-provinces")
    for k in range(5):
        a = HeuristicAgent(k).choose(g, raced, seat(raced, "rome"))
        assert not (isinstance(a, Claim) and a.card == "the-provinces")
