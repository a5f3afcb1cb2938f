"""Event Cards (rule text): which plays are legal, playing a card and the response windows."""

from __future__ import annotations

from typing import Any

from games.core import Seat

from ..data import (
    CONSTANTINOPLE_P,
    EASTERN_EMPEROR,
    EMPRESS,
    JERUSALEM_P,
    MAGISTER,
    NISIBIS,
    ROME,
    WESTERN_EMPEROR,
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
        need (each card's text and condition; RULINGS.md R20: a Council card only in a
        debate)."""
        e = ev.effect
        if e in COUNCIL_EFFECTS and not self._in_debate(s):
            return []
        others = self.others(s, seat)
        one = self._single_play(card)
        if e in ("draw", "iconolatry", "western_emperor", "julian", "extra_votes", "church_reform"):
            return one
        if e == "regency":
            return (
                one if s.last_event == "new_emperor" and self.holder(s, EASTERN_EMPEROR) is not None else []
            )
        if e == "scandal":
            return one if self.holder(s, EMPRESS) is not None and not s.council.scandal else []
        if e == "proselytism":
            return [Play(card=card, bishop=b, target=t) for b in self._bishops(s, seat) for t in others]
        if e == "church_father":
            out = []
            for b in self._bishops(s, seat):
                for t in others:
                    for i, a in self.mat_cards(s, t):
                        if i >= 3:
                            out.append(Play(card=card, bishop=b, mode="refute", target=t, article=a))
                for dup in self._teachable(s, seat):
                    for t in others:
                        if self._teach_ok(s, t, dup):
                            out.append(Play(card=card, bishop=b, mode="teach", target=t, article=dup))
            return out
        if e == "evangelic_campaign":
            return [Play(card=card, bishop=b) for b in self._bishops(s, seat) if self.cards[b].votes > 0]
        if e == "exile":
            halves = {self.cards[c].half for c in self.of_kind(s, seat, "laity")}
            if not halves:
                return []
            out = []
            for x in range(len(s.players)):
                for b in self.of_kind(s, x, "bishop"):
                    h = self.cards[b].half
                    if not self.is_exiled(s, b) and b != NISIBIS and (h in halves or h == "Both"):
                        out.append(Play(card=card, mode="exile", bishop=b))
            out += [Play(card=card, mode="recall", bishop=b) for b, _ in s.exiled]
            return out
        if e == "agentes_in_rebus":
            return (
                [Play(card=card, target=t) for t in others]
                if self.holder(s, EASTERN_EMPEROR) is not None
                else []
            )
        if e == "odoacer":
            ok = self.holder(s, WESTERN_EMPEROR) is not None or self.holder(s, MAGISTER) is not None
            return one if ok else []
        return self._more_plays(s, seat, card, ev, others, one)

    def _more_plays(
        self, s: State, seat: Seat, card: str, ev: EventCard, others: list[Seat], one: list[Play]
    ) -> list[Play]:
        """The plays of the Event cards of the Emperors, Laity and persecutions (``_card_plays``
        continued)."""
        e = ev.effect
        if e == "civil_war":
            if not self.of_kind(s, seat, "laity"):
                return []
            return [Play(card=card, target=t) for t in others if self.of_kind(s, t, "laity")]
        if e == "iconoclasts":
            x = s.iconolatry
            ok = x is not None and x != seat and self.followers(s, seat) > self.followers(s, x)
            return one if ok else []
        if e in ("military_intervention", "bad_times"):
            return [Play(card=card, target=t) for t in others]
        if e == "corpse_synod":
            return [Play(card=card, target=t) for t in others] if self.of_kind(s, seat, "patriarch") else []
        if e == "nika_riots":
            emp = self.emperor(s)
            return one if emp is not None and emp != seat else []
        if e == "new_emperor":
            return one if self.holder(s, EASTERN_EMPEROR) != seat and EASTERN_EMPEROR not in s.removed else []
        if e == "emperor_hesitates":
            return one if self.emperor_card(s) is not None and not s.council.hesitates else []
        if e == "dynastic_change":
            out = []
            if self.holder(s, EASTERN_EMPEROR) != seat:
                out.append(Play(card=card, mode="east"))
            w = self.holder(s, WESTERN_EMPEROR)
            if w is not None and w != seat:
                out.append(Play(card=card, mode="west"))
            return out
        if e == "patriarchate_constantinople":
            ok = self.holder(s, EASTERN_EMPEROR) == seat and CONSTANTINOPLE_P in s.patriarch_box
            return one if ok else []
        if e == "patriarchate_jerusalem":
            return one if self.holder(s, EASTERN_EMPEROR) == seat and JERUSALEM_P in s.patriarch_box else []
        if e == "usurpation":
            h = self.holder(s, EASTERN_EMPEROR)
            ok = h is not None and h != seat and self.laity_followers(s, seat) > self.laity_followers(s, h)
            return one if ok else []
        if e == "heterodox_book":
            d = self.doctrine_of(s, seat, s.council.article)
            ok = (
                d is not None
                and self.article(d[1]).symbol == ev.book
                and (seat, ev.book) not in s.council.books
            )
            return one if ok else []
        if e == "by_this_sign":
            return [Play(card=card, target=t) for t in others if self.of_kind(s, t, "laity")]
        if e == "recall_own":
            mine = set(s.players[seat].church)
            return [Play(card=card, mode="recall", bishop=b) for b, _ in s.exiled if b in mine]
        if e == "mutilation":
            return one if self.holder(s, ROME) is not None and s.mutilated_until is None else []
        if e == "plague_west":
            return one if self.holder(s, ROME) is not None else []
        if e == "simony":
            return [Play(card=card, target=t) for t in others if self.of_kind(s, t, "bishop")]
        if e == "dock_strike":
            h = self.holder(s, EASTERN_EMPEROR)
            return one if h is not None and h != seat and seat not in s.council.dock_strikes else []
        if e == "circumcellions":
            return [] if self.of_kind(s, seat, "laity") else [Play(card=card, target=t) for t in others]
        return []

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
