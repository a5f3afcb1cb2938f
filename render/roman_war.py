"""Roman War board image: the Roman team against the Hannibal deck.

Layout (1600 x 1000 pixels; 1600 x 1140 for a seat's own view with its hand): the
header; a band with the round track (rounds 1-10, and 11 when a clearing round runs
past round 10), the team's shared Domination Level and the level abilities; up to
four Roman panels (Power 0-10, Maneuver level L0-L3, Cost Zone cards — face down,
face up, rotated — field cards with their attachments, hand, deck and discard counts);
and Hannibal's column: Encampments in play, active Ambushes with their target, the
stack, the revealed next draws and the piles. Colour is never the only cue: seats have
shapes and numbers, rotated cards are drawn on their side and say "rot", defended
Ambushes carry a check and the word.
"""

from __future__ import annotations

from collections.abc import Mapping

from PIL import Image, ImageDraw

from games.roman_war.model import CardView, RomanView, View

from . import draw as dr
from . import theme
from .record import cached_layer
from .text import draw_text, face

WIDTH = 1600
HEIGHT = 1000
HAND_BAND = 140
BAND_TOP = dr.HEADER_HEIGHT + 10
BAND_H = 118
PANELS_TOP = BAND_TOP + BAND_H + 10
PANEL_W, PANEL_H = 560, 340
HANNIBAL_X = 1150
ROMAN_RED = (150, 40, 32)
PUNIC = (58, 80, 130)
ABILITIES = (
    ("benevolence", "Benevolence"),
    ("brotherly-horse", "Brotherly Horse"),
    ("restoration", "Restoration"),
    ("deliverance", "Deliverance"),
    ("vibrancy", "Vibrancy"),
    ("cost-zone-power", "Cost Zone Power"),
    ("speed", "Speed"),
    ("foresight", "Foresight"),
)
TYPE_COLOUR = {
    "Maneuver": theme.VERMILLION,
    "Encampment": theme.BLUISH_GREEN,
    "Token": theme.YELLOW,
    "Defense": theme.SKY_BLUE,
    "Tactic": theme.REDDISH_PURPLE,
    "Ambush": theme.VERMILLION,
}
PHASES = {
    "cost": "Cost Zone phase",
    "purchase": "Purchase",
    "hannibal": "Hannibal plays",
    "defense": "Defend Ambushes",
    "main": "Main phase",
    "end": "End phase",
    "over": "Game over",
}


def image_size(view: View) -> tuple[int, int]:
    return WIDTH, HEIGHT + (HAND_BAND if _own_hand(view) is not None else 0)


def _own_hand(view: View) -> tuple[CardView, ...] | None:
    if view.viewer is None:
        return None
    if view.viewer in _hannibals(view):
        return view.hannibal_hand
    if view.viewer < len(view.romans):
        return view.romans[view.viewer].hand
    return None


@cached_layer(maxsize=4)
def static_layer(height: int) -> Image.Image:
    """Background, table and column frames (cached per height)."""
    img = Image.new("RGB", (WIDTH, height), theme.BACKGROUND)
    d = ImageDraw.Draw(img)
    d.rounded_rectangle((12, BAND_TOP, WIDTH - 12, BAND_TOP + BAND_H), radius=14, fill=theme.HEADER)
    d.rounded_rectangle(
        (12, PANELS_TOP, HANNIBAL_X - 14, PANELS_TOP + 2 * PANEL_H + 14), radius=16, fill=theme.TABLE
    )
    d.rounded_rectangle(
        (HANNIBAL_X, PANELS_TOP, WIDTH - 12, PANELS_TOP + 2 * PANEL_H + 14), radius=16, fill=(40, 38, 52)
    )
    draw_text(
        d, (HANNIBAL_X + 16, PANELS_TOP + 10), "HANNIBAL", face(theme.TEXT_BIG, "bold"), theme.LIGHT, "la"
    )
    return img


