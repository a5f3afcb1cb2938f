"""A heuristic player for Promised Land: greedy, one decision at a time.

Initial placement: when holding most coins, place first, then the poorer teammates.
Kingdom building: take the best-odds conquest (Force victory when free, roughly even odds
otherwise), stack the start-land, then turn unused units into the coins the next Royal token
needs. Actions: the Kingdom track when its demand is met, the Royal track when affordable,
Patriarchs where they earn most, else collect a coin. Buys the dearest affordable Artefact.
"""

from __future__ import annotations

import random
from functools import lru_cache
from typing import Any

from .data import COINS
from .model import (
    AdvanceKingdom,
    AdvanceRoyal,
    Attack,
    Build,
    Buy,
    CollectCoin,
    Discard,
    EndBuilding,
    MoveArk,
    Patriarch,
    PlacementOrder,
    PlacePatriarch,
    PlayArtefact,
    RetreatTo,
    Stack,
)

COIN = 0.34  # points a coin is worth: 3 coins buy a 1-point Artefact or token


class HeuristicAgent:
    name = "heuristic"

    def __init__(self, seed: int | None = None) -> None:
        self.rand = random.Random(seed)
        # per-state figures every action's score reads: (state, {key: value}) of the last state
        self._memo: tuple[Any, dict[Any, Any]] = (None, {})

    def _once(self, s: Any, key: Any, compute: Any) -> Any:
        """``compute()``, remembered for state ``s`` (frozen) under ``key``."""
        if self._memo[0] is not s:
            self._memo = (s, {})
        memo = self._memo[1]
        if key not in memo:
            memo[key] = compute()
        return memo[key]

    def choose(self, game: Any, s: Any, seat: int) -> Any:
        actions = list(game.legal_actions(s, seat))
        if not actions:
            raise RuntimeError("prompted without a legal action")
        scored = [
            (self.score(game, s, seat, a) + self.rand.random() * 0.01, i) for i, a in enumerate(actions)
        ]
        return actions[max(scored)[1]]

    def score(self, game: Any, s: Any, seat: int, a: Any) -> float:
        """How much ``a`` is worth to ``seat`` (higher is better), by the kind of action;
        outside a Player Turn only the placements, the discards and the retreats count."""
        scorer = _SCORERS.get(type(a))
        if scorer is None or (s.turn is None and type(a) not in _ANY_TIME):
            return 0
        return scorer(self, game, s, seat, a)

    def _order(self, game: Any, s: Any, seat: int, a: PlacementOrder) -> float:
        # first pick of the lands for itself, then the teammates with fewer coins first
        # (the poorer gain most from a good land)
        others = [x for x in a.seats if x != seat]
        poorer_first = others == sorted(others, key=lambda x: (sum(s.players[x].coins), x))
        return -10 * a.seats.index(seat) + poorer_first

    def _discard(self, game: Any, s: Any, seat: int, a: Discard) -> float:
        # keep strong cards and Weaker cards' points; throw away the weakest
        return -sum(game.card(c).units + 2 * game.card(c).points for c in a.cards)

    def _place(self, game: Any, s: Any, seat: int, a: PlacePatriarch) -> float:
        # points-equivalent: revenue per own turn x own turns left x value of a coin,
        # discounted for the risk of conquest; Hebrews also score it as remnant
        if self._memo[0] is not s:
            self._memo = (s, {})
        memo = self._memo[1]
        key = ("place", seat, a.type, a.land)
        value = memo.get(key)
        if value is None:
            value = memo[key] = self._placed(game, s, seat, a)
        if a.source is not None:
            key = ("leave", seat, a.type, a.source)
            left = memo.get(key)
            if left is None:
                left = memo[key] = self._left(game, s, seat, a)
            value -= left
        if s.phase == "place":
            return value
        t = s.turn
        return value - (0 if t is None or t.free_places else COIN)

    def _retreat(self, game: Any, s: Any, seat: int, a: RetreatTo) -> float:
        if a.land is None:
            return 0
        return 1 + game.patriarch_revenue(s, _P(seat, s.turn.retreats[0].type, game.idx[a.land]), 1)

    def _attack(self, game: Any, s: Any, seat: int, a: Attack) -> float:
        land = game.idx[a.land]
        if a.force:
            halves = self._once(s, ("halves", land), lambda: game.force_halves(s, land)) or 0
            return 9 - halves + self._value(game, s, land)
        d = self._defence(game, s, land)
        dice = self._once(s, ("dice", land), lambda: game.attack_dice(s, land))
        odds = {1: 3.5, 2: 4.5, 3: 5.0}[dice] - (3.5 + d)
        return 5 + odds * 2 + self._value(game, s, land)

    def _end_building(self, game: Any, s: Any, seat: int, a: EndBuilding) -> float:
        need = self._need(game, s, seat)
        return 1 + sum(n * need[i] for i, n in enumerate(a.coins)) * 0.01

    def _kingdom(self, game: Any, s: Any, seat: int, a: AdvanceKingdom) -> float:
        tok = game.data.kingdom_token[s.kingdom_track[s.players[seat].kingdom]]
        return tok.points + 0.5

    def _royal(self, game: Any, s: Any, seat: int, a: AdvanceRoyal) -> float:
        tok = game.data.royal_token[s.royal_track[s.players[seat].royal]]
        perk = {"treasury": 1.0, "authority": 1.0, "power": 0.5, "justice": 1.5}.get(tok.id, 0.0)
        perk *= min(1.0, self._turns_left(game, s, seat) / 4)
        return tok.points + perk - sum(a.pay) * COIN - max(a.pay) * 0.01

    def _collect(self, game: Any, s: Any, seat: int, a: CollectCoin) -> float:
        need = self._need(game, s, seat)
        return len(a.coins) * COIN + sum(need[COINS.index(c)] for c in a.coins) * 0.01

    def _buy(self, game: Any, s: Any, seat: int, a: Buy) -> float:
        return 10 + game.data.artefacts[a.artefact].points

    def _base(self, game: Any, s: Any, seat: int) -> int:
        """Patriarch revenue base: 2 in a team of 3, else 1."""
        return 2 if self._once(s, ("team", seat), lambda: game.team_size(s, seat)) == 3 else 1

    def _placed(self, game: Any, s: Any, seat: int, a: PlacePatriarch) -> float:
        """Points-equivalent of a Patriarch of ``a.type`` on ``a.land``: revenue per own
        turn x own turns left x value of a coin, discounted for the risk of conquest;
        Hebrews also score it as remnant."""
        land = game.idx[a.land]
        turns, base = self._once(s, ("seat", seat), lambda: (self._turns_left(game, s, seat), self._base(game, s, seat)))
        rev = game.patriarch_revenue(s, _P(seat, a.type, land), base)
        safety = 0.5 + 0.15 * (s.lands[land].units + max(0, self._defence(game, s, land)))
        value = rev * turns * COIN * safety
        if s.players[seat].side == "hebrew":
            value += rev * safety
        return value

    def _left(self, game: Any, s: Any, seat: int, a: PlacePatriarch) -> float:
        """What moving a Patriarch of ``a.type`` away from ``a.source`` gives up."""
        turns, base = self._once(s, ("seat", seat), lambda: (self._turns_left(game, s, seat), self._base(game, s, seat)))
        old = game.patriarch_revenue(s, _P(seat, a.type, game.idx[a.source]), base)
        return old * turns * COIN * 0.6 + (old * 0.6 if s.players[seat].side == "hebrew" else 0)

    def _turns_left(self, game: Any, s: Any, seat: int) -> int:
        """The seat's own turns still to come: its hand now and the hands of later Books."""
        keep = {1: 4, 2: 3, 3: 2}[self._once(s, ("team", seat), lambda: game.team_size(s, seat))]
        return len(s.players[seat].hand) + (3 - s.book) * keep

    def _defence(self, game: Any, s: Any, land: int) -> int:
        return self._once(s, ("defence", land), lambda: game.defence(s, land))

    def _value(self, game: Any, s: Any, land: int) -> float:
        return self._once(s, ("value", land), lambda: self._land_value(game, s, land))

    def _land_value(self, game: Any, s: Any, land: int) -> float:
        """What conquering ``land`` is worth beyond the land: its buildings and the Ark,
        minus the own side's Patriarchs there, plus the other side's."""
        x = s.lands[land]
        value = 0.5 * x.city + 1.0 * x.temple + 0.5 * (s.ark == land)
        for p in s.patriarchs:
            if p.land == land:
                mine = s.players[p.seat].side == s.players[s.turn.seat].side
                value += -0.7 if mine else 0.7
        return value

    def _need(self, game: Any, s: Any, seat: int) -> tuple[float, float, float]:
        return self._once(s, ("need", seat), lambda: self._coins_needed(game, s, seat))

    def _coins_needed(self, game: Any, s: Any, seat: int) -> tuple[float, float, float]:
        """Per coin kind, how much the seat wants one more: toward its next Royal token's
        coins of each kind, else its scarcest kind."""
        p = s.players[seat]
        if p.royal < len(s.royal_track):
            tok = game.data.royal_token[s.royal_track[p.royal]]
            if tok.each:
                return tuple(max(0, tok.each - c) + 0.1 for c in p.coins)  # type: ignore[return-value]
        low = min(p.coins)
        return tuple(1.0 if c == low else 0.2 for c in p.coins)  # type: ignore[return-value]


