"""Plain-text summary of a Credo View (terminal, embeds, logs)."""

from __future__ import annotations

from games.core.english import count

from .model import CATEGORIES, View

PLURAL = {"faith": "Articles of Faith", "firm": "Firm Beliefs", "customary": "Customary Practices"}


def summary(v: View, names: dict[int, str] | None = None) -> str:
    """Several lines: the Definitive Creed, each Church (Followers, votes, hand size,
    mat), a Council in progress, who is asked now."""
    names = names or {}
    lines = []
    if v.phase == "over":
        lines.append(f"Game over. {v.end_reason}")
    elif v.phase == "setup":
        lines.append("Set-up: each Church places its Articles.")
    else:
        lines.append(f"Round {v.round}: Church {v.active + 1}'s turn.")
    creed = []
    for i, a in enumerate(v.creed):
        creed.append(f"{i + 1}: {a.doctrine if a else '—'}")
    lines.append("Definitive Creed — " + "; ".join(creed))
    for p in v.players:
        who = f" [{names[p.seat]}]" if p.seat in names else ""
        mark = "▶ " if v.active == p.seat and v.phase == "play" else "  "
        emp = " (Emperor)" if p.emperor else ""
        lines.append(
            f"{mark}Church {p.seat + 1}{who}{emp}: {p.followers:,} Followers, {count(p.votes, 'vote')}, "
            f"{count(len(p.church), 'Church card')}, {p.hand_size} in hand"
        )
        for k, cat in enumerate(CATEGORIES):
            arts = [
                a.name.replace("Article ", "").replace("Articles ", "") for a in p.mat[k * 3 : k * 3 + 3] if a
            ]
            lines.append(f"      {PLURAL[cat]}: {', '.join(arts) or '—'}")
    if v.council is not None:
        c = v.council
        lines.append(
            f"General Council on Article {c.article} ({c.stage}): proposed {', '.join(c.proposals)}."
        )
        if c.votes:
            lines.append(
                "  Votes: " + "; ".join(f"Church {x + 1}: {d or 'abstains'} ({n})" for x, d, n in c.votes)
            )
    if v.last_roll is not None:
        r = v.last_roll
        lines.append(f"Last roll ({r.table}): {r.dice[0]}+{r.dice[1]} — {r.result}")
    if v.task:
        lines.append("Pending: " + v.task)
    if v.waiting and v.phase != "over":
        lines.append(
            "Waiting for: "
            + ", ".join(f"Church {x + 1}" for x in v.waiting)
            + (f" ({v.window})" if v.window else "")
        )
    return "\n".join(lines)


def hand_text(v: View) -> str:
    """The viewer's hand and drawn card, one a line."""
    me = v.players[v.viewer] if v.viewer is not None else None
    if me is None or me.hand is None:
        return "No hand to show."
    lines = []
    if v.drawn is not None and v.active == v.viewer:
        lines.append(f"Drawn: {v.drawn.name} — {v.drawn.text}")
    if not me.hand:
        lines.append("Your hand is empty.")
    else:
        lines.append("Your hand:")
        lines += [f"  {c.name} — {c.text}" for c in me.hand]
    church = ", ".join(c.name + (" (exiled)" if c.exiled else "") for c in me.church)
    lines.append(f"Your Church: {church or 'nothing'}")
    return "\n".join(lines)
