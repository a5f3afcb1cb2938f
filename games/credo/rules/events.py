"""Event Cards (rule text, the Event cards' own texts and Special Event Cards): each card's effect."""

from __future__ import annotations

from games.core import IllegalActionError, Seat
from games.core.errors import list_words

from ..data import (
    CONSTANTINOPLE_P,
    EASTERN_EMPEROR,
    EMPRESS,
    JERUSALEM_P,
    MAGISTER,
    ROME,
    WESTERN_EMPEROR,
    EventCard,
)
from ..model import (
    Play,
    Task,
)
from ..queries import (
    BAD_TIMES_BISHOPS,
    EXTRA_VOTES,
)
from .context import _Ctx


class EventRules:
    """The effects of the Event cards."""

    def _resolve(self, ctx: _Ctx, seat: Seat, a: Play, ev: EventCard) -> bool:
        """Resolve an Event's effect; returns True when the card stays in play."""
        s = ctx.s
        e = ev.effect
        me = self.church_name(seat)
        c = s.council
        if e == "draw":
            self._draw_church(ctx, seat, ev.amount, ev.name)
        elif e == "iconolatry":
            self._draw_church(ctx, seat, ev.amount, ev.name)
            ctx.update(iconolatry=seat)
        elif e == "regency":
            emp_to = self.holder(s, EMPRESS)
            to = emp_to if emp_to is not None else seat
            self._give_church(ctx, EASTERN_EMPEROR, to)
            ctx.note(f"The Eastern Emperor goes to {self.church_name(to)} (Regency).")
        elif e == "scandal":
            ctx.update(council=c.model_copy(update={"scandal": True}))
        elif e == "proselytism":
            self.proselytise(ctx, seat, a.bishop, a.target)
        elif e == "church_father":
            self._church_father(ctx, seat, a)
        elif e == "evangelic_campaign":
            votes = self.cards[a.bishop].votes
            ctx.note(f"{self.name(a.bishop)} may preach to {votes} Church{'es' if votes != 1 else ''}.")
            self._task(
                ctx,
                Task(chooser=seat, owner=seat, kind="campaign", bishop=a.bishop, count=votes, reason=ev.name),
            )
        elif e == "fire_at_temple":
            h = self.holder(s, EASTERN_EMPEROR)
            if h is None:
                ctx.note("The Eastern Emperor is not in play: no persecution.")
            else:
                self.persecute(ctx, h, seat, "the Eastern Emperor is obliged to")
        elif e == "exile":
            if a.mode == "exile":
                ctx.update(exiled=ctx.s.exiled + ((a.bishop, a.card),))
                ctx.note(f"{self.name(a.bishop)} is exiled.")
                return True
            self._recall(ctx, a.bishop)
        elif e == "recall_own":
            self._recall(ctx, a.bishop)
        elif e == "agentes_in_rebus":
            self.persecute(ctx, self.holder(s, EASTERN_EMPEROR), a.target, "Agentes in Rebus")
        elif e == "odoacer":
            if self.holder(s, WESTERN_EMPEROR) is not None:
                self._remove_church(ctx, WESTERN_EMPEROR)
                ctx.update(removed=ctx.s.removed + (WESTERN_EMPEROR,))
                ctx.note("The Western Emperor is overthrown and removed from the game.")
            m = self.holder(ctx.s, MAGISTER)
            if m is not None:
                self._draw_church(ctx, m, 2, "Odoacer")
        elif e == "civil_war":
            mine, theirs = self.followers(s, seat, civil=True), self.followers(s, a.target, civil=True)
            ctx.note(f"Civil War: {me} {mine:,} Followers against {self.church_name(a.target)} {theirs:,}.")
            if mine != theirs:
                win, lose = (seat, a.target) if mine > theirs else (a.target, seat)
                for card in self.of_kind(ctx.s, lose, "laity"):
                    self._give_church(ctx, card, win)
                ctx.note(f"{self.church_name(win)} takes all the Laity of {self.church_name(lose)}.")
            else:
                ctx.note("The Followers are equal: nobody takes anything.")
        elif e == "iconoclasts":
            self.persecute(ctx, seat, s.iconolatry, "Iconoclasts")
        elif e == "military_intervention":
            ctx.note("The army closes down the General Council before any vote: the Article is undecided.")
            ctx.update(window=None)
            self._end_council(ctx, closing=True)
            self.persecute(ctx, seat, a.target, "Military Intervention")
        elif e == "corpse_synod":
            self.persecute(ctx, seat, a.target, "Corpse Synod")
            self._lose(ctx, seat, "follower", 1, "Corpse Synod")
        elif e == "nika_riots":
            emp = self.emperor(s)
            self.persecute(ctx, seat, emp, "Nika Riots")
            self._may_persecute(ctx, emp, seat, "the Emperor's response to the Nika Riots")
        elif e == "new_emperor":
            self._take_from_anywhere(ctx, EASTERN_EMPEROR, seat)
            ctx.note(f"The Eastern Emperor joins {me}.")
        elif e == "western_emperor":
            ctx.set_player(seat, church=ctx.s.players[seat].church + (a.card,))
            ctx.note(
                f"The Western Emperor comes into play in {me} (Laity, West, 5 votes, 500,000 Followers)."
            )
            return True
        elif e == "emperor_hesitates":
            ctx.update(council=c.model_copy(update={"hesitates": True}))
        elif e == "dynastic_change":
            card = EASTERN_EMPEROR if a.mode == "east" else WESTERN_EMPEROR
            self._take_from_anywhere(ctx, card, seat)
            ctx.note(f"The {self.name(card)} joins {me}.")
        elif e == "patriarchate_constantinople":
            self._take_from_anywhere(ctx, CONSTANTINOPLE_P, seat)
            ctx.note(f"The Patriarch of Constantinople joins {me}.")
        elif e == "patriarchate_jerusalem":
            self._take_from_anywhere(ctx, JERUSALEM_P, seat)
            for b in ("b-jerusalem", "b-caesarea"):
                if self.holder(ctx.s, b) is not None:
                    self._discard_church(ctx, b)
                    ctx.note(f"The {self.name(b)} is discarded.")
        elif e == "usurpation":
            self._give_church(ctx, EASTERN_EMPEROR, seat)
            ctx.note(f"{me} usurps the Eastern Emperor.")
        elif e == "apostacy":
            solar = any(self.article(x).symbol == "sun" for _, x in self.mat_cards(s, seat)) or any(
                x is not None and self.article(x).symbol == "sun" for x in s.creed
            )
            if solar:
                ctx.note("The sun doctrine is held: no loss.")
            else:
                self._lose(ctx, seat, "bishop", 1, "Apostacy!")
        elif e == "heterodox_book":
            ctx.update(council=c.model_copy(update={"books": c.books + ((seat, ev.book),)}))
        elif e == "extra_votes":
            self._bonus(ctx, seat)
        elif e == "church_reform":
            self._bonus(ctx, seat)
            self._lose(ctx, seat, "bishop", 1, "Church Reform")
            self._lose(ctx, seat, "laity", 1, "Church Reform")
            self._draw_church(ctx, seat, 1, "Church Reform")
        elif e == "by_this_sign":
            self._take(ctx, seat, a.target, "laity", 1, "By This Sign Shall You Conquer")
            self._draw_church(ctx, seat, 2, "By This Sign Shall You Conquer")
        elif e == "pagan_magician":
            self._lose(ctx, seat, "follower", 1, ev.name)
        elif e == "true_cross":
            for x in [seat, *self._others(s, seat)]:
                self._draw_church(ctx, x, 1, ev.name)
        elif e == "goths":
            ctx.update(goths=ctx.s.goths + (a.card,))
            for x in range(len(s.players)):
                n = sum(1 for lay in self.of_kind(s, x, "laity") if self.cards[lay].half == ev.half)
                if n:
                    self._lose(ctx, x, "follower", 2 * n, ev.name)
            return True
        elif e == "barbarians_west":
            w = self.holder(s, WESTERN_EMPEROR)
            if w is not None:
                self._lose(ctx, w, "follower", 4, ev.name)
            m = self.holder(s, MAGISTER)
            if m is not None:
                self._draw_church(ctx, m, 2, ev.name)
        elif e == "persians_east":
            hit = {
                "l-prefect-of-the-east",
                "l-prefect-of-illyria",
                "p-alexandria",
                "p-jerusalem",
                "p-antioch",
            }
            for x in range(len(s.players)):
                n = len(hit & set(s.players[x].church))
                if n:
                    self._lose(ctx, x, "follower", 2 * n, ev.name)
        elif e == "evangelisation":
            if ctx.s.goths:
                # "You can convert the Invading Goths": the player's choice (R23); the card
                # waits in front of him until he answers
                self._task(ctx, Task(chooser=seat, owner=seat, kind="convert", card=a.card, reason=ev.name))
                return True
            ctx.note("No Goths are invading: the card has no effect.")
        elif e == "demonstration_of_unity":
            self._start_council(ctx, convoker=None, end_turn=False, bonus=((seat, EXTRA_VOTES),))
        elif e == "council_convoked":
            self._start_council(ctx, convoker=None, end_turn=False)
        elif e == "scourge_of_god":
            for p in ("l-prefect-of-gaul", "l-prefect-of-italy-africa"):
                h = self.holder(s, p)
                if h is not None:
                    self._lose(ctx, h, "follower", 2, ev.name)
            r = self.holder(s, ROME)
            if r is not None:
                self._lose(ctx, r, "any", 4, ev.name)
        elif e == "exile_for_scandal":
            bishops = self._bishops(s, seat)
            if bishops:
                top = max(bishops, key=lambda b: (self.cards[b].votes, -bishops.index(b)))
                ctx.update(exiled=ctx.s.exiled + ((top, a.card),))
                ctx.note(f"{self.name(top)} is exiled to the silver mines of Sardinia.")
                return True
            ctx.note(f"{me} has no Bishop to exile.")
        elif e == "rich_lay_dignitary":
            self._lose(ctx, seat, "follower", 1, ev.name)
            self._lose(ctx, seat, "bishop", 1, ev.name)
        elif e == "neoplatonic":
            self._lose(ctx, seat, "bishop", 2, ev.name)
        elif e == "stylite":
            self._lose(ctx, seat, "follower", 3, ev.name)
            self._draw_church(ctx, seat, ev.amount, ev.name)
        elif e == "earthquake_antioch":
            h = self.holder(s, "p-antioch")
            if h is not None:
                self._lose(ctx, h, "follower", 2, ev.name)
        elif e == "schism":
            self._lose(ctx, seat, "bishop", 1, ev.name)
        elif e == "lose_bishop":
            self._lose(ctx, a.target, "bishop", 1, ev.name)
        elif e == "contested_election":
            self._take(ctx, seat, a.target, "bishop", 1, ev.name)
        elif e == "wave_of_asceticism":
            self._lose(ctx, a.target, "follower", 1, ev.name)
            self._lose(ctx, a.target, "laity", 1, ev.name)
        elif e == "serapis":
            self._lose(ctx, a.target, "patriarch", 1, ev.name)
        elif e == "gross_persecution":
            self._lose(ctx, a.target, "bishop", 1, ev.name)
            self._lose(ctx, a.target, "follower", 2, ev.name)
        elif e == "mutilation":
            ctx.update(mutilated_until=s.turns + len(s.players))
            ctx.note("The Patriarch of Rome is out of the game for 1 round (no votes until then).")
        elif e == "julian":
            if self.holder(s, EASTERN_EMPEROR) is not None:
                self._discard_church(ctx, EASTERN_EMPEROR)
            for x in range(len(s.players)):
                for card in self.of_kind(ctx.s, x, "laity"):
                    if self.cards[card].prefect:
                        self._discard_church(ctx, card)
            for x in range(len(s.players)):
                self._lose(ctx, x, "follower", 1, ev.name)
            pile = ctx.s.church_deck + ctx.s.church_discard
            ctx.update(church_deck=ctx.rng.shuffle(pile), church_discard=())
            ctx.note("The Eastern Emperor and the Prefects are discarded; the Church cards are reshuffled.")
        elif e == "plague_west":
            h = self.holder(s, ROME)
            self._lose(ctx, h, "follower", 2, ev.name)
            self._lose(ctx, h, "bishop", 1, ev.name)
        elif e == "bad_times":
            # "The rival chooses which Bishops cannot attend." (RULINGS.md R20)
            self._task(
                ctx,
                Task(
                    chooser=a.target,
                    owner=a.target,
                    kind="away",
                    kinds=("bishop",),
                    count=BAD_TIMES_BISHOPS,
                    reason=ev.name,
                ),
            )
        elif e == "simony":
            self._take(ctx, seat, a.target, "bishop", 1, ev.name)
            self._task(
                ctx, Task(chooser=seat, owner=seat, kinds=("follower",), dest=a.target, reason=ev.name)
            )
        elif e == "dock_strike":
            ctx.update(council=c.model_copy(update={"dock_strikes": c.dock_strikes + (seat,)}))
        elif e == "circumcellions":
            mine, theirs = len(self.of_kind(s, seat, "follower")), len(self.of_kind(s, a.target, "follower"))
            ctx.note(
                f"Circumcellions: {me} holds {mine} Follower cards, {self.church_name(a.target)} {theirs}."
            )
            if mine != theirs:
                win, lose = (seat, a.target) if mine > theirs else (a.target, seat)
                self._take(ctx, win, lose, "any", 2, ev.name)
        else:  # pragma: no cover - data and code out of step
            raise IllegalActionError(f"Unknown effect {e!r}.")
        return False

    def _bonus(self, ctx: _Ctx, seat: Seat) -> None:
        c = ctx.s.council
        ctx.update(council=c.model_copy(update={"bonus": c.bonus + ((seat, EXTRA_VOTES),)}))

    def _recall(self, ctx: _Ctx, bishop: str) -> None:
        for b, e in ctx.s.exiled:
            if b == bishop:
                ctx.update(
                    exiled=tuple(p for p in ctx.s.exiled if p[0] != bishop),
                    event_discard=ctx.s.event_discard + (e,),
                )
        ctx.note(f"{self.name(bishop)} returns from exile.")

    def _convert_goths(self, ctx: _Ctx, t: Task, convert: bool) -> None:
        """Evangelisation of the Goths, as its player chose: every invading Goths card joins
        his Church and the card stays in front of him; or the card is discarded (R23)."""
        seat, card = t.chooser, t.card
        if convert and ctx.s.goths:
            for g in ctx.s.goths:
                ctx.set_player(seat, church=ctx.s.players[seat].church + (g,))
            names = list_words([self.name(g) for g in ctx.s.goths])
            ctx.note(f"{self.church_name(seat)} converts the Goths: {names}.")
            ctx.update(goths=())
            ctx.set_player(seat, evangelised=ctx.s.players[seat].evangelised + (card,))
            return
        ctx.note(f"{self.church_name(seat)} does not convert the Goths.")
        if card is not None:
            if self.event(card).permanent:
                ctx.update(event_permanent=ctx.s.event_permanent + (card,))
            else:
                ctx.update(event_discard=ctx.s.event_discard + (card,))
