"""Roman War notation: what players type, what the log shows.

Grammar (case, accents and unambiguous prefixes of every name are accepted)::

    cost <card>                              Cost Zone phase: a card face down
    play <card> [from cost zone] [on <ambush>] [to <teammate>]
    rotate <field card>[ + <attached>...] [on <ambush>]
    defend <ambush> [at <Roman>]             pay its R n / R X
    assault <Hannibal's Encampment>          main phase: pay its R n to break it
    boost <n> | choose <n>                   1-based, as printed on the card
    take <ability> | buy <ability> | use <ability>
    discard <card> [from cost zone]          overflow, or the hand limit
    play <Hannibal card> [at <Roman>]        duel: the Hannibal side
    adjust power <0-10> | adjust maneuver <0-3>   house rule (option manual)
    done | pass

Every legal action has one text (``format_action``) and ``parse(format_action(a)) == a``.
Parsing matches the typed words against the legal actions' texts part by part (the
parts split at `` on ``, `` to ``, `` at ``, `` from ``), so each part may be a prefix.
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
from games.core.notation import completions, fold, unique_prefix, unknown_command
from games.core.refusal import asked, cannot, not_this

from .model import (
    Adjust,
    Ambush,
    Assault,
    Choose,
    Defend,
    Discard,
    Done,
    Overflow,
    Pass,
    PickAbility,
    PlaceCost,
    PlayCard,
    Rotate,
    State,
    TakeBoost,
    UseAbility,
)

if TYPE_CHECKING:
    from .queries import Queries as RomanWar

VERBS = (
    "cost",
    "play",
    "rotate",
    "defend",
    "assault",
    "boost",
    "choose",
    "take",
    "buy",
    "use",
    "discard",
    "adjust",
    "done",
    "pass",
)
DONE_WORDS = {"done", "end", "next", "finish", "settle"}
PASS_WORDS = {"pass", "no", "decline", "skip"}
_SPLIT = re.compile(r" +(on|to|at|from) +", re.I)


def ambush_label(game: RomanWar, s: State, uid: int | None) -> str:
    """An Ambush's name, with `` at <Roman>`` when Ambushes of that name target several Romans."""
    a = next((x for x in s.ambushes if x.uid == uid), None)
    if a is None:
        item = next((i for i in s.stack if i.uid == uid), None)
        return game.name(item.card) if item else f"#{uid}"
    name = game.name(a.card)
    targets = {x.target for x in s.ambushes if x.card == a.card and not x.defended}
    return f"{name} at {game.who(s, a.target)}" if len(targets) > 1 else name


def field_label(game: RomanWar, s: State, uid: int) -> str:
    for r in s.romans:
        for f in r.field:
            if f.uid == uid:
                return game.name(f.card) + "".join(f" + {game.name(c)}" for c in f.attached)
    return f"#{uid}"


def format_action(game: RomanWar, s: State, a: Any) -> str:
    """``a`` in notation, with the names players see."""
    if isinstance(a, PlaceCost):
        return f"cost {game.name(a.card)}"
    if isinstance(a, PlayCard):
        text = f"play {game.name(a.card)}"
        if a.source == "cost_zone":
            text += " from cost zone"
        if a.target is not None:
            text += f" on {ambush_label(game, s, a.target)}"
        if a.to is not None:
            text += f" to {game.who(s, a.to)}"
        return text
    if isinstance(a, Rotate):
        text = f"rotate {field_label(game, s, a.uid)}"
        return text + (f" on {ambush_label(game, s, a.target)}" if a.target is not None else "")
    if isinstance(a, Defend):
        return f"defend {ambush_label(game, s, a.target)}"
    if isinstance(a, Assault):
        enc = next((e for e in s.encampments if e.uid == a.target), None)
        return f"assault {game.name(enc.card) if enc else a.target}"
    if isinstance(a, TakeBoost):
        return f"boost {a.index + 1}"
    if isinstance(a, Choose):
        return f"choose {a.index + 1}"
    if isinstance(a, PickAbility):
        return f"{'buy' if a.buy else 'take'} {game.data.abilities[a.ability].name}"
    if isinstance(a, UseAbility):
        return f"use {game.data.abilities[a.ability].name}"
    if isinstance(a, Overflow):
        return f"discard {game.name(a.card)}" + (" from cost zone" if a.source == "cost_zone" else "")
    if isinstance(a, Discard):
        return f"discard {game.name(a.card)}"
    if isinstance(a, Ambush):
        return f"play {game.name(a.card)}" + (f" at {game.who(s, a.target)}" if a.target is not None else "")
    if isinstance(a, Adjust):
        return f"adjust {a.stat} {a.value}"
    if isinstance(a, Done):
        return "done"
    if isinstance(a, Pass):
        return "pass"
    raise TypeError(f"not a Roman War action: {a!r}")


def _protected() -> list[re.Pattern[str]]:
    """Names that contain a separator word ("Crossing to Africa", "Camp at Capua")."""
    from .data import load

    data = load()
    names = [c.name for c in data.cards.values()] + [c.name for c in data.hannibal.values()]
    return [re.compile(re.escape(n).replace(r"\ ", r"\s+"), re.I) for n in names if _SPLIT.search(n)]


_PROTECTED = _protected()


def _parts(text: str) -> tuple[str, list[tuple[str, str]]]:
    """``"play scutum on numidian raid"`` -> ("play scutum", [("on", "numidian raid")])."""
    text = text.strip()
    for pattern in _PROTECTED:
        text = pattern.sub(lambda m: m.group(0).replace(" ", "\u00a0"), text)
    pieces = _SPLIT.split(text)
    head = pieces[0]
    rest = [(pieces[i].lower(), pieces[i + 1]) for i in range(1, len(pieces) - 1, 2)]
    return head, rest


