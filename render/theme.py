"""Colours, seat styles and sizes shared by every board image.

The seat and faction colours are the Okabe-Ito palette (Okabe & Ito, "Color
Universal Design", 2008), chosen to stay distinguishable under protanopia,
deuteranopia and tritanopia. Colour is never the only cue: every seat also has
a shape and its number, every region a fill pattern and its name, and every
state marker a word or symbol.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

RGB = tuple[int, int, int]

# Okabe-Ito
ORANGE: RGB = (230, 159, 0)
SKY_BLUE: RGB = (86, 180, 233)
BLUISH_GREEN: RGB = (0, 158, 115)
YELLOW: RGB = (240, 228, 66)
BLUE: RGB = (0, 114, 178)
VERMILLION: RGB = (213, 94, 0)
REDDISH_PURPLE: RGB = (204, 121, 167)
BLACK: RGB = (0, 0, 0)
OKABE_ITO: tuple[RGB, ...] = (ORANGE, SKY_BLUE, BLUISH_GREEN, YELLOW, BLUE, VERMILLION, REDDISH_PURPLE, BLACK)

# Surfaces and ink
BACKGROUND: RGB = (28, 36, 44)  # around everything; suits Discord's dark theme
TABLE: RGB = (47, 68, 60)  # the table top
TABLE_EDGE: RGB = (98, 74, 52)
PANEL: RGB = (244, 236, 220)  # parchment
PANEL_MUTED: RGB = (196, 192, 184)  # seats that are out
INK: RGB = (30, 30, 34)
INK_MUTED: RGB = (92, 88, 84)
LIGHT: RGB = (240, 240, 236)
LIGHT_MUTED: RGB = (176, 186, 192)
HEADER: RGB = (18, 24, 30)

# Meanings (each always paired with a word or symbol)
ACTIVE: RGB = YELLOW  # whose turn: thick border + "TURN" badge
WAITING: RGB = SKY_BLUE  # asked for input now: "WAITING" badge
ATTACK: RGB = VERMILLION  # war links and the attacker: swords symbol
DEFEND: RGB = BLUE  # the defender: shield symbol
GOOD: RGB = BLUISH_GREEN

ShapeName = Literal["circle", "square", "triangle", "diamond", "pentagon", "hexagon", "star", "cross"]
SHAPES: tuple[ShapeName, ...] = (
    "circle",
    "square",
    "triangle",
    "diamond",
    "pentagon",
    "hexagon",
    "star",
    "cross",
)

# Sizes at the reference width of 1600 pixels
WIDTH = 1600
MIN_TEXT = 16  # no label is drawn smaller (>= 14 px asked for Discord's inline preview)
TEXT = 20
TEXT_BIG = 26
TITLE = 34


def luminance(c: RGB) -> float:
    """Relative luminance 0..1 (WCAG)."""

    def ch(v: int) -> float:
        v = v / 255
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4

    r, g, b = c[:3]
    return 0.2126 * ch(r) + 0.7152 * ch(g) + 0.0722 * ch(b)


def ink_on(c: RGB) -> RGB:
    """Black or white, whichever reads better on ``c``."""
    return INK if luminance(c) > 0.22 else LIGHT


def mix(a: RGB, b: RGB, t: float) -> RGB:
    """``a`` blended towards ``b`` by ``t`` (0..1)."""
    return tuple(int(round(x + (y - x) * t)) for x, y in zip(a, b, strict=False))  # type: ignore[return-value]


def hex_colour(text: str) -> RGB:
    """``"#RRGGBB"`` as an RGB tuple."""
    t = text.lstrip("#")
    if len(t) != 6:
        raise ValueError(f"colour {text!r} is not #RRGGBB")
    return (int(t[0:2], 16), int(t[2:4], 16), int(t[4:6], 16))


@dataclass(frozen=True)
class SeatStyle:
    """How one seat or faction is marked: colour, shape and a short label."""

    colour: RGB
    shape: ShapeName
    label: str

    @property
    def ink(self) -> RGB:
        return ink_on(self.colour)


def seat_style(seat: int, label: str | None = None) -> SeatStyle:
    """The style of zero-based ``seat``: Okabe-Ito colour, a shape, and its number
    (seat + 1) as label. The (colour, shape) pair is unique for seats 0..63."""
    n = len(OKABE_ITO)
    colour = OKABE_ITO[seat % n]
    shape = SHAPES[(seat + 3 * (seat // n)) % len(SHAPES)]
    return SeatStyle(colour, shape, label if label is not None else str(seat + 1))
