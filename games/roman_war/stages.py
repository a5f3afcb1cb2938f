"""Roman War's flow, stated once (games.core.flow): the stages in the order they take
precedence. A Roman who must discard for Power lost at 0 is asked first; then the pending
decision of the card on top of the stack (a response window, a boost, a "choose one", the
team's free level ability, help against the Ambushes: RULINGS.md R13-R16); then the phase
of the turn (rule text "Turn": Cost Zone, purchase, Hannibal's phase in a duel, defense,
main, end). The stack and Hannibal's automatic plays run after each action
(``RomanWar.after_action``)."""

from __future__ import annotations

from typing import Any, ClassVar

from games.core import Prompt, Seat
from games.core.english import count
from games.core.flow import BaseStage, Flow

from .model import (
    Adjust,
    Ambush,
    Assault,
    Choose,
    Defend,
    Discard,
    Done,
    Overflow,
    Pass,
    Pending,
    PickAbility,
    PlaceCost,
    State,
    TakeBoost,
    UseAbility,
)
from .queries import COST_ZONE_PER_TURN, HAND_LIMIT, MAX_MANEUVER, MAX_POWER


def dedupe(actions: list[Any]) -> list[Any]:
    """``actions`` without repeats, in order (two copies of a card are one choice)."""
    return list(dict.fromkeys(actions))


class RomanStage(BaseStage):
    """A stage of Roman War: its refusal is the game's reason (``RomanWar.refusal_reason``)."""

    def refusal(self, game: Any, s: State, seat: Seat, action: Any) -> str | None:
        legal = self.legal_actions(game, s, seat)
        return None if action in legal else game.refusal_reason(s, seat, action, legal)


class OverflowDiscard(RomanStage):
    """Power lost at 0: the Roman discards that many cards from hand or Cost Zone."""

    name = "overflow"
    actions = frozenset({"overflow"})

    def active(self, game: Any, s: State) -> bool:
        return any(r.overflow > 0 for r in s.romans)

    def seats(self, game: Any, s: State) -> tuple[Seat, ...]:
        return next(((x,) for x in s.turn_order if s.romans[x].overflow > 0), ())

    def prompt(self, game: Any, s: State, seat: Seat) -> Prompt:
        n = s.romans[seat].overflow
        return Prompt(
            kind="turn", text=f"Power lost at 0: discard {count(n, 'card')} from hand or Cost Zone."
        )

    def legal_actions(self, game: Any, s: State, seat: Seat) -> list[Any]:
        r = s.romans[seat]
        out = [Overflow(card=c) for c in dict.fromkeys(r.hand)]
        out += [Overflow(card=c.card, source="cost_zone") for c in dict.fromkeys(r.cost_zone)]
        return dedupe(out)

    def apply(self, game: Any, ctx: Any, seat: Seat, action: Any) -> None:
        game._overflow(ctx, seat, action)


class PendingStage(RomanStage):
    """A decision the card on top of the stack waits for (``State.pending``)."""

    pending: ClassVar[str] = ""

    def active(self, game: Any, s: State) -> bool:
        p = game._blocking(s)
        return p is not None and p.kind == self.pending

    def seats(self, game: Any, s: State) -> tuple[Seat, ...]:
        return (s.pending[-1].waiting[0],)

    def decision(self, s: State) -> Pending:
        """The pending decision this stage asks for."""
        return s.pending[-1]


class Respond(PendingStage):
    """A card is on the stack: every seat that could may respond with a fast Tactic (R14)."""

    name = "respond"
    pending = "respond"
    actions = frozenset({"pass", "play"})
    prompt_kind = "respond"

    def seats(self, game: Any, s: State) -> tuple[Seat, ...]:
        return s.pending[-1].waiting

    def prompt(self, game: Any, s: State, seat: Seat) -> Prompt:
        return Prompt(kind="respond", text=game._respond_text(s))

    def legal_actions(self, game: Any, s: State, seat: Seat) -> list[Any]:
        return dedupe([Pass()] + game._card_plays(s, seat, responding=True))

    def apply(self, game: Any, ctx: Any, seat: Seat, action: Any) -> None:
        p = self.decision(ctx.s)
        if isinstance(action, Pass):
            game._pass(ctx, seat, p)
            return
        waiting = tuple(x for x in p.waiting if x != seat)
        ctx.update(pending=ctx.s.pending[:-1] + (p.model_copy(update={"waiting": waiting}),))
        game._play(ctx, seat, action)


class TakeBoosts(PendingStage):
    """A boost of the card on the stack may be taken and paid for (R15)."""

    name = "boost"
    pending = "boost"
    actions = frozenset({"pass", "boost"})

    def prompt(self, game: Any, s: State, seat: Seat) -> Prompt:
        text = "Take a boost of " + game._item_name(s, s.pending[-1].item) + " (boost <n>), or pass."
        return Prompt(kind="respond", text=text)

    def legal_actions(self, game: Any, s: State, seat: Seat) -> list[Any]:
        p = s.pending[-1]
        return dedupe([Pass()] + [TakeBoost(index=i) for i in game._takeable(s, seat, p)])

    def apply(self, game: Any, ctx: Any, seat: Seat, action: Any) -> None:
        p = self.decision(ctx.s)
        if isinstance(action, Pass):
            game._pass(ctx, seat, p)
        else:
            game._take_boost(ctx, seat, p, action.index)


