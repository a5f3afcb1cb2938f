"""Soul of the Empire notation: what players type, what the log shows.

Dice are named by their value (dice of one value are interchangeable); ``3+1``
is a die from the Dice Sequence plus one die from outside it (actions marked *).
Routes are territories joined by ``-``; several routes are separated by commas.
Case, accents and unambiguous prefixes of names and command words (``rec`` for
``recruit``, ``att`` for ``attack``; ``pla`` is ``place`` or ``play``, whichever is legal
now) are accepted::

    marker <territory>                      setup: place an Objective Point Marker
    place <territory>                       setup: one of Rome's final units
    reroll 1 1 3 | ready 4 5 6              roll and ready
    done | end | pass                       finish the Start/End Phase | the Main Phase | pass
    move 5: 2 Rome-Italia-Gallia, 1 Syria-Cilicia
    move gray [yellow] 4: 3 Sicilia-Rome    Gray units, with a yellow or a Jewish die
    move gray yellow 4 Merchant Revolt: ... a yellow die moves only its own revolt's units
    recruit 4: 3 Jerusalem, 1 Samaria
    attack [gray] [yellow] 2: Coalition in Dacia
    claim 3: Pax Romana | retrieve 1: Pax Romana | retrieve 1: marker Dacia
    buy 5 | buy 3+1
    marker 2: Dacia                          Coalition: claim an Objective Point Marker
    block 4+2: Jewish on The Temple | unblock 1: The Temple
    rage 4 | rage 3+1
    discard objective 6: The Forum          2-player game
    play <card> [in <territory>] [on <faction>] [: <routes | territories | pieces | values>]
    commit <combat card> [with <power card>] [conscript <n>]
    elder | elder mine | elder theirs | elder none    Elder: play it face up; after the reveal
    reveal | keep                            Pharaoh's Fate after the reveal
    grace                                    Grace: reverse a combat result
    crucify <faction>                        Crucify: return a captured unit of that faction
    rampage <n> to <territory> | salvage | exploit [<card>] | no plunder
    salvage <card>                           Salvage: select from the discard pile or the two drawn
    shift <faction> <territory>-<territory>  Help the Wounded, Gospel
    redirect to <territory>                  Promised Land: all the units to one territory
    redirect 2 Samaria, 1 Galilaea           ... or per unit (2 Jerusalem-Samaria: from Jerusalem)
    raise 4 | raise 4 outside                Give to Caesar, Collect Tribute (the player)
    lower 3 | lower 3 outside                Collect Tribute (the other factions)
    give 5 | give 5 outside                  Giving (the faction named)
    convert 2 supply, 1 captured, 1 Galatia  conversion: the sources of the Christian units
    spread 2 Syria, 1 Cilicia                conversion: the units over the 6-unit limit move out
    score <objective card>                   score a completed objective (pass leaves it claimed)
    discard <power card>

Pieces are written ``<faction> in <territory>``. ``parse(format_action(a)) == a``
for every legal action.
"""

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
from games.core.errors import GameError, list_words
from games.core.memo import last_state
from games.core.notation import completions, fold, match_name, shorten, unique_prefix, unknown_command
from games.core.refusal import not_now

from .model import (
    Attack,
    Block,
    Buy,
    Claim,
    ClaimMarker,
    Commit,
    Convert,
    Crucify,
    DiscardObjective,
    DiscardPower,
    Done,
    Elder,
    EndMain,
    Give,
    Keep,
    Lower,
    Move,
    Pass,
    Path,
    PlaceMarker,
    PlaceUnit,
    PlayPower,
    Plunder,
    Rage,
    Raise,
    Ready,
    Recruit,
    Redirect,
    Regroup,
    Reroll,
    Retrieve,
    Reveal,
    Score,
    Shift,
    Spread,
    State,
    Unblock,
    UseGrace,
)

if TYPE_CHECKING:
    from .game import SoulOfTheEmpire

FACTION_WORDS = {
    "Rome": "rome",
    "Roman": "rome",
    "Jewish": "jews",
    "Jews": "jews",
    "Coalition": "coalition",
    "Christian": "christians",
    "Christians": "christians",
    "Gray": "gray",
    "Grey": "gray",
}


# The command words, in the order their prefixes are listed when one is ambiguous.
VERBS = (
    "attack",
    "block",
    "buy",
    "claim",
    "commit",
    "convert",
    "crucify",
    "discard",
    "done",
    "elder",
    "end",
    "exploit",
    "finish",
    "give",
    "grace",
    "keep",
    "lower",
    "marker",
    "move",
    "no",
    "none",
    "pass",
    "place",
    "play",
    "rage",
    "raise",
    "rampage",
    "ready",
    "recruit",
    "redirect",
    "regroup",
    "reroll",
    "retrieve",
    "reveal",
    "salvage",
    "score",
    "shift",
    "skip",
    "spread",
    "unblock",
)

