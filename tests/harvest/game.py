"""Harvest's game object: the contract attributes, the flow, setup, view and outcome.
``to_act``, ``legal_actions`` and ``apply`` come from games.core.flow.FlowGame."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, ClassVar

from pydantic import BaseModel

from games.core import Outcome, Rng, Seat, Step
from games.core.base import ApplyContext, NotationGame
from games.core.flow import FlowGame
from games.core.secrets import redeal

from . import data, notation
from .cards import draw, effect
from .model import ACTION, Options, Said, State, View
from .stages import FLOW, HAND


class Harvest(FlowGame, NotationGame):
    """Harvest (tests/harvest/README.md): the game object, stateless."""

    id: ClassVar[str] = "harvest"
    title: ClassVar[str] = "Harvest"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    Options: ClassVar[type[BaseModel]] = Options
    State: ClassVar[type[BaseModel]] = State
    View: ClassVar[type[BaseModel]] = View
    notation = notation
    action_adapter = ACTION
    flow = FLOW
    effects = effect

    def card_ids(self) -> frozenset[str]:
        """Every card id of ``data/cards.toml``."""
        return frozenset(data.cards())

    def setup(self, seats: Sequence[Seat], options: Any, rng: Rng) -> Step[Any]:
        """Rule 1: hidden hands of 3, a random first seat; then its refill (rule 2)."""
        opts = options if isinstance(options, Options) else Options.model_validate(options or {})
        n = len(seats)
        ctx = ApplyContext(State(target=opts.target, grain=(0,) * n, hands=((),) * n,
                                 deck=rng.shuffle(data.deck()), turn=0), rng)
        for seat in seats:
            draw(ctx, seat, HAND)
        ctx.update(turn=rng.below(n))
        ctx.emit(Said(text=f"Seat {ctx.s.turn + 1} goes first."))
        self.settle(ctx)
        return Step(state=ctx.s, events=tuple(ctx.events))

    def after_action(self, ctx: ApplyContext, seat: Seat | None, action: Any) -> None:
        """Rule 5: the first seat with ``target`` grain wins at once."""
        if ctx.s.winner is None:
            for x, grain in enumerate(ctx.s.grain):
                if grain >= ctx.s.target:
                    ctx.update(winner=x)
                    ctx.emit(Said(text=f"Seat {x + 1} has {grain} grain and wins."))
                    return

    def outcome(self, s: State) -> Outcome | None:
        if s.winner is None:
            return None
        return Outcome(winners=(s.winner,), reason=f"seat {s.winner + 1} reached {s.target} grain")

    def seats(self, s: State) -> tuple[Seat, ...]:
        return tuple(range(len(s.grain)))

    def notation_is_public(self, s: State, seat: Seat, a: Any) -> bool:
        """Every action is public as typed: a card played is shown face up."""
        return True

    def view(self, s: State, viewer: Seat | None) -> View:
        return View(viewer=viewer, target=s.target, grain=s.grain, hand_sizes=tuple(len(h) for h in s.hands),
                    hand=None if viewer is None else s.hands[viewer], deck_size=len(s.deck),
                    discard_top=s.discard[-1] if s.discard else None, turn=s.turn, raid=s.raid,
                    winner=s.winner)

    def summary(self, view: BaseModel) -> str:
        assert isinstance(view, View)
        grain = ", ".join(f"seat {x + 1}: {g}" for x, g in enumerate(view.grain))
        return f"Grain (target {view.target}): {grain}. Deck: {view.deck_size} cards."

    def hand_text(self, view: BaseModel) -> str:
        assert isinstance(view, View)
        return "Your hand: " + (", ".join(data.cards()[c].name for c in view.hand or ()) or "empty") + "."

    def perturb_hidden(self, s: State, keep: frozenset[Seat] | None, rand: random.Random) -> State:
        """The deck reshuffled and the hands outside ``keep`` redealt with it."""
        others = [x for x in range(len(s.hands)) if keep is None or x not in keep]
        zones = redeal([*(s.hands[x] for x in others), s.deck], rand)
        hands = list(s.hands)
        for x, hand in zip(others, zones, strict=False):
            hands[x] = tuple(sorted(hand))
        return s.model_copy(update={"hands": tuple(hands), "deck": zones[-1]})


GAME = Harvest()
