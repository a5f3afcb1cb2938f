"""Board images for the outbox: drawn off the event loop in the worker processes of
``render.pool`` (a game's public board still waiting replaced by a newer one), the part of a tall
map that changed, and a smaller JPEG for an upload Discord refused."""

from __future__ import annotations

import asyncio
import concurrent.futures
import io
import logging
import weakref
from typing import Any

import discord

from bot.host.replies import ImageRequest
from render.pool import RenderPool

log = logging.getLogger("tabula.discord")

RENDER_THREADS = 2
_RENDER_POOL: concurrent.futures.ThreadPoolExecutor | None = None
_BOARDS: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, RenderPool] = weakref.WeakKeyDictionary()


def image_threads() -> concurrent.futures.ThreadPoolExecutor:
    """A small pool of threads for the light image work of the bot (a JPEG for an upload
    Discord refused); board images are drawn in worker processes (``board_pool``)."""
    global _RENDER_POOL
    if _RENDER_POOL is None:
        _RENDER_POOL = concurrent.futures.ThreadPoolExecutor(
            max_workers=RENDER_THREADS, thread_name_prefix="tabula-render"
        )
    return _RENDER_POOL


def board_pool() -> RenderPool:
    """The board image pool of the running event loop (``render.pool``; its worker
    processes, one per core, are shared by the whole process): back-pressure, coalescing of a game's waiting public boards and one drawing per distinct
    view."""
    loop = asyncio.get_running_loop()
    if loop not in _BOARDS:
        _BOARDS[loop] = RenderPool()
    return _BOARDS[loop]


async def render_png(
    image: ImageRequest | None,
    audience: int | None = None,
    names: dict[int, str] | None = None,
    *,
    hand: bool = False,
) -> bytes | None:
    """The PNG of a board image request, drawn in a worker process; None if it fails.
    ``names`` maps seats to the players' display names written on the board. With ``hand``,
    a seat's hand alone in large text (``render.phone``; its board when the View shows no hand).

    Boards waiting to be drawn are coalesced: when a newer board for the same readers is
    already waiting, the older one is not drawn and this returns the newer one. The readers
    are the game's channel for a public board (a View whose ``viewer`` is None) and, for a
    seat's own view, the seat as seen by the user ``audience`` (the one it is sent to); a
    seat's view without an ``audience`` is never coalesced."""
    if image is None or image.view is None:
        return None
    try:
        viewer = getattr(image.view, "viewer", 0)
        kind = "hand" if hand else "seat"
        if viewer is None:
            slot: tuple[Any, ...] | None = ("public" if not hand else "public hand", image.session_id)
        elif audience is not None:
            slot = (kind, image.session_id, viewer, audience)
        else:
            slot = None
        if hand:
            return await board_pool().hand_png(image.view, names or None, slot=slot)
        return await board_pool().png(image.view, names or None, slot=slot)
    except Exception:
        log.exception("rendering %s session %s failed", image.game_id, image.session_id)
        return None


async def render_changed_png(
    image: ImageRequest | None, before: Any, names: dict[int, str] | None = None
) -> bytes | None:
    """The PNG of the part of a tall public board that changed since the public View
    ``before`` (``render.phone.changed_png``: a window of the map a phone can read), drawn in a
    worker process; None for boards a phone reads whole, when the map did not change, or if it
    fails."""
    if image is None or image.view is None or before is None or getattr(image.view, "viewer", 0) is not None:
        return None
    try:
        return await board_pool().changed_png(image.view, before, names or None, slot=("changed", image.session_id))
    except Exception:
        log.exception("cropping %s session %s failed", image.game_id, image.session_id)
        return None


def shrink(png: bytes, half: bool) -> bytes:
    """A PNG as a JPEG (quality 80), at half its size when ``half``: for an upload Discord
    refused as too large (413)."""
    from PIL import Image

    img = Image.open(io.BytesIO(png)).convert("RGB")
    if half:
        img = img.resize((max(1, img.width // 2), max(1, img.height // 2)))
    out = io.BytesIO()
    img.save(out, "JPEG", quality=80 if not half else 70, optimize=True)
    return out.getvalue()


def png_file(data: bytes | None, name: str = "board.png") -> list[discord.File]:
    return [] if data is None else [discord.File(io.BytesIO(data), filename=name)]