def _constant(value: float) -> Any:
    """A scorer of a kind of action that is always worth ``value``."""
    return lambda agent, game, s, seat, a: value


_SCORERS: dict[type, Any] = {
    PlacementOrder: HeuristicAgent._order,
    Discard: HeuristicAgent._discard,
    PlacePatriarch: HeuristicAgent._place,
    RetreatTo: HeuristicAgent._retreat,
    Attack: HeuristicAgent._attack,
    PlayArtefact: _constant(7),
    Build: lambda agent, game, s, seat, a: 6 if a.what == "temple" else 5,
    Stack: _constant(2.5),
    MoveArk: _constant(-1),
    EndBuilding: HeuristicAgent._end_building,
    AdvanceKingdom: HeuristicAgent._kingdom,
    AdvanceRoyal: HeuristicAgent._royal,
    CollectCoin: HeuristicAgent._collect,
    Buy: HeuristicAgent._buy,
}
"""``HeuristicAgent.score`` by the kind of action (any other kind, as Done, is worth 0)."""

_ANY_TIME = frozenset({PlacementOrder, Discard, PlacePatriarch, RetreatTo})
"""The kinds scored outside a Player Turn too."""


@lru_cache(maxsize=4096)
def _P(seat: int, ptype: str, land: int) -> Patriarch:
    """A would-be Patriarch, to ask its revenue (models are frozen: one object per triple)."""
    return Patriarch(seat=seat, type=ptype, land=land)
