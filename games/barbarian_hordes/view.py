"""What each seat sees of a Barbarian Hordes State (Trust invariant: a seat's hand only to
that seat; war commitments secret until revealed), and the hidden-information redeal."""

from __future__ import annotations

import random
from typing import Any

from games.core import Seat
from games.core.secrets import redeal

from . import text
from .model import CardView, PlayerView, State, View
from .queries import HAND_LIMIT


class ViewRules:
    """The game's ``view``, ``card_view``, ``perturb_hidden`` and the text forms of a View."""

    def card_view(self: Any, card_id: str) -> CardView:
        """A card as shown: id, name, types, Force, AO/DO restriction and text."""
        c = self.card(card_id)
        return CardView(id=c.id, name=c.display, types=c.types, force=c.force, only=c.only, text=c.text)

    def perturb_hidden(self: Any, s: State, keep: frozenset[Seat] | None, rand: random.Random) -> State:
        """``s`` as the seats of ``keep`` cannot tell it apart (games.core.secrets): the
        deck shuffled, and the hands of the seats outside ``keep`` redealt with it (the
        cards a seat has committed to the war in progress stay in its hand)."""
        others = [x for x in range(len(s.players)) if keep is not None and x not in keep]
        committed: dict[Seat, list[str]] = {x: [] for x in others}
        for c in s.war.contributions if s.war is not None else ():
            if c.seat in committed:
                committed[c.seat] += [*c.cards, *([c.block] if c.block else [])]
        free = []
        for x in others:
            hand = list(s.players[x].hand)
            for c in committed[x]:
                if c in hand:
                    hand.remove(c)
            free.append(hand)
        zones = redeal([*free, s.deck], rand)
        players = list(s.players)
        for x, hand in zip(others, zones, strict=False):
            kept = tuple(c for c in committed[x] if c in s.players[x].hand)
            players[x] = players[x].model_copy(update={"hand": kept + hand})
        return s.model_copy(update={"players": tuple(players), "deck": zones[-1]})

    def view(self: Any, s: State, viewer: Seat | None) -> View:
        """What ``viewer`` (None: the public) sees: every nation's tokens and hand size,
        its own hand, the war's committed seats (the commitments once revealed)."""
        players = [
            PlayerView(
                seat=x,
                nation=self.data.nation(p.nation).name if p.nation else None,
                nation_id=p.nation,
                ability=self.data.ability_text(p.nation),
                armies=p.armies,
                territories=p.territories,
                hand_size=len(p.hand),
                status=p.status,
                hand=tuple(self.card_view(c) for c in p.hand) if viewer == x else None,
            )
            for x, p in enumerate(s.players)
        ]
        war = None
        window = None
        if s.war is not None:
            w = s.war
            war = {
                "attacker": w.attacker,
                "defender": w.defender,
                "stage": w.stage,
                "committed": tuple(c.seat for c in w.contributions),
                "waiting": w.waiting,
                "revealed": w.contributions if w.stage == "negate" else (),
            }
            window = "war commitments" if w.stage == "commit" else "negate Leader cards"
        elif s.windows:
            window = s.windows[-1].reason
        return View(
            viewer=viewer,
            variant=s.variant,
            round=s.round,
            phase=s.phase,
            active=None if s.phase in ("draft", "over") else s.active,
            turn_order=s.turn_order,
            seating=s.seating,
            players=tuple(players),
            deck_size=len(s.deck),
            discard_size=len(s.discard),
            discard_top=self.card_view(s.discard[-1]) if s.discard else None,
            conquests_left=s.conquests_left,
            attack_forbidden=s.attack_forbidden,
            protected=s.protected,
            waiting=tuple(self.to_act(s)),
            window=window,
            war=war,
            last_war=s.last_war,
            winner=s.winner,
            end_reason=s.end_reason,
            hand_limit=self.hand_limit(s, viewer) if viewer is not None else HAND_LIMIT,
        )

    def summary(self, v: View) -> str:
        """Plain-text board for the terminal and logs (see text.summary)."""
        return text.summary(v)

    def hand_text(self, v: View) -> str:
        """The viewer's hand as text."""
        return text.hand_text(v)
