"""The Main Phase's Move and Recruit actions as runs: blocks of one die and one route (or one
territory) with the actions of 1, 2, ... units, counted first and made only when asked for.

A Main Phase may offer a few thousand moves of which the heuristic agent looks at a sample of
48; the legal list (``main.main_actions``) is the runs laid out in order, and the agent indexes
the same sequence (``main.main_space``) without laying it out.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable
from functools import lru_cache
from typing import Any

from ..model import Move, Path, Recruit


class Runs:
    """Actions in blocks, in order: block ``b`` holds ``make(die, key, n)``, the actions of 1 to
    ``n`` units with die ``die`` along route (or into territory) ``key``, the same objects each
    time (so an action read by index is the legal list's own)."""

    __slots__ = ("_blocks", "_made", "_make", "_starts", "total")

    def __init__(self, make: Callable[[int, Any, int], list[Any]]) -> None:
        self._make = make
        self._starts: list[int] = []
        self._blocks: list[tuple[int, Any, int]] = []
        self._made: dict[int, list[Any]] = {}  # block -> its actions, once one was asked for
        self.total = 0

    def add(self, die: int, key: Any, n: int) -> None:
        """A block of the actions of 1 to ``n`` units (``n`` > 0)."""
        self._starts.append(self.total)
        self._blocks.append((die, key, n))
        self.total += n

    def add_routes(self, die: int, points: int, groups: list[tuple[tuple[str, ...], int, int]]) -> None:
        """A block for each of ``groups`` (route, its steps, the most units along it) that die
        ``die`` of ``points`` movement points can move a unit along: of as many units as it can."""
        starts, blocks, total = self._starts, self._blocks, self.total
        for route, steps, cap in groups:
            n = min(cap, points // steps)
            if n > 0:
                starts.append(total)
                blocks.append((die, route, n))
                total += n
        self.total = total

    def __len__(self) -> int:
        return self.total

    def at(self, j: int) -> Any:
        """The ``j``-th action of the runs (0 <= j < total)."""
        b = bisect_right(self._starts, j) - 1
        made = self._made.get(b)
        if made is None:
            made = self._made[b] = self._make(*self._blocks[b])
        return made[j - self._starts[b]]

    def items(self) -> list[Any]:
        """Every action of the runs, in order."""
        out: list[Any] = []
        make = self._make
        for die, key, n in self._blocks:
            out += make(die, key, n)
        return out

    def part(self) -> tuple[int, Callable[[int], Any]]:
        """The runs as a lazy part of a :class:`games.core.ActionSpace`."""
        return (self.total, self.at)


@lru_cache(maxsize=2048)
def made_moves(route: tuple[str, ...], gray: bool, yellow: bool) -> dict[int, list[Move]]:
    """The Moves along ``route`` made so far, by die: die -> the Moves of 1, 2, ... units
    (``moves_along`` adds to them)."""
    return {}


def moves_along(
    made: dict[int, list[Move]], die: int, route: tuple[str, ...], n: int, gray: bool = False, yellow: bool = False
) -> list[Move]:
    """The Moves of 1 to ``n`` units along ``route`` with die ``die`` (``gray``, ``yellow``:
    as Move's; ``made``: ``made_moves`` of the route): one object each, made once (models
    are frozen, and the legal actions of every state name the same few thousand groups;
    about 10 MB for the routes kept)."""
    ms = made.get(die)
    if ms is None:
        ms = made[die] = []
    while len(ms) < n:
        ms.append(Move(die=die, paths=(Path(count=len(ms) + 1, route=route),), gray=gray, yellow=yellow))
    return ms[:n]


@lru_cache(maxsize=4096)
def recruit_of(die: int, t: str, k: int) -> Recruit:
    """Recruit of ``k`` units into ``t`` with die ``die`` (one object per triple)."""
    return Recruit(die=die, placements=((t, k),))


def move_make(die: int, route: tuple[str, ...], n: int) -> list[Move]:
    """The Moves of 1 to ``n`` units of the mover's own along ``route`` with die ``die`` (Runs' make)."""
    return moves_along(made_moves(route, False, False), die, route, n)


def recruit_make(die: int, t: str, n: int) -> list[Recruit]:
    """The Recruits of 1 to ``n`` units into ``t`` with die ``die`` (Runs' make)."""
    return [recruit_of(die, t, k) for k in range(1, n + 1)]
