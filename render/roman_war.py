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

import re
from collections.abc import Mapping

from PIL import Image, ImageDraw

from games.core.english import possessive
from games.roman_war.model import CardView, RomanView, View

from . import draw as dr
from . import theme
from .paint import Draw
from .phone import HandCard
from .record import cached_layer, panel
from .text import Face, draw_fit, draw_text, face, fit_paragraph, wrap

WIDTH = 1600
HEIGHT = 1050
HAND_ROW = 276  # the tallest row of up to HAND_ROW_CARDS hand cards (the longest card text at 14 px)
HAND_ROW_MIN = 150
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


# the glossary's marks spelled out for the board (the console shows the marks; the board is read
# by players with buttons)
_PLAIN = (
    (re.compile(r"(\u26a1)?B\* C(\d+): "), lambda m: f"{m[1] or ''}boost (anyone pays {m[2]}): "),
    (re.compile(r"(\u26a1)?B\+ C(\d+): "), lambda m: f"{m[1] or ''}boost (a teammate pays {m[2]}): "),
    (re.compile(r"(\u26a1)?B C(\d+): "), lambda m: f"{m[1] or ''}boost (pay {m[2]}): "),
    (re.compile(r"\bD(\d+)\.cz \.fup\b"), lambda m: f"draw {m[1]} into your Cost Zone face up"),
    (re.compile(r"\bD(\d+)\.cz\b"), lambda m: f"draw {m[1]} into your Cost Zone"),
    (re.compile(r"\bD(\d+) to \.hand\b"), lambda m: f"draw {m[1]} to hand"),
    (re.compile(r"\bD(\d+)\b"), lambda m: f"draw {m[1]}"),
    (re.compile(r"\bH([+-])(\d+)\b"), lambda m: f"Power {m[1]}{m[2]}"),
)
# console syntax in a prompt: "(boost <n>)", "(defend <ambush>, play a Defense card)"
_SYNTAX = re.compile(r" \((?:[a-z]+ <[a-z ]+>)(?:, ([^)]*))?\)")


def plain(text: str) -> str:
    """A card's printed line with the glossary's marks in words: "B+ C1: H+1" reads
    "boost (a teammate pays 1): Power +1", "D1.cz" reads "draw 1 into your Cost Zone"."""
    for pattern, words in _PLAIN:
        text = pattern.sub(words, text)
    return text


def without_syntax(prompt: str) -> str:
    """A prompt without the console's command syntax: "Take a boost of Forced March (boost <n>),
    or pass." reads "Take a boost of Forced March, or pass."; a note beside the syntax stays."""
    return _SYNTAX.sub(lambda m: f" ({m[1]})" if m[1] else "", prompt)


# the board's key, two lines at the smallest text size
KEY = (
    "Cost Zone: dark chip = face down (only its owner sees which card) · light = face up · "
    "\u21bb rotated (paid with this round) · \u2302 Roman Encampment · \u25c6 Token · \u26a1 fast (also as a response)",
    "cost n: rotate n untapped Cost Zone cards · R n: cost to defend an Ambush (\u2694) or break an Encampment "
    "(purple \u25b2) · L3 \u2605: top Maneuver level (win needs it) · \u2713 ability bought, \u25cf ready",
)
KEY_INK = (196, 200, 210)


def image_size(view: View) -> tuple[int, int]:
    """(width, height) in pixels: the board, and a seat's own hand below it."""
    return WIDTH, HEIGHT + _hand_height(_own_hand(view))


