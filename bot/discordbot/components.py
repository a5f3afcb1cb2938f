"""Persistent buttons and select menus.

Every component's ``custom_id`` names what it does, the session and the session's version
when it was posted, so a click is understood without any in-memory view: components keep
working after a restart, and a click on a decision that has passed is recognised (the
version moved on) and answered with a clear message.

Formats (at most 100 characters, Discord's limit)::

    tabula:a:<session>:<version>:<notation>   play the action written in the game's notation
    tabula:i:<session>:<version>:<index>      play the index-th choice (notation too long)
    tabula:s:<session>:<version>              a select menu; its values are notations or #index
    tabula:h:<session>                        show me my hand and my choices (ephemeral)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import discord

PREFIX = "tabula:"
MAX_ID = 100
MAX_BUTTONS = 5 * 4  # leave a row for the hand button
MAX_OPTIONS = 25


@dataclass(frozen=True)
class Decoded:
    kind: str  # "a" action, "i" index, "s" select, "h" hand
    session_id: int
    version: int | None = None
    notation: str | None = None
    index: int | None = None


def action_id(session_id: int, version: int, notation: str, index: int) -> str:
    cid = f"{PREFIX}a:{session_id}:{version}:{notation}"
    return cid if len(cid) <= MAX_ID else f"{PREFIX}i:{session_id}:{version}:{index}"


def select_id(session_id: int, version: int) -> str:
    return f"{PREFIX}s:{session_id}:{version}"


def hand_id(session_id: int) -> str:
    return f"{PREFIX}h:{session_id}"


def option_value(notation: str, index: int) -> str:
    return notation if len(notation) <= 100 and not notation.startswith("#") else f"#{index}"


def decode(custom_id: str) -> Decoded | None:
    """Read a custom id this module made; None for anything else (or malformed)."""
    if not custom_id.startswith(PREFIX):
        return None
    parts = custom_id[len(PREFIX) :].split(":", 3)
    try:
        kind = parts[0]
        sid = int(parts[1])
        if kind == "h" and len(parts) == 2:
            return Decoded("h", sid)
        version = int(parts[2])
        if kind == "s" and len(parts) == 3:
            return Decoded("s", sid, version)
        if kind == "a" and len(parts) == 4:
            return Decoded("a", sid, version, notation=parts[3])
        if kind == "i" and len(parts) == 4:
            return Decoded("i", sid, version, index=int(parts[3]))
    except (IndexError, ValueError):
        return None
    return None


def label_for(notation: str) -> str:
    return notation if len(notation) <= 80 else notation[:79] + "…"


def choice_view(
    session_id: int, version: int, choices: Sequence[str], *, hand_button: bool = False
) -> discord.ui.View | None:
    """Buttons (up to 20 choices) or a select menu (up to 25) for a small decision.

    Returns None when there is nothing to choose or too much for components (the player then
    types ``/play`` with autocomplete).
    """
    view = discord.ui.View(timeout=None)
    if 0 < len(choices) <= MAX_BUTTONS and all(len(c) <= 80 for c in choices):
        for i, c in enumerate(choices):
            style = discord.ButtonStyle.secondary if c.lower() == "pass" else discord.ButtonStyle.primary
            view.add_item(
                discord.ui.Button(
                    label=label_for(c), style=style, custom_id=action_id(session_id, version, c, i)
                )
            )
    elif 0 < len(choices) <= MAX_OPTIONS:
        options = [
            discord.SelectOption(label=label_for(c), value=option_value(c, i)) for i, c in enumerate(choices)
        ]
        view.add_item(
            discord.ui.Select(
                custom_id=select_id(session_id, version), placeholder="Choose…", options=options
            )
        )
    if hand_button:
        view.add_item(
            discord.ui.Button(
                label="My hand", style=discord.ButtonStyle.secondary, custom_id=hand_id(session_id)
            )
        )
    return view if view.children else None


def hand_view(session_id: int) -> discord.ui.View:
    """The public "My hand" button: each player who clicks sees their own hand, privately."""
    view = discord.ui.View(timeout=None)
    view.add_item(
        discord.ui.Button(
            label="My hand & choices", style=discord.ButtonStyle.secondary, custom_id=hand_id(session_id)
        )
    )
    return view
