"""Promised Land 1250-587 BC rules (rule text: shared/seeds/002; rulings: RULINGS.md).

The flow: set-up (steps 1-9) -> initial placement of Patriarchs (Heathens all six, then
Hebrews one each) -> each Book: deal, secret discards, then the Time track calls the Book's
cards in order; the holder of a card plays a turn of five phases (reveal and take units,
Kingdom building, Actions, Collect revenue, Buy Artefact). Dice, deals and draws happen
inside ``apply`` through the ``Rng``; the game stops whenever a seat must decide.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from itertools import combinations, permutations
from typing import Any

from pydantic import TypeAdapter

from games.core import (
    Event,
    IllegalActionError,
    Model,
    Outcome,
    Prompt,
    Rng,
    Seat,
    Step,
)
from games.core.base import ApplyContext, NotationGame
from games.core.english import count
from games.core.errors import list_words
from games.core.explain import Explanation
from games.core.memo import last_state
from games.core.secrets import redeal, shuffled

from . import notation, text
from .data import COINS, Card, GameData, Kingdom, explanations, load
from .model import (
    PATRIARCH_TYPES,
    Action,
    AdvanceKingdom,
    AdvanceRoyal,
    ArtefactView,
    Attack,
    Attacked,
    Build,
    Buy,
    CardRevealed,
    CardView,
    CoinsChanged,
    CollectCoin,
    Combat,
    DiceRolled,
    Discard,
    Done,
    EndBuilding,
    GameEnded,
    LandState,
    LandView,
    MoveArk,
    Note,
    OwnedArtefact,
    Pass,
    Patriarch,
    PendingAttack,
    PlacementOrder,
    PlacePatriarch,
    PlayArtefact,
    PlayerState,
    PlayerView,
    PrivateNote,
    Retreat,
    RetreatTo,
    Stack,
    State,
    Turn,
    TurnView,
    View,
)

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

_ACTION = TypeAdapter(Action)


class Options(Model):
    """Session options.

    ``no_dice``: the Alternative 'No Dice' Combat System. ``hebrews``: the seats that play
    Hebrews (the rest play Heathens); by default every odd seat, so teams are as closely
    matched as the seats allow (Setting Up 8, RULINGS R1).
    """

    no_dice: bool = False
    hebrews: tuple[int, ...] | None = None


def _add(a: tuple[int, int, int], b: Sequence[int], sign: int = 1) -> tuple[int, int, int]:
    return (a[0] + sign * b[0], a[1] + sign * b[1], a[2] + sign * b[2])


def coin_vec(coin: str, n: int = 1) -> tuple[int, int, int]:
    """``n`` coins of one metal as (bronze, silver, gold)."""
    i = COINS.index(coin)
    return tuple(n if j == i else 0 for j in range(3))  # type: ignore[return-value]


class _Ctx(ApplyContext):
    """One ``apply``'s scratch (games.core.ApplyContext) with this game's helpers."""

    __slots__ = ()

    def note(self, text: str) -> None:
        self.events.append(Note(text=text))

    def set_turn(self, **fields: Any) -> None:
        assert self.s.turn is not None
        self.s = self.s.model_copy(update={"turn": self.s.turn.model_copy(update=fields)})

    def set_land(self, i: int, **fields: Any) -> None:
        self.replace_in("lands", i, **fields)
    def supply_add(self, counters: str, n: int) -> None:
        self.s = self.s.model_copy(
            update={"unit_supply": tuple((c, v + n if c == counters else v) for c, v in self.s.unit_supply)}
        )


class PromisedLand(NotationGame):
    """The Promised Land game object (stateless; see games.core.Game)."""

    explained = "Kingdom card, Artefact, track token or Patriarch"

    def phase_mark(self, s: State) -> str:
        """The Time track's card, the game's phase and, during a Player Turn, its step
        (Kingdom bonus, actions, revenue, buying)."""
        step = f", {s.turn.phase}" if s.turn is not None else ""
        return f"time {s.time}, {s.phase}{step}"

    id = "promised-land"
    title = "Promised Land 1250-587 BC"
    min_players = 2
    max_players = 6
    Options = Options
    State = State
    View = View
    notation = notation
    action_adapter = _ACTION

    def explanations(self) -> tuple[Explanation, ...]:
        """Every Artefact, Kingdom card and track token with its text (data/*.toml)."""
        return explanations()

    def __init__(self) -> None:
        self.data: GameData = load()
        self.idx = self.data.land_index
        self.adj = self.data.adjacent
        self._artefact_views: dict[tuple[str, bool], ArtefactView] = {}
        self._card_views: dict[int, CardView] = {}
        self._land_views: dict[tuple[Any, ...], LandView] = {}  # views are immutable: shared
        # kingdom_lands memo: (id of the lands tuple, kingdom) -> (that tuple, lands); the
        # tuple is kept so an id reused after garbage collection is never mistaken for it
        self._lands_cache: dict[tuple[int, str], tuple[Any, frozenset[int]]] = {}

    # ------------------------------------------------------------------ small helpers

    def land_name(self, i: int) -> str:
        return self.data.lands[i].name

    def land_at(self, land_id: str) -> int:
        """Index of the land ``land_id``; IllegalActionError for an unknown one."""
        try:
            return self.idx[land_id]
        except KeyError:
            raise IllegalActionError(f"There is no land {land_id!r}.") from None

    def card(self, number: int) -> Card:
        return self.data.card[number]

    def kingdom(self, kid: str) -> Kingdom:
        return self.data.kingdom[kid]

    def team(self, s: State, side: str) -> tuple[Seat, ...]:
        return tuple(x for x, p in enumerate(s.players) if p.side == side)

    def sides(self, s: State, players: int) -> list[int]:
        """Two sides for results and ratings: the Hebrew team (1) against the other (0)."""
        hebrews = set(self.team(s, "hebrew"))
        return [1 if x in hebrews else 0 for x in range(players)]

    def team_size(self, s: State, seat: Seat) -> int:
        return len(self.team(s, s.players[seat].side))

    def supply(self, s: State, counters: str) -> int:
        return dict(s.unit_supply)[counters]

    def royal_tokens(self, s: State, seat: Seat) -> tuple[str, ...]:
        """The Royal tokens ``seat`` has achieved (its marker has passed or is on them)."""
        return s.royal_track[: s.players[seat].royal]

    def has_royal(self, s: State, seat: Seat, name: str) -> bool:
        return any(self.data.royal_token[t].name.lower() == name for t in self.royal_tokens(s, seat))

    def patriarchs_at(self, s: State, land: int) -> list[Patriarch]:
        return [p for p in s.patriarchs if p.land == land]

    def in_supply(self, s: State, seat: Seat, ptype: str) -> int:
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

    # ------------------------------------------------------------------ kingdoms and lands

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
            out = frozenset(self._component(start, own)) if start in own else frozenset()
        if len(self._lands_cache) > 512:
            self._lands_cache.clear()
        self._lands_cache[key] = (s.lands, out)
        return out

    def _component(self, start: int, lands: set[int] | frozenset[int]) -> set[int]:
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
            part = self._component(next(iter(sorted(left))), left)
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

    # ------------------------------------------------------------------ setup

    def setup(self, seats: Sequence[Seat], options: Options | None, rng: Rng) -> Step[State]:
        """Setting Up 1-9, the placement order, and the start of Initial Placement."""
        options = options or Options()
        n = len(seats)
        if not self.min_players <= n <= self.max_players:
            raise IllegalActionError(f"Promised Land takes 2 to 6 players, not {n}.")
        hebrews = set(options.hebrews) if options.hebrews is not None else {x for x in range(n) if x % 2 == 1}
        if not hebrews or len(hebrews) == n or any(x not in range(n) for x in hebrews):
            raise IllegalActionError("Both teams need at least one player.")
        if abs(2 * len(hebrews) - n) > 1:
            raise IllegalActionError("The teams should be closely matched (e.g. two versus three).")
        events: list[Event] = []
        d = self.data
        # 1-2: cities, temples, the Ark, units.
        lands = []
        heathen_starts = {
            d.land_index[k.start_land]: k for k in d.kingdoms if k.side == "heathen" and k.start_land
        }
        supply = {c.id: c.supply for c in d.counters}
        for i, land in enumerate(d.lands):
            if land.id == "heshbon":
                counters = "southern"
            elif land.id == "jabesh-gilead":
                counters = "northern"
            elif i in heathen_starts:
                counters = heathen_starts[i].counters
            else:
                counters = "cab"  # a Canaanite unit in each remaining land
            supply[counters] -= 1
            lands.append(
                LandState(
                    counters=counters,
                    units=1,
                    city=land.id in ("jericho", "megiddo", "hebron", "hazor", "tyre", "kir-haraseth"),
                    temple=land.id in ("hebron", "hazor"),
                )
            )
        # 4: six Book decks; 5: the bag and the array; 6-7: the tracks.
        decks = []
        for book in (1, 2, 3):
            for side in ("heathen", "hebrew"):
                cards = [c.number for c in d.cards if c.book == book and c.side == side]
                decks.append(rng.shuffle(cards))
        bag = list(rng.shuffle(d.bag))
        array, bag = bag[:ARRAY_SIZE], bag[ARRAY_SIZE:]
        royal = rng.shuffle([t.id for t in d.royal])
        kingdom: list[str] = []
        for pts in (1, 2, 3):
            kingdom += rng.shuffle([t.id for t in d.kingdom_tokens if t.points == pts])
        # 8-9: teams; one Artefact and its coins each.
        coin_supply = (COIN_SUPPLY,) * 3
        players = []
        for x in range(n):
            art = bag.pop(0)
            a = d.artefacts[art]
            got = coin_vec(a.coin, START_COINS[a.points])
            coin_supply = _add(coin_supply, got, -1)
            players.append(
                PlayerState(
                    side="hebrew" if x in hebrews else "heathen",
                    coins=got,
                    artefacts=(OwnedArtefact(id=art),),
                )
            )
            events.append(
                Note(
                    text=f"Seat {x + 1} draws {a.display} and collects {count(START_COINS[a.points], a.coin + ' coin')}."
                )
            )
        s = State(
            no_dice=options.no_dice,
            players=tuple(players),
            lands=tuple(lands),
            ark=d.land_index["heshbon"],
            unit_supply=tuple(supply.items()),
            cities=CITIES - 6,
            temples=TEMPLES - 2,
            coin_supply=coin_supply,
            bag=tuple(bag),
            array=tuple(array),
            royal_track=royal,
            kingdom_track=tuple(kingdom),
            decks=tuple(decks),
        )
        events.append(
            Note(text="Initial placement of Patriarchs: each Heathen places six, then each Hebrew one.")
        )
        ctx = _Ctx(s, rng)
        ctx.events = events
        self._begin_order(ctx, "heathen")
        return Step(state=ctx.s, events=tuple(ctx.events))

    def _most_coins(self, ctx: _Ctx, side: str) -> Seat:
        """The player of ``side`` with most coins; players tied roll a die each, again while
        tied on the highest roll (Initial Placement; RULINGS R2)."""
        team = list(self.team(ctx.s, side))
        most = max(sum(ctx.s.players[x].coins) for x in team)
        tied = [x for x in team if sum(ctx.s.players[x].coins) == most]
        while len(tied) > 1:
            rolls = {x: ctx.rng.die() for x in tied}
            ctx.emit(
                DiceRolled(
                    purpose=f"{side.title()} placement order: most coins tied between "
                    + list_words([f"seat {x + 1}" for x in tied]),
                    dice=tuple(rolls[x] for x in tied),
                )
            )
            tied = [x for x in tied if rolls[x] == max(rolls.values())]
        return tied[0]

    def _begin_order(self, ctx: _Ctx, side: str) -> None:
        """The owner of most coins of ``side`` determines its placement order (Initial
        Placement; RULINGS R2); a team of one places at once."""
        team = self.team(ctx.s, side)
        if len(team) == 1:
            self._set_order(ctx, side, tuple(team))
            return
        x = self._most_coins(ctx, side)
        ctx.update(phase="order", orderer=x)
        ctx.note(f"Seat {x + 1} holds most coins and determines the {side.title()} placement order.")

    def _set_order(self, ctx: _Ctx, side: str, seats: tuple[Seat, ...]) -> None:
        each = HEATHEN_PLACEMENTS if side == "heathen" else 1
        ctx.update(phase="place", orderer=None, place_order=seats * each)
        if len(seats) > 1:
            ctx.note(f"{side.title()} placement order: " + ", ".join(f"seat {x + 1}" for x in seats) + ".")

    # ------------------------------------------------------------------ who acts

    def to_act(self, s: State) -> Mapping[Seat, Prompt]:
        if s.phase == "over":
            return {}
        if s.phase == "order":
            assert s.orderer is not None
            side = s.players[s.orderer].side.title()
            seats = [i + 1 for i, x in enumerate(s.players) if x.side == s.players[s.orderer].side]
            example = ", ".join(map(str, reversed(seats)))
            text_ = (f"Holding most coins, determine the {side} placement order: the seat numbers in the "
                     f"order they place (order {example}: seat {seats[-1]} places first).")
            return {s.orderer: Prompt(kind="turn", text=text_)}
        if s.phase == "place":
            seat = s.place_order[0]
            return {seat: Prompt(kind="turn", text="Place a Patriarch.")}
        if s.phase == "discard":
            return {
                x: Prompt(kind="secret", text=f"Discard {count(p.to_discard, 'Kingdom card')} back to the supply.")
                for x, p in enumerate(s.players)
                if p.to_discard
            }
        t = s.turn
        assert t is not None
        if t.pending is not None:
            text_ = f"{self.land_name(t.pending.land)} is attacked: play Treaty, or pass."
            return {x: Prompt(kind="respond", text=text_) for x in t.pending.waiting}
        if t.retreats:
            r = t.retreats[0]
            return {r.seat: Prompt(kind="turn", text=f"Retreat your {r.type} from {self.land_name(r.land)}.")}
        texts = {
            "kb": "Kingdom building: attack, build, stack, move the Ark, or end with coins for unused units.",
            "actions": f"Actions ({t.actions} left): place Patriarch, royal, kingdom, collect coin, or done.",
            "revenue": "Collect revenue: play an Artefact first, or done to collect.",
            "buy": "Buy an Artefact, or done to end your turn.",
        }
        return {t.seat: Prompt(kind="turn", text=texts[t.phase])}

    # ------------------------------------------------------------------ legal actions

    def legal_actions(self, s: State, seat: Seat) -> Sequence[Any]:
        """Every legal action for ``seat`` now (a fresh list, remembered for the last
        state: games.core.memo; an agent's choice and ``apply``'s check share one)."""
        return list(self._legal_actions(s, seat))

    @last_state
    def _legal_actions(self, s: State, seat: Seat) -> tuple[Any, ...]:
        """``_legal`` remembered for the last state (a tuple, handed out uncopied)."""
        return tuple(self._legal(s, seat))

    def _legal(self, s: State, seat: Seat) -> Sequence[Any]:
        if s.phase == "over" or seat not in self.to_act(s):
            return []
        if s.phase == "order":
            team = self.team(s, s.players[seat].side)
            return [PlacementOrder(seats=o) for o in permutations(team)]
        if s.phase == "place":
            return self._initial_places(s, seat)
        if s.phase == "discard":
            p = s.players[seat]
            return [Discard(cards=tuple(c)) for c in combinations(p.hand, p.to_discard)]
        t = s.turn
        assert t is not None
        if t.pending is not None:
            return [*(PlayArtefact(artefact=a) for a in self._treaties(s, seat)), Pass()]
        if t.retreats:
            r = t.retreats[0]
            return [RetreatTo(land=self.data.lands[j].id) for j in self._retreat_options(s, r)] + [
                RetreatTo()
            ]
        if t.phase == "kb":
            return self._kb_actions(s)
        if t.phase == "actions":
            return self._action_actions(s)
        if t.phase == "revenue":
            return [*self._plays(s, "CR"), Done()]
        return [*self._buys(s), Done()]

    def _treaties(self, s: State, seat: Seat) -> list[str]:
        """The face-up Treaty Artefacts of ``seat`` (type ids, each once)."""
        return list(
            dict.fromkeys(
                o.id
                for o in s.players[seat].artefacts
                if not o.face_down and self.data.artefacts[o.id].kind == "treaty"
            )
        )

    def _initial_places(self, s: State, seat: Seat) -> list[PlacePatriarch]:
        p = s.players[seat]
        out = []
        if p.side == "heathen":
            mine = [q for q in s.patriarchs if q.seat == seat]
            canaanite = sum(1 for q in mine if self._canaanite_land(s, q.land))
            must = CANAANITE_PLACEMENTS - canaanite >= HEATHEN_PLACEMENTS - len(mine)
            lands = [
                i
                for i, x in enumerate(s.lands)
                if self.counters_side(x.counters) == "heathen" and (not must or self._canaanite_land(s, i))
            ]
        else:
            lands = [i for i, x in enumerate(s.lands) if self.counters_side(x.counters) == "hebrew"]
        for ptype in PATRIARCH_TYPES:
            if self.in_supply(s, seat, ptype) <= 0:
                continue
            for i in lands:
                if self.can_hold(s, i, seat, ptype):
                    out.append(PlacePatriarch(type=ptype, land=self.data.lands[i].id))
        return out

    def _canaanite_land(self, s: State, i: int) -> bool:
        """Canaanite occupied: Canaanite counters, not a start-land (RULINGS R7)."""
        return s.lands[i].counters == "cab" and i not in self.data.start_lands("cab")

    def _kb_actions(self, s: State) -> list[Any]:
        t = s.turn
        assert t is not None
        out: list[Any] = []
        mine = self.kingdom_lands(s, t.kingdom)
        if t.units >= 1:
            for j in self.targets(s, t.kingdom):
                lid = self.data.lands[j].id
                if not s.no_dice:
                    out.append(Attack(land=lid))
                halves = self.force_halves(s, j)
                if halves is not None:
                    units, _ = self.units_for_halves(t.half, halves)
                    if 1 + units <= t.units:
                        out.append(Attack(land=lid, force=True))
        for i in sorted(mine):
            x = s.lands[i]
            lid = self.data.lands[i].id
            if not x.city and s.cities > 0 and t.units >= self._city_cost(t):
                out.append(Build(what="city", land=lid))
            if x.city and not x.temple and s.temples > 0 and t.units >= self._temple_cost(t):
                out.append(Build(what="temple", land=lid))
            if x.units == 1 and t.units >= 1:
                out.append(Stack(land=lid))
        if not t.ark_moved and s.ark in mine:
            for j, priest in self._ark_moves(s):
                out.append(MoveArk(land=self.data.lands[j].id, priest=priest))
        out += self._plays(s, "KB")
        total = t.units + t.shortfall
        for b in range(total + 1):
            for sv in range(total - b + 1):
                out.append(EndBuilding(coins=(b, sv, total - b - sv)))
        return out

    def _city_cost(self, t: Turn) -> int:
        if "masons" in t.effects:
            return 0 if t.mason_credit else 1
        return 1

    def _temple_cost(self, t: Turn) -> int:
        return 1 if "masons" in t.effects else 2

    def _ark_moves(self, s: State) -> list[tuple[int, bool]]:
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

    def _plays(self, s: State, phase: str) -> list[PlayArtefact]:
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
                    out.append(PlayArtefact(artefact=a.id))
            elif kind == "plague":
                out += [PlayArtefact(artefact=a.id, land=self.data.lands[i].id) for i in sorted(mine)]
            elif kind == "populate":
                if self.supply(s, k.counters) <= 0:
                    continue
                single = [i for i in sorted(mine) if s.lands[i].units == 1]
                if len(single) == 1 or self.supply(s, k.counters) == 1:
                    out += [PlayArtefact(artefact=a.id, land=self.data.lands[i].id) for i in single]
                else:
                    out += [
                        PlayArtefact(artefact=a.id, land=self.data.lands[i].id, land2=self.data.lands[j].id)
                        for i, j in combinations(single, 2)
                    ]
            elif kind.startswith("tribute"):
                out += [PlayArtefact(artefact=a.id, coin=c) for c in COINS]
            elif kind.startswith("proliferate"):
                out.append(PlayArtefact(artefact=a.id))
            elif kind.startswith("recruit"):
                if self.supply(s, k.counters) > 0:
                    out.append(PlayArtefact(artefact=a.id))
            elif kind == "commerce":
                for gi, give in enumerate(COINS):
                    for take in COINS:
                        if take == give:
                            continue
                        most = min(p.coins[gi], s.coin_supply[COINS.index(take)])
                        out += [
                            PlayArtefact(artefact=a.id, coin=give, coin2=take, count=n)
                            for n in range(1, most + 1)
                        ]
            elif kind in ("assault", "capitulation"):
                if t.units < 1:
                    continue
                for j in self.targets(s, t.kingdom):
                    if kind == "assault" and s.lands[j].temple:
                        continue
                    out.append(PlayArtefact(artefact=a.id, land=self.data.lands[j].id))
        return out

    def _action_actions(self, s: State) -> list[Any]:
        t = s.turn
        assert t is not None
        seat = t.seat
        out: list[Any] = []
        p = s.players[seat]
        if t.actions > 0 or t.free_places > 0:
            out += self._placements(s, seat)
        if t.actions > 0:
            if p.royal < len(s.royal_track):
                out += [AdvanceRoyal(pay=pay) for pay in self._royal_payments(s, seat)]
            if (
                p.kingdom < len(s.kingdom_track)
                and self._demand_met(s, s.kingdom_track[p.kingdom]) is not None
            ):
                out.append(AdvanceKingdom())
            n = 2 if self.has_royal(s, seat, "treasury") else 1
            if n == 1:
                out += [CollectCoin(coins=(c,)) for c in COINS]
            else:
                out += [CollectCoin(coins=(a, b)) for i, a in enumerate(COINS) for b in COINS[i:]]
        out += self._plays(s, "A")
        out.append(Done())
        return out

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

    def _placements(self, s: State, seat: Seat) -> list[PlacePatriarch]:
        """Place Patriarch: from the supply or moved from the map, into the active kingdom."""
        t = s.turn
        assert t is not None
        lands = sorted(self.kingdom_lands(s, t.kingdom))
        seats_at: dict[int, set[int]] = {}
        types_at: dict[int, set[str]] = {}
        for q in s.patriarchs:
            seats_at.setdefault(q.land, set()).add(q.seat)
            types_at.setdefault(q.land, set()).add(q.type)
        out = []
        for ptype in PATRIARCH_TYPES:
            sources: list[int | None] = [None] if self.in_supply(s, seat, ptype) > 0 else []
            sources += sorted(q.land for q in s.patriarchs if q.seat == seat and q.type == ptype)
            for src in sources:
                for i in lands:
                    if i == src:
                        continue
                    # the moved piece leaves ``src``, never ``i``, so it cannot be in the way
                    if seat not in seats_at.get(i, ()) and ptype not in types_at.get(i, ()):
                        out.append(
                            PlacePatriarch(
                                type=ptype,
                                land=self.data.lands[i].id,
                                source=None if src is None else self.data.lands[src].id,
                            )
                        )
        return out

    def _royal_payments(self, s: State, seat: Seat) -> list[tuple[int, int, int]]:
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

    def _buys(self, s: State) -> list[Buy]:
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
                out.append(Buy(artefact=aid))
        return out

    def _retreat_options(self, s: State, r: Retreat) -> list[int]:
        """Adjacent lands of the same kingdom (its counters) meeting the usual conditions."""
        return [
            j
            for j in self.adj[r.land]
            if s.lands[j].counters == r.counters
            and s.lands[j].units > 0
            and self.can_hold(s, j, r.seat, r.type)
        ]

    # ------------------------------------------------------------------ the Kingdom track

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

    def _demand_met(self, s: State, token_id: str) -> dict[str, int] | None:
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

    # ------------------------------------------------------------------ apply

    def apply(self, s: State, seat: Seat, a: Any, rng: Rng) -> Step[State]:
        """Check and apply ``a``. Raises GameOverError, NotYourTurnError or
        IllegalActionError (with what would be legal)."""
        self.require_turn(s, seat)
        legal = self._legal_actions(s, seat)
        if a not in legal:
            raise IllegalActionError(self._why(s, seat, a, list(legal)))
        ctx = _Ctx(s, rng)
        if s.phase == "order":
            self._set_order(ctx, s.players[seat].side, a.seats)
        elif s.phase == "place":
            self._apply_initial(ctx, seat, a)
        elif s.phase == "discard":
            self._apply_discard(ctx, seat, a)
        elif s.turn is not None and s.turn.pending is not None:
            self._apply_treaty(ctx, seat, a)
        elif s.turn is not None and s.turn.retreats:
            self._apply_retreat(ctx, a)
        else:
            self._apply_turn(ctx, a)
        return Step(state=ctx.s, events=tuple(ctx.events))

    def _why(self, s: State, seat: Seat, a: Any, legal: Sequence[Any]) -> str:
        same = [x for x in legal if type(x) is type(a)]
        kind = getattr(a, "kind", "that")
        if not same:
            kinds = sorted({notation.verb(x) for x in legal})
            return f"You cannot {kind} now; you may: {list_words(kinds)}."
        return f"That {kind} is not legal now; legal: {list_words([self.format_action(s, x) for x in same])}."

    def _apply_initial(self, ctx: _Ctx, seat: Seat, a: PlacePatriarch) -> None:
        s = ctx.s
        land = self.idx[a.land]
        ctx.update(
            patriarchs=(*s.patriarchs, Patriarch(seat=seat, type=a.type, land=land)),
            place_order=s.place_order[1:],
        )
        ctx.note(f"Seat {seat + 1} places a {a.type.title()} in {self.land_name(land)}.")
        if not ctx.s.place_order:
            if ctx.s.players[seat].side == "heathen":
                self._begin_order(ctx, "hebrew")  # "Similarly the Hebrew players determine placement order"
            else:
                self._start_book(ctx, 1)

    def _start_book(self, ctx: _Ctx, book: int) -> None:
        """Starting Book 2 and Book 3 (and Book 1): refill the array, deal the Book's cards."""
        s = ctx.s
        ctx.update(book=book)
        if book > 1:
            need = ARRAY_SIZE - len(s.array)
            drawn = s.bag[:need]
            ctx.update(array=s.array + drawn, bag=s.bag[len(drawn) :])
            ctx.note(f"Book {book}: {len(drawn)} Artefacts drawn to refill the array.")
        decks = list(ctx.s.decks)
        for side_i, side in enumerate(("heathen", "hebrew")):
            team = self.team(ctx.s, side)
            dealt, discard = DEAL[len(team)]
            di = (book - 1) * 2 + side_i
            deck = list(decks[di])
            for x in team:
                hand, deck = deck[:dealt], deck[dealt:]
                ctx.set_player(x, hand=tuple(sorted(hand)), to_discard=discard)
                names = ", ".join(self.card_label(c) for c in sorted(hand))
                ctx.emit(PrivateNote(text=f"You are dealt: {names}.", visible_to=(x,)))
            decks[di] = tuple(deck)
        ctx.update(decks=tuple(decks), phase="discard", turn=None)
        ctx.note(f"Book {book}: Kingdom cards dealt; each player discards in secret.")

    def card_label(self, number: int) -> str:
        c = self.card(number)
        return f"{c.name} ({c.number})"

    def _apply_discard(self, ctx: _Ctx, seat: Seat, a: Discard) -> None:
        p = ctx.s.players[seat]
        di = (ctx.s.book - 1) * 2 + (0 if p.side == "heathen" else 1)
        decks = list(ctx.s.decks)
        decks[di] = decks[di] + a.cards
        ctx.set_player(seat, hand=tuple(c for c in p.hand if c not in a.cards), to_discard=0)
        ctx.update(decks=tuple(decks))
        ctx.emit(
            PrivateNote(
                text=f"You discard {', '.join(self.card_label(c) for c in a.cards)}.", visible_to=(seat,)
            )
        )
        ctx.note(f"Seat {seat + 1} has discarded.")
        if not any(q.to_discard for q in ctx.s.players):
            ctx.update(phase="turn")
            self._call_next(ctx)

    def _call_next(self, ctx: _Ctx) -> None:
        """Player Turns: call the next card on the Time track; a new Book after card 18/36;
        the end after the last card."""
        while True:
            s = ctx.s
            held = {c: x for x, p in enumerate(s.players) for c in p.hand}
            last = s.book * BOOK_CARDS
            nxt = next((c for c in range(s.time + 1, last + 1) if c in held), None)
            if nxt is None:
                ctx.update(time=last)
                if s.book < 3:
                    self._start_book(ctx, s.book + 1)
                    return
                self._end_game(ctx)
                return
            skipped = nxt - s.time - 1
            if skipped:
                ctx.note(
                    f"No player holds cards {s.time + 1}-{nxt - 1}."
                    if skipped > 1
                    else f"No player holds card {s.time + 1}."
                )
            ctx.update(time=nxt)
            self._begin_turn(ctx, held[nxt], nxt)
            return

    def _begin_turn(self, ctx: _Ctx, seat: Seat, number: int) -> None:
        """Reveal the Card and Take Units; then the automatic conquest of a start-land."""
        c = self.card(number)
        k = self.kingdom(c.kingdom)
        p = ctx.s.players[seat]
        ctx.set_player(seat, hand=tuple(x for x in p.hand if x != number), played=(*p.played, number))
        take = min(c.units, self.supply(ctx.s, k.counters))
        ctx.supply_add(k.counters, -take)
        team = self.team_size(ctx.s, seat)
        ctx.update(
            turn=Turn(
                card=number,
                seat=seat,
                kingdom=k.id,
                units=take,
                shortfall=c.units - take,
                actions=ACTIONS[team],
            )
        )
        lead = f"{c.name} leading the {k.name}" if c.side == "hebrew" else f"the {k.name}"
        ctx.emit(
            CardRevealed(
                seat=seat,
                card=number,
                text=f"Card {number}: seat {seat + 1} reveals {lead} and takes {count(take, 'unit')}"
                + (f" ({c.units - take} short: the supply is out)" if take < c.units else "")
                + ".",
            )
        )
        self._auto_start_land(ctx)

    def _auto_start_land(self, ctx: _Ctx) -> None:
        """A Heathen kingdom not in its start-land, or a Hebrew kingdom (or the Canaanites)
        with no units on the map, first conquers its start-land automatically (Conquer)."""
        s = ctx.s
        t = s.turn
        assert t is not None
        k = self.kingdom(t.kingdom)
        if t.units < 1:
            return
        start: int | None = None
        if k.side == "heathen" and k.start_land is not None:
            i = self.idx[k.start_land]
            if s.lands[i].counters != k.counters:
                start = i
        elif not any(x.counters == k.counters for x in s.lands):
            land = k.start_land or k.fallback_start_land
            assert land is not None
            start = self.idx[land]
        if start is None:
            return
        self._conquer(ctx, start, keep_buildings=True)
        ctx.set_turn(units=ctx.s.turn.units - 1)  # type: ignore[union-attr]
        combat = Combat(
            kingdom=k.id,
            land=self.data.lands[start].id,
            method="start-land",
            text=f"The {k.name} conquer their start-land {self.land_name(start)} automatically.",
        )
        ctx.update(last_combat=combat)
        ctx.emit(Attacked(combat=combat))
        self._settle_retreats(ctx)

    def _conquer(self, ctx: _Ctx, land: int, keep_buildings: bool = False) -> None:
        """The active kingdom takes ``land`` with one unit: defenders back to their supply,
        a city and temple removed (unless kept), Patriarchs retreat."""
        s = ctx.s
        t = s.turn
        assert t is not None
        k = self.kingdom(t.kingdom)
        x = s.lands[land]
        if x.counters is not None and x.units:
            ctx.supply_add(x.counters, x.units)
        city, temple = x.city, x.temple
        if not keep_buildings:
            if x.city:
                ctx.update(cities=ctx.s.cities + 1)
                ctx.set_turn(destroyed_cities=ctx.s.turn.destroyed_cities + 1)  # type: ignore[union-attr]
                city = False
            if x.temple:
                ctx.update(temples=ctx.s.temples + 1)
                ctx.set_turn(destroyed_temples=ctx.s.turn.destroyed_temples + 1)  # type: ignore[union-attr]
                temple = False
        ctx.set_land(land, counters=k.counters, units=1, city=city, temple=temple)
        # Retreating Patriarchs
        leaving = [p for p in ctx.s.patriarchs if p.land == land]
        if leaving and x.counters is not None:
            ctx.update(patriarchs=tuple(p for p in ctx.s.patriarchs if p.land != land))
            pending = [Retreat(seat=p.seat, type=p.type, land=land, counters=x.counters) for p in leaving]
            ctx.set_turn(retreats=ctx.s.turn.retreats + tuple(pending))  # type: ignore[union-attr]
        # the caller tells the conquest, then settles the retreats (``_settle_retreats``), so that
        # a Patriarch's retreat is read after the conquest that causes it

    def _settle_retreats(self, ctx: _Ctx) -> None:
        """Patriarchs with nowhere to retreat go back to their owner's supply at once."""
        t = ctx.s.turn
        assert t is not None
        left = list(t.retreats)
        while left and not self._retreat_options(ctx.s, left[0]):
            r = left.pop(0)
            ctx.note(
                f"Seat {r.seat + 1}'s {r.type.title()} cannot retreat from {self.land_name(r.land)}: back to the supply."
            )
        ctx.set_turn(retreats=tuple(left))

    def _apply_retreat(self, ctx: _Ctx, a: RetreatTo) -> None:
        t = ctx.s.turn
        assert t is not None
        r = t.retreats[0]
        if a.land is None:
            ctx.note(f"Seat {r.seat + 1}'s {r.type.title()} goes back to the supply.")
        else:
            j = self.idx[a.land]
            ctx.update(patriarchs=(*ctx.s.patriarchs, Patriarch(seat=r.seat, type=r.type, land=j)))
            ctx.note(
                f"Seat {r.seat + 1}'s {r.type.title()} retreats from {self.land_name(r.land)} to {self.land_name(j)}."
            )
        ctx.set_turn(retreats=t.retreats[1:])
        self._settle_retreats(ctx)

    # ------------------------------------------------------------------ the turn

    def _apply_turn(self, ctx: _Ctx, a: Any) -> None:
        t = ctx.s.turn
        assert t is not None
        if t.phase == "kb" and not (isinstance(a, Attack) and self.idx[a.land] == t.last_failed):
            ctx.set_turn(last_failed=None, continued=0)
        if isinstance(a, Attack):
            self._declare_attack(ctx, a)
        elif isinstance(a, Build):
            self._build(ctx, a)
        elif isinstance(a, Stack):
            i = self.idx[a.land]
            ctx.set_land(i, units=2)
            ctx.set_turn(units=t.units - 1)
            ctx.note(f"The {self.kingdom(t.kingdom).name} stack a unit in {self.land_name(i)}.")
        elif isinstance(a, MoveArk):
            self._move_ark(ctx, a)
        elif isinstance(a, PlayArtefact):
            self._play(ctx, a)
        elif isinstance(a, EndBuilding):
            self._end_building(ctx, a)
        elif isinstance(a, PlacePatriarch):
            self._place(ctx, a)
        elif isinstance(a, AdvanceRoyal):
            self._royal(ctx, a)
        elif isinstance(a, AdvanceKingdom):
            self._kingdom_track(ctx)
        elif isinstance(a, CollectCoin):
            for c in a.coins:
                self._gain(ctx, t.seat, coin_vec(c), "Collect coin")
            ctx.set_turn(actions=ctx.s.turn.actions - 1)  # type: ignore[union-attr]
            self._after_action(ctx)
        elif isinstance(a, Buy):
            self._buy(ctx, a)
        elif isinstance(a, Done):
            if t.phase == "actions":
                self._to_revenue(ctx)
            elif t.phase == "revenue":
                self._collect_revenue(ctx)
            else:
                self._end_turn(ctx)

    def _gain(self, ctx: _Ctx, seat: Seat, want: Sequence[int], reason: str) -> tuple[int, int, int]:
        """Take coins from the finite supply (Coin Supply: none left, none collected)."""
        got = tuple(min(w, have) for w, have in zip(want, ctx.s.coin_supply, strict=True))
        ctx.update(coin_supply=_add(ctx.s.coin_supply, got, -1))
        ctx.set_player(seat, coins=_add(ctx.s.players[seat].coins, got))
        short = "" if tuple(want) == got else " (the supply ran short)"
        ctx.emit(CoinsChanged(seat=seat, delta=got, reason=reason + short))  # type: ignore[arg-type]
        return got  # type: ignore[return-value]

    def _pay(self, ctx: _Ctx, seat: Seat, pay: Sequence[int], reason: str) -> None:
        ctx.update(coin_supply=_add(ctx.s.coin_supply, pay))
        ctx.set_player(seat, coins=_add(ctx.s.players[seat].coins, pay, -1))
        ctx.emit(CoinsChanged(seat=seat, delta=(-pay[0], -pay[1], -pay[2]), reason=reason))

    def _declare_attack(self, ctx: _Ctx, a: Attack) -> None:
        """An attack on a land holding Patriarchs of players with a face-up Treaty waits for
        them to play it or pass (Playing Artefacts: Treaty; RULINGS R18)."""
        t = ctx.s.turn
        assert t is not None
        j = self.idx[a.land]
        owners = sorted({p.seat for p in ctx.s.patriarchs if p.land == j and p.seat != t.seat})
        waiting = tuple(x for x in owners if self._treaties(ctx.s, x))
        if not waiting:
            self._attack(ctx, a)
            return
        ctx.set_turn(pending=PendingAttack(land=j, force=a.force, waiting=waiting))
        who = ", ".join(f"seat {x + 1}" for x in waiting)
        ctx.note(f"The {self.kingdom(t.kingdom).name} attack {self.land_name(j)}; {who} may play Treaty.")

    def _apply_treaty(self, ctx: _Ctx, seat: Seat, a: Any) -> None:
        t = ctx.s.turn
        assert t is not None and t.pending is not None
        pending = t.pending
        attack = Attack(land=self.data.lands[pending.land].id, force=pending.force)
        if isinstance(a, Pass):
            left = tuple(x for x in pending.waiting if x != seat)
            ctx.set_turn(pending=pending.model_copy(update={"waiting": left}))
            ctx.note(f"Seat {seat + 1} lets the attack go ahead.")
            if not left:
                ctx.set_turn(pending=None)
                self._attack(ctx, attack)
            return
        arts = list(ctx.s.players[seat].artefacts)
        i = next(n for n, o in enumerate(arts) if o.id == a.artefact and not o.face_down)
        arts[i] = arts[i].model_copy(update={"face_down": True})
        ctx.set_player(seat, artefacts=tuple(arts))
        k = self.kingdom(t.kingdom)
        ctx.supply_add(k.counters, 1)
        ctx.set_turn(pending=None, units=t.units - 1, last_failed=None, continued=0)
        combat = Combat(
            kingdom=k.id,
            land=attack.land,
            method="treaty",
            won=False,
            text=f"Seat {seat + 1} plays Treaty: the {k.name} attack on {self.land_name(pending.land)} fails.",
        )
        ctx.update(last_combat=combat)
        ctx.emit(Attacked(combat=combat))

    def _attack(self, ctx: _Ctx, a: Attack) -> None:
        """Attacking and Force Victory."""
        s = ctx.s
        t = s.turn
        assert t is not None
        j = self.idx[a.land]
        k = self.kingdom(t.kingdom)
        name = self.land_name(j)
        defence = self.defence(s, j)
        dice = self.attack_dice(s, j)
        effects = tuple(e for e in t.effects if e != "treachery")
        if a.force:
            halves = self.force_halves(s, j)
            assert halves is not None
            units, half = self.units_for_halves(t.half, halves)
            ctx.supply_add(k.counters, units)  # the extra units spent go back to the supply
            ctx.set_turn(units=t.units - 1 - units, half=half, effects=effects)
            extra = {0: "", 1: ", spending an extra half unit", 2: ", spending an extra unit"}.get(
                halves, f", spending {halves / 2:g} extra units"
            )
            self._conquer(ctx, j)
            combat = Combat(
                kingdom=k.id,
                land=a.land,
                method="force",
                defence=defence,
                text=f"The {k.name} force victory in {name} ({count(dice, 'die', 'dice')}, defence {defence:+d}){extra}.",
            )
            ctx.update(last_combat=combat)
            ctx.emit(Attacked(combat=combat))
            self._settle_retreats(ctx)
            return
        rolls = ctx.rng.dice(dice)
        droll = ctx.rng.die()
        bonus = t.continued if t.last_failed == j else 0
        attack = max(rolls) + bonus
        dtotal = droll + defence
        won = dtotal < attack
        ctx.set_turn(units=t.units - 1, effects=effects)
        detail = (
            f"rolled {', '.join(map(str, rolls))}"
            + (f" +{bonus} continued" if bonus else "")
            + f" = {attack} against {droll}{defence:+d} = {dtotal}"
        )
        if won:
            self._conquer(ctx, j)
            ctx.set_turn(last_failed=None, continued=0)
            text_ = f"The {k.name} conquer {name}: {detail}."
        else:
            ctx.supply_add(k.counters, 1)
            ctx.set_turn(last_failed=j, continued=min(MAX_CONTINUED, bonus + 1))
            text_ = f"The {k.name} attack on {name} fails: {detail}."
        combat = Combat(
            kingdom=k.id,
            land=a.land,
            method="dice",
            dice=rolls,
            attack=attack,
            defence_roll=droll,
            defence=defence,
            won=won,
            text=text_,
        )
        ctx.update(last_combat=combat)
        ctx.emit(Attacked(combat=combat))
        self._settle_retreats(ctx)

    def _build(self, ctx: _Ctx, a: Build) -> None:
        t = ctx.s.turn
        assert t is not None
        i = self.idx[a.land]
        k = self.kingdom(t.kingdom)
        if a.what == "city":
            cost = self._city_cost(t)
            credit = 0
            if "masons" in t.effects:
                credit = 0 if t.mason_credit else 1
            ctx.set_land(i, city=True)
            ctx.update(cities=ctx.s.cities - 1)
            ctx.set_turn(units=t.units - cost, built_cities=t.built_cities + 1, mason_credit=credit)
        else:
            cost = self._temple_cost(t)
            ctx.set_land(i, temple=True)
            ctx.update(temples=ctx.s.temples - 1)
            ctx.set_turn(units=t.units - cost, built_temples=t.built_temples + 1)
        ctx.supply_add(k.counters, cost)
        ctx.note(
            f"The {k.name} build a {a.what} in {self.land_name(i)} ({cost} unit{'s' if cost != 1 else ''})."
        )

    def _move_ark(self, ctx: _Ctx, a: MoveArk) -> None:
        s = ctx.s
        t = s.turn
        assert t is not None
        j = self.idx[a.land]
        moved = []
        pats = []
        for p in s.patriarchs:
            if p.land == s.ark and p.type == "priest" and (p.seat != t.seat or a.priest):
                pats.append(p.model_copy(update={"land": j}))
                moved.append(p.seat)
            else:
                pats.append(p)
        frm = self.land_name(s.ark)
        ctx.update(ark=j, patriarchs=tuple(pats))
        ctx.set_turn(ark_moved=True)
        with_ = f" with the Priest of seat {moved[0] + 1}" if moved else ""
        ctx.note(f"The Ark moves from {frm} to {self.land_name(j)}{with_}.")

    def _play(self, ctx: _Ctx, a: PlayArtefact) -> None:
        """Playing Artefacts (List of Artefacts)."""
        s = ctx.s
        t = s.turn
        assert t is not None
        art = self.data.artefacts[a.artefact]
        p = s.players[t.seat]
        arts = list(p.artefacts)
        i = next(n for n, o in enumerate(arts) if o.id == a.artefact and not o.face_down)
        arts[i] = arts[i].model_copy(update={"face_down": True})
        ctx.set_player(t.seat, artefacts=tuple(arts))
        ctx.set_turn(plays=t.plays + 1)
        k = self.kingdom(t.kingdom)
        kind = art.kind
        ctx.note(f"Seat {t.seat + 1} plays {art.display}.")
        if kind in ("treachery", "siegecraft", "chariots", "masons") or kind.startswith("boom"):
            ctx.set_turn(effects=(*ctx.s.turn.effects, kind))  # type: ignore[union-attr]
        elif kind == "plague":
            centre = self.idx[a.land or ""]
            for j in self.adj[centre]:
                x = ctx.s.lands[j]
                if x.units >= 2 and x.counters:
                    ctx.set_land(j, units=1)
                    ctx.supply_add(x.counters, 1)
                    ctx.note(f"Plague: the stacked unit in {self.land_name(j)} is removed.")
        elif kind == "populate":
            for lid in (a.land, a.land2):
                if lid is None or self.supply(ctx.s, k.counters) <= 0:
                    continue
                ctx.set_land(self.idx[lid], units=2)
                ctx.supply_add(k.counters, -1)
        elif kind.startswith("tribute"):
            self._gain(ctx, t.seat, coin_vec(a.coin or "gold", 2 if kind == "tribute-2" else 4), art.name)
        elif kind.startswith("proliferate"):
            ctx.set_turn(free_places=ctx.s.turn.free_places + (1 if kind == "proliferate-1" else 2))  # type: ignore[union-attr]
        elif kind.startswith("recruit"):
            n = min(1 if kind == "recruit-1" else 2, self.supply(ctx.s, k.counters))
            ctx.supply_add(k.counters, -n)
            ctx.set_turn(units=ctx.s.turn.units + n)  # type: ignore[union-attr]
        elif kind == "commerce":
            assert a.coin and a.coin2 and a.count
            self._pay(ctx, t.seat, coin_vec(a.coin, a.count), "Commerce")
            self._gain(ctx, t.seat, coin_vec(a.coin2, a.count), "Commerce")
        elif kind in ("assault", "capitulation"):
            j = self.idx[a.land or ""]
            ctx.set_turn(units=ctx.s.turn.units - 1, last_failed=None, continued=0)  # type: ignore[union-attr]
            self._conquer(ctx, j, keep_buildings=kind == "capitulation")
            combat = Combat(
                kingdom=k.id,
                land=a.land or "",
                method=kind,  # type: ignore[arg-type]
                text=f"{art.name}: the {k.name} take {self.land_name(j)} for 1 unit.",
            )
            ctx.update(last_combat=combat)
            ctx.emit(Attacked(combat=combat))
            self._settle_retreats(ctx)
        if t.phase == "actions":
            self._after_action(ctx)

    def _end_building(self, ctx: _Ctx, a: EndBuilding) -> None:
        """Unused Units: exchanged 1:1 for coins; the half-space unit is removed."""
        t = ctx.s.turn
        assert t is not None
        k = self.kingdom(t.kingdom)
        ctx.supply_add(k.counters, t.units)
        if sum(a.coins):
            self._gain(ctx, t.seat, a.coins, "unused units")
        team = self.team_size(ctx.s, t.seat)
        free = 1 if self.has_royal(ctx.s, t.seat, "justice") else 0
        ctx.set_turn(
            units=0,
            shortfall=0,
            half=False,
            phase="actions",
            actions=ACTIONS[team],
            free_places=t.free_places + free,
        )
        ctx.note(f"Seat {t.seat + 1}: Actions.")
        self._after_action(ctx)

    def _after_action(self, ctx: _Ctx) -> None:
        """Leave the Actions phase by itself when nothing is left to do in it."""
        t = ctx.s.turn
        assert t is not None
        if t.phase != "actions":
            return
        if t.actions == 0 and t.free_places == 0 and not self._plays(ctx.s, "A"):
            self._to_revenue(ctx)

    def _place(self, ctx: _Ctx, a: PlacePatriarch) -> None:
        s = ctx.s
        t = s.turn
        assert t is not None
        i = self.idx[a.land]
        pats = list(s.patriarchs)
        if a.source is not None:
            src = self.idx[a.source]
            pats.remove(Patriarch(seat=t.seat, type=a.type, land=src))
        pats.append(Patriarch(seat=t.seat, type=a.type, land=i))
        ctx.update(patriarchs=tuple(pats))
        if t.free_places:
            ctx.set_turn(free_places=t.free_places - 1)
        else:
            ctx.set_turn(actions=t.actions - 1)
        frm = f" from {a.source and self.land_name(self.idx[a.source])}" if a.source else ""
        ctx.note(f"Seat {t.seat + 1} places a {a.type.title()} in {self.land_name(i)}{frm}.")
        self._after_action(ctx)

    def _royal(self, ctx: _Ctx, a: AdvanceRoyal) -> None:
        t = ctx.s.turn
        assert t is not None
        p = ctx.s.players[t.seat]
        tok = self.data.royal_token[ctx.s.royal_track[p.royal]]
        self._pay(ctx, t.seat, a.pay, f"Royal track: {tok.name}")
        ctx.set_player(t.seat, royal=p.royal + 1)
        extra = 1 if tok.id == "justice" else 0
        ctx.set_turn(actions=t.actions - 1, free_places=t.free_places + extra)
        ctx.note(f"Seat {t.seat + 1} advances on the Royal track to {tok.name} ({count(tok.points, 'point')}).")
        self._after_action(ctx)

    def _kingdom_track(self, ctx: _Ctx) -> None:
        t = ctx.s.turn
        assert t is not None
        p = ctx.s.players[t.seat]
        tok_id = ctx.s.kingdom_track[p.kingdom]
        use = self._demand_met(ctx.s, tok_id)
        assert use is not None
        used = dict(t.used)
        for key, n in use.items():
            used[key] = used.get(key, 0) + n
        ctx.set_player(t.seat, kingdom=p.kingdom + 1)
        ctx.set_turn(actions=t.actions - 1, used=tuple(sorted(used.items())))
        tok = self.data.kingdom_token[tok_id]
        ctx.note(f"Seat {t.seat + 1} advances on the Kingdom track: {tok.text} ({count(tok.points, 'point')}).")
        self._after_action(ctx)

    def _to_revenue(self, ctx: _Ctx) -> None:
        ctx.set_turn(phase="revenue", actions=0, free_places=0)
        if not self._plays(ctx.s, "CR"):
            self._collect_revenue(ctx)

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

    def _collect_revenue(self, ctx: _Ctx) -> None:
        t = ctx.s.turn
        assert t is not None
        rev = self.revenue(ctx.s, t.seat, t.effects)
        self._gain(ctx, t.seat, rev, "revenue")
        ctx.set_turn(phase="buy")
        if not self._buys(ctx.s):
            self._end_turn(ctx)

    def _buy(self, ctx: _Ctx, a: Buy) -> None:
        t = ctx.s.turn
        assert t is not None
        art = self.data.artefacts[a.artefact]
        self._pay(ctx, t.seat, coin_vec(art.coin, art.cost), f"bought {art.display}")
        arr = list(ctx.s.array)
        arr.remove(a.artefact)
        p = ctx.s.players[t.seat]
        ctx.update(array=tuple(arr))
        ctx.set_player(t.seat, artefacts=(*p.artefacts, OwnedArtefact(id=a.artefact)))
        ctx.set_turn(buys=t.buys + 1)
        ctx.note(f"Seat {t.seat + 1} buys {art.display}.")
        if not self._buys(ctx.s):
            self._end_turn(ctx)

    def _end_turn(self, ctx: _Ctx) -> None:
        ctx.update(turn=None)
        self._call_next(ctx)

    # ------------------------------------------------------------------ the end

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

    def _end_game(self, ctx: _Ctx) -> None:
        s = ctx.s
        sc = [sum(d.values()) for d in self.scores(s)]
        best = max(sc)
        top = [x for x in range(len(sc)) if sc[x] == best]
        coins = {x: sum(s.players[x].coins) for x in top}
        most = max(coins.values())
        winners = tuple(x for x in top if coins[x] == most)
        table = ", ".join(f"seat {x + 1} {v}" for x, v in enumerate(sc))
        who = " and ".join(f"seat {x + 1}" for x in winners)
        tie = " (tie broken by remaining coins)" if len(top) > 1 and len(winners) < len(top) else ""
        joint = " (joint winners)" if len(winners) > 1 else ""
        reason = f"Scores: {table}. Winner: {who}{tie}{joint}."
        ctx.update(phase="over", turn=None, winners=winners, end_reason=reason)
        ctx.emit(GameEnded(text="The last turn has been played. " + reason))

    def outcome(self, s: State) -> Outcome | None:
        if s.phase != "over":
            return None
        return Outcome(winners=s.winners, reason=s.end_reason)

    # ------------------------------------------------------------------ view

    def card_view(self, number: int) -> CardView:
        if number not in self._card_views:
            self._card_views[number] = self._card_view(number)
        return self._card_views[number]

    def _card_view(self, number: int) -> CardView:
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

    def artefact_view(self, aid: str, face_down: bool = False) -> ArtefactView:
        key = (aid, face_down)
        if key not in self._artefact_views:
            self._artefact_views[key] = self._artefact_view(aid, face_down)
        return self._artefact_views[key]

    def _artefact_view(self, aid: str, face_down: bool) -> ArtefactView:
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

    # ------------------------------------------------------------ hidden information

    def perturb_hidden(self, s: State, keep: frozenset[Seat] | None, rand: random.Random) -> State:
        """``s`` as the seats of ``keep`` cannot tell it apart (games.core.secrets): the
        bag and the decks of the Books not yet dealt shuffled, and the Kingdom cards in
        hand of each side's players outside ``keep`` redealt among them (hand sizes
        kept; the current Book's deck holds discards some seats know, so it stays)."""
        players = list(s.players)
        for side in ("heathen", "hebrew"):
            others = [x for x, p in enumerate(s.players) if p.side == side and keep is not None and x not in keep]
            for x, hand in zip(others, redeal([s.players[x].hand for x in others], rand), strict=True):
                players[x] = players[x].model_copy(update={"hand": tuple(sorted(hand))})
        decks = tuple(d if i // 2 < s.book else shuffled(d, rand) for i, d in enumerate(s.decks))
        return s.model_copy(update={"players": tuple(players), "decks": decks, "bag": shuffled(s.bag, rand)})

    def view(self, s: State, viewer: Seat | None) -> View:
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
        prompts = self.to_act(s)
        return View(
            viewer=viewer,
            no_dice=s.no_dice,
            phase=s.phase,
            book=s.book,
            time=s.time,
            players=tuple(players),
            lands=tuple(lands),
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

    # ------------------------------------------------------------------ notation



GAME = PromisedLand()
