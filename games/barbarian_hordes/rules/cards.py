"""Playing cards outside wars (rule text: shared/seeds/004, EVENT PHASE and the Card List
Notation): the active player's Event cards, the opponents' X, P and I cards in its Event
Phase, the K cards negating a Leader card, S cards played any time one is asked, and
each card type's effect (RULINGS R6-R12)."""

from __future__ import annotations

from typing import Any

from games.core import Seat
from games.core.errors import list_words
from games.core.window import seats_after

from ..model import Attack, Done, HandSeen, Note, Pass, PendingLeader, PlayCard, State, Window
from ..queries import D_CARDS
from .common import draw, gain, not_in_hand, played, remove_cards
from .context import _Ctx
from .turn import begin_conquest, move_refusal, move_seat

# ------------------------------------------------------------------ effects


def effect(game: Any, ctx: _Ctx, play: PlayCard | PendingLeader) -> None:
    """Carry out a played card's effect outside wars, by its type (Card List Notation):
    X the active player loses 1D6 Army Tokens (XG: the player gains them), P it may not
    attack the player, I it may not attack at all, V (a war won) and G gain 1D6, D draw
    3, Q one more Conquest Phase."""
    card = game.card(play.card)
    seat = play.seat
    s = ctx.s
    if card.has("X"):
        target = s.active
        roll = ctx.rng.die(6)
        lost = -gain(game, ctx, target, -roll, f"{card.display} played by {game.nation_name(s, seat)}", (roll,))
        if card.has("G") and lost:
            gain(game, ctx, seat, lost, f"{card.display}: the Army Tokens {game.nation_name(s, target)} lost")
    elif card.has("P"):
        ctx.update(protected=tuple(sorted(set(ctx.s.protected) | {seat})))
        ctx.emit(Note(text=f"{game.nation_name(s, s.active)} may not attack {game.nation_name(s, seat)} this turn."))
    elif card.has("I"):
        ctx.update(attack_forbidden=True)
        ctx.emit(Note(text=f"{game.nation_name(s, s.active)} may not attack at all this turn."))
    elif card.has("V"):
        roll = ctx.rng.die(6)
        ctx.set_player(seat, wins=ctx.player(seat).wins - 1)
        gain(game, ctx, seat, roll, card.display, (roll,))
    elif card.has("G"):
        roll = ctx.rng.die(6)
        gain(game, ctx, seat, roll, card.display, (roll,))
    elif card.has("D"):
        draw(game, ctx, seat, D_CARDS, card.display)
    elif card.has("Q"):
        ctx.update(conquests_left=ctx.s.conquests_left + 1)
        ctx.emit(
            Note(text=f"Extra Conquest Phase for {game.nation_name(s, seat)} ({ctx.s.conquests_left} left this turn).")
        )


def play_card(game: Any, ctx: _Ctx, seat: Seat, card_id: str, target: Seat | None = None) -> None:
    """``seat`` plays ``card_id`` from its hand: a Leader card opens a window to negate
    it (RULINGS R7), any other card takes effect at once."""
    card = game.card(card_id)
    remove_cards(ctx, seat, [card_id])
    ctx.emit(played(game, ctx.s, seat, card))
    play = PendingLeader(seat=seat, card=card_id, target=target)
    if card.is_leader:
        open_negate(game, ctx, play)
    else:
        effect(game, ctx, play)


def open_negate(game: Any, ctx: _Ctx, play: PendingLeader) -> None:
    """A Leader card was just played: every other seat may negate it (K; RULINGS R7)."""
    s = ctx.s
    others = seats_after(game.living(s), play.seat)
    name = game.card(play.card).display
    if not others:
        effect(game, ctx, play)
        return
    w = Window(
        kind="negate",
        waiting=others,
        leader=play,
        reason=f"{game.nation_name(s, play.seat)} played the Leader card {name}: negate it with a K card, or pass.",
    )
    ctx.update(windows=s.windows + (w,))


# ------------------------------------------------------------------ S cards


def is_s_play(game: Any, a: Any) -> bool:
    """Whether ``a`` plays an S card (look at a hand), which any asked seat may do (R12)."""
    return isinstance(a, PlayCard) and a.card in game.s_card_ids


def s_refusal(game: Any, s: State, seat: Seat, a: PlayCard) -> str | None:
    """S: the card held, and whose hand to look at: another nation in play (RULINGS R12)."""
    reason = not_in_hand(game, s, seat, a.card)
    if reason:
        return reason
    others = game.others(s, seat)
    if a.target not in others:
        names = list_words([game.nation_name(s, o) for o in others])
        return f"Say whose hand to look at: play {game.card(a.card).display} on <nation>; one of {names}."
    return None


