"""A simple heuristic player for Barbarian Hordes.

It plays every Event card that helps it, hits the active player with X cards,
attacks the weaker neighbour when its War Total is likely higher, commits its
strongest Force cards when at war, negates enemy Leader cards, supports whoever
is fighting its strongest rival, and discards its least useful cards.
"""

from __future__ import annotations

import random
from typing import Any

from games.core import Seat

from .model import Attack, Block, Discard, Done, Fight, MoveSeat, Pass, PickNation, PlayCard, State, Support


class HeuristicAgent:
    name = "heuristic"

    def __init__(self, seed: int | None = None) -> None:
        self.rand = random.Random(seed)

    def choose(self, game: Any, s: State, seat: Seat) -> Any:
        actions = game.legal_actions(s, seat)
        if s.phase in ("draft", "reentry"):
            picks = [a for a in actions if isinstance(a, PickNation)]
            return picks[int(self.rand.random() * len(picks))]
        if s.war is not None:
            return self._war(game, s, seat)
        small = list(actions)
        kinds: dict[type, list[Any]] = {}
        for a in small:
            kinds.setdefault(type(a), []).append(a)
        me = s.players[seat]
        if s.windows:
            w = s.windows[-1]
            if w.kind == "negate":
                ks = [a for a in kinds.get(PlayCard, []) if a.negate]
                return ks[0] if ks and w.leader.seat != seat else Pass()
            hits = [a for a in kinds.get(PlayCard, []) if game.card(a.card).has("X")]
            if hits and s.players[s.active].armies > 0:
                return hits[0]
            return Pass()
        if s.phase == "fate":
            moves = kinds.get(MoveSeat, [])
            best = self._best_seat(game, s, seat, moves)
            return best or Done()
        if s.phase == "event":
            for a in kinds.get(PlayCard, []):
                card = game.card(a.card)
                if card.has("S") or card.has("M"):
                    continue
                return a
            return Done()
        if s.phase == "conquest":
            attacks = kinds.get(Attack, [])
            if attacks:
                target = min(attacks, key=lambda a: s.players[a.target].armies)
                if me.armies + 2 >= s.players[target.target].armies:
                    return target
            return Done()
        if s.phase == "end":
            excess = len(me.hand) - game.hand_limit(s, seat)
            ranked = sorted(me.hand, key=lambda c: self._value(game, c))
            return Discard(cards=tuple(sorted(ranked[:excess], key=me.hand.index)))
        return small[0]

    @staticmethod
    def _value(game: Any, card_id: str) -> int:
        card = game.card(card_id)
        return (card.force or 0) + (6 if card.has("K") or card.has("Y") or card.has("I") else 0) + 3

    def _best_seat(self, game: Any, s: State, seat: Seat, moves: list[Any]) -> Any:
        if not moves:
            return None
        current = sum(s.players[n].armies for n in game.neighbours(s, seat))
        best = min(moves, key=lambda m: s.players[m.left].armies + s.players[m.right].armies)
        if s.players[best.left].armies + s.players[best.right].armies < current:
            return best
        return None

    def _war(self, game: Any, s: State, seat: Seat) -> Any:
        war = s.war
        me = s.players[seat]
        if war.stage == "negate":
            for card in me.hand:
                if game.card(card).has("K"):
                    enemies = [
                        c
                        for c, owner in game.revealed_leaders(s)
                        if owner != seat and not self._friend(war, seat, owner)
                    ]
                    if enemies:
                        return PlayCard(card=card, negate=enemies[0])
            return Pass()
        if seat == war.defender:
            blocks = game.blocks(s, seat)
            if blocks and me.armies < s.players[war.attacker].armies:
                return Block(card=blocks[0])
        if seat in (war.attacker, war.defender):
            cards = game.war_cards(s, seat, seat)
            strong = tuple(
                c
                for c in cards
                if (game.card(c).force or 0) >= 5 or game.card(c).has("Y") and seat == war.defender
            )
            sac = "berserkers" in game.abilities(s, seat) and me.armies > 3
            return Fight(cards=strong, sacrifice=sac)
        # an ally: help whoever fights the leader in Territory Tokens
        a, d = war.attacker, war.defender
        ta, td = s.players[a].territories, s.players[d].territories
        if ta == td or me.armies < 4 or self.rand.random() < 0.5:
            return Pass()
        side = d if ta > td else a
        return Support(side=side, armies=min(3, me.armies // 3))

    @staticmethod
    def _friend(war: Any, seat: Seat, owner: Seat) -> bool:
        return owner == seat
