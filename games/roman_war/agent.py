"""A heuristic player for Roman War: the Roman seats and, in a duel, the Hannibal side.

A Roman keeps a Cost Zone large enough to play its next Maneuver card, plays Maneuver
cards first, defends the Ambushes that hurt most while keeping that reserve, answers
Ambushes with Feigned Retreat and Testudo, breaks Hannibal's Encampments once the team
is close to L3, rotates its field cards, takes affordable boosts, and discards its
least useful cards. The Hannibal side plays every Ambush at the weakest Roman.
"""

from __future__ import annotations

import random
from typing import Any

from games.core import Seat

from .model import (
    Ambush,
    Assault,
    Choose,
    Defend,
    Discard,
    Done,
    Overflow,
    Pass,
    PickAbility,
    PlaceCost,
    PlayCard,
    Rotate,
    State,
    TakeBoost,
    UseAbility,
)

PREFERENCE = (
    "deliverance",
    "benevolence",
    "speed",
    "restoration",
    "cost-zone-power",
    "foresight",
    "vibrancy",
    "brotherly-horse",
)
TYPE_VALUE = {"Maneuver": 9, "Defense": 6, "Tactic": 4, "Encampment": 5, "Token": 3}


class HeuristicAgent:
    name = "heuristic"

    def __init__(self, seed: int | None = None) -> None:
        self.rand = random.Random(seed)

    # ------------------------------------------------------------------ helpers

    def value(self, game: Any, s: State, seat: Seat, card_id: str) -> float:
        card = game.card(card_id)
        v = TYPE_VALUE[card.type]
        if card.type == "Maneuver" and s.romans[seat].maneuver >= 3:
            v = 1
        if any(e.do == "break" for e in card.effects) and s.encampments:
            v += 4
        return v - card.cost * 0.3

    def reserve(self, game: Any, s: State, seat: Seat) -> int:
        """Cost to keep for the cheapest Maneuver card in hand (0 at L3 or without one)."""
        r = s.romans[seat]
        if r.maneuver >= 3:
            return 0
        costs = [game.card(c).cost for c in r.hand if game.card(c).type == "Maneuver"]
        return min(costs) if costs else 0

    # ------------------------------------------------------------------ choose

    def choose(self, game: Any, s: State, seat: Seat) -> Any:
        actions = game.legal_actions(s, seat)
        if seat in game.hannibal_seats(s):
            return self._hannibal(game, s, actions)
        by: dict[type, list[Any]] = {}
        for a in actions:
            by.setdefault(type(a), []).append(a)
        r = s.romans[seat]
        if Overflow in by:
            return min(by[Overflow], key=lambda a: (a.source == "hand", self.value(game, s, seat, a.card)))
        if Choose in by:
            return by[Choose][0] if r.power > 1 else by[Choose][-1]
        if PickAbility in by and s.phase != "purchase":
            return min(by[PickAbility], key=lambda a: PREFERENCE.index(a.ability))
        if TakeBoost in by:
            spare = game.untapped(s, seat) - self.reserve(game, s, seat)
            for a in by[TakeBoost]:
                if spare >= 1 + a.index:
                    return a
            return Pass()
        if Pass in by:  # respond or help
            plays = by.get(PlayCard, [])
            for a in plays:
                eff = {e.do for e in game.card(a.card).effects}
                if (
                    "counter" in eff
                    or ("shield" in eff and r.power <= 2)
                    or ("defend" in eff)
                    or ("defend_gain" in eff)
                ):
                    return a
            spare = game.untapped(s, seat) - self.reserve(game, s, seat)
            for a in by.get(Defend, []):
                amb = next(x for x in s.ambushes if x.uid == a.target)
                cost = game.ambush_cost(s, amb.card)
                mine = amb.target == seat
                if cost <= spare and (mine or game.untapped(s, seat) >= 4):
                    return a
            return Pass()
        if s.phase == "cost":
            return self._cost(game, s, seat, by)
        if s.phase == "purchase":
            buys = sorted(by.get(PickAbility, []), key=lambda a: PREFERENCE.index(a.ability))
            if buys and game.untapped(s, seat) >= 13:
                return buys[0]
            return Done()
        if s.phase == "defense":
            return self._defense(game, s, seat, by)
        if s.phase == "main":
            return self._main(game, s, seat, by)
        if s.phase == "end":
            return min(by[Discard], key=lambda a: self.value(game, s, seat, a.card))
        return actions[0]

    def _cost(self, game: Any, s: State, seat: Seat, by: dict) -> Any:
        r = s.romans[seat]
        places = by.get(PlaceCost, [])
        want = 6 + 2 * r.maneuver
        if places and (len(r.cost_zone) < want or len(r.hand) > 5) and len(r.hand) > 1:
            keep = sorted(r.hand, key=lambda c: self.value(game, s, seat, c))
            return PlaceCost(card=keep[0])
        speed = [a for a in by.get(PlayCard, []) if game.card(a.card).type == "Maneuver"]
        if speed and r.maneuver < 3:
            return speed[0]
        return Done()

    def _defense(self, game: Any, s: State, seat: Seat, by: dict) -> Any:
        r = s.romans[seat]
        plays = by.get(PlayCard, [])
        defense = [a for a in plays if game.card(a.card).defends]
        if defense:
            return min(defense, key=lambda a: game.card(a.card).cost)
        rot = by.get(Rotate, [])
        if rot:
            return rot[0]
        spare = game.untapped(s, seat) - self.reserve(game, s, seat)
        for a in by.get(Defend, []):
            amb = next(x for x in s.ambushes if x.uid == a.target)
            cost = game.ambush_cost(s, amb.card)
            severe = bool(game.hcard(amb.card).chaos) or r.power <= 1
            if cost <= spare and (severe or cost <= 1):
                return a
        return Done()

    def _main(self, game: Any, s: State, seat: Seat, by: dict) -> Any:
        r = s.romans[seat]
        plays = by.get(PlayCard, [])
        near = min(x.maneuver for x in s.romans) >= 2 or s.round >= 8
        if r.maneuver < 3:
            man = [a for a in plays if game.card(a.card).type == "Maneuver"]
            if man:
                return max(man, key=lambda a: (game.card(a.card).cost, a.card))
        uses = by.get(UseAbility, [])
        for a in uses:
            if a.ability == "deliverance" and (len(s.encampments) >= 2 or near):
                return a
            if a.ability == "restoration" and r.deck and len(r.discard) > len(r.deck):
                return a
        breaks = [a for a in plays if any(e.do == "break" for e in game.card(a.card).effects)]
        if breaks and s.encampments:
            return breaks[0]
        assaults = by.get(Assault, [])
        spare = game.untapped(s, seat) - self.reserve(game, s, seat)
        if assaults and (near or len(s.encampments) >= 3):
            cheap = [
                a
                for a in assaults
                if game.hcard(next(e.card for e in s.encampments if e.uid == a.target)).defense <= spare
            ]
            if cheap:
                return cheap[0]
        tapped = sum(1 for c in r.cost_zone if c.tapped)
        for a in by.get(Rotate, []):
            f = next(f for f in r.field if f.uid == a.uid)
            untap_only = all(e.do == "untap" for e in game.card(f.card).rotate) and not f.attached
            if a.target is None and (tapped or not untap_only):
                return a
        for a in plays:
            card = game.card(a.card)
            if card.type in ("Encampment", "Token") and card.cost <= spare:
                return a
        for a in plays:
            card = game.card(a.card)
            if (
                card.type == "Tactic"
                and card.cost <= spare
                and not any(e.do in ("counter", "shield") for e in card.effects)
            ):
                if a.to is not None:
                    low = min((x for x in range(len(s.romans)) if x != seat), key=lambda x: s.romans[x].power)
                    if a.to != low:
                        continue
                return a
        return Done()

    def _hannibal(self, game: Any, s: State, actions: list[Any]) -> Any:
        plays = [a for a in actions if isinstance(a, Ambush)]
        if not plays:
            return Done()
        camps = [a for a in plays if a.target is None]
        if camps:
            return camps[0]
        return min(plays, key=lambda a: (s.romans[a.target].power, a.target != s.active))
