"""Credo notation: what players type, what the log shows.

Grammar (any case, accents and punctuation ignored; every word may be cut to an
unambiguous prefix, and words may be left out as long as one action still fits)::

    place <Article>                   set-up, or the Article card just drawn
    keep <Article> | renounce <Article> | reject <Article>
    discard <card>
    play <Event>                      [on Church <n>]
    play Proselytism with <Bishop> on Church <n>
    play Church Father with <Bishop> to refute <Article> of Church <n>
    play Church Father with <Bishop> to teach <Article> to Church <n>
    play <Exile card> to exile <Bishop> | play <Exile card> to recall <Bishop>
    play Dynastic Change east | west
    pick <Church card or Article>     Lose / Remove / Take / Give choices
    pick 2 Bishops | pick 3 Followers Proselytism rolled 2: the preacher's choice
    pick Church <n> | pick stop       Evangelic Campaign: the next Church preached to
    vote <doctrine> | abstain         at a General Council
    respect <doctrine> | pass         the Emperor after a Council
    convoke | done | pass

Reading works against the legal actions in their written form, so
``parse(format_action(a)) == a`` for every legal action.
"""

from __future__ import annotations

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
from games.core.notation import fold, unique_prefix, unknown_command, whole_word_fits
from games.core.refusal import asked, cannot, not_this

from .model import (
    Abstain,
    Convoke,
    Discard,
    Done,
    Keep,
    Pass,
    Pick,
    Place,
    Play,
    Reject,
    Renounce,
    Respect,
    State,
    Vote,
)
from .queries import CHOICE_TASKS

if TYPE_CHECKING:
    from .queries import Queries as Credo

VERBS = (
    "place",
    "keep",
    "renounce",
    "reject",
    "discard",
    "play",
    "pick",
    "vote",
    "abstain",
    "respect",
    "convoke",
    "done",
    "pass",
)


def format_action(game: Credo, s: State, a: Any) -> str:
    """``a`` in notation, with card names as players see them."""
    if isinstance(a, Pick) and s.tasks and s.tasks[0].kind in CHOICE_TASKS:
        return f"pick {_option(game, a.card)}"
    if isinstance(a, Place | Keep | Renounce | Reject | Discard | Pick):
        return f"{a.kind} {_card(game, a.card)}"
    if isinstance(a, Play):
        text = f"play {game.name(a.card)}"
        if a.mode in ("refute", "teach"):
            prep = "of" if a.mode == "refute" else "to"
            return f"{text} with {game.name(a.bishop)} to {a.mode} {game.name(a.article)} {prep} {game.church_name(a.target)}"
        if a.mode in ("exile", "recall"):
            return f"{text} to {a.mode} {game.name(a.bishop)}"
        if a.mode in ("east", "west"):
            return f"{text} {a.mode}"
        if a.bishop is not None:
            text += f" with {game.name(a.bishop)}"
        if a.target is not None:
            text += f" on {game.church_name(a.target)}"
        return text
    if isinstance(a, Vote):
        return f"vote {a.doctrine}"
    if isinstance(a, Respect):
        return f"respect {a.doctrine}"
    if isinstance(a, Abstain | Convoke | Done | Pass):
        return a.kind
    raise TypeError(f"not a Credo action: {a!r}")


def _card(game: Credo, card: str) -> str:
    return game.name(card)


OPTIONS = {"bishops": "2 Bishops", "followers": "3 Followers", "stop": "stop", "persecute": "persecute",
           "spare": "spare", "convert": "convert", "strike": "strike"}


def _option(game: Credo, option: str) -> str:
    """A choice that is not a card: Proselytism 2's option, or a Church (by seat)."""
    if option in OPTIONS:
        return OPTIONS[option]
    return game.church_name(int(option))


@last_state
def _candidates(game: Credo, s: State, seat: int) -> list[tuple[str, Any]]:
    """(notation, action) of every legal action of ``seat`` (remembered for the last state:
    every typed action of a step is read against them)."""
    return [(format_action(game, s, a), a) for a in game.legal_actions(s, seat)]


@last_state
def _by_fold(game: Credo, s: State, seat: int) -> Mapping[str, Any]:
    """Folded notation -> the first legal action written so (remembered for the last state)."""
    out: dict[str, Any] = {}
    for c, a in _candidates(game, s, seat):
        out.setdefault(fold(c), a)
    return MappingProxyType(out)


