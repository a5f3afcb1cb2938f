"""A turn (rule text: shared/seeds/000): the Start, Main and End Phases around the Main Phase, drawing Power Cards, discards to the hand limit, the next faction's turn, and Winning The Game (with the round-limit house rule, RULINGS.md R20)."""

from __future__ import annotations

from typing import Any

from games.core import (
    IllegalActionError,
    Seat,
)
from games.core.english import count
from games.core.errors import list_words

from ..model import (
    CardsDrawn,
    Die,
    DiscardPower,
    Done,
    GameWon,
    Pass,
    PlayPower,
    Shift,
)
from ..queries import (
    HAND_LIMIT,
    TWO_PLAYER_SECOND,
)
from .context import _Ctx


def begin_turn(game: Any, ctx: _Ctx) -> None:
    """The active faction's turn begins in the Start Phase: the turn's counters are reset and the
    table told (a second turn after Divine Messenger plays no Power Card)."""
    s = ctx.s
    faction = s.active
    second = s.extra_turn
    ctx.update(
        phase="start",
        power_played=0,
        power_limit=0 if second else 1,
        bought=0,
        gray_die_used=False,
        help_moved=(),
        auxiliaries_used=False,
        enrapture_used=False,
        extra_turn=False,
        second_turn=second,
        acted=False,
    )
    if faction in ("christians", "coalition"):
        f = ctx.f(faction)
        ctx.set_f(faction, grace_last=f.grace_now, grace_now=0)
    ctx.note(
        f"Round {s.round}: the {'Roman' if faction == 'rome' else game.fname(faction)} turn"
        + (" (Divine Messenger)" if second else "")
        + "."
    )


def next_turn(game: Any, ctx: _Ctx) -> None:
    """The next faction's turn; a Divine Messenger turn first if one is due."""
    if game._check_victory(ctx):
        return
    s = ctx.s
    if s.extra_turn:
        game._begin_turn(ctx)
        return
    turn = s.turn + 1
    if turn >= len(s.order):
        if s.round_limit is not None and s.round >= s.round_limit:
            game._finish_by_limit(ctx)
            return
        ctx.update(turn=0, round=s.round + 1)
    else:
        ctx.update(turn=turn)
    game._begin_turn(ctx)


def end_start_phase(game: Any, ctx: _Ctx) -> None:
    """Start Phase step 3: Rome may score its claimed "Score in Start Phase" cards."""
    if ctx.s.active == "rome":
        game._score_objectives(ctx, "rome", start=True)
        if ctx.s.scoring is not None:
            return
    game._after_start_scoring(ctx)


def after_start_scoring(game: Any, ctx: _Ctx) -> None:
    """After the Start Phase's scoring: the Main Phase (after an extra roll, if one is pending)."""
    if ctx.s.phase == "over":
        return
    if ctx.s.extra_roll is not None:
        ctx.update(extra_roll=ctx.s.extra_roll.model_copy(update={"resume": "main"}))
        return
    ctx.update(phase="main")


def end_phase_done(game: Any, ctx: _Ctx) -> None:
    """End Phase steps 2-3: draw the purchased Power Cards, discard down to 3,
    then roll and ready."""
    faction = ctx.s.active
    f = ctx.f(faction)
    if ctx.s.bought and faction != "coalition":
        game._draw(ctx, faction, ctx.s.bought, "purchased")
        ctx.update(bought=0)
    if len(ctx.f(faction).hand) > HAND_LIMIT:
        ctx.update(phase="discard")
        return
    game._end_roll(ctx)
    del f


def end_roll(game: Any, ctx: _Ctx) -> None:
    """The Main Phase ends: the dice spent on Power Cards go to Spent; the End Phase begins."""
    faction = ctx.s.active
    f = ctx.f(faction)
    dice = [
        d.model_copy(update={"place": "spent", "seq": False}) if d.place == "power" else d for d in f.dice
    ]
    ctx.set_f(faction, dice=tuple(dice))
    ctx.update(phase="end")
    game._start_rolling(ctx, faction, "end")


