"""Steps many rules share: gaining and losing Army Tokens, drawing and discarding cards,
a card played, a phase begun, the end of the game (rule text: shared/seeds/004)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.core import Seat
from games.core.english import count as counted
from games.core.errors import list_words

from ..data import Card
from ..model import ArmiesChanged, CardPlayed, CardsDrawn, CardsReceived, GameWon, Note, PhaseBegan, State
from .context import _Ctx


def gain(game: Any, ctx: _Ctx, seat: Seat, delta: int, reason: str, rolls: tuple[int, ...] = ()) -> int:
    """Add ``delta`` Army Tokens (negative: lose, never below 0); returns the change."""
    p = ctx.player(seat)
    new = max(0, p.armies + delta)
    change = new - p.armies
    ctx.set_player(seat, armies=new)
    ctx.emit(
        ArmiesChanged(
            seat=seat,
            who=game.nation_name(ctx.s, seat),
            delta=change,
            armies=new,
            reason=reason,
            rolls=rolls,
        )
    )
    return change


def draw(game: Any, ctx: _Ctx, seat: Seat, count: int, reason: str) -> None:
    """Draw ``count`` cards; an empty deck is refilled by shuffling the discard
    pile (FATE PHASE); with both empty the draw stops short (RULINGS.md R4)."""
    drawn: list[str] = []
    for _ in range(count):
        s = ctx.s
        if not s.deck:
            if not s.discard:
                break
            ctx.update(deck=ctx.rng.shuffle(s.discard), discard=())
            ctx.emit(
                Note(
                    text=f"The deck ran out: the discard pile ({counted(len(ctx.s.deck), 'card')}) is shuffled into a new deck."
                )
            )
        drawn.append(ctx.s.deck[0])
        ctx.update(deck=ctx.s.deck[1:])
    p = ctx.player(seat)
    ctx.set_player(seat, hand=p.hand + tuple(drawn))
    ctx.emit(CardsDrawn(seat=seat, who=game.nation_name(ctx.s, seat), count=len(drawn), reason=reason))
    if drawn:
        ctx.emit(CardsReceived(seat=seat, cards=tuple(drawn), names=game.names(drawn), visible_to=(seat,)))


def remove_cards(ctx: _Ctx, seat: Seat, cards: Sequence[str], to_discard: bool = True) -> None:
    """Take ``cards`` from ``seat``'s hand, onto the discard pile unless ``to_discard`` is false."""
    hand = list(ctx.player(seat).hand)
    for c in cards:
        hand.remove(c)
    ctx.set_player(seat, hand=tuple(hand))
    if to_discard:
        ctx.update(discard=ctx.s.discard + tuple(cards))


def not_in_hand(game: Any, s: State, seat: Seat, card_id: str) -> str | None:
    """The refusal of a card ``seat`` does not hold (an unknown id too); None when it does."""
    if game.card_ok(card_id) and card_id in s.players[seat].hand:
        return None
    hand = game.names(s.players[seat].hand)
    name = game.card(card_id).display if game.card_ok(card_id) else card_id
    return f"{name} is not in your hand; your hand: {list_words(hand)}."


def played(game: Any, s: State, seat: Seat, card: Card, extra: str = "") -> CardPlayed:
    """The event of ``seat`` playing ``card`` (its text, and ``extra``)."""
    return CardPlayed(
        seat=seat, who=game.nation_name(s, seat), card=card.id, name=card.display, text=card.text + extra
    )


def begin_phase(game: Any, ctx: _Ctx, phase: str) -> None:
    """The active player's turn enters ``phase`` (A TURN: Fate, Recruit, Event, Conquest, End)."""
    ctx.update(phase=phase)
    s = ctx.s
    ctx.emit(PhaseBegan(seat=s.active, who=game.nation_name(s, s.active), phase=phase, round=s.round))


def finish(ctx: _Ctx, winner: Seat | None, text: str) -> None:
    """The game is over (VICTORY; RULINGS R15, R16): ``winner`` (None: nobody) and why."""
    ctx.update(phase="over", winner=winner, end_reason=text, windows=(), war=None)
    ctx.emit(GameWon(seat=winner, text=text))


def check_last_standing(game: Any, ctx: _Ctx) -> bool:
    """RULINGS R15: when one nation is left and nobody can re-enter, it wins."""
    s = ctx.s
    living = game.living(s)
    can_return = [x for x, p in enumerate(s.players) if p.status == "out"]
    if len(living) == 1 and not can_return:
        finish(ctx, living[0], f"Victory for {game.the_nation(s, living[0])}, the last nation standing!")
        return True
    return False