SAME_AS = {"none": "no", "finish": "done", "skip": "pass"}  # words that mean the same


# --------------------------------------------------------------------------- format


def _t(g: SoulOfTheEmpire, t: str) -> str:
    return g.tname(t)


def _source(g: SoulOfTheEmpire, x: str) -> str:
    return x if x in ("supply", "captured") else _t(g, x)


def _route(g: SoulOfTheEmpire, p: Path) -> str:
    return f"{p.count} " + "-".join(_t(g, t) for t in p.route)


def _dice(s: State, f: str, die: int, extra: int | None) -> str:
    dice = s.factions[f].dice
    text = str(dice[die].value)
    if extra is not None:
        text += f"+{dice[extra].value}"
    return text


def _gray_die(g: SoulOfTheEmpire, s: State, die: int, yellow: bool) -> str:
    if yellow:
        v = g.yellow_value(s, die)
        text = f"yellow {v}"
        if sum(1 for _, value in g.yellow_dice(s) if value == v) > 1:
            # revolts with a yellow die of this value: name the revolt (RULINGS.md R13)
            text += " " + g.card_name(g.yellow_revolt(s, die))
        return text
    return str(s.factions["jews"].dice[die].value)


def _piece(g: SoulOfTheEmpire, p: str) -> str:
    t, _, f = p.partition("/")
    return f"{g.fname(f)} in {_t(g, t)}" if f else _t(g, t)


def format_action(g: SoulOfTheEmpire, s: State, a: Any) -> str:
    """``a`` in notation, with the names players see."""
    f = _actor(g, s, a)
    if isinstance(a, PlaceMarker):
        return f"marker {_t(g, a.territory)}"
    if isinstance(a, PlaceUnit):
        return f"place {_t(g, a.territory)}"
    if isinstance(a, Reroll) and s.extra_roll is not None:
        values = g.extra_values(s)
        return "reroll " + " ".join(str(v) for v in sorted(values[i] for i in a.dice))
    if isinstance(a, Keep):
        return "keep"
    if isinstance(a, Raise | Lower | Give):
        d = s.factions[f].dice[a.die]
        return f"{a.kind} {d.value}" + ("" if d.seq else " outside")
    if isinstance(a, Regroup):
        return f"regroup {_t(g, a.territory)}: " + ", ".join(f"{k} {_t(g, o)}" for o, k in a.sources)
    if isinstance(a, Reroll | Ready):
        dice = s.factions[s.rolling.faction].dice
        return f"{a.kind} " + " ".join(str(v) for v in sorted(dice[i].value for i in a.dice))
    if isinstance(a, Done):
        return "done"
    if isinstance(a, EndMain):
        return "end"
    if isinstance(a, Pass):
        return "pass"
    if isinstance(a, Move):
        head = (
            "move gray " + _gray_die(g, s, a.die, a.yellow) if a.gray else f"move {_dice(s, f, a.die, None)}"
        )
        return head + ": " + ", ".join(_route(g, p) for p in a.paths)
    if isinstance(a, Recruit):
        return f"recruit {_dice(s, f, a.die, None)}: " + ", ".join(f"{k} {_t(g, t)}" for t, k in a.placements)
    if isinstance(a, Attack):
        head = (
            "attack gray " + _gray_die(g, s, a.die, a.yellow)
            if a.gray
            else f"attack {_dice(s, f, a.die, None)}"
        )
        return f"{head}: {g.fname(a.target)} in {_t(g, a.territory)}"
    if isinstance(a, Claim):
        return f"claim {_dice(s, f, a.die, None)}: {g.data.objectives[a.card].name}"
    if isinstance(a, Retrieve):
        what = g.data.objectives[a.card].name if a.card else f"marker {_t(g, a.territory)}"
        return f"retrieve {_dice(s, f, a.die, None)}: {what}"
    if isinstance(a, Buy):
        return f"buy {_dice(s, f, a.die, a.extra)}"
    if isinstance(a, ClaimMarker):
        return f"marker {_dice(s, f, a.die, None)}: {_t(g, a.territory)}"
    if isinstance(a, Block):
        return f"block {_dice(s, f, a.die, a.extra)}: {g.fname(a.target)} on {g.data.objectives[a.card].name}"
    if isinstance(a, Unblock):
        return f"unblock {_dice(s, f, a.die, None)}: {g.data.objectives[a.card].name}"
    if isinstance(a, Rage):
        return f"rage {_dice(s, f, a.die, a.extra)}"
    if isinstance(a, DiscardObjective):
        return f"discard objective {_dice(s, f, a.die, a.extra)}: {g.data.objectives[a.card].name}"
    if isinstance(a, PlayPower):
        text = f"play {g.card_name(a.card)}"
        if a.territory:
            text += f" in {_t(g, a.territory)}"
        if a.target:
            text += f" on {g.fname(a.target)}"
        rest = []
        if a.paths:
            rest = [_route(g, p) for p in a.paths]
        elif a.territories:
            rest = [_piece(g, p) for p in a.territories]
        elif a.values and a.dice:
            dice = s.factions[f].dice
            rest = [
                f"{dice[i].value}{'' if dice[i].seq else ' outside'} to {v}" for i, v in zip(a.dice, a.values, strict=False)
            ]
        elif a.values:
            rest = [" ".join(map(str, a.values))]
        if rest:
            text += ": " + ", ".join(rest)
        return text
    if isinstance(a, Commit):
        text = f"commit {g.data.combat[a.card].name}"
        if a.power:
            text += f" with {g.card_name(a.power)}"
        if a.conscript:
            text += f" conscript {a.conscript}"
        return text
    if isinstance(a, Elder):
        return "elder" if a.choice == "play" else f"elder {a.choice}"
    if isinstance(a, Reveal):
        return "reveal"
    if isinstance(a, UseGrace):
        return "grace"
    if isinstance(a, Crucify):
        return f"crucify {g.fname(a.faction)}"
    if isinstance(a, Plunder):
        if a.option == "rampage":
            return f"rampage {a.count} to {_t(g, a.territory)}"
        if a.option == "exploit" and a.card:
            return f"exploit {g.card_name(a.card)}"
        if a.option == "salvage" and a.card:
            return f"salvage {g.card_name(a.card)}"
        return "no plunder" if a.option == "none" else a.option
    if isinstance(a, Shift):
        return f"shift {g.fname(a.faction)} {_t(g, a.source)}-{_t(g, a.destination)}"
    if isinstance(a, Redirect):
        if a.territory is not None:
            return f"redirect to {_t(g, a.territory)}"
        starts = _redirect_starts(s)
        short = len(starts) == 1 and all(t0 in starts for t0, _, _ in a.sends)
        return "redirect " + ", ".join(
            f"{n} {_t(g, t1)}" if short else f"{n} {_t(g, t0)}-{_t(g, t1)}" for t0, t1, n in a.sends
        )
    if isinstance(a, Score):
        return f"score {g.data.objectives[a.card].name}"
    if isinstance(a, Convert):
        return "convert " + ", ".join(f"{k} {_source(g, x)}" for x, k in a.sources)
    if isinstance(a, Spread):
        return "spread " + ", ".join(f"{k} {_t(g, u)}" for u, k in a.moves)
    if isinstance(a, DiscardPower):
        return f"discard {g.card_name(a.card)}"
    raise InvalidNotationError(f"Cannot write {a!r} in notation.")


