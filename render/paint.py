"""Drawing on the boards with shapes remembered between renders.

``Draw(img)`` is Pillow's ``ImageDraw.Draw`` whose ``rounded_rectangle`` and jointed ``line``
are drawn from a cache: the boards draw the same rounded panels, pills, chips and cards, and
the same curved seating links, at the same places from one state to the next, and Pillow
draws each rounded rectangle's four corners, and each joint of a line, in Python, as pie
slices and arcs (the costly part). The first time such a shape is asked for (by its exact
coordinates, colours and width), Pillow's own method runs with its low-level calls
recorded: rectangle fills and line strokes stay as they are, and each curved part (pie
slice, arc, ellipse) is drawn once onto a scratch mask at the same place; later calls
replay those calls and masks in the same order. A mask drawn with full
coverage sets its pixels to the ink exactly as the curve would, so the pixels are the ones
Pillow draws (``tests/render/test_paint.py`` compares them).
"""

from __future__ import annotations

import collections
import math
import threading
from collections.abc import Callable
from typing import Any

from PIL import Image, ImageDraw

CACHE_SIZE = 4096  # shapes remembered per process (each a few small corner masks)
_CURVES = ("draw_pieslice", "draw_arc", "draw_ellipse")  # replayed from masks
_KEPT = ("draw_rectangle", "draw_lines")  # replayed as they were called


class _Recorder:
    """Stands in for Pillow's low-level draw object while ``rounded_rectangle`` runs: inks
    are converted by the real one, drawing calls are only written down."""

    def __init__(self, real: Any) -> None:
        self.real = real
        self.calls: list[tuple[str, tuple]] = []

    def draw_ink(self, ink: Any) -> int:
        return self.real.draw_ink(ink)

    def __getattr__(self, name: str) -> Any:
        if not name.startswith("draw_"):
            raise AttributeError(name)
        # coordinates copied: a caller's list may change after the shape is remembered
        return lambda xy, *args: self.calls.append((name, (_frozen(xy), *args)))


class _Scratch:
    """An 'L' image that curves are drawn on, one at a time, at their place on the board, to
    cut out their masks; it grows to the largest board asked for."""

    def __init__(self) -> None:
        self.size = (0, 0)
        self.img: Image.Image | None = None
        self.draw: Any = None

    def mask(self, name: str, args: tuple, bounds: tuple[int, int]) -> tuple[tuple[int, int], Any] | None:
        """(top-left, mask) of the curve ``name(*args)`` drawn at full coverage, cut to the
        pixels it covers; None when it covers none."""
        if bounds[0] > self.size[0] or bounds[1] > self.size[1]:
            self.size = (max(bounds[0], self.size[0]), max(bounds[1], self.size[1]))
            self.img = Image.new("L", self.size, 0)
            self.draw = Image.core.draw(self.img.im, 0)
        assert self.img is not None
        box = _flat(args[0])
        reach = (args[-1] if name != "draw_pieslice" else 0) + 2  # an outline's width, and a margin
        x0 = max(0, math.floor(min(box[0], box[2])) - reach)
        y0 = max(0, math.floor(min(box[1], box[3])) - reach)
        x1 = min(self.size[0], math.ceil(max(box[0], box[2])) + reach + 1)
        y1 = min(self.size[1], math.ceil(max(box[1], box[3])) + reach + 1)
        if name == "draw_ellipse":  # (box, ink, fill, width)
            self.draw.draw_ellipse(box, 255, *args[2:])
        elif name == "draw_pieslice":  # (box, start, end, ink, fill)
            self.draw.draw_pieslice(box, args[1], args[2], 255, *args[4:])
        else:  # draw_arc (box, start, end, ink, width)
            self.draw.draw_arc(box, args[1], args[2], 255, *args[4:])
        region = self.img.crop((x0, y0, x1, y1))
        self.draw.draw_rectangle((x0, y0, x1 - 1, y1 - 1), 0, 1)
        tight = region.getbbox()
        if tight is None:
            return None
        return (x0 + tight[0], y0 + tight[1]), region.crop(tight).convert("1", dither=Image.Dither.NONE).im


_lock = threading.Lock()
_scratch = _Scratch()
_shapes: collections.OrderedDict[tuple, tuple | None] = collections.OrderedDict()


def _replay(draw: Any, im: Any, ops: tuple) -> None:
    for kind, args in ops:
        if kind is None:
            draw.draw_bitmap(*args)
        elif kind == "fill":
            _fill(draw, im, *args)
        else:
            getattr(draw, kind)(*args)


def _fill(draw: Any, im: Any, xy: Any, ink: int) -> None:
    """Pillow's ``draw_rectangle(xy, ink, 1)`` (a filled rectangle, its right and bottom edges
    included, coordinates truncated to integers and clipped to the image) as a paste of the ink,
    which Pillow does about five times faster than its line-by-line fill."""
    x0, y0, x1, y1 = (int(v) for v in _flat(xy))
    if y0 > y1:
        y0, y1 = y1, y0
    w, h = im.size
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, w - 1), min(y1, h - 1)
    if x0 <= x1 and y0 <= y1:
        im.paste(ink, (x0, y0, x1 + 1, y1 + 1))


