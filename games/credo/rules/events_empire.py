"""Event Cards of the Empire and of General Councils (rule text: the Event cards' own texts,
Special Event Cards, General Councils): the Emperors, Laity, barbarians and Council cards' effects."""

from __future__ import annotations

from games.core import Seat

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
from .effects import resolves


class EmpireEventRules:
    """The effects of the Event cards of the Empire and of General Councils."""

    @resolves("regency")
    def _event_regency(self, ctx: _Ctx, seat: Seat, a: Play, ev: EventCard) -> bool | None:
        """Regency (Event Cards: the card's text)."""
        s = ctx.s
        emp_to = self.holder(s, EMPRESS)
        to = emp_to if emp_to is not None else seat
        self._give_church(ctx, EASTERN_EMPEROR, to)
        ctx.note(f"The Eastern Emperor goes to {self.church_name(to)} (Regency).")

    @resolves("scandal")
    def _event_scandal(self, ctx: _Ctx, seat: Seat, a: Play, ev: EventCard) -> bool | None:
        """Scandal! (Event Cards: the card's text)."""
        c = ctx.s.council
        ctx.update(council=c.model_copy(update={"scandal": True}))

    @resolves("agentes_in_rebus")
    def _event_agentes_in_rebus(self, ctx: _Ctx, seat: Seat, a: Play, ev: EventCard) -> bool | None:
        """Agentes in Rebus (Event Cards: the card's text)."""
        s = ctx.s
        self.persecute(ctx, self.holder(s, EASTERN_EMPEROR), a.target, "Agentes in Rebus")

    @resolves("odoacer")
    def _event_odoacer(self, ctx: _Ctx, seat: Seat, a: Play, ev: EventCard) -> bool | None:
        """Odoacer (Event Cards: the card's text)."""
        s = ctx.s
        if self.holder(s, WESTERN_EMPEROR) is not None:
            self._remove_church(ctx, WESTERN_EMPEROR)
            ctx.update(removed=ctx.s.removed + (WESTERN_EMPEROR,))
            ctx.note("The Western Emperor is overthrown and removed from the game.")
        m = self.holder(ctx.s, MAGISTER)
        if m is not None:
            self._draw_church(ctx, m, 2, "Odoacer")

    @resolves("civil_war")
    def _event_civil_war(self, ctx: _Ctx, seat: Seat, a: Play, ev: EventCard) -> bool | None:
        """Civil War (Event Cards: the card's text)."""
        s = ctx.s
        me = self.church_name(seat)
        mine, theirs = self.followers(s, seat, civil=True), self.followers(s, a.target, civil=True)
        ctx.note(f"Civil War: {me} {mine:,} Followers against {self.church_name(a.target)} {theirs:,}.")
        if mine != theirs:
            win, lose = (seat, a.target) if mine > theirs else (a.target, seat)
            for card in self.of_kind(ctx.s, lose, "laity"):
                self._give_church(ctx, card, win)
            ctx.note(f"{self.church_name(win)} takes all the Laity of {self.church_name(lose)}.")
        else:
            ctx.note("The Followers are equal: nobody takes anything.")

    @resolves("iconoclasts")
    def _event_iconoclasts(self, ctx: _Ctx, seat: Seat, a: Play, ev: EventCard) -> bool | None:
        """Iconoclasts (Event Cards: the card's text)."""
        s = ctx.s
        self.persecute(ctx, seat, s.iconolatry, "Iconoclasts")

    @resolves("military_intervention")
    def _event_military_intervention(self, ctx: _Ctx, seat: Seat, a: Play, ev: EventCard) -> bool | None:
        """Military Intervention (Event Cards: the card's text): the Council closes; the player
        persecutes the Church it was played on, if any ("can Persecute"; RULINGS.md R20)."""
        ctx.note("The army closes down the General Council before any vote: the Article is undecided.")
        ctx.update(window=None)
        self.end_council(ctx, closing=True)
        if a.target is not None:
            self.persecute(ctx, seat, a.target, "Military Intervention")

    @resolves("nika_riots")
    def _event_nika_riots(self, ctx: _Ctx, seat: Seat, a: Play, ev: EventCard) -> bool | None:
        """Nika Riots (Event Cards: the card's text)."""
        s = ctx.s
        emp = self.emperor(s)
        self.persecute(ctx, seat, emp, "Nika Riots")
        self._may_persecute(ctx, emp, seat, "the Emperor's response to the Nika Riots")

    @resolves("new_emperor")
    def _event_new_emperor(self, ctx: _Ctx, seat: Seat, a: Play, ev: EventCard) -> bool | None:
        """New Emperor (Event Cards: the card's text)."""
        me = self.church_name(seat)
        self._take_from_anywhere(ctx, EASTERN_EMPEROR, seat)
        ctx.note(f"The Eastern Emperor joins {me}.")

    @resolves("western_emperor")
    def _event_western_emperor(self, ctx: _Ctx, seat: Seat, a: Play, ev: EventCard) -> bool | None:
        """Western Emperor (Event Cards: the card's text)."""
        me = self.church_name(seat)
        ctx.set_player(seat, church=ctx.s.players[seat].church + (a.card,))
        ctx.note(
            f"The Western Emperor comes into play in {me} (Laity, West, 5 votes, 500,000 Followers)."
        )
        return True

    @resolves("emperor_hesitates")
    def _event_emperor_hesitates(self, ctx: _Ctx, seat: Seat, a: Play, ev: EventCard) -> bool | None:
        """The Emperor Hesitates (Event Cards: the card's text)."""
        c = ctx.s.council
        ctx.update(council=c.model_copy(update={"hesitates": True}))

    @resolves("dynastic_change")
    def _event_dynastic_change(self, ctx: _Ctx, seat: Seat, a: Play, ev: EventCard) -> bool | None:
        """Dynastic Change (Event Cards: the card's text)."""
        me = self.church_name(seat)
        card = EASTERN_EMPEROR if a.mode == "east" else WESTERN_EMPEROR
        self._take_from_anywhere(ctx, card, seat)
        ctx.note(f"The {self.name(card)} joins {me}.")

    @resolves("patriarchate_constantinople")
    def _event_patriarchate_constantinople(self, ctx: _Ctx, seat: Seat, a: Play, ev: EventCard) -> bool | None:
        """The Emperor Creates the Patriarchate of Constantinople (Event Cards: the card's text)."""
        me = self.church_name(seat)
        self._take_from_anywhere(ctx, CONSTANTINOPLE_P, seat)
        ctx.note(f"The Patriarch of Constantinople joins {me}.")

    @resolves("patriarchate_jerusalem")
    def _event_patriarchate_jerusalem(self, ctx: _Ctx, seat: Seat, a: Play, ev: EventCard) -> bool | None:
        """The Emperor Promotes the Bishop of Jerusalem to the Rank of Patriarch (Event Cards: the
        card's text)."""
        self._take_from_anywhere(ctx, JERUSALEM_P, seat)
        for b in ("b-jerusalem", "b-caesarea"):
            if self.holder(ctx.s, b) is not None:
                self._discard_church(ctx, b)
                ctx.note(f"The {self.name(b)} is discarded.")

    @resolves("usurpation")
    def _event_usurpation(self, ctx: _Ctx, seat: Seat, a: Play, ev: EventCard) -> bool | None:
        """Usurpation (Event Cards: the card's text)."""
        me = self.church_name(seat)
        self._give_church(ctx, EASTERN_EMPEROR, seat)
        ctx.note(f"{me} usurps the Eastern Emperor.")

    @resolves("heterodox_book")
    def _event_heterodox_book(self, ctx: _Ctx, seat: Seat, a: Play, ev: EventCard) -> bool | None:
        """Gospel of the Child Thomas, Official Minutes of the Trial of Jesus of Nazareth, Secret
        Gospel of Mark, Words of Jesus (Event Cards: the card's text)."""
        c = ctx.s.council
        ctx.update(council=c.model_copy(update={"books": c.books + ((seat, ev.book),)}))

    @resolves("extra_votes")
    def _event_extra_votes(self, ctx: _Ctx, seat: Seat, a: Play, ev: EventCard) -> bool | None:
        """Deathbed Conversion, Western Delegation (Event Cards: the card's text)."""
        self._bonus(ctx, seat)

    @resolves("church_reform")
    def _event_church_reform(self, ctx: _Ctx, seat: Seat, a: Play, ev: EventCard) -> bool | None:
        """Church Reform (Event Cards: the card's text)."""
        self._bonus(ctx, seat)
        self._lose(ctx, seat, "bishop", 1, "Church Reform")
        self._lose(ctx, seat, "laity", 1, "Church Reform")
        self._draw_church(ctx, seat, 1, "Church Reform")

    @resolves("goths")
    def _event_goths(self, ctx: _Ctx, seat: Seat, a: Play, ev: EventCard) -> bool | None:
        """Goths Invade the East, Goths Invade the West (Event Cards: the card's text)."""
        s = ctx.s
        ctx.update(goths=ctx.s.goths + (a.card,))
        for x in range(len(s.players)):
            n = sum(1 for lay in self.of_kind(s, x, "laity") if self.cards[lay].half == ev.half)
            if n:
                self._lose(ctx, x, "follower", 2 * n, ev.name)
        return True

    @resolves("barbarians_west")
    def _event_barbarians_west(self, ctx: _Ctx, seat: Seat, a: Play, ev: EventCard) -> bool | None:
        """Barbarians Invade the West (Event Cards: the card's text)."""
        s = ctx.s
        w = self.holder(s, WESTERN_EMPEROR)
        if w is not None:
            self._lose(ctx, w, "follower", 4, ev.name)
        m = self.holder(s, MAGISTER)
        if m is not None:
            self._draw_church(ctx, m, 2, ev.name)

    @resolves("persians_east")
    def _event_persians_east(self, ctx: _Ctx, seat: Seat, a: Play, ev: EventCard) -> bool | None:
        """Persians Invade the East (Event Cards: the card's text)."""
        s = ctx.s
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

    @resolves("evangelisation")
    def _event_evangelisation(self, ctx: _Ctx, seat: Seat, a: Play, ev: EventCard) -> bool | None:
        """Evangelisation of the Goths (Event Cards: the card's text)."""
        if ctx.s.goths:
            # "You can convert the Invading Goths": the player's choice (R23); the card
            # waits in front of him until he answers
            self._task(ctx, Task(chooser=seat, owner=seat, kind="convert", card=a.card, reason=ev.name))
            return True
        ctx.note("No Goths are invading: the card has no effect.")

    @resolves("demonstration_of_unity")
    def _event_demonstration_of_unity(self, ctx: _Ctx, seat: Seat, a: Play, ev: EventCard) -> bool | None:
        """Demonstration of Unity (Event Cards: the card's text)."""
        self._start_council(ctx, convoker=None, end_turn=False, bonus=((seat, EXTRA_VOTES),))

    @resolves("council_convoked")
    def _event_council_convoked(self, ctx: _Ctx, seat: Seat, a: Play, ev: EventCard) -> bool | None:
        """General Council must be Convoked (Event Cards: the card's text)."""
        self._start_council(ctx, convoker=None, end_turn=False)

    @resolves("scourge_of_god")
    def _event_scourge_of_god(self, ctx: _Ctx, seat: Seat, a: Play, ev: EventCard) -> bool | None:
        """Scourge of God! (Event Cards: the card's text)."""
        s = ctx.s
        for p in ("l-prefect-of-gaul", "l-prefect-of-italy-africa"):
            h = self.holder(s, p)
            if h is not None:
                self._lose(ctx, h, "follower", 2, ev.name)
        r = self.holder(s, ROME)
        if r is not None:
            self._lose(ctx, r, "any", 4, ev.name)

    @resolves("mutilation")
    def _event_mutilation(self, ctx: _Ctx, seat: Seat, a: Play, ev: EventCard) -> bool | None:
        """Mutilation! (Event Cards: the card's text)."""
        s = ctx.s
        ctx.update(mutilated_until=s.turns + len(s.players))
        ctx.note("The Patriarch of Rome is out of the game for 1 round (no votes until then).")

    @resolves("julian")
    def _event_julian(self, ctx: _Ctx, seat: Seat, a: Play, ev: EventCard) -> bool | None:
        """Julian the Apostate (Event Cards: the card's text)."""
        s = ctx.s
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

    @resolves("plague_west")
    def _event_plague_west(self, ctx: _Ctx, seat: Seat, a: Play, ev: EventCard) -> bool | None:
        """Plague in the West (Event Cards: the card's text)."""
        s = ctx.s
        h = self.holder(s, ROME)
        self._lose(ctx, h, "follower", 2, ev.name)
        self._lose(ctx, h, "bishop", 1, ev.name)

    @resolves("bad_times")
    def _event_bad_times(self, ctx: _Ctx, seat: Seat, a: Play, ev: EventCard) -> bool | None:
        """Bad Times (Event Cards: the card's text)."""
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

    @resolves("dock_strike")
    def _event_dock_strike(self, ctx: _Ctx, seat: Seat, a: Play, ev: EventCard) -> bool | None:
        """Dock Strike (Event Cards: the card's text)."""
        c = ctx.s.council
        ctx.update(council=c.model_copy(update={"dock_strikes": c.dock_strikes + (seat,)}))
