"""Promised Land's session options (Setting Up 8; the Alternative 'No Dice' Combat System)."""

from __future__ import annotations

from games.core import Model


class Options(Model):
    """Session options.

    ``no_dice``: the Alternative 'No Dice' Combat System. ``hebrews``: the seats that play
    Hebrews (the rest play Heathens); by default every odd seat, so teams are as closely
    matched as the seats allow (Setting Up 8, RULINGS R1).
    """

    no_dice: bool = False
    hebrews: tuple[int, ...] | None = None