class Draw(ImageDraw.ImageDraw):
    """``ImageDraw.ImageDraw`` with ``rounded_rectangle`` and ``line`` drawn from remembered
    calls and masks (see the module's docstring); everything else is Pillow's."""

    def rounded_rectangle(  # type: ignore[override]
        self,
        xy: Any,
        radius: float = 0,
        fill: Any = None,
        outline: Any = None,
        width: int = 1,
        *,
        corners: tuple[bool, bool, bool, bool] | None = None,
    ) -> None:
        key = ("rounded", self.mode, self.palette is None, _flat(xy), radius, fill, outline, width, corners)
        self._remembered(key, lambda: super(Draw, self).rounded_rectangle(xy, radius, fill, outline, width,
                                                                       corners=corners))  # fmt: skip

    def rectangle(  # type: ignore[override]
        self, xy: Any, fill: Any = None, outline: Any = None, width: int = 1
    ) -> None:
        """Pillow's ``rectangle``, its fill pasted (see ``_fill``) where the ink is not blended."""
        if self.palette is not None or _blending(self) or isinstance(self.draw, _Recorder):
            super().rectangle(xy, fill, outline, width)  # (a recorded call is pasted when replayed)
            return
        ink, fill_ink = self._getink(outline, fill)
        if fill_ink is not None:
            _fill(self.draw, self.im, xy, fill_ink)
        if ink is not None and ink != fill_ink and width != 0:
            self.draw.draw_rectangle(xy, ink, 0, width)

    def line(  # type: ignore[override]
        self, xy: Any, fill: Any = None, width: int = 1, joint: str | None = None
    ) -> None:
        if joint is None or len(xy) < 3:  # one C call already: nothing to remember
            super().line(xy, fill, width, joint)
            return
        key = ("line", self.mode, self.palette is None, _flat(xy), fill, width, joint)
        self._remembered(key, lambda: super(Draw, self).line(xy, fill, width, joint))

    def _remembered(self, key: tuple, draw: Callable[[], None]) -> None:
        """Draw by replaying what ``draw()`` did the last time ``key`` was drawn, or run it
        with its calls recorded and remember them."""
        with _lock:
            found = _shapes.get(key, _shapes)
            if found is not _shapes:
                _shapes.move_to_end(key)
        if found is _shapes:
            found = self._record(key, draw)
        size = self.im.size
        if found is None or found[0][0] > size[0] or found[0][1] > size[1]:
            # not remembered (another kind of call, or the shape reaches past the image)
            draw()
            return
        _replay(self.draw, self.im, found[1])

    def _record(self, key: tuple, draw: Callable[[], None]) -> tuple | None:
        """Run ``draw()`` with its low-level drawing calls recorded; remember them with each
        curve as a mask, or None when they cannot be replayed that way."""
        real = self.draw
        rec = _Recorder(real)
        self.draw = rec
        try:
            draw()
        finally:
            self.draw = real
        found: tuple | None = None
        if (
            self.palette is None
            and all(name in _KEPT or name in _CURVES for name, _ in rec.calls)
            and not _blending(self)
        ):
            found = self._masks(rec.calls)
        with _lock:
            _shapes[key] = found
            while len(_shapes) > CACHE_SIZE:
                _shapes.popitem(last=False)
        return found

    def _masks(self, calls: list[tuple[str, tuple]]) -> tuple | None:
        """(extent, ops) replaying ``calls``: rectangles and lines as they are, curves as
        masks; None when a call reaches past the image's top or left edge."""
        ops = []
        right = bottom = 0
        for name, args in calls:
            coords = _flat(args[0])
            reach = args[2] if name == "draw_lines" else 0  # a line's width
            xs, ys = coords[0::2], coords[1::2]
            if min(xs) - reach < 0 or min(ys) - reach < 0:
                return None
            right = max(right, math.ceil(max(xs) + reach) + 2)
            bottom = max(bottom, math.ceil(max(ys) + reach) + 2)
        for name, args in calls:
            if name == "draw_rectangle" and len(args) == 3 and args[2] == 1:  # a filled one
                ops.append(("fill", args[:2]))
                continue
            if name in _KEPT:
                ops.append((name, args))
                continue
            ink = args[1] if name == "draw_ellipse" else args[3]
            with _lock:
                cut = _scratch.mask(name, args, (right + 16, bottom + 16))
            if cut is not None:
                ops.append((None, (cut[0], cut[1], ink)))
        # drawn from masks only where the shape lies wholly inside the image (no clipping)
        return (right, bottom), tuple(ops)


def _frozen(xy: Any) -> Any:
    """``xy`` as tuples (a list of points or of numbers), unchanged when it is neither."""
    if isinstance(xy, list):
        return tuple(tuple(p) if isinstance(p, list) else p for p in xy)
    return xy


def _flat(xy: Any) -> tuple:
    """Coordinates as one flat tuple: (x0, y0, x1, y1) from that or ((x0, y0), (x1, y1))."""
    return tuple(v for p in xy for v in p) if isinstance(xy[0], (list, tuple)) else tuple(xy)


def _blending(d: ImageDraw.ImageDraw) -> bool:
    """Whether ``d`` blends its inks (``Draw(img, "RGBA")`` on an RGB image)."""
    return d.mode != d._image.mode
