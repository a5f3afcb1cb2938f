"""Promised Land notation: what players type, what the log shows.

Grammar (case, accents and unambiguous prefixes of each word are accepted)::

    order <seat>, <seat>[, <seat>]        initial placement order (the player with most coins)
    discard <card>[, <card>]              start of a Book (secret)
    place <farmer|merchant|priest> in <land> [from <land>]
    attack <land>                         roll dice
    force <land>                          Force victory (and the 'No Dice' system)
    build <city|temple> in <land>
    stack <land>
    ark to <land> [with priest]
    play <artefact> [on <land> [and <land>]] [for <coin>] [<n> <coin> for <coin>]
    done [for <n> <coin>, ...]            end Kingdom building (unused units -> coins)
    royal [paying <n> <coin>, ...]        advance on the Royal track
    kingdom                               advance on the Kingdom track
    collect <coin> [and <coin>]
    buy <artefact>
    retreat to <land|supply>
    play Treaty (<coin>) | pass           another player attacks a land with your Patriarch
    done                                  end Actions, collect revenue, end the turn

Cards are written with their Time-track number, ``Canaanites (3)``; Artefacts with their
coin, ``Tribute 2 (silver)``. ``parse(format_action(a)) == a`` for every legal action.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from games.core import (
    AmbiguousActionError,
    IllegalActionError,
    InvalidNotationError,
)
from games.core.errors import list_words
from games.core.memo import last_state
from games.core.notation import TextIndex, completions, fold, unique_prefix, unknown_command
from games.core.refusal import asked, cannot, not_this

from .data import COINS
from .model import (
    AdvanceKingdom,
    AdvanceRoyal,
    Attack,
    Build,
    Buy,
    CollectCoin,
    Discard,
    Done,
    EndBuilding,
    MoveArk,
    Pass,
    PlacementOrder,
    PlacePatriarch,
    PlayArtefact,
    RetreatTo,
    Stack,
    State,
)

if TYPE_CHECKING:
    from .queries import Queries as PromisedLand

VERBS = (
    "order",
    "discard",
    "place",
    "attack",
    "force",
    "build",
    "stack",
    "ark",
    "play",
    "done",
    "royal",
    "kingdom",
    "collect",
    "buy",
    "retreat",
)


def _coins(coins: tuple[int, int, int]) -> str:
    return ", ".join(f"{n} {c}" for n, c in zip(coins, COINS, strict=True) if n)


def verb(a: Any) -> str:
    """The first word of ``a`` in notation."""
    if isinstance(a, Attack):
        return "force" if a.force else "attack"
    if isinstance(a, MoveArk):
        return "ark"
    if isinstance(a, EndBuilding | Done):
        return "done"
    if isinstance(a, AdvanceRoyal):
        return "royal"
    if isinstance(a, AdvanceKingdom):
        return "kingdom"
    if isinstance(a, CollectCoin):
        return "collect"
    if isinstance(a, RetreatTo):
        return "retreat"
    if isinstance(a, PlacePatriarch):
        return "place"
    if isinstance(a, PlayArtefact):
        return "play"
    return a.kind


def format_action(game: PromisedLand, s: State, a: Any) -> str:
    """``a`` in notation, with land, card and Artefact names as players see them."""
    name = lambda lid: game.data.lands[game.idx[lid]].name  # noqa: E731
    if isinstance(a, PlacementOrder):
        return "order " + ", ".join(str(x + 1) for x in a.seats)
    if isinstance(a, Discard):
        return "discard " + ", ".join(game.card_label(c) for c in a.cards)
    if isinstance(a, PlacePatriarch):
        text = f"place {a.type} in {name(a.land)}"
        return text + (f" from {name(a.source)}" if a.source else "")
    if isinstance(a, Attack):
        return f"{'force' if a.force else 'attack'} {name(a.land)}"
    if isinstance(a, Build):
        return f"build {a.what} in {name(a.land)}"
    if isinstance(a, Stack):
        return f"stack {name(a.land)}"
    if isinstance(a, MoveArk):
        return f"ark to {name(a.land)}" + (" with priest" if a.priest else "")
    if isinstance(a, PlayArtefact):
        text = f"play {game.data.artefacts[a.artefact].display}"
        if a.land:
            text += f" on {name(a.land)}"
            if a.land2:
                text += f" and {name(a.land2)}"
        if a.give and a.take:
            text += f" {_coins(a.give)} for {_coins(a.take)}"
        elif a.count:
            text += f" {a.count} {a.coin} for {a.coin2}"
        elif a.coin:
            text += f" for {a.coin}"
        return text
    if isinstance(a, EndBuilding):
        return "done" + (f" for {_coins(a.coins)}" if sum(a.coins) else "")
    if isinstance(a, AdvanceRoyal):
        fixed = False
        if s.turn is not None:
            p = s.players[s.turn.seat]
            if p.royal < len(s.royal_track):
                fixed = game.data.royal_token[s.royal_track[p.royal]].each > 0
        return "royal" if fixed else f"royal paying {_coins(a.pay)}"
    if isinstance(a, AdvanceKingdom):
        return "kingdom"
    if isinstance(a, CollectCoin):
        return "collect " + " and ".join(a.coins)
    if isinstance(a, Buy):
        return f"buy {game.data.artefacts[a.artefact].display}"
    if isinstance(a, RetreatTo):
        return "retreat to " + (name(a.land) if a.land else "supply")
    if isinstance(a, Done):
        return "done"
    if isinstance(a, Pass):
        return "pass"
    raise TypeError(f"not a Promised Land action: {a!r}")


@last_state
def _legal_texts(game: PromisedLand, s: State, seat: int) -> list[tuple[str, Any]]:
    """(notation, action) of every legal action of ``seat`` (remembered for the last state
    asked about, games.core.memo)."""
    return [(format_action(game, s, a), a) for a in game.legal_actions(s, seat)]


@last_state
def _legal_index(game: PromisedLand, s: State, seat: int) -> TextIndex:
    """The legal actions' texts indexed for ``unique_prefix`` (remembered for the last state)."""
    return TextIndex(t for t, _ in _legal_texts(game, s, seat))


