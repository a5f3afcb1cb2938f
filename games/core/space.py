"""Lazy action spaces: a Sequence of actions computed on demand.

Some decisions have very many legal actions (which cards and how many Army
Tokens to send to a war). ``legal_actions`` may return an ``ActionSpace`` so that
``len`` and indexing are cheap and nothing is built until it is asked for; a
random agent picks ``space[rand_index]`` and a test samples indices.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any, overload


class ActionSpace(Sequence[Any]):
    """Concatenation of parts; each part is a list of actions or ``(count, decode)``
    where ``decode(i)`` builds the i-th action for 0 <= i < count."""

    def __init__(self, *parts: Sequence[Any] | tuple[int, Callable[[int], Any]]) -> None:
        self._parts: list[tuple[int, Callable[[int], Any]]] = []
        self._lists: list[list[Any] | None] = []  # a part's actions when it was given them
        for part in parts:
            items: list[Any] | None = None
            if isinstance(part, tuple) and len(part) == 2 and callable(part[1]):
                count, decode = part
            else:
                items = list(part)
                count, decode = len(items), items.__getitem__
            if count > 0:
                self._parts.append((count, decode))
                self._lists.append(items)
        self._len = sum(c for c, _ in self._parts)

    def __len__(self) -> int:
        return self._len

    @overload
    def __getitem__(self, i: int) -> Any: ...
    @overload
    def __getitem__(self, i: slice) -> list[Any]: ...
    def __getitem__(self, i: int | slice) -> Any:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(self._len))]
        if i < 0:
            i += self._len
        if not 0 <= i < self._len:
            raise IndexError(i)
        for count, decode in self._parts:
            if i < count:
                return decode(i)
            i -= count
        raise IndexError(i)  # pragma: no cover

    def __iter__(self) -> Iterator[Any]:
        for (count, decode), items in zip(self._parts, self._lists, strict=True):
            if items is not None:
                yield from items
            else:
                for j in range(count):
                    yield decode(j)


def combination_at(items: Sequence[Any], k: int, index: int) -> tuple[Any, ...]:
    """The ``index``-th k-combination of ``items`` in ``itertools.combinations`` order,
    0 <= index < comb(len(items), k), without building the others."""
    from math import comb

    out = []
    n = len(items)
    start = 0
    for remaining in range(k, 0, -1):
        for i in range(start, n):
            count = comb(n - i - 1, remaining - 1)
            if index < count:
                out.append(items[i])
                start = i + 1
                break
            index -= count
    return tuple(out)
