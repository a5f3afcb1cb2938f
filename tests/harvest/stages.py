"""Harvest's flow, stated once: the stages in order (games.core.flow). The first active,
blocking stage is the current one: a seat refills before its turn, a Raid is answered
before the turn goes on."""

from __future__ import annotations

from typing import Any

from games.core.base import ApplyContext
from games.core.flow import BaseStage, Flow
from games.core.model import Seat

from . import data
from .cards import draw, effect, gain
from .model import Block, Gather, Pass, Play, Said, State

HAND = 3
"""Cards a seat holds after its refill (rule 2)."""


def discard(ctx: ApplyContext, seat: Seat, card: str) -> None:
    """``card`` from ``seat``'s hand to the discard pile."""
    hands = list(ctx.s.hands)
    hand = list(hands[seat])
    hand.remove(card)
    hands[seat] = tuple(hand)
    ctx.update(hands=tuple(hands), discard=(*ctx.s.discard, card))


class Refill(BaseStage):
    """Rule 2: before its turn a seat draws until it holds 3 cards."""

    name = "refill"
    automatic = True

    def active(self, game: Any, s: State) -> bool:
        return s.refill

    def run(self, game: Any, ctx: ApplyContext) -> None:
        seat = ctx.s.turn
        draw(ctx, seat, max(0, HAND - len(ctx.s.hands[seat])))
        ctx.update(refill=False)


class AnswerRaid(BaseStage):
    """Rule 4: the raided seat blocks with a Shield or passes (the Raid takes 2 grain)."""

    name = "Raid"
    actions = frozenset({"block", "pass"})
    prompt_kind = "respond"
    prompt_text = "You are raided: block with a Shield, or pass and lose up to 2 grain."

    def active(self, game: Any, s: State) -> bool:
        return s.raid is not None

    def seats(self, game: Any, s: State) -> tuple[Seat, ...]:
        return (s.next_seat(s.raid),) if s.raid is not None else ()

    def legal_actions(self, game: Any, s: State, seat: Seat) -> list[Any]:
        return [Block(), Pass()] if "shield" in s.hands[seat] else [Pass()]

    def refusal(self, game: Any, s: State, seat: Seat, action: Any) -> str | None:
        if isinstance(action, Block) and "shield" not in s.hands[seat]:
            return "'block' is not possible now: you hold no Shield; you may: pass."
        return None

    def apply(self, game: Any, ctx: ApplyContext, seat: Seat, action: Any) -> None:
        raider = ctx.s.raid
        assert raider is not None
        if isinstance(action, Block):
            discard(ctx, seat, "shield")
            effect["shield"](game, ctx, seat)
        else:
            taken = min(2, ctx.s.grain[seat])
            gain(ctx, seat, -taken)
            gain(ctx, raider, taken)
            ctx.update(raid=None)
            ctx.emit(Said(text=f"The Raid takes {taken} grain from {game.seat_label(ctx.s, seat)}."))
        end_turn(ctx)


class Turn(BaseStage):
    """Rule 3: gather 1 grain, or play a card of the hand that is not a reaction."""

    name = "turn"
    actions = frozenset({"gather", "play"})
    prompt_text = "Your turn: gather 1 grain or play a card."

    def seats(self, game: Any, s: State) -> tuple[Seat, ...]:
        return (s.turn,)

    def legal_actions(self, game: Any, s: State, seat: Seat) -> list[Any]:
        cards = data.cards()
        return [Gather(), *(Play(card=c) for c in sorted(set(s.hands[seat])) if not cards[c].reaction)]

    def refusal(self, game: Any, s: State, seat: Seat, action: Any) -> str | None:
        if isinstance(action, Gather):
            return None
        card = data.cards().get(action.card)
        if card is None or action.card not in s.hands[seat]:
            held = ", ".join(data.cards()[c].name for c in s.hands[seat]) or "nothing"
            return f"You hold no {card.name if card else action.card}; your hand: {held}."
        if card.reaction:
            return f"{card.name} is played only in answer to another card (rule 3), not on your turn."
        return None

    def apply(self, game: Any, ctx: ApplyContext, seat: Seat, action: Any) -> None:
        who = game.seat_label(ctx.s, seat).capitalize()
        if isinstance(action, Gather):
            gain(ctx, seat, 1)
            ctx.emit(Said(text=f"{who} gathers 1 grain."))
            end_turn(ctx)
            return
        discard(ctx, seat, action.card)
        ctx.emit(Said(text=f"{who} plays {data.cards()[action.card].name}."))
        effect[action.card](game, ctx, seat)
        if ctx.s.raid is None:
            end_turn(ctx)


def end_turn(ctx: ApplyContext) -> None:
    """The turn passes to the next seat, which refills first (rule 2)."""
    ctx.update(turn=ctx.s.next_seat(ctx.s.turn), refill=True)


FLOW = Flow([Refill(), AnswerRaid(), Turn()])
"""Harvest's flow: the refill before a turn, the answer to a Raid, the turn."""
