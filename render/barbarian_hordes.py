"""The Barbarian Hordes board: the table seen from above.

Seats sit clockwise around the table in seating order, on a ring: two seats
joined by the ring without another seat between them are neighbours, the only
seats that may attack each other (rule text, CONQUEST PHASE). Each seat shows
its nation, ability, Army and Territory Tokens (with a 10-pip track towards
victory), hand size and status; the centre shows the phase, the turn order,
the deck and discard pile, and the war in progress or the last war's result.

Image size (RGB): 1600 x 1000 pixels for 2 to 10 seats, 1600 x 1160 for 11 or
more. A seat's private view adds its hand as card faces below: 56 pixels plus
214 per row of 8 cards.
"""

from __future__ import annotations

import bisect
import functools
import math
from collections.abc import Mapping
from dataclasses import dataclass

from PIL import Image, ImageDraw

from games.barbarian_hordes.data import TYPE_NAMES
from games.barbarian_hordes.model import CardView, PlayerView, View, WarResult, WarView
from games.core.english import count

from . import draw as dr
from . import theme
from .paint import Draw
from .phone import HandCard
from .record import cached_layer, panel
from .text import draw_fit, draw_text, face, fit_paragraph, fit_sentences
from .theme import RGB

WIDTH = 1600
HEIGHT = 1000
HEIGHT_LARGE = 1160  # 11 seats or more
MARGIN = 20
GAP_X = 48  # between panels in a row: the ring shows through
GAP_Y = 40
PANEL_H = 190
PANEL_MAX_W = 440
SIDE_MAX_W = 380
LEGEND_H = 62
HAND_TITLE_H = 56
CARD_W, CARD_H, CARD_GAP = 180, 196, 14
HAND_ROW_H = CARD_H + 18
CARDS_PER_ROW = 8

PHASES = ("fate", "recruit", "event", "conquest", "end")
PHASE_NAMES = {
    "draft": "Draft",
    "reentry": "Re-entry",
    "fate": "Fate Phase",
    "recruit": "Recruit Phase",
    "event": "Event Phase",
    "conquest": "Conquest Phase",
    "end": "End Phase",
    "over": "Game over",
}


def phase_name(phase: str) -> str:
    return PHASE_NAMES.get(phase, str(phase).replace("-", " ").title())


# --------------------------------------------------------------------------- layout


@dataclass(frozen=True)
class Layout:
    """Where things go for ``n`` seats (pixels). ``panels[i]`` is the box of the
    i-th seat in seating order (clockwise from the top left)."""

    n: int
    panels: tuple[dr.Box, ...]
    ring: dr.Box  # the ring's rectangle through the panel centres
    centre: dr.Box  # free area inside the ring
    height: int


def _row_boxes(count: int, y: float, pw: float, left: float, right: float) -> list[dr.Box]:
    total = count * pw + (count - 1) * GAP_X
    x0 = left + (right - left - total) / 2
    return [(x0 + i * (pw + GAP_X), y, x0 + i * (pw + GAP_X) + pw, y + PANEL_H) for i in range(count)]


@functools.cache
def layout(n: int) -> Layout:
    """The table layout for ``n`` seats (2..16; more are squeezed, never an error)."""
    n = max(1, n)
    height = HEIGHT if n <= 10 else HEIGHT_LARGE
    sides = 0 if n <= 4 else 1 if n <= 10 else 2
    top = math.ceil((n - 2 * sides) / 2)
    bottom = n - 2 * sides - top
    cols = max(top, bottom, 2 if sides else 1)
    inner_w = WIDTH - 2 * MARGIN
    pw = min(PANEL_MAX_W, (inner_w - (cols - 1) * GAP_X) / cols)
    top_y = dr.HEADER_HEIGHT + MARGIN + 8
    bottom_y = height - LEGEND_H - MARGIN - PANEL_H
    top_row = _row_boxes(top, top_y, pw, MARGIN, WIDTH - MARGIN)
    bottom_row = _row_boxes(bottom, bottom_y, pw, MARGIN, WIDTH - MARGIN)[::-1]
    mid_top, mid_bottom = top_y + PANEL_H + GAP_Y, bottom_y - GAP_Y
    side_h = sides * PANEL_H + (sides - 1) * GAP_Y if sides else 0
    right_col, left_col = [], []
    if sides:
        y0 = (mid_top + mid_bottom - side_h) / 2
        sw = min(pw, SIDE_MAX_W)
        for i in range(sides):
            y = y0 + i * (PANEL_H + GAP_Y)
            right_col.append((WIDTH - MARGIN - sw, y, WIDTH - MARGIN, y + PANEL_H))
            left_col.append((MARGIN, y, MARGIN + sw, y + PANEL_H))
        left_col.reverse()  # clockwise: up the left side
    panels = tuple(top_row + right_col + bottom_row + left_col)
    centres = [((b[0] + b[2]) / 2, (b[1] + b[3]) / 2) for b in panels]
    ring_l = min(c[0] for c in centres)
    ring_r = max(c[0] for c in centres)
    if not sides:  # no side columns: a wide ring, the centre inside it
        ring_l, ring_r = min(ring_l, 230), max(ring_r, WIDTH - 230)
    ring = (ring_l, top_y + PANEL_H / 2, ring_r, bottom_y + PANEL_H / 2)
    if sides:
        centre = (MARGIN + sw + GAP_X, mid_top, WIDTH - MARGIN - sw - GAP_X, mid_bottom)
    else:
        centre = (ring_l + 36, mid_top, ring_r - 36, mid_bottom)
    return Layout(n, panels, ring, centre, height)


