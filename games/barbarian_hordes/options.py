"""Barbarian Hordes' variants and options."""

from __future__ import annotations

from pydantic import Field, model_validator

from games.core import Model

from .model import Variant


class Options(Model):
    """Variants and options.

    ``variant``: ``standard`` or ``three-player`` (THREE PLAYER VARIANT; exactly 3
    seats). ``nations``: a nation id per seat to skip the draft. ``round_limit``:
    optional house rule ending the game after that many rounds (RULINGS.md R16).
    """

    variant: Variant = "standard"
    nations: tuple[str, ...] | None = None
    round_limit: int | None = Field(default=None, ge=1)

    @model_validator(mode="after")
    def _check(self) -> Options:
        if self.nations is not None and len(set(self.nations)) != len(self.nations):
            raise ValueError("each seat needs a different nation")
        return self
