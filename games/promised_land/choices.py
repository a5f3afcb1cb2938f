"""What a seat may choose now in Promised Land (rule text: shared/seeds/002; rulings:
RULINGS.md): the Patriarchs it may place, the Artefacts it may play or buy, the Ark's
moves, the payments of a Royal track token, a Patriarch's retreats; and why a kind of
action is refused. Pure, like the queries; the stages build their legal actions from them."""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations
from typing import Any

from games.core import Seat, made_once

from .data import COINS
from .model import (
    PATRIARCH_TYPES,
    AdvanceKingdom,
    AdvanceRoyal,
    Attack,
    Build,
    Buy,
    CollectCoin,
    Done,
    EndBuilding,
    MoveArk,
    PlacePatriarch,
    PlayArtefact,
    Retreat,
    Stack,
    State,
)
from .queries import CANAANITE_PLACEMENTS, HEATHEN_PLACEMENTS, Queries

# the actions below are made once each and shared by the legal actions of every state
_attack = made_once(Attack)
_build = made_once(Build)
_buy = made_once(Buy)
_collect = made_once(CollectCoin)
_end = made_once(EndBuilding)
_move_ark = made_once(MoveArk)
_play = made_once(PlayArtefact)
_royal = made_once(AdvanceRoyal)
_stack = made_once(Stack)


@lru_cache(maxsize=4096)
def _placement(ptype: str, land: str, source: str | None) -> PlacePatriarch:
    """A shared PlacePatriarch (the many placements of every Actions phase: by position, as
    ``made_once``'s keywords would cost more than the rest of the list)."""
    return PlacePatriarch(type=ptype, land=land, source=source)