def _ring_path(ring: dr.Box, radius: float = 60) -> list[tuple[float, float]]:
    """Clockwise points of the rounded ring rectangle, starting at its top left."""
    left, t, r, b = ring
    radius = min(radius, (r - left) / 2, (b - t) / 2)
    pts: list[tuple[float, float]] = []
    corners = [
        (r - radius, t + radius, -90),
        (r - radius, b - radius, 0),
        (left + radius, b - radius, 90),
        (left + radius, t + radius, 180),
    ]
    for cx, cy, a0 in corners:
        for k in range(9):
            a = math.radians(a0 + 90 * k / 8)
            pts.append((cx + radius * math.cos(a), cy + radius * math.sin(a)))
    return pts


def _path_length(pts: list[tuple[float, float]]) -> list[float]:
    acc = [0.0]
    for (x0, y0), (x1, y1) in zip(pts, pts[1:] + pts[:1], strict=True):
        acc.append(acc[-1] + math.hypot(x1 - x0, y1 - y0))
    return acc


def _project(pts: list[tuple[float, float]], acc: list[float], p: tuple[float, float]) -> float:
    """Arc-length position on the closed path nearest to ``p``."""
    best, best_d = 0.0, float("inf")
    for i, (a, b) in enumerate(zip(pts, pts[1:] + pts[:1], strict=True)):
        dx, dy = b[0] - a[0], b[1] - a[1]
        ln = dx * dx + dy * dy or 1e-9
        t = max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / ln))
        q = (a[0] + t * dx, a[1] + t * dy)
        dist = math.hypot(q[0] - p[0], q[1] - p[1])
        if dist < best_d:
            best, best_d = acc[i] + t * math.sqrt(ln), dist
    return best


def _sub_path(
    pts: list[tuple[float, float]], acc: list[float], s0: float, s1: float
) -> list[tuple[float, float]]:
    """Points of the closed path from arc position ``s0`` clockwise to ``s1``."""
    total = acc[-1]
    if s1 < s0:
        s1 += total
    out = []
    steps = max(2, int((s1 - s0) / 6))
    closed = pts + pts[:1]
    for k in range(steps + 1):
        s = (s0 + (s1 - s0) * k / steps) % total
        i = max(0, min(len(pts) - 1, bisect.bisect_left(acc, s, 1, len(acc) - 1) - 1))  # first j: acc[j + 1] >= s
        seg = acc[i + 1] - acc[i] or 1e-9
        t = (s - acc[i]) / seg
        a, b = closed[i], closed[i + 1]
        out.append((a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1])))
    return out


# --------------------------------------------------------------------------- static layer


@cached_layer(maxsize=32)
def static_layer(n: int) -> Image.Image:
    """Background, table, seating ring and legend for ``n`` seats; RGB, 1600 x
    ``layout(n).height``. Cached per seat count: each state copies it and draws
    its overlay."""
    lay = layout(n)
    img = Image.new("RGB", (WIDTH, lay.height), theme.BACKGROUND)
    d = Draw(img)
    left, t, r, b = lay.ring
    pad = 70
    # the table's edge, a shade of the table (not a ring of its own: the ring is the seating order)
    d.rounded_rectangle((left - pad, t - pad, r + pad, b + pad), radius=110, fill=theme.mix(theme.TABLE, theme.INK, 0.35))
    d.rounded_rectangle(
        (left - pad + 12, t - pad + 12, r + pad - 12, b + pad - 12), radius=100, fill=theme.TABLE
    )
    d.line(
        _ring_path(lay.ring) + _ring_path(lay.ring)[:1],
        fill=theme.mix(theme.TABLE, theme.LIGHT, 0.35),
        width=10,
        joint="curve",
    )
    _legend(img, (MARGIN + 4, lay.height - LEGEND_H + 6, WIDTH - MARGIN, lay.height - 4))
    return img


