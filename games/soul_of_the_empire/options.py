"""Soul of the Empire's options: which faction each seat plays (2-Player Rules; RULINGS.md R1)
and the round-limit house rule (RULINGS.md R20)."""

from __future__ import annotations

from pydantic import Field, model_validator

from games.core import Model

FACTION_NAMES = {
    "rome": "rome",
    "roman": "rome",
    "romans": "rome",
    "jews": "jews",
    "jewish": "jews",
    "jew": "jews",
    "coalition": "coalition",
    "christians": "christians",
    "christian": "christians",
}


def faction_ids(text: str) -> tuple[str, ...]:
    """Faction ids named in ``text``: one name, or two joined by ``+``, ``,``, ``&`` or
    ``and`` (a seat of the 2-player game). Raises ValueError for an unknown name."""
    out = []
    for part in text.replace("&", "+").replace(",", "+").replace(" and ", "+").split("+"):
        key = part.strip().casefold()
        if key not in FACTION_NAMES:
            raise ValueError(f"unknown faction {part.strip()!r}; choose Rome, Jewish, Coalition or Christian")
        out.append(FACTION_NAMES[key])
    return tuple(out)


class Options(Model):
    """Variants and options.

    ``factions``: per seat, in seating order, the faction it plays ("Rome", "Jewish",
    "Coalition", "Christian"; in the 2-player game two joined by "+", e.g.
    "Rome+Jewish", or one and the game adds the other) or None for the default.
    Defaults: 4 players Rome, Coalition, Jewish, Christian; 3 players Rome, Coalition,
    Jewish; 2 players Rome + Jewish against Coalition + Christian (RULINGS.md R1).
    ``round_limit``: optional house rule ending the game after that many rounds
    (RULINGS.md R20).
    """

    factions: tuple[str | None, ...] | None = None
    round_limit: int | None = Field(default=None, ge=1)

    @model_validator(mode="after")
    def _check(self) -> Options:
        if self.factions is not None:
            flat = [f for x in self.factions if x for f in faction_ids(x)]
            if len(set(flat)) != len(flat):
                raise ValueError("each faction may be chosen once")
        return self