class Choices(Queries):
    """The options open to a seat, read from ``self``'s queries (:class:`queries.Queries`)."""

    def treaties(self, s: State, seat: Seat) -> list[str]:
        """The face-up Treaty Artefacts of ``seat`` (type ids, each once)."""
        return list(
            dict.fromkeys(
                o.id
                for o in s.players[seat].artefacts
                if not o.face_down and self.data.artefacts[o.id].kind == "treaty"
            )
        )

    def initial_places(self, s: State, seat: Seat) -> list[PlacePatriarch]:
        """Initial Placement of Patriarchs: a Heathen into Heathen-held lands (at least three of
        its six in Canaanite occupied lands, RULINGS R7), a Hebrew into a Hebrew-held land,
        under the usual conditions."""
        p = s.players[seat]
        out = []
        if p.side == "heathen":
            mine = [q for q in s.patriarchs if q.seat == seat]
            canaanite = sum(1 for q in mine if self.canaanite_land(s, q.land))
            must = CANAANITE_PLACEMENTS - canaanite >= HEATHEN_PLACEMENTS - len(mine)
            lands = [
                i
                for i, x in enumerate(s.lands)
                if self.counters_side(x.counters) == "heathen" and (not must or self.canaanite_land(s, i))
            ]
        else:
            lands = [i for i, x in enumerate(s.lands) if self.counters_side(x.counters) == "hebrew"]
        for ptype in PATRIARCH_TYPES:
            if self.in_supply(s, seat, ptype) <= 0:
                continue
            for i in lands:
                if self.can_hold(s, i, seat, ptype):
                    out.append(_placement(ptype, self.data.lands[i].id, None))
        return out

    def ark_moves(self, s: State) -> list[tuple[int, bool]]:
        """(land, with own Priest) for each legal move of the Ark (Move the Ark; RULINGS R10)."""
        t = s.turn
        assert t is not None
        mine = self.kingdom_lands(s, t.kingdom)
        portion = next((p for p in self.portions(mine) if s.ark in p), set())
        priests = [p for p in self.patriarchs_at(s, s.ark) if p.type == "priest"]
        out = []
        for j in sorted(portion):
            if j == s.ark:
                continue
            forced_ok = all(self.can_hold(s, j, p.seat, "priest") for p in priests if p.seat != t.seat)
            own = [p for p in priests if p.seat == t.seat]
            if not forced_ok:
                continue
            out.append((j, False))
            if own and self.can_hold(s, j, t.seat, "priest"):
                out.append((j, True))
        return out

    def plays(self, s: State, phase: str) -> list[PlayArtefact]:
        """Artefacts ``turn.seat`` may play now (Playing Artefacts)."""
        t = s.turn
        assert t is not None
        limit = 2 if self.has_royal(s, t.seat, "power") else 1
        if t.plays >= limit:
            return []
        out: list[PlayArtefact] = []
        seen = set()
        p = s.players[t.seat]
        mine = self.kingdom_lands(s, t.kingdom)
        k = self.kingdom(t.kingdom)
        for owned in p.artefacts:
            if owned.face_down or owned.id in seen:
                continue
            seen.add(owned.id)
            a = self.data.artefacts[owned.id]
            if phase not in a.phase.split("/") or a.kind.startswith("bonus"):
                continue
            kind = a.kind
            if kind in ("treachery", "siegecraft", "chariots", "masons") or kind.startswith("boom"):
                effect = kind if not kind.startswith("boom") else kind
                if effect not in t.effects:
                    out.append(_play(artefact=a.id))
            elif kind == "plague":
                out += [_play(artefact=a.id, land=self.data.lands[i].id) for i in sorted(mine)]
            elif kind == "populate":
                if self.supply(s, k.counters) <= 0:
                    continue
                single = [i for i in sorted(mine) if s.lands[i].units == 1]
                if len(single) == 1 or self.supply(s, k.counters) == 1:
                    out += [_play(artefact=a.id, land=self.data.lands[i].id) for i in single]
                else:
                    out += [
                        _play(artefact=a.id, land=self.data.lands[i].id, land2=self.data.lands[j].id)
                        for i, j in combinations(single, 2)
                    ]
            elif kind.startswith("tribute"):
                out += [_play(artefact=a.id, coin=c) for c in COINS]
            elif kind.startswith("proliferate"):
                out.append(_play(artefact=a.id))
            elif kind.startswith("recruit"):
                if self.supply(s, k.counters) > 0:
                    out.append(_play(artefact=a.id))
            elif kind == "commerce":
                out += self.commerce_plays(s, a.id, p.coins)
            elif kind in ("assault", "capitulation"):
                if t.units < 1:
                    continue
                for j in self.targets(s, t.kingdom):
                    if kind == "assault" and s.lands[j].temple:
                        continue
                    out.append(_play(artefact=a.id, land=self.data.lands[j].id))
        return out

    @staticmethod
    def commerce_plays(s: State, aid: str, have: tuple[int, int, int]) -> list[PlayArtefact]:
        """Commerce: "Exchange any number of coins for an equal number of any other coins" (RULINGS
        R21), each exchange once: one metal for another (``coin``, ``coin2``, ``count``), one metal
        for both others, two metals for the third (``give``, ``take``); no more taken of a metal
        than the supply holds."""
        supply = s.coin_supply
        out: list[PlayArtefact] = []
        for gi, give in enumerate(COINS):
            for ti, take in enumerate(COINS):
                if ti != gi:
                    out += [
                        PlayArtefact(artefact=aid, coin=give, coin2=take, count=n)
                        for n in range(1, min(have[gi], supply[ti]) + 1)
                    ]
        for one in range(3):
            x, y = (i for i in range(3) if i != one)
            # ``one`` given for both others
            for nx in range(1, min(supply[x], have[one] - 1) + 1):
                for ny in range(1, min(supply[y], have[one] - nx) + 1):
                    give, take = [0, 0, 0], [0, 0, 0]
                    give[one], take[x], take[y] = nx + ny, nx, ny
                    out.append(PlayArtefact(artefact=aid, give=tuple(give), take=tuple(take)))
            # both others given for ``one``
            for nx in range(1, min(have[x], supply[one] - 1) + 1):
                for ny in range(1, min(have[y], supply[one] - nx) + 1):
                    give, take = [0, 0, 0], [0, 0, 0]
                    give[x], give[y], take[one] = nx, ny, nx + ny
                    out.append(PlayArtefact(artefact=aid, give=tuple(give), take=tuple(take)))
        return out

    def placements(self, s: State, seat: Seat) -> list[PlacePatriarch]:
        """Place Patriarch: from the supply or moved from the map, into the active kingdom."""
        t = s.turn
        assert t is not None
        lands = sorted(self.kingdom_lands(s, t.kingdom))
        seats_at: dict[int, set[int]] = {}
        types_at: dict[int, set[str]] = {}
        for q in s.patriarchs:
            seats_at.setdefault(q.land, set()).add(q.seat)
            types_at.setdefault(q.land, set()).add(q.type)
        ids = [x.id for x in self.data.lands]
        out = []
        for ptype in PATRIARCH_TYPES:
            sources: list[int | None] = [None] if self.in_supply(s, seat, ptype) > 0 else []
            sources += sorted(q.land for q in s.patriarchs if q.seat == seat and q.type == ptype)
            if not sources:
                continue
            # the moved piece leaves its source, never the land it goes to, so it cannot be in the way
            free = [i for i in lands if seat not in seats_at.get(i, ()) and ptype not in types_at.get(i, ())]
            for src in sources:
                source = None if src is None else ids[src]
                out += [_placement(ptype, ids[i], source) for i in free if i != src]
        return out

    def royal_payments(self, s: State, seat: Seat) -> list[tuple[int, int, int]]:
        """The ways ``seat`` can pay the next Royal track token (Royal Track Tokens: so many of each
        metal, or so many of any)."""
        token = self.data.royal_token[s.royal_track[s.players[seat].royal]]
        have = s.players[seat].coins
        if token.each:
            pay = (token.each,) * 3
            return [pay] if all(h >= token.each for h in have) else []
        out = []
        n = token.any
        for b in range(n + 1):
            for sv in range(n - b + 1):
                pay = (b, sv, n - b - sv)
                if all(h >= c for h, c in zip(have, pay, strict=True)):
                    out.append(pay)
        return out

    def buys(self, s: State) -> list[Buy]:
        """Buy Artefact: the Artefacts of the array the active player can pay for, while it may buy
        (one; two with the Authority Royal token)."""
        t = s.turn
        assert t is not None
        limit = 2 if self.has_royal(s, t.seat, "authority") else 1
        if t.buys >= limit:
            return []
        have = s.players[t.seat].coins
        out = []
        for aid in dict.fromkeys(s.array):
            a = self.data.artefacts[aid]
            if have[COINS.index(a.coin)] >= a.cost:
                out.append(_buy(artefact=aid))
        return out

    def retreat_options(self, s: State, r: Retreat) -> list[int]:
        """Adjacent lands of the same kingdom (its counters) meeting the usual conditions."""
        return [
            j
            for j in self.adj[r.land]
            if s.lands[j].counters == r.counters
            and s.lands[j].units > 0
            and self.can_hold(s, j, r.seat, r.type)
        ]

    def place_refusal(self, s: State, seat: Seat, ptype: str, land: int) -> str | None:
        """Why placing a ``ptype`` Patriarch of ``seat`` in ``land`` is not legal now, naming
        the rule ("Initial Placement of Patriarchs", "Place Patriarch"); None when no reason
        of these applies (another part of the action is wrong)."""
        name = self.land_name(land)
        for q in s.patriarchs:
            if q.land == land and q.seat == seat:
                return (f"you already have a Patriarch in {name} (\"Each player may have only one of their "
                        "Patriarchs in any one land\")")
            if q.land == land and q.type == ptype:
                return f"{name} already holds a {ptype} (\"Only one Patriarch of each type may occupy a land\")"
        if s.phase == "place":
            side = s.players[seat].side
            if self.counters_side(s.lands[land].counters) != side:
                held = self.counters_side(s.lands[land].counters) or "nobody"
                return (f"{name} is held by {held}, and your Patriarchs go into lands your side occupies "
                        "(Initial Placement of Patriarchs)")
            return None
        t = s.turn
        if t is not None and land not in self.kingdom_lands(s, t.kingdom):
            return (f"{name} is not a land of the {self.kingdom(t.kingdom).name} (Place Patriarch: \"in a land of "
                    "the active kingdom\")")
        return None

    def why_not(self, s: State, seat: Seat, verb: str) -> str | None:
        """Why the actions of command word ``verb`` are not legal for ``seat`` now, naming the
        rule text's section ("Actions", "Royal Track Tokens", "Kingdom Track Tokens"); None
        when this step does not offer that kind at all (the step then is the reason)."""
        t = s.turn
        if s.phase != "turn" or t is None or t.seat != seat or t.phase != "actions" or t.pending is not None:
            return None
        p = s.players[seat]
        if verb in ("royal", "kingdom", "collect") and t.actions <= 0:
            return "you have no action left this turn (Actions)"
        if verb == "royal":
            if p.royal >= len(s.royal_track):
                return "your marker has reached the end of the Royal track (Royal Track Tokens)"
            token = self.data.royal_token[s.royal_track[p.royal]]
            have = ", ".join(f"{n} {c}" for n, c in zip(p.coins, COINS, strict=True))
            return f"the next Royal track token, {token.name}, costs {token.cost_text}; you have {have} (Royal Track Tokens)"
        if verb == "kingdom":
            if p.kingdom >= len(s.kingdom_track):
                return "your marker has reached the end of the Kingdom track (Kingdom Track Tokens)"
            tok = self.data.kingdom_token[s.kingdom_track[p.kingdom]]
            return (
                f"the next Kingdom track token asks: {tok.text}; the {self.kingdom(t.kingdom).name} have not "
                "achieved it this turn, or it was already used for another token (Kingdom Track Tokens)"
            )
        if verb == "place" and t.actions <= 0 and t.free_places <= 0:
            return "you have no action left this turn (Actions)"
        if verb == "place":
            return (
                f"no land of the {self.kingdom(t.kingdom).name} can take a Patriarch of yours: a land holds at most "
                "one Patriarch of each type and one of each player (Place Patriarch)"
            )
        return None

    def kb_actions(self, s: State) -> list[Any]:
        """Kingdom building's legal actions: attacks (dice, or Force Victory), cities, temples,
        stacks, the Ark's moves, Artefacts, and the end with coins for unused units."""
        t = s.turn
        assert t is not None
        out: list[Any] = []
        mine = self.kingdom_lands(s, t.kingdom)
        if t.units >= 1:
            for j in self.targets(s, t.kingdom):
                lid = self.data.lands[j].id
                if not s.no_dice:
                    out.append(_attack(land=lid))
                halves = self.force_halves(s, j)
                if halves is not None:
                    units, _ = self.units_for_halves(t.half, halves)
                    if 1 + units <= t.units:
                        out.append(_attack(land=lid, force=True))
        for i in sorted(mine):
            x = s.lands[i]
            lid = self.data.lands[i].id
            if not x.city and s.cities > 0 and t.units >= self.city_cost(t):
                out.append(_build(what="city", land=lid))
            if x.city and not x.temple and s.temples > 0 and t.units >= self.temple_cost(t):
                out.append(_build(what="temple", land=lid))
            if x.units == 1 and t.units >= 1:
                out.append(_stack(land=lid))
        if not t.ark_moved and s.ark in mine:
            for j, priest in self.ark_moves(s):
                out.append(_move_ark(land=self.data.lands[j].id, priest=priest))
        out += self.plays(s, "KB")
        total = t.units + t.shortfall
        for b in range(total + 1):
            for sv in range(total - b + 1):
                out.append(_end(coins=(b, sv, total - b - sv)))
        return out

    def action_actions(self, s: State) -> list[Any]:
        """The Actions phase's legal actions: Place Patriarch, Royal and Kingdom track, collect
        coin, Artefacts, done."""
        t = s.turn
        assert t is not None
        seat = t.seat
        out: list[Any] = []
        p = s.players[seat]
        if t.actions > 0 or t.free_places > 0:
            out += self.placements(s, seat)
        if t.actions > 0:
            if p.royal < len(s.royal_track):
                out += [_royal(pay=pay) for pay in self.royal_payments(s, seat)]
            if (
                p.kingdom < len(s.kingdom_track)
                and self.demand_met(s, s.kingdom_track[p.kingdom]) is not None
            ):
                out.append(AdvanceKingdom())
            n = 2 if self.has_royal(s, seat, "treasury") else 1
            if n == 1:
                out += [_collect(coins=(c,)) for c in COINS]
            else:
                out += [_collect(coins=(a, b)) for i, a in enumerate(COINS) for b in COINS[i:]]
        out += self.plays(s, "A")
        out.append(Done())
        return out
