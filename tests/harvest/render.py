"""Harvest's board image: one panel per seat (its badge, grain towards the target, hand size,
the viewer's own hand) and a line for the deck, the discard pile and a Raid being answered.
Registered as ``render.RENDERERS["harvest"] = "tests.harvest.render"`` by the tests."""

from __future__ import annotations

from collections.abc import Mapping

from PIL import Image, ImageDraw

from games.core.english import count
from render import theme
from render.draw import paste_badge
from render.record import panel
from render.text import draw_fit, draw_text, face

from . import data
from .model import View

WIDTH = theme.WIDTH
PANEL_H = 120
MARGIN = 24
TOP = 90


def render(view: View, names: Mapping[int, str] | None = None) -> Image.Image:
    """The board for ``view`` (RGB, 1600 pixels wide, 90 + 136 per seat + 70 high).

    Raises TypeError when ``view`` is not a Harvest View."""
    if not isinstance(view, View):
        raise TypeError(f"render() takes a Harvest View, not {type(view).__name__}")
    seats = len(view.grain)
    img = Image.new("RGB", (WIDTH, TOP + seats * (PANEL_H + 16) + 70), theme.TABLE)
    d = ImageDraw.Draw(img)
    draw_text(d, (MARGIN, 24), f"Harvest — first to {view.target} grain", face(theme.TITLE, "bold"), theme.PANEL)
    for seat in range(seats):
        y0 = TOP + seat * (PANEL_H + 16)
        box = (MARGIN, y0, WIDTH - MARGIN, y0 + PANEL_H)
        name = (names or {}).get(seat) or f"Seat {seat + 1}"
        with panel(f"seat {seat + 1}", box, img.size):
            _seat(img, d, box, view, seat, name)
    y = TOP + seats * (PANEL_H + 16) + 10
    top = data.cards()[view.discard_top].name if view.discard_top else "empty"
    line = f"Deck: {count(view.deck_size, 'card')} · discard pile: {top}"
    if view.raid is not None:
        line += f" · Seat {view.raid + 1}'s Raid waits for Seat {(view.raid + 1) % seats + 1}"
    if view.winner is not None:
        line += f" · Seat {view.winner + 1} wins"
    with panel("table", (MARGIN, y, WIDTH - MARGIN, y + 40), img.size):
        draw_fit(d, (MARGIN, y), line, theme.TEXT, theme.PANEL, WIDTH - 2 * MARGIN)
    return img


def _seat(img: Image.Image, d: ImageDraw.ImageDraw, box: tuple[int, int, int, int], view: View, seat: int,
          name: str) -> None:
    x0, y0, x1, _ = box
    d.rounded_rectangle(box, radius=10, fill=theme.PANEL, outline=theme.INK, width=3 if seat == view.turn else 1)
    paste_badge(img, theme.seat_style(seat), (x0 + 40, y0 + 40), 44)
    draw_fit(d, (x0 + 80, y0 + 20), f"{name}: {view.grain[seat]} of {view.target} grain", theme.TEXT_BIG,
             theme.INK, 600, style="bold")
    draw_text(d, (x0 + 80, y0 + 60), f"{count(view.hand_sizes[seat], 'card')} in hand", face(theme.TEXT), theme.INK_MUTED)
    if view.viewer == seat and view.hand is not None:
        hand = ", ".join(data.cards()[c].name for c in view.hand) or "empty"
        draw_fit(d, (x0 + 700, y0 + 20), f"Your hand: {hand}", theme.TEXT, theme.INK, x1 - x0 - 720)
