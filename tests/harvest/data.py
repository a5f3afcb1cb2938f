"""Harvest's card list (``data/cards.toml``), read with tomllib and validated by pydantic."""

from __future__ import annotations

import tomllib
from functools import cache
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field


class Card(BaseModel):
    """One kind of card: its id, name, copies in the deck and rule text; ``reaction``
    cards are played only in answer to another card (rule 3)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str
    name: str
    copies: int = Field(ge=1)
    text: str
    reaction: bool = False


@cache
def cards() -> dict[str, Card]:
    """Every card by id, in the file's order."""
    raw = tomllib.loads((Path(__file__).parent / "data" / "cards.toml").read_text("utf-8"))
    return {c.id: c for c in (Card.model_validate(x) for x in raw["card"])}


def deck() -> tuple[str, ...]:
    """The unshuffled deck: every card id as many times as it has copies."""
    return tuple(c.id for c in cards().values() for _ in range(c.copies))
