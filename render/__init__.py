"""render — Views to PNG bytes with Pillow. Never sees a full State.

Entry points:

- ``render_view(view, names=None) -> bytes``: the board image of a game's View
  (public or one seat's), chosen by the View's ``game`` field.
- ``render_image(view, names=None) -> PIL.Image.Image``: the same, undecoded.
- ``render.map.render_map(map_data, overlay) -> bytes``: a map board from a map
  data file and a per-state overlay (for the map games).

Only View models are accepted: handing a State raises TypeError, so the hidden
parts of a game (hands, the deck's order) cannot reach an image.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from PIL import Image

from .draw import encode_png

Renderer = Callable[[Any, Mapping[int, str] | None], Image.Image]


def _barbarian_hordes(view: Any, names: Mapping[int, str] | None) -> Image.Image:
    from . import barbarian_hordes

    return barbarian_hordes.render(view, names)


def _credo(view: Any, names: Mapping[int, str] | None) -> Image.Image:
    from . import credo

    return credo.render(view, names)


def _soul_of_the_empire(view: Any, names: Mapping[int, str] | None) -> Image.Image:
    from . import soul_of_the_empire

    return soul_of_the_empire.render(view, names)


def _roman_war(view: Any, names: Mapping[int, str] | None) -> Image.Image:
    from . import roman_war

    return roman_war.render(view, names)


def _promised_land(view: Any, names: Mapping[int, str] | None) -> Image.Image:
    from . import promised_land

    return promised_land.render(view, names)


RENDERERS: dict[str, Renderer] = {
    "barbarian-hordes": _barbarian_hordes, "promised-land": _promised_land,
    "credo": _credo,
    "soul-of-the-empire": _soul_of_the_empire,
    "roman-war": _roman_war,
}


def supported_games() -> list[str]:
    """Ids of the games that have a board image."""
    return sorted(RENDERERS)


def render_image(view: Any, names: Mapping[int, str] | None = None) -> Image.Image:
    """The board image for ``view`` (RGB, about 1600 pixels wide; each game's
    module documents its exact size).

    Parameters
    ----------
    view
        A game's View model (pydantic), public (``viewer=None``) or a seat's own.
    names
        Seat -> player display name (any Unicode, truncated to fit).

    Raises
    ------
    TypeError
        ``view`` is not a View (e.g. a full State) of a game with a renderer.
    """
    game = getattr(view, "game", None)
    if type(view).__name__ != "View" or not isinstance(game, str):
        raise TypeError(f"render takes a game's View, not {type(view).__name__}")
    try:
        renderer = RENDERERS[game]
    except KeyError:
        raise TypeError(f"no board image for game {game!r}; have {', '.join(supported_games())}") from None
    return renderer(view, names)


def render_view(view: Any, names: Mapping[int, str] | None = None) -> bytes:
    """The board image for ``view`` as PNG bytes (RGB, 1600 pixels wide; Barbarian
    Hordes: 1600x1000, taller for a seat's view with its hand). See
    ``render_image`` for the parameters and errors."""
    return encode_png(render_image(view, names))


__all__ = ["RENDERERS", "render_image", "render_view", "supported_games"]