def _fits(typed: list[str], words: list[str]) -> bool:
    """Each typed word is a prefix of a later word of the candidate, in order."""
    i = 0
    for t in typed:
        while i < len(words) and not words[i].startswith(t):
            i += 1
        if i == len(words):
            return False
        i += 1
    return True


def parse(game: Credo, s: State, seat: int, text: str) -> Any:
    """Read ``text`` as one of ``seat``'s legal actions.

    Raises
    ------
    GameOverError, NotYourTurnError
        The game is over, or ``seat`` is not asked for input.
    InvalidNotationError
        Empty text or an unknown verb; the message lists what is legal now.
    IllegalActionError
        Nothing legal fits; the message lists the legal actions with that verb.
    AmbiguousActionError
        Several legal actions fit; ``candidates`` lists them.
    """
    game.require_turn(s, seat)
    cands = _candidates(game, s, seat)
    key = fold(text)
    verbs_now = sorted({c.split()[0] for c, _ in cands})
    if not key:
        raise InvalidNotationError(f"Type an action; legal now: {list_words(verbs_now)}.")
    exact = _by_fold(game, s, seat).get(key)
    if exact is not None:
        return exact
    full = unique_prefix(text, [c for c, _ in cands])
    if full is not None:
        return dict(cands)[full]
    typed = key.split()
    verb = [v for v in VERBS if v.startswith(typed[0])]
    if not verb:
        raise unknown_command(text, verbs_now, VERBS, asked(game, s, seat))
    fits = whole_word_fits(typed, [(c, a) for c, a in cands if _fits(typed, fold(c).split())])
    if len(fits) == 1:
        return fits[0][1]
    if len(fits) > 1:
        names = [c for c, _ in fits]
        raise AmbiguousActionError(f"{text.strip()!r} could be {list_words(names, 8)}; which one?", names)
    same = [c for c, _ in cands if c.split()[0] in verb]
    why = _setup_refusal(game, s, seat, typed) if verb == ["place"] else None
    if same and why:
        raise IllegalActionError(
            f"{text.strip()!r} is not legal now: {why}; you may: {list_words(same, 10)}."
        )
    gone = _not_held(game, s, seat, typed) if verb == ["play"] else None
    if gone:
        raise IllegalActionError(f"{text.strip()!r} is not legal now: {gone}; "
                                 f"legal now: {list_words([c for c, _ in cands], 10)}.")
    if same:
        raise IllegalActionError(not_this(text, asked(game, s, seat), same))
    raise IllegalActionError(
        cannot(game, s, seat, verb[0], f"legal now: {list_words([c for c, _ in cands], 10)}.")
    )


def _not_held(game: Credo, s: State, seat: int, typed: list[str]) -> str | None:
    """"<card> is not in your hand" when ``typed`` (after ``play``) names exactly one Event
    card and ``seat`` holds none of that name; else None."""
    if len(typed) < 2:
        return None
    names = {e.name for e in game.data.events.values() if _fits(typed[1:], fold(e.name).split())}
    held = {game.name(c) for c in s.players[seat].hand}
    if len(names) != 1 or names & held:
        return None
    return f"{next(iter(names))} is not in your hand"


def _setup_refusal(game: Credo, s: State, seat: int, typed: list[str]) -> str | None:
    """At set-up, why the one hand card named by ``typed`` (after ``place``) cannot be placed."""
    if s.phase != "setup" or s.tasks:
        return None
    named = {game.name(c): c for c in s.players[seat].hand if _fits(typed[1:], fold(game.name(c)).split())}
    if len(named) != 1:
        return None
    return game.setup_refusal(s, seat, next(iter(named.values())))


def complete(game: Credo, s: State, seat: int, prefix: str) -> list[str]:
    """Autocomplete: legal actions in notation that start with ``prefix`` (or fit it
    word by word), at most 25 (Discord's limit)."""
    if s.phase == "over" or seat not in game.to_act(s):
        return []
    cands = [c for c, _ in _candidates(game, s, seat)]
    key = fold(prefix)
    out = [c for c in cands if fold(c).startswith(key)]
    if not out and key:
        typed = key.split()
        out = [c for c in cands if _fits(typed, fold(c).split())]
    return out[:25]