def end_scoring(game: Any, ctx: _Ctx) -> None:
    """End Phase steps 4-5: score claimed Objectives and Objective Point Markers;
    the Coalition scores sole occupancy of regions."""
    faction = ctx.s.active
    game._score_objectives(ctx, faction, start=False)
    if ctx.s.scoring is not None:
        return
    game._after_end_scoring(ctx)


def after_end_scoring(game: Any, ctx: _Ctx) -> None:
    """After the End Phase's scoring: the rest of the End Phase (after an extra roll, if one is
    pending)."""
    if ctx.s.phase == "over":
        return
    if ctx.s.extra_roll is not None:
        ctx.update(extra_roll=ctx.s.extra_roll.model_copy(update={"resume": "end_scoring"}))
        return
    game._end_scoring_rest(ctx)


def end_scoring_rest(game: Any, ctx: _Ctx) -> None:
    """The rest of the End Phase's scoring: the Coalition's markers and regions; then the draw and
    the next turn."""
    if ctx.s.active == "coalition":
        game._score_markers(ctx)
        if ctx.s.phase == "over":
            return
        game._score_regions(ctx)
        if ctx.s.regroup is not None:
            return
    if ctx.s.phase != "over":
        game._next_turn(ctx)


def draw(game: Any, ctx: _Ctx, faction: str, n: int, why: str) -> list[str]:
    """Draw ``n`` Power Cards from ``faction``'s deck (the discard pile is shuffled
    into a new deck when it runs out, RULINGS.md R11)."""
    f = ctx.f(faction)
    deck, discard = list(f.deck), list(f.discard)
    got = []
    for _ in range(n):
        if not deck and discard:
            deck = list(ctx.rng.shuffle(discard))
            discard = []
            ctx.note(f"{game.fname(faction)} shuffled the Power Card discard pile into a new deck.")
        if not deck:
            break
        got.append(deck.pop(0))
    ctx.set_f(faction, deck=tuple(deck), discard=tuple(discard), hand=f.hand + tuple(got))
    ctx.note(f"{game.fname(faction)} drew {len(got)} Power Card{'s' if len(got) != 1 else ''} ({why}).")
    ctx.emit(
        CardsDrawn(faction=faction, names=tuple(game.card_name(c) for c in got), visible_to=(f.seat,))
    )
    return got


def apply_start(game: Any, ctx: _Ctx, f: str, a: Any) -> None:
    """The Start Phase: done, pass the whole turn (before anything else), a Start Phase Power Card
    or a Durable card's use."""
    if isinstance(a, Done):
        due = game._aux_due(ctx.s, f)
        if due:
            raise IllegalActionError(
                f"Auxiliaries first: \"During the Start Phase, take 2 units from supply and place them anywhere "
                f"in the Roman Empire\" — place {count(due, 'unit')} (play Auxiliaries: <territory>, <territory>)."
            )
        game._end_start_phase(ctx)
    elif isinstance(a, Pass):
        if ctx.s.acted:
            raise IllegalActionError(
                "You may pass only instead of playing your turn, before doing anything else."
            )
        game._pass_turn(ctx, f)
    elif isinstance(a, PlayPower):
        game._play_power(ctx, f, a, "start")
    elif isinstance(a, Shift):
        game._help_the_wounded(ctx, f, a)
    else:
        raise IllegalActionError(
            "Start Phase: play a Start Phase Power Card, use a Durable card, done, or pass."
        )


def apply_end(game: Any, ctx: _Ctx, f: str, a: Any) -> None:
    """The End Phase: an End Phase Power Card, or done."""
    if isinstance(a, Done):
        game._end_phase_done(ctx)
    elif isinstance(a, PlayPower):
        game._play_power(ctx, f, a, "end")
    else:
        raise IllegalActionError("End Phase: play an End Phase Power Card, or say done.")


