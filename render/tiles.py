"""Pieces of a board remembered as they were drawn.

A board draws many pieces that come out the same from one state to the next: a seat's hand
cards, a track of pips, a counter whose number did not change. ``tile(img, box, key, draw)``
draws a piece that ``draw()`` paints inside ``box`` and whose pixels depend on nothing but
``key`` and the plain colour under ``box``; the pixels it painted are remembered, and the next
time the same ``key`` is drawn at the same place on the same plain colour they are pasted
instead. When the area under ``box`` is not one plain colour, the piece is simply drawn.

The texts a piece drew are remembered with it and recorded again when it is pasted
(``render.record``), so tests read a pasted piece as they read a drawn one.
"""

from __future__ import annotations

import collections
import math
import threading
from collections.abc import Callable, Hashable
from typing import Any, TypeVar

from PIL import Image

from . import record

TILES_KEPT = 512  # pieces remembered per process
PIXELS_KEPT = 4_000_000  # and their pixels at most (about 16 MB: Pillow keeps 4 bytes a pixel)
CHECK = False  # tests: verify that a piece drawn changed nothing outside its box

T = TypeVar("T")
_lock = threading.Lock()
_tiles: collections.OrderedDict[tuple, tuple[Image.Image, tuple[record.DrawnText, ...], Any]] = (
    collections.OrderedDict()
)
_pixels = 0


def tile(img: Image.Image, box: tuple[float, float, float, float], key: Hashable, draw: Callable[[], T]) -> T:
    """Draw the piece ``draw()`` (which paints only inside ``box``, (left, top, right, bottom)
    pixels, right and bottom excluded) on ``img`` and return what it returns, or paste the pixels
    it painted the last time the same ``key`` was drawn at this place on this plain colour and
    return what it returned then (see the module's docstring)."""
    global _pixels
    x0, y0 = max(0, math.floor(box[0])), max(0, math.floor(box[1]))
    x1, y1 = min(img.width, math.ceil(box[2])), min(img.height, math.ceil(box[3]))
    if x1 <= x0 or y1 <= y0 or img.mode not in ("RGB", "L"):
        return draw()
    area = (x0, y0, x1, y1)
    under = img.crop(area).getextrema()
    bands = (under,) if img.mode == "L" else under
    if any(lo != hi for lo, hi in bands):  # not one plain colour: drawn as it is
        return draw()
    full = (key, area, img.mode, tuple(lo for lo, _ in bands), record.current_panel())
    with _lock:
        found = _tiles.get(full)
        if found is not None:
            _tiles.move_to_end(full)
    if found is not None:
        img.paste(found[0], area)
        record.add(found[1])
        return found[2]
    before = img.copy() if CHECK else None
    with record.recording() as texts:
        value = draw()
    record.add(texts)
    if before is not None:
        _check(before, img, area)
    piece = img.crop(area)
    with _lock:
        if full not in _tiles:
            _tiles[full] = (piece, tuple(texts), value)
            _pixels += piece.width * piece.height
        while len(_tiles) > TILES_KEPT or _pixels > PIXELS_KEPT:
            _, (old, _, _) = _tiles.popitem(last=False)
            _pixels -= old.width * old.height
    return value


def _check(before: Image.Image, after: Image.Image, area: tuple[int, int, int, int]) -> None:
    """Raise AssertionError when ``after`` differs from ``before`` outside ``area``."""
    a, b = before.copy(), after.copy()
    blank = Image.new(a.mode, (area[2] - area[0], area[3] - area[1]))
    a.paste(blank, area)
    b.paste(blank, area)
    if a.tobytes() != b.tobytes():
        raise AssertionError(f"a piece drawn in {area} painted outside it")


def clear() -> None:
    """Forget every remembered piece."""
    global _pixels
    with _lock:
        _tiles.clear()
        _pixels = 0
