"""Reading the names, dice and routes inside a typed Soul of the Empire action."""

from __future__ import annotations

import contextvars
import functools
import re
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from games.core import (
    AmbiguousActionError,
    IllegalActionError,
    InvalidNotationError,
)
from games.core.errors import list_words
from games.core.notation import fold, match_name, shorten

from ..model import (
    Path,
    State,
)
from .words import FACTION_WORDS

if TYPE_CHECKING:
    from ..queries import Queries as SoulOfTheEmpire

# While an action is read: the territories its legal actions name (computed when needed),
# and whether a name that fits one of them alone may be taken as that one.
_LEGAL_PLACES: contextvars.ContextVar[tuple[Callable[[], set[str]], bool] | None] = contextvars.ContextVar(
    "_LEGAL_PLACES", default=None
)


_NOT_PLACES = frozenset({"kind", "target", "faction", "card", "power", "option", "crucify", "choice"})


def _places_in(value: Any, key: str = "") -> set[str]:
    """Territory ids named in a dumped action (faction ids under their own keys are not)."""
    if key in _NOT_PLACES:
        return set()
    if isinstance(value, dict):
        return set().union(*(_places_in(v, k) for k, v in value.items())) if value else set()
    if isinstance(value, list | tuple):
        return set().union(*(_places_in(v, key) for v in value)) if value else set()
    if isinstance(value, str):
        return {value.split("/")[0]}
    return set()


@functools.cache
def _territory_names(g: SoulOfTheEmpire) -> Mapping[str, str]:
    """Territory name -> id of ``g``'s board (static data: built once per game object)."""
    return MappingProxyType({t.name: t.id for t in g.data.territories.values()})


@functools.cache
def _territory_folds(g: SoulOfTheEmpire) -> Mapping[str, str]:
    """Folded territory name -> id: the exact matches ``match_name`` finds first (built once
    per game object)."""
    names = _territory_names(g)
    return MappingProxyType({fold(n): names[n] for n in names})


def _territory(g: SoulOfTheEmpire, text: str) -> str:
    """The territory ``text`` names; when it fits several (or none), the territories the
    legal actions name come first: a name fitting one legal territory alone is that one
    (where the action list holds every choice), and the lists offered are the legal ones."""
    exact = _territory_folds(g).get(fold(text.strip()))
    if exact is not None:  # as match_name would find it
        return exact
    names = _territory_names(g)
    try:
        return match_name(text.strip(), names, "territory")
    except AmbiguousActionError as e:
        ctx = _LEGAL_PLACES.get()
        if ctx is None:
            raise
        legal = ctx[0]()
        fits = [n for n in e.candidates if names[n] in legal]
        if len(fits) == 1 and ctx[1]:
            return names[fits[0]]
        if not fits and legal:
            raise AmbiguousActionError(
                f"{shorten(text)!r} could be {list_words(e.candidates)}, but none is legal here; legal: "
                f"{list_words(sorted(g.tname(t) for t in legal), 30)}.",
                e.candidates,
            ) from None
        if fits:
            others = [n for n in e.candidates if n not in fits]
            raise AmbiguousActionError(
                f"{shorten(text)!r} could be {list_words(fits)}"
                + (
                    f" ({list_words(others)} {'is' if len(others) == 1 else 'are'} not legal here)"
                    if others
                    else ""
                )
                + "; which territory?",
                fits,
            ) from None
        raise
    except InvalidNotationError:
        ctx = _LEGAL_PLACES.get()
        legal = sorted(g.tname(t) for t in ctx[0]() if t in g.data.territories) if ctx else []
        if not legal:
            raise
        if not text.strip():  # nothing typed where a territory goes: ask for it
            raise InvalidNotationError(f"Name a territory; legal here: {list_words(legal, 30)}.") from None
        raise InvalidNotationError(
            f"No territory called {shorten(text)!r}; legal here: {list_words(legal, 30)}."
        ) from None


