"""Card effects by card id (ARCHITECTURE.md, "The flow engine").

A game keeps one :class:`Effects` registry and marks each function that carries out a
card's text with the ids of the cards it serves::

    effect = Effects("soul-of-the-empire")

    class SoulOfTheEmpire(...):
        @effect("tithe")
        def _card_tithe(self, ctx, faction, action): ...

Looking an effect up never probes attribute names, a card id is served by exactly one
function (registering it twice raises at import), and :meth:`Effects.check` tells the
card ids of the game's data that have no effect and the effects that serve no card, so a
test holds the data and the code together.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, Generic, TypeVar

F = TypeVar("F", bound=Callable[..., Any])


class Effects(Generic[F]):
    """The card effects of one game: card id -> the function that carries it out."""

    def __init__(self, game_id: str) -> None:
        self.game_id = game_id
        self._by_id: dict[str, F] = {}

    def __call__(self, *card_ids: str) -> Callable[[F], F]:
        """A decorator registering the decorated function as the effect of ``card_ids``
        (one or more ids from the game's data); returns the function unchanged.

        Raises
        ------
        ValueError
            No id is given, or an id already has an effect.
        """
        if not card_ids:
            raise ValueError(f"{self.game_id}: an effect needs at least one card id")

        def register(fn: F) -> F:
            for card_id in card_ids:
                if card_id in self._by_id:
                    raise ValueError(
                        f"{self.game_id}: card {card_id!r} has two effects: "
                        f"{self._by_id[card_id].__name__} and {fn.__name__}"
                    )
                self._by_id[card_id] = fn
            return fn

        return register

    def get(self, card_id: str) -> F | None:
        """The effect of ``card_id``; ``None`` when it has none."""
        return self._by_id.get(card_id)

    def __getitem__(self, card_id: str) -> F:
        """The effect of ``card_id``; raises KeyError naming the game when it has none."""
        try:
            return self._by_id[card_id]
        except KeyError:
            raise KeyError(f"{self.game_id}: card {card_id!r} has no effect") from None

    def ids(self) -> frozenset[str]:
        """Every card id that has an effect."""
        return frozenset(self._by_id)

    def check(self, card_ids: Iterable[str]) -> tuple[list[str], list[str]]:
        """``(missing, extra)``: the ids of ``card_ids`` (the game's data) without an
        effect, and the registered ids no card of the data has; both sorted."""
        data = set(card_ids)
        return sorted(data - self._by_id.keys()), sorted(self._by_id.keys() - data)