def play_s(game: Any, ctx: _Ctx, seat: Seat, a: PlayCard) -> None:
    """S: look at an opponent's hand; play any time you are asked to act (RULINGS R12)."""
    s = ctx.s
    card = game.card(a.card)
    remove_cards(ctx, seat, [a.card])
    ctx.emit(played(game, ctx.s, seat, card, f" ({game.possessive(s, a.target)} hand)"))
    ctx.emit(
        HandSeen(
            seat=seat,
            target=a.target,
            who=game.nation_name(s, a.target),
            names=game.names(s.players[a.target].hand),
            visible_to=(seat,),
        )
    )


# ------------------------------------------------------------------ Event Phase


def event_refusal(game: Any, s: State, seat: Seat, a: Any) -> str | None:
    """EVENT PHASE: an Event card the player may play now (G, D, V after a war won, Q,
    M with a new place to sit; RULINGS R3, R8-R10), or done."""
    if isinstance(a, Done):
        return None
    if not isinstance(a, PlayCard):
        if isinstance(a, Attack):
            return "Attacks come in the Conquest Phase: say done to end your Event Phase first."
        return "Event Phase: play an Event card (play <card>) or say done."
    reason = not_in_hand(game, s, seat, a.card)
    if reason:
        return reason
    card = game.card(a.card)
    if card.has("M"):
        return move_refusal(game, s, seat, a.left, a.right)
    if not game.event_card(s, seat, card):
        if card.has("V"):
            return f"{card.display} needs a war you have won first (V; RULINGS R9)."
        return f"{card.display} cannot be played in your Event Phase: {card.text}"
    return None


def apply_event(game: Any, ctx: _Ctx, seat: Seat, a: Any) -> None:
    """EVENT PHASE: an Event card played (M: the player moves), or done: the other
    players may then play X, P and I cards on the active player (RULINGS R6)."""
    s = ctx.s
    if isinstance(a, Done):
        others = seats_after(game.living(s), seat)
        if others:
            reason = f"{game.possessive(s, seat)} Event Phase: play X, P or I cards on them, or pass."
            ctx.update(windows=(Window(kind="opponents", waiting=others, reason=reason),))
        else:
            begin_conquest(game, ctx)
        return
    card = game.card(a.card)
    if card.has("M"):
        remove_cards(ctx, seat, [a.card])
        ctx.emit(played(game, ctx.s, seat, card))
        move_seat(game, ctx, seat, a.left, a.right, card.display)
        return
    play_card(game, ctx, seat, a.card)


# ------------------------------------------------------------------ response windows


def window_refusal(game: Any, s: State, seat: Seat, a: Any) -> str | None:
    """A response window: a K card negating the Leader card just played (RULINGS R7), or
    an X, P or I card on the active player in its Event Phase (R6); or pass."""
    w = s.windows[-1]
    if isinstance(a, Pass):
        return None
    if not isinstance(a, PlayCard):
        return f"Only a response is possible now. {w.reason}"
    reason = not_in_hand(game, s, seat, a.card)
    if reason:
        return reason
    card = game.card(a.card)
    if w.kind == "negate":
        leader = game.card(w.leader.card).display
        if not card.has("K"):
            return f"Only a K card can negate {leader}; or pass."
        if a.negate not in (None, w.leader.card):
            return f"The Leader card just played is {leader}."
        return None
    if not game.opponent_card(card):
        return f"{card.display} cannot be played on an opponent's turn; X, P and I cards can (or pass)."
    return None


def apply_window(game: Any, ctx: _Ctx, seat: Seat, a: Any) -> None:
    """A response: pass, negate the Leader card (it has no effect), or a card played on
    the active player (RULINGS R6, R7)."""
    s = ctx.s
    w = s.windows[-1]
    if isinstance(a, Pass):
        window_done(game, ctx, seat)
        return
    card = game.card(a.card)
    if w.kind == "negate":
        remove_cards(ctx, seat, [a.card])
        ctx.emit(played(game, ctx.s, seat, card, f" {game.card(w.leader.card).display} is negated."))
        ctx.update(windows=ctx.s.windows[:-1])
        return
    play_card(game, ctx, seat, a.card, target=s.active)


def window_done(game: Any, ctx: _Ctx, seat: Seat) -> None:
    """``seat`` passed; when all have, the window closes: a Leader card not negated takes
    effect, and the opponents' window ends the active player's Event Phase."""
    w = ctx.s.windows[-1].done(seat)
    if w.is_open():
        ctx.update(windows=ctx.s.windows[:-1] + (w,))
        return
    ctx.update(windows=ctx.s.windows[:-1])
    if w.kind == "negate":
        # the Leader card stands: its effect happens; the phase or the window below it goes on
        effect(game, ctx, w.leader)
    else:
        begin_conquest(game, ctx)