def _legend(img: Image.Image, box: dr.Box) -> None:
    def seat(img: Image.Image, c: tuple[float, float], size: int) -> None:
        dr.paste_badge(img, theme.seat_style(0), c, size + 4)

    def ring(img: Image.Image, c: tuple[float, float], size: int) -> None:
        Draw(img).line(
            (c[0] - size / 2, c[1], c[0] + size / 2, c[1]),
            fill=theme.mix(theme.TABLE, theme.LIGHT, 0.35),
            width=8,
        )

    def attack(img: Image.Image, c: tuple[float, float], size: int) -> None:
        Draw(img).line((c[0] - size / 2, c[1], c[0] + size / 2, c[1]), fill=theme.ATTACK, width=8)
        dr.paste_icon(img, "swords", c, size - 6, theme.LIGHT)

    def icon(kind: str, colour: RGB = theme.INK):
        return lambda img, c, size: dr.paste_icon(img, kind, c, size + 4, colour)

    def turn(img: Image.Image, c: tuple[float, float], size: int) -> None:
        d = Draw(img)
        d.rounded_rectangle(
            (c[0] - size / 2, c[1] - size / 2, c[0] + size / 2, c[1] + size / 2),
            radius=6,
            fill=theme.ACTIVE,
            outline=theme.INK,
        )
        dr.paste_icon(img, "arrow", c, size - 8)

    dr.legend(
        img,
        box,
        [
            (seat, "seat: colour, shape, number"),
            (icon("army"), "Army Tokens"),
            (icon("territory"), "Territories (\u25c7 10 win)"),
            (icon("cards"), "cards in hand"),
            (ring, "ring: neighbours"),
            (attack, "may attack"),
            (turn, "turn"),
            (icon("hourglass", theme.WAITING), "asked to act"),
        ],
    )


# --------------------------------------------------------------------------- overlay


def _names(view: View, names: Mapping[int, str] | None) -> dict[int, str]:
    out = {}
    for p in view.players:
        given = (names or {}).get(p.seat)
        out[p.seat] = given if given else f"Seat {p.seat + 1}"
    return out


def _nation(p: PlayerView | None, seat: int) -> str:
    if p is None:
        return f"Seat {seat + 1}"
    return p.nation or f"Seat {p.seat + 1}"


def _pill(
    img: Image.Image, right: float, cy: float, text: str, fill: RGB, icon_kind: str | None, size: int = 17
) -> float:
    """A rounded label ending at ``right``; returns its left edge."""
    d = Draw(img)
    f = face(size, "bold")
    ink = theme.ink_on(fill)
    left = right - _pill_width(text, icon_kind, size)
    d.rounded_rectangle((left, cy - 16, right, cy + 16), radius=16, fill=fill, outline=theme.INK, width=2)
    x = left + 12
    if icon_kind:
        dr.paste_icon(img, icon_kind, (x + 9, cy), 20, ink)
        x += 24
    draw_text(d, (x, cy), text, f, ink, "lm")
    return left


def _pill_width(text: str, icon_kind: str | None, size: int) -> float:
    return face(size, "bold").length(text) + 24 + (24 if icon_kind else 0)


