"""Roman War board image: the Roman team against the Hannibal deck.

Layout (1600 x 1050 pixels; a seat's own view adds its hand: 276 pixels a row of up to
seven cards, 90 when empty): the
header; a band with the round track (rounds 1-10, and 11 when a clearing round runs
past round 10), the team's shared Domination Level and the level abilities; up to
four Roman panels (Power 0-10, Maneuver level L0-L3, Cost Zone cards — face down,
face up, rotated — field cards with their attachments, hand, deck and discard counts);
and Hannibal's column: Encampments in play, active Ambushes with their target, the
stack, the revealed next draws and the piles. Colour is never the only cue: seats have
shapes and numbers, rotated cards say "rot", defended Ambushes carry a check and the
word. A seat's own face-down Cost Zone cards are named to it (it knows them).
"""

from __future__ import annotations

from collections.abc import Mapping

from PIL import Image, ImageDraw

from games.roman_war.model import CardView, RomanView, View

from . import draw as dr
from . import theme
from .record import cached_layer, panel
from .text import draw_fit, draw_text, face, fit_paragraph

WIDTH = 1600
HEIGHT = 1050
HAND_ROW = 236  # one row of up to HAND_ROW_CARDS hand cards
HAND_ROW_CARDS = 7
BAND_TOP = dr.HEADER_HEIGHT + 10
BAND_H = 118
PANELS_TOP = BAND_TOP + BAND_H + 10
PANEL_W, PANEL_H = 560, 360
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
    """(width, height) in pixels: the board, and a seat's own hand below it."""
    return WIDTH, HEIGHT + _hand_height(_own_hand(view))


