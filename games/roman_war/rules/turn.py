"""The turn and round structure: untap and conditions, Cost Zone, Hannibal's phase (RULINGS.md R8-R10),
defense and Chaos, the end of a turn and the end of the game (R3)."""

from __future__ import annotations

from games.core import (
    Seat,
)
from games.core.english import count

from ..model import (
    ActiveAmbush,
    CardsDrawn,
    GameEnded,
    HannibalEncampment,
    HannibalPlayed,
    Note,
    StackItem,
    TurnBegan,
)
from ..queries import (
    COST_ZONE_POWER_GAIN,
    VIBRANCY_FLIPS,
    ambush_named,
    hannibal_draws,
)
from .context import _Ctx


class TurnRules:
    """Phases, turns, rounds and the end of the game."""

    def _begin_turn(self, ctx: _Ctx) -> None:
        """The first phase: untap, conditions and status effects, draw Maneuver + 2."""
        s = ctx.s
        seat = s.active
        ctx.emit(TurnBegan(seat=seat, who=self.who(s, seat), round=s.round))
        r = ctx.roman(seat)
        ctx.set_roman(
            seat,
            cost_zone=tuple(c.model_copy(update={"tapped": False}) for c in r.cost_zone),
            field=tuple(f.model_copy(update={"tapped": False}) for f in r.field),
            gained=0,
        )
        ctx.update(placed=0, speed_used=False, horse_used=False, phase="cost")
        for enc in s.encampments:
            h = self.hcard(enc.card)
            for e in h.condition:
                self._hannibal_effect(ctx, seat, e, h.name)
        r = ctx.roman(seat)
        n_draw = max(0, r.maneuver + 2 - r.shaken)
        ctx.set_roman(seat, shaken=0)
        self._draw(
            ctx, seat, n_draw, f"Maneuver {r.maneuver} + 2" + (f", shaken -{r.shaken}" if r.shaken else "")
        )
        if self.has(ctx.s, "foresight"):
            self._reveal(ctx, hannibal_draws(ctx.roman(seat).maneuver), "Foresight")

    def _after_cost(self, ctx: _Ctx) -> None:
        s = ctx.s
        seat = s.active
        if self.has(s, "vibrancy"):
            cz = list(ctx.roman(seat).cost_zone)
            down = [i for i, c in enumerate(cz) if not c.face_up][-VIBRANCY_FLIPS:]
            for i in down:
                cz[i] = cz[i].model_copy(update={"face_up": True})
            ctx.set_roman(seat, cost_zone=tuple(cz))
            if down:
                ctx.emit(
                    Note(
                        text=f"Vibrancy: {self.who(s, seat)} flips {', '.join(self.name(cz[i].card) for i in down)} face up."
                    )
                )
        if self._buyable(ctx.s, seat):
            ctx.update(phase="purchase")
        else:
            self._to_hannibal(ctx)

    def _to_hannibal(self, ctx: _Ctx) -> None:
        """Hannibal draws and plays the Roman's draw minus 1, or Maneuver + 2 at
        Maneuver 2+ (R8). Co-op: every card drawn is played at once, at the active Roman."""
        s = ctx.s
        k = hannibal_draws(s.romans[s.active].maneuver)
        drawn = self._hannibal_draw(ctx, k)
        if s.mode == "duel":
            # several Hannibal seats take the Hannibal phases in turn, one per Roman turn (R17)
            hs = self.hannibal_seats(s)
            deciding = hs[s.hannibal_turns % len(hs)]
            ctx.update(
                hannibal_hand=ctx.s.hannibal_hand + tuple(drawn),
                hannibal_to_play=k,
                phase="hannibal",
                hannibal_seat=deciding,
                hannibal_turns=s.hannibal_turns + 1,
            )
            who = self.who(ctx.s, deciding)
            ctx.emit(
                Note(
                    text=f"{who} draws {count(len(drawn), 'card')} for the Hannibal side and may play up to {k}."
                )
            )
            ctx.emit(CardsDrawn(seat=deciding, names=self._names(drawn), visible_to=hs))
            return
        ctx.emit(
            Note(
                text=f"The Hannibal deck draws and plays {count(len(drawn), 'card')} (Maneuver {s.romans[s.active].maneuver})."
            )
        )
        for c in drawn:
            self._hannibal_play(ctx, c, s.active)
        self._to_defense(ctx)

    def _hannibal_draw(self, ctx: _Ctx, k: int) -> list[str]:
        drawn = []
        for _ in range(k):
            if not ctx.s.hannibal_deck:
                if not ctx.s.hannibal_discard:
                    break
                ctx.update(
                    hannibal_deck=ctx.rng.shuffle(ctx.s.hannibal_discard), hannibal_discard=(), known=0
                )
                ctx.emit(
                    Note(
                        text="The Hannibal deck is shuffled from its discard pile (the Defended pile stays out)."
                    )
                )
            drawn.append(ctx.s.hannibal_deck[0])
            ctx.update(hannibal_deck=ctx.s.hannibal_deck[1:], known=max(0, ctx.s.known - 1))
        return drawn

    def _hannibal_play(self, ctx: _Ctx, card_id: str, target: Seat | None) -> None:
        h = self.hcard(card_id)
        if h.type == "Ambush":
            amb = ActiveAmbush(uid=ctx.uid(), card=card_id, target=target)
            ctx.update(ambushes=ctx.s.ambushes + (amb,))
            text_ = f"Hannibal plays {ambush_named(h.name)} against {self.who(ctx.s, target)} ({h.line()}; now R{self.ambush_cost(ctx.s, card_id)})."
        else:
            ctx.update(encampments=ctx.s.encampments + (HannibalEncampment(uid=ctx.uid(), card=card_id),))
            text_ = f"Hannibal makes camp: {h.name} ({h.line()})."
            target = None
        ctx.emit(HannibalPlayed(card=card_id, name=h.name, target=target, text=text_))

    def _to_defense(self, ctx: _Ctx) -> None:
        ctx.update(phase="defense")
        if not ctx.s.ambushes:
            ctx.update(phase="main")

    def _settle(self, ctx: _Ctx) -> None:
        """Every active Ambush is settled: defended (to the Defended pile) or failed (onto
        the stack, where it resolves as Chaos)."""
        ctx.update(settling=True)

    def _settle_next(self, ctx: _Ctx) -> None:
        s = ctx.s
        failed = next((a for a in s.ambushes if not a.defended), None)
        if failed is None:
            done = tuple(a.card for a in s.ambushes)
            ctx.update(ambushes=(), settling=False, phase="main", defended_pile=s.defended_pile + done)
            return
        ctx.update(ambushes=tuple(a for a in s.ambushes if a.uid != failed.uid))
        ctx.update(
            stack=ctx.s.stack
            + (StackItem(uid=failed.uid, kind="ambush", seat=failed.target, card=failed.card),)
        )

    def _end_turn(self, ctx: _Ctx) -> None:
        s = ctx.s
        seat = s.active
        r = ctx.roman(seat)
        if self.has(s, "cost-zone-power") and r.gained >= COST_ZONE_POWER_GAIN:
            self._draw(ctx, seat, 1, "Cost Zone Power", cost_zone=True)
        if s.mode == "duel" and all(x.power == 0 for x in ctx.s.romans):
            self._finish(
                ctx, "hannibal", "Hannibal has ground every Roman's Power to nothing: Hannibal wins the duel."
            )
            return
        self._advance(ctx)

    def _advance(self, ctx: _Ctx) -> None:
        """Pass the turn; judge the clearing round when it closes and the end of round 10 (R3)."""
        s = ctx.s
        turn, rnd = s.turn + 1, s.round
        if turn >= len(s.turn_order):
            turn, rnd = 0, rnd + 1
        ctx.update(turn=turn, round=rnd)
        seat = s.turn_order[turn]
        c = s.clearing
        if c is not None and not c.extended and seat == c.opener:
            if self._cleared(ctx.s):
                self._finish(
                    ctx,
                    "romans",
                    "Every Roman player is at Domination L3 and no Hannibal's Encampment stands: the clearing round is won. Rome wins!",
                )
                return
            if rnd <= s.last_round:
                ctx.update(clearing=c.model_copy(update={"extended": True}))
                ctx.emit(
                    Note(
                        text=f"The clearing round closes unfinished; round {s.last_round} has not ended, so it runs on to the end of round {s.last_round}."
                    )
                )
            else:
                self._finish(
                    ctx,
                    "hannibal",
                    "The clearing round closed with the condition unmet, after round 10: Hannibal wins.",
                )
                return
        if turn == 0 and rnd == s.last_round + 1:
            c = ctx.s.clearing
            if c is None:
                self._finish(
                    ctx,
                    "hannibal",
                    f"The Roman side has not won by the end of round {s.last_round}: Hannibal wins.",
                )
                return
            if c.extended:
                if self._cleared(ctx.s):
                    self._finish(
                        ctx,
                        "romans",
                        f"At the end of round {s.last_round}, every Roman is at L3 and no Hannibal's Encampment stands. Rome wins!",
                    )
                else:
                    self._finish(
                        ctx,
                        "hannibal",
                        f"The end of round {s.last_round}: the clearing round is not won. Hannibal wins.",
                    )
                return
            ctx.emit(
                Note(
                    text=f"Round {s.last_round} is over, but the clearing round runs to {self.who(ctx.s, c.opener)}'s next turn."
                )
            )
        self._begin_turn(ctx)

    def _finish(self, ctx: _Ctx, winner: str, reason: str) -> None:
        ctx.update(phase="over", winner=winner, end_reason=reason, pending=(), stack=(), settling=False)
        ctx.emit(GameEnded(winner=winner, text=reason))