class ChooseOne(PendingStage):
    """A card's "choose one": its player picks an option (R15)."""

    name = "choose"
    pending = "choose"
    actions = frozenset({"choose"})

    def prompt(self, game: Any, s: State, seat: Seat) -> Prompt:
        return Prompt(
            kind="turn", text="Choose one for " + game._item_name(s, s.pending[-1].item) + " (choose <n>)."
        )

    def legal_actions(self, game: Any, s: State, seat: Seat) -> list[Any]:
        return dedupe([Choose(index=i) for i in range(s.pending[-1].options)])

    def apply(self, game: Any, ctx: Any, seat: Seat, action: Any) -> None:
        game._choose(ctx, seat, action, self.decision(ctx.s))


class LevelAbility(PendingStage):
    """Every Roman reached a new Domination Level: the team takes a free level ability."""

    name = "level"
    pending = "level"
    actions = frozenset({"ability"})

    def prompt(self, game: Any, s: State, seat: Seat) -> Prompt:
        text = "All players reached a new Domination Level: take a free level ability for the team."
        return Prompt(kind="turn", text=text)

    def legal_actions(self, game: Any, s: State, seat: Seat) -> list[Any]:
        return dedupe([PickAbility(ability=a) for a in game._unowned(s)])

    def apply(self, game: Any, ctx: Any, seat: Seat, action: Any) -> None:
        game._pick_ability(ctx, seat, action, self.decision(ctx.s))


class HelpDefend(PendingStage):
    """The defense phase is done: teammates may defend the remaining Ambushes from their
    own Cost Zones, or pass."""

    name = "help"
    pending = "help"
    actions = frozenset({"pass", "defend", "play"})

    def prompt(self, game: Any, s: State, seat: Seat) -> Prompt:
        text = "Help defend the remaining Ambushes from your own Cost Zone (defend <ambush>), or pass."
        return Prompt(kind="respond", text=text)

    def legal_actions(self, game: Any, s: State, seat: Seat) -> list[Any]:
        out: list[Any] = [Pass()] + [Defend(target=u) for u in game._defendable(s, seat, helper=True)]
        return dedupe(out + game._card_plays(s, seat, helping=True))

    def apply(self, game: Any, ctx: Any, seat: Seat, action: Any) -> None:
        if isinstance(action, Pass):
            game._pass(ctx, seat, self.decision(ctx.s))
        elif isinstance(action, Defend):
            game._defend(ctx, seat, action)
        else:
            game._play(ctx, seat, action)


class HannibalPhase(RomanStage):
    """A duel's Hannibal phase: the Hannibal seat plays up to its cards, or is done (R17)."""

    name = "hannibal"
    actions = frozenset({"ambush", "done"})

    def active(self, game: Any, s: State) -> bool:
        return s.phase == "hannibal"

    def seats(self, game: Any, s: State) -> tuple[Seat, ...]:
        return (s.hannibal_seat,)  # type: ignore[return-value]

    def prompt(self, game: Any, s: State, seat: Seat) -> Prompt:
        return Prompt(
            kind="turn", text=f"Hannibal: play up to {count(s.hannibal_to_play, 'more card')}, or done."
        )

    def legal_actions(self, game: Any, s: State, seat: Seat) -> list[Any]:
        return game._hannibal_actions(s)

    def apply(self, game: Any, ctx: Any, seat: Seat, action: Any) -> None:
        if isinstance(action, Ambush):
            game._duel_play(ctx, action)
        else:
            game._done(ctx, seat)


class PhaseStage(RomanStage):
    """A phase of the active Roman's turn; ``done`` ends it. With the house rule ``manual``,
    the Cost Zone and main phases also offer adjusting one's own Power and Maneuver."""

    phase: ClassVar[str] = ""
    manual: ClassVar[bool] = False

    def active(self, game: Any, s: State) -> bool:
        return s.phase == self.phase

    def seats(self, game: Any, s: State) -> tuple[Seat, ...]:
        return (s.active,)

    def options(self, game: Any, s: State, seat: Seat) -> list[Any]:
        """The phase's own actions (before the house rule's adjustments)."""
        return []

    def legal_actions(self, game: Any, s: State, seat: Seat) -> list[Any]:
        out = self.options(game, s, seat)
        if self.manual and s.manual:
            r = s.romans[seat]
            out += [Adjust(stat="power", value=v) for v in range(MAX_POWER + 1) if v != r.power]
            out += [Adjust(stat="maneuver", value=v) for v in range(MAX_MANEUVER + 1) if v != r.maneuver]
        return dedupe(out)

    def apply(self, game: Any, ctx: Any, seat: Seat, action: Any) -> None:
        kind = action.kind
        if kind == "done":
            game._done(ctx, seat)
        elif kind == "play":
            game._play(ctx, seat, action)
        elif kind == "rotate":
            game._rotate(ctx, seat, action)
        elif kind == "adjust":
            game._adjust(ctx, seat, action)
        else:
            self.apply_own(game, ctx, seat, action)

    def apply_own(self, game: Any, ctx: Any, seat: Seat, action: Any) -> None:  # pragma: no cover
        raise NotImplementedError(f"{self.name} handles no {action.kind!r}")


