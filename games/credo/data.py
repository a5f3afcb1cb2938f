"""Credo data: Church cards, Article cards and Event cards, read from ``data/*.toml``.

Card ids are stable strings: Church cards ``f-<value>-<n>`` (Followers), ``l-<id>``
(Laity), ``p-<id>`` (Patriarchs), ``b-<id>`` (Bishops); Article cards
``a-<numbers>-<doctrine>-<n>``; Event cards ``e-<name>-<n>``. The Western Emperor and
the two Goths cards are Event cards that may sit among a Church's cards
(rule text: Special Event Cards and the Tables).
"""

from __future__ import annotations

import re
import tomllib
from functools import cache
from importlib import resources
from typing import Literal

from pydantic import BaseModel, ConfigDict

from games.core.explain import Explanation

Half = Literal["East", "West", "Both", "None"]
ChurchKind = Literal["follower", "bishop", "patriarch", "laity"]
Timing = Literal["any", "immediate", "other"]


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


class ChurchCard(BaseModel):
    """A Church card (blue). ``votes`` at a Council; ``followers`` counted at the end
    (Follower cards: the denomination; Patriarchs and Laity: intrinsic Followers)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str
    kind: ChurchKind
    name: str
    half: Half = "None"
    votes: int = 0
    followers: int = 0
    prefect: bool = False
    set_aside: bool = False
    authored: bool = False

    @property
    def is_bishop(self) -> bool:
        """Patriarchs are Bishops (Church Cards: "all rules pertaining to Bishops apply")."""
        return self.kind in ("bishop", "patriarch")


class ArticleCard(BaseModel):
    """An Article card: the Article numbers it covers and its doctrine."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str
    numbers: tuple[int, ...]
    doctrine: str
    symbol: str | None = None
    penalty_followers: int = 0
    penalty_bishops: int = 0
    authored: bool = False

    @property
    def key(self) -> str:
        """The doctrine as voted on: numbers and doctrine ("exact doctrine")."""
        return doctrine_name(self.numbers, self.doctrine)

    @property
    def name(self) -> str:
        """Display name; penalty variants of one doctrine are told apart."""
        if self.penalty_followers or self.penalty_bishops:
            return f"{self.key} ({self.penalty_text})"
        return self.key

    @property
    def penalty_text(self) -> str:
        parts = []
        if self.penalty_followers:
            parts.append(f"{self.penalty_followers} Follower{'s' if self.penalty_followers > 1 else ''}")
        if self.penalty_bishops:
            parts.append(f"{self.penalty_bishops} Bishop{'s' if self.penalty_bishops > 1 else ''}")
        return "lose " + " and ".join(parts) if parts else ""


def doctrine_name(numbers: tuple[int, ...], doctrine: str) -> str:
    """ "Article 3 Orthodox", "Articles 3&4 Adoptionist", "Articles 3,4&5 Mandaean"."""
    if len(numbers) == 1:
        return f"Article {numbers[0]} {doctrine}"
    head = ",".join(str(n) for n in numbers[:-1]) + f"&{numbers[-1]}"
    return f"Articles {head} {doctrine}"


