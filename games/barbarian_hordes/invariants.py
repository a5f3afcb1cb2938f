"""Barbarian Hordes conservation invariants (rule text: THE DECK, TOKENS, SETUP, DEFEAT).

- "The deck contains one of each card listed": every card of the CARD LIST is in
  exactly one place: the deck, the discard pile, a hand, or, once war commitments are
  revealed (RULINGS.md R6), committed to the war in progress.
- Territory Tokens: "Each player starts with ... 5 Territory Tokens", "The Winner
  takes a Territory Token from his opponent", and a player wiped out who re-enters
  starts again with 5; so the players hold 5 per nation taken, no more, no less, and
  nobody holds a negative number.
- Army Tokens are not counted by the text (the supply is unlimited): never negative.
- "1 Unique Nation": no nation is held by two players, and every nation held is one
  of those recorded as played.
"""

from __future__ import annotations

from typing import Any

from games.core.english import count
from games.core.invariants import ledger, total

from .queries import START_TERRITORIES


def places(s: Any) -> dict[str, tuple[str, ...]]:
    """Where the cards are: place name -> card ids."""
    out: dict[str, tuple[str, ...]] = {"deck": s.deck, "discard pile": s.discard}
    for x, p in enumerate(s.players):
        out[f"seat {x + 1}'s hand"] = p.hand
    war = s.war
    if war is not None and war.stage == "negate":
        for c in war.contributions:
            out[f"seat {c.seat + 1}'s war commitment"] = c.cards + ((c.block,) if c.block else ())
    return out


def check(game: Any, s: Any) -> list[str]:
    """The violations in ``s`` (empty when sound); see the module docstring."""
    problems = ledger("card", game.data.cards, places(s))
    taken = max(len(s.players), len(s.nations_played))
    problems += total(
        "Territory Tokens",
        START_TERRITORIES * taken,
        {f"seat {x + 1}": p.territories for x, p in enumerate(s.players)},
    )
    for x, p in enumerate(s.players):
        if p.armies < 0:
            problems.append(f"seat {x + 1} holds {count(p.armies, 'Army Token')}")
    held = [p.nation for p in s.players if p.status == "in" and p.nation is not None]
    for n in sorted(set(held)):
        if held.count(n) > 1:
            problems.append(f"nation {n!r} is held by {held.count(n)} players")
        if n not in s.nations_played:
            problems.append(f"nation {n!r} is held but not recorded as played")
    return problems


def fuzz_variants(game: Any, players: int) -> list[dict[str, Any]]:
    """The option sets the fuzz covers: the standard game, the THREE PLAYER VARIANT at 3
    seats, and the round-limit house rule (RULINGS.md R16)."""
    out: list[dict[str, Any]] = [{}]
    if players == 3:
        out.append({"variant": "three-player"})
    out.append({"round_limit": 3})
    return out
