"""Soul of the Empire data: the board, faction boards, Objective, Combat and Power Cards.

Read from ``data/*.toml`` with ``tomllib`` and validated here (pydantic, frozen).
Authored items carry ``authored = true`` in the files; the comments there name the
facts they rest on.
"""

from __future__ import annotations

import tomllib
from functools import cache, cached_property
from importlib import resources
from typing import Literal

from pydantic import BaseModel, ConfigDict, model_validator

FACTIONS = ("rome", "jews", "coalition", "christians")
ALL_FACTIONS = FACTIONS + ("gray",)
Phase = Literal["start", "main", "end", "combat", "another"]


class _M(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Region(_M):
    id: str
    name: str
    colour: str
    pattern: Literal["none", "hatch", "dots", "cross"] = "none"
    empire: bool
    authored: bool = False


class Territory(_M):
    id: str
    name: str
    region: str
    coastal: bool
    x: float
    y: float
    authored: bool = False


class Edge(_M):
    a: str
    b: str
    kind: Literal["land", "sea"] = "land"


class FactionBoard(_M):
    id: str
    name: str
    adjective: str
    units: int
    final_placement: int = 0
    start_territories: tuple[str, ...] = ()
    placement: dict[str, int] = {}
    rage: int = 0
    authored: bool = False


ObjectiveKind = Literal[
    "hold",
    "sole",
    "region_units",
    "sole_count",
    "territories",
    "regions",
    "units_on_board",
    "captured",
    "converted",
    "share",
    "share_any",
]


class Objective(_M):
    """One faction's objective on an Objective Card (see data/objectives.toml)."""

    faction: Literal["rome", "jews", "christians"]
    kind: ObjectiveKind
    territories: tuple[str, ...] = ()
    region: str | None = None
    n: int = 1
    points: int
    score_in_start: bool = False


class ObjectiveCard(_M):
    id: str
    name: str
    two_player: bool = True
    authored: bool = False
    objective: tuple[Objective, ...]

    def for_faction(self, faction: str) -> Objective | None:
        for o in self.objective:
            if o.faction == faction:
                return o
        return None


class CombatCard(_M):
    id: str
    faction: Literal["rome", "jews", "coalition", "christians"]
    name: str
    number: int
    effect: Literal["none", "edge", "hinder", "cancel", "kill", "reinforce"]
    n: int = 0
    authored: bool = False

    @property
    def text(self) -> str:
        e = {
            "none": "no effect",
            "edge": f"your Combat Value moves {self.n} toward winning",
            "hinder": f"the other Combat Value moves {self.n} toward losing",
            "cancel": "cancels the other card's effect",
            "kill": f"remove {self.n} of the other side's units before totalling",
            "reinforce": f"add up to {self.n} of your units from supply before totalling",
        }[self.effect]
        return f"{self.number}, {e}"


class PowerCard(_M):
    id: str
    name: str
    faction: Literal["rome", "jews", "christians"]
    phases: tuple[Phase, ...]
    duration: Literal["once", "durable"]
    text: str
    copies: int = 1
    no_steal: bool = False
    revolt: bool = False
    start_in_hand: bool = False
    name_authored: bool = False
    authored: bool = False


class Data(_M):
    regions: dict[str, Region]
    territories: dict[str, Territory]
    edges: tuple[Edge, ...]
    adjacent: dict[str, tuple[str, ...]]
    factions: dict[str, FactionBoard]
    objectives: dict[str, ObjectiveCard]
    combat: dict[str, CombatCard]
    power: dict[str, PowerCard]

    @model_validator(mode="after")
    def _check(self) -> Data:
        for t in self.territories.values():
            if t.region not in self.regions:
                raise ValueError(f"{t.id}: unknown region {t.region}")
        for f in self.factions.values():
            for tid in list(f.placement) + list(f.start_territories):
                if tid not in self.territories:
                    raise ValueError(f"{f.id}: unknown territory {tid}")
        for c in self.objectives.values():
            for o in c.objective:
                for tid in o.territories:
                    if tid not in self.territories:
                        raise ValueError(f"{c.id}: unknown territory {tid}")
                if o.region is not None and o.region not in self.regions:
                    raise ValueError(f"{c.id}: unknown region {o.region}")
        return self

    def region_of(self, territory: str) -> str:
        return self.territories[territory].region

    def in_empire(self, territory: str) -> bool:
        return self.regions[self.territories[territory].region].empire

    @cached_property
    def _by_region(self) -> dict[str, tuple[str, ...]]:
        """Region id -> its territories in board order (computed once: the model is frozen)."""
        out: dict[str, list[str]] = {r: [] for r in self.regions}
        for t, territory in self.territories.items():
            out[territory.region].append(t)
        return {r: tuple(ts) for r, ts in out.items()}

    def region_territories(self, region: str) -> tuple[str, ...]:
        """The territories of ``region``, in board order; () for an unknown region."""
        return self._by_region.get(region, ())

    def deck(self, faction: str) -> tuple[str, ...]:
        """Power Card ids of ``faction``'s deck, one entry per copy (``id#k`` for k > 1)."""
        out = []
        for c in self.power.values():
            if c.faction == faction:
                for k in range(c.copies):
                    out.append(c.id if k == 0 else f"{c.id}#{k + 1}")
        return tuple(out)

    def card(self, card_id: str) -> PowerCard:
        """The Power Card of a copy id (``"roman-roads#2"`` -> Roman Roads)."""
        return self.power[card_id.split("#")[0]]


def _read(name: str) -> dict:
    return tomllib.loads(resources.files(__package__).joinpath("data").joinpath(name).read_text("utf-8"))


@cache
def load() -> Data:
    """The validated game data (cached). Raises pydantic's ValidationError or
    ValueError for a malformed data file."""
    board = _read("board.toml")
    territories = {t["id"]: Territory(**t) for t in board["territory"]}
    edges = tuple(Edge(**e) for e in board["edge"])
    adj: dict[str, list[str]] = {t: [] for t in territories}
    for e in edges:
        if e.a not in territories or e.b not in territories:
            raise ValueError(f"edge {e.a}-{e.b}: unknown territory")
        adj[e.a].append(e.b)
        adj[e.b].append(e.a)
    factions = {f["id"]: FactionBoard(**f) for f in _read("factions.toml")["faction"]}
    objectives = {c["id"]: ObjectiveCard(**c) for c in _read("objectives.toml")["card"]}
    combat = {c["id"]: CombatCard(**c) for c in _read("combat.toml")["card"]}
    power = {c["id"]: PowerCard(**c) for c in _read("power.toml")["card"]}
    return Data(
        regions={r["id"]: Region(**r) for r in board["region"]},
        territories=territories,
        edges=edges,
        adjacent={t: tuple(sorted(v, key=lambda x: territories[x].name)) for t, v in adj.items()},
        factions=factions,
        objectives=objectives,
        combat=combat,
        power=power,
    )
