"""Roman War duels with several seats on either side.

Rule text (shared/seeds/001_62f93fed39493365.txt), Duel: "One or more players run Roman decks; one or
more run Hannibal decks, choosing which Ambushes and Encampments to play and who to play them at."
RULINGS.md R17 says how several Hannibal players share the Hannibal side.
"""

from __future__ import annotations

import pytest

from games.core import IllegalActionError, Rng
from games.core.agents import make_agent
from games.roman_war.game import GAME, Options
from render import render_view

from .test_roman_war_helpers import Fixed


def _done_until_hannibal(s):
    """The active Roman says done until a Hannibal phase asks for input."""
    for _ in range(50):
        if s.phase == "hannibal":
            return s
        seat = next(iter(GAME.to_act(s)))
        legal = GAME.legal_actions(s, seat)
        texts = [GAME.format_action(s, a) for a in legal]
        pick = "done" if "done" in texts else "pass" if "pass" in texts else texts[0]
        s = GAME.apply(s, seat, GAME.parse_action(s, seat, pick), Fixed()).state
    raise AssertionError("no Hannibal phase came")


def test_r17_two_v_two_hannibal_seats_take_turns():
    """Duel 2 v 2 ("one or more run Hannibal decks"): seats 3 and 4 are the Hannibal side; they
    share the Hannibal deck and hand and decide the Hannibal phases in turn (R17)."""
    s = GAME.setup([0, 1, 2, 3], Options(mode="duel", hannibals=2), Rng(5, 0)).state
    assert len(s.romans) == 2 and GAME.hannibal_seats(s) == (2, 3)
    assert GAME.who(s, 2) == "Hannibal 3" and GAME.who(s, 3) == "Hannibal 4"
    s = _done_until_hannibal(s)
    assert s.active == 0 and list(GAME.to_act(s)) == [2]
    # both Hannibal players see the side's hand; the Romans do not
    assert GAME.view(s, 2).hannibal_hand is not None and GAME.view(s, 3).hannibal_hand is not None
    assert GAME.view(s, 0).hannibal_hand is None and GAME.view(s, None).hannibal_hand is None
    s = GAME.apply(s, 2, GAME.parse_action(s, 2, "done"), Fixed()).state
    s = _done_until_hannibal(s)
    assert s.active == 1 and list(GAME.to_act(s)) == [3]


def test_r17_three_v_one_and_one_v_three():
    """Duel 3 v 1 (three Roman decks, one Hannibal) and 1 v 3 set up with the seats in order."""
    s = GAME.setup([0, 1, 2, 3], Options(mode="duel"), Rng(5, 0)).state
    assert len(s.romans) == 3 and GAME.hannibal_seats(s) == (3,) and GAME.who(s, 3) == "Hannibal"
    s = GAME.setup([0, 1, 2, 3], Options(mode="duel", hannibals=3), Rng(5, 0)).state
    assert len(s.romans) == 1 and GAME.hannibal_seats(s) == (1, 2, 3)


def test_r17_bad_seat_counts_say_what_is_possible():
    """A duel needs at least one Roman; hannibals is a duel option."""
    with pytest.raises(IllegalActionError, match="at most 2 Hannibal seat"):
        GAME.setup([0, 1, 2], Options(mode="duel", hannibals=3), Rng(5, 0))
    with pytest.raises(IllegalActionError, match="duel option"):
        GAME.setup([0, 1], Options(hannibals=2), Rng(5, 0))


@pytest.mark.parametrize("hannibals", [2, 1])
def test_r17_four_seat_duels_play_to_the_end_with_the_agents(hannibals: int) -> None:
    """2 v 2 and 3 v 1 duels played by the heuristic agents end with a winner side; the Hannibal
    side's win names every Hannibal seat ("the Hannibal side wins by grinding Power to nothing")."""
    seed = 11
    s = GAME.setup([0, 1, 2, 3], Options(mode="duel", hannibals=hannibals), Rng(seed, 0)).state
    agents = {x: make_agent(GAME, "heuristic", seed + x) for x in range(4)}
    step = 0
    while s.phase != "over":
        seat = next(iter(GAME.to_act(s)))
        step += 1
        s = GAME.apply(s, seat, agents[seat].choose(GAME, s, seat), Rng(seed, step)).state
        assert step < 20000
    winners = GAME.outcome(s).winners
    hs = GAME.hannibal_seats(s)
    assert winners in (hs, tuple(range(4 - hannibals)))
    png = render_view(GAME.view(s, hs[-1]), {x: f"P{x + 1}" for x in range(4)})
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
