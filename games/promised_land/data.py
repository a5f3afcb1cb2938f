"""Promised Land data: the map, the kingdoms, the 54 Kingdom cards, the 72 Artefacts and the
Royal and Kingdom track tokens, read from ``data/*.toml`` with tomllib and validated by pydantic.

Every item the rule text does not give is marked ``authored = true`` in its file, with its
sources of fact in the file's comments (ARCHITECTURE.md, "Authored data and rulings").
"""

from __future__ import annotations

import tomllib
from functools import cache, cached_property
from importlib import resources
from typing import Literal

from pydantic import BaseModel, ConfigDict, model_validator

from games.core.english import count
from games.core.explain import Explanation

Side = Literal["hebrew", "heathen"]
Coin = Literal["bronze", "silver", "gold"]
COINS: tuple[Coin, ...] = ("bronze", "silver", "gold")


class _Data(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Land(_Data):
    """One of the 25 lands: its town's name, terrain, port and road marks, map position."""

    id: str
    name: str
    terrain: Literal["hill", "plain"]
    port: bool = False
    road: bool = False
    x: float
    y: float
    authored: bool = False


class Border(_Data):
    a: str
    b: str
    kind: Literal["land", "river"] = "land"


class Counters(_Data):
    """A colour of counters, shared by one to three kingdoms; ``supply`` counters in the box."""

    id: str
    name: str
    supply: int
    colour: str


class Kingdom(_Data):
    """A kingdom: Hebrew (Northern or Southern tribes) or Heathen; its counters and start-land."""

    id: str
    name: str
    side: Side
    counters: str
    start_land: str | None = None
    fallback_start_land: str | None = None
    authored: bool = False


class Card(_Data):
    """A Kingdom card: Time-track ``number`` 1..54, its Book, side, name (leader or kingdom),
    the kingdom it activates, units, dice in hills and on plains, Weaker-card points."""

    number: int
    book: int
    side: Side
    name: str
    kingdom: str
    units: int
    hills: int
    plains: int
    points: int = 0
    note: str = ""
    authored: bool = False

    def dice(self, terrain: str) -> int:
        """Dice used when attacking a land of ``terrain`` (``hill`` or ``plain``)."""
        return self.hills if terrain == "hill" else self.plains


class ArtefactKind(_Data):
    kind: str
    name: str
    cost: int
    points: int
    phase: Literal["KB", "A", "CR", "A/CR", "D"]
    text: str
    copies: dict[Coin, int]
    authored: bool = False


class Artefact(_Data):
    """An Artefact type as bought and played: a kind in one coin (``tribute-2.silver``)."""

    id: str
    kind: str
    name: str
    coin: Coin
    cost: int
    points: int
    phase: Literal["KB", "A", "CR", "A/CR", "D"]
    text: str

    @property
    def display(self) -> str:
        return f"{self.name} ({self.coin})"


class RoyalToken(_Data):
    id: str
    name: str
    any: int = 0  # any N coins
    each: int = 0  # N bronze + N silver + N gold
    points: int
    text: str = ""

    @property
    def cost_text(self) -> str:
        return (
            f"any {count(self.any, 'coin')}"
            if self.any
            else f"{self.each} bronze + {self.each} silver + {self.each} gold"
        )


class KingdomToken(_Data):
    id: str
    text: str
    what: Literal["plains", "hills", "roads", "ports", "city", "temple", "ark"]
    n: int
    points: int


class GameData(_Data):
    """All the data of the game, cross-checked on load."""

    lands: tuple[Land, ...]
    borders: tuple[Border, ...]
    counters: tuple[Counters, ...]
    kingdoms: tuple[Kingdom, ...]
    cards: tuple[Card, ...]
    artefact_kinds: tuple[ArtefactKind, ...]
    royal: tuple[RoyalToken, ...]
    kingdom_tokens: tuple[KingdomToken, ...]

    @model_validator(mode="after")
    def _check(self) -> GameData:
        ids = [x.id for x in self.lands]
        if len(set(ids)) != len(ids):
            raise ValueError("duplicate land ids")
        for b in self.borders:
            if b.a not in ids or b.b not in ids or b.a == b.b:
                raise ValueError(f"bad border {b.a}-{b.b}")
        sets = {c.id for c in self.counters}
        for k in self.kingdoms:
            if k.counters not in sets:
                raise ValueError(f"{k.id}: unknown counters {k.counters}")
            for land in (k.start_land, k.fallback_start_land):
                if land is not None and land not in ids:
                    raise ValueError(f"{k.id}: unknown start-land {land}")
        kingdoms = {k.id for k in self.kingdoms}
        numbers = [c.number for c in self.cards]
        if sorted(numbers) != list(range(1, len(self.cards) + 1)):
            raise ValueError("cards must be numbered 1..N")
        for c in self.cards:
            if c.kingdom not in kingdoms:
                raise ValueError(f"card {c.number}: unknown kingdom {c.kingdom}")
            if c.book != (c.number - 1) // 18 + 1:
                raise ValueError(f"card {c.number}: wrong Book")
            if not all(1 <= d <= 3 for d in (c.hills, c.plains)):
                raise ValueError(f"card {c.number}: dice must be 1 to 3")
        return self

    # -------------------------------------------------------------- lookups

    @cached_property
    def land_index(self) -> dict[str, int]:
        return {x.id: i for i, x in enumerate(self.lands)}

    @cached_property
    def adjacent(self) -> tuple[tuple[int, ...], ...]:
        """Land index -> indices of adjacent lands (sorted)."""
        adj: list[set[int]] = [set() for _ in self.lands]
        for b in self.borders:
            i, j = self.land_index[b.a], self.land_index[b.b]
            adj[i].add(j)
            adj[j].add(i)
        return tuple(tuple(sorted(a)) for a in adj)

    @cached_property
    def kingdom(self) -> dict[str, Kingdom]:
        return {k.id: k for k in self.kingdoms}

    @cached_property
    def counter(self) -> dict[str, Counters]:
        return {c.id: c for c in self.counters}

    @cached_property
    def card(self) -> dict[int, Card]:
        return {c.number: c for c in self.cards}

    @cached_property
    def artefacts(self) -> dict[str, Artefact]:
        """Artefact type id -> Artefact, in the List's order."""
        out = {}
        for k in self.artefact_kinds:
            for coin in COINS:
                if k.copies.get(coin):
                    a = Artefact(
                        id=f"{k.kind}.{coin}",
                        kind=k.kind,
                        name=k.name,
                        coin=coin,
                        cost=k.cost,
                        points=k.points,
                        phase=k.phase,
                        text=k.text,
                    )
                    out[a.id] = a
        return out

    @cached_property
    def bag(self) -> tuple[str, ...]:
        """Every Artefact in the cloth bag (72), as type ids, unshuffled."""
        return tuple(
            f"{k.kind}.{coin}"
            for k in self.artefact_kinds
            for coin in COINS
            for _ in range(k.copies.get(coin, 0))
        )

    @cached_property
    def royal_token(self) -> dict[str, RoyalToken]:
        return {t.id: t for t in self.royal}

    @cached_property
    def kingdom_token(self) -> dict[str, KingdomToken]:
        return {t.id: t for t in self.kingdom_tokens}

    @cached_property
    def _start_lands(self) -> dict[str, frozenset[int]]:
        out: dict[str, set[int]] = {}
        for k in self.kingdoms:
            if k.side == "heathen" and k.start_land:
                out.setdefault(k.counters or "", set()).add(self.land_index[k.start_land])
        return {c: frozenset(lands) for c, lands in out.items()}

    def start_lands(self, counters: str) -> frozenset[int]:
        """Indices of the Heathen start-lands of kingdoms using ``counters`` (computed once)."""
        return self._start_lands.get(counters, frozenset())


def _read(name: str) -> dict:
    text = resources.files("games.promised_land").joinpath("data", name).read_text(encoding="utf-8")
    return tomllib.loads(text)


@cache
def load() -> GameData:
    """The game's data, validated (pydantic ValidationError on a malformed file)."""
    lands = _read("lands.toml")
    kingdoms = _read("kingdoms.toml")
    tracks = _read("tracks.toml")
    return GameData(
        lands=lands["land"],
        borders=lands["border"],
        counters=kingdoms["counters"],
        kingdoms=kingdoms["kingdom"],
        cards=_read("cards.toml")["card"],
        artefact_kinds=_read("artefacts.toml")["artefact"],
        royal=tracks["royal"],
        kingdom_tokens=tracks["kingdom"],
    )


_PHASE = {  # rule text, "Playing Artefacts"
    "KB": "in your Kingdom building phase (KB)",
    "A": "in your Actions phase (A)",
    "CR": "in your Collect revenue phase (CR)",
    "A/CR": "in your Actions or Collect revenue phase (A/CR)",
    "D": "as a defence in another player's Kingdom building phase",
}


@cache
def explanations() -> tuple[Explanation, ...]:
    """What ``explain`` knows (games.core.explain): every Artefact, Kingdom card, Royal
    track token and Kingdom track token, and the three Patriarch types, from artefacts.toml,
    cards.toml, tracks.toml and patriarchs.toml."""
    d = load()
    out = []
    for a in d.artefact_kinds:
        out.append(Explanation(
            name=a.name, kind="Artefact", text=f"{a.text} Worth {a.points} point{'s' if a.points != 1 else ''}.",
            cost=f"{count(a.cost, 'coin')}", when=f"Play it {_PHASE[a.phase]}; one Artefact per turn.",
        ))
    counters = {c.id: c.name for c in d.counters}
    kingdoms = {k.id: k for k in d.kingdoms}
    for c in d.cards:
        k = kingdoms[c.kingdom]
        text = (
            f"Kingdom card {c.number}, Book {c.book}, {c.side.capitalize()}: {k.name}"
            + (f" ({counters[k.counters]})" if counters[k.counters] != k.name else "")
            + f" takes {c.units} unit{'s' if c.units != 1 else ''}; attacks with "
            f"{count(c.hills, 'die', 'dice')} in hills and {c.plains} on plains."
        )
        if c.points:
            text += f" A Weaker card: {c.points} point{'s' if c.points != 1 else ''}."
        if c.note:
            text += f" ({c.note})"
        out.append(Explanation(name=f"{c.name} ({c.number})", kind="Kingdom card", text=text))
    for r in d.royal:
        out.append(Explanation(
            name=r.name if r.text else f"{r.name} {r.points}", kind="Royal track token",
            text=(r.text + " " if r.text else "") + f"Worth {r.points} point{'s' if r.points != 1 else ''}.", cost=r.cost_text,
        ))
    for t in d.kingdom_tokens:
        out.append(Explanation(
            name=t.text, kind="Kingdom track token",
            text=f"{t.text}. Worth {t.points} point{'s' if t.points != 1 else ''}.",
        ))
    where = " A player may have only one of their Patriarchs in a land, and a land holds only one of each type."
    for pt in _read("patriarchs.toml")["patriarch"]:
        out.append(Explanation(name=pt["name"], kind="Patriarch", text=pt["text"] + where))
    return tuple(out)
