"""A TURN (rule text: shared/seeds/004): turn order and rounds, the Fate Phase (draws,
Migratory moves), the Recruit Phase, the start and automatic end of the Conquest Phase,
and the End Phase's discard to the hand limit; the round-limit house rule (RULINGS R16)."""

from __future__ import annotations

from typing import Any

from games.core import Seat
from games.core.english import count as counted
from games.core.errors import list_words

from ..model import Discard, Done, MoveSeat, Note, SeatingChanged, State
from .common import begin_phase, check_last_standing, draw, finish, gain, not_in_hand, remove_cards
from .context import _Ctx

# ------------------------------------------------------------------ turns and rounds


def begin_turn(game: Any, ctx: _Ctx) -> None:
    """Start the turn of ``turn_order[turn]``: skip eliminated seats, ask wiped-out
    ones to re-enter (DEFEAT; RULINGS R13), else the Fate Phase."""
    for _ in range(len(ctx.s.turn_order) + 1):
        s = ctx.s
        seat = s.active
        status = s.players[seat].status
        ctx.update(attack_forbidden=False, protected=(), windows=())
        if status == "eliminated":
            advance(game, ctx)
            if ctx.s.phase == "over":
                return
            continue
        if status == "out":
            if not game.nation_pool(s, reentry=True):
                ctx.set_player(seat, status="eliminated")
                ctx.emit(Note(text=f"Seat {seat + 1} has no nation left to re-enter as and is out of the game."))
                if check_last_standing(game, ctx):
                    return
                advance(game, ctx)
                if ctx.s.phase == "over":
                    return
                continue
            ctx.update(phase="reentry")
            return
        fate(game, ctx)
        return


def advance(game: Any, ctx: _Ctx) -> None:
    """Move ``turn`` to the next seat in turn order; a new round after the last."""
    s = ctx.s
    turn = s.turn + 1
    rnd = s.round
    if turn >= len(s.turn_order):
        turn, rnd = 0, rnd + 1
    ctx.update(turn=turn, round=rnd)
    if s.round_limit is not None and rnd > s.round_limit:
        end_by_round_limit(game, ctx)


def next_turn(game: Any, ctx: _Ctx) -> None:
    """The active player's turn is over: the next seat's begins (unless the game ended)."""
    advance(game, ctx)
    if ctx.s.phase != "over":
        begin_turn(game, ctx)


def end_by_round_limit(game: Any, ctx: _Ctx) -> None:
    """RULINGS.md R16: most Territory Tokens, then most Army Tokens; else no winner."""
    s = ctx.s
    ranked = sorted(game.living(s), key=lambda x: (s.players[x].territories, s.players[x].armies), reverse=True)
    best = ranked[:1]
    tie = len(ranked) > 1 and (s.players[ranked[0]].territories, s.players[ranked[0]].armies) == (
        s.players[ranked[1]].territories,
        s.players[ranked[1]].armies,
    )
    winner = None if tie or not best else best[0]
    text = f"The round limit ({s.round_limit}) is reached: " + (
        f"victory for the {game.nation_name(s, winner)}, with the most Territory Tokens."
        if winner is not None
        else "a tie, nobody wins."
    )
    finish(ctx, winner, text)


# ------------------------------------------------------------------ Fate and Recruit


def fate(game: Any, ctx: _Ctx) -> None:
    """FATE PHASE: draw 1D6 cards (+1 for Manipulators); Migratory may move."""
    begin_phase(game, ctx, "fate")
    seat = ctx.s.active
    ctx.update(conquests_left=1 + ("horsemen" in game.abilities(ctx.s, seat)))
    roll = ctx.rng.die(6)
    extra = 1 if "manipulators" in game.abilities(ctx.s, seat) else 0
    draw(game, ctx, seat, roll + extra, f"Fate Phase, rolled {roll}" + (" +1 Manipulators" if extra else ""))
    if "migratory" in game.abilities(ctx.s, seat) and game.seat_moves(ctx.s, seat):
        return  # the player decides: move or stay
    recruit(game, ctx)


def recruit(game: Any, ctx: _Ctx) -> None:
    """RECRUIT PHASE: gain 1D6 Army Tokens (Populous: the better of two rolls); then
    the Event Phase."""
    begin_phase(game, ctx, "recruit")
    seat = ctx.s.active
    rolls = (ctx.rng.die(6),)
    if "populous" in game.abilities(ctx.s, seat):
        rolls = (rolls[0], ctx.rng.die(6))
    gain(
        game,
        ctx,
        seat,
        max(rolls),
        "Recruit Phase" + (" (Populous: better of two)" if len(rolls) > 1 else ""),
        rolls,
    )
    begin_phase(game, ctx, "event")


