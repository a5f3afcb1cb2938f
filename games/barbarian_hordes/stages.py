"""Barbarian Hordes' flow, stated once (games.core.flow): the stages in the order they
take precedence (rule text: shared/seeds/004). A war's secret commitments and then the negating of revealed Leader
cards (CONQUEST PHASE; RULINGS R5, R7); a response window on top of the phase (a K card
against a Leader card just played, the opponents' cards in an Event Phase; R6, R7); then
the active player's phase: Fate (Migratory), Event, Conquest, End; the nation draft and a
wiped-out player's re-entry (THE NATIONS, DEFEAT). The Recruit Phase and the dice ask
nobody: they run inside the action that leads to them, so no stage is automatic.

An S card (look at a hand) may be played whenever a seat is asked in a phase, a window
or a war (RULINGS R12): each of those stages offers and takes it."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from math import comb
from typing import Any, ClassVar

from games.core import ActionSpace, Prompt, Seat
from games.core.english import count as counted
from games.core.flow import BaseStage, Flow
from games.core.space import combination_at

from .model import Attack, Discard, Done, MoveSeat, Pass, PickNation, PlayCard, State
from .rules.cards import (
    apply_event,
    apply_window,
    event_refusal,
    is_s_play,
    play_s,
    s_refusal,
    window_refusal,
)
from .rules.conquest import apply_conquest, conquest_refusal
from .rules.setup import apply_pick, pick_refusal
from .rules.turn import apply_discard, apply_fate, discard_refusal, fate_refusal, next_turn
from .rules.war import apply_commit, apply_negate, commit_refusal, negate_refusal

ALL_KINDS = frozenset({"pick", "move", "play", "attack", "fight", "support", "block", "discard", "done", "pass"})
"""Every action kind: the current stage takes any action and says why one does not fit it."""

Refusal = Callable[[Any, State, Seat, Any], "str | None"]
Apply = Callable[[Any, Any, Seat, Any], None]


class HordesStage(BaseStage):
    """A stage of Barbarian Hordes: its refusal and effect are rule functions of rules/
    (``check`` and ``effect``); the stages marked ``s_cards`` also take S cards (R12)."""

    actions = ALL_KINDS
    s_cards: ClassVar[bool] = True
    check: ClassVar[Refusal]
    effect: ClassVar[Apply]

    def __init__(self) -> None:
        # the stage's fixed question, built once (a Prompt is immutable)
        self._prompt = Prompt(kind=self.prompt_kind, text=self.prompt_text)  # type: ignore[arg-type]

    def prompt(self, game: Any, s: State, seat: Seat) -> Prompt:
        """The stage's fixed question (``prompt_kind``, ``prompt_text``)."""
        return self._prompt

    def refusal(self, game: Any, s: State, seat: Seat, action: Any) -> str | None:
        if self.s_cards and is_s_play(game, action):
            return s_refusal(game, s, seat, action)
        return type(self).check(game, s, seat, action)

    def apply(self, game: Any, ctx: Any, seat: Seat, action: Any) -> None:
        if self.s_cards and is_s_play(game, action):
            play_s(game, ctx, seat, action)
        else:
            type(self).effect(game, ctx, seat, action)


class PhaseStage(HordesStage):
    """A phase of the active player's turn (A TURN)."""

    phase: ClassVar[str] = ""

    def active(self, game: Any, s: State) -> bool:
        return s.phase == self.phase

    def seats(self, game: Any, s: State) -> Sequence[Seat]:
        return (s.active,)


class Draft(PhaseStage):
    """THE NATIONS: the first seat in turn order without a nation picks one."""

    name = "nation draft"
    phase = "draft"
    s_cards = False
    prompt_text = "Pick your nation."
    check = staticmethod(pick_refusal)
    effect = staticmethod(apply_pick)

    def seats(self, game: Any, s: State) -> Sequence[Seat]:
        return (game.drafter(s),)

    def legal_actions(self, game: Any, s: State, seat: Seat) -> list[Any]:
        return [PickNation(nation=n) for n in game.nation_pool(s, reentry=False)]


class Reentry(PhaseStage):
    """DEFEAT: a wiped-out player may re-enter as a nation not yet played, or stay out (R13)."""

    name = "re-entry"
    phase = "reentry"
    s_cards = False
    prompt_text = (
        "You were wiped out: you may re-enter the game as a new nation (pick <nation>),"
        " or pass to stay out of the game for good."
    )
    check = staticmethod(pick_refusal)
    effect = staticmethod(apply_pick)

    def legal_actions(self, game: Any, s: State, seat: Seat) -> list[Any]:
        # DEFEAT: "He may renter the game" — a choice (RULINGS R13)
        return [PickNation(nation=n) for n in game.nation_pool(s, reentry=True)] + [Pass()]


class WarCommit(HordesStage):
    """CONQUEST PHASE: every seat in play commits to the war in secret."""

    name = "war commitments"
    check = staticmethod(commit_refusal)
    effect = staticmethod(apply_commit)

    def active(self, game: Any, s: State) -> bool:
        return s.war is not None and s.war.stage == "commit"

    def seats(self, game: Any, s: State) -> Sequence[Seat]:
        return s.war.waiting

    def prompt(self, game: Any, s: State, seat: Seat) -> Prompt:
        return Prompt(kind="secret", text=game.commit_text(s, seat))

    def legal_actions(self, game: Any, s: State, seat: Seat) -> ActionSpace:
        return game.war_space(s, seat)