def _panel(img: Image.Image, box: dr.Box, p: PlayerView, view: View, name: str) -> None:
    d = Draw(img)
    left, t, r, b = (int(v) for v in box)
    w = r - left
    style = theme.seat_style(p.seat)
    active = view.active == p.seat and view.phase != "over"
    gone = p.status in ("out", "eliminated")
    fill = theme.PANEL_MUTED if gone else theme.PANEL
    if active:
        d.rounded_rectangle(
            (left - 7, t - 7, r + 7, b + 7), radius=20, fill=theme.ACTIVE, outline=theme.INK, width=2
        )
    d.rounded_rectangle((left, t, r, b), radius=14, fill=fill, outline=theme.INK, width=3)
    d.rounded_rectangle((left, t, left + 10, b), radius=4, fill=style.colour)  # colour edge
    dr.paste_badge(img, style, (left + 42, t + 36), 52)
    # status pills along the top edge, right-aligned
    pills: list[tuple[str, RGB, str | None]] = []
    if view.winner == p.seat:
        pills.append(("WINNER", theme.ACTIVE, "crown"))
    if active:
        pills.append(("TURN", theme.ACTIVE, "arrow"))
    if view.war and view.war.attacker == p.seat:
        pills.append(("ATTACKER", theme.ATTACK, "swords"))
    if view.war and view.war.defender == p.seat:
        pills.append(("DEFENDER", theme.DEFEND, "shield"))
    if p.seat in view.waiting and view.phase != "over":  # the attacker too, when asked in a war
        pills.append(("TO ACT", theme.WAITING, "hourglass"))
    if p.seat == view.viewer:
        pills.append(("YOU", theme.LIGHT, None))
    if p.seat in view.protected:
        pills.append(("SAFE", theme.GOOD, "shield"))
    if p.status == "out":
        pills.append(("OUT", theme.INK_MUTED, "skull"))
    elif p.status == "eliminated":
        pills.append(("ELIMINATED", theme.INK_MUTED, "skull"))
    # every pill is shown: smaller, then without icons, when many share the edge
    room = r - 10 - (left + 70)
    size, icons = 17, True
    for size, icons in ((17, True), (15, True), (14, True), (14, False)):
        if sum(_pill_width(text, kind if icons else None, size) + 6 for text, _, kind in pills) <= room:
            break
    x = r - 10
    for text, colour, kind in pills:
        x = _pill(img, x, t, text, colour, kind if icons else None, size) - 6
    # nation, player, ability
    tx = left + 76
    if p.status == "drafting" or not p.nation:
        nation, nation_ink = "choosing a nation\u2026", theme.INK_MUTED
    else:
        nation, nation_ink = p.nation, theme.INK
    draw_fit(d, (tx, t + 34), nation, 27, nation_ink, r - tx - 12, "lm", "condensed", smallest=18)
    draw_fit(d, (tx, t + 64), name, 19, theme.INK_MUTED, r - tx - 12, "lm")
    ability = p.ability or ("No special ability" if p.nation else "")
    cy = b - 48
    if ability:
        fa, lines = fit_sentences(ability, w - 34, cy - 18 - (t + 80), 17)
        for k, line in enumerate(lines):
            draw_text(d, (left + 20, t + 80 + k * fa.line_height), line, fa, theme.INK)
    # counters
    x = left + 18
    gap = max(14, (w - 320) / 3)
    x += dr.counter(img, (x, cy), "army", p.armies, 34) + gap
    x += dr.counter(img, (x, cy), "territory", p.territories, 34, suffix=f"/{view.victory_territories}") + gap
    dr.counter(img, (x, cy), "cards", p.hand_size, 34)
    pip_l, pip_r = left + 20, r - 20
    dr.pip_track(
        d,
        (pip_l, b - 22, pip_r, b - 10),
        view.victory_territories,
        p.territories,
        (62, 130, 84),
        theme.mix(fill, theme.INK, 0.12),
    )


def _ring_overlay(img: Image.Image, view: View, lay: Layout, order: list[int]) -> None:
    """Highlight the links between the active seat and its neighbours (whom it may attack)."""
    if view.active is None or view.phase in ("over", "draft") or len(order) < 2 or view.active not in order:
        return
    d = Draw(img)
    colour = theme.ATTACK if not view.attack_forbidden else theme.INK_MUTED
    links = _ring_links(len(order), order.index(view.active))
    for seg, _ in links:
        d.line(seg, fill=colour, width=12, joint="curve")
    # swords where the highlighted links show between panels
    for _, spot in links:
        if spot:
            d.ellipse(
                (spot[0] - 19, spot[1] - 19, spot[0] + 19, spot[1] + 19),
                fill=colour,
                outline=theme.INK,
                width=2,
            )
            dr.paste_icon(img, "swords", spot, 26, theme.LIGHT)


Link = tuple[tuple[tuple[float, float], ...], tuple[float, float] | None]  # a ring path, its swords' place


@functools.lru_cache(maxsize=256)
def _ring_links(n: int, i: int) -> tuple[Link, ...]:
    """The ring's path from the seat before the ``i``-th of ``n`` seats to it and from it to
    the next (clockwise), each with the point where its swords go (None when panels hide it
    all); computed once per table size and seat."""
    lay = layout(n)
    pts = _ring_path(lay.ring)
    acc = _path_length(pts)
    pos = [_project(pts, acc, ((b[0] + b[2]) / 2, (b[1] + b[3]) / 2)) for b in lay.panels[:n]]
    out = []
    for a, b in ((i - 1) % n, i), (i, (i + 1) % n):
        seg = _sub_path(pts, acc, pos[a], pos[b])
        out.append((tuple(seg), _visible_point(seg, lay.panels)))
    return tuple(out)


