"""Roman War data: the Roman cards and starter decks, the Hannibal deck and the level
abilities, read from ``data/*.toml`` and validated here.

Every card is authored (the rule text prints none); the words of the effects are the
glossary in ``GLOSSARY.md``. A card's printed line (``Card.line``) uses the text's own
marks: ``C n`` cost, ``R n`` / ``R X`` defense cost, ``D n`` draw, ``D n.cz`` draw to the
Cost Zone (``.fup`` face up), ``H+n`` / ``H-n`` Power, ``#rot#`` rotate, ``#bb#`` boosts
printed at the top, ``⚡`` the fast mark.
"""

from __future__ import annotations

import tomllib
from functools import cache
from importlib import resources
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from games.core.english import count
from games.core.explain import Explanation

EffectKind = Literal[
    "power",  # H+n / H-n
    "draw",  # D n to hand
    "draw_cz",  # D n.cz (face down, or .fup face up)
    "untap",  # un-rotate n of your Cost Zone cards
    "break",  # break n Hannibal's Encampments (to the Defended pile)
    "recover",  # shuffle n random cards of your discard pile into your deck
    "reveal",  # reveal the Hannibal deck's next n draws
    "team_power",  # every Roman gains H+n
    "counter",  # fast: the Ambush on the stack goes to the Defended pile
    "shield",  # fast: the Ambush on the stack causes no Power loss
    "defend",  # defend one active Ambush (Defense cards; #rot# abilities with max_cost)
    "defend_gain",  # defend an Ambush -> gain X -3 Power
    "rotate",  # Hannibal: rotate n of the Roman's untapped Cost Zone cards
    "discard",  # Hannibal: discard n cards at random from hand
    "maneuver",  # Hannibal: Maneuver level changes by n
    "shaken",  # Hannibal: status — draw 1 card fewer next turn
]

CardType = Literal["Maneuver", "Encampment", "Token", "Defense", "Tactic"]
Payer = Literal["self", "ally", "any"]


