"""Soul of the Empire conservation invariants (rule text: "Components", "Setup";
the faction boards, Objective Cards and Power Cards the text leaves out are authored in
``data/*.toml``).

- Units: each faction's units (its faction board's count; the Gray revolts' pool for
  the Jews) are in its supply, on the map, in Rome's Captured Unit Area, on the
  Gospel card ("place one of their units from supply on this card"), or, the
  Coalition's, on its faction board, one for each region scored ("take 1 unit from
  that region and place it in the appropriate spot on their faction board").
- Dice: every faction keeps its 5 dice; the 4 yellow dice are in the Extra Dice Pool
  or on revolt cards.
- Power Cards: each faction's deck (every copy) is in its deck, its hand, its
  discard pile, face up as Durable cards (a revolt in play among them, unless an
  Exploit discarded it while its units stay on the board, R13), in the
  Coalition's hand (salvaged), drawn for a Salvage while the Coalition selects
  one (R14), or played in the combat being resolved.
- Objective Cards: the 23 are in the deck, face up, in the discard pile, or scored.
"""

from __future__ import annotations

from itertools import chain
from typing import Any

from games.core.invariants import ledger, total

from .queries import DICE, YELLOW_DICE


def check(game: Any, s: Any) -> list[str]:
    """The violations in ``s`` (empty when sound); see the module docstring."""
    d = game.data
    problems: list[str] = []
    rome = s.factions.get("rome")
    captured = rome.captured if rome is not None else {}
    # the units on Gospel: the Christians', or the Coalition's with a salvaged Gospel (R14, R26)
    on_gospel = [
        h.gospel
        for h in s.factions.values()
        if h.gospel is not None and any(c.split("#")[0] == "gospel" for c in h.durable)
    ]
    for fid, f in sorted(s.factions.items()):
        parts = {
            "the supply": f.supply,
            "the map": sum(units.get(fid, 0) for units in s.board.values()),
            "Rome's Captured Unit Area": captured.get(fid, 0),
            "the Gospel card": on_gospel.count(fid),
            # the Coalition's scored regions (RULINGS.md R12); empty for the others
            "the faction board (regions scored)": len(f.regions_scored),
        }
        problems += total(f"{fid} units", d.factions[fid].units, parts)
        if fid != "gray" and len(f.dice) != DICE:
            problems.append(f"{fid} has {len(f.dice)} dice, not {DICE}")
    problems += total(
        "yellow dice",
        YELLOW_DICE,
        {"the Extra Dice Pool": s.yellow, **{f"revolt {r.card}": len(r.dice) for r in s.revolts}},
    )
    power: dict[str, tuple[str, ...]] = {}
    expected: list[str] = []
    for fid in sorted(s.factions):
        if fid in ("gray", "coalition"):
            continue
        expected += d.deck(fid)
    for fid, f in sorted(s.factions.items()):
        power[f"{fid} deck"] = f.deck
        power[f"{fid} hand"] = f.hand
        power[f"{fid} discard pile"] = f.discard
        power[f"{fid} Durable cards"] = f.durable
    durable = set(chain.from_iterable(f.durable for f in s.factions.values()))
    for r in s.revolts:
        if not r.discarded and r.card not in durable:
            problems.append(f"revolt {r.card!r} is in play but not face up as a Durable card")
    if s.combat is not None:
        power["the combat"] = tuple(s.combat.powers.values())
        power["drawn for Salvage"] = tuple(s.combat.salvage_drawn)
    problems += ledger("Power Card", expected, power)
    problems += ledger(
        "Objective Card",
        d.objectives,
        {
            "the Objective deck": s.objective_deck,
            "face up": s.objectives,
            "the Objective discard pile": s.objective_discard,
            **{f"scored by {fid}": cards for fid, cards in sorted(s.scored.items())},
        },
    )
    return problems


def fuzz_variants(game: Any, players: int) -> list[dict[str, Any]]:
    """The option sets the fuzz covers: every faction line-up the setup offers at each
    player count (2 players: both pairings; 3 players: each trio), each also ended by
    the round-limit house rule (RULINGS.md R20)."""
    if players == 2:
        lineups: list[Any] = [None, ("Coalition+Jewish", None)]
    elif players == 3:
        lineups = [
            None,
            ("Rome", "Coalition", "Jewish"),
            ("Rome", "Jewish", "Christian"),
            (None, "Christian", "Coalition"),
        ]
    else:
        lineups = [None]
    out: list[dict[str, Any]] = []
    for limit in (None, 6):
        for f in lineups:
            opts: dict[str, Any] = {}
            if f is not None:
                opts["factions"] = f
            if limit is not None:
                opts["round_limit"] = limit
            out.append(opts)
    return out
