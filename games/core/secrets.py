"""Hidden information: when an action reveals it, and what a prompt may depend on
(ARCHITECTURE.md, "Trust invariants" 2 and 3).

A game describes its hidden information with one hook,
``perturb_hidden(s, keep, rand) -> state``: a state that no seat in ``keep`` can
tell apart from ``s`` (the same view for each of them and for spectators), with
the information none of them sees drawn again at random — the undrawn decks
shuffled, the hands of the other seats redealt from their cards and the deck,
face-down cards exchanged. ``keep=None`` keeps what any seat sees: only what
nobody sees (deck order) changes. A game without hidden information needs no
hook (the state is returned as it is).

From that, an action's "reveals" is a fact rather than a guess:

    An action reveals when what anyone (its player included) can see afterwards
    depends on information hidden from its player before: dice, deck order,
    other hands, face-down cards.

``derive_reveals`` establishes it: the step drew randomness, or showed a private
event to a seat other than its player (what that seat learned is not the
player's to take back), or it ended the secrecy of a choice another seat had made face
down (the game's ``sealed`` hook), or the same action applied to perturbed states gives a
different observation. An observation is the player's own view, the public view,
the events each of them sees, and the prompts (who is asked, what kind, and the
prompt's text). A second round perturbs only what nobody sees and compares every
seat's view. The perturbations are drawn from the step's seed, so the verdict is
the same on every replay.

The first two facts are evident from the step itself (``evident_reveals``); the
perturbations cost several applies of the action. The host stores the evident
verdict with each action and runs the whole check only when an undo needs it
(``bot.host.undo``), on the state replayed from the log: the verdict is the one the
check would have given when the action was played.

The host allows an undo without the others' consent only over actions that do
not reveal. ``tests/host/test_secrets_property.py`` checks both directions of the
contract on random games of every game: each perturbation is one its seats
cannot tell apart, and an action marked non-revealing gives the same public
events, views and prompts on fresh perturbations.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable, Collection, Iterable, Sequence
from typing import Any, TypeVar

from . import memo
from .errors import GameError
from .model import Event, Seat, Step
from .rng import Rng

T = TypeVar("T")

log = logging.getLogger(__name__)

TRIES = 3
"""Perturbed states tried per round by ``derive_reveals`` (two rounds: the player's
hidden information, then what nobody sees)."""


def seats_of(game: Any, s: Any) -> tuple[Seat, ...]:
    """Every seat of the game in state ``s``: the game's ``seats(s)`` hook, else the
    indices of ``s.players``."""
    return tuple(game.seats(s))


def perturb(game: Any, s: Any, keep: Collection[Seat] | None, rand: random.Random) -> Any:
    """``s`` with the information hidden from every seat of ``keep`` drawn again
    (``keep=None``: only what nobody sees). The game's ``perturb_hidden`` hook, else
    ``s`` itself."""
    return game.perturb_hidden(s, None if keep is None else frozenset(keep), rand)


class Rotation(random.Random):
    """A generator that makes ``shuffled`` and ``redeal`` move every card they can:
    a deck is cut by one card (its top card changes), pooled zones are rotated by the
    largest zone's size (each card lands in another zone when the sizes allow). The
    first perturbation ``derive_reveals`` tries, so a reveal that depends on one
    particular card's whereabouts is not missed by chance."""


def shuffled(items: Sequence[T], rand: random.Random) -> tuple[T, ...]:
    """A shuffled copy of ``items`` (cut by one card for a ``Rotation``)."""
    out = list(items)
    if isinstance(rand, Rotation):
        return tuple(out[1:] + out[:1])
    rand.shuffle(out)
    return tuple(out)


def redeal(zones: Sequence[Sequence[T]], rand: random.Random) -> list[tuple[T, ...]]:
    """The cards of ``zones`` pooled, shuffled and dealt back in the same sizes: a
    random assignment consistent with everything known about them but their order
    and whereabouts (each zone's size). Zones are, e.g., the other seats' hands and
    the undrawn deck. A ``Rotation`` moves each card by the largest zone's size."""
    pool = [c for z in zones for c in z]
    if isinstance(rand, Rotation):
        r = max((len(z) for z in zones), default=0) % len(pool) if pool else 0
        pool = pool[-r:] + pool[:-r] if r else pool
    else:
        pool = list(shuffled(pool, rand))
    out, i = [], 0
    for z in zones:
        out.append(tuple(pool[i : i + len(z)]))
        i += len(z)
    return out