def _hand_height(hand: tuple[CardView, ...] | None) -> int:
    if hand is None:
        return 0
    if not hand:
        return 90
    return 40 + HAND_ROW * max(1, -(-len(hand) // HAND_ROW_CARDS))


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
    """The board for ``view`` as an RGB image, 1600 x 1050 pixels (more with the
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
        with panel(f"Roman {r.seat + 1}", box, img.size):
            _panel(img, box, r, view, names.get(r.seat))
    with panel("Hannibal", (HANNIBAL_X, PANELS_TOP, WIDTH - 12, PANELS_TOP + 2 * PANEL_H + 14), img.size):
        _hannibal(img, view, names)
    with panel("footer", (0, PANELS_TOP + 2 * PANEL_H + 14, WIDTH, HEIGHT), img.size):
        _footer(img, view, names)
    hand = _own_hand(view)
    if hand is not None:
        with panel("hand", (0, HEIGHT, WIDTH, height), img.size):
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
        draw_fit(d, (cx + 75, cy + 16), mark, f.size, theme.INK if owned else theme.LIGHT_MUTED, 144, "mm")


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
    tags = [("YOU", theme.LIGHT)] if r.seat == view.viewer else []
    if active or waiting:
        tags.insert(0, ("TURN", theme.ACTIVE) if active else ("WAITING", theme.WAITING))
    tx = right - 14
    ft = face(theme.MIN_TEXT, "bold")
    for tag, fill in tags:
        tw = ft.length(tag) + 24
        d.rounded_rectangle((tx - tw, top + 12, tx, top + 42), radius=12, fill=fill, outline=theme.INK, width=2)
        draw_text(d, (tx - tw / 2, top + 27), tag, ft, theme.INK, "mm")
        tx -= tw + 6
    room = tx - left - 64
    draw_fit(d, (left + 58, top + 18), r.commander, theme.TEXT_BIG, theme.INK, room, style="bold")
    if name:
        draw_fit(d, (left + 58, top + 46), name, theme.MIN_TEXT, theme.INK_MUTED, room)
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
    draw_fit(d, (left + 16, y), line, f.size, theme.INK_MUTED if not status else theme.VERMILLION,
             right - left - 32, "lm")  # fmt: skip
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
    _cost_zone(img, (left + 16, y, right - 16, y + 88), r, view.viewer == r.seat)
    # Field
    y += 94
    draw_text(d, (left + 16, y), "FIELD", face(theme.MIN_TEXT, "bold"), theme.INK, "la")
    _field(img, (left + 16, y + 20, right - 16, bottom - 4), r)


def _cost_zone(img: Image.Image, box: tuple[int, int, int, int], r: RomanView, own: bool) -> None:
    """The Cost Zone as chips flowing in rows: face-down cards nobody may name grouped as "C ×n"
    (rotated ones apart), every named card (face up, or face down but the viewer's ``own``) on its
    own chip; "rot" marks a rotated card, "down" an own face-down one."""
    d = ImageDraw.Draw(img)
    left, top, right, bottom = box
    if not r.cost_zone:
        draw_text(d, (left, top + 4), "empty", face(theme.MIN_TEXT), theme.INK_MUTED, "la")
        return
    chips: list[tuple[str, tuple[int, int, int], bool]] = []  # (label, fill, rotated)
    for tapped in (False, True):
        hidden = sum(1 for c in r.cost_zone if c.card is None and c.tapped == tapped)
        if hidden:
            chips.append((f"C ×{hidden}" + (" rot" if tapped else ""), PUNIC, tapped))
    named: dict[tuple[str, bool, bool], int] = {}
    for c in r.cost_zone:
        if c.card is not None:
            key = (c.card.name, c.face_up, c.tapped)
            named[key] = named.get(key, 0) + 1
    for (name, up, tapped), n in named.items():
        label = name + (f" ×{n}" if n > 1 else "") + ("" if up else " down") + (" rot" if tapped else "")
        chips.append((label, theme.PANEL_MUTED if up else PUNIC, tapped))
    _chips(d, box, chips, theme.MIN_TEXT)


def _chips(d: ImageDraw.ImageDraw, box: tuple[float, float, float, float],
           chips: list[tuple[str, tuple[int, int, int], bool]], size: int) -> None:
    """Labelled chips flowing left to right in rows of 30 pixels within ``box``; the font shrinks
    (to 14 pixels) until they fit, and chips that still do not fit are counted ("+3 more")."""
    left, top, right, bottom = box

    def layout(f) -> list[tuple[float, float, float]]:
        """(x, y, width) of each chip, flowing into as many rows as needed."""
        out, x, y = [], left, top
        for label, _, _ in chips:
            w = min(f.length(label) + 18, right - left)
            if x + w > right and x > left:
                x, y = left, y + 30
            out.append((x, y, w))
            x += w + 6
        return out

    for s in range(size, 13, -1):
        f = face(s, "bold")
        places = layout(f)
        if places[-1][1] + 26 <= bottom:
            break
    keep = len(places)
    more = ""
    if places[-1][1] + 26 > bottom:  # drop chips until "+n more" fits after the last one kept
        keep = sum(1 for _, y, _ in places if y + 26 <= bottom)
        while keep > 0:
            more = f"+{len(chips) - keep} more"
            x, y, w = places[keep - 1]
            if x + w + 6 + f.length(more) <= right:
                break
            keep -= 1
    for (label, fill, rotated), (x, y, w) in zip(chips[:keep], places[:keep], strict=True):
        colour = theme.mix(fill, theme.PANEL, 0.45) if rotated else fill
        d.rounded_rectangle((x, y, x + w, y + 26), radius=6, fill=colour, outline=theme.INK, width=1 if rotated else 2)
        draw_text(d, (x + 9, y + 13), label, f, theme.ink_on(colour), "lm", max_width=w - 12)
    if more:
        x, y = (places[keep - 1][0] + places[keep - 1][2] + 6, places[keep - 1][1]) if keep else (left, top)
        draw_text(d, (x, y + 13), more, f, theme.INK, "lm")


def _field(img: Image.Image, box: tuple[int, int, int, int], r: RomanView) -> None:
    d = ImageDraw.Draw(img)
    left, top, right, bottom = box
    if not r.field:
        draw_text(d, (left, top + 4), "no Encampments or Tokens", face(theme.MIN_TEXT), theme.INK_MUTED, "la")
        return
    chips = []
    for fc in r.field:
        mark = "⌂ " if fc.card.type == "Encampment" else "◆ "
        label = mark + fc.card.name + "".join(f" + {a.name}" for a in fc.attached) + (" (rot)" if fc.tapped else "")
        chips.append((label, TYPE_COLOUR.get(fc.card.type, theme.PANEL_MUTED), fc.tapped))
    _chips(d, box, chips, theme.MIN_TEXT)


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
        you = " (you)" if view.viewer in hs else ""
        draw_fit(d, (left, y), f"played by {players}{you} · hand {view.hannibal_hand_size}", f.size,
                 theme.LIGHT_MUTED, right - left)  # fmt: skip
        y += 26
    draw_text(d, (left, y), f"ENCAMPMENTS IN PLAY ({len(view.encampments)})", fb, theme.LIGHT, "la")
    y += 26
    if not view.encampments:
        draw_text(d, (left, y), "none — clear them all to win", f, theme.LIGHT_MUTED, "la")
        y += 26
    # the same card at the same defence is one row with its count ("Camp at Capua ×2")
    camps: dict[tuple[str, int], list] = {}
    for e in view.encampments:
        camps.setdefault((e.card.name, e.defense), []).append(e)
    ambushes: dict[tuple[str, int, int, bool], list] = {}
    for a in view.ambushes:
        ambushes.setdefault((a.card.name, a.target, a.defense, a.defended), []).append(a)
    rows = len(camps) + len(ambushes)
    room = PANELS_TOP + 2 * PANEL_H - 40 - y - 60 - (30 + 22 * min(3, len(view.stack)) if view.stack else 0)
    room -= 54 if view.foresight else 0
    tall = rows * 62 <= room  # room for each card's printed effect under its name
    rh = 56 if tall else 34
    fe = face(14)

    def effect(card: CardView) -> str:
        return card.line.split(" · ", 1)[1] if " · " in card.line else ""

    def counted(name: str, n: int) -> str:
        return name + (f" \u00d7{n}" if n > 1 else "")

    for (name, defense), group in camps.items():
        d.rounded_rectangle(
            (left, y, right, y + rh), radius=8, fill=(88, 62, 110), outline=theme.LIGHT_MUTED, width=1
        )
        _tent(d, left + 20, y + 17)
        draw_fit(d, (left + 36, y + 17), counted(name, len(group)), fb.size, theme.LIGHT, right - left - 90, "lm",
                 "bold")  # fmt: skip
        draw_text(d, (right - 10, y + 17), f"R{defense}", fb, theme.YELLOW, "rm")
        if tall:
            draw_fit(d, (left + 36, y + 32), effect(group[0].card), fe.size, theme.LIGHT_MUTED, right - left - 46)
        y += rh + 6
    y += 8
    draw_text(d, (left, y), f"ACTIVE AMBUSHES ({len(view.ambushes)})", fb, theme.LIGHT, "la")
    y += 26
    if not view.ambushes:
        draw_text(d, (left, y), "none", f, theme.LIGHT_MUTED, "la")
        y += 26
    for (name, target, defense, defended), group in ambushes.items():
        fill = theme.GOOD if defended else theme.VERMILLION
        d.rounded_rectangle((left, y, right, y + rh), radius=8, fill=fill, outline=theme.INK, width=2)
        dr.paste_badge(img, theme.seat_style(target), (left + 18, y + 17), 26)
        text = ("✓ defended: " if defended else "⚔ ") + counted(name, len(group))
        draw_fit(d, (left + 36, y + 17), text, fb.size, theme.ink_on(fill), right - left - 90, "lm", "bold")
        draw_text(d, (right - 10, y + 17), f"R{defense}", fb, theme.ink_on(fill), "rm")
        if tall:
            draw_fit(d, (left + 36, y + 32), effect(group[0].card), fe.size, theme.ink_on(fill), right - left - 46)
        y += rh + 6
    if view.stack:
        y += 6
        draw_text(d, (left, y), "STACK (top first)", fb, theme.LIGHT, "la")
        y += 24
        for it in list(reversed(view.stack))[:3]:
            draw_fit(d, (left + 8, y), "▸ " + it.name, f.size, theme.LIGHT, right - left - 8)
            y += 22
    if view.foresight:
        y += 6
        draw_text(d, (left, y), "NEXT DRAWS (revealed)", fb, theme.LIGHT, "la")
        y += 24
        fs, lines = fit_paragraph(", ".join(c.name for c in view.foresight), right - left - 8, 60, f.size)
        for k, line in enumerate(lines):
            draw_text(d, (left + 8, y + k * fs.line_height), line, fs, theme.LIGHT)
    bottom = PANELS_TOP + 2 * PANEL_H
    piles = f"Deck {view.hannibal_deck_size} · Discard {view.hannibal_discard_size} · Defended pile {view.defended_size}"
    draw_fit(d, (left, bottom - 12), piles, f.size, theme.LIGHT_MUTED, right - left, "ls")


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
    f, lines = fit_paragraph(text, WIDTH - 48, 46, theme.TEXT)
    for i, line in enumerate(lines):
        draw_text(d, (24, y + i * f.line_height), line, f, theme.LIGHT)
    legend = ("Cost Zone: dark = face down (C ×n: n cards), light = face up, down = your own face-down card, "
              "rot = rotated · ⌂ Encampment · ◆ Token · tent = Hannibal's Encampment · ⚔ Ambush · "
              "R n = defense cost · ● = ready")  # fmt: skip
    draw_fit(d, (24, HEIGHT - 14), legend, theme.MIN_TEXT, theme.LIGHT_MUTED, WIDTH - 48, "lm")


def _hand(img: Image.Image, hand: tuple[CardView, ...], top: int) -> None:
    """The viewer's own hand: one card face per card (its name, type, cost and printed line),
    up to seven a row."""
    d = ImageDraw.Draw(img)
    d.rectangle((0, top, WIDTH, img.height), fill=theme.HEADER)
    draw_text(d, (24, top + 12), f"YOUR HAND ({len(hand)})", face(theme.MIN_TEXT, "bold"), theme.LIGHT, "la")
    if not hand:
        draw_text(d, (24, top + 50), "empty", face(theme.MIN_TEXT), theme.LIGHT_MUTED, "la")
        return
    n = min(len(hand), HAND_ROW_CARDS)
    w = min(240, (WIDTH - 48 - 8 * (n - 1)) / n)
    for i, c in enumerate(hand):
        row, col = divmod(i, HAND_ROW_CARDS)
        x = 24 + col * (w + 8)
        y = top + 36 + row * HAND_ROW
        colour = TYPE_COLOUR.get(c.type, theme.PANEL_MUTED)
        card = (x, y, x + w, y + HAND_ROW - 10)
        with panel(f"hand card {i + 1}", card, img.size):
            d.rounded_rectangle(card, radius=10, fill=theme.PANEL, outline=theme.INK, width=2)
            d.rounded_rectangle((x + 4, y + 4, x + w - 4, y + 30), radius=6, fill=colour)
            draw_fit(d, (x + 10, y + 17), c.name, theme.MIN_TEXT, theme.ink_on(colour), w - 16, "lm", "bold")
            cost = f"C{c.cost}" if c.cost is not None else (f"R{c.defense}" if c.defense is not None else "RX")
            draw_fit(d, (x + 10, y + 36), f"{c.type} · {cost}", theme.MIN_TEXT, theme.INK, w - 16)
            body = c.line.split(" · ", 1)[1] if " · " in c.line else ""
            f, lines = fit_paragraph(body, w - 16, HAND_ROW - 10 - 60 - 6, theme.MIN_TEXT)
            for k, line in enumerate(lines):
                draw_text(d, (x + 10, y + 60 + k * f.line_height), line, f, theme.INK_MUTED)
