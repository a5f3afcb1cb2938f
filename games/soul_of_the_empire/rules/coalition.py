"""The Coalition's own die actions (rule text: Claim an Objective Point Marker, Block/Unblock an
Objective, Increase Rage): which it may take, and when a block may be placed or moved."""

from __future__ import annotations

from typing import Any

from ..model import Block, ClaimMarker, Rage, Retrieve, State, Unblock
from ..queries import BLOCK_PIPS, PIPS_PER_RAGE, RAGE_MAX


def coalition_actions(game: Any, s: State, f: str, seq: list[int], present: list[str]) -> list[Any]:
    """The Coalition's own die actions (The Coalition): claim an Objective Point Marker,
    retrieve or unblock dice, raise its Rage, block another faction's objective with 6 pips."""
    out: list[Any] = []
    fs = s.factions[f]
    for i in seq:
        for m in s.markers:
            if m.territory and not game.marker_claimed(s, m.territory):
                out.append(ClaimMarker(die=i, territory=m.territory))
        for d in fs.dice:
            if d.place == "marker":
                out.append(Retrieve(die=i, territory=d.on))
        for c in sorted({d.on for d in fs.dice if d.place == "block"}):
            out.append(Unblock(die=i, card=c))
        if fs.rage < RAGE_MAX:
            if fs.dice[i].value >= PIPS_PER_RAGE:
                out.append(Rage(die=i))
            for j in game.outside_dice(s, f, exclude=i):
                if (fs.dice[i].value + fs.dice[j].value) // 2 > fs.dice[
                    i
                ].value // 2 and fs.rage + fs.dice[i].value // 2 < RAGE_MAX:
                    out.append(Rage(die=i, extra=j))
        for extra in [None] + game.outside_dice(s, f, exclude=i):
            total = fs.dice[i].value + (fs.dice[extra].value if extra is not None else 0)
            if total != BLOCK_PIPS:
                continue
            for c in s.objectives:
                for target in present:
                    if game._can_block(s, c, target) or game._block_moved(s, c, target) is not None:
                        out.append(Block(die=i, extra=extra, card=c, target=target))
    return out


def can_block(game: Any, s: State, card: str, target: str) -> bool:
    """Block an Objective: not already claimed, 1 per card, 1 per other faction."""
    c = game.data.objectives[card]
    if c.for_faction(target) is None or game.claims(s, card).get(target) is not None:
        return False
    co = s.factions["coalition"]
    if any(d.place == "block" and (d.on == card or d.target == target) for d in co.dice):
        return False
    return not game.same_player(s, "coalition", target)


def block_moved(game: Any, s: State, card: str, target: str) -> str | None:
    """The Objective Card whose Coalition block moves when ``target``'s objective on ``card`` is
    blocked ("Moving the die (or dice) to another objective requires another 6 pips"): the one
    block that stands in the way (1 per card, 1 per faction), or None when none or two do, or the
    objective cannot be blocked (claimed, not that faction's, its own other faction)."""
    c = game.data.objectives[card]
    if c.for_faction(target) is None or game.claims(s, card).get(target) is not None:
        return None
    if game.same_player(s, "coalition", target):
        return None
    blocks = [d for d in s.factions["coalition"].dice if d.place == "block"]
    if any(d.on == card and d.target == target for d in blocks):
        return None
    cards = {d.on for d in blocks if d.on == card or d.target == target}
    return next(iter(cards)) if len(cards) == 1 else None