def _faction(g: SoulOfTheEmpire, s: State, text: str) -> str:
    present = g.present(s)
    names = {k: v for k, v in FACTION_WORDS.items() if v in present}
    try:
        return match_name(text.strip(), names, "faction")
    except AmbiguousActionError as e:
        # "Chr" fits both Christian and Christians: one faction
        if len({names[n] for n in e.candidates}) == 1:
            return names[e.candidates[0]]
        raise


def _objective(g: SoulOfTheEmpire, s: State, text: str, *, any_card: bool = False) -> str:
    """The face-up Objective Card ``text`` names; with ``any_card``, failing that, any
    Objective Card of the game (for a refusal that says why it is not one to use now)."""
    names = {g.data.objectives[c].name: c for c in s.objectives}
    try:
        return match_name(text.strip(), names, "Objective Card")
    except InvalidNotationError:
        if not any_card:
            raise
        every = {c.name: c.id for c in g.data.objectives.values()}
        try:
            return match_name(text.strip(), every, "Objective Card")
        except (InvalidNotationError, AmbiguousActionError):
            pass
        raise


def _int(text: str, what: str) -> int:
    """The value of a die ``what`` typed as ``text``: a number from 1 to 6 (Dice)."""
    text = text.strip()
    if not text:  # nothing typed where the number goes: ask for it
        raise InvalidNotationError(f"Name {what} by its value (a number).")
    if not text.isdigit():
        raise InvalidNotationError(f"Expected a number for {what}, not {shorten(text)!r}.")
    if not 1 <= int(text) <= 6:
        raise NoSuchDie(f"A die shows 1 to 6; {shorten(text, 12)} is not the value of {what}.")
    return int(text)


class NoSuchDie(InvalidNotationError):
    """A die value outside 1 to 6 (the reader adds the legal actions of the command word)."""


class DieNotHeld(IllegalActionError):
    """A die value the faction has not where the action takes its die from (the reader adds
    the legal actions of the command word to the message)."""


def _seq_die(g: SoulOfTheEmpire, s: State, f: str, value: int) -> int:
    for i in g.seq_dice(s, f):
        if s.factions[f].dice[i].value == value:
            return i
    have = [str(s.factions[f].dice[i].value) for i in g.seq_dice(s, f)]
    raise DieNotHeld(f"No {value} in your Dice Sequence; you have: {', '.join(have) or 'none'}.")


def _outside_die(g: SoulOfTheEmpire, s: State, f: str, value: int, exclude: int) -> int:
    for i in g.outside_dice(s, f, exclude=exclude):
        if s.factions[f].dice[i].value == value:
            return i
    have = [str(s.factions[f].dice[i].value) for i in g.outside_dice(s, f, exclude=exclude)]
    raise DieNotHeld(f"No {value} among your dice outside the Dice Sequence; you have: {', '.join(have) or 'none'}.")


def _dice_ref(g: SoulOfTheEmpire, s: State, f: str, text: str) -> tuple[int, int | None]:
    text = text.replace(" ", "")
    first, _, second = text.partition("+")
    die = _seq_die(g, s, f, _int(first, "a die"))
    extra = _outside_die(g, s, f, _int(second, "the second die"), die) if second else None
    return die, extra


def _unspent_die(s: State, f: str, verb: str, rest: str) -> int:
    """An Unspent die of ``f`` named ``<value>`` (in the Dice Sequence, or the only die of
    that value) or ``<value> outside`` (outside the Dice Sequence)."""
    words = rest.lower().split()
    outside = "outside" in words
    values = [w for w in words if w != "outside"]
    if len(values) != 1:
        raise InvalidNotationError(
            f"{verb} <value> (a die of your Dice Sequence) or {verb} <value> outside, e.g. {verb} 4."
        )
    v = _int(values[0], "a die")
    dice = s.factions[f].dice
    alike = [i for i, d in enumerate(dice) if d.place == "unspent" and d.value == v]
    match = [i for i in alike if dice[i].seq != outside] or ([] if outside else alike)
    if not match:
        have = [f"{d.value}" + ("" if d.seq else " outside") for d in dice if d.place == "unspent"]
        raise DieNotHeld(
            f"You have no Unspent {v}{' outside your Dice Sequence' if outside else ''}; Unspent: "
            + (", ".join(have) or "none")
            + "."
        )
    return match[0]


