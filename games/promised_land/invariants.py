"""Promised Land conservation invariants (rule text: "Components", "Setting Up";
authored counts in ``data/*.toml``; RULINGS.md R4, R5).

- Units: the counters of each colour are in the box (the unit supply), on the map (1
  or 2 per land), or in the hand of the kingdom playing its turn; their number per
  colour never changes. (The unit on the ½ space of the Combat chart is returned to
  the supply when it is paid and only marked by ``Turn.half``, so it counts there.)
- Cities (6) and Temples (2): in the supply or on the map.
- Coins (RULINGS R5: 100 of each metal): in the supply or in the players' hands.
- Artefacts: in the cloth bag, in the face-up array, or owned by a player (face up or
  face down); the bag's 72 never change.
- Kingdom cards: each of the 54 in at most one place (a Book's deck, a hand, the cards
  played); those discarded at the start of a Book are out of the game.
- Patriarchs (Six sets of 6: two of each type per player, R4): never more on the map
  than a player has, never two of one player in one land.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from games.core.invariants import ledger, total

from .queries import CITIES, COIN_SUPPLY, PATRIARCHS_PER_TYPE, TEMPLES

METALS = ("bronze", "silver", "gold")


def check(game: Any, s: Any) -> list[str]:
    """The violations in ``s`` (empty when sound); see the module docstring."""
    d = game.data
    problems: list[str] = []
    supply = dict(s.unit_supply)
    t = s.turn
    turn_colour = game.kingdom(t.kingdom).counters if t is not None else None
    for c in d.counters:
        parts = {"the supply": supply.get(c.id, 0)}
        parts["the map"] = sum(x.units for x in s.lands if x.counters == c.id)
        if t is not None and turn_colour == c.id:
            parts["the kingdom's hand"] = t.units
        problems += total(f"{c.name} units", c.supply, parts)
    problems += total("Cities", CITIES, {"the supply": s.cities, "the map": sum(x.city for x in s.lands)})
    problems += total(
        "Temples", TEMPLES, {"the supply": s.temples, "the map": sum(x.temple for x in s.lands)}
    )
    for m, metal in enumerate(METALS):
        parts = {"the supply": s.coin_supply[m]}
        parts.update({f"seat {x + 1}": p.coins[m] for x, p in enumerate(s.players)})
        problems += total(f"{metal} coins", COIN_SUPPLY, parts)
    arts: dict[str, tuple[str, ...]] = {"the bag": s.bag, "the array": s.array}
    for x, p in enumerate(s.players):
        arts[f"seat {x + 1}'s Artefacts"] = tuple(o.id for o in p.artefacts)
    problems += ledger("Artefact", d.bag, arts)
    cards: dict[str, tuple[str, ...]] = {}
    for i, deck in enumerate(s.decks):
        cards[f"Book {i // 2 + 1} {('Heathen', 'Hebrew')[i % 2]} deck"] = tuple(map(str, deck))
    for x, p in enumerate(s.players):
        cards[f"seat {x + 1}'s hand"] = tuple(map(str, p.hand))
        cards[f"seat {x + 1}'s played cards"] = tuple(map(str, p.played))
    numbers = [str(c.number) for c in d.cards]
    problems += [p for p in ledger("Kingdom card", numbers, cards) if "missing" not in p]
    per = Counter((p.seat, p.type) for p in s.patriarchs)
    for (seat, ptype), n in sorted(per.items()):
        if n > PATRIARCHS_PER_TYPE:
            problems.append(
                f"seat {seat + 1} has {n} {ptype} Patriarchs on the map (of {PATRIARCHS_PER_TYPE})"
            )
    lands = Counter((p.seat, p.land) for p in s.patriarchs)
    for (seat, land), n in sorted(lands.items()):
        if n > 1:
            problems.append(f"seat {seat + 1} has {n} Patriarchs in one land ({d.lands[land].name})")
    return problems


def fuzz_variants(game: Any, players: int) -> list[dict[str, Any]]:
    """The option sets the fuzz covers: dice combat and the 'No Dice' combat system,
    with the default teams and, at 3 and 5 seats, the teams the other way round."""
    out: list[dict[str, Any]] = [{}, {"no_dice": True}]
    if players % 2:
        heb = tuple(x for x in range(players) if x % 2 == 0)
        if abs(2 * len(heb) - players) <= 1:
            out.append({"hebrews": heb})
    return out