def _hand_height(hand: tuple[CardView, ...] | None) -> int:
    if hand is None:
        return 0
    if not hand:
        return 90
    return 40 + _hand_grid(hand)[1] * max(1, -(-len(hand) // HAND_ROW_CARDS))


def _hand_grid(hand: tuple[CardView, ...]) -> tuple[float, int]:
    """(card width, row height) in pixels of the hand: a few cards wider, up to seven a row; the
    rows as tall as the longest card text needs at 18 pixels (text shrinks to fit HAND_ROW)."""
    n = max(1, min(len(hand), HAND_ROW_CARDS))
    w = min(320, (WIDTH - 48 - 8 * (n - 1)) / n)
    f = face(theme.TEXT - 2)
    need = max((len(wrap(_body(c), f, w - 16)) for c in hand), default=0) * f.line_height
    return w, max(HAND_ROW_MIN, min(HAND_ROW, 10 + 66 + need + 12))


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
    d = Draw(img)
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


def hand_cards(view: View) -> tuple[str, list[HandCard]] | None:
    """The viewer's hand for the phone hand image (``render.phone``): each card as the board's
    hand shows it, its name, type and cost, and what it does in words; None without a hand."""
    hand = _own_hand(view)
    if hand is None:
        return None
    cards = [HandCard(c.name, _kind(c), _body(c), TYPE_COLOUR.get(c.type, theme.PANEL_MUTED)) for c in hand]
    return f"Your hand ({len(hand)})", cards


def _kind(c: CardView) -> str:
    """A card's type and cost line: "⚡ fast Tactic · cost 1", "Ambush · defend: R2"."""
    if c.cost is not None:
        cost = f"cost {c.cost}"
    else:
        cost = f"defend: R{c.defense}" if c.defense is not None else "defend: RX"
    fast = "\u26a1 fast " if c.line.startswith("\u26a1") else ""
    return f"{fast}{c.type} \u00b7 {cost}"


def _body(c: CardView) -> str:
    """What a card does, its printed line after the type and cost, the marks in words."""
    return plain(c.line.split(" \u00b7 ", 1)[1]) if " \u00b7 " in c.line else ""


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
    for i, r in enumerate(view.romans):
        box = _panel_box(i, len(view.romans))
        with panel(f"Roman {r.seat + 1}", box, img.size):
            _panel(img, box, r, view, names.get(r.seat))
    if len(view.romans) <= 3:
        box = (24, PANELS_TOP + 8 + PANEL_H, HANNIBAL_X - 26, PANELS_TOP + 2 * PANEL_H + 4)
        if len(view.romans) == 3:  # the fourth place of the grid
            box = _panel_box(3, 4)
        with panel("turn", box, img.size):
            _turn_guide(img, box, view)
    with panel("Hannibal", (HANNIBAL_X, PANELS_TOP, WIDTH - 12, PANELS_TOP + 2 * PANEL_H + 14), img.size):
        _hannibal(img, view, names)
    with panel("footer", (0, PANELS_TOP + 2 * PANEL_H + 14, WIDTH, HEIGHT), img.size):
        _footer(img, view, names)
    hand = _own_hand(view)
    if hand is not None:
        with panel("hand", (0, HEIGHT, WIDTH, height), img.size):
            _hand(img, hand, HEIGHT)
    return img


def _panel_box(index: int, romans: int) -> tuple[int, int, int, int]:
    """(left, top, right, bottom) of the ``index``-th Roman panel: a 2 x 2 grid for 3-4 Romans; with 1-2
    each panel takes the table's full height (their Cost Zones and fields have the room)."""
    left, right = 24, HANNIBAL_X - 26
    top, bottom = PANELS_TOP + 8, PANELS_TOP + 2 * PANEL_H + 4
    cols = 1 if romans == 1 else 2
    rows = 1 if romans <= 2 else 2
    if romans <= 2:  # the lower half shows the turn's phases (_turn_guide)
        bottom = top + PANEL_H - 10
    w = (right - left - 12 * (cols - 1)) // cols
    h = (bottom - top - 10 * (rows - 1)) // rows
    col, row = index % cols, index // cols
    x, y = left + col * (w + 12), top + row * (h + 10)
    return x, y, x + w, y + h


COST_ZONE_PER_TURN = 4  # rule text: "Play up to 4 cards face-down from your hand to your Cost Zone"
HAND_LIMIT = 7  # RULINGS.md R4
# a Roman turn's phases, as the rule text gives them, with what each player does in them
TURN = (
    ("cost", "Cost Zone", f"untap all your cards; draw Maneuver + 2; put up to {COST_ZONE_PER_TURN} hand cards "
     "face down into your Cost Zone"),
    ("purchase", "Purchase", "the team may buy a level ability with Cost (11 high tier, 7 low tier)"),
    ("hannibal", "Hannibal", "Hannibal draws and plays as many cards as you drew, less 1 (Maneuver 2+: Maneuver + 2)"),
    ("defense", "Defense", "defend each Ambush (pay its R n or play a Defense card) or suffer its Chaos: Power -1 and more"),
    ("main", "Main", "play Maneuver (+1 level each), Encampment, Token, Tactic cards; rotate field cards; "
     "pay R n to break an Encampment"),
    ("end", "End", f"discard down to {HAND_LIMIT} cards; the next Roman's turn starts"),
)  # fmt: skip


def _turn_guide(img: Image.Image, box: tuple[int, int, int, int], view: View) -> None:
    """With one to three Romans, the free part of the table: the phases of a Roman turn, the
    current one marked, each with what is done in it (rule text, turn sequence); the phases'
    track too when the box is wide (one or two Romans)."""
    d = Draw(img)
    left, top, right, bottom = box
    d.rounded_rectangle(box, radius=14, fill=(38, 62, 52), outline=theme.INK, width=2)
    who = view.romans[view.active].commander if view.active is not None and view.active < len(view.romans) else None
    title = "A ROMAN TURN" + (f" \u00b7 now {possessive(who)}" if who and view.phase != "over" else "")
    draw_fit(d, (left + 16, top + 12), title, theme.MIN_TEXT, theme.LIGHT, right - left - 32, style="bold")
    now = [p for p, _, _ in TURN].index(view.phase) if view.phase in [p for p, _, _ in TURN] else -1
    y = top + 40
    wide = right - left > 800
    if wide:
        dr.step_track(
            d,
            (left + 16, top + 40, right - 16, top + 76),
            [dr.Step(name, current=i == now, done=i < now) for i, (_, name, _) in enumerate(TURN)],
        )
        y = top + 90
    for size in range(theme.MIN_TEXT, 13, -1):
        f = face(size)
        lines = [wrap(what, f, right - left - 146) for _, _, what in TURN]
        gap = (bottom - 8 - y - sum(len(x) for x in lines) * f.line_height) / len(TURN)
        if gap >= 2:
            break
    fb = face(f.size, "bold")
    for i, ((_, name, _), para) in enumerate(zip(TURN, lines, strict=True)):
        colour = theme.YELLOW if i == now else theme.LIGHT_MUTED
        draw_text(d, (left + 16, y), name, fb, colour, "la")
        for line in para:
            draw_text(d, (left + 130, y), line, f, colour, "la")
            y += f.line_height
        y += min(gap, 14)


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
    d = Draw(img)
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
    c = view.clearing if view.phase != "over" else None
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
    x = 940
    title = "LEVEL ABILITIES" if view.level_abilities else "LEVEL ABILITIES (off)"
    draw_text(d, (x, top + 2), title, face(theme.MIN_TEXT, "bold"), theme.LIGHT_MUTED, "la")
    f = face(theme.MIN_TEXT)
    for i, (aid, name) in enumerate(ABILITIES):
        cx = x + (i % 4) * 162
        cy = top + 24 + (i // 4) * 38
        owned = aid in view.abilities
        fill = theme.GOOD if owned else None
        d.rounded_rectangle(
            (cx, cy, cx + 158, cy + 32),
            radius=8,
            fill=fill,
            outline=theme.LIGHT if owned else theme.LIGHT_MUTED,
            width=2,
        )
        mark = ("✓ " if owned else "") + name + (" ●" if aid in view.charged else "")
        draw_fit(d, (cx + 79, cy + 16), mark, f.size, theme.INK if owned else theme.LIGHT_MUTED, 146, "mm")


def _panel(
    img: Image.Image, box: tuple[int, int, int, int], r: RomanView, view: View, name: str | None
) -> None:
    d = Draw(img)
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
    width = draw_fit(d, (left + 58, top + 40), r.commander, theme.TEXT_BIG, theme.INK, room, "ls", "bold")
    if name:  # the player's name after the commander's, on the same baseline
        draw_fit(d, (left + 64 + width, top + 40), f"\u00b7 {name}", theme.MIN_TEXT, theme.INK_MUTED, room - width - 6,
                 "ls")  # fmt: skip
    # Power
    y = top + 66
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
    # Cost Zone and field share the rest of the panel: the largest chip font (16 down to 14
    # pixels) at which both fit; when chips do not fit even at 14 pixels, the cards of a kind
    # (face down, face up, rotated) share one box as a wrapped list; nothing is left out
    y += 20
    fb = face(theme.MIN_TEXT, "bold")
    draw_text(d, (left + 16, y), f"COST ZONE  {r.untapped_cost} of {len(r.cost_zone)} untapped", fb, theme.INK, "la")
    cz, fl = _cost_zone_chips(r), _field_chips(r)
    width = right - left - 32
    y += 22
    room = bottom - 4 - y - 6  # less the gap above the field
    heading = fb.length("FIELD") + 10  # the FIELD heading left of the field's cards, when on one row
    cz_as, fl_as, size, inline = _zone_layout(cz, fl, width, room, heading)
    h = _height(cz, width, size, cz_as)
    fx, fy = (left + 16 + heading, h + 6) if inline else (left + 16, h + 26)
    fh = _height(fl, right - 16 - fx, size, fl_as)
    if not cz:
        draw_text(d, (left + 16, y + 4), "empty", face(theme.MIN_TEXT), theme.INK_MUTED, "la")
    elif cz_as == "chips":
        _chips(d, (left + 16, y, right - 16, max(y + h, bottom - 4 - fh - (fy - h))), cz, size)
    else:
        _blocks(d, (left + 16, y, right - 16), cz, size)
    y += h + 6
    draw_text(d, (left + 16, y + (4 if inline else 0)), "FIELD", fb, theme.INK, "la")
    y += fy - h - 6
    if not fl:
        draw_text(d, (fx, y + 4), "no Encampments or Tokens", face(theme.MIN_TEXT), theme.INK_MUTED, "la")
    elif fl_as == "chips":
        _chips(d, (fx, y, right - 16, bottom - 4), fl, size)
    else:
        _blocks(d, (fx, y, right - 16), fl, size)


def _zone_layout(
    cz: list[Chip], fl: list[Chip], width: float, room: float, heading: float
) -> tuple[str, str, int, bool]:
    """(how the Cost Zone is drawn, how the field is drawn, font size, whether the FIELD heading
    shares the field's first row): chips at the largest size (16 down to 14 pixels) at which both
    fit ``room`` pixels under a FIELD heading row; else the Cost Zone, then the field too, as
    wrapped lists ("blocks", see ``_blocks``), the heading on the field's row (``heading``
    pixels wide) when still needed."""
    for inline in (False, True):
        fw = width - heading if inline else width
        for cz_as, fl_as in (("chips", "chips"), ("blocks", "chips"), ("blocks", "blocks")):
            for size in range(theme.MIN_TEXT, 13, -1):
                need = _height(cz, width, size, cz_as) + _height(fl, fw, size, fl_as) + (0 if inline else 20)
                if need <= room:
                    return cz_as, fl_as, size, inline
    return "blocks", "blocks", 14, True


def _height(chips: list[Chip], width: float, size: int, kind: str) -> int:
    return _chips_height(chips, width, size) if kind == "chips" else _blocks_height(chips, width, size)


Chip = tuple[str, tuple[int, int, int], bool]  # (label, fill, rotated)


def _cost_zone_chips(r: RomanView) -> list[Chip]:
    """The Cost Zone as chips: face-down cards the viewer may not name counted ("5 face down"),
    every named card (face up, or the viewer's own face down) on its own chip, the same card in
    the same state counted ("Rally ×2"); "↻" marks rotated cards, dark chips face-down ones."""
    chips: list[Chip] = []
    for tapped in (False, True):
        hidden = sum(1 for c in r.cost_zone if c.card is None and c.tapped == tapped)
        if hidden:
            chips.append((f"{hidden} face down" + (" \u21bb" if tapped else ""), PUNIC, tapped))
    named: dict[tuple[str, bool, bool], int] = {}
    for c in r.cost_zone:
        if c.card is not None:
            key = (c.card.name, c.face_up, c.tapped)
            named[key] = named.get(key, 0) + 1
    for (name, up, tapped), n in sorted(named.items(), key=lambda kv: (kv[0][1], kv[0][2], kv[0][0])):
        label = name + (f" \u00d7{n}" if n > 1 else "") + (" \u21bb" if tapped else "")
        chips.append((label, theme.PANEL_MUTED if up else PUNIC, tapped))
    return chips


def _field_chips(r: RomanView) -> list[Chip]:
    """Field cards as chips: "⌂" an Encampment, "◆" a Token, attachments after "+", "↻" rotated."""
    chips: list[Chip] = []
    for fc in r.field:
        mark = "\u2302 " if fc.card.type == "Encampment" else "\u25c6 "
        label = mark + fc.card.name + "".join(f" + {a.name}" for a in fc.attached) + (" \u21bb" if fc.tapped else "")
        chips.append((label, TYPE_COLOUR.get(fc.card.type, theme.PANEL_MUTED), fc.tapped))
    return chips


def _flow(chips: list[Chip], width: float, size: int) -> list[tuple[float, int, float]]:
    """(x offset, row, width) of each chip flowing left to right in rows ``width`` pixels wide."""
    f = face(size, "bold")
    out, x, row = [], 0.0, 0
    for label, _, _ in chips:
        w = min(f.length(label) + 18, width)
        if x + w > width and x > 0:
            x, row = 0.0, row + 1
        out.append((x, row, w))
        x += w + 6
    return out


def _chips_height(chips: list[Chip], width: float, size: int) -> int:
    """Pixels the ``chips`` take in rows of 30 pixels (26 for one row); 26 when there are none."""
    if not chips:
        return 26
    return 30 * _flow(chips, width, size)[-1][1] + 26


def _kinds(chips: list[Chip]) -> list[tuple[tuple[int, int, int], list[str]]]:
    """The chips' labels gathered by fill (face down, face up; a rotated card's label says
    "↻"): (fill, labels) in the chips' order."""
    out: dict[tuple[int, int, int], list[str]] = {}
    for label, fill, _ in chips:
        out.setdefault(fill, []).append(label)
    return list(out.items())


def _pack(labels: list[str], f: Face, width: float) -> list[str]:
    """``labels`` joined by " · " in lines at most ``width`` pixels wide, a label never split
    (one longer than a line is wrapped on its own)."""
    lines: list[str] = []
    for label in labels:
        if lines and f.length(lines[-1] + " \u00b7 " + label) <= width:
            lines[-1] += " \u00b7 " + label
        elif f.length(label) <= width:
            lines.append(label)
        else:
            lines += wrap(label, f, width)
    return lines


def _blocks_height(chips: list[Chip], width: float, size: int) -> int:
    """Pixels ``_blocks`` takes: each fill's box, 8 pixels of padding and its wrapped lines, 6 apart."""
    if not chips:
        return 26
    f = face(size, "bold")
    lines = [_pack(labels, f, width - 18) for _, labels in _kinds(chips)]
    return sum(8 + f.line_height * len(x) for x in lines) + 6 * (len(lines) - 1)


def _blocks(d: ImageDraw.ImageDraw, box: tuple[float, float, float], chips: list[Chip], size: int) -> None:
    """The chips as one box per fill (face down, face up) holding their labels as a wrapped
    list ("Castra · Levy · March ×2 · Socii ↻"), from the top of ``box`` (left, top, right) down."""
    left, y, right = box
    f = face(size, "bold")
    for fill, labels in _kinds(chips):
        lines = _pack(labels, f, right - left - 18)
        h = 8 + f.line_height * len(lines)
        d.rounded_rectangle((left, y, right, y + h), radius=6, fill=fill, outline=theme.INK, width=2)
        for k, line in enumerate(lines):
            draw_text(d, (left + 9, y + 4 + k * f.line_height), line, f, theme.ink_on(fill), "la")
        y += h + 6


def _chips(d: ImageDraw.ImageDraw, box: tuple[float, float, float, float], chips: list[Chip], size: int) -> None:
    """Labelled chips flowing left to right in rows of 30 pixels within ``box``; the font shrinks
    from ``size`` (to 14 pixels) until they fit, and chips that still do not fit are counted
    ("+3 more")."""
    left, top, right, bottom = box
    for s in range(size, 13, -1):
        f = face(s, "bold")
        places = [(left + x, top + 30 * row, w) for x, row, w in _flow(chips, right - left, s)]
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


def _hannibal(img: Image.Image, view: View, names: Mapping[int, str]) -> None:
    d = Draw(img)
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
        if len(hs) == 1:
            players = names.get(hs[0]) or f"seat {hs[0] + 1}"
        if view.viewer in hs:
            ft = face(theme.MIN_TEXT, "bold")
            tw = ft.length("YOU") + 24
            d.rounded_rectangle((right - tw, PANELS_TOP + 10, right, PANELS_TOP + 40), radius=12, fill=theme.LIGHT,
                                outline=theme.INK, width=2)  # fmt: skip
            draw_text(d, (right - tw / 2, PANELS_TOP + 25), "YOU", ft, theme.INK, "mm")
        draw_fit(d, (left, y), f"played by {players} · hand {view.hannibal_hand_size}", f.size,
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
    room = PANELS_TOP + 2 * PANEL_H - 40 - y - 60 - (30 + 22 * min(3, len(view.stack)) if view.stack else 0)
    room -= 54 if view.foresight else 0
    fe = face(15)

    def effect(card: CardView) -> str:
        text = card.line.split(" · ", 1)[1] if " · " in card.line else ""
        if text.endswith("each Roman turn: none"):
            return "no effect on the Romans' turns"
        return plain(text)

    # each card's printed effect under its name (wrapped) when all of them have room
    lines = {k: wrap(effect(g[0].card), fe, right - left - 46) for k, g in (*camps.items(), *ambushes.items())}
    tall = sum(40 + fe.line_height * len(v) for v in lines.values()) <= room

    def counted(name: str, n: int) -> str:
        return name + (f" \u00d7{n}" if n > 1 else "")

    for (name, defense), group in camps.items():
        rh = 34 + fe.line_height * len(lines[(name, defense)]) if tall else 34
        d.rounded_rectangle(
            (left, y, right, y + rh), radius=8, fill=(88, 62, 110), outline=theme.LIGHT_MUTED, width=1
        )
        _tent(d, left + 20, y + 17)
        draw_fit(d, (left + 36, y + 17), counted(name, len(group)), fb.size, theme.LIGHT, right - left - 90, "lm",
                 "bold")  # fmt: skip
        draw_text(d, (right - 10, y + 17), f"R{defense}", fb, theme.YELLOW, "rm")
        for k, line in enumerate(lines[(name, defense)] if tall else ()):
            draw_text(d, (left + 36, y + 31 + k * fe.line_height), line, fe, theme.LIGHT_MUTED)
        y += rh + 6
    y += 8
    draw_text(d, (left, y), f"ACTIVE AMBUSHES ({len(view.ambushes)})", fb, theme.LIGHT, "la")
    y += 26
    if not view.ambushes:
        draw_text(d, (left, y), "none", f, theme.LIGHT_MUTED, "la")
        y += 26
    for (name, target, defense, defended), group in ambushes.items():
        rh = 34 + fe.line_height * len(lines[(name, target, defense, defended)]) if tall else 34
        fill = theme.GOOD if defended else theme.VERMILLION
        d.rounded_rectangle((left, y, right, y + rh), radius=8, fill=fill, outline=theme.INK, width=2)
        dr.paste_badge(img, theme.seat_style(target), (left + 18, y + 17), 26)
        text = ("✓ defended: " if defended else "⚔ ") + counted(name, len(group))
        draw_fit(d, (left + 36, y + 17), text, fb.size, theme.ink_on(fill), right - left - 90, "lm", "bold")
        draw_text(d, (right - 10, y + 17), f"R{defense}", fb, theme.ink_on(fill), "rm")
        for k, line in enumerate(lines[(name, target, defense, defended)] if tall else ()):
            draw_text(d, (left + 36, y + 31 + k * fe.line_height), line, fe, theme.ink_on(fill))
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
    # in the room left: how the Hannibal deck plays (rule text, turn sequence and Power)
    if view.foresight:
        y += 24 + fs.line_height * len(lines)
    fh = face(theme.MIN_TEXT)
    guide = [wrap(text, fh, right - left - 8) for text in HANNIBAL_GUIDE]
    need = 30 + sum(len(x) * fh.line_height + 6 for x in guide)
    while guide and bottom - 40 - need < y + 10:  # as many of its paragraphs as the room holds
        need -= len(guide.pop()) * fh.line_height + 6
    if guide:
        gy = bottom - 40 - need
        draw_text(d, (left, gy), "HOW HANNIBAL PLAYS", fb, theme.LIGHT, "la")
        gy += 26
        for para in guide:
            for line in para:
                draw_text(d, (left + 4, gy), line, fh, theme.LIGHT_MUTED)
                gy += fh.line_height
            gy += 6
    piles = f"Deck {view.hannibal_deck_size} · Discard {view.hannibal_discard_size} · Defended pile {view.defended_size}"
    draw_fit(d, (left, bottom - 12), piles, f.size, theme.LIGHT_MUTED, right - left, "ls")


HANNIBAL_GUIDE = (
    "Each Roman turn, after the Purchase phase, Hannibal draws and plays as many cards as that Roman drew, "
    "less 1 (Maneuver 2+: Maneuver + 2).",
    "An Encampment acts on every Roman turn until a Roman pays its R n in the Main phase to break it.",
    "An Ambush strikes one Roman: defend it in the Defense phase (pay its R n or play a Defense card) or "
    "suffer Chaos: Power -1 and its listed effect.",
    "Hannibal wins if Rome has not won by the end of the last round.",
)


def _tent(d: ImageDraw.ImageDraw, cx: float, cy: float) -> None:
    """A camp tent: the Hannibal's Encampment mark."""
    d.polygon([(cx - 11, cy + 9), (cx, cy - 10), (cx + 11, cy + 9)], fill=theme.YELLOW, outline=theme.INK)
    d.polygon([(cx - 3, cy + 9), (cx, cy + 1), (cx + 3, cy + 9)], fill=theme.INK)


def _footer(img: Image.Image, view: View, names: Mapping[int, str]) -> None:
    d = Draw(img)
    y = PANELS_TOP + 2 * PANEL_H + 22
    if view.phase == "over":
        text = view.end_reason
    elif view.waiting:
        who = ", ".join(_label(view, x, names) for x in view.waiting)
        text = f"Waiting for {who}: {view.prompt}"
    else:
        text = ""
    f, lines = fit_paragraph(without_syntax(text), WIDTH - 48, 46, theme.TEXT)
    for i, line in enumerate(lines):
        draw_text(d, (24, y + i * f.line_height), line, f, theme.LIGHT)
    fk = face(theme.MIN_TEXT)
    for i, line in enumerate(KEY):
        draw_fit(d, (24, HEIGHT - 40 + i * 22), line, fk.size, KEY_INK, WIDTH - 48, "lm")


def _hand(img: Image.Image, hand: tuple[CardView, ...], top: int) -> None:
    """The viewer's own hand: one card face per card (its name, type, cost and printed line),
    up to seven a row."""
    d = Draw(img)
    d.rectangle((0, top, WIDTH, img.height), fill=theme.HEADER)
    draw_text(d, (24, top + 12), f"YOUR HAND ({len(hand)})", face(theme.MIN_TEXT, "bold"), theme.LIGHT, "la")
    if not hand:
        draw_text(d, (24, top + 50), "empty", face(theme.MIN_TEXT), theme.LIGHT_MUTED, "la")
        return
    w, row_h = _hand_grid(hand)
    for i, c in enumerate(hand):
        row, col = divmod(i, HAND_ROW_CARDS)
        x = 24 + col * (w + 8)
        y = top + 36 + row * row_h
        colour = TYPE_COLOUR.get(c.type, theme.PANEL_MUTED)
        card = (x, y, x + w, y + row_h - 10)
        with panel(f"hand card {i + 1}", card, img.size):
            d.rounded_rectangle(card, radius=10, fill=theme.PANEL, outline=theme.INK, width=2)
            d.rounded_rectangle((x + 4, y + 4, x + w - 4, y + 34), radius=6, fill=colour)
            draw_fit(d, (x + 10, y + 19), c.name, theme.TEXT, theme.ink_on(colour), w - 16, "lm", "bold")
            draw_fit(d, (x + 10, y + 40), _kind(c), theme.MIN_TEXT, theme.INK_MUTED, w - 16)
            f, lines = fit_paragraph(_body(c), w - 16, row_h - 10 - 66 - 6, theme.TEXT - 2)
            for k, line in enumerate(lines):
                draw_text(d, (x + 10, y + 66 + k * f.line_height), line, f, theme.INK)