def redraw(chosen: T, options: Sequence[Any], rand: random.Random,
           key: Callable[[Any], T] = lambda o: o) -> T:
    """A choice made face down drawn again: ``key`` of one of ``options`` (every choice
    its seat could have made, ``chosen`` among them: a Combat Card chosen in secret, a
    war commitment), at random; for a ``Rotation``, the first option that differs from
    ``chosen``, so the first perturbation changes it whenever another was possible.
    ``options`` is indexed, not listed (an ``ActionSpace`` is fine); ``chosen`` when
    there are none."""
    if not options:
        return chosen
    if isinstance(rand, Rotation):
        for o in options:
            if key(o) != chosen:
                return key(o)
        return chosen
    return key(options[rand.randrange(len(options))])


def public_prompts(game: Any, s: Any) -> tuple[tuple[Seat, str, str], ...]:
    """Who is asked now, with the prompt's kind and text: what every player sees of
    the prompts (the "Now" line, the pings)."""
    if game.outcome(s) is not None:
        return ()
    return tuple(sorted((seat, p.kind, p.text) for seat, p in game.to_act(s).items()))


def observation(game: Any, s: Any, events: Iterable[Event], viewers: Iterable[Seat | None],
                *, remember: bool = False) -> tuple[Any, ...]:
    """What ``viewers`` (None = spectator) see after a step that ended in ``s`` with
    ``events``: each one's view and visible events, and the public prompts (models,
    compared by value). ``remember``: the views through ``memo.view`` (the step's own
    state, whose views both rounds of the check and the host's reply ask for)."""
    events = list(events)
    out: list[Any] = []
    for v in viewers:
        out.append((v, memo.view(game, s, v) if remember else game.view(s, v), [e for e in events if e.visible(v)]))
    out.append(public_prompts(game, s))
    return tuple(out)


def perturb_seed(rng: Rng, salt: str, i: int) -> random.Random:
    """The generator of the ``i``-th perturbation of step ``rng`` (deterministic): a
    ``Rotation`` first, then random ones."""
    if i == 0:
        return Rotation(0)
    return random.Random(f"tabula:perturb:{salt}:{rng.seed}:{rng.step}:{i}")


def same_outcome(
    game: Any,
    before: Any,
    seat: Seat,
    action: Any,
    step: Step[Any],
    rng_for: Callable[[], Rng],
    keep: Collection[Seat] | None,
    rand: random.Random,
    expected: tuple[Any, ...] | None = None,
) -> bool:
    """Whether ``action`` applied to one perturbation of ``before`` (information hidden
    from ``keep`` drawn again) gives the observation ``step`` gave, for ``seat`` and the
    spectators (``keep`` given) or for every seat (``keep=None``). False also when the
    action is refused there: whether it is legal then depends on hidden information.
    ``expected``: ``step``'s observation for those viewers, when already computed."""
    other = perturb(game, before, keep, rand)
    if other is before or other == before:
        return True
    try:
        alt = game.apply(other, seat, action, rng_for())
    except GameError:
        return False
    viewers = _viewers(game, before, seat, keep)
    if expected is None:
        expected = observation(game, step.state, step.events, viewers)
    return expected == observation(game, alt.state, alt.events, viewers)


def _viewers(game: Any, s: Any, seat: Seat, keep: Collection[Seat] | None) -> tuple[Seat | None, ...]:
    return (seat, None) if keep is not None else (*seats_of(game, s), None)