class EventCard(BaseModel):
    """An Event card (yellow): symbol, timing, what it does (``effect``)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str
    name: str
    symbol: str
    timing: Timing
    effect: str
    text: str
    amount: int = 0
    permanent: bool = False
    council: bool = False
    book: str | None = None
    half: Half = "None"
    goth_followers: int = 0
    authored: bool = False


class Data(BaseModel):
    model_config = ConfigDict(frozen=True)

    church: dict[str, ChurchCard]
    articles: dict[str, ArticleCard]
    events: dict[str, EventCard]

    def is_article(self, card_id: str) -> bool:
        return card_id in self.articles

    def name(self, card_id: str) -> str:
        """Display name of any card id."""
        if card_id in self.church:
            return self.church[card_id].name
        if card_id in self.articles:
            return self.articles[card_id].name
        return self.events[card_id].name


def _read(name: str) -> dict:
    return tomllib.loads(resources.files(__package__).joinpath("data").joinpath(name).read_text("utf-8"))


def _follower_name(value: int) -> str:
    return f"{value:,} Followers"


@cache
def load() -> Data:
    """The validated card lists (cached)."""
    raw = _read("church.toml")
    church: dict[str, ChurchCard] = {}
    for f in raw["follower"]:
        for i in range(f["count"]):
            cid = f"f-{f['value']}-{i + 1}"
            church[cid] = ChurchCard(
                id=cid, kind="follower", name=_follower_name(f["value"]), followers=f["value"]
            )
    for kind, prefix in (("laity", "l"), ("patriarch", "p"), ("bishop", "b")):
        for c in raw[kind]:
            fields = dict(c)
            fields["id"] = f"{prefix}-{fields['id']}"
            if kind == "bishop":
                fields["name"] = f"Bishop of {fields['name']}"
            church[fields["id"]] = ChurchCard(kind=kind, **fields)
    articles: dict[str, ArticleCard] = {}
    for a in _read("articles.toml")["article"]:
        fields = {k: v for k, v in a.items() if k != "count"}
        fields["numbers"] = tuple(fields["numbers"])
        base = f"a-{'-'.join(map(str, fields['numbers']))}-{slug(fields['doctrine'])}"
        if fields.get("penalty_followers") or fields.get("penalty_bishops"):
            base += f"-p{fields.get('penalty_followers', 0)}{fields.get('penalty_bishops', 0)}"
        for i in range(a["count"]):
            cid = f"{base}-{i + 1}"
            if cid in articles:
                raise ValueError(f"duplicate article id {cid}")
            articles[cid] = ArticleCard(id=cid, **fields)
    events: dict[str, EventCard] = {}
    for e in _read("events.toml")["event"]:
        fields = {k: v for k, v in e.items() if k != "count"}
        for i in range(e.get("count", 1)):
            cid = f"e-{slug(fields['name'])}-{i + 1}"
            if cid in events:
                raise ValueError(f"duplicate event id {cid}")
            events[cid] = EventCard(id=cid, **fields)
    return Data(church=church, articles=articles, events=events)


EASTERN_EMPEROR = "l-eastern-emperor"
WESTERN_EMPEROR = "e-western-emperor-1"
EMPRESS = "l-eastern-empress"
MAGISTER = "l-western-magister-militum"
ROME = "p-rome"
JERUSALEM_P = "p-jerusalem"
CONSTANTINOPLE_P = "p-constantinople"
NISIBIS = "b-nisibis"
GOTHS = ("e-goths-invade-the-east-1", "e-goths-invade-the-west-1")


_TIMING = {
    "any": "Play at any time.",
    "immediate": "Play Immediately: when drawn.",
    "other": "Play Immediately on Another Player: when drawn, on a player you choose.",
}
_KIND = {"follower": "Church card, Followers", "bishop": "Church card, Bishop",
         "patriarch": "Church card, Patriarch", "laity": "Church card, Laity"}


def _church_text(c: ChurchCard) -> str:
    parts = []
    if c.votes:
        parts.append(f"{c.votes} vote{'s' if c.votes != 1 else ''} at a General Council")
    if c.followers:
        parts.append(f"{c.followers:,} Followers counted at the end")
    if c.half != "None":
        parts.append("in both halves of the Empire" if c.half == "Both" else f"{c.half}ern half of the Empire")
    if c.prefect:
        parts.append("a Prefect")
    if c.is_bishop and not c.votes:
        parts.append("no votes")
    return ("; ".join(parts) or "no votes, no Followers") + "."


@cache
def explanations() -> tuple[Explanation, ...]:
    """What ``explain`` knows (games.core.explain): every Church card (Followers, Laity,
    Patriarchs, Bishops), Article card and Event card, from church.toml, articles.toml and
    events.toml; identical copies once."""
    d = load()
    out: dict[str, Explanation] = {}
    for c in d.church.values():
        out.setdefault(c.name, Explanation(name=c.name, kind=_KIND[c.kind], text=_church_text(c)))
    for a in d.articles.values():
        text = f"a vote for the {a.doctrine} doctrine of Article{'s' if len(a.numbers) > 1 else ''} " + \
            ", ".join(map(str, a.numbers)) + "."
        if a.symbol:
            text += f" Printed with the {a.symbol} symbol."
        if a.penalty_text:
            text += f" If this doctrine is adopted, its player must {a.penalty_text}."
        out.setdefault(a.name, Explanation(name=a.name, kind="Article card", text=text))
    for e in d.events.values():
        when = _TIMING[e.timing]
        if e.council:
            when += " It only acts at a General Council, so it is played during a debate."
        text = e.text
        out.setdefault(e.name, Explanation(name=e.name, kind=f"Event card, {e.symbol}", text=text, when=when))
    return tuple(out.values())
