"""Reading a typed Soul of the Empire action: the command word, then its clauses; and autocompletion."""

from __future__ import annotations

import contextvars
import re
from typing import TYPE_CHECKING, Any

from games.core import (
    AmbiguousActionError,
    IllegalActionError,
    InvalidNotationError,
)
from games.core.errors import list_words
from games.core.memo import last_state
from games.core.notation import TextIndex, completions, fold, shorten, unique_prefix, unknown_command
from games.core.refusal import asked, not_now

from ..model import (
    Attack,
    Block,
    Buy,
    Claim,
    ClaimMarker,
    Convert,
    DiscardObjective,
    DiscardPower,
    Done,
    EndMain,
    Give,
    Keep,
    Lower,
    Move,
    Pass,
    PlaceMarker,
    PlaceUnit,
    Plunder,
    Rage,
    Raise,
    Ready,
    Recruit,
    Regroup,
    Reroll,
    Retrieve,
    Score,
    Shift,
    Spread,
    State,
    TakeUnit,
    Unblock,
)
from .clauses import _parse_commit, _parse_decision, _parse_play, _parse_prepare, _parse_redirect
from .format import format_action
from .names import (
    _LEGAL_PLACES,
    DieNotHeld,
    NoSuchDie,
    _card_in,
    _dice_ref,
    _faction,
    _gray_ref,
    _int,
    _items,
    _objective,
    _path,
    _piece_parts,
    _places_in,
    _plunder_holder,
    _salvage_cards,
    _split_colon,
    _territory,
    _territory_folds,
    _unspent_die,
)
from .words import PARTIAL_LISTS, SAME_AS, VERBS, _verb

if TYPE_CHECKING:
    from ..queries import Queries as SoulOfTheEmpire


def parse(g: SoulOfTheEmpire, s: State, f: str, text: str) -> Any:
    """Read ``text`` as an action of faction ``f``. Raises InvalidNotationError,
    AmbiguousActionError or IllegalActionError with what would be legal: when the text
    cannot be read and its command word is not one of those legal now, the error says so
    and names the legal ones."""
    as_written = _as_written(g, s, f, text)
    if as_written is not None:
        return as_written
    full = unique_prefix(text, _index_now(g, s, f))
    if full is not None and fold(full) != fold(text):
        text = full
    token = _reading(g, s, f, text)
    try:
        return _parse_text(g, s, f, text)
    except (InvalidNotationError, IllegalActionError):
        words = text.split()
        verb = _verb_typed(g, s, f, words[0]) if words else ""
        if verb in VERBS:
            legal = {SAME_AS.get(v, v) for v in _verbs_now(g, s, f)}
            if len(words) == 1 and verb in legal:
                # the command word alone: ask for what it needs, with what is legal
                raise InvalidNotationError(_missing(g, s, f, verb)) from None
            if legal and verb not in legal and not (verb == "play" and "elder" in legal):
                example = _example(g, s, f)
                # the example only when it shows more than a word of the list ("done (e.g. done)")
                e_g = f" (e.g. {example})" if example not in legal else ""
                now = f"legal now: {list_words(sorted(legal))}{e_g}."
                # the verb is not legal now: that is the reason, whatever the rest of the text
                # (not "No 9 in your Dice Sequence" for a move typed in the End Phase)
                raise IllegalActionError(not_now(verb, asked(g, s, g.seat_of(s, f)), now)) from None
        raise
    finally:
        _LEGAL_PLACES.reset(token)


def _as_written(g: SoulOfTheEmpire, s: State, f: str, text: str) -> Any:
    """``text`` read as it stands, when it reads as a legal action whose notation folds as
    ``text`` does: the legal actions' texts then hold ``text`` (up to case, accents and
    spacing), so ``unique_prefix`` leaves it as it is and ``parse`` reads just this. None
    otherwise: ``parse`` reads it the long way (this reading and its errors are dropped).
    Spares writing out every legal action for text typed as the notation writes it."""
    token = _reading(g, s, f, text)
    try:
        a = _parse_text(g, s, f, text)
        if a in _legal_set(g, s, f) and fold(format_action(g, s, a)) == fold(text):
            return a
    except Exception:  # the long way reads it again and raises what it raises
        pass
    finally:
        _LEGAL_PLACES.reset(token)
    return None