def apply_discard(game: Any, ctx: _Ctx, f: str, a: Any) -> None:
    """The End Phase's discard of one Power Card down to the hand limit of 3."""
    hand = ctx.f(f).hand
    if not isinstance(a, DiscardPower) or a.card not in hand:
        raise IllegalActionError(
            f"Discard down to {HAND_LIMIT} Power Cards: discard one of "
            + list_words([game.card_name(c) for c in hand])
            + "."
        )
    game._discard_card(ctx, f, a.card)
    ctx.note(f"{game.fname(f)} discarded {game.card_name(a.card)}.")
    if len(ctx.f(f).hand) <= HAND_LIMIT:
        game._end_roll(ctx)


def discard_card(game: Any, ctx: _Ctx, holder: str, card: str) -> None:
    """Remove ``card`` from ``holder``'s hand to its original faction's discard pile."""
    hand = list(ctx.f(holder).hand)
    hand.remove(card)
    ctx.set_f(holder, hand=tuple(hand))
    owner = game.data.card(card).faction
    ctx.set_f(owner, discard=ctx.f(owner).discard + (card,))


def pass_turn(game: Any, ctx: _Ctx, f: str) -> None:
    """Passing: gather every die (Objective Cards, markers, blocks, Unspent, Spent)
    and roll and ready them for the next turn."""
    ctx.set_f(f, dice=tuple(Die() for _ in ctx.f(f).dice))
    ctx.note(f"{game.fname(f)} passed: all dice are gathered and rolled.")
    ctx.update(phase="end")
    game._start_rolling(ctx, f, "pass")


def check_victory(game: Any, ctx: _Ctx) -> bool:
    """Win checks the moment they occur (Winning The Game; 2-Player Rules: 7 points
    or a special victory with one faction and at least 3 with the other)."""
    s = ctx.s
    if s.phase == "over":
        return True
    winners: list[Seat] = []
    reasons = []
    for fid in s.order:
        why = game.faction_wins(s, fid)
        if why is None:
            continue
        seat = s.factions[fid].seat
        if s.players == 2:
            other = next(f for f in s.order if f != fid and s.factions[f].seat == seat)
            if s.factions[other].points < TWO_PLAYER_SECOND:
                continue
            why += f", with {count(s.factions[other].points, 'point')} for {game.fname(other)}"
        if seat not in winners:
            winners.append(seat)
            reasons.append(why)
    if not winners:
        return False
    game._finish(ctx, tuple(winners), "Victory: " + "; ".join(reasons) + "!")
    return True


def finish(game: Any, ctx: _Ctx, winners: tuple[Seat, ...], text: str) -> None:
    """The game ends: ``winners`` and why."""
    ctx.update(phase="over", winners=winners, end_reason=text, combat=None, window=None, rolling=None)
    ctx.emit(GameWon(winners=winners, text=text))


def finish_by_limit(game: Any, ctx: _Ctx) -> None:
    """House rule (RULINGS.md R20): after the round limit the most points win; with
    2 players the seat whose weaker faction has more points, then the stronger."""
    s = ctx.s
    score: dict[Seat, tuple[int, int]] = {}
    for seat in range(s.players):
        pts = sorted(f.points for fid, f in s.factions.items() if f.seat == seat and fid != "gray")
        score[seat] = (pts[0], pts[-1]) if s.players == 2 else (pts[-1], 0)
    best = max(score.values())
    winners = tuple(x for x in range(s.players) if score[x] == best)
    game._finish(ctx, winners, f"The round limit ({s.round_limit}) is reached: most points win.")


def to_discard(game: Any, ctx: _Ctx, card: str) -> None:
    """A played Power Card goes to the discard pile of the faction whose deck it belongs to."""
    owner = game.data.card(card).faction
    ctx.set_f(owner, discard=ctx.f(owner).discard + (card,))


def return_card(game: Any, ctx: _Ctx, side: str, card: str, attacker: bool) -> None:
    """A combat's Power Card returns to its holder's hand (no longer counted as the attacker's
    play of the turn)."""
    holder = game.hand_owner(side)
    ctx.set_f(holder, hand=ctx.f(holder).hand + (card,))
    if attacker:
        ctx.update(power_played=max(0, ctx.s.power_played - 1))
