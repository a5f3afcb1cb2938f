"""When each Event card may be played, with every choice its play needs (rule text: Event
Cards and each card's own text; RULINGS.md R20). One function per rule the data names for
the cards played from hand, registered for those cards (rules/effects.py ``playable_when``);
the Council cards are further held to a Council's debate by ``PlayRules._card_plays``."""

from __future__ import annotations

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
from ..model import Play, State
from .effects import playable_when


class PlayableRules:
    """The conditions and choices of the Event cards played from hand."""

    @playable_when("draw", "iconolatry", "western_emperor", "julian", "extra_votes", "church_reform")
    def _plays_draw(self, s: State, seat: Seat, card: str, ev: EventCard) -> list[Play]:
        """The cards played without a choice or a condition (Event Cards: the card's text): the
        draws, Iconolatry, Western Emperor, Julian the Apostate; at a Council's debate the extra
        votes and Church Reform (RULINGS.md R20)."""
        return self._single_play(card)

    @playable_when("regency")
    def _plays_regency(self, s: State, seat: Seat, card: str, ev: EventCard) -> list[Play]:
        """When Regency may be played, with its choices (Event Cards: the card's text)."""
        one = self._single_play(card)
        return (
            one if s.last_event == "new_emperor" and self.holder(s, EASTERN_EMPEROR) is not None else []
        )

    @playable_when("scandal")
    def _plays_scandal(self, s: State, seat: Seat, card: str, ev: EventCard) -> list[Play]:
        """When Scandal! may be played, with its choices (Event Cards: the card's text)."""
        one = self._single_play(card)
        return one if self.holder(s, EMPRESS) is not None and not s.council.scandal else []

    @playable_when("proselytism")
    def _plays_proselytism(self, s: State, seat: Seat, card: str, ev: EventCard) -> list[Play]:
        """When Proselytism may be played, with its choices (Event Cards: the card's text)."""
        others = self.others(s, seat)
        return [Play(card=card, bishop=b, target=t) for b in self._nominees(s, seat) for t in others]

    @playable_when("church_father")
    def _plays_church_father(self, s: State, seat: Seat, card: str, ev: EventCard) -> list[Play]:
        """When Church Father may be played, with its choices (Event Cards: the card's text)."""
        others = self.others(s, seat)
        out = []
        for b in self._nominees(s, seat):
            for t in others:
                for i, a in self.mat_cards(s, t):
                    if i >= 3:
                        out.append(Play(card=card, bishop=b, mode="refute", target=t, article=a))
            for dup in self._teachable(s, seat):
                for t in others:
                    if self._teach_ok(s, t, dup):
                        out.append(Play(card=card, bishop=b, mode="teach", target=t, article=dup))
        return out

    @playable_when("evangelic_campaign")
    def _plays_evangelic_campaign(self, s: State, seat: Seat, card: str, ev: EventCard) -> list[Play]:
        """When Evangelic Campaign may be played, with its choices (Event Cards: the card's text)."""
        return [Play(card=card, bishop=b) for b in self._nominees(s, seat) if self.cards[b].votes > 0]

    @playable_when("exile")
    def _plays_exile(self, s: State, seat: Seat, card: str, ev: EventCard) -> list[Play]:
        """When Exile in Armenia, Exile in Black Sea, Exile in Corsica, Exile in Upper Egypt may be
        played, with its choices (Event Cards: the card's text)."""
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

    @playable_when("agentes_in_rebus")
    def _plays_agentes_in_rebus(self, s: State, seat: Seat, card: str, ev: EventCard) -> list[Play]:
        """When Agentes in Rebus may be played, with its choices (Event Cards: the card's text)."""
        others = self.others(s, seat)
        return (
            [Play(card=card, target=t) for t in others]
            if self.holder(s, EASTERN_EMPEROR) is not None
            else []
        )

    @playable_when("odoacer")
    def _plays_odoacer(self, s: State, seat: Seat, card: str, ev: EventCard) -> list[Play]:
        """When Odoacer may be played, with its choices (Event Cards: the card's text)."""
        one = self._single_play(card)
        ok = self.holder(s, WESTERN_EMPEROR) is not None or self.holder(s, MAGISTER) is not None
        return one if ok else []

    @playable_when("civil_war")
    def _plays_civil_war(self, s: State, seat: Seat, card: str, ev: EventCard) -> list[Play]:
        """When Civil War may be played, with its choices (Event Cards: the card's text)."""
        others = self.others(s, seat)
        if not self.of_kind(s, seat, "laity"):
            return []
        return [Play(card=card, target=t) for t in others if self.of_kind(s, t, "laity")]

    @playable_when("iconoclasts")
    def _plays_iconoclasts(self, s: State, seat: Seat, card: str, ev: EventCard) -> list[Play]:
        """When Iconoclasts may be played, with its choices (Event Cards: the card's text)."""
        one = self._single_play(card)
        x = s.iconolatry
        ok = x is not None and x != seat and self.followers(s, seat) > self.followers(s, x)
        return one if ok else []

    @playable_when("bad_times")
    def _plays_bad_times(self, s: State, seat: Seat, card: str, ev: EventCard) -> list[Play]:
        """When Bad Times may be played, with its choices (Event Cards: the card's text)."""
        others = self.others(s, seat)
        return [Play(card=card, target=t) for t in others]

    @playable_when("military_intervention")
    def _plays_military_intervention(self, s: State, seat: Seat, card: str, ev: EventCard) -> list[Play]:
        """When Military Intervention may be played, with its choices: it closes the Council, and
        its player "can Persecute a Church attending the Council" — on a Church, or alone to
        persecute nobody (Event Cards: the card's text; RULINGS.md R20)."""
        others = self.others(s, seat)
        return self._single_play(card) + [Play(card=card, target=t) for t in others]

    @playable_when("corpse_synod")
    def _plays_corpse_synod(self, s: State, seat: Seat, card: str, ev: EventCard) -> list[Play]:
        """When Corpse Synod may be played, with its choices (Event Cards: the card's text)."""
        others = self.others(s, seat)
        return [Play(card=card, target=t) for t in others] if self.of_kind(s, seat, "patriarch") else []

    @playable_when("nika_riots")
    def _plays_nika_riots(self, s: State, seat: Seat, card: str, ev: EventCard) -> list[Play]:
        """When Nika Riots may be played, with its choices (Event Cards: the card's text)."""
        one = self._single_play(card)
        emp = self.emperor(s)
        return one if emp is not None and emp != seat else []

    @playable_when("new_emperor")
    def _plays_new_emperor(self, s: State, seat: Seat, card: str, ev: EventCard) -> list[Play]:
        """When New Emperor may be played, with its choices (Event Cards: the card's text)."""
        one = self._single_play(card)
        return one if self.holder(s, EASTERN_EMPEROR) != seat and EASTERN_EMPEROR not in s.removed else []

    @playable_when("emperor_hesitates")
    def _plays_emperor_hesitates(self, s: State, seat: Seat, card: str, ev: EventCard) -> list[Play]:
        """When The Emperor Hesitates may be played: at a Council the Emperor called ("without
        counting the votes of the Emperor who called the Council"), not one an Event card
        convoked (Event Cards: the card's text; RULINGS.md R20)."""
        one = self._single_play(card)
        called = s.council.convoker is not None and self.emperor_card(s) is not None
        return one if called and not s.council.hesitates else []

    @playable_when("dynastic_change")
    def _plays_dynastic_change(self, s: State, seat: Seat, card: str, ev: EventCard) -> list[Play]:
        """When Dynastic Change may be played, with its choices (Event Cards: the card's text)."""
        out = []
        if self.holder(s, EASTERN_EMPEROR) != seat:
            out.append(Play(card=card, mode="east"))
        w = self.holder(s, WESTERN_EMPEROR)
        if w is not None and w != seat:
            out.append(Play(card=card, mode="west"))
        return out

    @playable_when("patriarchate_constantinople")
    def _plays_patriarchate_constantinople(self, s: State, seat: Seat, card: str, ev: EventCard) -> list[Play]:
        """When The Emperor Creates the Patriarchate of Constantinople may be played, with its choices
        (Event Cards: the card's text)."""
        one = self._single_play(card)
        ok = self.holder(s, EASTERN_EMPEROR) == seat and CONSTANTINOPLE_P in s.patriarch_box
        return one if ok else []

    @playable_when("patriarchate_jerusalem")
    def _plays_patriarchate_jerusalem(self, s: State, seat: Seat, card: str, ev: EventCard) -> list[Play]:
        """When The Emperor Promotes the Bishop of Jerusalem to the Rank of Patriarch may be played,
        with its choices (Event Cards: the card's text)."""
        one = self._single_play(card)
        return one if self.holder(s, EASTERN_EMPEROR) == seat and JERUSALEM_P in s.patriarch_box else []

    @playable_when("usurpation")
    def _plays_usurpation(self, s: State, seat: Seat, card: str, ev: EventCard) -> list[Play]:
        """When Usurpation may be played, with its choices (Event Cards: the card's text)."""
        one = self._single_play(card)
        h = self.holder(s, EASTERN_EMPEROR)
        ok = h is not None and h != seat and self.laity_followers(s, seat) > self.laity_followers(s, h)
        return one if ok else []

    @playable_when("heterodox_book")
    def _plays_heterodox_book(self, s: State, seat: Seat, card: str, ev: EventCard) -> list[Play]:
        """When Gospel of the Child Thomas, Official Minutes of the Trial of Jesus of Nazareth, Secret
        Gospel of Mark, Words of Jesus may be played, with its choices (Event Cards: the card's
        text)."""
        one = self._single_play(card)
        d = self.doctrine_of(s, seat, s.council.article)
        ok = (
            d is not None
            and self.article(d[1]).symbol == ev.book
            and (seat, ev.book) not in s.council.books
        )
        return one if ok else []

    @playable_when("by_this_sign")
    def _plays_by_this_sign(self, s: State, seat: Seat, card: str, ev: EventCard) -> list[Play]:
        """When By This Sign Shall You Conquer may be played, with its choices (Event Cards: the card's
        text): on a Church holding Laity, to take one; with no Laity in another Church, alone, for
        its 2 Church cards (RULINGS.md R26)."""
        others = self.others(s, seat)
        plays = [Play(card=card, target=t) for t in others if self.of_kind(s, t, "laity")]
        return plays or self._single_play(card)

    @playable_when("recall_own")
    def _plays_recall_own(self, s: State, seat: Seat, card: str, ev: EventCard) -> list[Play]:
        """When Emperor's Concubine Intercedes may be played: "One of your Bishops can return from
        Exile" (Event Cards: the card's text)."""
        mine = set(s.players[seat].church)
        return [Play(card=card, mode="recall", bishop=b) for b, _ in s.exiled if b in mine]

    @playable_when("recall_any")
    def _plays_recall_any(self, s: State, seat: Seat, card: str, ev: EventCard) -> list[Play]:
        """When Interregnum may be played: "You can return 1 Bishop from Exile", any exiled Bishop
        (Event Cards: the card's text; RULINGS.md R24)."""
        return [Play(card=card, mode="recall", bishop=b) for b, _ in s.exiled]

    @playable_when("mutilation")
    def _plays_mutilation(self, s: State, seat: Seat, card: str, ev: EventCard) -> list[Play]:
        """When Mutilation! may be played, with its choices (Event Cards: the card's text)."""
        one = self._single_play(card)
        return one if self.holder(s, ROME) is not None and s.mutilated_until is None else []

    @playable_when("plague_west")
    def _plays_plague_west(self, s: State, seat: Seat, card: str, ev: EventCard) -> list[Play]:
        """When Plague in the West may be played, with its choices (Event Cards: the card's text)."""
        one = self._single_play(card)
        return one if self.holder(s, ROME) is not None else []

    @playable_when("simony")
    def _plays_simony(self, s: State, seat: Seat, card: str, ev: EventCard) -> list[Play]:
        """When Simony may be played, with its choices (Event Cards: the card's text)."""
        others = self.others(s, seat)
        return [Play(card=card, target=t) for t in others if self.of_kind(s, t, "bishop")]

    @playable_when("dock_strike")
    def _plays_dock_strike(self, s: State, seat: Seat, card: str, ev: EventCard) -> list[Play]:
        """When Dock Strike may be played, with its choices (Event Cards: the card's text)."""
        one = self._single_play(card)
        h = self.holder(s, EASTERN_EMPEROR)
        return one if h is not None and h != seat and seat not in s.council.dock_strikes else []

    @playable_when("circumcellions")
    def _plays_circumcellions(self, s: State, seat: Seat, card: str, ev: EventCard) -> list[Play]:
        """When Circumcellions may be played, with its choices (Event Cards: the card's text)."""
        others = self.others(s, seat)
        return [] if self.of_kind(s, seat, "laity") else [Play(card=card, target=t) for t in others]
