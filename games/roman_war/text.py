"""Plain-text summary of a Roman War View (terminal, embeds, logs)."""

from __future__ import annotations

from games.core.english import possessive

from .model import View

ABILITY_NAMES = {
    "benevolence": "Benevolence",
    "brotherly-horse": "Brotherly Horse",
    "restoration": "Restoration",
    "deliverance": "Deliverance",
    "vibrancy": "Vibrancy",
    "cost-zone-power": "Cost Zone Power",
    "speed": "Speed",
    "foresight": "Foresight",
}


def summary(v: View) -> str:
    """Several lines: round and phase, each Roman (Power, Maneuver level, Cost Zone,
    field), Hannibal's Encampments and active Ambushes, the clearing round."""
    lines = []
    if v.phase == "over":
        # The round counter has moved past the last round when round 10 itself ended the game (R3).
        when = f"after round {v.last_round}" if v.round > v.last_round and (v.clearing is None or v.clearing.extended) else f"in round {v.round}"
        lines.append(f"Game over {when}. {v.end_reason}")
    else:
        who = v.romans[v.active].commander if v.active is not None else ""
        lines.append(
            f"Round {v.round} of {v.last_round} — {possessive(who)} turn, {v.phase} phase. Team level L{v.shared_level}."
        )
    for r in v.romans:
        mark = "▶ " if v.active == r.seat and v.phase != "over" else "  "
        cz = f"{r.untapped_cost}/{len(r.cost_zone)} Cost untapped"
        up = [c.card.name for c in r.cost_zone if c.face_up and c.card]
        if up:
            cz += " (face up: " + ", ".join(up) + ")"
        field = ", ".join(
            f.card.name
            + ("" if not f.attached else "+" + "+".join(a.name for a in f.attached))
            + (" (rotated)" if f.tapped else "")
            for f in r.field
        )
        extra = (" shaken" if r.shaken else "") + (f" must discard {r.overflow}" if r.overflow else "")
        lines.append(
            f"{mark}{r.commander}: Power {r.power}/10, Maneuver L{r.maneuver}, {cz}, hand {r.hand_size}, "
            f"deck {r.deck_size}, discard {r.discard_size}" + (f"; field: {field}" if field else "") + extra
        )
    camps = ", ".join(f"{e.card.name} (R{e.defense})" for e in v.encampments) or "none"
    lines.append(f"Hannibal's Encampments: {camps}.")
    if v.ambushes:
        lines.append(
            "Active Ambushes: "
            + ", ".join(
                f"{a.card.name} R{a.defense} at {v.romans[a.target].commander}"
                + (" (defended)" if a.defended else "")
                for a in v.ambushes
            )
            + "."
        )
    if v.stack:
        lines.append("Stack (top last): " + ", ".join(i.name for i in v.stack) + ".")
    if v.foresight:
        lines.append("Hannibal's next draws: " + ", ".join(c.name for c in v.foresight) + ".")
    deck = f"Hannibal deck {v.hannibal_deck_size}, discard {v.hannibal_discard_size}, Defended pile {v.defended_size}"
    if v.mode == "duel":
        deck += f", Hannibal's hand {v.hannibal_hand_size}"
    lines.append(deck + ".")
    if v.level_abilities:
        owned = ", ".join(
            ABILITY_NAMES.get(a, a) + (" (ready)" if a in v.charged else "") for a in v.abilities
        )
        lines.append("Level abilities: " + (owned or "none yet") + ".")
    if v.clearing is not None:
        c = v.clearing
        state = (
            "running on to the end of round 10"
            if c.extended
            else f"closes when {v.romans[c.opener].commander}'s next turn begins"
        )
        lines.append(f"Clearing round: opened in round {c.round}, {state}.")
    if v.waiting and v.phase != "over":
        lines.append(f"Waiting for: {', '.join(_who(v, x) for x in v.waiting)} — {v.prompt}")
    return "\n".join(lines)


def _hannibals(v: View) -> tuple[int, ...]:
    """The Hannibal side's seats (a duel may have several, R17)."""
    if v.hannibal_seats:
        return v.hannibal_seats
    return (v.hannibal_seat,) if v.hannibal_seat is not None else ()


def _who(v: View, seat: int) -> str:
    if seat in _hannibals(v):
        return "Hannibal" if len(_hannibals(v)) == 1 else f"Hannibal {seat + 1}"
    return v.romans[seat].commander


def hand_text(v: View) -> str:
    """The viewer's hand, one card a line with its printed marks."""
    if v.viewer is not None and v.viewer in _hannibals(v):
        hand = v.hannibal_hand or ()
    elif v.viewer is not None and v.viewer < len(v.romans) and v.romans[v.viewer].hand is not None:
        hand = v.romans[v.viewer].hand
        own = v.romans[v.viewer]
        down = [c.card.name for c in own.cost_zone if c.card and not c.face_up]
        tail = ["Cost Zone (face down): " + (", ".join(down) or "none")]
        return "\n".join(["Your hand:"] + [f"  {c.name} — {c.line}" for c in hand] + tail)
    else:
        return "No hand to show."
    return "\n".join(["Your hand:"] + [f"  {c.name} — {c.line}" for c in hand])
