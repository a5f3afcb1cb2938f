"""Plain-text summary of a Barbarian Hordes View (terminal, embeds, logs)."""

from __future__ import annotations

from games.core.english import count

from .data import TYPE_NAMES
from .model import View

STATUS = {"in": "", "out": " (wiped out)", "eliminated": " (out of the game)", "drafting": " (choosing)"}


def summary(v: View, names: dict[int, str] | None = None) -> str:
    """Several lines: round and phase, then the seating circle clockwise with each
    nation's Army and Territory Tokens and hand size, then the last war.

    ``names`` maps seats to player names (optional).
    """
    names = names or {}
    lines = []
    if v.phase == "over":
        lines.append(f"Game over after round {v.round}. {v.end_reason}")
    else:
        active = v.players[v.active].nation if v.active is not None else None
        who = f" — {active}{chr(39) if active.endswith('s') else chr(39) + 's'} turn" if active else ""
        lines.append(f"Round {v.round}, {v.phase.title()} Phase{who}.")
    lines.append("Seating (clockwise; each can attack the next and the previous):")
    for x in v.seating:
        lines.append("  " + _player_line(v, x, names))
    off = [p.seat for p in v.players if p.seat not in v.seating]
    for x in off:
        lines.append("  " + _player_line(v, x, names))
    order = ", ".join(v.players[x].nation or f"Seat {x + 1}" for x in v.turn_order)
    lines.append(f"Turn order: {order}.")
    lines.append(f"Deck {count(v.deck_size, 'card')}, discard pile {v.discard_size}.")
    if v.war is not None:
        a, d = v.players[v.war.attacker].nation, v.players[v.war.defender].nation
        lines.append(f"War in progress: {a} against {d} ({v.war.stage}).")
    elif v.last_war is not None and v.last_war.note:
        note = v.last_war.note
        lines.append("Last war: " + (note.split(":", 1)[1].strip() if note.startswith("War:") else note))
    if v.waiting and v.phase != "over":
        waiting = ", ".join(v.players[x].nation or f"Seat {x + 1}" for x in v.waiting)
        lines.append(f"Waiting for: {waiting}" + (f" ({v.window.rstrip('.')})" if v.window else "") + ".")
    return "\n".join(lines)


def _player_line(v: View, x: int, names: dict[int, str]) -> str:
    p = v.players[x]
    mark = "▶ " if v.active == x and v.phase != "over" else "  "
    who = f" [{names[x]}]" if x in names else ""
    if v.viewer == x:
        who += " ← you"
    nation = p.nation or f"Seat {x + 1}"
    return (
        f"{mark}{nation}{who}: {p.armies} Army, {p.territories} Territory, {count(p.hand_size, 'card')}"
        f"{STATUS[p.status]}"
    )


def hand_text(v: View) -> str:
    """The viewer's hand, one card a line with what it does."""
    me = v.players[v.viewer] if v.viewer is not None else None
    if me is None or me.hand is None:
        return "No hand to show."
    if not me.hand:
        return "Your hand is empty."
    lines = [f"  {c.name} [{c.types}] — {c.text}" for c in me.hand]
    codes = sorted({code for c in me.hand for code in c.types if code in TYPE_NAMES})
    legend = ", ".join(f"{code} {TYPE_NAMES[code]}" for code in codes)
    return "Your hand:\n" + "\n".join(lines) + f"\nTypes: {legend}."
