"""What each seat sees of a Barbarian Hordes State (Trust invariant: a seat's hand only to
that seat; war commitments secret until revealed), and the hidden-information redeal."""

from __future__ import annotations

import random
from typing import Any

from games.core import Seat
from games.core.secrets import redeal, redraw

from . import text
from .model import CardView, PlayCard, PlayerView, State, View
from .queries import HAND_LIMIT
from .rules.war import contribution


class ViewRules:
    """The game's ``view``, ``card_view``, ``perturb_hidden`` and the text forms of a View."""

    def card_view(self: Any, card_id: str) -> CardView:
        """A card as shown: id, name, types, Force, AO/DO restriction and text."""
        c = self.card(card_id)
        return CardView(id=c.id, name=c.display, types=c.types, force=c.force, only=c.only, text=c.text)

    def perturb_hidden(self: Any, s: State, keep: frozenset[Seat] | None, rand: random.Random) -> State:
        """``s`` as the seats of ``keep`` cannot tell it apart (games.core.secrets): the
        deck shuffled, the hands of the seats outside ``keep`` redealt with it (the cards
        committed to the war in progress stay in the hand), then, until the reveal, the
        commitment of each of those seats drawn again among every commitment it could
        have made with its new hand (``war_space``)."""
        others = [x for x in range(len(s.players)) if keep is not None and x not in keep]
        hidden = {c.seat: c for c in s.war.contributions} if s.war is not None and s.war.stage == "commit" else {}
        kept: dict[Seat, list[str]] = {}
        free = []
        for x in others:
            hand = list(s.players[x].hand)
            c = hidden.get(x)
            kept[x] = [card for card in (*c.cards, *([c.block] if c.block else [])) if card in hand] if c else []
            for card in kept[x]:
                hand.remove(card)
            free.append(hand)
        zones = redeal([*free, s.deck], rand)
        players = list(s.players)
        for x, hand in zip(others, zones, strict=False):
            players[x] = players[x].model_copy(update={"hand": tuple(kept[x]) + hand})
        out = s.model_copy(update={"players": tuple(players), "deck": zones[-1]})
        if not any(x in hidden for x in others):
            return out
        war = out.war
        assert war is not None
        redrawn = []
        for c in war.contributions:
            if c.seat in others:
                commitments = [a for a in self.war_space(out, c.seat) if not isinstance(a, PlayCard)]
                c = redraw(c, commitments, rand, key=lambda a, x=c.seat: contribution(war, x, a))
            redrawn.append(c)
        return out.model_copy(update={"war": war.model_copy(update={"contributions": tuple(redrawn)})})

    def sealed(self: Any, s: State) -> frozenset[Seat]:
        """The seats that have committed to the war in progress, until the reveal
        (CONQUEST PHASE: the commitments are made in secret; RULINGS R5)."""
        if s.war is None or s.war.stage != "commit":
            return frozenset()
        return frozenset(c.seat for c in s.war.contributions)

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