def _reading(g: SoulOfTheEmpire, s: State, f: str, text: str) -> contextvars.Token[Any]:
    """Set, while ``text`` is read, the territories named by the legal actions of its
    command word (computed when a name needs them) and whether a name that fits one of them
    alone is that one (names._territory); the caller resets the returned token."""
    words0 = text.split()
    verb0 = _verb_typed(g, s, f, words0[0]) if words0 else ""
    cache: dict[str, set[str]] = {}

    def legal_places() -> set[str]:
        if "t" not in cache:
            cache["t"] = _legal_places(g, s, f, verb0)
        return cache["t"]

    return _LEGAL_PLACES.set((legal_places, verb0 not in PARTIAL_LISTS))


def _verb_typed(g: SoulOfTheEmpire, s: State, f: str, word: str) -> str:
    """The command word ``word`` stands for as ``_parse_text`` reads it (a prefix such as
    ``plac`` resolved, among the legal ones when it fits several), with ``SAME_AS``
    applied; the folded word when it is ambiguous or no command word. So a shortened
    command word gets the same reading and the same explanations as the word in full."""
    try:
        verb = _verb(word, lambda: _verbs_now(g, s, f))
    except AmbiguousActionError:
        verb = fold(word)
    return SAME_AS.get(verb, verb)


# what a command word typed alone lacks, for the question asking for it (default "what")
_ASKS = {
    "place": "where",
    "marker": "where",
    "take": "where",
    "regroup": "where",
    "redirect": "where",
    "rampage": "how many units, to where",
    "buy": "with which die",
    "rage": "with which die",
    "raise": "which die",
    "lower": "which die",
    "give": "which die",
    "move": "which units, with which die",
    "recruit": "with which die, where",
    "attack": "whom, with which die",
    "block": "which objective, with which die",
    "unblock": "which objective, with which die",
    "claim": "which objective, with which die",
    "retrieve": "which objective or marker, with which die",
    "discard": "which card",
    "play": "which card",
    "commit": "which Combat Card",
    "salvage": "which card",
    "score": "which objective",
    "shift": "which unit, from where to where",
    "convert": "which units, from where",
    "spread": "which units, to where",
    "crucify": "which faction",
}


def _missing(g: SoulOfTheEmpire, s: State, f: str, verb: str) -> str:
    """The answer to ``verb`` typed alone when it needs more: a question for what is
    missing ("place where?") and the legal actions of that word: the territories alone when
    each is ``<verb> <territory>``; only examples for a word whose list holds some of the
    legal choices (``PARTIAL_LISTS``)."""
    texts = _texts_of(g, s, f, verb)
    rests = [t.split(" ", 1)[1] if " " in t else "" for t in texts]
    head = f"{verb} {_ASKS.get(verb, 'what')}?"
    if rests and verb not in PARTIAL_LISTS and all(fold(r) in _territory_folds(g) for r in rests):
        return f"{head} legal: {list_words(sorted(rests), 30)}."
    return f"{head} {_legal_of(verb, texts)}"


def _texts_of(g: SoulOfTheEmpire, s: State, f: str, verb: str) -> list[str]:
    """The legal actions of ``f`` now written with the command word ``verb``."""
    return [t for t in _texts_now(g, s, f) if SAME_AS.get(w := fold(t.split()[0]), w) == verb]


