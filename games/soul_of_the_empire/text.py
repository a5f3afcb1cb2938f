"""Plain-text summary of a Soul of the Empire View (terminal console, logs)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from games.core.english import count

from .model import View

if TYPE_CHECKING:
    from .queries import Queries as SoulOfTheEmpire


def _dice(g: SoulOfTheEmpire, fv) -> str:
    """The dice in words: the Dice Sequence, the other Unspent dice, then the dice placed
    (claiming, blocking, on a marker, paid for a card) and how many are spent."""
    seq = [str(d.value) for d in fv.dice if d.place == "unspent" and d.seq]
    other = [str(d.value) for d in fv.dice if d.place == "unspent" and not d.seq]
    parts = []
    if seq:
        parts.append("sequence " + " ".join(seq))
    if other:
        parts.append(("outside the sequence " if seq else "unspent ") + " ".join(other))
    for d in fv.dice:
        if d.place == "objective":
            parts.append(f"{d.value} claiming {g.data.objectives[d.on].name}")
        elif d.place == "block":
            parts.append(f"{d.value} blocking {g.data.objectives[d.on].name}")
        elif d.place == "marker":
            parts.append(f"{d.value} on the marker in {g.tname(d.on)}")
        elif d.place == "power":
            parts.append(f"{d.value} paid for a card")
    spent = sum(1 for d in fv.dice if d.place == "spent")
    if spent:
        parts.append(f"{spent} spent")
    return ", ".join(parts)


PHASES = {"start": "Start Phase", "main": "Main Phase", "end": "End Phase", "discard": "End Phase"}


def _header(g: SoulOfTheEmpire, v: View) -> str:
    """Where the game stands, in words: setup steps or the round, phase and turn."""
    if v.phase == "markers":
        return "Setup: placing the Objective Point Markers."
    if v.phase == "final":
        return "Setup: Rome's final units."
    if v.phase == "roll":
        who = f" ({g.fname(v.rolling.faction)} rolling)" if v.rolling is not None else ""
        return f"Setup: each faction rolls and readies its dice{who}."
    text = f"Round {v.round}, {PHASES.get(v.phase, v.phase)}"
    if v.active:
        text += f" — the {g.fname(v.active)} turn"
    if v.rolling is not None:
        text += f" ({g.fname(v.rolling.faction)} rolling)"
    return text + "."


SPECIAL_CHRISTIAN = ("rome", "jerusalem", "germania")


def _converted(g: SoulOfTheEmpire, v: View, fv) -> str:
    """The conversion tracker and the rest of the Christian special victory ("Convert 18
    units and have at least 1 unit in Rome, Jerusalem, and Germania")."""
    missing = [g.tname(t) for t in SPECIAL_CHRISTIAN if not v.board.get(t, {}).get("christians")]
    need = "needs units in " + ", ".join(g.tname(t) for t in SPECIAL_CHRISTIAN)
    need += f" (missing {', '.join(missing)})" if missing else " (all held)"
    return f"converted {fv.converted}/18; special victory {need}"


def summary(g: SoulOfTheEmpire, v: View) -> str:
    """Lines: round and phase, each faction in play order with its points, dice, supply
    and tracks; the board by region; objectives; the last combat."""
    lines = []
    if v.phase == "over":
        lines.append(f"Game over in round {v.round}. {v.end_reason}")
    else:
        lines.append(_header(g, v))
    lines.append("  Factions in play order:")
    for fv in v.factions:
        bits = [count(fv.points, "pt"), f"supply {fv.supply}", f"board {fv.on_board}"]
        if fv.id != "gray":
            bits.append(f"dice: {_dice(g, fv) or 'none'}")
            bits.append(f"hand {fv.hand_size}")
        if fv.id == "rome":
            bits.append(f"captured {fv.capture_track}/25")
        if fv.id == "christians":
            bits.append(_converted(g, v, fv))
        if fv.id == "coalition":
            bits.append(f"Rage {fv.rage}")
        if fv.durable:
            bits.append("durable: " + ", ".join(g.card_name(c) for c in fv.durable))
        lines.append(f"  {fv.name} (seat {fv.seat + 1}): " + "; ".join(bits))
    if v.revolts:
        lines.append(
            "  Revolts: "
            + "; ".join(
                f"{g.card_name(r.card)}"
                + (" (card discarded, no yellow die" if r.discarded else f" (yellow {', '.join(str(d.value) if d.place == 'unspent' else '-' for d in r.dice)}")
                + "; units: "
                + (", ".join(f"{k} {g.tname(t)}" for t, k in sorted(r.units.items())) or "none")
                + ")"
                for r in v.revolts
            )
        )
    for rid, region in g.data.regions.items():
        cells = []
        for t in g.data.region_territories(rid):
            units = v.board.get(t, {})
            mk = next((m for m in v.markers if m.territory == t), None)
            if not units and not mk:
                continue
            txt = " ".join(filter(None, [", ".join(f"{g.fname(f)} {n}" for f, n in sorted(units.items())),
                                         f"[{g.fname(mk.owner)} marker]" if mk else ""]))
            cells.append(f"{g.tname(t)}: {txt}")
        if cells:
            lines.append(f"  {region.name} — " + "; ".join(cells))
    for o in v.objectives:
        lines.append(
            f"  Objective {o.name}: " + " | ".join(o.lines) + (" — " + ", ".join(o.dice) if o.dice else "")
        )
    if v.last_combat:
        lines.append("  Last combat: " + v.last_combat.text)
    return "\n".join(lines)


def hand_text(g: SoulOfTheEmpire, v: View) -> str:
    """The viewer's Power Cards with their text, then the viewer's Combat Cards: the
    unused ones with number and effect, the used ones (face up) marked used (RULINGS.md R8)."""
    out = []
    for fv in v.factions:
        if fv.hand is None:
            continue
        out.append(f"{fv.name} hand:")
        for c in fv.hand:
            card = g.data.card(c)
            out.append(f"  {card.name} ({'/'.join(card.phases)}, {card.duration}): {card.text}")
        if not fv.hand:
            out.append("  (no Power Cards)")
        deck = [c for c in g.data.combat.values() if c.faction == fv.id]
        if not deck:
            continue
        gray = " (the Gray Faction fights with this deck too)" if fv.id == "jews" else ""
        out.append(f"{fv.name} Combat Cards{gray}:")
        used = set(fv.combat_used)
        for c in sorted(deck, key=lambda c: (c.id in used, c.number)):
            effect = c.text.split(", ", 1)[1]
            out.append(f"  {c.name} ({c.number}{', used' if c.id in used else ''}): {effect}")
    return "\n".join(out) or "You hold no cards."