def _gray_ref(
    g: SoulOfTheEmpire, s: State, words: list[str], fits: Callable[[str], bool] | None = None
) -> tuple[int, bool]:
    """A Gray action's die: ``yellow <value> [<revolt>]`` or a Jewish die's value. A
    yellow die serves only its own revolt's units (RULINGS.md R13); without the revolt
    named, the first revolt with a yellow die of that value whose units ``fits`` is taken."""
    if words and words[0] == "yellow":
        v = _int(" ".join(words[1:2]), "a yellow die")
        found = [(k, g.yellow_revolt(s, k)) for k, value in g.yellow_dice(s) if value == v]
        if not found:
            have = [str(v) for _, v in g.yellow_dice(s)]
            raise IllegalActionError(f"No unspent yellow {v}; yellow dice: {', '.join(have) or 'none'}.")
        if len(words) > 2:
            card = match_name(
                " ".join(words[2:]), {g.card_name(c): c for _, c in found}, f"revolt with a yellow {v}"
            )
            return next(k for k, c in found if c == card), True
        for k, c in found:
            if fits is None or fits(c):
                return k, True
        return found[0][0], True
    return _seq_die(g, s, "jews", _int(" ".join(words), "a die")), False


_COUNTED = re.compile(r"^([-+]?\d+)\s+(.*)$")  # a signed count is read, so -1 is refused as a count
_ROUTE_STEP = re.compile(r"\s*(?:-|>|→)\s*")


def _path(g: SoulOfTheEmpire, text: str) -> Path:
    text = text.strip()
    m = _COUNTED.match(text)
    count, rest = (int(m.group(1)), m.group(2)) if m else (1, text)
    parts = [p for p in _ROUTE_STEP.split(rest) if p.strip()]
    if len(parts) < 2:
        raise InvalidNotationError(
            f"A route is territories joined by '-', e.g. 2 Rome-Italia; not {shorten(text)!r}."
        )
    if count < 1:
        raise InvalidNotationError("Move at least 1 unit.")
    return Path(count=count, route=tuple(_territory(g, p) for p in parts))


def _split_colon(text: str, example: str) -> tuple[str, str]:
    head, sep, rest = text.partition(":")
    if not sep:
        raise InvalidNotationError(f"Use a colon after the die: {example}.")
    return head.strip(), rest.strip()


def _items(text: str) -> list[str]:
    return [x.strip() for x in text.split(",") if x.strip()]


def _card_in(g: SoulOfTheEmpire, cards: list[str], text: str, what: str) -> str:
    names = {}
    for c in g.distinct(cards):
        names.setdefault(g.card_name(c), c)
    if not names:
        raise IllegalActionError(f"You have no {what} to play.")
    return match_name(text.strip(), names, what)


def _salvage_cards(g: SoulOfTheEmpire, s: State) -> list[str]:
    """The cards Salvage may select now: the two drawn from the deck, else the loser's
    discard pile (RULINGS.md R14)."""
    if s.combat is not None and s.combat.stage == "salvage":
        return list(s.combat.salvage_drawn)
    if s.combat is None:
        return []
    return list(s.factions[_plunder_holder(g, s)].discard)


def _plunder_holder(g: SoulOfTheEmpire, s: State) -> str:
    if s.combat is None:
        raise IllegalActionError("There is nothing to plunder now.")
    c = s.combat
    loser = c.defender if c.attacker == "coalition" else c.attacker
    return g.hand_owner(loser)


def _piece_parts(g: SoulOfTheEmpire, s: State, text: str) -> tuple[str, str]:
    who, sep, where = text.partition(" in ")
    if not sep:
        raise InvalidNotationError(f"Write <faction> in <territory>, not {shorten(text)!r}.")
    return _faction(g, s, who), _territory(g, where)
