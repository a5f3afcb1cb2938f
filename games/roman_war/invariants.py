"""Roman War conservation invariants (rule text: the Roman decks and the Hannibal deck;
RULINGS.md R4 for the 30-card starter decks and the Hannibal deck's counts).

- Roman cards: the cards of the seated starter decks (30 each) are in a Roman's deck,
  hand, discard pile or Cost Zone, in play (Encampments and Tokens, and the Tokens
  attached to them), or on the stack while they resolve; cards may pass between
  Romans, so the team's cards are counted together.
- Hannibal cards: the Hannibal deck's cards are in its deck, its discard pile, the
  duel Hannibal's hand, the pile of defended Ambushes, the Ambushes waiting in the
  Defense step, the Hannibal's Encampments in play, or on the stack (an Ambush
  answered there).
- Power is never negative; a Maneuver level is 0 to 3 (R1).
"""

from __future__ import annotations

from itertools import chain
from typing import Any

from games.core.invariants import ledger


def check(game: Any, s: Any) -> list[str]:
    """The violations in ``s`` (empty when sound); see the module docstring."""
    d = game.data
    roman: dict[str, tuple[str, ...]] = {}
    for x, r in enumerate(s.romans):
        who = f"Roman {x + 1} ({r.commander})"
        roman[f"{who}'s deck"] = r.deck
        roman[f"{who}'s hand"] = r.hand
        roman[f"{who}'s discard pile"] = r.discard
        roman[f"{who}'s Cost Zone"] = tuple(c.card for c in r.cost_zone)
        roman[f"{who}'s cards in play"] = tuple(f.card for f in r.field)
        roman[f"{who}'s attached Tokens"] = tuple(chain.from_iterable(f.attached for f in r.field))
    roman["the stack"] = tuple(i.card for i in s.stack if i.kind == "card")
    problems = ledger("Roman card", chain.from_iterable(d.deck_list(r.deck_id) for r in s.romans), roman)
    hannibal = {
        "the Hannibal deck": s.hannibal_deck,
        "the Hannibal discard pile": s.hannibal_discard,
        "the Hannibal hand": s.hannibal_hand,
        "the defended Ambushes": s.defended_pile,
        "the Ambushes in the Defense step": tuple(a.card for a in s.ambushes),
        "the Hannibal's Encampments": tuple(e.card for e in s.encampments),
        "the stack": tuple(i.card for i in s.stack if i.kind == "ambush"),
    }
    problems += ledger("Hannibal card", d.hannibal_deck, hannibal)
    for x, r in enumerate(s.romans):
        if r.power < 0:
            problems.append(f"Roman {x + 1} has Power {r.power}")
        if not 0 <= r.maneuver <= 3:
            problems.append(f"Roman {x + 1} has Maneuver level {r.maneuver}")
    return problems


def fuzz_variants(game: Any, players: int) -> list[dict[str, Any]]:
    """The option sets the fuzz covers: co-op with and without level abilities, the
    solo Target-Change fee at C1-C3, the manual-adjust house rule, and the duel (2+
    seats) with one Hannibal seat or more (R17: 2 v 2, 1 v 2, 1 v 3)."""
    out: list[dict[str, Any]] = [{}, {"level_abilities": False}, {"manual": True}]
    if players == 1:
        out += [{"fee": 2}, {"fee": 3}]
    else:
        out += [{"mode": "duel"}, {"mode": "duel", "level_abilities": False}]
        out += [{"mode": "duel", "hannibals": h} for h in range(2, players)]
    return out
