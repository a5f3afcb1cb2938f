"""Church cards (rule text, Church Cards; Draw, Lose, Remove, Take, Give): drawing them, moving them between Churches and piles, and the pending choices of cards (Tasks)."""

from __future__ import annotations

from games.core import Seat
from games.core.errors import list_words

from ..data import (
    EASTERN_EMPEROR,
)
from ..model import (
    Task,
)
from ..queries import (
    CHOICE_TASKS,
)
from ..tables import Result
from .context import _Ctx


class ChurchRules:
    """Church cards drawn, discarded, given and taken; the Tasks that choose them."""

    def _draw_church(self, ctx: _Ctx, seat: Seat, count: int, reason: str = "") -> None:
        """Draw: Church cards from the Church Cards box; an empty box takes the
        reshuffled Church Card Discard pile (Set Up)."""
        got = []
        for _ in range(count):
            if not ctx.s.church_deck:
                if not ctx.s.church_discard:
                    break
                ctx.update(church_deck=ctx.rng.shuffle(ctx.s.church_discard), church_discard=())
                ctx.note("The Church Card Discard pile is reshuffled into the Church Cards box.")
            card, rest = ctx.s.church_deck[0], ctx.s.church_deck[1:]
            ctx.update(church_deck=rest)
            ctx.set_player(seat, church=ctx.s.players[seat].church + (card,))
            got.append(card)
        why = f" ({reason})" if reason else ""
        if got:
            ctx.note(f"{self.church_name(seat)} draws {list_words([self.name(c) for c in got])}{why}.")
        elif count:
            ctx.note(f"{self.church_name(seat)} has no Church card to draw{why}.")

    def _remove_church(self, ctx: _Ctx, card: str) -> None:
        """Take a Church card out of its Church (Exile card freed)."""
        x = self.holder(ctx.s, card)
        if x is not None:
            church = list(ctx.s.players[x].church)
            church.remove(card)
            ctx.set_player(x, church=tuple(church))
        for b, e in ctx.s.exiled:
            if b == card:
                ctx.update(
                    exiled=tuple(p for p in ctx.s.exiled if p[0] != card),
                    event_discard=ctx.s.event_discard + (e,),
                )

    def _discard_church(self, ctx: _Ctx, card: str) -> None:
        """Discard a Church card: the Eastern Emperor is placed aside in the Emperor
        Out-Of-Play box; the Western Emperor and Goths are permanent discards."""
        self._remove_church(ctx, card)
        if card == EASTERN_EMPEROR:
            ctx.update(emperor_out=ctx.s.emperor_out + (card,))
        elif card in self.data.events:
            ctx.update(event_permanent=ctx.s.event_permanent + (card,))
        else:
            ctx.update(church_discard=ctx.s.church_discard + (card,))

    def _give_church(self, ctx: _Ctx, card: str, to: Seat) -> None:
        self._remove_church(ctx, card)
        ctx.set_player(to, church=ctx.s.players[to].church + (card,))

    def _take_from_anywhere(self, ctx: _Ctx, card: str, to: Seat) -> None:
        s = ctx.s
        self._remove_church(ctx, card)
        for field in ("church_deck", "church_discard", "emperor_out", "patriarch_box"):
            pile = getattr(ctx.s, field)
            if card in pile:
                ctx.update(**{field: tuple(c for c in pile if c != card)})
        del s
        ctx.set_player(to, church=ctx.s.players[to].church + (card,))

    def _lose(self, ctx: _Ctx, seat: Seat, kind: str, count: int, reason: str) -> None:
        """Lose: the Church discards cards of its own choice."""
        self._task(ctx, Task(chooser=seat, owner=seat, kinds=(kind,), count=count, reason=reason))

    def _task(self, ctx: _Ctx, t: Task) -> None:
        if t.count > 0:
            ctx.update(tasks=ctx.s.tasks + (t,))

    def _take(self, ctx: _Ctx, taker: Seat, owner: Seat, kind: str, n: int, reason: str) -> None:
        self._task(ctx, Task(chooser=taker, owner=owner, kinds=(kind,), count=n, dest=taker, reason=reason))

    def _apply_takes(self, ctx: _Ctx, actor: Seat, target: Seat, res: Result, reason: str) -> None:
        for kind, n in res.take:
            if kind == "bishop-or-followers":  # RULINGS.md R9: the preacher chooses
                self._task(ctx, Task(chooser=actor, owner=target, kind="either", dest=actor, reason=reason))
            else:
                self._take(ctx, actor, target, kind, n, reason)

    def settle_task(self, ctx: _Ctx) -> bool:
        """Resolve the first task by itself when there is no choice; True if it did."""
        t = ctx.s.tasks[0]
        eligible = self.eligible(ctx.s, t)
        if t.kind == "replace":
            if len(eligible) > 1:
                return False
            ctx.update(tasks=ctx.s.tasks[1:])
            if eligible:
                self._replace(ctx, t, eligible[0])
            return True
        if t.kind in CHOICE_TASKS:
            if len(eligible) > 1:
                return False
            if eligible:
                self.apply_pick(ctx, eligible[0])
            else:
                ctx.update(tasks=ctx.s.tasks[1:])
            return True
        if not eligible or t.count <= 0:
            ctx.update(tasks=ctx.s.tasks[1:])
            return True
        names = {self.name(c) for c in eligible}
        if len(eligible) <= t.count or len(names) == 1:
            take = eligible[: t.count]
            ctx.update(tasks=ctx.s.tasks[1:])
            for c in take:
                self._move_task_card(ctx, t, c)
            return True
        return False

    def apply_pick(self, ctx: _Ctx, card: str) -> None:
        """A pending Task answered with ``card`` (a card or an option): Lose, Remove, Take,
        Give move the card and the Task asks for the rest; a choice (Proselytism 2,
        Evangelic Campaign, persecution, Evangelisation, Dock Strike) sets off what it
        chose before the Tasks already waiting; Teach's replaced Article is given up."""
        t = ctx.s.tasks[0]
        if t.kind == "replace":
            ctx.update(tasks=ctx.s.tasks[1:])
            self._replace(ctx, t, card)
            return
        if t.kind in CHOICE_TASKS:
            # what the choice sets off comes before the tasks already waiting
            later = ctx.s.tasks[1:]
            ctx.update(tasks=())
            if t.kind == "convert":
                self._convert_goths(ctx, t, card == "convert")
            elif t.kind == "dock":
                if card == "strike":
                    self._lose(ctx, t.owner, "follower", 1, "Dock Strike")
                else:
                    ctx.note(f"{self.church_name(t.chooser)} lets the Eastern Emperor resupply his Followers.")
            elif t.kind == "persecute":
                if card == "persecute":
                    self.persecute(ctx, t.chooser, t.owner, t.reason)
                else:
                    ctx.note(f"{self.church_name(t.chooser)} does not persecute {self.church_name(t.owner)}.")
            elif t.kind == "either":
                self._choose_either(ctx, t, card)
            else:
                self._campaign_step(ctx, t, card)
            ctx.update(tasks=ctx.s.tasks + later)
            return
        rest = t.model_copy(update={"count": t.count - 1})
        ctx.update(tasks=((rest,) if rest.count > 0 else ()) + ctx.s.tasks[1:])
        self._move_task_card(ctx, t, card)

    def _move_task_card(self, ctx: _Ctx, t: Task, card: str) -> None:
        who, whose = self.church_name(t.chooser), self.church_name(t.owner)
        why = f" ({t.reason})" if t.reason else ""
        if t.kind == "away":
            c = ctx.s.council
            if c is not None:
                ctx.update(council=c.model_copy(update={"bad_times": c.bad_times + (card,)}))
            ctx.note(f"{whose} keeps {self.name(card)} away from the Council{why}.")
            return
        if t.dest is None:
            self._discard_church(ctx, card)
            if t.chooser == t.owner:
                ctx.note(f"{who} loses {self.name(card)}{why}.")
            else:
                ctx.note(f"{who} removes {whose}'s {self.name(card)}{why}.")
        else:
            self._give_church(ctx, card, t.dest)
            ctx.note(f"{self.name(card)} goes from {whose} to {self.church_name(t.dest)}{why}.")

    def _replace(self, ctx: _Ctx, t: Task, old: str) -> None:
        """Teach: the target discards a Firm Belief or Customary Practice and puts the
        taught Article in its place."""
        mat = list(ctx.s.players[t.owner].mat)
        box = mat.index(old)
        mat[box] = None
        ctx.set_player(t.owner, mat=tuple(mat))
        ctx.update(event_discard=ctx.s.event_discard + (old,))
        ctx.note(f"{self.church_name(t.owner)} gives up {self.name(old)}.")
        self._put_on_mat(ctx, t.owner, t.article, box)

    def _choose_either(self, ctx: _Ctx, t: Task, option: str) -> None:
        """Proselytism 2: the preacher takes 2 Bishops or 3 Followers, as he chose."""
        kind, n = ("bishop", 2) if option == "bishops" else ("follower", 3)
        ctx.note(f"{self.church_name(t.chooser)} chooses to take {n} {kind.title()} cards.")
        self._take(ctx, t.chooser, t.owner, kind, n, t.reason)

    def _campaign_step(self, ctx: _Ctx, t: Task, choice: str) -> None:
        """Evangelic Campaign: preach to the Church chosen, then choose the next one."""
        if choice == "stop":
            ctx.note(f"{self.church_name(t.chooser)} ends the Evangelic Campaign.")
            return
        target = int(choice)
        if self.proselytise(ctx, t.chooser, t.bishop, target):
            nxt = t.model_copy(update={"count": t.count - 1, "done": t.done + (target,)})
            self._task(ctx, nxt)
