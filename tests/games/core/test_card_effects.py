"""Card effects (games.core.effects): every card id of a game's data has exactly one effect,
for every game that keeps its effects in the registry (ARCHITECTURE.md, "The flow engine")."""

from __future__ import annotations

from typing import Any

import pytest

import tests.harvest  # noqa: F401  (registers the toy game "harvest")
from games.core import all_games
from games.core.effects import Effects

REGISTRY_GAMES = {"soul-of-the-empire", "credo", "harvest", "promised-land"}
"""Games whose card effects must be in the registry (the others dispatch effects in their rules)."""


@pytest.mark.parametrize("game", all_games(), ids=lambda g: g.id)
def test_every_card_of_the_data_has_exactly_one_effect(game: Any) -> None:
    if game.id in REGISTRY_GAMES:
        assert game.effects is not None, f"{game.id} keeps its card effects in a registry"
    if game.effects is None:
        return
    missing, extra = game.effects.check(game.card_ids())
    assert game.card_ids(), f"{game.id}: no card ids in the data"
    assert missing == [], f"{game.id}: cards without an effect: {missing}"
    assert extra == [], f"{game.id}: effects of no card of the data: {extra}"


def test_a_card_registered_twice_is_refused_at_import() -> None:
    effect: Effects[Any] = Effects("toy")

    @effect("a", "b")
    def first() -> None: ...

    with pytest.raises(ValueError, match="card 'b' has two effects: first and second"):
        @effect("b")
        def second() -> None: ...

    assert effect["a"] is first and effect.get("c") is None
    with pytest.raises(KeyError, match="toy: card 'c' has no effect"):
        effect["c"]
    assert effect.check(["a", "c"]) == (["c"], ["b"])