def derive_reveals(
    game: Any,
    before: Any,
    seat: Seat,
    action: Any,
    step: Step[Any],
    rng_for: Callable[[], Rng],
    drew: bool,
    *,
    tries: int = TRIES,
) -> bool:
    """Whether applying ``action`` for ``seat`` to ``before`` (giving ``step``) revealed
    hidden information (module docstring): ``drew`` (the step drew randomness), a
    private event shown to another seat, or an observation that changes when what
    ``seat`` could not see is drawn again (``tries`` perturbations of ``seat``'s hidden
    information, then ``tries`` of what nobody sees). ``rng_for()`` returns a fresh copy
    of the step's ``Rng``."""
    if evident_reveals(seat, step, drew) or unsealed(game, before, seat, step.state):
        return True
    rng = rng_for()
    rng_for = _deferred(rng_for, rng)
    try:
        for keep, salt in (({seat}, "seat"), (None, "all")):
            expected = observation(game, step.state, step.events, _viewers(game, before, seat, keep), remember=True)
            for i in range(tries):
                r = perturb_seed(rng, salt, i)
                if not same_outcome(game, before, seat, action, step, rng_for, keep, r, expected):
                    return True
    except Exception:  # a perturbation the rules could not play: assume the worst
        log.warning("%s: reveals check failed on a perturbed state; counted as revealing", game.id,
                    exc_info=True)
        return True
    return False


def unsealed(game: Any, before: Any, seat: Seat, after: Any) -> bool:
    """Whether a step by ``seat`` from ``before`` to ``after`` ended the secrecy of a
    choice another seat had sealed (the game's ``sealed`` hook): the last commitment
    of a war reveals the others. Read off the rules' own record of what is face down,
    so it holds whatever the perturbations draw."""
    return bool(game.sealed(before) - {seat} - game.sealed(after))


class _DeferredRng(Rng):
    """A fresh copy of a step's ``Rng`` that is seeded on its first draw. ``derive_reveals``
    applies the action to each perturbed state with such a copy; most of those steps draw
    nothing (one that drew was found revealing before), so most copies are never seeded.
    Draws, once made, are those of ``make()``: the same sequence."""

    __slots__ = ("_make", "_made")

    def __init__(self, make: Callable[[], Rng], seed: int, step: int) -> None:  # noqa: D107
        self._make = make
        self._made: Any = None
        self.seed = seed
        self.step = step

    @property  # type: ignore[override]
    def _r(self) -> Any:  # the generator Rng's methods draw from, made when first asked for
        if self._made is None:
            self._made = self._make()._r
        return self._made


def _deferred(rng_for: Callable[[], Rng], rng: Rng) -> Callable[[], Rng]:
    """``rng_for`` (fresh copies of ``rng``) giving copies seeded on their first draw."""
    return lambda: _DeferredRng(rng_for, rng.seed, rng.step)


def evident_reveals(seat: Seat, step: Step[Any], drew: bool) -> bool:
    """What ``derive_reveals`` reads off the step itself, before any perturbation: it
    drew randomness (``drew``), or one of its events is shown privately to a seat other
    than ``seat``. True means the step reveals; False leaves the verdict to the
    perturbations. A game that overrides ``reveals`` counts these as revealing too."""
    return drew or any(e.visible_to is not None and any(v != seat for v in e.visible_to) for e in step.events)


def reveals(
    game: Any, before: Any, seat: Seat, action: Any, step: Step[Any], rng_for: Callable[[], Rng], drew: bool
) -> bool:
    """The game's ``reveals`` (same arguments; ``games.core.base.GameDefaults`` derives it
    with ``derive_reveals``)."""
    return bool(game.reveals(before, seat, action, step, rng_for, drew))


class TrackingRng(Rng):
    """``Rng(seed, step)`` that counts its draws (whether a step used randomness). Its
    generator is seeded on the first draw: most steps draw nothing."""

    __slots__ = ("draws", "_inner")

    def __init__(self, seed: int, step: int) -> None:  # noqa: D107 - Rng.__init__ is not called: no seeding yet
        self.seed = seed
        self.step = step
        self.draws = 0
        self._inner: Any = None
        self._r = self  # type: ignore[assignment]

    def random(self) -> float:  # type: ignore[override]
        self.draws += 1
        if self._inner is None:
            self._inner = Rng(self.seed, self.step)._r
        return self._inner.random()