def _legal_of(verb: str, texts: list[str]) -> str:
    """"legal: ..." for the legal actions ``texts`` of a command word (only examples for a
    word whose list holds some of the legal choices, ``PARTIAL_LISTS``)."""
    if verb in PARTIAL_LISTS:
        return f"e.g. {'; '.join(texts[:3])}."
    return f"legal: {list_words(texts, 10)}."


_EXTRA_DIE = frozenset({"buy", "rage", "block", "discard"})
"""Command words whose action may add a die from outside the Dice Sequence after a ``+``
(the Main Phase key; RULINGS.md: `buy 3+1`)."""


def _die_refusal(g: SoulOfTheEmpire, s: State, f: str, verb: str, message: str) -> str:
    """A refusal of a die ``f`` does not have, with what it may do instead: that a die
    outside the Dice Sequence is added after a ``+`` (where ``verb`` allows one) and the
    legal actions of ``verb``."""
    out = [message]
    texts = _texts_of(g, s, f, verb)
    outside = sorted({str(s.factions[f].dice[i].value) for i in g.outside_dice(s, f)})
    if verb in _EXTRA_DIE and outside and "outside" not in message:
        example = next((t for t in texts if "+" in t.split(":")[0]), None)
        out.append(
            f"A die outside your Dice Sequence ({', '.join(outside)}) is named after a +, added to one of the "
            "sequence" + (f" (as in {example})." if example else ".")
        )
    if texts:
        legal = _legal_of(verb, texts)
        out.append(legal[0].upper() + legal[1:])
    return " ".join(out)


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


def _convert_sources(g: SoulOfTheEmpire, s: State, f: str) -> list[str]:
    """Where the Christian units of a legal conversion of ``f`` may come from, as typed:
    supply, captured, then the territories (RULINGS.md R10)."""
    for seat in range(s.players):
        if g.acting(s, seat) == f:
            found = {x for a in g.legal_actions(s, seat) if isinstance(a, Convert) for x, _ in a.sources}
            first = [x for x in ("supply", "captured") if x in found]
            return first + sorted(g.tname(t) for t in found if t not in ("supply", "captured"))
    return []


def _parse_text(g: SoulOfTheEmpire, s: State, f: str, text: str) -> Any:
    raw = " ".join(text.strip().split())
    if not raw:
        raise InvalidNotationError("Type an action, e.g. " + _example(g, s, f) + ".")
    verb, _, rest = raw.partition(" ")
    typed = verb
    verb = _verb(verb, lambda: _verbs_now(g, s, f))
    raw = f"{verb} {rest}" if rest else verb
    low = raw.lower()
    for part in (_read_words, _read_dice, _read_main, _read_cards):
        try:
            a = part(g, s, f, verb, rest, low)
        except (DieNotHeld, NoSuchDie) as e:
            kind = IllegalActionError if isinstance(e, DieNotHeld) else InvalidNotationError
            raise kind(_die_refusal(g, s, f, verb, e.message)) from None
        if a is not None:
            return a
    if verb in VERBS and rest:
        raise InvalidNotationError(
            f"The text after '{verb}' ({shorten(rest)!r}) was not understood; try: {_example(g, s, f)}."
        )
    raise unknown_command(f"{typed} {rest}" if rest else typed, _verbs_now(g, s, f), VERBS, asked(g, s, g.seat_of(s, f)))


def _read_words(g: SoulOfTheEmpire, s: State, f: str, verb: str, rest: str, low: str) -> Any:
    """The bare words (done, end, pass, no plunder, keep), plunder and combat decisions. None when ``verb`` is none of these."""
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
    elder_now = s.combat is not None and s.combat.stage in ("elder", "decide")
    if verb in ("elder", "reveal", "grace", "crucify") or (
        verb == "play" and fold(rest).startswith("elder") and elder_now
    ):
        return _parse_decision(g, s, verb, rest)
    return None


