"""A player's actions: playing and rotating cards, boosts, passes, abilities, overflow discards, the
house rule's adjustments and Hannibal's duel plays."""

from __future__ import annotations

from games.core import (
    Seat,
)
from games.core.english import count

from ..data import ABILITY_COST
from ..model import (
    Adjust,
    Ambush,
    Assault,
    CardPlayed,
    Choose,
    CostCard,
    Defend,
    Discard,
    Note,
    Overflow,
    Pending,
    PickAbility,
    PlaceCost,
    PlayCard,
    PowerChanged,
    Rotate,
    StackItem,
    State,
)
from ..queries import (
    CHARGED_ABILITIES,
    DELIVERANCE_BREAKS,
    DUEL_MAX_HANNIBAL_HAND,
    RESTORATION_CARDS,
)
from .context import _Ctx


class PlayRules:
    """The effect of each player's action."""

    def _play(self, ctx: _Ctx, seat: Seat, a: PlayCard) -> None:
        """Step one: pay for the card and play it (it goes on the stack; R13)."""
        s = ctx.s
        card = self.card(a.card)
        r = ctx.roman(seat)
        if a.source == "hand":
            hand = list(r.hand)
            hand.remove(a.card)
            ctx.set_roman(seat, hand=tuple(hand))
        else:
            cz = list(r.cost_zone)
            i = next(i for i, c in enumerate(cz) if c.card == a.card and c.face_up and not c.tapped)
            cz.pop(i)
            ctx.set_roman(seat, cost_zone=tuple(cz))
        fee = self.fee_for(s, card)
        self._pay(ctx, seat, card.cost + fee)
        speed = s.phase != "main" and card.type in ("Maneuver", "Encampment")
        if speed:
            ctx.update(speed_used=True)
        horse = a.to is not None and not card.needs_ally
        if horse:
            ctx.update(horse_used=True)
        item = StackItem(
            uid=ctx.uid(),
            kind="card",
            seat=seat,
            card=a.card,
            to=a.to,
            target=a.target,
            fee=bool(fee),
            speed=speed,
        )
        ctx.update(stack=ctx.s.stack + (item,))
        bits = [f"{self.who(s, seat)} plays {card.name} (C{card.cost}{f' + fee C{fee}' if fee else ''})"]
        if a.source == "cost_zone":
            bits.append("from the Cost Zone")
        if a.target is not None:
            bits.append(f"against {self.name(self._ambush(s, a.target).card)}")
        if a.to is not None:
            bits.append(("for " if not horse else "redirected by Brotherly Horse to ") + self.who(s, a.to))
        if speed:
            bits.append("(Speed)")
        ctx.emit(CardPlayed(seat=seat, card=a.card, text=" ".join(bits) + f": {card.line()}"))

    def _rotate(self, ctx: _Ctx, seat: Seat, a: Rotate) -> None:
        r = ctx.roman(seat)
        f = next(f for f in r.field if f.uid == a.uid)
        ctx.set_roman(
            seat, field=tuple(x.model_copy(update={"tapped": True}) if x.uid == a.uid else x for x in r.field)
        )
        ctx.emit(
            Note(
                text=f"{self.who(ctx.s, seat)} rotates {self.name(f.card)}"
                + "".join(f" + {self.name(c)}" for c in f.attached)
                + "."
            )
        )
        item = StackItem(uid=0, kind="card", seat=seat, card=f.card, target=a.target)
        for cid in (f.card, *f.attached):
            for e in self.card(cid).rotate:
                self._effect(ctx, item, e, redirect=False)

    def _take_boost(self, ctx: _Ctx, seat: Seat, p: Pending, index: int) -> None:
        item = ctx.item(p.item)
        b = self.card(item.card).boosts[index]
        cost = self._boost_cost(ctx.s, item, b, seat)
        self._pay(ctx, seat, cost)
        ctx.set_item(item.uid, taken=item.taken + (index,), boosted=True)
        boost = StackItem(
            uid=ctx.uid(),
            kind="boost",
            seat=item.seat,
            card=item.card,
            boost=index,
            parent=item.uid,
            payer=seat,
        )
        ctx.update(stack=ctx.s.stack + (boost,))
        fee = " (with the Target-Change fee)" if b.payer == "ally" and self.solo(ctx.s) else ""
        ctx.emit(
            Note(
                text=f"{self.who(ctx.s, seat)} pays C{cost}{fee} for boost {index + 1} of {self.name(item.card)}: {b.line()}."
            )
        )

    def _pass(self, ctx: _Ctx, seat: Seat, p: Pending) -> None:
        waiting = tuple(x for x in p.waiting if x != seat)
        ctx.update(pending=ctx.s.pending[:-1] + (p.model_copy(update={"waiting": waiting}),))

    def _helps(self, s: State, seat: Seat) -> bool:
        """Whether ``seat`` is asked to help defend: it can pay from its Cost Zone, or it may
        hold a Defense card it could play, as far as the table can tell (R23)."""
        return bool(self._defendable(s, seat, helper=True) or self._could_play(s, seat, helping=True))

    def _pick_ability(self, ctx: _Ctx, seat: Seat, a: PickAbility, p: Pending | None) -> None:
        ab = self.data.abilities[a.ability]
        if a.buy:
            cost = ABILITY_COST[ab.tier]
            self._pay(ctx, seat, cost)
            how = f"bought by {self.who(ctx.s, seat)} for {cost} Cost"
        else:
            ctx.update(pending=ctx.s.pending[:-1])
            how = "chosen free for reaching a new Domination Level"
        ctx.update(abilities=ctx.s.abilities + (a.ability,))
        if not self._unowned(ctx.s):  # nothing left to pick: a free pick still waiting lapses (R7)
            ctx.update(pending=tuple(p for p in ctx.s.pending if p.kind != "level"))
        if a.ability in CHARGED_ABILITIES:
            ctx.update(charged=ctx.s.charged + (a.ability,))
        ctx.emit(Note(text=f"The Roman team gains {ab.display} ({how}): {ab.text}"))
        if a.buy and not self._buyable(ctx.s, seat):
            self._to_hannibal(ctx)

    def _use_ability(self, ctx: _Ctx, seat: Seat, ability: str) -> None:
        ctx.update(charged=tuple(x for x in ctx.s.charged if x != ability))
        if ability == "restoration":
            ctx.emit(Note(text=f"{self.who(ctx.s, seat)} uses Restoration."))
            for x in self.roman_seats(ctx.s):
                self._recover(ctx, x, RESTORATION_CARDS, "Restoration")
        else:
            ctx.emit(Note(text=f"{self.who(ctx.s, seat)} uses Deliverance."))
            self._break(ctx, DELIVERANCE_BREAKS, "Deliverance")

    def _overflow(self, ctx: _Ctx, seat: Seat, a: Overflow) -> None:
        r = ctx.roman(seat)
        if a.source == "hand":
            hand = list(r.hand)
            hand.remove(a.card)
            ctx.set_roman(seat, hand=tuple(hand))
        else:
            cz = list(r.cost_zone)
            i = max(
                (i for i, c in enumerate(cz) if c.card == a.card),
                key=lambda i: (cz[i].tapped, not cz[i].face_up, i),
            )
            cz.pop(i)
            ctx.set_roman(seat, cost_zone=tuple(cz))
        r = ctx.roman(seat)
        left = r.overflow - 1
        if not r.hand and not r.cost_zone:
            left = 0
        ctx.set_roman(seat, discard=r.discard + (a.card,), overflow=left)
        where = "hand" if a.source == "hand" else "Cost Zone"
        ctx.emit(
            Note(text=f"Overflow: {self.who(ctx.s, seat)} discards {self.name(a.card)} from the {where}.")
        )

    def _adjust(self, ctx: _Ctx, seat: Seat, a: Adjust) -> None:
        who = self.who(ctx.s, seat)
        ctx.emit(Note(text=f"House rule: {who} sets {a.stat.title()} to {a.value} by hand."))
        if a.stat == "power":
            r = ctx.roman(seat)
            ctx.set_roman(seat, power=a.value)
            ctx.emit(
                PowerChanged(
                    seat=seat, who=who, delta=a.value - r.power, power=a.value, reason="adjusted by hand"
                )
            )
        else:
            self._set_maneuver(ctx, seat, a.value, "adjusted by hand")

    def _duel_play(self, ctx: _Ctx, a: Ambush) -> None:
        hand = list(ctx.s.hannibal_hand)
        hand.remove(a.card)
        ctx.update(hannibal_hand=tuple(hand), hannibal_to_play=ctx.s.hannibal_to_play - 1)
        self._hannibal_play(ctx, a.card, a.target)

    def _done(self, ctx: _Ctx, seat: Seat) -> None:
        s = ctx.s
        if s.phase == "cost":
            self._after_cost(ctx)
        elif s.phase == "purchase":
            self._to_hannibal(ctx)
        elif s.phase == "hannibal":
            extra = len(s.hannibal_hand) - DUEL_MAX_HANNIBAL_HAND
            if extra > 0:
                hand = list(s.hannibal_hand)
                gone = [hand.pop(ctx.rng.below(len(hand))) for _ in range(extra)]
                ctx.update(hannibal_hand=tuple(hand), hannibal_discard=s.hannibal_discard + tuple(gone))
                ctx.emit(
                    Note(
                        text=f"Hannibal discards {count(extra, 'card')} at random down to {DUEL_MAX_HANNIBAL_HAND}."
                    )
                )
            self._to_defense(ctx)
        elif s.phase == "defense":
            helpers = tuple(x for x in s.turn_order if x != seat and self._helps(s, x))
            if helpers and any(not a.defended for a in s.ambushes):
                ctx.update(pending=s.pending + (Pending(kind="help", waiting=helpers),))
            else:
                self._settle(ctx)
        elif s.phase == "main":
            ctx.update(phase="end")

    def _choose(self, ctx: _Ctx, seat: Seat, a: Choose, p: Pending) -> None:
        """A card's "choose one": the option taken by the card on the stack (RULINGS.md R15)."""
        ctx.set_item(p.item, choice=a.index)
        ctx.update(pending=ctx.s.pending[:-1])

    def _place_cost(self, ctx: _Ctx, seat: Seat, a: PlaceCost) -> None:
        """Cost Zone phase: a card of the hand face down into the Cost Zone."""
        s = ctx.s
        r = ctx.roman(seat)
        hand = list(r.hand)
        hand.remove(a.card)
        ctx.set_roman(seat, hand=tuple(hand), cost_zone=r.cost_zone + (CostCard(card=a.card),))
        ctx.update(placed=s.placed + 1)
        ctx.emit(Note(text=f"{self.who(s, seat)} puts a card face down in the Cost Zone."))

    def _defend(self, ctx: _Ctx, seat: Seat, a: Defend) -> None:
        """Defend an Ambush by paying its R n / R X from the Cost Zone (R9)."""
        s = ctx.s
        self._pay(ctx, seat, self.ambush_cost(s, self._ambush(s, a.target).card))
        self._mark_defended(
            ctx,
            a.target,
            f"{self.who(s, seat)} pays R{self.ambush_cost(s, self._ambush(s, a.target).card)}",
        )

    def _assault(self, ctx: _Ctx, seat: Seat, a: Assault) -> None:
        """Main phase: pay a Hannibal's Encampment's R n to break it."""
        s = ctx.s
        enc = next(e for e in s.encampments if e.uid == a.target)
        cost = self.hcard(enc.card).defense
        self._pay(ctx, seat, cost)
        self._break_one(ctx, enc.uid, f"{self.who(s, seat)} assaults it (R{cost})")

    def _discard(self, ctx: _Ctx, seat: Seat, a: Discard) -> None:
        """End phase: discard a card down to the hand limit (RULINGS.md R4)."""
        s = ctx.s
        r = ctx.roman(seat)
        hand = list(r.hand)
        hand.remove(a.card)
        ctx.set_roman(seat, hand=tuple(hand), discard=r.discard + (a.card,))
        ctx.emit(Note(text=f"{self.who(s, seat)} discards {self.name(a.card)} (hand limit)."))