def render(view: View, names: Mapping[int, str] | None = None) -> Image.Image:
    """The board for ``view`` as an RGB image, 1600 x 1000 pixels (1600 x 1140 with the
    viewer's own hand). ``names`` maps seats to display names (any Unicode; cut to fit).

    Raises TypeError when ``view`` is not a Roman War View.
    """
    if not isinstance(view, View):
        raise TypeError(f"render() takes a Roman War View, not {type(view).__name__}")
    width, height = image_size(view)
    img = static_layer(height).copy()
    names = dict(names or {})
    _header(img, view, names)
    _band(img, view)
    for r in view.romans:
        col, row = r.seat % 2, r.seat // 2
        box = (
            24 + col * (PANEL_W + 12),
            PANELS_TOP + 8 + row * (PANEL_H + 0),
            24 + col * (PANEL_W + 12) + PANEL_W,
            PANELS_TOP + 8 + row * PANEL_H + PANEL_H - 10,
        )
        _panel(img, box, r, view, names.get(r.seat))
    _hannibal(img, view, names)
    _footer(img, view, names)
    hand = _own_hand(view)
    if hand is not None:
        _hand(img, hand, HEIGHT)
    return img


def _hannibals(view: View) -> tuple[int, ...]:
    """The Hannibal side's seats (a duel may have several)."""
    if view.hannibal_seats:
        return view.hannibal_seats
    return (view.hannibal_seat,) if view.hannibal_seat is not None else ()


def _label(view: View, seat: int, names: Mapping[int, str]) -> str:
    hs = _hannibals(view)
    if seat in hs:
        base = "Hannibal" if len(hs) == 1 else f"Hannibal {seat + 1}"
    else:
        base = view.romans[seat].commander
    who = names.get(seat)
    return f"{base} · {who}" if who else f"{base} (seat {seat + 1})"


def _header(img: Image.Image, view: View, names: Mapping[int, str]) -> None:
    turn_label, style = None, None
    if view.phase == "over":
        turn_label = "Rome wins" if view.winner == "romans" else "Hannibal wins"
    elif view.active is not None:
        turn_label = _label(view, view.active, names)
        style = theme.seat_style(view.active)
    dr.header(
        img,
        dr.Header(
            game="Roman War",
            round=view.round,
            phase=PHASES[view.phase] + (" (duel)" if view.mode == "duel" else ""),
            turn_label=turn_label,
            turn_style=style,
            turn_icon="crown" if view.phase == "over" else "arrow",
        ),
    )


