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

import importlib
from collections.abc import Mapping
from types import ModuleType
from typing import Any

from PIL import Image

from .draw import encode_png

# game id -> module with ``render(view, names) -> Image`` (imported on first use): a module of
# render/ by its name, or any module by its full dotted path (a game kept outside games/)
RENDERERS: dict[str, str] = {
    "barbarian-hordes": "barbarian_hordes",
    "credo": "credo",
    "promised-land": "promised_land",
    "roman-war": "roman_war",
    "soul-of-the-empire": "soul_of_the_empire",
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
    return renderer(game).render(view, names)


def renderer(game: str) -> ModuleType:
    """The module drawing ``game``'s boards (``RENDERERS``). Raises TypeError for a game
    without one."""
    try:
        module = RENDERERS[game]
    except KeyError:
        raise TypeError(f"no board image for game {game!r}; have {', '.join(supported_games())}") from None
    return importlib.import_module(module if "." in module else f"{__name__}.{module}")


def render_view(view: Any, names: Mapping[int, str] | None = None) -> bytes:
    """The board image for ``view`` as PNG bytes (RGB, 1600 pixels wide; Barbarian
    Hordes: 1600x1000, taller for a seat's view with its hand). See
    ``render_image`` for the parameters and errors."""
    return encode_png(render_image(view, names))


__all__ = ["RENDERERS", "render_image", "render_view", "renderer", "supported_games"]
