"""Soul of the Empire: the choices the rule text gives a player are among the legal actions
offered (what the buttons show), not only accepted when typed. Each test quotes its sentence of
the rule text (shared/seeds/000_ee59181bd146d771.txt).
"""

from __future__ import annotations

from games.soul_of_the_empire.model import Attack
from tests.games.soul_of_the_empire.test_soul_of_the_empire_rules import board, dice, fresh, g, seat, turn_of


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