class CostPhase(PhaseStage):
    """Cost Zone phase: "Play up to 4 cards face-down from your hand to your Cost Zone"."""

    name = phase = "cost"
    manual = True
    actions = frozenset({"cost", "play", "done", "adjust"})

    def prompt(self, game: Any, s: State, seat: Seat) -> Prompt:
        if s.placed < COST_ZONE_PER_TURN:
            text = (
                f"Cost Zone phase: put up to {count(COST_ZONE_PER_TURN - s.placed, 'more card')} face down "
                "(cost <card>), or done."
            )
        else:
            text = f"Cost Zone phase: you have put {count(COST_ZONE_PER_TURN, 'card')} face down this turn; done."
        return Prompt(kind="turn", text=text)

    def options(self, game: Any, s: State, seat: Seat) -> list[Any]:
        out: list[Any] = []
        if s.placed < COST_ZONE_PER_TURN:
            out += [PlaceCost(card=c) for c in s.romans[seat].hand]
        return out + game._card_plays(s, seat) + [Done()]

    def apply_own(self, game: Any, ctx: Any, seat: Seat, action: Any) -> None:
        game._place_cost(ctx, seat, action)


class PurchasePhase(PhaseStage):
    """After the Cost Zone phase: an optional level ability bought with Cost."""

    name = phase = "purchase"
    actions = frozenset({"ability", "done"})
    prompt_text = "You may buy a level ability with Cost (buy <ability>), or done."

    def options(self, game: Any, s: State, seat: Seat) -> list[Any]:
        return [PickAbility(ability=a, buy=True) for a in game._buyable(s, seat)] + [Done()]

    def apply_own(self, game: Any, ctx: Any, seat: Seat, action: Any) -> None:
        game._pick_ability(ctx, seat, action, None)


class DefensePhase(PhaseStage):
    """Defend the Ambushes (pay R n, or play a Defense card) or suffer Chaos (R9)."""

    name = phase = "defense"
    actions = frozenset({"defend", "play", "rotate", "done"})
    prompt_text = (
        "Defend the Ambushes (defend <ambush>, play a Defense card) or suffer Chaos; done to settle."
    )

    def options(self, game: Any, s: State, seat: Seat) -> list[Any]:
        out: list[Any] = [Defend(target=u) for u in game._defendable(s, seat)]
        return out + game._card_plays(s, seat) + game._rotations(s, seat) + [Done()]

    def apply_own(self, game: Any, ctx: Any, seat: Seat, action: Any) -> None:
        game._defend(ctx, seat, action)


class MainPhase(PhaseStage):
    """Main phase: Maneuver, Encampment, Token and Tactic cards, rotating field cards,
    assaulting Hannibal's Encampments, charged level abilities."""

    name = phase = "main"
    manual = True
    actions = frozenset({"play", "rotate", "assault", "use", "done", "adjust"})
    prompt_text = (
        "Main phase: play Maneuver, Encampment, Token and Tactic cards, rotate field cards, assault; done."
    )

    def options(self, game: Any, s: State, seat: Seat) -> list[Any]:
        out = game._card_plays(s, seat) + game._rotations(s, seat)
        out += [Assault(target=u) for u in game._assaultable(s, seat)]
        return out + [UseAbility(ability=a) for a in game._usable(s)] + [Done()]

    def apply_own(self, game: Any, ctx: Any, seat: Seat, action: Any) -> None:
        if isinstance(action, Assault):
            game._assault(ctx, seat, action)
        else:
            game._use_ability(ctx, seat, action.ability)


class EndPhase(PhaseStage):
    """End phase: discard down to the hand limit (RULINGS.md R4)."""

    name = phase = "end"
    actions = frozenset({"discard"})

    def prompt(self, game: Any, s: State, seat: Seat) -> Prompt:
        return Prompt(kind="turn", text=f"End phase: discard down to {HAND_LIMIT} cards.")

    def options(self, game: Any, s: State, seat: Seat) -> list[Any]:
        return [Discard(card=c) for c in s.romans[seat].hand]

    def apply_own(self, game: Any, ctx: Any, seat: Seat, action: Any) -> None:
        game._discard(ctx, seat, action)


FLOW = Flow(
    [
        OverflowDiscard(),
        Respond(),
        TakeBoosts(),
        ChooseOne(),
        LevelAbility(),
        HelpDefend(),
        HannibalPhase(),
        CostPhase(),
        PurchasePhase(),
        DefensePhase(),
        MainPhase(),
        EndPhase(),
    ]
)
"""Roman War's flow: who is asked, what is legal and who handles an action all read it."""
