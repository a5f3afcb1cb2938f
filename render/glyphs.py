"""A line of text's coverage mask composed from its glyphs' masks, remembered one by one.

FreeType hints and renders each glyph of a line every time Pillow renders a line
(``FreeTypeFont.getmask2``): a new line of 60 characters costs about 0.7 ms, and the boards
draw many new lines from one state to the next (a war's result, a card's text, a player's
hand). Pillow's basic layout puts each glyph's bitmap, rendered at a whole pixel whatever
the pen's fraction, at the pen position rounded to a pixel (the pen advancing by each glyph's
advance and each pair's kerning, as ``render.text._advance`` sums them), and lays each
bitmap over the ones before with the "over" operator (where both cover a pixel:
``glyph + pixel * (255 - glyph) / 255``, rounded as Pillow's ``MULDIV255``). ``compose``
does the same with each glyph's mask rendered once: the same covered pixels with the same
values (``tests/render/test_paint.py`` compares them with Pillow's), in about a third of
the time; neighbouring glyphs rarely share a column, so most are plain copies.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from PIL import Image, ImageFont

GLYPHS_KEPT = 20_000  # (font, character) masks remembered per process

_glyphs: dict[tuple[ImageFont.FreeTypeFont, str], tuple[np.ndarray, int, int]] = {}


def _glyph(font: ImageFont.FreeTypeFont, ch: str) -> tuple[np.ndarray, int, int]:
    """(coverage, left, top) of one character's glyph: its mask and the mask's top left from the
    pen on the baseline, in pixels."""
    key = (font, ch)
    found = _glyphs.get(key)
    if found is None:
        mask, (ox, oy) = font.getmask2(ch, "L", anchor="ls")
        w, h = mask.size
        cover = np.asarray(Image.Image()._new(mask)) if w and h else np.zeros((0, 0), np.uint8)
        if len(_glyphs) >= GLYPHS_KEPT:
            _glyphs.clear()
        found = _glyphs[key] = (cover, ox, oy)
    return found


def compose(
    font: ImageFont.FreeTypeFont,
    text: str,
    advance: Callable[[ImageFont.FreeTypeFont, str], int],
    kerning: Callable[[ImageFont.FreeTypeFont, str], int],
) -> tuple[Image.Image, tuple[int, int]] | None:
    """(mask, (left, top)): the coverage mask of ``text`` in ``font`` (mode L) and its top left
    from the pen's start on the baseline; None when no glyph covers a pixel (spaces). A
    character's advance and a pair's kerning, in 1/64 pixels, are ``advance(font, ch)`` and
    ``kerning(font, pair)`` (``render.text`` measures texts with the same)."""
    pen = 0
    prev = ""
    placed = []
    for ch in text:
        if prev:
            pen += kerning(font, prev + ch)
        cover, ox, oy = _glyph(font, ch)
        if cover.size:
            placed.append((cover, ((pen + 32) >> 6) + ox, oy))  # Pillow's PIXEL(): the pen rounded
        pen += advance(font, ch)
        prev = ch
    if not placed:
        return None
    x0 = min(x for _, x, _ in placed)
    y0 = min(y for _, _, y in placed)
    x1 = max(x + c.shape[1] for c, x, _ in placed)
    y1 = max(y + c.shape[0] for c, _, y in placed)
    out = np.zeros((y1 - y0, x1 - x0), np.uint8)
    right = -(1 << 30)  # the glyphs laid so far cover no column right of this
    for cover, x, y in placed:
        h, w = cover.shape
        left, top = x - x0, y - y0
        shared = min(w, right - left)  # columns an earlier glyph may cover too
        if shared > 0:
            under = out[top : top + h, left : left + shared].astype(np.uint16)
            over = cover[:, :shared].astype(np.uint16)
            tmp = under * (255 - over) + 128
            both = np.minimum(over + ((tmp + (tmp >> 8)) >> 8), 255)
            out[top : top + h, left : left + shared] = np.where(
                over > 0, np.where(under > 0, both, over), under
            )
        if shared < w:
            out[top : top + h, left + max(shared, 0) : left + w] = cover[:, max(shared, 0) :]
        right = max(right, left + w)
    return Image.fromarray(out, "L"), (x0, y0)
