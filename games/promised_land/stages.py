"""Promised Land's flow, stated once (games.core.flow): the stages in the order they take
precedence (rule text: shared/seeds/002; rulings: RULINGS.md).

Initial Placement: the owner of most coins determines a team's placement order, then the
Patriarchs are placed (RULINGS R2). Each Book begins with the secret discards. During a
Player Turn, an attack on a land holding Patriarchs of players with a face-up Treaty waits
for them first (RULINGS R18), then Patriarchs driven out of a conquered land retreat; then
the turn's phase: Kingdom building, Actions, Collect Revenue, Buy Artefact. Dice, deals and
the Time track's calls run inside the action that leads to them, so no stage is automatic.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import combinations, permutations
from typing import Any, ClassVar

from games.core import Prompt, Seat
from games.core.english import count
from games.core.errors import list_words
from games.core.flow import BaseStage, Flow
from games.core.memo import last_state

from . import notation
from .model import (
    AdvanceKingdom,
    AdvanceRoyal,
    Buy,
    CollectCoin,
    Discard,
    Done,
    Pass,
    PlacementOrder,
    PlacePatriarch,
    PlayArtefact,
    RetreatTo,
    State,
)
from .rules.actions import advance_kingdom, advance_royal, collect, place, to_revenue
from .rules.artefacts import play
from .rules.building import apply_building
from .rules.combat import apply_retreat, apply_treaty
from .rules.context import _Ctx
from .rules.revenue import buy, collect_revenue
from .rules.setup import apply_initial, set_order
from .rules.time import apply_discard, end_turn

ALL_KINDS = frozenset({
    "order", "place", "discard", "attack", "build", "stack", "ark", "play", "end-building", "royal",
    "kingdom", "collect", "buy", "retreat", "done", "pass",
})
"""Every action kind: the current stage takes any action and says why one does not fit it."""


@last_state
def _legal(stage: PromisedStage, s: State, game: Any, seat: Seat) -> tuple[Any, ...]:
    """The stage's legal actions for ``seat``, remembered for the last state (an agent's
    choice and ``apply``'s check share one list)."""
    return tuple(stage.options(game, s, seat))


def why(game: Any, s: State, seat: Seat, a: Any, legal: Sequence[Any]) -> str:
    """The refusal of an action that is not legal: the legal actions of its kind, or the
    command words legal now."""
    same = [x for x in legal if type(x) is type(a)]
    kind = getattr(a, "kind", "that")
    if not same:
        kinds = sorted({notation.verb(x) for x in legal})
        return f"You cannot {kind} now; you may: {list_words(kinds)}."
    return f"That {kind} is not legal now; legal: {list_words([game.format_action(s, x) for x in same])}."


class PromisedStage(BaseStage):
    """A stage of Promised Land: it takes every kind of action, lists its legal ones in
    ``options`` and refuses the others with :func:`why`."""

    actions = ALL_KINDS

    def options(self, game: Any, s: State, seat: Seat) -> Sequence[Any]:
        """Every legal action of ``seat`` at this stage."""
        return ()

    def legal_actions(self, game: Any, s: State, seat: Seat) -> list[Any]:
        """The stage's legal actions (a fresh list)."""
        return list(_legal(self, s, game, seat))

    def refusal(self, game: Any, s: State, seat: Seat, action: Any) -> str | None:
        legal = _legal(self, s, game, seat)
        # an agent's choice is one of the legal objects: found by identity, no comparisons
        if any(x is action for x in legal) or action in legal:
            return None
        return why(game, s, seat, action, legal)