class WarNegate(WarCommit):
    """After the reveal: revealed Leader cards may be negated with K cards (RULINGS R7)."""

    name = "negate Leader cards"
    prompt_kind = "respond"
    prompt_text = "Leader cards were revealed: negate one with a K card, or pass."
    check = staticmethod(negate_refusal)
    effect = staticmethod(apply_negate)

    def active(self, game: Any, s: State) -> bool:
        return s.war is not None and s.war.stage == "negate"

    def prompt(self, game: Any, s: State, seat: Seat) -> Prompt:
        return self._prompt


class ResponseWindow(HordesStage):
    """The window on top: a K card against the Leader card just played (R7), or the
    opponents' X, P and I cards at the end of an Event Phase (R6); or pass."""

    name = "response window"
    check = staticmethod(window_refusal)
    effect = staticmethod(apply_window)

    def active(self, game: Any, s: State) -> bool:
        return bool(s.windows)

    def seats(self, game: Any, s: State) -> Sequence[Seat]:
        return s.windows[-1].waiting

    def prompt(self, game: Any, s: State, seat: Seat) -> Prompt:
        return Prompt(kind="respond", text=s.windows[-1].reason)

    def legal_actions(self, game: Any, s: State, seat: Seat) -> list[Any]:
        w = s.windows[-1]
        hand = s.players[seat].hand
        out: list[Any] = [Pass()]
        if w.kind == "negate":
            out += [PlayCard(card=c, negate=w.leader.card) for c in hand if game.card(c).has("K")]
        else:
            out += [PlayCard(card=c) for c in hand if game.opponent_card(game.card(c))]
        return out + game.s_plays(s, seat)


class Fate(PhaseStage):
    """FATE PHASE: a Migratory player may change its seating position."""

    name = "Fate Phase"
    phase = "fate"
    prompt_text = "Fate Phase: you may change your seating position (Migratory), or say done."
    check = staticmethod(fate_refusal)
    effect = staticmethod(apply_fate)

    def legal_actions(self, game: Any, s: State, seat: Seat) -> list[Any]:
        moves = [MoveSeat(left=lft, right=rgt) for lft, rgt in game.seat_moves(s, seat)]
        return [Done(), *moves, *game.s_plays(s, seat)]


class Event(PhaseStage):
    """EVENT PHASE: the active player plays Event cards (RULINGS R3, R8-R10)."""

    name = "Event Phase"
    phase = "event"
    prompt_text = "Event Phase: play Event cards, or say done."
    check = staticmethod(event_refusal)
    effect = staticmethod(apply_event)

    def legal_actions(self, game: Any, s: State, seat: Seat) -> list[Any]:
        out: list[Any] = [Done()]
        for c in s.players[seat].hand:
            card = game.card(c)
            if card.has("M"):
                out += [PlayCard(card=c, left=lft, right=rgt) for lft, rgt in game.seat_moves(s, seat)]
            elif game.event_card(s, seat, card):
                out.append(PlayCard(card=c))
        return out + game.s_plays(s, seat)


class Conquest(PhaseStage):
    """CONQUEST PHASE: attack a neighbour, play a Q card, or end it (RULINGS R10, R11)."""

    name = "Conquest Phase"
    phase = "conquest"
    check = staticmethod(conquest_refusal)
    effect = staticmethod(apply_conquest)

    def prompt(self, game: Any, s: State, seat: Seat) -> Prompt:
        if s.conquests_left <= 0:
            return Prompt(
                kind="turn",
                text="Conquest Phase: you have no Conquest Phase left; play a Q card for another, or say done.",
            )
        return Prompt(kind="turn", text="Conquest Phase: attack a neighbour, or say done.")

    def legal_actions(self, game: Any, s: State, seat: Seat) -> list[Any]:
        out: list[Any] = [Done()] + [Attack(target=t) for t in game.attack_targets(s)]
        out += [PlayCard(card=c) for c in s.players[seat].hand if game.card(c).has("Q")]
        return out + game.s_plays(s, seat)


class End(PhaseStage):
    """END PHASE: discard down to the hand limit (8; 10 for Skilled); an S card may be
    played here too ("play anytime", R12), and a hand it brings within the limit ends the turn."""

    name = "End Phase"
    phase = "end"
    check = staticmethod(discard_refusal)
    effect = staticmethod(apply_discard)

    def apply(self, game: Any, ctx: Any, seat: Seat, action: Any) -> None:
        super().apply(game, ctx, seat, action)
        if is_s_play(game, action) and len(ctx.player(seat).hand) <= game.hand_limit(ctx.s, seat):
            next_turn(game, ctx)

    def prompt(self, game: Any, s: State, seat: Seat) -> Prompt:
        limit = game.hand_limit(s, s.active)
        excess = len(s.players[s.active].hand) - limit
        return Prompt(kind="turn", text=f"End Phase: discard {counted(excess, 'card')} (hand limit {limit}).")

    def legal_actions(self, game: Any, s: State, seat: Seat) -> ActionSpace:
        hand = s.players[seat].hand
        excess = len(hand) - game.hand_limit(s, seat)
        discards = (comb(len(hand), excess), lambda i: Discard(cards=combination_at(hand, excess, i)))
        return ActionSpace(discards, game.s_plays(s, seat))


FLOW = Flow([WarCommit(), WarNegate(), ResponseWindow(), Fate(), Event(), Conquest(), End(), Draft(), Reentry()])
"""The flow of Barbarian Hordes, in precedence order: a war, then a window, over the phase
of the turn. The draft and re-entry come last: no war, window or other phase is open
while a nation is picked, and the phases of play are asked far more often."""
