"""Event Cards (rule text): which plays are legal, playing a card and the response windows."""

from __future__ import annotations

from typing import Any

from games.core import Seat

from ..data import (
    EventCard,
)
from ..model import (
    Pass,
    Play,
    State,
    Window,
)
from ..queries import (
    COUNCIL_EFFECTS,
)
from .context import _Ctx
from .effects import playable


class PlayRules:
    """Event cards played: the legal plays, the play itself, the response windows."""

    _single_plays: dict[str, Play]

    def event_plays(self, s: State, seat: Seat) -> list[Play]:
        """The Event cards ``seat`` may play now, with every choice they need."""
        out: list[Play] = []
        seen: set[str] = set()
        for card in s.players[seat].hand:
            if card not in self.data.events:
                continue
            ev = self.event(card)
            if ev.name in seen or ev.timing != "any":
                continue
            seen.add(ev.name)
            out += self._card_plays(s, seat, card, ev)
        return out

    def _single_play(self, card: str) -> list[Play]:
        """``[play <card>]``: the play of a card that needs no choice, made once per card
        (a Play is immutable) and handed out in a fresh list."""
        play = self._single_plays.get(card)
        if play is None:
            play = self._single_plays[card] = Play(card=card)
        return [play]

    def _card_plays(self, s: State, seat: Seat, card: str, ev: EventCard) -> list[Play]:
        """The plays of Event card ``card`` open to ``seat`` now, with every choice they
        need: the card's own function (rules/playable.py), a Council card only in a
        debate (RULINGS.md R20)."""
        if ev.effect in COUNCIL_EFFECTS and not self._in_debate(s):
            return []
        fn = playable.get(card)
        return fn(self, s, seat, card, ev) if fn is not None else []

    def play_event(self, ctx: _Ctx, seat: Seat, a: Play, open_window: bool) -> None:
        """Play an Event card: remove it from the hand, resolve it, discard it (or keep
        it in play), then open a response window for the other Churches."""
        card = a.card
        ev = self.event(card)
        hand = ctx.s.players[seat].hand
        if card in hand:
            h = list(hand)
            h.remove(card)
            ctx.set_player(seat, hand=tuple(h))
        ctx.note(f"{self.church_name(seat)} plays {ev.name}: {ev.text}")
        stays = self._resolve(ctx, seat, a, ev)
        if not stays:
            if ev.permanent:
                ctx.update(event_permanent=ctx.s.event_permanent + (card,))
            else:
                ctx.update(event_discard=ctx.s.event_discard + (card,))
        ctx.update(last_event=ev.effect)
        if ctx.s.phase == "over":
            return
        if open_window and ctx.s.council is None and ctx.s.window is None:
            waiting = tuple(self.others(ctx.s, seat))
            ctx.update(
                window=Window(
                    kind="answer", reason=f"{self.church_name(seat)} played {ev.name}.", waiting=waiting
                )
            )

    def apply_window(self, ctx: _Ctx, seat: Seat, a: Any) -> None:
        """Event Cards: ``seat`` passes in the window, or plays an Event card; in a Council's
        debate a card played asks every Church again (The Debate)."""
        w = ctx.s.window
        if isinstance(a, Pass):
            ctx.update(window=w.model_copy(update={"waiting": w.waiting[1:], "passed": w.passed + (seat,)}))
            return
        if w.kind == "debate":
            # a card announced in the debate: everyone may answer again (The Debate)
            order = (seat,) + tuple(self.others(ctx.s, seat))
            ctx.update(window=w.model_copy(update={"waiting": order, "passed": ()}))
        self.play_event(ctx, seat, a, open_window=False)
