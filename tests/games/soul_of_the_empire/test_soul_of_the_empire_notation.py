"""Soul of the Empire notation: round trips over playouts, and fuzzed text gives a legal
action or a GameError, never another exception, and never changes the state."""

from __future__ import annotations

import random

from games.core import GameError, apply_at, start
from games.core.agents import make_agent
from games.soul_of_the_empire.game import GAME, Options

g = GAME
WORDS = [
    "move",
    "recruit",
    "attack",
    "claim",
    "buy",
    "marker",
    "block",
    "rage",
    "play",
    "commit",
    "reroll",
    "ready",
    "retrieve",
    "unblock",
    "discard",
    "objective",
    "rampage",
    "salvage",
    "exploit",
    "shift",
    "redirect",
    "end",
    "done",
    "pass",
    "gray",
    "yellow",
    "to",
    "in",
    "on",
    "Rome",
    "Italia",
    "Jerusalem",
    "Dacia",
    "Gall",
    "Coalition",
    "Jewish",
    "Christian",
    "Pax",
    "1",
    "2",
    "3",
    "6",
    "3+1",
    ":",
    ",",
    "-",
    "Rome-Italia",
    "2 Rome-Italia-Gallia",
    "é",
    "",
]


def _states(seed: int, players: int, steps: int = 160) -> list:
    s = start(g, list(range(players)), Options(round_limit=4), seed).state
    out = [s]
    agents = [make_agent(g, "heuristic", seed + x) for x in range(players)]
    for n in range(1, steps):
        if g.outcome(s) is not None:
            break
        seat = min(g.to_act(s))
        s = apply_at(g, s, seat, agents[seat].choose(g, s, seat), seed, n).state
        if n % 8 == 0:
            out.append(s)
    return out


def test_round_trip_every_legal_action() -> None:
    """parse_action(format_action(a)) == a for every legal action (ARCHITECTURE.md, "Notation")."""
    for seed, players in ((1, 4), (2, 2), (3, 3)):
        for s in _states(seed, players):
            for seat in g.to_act(s):
                legal = g.legal_actions(s, seat)
                for i in range(0, len(legal), max(1, len(legal) // 60)):
                    a = legal[i]
                    assert g.parse_action(s, seat, g.format_action(s, a)) == a


def test_fuzzed_text() -> None:
    """Any text gives an action or a GameError; the state is unchanged."""
    rnd = random.Random(7)
    for s in _states(4, 4)[:12]:
        before = s.model_dump()
        for seat in range(4):
            for _ in range(60):
                text = " ".join(rnd.choice(WORDS) for _ in range(rnd.randrange(1, 7)))
                try:
                    g.parse_action(s, seat, text)
                except GameError as e:
                    assert e.message
        assert s.model_dump() == before


def test_a_command_word_not_legal_now_is_named_with_the_legal_ones() -> None:
    """A readable command that is not legal now (claiming a marker while Rome places its final
    units) says so and lists the command words legal now, instead of a notation hint for it."""
    from games.core import IllegalActionError, Rng

    s = start(GAME, [0, 1, 2, 3], Options(), 11).state
    while s.phase == "markers":
        seat = min(GAME.to_act(s))
        s = GAME.apply(s, seat, GAME.legal_actions(s, seat)[0], Rng(1, 1)).state
    assert s.phase == "final"
    try:
        GAME.parse_action(s, 0, "marker Italia")
    except IllegalActionError as e:
        assert e.message.startswith("'marker' is not possible now: the question now is “Setup: place"), e.message
        assert "; legal now: place (e.g. place " in e.message
    else:
        raise AssertionError("marker was accepted during the final placement")