class _M(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Effect(_M):
    """One effect word. ``n`` its number; ``who``: ``self`` (the card's controller) or
    ``ally`` (a teammate, named when the card is played); ``max_cost`` limits a
    ``defend`` to Ambushes of that defense cost or less; ``face_up`` for ``draw_cz``."""

    do: EffectKind
    n: int = 1
    who: Literal["self", "ally"] = "self"
    face_up: bool = False
    max_cost: int | None = None

    @property
    def beneficial(self) -> bool:
        """Effects Brotherly Horse may redirect to a teammate (RULINGS.md R12)."""
        return self.do in ("power", "draw", "draw_cz", "untap") and self.n > 0

    def line(self) -> str:
        """The effect in the card marks of the glossary."""
        n = self.n
        return {
            "power": f"H{'+' if n >= 0 else '-'}{abs(n)}" + (" to a teammate" if self.who == "ally" else ""),
            "draw": f"D{n}",
            "draw_cz": f"D{n}.cz" + (" .fup" if self.face_up else ""),
            "untap": f"untap {n} Cost Zone card{'s' if n != 1 else ''}",
            "break": f"break {n} Hannibal's Encampment{'s' if n != 1 else ''}",
            "recover": f"shuffle {n} random discards into your deck",
            "reveal": f"reveal Hannibal's next {n}",
            "team_power": f"every Roman H+{n}",
            "counter": "counter the Ambush on the stack",
            "shield": "the Ambush on the stack causes no Power loss",
            "defend": "defend an Ambush" + (f" of R{self.max_cost} or less" if self.max_cost else ""),
            "defend_gain": "defend an Ambush -> gain X -3 Power",
            "rotate": f"rotate {n} Cost Zone card{'s' if n != 1 else ''}",
            "discard": f"discard {n} card{'s' if n != 1 else ''} at random",
            "maneuver": f"Maneuver {'+' if n >= 0 else '-'}{abs(n)}",
            "shaken": "shaken: draw 1 fewer next turn",
        }[self.do]


def _effects_line(effects: tuple[Effect, ...]) -> str:
    return ", ".join(e.line() for e in effects)


class Boost(_M):
    """A boost printed on a card: who may pay (``self`` the card's player, ``ally`` a
    teammate, ``any`` anyone on the team), its cost C n, the fast mark, and what it does
    (``effects``, or ``choose``: pick one list when it resolves). A boost with neither
    does nothing but mark the card boosted."""

    cost: int = Field(ge=0)
    payer: Payer = "self"
    fast: bool = False
    effects: tuple[Effect, ...] = ()
    choose: tuple[tuple[Effect, ...], ...] = ()

    def line(self) -> str:
        glyph = {"self": "B", "ally": "B+", "any": "B*"}[self.payer]
        what = _effects_line(self.effects)
        if self.choose:
            what = " or ".join(_effects_line(c) for c in self.choose)
        return f"{'⚡' if self.fast else ''}{glyph} C{self.cost}: {what or 'marks the card boosted'}"


class Card(_M):
    """A Roman card. ``fast`` Tactics may answer an Ambush on the stack; ``attach`` Tokens
    attach to one of their player's Encampments; ``rotate`` is a field card's ability."""

    id: str
    name: str
    type: CardType
    cost: int = Field(ge=0)
    fast: bool = False
    effects: tuple[Effect, ...] = ()
    if_boosted: tuple[Effect, ...] = ()
    choose: tuple[tuple[Effect, ...], ...] = ()
    choose_all_if_boosted: bool = False
    boosts: tuple[Boost, ...] = ()
    boosts_on_top: bool = False
    rotate: tuple[Effect, ...] = ()
    attach: bool = False
    text: str = ""
    source: str = ""
    authored: bool = False

    @model_validator(mode="after")
    def _check(self) -> Card:
        if self.type in ("Encampment", "Token") and not self.rotate:
            raise ValueError(f"{self.id}: a field card needs a rotate ability")
        if self.attach and self.type != "Token":
            raise ValueError(f"{self.id}: only Tokens attach")
        if self.type == "Defense" and not any(e.do in ("defend", "defend_gain") for e in self.effects):
            raise ValueError(f"{self.id}: a Defense card must defend")
        return self

    @property
    def defends(self) -> bool:
        return any(e.do in ("defend", "defend_gain") for e in self.effects)

    @property
    def needs_ally(self) -> bool:
        return any(e.who == "ally" for e in self.effects)

    def pre_boosts(self) -> tuple[int, ...]:
        """Indexes of the boosts taken before the card's action: all of them when printed
        at the top, else those with the fast mark."""
        return tuple(i for i, b in enumerate(self.boosts) if self.boosts_on_top or b.fast)

    def post_boosts(self) -> tuple[int, ...]:
        pre = set(self.pre_boosts())
        return tuple(i for i in range(len(self.boosts)) if i not in pre)

    def line(self) -> str:
        """The card in the glossary's marks, e.g. ``Maneuver C3 · D1 · B C1: H+1``."""
        parts = [f"{'⚡' if self.fast else ''}{self.type} C{self.cost}"]
        boosts = [b.line() for b in self.boosts]
        if self.boosts_on_top and boosts:
            parts.append("boosts first: " + "; ".join(boosts))
        if self.text:
            parts.append(self.text)
        else:
            body = []
            if self.effects:
                body.append(_effects_line(self.effects))
            if self.choose:
                body.append("choose one: " + " or ".join(_effects_line(c) for c in self.choose))
            if self.if_boosted:
                body.append("if boosted: " + _effects_line(self.if_boosted))
            if self.rotate:
                body.append(("attach; " if self.attach else "") + "rotate: " + _effects_line(self.rotate))
            if body:
                parts.append("; ".join(body))
        if boosts and not self.boosts_on_top:
            parts.append("; ".join(boosts))
        return " · ".join(parts)


class HannibalCard(_M):
    """A card of the Hannibal deck. ``defense`` None is R X (RULINGS.md R9)."""

    id: str
    name: str
    type: Literal["Ambush", "Encampment"]
    defense: int | None = None
    chaos: tuple[Effect, ...] = ()
    condition: tuple[Effect, ...] = ()
    count: int = Field(default=1, ge=1)
    source: str = ""
    authored: bool = False

    @model_validator(mode="after")
    def _check(self) -> HannibalCard:
        if self.type == "Encampment" and self.defense is None:
            raise ValueError(f"{self.id}: an Encampment needs a defense cost")
        if self.type == "Ambush" and self.condition:
            raise ValueError(f"{self.id}: an Ambush has no condition")
        return self

    def line(self) -> str:
        r = f"R{self.defense}" if self.defense is not None else "RX"
        if self.type == "Ambush":
            chaos = ", ".join(["H-1"] + [e.line() for e in self.chaos])
            return f"Ambush {r} · failed: {chaos}"
        cond = _effects_line(self.condition) or "none"
        return f"Hannibal's Encampment {r} · each Roman turn: {cond}"


class Ability(_M):
    id: str
    name: str
    alias: str = ""
    tier: Literal["high", "low"]
    text: str
    authored: bool = False

    @property
    def display(self) -> str:
        return f"{self.name} / {self.alias}" if self.alias else self.name


class Deck(_M):
    id: str
    commander: str
    text: str
    cards: dict[str, int]
    source: str = ""
    authored: bool = False


class Data(_M):
    cards: dict[str, Card]
    hannibal: dict[str, HannibalCard]
    abilities: dict[str, Ability]
    decks: dict[str, Deck]  # each with the core included
    hannibal_deck: tuple[str, ...]  # one id per copy, in file order

    def deck_list(self, deck_id: str) -> tuple[str, ...]:
        """The 30 card ids of a starter deck, one per copy."""
        return tuple(c for c, n in self.decks[deck_id].cards.items() for _ in range(n))


ABILITY_COST = {"high": 11, "low": 7}  # "spending Cost (11 high-tier / 7 low-tier)"


def _read(name: str) -> dict:
    return tomllib.loads(resources.files(__package__).joinpath("data").joinpath(name).read_text("utf-8"))


@cache
def load() -> Data:
    """The validated data (cached). Raises ValueError for an unknown card in a deck,
    a duplicate id, or a deck that is not 30 cards."""
    raw = _read("roman_cards.toml")
    cards = {c["id"]: Card(**c) for c in raw["card"]}
    if len(cards) != len(raw["card"]):
        raise ValueError("duplicate Roman card id")
    core = raw["core"]["cards"]
    decks = {}
    for d in raw["deck"]:
        merged = dict(core)
        for k, v in d["cards"].items():
            merged[k] = merged.get(k, 0) + v
        unknown = set(merged) - set(cards)
        if unknown:
            raise ValueError(f"deck {d['id']}: unknown cards {sorted(unknown)}")
        deck = Deck(**{**d, "cards": merged})
        if sum(deck.cards.values()) != 30:
            raise ValueError(f"deck {deck.id} has {count(sum(deck.cards.values()), 'card')}, not 30")
        decks[deck.id] = deck
    hraw = _read("hannibal_cards.toml")
    hannibal = {c["id"]: HannibalCard(**c) for c in hraw["card"]}
    if len(hannibal) != len(hraw["card"]) or set(hannibal) & set(cards):
        raise ValueError("duplicate card id")
    abilities = {a["id"]: Ability(**a) for a in _read("abilities.toml")["ability"]}
    return Data(
        cards=cards,
        hannibal=hannibal,
        abilities=abilities,
        decks=decks,
        hannibal_deck=tuple(c.id for c in hannibal.values() for _ in range(c.count)),
    )


@cache
def explanations() -> tuple[Explanation, ...]:
    """What ``explain`` knows (games.core.explain): every Roman card, Hannibal card, level
    ability and starter deck, from roman_cards.toml, hannibal_cards.toml and abilities.toml.
    Texts use the card marks of GLOSSARY.md (C n, D n, H+n, #rot#...)."""
    d = load()
    out = []
    for c in d.cards.values():
        when = "Fast: may also be played as a response while an Ambush is on the stack." if c.fast else None
        out.append(Explanation(name=c.name, kind=f"Roman card, {c.type}", text=c.line(), cost=f"C{c.cost}",
                               when=when))
    for h in d.hannibal.values():
        out.append(Explanation(
            name=h.name, kind=f"Hannibal's {h.type}", text=h.line(),
            cost=("defending it: " if h.type == "Ambush" else "assaulting it: ")
            + (f"R{h.defense}" if h.defense is not None else "R X (Hannibal's Encampments in play + 1)"),
        ))
    for a in d.abilities.values():
        out.append(Explanation(
            name=a.display, kind=f"level ability, {a.tier} tier", text=a.text,
            cost=f"{ABILITY_COST[a.tier]} Cost",
        ))
    for k in d.decks.values():
        out.append(Explanation(name=k.commander, kind="starter deck", text=k.text))
    return tuple(out)