def _visible_point(seg: list[tuple[float, float]], panels: tuple[dr.Box, ...]) -> tuple[float, float] | None:
    """The middle of the part of ``seg`` that no panel covers."""
    free = [
        p
        for p in seg
        if not any(b[0] - 24 <= p[0] <= b[2] + 24 and b[1] - 40 <= p[1] <= b[3] + 24 for b in panels)
    ]
    return free[len(free) // 2] if free else None


def _centre(
    img: Image.Image, view: View, box: dr.Box, players: dict[int, PlayerView], names: dict[int, str]
) -> None:
    d = Draw(img)
    left, t, r, b = box
    w = r - left
    y = t + 6
    # phase track
    if view.phase in PHASES:
        cur = PHASES.index(view.phase)
        steps = [
            dr.Step(phase_name(ph).replace(" Phase", ""), i == cur, i < cur) for i, ph in enumerate(PHASES)
        ]
    else:
        steps = [dr.Step(phase_name(view.phase), True)]
    track_w = min(w, 760 if len(steps) > 1 else 320)
    dr.step_track(d, (left + (w - track_w) / 2, y, left + (w + track_w) / 2, y + 40), steps, face(18, "bold"))
    y += 56
    # turn order
    order = [s for s in view.turn_order if s in players]
    if order:
        f = face(18, "bold")
        label = "Turn order"
        size = 42 if len(order) <= 10 else 36
        step = size + 10
        row_w = f.length(label) + 16 + step * len(order)
        x = left + (w - row_w) / 2
        cy = y + size / 2
        x += draw_text(d, (x, cy), label, f, theme.LIGHT, "lm") + 16
        for s in order:
            c = (x + size / 2, cy)
            if s == view.active and view.phase != "over":
                d.ellipse(
                    (c[0] - size / 2 - 6, c[1] - size / 2 - 6, c[0] + size / 2 + 6, c[1] + size / 2 + 6),
                    fill=theme.ACTIVE,
                )
            gone = players[s].status in ("out", "eliminated")
            dr.paste_badge(
                img, theme.seat_style(s), c, size, ring=theme.LIGHT if not gone else theme.INK_MUTED
            )
            x += step
        y += size + 22
    # lower row: deck, discard, war
    row_t, row_b = y, b - 4
    pile_h = min(row_b - row_t, 190)
    pile_w = int(pile_h * 0.72)
    dr.card_back(img, (left, row_t, left + pile_w, row_t + pile_h), view.deck_size, "DECK")
    x = left + pile_w + 14
    # the face-up card as wide as a card's text needs when the war box keeps its width (420 pixels)
    disc_w = int(pile_w * 1.5) if r - x - 20 - pile_w * 1.5 >= 420 else int(pile_w * 1.12)
    if view.discard_top is not None:
        dr.card_face(img, (x, row_t, x + disc_w, row_t + pile_h), _card(view.discard_top))
    else:
        d.rounded_rectangle(
            (x, row_t, x + disc_w, row_t + pile_h), radius=12, outline=theme.LIGHT_MUTED, width=2
        )
        draw_text(d, (x + disc_w / 2, row_t + pile_h / 2), "empty", face(18), theme.LIGHT_MUTED, "mm")
    draw_fit(d, (x + disc_w / 2, row_t + pile_h + 14), f"discard pile: {view.discard_size}", 16, theme.LIGHT,
             disc_w + 20, "mm", "bold")  # fmt: skip
    if view.discard_top is not None and row_b - (row_t + pile_h) >= 50:
        draw_fit(d, (x + disc_w / 2, row_t + pile_h + 36), "(its top card)", 16, theme.LIGHT_MUTED, disc_w + 20, "mm")
    x += disc_w + 20
    war_box = (x, row_t, r, row_b)
    with panel("war", war_box, img.size):
        if view.phase == "over" or view.winner is not None:
            _winner(img, war_box, view, players, names)
        elif view.war is not None:
            _war_now(img, war_box, view.war, view, players)
        elif view.last_war is not None:
            _war_result(img, war_box, view.last_war, players, "Last war")
        else:
            _info(img, war_box, view, players)


def _card(c: CardView) -> dr.CardFace:
    note = {"DO": "Defender only", "AO": "Attacker only"}.get(c.only or "", c.only)
    return dr.CardFace(c.name, c.types, c.force, note, c.text, type_words(c.types))


def type_words(types: str) -> str:
    """A card's type codes in words: "LC" reads "Leader, Conquest", "M" "move seat"."""
    return ", ".join(TYPE_NAMES[code].split(" (")[0] for code in types if code in TYPE_NAMES)


def _box_title(d: ImageDraw.ImageDraw, box: dr.Box, title: str, fill: RGB = theme.HEADER) -> float:
    left, t, r, b = box
    d.rounded_rectangle(box, radius=14, fill=fill, outline=theme.LIGHT_MUTED, width=2)
    draw_fit(d, (left + 16, t + 12), title.upper(), 17, theme.LIGHT_MUTED, r - left - 32, style="bold")
    return t + 42


def _side(
    img: Image.Image,
    xy: tuple[float, float],
    seat: int,
    players: dict[int, PlayerView],
    max_w: float,
    anchor: str = "l",
) -> None:
    """A seat's badge and nation name on one line."""
    d = Draw(img)
    x, cy = xy
    f, lines = fit_paragraph(_nation(players.get(seat), seat), max_w - 44, 40, 21, "bold")
    if anchor == "r":
        x -= max(f.length(line) for line in lines) + 44
    dr.paste_badge(img, theme.seat_style(seat), (x + 17, cy), 34, ring=theme.LIGHT)
    top = cy - len(lines) * f.line_height / 2
    for k, line in enumerate(lines):
        draw_text(d, (x + 42, top + k * f.line_height), line, f, theme.LIGHT)


def _war_result(
    img: Image.Image, box: dr.Box, res: WarResult, players: dict[int, PlayerView], title: str
) -> None:
    d = Draw(img)
    left, t, r, b = box
    w = r - left
    y = _box_title(d, box, title)
    small = face(16)
    col_total, col_roll = r - 110, r - 34
    if res.outcome != "blocked":  # a blocked war has no totals
        draw_text(d, (col_total, y - 22), "War Total", small, theme.LIGHT_MUTED, "mm")
        draw_text(d, (col_roll, y - 22), "1D10", small, theme.LIGHT_MUTED, "mm")
    big = face(34, "bold")
    for seat, role, total, roll in (
        (res.attacker, "attacker", res.attacker_total, res.attacker_roll),
        (res.defender, "defender", res.defender_total, res.defender_roll),
    ):
        dr.paste_icon(
            img, "swords" if role == "attacker" else "shield", (left + 26, y + 20), 24, theme.LIGHT_MUTED
        )
        _side(img, (left + 44, y + 20), seat, players, col_total - left - 44 - 36)
        if res.outcome != "blocked":
            draw_text(d, (col_total, y + 20), str(total), big, theme.LIGHT, "mm")
            draw_text(d, (col_roll, y + 20), str(roll), face(22, "bold"), theme.LIGHT_MUTED, "mm")
        y += 44
    win_seat = {"attacker": res.attacker, "defender": res.defender}.get(res.outcome)
    if win_seat is not None:
        text = f"{_nation(players.get(win_seat), win_seat)} won"
        if res.territory_taken:
            text += " +1 Territory"
        colour = theme.ATTACK if res.outcome == "attacker" else theme.DEFEND
        kind = "swords" if res.outcome == "attacker" else "shield"
    elif res.outcome == "stalemate":
        text, colour, kind = "Stalemate", theme.INK_MUTED, None
    else:
        text, colour, kind = "Blocked: no battle", theme.INK_MUTED, "shield"
    y += 2
    d.rounded_rectangle((left + 14, y, r - 14, y + 38), radius=10, fill=colour)
    ink = theme.ink_on(colour)
    tx = left + 26
    if kind:
        dr.paste_icon(img, kind, (tx + 12, y + 19), 24, ink)
        tx += 32
    fw, lines = fit_paragraph(text, r - tx - 26, 38, 20, "bold")
    for k, line in enumerate(lines):
        draw_text(d, (tx, y + 19 + (k - len(lines) / 2) * fw.line_height), line, fw, ink)
    y += 46
    if res.outcome != "blocked":
        losses = f"Army Tokens lost: attacker {res.attacker_losses}, defender {res.defender_losses}"
        draw_fit(d, (left + 16, y + 2), losses, 17, theme.LIGHT, w - 32)
        y += 26
    if res.note and b - y > 22:
        fn, lines = fit_sentences(res.note, w - 32, b - y - 8, small.size)
        for k, line in enumerate(lines):
            draw_text(d, (left + 16, y + 2 + k * fn.line_height), line, fn, theme.LIGHT_MUTED)


def _war_now(img: Image.Image, box: dr.Box, war: WarView, view: View, players: dict[int, PlayerView]) -> None:
    d = Draw(img)
    left, t, r, b = box
    w = r - left
    stage = "commitments in secret" if war.stage == "commit" else "Leader cards may be negated"
    y = _box_title(d, box, f"War \u2014 {stage}", fill=(64, 30, 22))
    y -= 6
    for seat, kind in ((war.attacker, "swords"), (war.defender, "shield")):
        dr.paste_icon(img, kind, (left + 26, y + 14), 24, theme.ATTACK if kind == "swords" else theme.DEFEND)
        _side(img, (left + 44, y + 14), seat, players, w - 60)
        y += 30
    fl = face(17, "bold")
    label_w = max(fl.length("Committed:"), fl.length("Waiting for:")) + 10
    rows = (("Committed", war.committed), ("Waiting for", war.waiting))
    if war.revealed:  # what each side committed is shown below instead
        rows = rows[1:]
    # every seat's badge as large as the box allows (34 pixels, so its number reads), in rows
    x0 = left + 16 + label_w
    per = lambda size: max(1, int((r - 10 - x0 + 6) // (size + 6)))  # noqa: E731
    later = 30 + 24 * -(-len(war.revealed) * 130 // max(1, w - 32)) if war.revealed else 0
    for size in (34, 30, 26, 22):
        need = sum(38 + (size + 6) * ((max(1, len(seats)) - 1) // per(size)) for _, seats in rows)
        if y + need + later <= b - 4:
            break
    for label, seats in rows:
        x = left + 16
        draw_text(d, (x, y + 16), label + ":", fl, theme.LIGHT, "lm")
        x += label_w
        if not seats:
            draw_text(d, (x, y + 16), "nobody", face(18), theme.LIGHT_MUTED, "lm")
        for k, s in enumerate(seats):
            if k and x + size > r - 10:
                x, y = x0, y + size + 6
            dr.paste_badge(img, theme.seat_style(s), (x + size / 2, y + 16), size, ring=theme.LIGHT)
            x += size + 6
        y += 38
    if war.revealed:
        # each contribution after its seat's badge, flowing in rows
        parts = []
        for c in war.revealed:
            bits = []
            if c.armies:
                bits.append(f"{c.armies} Army")
            if c.cards:
                bits.append(f"{len(c.cards)} card{'s' if len(c.cards) != 1 else ''}")
            if c.sacrifice:
                bits.append("sacrifice")
            if c.block:
                bits.append("block")
            if bits:
                parts.append((c.seat, ", ".join(bits)))
        fr = face(15)
        x = left + 16
        x += draw_text(d, (x, y + 12), "Revealed:", face(15, "bold"), theme.LIGHT, "lm") + 8
        for seat, text in parts:
            need = 26 + fr.length(text) + 12
            if x + need > r - 10 and x > left + 120:
                x, y = left + 16, y + 24
            dr.paste_badge(img, theme.seat_style(seat), (x + 11, y + 12), 22, ring=theme.LIGHT)
            x += 26 + draw_text(d, (x + 26, y + 12), text, fr, theme.LIGHT_MUTED, "lm") + 12


def _winner(
    img: Image.Image, box: dr.Box, view: View, players: dict[int, PlayerView], names: dict[int, str]
) -> None:
    d = Draw(img)
    left, t, r, b = box
    w = r - left
    d.rounded_rectangle(box, radius=14, fill=theme.HEADER, outline=theme.ACTIVE, width=4)
    cx = left + w / 2
    dr.paste_icon(img, "crown", (cx, t + 46), 56, theme.ACTIVE)
    if view.winner is not None:
        title = f"Winner: {_nation(players.get(view.winner), view.winner)}"
        sub = names.get(view.winner, "")
    else:
        title, sub = "Game over", ""
    draw_fit(d, (cx, t + 104), title, 34, theme.LIGHT, w - 30, "mm", "bold")
    if sub:
        draw_fit(d, (cx, t + 142), sub, 20, theme.LIGHT_MUTED, w - 30, "mm")
    if view.end_reason:
        fe, lines = fit_paragraph(view.end_reason, w - 40, b - t - 172, 17)
        for k, line in enumerate(lines):
            draw_text(d, (left + 20, t + 166 + k * fe.line_height), line, fe, theme.LIGHT_MUTED)


def _info(img: Image.Image, box: dr.Box, view: View, players: dict[int, PlayerView]) -> None:
    """No war yet: who may attack whom now."""
    d = Draw(img)
    left, t, r, b = box
    w = r - left
    y = _box_title(d, box, "The table")
    lines = []
    if view.phase in ("draft", "reentry"):
        lines.append("Nations are picked in order: Primary, then Secondary, Tertiary, Quaternary.")
    elif view.active is not None:
        lines.append(f"{_nation(players.get(view.active), view.active)} may attack a neighbour on the ring.")
    if view.attack_forbidden:
        lines.append("No attacks this turn (an Intrigue card was played).")
    if view.phase == "conquest":
        lines.append(f"Conquest Phases left: {view.conquests_left}.")
    if view.window:
        lines.append(view.window)
    lines.append("No war fought yet.")
    fi, wrapped = fit_paragraph(" ".join(lines), w - 32, b - y - 8, 18)
    for k, line in enumerate(wrapped):
        draw_text(d, (left + 16, y + k * fi.line_height), line, fi, theme.LIGHT)


def _hand(img: Image.Image, top: int, view: View, hand: tuple[CardView, ...]) -> None:
    d = Draw(img)
    d.rectangle((0, top, WIDTH, img.height), fill=theme.HEADER)
    d.rectangle((0, top, WIDTH, top + 4), fill=theme.ORANGE)
    title = f"Your hand \u2014 {len(hand)} card{'s' if len(hand) != 1 else ''} (limit {view.hand_limit})"
    draw_text(d, (MARGIN + 4, top + HAND_TITLE_H / 2 + 2), title, face(24, "bold"), theme.LIGHT, "lm")
    if not hand:
        draw_text(d, (MARGIN + 4, top + HAND_TITLE_H + 12), "No cards in hand.", face(20), theme.LIGHT_MUTED, "lm")
    # a few cards are drawn wider (more of their text at a larger size), up to a full row
    per_row = min(CARDS_PER_ROW, max(1, len(hand)))
    cw = min(CARD_W * 1.5, (WIDTH - 2 * MARGIN - 16 - (per_row - 1) * CARD_GAP) / per_row)
    for i, c in enumerate(hand):
        row, col = divmod(i, CARDS_PER_ROW)
        x = MARGIN + col * (cw + CARD_GAP) + 8
        y = top + HAND_TITLE_H + row * HAND_ROW_H
        with panel(f"hand card {i + 1}", (x, y, x + cw, y + CARD_H), img.size):
            dr.card_face(img, (x, y, x + cw, y + CARD_H), _card(c))


def image_size(view: View) -> tuple[int, int]:
    """(width, height) in pixels of the board image for ``view``."""
    base = layout(len(view.players)).height
    hand = _own_hand(view)
    if hand is None:
        return WIDTH, base
    if not hand:  # the title and a line saying so
        return WIDTH, base + HAND_TITLE_H + 44
    rows = math.ceil(len(hand) / CARDS_PER_ROW)
    return WIDTH, base + HAND_TITLE_H + rows * HAND_ROW_H


def _own_hand(view: View) -> tuple[CardView, ...] | None:
    if view.viewer is None:
        return None
    for p in view.players:
        if p.seat == view.viewer and p.hand is not None:
            return p.hand
    return None


def hand_cards(view: View) -> tuple[str, list[HandCard]] | None:
    """The viewer's hand for the phone hand image (``render.phone``): each card's name, its
    type codes, Force and Defender/Attacker-only note, and its text; None without a hand."""
    hand = _own_hand(view)
    if hand is None:
        return None
    title = f"Your hand \u2014 {count(len(hand), 'card')} (limit {view.hand_limit})"
    cards = []
    for c in hand:  # as the board's card face: "Type C · Conquest · Force +8 · Attacker only"
        face_ = _card(c)
        kind = " \u00b7 ".join(x for x in (f"Type {face_.types} \u00b7 {face_.type_words}",
                                           f"Force +{face_.value}" if face_.value is not None else "",
                                           face_.note or "") if x)  # fmt: skip
        cards.append(HandCard(c.name, kind, c.text))
    return title, cards


def render(view: View, names: Mapping[int, str] | None = None) -> Image.Image:
    """The board for ``view`` as an RGB image, 1600 x 1000 pixels (taller with the
    viewer's own hand, see ``image_size``).

    ``names`` maps seats to the players' display names (any Unicode; truncated
    to fit); seats without one are shown as "Seat N".
    """
    if not isinstance(view, View):
        raise TypeError(f"render() takes a Barbarian Hordes View, not {type(view).__name__}")
    players = {p.seat: p for p in view.players}
    order = [s for s in view.seating if s in players] or sorted(players)
    names_ = _names(view, names)
    lay = layout(len(order))
    width, height = image_size(view)
    base = static_layer(len(order))
    if height == base.height:
        img = base.copy()
    else:
        img = Image.new("RGB", (width, height), theme.BACKGROUND)
        img.paste(base, (0, 0))
    _ring_overlay(img, view, lay, order)
    for seat, box in zip(order, lay.panels, strict=False):
        with panel(f"seat {seat + 1}", (box[0] - 8, box[1] - 18, box[2] + 8, box[3] + 8), img.size):
            _panel(img, box, players[seat], view, names_[seat])
    _centre(img, view, lay.centre, players, names_)
    turn_label, turn_style = None, None
    if view.phase == "over" and view.winner is not None:
        turn_label = f"Winner: {_nation(players.get(view.winner), view.winner)}"
        turn_style = theme.seat_style(view.winner)
    elif view.active is not None and view.active in players:
        turn_label = f"{_nation(players[view.active], view.active)} \u00b7 {names_[view.active]}"
        turn_style = theme.seat_style(view.active)
    elif len(view.waiting) == 1 and view.waiting[0] in players:  # the draft: who picks now
        w = view.waiting[0]
        turn_label = f"{names_[w]} picks a nation" if view.phase in ("draft", "reentry") else names_[w]
        turn_style = theme.seat_style(w)
    dr.header(
        img,
        dr.Header(
            game="Barbarian Hordes",
            round=view.round,
            phase=phase_name(view.phase),
            turn_label=turn_label,
            turn_style=turn_style,
            turn_icon="crown" if view.phase == "over" else "arrow",
            note=f"{len(order)} players"
            + (" \u00b7 3-player variant" if view.variant == "three-player" else ""),
        ),
    )
    hand = _own_hand(view)
    if hand is not None:
        _hand(img, base.height, view, hand)
    return img
