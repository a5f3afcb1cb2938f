"""Soul of the Empire's queries: what the data and a State say, changing nothing (rule text:
shared/seeds/000; rulings: RULINGS.md). The game object inherits :class:`Queries`; the
notation, the agent, the rules and the view read the table through it."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from games.core import Seat

from .data import Data
from .model import Die, Marker, State
from .routes import RouteQueries

WIN_POINTS = 7  # Winning The Game
TWO_PLAYER_SECOND = 3  # 2-Player Rules: at least 3 points with the second faction
UNIT_LIMIT = 6  # Important Terms: at most 6 units of a faction in a territory
DICE = 5
HAND_LIMIT = 3
BUY_LIMIT = 6  # up to 6 Power Cards a turn
PIPS_PER_CARD = 2
PIPS_PER_RAGE = 2
BLOCK_PIPS = 6
RAGE_MIN, RAGE_MAX = -2, 3
CAPTURE_WIN = 25  # Roman special victory
CONVERT_WIN = 18  # Christian special victory
REVOLT_UNITS = 5
OBJECTIVES_FACE_UP = 4
YELLOW_DICE = 4
GIVING_PIPS = 4  # Giving: 4 pips, the price of 2 Power Cards
# the territories the special victories read (Winning The Game); the Jews': the blue region
_COALITION_WIN_ORDER = ("rome", "italia")
_CHRISTIAN_WIN_ORDER = ("rome", "jerusalem", "germania")
_COALITION_WIN = frozenset(_COALITION_WIN_ORDER)
_CHRISTIAN_WIN = frozenset(_CHRISTIAN_WIN_ORDER)

NAMES = {
    "rome": "Rome",
    "jews": "Jewish",
    "coalition": "Coalition",
    "christians": "Christian",
    "gray": "Gray",
}

# a faction as the subject of a sentence (Collect Tribute, Giving notes)
WHO = {
    "rome": "Rome",
    "jews": "the Jewish faction",
    "coalition": "the Coalition",
    "christians": "the Christian faction",
    "gray": "the Gray Faction",
}


def pips(values: Iterable[int]) -> int:
    """The pips of some dice: the sum of their values (Using Your Dice)."""
    return sum(values)


def is_sequence(values: Sequence[int]) -> bool:
    """A Dice Sequence: a set (all the same number) or a run (each number one more
    than the last, once each). One die is both. (Using Your Dice To Take Actions)"""
    if not values:
        return False
    vs = sorted(values)
    if len(set(vs)) == 1:
        return True
    return all(b == a + 1 for a, b in zip(vs, vs[1:], strict=False))


class Queries(RouteQueries):
    """Table queries on ``self.data`` (the game's data) and a State."""

    data: Data
    _blue: frozenset[str]  # the blue region's territories (Judea)
    _zone: frozenset[str]

    def tname(self, territory: str) -> str:
        """A territory's name on the map (data/map.toml)."""
        return self.data.territories[territory].name

    def fname(self, faction: str) -> str:
        """A faction's name ("Rome", "Jewish", "Gray")."""
        return NAMES[faction]

    def card_name(self, card: str) -> str:
        """A Power Card's name (data/power.toml; copies share it)."""
        return self.data.card(card).name

    def seat_of(self, s: State, faction: str) -> Seat:
        """The seat that controls ``faction`` (the Gray Faction: the Jewish seat)."""
        return s.factions["jews" if faction == "gray" else faction].seat

    def same_player(self, s: State, a: str, b: str) -> bool:
        """Whether factions ``a`` and ``b`` are both in the game and controlled by one player
        (2-Player Rules: they never fight each other)."""
        if a not in self.present(s) or b not in self.present(s):
            return False
        return self.seat_of(s, a) == self.seat_of(s, b)

    def present(self, s: State) -> set[str]:
        """The factions in the game, with the Gray Faction wherever the Jews play (Jewish Revolt
        Power Cards)."""
        out = set(s.factions)
        if "jews" in s.factions:
            out.add("gray")
        return out

    def units(self, s: State, territory: str, faction: str) -> int:
        """How many units of ``faction`` are in ``territory``."""
        cell = s.board.get(territory)
        return cell.get(faction, 0) if cell else 0

    def occupants(self, s: State, territory: str) -> set[str]:
        """The factions with units in ``territory``."""
        cell = s.board.get(territory)
        return {f for f, n in cell.items() if n > 0} if cell else set()

    def on_board(self, s: State, faction: str) -> int:
        """How many units of ``faction`` are on the map."""
        return sum(cell.get(faction, 0) for cell in s.board.values())

    def territories_of(self, s: State, faction: str) -> list[str]:
        """The territories holding units of ``faction``, in map order."""
        board = s.board
        return [t for t in self.data.territories if t in board and board[t].get(faction, 0) > 0]

    def side_units(self, s: State, territory: str, faction: str) -> int:
        """Units counted for a side's Combat Value: the Jewish and Gray Factions count
        both (Jewish Revolt Power Cards)."""
        if faction in ("jews", "gray"):
            return self.units(s, territory, "jews") + self.units(s, territory, "gray")
        return self.units(s, territory, faction)

    def side_counter(self, s: State, faction: str) -> Callable[[str], int]:
        """``side_units(s, t, faction)`` as a function of the territory ``t`` alone, for a
        question that asks it of many territories."""
        board = s.board
        if faction in ("jews", "gray"):
            return lambda t: board[t].get("jews", 0) + board[t].get("gray", 0) if t in board else 0
        return lambda t: board[t].get(faction, 0) if t in board else 0

    def sole(self, s: State, territory: str, faction: str) -> bool:
        """Sole occupancy; Jewish and Gray units together count as one for the Jews
        (Gray units contribute to, and do not block, Jewish objectives and victory)."""
        cell = s.board.get(territory)  # the occupants: the factions with units there
        if not cell:
            return False
        if faction in ("jews", "gray"):
            return any(n > 0 for n in cell.values()) and all(n <= 0 or o in ("jews", "gray") for o, n in cell.items())
        return cell.get(faction, 0) > 0 and all(n <= 0 or o == faction for o, n in cell.items())

    def marker_at(self, s: State, territory: str) -> Marker | None:
        """The Objective Point Marker in ``territory``, if any."""
        for m in s.markers:
            if m.territory == territory:
                return m
        return None

    def who_plural(self, faction: str) -> str:
        """A faction as a plural subject: "the Christians", "the Coalition"."""
        return "the Christians" if faction == "christians" else WHO[faction]

    def hand_owner(self, faction: str) -> str:
        """Whose hand and combat deck a faction uses (the Gray Faction: the Jews')."""
        return "jews" if faction == "gray" else faction

    def durable(self, s: State, faction: str, card: str) -> bool:
        """Whether ``faction`` has a Durable Power Card of id ``card`` face up (any copy)."""
        f = s.factions.get(faction)
        return f is not None and any(c.split("#")[0] == card for c in f.durable)

    def distinct(self, cards: Iterable[str]) -> list[str]:
        """The first copy of each Power Card (copies are interchangeable)."""
        seen: dict[str, str] = {}
        for c in cards:
            seen.setdefault(c.split("#")[0], c)
        return list(seen.values())

    def seq_dice(self, s: State, faction: str) -> list[int]:
        """Indices of the unspent dice in the Dice Sequence, one per value (the lowest
        index): dice of the same value are interchangeable."""
        out, seen = [], set()
        for i, d in enumerate(s.factions[faction].dice):
            if d.place == "unspent" and d.seq and d.value not in seen:
                seen.add(d.value)
                out.append(i)
        return out

    def outside_dice(self, s: State, faction: str, exclude: int | None = None) -> list[int]:
        """Unspent dice that may serve as the one extra die from outside the sequence
        (marked * in the Main Phase key): an unspent die not in the Dice Sequence, one
        per value."""
        out, seen = [], set()
        for i, d in enumerate(s.factions[faction].dice):
            if i == exclude or d.place != "unspent" or d.seq:
                continue
            key = (d.value, d.seq)
            if key not in seen:
                seen.add(key)
                out.append(i)
        return out

    def yellow_dice(self, s: State) -> list[tuple[int, int]]:
        """Unspent yellow dice as (flat index, value), one per value and revolt (a
        revolt's yellow die moves only that revolt's units, RULINGS.md R13)."""
        out, k = [], 0
        for r in s.revolts:
            seen: set[int] = set()
            for d in r.dice:
                if d.place == "unspent" and d.value not in seen:
                    seen.add(d.value)
                    out.append((k, d.value))
                k += 1
        return out

    def yellow_revolt(self, s: State, k: int) -> str | None:
        """The revolt card whose yellow die has flat index ``k``."""
        i = 0
        for r in s.revolts:
            if k < i + len(r.dice):
                return r.card
            i += len(r.dice)
        return None

    def revolt_territories(self, s: State, card: str) -> list[str]:
        """Where the units of the revolt of Jewish Revolt card ``card`` are."""
        return [t for r in s.revolts if r.card == card for t, k in r.units.items() if k > 0]

    def revolt_units(self, s: State, t: str, card: str | None) -> int:
        """Gray units in ``t`` that a Gray action may use: all of them (``card`` None,
        a Jewish die) or those of revolt ``card`` (its yellow die)."""
        if card is None:
            return self.units(s, t, "gray")
        return next((r.units.get(t, 0) for r in s.revolts if r.card == card), 0)

    def yellow_value(self, s: State, k: int) -> int | None:
        """The value of yellow die ``k`` (counted over every revolt), None when it is not Unspent."""
        i = 0
        for r in s.revolts:
            for d in r.dice:
                if i == k:
                    return d.value if d.place == "unspent" else None
                i += 1
        return None

    def marker_placer(self, s: State, owner: str) -> str:
        """The faction that places a marker: its owner; with 2 players, the seat not
        controlling the Coalition places all 4 (2-Player Rules)."""
        if s.players == 2:
            return "rome"
        return owner

    def marker_spots(self, s: State) -> list[str]:
        """Territories in the Roman Empire not holding or adjacent to another marker."""
        taken = {m.territory for m in s.markers if m.territory}
        near = set(taken)
        for t in taken:
            near.update(self.data.adjacent[t])
        return [t for t in self.data.territories if self.data.in_empire(t) and t not in near]

    def final_spots(self, s: State) -> list[str]:
        """Rome's final 8 units: any territory with Roman units or an Objective Point
        Marker, up to 6 units (RULINGS.md R4)."""
        return [
            t
            for t in self.data.territories
            if (self.units(s, t, "rome") > 0 or self.marker_at(s, t) is not None)
            and self.units(s, t, "rome") < UNIT_LIMIT
        ]

    def markers_to_place(self, present: set[str]) -> tuple[str, ...]:
        """The owners of the 4 variable Objective Point Markers, in placing order: the
        Jewish and Christian factions alternate, Jewish first (Setup step 4); with one
        of them missing in a 3 player game, 1 goes to Rome and 1 to the other
        (RULINGS.md R2)."""
        if {"jews", "christians"} <= present:
            return ("jews", "christians", "jews", "christians")
        other = "jews" if "jews" in present else "christians"
        return (other, other, other, "rome")

    def yellow_refs(self, s: State) -> list[tuple[int, int]]:
        """(revolt, die) for every yellow die on a revolt card, in flat index order."""
        return [(r, j) for r, rv in enumerate(s.revolts) for j in range(len(rv.dice))]

    def extra_values(self, s: State) -> dict[int, int]:
        """The dice of the pending extra roll: index -> value."""
        e = s.extra_roll
        if e.kind == "yellow":
            refs = self.yellow_refs(s)
            return {k: s.revolts[refs[k][0]].dice[refs[k][1]].value for k in e.dice}
        return {i: s.factions["coalition"].dice[i].value for i in e.dice}

    def objective_met(self, s: State, faction: str, card_id: str) -> bool:
        """Whether ``faction`` has completed its objective on ``card_id`` now (the
        requirement kinds are listed in data/objectives.toml). Jewish objectives count
        Gray units too (Jewish Revolt Power Cards)."""
        o = self.data.objectives[card_id].for_faction(faction)
        if o is None:
            return False
        mine = self.side_counter(s, faction)
        occupied = s.board  # the territories with units, for the kinds counted over the map
        k = o.kind
        if k == "hold":
            return all(mine(t) >= o.n for t in o.territories)
        if k == "sole":
            return all(mine(t) > 0 and self.sole(s, t, faction) for t in o.territories)
        if k == "region_units":
            return sum(mine(t) for t in self.data.region_territories(o.region)) >= o.n
        if k == "sole_count":
            return (
                sum(1 for t in self.data.region_territories(o.region) if mine(t) and self.sole(s, t, faction))
                >= o.n
            )
        if k == "territories":
            return sum(1 for t in occupied if mine(t)) >= o.n
        if k == "regions":
            regions = {self.data.region_of(t) for t in occupied if mine(t) and self.data.in_empire(t)}
            return len(regions) >= o.n
        if k == "units_on_board":
            return sum(mine(t) for t in occupied) >= o.n
        if k == "captured":
            return faction == "rome" and s.factions["rome"].capture_track >= o.n
        if k == "converted":
            return faction == "christians" and s.factions["christians"].converted >= o.n
        others = {f for f in s.factions if f not in (faction, "gray")}
        if k == "share":
            return all(mine(t) > 0 and others <= self.occupants(s, t) for t in o.territories)
        if k == "share_any":
            return sum(1 for t in occupied if mine(t) and len(self.occupants(s, t) & others) >= 2) >= o.n
        return False  # pragma: no cover

    def objective_territories(self, card_id: str, faction: str) -> frozenset[str] | None:
        """The territories whose units ``objective_met`` reads for ``faction``'s objective on
        ``card_id`` (empty: it reads none, only the faction's tracks); None: the whole map.
        Whatever changes only the units elsewhere leaves the answer as it was."""
        o = self.data.objectives[card_id].for_faction(faction)
        if o is None or o.kind in ("captured", "converted"):
            return frozenset()
        if o.kind in ("hold", "sole", "share"):
            return frozenset(o.territories)
        if o.kind in ("region_units", "sole_count"):
            return frozenset(self.data.region_territories(o.region))
        return None

    def claims(self, s: State, card_id: str) -> dict[str, int]:
        """faction -> die index of the dice claiming objectives on a card."""
        out = {}
        for fid, f in s.factions.items():
            for i, d in enumerate(f.dice):
                if d.place == "objective" and d.on == card_id:
                    out[fid] = i
        return out

    def blocked(self, s: State, card_id: str, faction: str) -> bool:
        """Whether the Coalition blocks ``faction``'s objective on Objective Card ``card_id`` (The
        Coalition)."""
        co = s.factions.get("coalition")
        return co is not None and any(
            d.place == "block" and d.on == card_id and d.target == faction for d in co.dice
        )

    def completed(self, s: State, faction: str, start: bool) -> list[str]:
        """The Objective Cards ``faction`` has claimed and completed, scored in the Start Phase
        (``start``) or the End Phase."""
        out = []
        for card_id in s.objectives:
            if self.claims(s, card_id).get(faction) is None:
                continue
            o = self.data.objectives[card_id].for_faction(faction)
            if o is None or o.score_in_start != start:
                continue
            if self.objective_met(s, faction, card_id):
                out.append(card_id)
        return out

    def special_victory(self, s: State, faction: str) -> str | None:
        """The faction's special victory condition, if met now (Winning The Game)."""
        if faction == "coalition":
            if all(self.units(s, t, "coalition") > 0 and self.sole(s, t, "coalition") for t in _COALITION_WIN_ORDER):
                return "the Coalition holds Rome and Italia alone"
        elif faction == "christians":
            f = s.factions["christians"]
            if f.converted >= CONVERT_WIN and all(self.units(s, t, "christians") > 0 for t in _CHRISTIAN_WIN_ORDER):
                return "the Christians converted 18 units and are in Rome, Jerusalem and Germania"
        elif faction == "rome":
            if s.factions["rome"].capture_track >= CAPTURE_WIN:
                return "Rome captured 25 units"
        elif faction == "jews":
            blue = self.data.region_territories("blue")
            if all(self.side_units(s, t, "jews") > 0 and self.sole(s, t, "jews") for t in blue):
                return "the Jews hold every Judean territory alone"
        return None

    def victory_territories(self, faction: str) -> frozenset[str]:
        """The territories whose units ``special_victory`` reads for ``faction`` (empty: none,
        only its tracks; ``faction_wins`` reads its points besides). Whatever changes only
        the units elsewhere leaves its answer as it was."""
        if faction == "coalition":
            return _COALITION_WIN
        if faction == "christians":
            return _CHRISTIAN_WIN
        if faction == "jews":
            return self._blue
        return frozenset()

    def faction_wins(self, s: State, faction: str) -> str | None:
        """Why ``faction`` wins now (a special victory, or 7 points: Winning The Game), or None."""
        why = self.special_victory(s, faction)
        if why is None and s.factions[faction].points >= WIN_POINTS:
            why = f"{self.fname(faction)} reached {WIN_POINTS} points"
        return why

    def tribute_chooser(self, s: State) -> str:
        """Who chooses now while Collect Tribute or Giving is resolved."""
        if s.giving is not None:
            return s.giving.giver
        t = s.tribute
        return t.waiting[0] if t.waiting else t.player

    def dice_where(self, s: State, f: str, ok: Any) -> list[int]:
        """One index per distinct (value, in the Dice Sequence) among ``f``'s Unspent dice
        that pass ``ok``: dice alike are interchangeable."""
        out, seen = [], set()
        for i, d in enumerate(s.factions[f].dice):
            if d.place == "unspent" and ok(d) and (d.value, d.seq) not in seen:
                seen.add((d.value, d.seq))
                out.append(i)
        return out

    def lower_choices(self, s: State, f: str) -> list[int]:
        """Collect Tribute: the dice ``f`` may lower, a die above 1; with only 1s Unspent,
        a 1 (it goes to Spent)."""
        return self.dice_where(s, f, lambda d: d.value > 1) or self.dice_where(s, f, lambda d: True)

    def lower_default(self, s: State, f: str) -> int:
        """The die lowered when ``f`` passes: a die outside the Dice Sequence if it has one,
        the lowest (RULINGS.md R15)."""
        dice = s.factions[f].dice
        return min(self.lower_choices(s, f), key=lambda i: (dice[i].seq, dice[i].value, i))

    def give_default(self, s: State, f: str) -> int:
        """The die given when ``f`` passes: outside the Dice Sequence first; the smallest die
        that completes the 4 pips, else the largest (RULINGS.md R15)."""
        dice = s.factions[f].dice
        need = GIVING_PIPS - s.giving.given

        def cost(i: int) -> tuple[bool, bool, int, int]:
            v = dice[i].value
            return (dice[i].seq, v < need, v if v >= need else -v, i)

        return min(self.dice_where(s, f, lambda d: True), key=cost)

    def die_word(self, d: Die) -> str:
        """A die as the notation names it: its value, and "outside" for a die outside the Dice
        Sequence."""
        return f"{d.value}" + ("" if d.seq else " outside")

    def combat_cards(self, s: State, side: str) -> list[str]:
        """Unused Combat Cards of a side's deck (the Gray use the Jewish deck); a deck
        whose six cards are all used is taken back (RULINGS.md R8)."""
        owner = self.hand_owner(side)
        used = set(s.factions[owner].combat_used)
        return [c.id for c in self.data.combat.values() if c.faction == owner and c.id not in used]

    @staticmethod
    def merge_sends(sends: Iterable[tuple[str, str, int]]) -> tuple[tuple[str, str, int], ...]:
        """``sends`` sorted by (start, destination), counts of the same pair added."""
        total: dict[tuple[str, str], int] = {}
        for a, b, n in sends:
            total[(a, b)] = total.get((a, b), 0) + n
        return tuple((a, b, n) for (a, b), n in sorted(total.items()))

    def partner(self, s: State, a: str, b: str) -> bool:
        """2-Player Rules 1: the Coalition and the other faction of the same player move
        through each other."""
        return s.players == 2 and "coalition" in (a, b) and self.same_player(s, a, b)

    def grace_free(self, s: State, option: int, holder: str = "christians") -> bool:
        """Whether ``holder`` (the Christians, or the Coalition with a salvaged Grace,
        RULINGS.md R14) may use Grace option ``option`` now: once per turn, not the same
        option two turns in a row."""
        f = s.factions.get(holder)
        return (
            f is not None
            and self.durable(s, holder, "grace")
            and f.grace_now == 0
            and f.grace_last != option
        )

    def room(self, s: State, t: str, faction: str) -> int:
        """How many more units of ``faction`` fit in ``t`` (at most 6 a faction: Important Terms)."""
        return UNIT_LIMIT - self.units(s, t, faction)

    def gray_dice(self, s: State) -> list[tuple[int, bool]]:
        """(die, yellow) the Jewish seat may use for a Gray action: each unspent yellow
        die, and one Jewish Sequence die a turn."""
        out = [(k, True) for k, _ in self.yellow_dice(s)]
        if not s.gray_die_used:
            out += [(i, False) for i in self.seq_dice(s, "jews")]
        return out

    def die_value(self, s: State, f: str, die: int, yellow: bool) -> int:
        """The value of die ``die`` of ``f``, or of yellow die ``die`` when ``yellow`` (0 when it is
        not Unspent)."""
        if yellow:
            v = self.yellow_value(s, die)
            return v or 0
        return s.factions[f].dice[die].value

    def marker_claimed(self, s: State, territory: str) -> bool:
        """Whether the Coalition has a die on the Objective Point Marker in ``territory``."""
        co = s.factions.get("coalition")
        return co is not None and any(d.place == "marker" and d.on == territory for d in co.dice)

    def convert_sources(self, s: State, t: str) -> dict[str, int]:
        """Where converting Christian units may come from, with how many: ``supply``,
        ``captured`` (Christians in the Roman Captured Unit Area) and every other territory
        holding Christian units ("from their supply, from the Roman Captured Unit Space, or
        from other locations on the board")."""
        out: dict[str, int] = {}
        if s.factions["christians"].supply > 0:
            out["supply"] = s.factions["christians"].supply
        if "rome" in s.factions and s.factions["rome"].captured.get("christians", 0) > 0:
            out["captured"] = s.factions["rome"].captured["christians"]
        for u in self.territories_of(s, "christians"):
            if u != t:
                out[u] = self.units(s, u, "christians")
        return out

    def source_name(self, source: str) -> str:
        """A conversion source as the notation names it: supply, captured, or a territory's name."""
        return {"supply": "supply", "captured": "captured"}.get(source) or self.tname(source)

    def spread_room(self, s: State) -> dict[str, int]:
        """The territories next to the conversion's territory with room for Christian units, and how
        much (RULINGS.md R10)."""
        t = s.conversion.territory
        return {u: self.room(s, u, "christians") for u in self.data.adjacent[t] if self.room(s, u, "christians") > 0}

    def salvage_source(self, s: State, holder: str) -> str | None:
        """Where Salvage takes a card from: "hand" (a random card), "discard" (the card
        the Coalition selects) or "deck" (two drawn, one selected); None when there is
        nothing to try (RULINGS.md R14). Whether the hand or the deck holds a card that
        may be stolen is hidden, so only the public counts decide."""
        f = s.factions[holder]
        if f.hand:
            return "hand"
        if f.discard:
            return "discard" if self.salvage_pile(s, holder) else None
        return "deck" if f.deck else None

    def salvage_pile(self, s: State, holder: str) -> list[str]:
        """The cards of ``holder``'s discard pile the Coalition may select (one copy of each)."""
        return [c for c in self.distinct(s.factions[holder].discard) if not self.data.card(c).no_steal]