@last_state
def _legal_by_text(game: PromisedLand, s: State, seat: int) -> Mapping[str, Any]:
    """Notation -> the (last) legal action written so (remembered for the last state)."""
    return MappingProxyType(dict(_legal_texts(game, s, seat)))


_KEEP = frozenset("abcdefghijklmnopqrstuvwxyz0123456789")


def _fold(text: str) -> str:
    """``fold`` with a fast path for plain ASCII (the notation's own strings)."""
    if not text.isascii():
        return fold(text)
    low = text.lower()
    return " ".join("".join(c if c in _KEEP else " " for c in low).split())


def _matches(words: list[str], cand: list[str]) -> bool:
    return len(words) <= len(cand) and all(c.startswith(w) for w, c in zip(words, cand, strict=False))


def parse(game: PromisedLand, s: State, seat: int, text: str) -> Any:
    """Read ``text`` as one of ``seat``'s legal actions.

    Raises
    ------
    GameOverError, NotYourTurnError
        The game is over, or ``seat`` is not asked for input.
    InvalidNotationError
        The first word is not a verb of the notation (the message lists the ones usable now).
    IllegalActionError
        Well formed, but no legal action matches (the message lists the legal ones).
    AmbiguousActionError
        Several legal actions match; ``candidates`` lists them.
    """
    game.require_turn(s, seat)
    legal = _legal_texts(game, s, seat)
    key = _fold(text)
    words = key.split()
    if not words:
        raise InvalidNotationError(f"Type an action; legal now: {list_words([t for t, _ in legal])}.")
    full = unique_prefix(text, _legal_index(game, s, seat))
    if full is not None:
        return _legal_by_text(game, s, seat)[full]
    near = [(t, a, _fold(t)) for t, a in legal if t.split()[0].startswith(words[0])]
    for _, a, f in near:
        if f == key:
            return a
    found = [(t, a) for t, a, f in near if _matches(words, f.split())]
    if len(found) == 1:
        return found[0][1]
    if found:
        exact = [(t, a) for t, a in found if len(_fold(t).split()) == len(words)]
        if len(exact) == 1:
            return exact[0][1]
        cands = [t for t, _ in found]
        raise AmbiguousActionError(f"{text!r} could be {list_words(cands)}.", cands)
    now = sorted({t.split()[0] for t, _ in legal})
    verbs = [v for v in VERBS if v.startswith(words[0])]
    if not verbs:
        raise unknown_command(text, now, VERBS, asked(game, s, seat))
    same = [t for t, _ in legal if t.split()[0] in verbs]
    if same:
        m = re.match(r"place\s+(\w+)\s+in\s+(.+?)(?:\s+from\s+.+)?$", text.strip(), re.I)
        if verbs == ["place"] and m:
            lands = {_fold(game.land_name(i)): i for i in range(len(s.lands))}
            land = lands.get(_fold(m.group(2)))
            why = game.place_refusal(s, seat, m.group(1).lower(), land) if land is not None else None
            if why:
                raise IllegalActionError(f"{text.strip()!r} is not legal now: {why}; you may: {list_words(same)}.")
        raise IllegalActionError(not_this(text, asked(game, s, seat), same))
    raise IllegalActionError(cannot(game, s, seat, verbs[0], f"you may: {list_words(now)}."))


def complete(game: PromisedLand, s: State, seat: int, prefix: str) -> list[str]:
    """Legal actions in notation that start with ``prefix`` (at most 25)."""
    if s.phase == "over" or seat not in game.to_act(s):
        return []
    return completions([t for t, _ in _legal_texts(game, s, seat)], prefix)


__all__ = ["VERBS", "complete", "format_action", "parse", "verb"]
