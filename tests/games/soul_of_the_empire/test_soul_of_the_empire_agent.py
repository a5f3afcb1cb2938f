"""The Soul of the Empire heuristic player: whole games between heuristic agents end
without error, and the agent plays each faction's own way to win (Winning The Game,
Main Phase Actions and Scoring in shared/seeds/000_ee59181bd146d771.txt).
"""

from __future__ import annotations

import pytest

from bot.commands.simulate import play_ai_game
from games.core import Rng, apply_at, start
from games.core.agents import make_agent
from games.soul_of_the_empire import lookahead
from games.soul_of_the_empire.agent import HeuristicAgent
from games.soul_of_the_empire.game import GAME
from games.soul_of_the_empire.model import Block, Claim, ClaimMarker, Marker, Move, Recruit, State
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


def _main_phase_positions(players: int, seed: int, every: int) -> list[tuple[State, str]]:
    """Every ``every``-th position of a heuristic game where the agent chooses a Main Phase
    action, with the faction on move."""
    agents = [make_agent(g, "heuristic", seed + x) for x in range(players)]
    s = start(g, list(range(players)), g.Options(), seed).state
    out, asked, step = [], 0, 0
    while g.outcome(s) is None:
        seat_ = min(g.to_act(s))
        if g.flow.current(g, s).name == "main":
            asked += 1
            if asked % every == 0:
                out.append((s, g.acting(s, seat_)))
        step += 1
        s = apply_at(g, s, seat_, agents[seat_].choose(g, s, seat_), seed, step).state
    return out


@pytest.mark.parametrize(("players", "seed"), [(4, 21), (3, 8), (2, 5)])
def test_look_ahead_of_moves_and_recruits_matches_apply(players: int, seed: int) -> None:
    """The agent looks ahead at a Main Phase move or recruit without a full apply
    (games/soul_of_the_empire/lookahead.py): Moving Units and Recruit Units change the
    board, and the rest of what they do (the die Spent, the supply, a Promised Land or
    Gospel window, Grace) is read by no part of the evaluation. Over positions of whole
    games, every legal move and recruit is accepted by ``apply``, leaves the board worked
    out there, and evaluates the same for the faction on move (with the progress on the
    objectives whose territories it leaves alone taken from the position before, and the units
    on the map counted from those before); where the worked-out board gives some faction the
    win, the full apply decides, and where it gives none, no faction has won after apply."""
    agent = HeuristicAgent(0)
    checked = reused = 0
    for s, f in _main_phase_positions(players, seed, every=4):
        acts = [a for a in g.legal_actions(s, s.factions[f].seat) if isinstance(a, (Move, Recruit))]
        for a in acts[:: max(1, len(acts) // 20)]:
            full = g.apply(s, s.factions[f].seat, a, Rng(0, 0)).state
            quick = lookahead.after(g, s, f, a)
            if quick is None:
                assert full.phase == "over" or any(g.faction_wins(full, x) for x in full.order)
                continue
            assert full.phase != "over"
            assert not any(g.faction_wins(full, x) for x in full.order)
            assert quick.board == full.board
            # the progress on the objectives it leaves alone is the one worked out on s, and
            # the units on the map those of s (a recruit's added)
            known = agent.unchanged(g, s, f, lookahead.touched(a), {})
            units = lookahead.units(f, a, agent.map_units(g, s, f))
            assert units == agent.map_units(g, full, f)
            assert agent.value(g, quick, f, known, units) == agent.value(g, full, f)
            reused += bool(known)
            checked += 1
    assert checked > 100 and reused > 50


def test_look_ahead_leaves_a_winning_move_to_apply() -> None:
    """Winning The Game (the Coalition's special victory: Rome and Italia alone): a move
    after which a faction has won is looked ahead by the full apply, which ends the game."""
    s = board(turn_of(fresh(), "coalition"), {"rome": {"coalition": 2}, "gallia": {"coalition": 3}})
    s = dice(s, "coalition", [1])
    a = next(
        a
        for a in g.legal_actions(s, seat(s, "coalition"))
        if isinstance(a, Move) and a.paths[0].route[-1] == "italia"
    )
    assert lookahead.after(g, s, "coalition", a) is None
    assert g.apply(s, seat(s, "coalition"), a, Rng(0, 0)).state.phase == "over"


def test_moves_listed_are_those_worked_out_from_the_routes() -> None:
    """Moving Units: each Main Phase Move is one group along one shortest route within the
    die's points (RULINGS.md R5). The listing hands out remembered Move objects
    (rules.main._made_moves); over positions of a whole game, its Moves are, in order, those
    worked out afresh: for each Sequence die, each start its units may leave, each route
    from it (``reach``), 1 unit up to the units there, the room at the end and the die's
    points."""
    checked = 0
    for s, f in _main_phase_positions(4, 21, every=2):
        fs = s.factions[f]
        seq = g.seq_dice(s, f)
        if not seq:
            continue
        most = max(fs.dice[i].value for i in seq)
        expected = []
        for i in seq:
            v = fs.dice[i].value
            for t in g.territories_of(s, f):
                if g.blocked_leave(s, t, f):
                    continue
                for route in g.reach(s, t, f, most).values():
                    n = min(g.units(s, t, f), g.room(s, route[-1], f), v // (len(route) - 1))
                    expected += [(i, route, k) for k in range(1, n + 1)]
        listed = [
            (a.die, a.paths[0].route, a.paths[0].count)
            for a in g.legal_actions(s, s.factions[f].seat)
            if isinstance(a, Move) and not a.gray
        ]
        assert listed == expected
        checked += 1
    assert checked > 20
