"""Promised Land's queries: what the data and a State say, changing nothing (rule text:
shared/seeds/002; rulings: RULINGS.md). The game object inherits :class:`Queries`; the
rules, the stages, the view and the notation read the table through it."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from games.core import IllegalActionError, Seat

from .data import COINS, Card, GameData, Kingdom
from .model import PATRIARCH_TYPES, Patriarch, State, Turn

PATRIARCHS_PER_TYPE = 2  # Six sets of 6 Patriarch pieces: Farmer, Merchant, Priest (RULINGS R4)
ARRAY_SIZE = 20  # Setting Up 5
HEATHEN_PLACEMENTS = 6  # Initial Placement: all six
CANAANITE_PLACEMENTS = 3  # at least three in Canaanite occupied lands
START_COINS = {1: 6, 2: 4, 3: 2}  # Setting Up 9: by the Artefact's points
COIN_SUPPLY = 100  # of each metal (RULINGS R5)
CITIES = 6
TEMPLES = 2
MAX_CONTINUED = 3
DEAL = {1: (6, 2), 2: (4, 1), 3: (3, 1)}  # team size -> (dealt, discarded)
ACTIONS = {1: 2, 2: 3, 3: 4}  # team size -> actions per turn
BOOK_CARDS = 18
# No Dice table: extra units in halves, by dice (1..3) and defence (0..3).
NO_DICE_HALVES = {1: (2, 4, 6, 8), 2: (1, 2, 4, 6), 3: (0, 1, 2, 4)}
OCCUPY = {"plains", "hills", "roads", "ports"}


def add_coins(a: tuple[int, int, int], b: Sequence[int], sign: int = 1) -> tuple[int, int, int]:
    """Coins ``a`` plus (``sign`` 1) or minus (``sign`` -1) coins ``b``, as (bronze, silver, gold)."""
    return (a[0] + sign * b[0], a[1] + sign * b[1], a[2] + sign * b[2])


def coin_vec(coin: str, n: int = 1) -> tuple[int, int, int]:
    """``n`` coins of one metal as (bronze, silver, gold)."""
    i = COINS.index(coin)
    return tuple(n if j == i else 0 for j in range(3))  # type: ignore[return-value]


class Queries:
    """Table queries on ``self.data`` (the game's data) and a State."""

    data: GameData
    idx: dict[str, int]
    adj: Any
    _lands_cache: dict[tuple[int, str], tuple[Any, frozenset[int]]]

    def land_name(self, i: int) -> str:
        """The name of land ``i``."""
        return self.data.lands[i].name

    def land_at(self, land_id: str) -> int:
        """Index of the land ``land_id``; IllegalActionError for an unknown one."""
        try:
            return self.idx[land_id]
        except KeyError:
            raise IllegalActionError(f"There is no land {land_id!r}.") from None

    def card(self, number: int) -> Card:
        """The Kingdom card numbered ``number`` (its place on the Time track)."""
        return self.data.card[number]

    def kingdom(self, kid: str) -> Kingdom:
        """The kingdom ``kid`` of the data."""
        return self.data.kingdom[kid]

    def card_label(self, number: int) -> str:
        """A Kingdom card as players read it: name and Time-track number, ``Canaanites (3)``."""
        c = self.card(number)
        return f"{c.name} ({c.number})"

    def team(self, s: State, side: str) -> tuple[Seat, ...]:
        """The seats of ``side`` (hebrew or heathen; Setting Up 8)."""
        return tuple(x for x, p in enumerate(s.players) if p.side == side)

    def sides(self, s: State, players: int) -> list[int]:
        """Two sides for results and ratings: the Hebrew team (1) against the other (0)."""
        hebrews = set(self.team(s, "hebrew"))
        return [1 if x in hebrews else 0 for x in range(players)]

    def team_size(self, s: State, seat: Seat) -> int:
        """How many players ``seat``'s team has (deals, actions and revenue depend on it)."""
        return len(self.team(s, s.players[seat].side))

    def supply(self, s: State, counters: str) -> int:
        """Units of ``counters`` left in the supply."""
        return dict(s.unit_supply)[counters]

    def royal_tokens(self, s: State, seat: Seat) -> tuple[str, ...]:
        """The Royal tokens ``seat`` has achieved (its marker has passed or is on them)."""
        return s.royal_track[: s.players[seat].royal]

    def has_royal(self, s: State, seat: Seat, name: str) -> bool:
        """Whether ``seat`` has achieved the Royal token named ``name`` (lower case)."""
        return any(self.data.royal_token[t].name.lower() == name for t in self.royal_tokens(s, seat))

    def patriarchs_at(self, s: State, land: int) -> list[Patriarch]:
        """The Patriarchs in land ``land``."""
        return [p for p in s.patriarchs if p.land == land]

    def in_supply(self, s: State, seat: Seat, ptype: str) -> int:
        """``seat``'s Patriarchs of type ``ptype`` not on the map (two of each type; RULINGS R4)."""
        return PATRIARCHS_PER_TYPE - sum(1 for p in s.patriarchs if p.seat == seat and p.type == ptype)

    def can_hold(self, s: State, land: int, seat: Seat, ptype: str, ignore: Patriarch | None = None) -> bool:
        """The usual conditions: one Patriarch per player and one of each type per land."""
        for p in s.patriarchs:
            if p.land != land or (
                ignore is not None and p.seat == ignore.seat and p.type == ignore.type and ignore.land == land
            ):
                continue
            if p.seat == seat or p.type == ptype:
                return False
        return True

    def kingdom_lands(self, s: State, kid: str) -> frozenset[int]:
        """Lands of kingdom ``kid``: lands of its counters; for a Heathen kingdom with a
        start-land, those contiguous to its start-land (Conquer; RULINGS R6)."""
        key = (id(s.lands), kid)
        hit = self._lands_cache.get(key)
        if hit is not None and hit[0] is s.lands:
            return hit[1]
        k = self.kingdom(kid)
        own = {i for i, x in enumerate(s.lands) if x.counters == k.counters and x.units > 0}
        if k.side == "hebrew" or k.start_land is None:
            out = frozenset(own)
        else:
            start = self.idx[k.start_land]
            out = frozenset(self.component(start, own)) if start in own else frozenset()
        if len(self._lands_cache) > 512:
            self._lands_cache.clear()
        self._lands_cache[key] = (s.lands, out)
        return out

    def component(self, start: int, lands: set[int] | frozenset[int]) -> set[int]:
        """The lands of ``lands`` connected to ``start`` through adjacent lands of ``lands``."""
        seen = {start}
        todo = [start]
        while todo:
            i = todo.pop()
            for j in self.adj[i]:
                if j in lands and j not in seen:
                    seen.add(j)
                    todo.append(j)
        return seen

    def portions(self, lands: frozenset[int]) -> list[set[int]]:
        """The connected portions of a set of lands (a 'split' kingdom has several)."""
        left = set(lands)
        out = []
        while left:
            part = self.component(next(iter(sorted(left))), left)
            out.append(part)
            left -= part
        return out

    def targets(self, s: State, kid: str) -> list[int]:
        """Lands the kingdom may attack: adjacent to its lands, held by other counters."""
        k = self.kingdom(kid)
        mine = self.kingdom_lands(s, kid)
        out = set()
        for i in mine:
            for j in self.adj[i]:
                if s.lands[j].counters != k.counters:
                    out.add(j)
        return sorted(out)

    def counters_side(self, counters: str | None) -> str | None:
        """The side whose units ``counters`` are: the Hebrew tribes, or a Heathen kingdom; None for no units."""
        if counters is None:
            return None
        return "hebrew" if counters in ("northern", "southern") else "heathen"

    def defence(self, s: State, land: int) -> int:
        """The defence bonus of ``land`` (Attacking): +1 city (not with Siegecraft), +1
        stacked unit, +1 a Heathen defending its own start-land, +1 a Hebrew / -1 a Heathen
        defending the Ark. At most +3."""
        x = s.lands[land]
        side = self.counters_side(x.counters)
        bonus = 0
        siege = s.turn is not None and "siegecraft" in s.turn.effects
        if x.city and not siege:
            bonus += 1
        if x.units >= 2:
            bonus += 1
        if side == "heathen" and land in self.data.start_lands(x.counters or ""):
            bonus += 1
        if s.ark == land and side is not None:
            bonus += 1 if side == "hebrew" else -1
        return bonus

    def attack_dice(self, s: State, land: int) -> int:
        """Dice for the terrain from the Kingdom card; 3 with Treachery, 3 on plains with Chariots."""
        t = s.turn
        assert t is not None
        if "treachery" in t.effects:
            return 3
        terrain = self.data.lands[land].terrain
        if terrain == "plain" and "chariots" in t.effects:
            return 3
        return self.card(t.card).dice(terrain)

    def force_halves(self, s: State, land: int) -> int | None:
        """Extra half units to Force victory on ``land`` (Force Victory; with the no-dice
        option, the No Dice table); None when Force victory is not allowed."""
        d = max(0, self.defence(s, land))
        dice = self.attack_dice(s, land)
        if not s.no_dice and d > 0:
            return None
        return NO_DICE_HALVES[dice][min(d, 3)]

    def units_for_halves(self, half: bool, halves: int) -> tuple[int, bool]:
        """Units taken from hand to pay ``halves`` half units, and the half space after."""
        if halves % 2 == 0:
            return halves // 2, half
        if half:
            return halves // 2, False
        return halves // 2 + 1, True

    def canaanite_land(self, s: State, i: int) -> bool:
        """Canaanite occupied: Canaanite counters, not a start-land (RULINGS R7)."""
        return s.lands[i].counters == "cab" and i not in self.data.start_lands("cab")

    def city_cost(self, t: Turn) -> int:
        """Units a city costs: 1; with Masons 2 cities cost 1 unit (every second city is free)."""
        if "masons" in t.effects:
            return 0 if t.mason_credit else 1
        return 1

    def temple_cost(self, t: Turn) -> int:
        """Units a temple costs (2; 1 with Masons)."""
        return 1 if "masons" in t.effects else 2

    def occupied(self, s: State, kid: str, what: str) -> int:
        """Lands of ``what`` (plains, hills, roads, ports) held by the kingdom: by one
        portion only when it is split (Conquer; RULINGS R12)."""
        best = 0
        for part in self.portions(self.kingdom_lands(s, kid)):
            n = 0
            for i in part:
                land = self.data.lands[i]
                if what == "plains":
                    n += land.terrain == "plain"
                elif what == "hills":
                    n += land.terrain == "hill"
                elif what == "roads":
                    n += land.road
                elif what == "ports":
                    n += land.port
            best = max(best, n)
        return best

    def demand_met(self, s: State, token_id: str) -> dict[str, int] | None:
        """What advancing onto ``token_id`` uses up this turn, or None when the active kingdom
        has not (separately) achieved its demand (Advance on the Kingdom track)."""
        t = s.turn
        assert t is not None
        tok = self.data.kingdom_token[token_id]
        used = dict(t.used)
        if tok.what in OCCUPY:
            if self.occupied(s, t.kingdom, tok.what) - used.get(tok.what, 0) >= tok.n:
                return {tok.what: tok.n}
            return None
        if tok.what == "ark":
            if s.ark in self.kingdom_lands(s, t.kingdom) and not used.get("ark"):
                return {"ark": 1}
            return None
        what = "cities" if tok.what == "city" else "temples"
        for how in ("built", "destroyed"):
            key = f"{how}-{what}"
            if getattr(t, f"{how}_{what}") - used.get(key, 0) >= tok.n:
                return {key: tok.n}
        return None

    def revenue(
        self, s: State, seat: Seat, effects: Iterable[str] = (), artefacts: bool = True
    ) -> tuple[int, int, int]:
        """Collect Revenue: what ``seat``'s Patriarchs on the map bring, by the team's
        size (Team of 3: +1), with Boom (double) and face-up Bonus Artefacts (+1 each)."""
        base = 2 if self.team_size(s, seat) == 3 else 1
        effects = set(effects)
        bonus = {"farmer": 0, "merchant": 0, "priest": 0}
        if artefacts:
            for o in s.players[seat].artefacts:
                kind = self.data.artefacts[o.id].kind
                for ptype, icon in (("farmer", "farming"), ("merchant", "trade"), ("priest", "culture")):
                    if kind == f"bonus-{icon}":
                        bonus[ptype] += 1
        total = [0, 0, 0]
        for p in s.patriarchs:
            if p.seat != seat:
                continue
            n = self.patriarch_revenue(s, p, base)
            if n and artefacts:
                n += bonus[p.type]
                icon = {"farmer": "farming", "merchant": "trade", "priest": "culture"}[p.type]
                if f"boom-{icon}" in effects:
                    n *= 2
            total[PATRIARCH_TYPES.index(p.type)] += n
        return (total[0], total[1], total[2])

    def patriarch_revenue(self, s: State, p: Patriarch, base: int) -> int:
        """One Patriarch's revenue (coins) at ``base`` 1 (teams of 1 or 2) or 2 (team of 3)."""
        land = self.data.lands[p.land]
        x = s.lands[p.land]
        if p.type == "farmer":
            return base if land.terrain == "hill" else base + 1
        if p.type == "merchant":
            return (base if land.road else 0) + (base + 1 if land.port else 0)
        n = base if x.city else 0
        if x.temple:
            n += base + 1
        if s.ark == p.land:
            n += base
        return n

    def scores(self, s: State) -> list[dict[str, int]]:
        """Ending the Game: each seat's points by item (Hebrew remnant, Royal tokens, Kingdom
        tokens, coins in fives, Weaker cards, Artefacts)."""
        out = []
        for x, p in enumerate(s.players):
            base = 2 if self.team_size(s, x) == 3 else 1
            remnant = 0
            if p.side == "hebrew":
                remnant = sum(self.patriarch_revenue(s, q, base) for q in s.patriarchs if q.seat == x)
            out.append(
                {
                    "Hebrew remnant": remnant,
                    "Royal tokens": sum(self.data.royal_token[t].points for t in s.royal_track[: p.royal]),
                    "Kingdom tokens": sum(
                        self.data.kingdom_token[t].points for t in s.kingdom_track[: p.kingdom]
                    ),
                    "coins": sum(c // 5 for c in p.coins),
                    "Weaker cards": sum(self.card(c).points for c in p.played),
                    "Artefacts": sum(self.data.artefacts[o.id].points for o in p.artefacts),
                }
            )
        return out

    def land_kingdoms(self, s: State) -> list[str | None]:
        """Per land, the kingdom its counters belong to when one can tell (for the view):
        the Hebrew tribes by colour, a Heathen kingdom by contiguity to its start-land
        (the most recently played of kingdoms sharing it), the Canaanites for their colour
        until an Assyrian or Babylonian card is played."""
        out: list[str | None] = [None] * len(s.lands)
        for i, x in enumerate(s.lands):
            if x.counters in ("northern", "southern"):
                out[i] = x.counters
            elif x.counters == "cab":
                out[i] = "canaanites"
        last = {self.card(c).kingdom: c for p in s.players for c in sorted(p.played)}
        for k in sorted(self.data.kingdoms, key=lambda k: last.get(k.id, 0)):
            if k.counters == "cab" and k.id not in last:
                continue  # Canaanite lands stay Canaanite until the Assyrians or Babylonians come
            if k.side == "heathen" and k.start_land:
                for i in self.kingdom_lands(s, k.id):
                    out[i] = k.id
        return out