def move_refusal(game: Any, s: State, seat: Seat, left: Seat | None, right: Seat | None) -> str | None:
    """Why ``seat`` cannot sit between ``right`` and ``left`` now (RULINGS R3); None when it can."""
    moves = game.seat_moves(s, seat)
    if (left, right) in moves:
        return None
    options = [f"between {game.nation_name(s, r)} and {game.nation_name(s, lft)}" for lft, r in moves]
    return (
        "You can only sit between two seats that are next to each other now, and somewhere new; "
        f"choose: {list_words(options)}."
        if options
        else "There is no other place to sit."
    )


def move_seat(game: Any, ctx: _Ctx, seat: Seat, left: Seat, right: Seat, why: str) -> None:
    """``seat`` moves to sit between ``right`` and ``left`` (Migratory; M cards; RULINGS R3)."""
    ring = [x for x in ctx.s.seating if x != seat]
    ring.insert(ring.index(right) + 1, seat)
    ctx.update(seating=tuple(ring))
    s = ctx.s
    ctx.emit(
        SeatingChanged(
            seat=seat,
            who=game.nation_name(s, seat),
            seating=s.seating,
            text=f"{game.nation_name(s, seat)} moved ({why}): now between {game.nation_name(s, right)} and {game.nation_name(s, left)}.",
        )
    )


def fate_refusal(game: Any, s: State, seat: Seat, a: Any) -> str | None:
    """FATE PHASE (Migratory): a move to a new place, or done."""
    if isinstance(a, MoveSeat):
        return move_refusal(game, s, seat, a.left, a.right)
    if not isinstance(a, Done):
        return "In your Fate Phase you may move (Migratory) or say done."
    return None


def apply_fate(game: Any, ctx: _Ctx, seat: Seat, a: Any) -> None:
    """FATE PHASE: the Migratory player moves or stays; then the Recruit Phase."""
    if isinstance(a, MoveSeat):
        move_seat(game, ctx, seat, a.left, a.right, "Migratory")
    recruit(game, ctx)


# ------------------------------------------------------------------ Conquest and End


def begin_conquest(game: Any, ctx: _Ctx) -> None:
    """CONQUEST PHASE begins (and may end at once: :func:`maybe_end_conquest`)."""
    begin_phase(game, ctx, "conquest")
    maybe_end_conquest(game, ctx)


def maybe_end_conquest(game: Any, ctx: _Ctx) -> None:
    """RULINGS R11: with no Conquest Phase left, or nobody it may attack, the
    Conquest Phase ends by itself, unless a Q card in hand would give it another
    Conquest Phase with a neighbour to attack (R10: Q may be played in the Conquest
    Phase; the player is asked)."""
    s = ctx.s
    if game.attack_targets(s):
        return
    could = not s.attack_forbidden and any(t not in s.protected for t in game.neighbours(s, s.active))
    if could and any(game.card(c).has("Q") for c in s.players[s.active].hand):
        return
    end_phase(game, ctx)


def end_phase(game: Any, ctx: _Ctx) -> None:
    """END PHASE: discard down to the hand limit (8; 10 for Skilled); the turn ends
    when the hand is within it."""
    begin_phase(game, ctx, "end")
    seat = ctx.s.active
    if len(ctx.player(seat).hand) <= game.hand_limit(ctx.s, seat):
        next_turn(game, ctx)


def discard_refusal(game: Any, s: State, seat: Seat, a: Any) -> str | None:
    """END PHASE: exactly the cards over the hand limit, each held and named once."""
    p = s.players[seat]
    excess = len(p.hand) - game.hand_limit(s, seat)
    if not isinstance(a, Discard):
        return f"Discard {counted(excess, 'card')} (discard <card>, <card>...)."
    if len(a.cards) != excess or len(set(a.cards)) != len(a.cards):
        return f"Discard exactly {excess} different card{'s' if excess != 1 else ''}; your hand limit is {game.hand_limit(s, seat)}."
    for c in a.cards:
        reason = not_in_hand(game, s, seat, c)
        if reason:
            return reason
    return None


def apply_discard(game: Any, ctx: _Ctx, seat: Seat, a: Discard) -> None:
    """END PHASE: discard ``a.cards``; the next turn begins."""
    remove_cards(ctx, seat, a.cards)
    ctx.emit(Note(text=f"{game.nation_name(ctx.s, seat)} discarded {', '.join(game.names(a.cards))}."))
    next_turn(game, ctx)