class PlacementOrderStage(PromisedStage):
    """Initial Placement: the owner of most coins of a team determines its placement order (RULINGS R2)."""

    name = "placement order"

    def active(self, game: Any, s: State) -> bool:
        return s.phase == "order"

    def seats(self, game: Any, s: State) -> Sequence[Seat]:
        assert s.orderer is not None
        return (s.orderer,)

    def prompt(self, game: Any, s: State, seat: Seat) -> Prompt:
        assert s.orderer is not None
        side = s.players[s.orderer].side.title()
        seats = [i + 1 for i, x in enumerate(s.players) if x.side == s.players[s.orderer].side]
        example = ", ".join(map(str, reversed(seats)))
        return Prompt(kind="turn", text=(
            f"Holding most coins, determine the {side} placement order: the seat numbers in the "
            f"order they place (order {example}: seat {seats[-1]} places first)."))

    def options(self, game: Any, s: State, seat: Seat) -> Sequence[Any]:
        return [PlacementOrder(seats=o) for o in permutations(game.team(s, s.players[seat].side))]

    def apply(self, game: Any, ctx: _Ctx, seat: Seat, action: Any) -> None:
        set_order(game, ctx, ctx.s.players[seat].side, action.seats)


class InitialPlacementStage(PromisedStage):
    """Initial Placement of Patriarchs: each Heathen places six, then each Hebrew one."""

    name = "initial placement"
    prompt_text = "Place a Patriarch."

    def active(self, game: Any, s: State) -> bool:
        return s.phase == "place"

    def seats(self, game: Any, s: State) -> Sequence[Seat]:
        return (s.place_order[0],)

    def options(self, game: Any, s: State, seat: Seat) -> Sequence[Any]:
        return game.initial_places(s, seat)

    def apply(self, game: Any, ctx: _Ctx, seat: Seat, action: Any) -> None:
        apply_initial(game, ctx, seat, action)


class DiscardStage(PromisedStage):
    """Starting a Book: each player discards Kingdom cards in secret, all at once."""

    name = "discard"

    def active(self, game: Any, s: State) -> bool:
        return s.phase == "discard"

    def seats(self, game: Any, s: State) -> Sequence[Seat]:
        return [x for x, p in enumerate(s.players) if p.to_discard]

    def prompt(self, game: Any, s: State, seat: Seat) -> Prompt:
        n = s.players[seat].to_discard
        return Prompt(kind="secret", text=f"Discard {count(n, 'Kingdom card')} back to the supply.")

    def options(self, game: Any, s: State, seat: Seat) -> Sequence[Any]:
        p = s.players[seat]
        return [Discard(cards=tuple(c)) for c in combinations(p.hand, p.to_discard)]

    def apply(self, game: Any, ctx: _Ctx, seat: Seat, action: Any) -> None:
        apply_discard(game, ctx, seat, action)


class TreatyStage(PromisedStage):
    """An attack on a land holding Patriarchs of players with a face-up Treaty: each may play
    it or pass (Playing Artefacts: Treaty; RULINGS R18)."""

    name = "Treaty"

    def active(self, game: Any, s: State) -> bool:
        return s.turn is not None and s.turn.pending is not None

    def seats(self, game: Any, s: State) -> Sequence[Seat]:
        return s.turn.pending.waiting  # type: ignore[union-attr]

    def prompt(self, game: Any, s: State, seat: Seat) -> Prompt:
        land = game.land_name(s.turn.pending.land)  # type: ignore[union-attr]
        return Prompt(kind="respond", text=f"{land} is attacked: play Treaty, or pass.")

    def options(self, game: Any, s: State, seat: Seat) -> Sequence[Any]:
        return [*(PlayArtefact(artefact=a) for a in game.treaties(s, seat)), Pass()]

    def apply(self, game: Any, ctx: _Ctx, seat: Seat, action: Any) -> None:
        apply_treaty(game, ctx, seat, action)


class RetreatStage(PromisedStage):
    """Retreating Patriarchs: one at a time, to an adjacent land of the same kingdom or the supply."""

    name = "retreat"

    def active(self, game: Any, s: State) -> bool:
        return s.turn is not None and bool(s.turn.retreats)

    def seats(self, game: Any, s: State) -> Sequence[Seat]:
        return (s.turn.retreats[0].seat,)  # type: ignore[union-attr]

    def prompt(self, game: Any, s: State, seat: Seat) -> Prompt:
        r = s.turn.retreats[0]  # type: ignore[union-attr]
        return Prompt(kind="turn", text=f"Retreat your {r.type} from {game.land_name(r.land)}.")

    def options(self, game: Any, s: State, seat: Seat) -> Sequence[Any]:
        r = s.turn.retreats[0]  # type: ignore[union-attr]
        return [RetreatTo(land=game.data.lands[j].id) for j in game.retreat_options(s, r)] + [RetreatTo()]

    def apply(self, game: Any, ctx: _Ctx, seat: Seat, action: Any) -> None:
        apply_retreat(game, ctx, action)