def _redirect_starts(s: State) -> list[str]:
    """Where the units Promised Land may redirect started (none when no window is open)."""
    w = s.window
    if w is None or w.kind != "promised_land":
        return []
    return list(dict.fromkeys(p.route[0] for p in w.moved))


def _actor(g: SoulOfTheEmpire, s: State, a: Any) -> str:
    """The faction whose dice an action names: the acting faction."""
    for seat in range(s.players):
        f = g.acting(s, seat)
        if f is not None:
            return f
    return s.active


# --------------------------------------------------------------------------- parse


# While an action is read: the territories its legal actions name (computed when needed),
# and whether a name that fits one of them alone may be taken as that one.
_LEGAL_PLACES: contextvars.ContextVar[tuple[Callable[[], set[str]], bool] | None] = contextvars.ContextVar(
    "_LEGAL_PLACES", default=None
)

# the command words whose action list holds only some of the legal choices (RULINGS.md R5, R12, R22)
PARTIAL_LISTS = frozenset({"move", "shift", "redirect", "regroup", "rampage"})

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


def _territory(g: SoulOfTheEmpire, text: str) -> str:
    """The territory ``text`` names; when it fits several (or none), the territories the
    legal actions name come first: a name fitting one legal territory alone is that one
    (where the action list holds every choice), and the lists offered are the legal ones."""
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
        raise InvalidNotationError(
            f"No territory called {shorten(text)!r}; legal here: {list_words(legal, 30)}."
        ) from None


def _faction(g: SoulOfTheEmpire, s: State, text: str) -> str:
    present = g._present(s)
    names = {k: v for k, v in FACTION_WORDS.items() if v in present}
    try:
        return match_name(text.strip(), names, "faction")
    except AmbiguousActionError as e:
        # "Chr" fits both Christian and Christians: one faction
        if len({names[n] for n in e.candidates}) == 1:
            return names[e.candidates[0]]
        raise


def _objective(g: SoulOfTheEmpire, s: State, text: str) -> str:
    names = {g.data.objectives[c].name: c for c in s.objectives}
    return match_name(text.strip(), names, "Objective Card")


def _int(text: str, what: str) -> int:
    text = text.strip()
    if not text.isdigit():
        raise InvalidNotationError(f"Expected a number for {what}, not {shorten(text)!r}.")
    return int(text)


