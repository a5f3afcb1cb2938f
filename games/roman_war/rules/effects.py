"""Card effects and the resources they move: Power, Maneuver and Domination Levels, draws, Cost,
breaking and recovering cards (rule text "Cards", "Power", "Maneuver")."""

from __future__ import annotations

from games.core import (
    IllegalActionError,
    Seat,
)
from games.core.english import count

from ..data import Effect
from ..model import (
    CardsDrawn,
    Clearing,
    CostCard,
    ManeuverChanged,
    Note,
    Pending,
    PowerChanged,
    StackItem,
)
from ..queries import (
    CHARGED_ABILITIES,
    MAX_MANEUVER,
    MAX_POWER,
)
from .context import _Ctx


class EffectRules:
    """The effects of cards and abilities on the State."""

    def _effect(self, ctx: _Ctx, item: StackItem, e: Effect, redirect: bool) -> None:
        """Apply a Roman card's effect for ``item``'s controller (or the teammate it names)."""
        s = ctx.s
        seat = item.seat
        if e.who == "ally" or (redirect and item.to is not None and e.beneficial):
            seat = item.to if item.to is not None else item.seat
        name = self.name(item.card)
        if e.do == "power":
            if e.n >= 0:
                self._gain(ctx, seat, e.n, name)
            else:
                self._lose(ctx, seat, -e.n, name)
        elif e.do == "team_power":
            for x in self.roman_seats(s):
                self._gain(ctx, x, e.n, name)
        elif e.do == "draw":
            self._draw(ctx, seat, e.n, name)
        elif e.do == "draw_cz":
            self._draw(ctx, seat, e.n, name, cost_zone=True, face_up=e.face_up)
        elif e.do == "untap":
            self._untap(ctx, seat, e.n)
        elif e.do == "break":
            self._break(ctx, e.n, name)
        elif e.do == "recover":
            self._recover(ctx, seat, e.n, name)
        elif e.do == "reveal":
            self._reveal(ctx, e.n, name)
        elif e.do in ("defend", "defend_gain"):
            a = self._ambush(ctx.s, item.target)
            if a is None or a.defended:
                ctx.emit(Note(text=f"{name}: that Ambush is no longer there to defend."))
                return
            x = self.ambush_cost(ctx.s, a.card)
            self._mark_defended(ctx, a.uid, f"{self.who(s, item.seat)} plays {name}")
            if e.do == "defend_gain":
                gain = max(0, x - 3)
                ctx.emit(Note(text=f"{name}: X is {x}, so X -3 = {gain} Power."))
                if gain:
                    self._gain(ctx, seat, gain, name)
        elif e.do in ("counter", "shield"):
            target = next((i for i in reversed(ctx.s.stack) if i.kind == "ambush"), None)
            if target is None:  # nothing a boost or card may be countered by: R16
                return
            if e.do == "counter":
                ctx.update(
                    stack=tuple(i for i in ctx.s.stack if i.uid != target.uid),
                    defended_pile=ctx.s.defended_pile + (target.card,),
                    pending=tuple(p for p in ctx.s.pending if p.item != target.uid),
                )
                ctx.emit(Note(text=f"{name} counters {self.name(target.card)}: to the Defended pile."))
            else:
                ctx.set_item(target.uid, shielded=True)
        else:
            self._hannibal_effect(ctx, seat, e, name)

    def _hannibal_effect(self, ctx: _Ctx, seat: Seat, e: Effect, name: str) -> None:
        """Effects the Hannibal deck's cards have on a Roman (Chaos and conditions)."""
        r = ctx.roman(seat)
        who = self.who(ctx.s, seat)
        if e.do == "power":
            if e.n < 0:
                self._lose(ctx, seat, -e.n, name)
            else:
                self._gain(ctx, seat, e.n, name)
        elif e.do == "rotate":
            cz, left = [], e.n
            for c in r.cost_zone:
                if left and not c.tapped:
                    c = c.model_copy(update={"tapped": True})
                    left -= 1
                cz.append(c)
            ctx.set_roman(seat, cost_zone=tuple(cz))
            ctx.emit(Note(text=f"{name}: {who} rotates {count(e.n - left, 'Cost Zone card')}."))
        elif e.do == "discard":
            hand = list(r.hand)
            gone = []
            for _ in range(min(e.n, len(hand))):
                gone.append(hand.pop(ctx.rng.below(len(hand))))
            ctx.set_roman(seat, hand=tuple(hand), discard=r.discard + tuple(gone))
            if gone:
                ctx.emit(Note(text=f"{name}: {who} discards {', '.join(self._names(gone))} at random."))
        elif e.do == "shaken":
            ctx.set_roman(seat, shaken=r.shaken + 1)
            ctx.emit(Note(text=f"{name}: {who} is shaken and draws 1 card fewer next turn."))
        elif e.do == "maneuver":
            level = max(0, min(MAX_MANEUVER, r.maneuver + e.n))
            if level != r.maneuver:
                self._set_maneuver(ctx, seat, level, name)

    def _gain(self, ctx: _Ctx, seat: Seat, n: int, reason: str) -> None:
        r = ctx.roman(seat)
        new = min(MAX_POWER, r.power + n)
        ctx.set_roman(seat, power=new, gained=r.gained + (new - r.power))
        ctx.emit(
            PowerChanged(seat=seat, who=self.who(ctx.s, seat), delta=new - r.power, power=new, reason=reason)
        )

    def _lose(self, ctx: _Ctx, seat: Seat, n: int, reason: str) -> None:
        """Lose ``n`` Power; each point that cannot come off Power (already 0) is a card to
        discard from hand or Cost Zone (Overflow Rule)."""
        r = ctx.roman(seat)
        lost = min(r.power, n)
        over = n - lost
        cards = len(r.hand) + len(r.cost_zone)
        ctx.set_roman(seat, power=r.power - lost, overflow=min(r.overflow + over, cards))
        ctx.emit(
            PowerChanged(
                seat=seat, who=self.who(ctx.s, seat), delta=-lost, power=r.power - lost, reason=reason
            )
        )
        if over:
            ctx.emit(
                Note(
                    text=f"Overflow: {self.who(ctx.s, seat)} is at H0 and must discard {count(min(over, cards), 'card')}."
                )
            )

    def _set_maneuver(self, ctx: _Ctx, seat: Seat, level: int, reason: str) -> None:
        ctx.set_roman(seat, maneuver=level)
        ctx.emit(ManeuverChanged(seat=seat, who=self.who(ctx.s, seat), level=level, reason=reason))
        self._check_levels(ctx)

    def _check_levels(self, ctx: _Ctx) -> None:
        """Shared Domination Levels (free ability, recharges) and the clearing round."""
        s = ctx.s
        team = min(r.maneuver for r in s.romans)
        while team > ctx.s.shared_level:
            level = ctx.s.shared_level + 1
            ctx.update(shared_level=level)
            ctx.emit(Note(text=f"All Roman players reached Domination Level L{level}."))
            if ctx.s.level_abilities:
                charged = tuple(a for a in CHARGED_ABILITIES if a in ctx.s.abilities)
                if charged:
                    ctx.update(charged=charged)
                    ctx.emit(
                        Note(
                            text="Recharged: " + ", ".join(self.data.abilities[a].name for a in charged) + "."
                        )
                    )
                picks = sum(1 for p in ctx.s.pending if p.kind == "level")
                if len(self._unowned(ctx.s)) > picks:  # a pick for each level while abilities are left (R7)
                    chooser = ctx.s.active
                    ctx.update(pending=ctx.s.pending + (Pending(kind="level", waiting=(chooser,)),))
        if team >= MAX_MANEUVER and ctx.s.clearing is None:
            ctx.update(clearing=Clearing(opener=ctx.s.active, round=ctx.s.round))
            ctx.emit(
                Note(
                    text=f"Every Roman player is at Domination L3: the clearing round opens, from the start of "
                    f"{self.who(ctx.s, ctx.s.active)}'s turn (round {ctx.s.round}) to their next turn."
                )
            )

    def _draw(
        self, ctx: _Ctx, seat: Seat, n: int, reason: str, cost_zone: bool = False, face_up: bool = False
    ) -> None:
        """Draw ``n`` cards; an empty deck is refilled from the shuffled discard pile, and
        with both empty the draw stops short (R5)."""
        drawn: list[str] = []
        for _ in range(n):
            r = ctx.roman(seat)
            if not r.deck:
                if not r.discard:
                    break
                ctx.set_roman(seat, deck=ctx.rng.shuffle(r.discard), discard=())
                ctx.emit(Note(text=f"{self.who(ctx.s, seat)} shuffles the discard pile into a new deck."))
                r = ctx.roman(seat)
            drawn.append(r.deck[0])
            ctx.set_roman(seat, deck=r.deck[1:])
        r = ctx.roman(seat)
        if cost_zone:
            ctx.set_roman(
                seat, cost_zone=r.cost_zone + tuple(CostCard(card=c, face_up=face_up) for c in drawn)
            )
        else:
            ctx.set_roman(seat, hand=r.hand + tuple(drawn))
        where = "Cost Zone" + (" face up" if face_up else "") if cost_zone else "hand"
        if face_up and drawn:
            ctx.emit(
                Note(
                    text=f"{self.who(ctx.s, seat)} draws {', '.join(self._names(drawn))} to the Cost Zone face up ({reason})."
                )
            )
        else:
            ctx.emit(
                Note(
                    text=f"{self.who(ctx.s, seat)} draws {count(len(drawn), 'card')} to the {where} ({reason})."
                )
            )
        ctx.emit(CardsDrawn(seat=seat, names=self._names(drawn), where=where, visible_to=(seat,)))

    def _untap(self, ctx: _Ctx, seat: Seat, n: int) -> None:
        cz, left = [], n
        for c in ctx.roman(seat).cost_zone:
            if left and c.tapped:
                c = c.model_copy(update={"tapped": False})
                left -= 1
            cz.append(c)
        ctx.set_roman(seat, cost_zone=tuple(cz))
        ctx.emit(Note(text=f"{self.who(ctx.s, seat)} untaps {count(n - left, 'Cost Zone card')}."))

    def _pay(self, ctx: _Ctx, seat: Seat, n: int) -> None:
        """Pay C n / R n: rotate ``n`` untapped Cost Zone cards, face-down ones first (R11)."""
        cz = list(ctx.roman(seat).cost_zone)
        left = n
        for pass_face_up in (False, True):
            for i, c in enumerate(cz):
                if left and not c.tapped and c.face_up == pass_face_up:
                    cz[i] = c.model_copy(update={"tapped": True})
                    left -= 1
        if left:  # pragma: no cover - legality is checked before
            raise IllegalActionError(f"Not enough untapped Cost Zone cards to pay {n}.")
        ctx.set_roman(seat, cost_zone=tuple(cz))

    def _break(self, ctx: _Ctx, n: int, reason: str) -> None:
        """Break ``n`` Hannibal's Encampments, the strongest (highest defense) first (R10)."""
        for _ in range(n):
            if not ctx.s.encampments:
                return
            enc = max(ctx.s.encampments, key=lambda e: (self.hcard(e.card).defense, -e.uid))
            self._break_one(ctx, enc.uid, reason)

    def _break_one(self, ctx: _Ctx, uid: int, reason: str) -> None:
        enc = next(e for e in ctx.s.encampments if e.uid == uid)
        ctx.update(
            encampments=tuple(e for e in ctx.s.encampments if e.uid != uid),
            defended_pile=ctx.s.defended_pile + (enc.card,),
        )
        ctx.emit(Note(text=f"{self.name(enc.card)} is broken ({reason}): to the Defended pile."))

    def _recover(self, ctx: _Ctx, seat: Seat, n: int, reason: str) -> None:
        r = ctx.roman(seat)
        k = min(n, len(r.discard))
        if not k:
            return
        idx = set(ctx.rng.sample(range(len(r.discard)), k))
        back = [c for i, c in enumerate(r.discard) if i in idx]
        rest = tuple(c for i, c in enumerate(r.discard) if i not in idx)
        ctx.set_roman(seat, discard=rest, deck=ctx.rng.shuffle(r.deck + tuple(back)))
        ctx.emit(
            Note(
                text=f"{self.who(ctx.s, seat)} shuffles {count(k, 'card')} from the discard pile into the deck ({reason}): {', '.join(self._names(back))}."
            )
        )

    def _reveal(self, ctx: _Ctx, n: int, reason: str) -> None:
        k = min(n, len(ctx.s.hannibal_deck))
        ctx.update(known=max(ctx.s.known, k))
        top = ctx.s.hannibal_deck[: ctx.s.known]
        ctx.emit(
            Note(
                text=f"{reason}: the Hannibal deck's next draws are "
                + (", ".join(self._names(top)) or "none")
                + "."
            )
        )

    def _mark_defended(self, ctx: _Ctx, uid: int, how: str) -> None:
        a = self._ambush(ctx.s, uid)
        ctx.update(
            ambushes=tuple(
                x.model_copy(update={"defended": True}) if x.uid == uid else x for x in ctx.s.ambushes
            )
        )
        ctx.emit(Note(text=f"{self.name(a.card)} is defended: {how}."))