class TurnPhaseStage(PromisedStage):
    """A phase of the Player Turn of the card's holder (``phase`` of the Turn)."""

    phase: ClassVar[str] = ""

    def active(self, game: Any, s: State) -> bool:
        return s.turn is not None and s.turn.phase == self.phase

    def seats(self, game: Any, s: State) -> Sequence[Seat]:
        return (s.turn.seat,)  # type: ignore[union-attr]


class KingdomBuildingStage(TurnPhaseStage):
    """Kingdom building: attack, build, stack, move the Ark, play an Artefact, or end."""

    name = "Kingdom building"
    phase = "kb"
    prompt_text = "Kingdom building: attack, build, stack, move the Ark, or end with coins for unused units."

    def options(self, game: Any, s: State, seat: Seat) -> Sequence[Any]:
        return game.kb_actions(s)

    def apply(self, game: Any, ctx: _Ctx, seat: Seat, action: Any) -> None:
        apply_building(game, ctx, action)


_ACTION_RULES: dict[type, Callable[[Any, _Ctx, Any], None]] = {
    PlacePatriarch: place,
    AdvanceRoyal: advance_royal,
    AdvanceKingdom: lambda game, ctx, a: advance_kingdom(game, ctx),
    CollectCoin: collect,
    PlayArtefact: play,
    Done: lambda game, ctx, a: to_revenue(game, ctx),
}


class ActionsStage(TurnPhaseStage):
    """Actions: place a Patriarch, advance on a track, collect coin, play an Artefact, or done."""

    name = "Actions"
    phase = "actions"

    def prompt(self, game: Any, s: State, seat: Seat) -> Prompt:
        left = s.turn.actions  # type: ignore[union-attr]
        return Prompt(kind="turn", text=(
            f"Actions ({left} left): place Patriarch, royal, kingdom, collect coin, or done."))

    def options(self, game: Any, s: State, seat: Seat) -> Sequence[Any]:
        return game.action_actions(s)

    def apply(self, game: Any, ctx: _Ctx, seat: Seat, action: Any) -> None:
        _ACTION_RULES[type(action)](game, ctx, action)


class RevenueStage(TurnPhaseStage):
    """Collect Revenue: an Artefact played first, or done to collect."""

    name = "Collect Revenue"
    phase = "revenue"
    prompt_text = "Collect revenue: play an Artefact first, or done to collect."

    def options(self, game: Any, s: State, seat: Seat) -> Sequence[Any]:
        return [*game.plays(s, "CR"), Done()]

    def apply(self, game: Any, ctx: _Ctx, seat: Seat, action: Any) -> None:
        if isinstance(action, PlayArtefact):
            play(game, ctx, action)
        else:
            collect_revenue(game, ctx)


class BuyStage(TurnPhaseStage):
    """Buy Artefact: buy one (two with Authority), or done to end the turn."""

    name = "Buy Artefact"
    phase = "buy"
    prompt_text = "Buy an Artefact, or done to end your turn."

    def options(self, game: Any, s: State, seat: Seat) -> Sequence[Any]:
        return [*game.buys(s), Done()]

    def apply(self, game: Any, ctx: _Ctx, seat: Seat, action: Any) -> None:
        if isinstance(action, Buy):
            buy(game, ctx, action)
        else:
            end_turn(game, ctx)


FLOW = Flow([
    PlacementOrderStage(),
    InitialPlacementStage(),
    DiscardStage(),
    TreatyStage(),
    RetreatStage(),
    KingdomBuildingStage(),
    ActionsStage(),
    RevenueStage(),
    BuyStage(),
])
"""Promised Land's stages in order of precedence: the first active one is current."""
