"""The Tables (rule text: Persecution, Proselytism, Refutation Tables): two dice rolled on a table and what the result does."""

from __future__ import annotations

from games.core import Seat

from ..data import (
    NISIBIS,
)
from ..model import (
    CATEGORIES,
    DiceRolled,
    Play,
    Roll,
    Task,
)
from ..tables import PERSECUTION, PROSELYTISM, REFUTATION, Result
from .context import _Ctx


class TableRules:
    """Rolls on the Persecution, Proselytism and Refutation Tables."""

    def _roll(self, ctx: _Ctx, table: str, roller: Seat, results: dict[int, Result]) -> tuple[int, Result]:
        dice = (ctx.rng.die(6), ctx.rng.die(6))
        total = sum(dice)
        res = results[total]
        roll = Roll(table=table, roller=roller, dice=dice, result=res.text)
        ctx.update(last_roll=roll)
        ctx.emit(DiceRolled(roll=roll))
        return total, res

    def persecute(self, ctx: _Ctx, persecutor: Seat, victim: Seat, why: str) -> None:
        """Persecution Table: the persecutor removes the victim's cards (Nisibis spared)."""
        ctx.note(f"{self.church_name(persecutor)} persecutes {self.church_name(victim)} ({why}).")
        _, res = self._roll(ctx, "Persecution", persecutor, PERSECUTION)
        for kind, n in res.remove:
            self._task(
                ctx,
                Task(
                    chooser=persecutor,
                    owner=victim,
                    kinds=(kind,),
                    count=n,
                    reason="persecution",
                    spare_nisibis=True,
                ),
            )
        if res.target_draws:
            self._draw_church(ctx, victim, res.target_draws, "persecution")

    def _may_persecute(self, ctx: _Ctx, persecutor: Seat, victim: Seat, why: str) -> None:
        """"Laity can Persecute" (Proselytism 9-11, Refutation 11) and "The Emperor can
        Persecute your Church in response" (Nika Riots): the persecutor chooses whether to
        (``pick persecute`` / ``pick spare``; RULINGS.md R30)."""
        self._task(ctx, Task(chooser=persecutor, owner=victim, kind="persecute", reason=why))

    def proselytise(self, ctx: _Ctx, seat: Seat, bishop: str, target: Seat) -> bool:
        """Proselytism Table; returns False if the Bishop was lost (roll of 12)."""
        ctx.note(f"{self.church_name(seat)}'s {self.name(bishop)} preaches to {self.church_name(target)}.")
        total, res = self._roll(ctx, "Proselytism", seat, PROSELYTISM)
        self._apply_takes(ctx, seat, target, res, "Proselytism")
        if res.persecute and self.of_kind(ctx.s, target, "laity"):
            self._may_persecute(ctx, target, seat, "its Laity answer the preaching")
        if res.lose_bishop:
            if bishop == NISIBIS:
                ctx.note("The Bishop of Nisibis lives outside the Empire and is immune.")
            else:
                self._discard_church(ctx, bishop)
                ctx.note(f"{self.church_name(seat)} loses {self.name(bishop)}.")
                return False
        return True

    def _church_father(self, ctx: _Ctx, seat: Seat, a: Play) -> None:
        """Church Father: Refute (Refutation Table) or Teach an Article."""
        target = a.target
        if a.mode == "teach":
            h = list(ctx.s.players[seat].hand)
            h.remove(a.article)
            ctx.set_player(seat, hand=tuple(h))
            art = self.article(a.article)
            ctx.note(f"{self.name(a.bishop)} teaches {art.name} to {self.church_name(target)}.")
            overlap = [
                (i, c)
                for i, c in self.mat_cards(ctx.s, target)
                if set(self.article(c).numbers) & set(art.numbers)
            ]
            t = Task(chooser=target, owner=target, kind="replace", article=a.article, reason="Teach")
            if overlap:
                self._replace(ctx, t, overlap[0][1])
            else:
                self._task(ctx, t)
            return
        ctx.note(
            f"{self.name(a.bishop)} tries to refute {self.church_name(target)}'s {self.name(a.article)}."
        )
        _, res = self._roll(ctx, "Refutation", seat, REFUTATION)
        mat = ctx.s.players[target].mat
        box = mat.index(a.article)
        if CATEGORIES[box // 3] in res.refute:
            m = list(mat)
            m[box] = None
            ctx.set_player(target, mat=tuple(m))
            ctx.update(event_discard=ctx.s.event_discard + (a.article,))
            ctx.note(f"{self.name(a.article)} is refuted and leaves {self.church_name(target)}'s mat.")
        elif res.refute:
            ctx.note("An Article of that category cannot be refuted with this roll.")
        if res.persecute and self.of_kind(ctx.s, target, "laity"):
            self._may_persecute(ctx, target, seat, "its Laity answer the Church Father")
        if res.lose_bishop:
            if a.bishop == NISIBIS:
                ctx.note("The Bishop of Nisibis lives outside the Empire and is immune.")
            else:
                self._discard_church(ctx, a.bishop)
                ctx.note(f"{self.church_name(seat)} loses {self.name(a.bishop)}.")