def _seq_die(g: SoulOfTheEmpire, s: State, f: str, value: int) -> int:
    for i in g.seq_dice(s, f):
        if s.factions[f].dice[i].value == value:
            return i
    have = [str(s.factions[f].dice[i].value) for i in g.seq_dice(s, f)]
    raise IllegalActionError(f"No {value} in your Dice Sequence; you have: {', '.join(have) or 'none'}.")


def _outside_die(g: SoulOfTheEmpire, s: State, f: str, value: int, exclude: int) -> int:
    for i in g.outside_dice(s, f, exclude=exclude):
        if s.factions[f].dice[i].value == value:
            return i
    have = [str(s.factions[f].dice[i].value) for i in g.outside_dice(s, f, exclude=exclude)]
    raise IllegalActionError(
        f"No {value} among your dice outside the Dice Sequence; you have: {', '.join(have) or 'none'}."
    )


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
        raise IllegalActionError(
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


def _path(g: SoulOfTheEmpire, text: str) -> Path:
    text = text.strip()
    m = re.match(r"^(\d+)\s+(.*)$", text)
    count, rest = (int(m.group(1)), m.group(2)) if m else (1, text)
    parts = [p for p in re.split(r"\s*(?:-|>|→)\s*", rest) if p.strip()]
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


def parse(g: SoulOfTheEmpire, s: State, f: str, text: str) -> Any:
    """Read ``text`` as an action of faction ``f``. Raises InvalidNotationError,
    AmbiguousActionError or IllegalActionError with what would be legal: when the text
    cannot be read and its command word is not one of those legal now, the error says so
    and names the legal ones."""
    full = unique_prefix(text, _texts_now(g, s, f))
    if full is not None and fold(full) != fold(text):
        text = full
    words0 = text.split()
    verb0 = SAME_AS.get(fold(words0[0]), fold(words0[0])) if words0 else ""
    cache: dict[str, set[str]] = {}

    def legal_places() -> set[str]:
        if "t" not in cache:
            cache["t"] = _legal_places(g, s, f, verb0)
        return cache["t"]

    token = _LEGAL_PLACES.set((legal_places, verb0 not in PARTIAL_LISTS))
    try:
        return _parse_text(g, s, f, text)
    except (InvalidNotationError, IllegalActionError):
        words = text.split()
        verb = SAME_AS.get(fold(words[0]), fold(words[0])) if words else ""
        if verb in VERBS:
            legal = {SAME_AS.get(v, v) for v in _verbs_now(g, s, f)}
            if legal and verb not in legal and not (verb == "play" and "elder" in legal):
                example = _example(g, s, f)
                # the example only when it shows more than a word of the list ("done (e.g. done)")
                e_g = f" (e.g. {example})" if example not in legal else ""
                now = f"legal now: {list_words(sorted(legal))}{e_g}."
                # the verb is not legal now: that is the reason, whatever the rest of the text
                # (not "No 9 in your Dice Sequence" for a move typed in the End Phase)
                raise IllegalActionError(not_now(verb, g._prompt(s, f).text, now)) from None
        raise
    finally:
        _LEGAL_PLACES.reset(token)


def _legal_places(g: SoulOfTheEmpire, s: State, f: str, verb: str) -> set[str]:
    """The territories named by the legal actions of ``f`` written with ``verb`` (all
    none when ``verb`` is none of theirs)."""
    for seat in range(s.players):
        if g.acting(s, seat) == f:
            legal = list(g.legal_actions(s, seat))
            same = [a for a in legal if SAME_AS.get(w := format_action(g, s, a).split()[0], w) == verb]
            out: set[str] = set()
            for a in same:
                out |= _places_in(a.model_dump())
            return {t for t in out if t in g.data.territories}
    return set()


def _parse_text(g: SoulOfTheEmpire, s: State, f: str, text: str) -> Any:
    raw = " ".join(text.strip().split())
    if not raw:
        raise InvalidNotationError("Type an action, e.g. " + _example(g, s, f) + ".")
    verb, _, rest = raw.partition(" ")
    typed = verb
    verb = _verb(verb, lambda: _verbs_now(g, s, f))
    raw = f"{verb} {rest}" if rest else verb
    low = raw.lower()
    if low in ("done", "finish"):
        return Done()
    if low in ("end", "end main", "end main phase"):
        return EndMain()
    if low in ("pass", "skip"):
        return Pass()
    if low in ("no plunder", "no", "none"):
        return Plunder(option="none")
    if low == "salvage":
        return Plunder(option="salvage")
    if verb == "salvage":
        return Plunder(option="salvage", card=_card_in(g, _salvage_cards(g, s), rest, "card to salvage"))
    if verb == "exploit":
        if not rest:
            return Plunder(option="exploit")
        holder = _plunder_holder(g, s)
        return Plunder(
            option="exploit", card=_card_in(g, list(s.factions[holder].durable), rest, "Durable card")
        )
    if verb == "rampage":
        m = re.match(r"^(?:(\d+)\s+)?to\s+(.+)$", rest.strip(), re.I)
        if not m:
            raise InvalidNotationError("rampage <units> to <territory>, e.g. rampage 3 to Gallia.")
        count = (
            int(m.group(1)) if m.group(1) else g.units(s, s.combat.territory, "coalition") if s.combat else 1
        )
        return Plunder(option="rampage", territory=_territory(g, m.group(2)), count=count)
    if low == "keep":
        return Keep()
    if verb in ("elder", "reveal", "grace", "crucify") or (verb == "play" and fold(rest).startswith("elder")):
        return _parse_decision(g, s, verb, rest)
    if verb == "raise":
        return Raise(die=_unspent_die(s, f, "raise", rest))
    if verb == "lower":
        if s.tribute is None or not s.tribute.waiting:
            raise IllegalActionError("Nothing to lower now: lower <value> answers Collect Tribute.")
        return Lower(die=_unspent_die(s, f, "lower", rest))
    if verb == "give":
        if s.giving is None:
            raise IllegalActionError("Nothing to give now: give <value> answers Giving.")
        return Give(die=_unspent_die(s, f, "give", rest))
    if verb == "regroup":
        head, body = _split_colon(rest, "regroup Gallia: 2 Hispania, 1 Britannia")
        sources = []
        for item in _items(body):
            m = re.match(r"^(\d+)\s+(?:from\s+)?(.+)$", item, re.I)
            if not m:
                raise InvalidNotationError(
                    "regroup <territory>: <units> <territory>, ... e.g. regroup Gallia: 2 Hispania."
                )
            sources.append((_territory(g, m.group(2)), int(m.group(1))))
        return Regroup(territory=_territory(g, head), sources=tuple(sources))
    if verb == "reroll" and s.extra_roll is not None:
        values = g.extra_values(s)
        pool = list(s.extra_roll.dice)
        chosen = []
        for v in (_int(x, "a die") for x in rest.replace(",", " ").split()):
            match = [i for i in pool if values[i] == v]
            if not match:
                raise IllegalActionError(
                    f"No (other) {v} among those dice: "
                    + " ".join(str(values[i]) for i in s.extra_roll.dice)
                    + "."
                )
            chosen.append(match[0])
            pool.remove(match[0])
        return Reroll(dice=tuple(sorted(chosen)))
    if verb in ("reroll", "ready"):
        if s.rolling is None:
            raise IllegalActionError("You are not rolling your dice now.")
        values = [_int(v, "a die") for v in rest.replace(",", " ").split()]
        dice = s.factions[s.rolling.faction].dice
        pool = list(s.rolling.dice)
        chosen = []
        for v in values:
            match = [i for i in pool if dice[i].value == v]
            if not match:
                raise IllegalActionError(
                    f"You rolled no (other) {v}; your dice: "
                    + " ".join(str(dice[i].value) for i in s.rolling.dice)
                    + "."
                )
            chosen.append(match[0])
            pool.remove(match[0])
        return (Reroll if verb == "reroll" else Ready)(dice=tuple(sorted(chosen)))
    if verb == "place":
        m = re.match(r"^(\d+)\s+(.*)$", rest)
        if m:
            raise InvalidNotationError(
                f"Rome places its final units one at a time: place {shorten(m.group(2))}, without a count."
            )
        return PlaceUnit(territory=_territory(g, rest))
    if verb == "marker":
        if s.phase == "markers":
            return PlaceMarker(territory=_territory(g, rest))
        head, body = _split_colon(rest, "marker 2: Dacia")
        die, _ = _dice_ref(g, s, f, head)
        return ClaimMarker(die=die, territory=_territory(g, body))
    if verb == "move":
        head, body = _split_colon(rest, "move 5: 2 Rome-Italia")
        words = head.lower().split()
        paths = tuple(_path(g, p) for p in _items(body))
        if words and words[0] in ("gray", "grey"):

            def fits(card: str) -> bool:
                return all(g.revolt_units(s, p.route[0], card) >= p.count for p in paths)

            die, yellow = _gray_ref(g, s, words[1:], fits)
            return Move(die=die, paths=paths, gray=True, yellow=yellow)
        die, _ = _dice_ref(g, s, f, head)
        return Move(die=die, paths=paths)
    if verb == "recruit":
        head, body = _split_colon(rest, "recruit 4: 3 Jerusalem, 1 Samaria")
        die, _ = _dice_ref(g, s, f, head)
        placements = []
        for item in _items(body):
            m = re.match(r"^(\d+)\s+(.+)$", item)
            k, name = (int(m.group(1)), m.group(2)) if m else (1, item)
            placements.append((_territory(g, name), k))
        return Recruit(die=die, placements=tuple(placements))
    if verb == "attack":
        head, body = _split_colon(rest, "attack 2: Coalition in Dacia")
        target, territory = _piece_parts(g, s, body)
        words = head.lower().split()
        if words and words[0] in ("gray", "grey"):
            die, yellow = _gray_ref(g, s, words[1:], lambda card: g.revolt_units(s, territory, card) > 0)
            return Attack(die=die, territory=territory, target=target, gray=True, yellow=yellow)
        die, _ = _dice_ref(g, s, f, head)
        return Attack(die=die, territory=territory, target=target)
    if verb == "claim":
        head, body = _split_colon(rest, "claim 3: Pax Romana")
        die, _ = _dice_ref(g, s, f, head)
        return Claim(die=die, card=_objective(g, s, body))
    if verb == "retrieve":
        head, body = _split_colon(rest, "retrieve 1: Pax Romana")
        die, _ = _dice_ref(g, s, f, head)
        if fold(body).startswith("marker "):
            return Retrieve(die=die, territory=_territory(g, body.split(" ", 1)[1]))
        return Retrieve(die=die, card=_objective(g, s, body))
    if verb == "buy":
        die, extra = _dice_ref(g, s, f, rest)
        return Buy(die=die, extra=extra)
    if verb == "rage":
        die, extra = _dice_ref(g, s, f, rest)
        return Rage(die=die, extra=extra)
    if verb == "block":
        head, body = _split_colon(rest, "block 4+2: Jewish on The Temple")
        die, extra = _dice_ref(g, s, f, head)
        who, sep, card = body.partition(" on ")
        if not sep:
            raise InvalidNotationError("block <dice>: <faction> on <Objective Card>.")
        return Block(die=die, extra=extra, target=_faction(g, s, who), card=_objective(g, s, card))
    if verb == "unblock":
        head, body = _split_colon(rest, "unblock 1: The Temple")
        die, _ = _dice_ref(g, s, f, head)
        return Unblock(die=die, card=_objective(g, s, body))
    first = fold(rest).split()[0] if fold(rest) else ""
    if verb == "discard" and len(first) >= 3 and "objective".startswith(first):
        head, body = _split_colon(
            rest.split(" ", 1)[1] if " " in rest else "", "discard objective 6: The Forum"
        )
        die, extra = _dice_ref(g, s, f, head)
        return DiscardObjective(die=die, extra=extra, card=_objective(g, s, body))
    if verb == "discard":
        return DiscardPower(card=_card_in(g, list(s.factions[f].hand), rest, "Power Card"))
    if verb == "commit":
        return _parse_commit(g, s, f, rest)
    if verb == "play":
        return _parse_play(g, s, f, rest)
    if verb == "shift":
        m = re.match(r"^(\S+)\s+(.+)$", rest)
        if not m:
            raise InvalidNotationError("shift <faction> <from>-<to>, e.g. shift Rome Syria-Cilicia.")
        p = _path(g, "1 " + m.group(2))
        if len(p.route) != 2:
            raise InvalidNotationError("shift moves 1 unit 1 territory: <from>-<to>.")
        return Shift(faction=_faction(g, s, m.group(1)), source=p.route[0], destination=p.route[1])
    if verb == "score":
        if s.scoring is None:
            raise IllegalActionError("There is no completed objective to score now.")
        return Score(card=_objective(g, s, rest))
    if verb in ("convert", "spread"):
        items = []
        for item in _items(rest):
            m = re.match(r"^(\d+)\s+(.+)$", item.strip())
            k, name = (int(m.group(1)), m.group(2)) if m else (1, item)
            if verb == "convert":
                key = fold(name)
                where = "supply" if key == "supply" else "captured" if key in ("captured", "capture", "captured units") else _territory(g, name)
            else:
                where = _territory(g, name)
            items.append((where, k))
        if not items:
            example = "convert 2 supply, 1 captured, 1 Galatia" if verb == "convert" else "spread 2 Syria, 1 Cilicia"
            raise InvalidNotationError(f"Name the units and where they come from or go: {example}.")
        return Convert(sources=tuple(items)) if verb == "convert" else Spread(moves=tuple(items))
    if verb == "redirect":
        # the Jews, or the Coalition with a salvaged copy (RULINGS.md R14)
        cards = [c for c in s.factions[f].hand if g.data.card(c).id == "promised-land"] if f in s.factions else []
        if not cards:
            raise IllegalActionError("Redirecting needs Promised Land in your hand.")
        return _parse_redirect(g, s, cards[0], rest.strip())
    if verb in VERBS and rest:
        raise InvalidNotationError(
            f"The text after '{verb}' ({shorten(rest)!r}) was not understood; try: {_example(g, s, f)}."
        )
    raise unknown_command(f"{typed} {rest}" if rest else typed, _verbs_now(g, s, f), VERBS, g._prompt(s, f).text)


def _parse_redirect(g: SoulOfTheEmpire, s: State, card: str, body: str) -> Redirect:
    """``to <territory>`` (all the units), a bare territory (the same), or items
    ``<units> [<start>-]<territory>``: the start may be left out when the units left one
    territory of the blue region (RULINGS.md R22)."""
    usage = (
        "redirect to <territory>, or per unit: redirect 2 Samaria, 1 Galilaea "
        "(redirect 2 Jerusalem-Samaria when units left several territories)"
    )
    m = re.match(r"^to\s+(.+)$", body, re.I)
    if m:
        return Redirect(card=card, territory=_territory(g, m.group(1)))
    items = _items(body)
    if not items:
        raise InvalidNotationError(f"Say where the units go: {usage}.")
    split = re.compile(r"\s*(?:-|>|→)\s*")
    if len(items) == 1 and not re.match(r"^\d+\s", items[0]) and not split.search(items[0]):
        return Redirect(card=card, territory=_territory(g, items[0]))
    starts = _redirect_starts(s)
    sends = []
    for item in items:
        m = re.match(r"^(\d+)\s+(?:to\s+)?(.+)$", item, re.I)
        count, where = (int(m.group(1)), m.group(2)) if m else (1, item)
        if count < 1:
            raise InvalidNotationError("Send at least 1 unit to each territory named.")
        parts = [p for p in split.split(where) if p.strip()]
        if len(parts) == 2:
            t0, t1 = _territory(g, parts[0]), _territory(g, parts[1])
        elif len(parts) == 1:
            if not starts:
                raise IllegalActionError("There is no movement to redirect now.")
            if len(starts) > 1:
                raise InvalidNotationError(
                    "Units left "
                    + list_words([g.tname(t) for t in starts])
                    + f": name where each group came from, e.g. redirect {count} {g.tname(starts[0])}-"
                    f"{g.tname(_territory(g, parts[0]))}."
                )
            t0, t1 = starts[0], _territory(g, parts[0])
        else:
            raise InvalidNotationError(f"Not understood: {shorten(item)!r}; {usage}.")
        sends.append((t0, t1, count))
    return Redirect(card=card, sends=g._merge_sends(sends))


def _verb(word: str, now: Callable[[], set[str]] | None = None) -> str:
    """The command word ``word`` stands for: itself, or the one command word it is an
    unambiguous prefix of (among all, else among those legal ``now``). An unknown word is
    returned folded (the caller reports it).

    Raises AmbiguousActionError listing the command words it could be."""
    key = fold(word)
    if key in VERBS or not key:
        return key
    cands = [v for v in VERBS if v.startswith(key)]
    if len({SAME_AS.get(v, v) for v in cands}) == 1:
        return cands[0]
    if cands and now is not None:
        legal = now()
        fits = [v for v in cands if SAME_AS.get(v, v) in legal]
        if len({SAME_AS.get(v, v) for v in fits}) == 1:
            return fits[0]
        if fits:
            cands = fits
    if cands:
        raise AmbiguousActionError(f"{shorten(word)!r} could be {list_words(cands)}; which one?", cands)
    return key


@last_state
def _texts_now(g: SoulOfTheEmpire, s: State, f: str) -> list[str]:
    """The actions legal for ``f`` now, in notation (remembered for the last state asked
    about: every typed action of a step is read against the same list)."""
    for seat in range(s.players):
        if g.acting(s, seat) == f:
            return [format_action(g, s, a) for a in g.legal_actions(s, seat)]
    return []


def _verbs_now(g: SoulOfTheEmpire, s: State, f: str) -> set[str]:
    """The command words of the actions legal for ``f`` now."""
    return {t.split()[0] for t in _texts_now(g, s, f)}


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


def _parse_decision(g: SoulOfTheEmpire, s: State, verb: str, rest: str) -> Any:
    """The combat decisions: Elder (before the choice and after the reveal), Pharaoh's
    Fate, Grace, Crucify (RULINGS.md R9, R16)."""
    c = s.combat
    if c is None or c.stage not in ("elder", "decide"):
        raise IllegalActionError(
            f"There is no combat decision to make now ({verb} is only asked during a combat)."
        )
    word = fold(rest).strip()
    if verb == "play":
        word = ""
        verb = "elder"
    if verb == "elder":
        if not word:
            return Elder(choice="play")
        aliases = {
            "mine": "mine",
            "my": "mine",
            "own": "mine",
            "theirs": "theirs",
            "their": "theirs",
            "other": "theirs",
            "none": "none",
            "neither": "none",
            "no": "none",
        }
        if word not in aliases:
            raise InvalidNotationError(
                f"elder mine (-1 to your own Combat Value), elder theirs (-1 to the other side's) or "
                f"elder none; not {shorten(rest)!r}."
            )
        return Elder(choice=aliases[word])  # type: ignore[arg-type]
    if verb in ("reveal", "grace"):
        if word:
            raise InvalidNotationError(f"{verb} takes nothing after it; not {shorten(rest)!r}.")
        return Reveal() if verb == "reveal" else UseGrace()
    if not word:
        raise InvalidNotationError(
            "crucify <faction>: the faction whose captured unit returns to its supply, e.g. crucify Jewish."
        )
    return Crucify(faction=_faction(g, s, rest))


def _parse_commit(g: SoulOfTheEmpire, s: State, f: str, rest: str) -> Commit:
    conscript = 0
    m = re.search(r"\s+conscript\s+(\d+)\s*$", rest, re.I)
    if m:
        conscript = int(m.group(1))
        rest = rest[: m.start()]
    card_text, sep, power_text = rest.partition(" with ")
    cards = {g.data.combat[c].name: c for c in g.combat_cards(s, f)} if s.combat else {}
    if not cards:
        raise IllegalActionError("You are not choosing a Combat Card now.")
    card = match_name(card_text, cards, "Combat Card")
    power = None
    if sep and s.combat.elder is not None:
        raise IllegalActionError(
            "Elder is face up: no other Power Card may be played in this combat; commit <card> alone."
        )
    if sep:
        power = _card_in(g, list(s.factions[g.hand_owner(f)].hand), power_text, "Power Card")
    return Commit(card=card, power=power, conscript=conscript)


def _parse_play(g: SoulOfTheEmpire, s: State, f: str, rest: str) -> PlayPower:
    head, _, body = rest.partition(":")
    territory = target = None
    m = re.search(r"\s+on\s+(\S+)\s*$", head, re.I)
    if m:
        target = _faction(g, s, m.group(1))
        head = head[: m.start()]
    m = re.search(r"\s+in\s+(.+)$", head, re.I)
    cards = list(s.factions[f].hand) + list(s.factions[f].durable)
    if m:
        try:
            card = _card_in(g, cards, head, "Power Card")
        except GameError:
            card = _card_in(g, cards, head[: m.start()], "Power Card")
            territory = _territory(g, m.group(1))
    else:
        card = _card_in(g, cards, head, "Power Card")
    paths: tuple[Path, ...] = ()
    territories: list[str] = []
    values: tuple[int, ...] = ()
    dice: list[int] = []
    items = _items(body)
    if items and all(re.fullmatch(r"[\d\s]+", x) for x in items):
        values = tuple(int(v) for x in items for v in x.split())
    elif items and all(re.fullmatch(r"\s*\d+(?:\s+outside)?\s+to\s+\d+\s*", x, re.I) for x in items):
        # Advanced Culture: <die> [outside] to <value>, the dice chosen by the player
        mine = s.factions[f].dice
        picked = []
        for x in items:
            m = re.fullmatch(r"\s*(\d+)(\s+outside)?\s+to\s+(\d+)\s*", x, re.I)
            old, outside, new = int(m.group(1)), bool(m.group(2)), int(m.group(3))
            i = next(
                (
                    i
                    for i, d in enumerate(mine)
                    if d.place == "unspent" and d.value == old and d.seq != outside and i not in dice
                ),
                None,
            )
            if i is None:
                have = ", ".join(f"{d.value}{'' if d.seq else ' outside'}" for d in mine if d.place == "unspent")
                raise IllegalActionError(
                    f"No Unspent {old}{' outside the Dice Sequence' if outside else ''}; your Unspent dice: "
                    + (have or "none")
                    + "."
                )
            dice.append(i)
            picked.append(new)
        values = tuple(picked)
    elif items and any(re.search(r"\S\s*(?:-|>|→)\s*\S", x) for x in items):
        paths = tuple(_path(g, x) for x in items)
    else:
        for x in items:
            if re.search(r"\s+in\s+", x, re.I):
                who, where = _piece_parts(g, s, x)
                territories.append(f"{where}/{who}")
            else:
                territories.append(_territory(g, x))
    return PlayPower(
        card=card,
        territory=territory,
        territories=tuple(territories),
        target=target,
        values=values,
        paths=paths,
        dice=tuple(dice),
    )


def _example(g: SoulOfTheEmpire, s: State, f: str) -> str:
    for seat in range(s.players):
        if g.acting(s, seat) == f:
            legal = g.legal_actions(s, seat)
            if len(legal):
                return format_action(g, s, legal[len(legal) - 1])
    return "done"


# --------------------------------------------------------------------------- complete


def complete(g: SoulOfTheEmpire, s: State, seat: int, prefix: str) -> list[str]:
    """Legal actions in notation starting with ``prefix`` (at most 25)."""
    g.require_turn(s, seat)
    texts = list(dict.fromkeys(format_action(g, s, a) for a in g.legal_actions(s, seat)))
    return completions(texts, prefix)