def _read_dice(g: SoulOfTheEmpire, s: State, f: str, verb: str, rest: str, low: str) -> Any:
    """Collect Tribute, Giving, regrouping, rolling, setup placements and markers. None when ``verb`` is none of these."""
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
    if verb == "take":
        if s.regroup is None or s.regroup.taken:
            raise IllegalActionError("Nothing to take now: take <territory> answers a region the Coalition scored.")
        return TakeUnit(territory=_territory(g, rest))
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
                raise DieNotHeld(
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
                raise DieNotHeld(
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
    return None


def _read_main(g: SoulOfTheEmpire, s: State, f: str, verb: str, rest: str, low: str) -> Any:
    """The Main Phase's die actions and discards. None when ``verb`` is none of these."""
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
        card = _objective(g, s, body, any_card=True)
        refused = g._claim_refusal(s, f, card)  # why this card, before which die (RULINGS.md R17)
        if refused:
            raise IllegalActionError(refused[0].upper() + refused[1:])
        die, _ = _dice_ref(g, s, f, head)
        return Claim(die=die, card=card)
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
    return None


def _read_cards(g: SoulOfTheEmpire, s: State, f: str, verb: str, rest: str, low: str) -> Any:
    """Combat Cards, Power Cards, shifts, scoring, conversion and redirects. None when ``verb`` is none of these."""
    if verb == "commit":
        return _parse_commit(g, s, f, rest)
    if verb in ("play", "conscript") and s.combat is not None and s.combat.stage == "powers":
        return _parse_prepare(g, s, f, verb, rest)
    if verb == "conscript":
        raise IllegalActionError("Conscription adds its units before the Combat Cards are chosen, in a combat.")
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
                where = "supply" if key == "supply" else "captured" if key in ("captured", "capture", "captured units") else None
                if where is None:
                    try:
                        where = _territory(g, name)
                    except InvalidNotationError:  # its list names the territories only: supply is a source too
                        sources = _convert_sources(g, s, f)
                        if not sources:
                            raise
                        raise InvalidNotationError(
                            f"No source called {shorten(name)!r}; convert from: {list_words(sources)}"
                            " (e.g. convert 2 supply)."
                        ) from None
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
    return None


@last_state
def _texts_now(g: SoulOfTheEmpire, s: State, f: str) -> list[str]:
    """The actions legal for ``f`` now, in notation (remembered for the last state asked
    about: every typed action of a step is read against the same list)."""
    for seat in range(s.players):
        if g.acting(s, seat) == f:
            return [format_action(g, s, a) for a in g.legal_actions(s, seat)]
    return []


@last_state
def _legal_set(g: SoulOfTheEmpire, s: State, f: str) -> frozenset[Any]:
    """The actions legal for ``f`` now (remembered for the last state)."""
    for seat in range(s.players):
        if g.acting(s, seat) == f:
            return frozenset(g.legal_actions(s, seat))
    return frozenset()


@last_state
def _index_now(g: SoulOfTheEmpire, s: State, f: str) -> TextIndex:
    """``_texts_now`` indexed for ``unique_prefix`` (remembered for the last state: every
    typed action of a step is looked up in it)."""
    return TextIndex(_texts_now(g, s, f))


def _verbs_now(g: SoulOfTheEmpire, s: State, f: str) -> set[str]:
    """The command words of the actions legal for ``f`` now."""
    return {t.split()[0] for t in _texts_now(g, s, f)}


def _example(g: SoulOfTheEmpire, s: State, f: str) -> str:
    for seat in range(s.players):
        if g.acting(s, seat) == f:
            legal = g.legal_actions(s, seat)
            if len(legal):
                return format_action(g, s, legal[len(legal) - 1])
    return "done"


def complete(g: SoulOfTheEmpire, s: State, seat: int, prefix: str) -> list[str]:
    """Legal actions in notation starting with ``prefix`` (at most 25)."""
    g.require_turn(s, seat)
    texts = list(dict.fromkeys(format_action(g, s, a) for a in g.legal_actions(s, seat)))
    return completions(texts, prefix)
