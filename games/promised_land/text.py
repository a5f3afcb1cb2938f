"""Plain-text summary of a Promised Land View (terminal, embeds, logs)."""

from __future__ import annotations

from games.core.english import count

from .data import load
from .model import View

COIN_NAMES = ("bronze", "silver", "gold")
SHORT = {"farmer": "F", "merchant": "M", "priest": "P"}


def _coins(c: tuple[int, int, int] | None) -> str:
    if c is None:
        return "coins hidden"
    return ", ".join(f"{n} {m}" for n, m in zip(c, COIN_NAMES, strict=True))


def _holder(kingdom: str | None, counters: str | None, units: int) -> str:
    """Who holds a land, by name, and with how many units: ``"Phoenicians, 1 unit"``, ``"empty"``."""
    data = load()
    if kingdom and kingdom in data.kingdom:
        name = data.kingdom[kingdom].name
    elif counters and counters in data.counter:
        name = data.counter[counters].name
    else:
        name = kingdom or counters
    return f"{name}, {count(units, 'unit')}" if name else "empty"


def summary(v: View, names: dict[int, str] | None = None) -> str:
    """Several lines: Book, Time track and whose turn; the lands (counters, units, city,
    temple, Ark, Patriarchs as seat+F/M/P); the players' tracks and Artefacts; the last
    attack. ``names`` maps seats to player names (optional)."""
    names = names or {}
    who = lambda x: names.get(x, f"Seat {x + 1}")  # noqa: E731
    lines = []
    if v.phase == "over":
        lines.append("Game over. " + v.end_reason)
    elif v.turn is not None:
        t = v.turn
        lines.append(
            f"Book {v.book}, card {v.time}: {who(t.seat)} plays {t.card.name} ({t.kingdom_name}), "
            f"phase {t.phase}; units {t.units}{' +½' if t.half else ''}, actions {t.actions}."
        )
    else:
        lines.append(f"Book {v.book}, {v.phase} phase. {v.prompt}")
    lines.append("Lands:")
    for land in v.lands:
        bits = [_holder(land.kingdom, land.counters, land.units)]
        if land.city:
            bits.append("city")
        if land.temple:
            bits.append("temple")
        if land.ark:
            bits.append("ARK")
        if land.patriarchs:
            bits.append(" ".join(f"{x + 1}{SHORT[t]}" for x, t in land.patriarchs))
        marks = f"{land.terrain}{', road' if land.road else ''}{', port' if land.port else ''}"
        lines.append(f"  {land.name} ({marks}): " + "; ".join(bits))
    lines.append("Players:")
    for p in v.players:
        arts = ", ".join(a.name + (" (played)" if a.face_down else "") for a in p.artefacts) or "no Artefacts"
        score = f", score {p.score}" if p.score is not None else ""
        lines.append(
            f"  {who(p.seat)} ({p.side}): {count(p.hand_size, 'card')}, royal {p.royal}/8, kingdom {p.kingdom}/12, "
            f"{_coins(p.coins)}; {arts}{score}"
        )
    if v.royal_track:
        lines.append("Royal track: " + ", ".join(f"{n} ({c}; {pts})" for _, n, c, pts in v.royal_track))
    if v.kingdom_track:
        lines.append("Kingdom track: " + ", ".join(f"{t} ({pts})" for _, t, pts in v.kingdom_track))
    if v.last_combat is not None:
        lines.append("Last attack: " + v.last_combat.text)
    if v.waiting and v.phase != "over":
        lines.append("Waiting for: " + ", ".join(who(x) for x in v.waiting) + f" ({v.prompt.rstrip('.')})")
    return "\n".join(lines)


def hand_text(v: View) -> str:
    """The viewer's Kingdom cards, coins and Artefacts."""
    if v.viewer is None:
        return "Spectators have no hand."
    p = v.players[v.viewer]
    lines = [f"Your hand ({p.side}):"]
    for c in p.hand or ():
        weaker = f", Weaker card {count(c.points, 'point')}" if c.points else ""
        lines.append(
            f"  {c.number}: {c.name} ({c.kingdom}) {count(c.units, 'unit')}, dice hills {c.hills} / plains {c.plains}{weaker}"
        )
    if not p.hand:
        lines.append("  (no cards)")
    lines.append("Coins: " + _coins(p.coins))
    for a in p.artefacts:
        lines.append(f"  Artefact {a.name} [{a.phase}]{' played' if a.face_down else ''}: {a.text}")
    return "\n".join(lines)