def _prefix(typed: str, full: str) -> bool:
    t, f = fold(typed), fold(full)
    if f.startswith(t):
        return True
    # word by word: "numid raid" for "Numidian Raid", "sack camp" for "Sack the Camp"
    tw, fw = t.split(), f.split()
    i = 0
    for w in tw:
        while i < len(fw) and not fw[i].startswith(w):
            i += 1
        if i == len(fw):
            return False
        i += 1
    return bool(tw)


def _matches(typed: str, candidate: str) -> bool:
    th, tr = _parts(typed)
    ch, cr = _parts(candidate)
    tverb, _, tname = th.partition(" ")
    cverb, _, cname = ch.partition(" ")
    if not tverb or not fold(cverb).startswith(fold(tverb)):  # "co scu" for "cost Scutum"
        return False
    if tname.strip() and not _prefix(tname, cname):
        return False
    if not tname.strip() and cname.strip():
        return False
    if [k for k, _ in tr] != [k for k, _ in cr]:
        return False
    return all(_prefix(tv, cv) for (_, tv), (_, cv) in zip(tr, cr, strict=True))


def parse(game: RomanWar, s: State, seat: int, text: str) -> Any:
    """Read ``text`` as an action of ``seat`` and check that it is legal now.

    Raises
    ------
    GameOverError
        The game is over.
    NotYourTurnError
        The seat is not being asked for input.
    InvalidNotationError, AmbiguousActionError
        The text cannot be read, or fits more than one legal action (the candidates).
    IllegalActionError
        The text is readable but names nothing legal now.
    """
    game.require_turn(s, seat)
    raw = " ".join(text.split())
    if not raw:
        raise InvalidNotationError(f"Type an action; {hint(game, s, seat)}")
    texts = _texts(game, s, seat)
    if not fold(raw):  # only symbols or invisible characters ("🙂", "--", a zero-width space): no word at all,
        # which every legal text would otherwise "start with", the only one played or all of them offered
        raise unknown_command(raw, {t.split()[0] for t in texts}, VERBS, asked(game, s, seat))
    word = fold(raw.split()[0])
    if word in DONE_WORDS | PASS_WORDS and len(raw.split()) == 1:
        for verb in ("pass", "done") if word in PASS_WORDS else ("done", "pass"):
            if verb in texts:
                return texts[verb]
        raise IllegalActionError(cannot(game, s, seat, f"say {word}", hint(game, s, seat)))
    exact = _by_fold(game, s, seat).get(fold(raw))
    if exact is not None:
        return exact
    full = unique_prefix(raw, texts)
    if full is not None:
        return texts[full]
    hits = [t for t in texts if _matches(raw, t) or fold(t).startswith(fold(raw))]
    if len(hits) == 1:
        return texts[hits[0]]
    if len(hits) > 1:
        raise AmbiguousActionError(f"{raw!r} could be {list_words(hits)}; which one?", hits)
    verb = word
    known = [v for v in VERBS if v.startswith(verb)] if verb else []
    if not known:
        raise unknown_command(raw, {t.split()[0] for t in texts}, VERBS, asked(game, s, seat))
    same_verb = [t for t in texts if fold(t.split()[0]) in known]
    if not same_verb:
        raise IllegalActionError(cannot(game, s, seat, known[0], hint(game, s, seat)))
    name = _parts(raw)[0].partition(" ")[2]
    all_names = [c.name for c in game.data.cards.values()] + [c.name for c in game.data.hannibal.values()]
    all_names += [a.name for a in game.data.abilities.values()]
    if (
        name
        and not any(_prefix(name, n) for n in all_names)
        and known[0] in ("cost", "play", "discard", "take", "buy", "use", "assault")
    ):
        raise InvalidNotationError(
            f"No card or ability called {name!r}; you may: {list_words(same_verb, limit=15)}."
        )
    exact = [c for c in game.data.cards.values() if fold(c.name) == fold(name)]
    if exact and known[0] in ("cost", "play", "discard") and " " not in name.strip()[len(exact[0].name):]:
        action = {"cost": PlaceCost, "play": PlayCard, "discard": Discard}[known[0]](card=exact[0].id)
        why = game.refusal_reason(s, seat, action, list(game.legal_actions(s, seat)))
        if not why.startswith("That is not legal now"):
            raise IllegalActionError(why)
    raise IllegalActionError(not_this(raw, asked(game, s, seat), same_verb, limit=15))


@last_state
def _texts(game: RomanWar, s: State, seat: int) -> Mapping[str, Any]:
    """Notation -> legal action of ``seat`` (the last one of a text), remembered for the last
    state: every typed action of a step is read against them."""
    return MappingProxyType({format_action(game, s, a): a for a in game.legal_actions(s, seat)})


@last_state
def _by_fold(game: RomanWar, s: State, seat: int) -> Mapping[str, Any]:
    """Folded notation -> the action of the first text (of ``_texts``) folding to it."""
    out: dict[str, Any] = {}
    for t, a in _texts(game, s, seat).items():
        out.setdefault(fold(t), a)
    return MappingProxyType(out)


def hint(game: RomanWar, s: State, seat: int) -> str:
    """A short "what is legal now" for error messages."""
    return (
        "legal now: "
        + list_words([format_action(game, s, a) for a in game.legal_actions(s, seat)], limit=12)
        + "."
    )


def complete(game: RomanWar, s: State, seat: int, prefix: str) -> list[str]:
    """Autocomplete: legal actions in notation starting with ``prefix`` (at most 25)."""
    if seat not in game.to_act(s):
        return []
    return completions([format_action(game, s, a) for a in game.legal_actions(s, seat)], prefix)
