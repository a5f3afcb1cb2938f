"""The card-play stack: the five steps of every play, response windows, boosts and failed Ambushes
(RULINGS.md R13-R16), and the automatic flow that runs it after each action."""

from __future__ import annotations

from games.core import (
    Seat,
)

from ..model import (
    FieldCard,
    Note,
    Pending,
    StackItem,
    State,
)
from ..queries import (
    HAND_LIMIT,
    MAX_MANEUVER,
)
from .context import _Ctx


class StackRules:
    """The stack and the automatic flow."""

    def _run(self, ctx: _Ctx) -> None:
        """Advance the automatic flow until someone must decide or the game is over."""
        for _ in range(10_000):
            s = ctx.s
            if s.phase == "over":
                return
            for x, r in enumerate(s.romans):
                if r.overflow and not r.hand and not r.cost_zone:
                    ctx.set_roman(x, overflow=0)  # nothing left to discard
            s = ctx.s
            if any(r.overflow > 0 for r in s.romans):
                return
            if s.pending:
                p = s.pending[-1]
                if p.kind in ("respond", "boost", "help"):
                    waiting = p.waiting
                    if p.kind == "boost":
                        waiting = tuple(x for x in waiting if self._takeable(s, x, p))
                    if p.kind == "help":
                        waiting = tuple(x for x in waiting if self._helps(s, x))
                    if p.kind == "respond":
                        waiting = tuple(x for x in waiting if self._could_respond(s, x))
                    if waiting != p.waiting:
                        p = p.model_copy(update={"waiting": waiting})
                        ctx.update(pending=s.pending[:-1] + (p,))
                    if not waiting:
                        ctx.update(pending=s.pending[:-1])
                        if p.kind == "help":
                            self._settle(ctx)
                        continue
                if self._blocking(ctx.s) is not None:
                    return
                if p.item is not None and ctx.item(p.item) is None:
                    ctx.update(pending=ctx.s.pending[:-1])  # its item left the stack (countered)
                    continue
            s = ctx.s
            if s.stack:
                self._step_item(ctx, s.stack[-1])
                continue
            if s.settling:
                self._settle_next(ctx)
                continue
            if s.phase == "end" and len(s.romans[s.active].hand) <= HAND_LIMIT:
                self._end_turn(ctx)
                continue
            return
        raise RuntimeError("the flow did not settle")  # pragma: no cover

    def _step_item(self, ctx: _Ctx, item: StackItem) -> None:
        s = ctx.s
        if item.stage == "new":
            if item.kind == "ambush":
                ctx.set_item(item.uid, stage="text")
                responders = self._responders(s, item)
                if responders:
                    ctx.update(
                        pending=s.pending + (Pending(kind="respond", waiting=responders, item=item.uid),)
                    )
            elif item.kind == "boost":
                ctx.set_item(item.uid, stage="text")
            else:
                ctx.set_item(item.uid, stage="pre")
            return
        if item.kind == "card" and item.stage in ("pre", "post"):
            card = self.card(item.card)
            boosts = card.pre_boosts() if item.stage == "pre" else card.post_boosts()
            ctx.set_item(item.uid, stage="text" if item.stage == "pre" else "done")
            payers = self._payers(ctx.s, ctx.item(item.uid), boosts) if boosts else ()
            if payers:
                ctx.update(
                    pending=ctx.s.pending
                    + (Pending(kind="boost", waiting=payers, item=item.uid, boosts=boosts),)
                )
            return
        if item.stage == "text":
            if item.kind == "card":
                self._resolve_card(ctx, item)
            elif item.kind == "boost":
                self._resolve_boost(ctx, item)
            else:
                self._resolve_ambush(ctx, item)
            return
        # done: leave the stack
        ctx.update(stack=tuple(i for i in ctx.s.stack if i.uid != item.uid))
        if item.kind == "card" and self.card(item.card).type not in ("Encampment", "Token"):
            r = ctx.roman(item.seat)
            ctx.set_roman(item.seat, discard=r.discard + (item.card,))
        elif item.kind == "ambush":
            ctx.update(hannibal_discard=ctx.s.hannibal_discard + (item.card,))

    def _responders(self, s: State, item: StackItem) -> tuple[Seat, ...]:
        """Romans who could hold a fast Tactic they can pay for (R15, R23), the Ambush's
        target first: judged from what everyone sees, never from the hands."""
        order = [item.seat] + [x for x in s.turn_order if x != item.seat]
        return tuple(x for x in order if self._could_respond(s, x))

    def _could_respond(self, s: State, seat: Seat) -> bool:
        """Whether ``seat`` may be holding a fast card it can pay for now, as far as the
        table can tell (R23)."""
        return self._could_play(s, seat, responding=True)

    def _could_play(self, s: State, seat: Seat, *, responding: bool = False, helping: bool = False) -> bool:
        """Whether ``seat`` may hold a card it could play now in a response window
        (``responding``: a fast card) or to help defend (``helping``: a Defense card), as
        far as the table can tell (R23): a face-up Cost Zone card it can play, or a card in
        hand while its deck list has such a card whose cost its untapped Cost Zone covers
        (and, for a defending card, an Ambush it could defend). The hand itself is never
        looked at, so who is asked says nothing about it."""
        plays = self._card_plays(s, seat, responding=responding, helping=helping)
        if any(p.source == "cost_zone" for p in plays):
            return True
        r = s.romans[seat]
        if not r.hand:
            return False
        spare = self.untapped(s, seat)
        for cid in self.data.decks[r.deck_id].cards:
            c = self.card(cid)
            if not (c.fast if responding else c.type == "Defense"):
                continue
            if c.cost + self.fee_for(s, c) > spare:
                continue
            if c.defends and not list(self._defendable(s, seat, own=True, max_cost=None)):
                continue
            return True
        return False

    def _resolve_card(self, ctx: _Ctx, item: StackItem) -> None:
        """Step four: the card's rules text (after any boosts printed at the top or fast)."""
        card = self.card(item.card)
        if card.choose and not (item.boosted and card.choose_all_if_boosted) and item.choice is None:
            ctx.update(
                pending=ctx.s.pending
                + (Pending(kind="choose", waiting=(item.seat,), item=item.uid, options=len(card.choose)),)
            )
            return
        ctx.set_item(item.uid, stage="post")
        effects = list(card.effects)
        if item.boosted:
            effects += card.if_boosted
        if card.choose:
            if item.boosted and card.choose_all_if_boosted:
                effects += [e for opt in card.choose for e in opt]
                ctx.emit(Note(text=f"{card.name} was boosted: both are done."))
            else:
                effects += card.choose[item.choice]
        for e in effects:
            self._effect(ctx, item, e, redirect=True)
            if ctx.s.phase == "over":
                return
        if card.type == "Maneuver":
            r = ctx.roman(item.seat)
            if r.maneuver < MAX_MANEUVER:
                self._set_maneuver(ctx, item.seat, r.maneuver + 1, f"{card.name} resolved")
        elif card.type in ("Encampment", "Token"):
            self._enter_field(ctx, item.seat, item.card)

    def _resolve_boost(self, ctx: _Ctx, item: StackItem) -> None:
        b = self.card(item.card).boosts[item.boost]
        if b.choose and item.choice is None:
            ctx.update(
                pending=ctx.s.pending
                + (Pending(kind="choose", waiting=(item.seat,), item=item.uid, options=len(b.choose)),)
            )
            return
        ctx.set_item(item.uid, stage="done")
        effects = list(b.effects) + (list(b.choose[item.choice]) if b.choose else [])
        for e in effects:
            self._effect(ctx, item, e, redirect=False)

    def _resolve_ambush(self, ctx: _Ctx, item: StackItem) -> None:
        """A failed Ambush resolves: Chaos — H-1 (overflow at 0) and its own effects."""
        ctx.set_item(item.uid, stage="done")
        h = self.hcard(item.card)
        ctx.emit(Note(text=f"Chaos: {h.name} was not defended ({self.who(ctx.s, item.seat)})."))
        if item.shielded:
            ctx.emit(Note(text="Testudo: no Power is lost."))
        else:
            self._lose(ctx, item.seat, 1, f"{h.name} failed")
        for e in h.chaos:
            self._hannibal_effect(ctx, item.seat, e, h.name)

    def _enter_field(self, ctx: _Ctx, seat: Seat, card_id: str) -> None:
        r = ctx.roman(seat)
        card = self.card(card_id)
        hosts = [f for f in r.field if self.card(f.card).type == "Encampment"]
        if card.attach and hosts:
            host = min(hosts, key=lambda f: (len(f.attached), f.uid))
            field = tuple(
                f.model_copy(update={"attached": f.attached + (card_id,)}) if f.uid == host.uid else f
                for f in r.field
            )
            ctx.set_roman(seat, field=field)
            ctx.emit(
                Note(text=f"{card.name} is attached to {self.who(ctx.s, seat)}'s {self.name(host.card)}.")
            )
            return
        ctx.set_roman(seat, field=r.field + (FieldCard(uid=ctx.uid(), card=card_id),))
