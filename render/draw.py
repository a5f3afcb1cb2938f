"""Drawing primitives shared by the board images: badges, tokens, tracks, card
faces, legend and header. Coordinates and sizes are pixels; images are RGB.

Small icons (seat badges, token symbols) are drawn four times larger and
scaled down, so their edges are smooth, and cached by their parameters.
"""

from __future__ import annotations

import functools
import io
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import imagecodecs
import numpy as np
from PIL import Image, ImageDraw

from . import theme, tiles
from .paint import Draw
from .record import panel
from .text import Face, draw_fit, draw_text, face, fit, fit_paragraph, fit_sentences
from .theme import RGB, SeatStyle, ShapeName

SUPERSAMPLE = 4
Box = tuple[float, float, float, float]  # (left, top, right, bottom), pixels


PNG_LEVEL = 1  # zlib level
PNG_FILTER_NONE = 8  # libpng's PNG_FILTER_NONE: rows stored as they are


def encode_png(img: Image.Image) -> bytes:
    """``img`` (RGB, RGBA or L) as PNG bytes, through libpng (``imagecodecs``): zlib level 1,
    no row filter. Chosen by measurement (``bench/render.py --encoders``): the boards are
    flat colours, where rows unfiltered compress as well as filtered ones (5-10% larger than
    Pillow's level 4), and skipping Pillow's per-row adaptive filter choice makes the encode
    about three times faster. Other modes go through Pillow."""
    if img.mode not in ("RGB", "RGBA", "L"):
        buf = io.BytesIO()
        img.save(buf, "PNG", compress_level=4)
        return buf.getvalue()
    return bytes(imagecodecs.png_encode(np.asarray(img), level=PNG_LEVEL, filter=PNG_FILTER_NONE))


# --------------------------------------------------------------------------- shapes


def shape_points(shape: ShapeName, cx: float, cy: float, r: float) -> list[tuple[float, float]]:
    """Polygon points of ``shape`` centred on (cx, cy) with outer radius ``r``
    (empty for ``circle``, which is drawn as an ellipse)."""

    def regular(n: int, start: float, radius: float = r) -> list[tuple[float, float]]:
        return [
            (
                cx + radius * math.cos(start + 2 * math.pi * i / n),
                cy + radius * math.sin(start + 2 * math.pi * i / n),
            )
            for i in range(n)
        ]

    if shape == "circle":
        return []
    if shape == "square":
        s = r * 0.86
        return [(cx - s, cy - s), (cx + s, cy - s), (cx + s, cy + s), (cx - s, cy + s)]
    if shape == "triangle":
        return regular(3, -math.pi / 2, r * 1.12)[:3]
    if shape == "diamond":
        return regular(4, -math.pi / 2)
    if shape == "pentagon":
        return regular(5, -math.pi / 2)
    if shape == "hexagon":
        return regular(6, 0)
    if shape == "star":
        outer = regular(5, -math.pi / 2, r * 1.08)
        inner = regular(5, -math.pi / 2 + math.pi / 5, r * 0.58)
        return [p for pair in zip(outer, inner, strict=True) for p in pair]
    if shape == "cross":
        a, b = r * 0.9, r * 0.42
        return [
            (cx - b, cy - a), (cx + b, cy - a), (cx + b, cy - b), (cx + a, cy - b), (cx + a, cy + b), (cx + b, cy + b),
            (cx + b, cy + a), (cx - b, cy + a), (cx - b, cy + b), (cx - a, cy + b), (cx - a, cy - b), (cx - b, cy - b),
        ]  # fmt: skip
    raise ValueError(f"unknown shape {shape!r}")


def draw_shape(
    draw: ImageDraw.ImageDraw,
    shape: ShapeName,
    cx: float,
    cy: float,
    r: float,
    fill: RGB,
    outline: RGB,
    width: int,
) -> None:
    """Draw ``shape`` (no anti-aliasing; see ``badge`` for smooth icons)."""
    if shape == "circle":
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill, outline=outline, width=width)
    else:
        draw.polygon(shape_points(shape, cx, cy, r), fill=fill, outline=outline, width=width)


