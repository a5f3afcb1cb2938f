"""Deterministic randomness (ARCHITECTURE.md, "Randomness and fairness").

The generator for step ``n`` of a session is derived from ``(seed, n)`` through a
string seed, and every draw goes through ``random.Random.random()`` only: that is
the one sequence CPython promises to keep across versions, so a game replays to
the same state in any process.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")

SEED_BITS = 63


def new_seed() -> int:
    """A fresh 63-bit session seed from the operating system's entropy."""
    return random.SystemRandom().getrandbits(SEED_BITS)


class Rng:
    """Random draws for one step of one session.

    Parameters
    ----------
    seed : int
        The session seed, 0 <= seed < 2**63.
    step : int
        The step number: 0 for setup, ``n`` for the n-th applied action.
    """

    __slots__ = ("_r", "seed", "step")

    def __init__(self, seed: int, step: int) -> None:
        self.seed = seed
        self.step = step
        self._r = random.Random(f"tabula:{seed}:{step}")

    def random(self) -> float:
        """A float in [0, 1)."""
        return self._r.random()

    def position(self) -> object:
        """An opaque token of how far the generator has drawn: equal tokens, nothing drawn
        in between (a look-ahead may reuse what it worked out without a draw). A copy of
        the generator's state; :class:`CountingRng` answers with a count instead."""
        return self._r.getstate()

    def below(self, n: int) -> int:
        """An int in [0, n). Raises ValueError when n < 1."""
        if n < 1:
            raise ValueError("below() needs n >= 1")
        return min(int(self._r.random() * n), n - 1)

    def die(self, sides: int = 6) -> int:
        """One roll of a ``sides``-sided die: an int in [1, sides]."""
        return 1 + self.below(sides)

    def dice(self, count: int, sides: int = 6) -> tuple[int, ...]:
        """``count`` rolls of a ``sides``-sided die."""
        return tuple(self.die(sides) for _ in range(count))

    def choice(self, items: Sequence[T]) -> T:
        """One item of a non-empty sequence. Raises IndexError when empty."""
        if not items:
            raise IndexError("choice() from an empty sequence")
        return items[self.below(len(items))]

    def shuffle(self, items: Sequence[T]) -> tuple[T, ...]:
        """A shuffled copy (Fisher-Yates); the input is not changed."""
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.below(i + 1)
            out[i], out[j] = out[j], out[i]
        return tuple(out)

    def sample(self, items: Sequence[T], k: int) -> tuple[T, ...]:
        """``k`` distinct items in random order. Raises ValueError when k > len(items)."""
        if k > len(items) or k < 0:
            raise ValueError("sample larger than population")
        return self.shuffle(items)[:k]


class _Counted:
    """The ``random()`` of a ``random.Random``, counting the draws."""

    __slots__ = ("_random", "draws")

    def __init__(self, r: random.Random) -> None:
        self._random = r.random
        self.draws = 0

    def random(self) -> float:
        self.draws += 1
        return self._random()


class CountingRng(Rng):
    """An :class:`Rng` (the same draws) that counts them: ``position`` is their number,
    where ``Rng.position`` copies the generator's 625-word state. For a look-ahead that
    applies many actions with one generator and asks, around each, whether it drew."""

    __slots__ = ()

    def __init__(self, seed: int, step: int) -> None:
        super().__init__(seed, step)
        self._r = _Counted(self._r)  # type: ignore[assignment]

    def position(self) -> object:
        return self._r.draws  # type: ignore[attr-defined]
