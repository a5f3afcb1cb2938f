"""Credo's views: what each seat sees of a State (the hands its own alone), and the States a seat cannot tell apart (games.core.secrets)."""

from __future__ import annotations

import random

from games.core import Seat
from games.core.secrets import redeal, shuffled

from .model import (
    ArticleView,
    ChurchCardView,
    CouncilView,
    HandCardView,
    PlayerView,
    State,
    View,
)


class ViewRules:
    """Views of a State, and its hidden parts perturbed."""

    def _article_view(self, card: str | None) -> ArticleView | None:
        if card is None:
            return None
        v = self._views.get(card)
        if v is None:
            a = self.article(card)
            v = ArticleView(id=a.id, name=a.name, doctrine=a.doctrine, numbers=a.numbers, symbol=a.symbol)
            self._views[card] = v
        return v

    def _card_view(self, card: str, exiled: bool) -> ChurchCardView:
        key = (card, exiled)
        v = self._views.get(key)
        if v is None:
            c = self.cards[card]
            v = ChurchCardView(
                id=card,
                name=c.name,
                kind=c.kind,
                half=c.half,
                votes=c.votes,
                followers=c.followers,
                exiled=exiled,
            )
            self._views[key] = v
        return v

    def hand_card_view(self, card: str) -> HandCardView:
        """A card in hand as its holder sees it: name, kind and text (an Article's penalty)."""
        if card in self.data.articles:
            a = self.article(card)
            text = "Article card" + (f"; penalty: {a.penalty_text}" if a.penalty_text else "")
            return HandCardView(id=card, name=a.name, kind="article", text=text)
        e = self.event(card)
        return HandCardView(id=card, name=e.name, kind="event", text=e.text)

    def perturb_hidden(self, s: State, keep: frozenset[Seat] | None, rand: random.Random) -> State:
        """``s`` as the seats of ``keep`` cannot tell it apart (games.core.secrets): the
        Church Cards box and the Event/Article deck shuffled, and the hands of the
        Churches outside ``keep`` redealt with the Event/Article deck."""
        others = [x for x in range(len(s.players)) if keep is not None and x not in keep]
        zones = redeal([*(s.players[x].hand for x in others), s.event_deck], rand)
        players = list(s.players)
        for x, hand in zip(others, zones, strict=False):
            players[x] = players[x].model_copy(update={"hand": hand})
        return s.model_copy(
            update={"players": tuple(players), "event_deck": zones[-1], "church_deck": shuffled(s.church_deck, rand)}
        )

    def view(self, s: State, viewer: Seat | None) -> View:
        """What ``viewer`` sees of ``s`` (None: a spectator): the table; its own hand alone;
        the card drawn to the active Church alone, unless it is an Event played at once on
        another Church."""
        players = []
        for x, p in enumerate(s.players):
            exiled = {b for b, _ in s.exiled}
            church = tuple(self._card_view(c, c in exiled) for c in p.church)
            players.append(
                PlayerView(
                    seat=x,
                    mat=tuple(self._article_view(c) for c in p.mat),
                    church=church,
                    followers=self.followers(s, x),
                    votes=self.total_votes(s, x),
                    hand_size=len(p.hand),
                    emperor=self.emperor(s) == x,
                    hand=tuple(self.hand_card_view(c) for c in p.hand) if viewer == x else None,
                )
            )
        council = None
        if s.council is not None:
            c = s.council
            supporters = tuple(
                (
                    d,
                    tuple(
                        x
                        for x in range(len(s.players))
                        if (dd := self.doctrine_of(s, x, c.article)) and self.article(dd[1]).key == d
                    ),
                )
                for d in c.proposals
            )
            council = CouncilView(
                article=c.article,
                convoker=c.convoker,
                stage=c.stage,
                proposals=c.proposals,
                supporters=supporters,
                votes=c.votes,
                bonus=c.bonus,
            )
        drawn = None
        if s.drawn is not None and (viewer == s.active or s.stage == "immediate"):
            drawn = self.hand_card_view(s.drawn)
        task = self.task_text(s, s.tasks[0]) if s.tasks else None
        return View(
            viewer=viewer,
            phase=s.phase,
            stage=s.stage,
            round=s.round,
            active=s.active,
            emperor=self.emperor(s),
            players=tuple(players),
            creed=tuple(self._article_view(c) for c in s.creed),
            next_article=self.next_article(s),
            church_deck=len(s.church_deck),
            church_discard=len(s.church_discard),
            event_deck=len(s.event_deck),
            event_discard=len(s.event_discard),
            patriarch_box=tuple(self.name(c) for c in s.patriarch_box),
            emperor_out=tuple(self.name(c) for c in s.emperor_out),
            goths=tuple(self.name(c) for c in s.goths),
            drawn=drawn,
            council=council,
            window=s.window.reason if s.window is not None else None,
            waiting=tuple(self.to_act(s)),
            task=task,
            last_roll=s.last_roll,
            winners=s.winners,
            end_reason=s.end_reason,
        )

    def summary(self, v: View) -> str:
        """Plain-text board for the terminal and logs."""
        from . import text

        return text.summary(v)

    def hand_text(self, v: View) -> str:
        """Plain-text hand for the terminal (text.hand_text)."""
        from . import text

        return text.hand_text(v)