@functools.lru_cache(maxsize=512)
def badge(style: SeatStyle, size: int, outline: RGB = theme.INK, ring: RGB | None = None) -> Image.Image:
    """A seat or faction badge: its shape in its colour with its label inside.

    Returns an RGBA image ``size`` x ``size`` pixels. ``ring`` adds a second,
    outer outline (e.g. light, to stand out on a dark table).
    """
    s = SUPERSAMPLE
    big = Image.new("RGBA", (size * s, size * s), (0, 0, 0, 0))
    d = Draw(big)
    c = size * s / 2
    r = c - 2 * s
    if ring is not None:
        draw_shape(d, style.shape, c, c, r, ring, ring, 1)
        r -= 2.5 * s
    draw_shape(d, style.shape, c, c, r, style.colour, outline, int(2.2 * s))
    img = big.resize((size, size), Image.Resampling.LANCZOS)
    if style.label:
        # label drawn at 1x so it stays crisp; triangles and stars have less room
        scale = {"triangle": 0.46, "star": 0.42, "cross": 0.46}.get(style.shape, 0.56)
        digits = len(style.label)
        fsize = max(
            theme.MIN_TEXT - 4, int(size * scale / max(1, 0.62 * digits)) if digits > 1 else int(size * scale)
        )
        fsize = min(fsize, int(size * scale))
        dy = size * 0.07 if style.shape == "triangle" else 0
        draw_text(
            Draw(img), (size / 2, size / 2 + dy), style.label, face(fsize, "bold"), style.ink, "mm"
        )
    return img


def paste_badge(img: Image.Image, style: SeatStyle, center: tuple[float, float], size: int, **kw) -> None:
    """Paste ``badge(style, size)`` centred on ``center``."""
    b = badge(style, size, **kw)
    img.paste(b, (int(round(center[0] - size / 2)), int(round(center[1] - size / 2))), b)


# --------------------------------------------------------------------------- icons


