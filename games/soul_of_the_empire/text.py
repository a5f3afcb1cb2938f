"""Plain-text summary of a Soul of the Empire View (terminal console, logs)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .model import View

if TYPE_CHECKING:
    from .game import SoulOfTheEmpire

PLACES = {
    "unspent": "",
    "spent": "spent",
    "power": "buying",
    "objective": "on",
    "marker": "marker",
    "block": "blocking",
}


def _dice(g: SoulOfTheEmpire, fv) -> str:
    parts = []
    for d in fv.dice:
        if d.place == "unspent":
            parts.append(f"{d.value}{'*' if d.seq else ''}")
        elif d.place == "spent":
            parts.append("-")
        elif d.place in ("objective", "block"):
            parts.append(f"{d.value}@{g.data.objectives[d.on].name}")
        elif d.place == "marker":
            parts.append(f"{d.value}@marker {g.tname(d.on)}")
        else:
            parts.append(f"{d.value}(buy)")
    return " ".join(parts)


def summary(g: SoulOfTheEmpire, v: View) -> str:
    """Lines: round and phase, each faction's points, dice (* = Dice Sequence),
    supply and tracks; the board by region; objectives; the last combat."""
    lines = []
    if v.phase == "over":
        lines.append(f"Game over in round {v.round}. {v.end_reason}")
    else:
        who = f" — {g.fname(v.active)}'s turn" if v.active else ""
        lines.append(f"Round {v.round}, phase {v.phase}{who}.")
    for fv in v.factions:
        bits = [f"{fv.points} pts", f"supply {fv.supply}", f"board {fv.on_board}"]
        if fv.id != "gray":
            bits.append(f"dice {_dice(g, fv) or '-'}")
            bits.append(f"hand {fv.hand_size}")
        if fv.id == "rome":
            bits.append(f"captured {fv.capture_track}/25")
        if fv.id == "christians":
            bits.append(f"converted {fv.converted}/18")
        if fv.id == "coalition":
            bits.append(f"Rage {fv.rage}")
        if fv.durable:
            bits.append("durable: " + ", ".join(g.card_name(c) for c in fv.durable))
        lines.append(f"  {fv.name} (seat {fv.seat + 1}): " + "; ".join(bits))
    if v.revolts:
        lines.append(
            "  Revolts: "
            + "; ".join(
                f"{g.card_name(r.card)} (yellow {', '.join(str(d.value) if d.place == 'unspent' else '-' for d in r.dice)})"
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
            txt = ", ".join(f"{g.fname(f)[:4]} {n}" for f, n in sorted(units.items()))
            if mk:
                txt += f" [{g.fname(mk.owner)} marker]"
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
