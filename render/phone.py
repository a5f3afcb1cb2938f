"""Images for phone screens (about 400 pixels wide), beside the 1600-pixel boards.

- ``hand_image(view)``: a seat's private hand alone, one card under another in large text,
  instead of the whole board with the hand as a strip under it. Each game's module says what
  its hand holds with ``hand_cards(view) -> (title, cards)`` (None when the View shows no
  hand: the public board, or a seat without cards).
- ``changed_crop(view, before, names)``: for a tall board (a game module with
  ``phone_area(size)``, the part of its image that is the map), the window of the map around
  what changed since ``before``, small enough to read on a phone; None when the map did not
  change.

Like every board, both take Views only, so nothing hidden reaches them: a hand image is drawn
from the seat's own View, a crop from two public Views.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import Any

import numpy as np
from PIL import Image, ImageChops

from . import theme
from .draw import Box, encode_png
from .paint import Draw
from .record import panel
from .text import draw_text, face, fit, wrap
from .theme import RGB

HAND_WIDTH = 640  # pixels: shown at about 400 on a phone, so 26-pixel text reads as about 16
PAD = 20
TITLE = 30  # pixel sizes of the hand image's texts
NAME = 28
KIND = 22
TEXT = 24
CROP = 560  # pixels: a crop's width and height (map labels about 14 px stay over 10 px on a phone)
CROP_MARGIN = 40  # pixels kept around the changed part


@dataclass(frozen=True)
class HandCard:
    """One card of a hand as the hand image shows it.

    Attributes
    ----------
    name : str
        The card's name (with its number where the game numbers cards).
    kind : str
        One line under the name: its type, cost or value ("Event", "Force 3", "C2 · Roman").
    text : str
        Its rules text (wrapped; empty for none).
    accent : RGB
        The colour of its name band (the game's colour for the card's type).
    """

    name: str
    kind: str = ""
    text: str = ""
    accent: RGB = theme.ORANGE


def _module(view: Any) -> ModuleType:
    from . import renderer

    game = getattr(view, "game", None)
    if type(view).__name__ != "View" or not isinstance(game, str):
        raise TypeError(f"phone images take a game's View, not {type(view).__name__}")
    return renderer(game)


def hand_cards(view: Any) -> tuple[str, list[HandCard]] | None:
    """(title, cards) of the viewer's own hand in ``view``, or None when the View shows no hand
    (a public View, or a game whose module has no ``hand_cards``)."""
    fn = getattr(_module(view), "hand_cards", None)
    if fn is None or getattr(view, "viewer", None) is None:
        return None
    return fn(view)


def _card_height(card: HandCard, width: int) -> tuple[int, list[str]]:
    inner = width - 2 * PAD - 24
    lines = wrap(card.text, face(TEXT), inner) if card.text else []
    height = 12 + face(NAME, "bold").line_height + 12
    if card.kind:
        height += face(KIND).line_height + 4
    height += len(lines) * face(TEXT).line_height + 14
    return height, lines


def hand_image(view: Any) -> Image.Image | None:
    """The viewer's hand alone (RGB, ``HAND_WIDTH`` wide, as tall as its cards need): a title
    line, then each card as a panel with its name on a coloured band, its kind and its text.
    None when ``view`` shows no hand (see ``hand_cards``). Raises TypeError for a non-View."""
    found = hand_cards(view)
    return None if found is None else hand_image_of(*found)


def hand_image_of(title: str, cards: Sequence[HandCard]) -> Image.Image:
    """The hand image of ``title`` and ``cards`` (as ``hand_cards`` gives them): ``hand_image``
    without the View; the image depends on nothing else."""
    width = HAND_WIDTH
    ft = face(TITLE, "bold")
    title_lines = wrap(title, ft, width - 2 * PAD)
    sized = [_card_height(c, width) for c in cards]
    height = PAD + len(title_lines) * ft.line_height + 12 + sum(h + 12 for h, _ in sized) + PAD
    if not cards:
        height += face(TEXT).line_height
    img = Image.new("RGB", (width, height), theme.HEADER)
    d = Draw(img)
    y = PAD
    with panel("hand title", (0, 0, width, y + len(title_lines) * ft.line_height + 4), img.size):
        for line in title_lines:
            draw_text(d, (PAD, y), line, ft, theme.LIGHT)
            y += ft.line_height
    y += 12
    if not cards:
        draw_text(d, (PAD, y), "No cards in hand.", face(TEXT), theme.LIGHT_MUTED)
    fn, fk, fx = face(NAME, "bold"), face(KIND), face(TEXT)
    for i, (card, (h, lines)) in enumerate(zip(cards, sized, strict=True)):
        box: Box = (PAD, y, width - PAD, y + h)
        with panel(f"hand card {i + 1}", box, img.size):
            d.rounded_rectangle(box, radius=12, fill=theme.PANEL, outline=theme.INK, width=2)
            band = (PAD + 5, y + 5, width - PAD - 5, y + 12 + fn.line_height + 2)
            d.rounded_rectangle(band, radius=8, fill=card.accent)
            name_face = fit(card.name, band[2] - band[0] - 20, NAME, "bold", smallest=20)
            draw_text(d, (PAD + 16, (band[1] + band[3]) / 2), card.name, name_face, theme.ink_on(card.accent), "lm",
                      max_width=band[2] - band[0] - 20)  # fmt: skip
            ty = band[3] + 6
            if card.kind:
                kind_face = fit(card.kind, width - 2 * PAD - 24, KIND, smallest=16)
                draw_text(
                    d, (PAD + 12, ty), card.kind, kind_face, theme.INK_MUTED, max_width=width - 2 * PAD - 24
                )
                ty += fk.line_height + 4
            for line in lines:
                draw_text(d, (PAD + 12, ty), line, fx, theme.INK)
                ty += fx.line_height
        y += h + 12
    return img


def hand_png(view: Any) -> bytes | None:
    """``hand_image(view)`` as PNG bytes (None when the View shows no hand)."""
    img = hand_image(view)
    return None if img is None else encode_png(img)


def hand_png_of(title: str, cards: Sequence[HandCard]) -> bytes:
    """``hand_image_of(title, cards)`` as PNG bytes."""
    return encode_png(hand_image_of(title, cards))


# --------------------------------------------------------------------------- the changed part


def _window(profile: np.ndarray, size: int) -> int:
    """The start of the ``size``-long window over ``profile`` (changed pixels per column or
    row) holding the most changed pixels (the first such window)."""
    if len(profile) <= size:
        return 0
    sums = np.convolve(profile, np.ones(size, dtype=np.int64), mode="valid")
    return int(np.argmax(sums))


def crop_box(before: Image.Image, after: Image.Image, area: Box, size: int = CROP) -> Box | None:
    """The ``size`` x ``size`` window (left, top, right, bottom pixels, inside ``area``) of
    ``after`` around what differs from ``before``: centred on the changed pixels when they fit
    in it (with ``CROP_MARGIN`` around them), else where most of them are. None when nothing in
    ``area`` changed or the images differ in size."""
    if before.size != after.size:
        return None
    a0, t0, a1, t1 = (int(v) for v in area)
    diff = ImageChops.difference(before.crop((a0, t0, a1, t1)), after.crop((a0, t0, a1, t1)))
    changed = diff.getbbox()
    if changed is None:
        return None
    w, h = min(size, a1 - a0), min(size, t1 - t0)
    x0, y0, x1, y1 = changed
    if x1 - x0 + 2 * CROP_MARGIN <= w and y1 - y0 + 2 * CROP_MARGIN <= h:
        left = (x0 + x1) / 2 - w / 2
        top = (y0 + y1) / 2 - h / 2
    else:
        mask = np.asarray(diff.convert("L")) > 0
        left = x0 + _window(mask[:, x0:x1].sum(axis=0), w) if x1 - x0 > w else (x0 + x1) / 2 - w / 2
        top = y0 + _window(mask[y0:y1, :].sum(axis=1), h) if y1 - y0 > h else (y0 + y1) / 2 - h / 2
    left = int(min(max(0, left), (a1 - a0) - w))
    top = int(min(max(0, top), (t1 - t0) - h))
    return (a0 + left, t0 + top, a0 + left + w, t0 + top + h)


def changed_crop(view: Any, before: Any, names: Mapping[int, str] | None = None) -> Image.Image | None:
    """The part of ``view``'s board that changed since the board of ``before`` (an earlier
    View of the same game and viewer), ``CROP`` pixels square, for a game whose board is too
    tall to read on a phone (its module has ``phone_area``); None for other games, when the
    map did not change, or when ``before`` is None. Raises TypeError for a non-View."""
    from . import render_image

    area_of = getattr(_module(view), "phone_area", None)
    if area_of is None or before is None or getattr(before, "game", None) != view.game:
        return None
    after_img = render_image(view, names)
    box = crop_box(render_image(before, names), after_img, area_of(after_img.size))
    return None if box is None else after_img.crop(tuple(int(v) for v in box))


def changed_png(view: Any, before: Any, names: Mapping[int, str] | None = None) -> bytes | None:
    """``changed_crop`` as PNG bytes (or None)."""
    img = changed_crop(view, before, names)
    return None if img is None else encode_png(img)


__all__ = [
    "HandCard", "changed_crop", "changed_png", "crop_box", "hand_cards", "hand_image", "hand_image_of", "hand_png",
    "hand_png_of",
]