@functools.lru_cache(maxsize=256)
def icon(kind: str, size: int, colour: RGB = theme.INK) -> Image.Image:
    """A small symbol, RGBA ``size`` x ``size``: ``army`` (round counter with
    crossed swords), ``territory`` (flag on a hex tile), ``cards`` (fanned card
    backs), ``deck`` (a card back), ``hourglass``, ``swords``, ``shield``,
    ``crown``, ``skull``, ``arrow`` (pointing right)."""
    s = SUPERSAMPLE
    n = size * s
    big = Image.new("RGBA", (n, n), (0, 0, 0, 0))
    d = Draw(big)
    w = max(2, int(n * 0.07))
    c = n / 2
    if kind == "army":
        d.ellipse((w, w, n - w, n - w), fill=(150, 52, 40), outline=colour, width=w)
        _swords(d, c, c, n * 0.28, theme.LIGHT, max(2, int(n * 0.08)))
    elif kind == "territory":
        d.polygon(shape_points("hexagon", c, c, c - w), fill=(62, 130, 84), outline=colour, width=w)
        px = c - n * 0.14
        d.line((px, n * 0.22, px, n * 0.78), fill=theme.LIGHT, width=max(2, int(n * 0.07)))
        d.polygon([(px, n * 0.22), (px + n * 0.36, n * 0.32), (px, n * 0.44)], fill=theme.LIGHT)
    elif kind in ("cards", "deck"):
        cw, ch = n * 0.5, n * 0.7
        offsets = [(-0.12, 0.03), (0.0, 0.0), (0.12, 0.03)] if kind == "cards" else [(0.0, 0.0)]
        for dx, dy in offsets:
            x0 = c - cw / 2 + dx * n
            y0 = c - ch / 2 + dy * n
            d.rounded_rectangle(
                (x0, y0, x0 + cw, y0 + ch), radius=n * 0.06, fill=(58, 80, 130), outline=colour, width=w
            )
            d.rectangle(
                (x0 + cw * 0.22, y0 + ch * 0.18, x0 + cw * 0.78, y0 + ch * 0.82),
                outline=theme.LIGHT,
                width=max(1, w // 2),
            )
    elif kind == "hourglass":
        top, bot, lf, rt = n * 0.12, n * 0.88, n * 0.22, n * 0.78
        d.polygon([(lf, top), (rt, top), (c, c), (rt, bot), (lf, bot), (c, c)], fill=colour)
        d.line((lf - w, top, rt + w, top), fill=colour, width=w)
        d.line((lf - w, bot, rt + w, bot), fill=colour, width=w)
    elif kind == "swords":
        _swords(d, c, c, n * 0.4, colour, max(2, int(n * 0.1)))
    elif kind == "shield":
        d.polygon(
            [
                (n * 0.18, n * 0.14),
                (n * 0.82, n * 0.14),
                (n * 0.82, n * 0.5),
                (c, n * 0.9),
                (n * 0.18, n * 0.5),
            ],
            fill=colour,
        )
    elif kind == "crown":
        d.polygon(
            [(n * 0.1, n * 0.78), (n * 0.1, n * 0.3), (n * 0.32, n * 0.55), (c, n * 0.18), (n * 0.68, n * 0.55),
             (n * 0.9, n * 0.3), (n * 0.9, n * 0.78)],
            fill=colour,
        )  # fmt: skip
    elif kind == "skull":
        d.ellipse((n * 0.2, n * 0.12, n * 0.8, n * 0.68), fill=colour)
        d.rectangle((n * 0.32, n * 0.55, n * 0.68, n * 0.86), fill=colour)
        d.ellipse((n * 0.3, n * 0.34, n * 0.45, n * 0.49), fill=(0, 0, 0, 0))
        d.ellipse((n * 0.55, n * 0.34, n * 0.7, n * 0.49), fill=(0, 0, 0, 0))
    elif kind == "arrow":
        d.polygon([(n * 0.15, n * 0.12), (n * 0.9, c), (n * 0.15, n * 0.88)], fill=colour)
    else:
        raise ValueError(f"unknown icon {kind!r}")
    return big.resize((size, size), Image.Resampling.LANCZOS)


def _swords(d: ImageDraw.ImageDraw, cx: float, cy: float, r: float, colour: RGB, width: int) -> None:
    """Two crossed swords, tips up, within radius ``r`` of (cx, cy)."""
    for sgn in (1, -1):
        tip = (cx - r * sgn, cy - r)
        end = (cx + r * sgn, cy + r)
        d.line((*tip, *end), fill=colour, width=width)
        gx, gy = tip[0] + 0.7 * (end[0] - tip[0]), tip[1] + 0.7 * (end[1] - tip[1])
        px, py = -0.3 * r, 0.3 * r * sgn
        d.line((gx - px, gy - py, gx + px, gy + py), fill=colour, width=width)


def paste_icon(
    img: Image.Image, kind: str, center: tuple[float, float], size: int, colour: RGB = theme.INK
) -> None:
    """Paste ``icon(kind, size, colour)`` centred on ``center``."""
    ic = icon(kind, size, colour)
    img.paste(ic, (int(round(center[0] - size / 2)), int(round(center[1] - size / 2))), ic)


# --------------------------------------------------------------------------- counters and tracks


def counter(
    img: Image.Image,
    xy: tuple[float, float],
    kind: str,
    value: int | str,
    size: int = 34,
    ink: RGB = theme.INK,
    suffix: str = "",
) -> float:
    """A token icon followed by its number (big) and an optional smaller suffix,
    with the left edge at ``xy[0]`` and vertical centre at ``xy[1]``. Returns the
    width used in pixels. Remembered as drawn (``render.tiles``) on a plain background."""
    x, y = xy
    f = face(int(size * 0.85), "bold")
    fs = face(max(theme.MIN_TEXT, int(size * 0.5)))
    w = size + 6 + f.length(str(value)) + (4 + fs.length(suffix) + 4 if suffix else 0)
    half = max(size / 2, f.line_height) + 2
    return tiles.tile(
        img,
        (x - 2, y - half, x + w + 4, y + half),
        ("counter", xy, kind, str(value), size, ink, suffix),
        lambda: _counter(img, xy, kind, value, size, ink, suffix, f, fs),
    )


def _counter(
    img: Image.Image, xy: tuple[float, float], kind: str, value: int | str, size: int, ink: RGB, suffix: str,
    f: Face, fs: Face,
) -> float:  # fmt: skip
    x, y = xy
    paste_icon(img, kind, (x + size / 2, y), size)
    d = Draw(img)
    w = draw_text(d, (x + size + 6, y), str(value), f, ink, "lm")
    if suffix:
        w += 4 + draw_text(d, (x + size + 10 + w, y + size * 0.1), suffix, fs, ink, "lm")
    return size + 6 + w


def pip_track(
    draw: ImageDraw.ImageDraw,
    box: Box,
    total: int,
    filled: int,
    fill: RGB,
    empty: RGB,
    outline: RGB = theme.INK,
    goal_mark: bool = True,
) -> None:
    """A row of ``total`` pips in ``box``, the first ``filled`` solid (e.g. Territory
    Tokens towards victory). The last pip is drawn as a diamond when
    ``goal_mark`` (the goal). Values above ``total`` fill every pip. Remembered as drawn
    (``render.tiles``) on a plain background."""
    left, t, r, b = box
    if total <= 0:
        return
    tiles.tile(
        draw._image,
        (left - 3, t - 3, r + 4, b + 4),
        ("pips", tuple(box), total, filled, fill, empty, outline, goal_mark),
        lambda: _pips(draw, box, total, filled, fill, empty, outline, goal_mark),
    )


def _pips(
    draw: ImageDraw.ImageDraw, box: Box, total: int, filled: int, fill: RGB, empty: RGB, outline: RGB,
    goal_mark: bool,
) -> None:  # fmt: skip
    left, t, r, b = box
    gap = 3
    pw = (r - left - gap * (total - 1)) / total
    h = b - t
    for i in range(total):
        x0 = left + i * (pw + gap)
        on = i < filled
        if goal_mark and i == total - 1:
            cx, cy = x0 + pw / 2, t + h / 2
            rr = min(pw, h) / 2 + 1
            draw.polygon(
                shape_points("diamond", cx, cy, rr), fill=fill if on else empty, outline=outline, width=1
            )
        else:
            draw.rounded_rectangle(
                (x0, t, x0 + pw, b),
                radius=min(3, h / 3),
                fill=fill if on else empty,
                outline=outline,
                width=1,
            )


@dataclass(frozen=True)
class Step:
    """One step of a labelled track (phases, rounds): its label and whether it is current."""

    label: str
    current: bool = False
    done: bool = False


def step_track(draw: ImageDraw.ImageDraw, box: Box, steps: Sequence[Step], font: Face | None = None) -> None:
    """A horizontal track of labelled steps in ``box``: the current one filled in
    the active colour with an arrow mark, past ones dimmed."""
    left, t, r, b = box
    font = font or face(theme.MIN_TEXT + 2, "bold")
    n = len(steps)
    if not n:
        return
    gap = 6
    w = (r - left - gap * (n - 1)) / n
    for i, st in enumerate(steps):
        x0 = left + i * (w + gap)
        if st.current:
            draw.rounded_rectangle(
                (x0, t, x0 + w, b), radius=8, fill=theme.ACTIVE, outline=theme.INK, width=2
            )
            ink = theme.INK
            label = st.label
        else:
            draw.rounded_rectangle(
                (x0, t, x0 + w, b), radius=8, fill=None, outline=theme.LIGHT_MUTED, width=2
            )
            ink = theme.LIGHT_MUTED if st.done else theme.LIGHT
            label = st.label
        draw_text(draw, (x0 + w / 2, (t + b) / 2), label, font, ink, "mm", max_width=w - 8)


# --------------------------------------------------------------------------- cards


@dataclass(frozen=True)
class CardFace:
    """What a card face shows: name, type codes (and ``type_words``, what they mean), Force value,
    a note (DO/AO) and text."""

    name: str
    types: str = ""
    value: int | None = None
    note: str | None = None
    text: str = ""
    type_words: str = ""


def card_face(
    img: Image.Image, box: Box, card: CardFace, accent: RGB = theme.ORANGE, text_size: int = 16
) -> None:
    """Draw a card face filling ``box``: name on top, type codes in a band, the
    Force value in a corner circle, the note and wrapped text below (``text_size`` pixels, less
    when it does not fit; a card without type codes starts its note under the name). Remembered
    as drawn (``render.tiles``) on a plain background."""
    left, t, r, b = (int(v) for v in box)
    tiles.tile(
        img,
        (left, t, r + 1, b + 1),
        ("card", (left, t, r, b), card, accent, text_size),
        lambda: _card_face(img, (left, t, r, b), card, accent, text_size),
    )


def _card_face(
    img: Image.Image, box: tuple[int, int, int, int], card: CardFace, accent: RGB, text_size: int
) -> None:
    d = Draw(img)
    left, t, r, b = box
    w = r - left
    d.rounded_rectangle((left, t, r, b), radius=12, fill=theme.PANEL, outline=theme.INK, width=3)
    d.rounded_rectangle((left + 6, t + 6, r - 6, t + 44), radius=8, fill=accent, outline=None)
    fn, names = fit_paragraph(card.name, w - 24, 36, 20, "condensed")
    top = t + 25 - len(names) * fn.line_height / 2
    for i, line in enumerate(names):
        draw_text(d, (left + 12, top + i * fn.line_height), line, fn, theme.ink_on(accent))
    y = t + 52
    used = 0.0
    if card.types:  # "Type LC · Leader, Conquest" where one line holds it, else "Type LC"
        label = "Type " + card.types + (f" \u00b7 {card.type_words}" if card.type_words else "")
        tw = w - (70 if card.value is not None else 24)
        ft = fit(label, tw, 18, "bold")
        if ft.length(label) > tw:  # the card's text below says what it does
            label = "Type " + card.types
            ft = fit(label, tw, 18, "bold")
        draw_text(d, (left + 12, y), label, ft, theme.INK, max_width=tw)
        used = ft.line_height
    if card.value is not None:
        cx, cy, rr = r - 28, y + 12, 20
        d.ellipse((cx - rr, cy - rr, cx + rr, cy + rr), fill=theme.INK)
        draw_text(d, (cx, cy), f"+{card.value}", face(18, "bold"), theme.LIGHT, "mm")
    if card.types or card.value is not None:
        y += max(36 if card.value is not None else 28, used + 6)
    if card.note:
        draw_fit(d, (left + 12, y), card.note, 16, theme.VERMILLION, w - 24, style="bold")
        y += 24
    if card.text and b - y > 20:
        f, lines = fit_sentences(card.text, w - 24, b - y - 6, text_size)
        ink = theme.INK if text_size > 16 else theme.INK_MUTED
        for i, line in enumerate(lines):
            draw_text(d, (left + 12, y + i * f.line_height), line, f, ink)


def card_back(img: Image.Image, box: Box, count: int | None, label: str) -> None:
    """A face-down pile in ``box`` with its ``count`` and a ``label`` under it."""
    d = Draw(img)
    left, t, r, b = (int(v) for v in box)
    for k in (6, 3, 0):
        d.rounded_rectangle(
            (left + k, t + k, r + k - 6, b + k - 6), radius=10, fill=(58, 80, 130), outline=theme.INK, width=2
        )
    d.rounded_rectangle((left + 14, t + 14, r - 20, b - 20), radius=6, outline=theme.LIGHT_MUTED, width=2)
    if count is not None:
        draw_text(
            d, ((left + r - 6) / 2, (t + b - 6) / 2 - 8), str(count), face(34, "bold"), theme.LIGHT, "mm"
        )
    draw_text(
        d,
        ((left + r - 6) / 2, (t + b - 6) / 2 + 24),
        label,
        face(16, "bold"),
        theme.LIGHT,
        "mm",
        max_width=r - left - 30,
    )


# --------------------------------------------------------------------------- legend and header


LegendEntry = tuple[Callable[[Image.Image, tuple[float, float], int], None], str]


def legend(img: Image.Image, box: Box, entries: Sequence[LegendEntry], ink: RGB = theme.LIGHT) -> None:
    """A legend row in ``box``: each entry is (draw_symbol(img, center, size), label).
    Entries flow left to right and wrap to further rows; when they would run out of the box,
    symbols, text (down to 14 px) and gaps are drawn smaller, never an entry left out."""
    d = Draw(img)
    left, t, r, b = box
    # every entry is shown: smaller symbols, text and gaps when they would not fit the box
    for size, f, gap in ((26, face(theme.MIN_TEXT + 1), 28), (22, face(theme.MIN_TEXT), 20), (20, face(14), 14)):
        places = _legend_places(entries, box, size, f, gap)
        if places[-1][1] + size / 2 <= b + 2 if places else True:
            break
    for (draw_symbol, label), (x, y) in zip(entries, places, strict=True):
        draw_symbol(img, (x + size / 2, y), size)
        draw_text(d, (x + size + 8, y), label, f, ink, "lm")


def _legend_places(
    entries: Sequence[LegendEntry], box: Box, size: int, f: Face, gap: int
) -> list[tuple[float, float]]:
    """(left, middle) of each legend entry flowing left to right in ``box``, wrapping to new rows."""
    left, t, r, _ = box
    x, y = left, t + size / 2 + 2
    out = []
    for _, label in entries:
        need = size + 8 + f.length(label) + gap
        if x + need - gap > r and x > left:
            x, y = left, y + size + 8
        out.append((x, y))
        x += need
    return out


@dataclass(frozen=True)
class Header:
    """The header line of every board: game, round, phase, whose turn, and a note."""

    game: str
    round: int | None = None
    phase: str | None = None
    turn_label: str | None = None  # "Huns (seat 2)"
    turn_style: SeatStyle | None = None
    turn_icon: str = "arrow"  # an ``icon`` kind drawn before the turn label
    note: str | None = None  # right-aligned, e.g. "Deck 40 · Discard 12"


HEADER_HEIGHT = 78


def header(img: Image.Image, h: Header, height: int = HEADER_HEIGHT) -> None:
    """Draw the header bar across the top ``height`` pixels of ``img``."""
    d = Draw(img)
    w = img.width
    d.rectangle((0, 0, w, height), fill=theme.HEADER)
    d.rectangle((0, height - 4, w, height), fill=theme.ORANGE)
    cy = (height - 4) / 2
    with panel("header", (0, 0, w, height - 4), img.size):
        _header_texts(img, d, h, cy)


def _header_texts(img: Image.Image, d: ImageDraw.ImageDraw, h: Header, cy: float) -> None:
    w = img.width
    x = 24
    x += draw_fit(d, (x, cy), h.game, theme.TITLE, theme.LIGHT, w * 0.3, "lm", "bold", smallest=theme.TEXT)
    parts = []
    if h.round is not None:
        parts.append(f"Round {h.round}")
    if h.phase:
        parts.append(h.phase)
    right = w - 24
    if h.note:
        right -= draw_fit(d, (right, cy), h.note, theme.TEXT, theme.LIGHT_MUTED, w * 0.22, "rm") + 24
    pill_w = 0.0
    label = None
    f = face(theme.TEXT_BIG, "bold")
    extra = 100 if h.turn_style else 60
    phase = "  \u00b7  ".join(parts)
    # the phase keeps room for itself at 18 pixels; the turn pill takes at most the rest
    phase_min = face(18).length(phase) + 24 if parts else 0
    if h.turn_label:
        most = min(w * 0.42, right - x - phase_min - 24) - extra
        f = fit(h.turn_label, most, theme.TEXT_BIG, "bold", smallest=theme.MIN_TEXT)
        label = h.turn_label
        pill_w = min(f.length(label), most) + extra
    if parts:
        x += 24
        room = right - pill_w - 24 - x
        x += draw_fit(d, (x, cy), phase, theme.TEXT_BIG, theme.LIGHT_MUTED, room, "lm")
    if label:
        x0 = right - pill_w
        d.rounded_rectangle((x0, cy - 24, right, cy + 24), radius=24, fill=theme.ACTIVE, outline=theme.INK, width=2)
        paste_icon(img, h.turn_icon, (x0 + 22, cy), 22)
        tx = x0 + 40
        if h.turn_style:
            paste_badge(img, h.turn_style, (tx + 18, cy), 38)
            tx += 44
        draw_text(d, (tx, cy), label, f, theme.INK, "lm", max_width=right - tx - 16)
