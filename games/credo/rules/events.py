"""Event Cards (rule text, the Event cards' own texts and Special Event Cards): each card's effect."""

from __future__ import annotations

from games.core import IllegalActionError, Seat
from games.core.errors import list_words

from ..data import (
    EASTERN_EMPEROR,
    EventCard,
)
from ..model import (
    Play,
    Task,
)
from ..queries import (
    EXTRA_VOTES,
)
from .context import _Ctx
from .effects import effect, resolves


class EventRules:
    """The effects of the Event cards."""

    def _resolve(self, ctx: _Ctx, seat: Seat, a: Play, ev: EventCard) -> bool:
        """Resolve an Event's effect (the function the registry holds for the card, by its
        id); returns True when the card stays in play."""
        fn = effect.get(a.card)
        if fn is None:  # pragma: no cover - data and code out of step
            raise IllegalActionError(f"Unknown effect {ev.effect!r}.")
        return bool(fn(self, ctx, seat, a, ev))

    @resolves("draw")
    def _event_draw(self, ctx: _Ctx, seat: Seat, a: Play, ev: EventCard) -> bool | None:
        """Church Historian Refutes Pagan Errors, Creation of Coastal Theological Chapels, Demographic
        Change, Introduction of Infant Baptism, Introduction of Silk Vestments, Itinerant Preacher,
        Mass Baptism, Mass Conversion, New Basilica, New Liturgy, Oppressed Peasants Seek
        Compassion, Religious Miracles, The Chapel of a Martyr Attracts Pilgrims, Translation of
        Relics, Your Charity Works Attract Followers (Event Cards: the card's text)."""
        self._draw_church(ctx, seat, ev.amount, ev.name)

    @resolves("iconolatry")
    def _event_iconolatry(self, ctx: _Ctx, seat: Seat, a: Play, ev: EventCard) -> bool | None:
        """Iconolatry (Event Cards: the card's text)."""
        self._draw_church(ctx, seat, ev.amount, ev.name)
        ctx.update(iconolatry=seat)

    @resolves("proselytism")
    def _event_proselytism(self, ctx: _Ctx, seat: Seat, a: Play, ev: EventCard) -> bool | None:
        """Proselytism (Event Cards: the card's text)."""
        self.proselytise(ctx, seat, a.bishop, a.target)

    @resolves("church_father")
    def _event_church_father(self, ctx: _Ctx, seat: Seat, a: Play, ev: EventCard) -> bool | None:
        """Church Father (Event Cards: the card's text)."""
        self._church_father(ctx, seat, a)

    @resolves("evangelic_campaign")
    def _event_evangelic_campaign(self, ctx: _Ctx, seat: Seat, a: Play, ev: EventCard) -> bool | None:
        """Evangelic Campaign (Event Cards: the card's text)."""
        votes = self.cards[a.bishop].votes
        ctx.note(f"{self.name(a.bishop)} may preach to {votes} Church{'es' if votes != 1 else ''}.")
        self._task(
            ctx,
            Task(chooser=seat, owner=seat, kind="campaign", bishop=a.bishop, count=votes, reason=ev.name),
        )

    @resolves("fire_at_temple")
    def _event_fire_at_temple(self, ctx: _Ctx, seat: Seat, a: Play, ev: EventCard) -> bool | None:
        """Fire at the Temple of Apollo (Event Cards: the card's text)."""
        s = ctx.s
        h = self.holder(s, EASTERN_EMPEROR)
        if h is None:
            ctx.note("The Eastern Emperor is not in play: no persecution.")
        else:
            self.persecute(ctx, h, seat, "the Eastern Emperor is obliged to")

    @resolves("exile")
    def _event_exile(self, ctx: _Ctx, seat: Seat, a: Play, ev: EventCard) -> bool | None:
        """Exile in Armenia, Exile in Black Sea, Exile in Corsica, Exile in Upper Egypt (Event Cards:
        the card's text)."""
        if a.mode == "exile":
            ctx.update(exiled=ctx.s.exiled + ((a.bishop, a.card),))
            ctx.note(f"{self.name(a.bishop)} is exiled.")
            return True
        self._recall(ctx, a.bishop)

    @resolves("recall_own", "recall_any")
    def _event_recall(self, ctx: _Ctx, seat: Seat, a: Play, ev: EventCard) -> bool | None:
        """Emperor's Concubine Intercedes (one's own Bishop), Interregnum (any Bishop) (Event Cards:
        the card's text)."""
        self._recall(ctx, a.bishop)

    @resolves("corpse_synod")
    def _event_corpse_synod(self, ctx: _Ctx, seat: Seat, a: Play, ev: EventCard) -> bool | None:
        """Corpse Synod (Event Cards: the card's text)."""
        self.persecute(ctx, seat, a.target, "Corpse Synod")
        self._lose(ctx, seat, "follower", 1, "Corpse Synod")

    @resolves("apostacy")
    def _event_apostacy(self, ctx: _Ctx, seat: Seat, a: Play, ev: EventCard) -> bool | None:
        """Apostacy! (Event Cards: the card's text)."""
        s = ctx.s
        solar = any(self.article(x).symbol == "sun" for _, x in self.mat_cards(s, seat)) or any(
            x is not None and self.article(x).symbol == "sun" for x in s.creed
        )
        if solar:
            ctx.note("The sun doctrine is held: no loss.")
        else:
            self._lose(ctx, seat, "bishop", 1, "Apostacy!")

    @resolves("by_this_sign")
    def _event_by_this_sign(self, ctx: _Ctx, seat: Seat, a: Play, ev: EventCard) -> bool | None:
        """By This Sign Shall You Conquer (Event Cards: the card's text); played alone when no other
        Church has Laity to take (RULINGS.md R26)."""
        if a.target is not None:
            self._take(ctx, seat, a.target, "laity", 1, "By This Sign Shall You Conquer")
        self._draw_church(ctx, seat, 2, "By This Sign Shall You Conquer")

    @resolves("pagan_magician")
    def _event_pagan_magician(self, ctx: _Ctx, seat: Seat, a: Play, ev: EventCard) -> bool | None:
        """Pagan Magician, Pestilence (Event Cards: the card's text)."""
        self._lose(ctx, seat, "follower", 1, ev.name)

    @resolves("true_cross")
    def _event_true_cross(self, ctx: _Ctx, seat: Seat, a: Play, ev: EventCard) -> bool | None:
        """Emperor's Mother Finds the True Cross (Event Cards: the card's text)."""
        s = ctx.s
        for x in [seat, *self.others(s, seat)]:
            self._draw_church(ctx, x, 1, ev.name)

    @resolves("exile_for_scandal")
    def _event_exile_for_scandal(self, ctx: _Ctx, seat: Seat, a: Play, ev: EventCard) -> bool | None:
        """Exile for Causing Scandal (Event Cards: the card's text)."""
        s = ctx.s
        me = self.church_name(seat)
        bishops = self._bishops(s, seat)
        if bishops:
            top = max(bishops, key=lambda b: (self.cards[b].votes, -bishops.index(b)))
            ctx.update(exiled=ctx.s.exiled + ((top, a.card),))
            ctx.note(f"{self.name(top)} is exiled to the silver mines of Sardinia.")
            return True
        ctx.note(f"{me} has no Bishop to exile.")

    @resolves("rich_lay_dignitary")
    def _event_rich_lay_dignitary(self, ctx: _Ctx, seat: Seat, a: Play, ev: EventCard) -> bool | None:
        """Rich Lay Dignitary Renounces your Church (Event Cards: the card's text)."""
        self._lose(ctx, seat, "follower", 1, ev.name)
        self._lose(ctx, seat, "bishop", 1, ev.name)

    @resolves("neoplatonic")
    def _event_neoplatonic(self, ctx: _Ctx, seat: Seat, a: Play, ev: EventCard) -> bool | None:
        """Neoplatonic Philosophers (Event Cards: the card's text)."""
        self._lose(ctx, seat, "bishop", 2, ev.name)

    @resolves("stylite")
    def _event_stylite(self, ctx: _Ctx, seat: Seat, a: Play, ev: EventCard) -> bool | None:
        """Stylite (Event Cards: the card's text)."""
        self._lose(ctx, seat, "follower", 3, ev.name)
        self._draw_church(ctx, seat, ev.amount, ev.name)

    @resolves("earthquake_antioch")
    def _event_earthquake_antioch(self, ctx: _Ctx, seat: Seat, a: Play, ev: EventCard) -> bool | None:
        """Earthquake at Antioch (Event Cards: the card's text)."""
        s = ctx.s
        h = self.holder(s, "p-antioch")
        if h is not None:
            self._lose(ctx, h, "follower", 2, ev.name)

    @resolves("schism")
    def _event_schism(self, ctx: _Ctx, seat: Seat, a: Play, ev: EventCard) -> bool | None:
        """Schism in your Church (Event Cards: the card's text)."""
        self._lose(ctx, seat, "bishop", 1, ev.name)

    @resolves("lose_bishop")
    def _event_lose_bishop(self, ctx: _Ctx, seat: Seat, a: Play, ev: EventCard) -> bool | None:
        """Dethronement, Dies Irae (Event Cards: the card's text)."""
        self._lose(ctx, a.target, "bishop", 1, ev.name)

    @resolves("contested_election")
    def _event_contested_election(self, ctx: _Ctx, seat: Seat, a: Play, ev: EventCard) -> bool | None:
        """Contested Episcopal Election (Event Cards: the card's text)."""
        self._take(ctx, seat, a.target, "bishop", 1, ev.name)

    @resolves("wave_of_asceticism")
    def _event_wave_of_asceticism(self, ctx: _Ctx, seat: Seat, a: Play, ev: EventCard) -> bool | None:
        """Wave of Asceticism (Event Cards: the card's text)."""
        self._lose(ctx, a.target, "follower", 1, ev.name)
        self._lose(ctx, a.target, "laity", 1, ev.name)

    @resolves("serapis")
    def _event_serapis(self, ctx: _Ctx, seat: Seat, a: Play, ev: EventCard) -> bool | None:
        """Enraged Worshipers of Serapis (Event Cards: the card's text)."""
        self._lose(ctx, a.target, "patriarch", 1, ev.name)

    @resolves("gross_persecution")
    def _event_gross_persecution(self, ctx: _Ctx, seat: Seat, a: Play, ev: EventCard) -> bool | None:
        """Accounts of Gross Persecution (Event Cards: the card's text)."""
        self._lose(ctx, a.target, "bishop", 1, ev.name)
        self._lose(ctx, a.target, "follower", 2, ev.name)

    @resolves("simony")
    def _event_simony(self, ctx: _Ctx, seat: Seat, a: Play, ev: EventCard) -> bool | None:
        """Simony (Event Cards: the card's text)."""
        self._take(ctx, seat, a.target, "bishop", 1, ev.name)
        self._task(
            ctx, Task(chooser=seat, owner=seat, kinds=("follower",), dest=a.target, reason=ev.name)
        )

    @resolves("circumcellions")
    def _event_circumcellions(self, ctx: _Ctx, seat: Seat, a: Play, ev: EventCard) -> bool | None:
        """Circumcellions (Event Cards: the card's text)."""
        s = ctx.s
        me = self.church_name(seat)
        mine, theirs = len(self.of_kind(s, seat, "follower")), len(self.of_kind(s, a.target, "follower"))
        ctx.note(
            f"Circumcellions: {me} holds {mine} Follower cards, {self.church_name(a.target)} {theirs}."
        )
        if mine != theirs:
            win, lose = (seat, a.target) if mine > theirs else (a.target, seat)
            self._take(ctx, win, lose, "any", 2, ev.name)

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
