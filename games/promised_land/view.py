"""What each seat sees of a Promised Land State (a seat's hand and coins only to that seat
until the end), and the hidden-information redeal (games.core.secrets)."""

from __future__ import annotations

import random
from typing import Any

from games.core import Seat
from games.core.secrets import redeal, shuffled

from . import text
from .model import PATRIARCH_TYPES, ArtefactView, CardView, LandView, PlayerView, State, TurnView, View


class ViewRules:
    """The game's ``view``, its card and Artefact views (kept: views are immutable),
    ``perturb_hidden`` and the text forms of a View."""

    _artefact_views: dict[tuple[str, bool], ArtefactView]
    _card_views: dict[int, CardView]
    _land_views: dict[tuple[Any, ...], LandView]

    def card_view(self: Any, number: int) -> CardView:
        """A Kingdom card as shown (kept: views are immutable)."""
        if number not in self._card_views:
            self._card_views[number] = self._card_view(number)
        return self._card_views[number]

    def _card_view(self: Any, number: int) -> CardView:
        c = self.card(number)
        return CardView(
            number=c.number,
            name=c.name,
            side=c.side,
            kingdom=c.kingdom,
            units=c.units,
            hills=c.hills,
            plains=c.plains,
            points=c.points,
        )

    def artefact_view(self: Any, aid: str, face_down: bool = False) -> ArtefactView:
        """An Artefact as shown, face up or down (kept: views are immutable)."""
        key = (aid, face_down)
        if key not in self._artefact_views:
            self._artefact_views[key] = self._artefact_view(aid, face_down)
        return self._artefact_views[key]

    def _artefact_view(self: Any, aid: str, face_down: bool) -> ArtefactView:
        a = self.data.artefacts[aid]
        return ArtefactView(
            id=a.id,
            name=a.display,
            coin=a.coin,
            cost=a.cost,
            points=a.points,
            phase=a.phase,
            text=a.text,
            face_down=face_down,
        )

    def perturb_hidden(self, s: State, keep: frozenset[Seat] | None, rand: random.Random) -> State:
        """``s`` as the seats of ``keep`` cannot tell it apart (games.core.secrets): the
        bag and the decks of the Books not yet dealt shuffled; and for each side, the
        Kingdom cards in hand of its players outside ``keep`` redealt with the cards of
        the current Book's deck they cannot place (hand sizes kept): not those the Time
        track has passed (nobody held them, RULINGS.md R27), not the discards of a seat
        of ``keep``."""
        players = list(s.players)
        decks = [d if i // 2 < s.book else shuffled(d, rand) for i, d in enumerate(s.decks)]
        for side_i, side in enumerate(("heathen", "hebrew")):
            team = [x for x, p in enumerate(s.players) if p.side == side]
            others = [x for x in team if keep is not None and x not in keep]
            if not others:
                continue
            di = (s.book - 1) * 2 + side_i
            deck = decks[di] if 0 <= di < len(decks) else ()
            known = {c for x in team if x not in others for c in s.players[x].discarded}
            fixed = tuple(c for c in deck if c <= s.time or c in known)
            free = [c for c in deck if c > s.time and c not in known]
            zones = redeal([*(s.players[x].hand for x in others), free], rand)
            i = 0  # the seats' discards are now cards of the redealt deck
            for x, hand in zip(others, zones, strict=False):
                k = len(s.players[x].discarded)
                discarded, i = zones[-1][i : i + k], i + k
                players[x] = players[x].model_copy(update={"hand": tuple(sorted(hand)), "discarded": discarded})
            if 0 <= di < len(decks):
                decks[di] = fixed + zones[-1]
        return s.model_copy(update={"players": tuple(players), "decks": tuple(decks), "bag": shuffled(s.bag, rand)})

    def sealed(self, s: State) -> frozenset[Seat]:
        """The seats that have made their secret discard of a Book's start while the
        others still choose theirs (RULINGS.md R27)."""
        if s.phase != "discard":
            return frozenset()
        return frozenset(x for x, p in enumerate(s.players) if p.discarded)

    def players_view(self: Any, s: State, viewer: Seat | None) -> tuple[PlayerView, ...]:
        """Each seat as ``viewer`` sees it: hands and coins of others hidden until the end."""
        over = s.phase == "over"
        counts = self.scores(s)
        scores = counts if over else None
        players = []
        for x, p in enumerate(s.players):
            mine = over or viewer == x
            players.append(
                PlayerView.model_construct(
                    seat=x,
                    side=p.side,
                    hand_size=len(p.hand),
                    hand=tuple(self.card_view(c) for c in p.hand) if mine else None,
                    played=tuple(self.card_view(c) for c in p.played),
                    coins=p.coins if mine else None,
                    artefacts=tuple(self.artefact_view(o.id, o.face_down) for o in p.artefacts),
                    royal=p.royal,
                    kingdom=p.kingdom,
                    patriarchs_in_supply=tuple(self.in_supply(s, x, t) for t in PATRIARCH_TYPES),  # type: ignore[arg-type]
                    to_discard=p.to_discard,
                    score=sum(scores[x].values()) if scores else None,
                    score_parts=tuple(scores[x].items()) if scores else (),
                    points=sum(v for k, v in counts[x].items() if k != "coins"),
                )
            )
        return tuple(players)

    def lands_view(self: Any, s: State) -> tuple[LandView, ...]:
        """Every land with its kingdom, units, buildings, the Ark and Patriarchs (kept: a
        land's view is immutable and shared)."""
        lands = []
        owners = self.land_kingdoms(s)
        at: dict[int, list[tuple[Seat, str]]] = {}
        for p in s.patriarchs:
            at.setdefault(p.land, []).append((p.seat, p.type))
        for i, land in enumerate(self.data.lands):
            x = s.lands[i]
            key = (i, x.counters, x.units, x.city, x.temple, s.ark == i, tuple(at.get(i, ())), owners[i])
            lv = self._land_views.get(key)
            if lv is None:
                lv = LandView.model_construct(
                    id=land.id,
                    name=land.name,
                    terrain=land.terrain,
                    port=land.port,
                    road=land.road,
                    counters=x.counters,
                    kingdom=owners[i],
                    units=x.units,
                    city=x.city,
                    temple=x.temple,
                    ark=s.ark == i,
                    patriarchs=key[6],
                )
                if len(self._land_views) > 4096:
                    self._land_views.clear()
                self._land_views[key] = lv
            lands.append(lv)
        return tuple(lands)

    def turn_view(self: Any, s: State) -> TurnView | None:
        """The Player Turn in progress, as everyone sees it."""
        turn = None
        if s.turn is not None:
            t = s.turn
            turn = TurnView(
                card=self.card_view(t.card),
                seat=t.seat,
                kingdom=t.kingdom,
                kingdom_name=self.kingdom(t.kingdom).name,
                phase=t.phase,
                units=t.units,
                shortfall=t.shortfall,
                half=t.half,
                continued=t.continued if t.last_failed is not None else 0,
                actions=t.actions,
                free_places=t.free_places,
                plays=t.plays,
                buys=t.buys,
                effects=t.effects,
                retreating=tuple(r.seat for r in t.retreats),
            )
        return turn

    def view(self: Any, s: State, viewer: Seat | None) -> View:
        """What ``viewer`` (None: a spectator) sees of ``s``."""
        players = self.players_view(s, viewer)
        lands = self.lands_view(s)
        turn = self.turn_view(s)
        prompts = self.to_act(s)
        return View(
            viewer=viewer,
            no_dice=s.no_dice,
            phase=s.phase,
            book=s.book,
            time=s.time,
            players=players,
            lands=lands,
            unit_supply=s.unit_supply,
            cities=s.cities,
            temples=s.temples,
            coin_supply=s.coin_supply,
            bag_size=len(s.bag),
            array=tuple(self.artefact_view(a) for a in s.array),
            royal_track=tuple(
                (t.id, t.name, t.cost_text, t.points)
                for t in (self.data.royal_token[r] for r in s.royal_track)
            ),
            kingdom_track=tuple(
                (t.id, t.text, t.points) for t in (self.data.kingdom_token[k] for k in s.kingdom_track)
            ),
            turn=turn,
            waiting=tuple(sorted(prompts)),
            prompt=" / ".join(sorted({p.text for p in prompts.values()})),
            last_combat=s.last_combat,
            winners=s.winners,
            end_reason=s.end_reason,
        )

    def summary(self, v: View) -> str:
        """Plain-text board for the terminal and logs (see text.summary)."""
        return text.summary(v)

    def hand_text(self, v: View) -> str:
        """The viewer's hand, coins and Artefacts as text."""
        return text.hand_text(v)