def _band(img: Image.Image, view: View) -> None:
    d = ImageDraw.Draw(img)
    top = BAND_TOP + 10
    draw_text(d, (28, top + 2), "ROUND", face(theme.MIN_TEXT, "bold"), theme.LIGHT_MUTED, "la")
    extra = view.round > view.last_round and view.clearing is not None
    rounds = view.last_round + (1 if extra else 0)
    now = min(view.round, rounds)
    steps = [
        dr.Step(str(i) if i <= view.last_round else "11+", current=i == now, done=i < now)
        for i in range(1, rounds + 1)
    ]
    dr.step_track(d, (28, top + 24, 640, top + 60), steps)
    c = view.clearing
    if c is not None:
        who = view.romans[c.opener].commander
        text = f"Clearing round (R{c.round}, {who}): " + (
            f"runs to the end of round {view.last_round}" if c.extended else f"ends at {who}'s next turn"
        )
        d.rounded_rectangle(
            (28, top + 68, 640, top + 98), radius=10, fill=theme.YELLOW, outline=theme.INK, width=2
        )
        draw_text(d, (38, top + 83), text, face(theme.MIN_TEXT, "bold"), theme.INK, "lm", max_width=590)
    else:
        draw_text(
            d,
            (28, top + 83),
            "Win: every Roman at L3 and no Hannibal's Encampment for one full round.",
            face(theme.MIN_TEXT),
            theme.LIGHT_MUTED,
            "lm",
            max_width=610,
        )
    # team level
    x = 670
    draw_text(d, (x, top + 2), "TEAM LEVEL", face(theme.MIN_TEXT, "bold"), theme.LIGHT_MUTED, "la")
    dr.step_track(
        d,
        (x, top + 24, x + 250, top + 60),
        [dr.Step(f"L{i}", current=i == view.shared_level, done=i < view.shared_level) for i in range(4)],
    )
    # abilities
    x = 950
    title = "LEVEL ABILITIES" if view.level_abilities else "LEVEL ABILITIES (off)"
    draw_text(d, (x, top + 2), title, face(theme.MIN_TEXT, "bold"), theme.LIGHT_MUTED, "la")
    f = face(theme.MIN_TEXT)
    for i, (aid, name) in enumerate(ABILITIES):
        cx = x + (i % 4) * 156
        cy = top + 24 + (i // 4) * 38
        owned = aid in view.abilities
        fill = theme.GOOD if owned else None
        d.rounded_rectangle(
            (cx, cy, cx + 150, cy + 32),
            radius=8,
            fill=fill,
            outline=theme.LIGHT if owned else theme.LIGHT_MUTED,
            width=2,
        )
        mark = ("✓ " if owned else "") + name + (" ●" if aid in view.charged else "")
        draw_text(
            d, (cx + 75, cy + 16), mark, f, theme.INK if owned else theme.LIGHT_MUTED, "mm", max_width=144
        )


def _panel(
    img: Image.Image, box: tuple[int, int, int, int], r: RomanView, view: View, name: str | None
) -> None:
    d = ImageDraw.Draw(img)
    left, top, right, bottom = box
    active = view.active == r.seat and view.phase != "over"
    waiting = r.seat in view.waiting
    outline = theme.ACTIVE if active else (theme.WAITING if waiting else theme.INK)
    d.rounded_rectangle(
        box, radius=14, fill=theme.PANEL, outline=outline, width=5 if (active or waiting) else 2
    )
    style = theme.seat_style(r.seat)
    dr.paste_badge(img, style, (left + 30, top + 30), 42)
    draw_text(
        d, (left + 58, top + 18), r.commander, face(theme.TEXT_BIG, "bold"), theme.INK, "la", max_width=250
    )
    if name:
        draw_text(d, (left + 58, top + 46), name, face(theme.MIN_TEXT), theme.INK_MUTED, "la", max_width=250)
    tag = "TURN" if active else ("WAITING" if waiting else "")
    if tag:
        fill = theme.ACTIVE if active else theme.WAITING
        d.rounded_rectangle(
            (right - 120, top + 12, right - 14, top + 42), radius=12, fill=fill, outline=theme.INK, width=2
        )
        draw_text(d, (right - 67, top + 27), tag, face(theme.MIN_TEXT, "bold"), theme.INK, "mm")
    # Power
    y = top + 78
    draw_text(d, (left + 16, y), f"Power {r.power}/10", face(theme.TEXT, "bold"), ROMAN_RED, "lm")
    dr.pip_track(
        d,
        (left + 170, y - 11, right - 16, y + 11),
        10,
        r.power,
        ROMAN_RED,
        theme.PANEL_MUTED,
        goal_mark=False,
    )
    # Maneuver
    y += 32
    draw_text(d, (left + 16, y), f"Maneuver L{r.maneuver}", face(theme.TEXT, "bold"), theme.INK, "lm")
    for i in range(4):
        x0 = left + 170 + i * 92
        on = i <= r.maneuver
        d.rounded_rectangle(
            (x0, y - 13, x0 + 84, y + 13),
            radius=8,
            fill=theme.ORANGE if on else theme.PANEL_MUTED,
            outline=theme.INK,
            width=2,
        )
        draw_text(
            d, (x0 + 42, y), f"L{i}" + (" ★" if i == 3 else ""), face(theme.MIN_TEXT, "bold"), theme.INK, "mm"
        )
    # counts
    y += 28
    f = face(theme.MIN_TEXT)
    status = []
    if r.shaken:
        status.append(f"shaken ×{r.shaken}")
    if r.overflow:
        status.append(f"must discard {r.overflow}")
    line = f"Hand {r.hand_size} · Deck {r.deck_size} · Discard {r.discard_size}" + (
        "  ·  " + ", ".join(status) if status else ""
    )
    draw_text(
        d,
        (left + 16, y),
        line,
        f,
        theme.INK_MUTED if not status else theme.VERMILLION,
        "lm",
        max_width=right - left - 32,
    )
    # Cost Zone
    y += 20
    draw_text(
        d,
        (left + 16, y),
        f"COST ZONE  {r.untapped_cost} of {len(r.cost_zone)} untapped",
        face(theme.MIN_TEXT, "bold"),
        theme.INK,
        "la",
    )
    y += 22
    _cost_zone(img, (left + 16, y, right - 16, y + 62), r)
    # Field
    y += 68
    draw_text(d, (left + 16, y), "FIELD", face(theme.MIN_TEXT, "bold"), theme.INK, "la")
    _field(img, (left + 16, y + 20, right - 16, bottom - 4), r)


def _cost_zone(img: Image.Image, box: tuple[int, int, int, int], r: RomanView) -> None:
    d = ImageDraw.Draw(img)
    left, top, right, bottom = box
    n = len(r.cost_zone)
    if not n:
        draw_text(d, (left, top + 20), "empty", face(theme.MIN_TEXT), theme.INK_MUTED, "la")
        return
    cw, ch = 40, 56
    step = min(cw + 6, (right - left - 70) / max(1, n - 1)) if n > 1 else cw
    for i, c in enumerate(r.cost_zone):
        x = left + i * step
        # rotated: drawn on its side
        rect = (x, top + ch - cw + 4, x + ch * 0.9, top + ch + 4) if c.tapped else (x, top, x + cw, top + ch)
        fill = theme.PANEL_MUTED if c.face_up else PUNIC
        if c.tapped:
            fill = theme.mix(fill, theme.PANEL, 0.45)
        d.rounded_rectangle(rect, radius=6, fill=fill, outline=theme.INK, width=2)
        cx, cy = (rect[0] + rect[2]) / 2, (rect[1] + rect[3]) / 2
        if c.face_up and c.card is not None:
            draw_text(
                d,
                (cx, cy - 8),
                c.card.name[:6],
                face(theme.MIN_TEXT - 2, "bold"),
                theme.INK,
                "mm",
                max_width=rect[2] - rect[0] - 4,
            )
            draw_text(d, (cx, cy + 10), "up", face(theme.MIN_TEXT - 2), theme.INK, "mm")
        else:
            draw_text(d, (cx, cy), "C", face(theme.TEXT, "bold"), theme.LIGHT, "mm")
        if c.tapped:
            draw_text(d, (cx, rect[1] - 2), "rot", face(theme.MIN_TEXT - 4, "bold"), theme.INK, "md")


def _field(img: Image.Image, box: tuple[int, int, int, int], r: RomanView) -> None:
    d = ImageDraw.Draw(img)
    left, top, right, bottom = box
    if not r.field:
        draw_text(d, (left, top + 4), "no Encampments or Tokens", face(theme.MIN_TEXT), theme.INK_MUTED, "la")
        return
    x, y = left, top
    f = face(theme.MIN_TEXT, "bold")
    for fc in r.field:
        label = fc.card.name + "".join(f" + {a.name}" for a in fc.attached) + (" (rot)" if fc.tapped else "")
        w = min(f.length(label) + 30, right - left)
        if x + w > right:
            x, y = left, y + 36
        if y + 30 > bottom:
            break
        colour = TYPE_COLOUR.get(fc.card.type, theme.PANEL_MUTED)
        fill = theme.mix(colour, theme.PANEL, 0.5) if fc.tapped else colour
        d.rounded_rectangle(
            (x, y, x + w, y + 30), radius=8, fill=fill, outline=theme.INK, width=2 if not fc.tapped else 1
        )
        mark = "⌂ " if fc.card.type == "Encampment" else "◆ "
        draw_text(d, (x + 8, y + 15), mark + label, f, theme.ink_on(fill), "lm", max_width=w - 12)
        x += w + 8


def _hannibal(img: Image.Image, view: View, names: Mapping[int, str]) -> None:
    d = ImageDraw.Draw(img)
    left, right = HANNIBAL_X + 16, WIDTH - 28
    y = PANELS_TOP + 48
    f = face(theme.MIN_TEXT)
    fb = face(theme.MIN_TEXT, "bold")
    if _hannibals(view):
        hs = _hannibals(view)
        if len(hs) == 1:
            players = _label(view, hs[0], names)
        else:  # several Hannibal players take the Hannibal phases in turn (RULINGS R17)
            given = [names.get(x) for x in hs]
            players = (", ".join(given) if all(given) else "seats " + ", ".join(str(x + 1) for x in hs)) + " in turn"
        draw_text(
            d,
            (left, y),
            f"played by {players} · hand {view.hannibal_hand_size}",
            f,
            theme.LIGHT_MUTED,
            "la",
            max_width=right - left,
        )
        y += 26
    draw_text(d, (left, y), f"ENCAMPMENTS IN PLAY ({len(view.encampments)})", fb, theme.LIGHT, "la")
    y += 26
    if not view.encampments:
        draw_text(d, (left, y), "none — clear them all to win", f, theme.LIGHT_MUTED, "la")
        y += 26
    for e in view.encampments[:7]:
        d.rounded_rectangle(
            (left, y, right, y + 34), radius=8, fill=(88, 62, 110), outline=theme.LIGHT_MUTED, width=1
        )
        _tent(d, left + 20, y + 17)
        draw_text(d, (left + 36, y + 17), e.card.name, fb, theme.LIGHT, "lm", max_width=right - left - 90)
        draw_text(d, (right - 10, y + 17), f"R{e.defense}", fb, theme.YELLOW, "rm")
        y += 40
    if len(view.encampments) > 7:
        draw_text(d, (left, y), f"... and {len(view.encampments) - 7} more", f, theme.LIGHT_MUTED, "la")
        y += 24
    y += 8
    draw_text(d, (left, y), f"ACTIVE AMBUSHES ({len(view.ambushes)})", fb, theme.LIGHT, "la")
    y += 26
    if not view.ambushes:
        draw_text(d, (left, y), "none", f, theme.LIGHT_MUTED, "la")
        y += 26
    for a in view.ambushes[:6]:
        fill = theme.GOOD if a.defended else theme.VERMILLION
        d.rounded_rectangle((left, y, right, y + 34), radius=8, fill=fill, outline=theme.INK, width=2)
        dr.paste_badge(img, theme.seat_style(a.target), (left + 18, y + 17), 26)
        text = ("✓ defended: " if a.defended else "⚔ ") + a.card.name
        draw_text(d, (left + 36, y + 17), text, fb, theme.ink_on(fill), "lm", max_width=right - left - 90)
        draw_text(d, (right - 10, y + 17), f"R{a.defense}", fb, theme.ink_on(fill), "rm")
        y += 40
    if view.stack:
        y += 6
        draw_text(d, (left, y), "STACK (top first)", fb, theme.LIGHT, "la")
        y += 24
        for it in list(reversed(view.stack))[:3]:
            draw_text(d, (left + 8, y), "▸ " + it.name, f, theme.LIGHT, "la", max_width=right - left - 8)
            y += 22
    if view.foresight:
        y += 6
        draw_text(d, (left, y), "NEXT DRAWS (revealed)", fb, theme.LIGHT, "la")
        y += 24
        draw_text(
            d,
            (left + 8, y),
            ", ".join(c.name for c in view.foresight),
            f,
            theme.LIGHT,
            "la",
            max_width=right - left - 8,
        )
    bottom = PANELS_TOP + 2 * PANEL_H
    piles = f"Deck {view.hannibal_deck_size} · Discard {view.hannibal_discard_size} · Defended pile {view.defended_size}"
    draw_text(d, (left, bottom - 12), piles, f, theme.LIGHT_MUTED, "ls", max_width=right - left)


def _tent(d: ImageDraw.ImageDraw, cx: float, cy: float) -> None:
    """A camp tent: the Hannibal's Encampment mark."""
    d.polygon([(cx - 11, cy + 9), (cx, cy - 10), (cx + 11, cy + 9)], fill=theme.YELLOW, outline=theme.INK)
    d.polygon([(cx - 3, cy + 9), (cx, cy + 1), (cx + 3, cy + 9)], fill=theme.INK)


def _footer(img: Image.Image, view: View, names: Mapping[int, str]) -> None:
    d = ImageDraw.Draw(img)
    y = PANELS_TOP + 2 * PANEL_H + 22
    if view.phase == "over":
        text = view.end_reason
    elif view.waiting:
        who = ", ".join(_label(view, x, names) for x in view.waiting)
        text = f"Waiting for {who}: {view.prompt}"
    else:
        text = ""
    draw_text(d, (24, y + 14), text, face(theme.TEXT), theme.LIGHT, "lm", max_width=WIDTH - 48)
    legend = "C = Cost Zone card face down · up = face up · rot = rotated · ⌂ Encampment · ◆ Token · tent = Hannibal's Encampment · ⚔ Ambush · R n = defense cost · ● = ready"
    draw_text(d, (24, y + 44), legend, face(theme.MIN_TEXT), theme.LIGHT_MUTED, "lm", max_width=WIDTH - 48)


def _hand(img: Image.Image, hand: tuple[CardView, ...], top: int) -> None:
    d = ImageDraw.Draw(img)
    d.rectangle((0, top, WIDTH, top + HAND_BAND), fill=theme.HEADER)
    draw_text(d, (24, top + 12), "YOUR HAND", face(theme.MIN_TEXT, "bold"), theme.LIGHT, "la")
    if not hand:
        draw_text(d, (24, top + 50), "empty", face(theme.MIN_TEXT), theme.LIGHT_MUTED, "la")
        return
    n = len(hand)
    w = min(200, (WIDTH - 48 - 8 * (n - 1)) / n)
    for i, c in enumerate(hand):
        x = 24 + i * (w + 8)
        colour = TYPE_COLOUR.get(c.type, theme.PANEL_MUTED)
        d.rounded_rectangle(
            (x, top + 36, x + w, top + HAND_BAND - 10),
            radius=10,
            fill=theme.PANEL,
            outline=theme.INK,
            width=2,
        )
        d.rounded_rectangle((x + 4, top + 40, x + w - 4, top + 66), radius=6, fill=colour)
        draw_text(
            d,
            (x + 10, top + 53),
            c.name,
            face(theme.MIN_TEXT, "bold"),
            theme.ink_on(colour),
            "lm",
            max_width=w - 16,
        )
        cost = f"C{c.cost}" if c.cost is not None else (f"R{c.defense}" if c.defense is not None else "RX")
        draw_text(
            d,
            (x + 10, top + 80),
            f"{c.type} · {cost}",
            face(theme.MIN_TEXT),
            theme.INK,
            "la",
            max_width=w - 16,
        )
        body = c.line.split(" · ", 1)[1] if " · " in c.line else ""
        draw_text(
            d, (x + 10, top + 102), body, face(theme.MIN_TEXT - 2), theme.INK_MUTED, "la", max_width=w - 16
        )
