"""A record of the texts a board image draws: what each says, and where.

Rendering happens in pixels, so a test cannot ask an image which numbers it shows. Every line of
text goes through ``render.text.draw_text``, which adds a ``DrawnText`` to the active recording
(if any), so tests can compare what a board shows with the View it was drawn from, and find text
that was cut or that overlaps other text. Layers cached between renders (``cached_layer``) keep
the texts they drew and add them again each time they are reused.

A renderer marks the areas it lays text out in (a seat's panel, the footer, a card) with
``panel(name, box, canvas)``; every text drawn inside the ``with`` block carries that panel, so a
test can tell a text that leaves its panel from one that merely lies near another.

Usage::

    with recording() as texts:
        render.render_image(view)
    [t.text for t in texts]
"""

from __future__ import annotations

import contextlib
import contextvars
import functools
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, TypeVar


@dataclass(frozen=True)
class Panel:
    """An area of a board that texts are laid out in.

    Attributes
    ----------
    name : str
        What the area is ("seat 2", "footer", "hand card 3"), for messages.
    box : tuple[int, int, int, int]
        (left, top, right, bottom) in pixels of the image drawn on.
    canvas : tuple[int, int]
        (width, height) in pixels of the image drawn on.
    """

    name: str
    box: tuple[int, int, int, int]
    canvas: tuple[int, int]

    def holds(self, box: tuple[int, int, int, int], slack: int = 1) -> bool:
        """Whether ``box`` lies inside this panel (``slack`` pixels allowed on each side)."""
        return (box[0] >= self.box[0] - slack and box[1] >= self.box[1] - slack
                and box[2] <= self.box[2] + slack and box[3] <= self.box[3] + slack)


@dataclass(frozen=True)
class DrawnText:
    """One line of text as drawn.

    Attributes
    ----------
    text : str
        What was drawn (after cleaning, and after any truncation with an ellipsis).
    requested : str
        What the renderer asked to draw.
    box : tuple[int, int, int, int]
        (left, top, right, bottom) in pixels of the image drawn on: top at the font's ascent,
        bottom at its descent.
    canvas : tuple[int, int]
        (width, height) in pixels of the image drawn on: the board itself, or a small piece
        (a badge, a card) pasted onto it later, whose boxes are relative to that piece.

    panel : Panel or None
        The innermost ``panel`` block the text was drawn in (None outside any).
    """

    text: str
    requested: str
    box: tuple[int, int, int, int]
    canvas: tuple[int, int] = (0, 0)
    panel: Panel | None = None

    @property
    def cut(self) -> bool:
        """Whether the text was shortened to fit (drawn ending in an ellipsis it did not ask for)."""
        return self.text != self.requested and self.text.endswith("…")


_active: contextvars.ContextVar[list[DrawnText] | None] = contextvars.ContextVar("render_texts", default=None)
_panel: contextvars.ContextVar[Panel | None] = contextvars.ContextVar("render_panel", default=None)


@contextlib.contextmanager
def recording() -> Iterator[list[DrawnText]]:
    """Record every text drawn inside the ``with`` block into the list it yields."""
    texts: list[DrawnText] = []
    token = _active.set(texts)
    try:
        yield texts
    finally:
        _active.reset(token)


@contextlib.contextmanager
def panel(name: str, box: tuple[float, float, float, float], canvas: tuple[int, int]) -> Iterator[Panel]:
    """Mark the texts drawn inside the ``with`` block as laid out in the area ``box``
    ((left, top, right, bottom) pixels) of the image of size ``canvas`` (width, height)."""
    area = Panel(name, tuple(int(round(v)) for v in box), tuple(canvas))  # type: ignore[arg-type]
    token = _panel.set(area)
    try:
        yield area
    finally:
        _panel.reset(token)


def current_panel() -> Panel | None:
    """The innermost ``panel`` block being drawn in (None outside any)."""
    return _panel.get()


def record(text: str, requested: str, box: tuple[int, int, int, int], canvas: tuple[int, int]) -> None:
    """Add a drawn text to the active recording (nothing when none is active)."""
    texts = _active.get()
    if texts is not None:
        area = _panel.get()
        if area is not None and area.canvas != tuple(canvas):  # a piece (badge) drawn for pasting later
            area = None
        texts.append(DrawnText(text, requested, box, canvas, area))


def pasted(texts: list[DrawnText], at: tuple[int, int], canvas: tuple[int, int]) -> list[DrawnText]:
    """``texts`` drawn on a piece as they stand once the piece is pasted at ``at`` (left, top)
    onto an image of size ``canvas``: boxes (and their panels' boxes) moved, the canvas replaced.
    The piece is the largest canvas among ``texts``; texts of smaller pieces drawn meanwhile
    (badges, pasted in turn) are left as they are."""
    dx, dy = at
    if not texts:
        return []

    def move(b: tuple[int, int, int, int]) -> tuple[int, int, int, int]:
        return (b[0] + dx, b[1] + dy, b[2] + dx, b[3] + dy)

    out = []
    size = max((t.canvas for t in texts), key=lambda c: c[0] * c[1])
    for t in texts:
        if t.canvas != size:
            out.append(t)
            continue
        area = None if t.panel is None else Panel(t.panel.name, move(t.panel.box), canvas)
        out.append(DrawnText(t.text, t.requested, move(t.box), canvas, area))
    return out


def add(texts: list[DrawnText] | tuple[DrawnText, ...]) -> None:
    """Add texts recorded elsewhere (e.g. the part of a piece that stays visible once it is
    cropped and pasted) to the active recording (nothing when none is active)."""
    active = _active.get()
    if active is not None:
        active.extend(texts)


F = TypeVar("F", bound=Callable[..., Any])


def cached_layer(maxsize: int = 16) -> Callable[[F], F]:
    """``functools.lru_cache`` for a function that draws a static layer: the texts it drew the
    first time are kept with the image and recorded again on every reuse."""

    def decorate(fn: F) -> F:
        @functools.lru_cache(maxsize=maxsize)
        def build(*args: Any) -> tuple[Any, tuple[DrawnText, ...]]:
            with recording() as texts:
                value = fn(*args)
            return value, tuple(texts)

        @functools.wraps(fn)
        def wrapper(*args: Any) -> Any:
            value, texts = build(*args)
            active = _active.get()
            if active is not None:
                active.extend(texts)
            return value

        wrapper.cache_clear = build.cache_clear  # type: ignore[attr-defined]
        wrapper.cache_info = build.cache_info  # type: ignore[attr-defined]
        return wrapper  # type: ignore[return-value]

    return decorate
