"""CONQUEST PHASE (rule text: shared/seeds/004): attack a neighbour to start a war, play
a Q card for another Conquest Phase, or end the phase (RULINGS R10, R11)."""

from __future__ import annotations

from typing import Any

from games.core import Seat
from games.core.errors import list_words
from games.core.window import seats_after

from ..model import Attack, Done, PlayCard, State, WarDeclared, WarState
from .cards import play_card
from .common import not_in_hand
from .context import _Ctx
from .turn import end_phase


def attack_refusal(game: Any, s: State, seat: Seat, a: Attack) -> str:
    """Why ``a.target`` cannot be attacked: an I card, no Conquest Phase left, a P card,
    or not a neighbour; and who may be attacked."""
    names = [game.nation_name(s, t) for t in game.attack_targets(s)]
    if s.attack_forbidden:
        why = "an I card forbids you to attack this turn"
    elif s.conquests_left <= 0:
        why = "you have no Conquest Phase left (a Q card gives another)"
    elif a.target in s.protected:
        why = f"{game.nation_name(s, a.target)} played a P card: you may not attack them this turn"
    else:
        why = "you may only attack the neighbour to your immediate left or right"
    return f"You cannot attack that seat: {why}. You may attack: {list_words(names)}."


def conquest_refusal(game: Any, s: State, seat: Seat, a: Any) -> str | None:
    """CONQUEST PHASE: attack a neighbour it may attack, play a Q card, or done."""
    if isinstance(a, Done):
        return None
    if isinstance(a, PlayCard):
        reason = not_in_hand(game, s, seat, a.card)
        if reason:
            return reason
        card = game.card(a.card)
        if not card.has("Q"):
            return (
                f"{card.display} cannot be played now: in the Conquest Phase only Q cards (an extra Conquest "
                "Phase) and S cards (look at a hand: play anytime) are played (Card List Notation)."
            )
        return None
    if not isinstance(a, Attack):
        return "Conquest Phase: attack a neighbour (attack <nation>) or say done."
    if a.target not in game.attack_targets(s):
        return attack_refusal(game, s, seat, a)
    return None


def apply_conquest(game: Any, ctx: _Ctx, seat: Seat, a: Any) -> None:
    """CONQUEST PHASE: done ends it (the End Phase follows), a Q card is played, or an
    attack declares war: every seat in play commits in secret, the attacker first."""
    s = ctx.s
    if isinstance(a, Done):
        end_phase(game, ctx)
        return
    if isinstance(a, PlayCard):
        play_card(game, ctx, seat, a.card)
        return
    waiting = (seat,) + seats_after(game.living(s), seat)
    ctx.update(war=WarState(attacker=seat, defender=a.target, waiting=waiting))
    ctx.emit(
        WarDeclared(
            attacker=seat,
            defender=a.target,
            text=f"War! {game.nation_name(s, seat)} against {game.nation_name(s, a.target)}. Everyone commits in secret.",
        )
    )
