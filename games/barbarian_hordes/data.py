"""Barbarian Hordes data: the card list and the nations, read from ``data/*.toml``.

Card type codes (rule text, CARD LIST NOTATION): X G A F C E S Q K L P I M V D Y,
with DO (Defender Only) and AO (Attacker Only) notes. A card's ``types`` string is
its printed code (``LC``, ``XG``...); ``has(code)`` tells whether it carries one.
"""

from __future__ import annotations

import tomllib
from functools import cache
from importlib import resources
from typing import Literal

from pydantic import BaseModel, ConfigDict, field_validator

from games.core.explain import Explanation

CODES = set("XGAFCESQKLPIMVDY")

CODE_TEXT = {
    "X": "target loses 1D6 Army Tokens (play in an opponent's Event Phase)",
    "G": "gain 1D6 Army Tokens (play in your Event Phase)",
    "C": "Force bonus in a war (play in the Conquest Phase)",
    "S": "look at an opponent's hand (play any time you are asked to act)",
    "Q": "an extra Conquest Phase this turn",
    "K": "negate a Leader card just played",
    "P": "on an opponent's turn: he may not attack you this turn",
    "I": "on an opponent's turn: he may not attack at all this turn",
    "M": "change your seating position (play in your Event Phase)",
    "V": "after winning a war: gain 1D6 Army Tokens (play in your Event Phase)",
    "D": "draw 3 cards (play in your Event Phase)",
    "Y": "automatic stalemate (play in a war)",
}

# each type code in a few words (a hand's legend, a card face's type line)
TYPE_NAMES = {
    "L": "Leader",
    "C": "Conquest (Force in a war)",
    "X": "strike an opponent",
    "G": "gain armies",
    "S": "spy",
    "Q": "extra Conquest Phase",
    "K": "negate a Leader",
    "P": "peace with you",
    "I": "no attacks at all",
    "M": "move seat",
    "V": "spoils of a won war",
    "D": "draw 3",
    "Y": "stalemate",
}


class Card(BaseModel):
    """One card of the shared deck."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str
    name: str
    types: str
    force: int | None = None
    only: Literal["DO", "AO"] | None = None

    @field_validator("types")
    @classmethod
    def _known_codes(cls, v: str) -> str:
        if not v or set(v) - CODES:
            raise ValueError(f"unknown type code in {v!r}")
        return v

    def has(self, code: str) -> bool:
        """Whether the card carries type ``code`` (one letter)."""
        return code in self.types

    @property
    def is_leader(self) -> bool:
        return "L" in self.types

    @property
    def display(self) -> str:
        """Name as players type it; the two Intrigue cards get their code."""
        return f"{self.name} ({self.types})" if self.name == "Intrigue" else self.name

    @property
    def text(self) -> str:
        """What the card does, in words."""
        parts = []
        if self.is_leader:
            parts.append("Leader card (may be negated by a K card)")
        if self.types == "XG":
            parts.append(
                "play in an opponent's Event Phase: he loses 1D6 Army Tokens and you gain as many as he lost"
            )
        else:
            for code in self.types:
                if code in CODE_TEXT:
                    text = CODE_TEXT[code]
                    if code == "C" and self.force:
                        text = f"Force +{self.force} in a war"
                    parts.append(text)
        if self.only:
            parts.append("Defender only" if self.only == "DO" else "Attacker only")
        return "; ".join(parts) + "."


class Nation(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str
    name: str
    tier: int = 0
    abilities: tuple[str, ...] = ()
    authored: bool = False
    article: bool = True  # named with "the" in a sentence ("the Huns"; not "Rome")


class Data(BaseModel):
    model_config = ConfigDict(frozen=True)

    cards: dict[str, Card]
    nations: dict[str, Nation]
    variant_nations: dict[str, Nation]
    abilities: dict[str, str]

    def nation(self, nation_id: str) -> Nation:
        return self.nations.get(nation_id) or self.variant_nations[nation_id]

    def ability_text(self, nation_id: str | None) -> str:
        if nation_id is None:
            return ""
        abilities = self.nation(nation_id).abilities
        return " ".join(self.abilities[a] for a in abilities) if abilities else "No special ability."


def _read(name: str) -> dict:
    return tomllib.loads(resources.files(__package__).joinpath("data").joinpath(name).read_text("utf-8"))


@cache
def load() -> Data:
    """The validated card list and nations (cached)."""
    cards = [Card(**c) for c in _read("cards.toml")["card"]]
    raw = _read("nations.toml")
    nations = [Nation(**n) for n in raw["nation"]]
    variant = [Nation(**n) for n in raw["variant_nation"]]
    ids = [c.id for c in cards]
    if len(set(ids)) != len(ids):
        raise ValueError("duplicate card id in cards.toml")
    for n in nations + variant:
        unknown = set(n.abilities) - set(raw["abilities"])
        if unknown:
            raise ValueError(f"{n.id}: unknown abilities {unknown}")
    return Data(
        cards={c.id: c for c in cards},
        nations={n.id: n for n in nations},
        variant_nations={n.id: n for n in variant},
        abilities=dict(raw["abilities"]),
    )


@cache
def explanations() -> tuple[Explanation, ...]:
    """What ``explain`` knows (games.core.explain): every card, nation and nation ability,
    from cards.toml and nations.toml. A card's timing is part of its text (CARD LIST)."""
    d = load()
    out = [Explanation(name=c.display, kind="card", text=f"{c.text} Printed code: {c.types}"
                       + (f" {c.only}" if c.only else "") + ".") for c in d.cards.values()]
    for n in d.nations.values():
        tier = f"Tier {n.tier} nation" if n.tier else "Nation"
        out.append(Explanation(name=n.name, kind="nation", text=f"{tier}. {d.ability_text(n.id)}"))
    for n in d.variant_nations.values():
        out.append(Explanation(name=n.name, kind="nation (Three Player Variant)", text=d.ability_text(n.id)))
    for text in d.abilities.values():
        name, _, what = text.partition(": ")
        out.append(Explanation(name=name, kind="nation ability", text=what))
    return tuple(out)
