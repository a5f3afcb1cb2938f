"""Soul of the Empire rules (rule text: shared/seeds/000; rulings: RULINGS.md).

The flow: setup (Objective Point Markers, Rome's final 8 units, every faction rolls
and readies) -> rounds of one turn per faction (Start, Main, End phases) -> the
first to 7 points or a special victory wins, checked after every action.
Automatic steps (dice rolls, draws, scoring) happen inside ``apply``; the game
stops whenever a seat must decide something and says so through ``to_act``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from itertools import chain
from typing import Any

from pydantic import Field, TypeAdapter, model_validator

from games.core import (
    ActionSpace,
    IllegalActionError,
    Model,
    Outcome,
    Prompt,
    Rng,
    Seat,
    Step,
)
from games.core.base import ApplyContext, NotationGame
from games.core.effects import Effects
from games.core.english import count
from games.core.errors import list_words
from games.core.explain import Explanation
from games.core.memo import last_state
from games.core.secrets import redeal, shuffled

from . import notation
from .data import FACTIONS, Data, ObjectiveCard, load
from .model import (
    Action,
    Attack,
    Block,
    Buy,
    CardsDrawn,
    Claim,
    ClaimMarker,
    Combat,
    CombatResolved,
    Commit,
    Conversion,
    Convert,
    Crucify,
    DiceRolled,
    Die,
    DiscardObjective,
    DiscardPower,
    Done,
    Elder,
    EndMain,
    ExtraRoll,
    FactionState,
    FactionView,
    GameWon,
    Give,
    Giving,
    Keep,
    LastCombat,
    Lower,
    Marker,
    Move,
    Note,
    ObjectiveView,
    Pass,
    Path,
    PlaceMarker,
    PlaceUnit,
    PlayPower,
    Plunder,
    Rage,
    Raise,
    Ready,
    Recruit,
    Redirect,
    Regroup,
    Regrouping,
    Reroll,
    Retrieve,
    Reveal,
    Revolt,
    Rolling,
    Score,
    Scored,
    Scoring,
    SeatView,
    Shift,
    Spread,
    State,
    Tribute,
    Unblock,
    UseGrace,
    View,
    Window,
)
from .queries import (
    BLOCK_PIPS,
    BUY_LIMIT,
    CONVERT_WIN,
    DICE,
    GIVING_PIPS,
    HAND_LIMIT,
    OBJECTIVES_FACE_UP,
    PIPS_PER_CARD,
    PIPS_PER_RAGE,
    RAGE_MAX,
    RAGE_MIN,
    REVOLT_UNITS,
    TWO_PLAYER_SECOND,
    UNIT_LIMIT,
    WHO,
    Queries,
    is_sequence,
)

_ACTION = TypeAdapter(Action)


FACTION_NAMES = {
    "rome": "rome",
    "roman": "rome",
    "romans": "rome",
    "jews": "jews",
    "jewish": "jews",
    "jew": "jews",
    "coalition": "coalition",
    "christians": "christians",
    "christian": "christians",
}


def faction_ids(text: str) -> tuple[str, ...]:
    """Faction ids named in ``text``: one name, or two joined by ``+``, ``,``, ``&`` or
    ``and`` (a seat of the 2-player game). Raises ValueError for an unknown name."""
    out = []
    for part in text.replace("&", "+").replace(",", "+").replace(" and ", "+").split("+"):
        key = part.strip().casefold()
        if key not in FACTION_NAMES:
            raise ValueError(f"unknown faction {part.strip()!r}; choose Rome, Jewish, Coalition or Christian")
        out.append(FACTION_NAMES[key])
    return tuple(out)


class Options(Model):
    """Variants and options.

    ``factions``: per seat, in seating order, the faction it plays ("Rome", "Jewish",
    "Coalition", "Christian"; in the 2-player game two joined by "+", e.g.
    "Rome+Jewish", or one and the game adds the other) or None for the default.
    Defaults: 4 players Rome, Coalition, Jewish, Christian; 3 players Rome, Coalition,
    Jewish; 2 players Rome + Jewish against Coalition + Christian (RULINGS.md R1).
    ``round_limit``: optional house rule ending the game after that many rounds
    (RULINGS.md R20).
    """

    factions: tuple[str | None, ...] | None = None
    round_limit: int | None = Field(default=None, ge=1)

    @model_validator(mode="after")
    def _check(self) -> Options:
        if self.factions is not None:
            flat = [f for x in self.factions if x for f in faction_ids(x)]
            if len(set(flat)) != len(flat):
                raise ValueError("each faction may be chosen once")
        return self


effect: Effects[Any] = Effects("soul-of-the-empire")
"""The Power Cards' effects, by card id (tests/games/core/test_card_effects.py: one per card)."""


class _Ctx(ApplyContext):
    """One ``apply``'s scratch (games.core.ApplyContext) with this game's helpers."""

    __slots__ = ()

    def note(self, text: str) -> None:
        self.events.append(Note(text=text))

    def f(self, faction: str) -> FactionState:
        return self.s.factions[faction]

    def set_f(self, faction: str, **fields: Any) -> None:
        factions = dict(self.s.factions)
        factions[faction] = factions[faction].model_copy(update=fields)
        self.s = self.s.model_copy(update={"factions": factions})

    def set_die(self, faction: str, i: int, **fields: Any) -> None:
        dice = list(self.f(faction).dice)
        dice[i] = dice[i].model_copy(update=fields)
        self.set_f(faction, dice=tuple(dice))

    def add_units(self, territory: str, faction: str, n: int, revolt: str | None = None) -> dict[str, int]:
        """Add ``n`` (may be negative) units of ``faction`` in ``territory``; the
        supply is not touched. Gray units belong to a revolt (RULINGS.md R13): ``revolt``
        (a revolt card id) names it, else the revolt with the most units there is
        chosen (the earlier card on a tie). Returns the change per revolt card."""
        board = {t: dict(v) for t, v in self.s.board.items()}
        cell = board.setdefault(territory, {})
        cell[faction] = cell.get(faction, 0) + n
        if cell[faction] < 0:
            raise AssertionError(f"negative units of {faction} in {territory}")
        left = cell[faction]
        if cell[faction] == 0:
            del cell[faction]
        if not cell:
            del board[territory]
        self.s = self.s.model_copy(update={"board": board})
        if faction != "gray" or not self.s.revolts or n == 0:
            return {}
        return self._track_gray(territory, n, revolt, left)

    def _track_gray(self, territory: str, n: int, revolt: str | None, left: int) -> dict[str, int]:
        """Keep each revolt's own units in step with the board's Gray units in
        ``territory`` (``left`` Gray units there now)."""
        revolts = list(self.s.revolts)
        have = [r.units.get(territory, 0) for r in revolts]
        cards = [r.card for r in revolts]
        change = [0] * len(revolts)
        if n > 0:
            if revolt in cards:
                k = cards.index(revolt)
            else:
                k = max(range(len(revolts)), key=lambda i: (have[i], -i))
            change[k] = n
        else:
            if revolt in cards:
                k = cards.index(revolt)
                change[k] = -min(-n, have[k])
            # units beyond what the board holds leave the revolt with the most there
            while sum(have) + sum(change) > left:
                k = max(range(len(revolts)), key=lambda i: (have[i] + change[i], -i))
                change[k] -= 1
        out: dict[str, int] = {}
        for i, d in enumerate(change):
            if d:
                units = dict(revolts[i].units)
                units[territory] = units.get(territory, 0) + d
                if units[territory] <= 0:
                    del units[territory]
                revolts[i] = revolts[i].model_copy(update={"units": units})
                out[cards[i]] = d
        self.s = self.s.model_copy(update={"revolts": tuple(revolts)})
        return out

    def move_units(self, source: str, destination: str, faction: str, n: int, revolt: str | None = None) -> None:
        """Move ``n`` units of ``faction`` from ``source`` to ``destination``; Gray units
        keep their revolt (``revolt`` names whose units move, RULINGS.md R13)."""
        change = self.add_units(source, faction, -n, revolt)
        if not change:
            self.add_units(destination, faction, n)
            return
        moved = 0
        for card, d in change.items():
            self.add_units(destination, faction, -d, card)
            moved -= d
        if n - moved:
            self.add_units(destination, faction, n - moved)

    def to_supply(self, territory: str, faction: str, n: int, revolt: str | None = None) -> None:
        if n <= 0:
            return
        self.add_units(territory, faction, -n, revolt)
        self.set_f(faction, supply=self.f(faction).supply + n)

    def from_supply(self, territory: str, faction: str, n: int, revolt: str | None = None) -> None:
        if n <= 0:
            return
        self.set_f(faction, supply=self.f(faction).supply - n)
        self.add_units(territory, faction, n, revolt)


class SoulOfTheEmpire(Queries, NotationGame):
    """The Soul of the Empire game object (stateless; see games.core.Game)."""

    effects = effect

    def card_ids(self) -> frozenset[str]:
        """Every Power Card id of the data (power.toml)."""
        return frozenset(self.data.power)

    explained = "Power Card, Combat Card, Objective Card or faction"

    id = "soul-of-the-empire"
    title = "Soul of the Empire"
    min_players = 2
    max_players = 4
    Options = Options
    State = State
    View = View
    notation = notation
    action_adapter = _ACTION

    def __init__(self) -> None:
        self.data: Data = load()
        self._explanations: tuple[Explanation, ...] | None = None
        blue = self.data.region_territories("blue")
        self._zone = frozenset(blue).union(*(self.data.adjacent[t] for t in blue))

    def explanations(self) -> tuple[Explanation, ...]:
        """What ``explain`` knows: every Power Card, Combat Card, Objective Card and faction,
        from power.toml, combat.toml, objectives.toml and factions.toml."""
        if self._explanations is None:
            self._explanations = self._explain_all()
        return self._explanations

    def _explain_all(self) -> tuple[Explanation, ...]:
        phase = {"start": "Start Phase", "main": "Main Phase", "end": "End Phase", "combat": "combat",
                 "another": "Another's Turn"}
        out = []
        for p in self.data.power.values():
            keep = ("Once: apply it and discard." if p.duration == "once"
                    else "Durable: it stays face up next to the faction board.")
            out.append(Explanation(
                name=p.name, kind=f"{self.fname(p.faction)} Power Card", text=f"{p.text} {keep}",
                when="Play it in: " + ", ".join(phase.get(x, x) for x in p.phases) + ".",
            ))
        for c in self.data.combat.values():
            out.append(Explanation(name=c.name, kind=f"{self.fname(c.faction)} Combat Card",
                                   text=f"Combat Value {c.text}."))
        for card in self.data.objectives.values():
            lines = [self.objective_text(card, f) for f in ("rome", "jews", "christians")]
            text = "; ".join(x for x in lines if x) + "."
            if not card.two_player:
                text += " Cannot be achieved in the 2-player game."
            out.append(Explanation(name=card.name, kind="Objective Card", text=text))
        for f in self.data.factions.values():
            where = (f"starts in {', '.join(self.tname(t) for t in f.placement)}" if f.placement else
                     "starts off the board: the Jewish Revolt Power Cards place its pieces, and the Jewish player"
                     " controls them (Jewish Revolt Power Cards)")
            out.append(Explanation(name=f.name, kind="faction", text=f"{count(f.units, 'unit')}; {where}."))
        return tuple(out)

    # ------------------------------------------------------------------ names and lookups

    # ------------------------------------------------------------------ setup

    def seat_factions(self, n: int, options: Options) -> tuple[tuple[str, ...], ...]:
        """Each seat's factions, from ``options.factions`` and the defaults, checked
        against Setup (3 players: Rome must be selected) and the 2-Player Rules (one
        seat Rome, the other the Coalition, each one of the Jewish or Christian).

        Raises IllegalActionError for a seat count or assignment the rules forbid."""
        if not self.min_players <= n <= self.max_players:
            raise IllegalActionError(f"Soul of the Empire takes 2 to 4 players, not {n}.")
        chosen = list(options.factions or ())
        if len(chosen) > n:
            raise IllegalActionError(f"{len(chosen)} factions named for {n} seats.")
        chosen += [None] * (n - len(chosen))
        try:
            groups = [list(faction_ids(x)) if x else [] for x in chosen]
        except ValueError as e:
            raise IllegalActionError(str(e)) from None
        taken = {f for grp in groups for f in grp}
        if n == 2:
            for grp in groups:
                if (
                    len(grp) > 2
                    or ({"rome", "coalition"} <= set(grp))
                    or ({"jews", "christians"} <= set(grp))
                ):
                    raise IllegalActionError(
                        "With 2 players each seat plays two factions: one seat Rome, the other the "
                        "Coalition, and each one of the Jewish or Christian factions."
                    )
            for big in ("rome", "coalition"):
                if big not in taken:
                    seat = next(
                        (i for i, grp in enumerate(groups) if not {"rome", "coalition"} & set(grp)),
                        None,
                    )
                    if seat is None:
                        raise IllegalActionError(
                            "With 2 players one seat plays Rome and the other the Coalition."
                        )
                    groups[seat].insert(0, big)
                    taken.add(big)
            for small in ("jews", "christians"):
                if small not in taken:
                    seat = next(i for i, grp in enumerate(groups) if not {"jews", "christians"} & set(grp))
                    groups[seat].append(small)
                    taken.add(small)
            return tuple(tuple(sorted(g, key=FACTIONS.index)) for g in groups)
        if any(len(grp) > 1 for grp in groups):
            raise IllegalActionError("With 3 or 4 players each seat plays one faction.")
        pool = [f for f in ("rome", "coalition", "jews", "christians") if f not in taken]
        for grp in groups:
            if not grp:
                grp.append(pool.pop(0))
        if n == 3 and "rome" not in {grp[0] for grp in groups}:
            raise IllegalActionError("In a 3 player game the Roman faction must be selected.")
        return tuple(tuple(grp) for grp in groups)

    def notation_is_public(self, s: State, seat: Seat, a: Any) -> bool:
        """Whether others may read ``a`` as typed: every action outside combat but a
        discard from the hand (which names a hidden card); in combat the events tell what
        may be told (a Combat Card is chosen in secret, and keeping Pharaoh's Fate face
        down must not show that it was there)."""
        if s.combat is not None and s.combat.stage != "plunder":
            return False
        return not isinstance(a, DiscardPower)

    def option_notes(self, s: State, seat: Seat) -> dict[str, str]:
        """During a combat, each Combat Card's number (its printed value, data/combat.toml),
        shown on the buttons that commit it."""
        if s.combat is None:
            return {}
        return {c.name: str(c.number) for c in self.data.combat.values()}

    def seat_name(self, s: State, seat: Seat) -> str:
        """The factions a seat plays: "Rome", or "Rome + Jewish" with 2 players."""
        return " + ".join(self.fname(f) for f in s.order if s.factions[f].seat == seat)

    def setup(self, seats: Sequence[Seat], options: Options | None, rng: Rng) -> Step[State]:
        """Setup (3 or 4 Player Setup; 2-Player Rules): shuffle the Objective Cards and
        turn up 4, faction boards and starting units, Power decks shuffled (the Jewish
        Revolt card starts in the Jewish hand), the Roman markers in Dacia and
        Armenia; then the seats place the other markers, Rome its final 8 units, and
        every faction rolls and readies its dice.

        Raises IllegalActionError for a seat count or options the rules do not allow.
        """
        options = options or Options()
        n = len(seats)
        if list(seats) != list(range(n)):
            raise IllegalActionError("Seats must be numbered 0 .. players - 1.")
        fs = self.seat_factions(n, options)
        d = self.data
        ctx = _Ctx(State(players=n, factions={}, order=()), rng)
        factions: dict[str, FactionState] = {}
        board: dict[str, dict[str, int]] = {}
        owner = {f: seat for seat, group in enumerate(fs) for f in group}
        for fid in FACTIONS:
            if fid not in owner:
                continue
            fb = d.factions[fid]
            placed = fb.placement
            for t, k in placed.items():
                board.setdefault(t, {})[fid] = k
            deck: tuple[str, ...] = ()
            hand: tuple[str, ...] = ()
            if fid != "coalition":
                cards = d.deck(fid)
                hand = tuple(c for c in cards if d.card(c).start_in_hand)
                deck = rng.shuffle([c for c in cards if c not in hand])
            factions[fid] = FactionState(
                id=fid,
                seat=owner[fid],
                supply=fb.units - sum(placed.values()),
                dice=tuple(Die() for _ in range(DICE)),
                hand=hand,
                deck=deck,
                captured={} if fid != "rome" else {},
                rage=fb.rage if fid == "coalition" else 0,
            )
        if "jews" in factions:
            factions["gray"] = FactionState(id="gray", seat=owner["jews"], supply=d.factions["gray"].units)
        order = self._order(fs)
        objective_deck = rng.shuffle(list(d.objectives))
        markers = (Marker(owner="rome", territory="dacia"), Marker(owner="rome", territory="armenia"))
        ctx.update(
            factions=factions,
            board=board,
            order=order,
            objective_deck=objective_deck[OBJECTIVES_FACE_UP:],
            objectives=objective_deck[:OBJECTIVES_FACE_UP],
            markers=markers,
            markers_to_place=self.markers_to_place(set(owner)),
            final_left=d.factions["rome"].final_placement,
            scored={f: () for f in factions},
            round_limit=options.round_limit,
            phase="markers",
        )
        ctx.note(
            "Objective Cards face up: " + ", ".join(d.objectives[c].name for c in ctx.s.objectives) + ". "
            "Rome's Objective Point Markers are in Dacia and Armenia."
        )
        for fid in factions:
            f = ctx.f(fid)
            if f.hand:
                ctx.emit(
                    CardsDrawn(
                        faction=fid, names=tuple(self.card_name(c) for c in f.hand), visible_to=(f.seat,)
                    )
                )
        if not ctx.s.markers_to_place:
            self._begin_final(ctx)
        return Step(state=ctx.s, events=tuple(ctx.events))

    def _order(self, fs: tuple[tuple[str, ...], ...]) -> tuple[str, ...]:
        """Turn order. 3-4 players: Rome first, then left around the table (seating
        order). 2 players: Rome, then the Coalition, then the other two, alternating
        players (2-Player Rules; RULINGS.md R1)."""
        if len(fs) == 2:
            a = next(g for g in fs if "rome" in g)
            b = next(g for g in fs if "coalition" in g)
            a2 = next(f for f in a if f != "rome")
            b2 = next(f for f in b if f != "coalition")
            return ("rome", "coalition", a2, b2)
        seating = [g[0] for g in fs]
        i = seating.index("rome")
        return tuple(seating[i:] + seating[:i])

    def _begin_final(self, ctx: _Ctx) -> None:
        ctx.update(phase="final")
        if ctx.s.final_left <= 0:
            self._begin_setup_rolls(ctx)

    def _begin_setup_rolls(self, ctx: _Ctx) -> None:
        ctx.update(phase="roll", roll_queue=ctx.s.order[1:])
        self._start_rolling(ctx, ctx.s.order[0], "setup")

    # ------------------------------------------------------------------ roll and ready

    def _start_rolling(self, ctx: _Ctx, faction: str, reason: str) -> None:
        """Roll and ready (Using Your Dice): roll the dice in the Unspent and Spent
        areas (all five at setup and when passing); the faction may reroll any of
        them twice more, then readies them, choosing its Dice Sequence."""
        f = ctx.f(faction)
        if reason == "end":
            rolled = tuple(i for i, d in enumerate(f.dice) if d.place in ("unspent", "spent"))
        else:
            rolled = tuple(range(len(f.dice)))
        dice = list(f.dice)
        for i in rolled:
            dice[i] = Die(value=ctx.rng.die(6), place="unspent")
        ctx.set_f(faction, dice=tuple(dice))
        values = tuple(d.value if i in rolled else 0 for i, d in enumerate(dice))
        ctx.emit(
            DiceRolled(
                faction=faction,
                values=values,
                text=f"{self.fname(faction)} rolled "
                + (", ".join(str(dice[i].value) for i in rolled) or "no dice")
                + ".",
            )
        )
        if faction == "jews":
            self._roll_yellow(ctx)
        ctx.update(rolling=Rolling(faction=faction, dice=rolled, rerolls=2 if rolled else 0, reason=reason))
        if not rolled:
            self._finish_rolling(ctx, ())

    def _roll_yellow(self, ctx: _Ctx) -> None:
        """The yellow dice return to their revolt cards and are rolled (RULINGS.md R13)."""
        revolts = []
        for r in ctx.s.revolts:
            revolts.append(
                r.model_copy(
                    update={"dice": tuple(Die(value=ctx.rng.die(6), place="unspent") for _ in r.dice)}
                )
            )
        if revolts:
            ctx.update(revolts=tuple(revolts))
            ctx.note("Yellow dice rolled: " + ", ".join(str(d.value) for r in revolts for d in r.dice) + ".")

    def ready_options(self, s: State) -> list[tuple[int, ...]]:
        """Every Dice Sequence the rolling faction may ready: a set or a run among the
        rolled dice, canonical (lowest indices per value), largest first."""
        r = s.rolling
        dice = s.factions[r.faction].dice
        by_value: dict[int, list[int]] = {}
        for i in r.dice:
            by_value.setdefault(dice[i].value, []).append(i)
        out: list[tuple[int, ...]] = []
        for idx in by_value.values():
            for k in range(1, len(idx) + 1):
                out.append(tuple(idx[:k]))
        values = sorted(by_value)
        for a in range(len(values)):
            for b in range(a + 1, len(values)):
                run = values[a : b + 1]
                if all(y == x + 1 for x, y in zip(run, run[1:], strict=False)):
                    out.append(tuple(sorted(by_value[v][0] for v in run)))
        out.sort(key=lambda t: (-len(t), t))
        return out

    def reroll_options(self, s: State) -> list[tuple[int, ...]]:
        """Non-empty subsets of the rolled dice to roll again (canonical by value
        multiset: which of two equal dice is rolled does not matter)."""
        r = s.rolling
        if r.rerolls <= 0:
            return []
        dice = s.factions[r.faction].dice
        by_value: dict[int, list[int]] = {}
        for i in r.dice:
            by_value.setdefault(dice[i].value, []).append(i)
        groups = sorted(by_value.items())
        out: list[tuple[int, ...]] = [()]
        for _, idx in groups:
            out = [prev + tuple(idx[:k]) for prev in out for k in range(len(idx) + 1)]
        return [tuple(sorted(o)) for o in out if o]

    def _apply_rolling(self, ctx: _Ctx, faction: str, a: Any) -> None:
        r = ctx.s.rolling
        if isinstance(a, Reroll):
            if r.rerolls <= 0:
                raise IllegalActionError(
                    "You have used your 3 rolls: ready your dice and name your Dice Sequence."
                )
            if not a.dice or len(set(a.dice)) != len(a.dice) or set(a.dice) - set(r.dice):
                raise IllegalActionError("Reroll some of the dice you just rolled: name their values.")
            for i in a.dice:
                ctx.set_die(faction, i, value=ctx.rng.die(6))
            dice = ctx.f(faction).dice
            ctx.update(rolling=r.model_copy(update={"rerolls": r.rerolls - 1}))
            ctx.emit(
                DiceRolled(
                    faction=faction,
                    values=tuple(d.value if i in a.dice else 0 for i, d in enumerate(dice)),
                    text=f"{self.fname(faction)} rerolled {len(a.dice)} {'die' if len(a.dice) == 1 else 'dice'}: now "
                    + ", ".join(str(dice[i].value) for i in r.dice)
                    + ".",
                )
            )
            return
        if isinstance(a, Ready):
            dice = ctx.f(faction).dice
            if not a.dice or set(a.dice) - set(r.dice) or len(set(a.dice)) != len(a.dice):
                raise IllegalActionError(
                    "Name the rolled dice that form your Dice Sequence, e.g. ready 4 4 4."
                )
            if not is_sequence([dice[i].value for i in a.dice]):
                opts = [" ".join(str(dice[i].value) for i in o) for o in self.ready_options(ctx.s)[:8]]
                raise IllegalActionError(
                    "A Dice Sequence is a set (5 5 5) or a run (2 3 4); you could ready: "
                    + list_words(opts)
                    + "."
                )
            self._finish_rolling(ctx, a.dice)
            return
        raise IllegalActionError("You are rolling and readying your dice: reroll <values> or ready <values>.")

    def _finish_rolling(self, ctx: _Ctx, seq: tuple[int, ...]) -> None:
        r = ctx.s.rolling
        for i in r.dice:
            ctx.set_die(r.faction, i, seq=i in seq)
        dice = ctx.f(r.faction).dice
        if seq:
            ctx.note(
                f"{self.fname(r.faction)} readied the Dice Sequence "
                + " ".join(str(dice[i].value) for i in sorted(seq, key=lambda i: dice[i].value))
                + "."
            )
        ctx.update(rolling=None)
        if r.faction == "jews" and self.yellow_refs(ctx.s):
            # the yellow dice are rolled up to 3 times too (RULINGS.md R13)
            self._offer_extra(ctx, "jews", "yellow", tuple(range(len(self.yellow_refs(ctx.s)))), r.reason)
            return
        self._after_ready(ctx, r.reason)

    def _after_ready(self, ctx: _Ctx, reason: str) -> None:
        if reason == "setup":
            if ctx.s.roll_queue:
                nxt, rest = ctx.s.roll_queue[0], ctx.s.roll_queue[1:]
                ctx.update(roll_queue=rest)
                self._start_rolling(ctx, nxt, "setup")
            else:
                self._begin_turn(ctx)
        elif reason == "end":
            self._end_scoring(ctx)
        else:
            self._next_turn(ctx)

    # ------------------------------------------------------------------ dice rolled up to 3 times

    def _set_yellow(self, ctx: _Ctx, k: int, value: int) -> None:
        r, j = self.yellow_refs(ctx.s)[k]
        revolts = list(ctx.s.revolts)
        dice = list(revolts[r].dice)
        dice[j] = dice[j].model_copy(update={"value": value})
        revolts[r] = revolts[r].model_copy(update={"dice": tuple(dice)})
        ctx.update(revolts=tuple(revolts))

    def _offer_extra(self, ctx: _Ctx, faction: str, kind: str, dice: tuple[int, ...], resume: str) -> None:
        """Dice just rolled that their owner may roll again twice more ("up to 3 times")."""
        e = ctx.s.extra_roll
        if e is not None and e.kind == kind:
            ctx.update(extra_roll=e.model_copy(update={"dice": tuple(sorted(set(e.dice) | set(dice)))}))
            return
        ctx.update(extra_roll=ExtraRoll(faction=faction, kind=kind, dice=dice, resume=resume))

    def extra_options(self, s: State) -> list[Any]:
        e = s.extra_roll
        out: list[Any] = [Keep()]
        if e.rerolls <= 0:
            return out
        by_value: dict[int, list[int]] = {}
        for i, v in sorted(self.extra_values(s).items()):
            by_value.setdefault(v, []).append(i)
        subsets: list[tuple[int, ...]] = [()]
        for _, idx in sorted(by_value.items()):
            subsets = [prev + tuple(idx[:k]) for prev in subsets for k in range(len(idx) + 1)]
        return out + [Reroll(dice=tuple(sorted(o))) for o in subsets if o]

    def _apply_extra(self, ctx: _Ctx, f: str, a: Any) -> None:
        e = ctx.s.extra_roll
        what = "yellow dice" if e.kind == "yellow" else "returned blocking dice"
        if isinstance(a, Reroll):
            if e.rerolls <= 0:
                raise IllegalActionError(f"Your {what} have been rolled 3 times: keep them.")
            if not a.dice or len(set(a.dice)) != len(a.dice) or set(a.dice) - set(e.dice):
                raise IllegalActionError(f"Reroll some of your {what}: name their values, or keep.")
            for i in a.dice:
                if e.kind == "yellow":
                    self._set_yellow(ctx, i, ctx.rng.die(6))
                else:
                    ctx.set_die("coalition", i, value=ctx.rng.die(6))
            ctx.update(extra_roll=e.model_copy(update={"rerolls": e.rerolls - 1}))
            values = self.extra_values(ctx.s)
            ctx.note(
                f"{self.fname(f)} rerolled {len(a.dice)} of the {what}: now "
                + ", ".join(str(values[i]) for i in e.dice)
                + "."
            )
            return
        if isinstance(a, Keep):
            ctx.update(extra_roll=None)
            if e.resume in ("setup", "end", "pass"):
                self._after_ready(ctx, e.resume)
            elif e.resume == "end_scoring":
                self._end_scoring_rest(ctx)
            elif e.resume == "main":
                ctx.update(phase="main")
            return
        raise IllegalActionError(f"Reroll some of your {what} (reroll <values>) or keep them.")

    # ------------------------------------------------------------------ turns

    def _begin_turn(self, ctx: _Ctx) -> None:
        s = ctx.s
        faction = s.active
        second = s.extra_turn
        ctx.update(
            phase="start",
            power_played=0,
            power_limit=0 if second else 1,
            bought=0,
            gray_die_used=False,
            help_moved=(),
            auxiliaries_used=False,
            enrapture_used=False,
            extra_turn=False,
            second_turn=second,
            acted=False,
        )
        if faction in ("christians", "coalition"):
            f = ctx.f(faction)
            ctx.set_f(faction, grace_last=f.grace_now, grace_now=0)
        ctx.note(
            f"Round {s.round}: the {'Roman' if faction == 'rome' else self.fname(faction)} turn"
            + (" (Divine Messenger)" if second else "")
            + "."
        )

    def _next_turn(self, ctx: _Ctx) -> None:
        """The next faction's turn; a Divine Messenger turn first if one is due."""
        if self._check_victory(ctx):
            return
        s = ctx.s
        if s.extra_turn:
            self._begin_turn(ctx)
            return
        turn = s.turn + 1
        if turn >= len(s.order):
            if s.round_limit is not None and s.round >= s.round_limit:
                self._finish_by_limit(ctx)
                return
            ctx.update(turn=0, round=s.round + 1)
        else:
            ctx.update(turn=turn)
        self._begin_turn(ctx)

    def _end_start_phase(self, ctx: _Ctx) -> None:
        """Start Phase step 3: Rome may score its claimed "Score in Start Phase" cards."""
        if ctx.s.active == "rome":
            self._score_objectives(ctx, "rome", start=True)
            if ctx.s.scoring is not None:
                return
        self._after_start_scoring(ctx)

    def _after_start_scoring(self, ctx: _Ctx) -> None:
        if ctx.s.phase == "over":
            return
        if ctx.s.extra_roll is not None:
            ctx.update(extra_roll=ctx.s.extra_roll.model_copy(update={"resume": "main"}))
            return
        ctx.update(phase="main")

    def _end_phase_done(self, ctx: _Ctx) -> None:
        """End Phase steps 2-3: draw the purchased Power Cards, discard down to 3,
        then roll and ready."""
        faction = ctx.s.active
        f = ctx.f(faction)
        if ctx.s.bought and faction != "coalition":
            self._draw(ctx, faction, ctx.s.bought, "purchased")
            ctx.update(bought=0)
        if len(ctx.f(faction).hand) > HAND_LIMIT:
            ctx.update(phase="discard")
            return
        self._end_roll(ctx)
        del f

    def _end_roll(self, ctx: _Ctx) -> None:
        faction = ctx.s.active
        f = ctx.f(faction)
        dice = [
            d.model_copy(update={"place": "spent", "seq": False}) if d.place == "power" else d for d in f.dice
        ]
        ctx.set_f(faction, dice=tuple(dice))
        ctx.update(phase="end")
        self._start_rolling(ctx, faction, "end")

    def _end_scoring(self, ctx: _Ctx) -> None:
        """End Phase steps 4-5: score claimed Objectives and Objective Point Markers;
        the Coalition scores sole occupancy of regions."""
        faction = ctx.s.active
        self._score_objectives(ctx, faction, start=False)
        if ctx.s.scoring is not None:
            return
        self._after_end_scoring(ctx)

    def _after_end_scoring(self, ctx: _Ctx) -> None:
        if ctx.s.phase == "over":
            return
        if ctx.s.extra_roll is not None:
            ctx.update(extra_roll=ctx.s.extra_roll.model_copy(update={"resume": "end_scoring"}))
            return
        self._end_scoring_rest(ctx)

    def _end_scoring_rest(self, ctx: _Ctx) -> None:
        if ctx.s.active == "coalition":
            self._score_markers(ctx)
            if ctx.s.phase == "over":
                return
            self._score_regions(ctx)
            if ctx.s.regroup is not None:
                return
        if ctx.s.phase != "over":
            self._next_turn(ctx)

    def _draw(self, ctx: _Ctx, faction: str, n: int, why: str) -> list[str]:
        """Draw ``n`` Power Cards from ``faction``'s deck (the discard pile is shuffled
        into a new deck when it runs out, RULINGS.md R11)."""
        f = ctx.f(faction)
        deck, discard = list(f.deck), list(f.discard)
        got = []
        for _ in range(n):
            if not deck and discard:
                deck = list(ctx.rng.shuffle(discard))
                discard = []
                ctx.note(f"{self.fname(faction)} shuffled the Power Card discard pile into a new deck.")
            if not deck:
                break
            got.append(deck.pop(0))
        ctx.set_f(faction, deck=tuple(deck), discard=tuple(discard), hand=f.hand + tuple(got))
        ctx.note(f"{self.fname(faction)} drew {len(got)} Power Card{'s' if len(got) != 1 else ''} ({why}).")
        ctx.emit(
            CardsDrawn(faction=faction, names=tuple(self.card_name(c) for c in got), visible_to=(f.seat,))
        )
        return got

    # ------------------------------------------------------------------ objectives and scoring

    def scoring_options(self, s: State) -> list[str]:
        """The claimed objectives of the scoring faction whose requirements are met now
        (Rome's "Score in Start Phase" ones only in its Start Phase)."""
        sc = s.scoring
        return self.completed(s, sc.faction, sc.start)

    def _score_objectives(self, ctx: _Ctx, faction: str, start: bool) -> None:
        """Scoring a Claimed Objective Card: "if you have completed the requirements of any
        Objective(s) you claimed, you may score the Objective Card(s)". With one or more
        completed, ``faction`` is asked which to score (``score <card>``) or ``pass``; the
        callers go on once ``scoring`` is None again."""
        if self.completed(ctx.s, faction, start):
            ctx.update(scoring=Scoring(faction=faction, start=start))

    def _scoring_prompt(self, s: State) -> Prompt:
        cards = [self.data.objectives[c].name for c in self.scoring_options(s)]
        return Prompt(
            kind="turn",
            text=f"{self.fname(s.scoring.faction)}: objectives completed on "
            + list_words(cards)
            + ": score <card> to score one, or pass to leave them claimed.",
        )

    def _apply_scoring(self, ctx: _Ctx, a: Any) -> None:
        sc = ctx.s.scoring
        opts = self.scoring_options(ctx.s)
        if isinstance(a, Score) and a.card in opts:
            o = self.data.objectives[a.card].for_faction(sc.faction)
            self._score_card(ctx, sc.faction, a.card, o.points)
            if ctx.s.phase == "over" or self.scoring_options(ctx.s):
                return
        elif isinstance(a, Pass):
            names = list_words([self.data.objectives[c].name for c in opts])
            ctx.note(f"{self.fname(sc.faction)} leaves its completed objective on {names} claimed, unscored.")
        else:
            raise IllegalActionError(
                "Score a completed objective: "
                + list_words([f"score {self.data.objectives[c].name}" for c in opts])
                + ", or pass to leave it claimed."
            )
        ctx.update(scoring=None)
        if self._check_victory(ctx):
            return
        if sc.start:
            self._after_start_scoring(ctx)
        else:
            self._after_end_scoring(ctx)

    def _score_card(self, ctx: _Ctx, faction: str, card_id: str, points: int) -> None:
        s = ctx.s
        card = self.data.objectives[card_id]
        for fid, i in self.claims(s, card_id).items():
            # the scorer's die is not rolled this turn (value 0); the others return to Spent
            ctx.set_die(
                fid,
                i,
                place="spent",
                on=None,
                seq=False,
                value=0 if fid == faction else ctx.f(fid).dice[i].value,
            )
        co = ctx.s.factions.get("coalition")
        if co is not None:
            back = [i for i, d in enumerate(co.dice) if d.place == "block" and d.on == card_id]
            for i in back:
                ctx.set_die(
                    "coalition", i, place="unspent", on=None, target=None, seq=False, value=ctx.rng.die(6)
                )
            if back:
                ctx.note(
                    "The Coalition's blocking dice return and are rolled: "
                    + ", ".join(str(ctx.f("coalition").dice[i].value) for i in back)
                    + "."
                )
                # rolled up to 3 times (RULINGS.md R18)
                self._offer_extra(ctx, "coalition", "block", tuple(back), "none")
        self._gain(ctx, faction, points, f"{self.fname(faction)} scored {card.name}")
        ctx.update(
            objectives=tuple(c for c in ctx.s.objectives if c != card_id),
            scored={**ctx.s.scored, faction: ctx.s.scored.get(faction, ()) + (card_id,)},
        )
        if ctx.s.objective_deck:
            new, rest = ctx.s.objective_deck[0], ctx.s.objective_deck[1:]
            ctx.update(objectives=ctx.s.objectives + (new,), objective_deck=rest)
            ctx.note(f"New Objective Card: {self.data.objectives[new].name}.")
        self._check_victory(ctx)

    def _gain(self, ctx: _Ctx, faction: str, points: int, text: str) -> None:
        total = max(0, ctx.f(faction).points + points)
        ctx.set_f(faction, points=total)
        sign = "+" if points >= 0 else "-"
        ctx.emit(
            Scored(
                faction=faction,
                points=points,
                total=total,
                text=f"{text}: {sign}{abs(points)} (now {total}).",
            )
        )

    def _score_markers(self, ctx: _Ctx) -> None:
        """Scoring a Claimed Objective Point Marker: sole occupancy of its territory;
        a second marker of the same faction costs that faction 1 point and gives 1 more."""
        co = ctx.f("coalition")
        for i, d in enumerate(co.dice):
            if d.place != "marker":
                continue
            t = d.on
            m = self.marker_at(ctx.s, t)
            if m is None or not self.sole(ctx.s, t, "coalition"):
                continue
            second = m.owner in ctx.f("coalition").markers
            ctx.update(
                markers=tuple(
                    x.model_copy(update={"territory": None}) if x.territory == t else x for x in ctx.s.markers
                )
            )
            ctx.set_f("coalition", markers=ctx.f("coalition").markers + (m.owner,))
            ctx.set_die("coalition", i, place="spent", on=None, value=0, seq=False)
            self._gain(
                ctx,
                "coalition",
                1,
                f"The Coalition took the {self.fname(m.owner)} Objective Point Marker in {self.tname(t)}",
            )
            if second:
                self._gain(ctx, "coalition", 1, f"A second {self.fname(m.owner)} marker")
                if m.owner in ctx.s.factions:
                    self._gain(
                        ctx, m.owner, -1, f"{self.fname(m.owner)} lost a second Objective Point Marker"
                    )
            if self._check_victory(ctx):
                return

    def _score_regions(self, ctx: _Ctx) -> None:
        """Score Sole Occupancy of a Region (Coalition only): 1 point per region once a
        game; 1 unit from the region goes to the faction board, then the Coalition may
        regroup (RULINGS.md R12)."""
        for rid, region in self.data.regions.items():
            if not region.empire or rid in ctx.f("coalition").regions_scored:
                continue
            ts = self.data.region_territories(rid)
            if not all(
                self.units(ctx.s, t, "coalition") > 0 and self.sole(ctx.s, t, "coalition") for t in ts
            ):
                continue
            ctx.set_f("coalition", regions_scored=ctx.f("coalition").regions_scored + (rid,))
            most = max(ts, key=lambda t: (self.units(ctx.s, t, "coalition"), t))
            ctx.add_units(most, "coalition", -1)
            self._gain(ctx, "coalition", 1, f"The Coalition holds every territory of {region.name}")
            if self._check_victory(ctx):
                return
            ctx.update(regroup=Regrouping(region=rid))
            if self.regroup_options(ctx.s):
                return
            ctx.update(regroup=None)

    def regroup_options(self, s: State) -> list[Regroup]:
        """One regroup per target territory of the region: fill it up to 6 from the
        largest other Coalition stacks (name order on ties); the notation takes any."""
        ts = self.data.region_territories(s.regroup.region)
        out = []
        for t in ts:
            room = 6 - self.units(s, t, "coalition")
            sources: list[tuple[str, int]] = []
            for o in sorted((o for o in ts if o != t), key=lambda o: (-self.units(s, o, "coalition"), o)):
                k = min(room, self.units(s, o, "coalition"))
                if k > 0:
                    sources.append((o, k))
                    room -= k
            if sources:
                out.append(Regroup(territory=t, sources=tuple(sources)))
        return out

    def _apply_regroup(self, ctx: _Ctx, a: Any) -> None:
        s = ctx.s
        ts = self.data.region_territories(s.regroup.region)
        name = self.data.regions[s.regroup.region].name
        if isinstance(a, Regroup):
            if a.territory not in ts:
                raise IllegalActionError(
                    f"Regroup into a territory of {name}: " + list_words([self.tname(t) for t in ts]) + "."
                )
            seen = set()
            for o, k in a.sources:
                if o not in ts or o == a.territory or o in seen:
                    raise IllegalActionError(
                        f"Regroup from other territories of {name}, each named once: e.g. "
                        + (
                            notation.format_action(self, s, self.regroup_options(s)[0])
                            if self.regroup_options(s)
                            else "pass"
                        )
                        + "."
                    )
                seen.add(o)
                if k < 1 or k > self.units(s, o, "coalition"):
                    raise IllegalActionError(
                        f"The Coalition has {count(self.units(s, o, 'coalition'), 'unit')} in {self.tname(o)}."
                    )
            moved = sum(k for _, k in a.sources)
            if moved < 1 or self.units(s, a.territory, "coalition") + moved > 6:
                raise IllegalActionError(
                    f"Regroup at most 6 units into one territory: {self.tname(a.territory)} has room for "
                    f"{6 - self.units(s, a.territory, 'coalition')}."
                )
            for o, k in a.sources:
                ctx.add_units(o, "coalition", -k)
            ctx.add_units(a.territory, "coalition", moved)
            ctx.note(f"The Coalition regrouped {count(moved, 'unit')} into {self.tname(a.territory)}.")
        elif not isinstance(a, Pass):
            raise IllegalActionError(
                f"The Coalition scored {name}: regroup <territory>: <units> <from>, ... or pass."
            )
        ctx.update(regroup=None)
        self._score_regions(ctx)
        if ctx.s.phase != "over" and ctx.s.regroup is None:
            self._next_turn(ctx)

    # ------------------------------------------------------------------ victory

    def _check_victory(self, ctx: _Ctx) -> bool:
        """Win checks the moment they occur (Winning The Game; 2-Player Rules: 7 points
        or a special victory with one faction and at least 3 with the other)."""
        s = ctx.s
        if s.phase == "over":
            return True
        winners: list[Seat] = []
        reasons = []
        for fid in s.order:
            why = self.faction_wins(s, fid)
            if why is None:
                continue
            seat = s.factions[fid].seat
            if s.players == 2:
                other = next(f for f in s.order if f != fid and s.factions[f].seat == seat)
                if s.factions[other].points < TWO_PLAYER_SECOND:
                    continue
                why += f", with {count(s.factions[other].points, 'point')} for {self.fname(other)}"
            if seat not in winners:
                winners.append(seat)
                reasons.append(why)
        if not winners:
            return False
        self._finish(ctx, tuple(winners), "Victory: " + "; ".join(reasons) + "!")
        return True

    def _finish(self, ctx: _Ctx, winners: tuple[Seat, ...], text: str) -> None:
        ctx.update(phase="over", winners=winners, end_reason=text, combat=None, window=None, rolling=None)
        ctx.emit(GameWon(winners=winners, text=text))

    def _finish_by_limit(self, ctx: _Ctx) -> None:
        """House rule (RULINGS.md R20): after the round limit the most points win; with
        2 players the seat whose weaker faction has more points, then the stronger."""
        s = ctx.s
        score: dict[Seat, tuple[int, int]] = {}
        for seat in range(s.players):
            pts = sorted(f.points for fid, f in s.factions.items() if f.seat == seat and fid != "gray")
            score[seat] = (pts[0], pts[-1]) if s.players == 2 else (pts[-1], 0)
        best = max(score.values())
        winners = tuple(x for x in range(s.players) if score[x] == best)
        self._finish(ctx, winners, f"The round limit ({s.round_limit}) is reached: most points win.")

    # ------------------------------------------------------------------ contract: who acts

    def to_act(self, s: State) -> Mapping[Seat, Prompt]:
        """Who is asked now and how (a fresh dict, remembered for the last state:
        games.core.memo; the agents' look-ahead applies many actions to one state)."""
        return dict(self._to_act(s))

    @last_state
    def _to_act(self, s: State) -> Mapping[Seat, Prompt]:
        if s.phase == "over":
            return {}
        out: dict[Seat, Prompt] = {}
        for seat in range(s.players):
            f = self.acting(s, seat)
            if f is None:
                continue
            out[seat] = self._prompt(s, f)
        return out

    def _prompt(self, s: State, f: str) -> Prompt:
        name = self.fname(f)
        if s.scoring is not None:
            return self._scoring_prompt(s)
        if s.extra_roll is not None:
            e = s.extra_roll
            what = "yellow dice" if e.kind == "yellow" else "returned blocking dice"
            values = self.extra_values(s)
            return Prompt(
                kind="turn",
                text=f"{name}: your {what} show "
                + ", ".join(str(values[i]) for i in e.dice)
                + (f" — reroll some ({count(e.rerolls, 'roll')} left) or keep them." if e.rerolls
                   else " — no rolls left: keep them."),
            )
        if s.regroup is not None:
            return Prompt(
                kind="turn",
                text=f"The Coalition scored {self.data.regions[s.regroup.region].name}: regroup up to 6 units "
                "into one of its territories, or pass.",
            )
        if s.rolling is not None:
            r = s.rolling
            return Prompt(
                kind="turn",
                text=f"{name}: roll and ready — reroll some dice ({count(r.rerolls, 'roll')} left) "
                "or ready your Dice Sequence." if r.rerolls
                else f"{name}: roll and ready — no rolls left: ready your Dice Sequence.",
            )
        if s.phase == "markers":
            owner = s.markers_to_place[0]
            return Prompt(
                kind="turn",
                text=f"Setup: place the {self.fname(owner)} Objective Point Marker in the Roman Empire.",
            )
        if s.phase == "final":
            return Prompt(kind="turn", text=f"Setup: place Rome's final units ({s.final_left} left).")
        if s.combat is not None:
            c = s.combat
            if c.stage == "salvage":
                loser = c.defender if c.attacker == "coalition" else c.attacker
                return Prompt(
                    kind="turn",
                    text=f"Salvage: select one of the two Power Cards drawn from the top of the "
                    f"{self.fname(self.hand_owner(loser))} deck to keep; the other goes to the bottom.",
                )
            if c.stage == "plunder":
                opts = self._plunder_options(s)
                kinds = [k for k in ("rampage", "salvage", "exploit") if any(o.option == k for o in opts)]
                return Prompt(
                    kind="turn",
                    text=f"The Coalition won: plunder ({', '.join(kinds)}) for 1 more Rage "
                    f"(Rage {s.factions['coalition'].rage} now), or no plunder.",
                )
            if c.stage in ("elder", "decide"):
                own = self.hand_owner(f) == s.active  # the Gray act on the Jewish turn
                return Prompt(kind="turn" if own else "respond", text=self._decide_prompt(s))
            other = c.defender if f == c.attacker else c.attacker
            elder = " (Elder is face up: no other Power Cards in this combat)" if c.elder is not None else ""
            return Prompt(
                kind="secret",
                text=f"Combat in {self.tname(c.territory)}: {name} against {self.fname(other)} — choose a Combat Card "
                f"in secret{elder}; pass plays the first unused card of your deck with no Power Card (R9).",
            )
        if s.conversion is not None:
            return self._conversion_prompt(s)
        if s.tribute is not None or s.giving is not None:
            return self._tribute_prompt(s, f)
        if s.window is not None:
            w = s.window
            if w.kind == "caesar":
                return Prompt(
                    kind="respond",
                    text=f"Give to Caesar: {self.fname(w.mover)} bought Power Cards — raise 1 Unspent "
                    f"{self.fname(w.faction)} die by 1 pip, or pass.",
                )
            if w.kind == "promised_land":
                return Prompt(
                    kind="respond",
                    text=f"{self.fname(w.mover)} units moved from inside the blue region ("
                    + ", ".join(f"{p.count} {'-'.join(self.tname(t) for t in p.route)}" for p in w.moved)
                    + "): play Promised Land to choose where those units go (redirect to <territory>, "
                    "or per unit: redirect 2 <territory>, 1 <territory>), or pass.",
                )
            return Prompt(
                kind="respond",
                text=f"Gospel: {self.fname(w.mover)} moved — move 1 Christian unit 1 territory, or pass.",
            )
        text = {
            "start": "Start Phase: play Start Phase Power Cards, or say done (or pass the turn).",
            "main": "Main Phase: take actions with your dice, or end the Main Phase.",
            "end": "End Phase: play End Phase Power Cards, or say done.",
            "discard": f"End Phase: discard down to {HAND_LIMIT} Power Cards.",
        }[s.phase]
        seat = self.seat_of(s, f)
        shared = sum(1 for g in s.factions.values() if g.seat == seat) > 1  # 2 players: say which faction
        return Prompt(kind="turn", text=f"{name} — {text}" if shared else text)

    def legal_actions(self, s: State, seat: Seat) -> Sequence[Any]:
        """Every legal action for ``seat``; for Move and Recruit, one group of units
        along one route or into one territory per action (the notation accepts any
        combination; RULINGS.md R5). A fresh list each call, remembered for the last state
        (games.core.memo): reading typed text asks for it again and again."""
        return list(self._legal_actions(s, seat))

    @last_state
    def _legal_actions(self, s: State, seat: Seat) -> Sequence[Any]:
        f = self.acting(s, seat)
        if f is None:
            return ()
        if s.scoring is not None:
            return [Score(card=c) for c in self.scoring_options(s)] + [Pass()]
        if s.extra_roll is not None:
            return self.extra_options(s)
        if s.regroup is not None:
            return [Pass(), *self.regroup_options(s)]
        if s.rolling is not None:
            return [Ready(dice=o) for o in self.ready_options(s)] + [
                Reroll(dice=o) for o in self.reroll_options(s)
            ]
        if s.phase == "markers":
            return [PlaceMarker(territory=t) for t in self.marker_spots(s)]
        if s.phase == "final":
            return [PlaceUnit(territory=t) for t in self.final_spots(s)]
        if s.combat is not None:
            if s.combat.stage == "plunder":
                return self._plunder_options(s)
            if s.combat.stage == "salvage":
                return self._salvage_pick_options(s)
            if s.combat.stage in ("elder", "decide"):
                return self.decide_options(s)
            return self._commit_options(s, f) + [Pass()]
        if s.conversion is not None:
            return self.conversion_options(s)
        if s.tribute is not None or s.giving is not None:
            return self._tribute_options(s, f)
        if s.window is not None:
            return [Pass()] + self._window_options(s)
        if s.phase == "start":
            out: list[Any] = [Done()]
            if not s.acted:
                out.append(Pass())
            out += self._power_plays(s, f, "start")
            out += self._durable_uses(s, f)
            return out
        if s.phase == "end":
            return [Done()] + self._power_plays(s, f, "end")
        if s.phase == "discard":
            return [DiscardPower(card=c) for c in self.distinct(s.factions[f].hand)]
        if s.phase == "main":
            return ActionSpace([EndMain()], self._main_actions(s, f), self._power_plays(s, f, "main"))
        return ()

    # ------------------------------------------------------------------ contract: apply

    def apply(self, s: State, seat: Seat, a: Any, rng: Rng) -> Step[State]:
        """Check ``a`` for ``seat`` and apply it, running automatic steps after it.

        Raises
        ------
        GameOverError, NotYourTurnError, IllegalActionError
            With a message saying what would be legal.
        """
        self.require_turn(s, seat)
        if isinstance(a, dict):
            a = _ACTION.validate_python(a)
        f = self.acting(s, seat)
        assert f is not None  # require_turn: the seat is asked, so it acts for a faction
        ctx = _Ctx(s, rng)
        if s.scoring is not None:
            self._apply_scoring(ctx, a)
        elif s.extra_roll is not None:
            self._apply_extra(ctx, f, a)
        elif s.regroup is not None:
            self._apply_regroup(ctx, a)
        elif s.rolling is not None:
            self._apply_rolling(ctx, f, a)
        elif s.phase == "markers":
            self._apply_marker(ctx, a)
        elif s.phase == "final":
            self._apply_final(ctx, a)
        elif s.combat is not None:
            if s.combat.stage == "salvage":
                self._apply_salvage_pick(ctx, a)
            elif s.combat.stage == "plunder":
                self._apply_plunder(ctx, a)
            elif s.combat.stage in ("elder", "decide"):
                self._apply_decide(ctx, f, a)
            else:
                self._apply_commit(ctx, f, a)
        elif s.conversion is not None:
            self._apply_conversion(ctx, a)
        elif s.tribute is not None:
            self._apply_tribute(ctx, f, a)
        elif s.giving is not None:
            self._apply_giving(ctx, f, a)
        elif s.window is not None:
            self._apply_window(ctx, f, a)
        elif s.phase == "start":
            self._apply_start(ctx, f, a)
        elif s.phase == "main":
            self._apply_main(ctx, f, a)
        elif s.phase == "end":
            self._apply_end(ctx, f, a)
        elif s.phase == "discard":
            self._apply_discard(ctx, f, a)
        if ctx.s.revolts and ctx.s.combat is None and ctx.s.extra_roll is None:
            self._revolt_check(ctx)  # a revolt left without units ends, whatever removed them (R13)
        if ctx.s.phase != "over":
            self._check_victory(ctx)
        return Step(state=ctx.s, events=tuple(ctx.events))

    def _apply_marker(self, ctx: _Ctx, a: Any) -> None:
        s = ctx.s
        if not isinstance(a, PlaceMarker):
            raise IllegalActionError("Setup: place an Objective Point Marker: marker <territory>.")
        spots = self.marker_spots(s)
        if a.territory not in spots:
            raise IllegalActionError(
                "Objective Point Markers go in the Roman Empire, not with or next to another marker; free: "
                + list_words([self.tname(t) for t in spots], 40)
                + "."
            )
        owner = s.markers_to_place[0]
        ctx.update(
            markers=s.markers + (Marker(owner=owner, territory=a.territory),),
            markers_to_place=s.markers_to_place[1:],
        )
        ctx.note(f"The {self.fname(owner)} Objective Point Marker is placed in {self.tname(a.territory)}.")
        if not ctx.s.markers_to_place:
            self._begin_final(ctx)

    def _apply_final(self, ctx: _Ctx, a: Any) -> None:
        s = ctx.s
        if not isinstance(a, PlaceUnit):
            raise IllegalActionError("Setup: place one of Rome's final units: place <territory>.")
        spots = self.final_spots(s)
        if a.territory not in spots:
            raise IllegalActionError(
                "Rome's final units go where Rome has units or a marker lies (at most 6); choose: "
                + list_words([self.tname(t) for t in spots], 40)
                + "."
            )
        ctx.from_supply(a.territory, "rome", 1)
        ctx.update(final_left=s.final_left - 1)
        ctx.note(f"Rome placed a unit in {self.tname(a.territory)}.")
        if ctx.s.final_left <= 0:
            self._begin_setup_rolls(ctx)

    def _apply_start(self, ctx: _Ctx, f: str, a: Any) -> None:
        if isinstance(a, Done):
            self._end_start_phase(ctx)
        elif isinstance(a, Pass):
            if ctx.s.acted:
                raise IllegalActionError(
                    "You may pass only instead of playing your turn, before doing anything else."
                )
            self._pass_turn(ctx, f)
        elif isinstance(a, PlayPower):
            self._play_power(ctx, f, a, "start")
        elif isinstance(a, Shift):
            self._help_the_wounded(ctx, f, a)
        else:
            raise IllegalActionError(
                "Start Phase: play a Start Phase Power Card, use a Durable card, done, or pass."
            )

    def _apply_end(self, ctx: _Ctx, f: str, a: Any) -> None:
        if isinstance(a, Done):
            self._end_phase_done(ctx)
        elif isinstance(a, PlayPower):
            self._play_power(ctx, f, a, "end")
        else:
            raise IllegalActionError("End Phase: play an End Phase Power Card, or say done.")

    def _apply_discard(self, ctx: _Ctx, f: str, a: Any) -> None:
        hand = ctx.f(f).hand
        if not isinstance(a, DiscardPower) or a.card not in hand:
            raise IllegalActionError(
                f"Discard down to {HAND_LIMIT} Power Cards: discard one of "
                + list_words([self.card_name(c) for c in hand])
                + "."
            )
        self._discard_card(ctx, f, a.card)
        ctx.note(f"{self.fname(f)} discarded {self.card_name(a.card)}.")
        if len(ctx.f(f).hand) <= HAND_LIMIT:
            self._end_roll(ctx)

    def _discard_card(self, ctx: _Ctx, holder: str, card: str) -> None:
        """Remove ``card`` from ``holder``'s hand to its original faction's discard pile."""
        hand = list(ctx.f(holder).hand)
        hand.remove(card)
        ctx.set_f(holder, hand=tuple(hand))
        owner = self.data.card(card).faction
        ctx.set_f(owner, discard=ctx.f(owner).discard + (card,))

    def _pass_turn(self, ctx: _Ctx, f: str) -> None:
        """Passing: gather every die (Objective Cards, markers, blocks, Unspent, Spent)
        and roll and ready them for the next turn."""
        ctx.set_f(f, dice=tuple(Die() for _ in ctx.f(f).dice))
        ctx.note(f"{self.fname(f)} passed: all dice are gathered and rolled.")
        ctx.update(phase="end")
        self._start_rolling(ctx, f, "pass")

    # ------------------------------------------------------------------ movement

    def _move_options(self, s: State, faction: str, budget: int, revolt: str | None = None) -> list[Path]:
        """One group of units along one shortest route, within ``budget`` points
        (Gray units: only those of ``revolt`` when it is named)."""
        return self._move_options_by_budget(s, faction, (budget,), revolt)[budget]

    def _move_options_by_budget(
        self, s: State, faction: str, budgets: Iterable[int], revolt: str | None = None
    ) -> dict[int, list[Path]]:
        """``_move_options`` for each of ``budgets`` at once: the routes are searched once,
        to the largest budget (a shorter budget's routes are the first ones found, in the
        same order), and a group along a route is one Path object shared by the budgets."""
        out: dict[int, list[Path]] = {b: [] for b in budgets}
        if not out:
            return out
        most = max(out)
        paths: dict[tuple[int, tuple[str, ...]], Path] = {}
        for t in self.territories_of(s, faction):
            if self.blocked_leave(s, t, faction):
                continue
            have = self.revolt_units(s, t, revolt) if faction == "gray" else self.units(s, t, faction)
            if have <= 0:
                continue
            for dest, route in self.reach(s, t, faction, most).items():
                dist = len(route) - 1
                room = self.room(s, dest, faction)
                for budget, got in out.items():
                    for k in range(1, min(have, budget // dist, room) + 1):
                        p = paths.get((k, route))
                        if p is None:
                            p = paths[(k, route)] = Path(count=k, route=route)
                        got.append(p)
        return out

    def _do_paths(
        self, ctx: _Ctx, faction: str, paths: tuple[Path, ...], points: int, revolt: str | None = None
    ) -> None:
        """Move units along ``paths`` spending at most ``points`` movement points (1 per
        unit per territory). Checks adjacency (sea links count), the Coalition
        freezing rule, and the 6-unit limit once every unit has moved. ``revolt``: a
        yellow die moves only that revolt's Gray units (RULINGS.md R13).

        Raises IllegalActionError naming what was wrong."""
        if not paths:
            raise IllegalActionError("Name at least one route: move 3: 2 Rome-Italia.")
        cost = sum(p.count * (len(p.route) - 1) for p in paths)
        if cost > points:
            raise IllegalActionError(f"That movement costs {count(cost, 'point')}; you have {points} movement points.")
        grace_used = False
        for p in paths:
            if len(p.route) < 2:
                raise IllegalActionError("A route names at least two territories: Rome-Italia.")
            for t in p.route:
                if t not in self.data.territories:
                    raise IllegalActionError(f"Unknown territory {t!r}.")
            start = p.route[0]
            if revolt is not None:
                have = self.revolt_units(ctx.s, start, revolt)
                if p.count > have:
                    raise IllegalActionError(
                        f"The yellow die of {self.card_name(revolt)} moves only that revolt's units: it has "
                        f"{have} unit{'s' if have != 1 else ''} in {self.tname(start)}, not {p.count}."
                    )
            have = self.units(ctx.s, start, faction)
            if p.count > have:
                raise IllegalActionError(
                    f"{self.fname(faction)} has {have} unit{'s' if have != 1 else ''} in {self.tname(start)}, not {p.count}."
                )
            for a, b in zip(p.route, p.route[1:], strict=False):
                if b not in self.data.adjacent[a]:
                    raise IllegalActionError(
                        f"{self.tname(b)} is not adjacent to {self.tname(a)}; adjacent: "
                        + list_words([self.tname(x) for x in self.data.adjacent[a]])
                        + "."
                    )
            for i, t in enumerate(p.route[:-1]):
                if self.blocked_leave(ctx.s, t, faction):
                    if faction == "christians" and self.grace_free(ctx.s, 1):
                        grace_used = True
                        continue
                    why = (
                        "a Coalition unit freezes every other piece there"
                        if faction != "coalition"
                        else "a Coalition piece cannot move out of a territory occupied by another faction"
                    )
                    raise IllegalActionError(
                        f"Cannot move {'out of' if i == 0 else 'through'} {self.tname(t)}: {why}."
                    )
            ctx.move_units(start, p.route[-1], faction, p.count, revolt)
        for p in paths:
            end = p.route[-1]
            if self.units(ctx.s, end, faction) > UNIT_LIMIT:
                raise IllegalActionError(
                    f"At most {UNIT_LIMIT} {self.fname(faction)} units may be in {self.tname(end)}."
                )
        if grace_used:
            ctx.set_f("christians", grace_now=1)
            ctx.note("Grace: the Christians move through Coalition units.")
        ctx.note(
            f"{self.fname(faction)} moved "
            + "; ".join(f"{p.count} {'-'.join(self.tname(t) for t in p.route)}" for p in paths)
            + "."
        )

    def _after_move(self, ctx: _Ctx, mover: str, paths: tuple[Path, ...]) -> None:
        """Open the response windows a move may trigger: Promised Land (movement from
        inside the blue region on another faction's turn) and Gospel."""
        blue = set(self.data.region_territories("blue"))
        from_blue = tuple(p for p in paths if p.route[0] in blue)
        if from_blue and self._promised_land_window(ctx, mover, from_blue):
            return
        self._gospel_window(ctx, mover)

    PROMISED_LAND_HOLDERS = ("jews", "coalition")

    def _promised_land_window(
        self, ctx: _Ctx, mover: str, moved: tuple[Path, ...], after: str | None = None
    ) -> bool:
        """Open the Promised Land window for the first faction after ``after`` (the Jews,
        then the Coalition with a salvaged copy, RULINGS.md R14, R22) that may hold the
        card as far as the table can tell (R25), on another player's move it could
        redirect. Returns whether a window opened."""
        s = ctx.s
        order = self.PROMISED_LAND_HOLDERS
        start = order.index(after) + 1 if after is not None else 0
        for holder in order[start:]:
            if holder not in s.factions or mover == holder or self.same_player(s, mover, holder):
                continue
            if holder == "jews" and mover == "gray":
                continue
            w = Window(kind="promised_land", faction=holder, mover=mover, moved=moved)
            if self._could_hold(s, holder, "promised-land") and self._redirect_options(s, w, "", 1):
                ctx.update(window=w)
                return True
        return False

    def _gospel_window(self, ctx: _Ctx, mover: str) -> None:
        """Gospel: when the faction it names moves, its holder (the Christians, or the
        Coalition with a salvaged Gospel, RULINGS.md R14) may move 1 Christian unit 1
        territory."""
        s = ctx.s
        for holder in ("christians", "coalition"):
            hf = s.factions.get(holder)
            if (
                hf is not None
                and hf.gospel == mover
                and self.durable(s, holder, "gospel")
                and self._shift_options(s, "christians")
            ):
                ctx.update(window=Window(kind="gospel", faction=holder, mover=mover))
                return
        ctx.update(window=None)

    def _shift_options(self, s: State, faction: str) -> list[Shift]:
        out = []
        for t in self.territories_of(s, faction):
            if self.blocked_leave(s, t, faction):
                continue
            for u in self.data.adjacent[t]:
                if self.room(s, u, faction) > 0:
                    out.append(Shift(faction=faction, source=t, destination=u))
        return out

    def _redirect_goals(self, s: State, w: Window, start: str, steps: int) -> set[str]:
        """Where Promised Land may send a unit that moved ``steps`` territories from
        ``start``: in or adjacent to the blue region, not its start, reachable from its
        start in ``steps`` moves along a route the mover may take (RULINGS.md R22)."""
        zone = self.redirect_zone()
        return {t for t in self.reach(s, start, w.mover, steps) if t in zone}

    def _redirect_goals_memo(self, s: State, w: Window) -> Callable[[str, int], set[str]]:
        """``_redirect_goals`` of ``s`` and ``w`` as a function of (start, steps), each
        answer computed once (a fresh set handed out each time)."""
        known: dict[tuple[str, int], frozenset[str]] = {}

        def goals_of(start: str, steps: int) -> set[str]:
            got = known.get((start, steps))
            if got is None:
                got = known[(start, steps)] = frozenset(self._redirect_goals(s, w, start, steps))
            return set(got)

        return goals_of

    def _redirect_delta(
        self,
        s: State,
        w: Window,
        a: Redirect,
        goals_of: Callable[[str, int], set[str]] | None = None,
    ) -> dict[str, int]:
        """The change in the mover's units per territory that ``a`` makes: each unit named
        goes to its destination, the others keep their own move (RULINGS.md R22).
        ``goals_of(start, steps)``: ``_redirect_goals`` for ``s`` and ``w`` (a caller
        checking many redirects passes one that remembers its answers).

        Raises IllegalActionError naming what was wrong and what is legal."""
        if goals_of is None:
            goals_of = self._redirect_goals_memo(s, w)
        mover = self.fname(w.mover)
        units = self.redirect_units(w)
        if a.territory is not None:
            if a.sends:
                raise IllegalActionError(
                    "Redirect all the units to one territory (redirect to <territory>) or name "
                    "units per territory (redirect 2 Samaria, 1 Galilaea), not both."
                )
            sends = tuple((t0, a.territory, len(us)) for t0, us in units.items())
        else:
            sends = a.sends
        if not sends:
            raise IllegalActionError(
                "Name where the units go: redirect to <territory>, or redirect 2 Samaria, 1 Galilaea."
            )
        for t0, t1, n in sends:
            for t in (t0, t1):
                if t not in self.data.territories:
                    raise IllegalActionError(f"Unknown territory {t!r}.")
            if n < 1:
                raise IllegalActionError("Send at least 1 unit to each territory named.")
            if t0 not in units:
                raise IllegalActionError(
                    f"{mover} moved no units out of {self.tname(t0)}; Promised Land redirects the units "
                    "that moved out of " + list_words([self.tname(t) for t in units]) + "."
                )
            if t1 == t0:
                raise IllegalActionError(
                    f"Promised Land makes the units move: they cannot stay in {self.tname(t0)}."
                )
        delta: dict[str, int] = {}
        for t0, us in units.items():
            named = [t1 for x, t1, n in self.merge_sends(sends) if x == t0 for _ in range(n)]
            if not named:
                continue
            if len(named) > len(us):
                raise IllegalActionError(
                    f"{mover} moved {len(us)} unit{'s' if len(us) != 1 else ''} out of {self.tname(t0)}, "
                    f"not {len(named)}."
                )
            goals = [goals_of(t0, k) | {end} for end, k in us]
            every = set().union(*goals)
            for t1 in dict.fromkeys(named):
                if t1 in every:
                    continue
                legal = sorted(self._redirect_goals(s, w, t0, max(k for _, k in us)))
                if t1 not in self.redirect_zone():
                    why = "is neither in nor adjacent to the blue region"
                else:
                    steps = max(k for _, k in us)
                    why = (
                        f"is out of reach: the units from {self.tname(t0)} moved {steps} "
                        f"territor{'y' if steps == 1 else 'ies'} and go at most that far, along "
                        "routes open to them"
                    )
                raise IllegalActionError(
                    f"{self.tname(t1)} {why}; the units from {self.tname(t0)} may go to "
                    + list_words([self.tname(t) for t in legal] or ["nowhere"])
                    + "."
                )
            match = self._redirect_match(us, goals, named)
            if match is None:
                groups: dict[tuple[str, int], int] = {}
                for u in us:
                    groups[u] = groups.get(u, 0) + 1
                raise IllegalActionError(
                    f"The units from {self.tname(t0)} cannot all reach those territories: a unit goes "
                    "at most as far as it moved ("
                    + "; ".join(
                        f"{n} moved {k} territor{'y' if k == 1 else 'ies'}, to {self.tname(e)}"
                        for (e, k), n in groups.items()
                    )
                    + ")."
                )
            for i, t1 in match.items():
                end = us[i][0]
                delta[end] = delta.get(end, 0) - 1
                delta[t1] = delta.get(t1, 0) + 1
        delta = {t: d for t, d in delta.items() if d}
        if not delta:
            raise IllegalActionError(
                "That leaves every unit where it moved; name other territories, or pass."
            )
        for t, d in sorted(delta.items()):
            now = self.units(s, t, w.mover) + d
            if now > UNIT_LIMIT:
                raise IllegalActionError(
                    f"At most {UNIT_LIMIT} {mover} units may be in {self.tname(t)}; it would hold {now}."
                )
        return delta

    @staticmethod
    def _redirect_match(
        us: list[tuple[str, int]], goals: list[set[str]], named: list[str]
    ) -> dict[int, str] | None:
        """Unit index -> destination for every name in ``named`` (each unit at most once,
        only to its ``goals``), preferring units that already end there; None if impossible."""
        owner: dict[int, int] = {}  # unit -> named slot

        def order(t1: str) -> list[int]:
            return sorted(
                (i for i in range(len(us)) if t1 in goals[i]), key=lambda i: (us[i][0] != t1, us[i][1], i)
            )

        def place(j: int, seen: set[int]) -> bool:
            for i in order(named[j]):
                if i in seen:
                    continue
                seen.add(i)
                if i not in owner or place(owner[i], seen):
                    owner[i] = j
                    return True
            return False

        for j in range(len(named)):
            if not place(j, set()):
                return None
        return {i: named[j] for i, j in owner.items()}

    def _redirect_options(self, s: State, w: Window, card: str, limit: int = 40) -> list[Redirect]:
        """The redirects offered: every territory all the units may go to, then splits
        (two territories for one start, one territory per start); the notation takes any
        legal choice (RULINGS.md R22)."""
        out: list[Redirect] = []
        goals_of = self._redirect_goals_memo(s, w)

        def ok(a: Redirect) -> bool:
            try:
                self._redirect_delta(s, w, a, goals_of)
            except IllegalActionError:
                return False
            return True

        units = self.redirect_units(w)
        for t in sorted(self.redirect_zone()):
            a = Redirect(card=card, territory=t)
            if ok(a):
                out.append(a)
                if len(out) >= limit:
                    return out
        goals = {t0: sorted(set().union(*(goals_of(t0, k) for _, k in us))) for t0, us in units.items()}
        splits: list[tuple[tuple[str, str, int], ...]] = []
        if len(units) == 1:
            ((t0, us),) = units.items()
            n = len(us)
            if n >= 2:
                for i, x in enumerate(goals[t0]):
                    for y in goals[t0][i + 1 :]:
                        splits.append(self.merge_sends([(t0, x, n - n // 2), (t0, y, n // 2)]))
        else:
            combos: list[list[tuple[str, str, int]]] = [[]]
            for t0, us in units.items():
                combos = [c + [(t0, t1, len(us))] for c in combos for t1 in goals[t0]][:limit]
            splits = [self.merge_sends(c) for c in combos if len({t1 for _, t1, _ in c}) > 1]
        for sends in splits:
            a = Redirect(card=card, sends=sends)
            if ok(a):
                out.append(a)
                if len(out) >= limit:
                    break
        return out

    def _window_options(self, s: State) -> list[Any]:
        w = s.window
        if w.kind == "caesar":
            return self._caesar_options(s, w.faction)
        if w.kind == "promised_land":
            cards = [
                c for c in dict.fromkeys(s.factions[w.faction].hand) if self.data.card(c).id == "promised-land"
            ][:1]
            return [a for c in cards for a in self._redirect_options(s, w, c)]
        return self._shift_options(s, "christians")

    def _apply_window(self, ctx: _Ctx, f: str, a: Any) -> None:
        w = ctx.s.window
        if w.kind == "caesar" and not isinstance(a, Pass):
            dice = ctx.f(w.faction).dice
            if not isinstance(a, Raise) or not (
                0 <= a.die < len(dice) and dice[a.die].place == "unspent" and dice[a.die].value < 6
            ):
                raise IllegalActionError(
                    "Give to Caesar: raise one of your Unspent dice below 6 by 1 pip (raise <value>), or pass."
                )
            ctx.set_die(w.faction, a.die, value=dice[a.die].value + 1)
            ctx.note(f"Give to Caesar: a {self.fname(w.faction)} die rises to {dice[a.die].value + 1}.")
            ctx.update(window=None)
            return
        if isinstance(a, Pass):
            if w.kind == "promised_land":
                # the next holder who may have a copy is asked (R22); then Gospel
                if not self._promised_land_window(ctx, w.mover, w.moved, after=w.faction):
                    self._gospel_window(ctx, w.mover)
            else:
                ctx.update(window=None)
            return
        if w.kind == "promised_land":
            if not isinstance(a, Redirect):
                raise IllegalActionError(
                    "Play Promised Land to redirect the units (redirect to <territory>, or "
                    "redirect 2 Samaria, 1 Galilaea), or pass."
                )
            if a.card not in ctx.s.factions[w.faction].hand or self.data.card(a.card).id != "promised-land":
                raise IllegalActionError("You need Promised Land in your hand.")
            delta = self._redirect_delta(ctx.s, w, a)
            for t, d in delta.items():
                ctx.add_units(t, w.mover, d)
            self._discard_card(ctx, w.faction, a.card)
            if a.territory is not None:
                where = f"to {self.tname(a.territory)}"
            else:
                sends = self.merge_sends(a.sends)
                several = len({p.route[0] for p in w.moved}) > 1
                where = list_words(
                    [
                        f"{n}{f' from {self.tname(t0)}' if several else ''} to {self.tname(t1)}"
                        for t0, t1, n in sends
                    ]
                )
            rest = ""
            if a.territory is None and sum(n for _, _, n in a.sends) < sum(p.count for p in w.moved):
                rest = " (the others keep their move)"
            who = "The Jews send" if w.faction == "jews" else "The Coalition sends"
            ctx.note(f"Promised Land! {who} the {self.fname(w.mover)} units {where} instead{rest}.")
            self._gospel_window(ctx, w.mover)
            return
        if not isinstance(a, Shift) or a not in self._shift_options(ctx.s, "christians"):
            raise IllegalActionError(
                "Gospel: move 1 Christian unit 1 territory (shift Christian <from>-<to>), or pass."
            )
        ctx.add_units(a.source, "christians", -1)
        ctx.add_units(a.destination, "christians", 1)
        ctx.note(f"Gospel: a Christian unit follows, {self.tname(a.source)} to {self.tname(a.destination)}.")
        ctx.update(window=None)

    # ------------------------------------------------------------------ main phase: options

    def recruit_spots(self, s: State, f: str) -> tuple[list[str], bool]:
        """Territories ``f`` may recruit into, and whether only one may be chosen (no
        units on the board). Recruit Units; 2-Player Rules 1; Grace option 3."""
        grace = f == "christians" and self.grace_free(s, 3)
        if self.on_board(s, f) > 0:
            if f == "coalition":
                spots = [t for t in self.territories_of(s, f) if self.sole(s, t, f)]
            else:
                spots = [t for t in self.territories_of(s, f) if self.units(s, t, "coalition") == 0 or grace]
            return [t for t in spots if self.room(s, t, f) > 0], False
        starts = self.data.factions[f].start_territories
        if f == "coalition":
            spots = [t for t in starts if not (self.occupants(s, t) - {f})]
            if not spots:
                spots = [t for t in self.data.territories if not self.occupants(s, t)]
        else:
            # "you can only recruit to one of the starting territories" (RULINGS.md R23)
            spots = [t for t in starts if self.units(s, t, "coalition") == 0]
        return spots, True

    def _main_actions(self, s: State, f: str) -> list[Any]:
        out: list[Any] = []
        fs = s.factions[f]
        seq = self.seq_dice(s, f)
        present = [x for x in s.factions if x != f and x != "gray"]
        # Move
        moves = self._move_options_by_budget(s, f, {fs.dice[i].value for i in seq})
        for i in seq:
            out += [Move(die=i, paths=(p,)) for p in moves[fs.dice[i].value]]
        # Recruit
        if fs.supply > 0 and f != "gray":
            spots, _ = self.recruit_spots(s, f)
            for i in seq:
                v = fs.dice[i].value
                for t in spots:
                    for k in range(1, min(v, fs.supply, self.room(s, t, f)) + 1):
                        out.append(Recruit(die=i, placements=((t, k),)))
        # Combat
        for i in seq[:1] if seq else []:
            for t, target in self._attack_targets(s, f):
                out.append(Attack(die=i, territory=t, target=target))
        # Gray actions (Jewish seat)
        if f == "jews" and self.on_board(s, "gray") > 0:
            for die, yellow in self.gray_dice(s):
                v = self.die_value(s, f, die, yellow)
                revolt = self.yellow_revolt(s, die) if yellow else None
                out += [
                    Move(die=die, paths=(p,), gray=True, yellow=yellow)
                    for p in self._move_options(s, "gray", v, revolt)
                ]
                for t, target in self._attack_targets(s, "gray"):
                    if revolt is None or self.revolt_units(s, t, revolt):
                        out.append(Attack(die=die, territory=t, target=target, gray=True, yellow=yellow))
        # Objectives
        for i in seq:
            for c in s.objectives:
                if self._can_claim(s, f, c):
                    out.append(Claim(die=i, card=c))
            for c in s.objectives:
                if self.claims(s, c).get(f) is not None:
                    out.append(Retrieve(die=i, card=c))
        # Buy Power Cards
        if f != "coalition" and s.bought < BUY_LIMIT:
            for i in seq:
                if fs.dice[i].value >= PIPS_PER_CARD:
                    out.append(Buy(die=i))
                for j in self.outside_dice(s, f, exclude=i):
                    if (
                        fs.dice[i].value + fs.dice[j].value >= PIPS_PER_CARD
                        and (fs.dice[i].value + fs.dice[j].value) // 2 > fs.dice[i].value // 2
                    ):
                        out.append(Buy(die=i, extra=j))
        if f == "coalition":
            for i in seq:
                for m in s.markers:
                    if m.territory and not self.marker_claimed(s, m.territory):
                        out.append(ClaimMarker(die=i, territory=m.territory))
                for d in fs.dice:
                    if d.place == "marker":
                        out.append(Retrieve(die=i, territory=d.on))
                for c in sorted({d.on for d in fs.dice if d.place == "block"}):
                    out.append(Unblock(die=i, card=c))
                if fs.rage < RAGE_MAX:
                    if fs.dice[i].value >= PIPS_PER_RAGE:
                        out.append(Rage(die=i))
                    for j in self.outside_dice(s, f, exclude=i):
                        if (fs.dice[i].value + fs.dice[j].value) // 2 > fs.dice[
                            i
                        ].value // 2 and fs.rage + fs.dice[i].value // 2 < RAGE_MAX:
                            out.append(Rage(die=i, extra=j))
                for extra in [None] + self.outside_dice(s, f, exclude=i):
                    total = fs.dice[i].value + (fs.dice[extra].value if extra is not None else 0)
                    if total != BLOCK_PIPS:
                        continue
                    for c in s.objectives:
                        for target in present:
                            if self._can_block(s, c, target):
                                out.append(Block(die=i, extra=extra, card=c, target=target))
        if s.players == 2:
            for i in seq:
                for extra in [None] + self.outside_dice(s, f, exclude=i):
                    total = fs.dice[i].value + (fs.dice[extra].value if extra is not None else 0)
                    if total == BLOCK_PIPS:
                        for c in s.objectives:
                            if self._can_discard_objective(s, c):
                                out.append(DiscardObjective(die=i, extra=extra, card=c))
        del present
        return out

    def _attack_targets(self, s: State, f: str) -> list[tuple[str, str]]:
        """(territory, faction) pairs ``f`` may attack: its units and theirs in the
        territory, not a faction of the same player (2-Player Rules 2), and the Jews
        and the Gray never fight each other (RULINGS.md R7)."""
        out = []
        for t in self.territories_of(s, f):
            for o in sorted(self.occupants(s, t) - {f}):
                if {f, o} == {"jews", "gray"} or self.same_player(s, f, o):
                    continue
                out.append((t, o))
        return out

    def _can_claim(self, s: State, f: str, card: str) -> bool:
        c = self.data.objectives[card]
        if c.for_faction(f) is None or card not in s.objectives:
            return False
        if s.players == 2 and not c.two_player:
            return False
        return self.claims(s, card).get(f) is None and not self.blocked(s, card, f)

    def _can_block(self, s: State, card: str, target: str) -> bool:
        """Block an Objective: not already claimed, 1 per card, 1 per other faction."""
        c = self.data.objectives[card]
        if c.for_faction(target) is None or self.claims(s, card).get(target) is not None:
            return False
        co = s.factions["coalition"]
        if any(d.place == "block" and (d.on == card or d.target == target) for d in co.dice):
            return False
        return not self.same_player(s, "coalition", target)

    def _can_discard_objective(self, s: State, card: str) -> bool:
        if card not in s.objectives:
            return False
        if self.claims(s, card):
            return False
        co = s.factions.get("coalition")
        return not (co and any(d.place == "block" and d.on == card for d in co.dice))

    # ------------------------------------------------------------------ main phase: apply

    def _use_die(self, ctx: _Ctx, f: str, die: int, place: str = "spent", **fields: Any) -> int:
        """Take a die from the Dice Sequence; returns its value. Raises
        IllegalActionError listing the dice that can be used."""
        dice = ctx.f(f).dice
        if not 0 <= die < len(dice) or dice[die].place != "unspent" or not dice[die].seq:
            vals = [str(d.value) for d in dice if d.place == "unspent" and d.seq]
            raise IllegalActionError(
                "Use a die from your Dice Sequence; you have: "
                + (", ".join(vals) or "none (end the Main Phase)")
                + "."
            )
        v = dice[die].value
        ctx.set_die(f, die, place=place, seq=False, **fields)
        return v

    def _use_extra(self, ctx: _Ctx, f: str, die: int | None, place: str = "spent", **fields: Any) -> int:
        """The one extra die from outside the Dice Sequence (actions marked *)."""
        if die is None:
            return 0
        dice = ctx.f(f).dice
        if not 0 <= die < len(dice) or dice[die].place != "unspent" or dice[die].seq:
            vals = [str(d.value) for d in dice if d.place == "unspent" and not d.seq]
            raise IllegalActionError(
                "The second die must be an Unspent die from outside your Dice Sequence; you have: "
                + (", ".join(vals) or "none")
                + "."
            )
        v = dice[die].value
        ctx.set_die(f, die, place=place, seq=False, **fields)
        return v

    def _use_gray_die(self, ctx: _Ctx, die: int, yellow: bool) -> int:
        if yellow:
            k = 0
            revolts = []
            value = None
            for r in ctx.s.revolts:
                dice = list(r.dice)
                for j, d in enumerate(dice):
                    if k == die and d.place == "unspent":
                        value = d.value
                        dice[j] = d.model_copy(update={"place": "spent"})
                    k += 1
                revolts.append(r.model_copy(update={"dice": tuple(dice)}))
            if value is None:
                vals = [str(v) for _, v in self.yellow_dice(ctx.s)]
                raise IllegalActionError(
                    "No such unspent yellow die; yellow dice: " + (", ".join(vals) or "none") + "."
                )
            ctx.update(revolts=tuple(revolts))
            return value
        if ctx.s.gray_die_used:
            raise IllegalActionError(
                "The Jewish Faction may spend only 1 die a turn on Gray actions; use a yellow die."
            )
        v = self._use_die(ctx, "jews", die)
        ctx.update(gray_die_used=True)
        return v

    def _apply_main(self, ctx: _Ctx, f: str, a: Any) -> None:
        s = ctx.s
        if isinstance(a, EndMain):
            ctx.update(phase="end")
            ctx.note(f"{self.fname(f)} ended the Main Phase.")
            return
        ctx.update(acted=True)
        if isinstance(a, PlayPower):
            self._play_power(ctx, f, a, "main")
        elif isinstance(a, Move):
            mover = f
            if a.gray:
                if f != "jews":
                    raise IllegalActionError("Only the Jewish Faction moves the Gray Faction.")
                mover = "gray"
                revolt = self.yellow_revolt(s, a.die) if a.yellow else None
                v = self._use_gray_die(ctx, a.die, a.yellow)
            elif a.yellow:
                raise IllegalActionError("Yellow dice move only Gray units: move gray yellow <value>: ...")
            else:
                revolt = None
                v = self._use_die(ctx, f, a.die)
            self._do_paths(ctx, mover, a.paths, v, revolt)
            self._after_move(ctx, mover, a.paths)
        elif isinstance(a, Recruit):
            v = self._use_die(ctx, f, a.die)
            self._recruit(ctx, f, a.placements, v)
        elif isinstance(a, Attack):
            side = f
            if a.gray:
                if f != "jews":
                    raise IllegalActionError("Only the Jewish Faction fights with the Gray Faction.")
                side = "gray"
                revolt = self.yellow_revolt(s, a.die) if a.yellow else None
                self._use_gray_die(ctx, a.die, a.yellow)
                if revolt is not None and not self.revolt_units(s, a.territory, revolt):
                    where = [self.tname(t) for t in sorted(self.revolt_territories(s, revolt))]
                    raise IllegalActionError(
                        f"The yellow die of {self.card_name(revolt)} initiates combat only with that revolt's "
                        f"units; it has none in {self.tname(a.territory)}"
                        + (f" (its units are in {list_words(where)})." if where else ".")
                    )
            elif a.yellow:
                raise IllegalActionError("Yellow dice are for Gray actions: attack gray yellow <value>: ...")
            else:
                self._use_die(ctx, f, a.die)
            targets = self._attack_targets(s, side)
            if (a.territory, a.target) not in targets:
                why = ""
                if a.target == side:
                    why = (f"{self.fname(side)} cannot attack its own units: combat needs a unit \"in the same "
                           "territory as another faction\" (Initiate Combat). ")
                elif a.target in s.factions and self.same_player(s, side, a.target):
                    why = (
                        f"{self.fname(side)} and {self.fname(a.target)} are both your factions, and factions "
                        "controlled by the same player never fight each other (2-Player Rules). "
                    )
                elif {side, a.target} == {"jews", "gray"}:
                    why = "The Jewish and Gray Factions never fight each other (RULINGS.md R7). "
                elif a.territory in self.data.territories and not self.units(s, a.territory, a.target):
                    why = f"There are no {self.fname(a.target)} units in {self.tname(a.territory)}. "
                elif a.territory in self.data.territories and not self.units(s, a.territory, side):
                    why = f"You have no units in {self.tname(a.territory)}. "
                raise IllegalActionError(
                    why
                    + (
                        "You may fight: "
                        + list_words([f"{self.fname(o)} in {self.tname(t)}" for t, o in targets])
                        + "."
                        if targets
                        else "There is nobody you may fight now."
                    )
                )
            self._begin_combat(ctx, side, a.target, a.territory)
        elif isinstance(a, Claim):
            if not self._can_claim(s, f, a.card):
                raise IllegalActionError(
                    "You may claim: "
                    + list_words(
                        [self.data.objectives[c].name for c in s.objectives if self._can_claim(s, f, c)]
                    )
                    + "."
                )
            self._use_die(ctx, f, a.die, place="objective", on=a.card)
            ctx.note(f"{self.fname(f)} claimed its objective on {self.data.objectives[a.card].name}.")
            if f == "christians" and self.durable(ctx.s, f, "enrapture") and not ctx.s.enrapture_used:
                spent = [i for i, d in enumerate(ctx.f(f).dice) if d.place == "spent"]
                if spent:
                    v = ctx.rng.die(6)
                    ctx.set_die(f, spent[0], place="unspent", seq=True, value=v)
                    ctx.update(enrapture_used=True)
                    ctx.note(f"Enrapture: a Spent die is rerolled ({v}) for another action.")
        elif isinstance(a, Buy):
            if f == "coalition":
                raise IllegalActionError("The Coalition has no Power Card deck to buy from.")
            v = self._use_die(ctx, f, a.die, place="power") + self._use_extra(ctx, f, a.extra, place="power")
            n = min(v // PIPS_PER_CARD, BUY_LIMIT - s.bought)
            if n <= 0:
                raise IllegalActionError(
                    f"Power Cards cost {PIPS_PER_CARD} pips each (at most {BUY_LIMIT} a turn; {s.bought} bought)."
                )
            ctx.update(bought=s.bought + n)
            ctx.note(
                f"{self.fname(f)} designated {count(v, 'pip')} to purchase {n} Power Card{'s' if n != 1 else ''}."
            )
            self._give_to_caesar(ctx, f)
        elif isinstance(a, ClaimMarker):
            self._coalition_only(f)
            m = self.marker_at(s, a.territory)
            if m is None or self.marker_claimed(s, a.territory):
                free = [
                    self.tname(x.territory)
                    for x in s.markers
                    if x.territory and not self.marker_claimed(s, x.territory)
                ]
                raise IllegalActionError("Unclaimed Objective Point Markers: " + list_words(free) + ".")
            self._use_die(ctx, f, a.die, place="marker", on=a.territory)
            ctx.note(
                f"The Coalition claimed the {self.fname(m.owner)} Objective Point Marker in {self.tname(a.territory)}."
            )
        elif isinstance(a, Block):
            self._coalition_only(f)
            if (
                a.card not in s.objectives
                or a.target not in s.factions
                or not self._can_block(s, a.card, a.target)
            ):
                raise IllegalActionError(
                    "You may block an unclaimed objective of another faction, 1 per card and 1 per faction."
                )
            v = self._use_die(ctx, f, a.die, place="block", on=a.card, target=a.target)
            v += self._use_extra(ctx, f, a.extra, place="block", on=a.card, target=a.target)
            if v != BLOCK_PIPS:
                raise IllegalActionError(f"Blocking requires exactly {BLOCK_PIPS} pips, not {v}.")
            ctx.note(
                f"The Coalition blocks the {self.fname(a.target)} objective on {self.data.objectives[a.card].name}."
            )
        elif isinstance(a, Unblock):
            self._coalition_only(f)
            dice = [i for i, d in enumerate(ctx.f(f).dice) if d.place == "block" and d.on == a.card]
            if not dice:
                raise IllegalActionError("You have no die blocking an objective on that card.")
            self._use_die(ctx, f, a.die)
            for i in dice:
                ctx.set_die(f, i, place="spent", on=None, target=None)
            ctx.note(f"The Coalition returned its blocking dice from {self.data.objectives[a.card].name}.")
        elif isinstance(a, Rage):
            self._coalition_only(f)
            fs = ctx.f(f)
            if fs.rage >= RAGE_MAX:
                raise IllegalActionError(f"Rage cannot be increased above {RAGE_MAX}.")
            v = self._use_die(ctx, f, a.die) + self._use_extra(ctx, f, a.extra)
            gain = v // PIPS_PER_RAGE
            if gain <= 0:
                raise IllegalActionError(f"Rage costs {PIPS_PER_RAGE} pips per point.")
            rage = min(RAGE_MAX, fs.rage + gain)
            ctx.set_f(f, rage=rage)
            ctx.note(f"The Coalition's Rage rises to {rage}.")
        elif isinstance(a, Retrieve):
            fs = ctx.f(f)
            if a.card is not None:
                idx = [i for i, d in enumerate(fs.dice) if d.place == "objective" and d.on == a.card]
            elif a.territory is not None:
                idx = [i for i, d in enumerate(fs.dice) if d.place == "marker" and d.on == a.territory]
            else:
                idx = []
            if not idx:
                raise IllegalActionError("You have no die on that Objective Card or marker.")
            self._use_die(ctx, f, a.die)
            for i in idx:
                ctx.set_die(f, i, place="spent", on=None)
            ctx.note(f"{self.fname(f)} retrieved a die.")
        elif isinstance(a, DiscardObjective):
            if s.players != 2:
                raise IllegalActionError("Objective Cards may be discarded only in the 2-player game.")
            if not self._can_discard_objective(s, a.card):
                raise IllegalActionError(
                    "Only an unclaimed face-up Objective Card with no die on it may be discarded."
                )
            v = self._use_die(ctx, f, a.die) + self._use_extra(ctx, f, a.extra)
            if v != BLOCK_PIPS:
                raise IllegalActionError(
                    f"Discarding an Objective Card requires exactly {BLOCK_PIPS} pips, not {v}."
                )
            ctx.update(
                objectives=tuple(c for c in ctx.s.objectives if c != a.card),
                objective_discard=ctx.s.objective_discard + (a.card,),
            )
            ctx.note(f"{self.fname(f)} discarded the Objective Card {self.data.objectives[a.card].name}.")
            if ctx.s.objective_deck:
                new, rest = ctx.s.objective_deck[0], ctx.s.objective_deck[1:]
                ctx.update(objectives=ctx.s.objectives + (new,), objective_deck=rest)
                ctx.note(f"New Objective Card: {self.data.objectives[new].name}.")
        else:
            raise IllegalActionError(
                "Main Phase: move, recruit, attack, claim, retrieve, buy, play a card"
                + (", marker, block, unblock, rage" if f == "coalition" else "")
                + ", or end."
            )

    def _coalition_only(self, f: str) -> None:
        if f != "coalition":
            raise IllegalActionError("Only the Coalition may do that.")

    def _give_to_caesar(self, ctx: _Ctx, buyer: str) -> None:
        """Give to Caesar: whenever a faction purchases Power Cards, its holder (Rome, or
        the Coalition with a salvaged copy, R14) may raise 1 of its own Unspent dice by 1
        pip, chosen in a response window (RULINGS.md R15)."""
        for holder in ("rome", "coalition"):
            if self.durable(ctx.s, holder, "give-to-caesar") and self._caesar_options(ctx.s, holder):
                ctx.update(window=Window(kind="caesar", faction=holder, mover=buyer))
                return

    def _caesar_options(self, s: State, holder: str) -> list[Raise]:
        """One Raise per distinct (value, in the sequence) of ``holder``'s Unspent dice below 6."""
        out, seen = [], set()
        for i, d in enumerate(s.factions[holder].dice):
            if d.place == "unspent" and d.value < 6 and (d.value, d.seq) not in seen:
                seen.add((d.value, d.seq))
                out.append(Raise(die=i))
        return out

    # ------------------------------------------------------------------ Collect Tribute and Giving

    def _tribute_options(self, s: State, f: str) -> list[Any]:
        if s.giving is not None:
            return [Pass()] + [Give(die=i) for i in self.dice_where(s, f, lambda d: True)]
        if s.tribute.waiting:
            return [Pass()] + [Lower(die=i) for i in self.lower_choices(s, f)]
        return [Done()] + [Raise(die=i) for i in self.dice_where(s, f, lambda d: d.value < 6)]

    def _choices_text(self, s: State, f: str, verb: str) -> str:
        dice = s.factions[f].dice
        acts = [a for a in self._tribute_options(s, f) if isinstance(a, Lower | Give | Raise)]
        acts.sort(key=lambda a: (dice[a.die].value, not dice[a.die].seq))
        return ", ".join(f"{verb} {self.die_word(dice[a.die])}" for a in acts)

    def _tribute_prompt(self, s: State, f: str) -> Prompt:
        if s.giving is not None:
            given = s.giving.given
            return Prompt(
                kind="respond",
                text=f"Giving: the Christians take {GIVING_PIPS} pips from {WHO[f]} ({given} given so far) — "
                f"give one of your Unspent dice: {self._choices_text(s, f, 'give')}; or pass to give the "
                "least costly one.",
            )
        t = s.tribute
        if t.waiting:
            if all(s.factions[f].dice[i].value == 1 for i in self.lower_choices(s, f)):
                what = "you have only 1s Unspent: move one to your Spent Dice area"
            else:
                what = "lower one of your Unspent dice by 1 pip"
            return Prompt(
                kind="respond",
                text=f"Collect Tribute: {WHO[t.player]} collects from {WHO[f]} — {what}: "
                f"{self._choices_text(s, f, 'lower')}; or pass to lower the least costly one.",
            )
        left = t.collected - t.raised
        return Prompt(
            kind="turn",
            text=f"Collect Tribute: {WHO[f]} has {left} of the {count(t.collected, 'pip')} collected left — raise one "
            f"of your Unspent dice by 1 pip: {self._choices_text(s, f, 'raise')}; or done.",
        )

    def _tribute_next(self, ctx: _Ctx) -> None:
        """Resolve what needs no choice: a faction without Unspent dice is skipped, one
        with a single choice lowers it; then the player raises, or it is over."""
        while True:
            t = ctx.s.tribute
            if not t.waiting:
                break
            g = t.waiting[0]
            choices = self.lower_choices(ctx.s, g)
            if not choices:
                ctx.note(f"Collect Tribute: {WHO[g]} has no Unspent dice to lower.")
                ctx.update(tribute=t.model_copy(update={"waiting": t.waiting[1:]}))
            elif len(choices) == 1:
                self._lower(ctx, g, choices[0], " (no other choice)")
            else:
                return
        t = ctx.s.tribute
        if t.raised < t.collected and self.dice_where(ctx.s, t.player, lambda d: d.value < 6):
            return
        self._tribute_finish(ctx, "" if t.raised == t.collected else "; no Unspent die below 6 is left")

    def _tribute_finish(self, ctx: _Ctx, why: str) -> None:
        t = ctx.s.tribute
        ctx.note(f"Collect Tribute: {WHO[t.player]} collected {count(t.collected, 'pip')} and raised {t.raised}{why}.")
        ctx.update(tribute=None)

    def _lower(self, ctx: _Ctx, g: str, i: int, why: str = "") -> None:
        """``g`` pays its pip: die ``i`` is lowered by 1, or a 1 goes to Spent; either
        counts as 1 pip collected (RULINGS.md R15)."""
        t = ctx.s.tribute
        d = ctx.f(g).dice[i]
        where = "" if d.seq else " (outside its Dice Sequence)"
        if d.value > 1:
            ctx.set_die(g, i, value=d.value - 1)
            text = f"{WHO[g]} lowers a {d.value}{where} to {d.value - 1}"
        else:
            ctx.set_die(g, i, place="spent", seq=False)
            text = f"{WHO[g]} has only 1s Unspent and moves a 1{where} to its Spent Dice area"
        ctx.note(f"Collect Tribute: {text}{why}.")
        ctx.update(tribute=t.model_copy(update={"waiting": t.waiting[1:], "collected": t.collected + 1}))

    def _apply_tribute(self, ctx: _Ctx, f: str, a: Any) -> None:
        t = ctx.s.tribute
        dice = ctx.f(f).dice
        if t.waiting:
            legal = self._choices_text(ctx.s, f, "lower")
            if isinstance(a, Pass):
                self._lower(ctx, f, self.lower_default(ctx.s, f), " (passed)")
            elif not isinstance(a, Lower) or not (0 <= a.die < len(dice) and dice[a.die].place == "unspent"):
                raise IllegalActionError(
                    f"Collect Tribute: lower one of your Unspent dice by 1 pip: {legal}; or pass."
                )
            elif dice[a.die].value == 1 and any(d.place == "unspent" and d.value > 1 for d in dice):
                raise IllegalActionError(
                    f"Collect Tribute: a 1 cannot be lowered while you have a higher Unspent die: {legal}."
                )
            else:
                self._lower(ctx, f, a.die)
            self._tribute_next(ctx)
            return
        if isinstance(a, Done):
            self._tribute_finish(ctx, " (stopped)")
            return
        legal = self._choices_text(ctx.s, f, "raise")
        if not isinstance(a, Raise) or not (0 <= a.die < len(dice) and dice[a.die].place == "unspent"):
            raise IllegalActionError(
                f"Collect Tribute: raise one of your Unspent dice by 1 pip: {legal}; or done."
            )
        if dice[a.die].value >= 6:
            raise IllegalActionError(f"Collect Tribute: no die goes above 6; raise one of: {legal}; or done.")
        ctx.set_die(f, a.die, value=dice[a.die].value + 1)
        ctx.update(tribute=t.model_copy(update={"raised": t.raised + 1}))
        where = "" if dice[a.die].seq else " (outside its Dice Sequence)"
        ctx.note(
            f"Collect Tribute: {WHO[f]} raises a {dice[a.die].value}{where} to {dice[a.die].value + 1} "
            f"({t.raised + 1} of {count(t.collected, 'pip')})."
        )
        self._tribute_next(ctx)

    def _giving_next(self, ctx: _Ctx) -> None:
        """Give what needs no choice (every Unspent die when they total 4 pips or less; the
        only kind of die left), then finish: the Christians draw 2 Power Cards."""
        while True:
            gv = ctx.s.giving
            need = GIVING_PIPS - gv.given
            dice = ctx.f(gv.giver).dice
            unspent = [i for i, d in enumerate(dice) if d.place == "unspent"]
            if need <= 0 or not unspent:
                break
            if sum(dice[i].value for i in unspent) <= need:
                for i in unspent:
                    self._give(ctx, gv.giver, i)
                break
            choices = self.dice_where(ctx.s, gv.giver, lambda d: True)
            if len(choices) > 1:
                return
            self._give(ctx, gv.giver, choices[0])
        gv = ctx.s.giving
        ctx.update(giving=None)
        who, values = WHO[gv.giver], ", ".join(map(str, gv.values))
        if gv.given >= GIVING_PIPS:
            ctx.note(f"Giving: {who} gives the Christians {count(gv.given, 'pip')} ({values}).")
        elif gv.values:
            ctx.note(f"Giving: {who} has only {count(gv.given, 'pip')} Unspent and gives them all ({values}).")
        else:
            ctx.note(f"Giving: {who} has no Unspent dice to give.")
        self._draw(ctx, "christians", 2, "Giving")
        self._give_to_caesar(ctx, "christians")

    def _give(self, ctx: _Ctx, g: str, i: int) -> None:
        gv = ctx.s.giving
        v = ctx.f(g).dice[i].value
        ctx.set_die(g, i, place="spent", seq=False)
        ctx.update(giving=gv.model_copy(update={"given": gv.given + v, "values": gv.values + (v,)}))

    def _apply_giving(self, ctx: _Ctx, f: str, a: Any) -> None:
        dice = ctx.f(f).dice
        if isinstance(a, Pass):
            i = self.give_default(ctx.s, f)
        elif isinstance(a, Give) and 0 <= a.die < len(dice) and dice[a.die].place == "unspent":
            i = a.die
        else:
            raise IllegalActionError(
                "Giving: give the Christians one of your Unspent dice: "
                f"{self._choices_text(ctx.s, f, 'give')}; or pass."
            )
        self._give(ctx, f, i)
        self._giving_next(ctx)

    def _recruit(self, ctx: _Ctx, f: str, placements: tuple[tuple[str, int], ...], units: int) -> None:
        """Recruit Units: up to ``units`` from supply into legal territories (at least 1
        of your units and no Coalition units; the Coalition where it is alone; only
        one start territory with no units on the board). Synagogue adds 1.

        Raises IllegalActionError naming the legal territories."""
        if f == "gray":
            raise IllegalActionError("The Gray Faction cannot recruit.")
        s = ctx.s
        fs = s.factions[f]
        if fs.supply <= 0:
            raise IllegalActionError("Your unit supply is empty: you cannot recruit.")
        spots, only_one = self.recruit_spots(s, f)
        if not spots and only_one:
            raise IllegalActionError(
                "With no units on the board you can only recruit to one of your starting territories ("
                + list_words([self.tname(t) for t in self.data.factions[f].start_territories])
                + "), and every one of them holds a Coalition piece."
            )
        bonus = 1 if self.durable(s, f, "synagogue") else 0
        total = sum(k for _, k in placements)
        if not placements or any(k < 1 for _, k in placements) or total > units + bonus:
            n = min(units + bonus, fs.supply)
            where = sorted(spots, key=self.tname)
            if n >= 2 and len(where) >= 2 and not only_one:
                example = f"{n - 1} {self.tname(where[0])}, 1 {self.tname(where[1])}"
            else:
                example = f"{n} {self.tname(where[0])}" if where else ""
            raise IllegalActionError(
                f"Recruit 1 to {units + bonus} unit{'s' if units + bonus != 1 else ''} with a {units}"
                + (f" (Synagogue adds 1), not {total}" if bonus else f", not {total}")
                + (f"; e.g. recruit {units}: {example}." if example else ".")
            )
        if total > fs.supply:
            raise IllegalActionError(f"Only {count(fs.supply, 'unit')} are left in your supply.")
        if only_one and len({t for t, _ in placements}) > 1:
            raise IllegalActionError(
                "With no units on the board you recruit into one starting territory only."
            )
        grace = False
        for t, _k in placements:
            if t not in spots:
                raise IllegalActionError(
                    f"You cannot recruit in {self.tname(t) if t in self.data.territories else t}; you may recruit in: "
                    + list_words([self.tname(x) for x in spots], 30)
                    + "."
                )
            if f == "christians" and self.units(s, t, "coalition") > 0:
                grace = True
        for t, k in placements:
            ctx.from_supply(t, f, k)
        for t, _ in placements:
            if self.units(ctx.s, t, f) > UNIT_LIMIT:
                raise IllegalActionError(
                    f"At most {UNIT_LIMIT} {self.fname(f)} units may be in {self.tname(t)}."
                )
        if grace:
            ctx.set_f("christians", grace_now=3)
            ctx.note("Grace: the Christians recruit among Coalition units.")
        ctx.note(
            f"{self.fname(f)} recruited " + ", ".join(f"{k} in {self.tname(t)}" for t, k in placements) + "."
        )

    # ------------------------------------------------------------------ combat

    def _begin_combat(self, ctx: _Ctx, attacker: str, defender: str, territory: str) -> None:
        ctx.update(combat=Combat(territory=territory, attacker=attacker, defender=defender, stage="elder"))
        ctx.note(f"{self.fname(attacker)} attacks {self.fname(defender)} in {self.tname(territory)}.")
        self._ask_elder(ctx)

    def _elder_card(self, s: State, side: str) -> str | None:
        """The Elder card ``side`` may play face up now (RULINGS.md R9), or None."""
        return next((x for x in self._combat_powers(s, side) if self.data.card(x).id == "elder"), None)

    def _could_hold_elder(self, s: State, side: str) -> bool:
        """Whether ``side`` may hold an Elder it could play now, as far as the table can
        tell (RULINGS.md R25): it may play a combat Power Card, holds cards, and an Elder is
        among its hand and deck together (what left them was seen). Its hand is never
        looked at alone, so who is asked says nothing about it."""
        c = s.combat
        if c.elder is not None:
            return False
        holder = self.hand_owner(side)
        if side == c.attacker and (s.second_turn or s.power_played >= s.power_limit):
            return False
        return self._could_hold(s, holder, "elder")

    def _could_hold(self, s: State, holder: str, card_id: str) -> bool:
        """Whether ``holder``'s hand may hold a copy of ``card_id``, as far as the table can
        tell (RULINGS.md R25): the hand holds cards, and a copy is among hand and deck
        together (every card that left them was seen)."""
        f = s.factions[holder]
        if holder == "coalition":
            # its hand holds only salvaged cards, named to the Coalition and the loser alone:
            # any copy still in a hand or deck somewhere may be among them
            hidden = chain.from_iterable(g.hand + g.deck for g in s.factions.values())
            return bool(f.hand) and any(self.data.card(x).id == card_id for x in hidden)
        return bool(f.hand) and any(self.data.card(x).id == card_id for x in f.hand + f.deck)

    def _ask_elder(self, ctx: _Ctx) -> None:
        """Before the secret choice, each side that could hold Elder (attacker first) is
        asked whether to play it face up, holding it or not (R9, R25); with nobody to ask,
        the choice begins."""
        c = ctx.s.combat
        if c.elder is None:
            for side in (c.attacker, c.defender):
                if side not in c.elder_declined and self._could_hold_elder(ctx.s, side):
                    ctx.update(combat=c.model_copy(update={"asking": side, "question": "elder_play"}))
                    return
        ctx.update(combat=c.model_copy(update={"stage": "choose", "asking": None, "question": None}))

    def _combat_powers(self, s: State, side: str) -> list[str]:
        """Combat Power Cards ``side`` may play in this combat: none once Elder is face
        up ("No other Power Cards affect this combat"; RULINGS.md R9)."""
        c = s.combat
        if c.elder is not None:
            return []
        holder = self.hand_owner(side)
        if side == c.attacker and (s.second_turn or s.power_played >= s.power_limit):
            return []
        return [x for x in self.distinct(s.factions[holder].hand) if "combat" in self.data.card(x).phases]

    def _conscript_max(self, s: State, side: str) -> int:
        if side != "rome" or not self.durable(s, "rome", "conscription") or s.combat.elder is not None:
            return 0
        return min(2, sum(s.factions["rome"].captured.values()))

    def _commit_options(self, s: State, side: str) -> list[Commit]:
        out = []
        for card in self.combat_cards(s, side):
            for power in [
                None,
                *[p for p in self._combat_powers(s, side) if self.data.card(p).id != "elder"],
            ]:
                for k in range(self._conscript_max(s, side) + 1):
                    out.append(Commit(card=card, power=power, conscript=k))
        return out

    def _apply_elder_play(self, ctx: _Ctx, side: str, a: Any) -> None:
        """Elder, "Play face up before either Combat card is played" (RULINGS.md R9)."""
        s = ctx.s
        c = s.combat
        if isinstance(a, Pass):
            ctx.update(combat=c.model_copy(update={"elder_declined": c.elder_declined + (side,)}))
            ctx.note(f"{self.fname(side)} does not play Elder.")
            self._ask_elder(ctx)
            return
        if not isinstance(a, Elder) or a.choice != "play":
            raise IllegalActionError(
                "Before the Combat Cards are chosen: play Elder face up (elder), or pass."
            )
        card = self._elder_card(s, side)
        if card is None:
            raise IllegalActionError("You hold no Elder to play face up; pass.")
        holder = self.hand_owner(side)
        hand = list(s.factions[holder].hand)
        hand.remove(card)
        ctx.set_f(holder, hand=tuple(hand))
        if side == c.attacker:
            ctx.update(power_played=ctx.s.power_played + 1)
        line = f"{self.fname(side)} plays Elder face up: no other Power Cards affect this combat"
        ctx.update(
            combat=c.model_copy(
                update={
                    "elder": side,
                    "powers": {side: card},
                    "stage": "choose",
                    "asking": None,
                    "question": None,
                    "lines": (line,),
                }
            )
        )
        ctx.note(line + ".")

    def _apply_commit(self, ctx: _Ctx, side: str, a: Any) -> None:
        s = ctx.s
        cards = self.combat_cards(s, side)
        passed = isinstance(a, Pass)
        if passed:
            # no choice in time: the first unused card of the deck, no Power Card (RULINGS.md R9)
            a = Commit(card=cards[0])
        if not isinstance(a, Commit):
            raise IllegalActionError("Choose your Combat Card in secret: commit <card> [with <Power Card>].")
        if a.card not in cards:
            raise IllegalActionError(
                "Choose an unused Combat Card: " + list_words([self.data.combat[c].name for c in cards]) + "."
            )
        if a.power is not None and s.combat.elder is not None:
            raise IllegalActionError(
                "Elder is face up: no other Power Card may be played in this combat; commit <card> alone."
            )
        powers = [p for p in self._combat_powers(s, side) if self.data.card(p).id != "elder"]
        if a.power is not None and a.power not in powers:
            if self.data.card(a.power).id == "elder":
                raise IllegalActionError(
                    "Elder is played face up before the Combat Cards are chosen, not with a Combat Card."
                )
            raise IllegalActionError(
                "Combat Power Cards you may play: "
                + (list_words([self.card_name(p) for p in powers]) if powers else "none")
                + "."
            )
        if not 0 <= a.conscript <= self._conscript_max(s, side):
            raise IllegalActionError(f"Conscription adds 0 to {self._conscript_max(s, side)} captured units.")
        c = s.combat
        choices = {**c.choices, side: a}
        ctx.update(combat=c.model_copy(update={"choices": choices}))
        if passed:
            ctx.note(f"No choice made: {self.fname(side)} plays {self.data.combat[a.card].name}.")
        else:
            ctx.note(f"{self.fname(side)} chose a Combat Card face down.")
        if len(choices) == 2:
            self._resolve_combat(ctx)

    def lowest_wins(self, a: str, b: str) -> bool:
        """Resolving Combat: the lowest value wins when Romans or Jews (or the Gray)
        fight Christians; otherwise the highest."""
        return "christians" in (a, b) and ({a, b} - {"christians"}) <= {"rome", "jews", "gray"}

    def combat_value(
        self, s: State, territory: str, side: str, other: str, number: int, rage: bool = True
    ) -> int:
        """Combat Value = # Units + # on Combat Card + Rage (Coalition only), less the
        Christian units when the Coalition fights Rome or the Jews (Modifiers; 2-Player
        Rules 4). Card effects are applied by the caller."""
        v = self.side_units(s, territory, side) + number
        if side == "coalition":
            if rage:
                v += s.factions["coalition"].rage
            if other in ("rome", "jews", "gray") and not (
                s.players == 2 and self.same_player(s, "coalition", "christians")
            ):
                v -= self.units(s, territory, "christians")
        return v

    def _leader(self, c: Combat, values: dict[str, int]) -> str:
        """The side winning on ``values`` (ties to the defender)."""
        att, dfn = c.attacker, c.defender
        if self.lowest_wins(att, dfn):
            return att if values[att] < values[dfn] else dfn
        return att if values[att] > values[dfn] else dfn

    FACE_DOWN = frozenset({"pharaohs-fate", "guardian-angel"})

    def _resolve_combat(self, ctx: _Ctx) -> None:
        """Reveal, apply the card effects (a cancelling card first, else the attacker's
        first), total the Combat Values and find who is winning (ties to the defender);
        then the decisions after the reveal (Elder, Pharaoh's Fate, Grace, Crucify) and
        the outcome (Initiate Combat; RULINGS.md R9, R16)."""
        s = ctx.s
        c = s.combat
        t = c.territory
        att, dfn = c.attacker, c.defender
        ca, cd = c.choices[att], c.choices[dfn]
        card = {att: self.data.combat[ca.card], dfn: self.data.combat[cd.card]}
        power = {att: ca.power, dfn: cd.power}
        low = self.lowest_wins(att, dfn)

        def shown(p: str | None) -> str:
            if not p:
                return ""
            if self.data.card(p).id in self.FACE_DOWN:
                return " and keeps a Power Card face down"
            return f" with {self.card_name(p)}"

        lines = list(c.lines) + [
            f"{self.fname(att)} reveals {card[att].name} ({card[att].number})" + shown(ca.power),
            f"{self.fname(dfn)} reveals {card[dfn].name} ({card[dfn].number})" + shown(cd.power),
        ]
        # Power Cards leave the hand now (some return later)
        for side in (att, dfn):
            if power[side]:
                holder = self.hand_owner(side)
                hand = list(ctx.f(holder).hand)
                hand.remove(power[side])
                ctx.set_f(holder, hand=tuple(hand))
                if side == att:
                    ctx.update(power_played=ctx.s.power_played + 1)
        # Conscription
        for side in (att, dfn):
            k = c.choices[side].conscript
            if k:
                self._release_captured(ctx, k)
                lines.append(f"Conscription adds {k} captured units")
        # card effects
        cancel = {x: card[x].effect == "cancel" for x in (att, dfn)}
        active = {
            att: not cancel[dfn] and card[att].effect not in ("none", "cancel"),
            dfn: not cancel[att] and card[dfn].effect not in ("none", "cancel"),
        }
        mod = {att: 0, dfn: 0}
        early_winner: str | None = None
        for side in (att, dfn):
            other = dfn if side == att else att
            sign = -1 if low else 1
            e = card[side]
            if not active[side]:
                if cancel[other] and card[side].effect not in ("none", "cancel"):
                    lines.append(f"{card[other].name} cancels {e.name}")
                continue
            if e.effect == "edge":
                mod[side] += sign * e.n
            elif e.effect == "hinder":
                mod[other] -= sign * e.n
            elif e.effect == "reinforce":
                k = min(e.n, ctx.f(side).supply, self.room(ctx.s, t, side))
                ctx.from_supply(t, side, k)
                lines.append(f"{e.name}: {count(k, self.fname(side) + ' unit')} join" + ("s" if k == 1 else ""))
            elif e.effect == "kill":
                k = min(e.n, self.units(ctx.s, t, other))
                ctx.to_supply(t, other, k)
                lines.append(f"{e.name}: {k} {self.fname(other)} unit{'s' if k != 1 else ''} removed")
                if self.units(ctx.s, t, other) == 0 and early_winner is None:
                    early_winner = side
        for side in (att, dfn):
            p = power[side]
            if p and self.data.card(p).id in ("praetorian-guard", "hasmonean-valour", "martyrdom"):
                mod[side] += -2 if low else 2
                lines.append(
                    f"{self.card_name(p)}: {self.fname(side)} "
                    + ("-2 toward winning (lowest wins)" if low else "+2 toward winning")
                )
        val = {
            side: self.combat_value(ctx.s, t, side, dfn if side == att else att, card[side].number)
            + c.choices[side].conscript
            + mod[side]
            for side in (att, dfn)
        }
        winner = early_winner if early_winner is not None else self._leader(c, val)
        if early_winner is not None:
            lines.append(
                f"the last {self.fname(dfn if winner == att else att)} unit is gone before the combat is resolved"
            )
        lines.append(
            f"Combat Values: {self.fname(att)} {val[att]}, {self.fname(dfn)} {val[dfn]}"
            + (" (lowest wins)" if low else "")
        )
        ctx.update(
            combat=c.model_copy(
                update={
                    "stage": "decide",
                    "powers": {**c.powers, **{x: p for x, p in power.items() if p}},
                    "values": val,
                    "winner": winner,
                    "early": early_winner is not None,
                    "lines": tuple(lines),
                }
            )
        )
        self._advance_combat(ctx, "elder")
        if ctx.s.combat is not None and ctx.s.combat.stage == "decide":
            # a decision is pending: everyone sees the reveal now (else the result tells it)
            ctx.note(
                f"Combat in {self.tname(t)}: "
                + "; ".join(lines[len(c.lines) :])
                + f"; {self.fname(winner)} is winning"
                + (" (a tie goes to the defender)." if val[att] == val[dfn] and early_winner is None else ".")
            )

    COMBAT_STEPS = ("elder", "pharaoh", "grace", "angel", "crucify", "outcome")

    def _ask(self, ctx: _Ctx, side: str, question: str) -> None:
        c = ctx.s.combat
        ctx.update(combat=c.model_copy(update={"asking": side, "question": question}))

    def _line(self, ctx: _Ctx, text: str) -> None:
        c = ctx.s.combat
        ctx.update(combat=c.model_copy(update={"lines": c.lines + (text,)}))

    def _loser(self, c: Combat) -> str:
        return c.defender if c.winner == c.attacker else c.attacker

    def _drop_power(self, ctx: _Ctx, side: str) -> None:
        c = ctx.s.combat
        ctx.update(combat=c.model_copy(update={"powers": {x: p for x, p in c.powers.items() if x != side}}))

    def _rome_losses(self, s: State) -> int:
        """The Roman units the outcome would remove (0 unless Rome loses)."""
        c = s.combat
        if self._loser(c) != "rome" or c.early or c.no_losses:
            return 0
        n = self.units(s, c.territory, "rome")
        if c.winner == "christians":
            return min(abs(c.values[c.attacker] - c.values[c.defender]), n)
        return n

    def crucify_options(self, s: State) -> list[str]:
        """Factions whose captured unit Crucify may return now (RULINGS.md R16)."""
        c = s.combat
        if (
            c.elder is not None
            or "rome" not in (c.attacker, c.defender)
            or not self.durable(s, "rome", "crucify")
            or not self._rome_losses(s)
        ):
            return []
        return [f for f, k in sorted(s.factions["rome"].captured.items()) if k > 0]

    def _face_down(self, c: Combat, card_id: str) -> list[tuple[str, str]]:
        """(side, card) for each combat side holding a Power Card of ``card_id`` face down."""
        return [
            (side, p)
            for side in (c.attacker, c.defender)
            if (p := c.powers.get(side)) and self.data.card(p).id == card_id
        ]

    def _advance_combat(self, ctx: _Ctx, step: str) -> None:
        """Run the steps after the reveal from ``step`` on: ask the one faction whose
        decision is due (only when it has a real choice), or do what needs no choice;
        the outcome once no decision is left (RULINGS.md R9, R16)."""
        for st in self.COMBAT_STEPS[self.COMBAT_STEPS.index(step) :]:
            c = ctx.s.combat
            if st == "elder" and c.elder is not None and not c.early:
                self._ask(ctx, c.elder, "elder")
                return
            if st == "pharaoh":
                for side, p in self._face_down(c, "pharaohs-fate"):
                    if side != c.winner and not c.early:
                        self._ask(ctx, side, "pharaoh")
                        return
                    # winning (or decided before the values count): it returns unrevealed
                    self._return_card(ctx, side, p, attacker=side == c.attacker)
                    self._drop_power(ctx, side)
                    self._line(ctx, f"the {self.fname(side)} face-down Power Card returns to its hand")
            c = ctx.s.combat
            loser = self._loser(c)
            if (
                st == "grace"
                and loser in ("christians", "coalition")
                and not c.early
                and c.elder is None
                and self.grace_free(ctx.s, 2, loser)
            ):
                self._ask(ctx, loser, "grace")
                return
            if st == "angel":
                for side, p in self._face_down(c, "guardian-angel"):
                    self._drop_power(ctx, side)
                    if side == self._loser(c):
                        self._to_discard(ctx, p)
                        c = ctx.s.combat
                        ctx.update(combat=c.model_copy(update={"no_losses": True}))
                        self._line(
                            ctx,
                            f"Guardian Angel is revealed: the {self.fname(side)} faction suffers no losses",
                        )
                    else:
                        self._return_card(ctx, side, p, attacker=side == c.attacker)
                        self._line(ctx, f"the {self.fname(side)} face-down Power Card returns to its hand")
                    c = ctx.s.combat
            if st == "crucify" and self.crucify_options(ctx.s):
                self._ask(ctx, "rome", "crucify")
                return
            if st == "outcome":
                c = ctx.s.combat
                ctx.update(combat=c.model_copy(update={"asking": None, "question": None}))
                self._finish_combat(ctx)

    def decide_options(self, s: State) -> list[Any]:
        """The answers to the pending combat decision (RULINGS.md R9, R16)."""
        q = s.combat.question
        if q == "elder_play":
            return [Elder(choice="play"), Pass()] if self._elder_card(s, s.combat.asking) else [Pass()]
        if q == "elder":
            return [Elder(choice="mine"), Elder(choice="theirs"), Elder(choice="none"), Pass()]
        if q == "pharaoh":
            return [Reveal(), Keep(), Pass()]
        if q == "grace":
            return [UseGrace(), Pass()]
        if q == "crucify":
            return [Crucify(faction=f) for f in self.crucify_options(s)] + [Pass()]
        return []

    def _apply_decide(self, ctx: _Ctx, side: str, a: Any) -> None:
        """Answer the pending combat decision; Pass takes the option that changes
        nothing (Elder: neither; Pharaoh's Fate: keep; Grace, Crucify: not used)."""
        s = ctx.s
        c = s.combat
        q = c.question
        if q == "elder_play":
            self._apply_elder_play(ctx, side, a)
            return
        legal = self.decide_options(s)
        if a not in legal:
            raise IllegalActionError(self._decide_help(s))
        other = c.defender if side == c.attacker else c.attacker
        if q == "elder":
            choice = a.choice if isinstance(a, Elder) else "none"
            values = dict(c.values)
            if choice == "none":
                self._line(ctx, f"Elder: the {self.fname(side)} faction changes neither Combat Value")
            else:
                who = side if choice == "mine" else other
                values[who] -= 1
                winner = self._leader(c, values)
                self._line(
                    ctx,
                    f"Elder: -1 to the {self.fname(who)} Combat Value (Combat Values: "
                    f"{self.fname(c.attacker)} {values[c.attacker]}, {self.fname(c.defender)} {values[c.defender]})",
                )
                c = ctx.s.combat
                ctx.update(combat=c.model_copy(update={"values": values, "winner": winner}))
            ctx.note(ctx.s.combat.lines[-1] + ".")
            self._advance_combat(ctx, "pharaoh")
            return
        if q == "pharaoh":
            p = c.powers[side]
            self._drop_power(ctx, side)
            if isinstance(a, Reveal):
                self._to_discard(ctx, p)
                c = ctx.s.combat
                ctx.update(combat=c.model_copy(update={"winner": self._loser(c)}))
                self._line(ctx, "Pharaoh's Fate is revealed: the result is reversed")
            else:
                self._return_card(ctx, side, p, attacker=side == c.attacker)
                self._line(ctx, f"the {self.fname(side)} face-down Power Card returns to its hand")
            ctx.note(ctx.s.combat.lines[-1][0].upper() + ctx.s.combat.lines[-1][1:] + ".")
            self._advance_combat(ctx, "pharaoh")
            return
        if q == "grace":
            if isinstance(a, UseGrace):
                ctx.set_f(side, grace_now=2)
                ctx.update(combat=c.model_copy(update={"winner": side}))
                verb = "reverse" if side == "christians" else "reverses"
                self._line(ctx, f"Grace: {self.who_plural(side)} {verb} the combat result")
            else:
                verb = "do" if side == "christians" else "does"
                self._line(ctx, f"{self.who_plural(side)} {verb} not use Grace")
            ctx.note(ctx.s.combat.lines[-1][0].upper() + ctx.s.combat.lines[-1][1:] + ".")
            self._advance_combat(ctx, "angel")
            return
        # crucify
        if isinstance(a, Crucify):
            ctx.update(combat=c.model_copy(update={"crucify": a.faction}))
        else:
            self._line(ctx, "Rome does not use Crucify")
        self._advance_combat(ctx, "outcome")

    def _decide_help(self, s: State) -> str:
        """What the pending combat decision accepts, in notation."""
        c = s.combat
        q = c.question
        if q == "elder":
            return "Elder: -1 to your own Combat Value (elder mine), to the other side's (elder theirs), or neither (elder none)."
        if q == "pharaoh":
            return "Pharaoh's Fate: reveal it to reverse the combat result (reveal), or return it to your hand (keep)."
        if q == "grace":
            return "Grace: reverse the combat result (grace), or pass."
        if q == "crucify":
            names = list_words([self.fname(f) for f in self.crucify_options(s)])
            return f"Crucify: return 1 captured unit instead of 1 Roman unit (crucify <faction>: {names}), or pass."
        return "Before the Combat Cards are chosen: play Elder face up (elder), or pass."

    def _decide_prompt(self, s: State) -> str:
        c = s.combat
        q = c.question
        if q == "elder_play":
            other = c.defender if c.asking == c.attacker else c.attacker
            return (
                f"Combat in {self.tname(c.territory)}: {self.fname(c.asking)} against {self.fname(other)} — "
                "play Elder face up before the Combat Cards are chosen (no other Power Cards affect this "
                "combat; after the reveal you may -1 either Combat Value): elder, or pass."
            )
        status = self.combat_status(s)
        if q == "elder":
            ask = "Elder: -1 to your own Combat Value (elder mine), to the other side's (elder theirs), or neither (elder none)."
        elif q == "pharaoh":
            ask = (
                f"The {self.fname(c.asking)} face-down Power Card: reveal it (reveal), or take it back into "
                "the hand unrevealed (keep)."
            )  # R25: the public line never names a face-down card
        elif q == "grace":
            ask = "Grace: reverse the combat result (grace), or pass."
        else:
            cap = s.factions["rome"].captured
            ask = (
                f"Crucify: Rome loses {count(self._rome_losses(s), 'unit')} — return 1 captured unit instead of 1 Roman "
                "unit (crucify <faction>: "
                + ", ".join(f"{self.fname(f)} {cap[f]}" for f in self.crucify_options(s))
                + f"; capture track {s.factions['rome'].capture_track}), or pass."
            )
        return f"{status}. {ask}"

    def combat_status(self, s: State) -> str:
        """The combat so far, for the decision prompts: both cards, the Combat Values and
        who is winning."""
        c = s.combat
        att, dfn = c.attacker, c.defender
        cards = {x: self.data.combat[c.choices[x].card] for x in (att, dfn)}
        return (
            f"Combat in {self.tname(c.territory)}: {self.fname(att)} {cards[att].name} ({cards[att].number}), "
            f"{self.fname(dfn)} {cards[dfn].name} ({cards[dfn].number}); Combat Values "
            f"{self.fname(att)} {c.values[att]}, {self.fname(dfn)} {c.values[dfn]} "
            f"({'lowest' if self.lowest_wins(att, dfn) else 'highest'} wins) — {self.fname(c.winner)} is winning"
        )

    def _finish_combat(self, ctx: _Ctx) -> None:
        """The outcome once no decision is left: captures / returns / conversion, Rage,
        Combat Cards face up, the result, then plunder."""
        c = ctx.s.combat
        t = c.territory
        att, dfn = c.attacker, c.defender
        for side in (att, dfn):
            p = c.powers.get(side)
            if p:
                self._to_discard(ctx, p)
        lines = list(c.lines)
        winner = c.winner
        loser = self._loser(c)
        val = c.values
        if val[att] == val[dfn] and winner == dfn and not c.early:
            lines.append(f"a tie goes to the defender, {self.fname(dfn)}")
        else:
            lines.append(f"{self.fname(winner)} wins")
        diff = abs(val[att] - val[dfn])
        plunder = self._combat_result(ctx, winner, loser, t, diff, c.early or c.no_losses, lines, c.crucify)
        # Combat Cards are discarded face up
        for side in (att, dfn):
            owner = self.hand_owner(side)
            used = ctx.f(owner).combat_used + (c.choices[side].card,)
            if len(used) >= len([x for x in self.data.combat.values() if x.faction == owner]):
                used = ()
            ctx.set_f(owner, combat_used=used)
        result = LastCombat(
            territory=t,
            attacker=att,
            defender=dfn,
            attacker_card=self.data.combat[c.choices[att].card].name,
            defender_card=self.data.combat[c.choices[dfn].card].name,
            attacker_value=val[att],
            defender_value=val[dfn],
            winner=winner,
            text=f"Combat in {self.tname(t)}: " + "; ".join(lines) + ".",
        )
        ctx.update(last_combat=result, combat=None)
        ctx.emit(CombatResolved(result=result))
        self._revolt_check(ctx)
        if self._check_victory(ctx):
            return
        if plunder:
            ctx.update(combat=Combat(territory=t, attacker=att, defender=dfn, choices={}, stage="plunder"))
            if len(self._plunder_options(ctx.s)) == 1:
                # nothing to plunder: no question (RULINGS.md R14)
                ctx.update(combat=None)

    def _combat_result(
        self,
        ctx: _Ctx,
        winner: str,
        loser: str,
        t: str,
        diff: int,
        no_losses: bool,
        lines: list[str],
        crucify: str | None = None,
    ) -> bool:
        """Apply the outcome; returns whether the Coalition may now plunder."""
        n = self.units(ctx.s, t, loser)
        if loser == "coalition":
            rage = min(RAGE_MAX, ctx.f("coalition").rage + 1)
            ctx.set_f("coalition", rage=rage)
            lines.append(f"Coalition Rage rises to {rage}")
        if no_losses or n == 0:
            losses = 0
        elif winner == "rome":
            losses = n
            if losses:
                ctx.add_units(t, loser, -losses)
                cap = dict(ctx.f("rome").captured)
                cap[loser] = cap.get(loser, 0) + losses
                ctx.set_f("rome", captured=cap, capture_track=ctx.f("rome").capture_track + losses)
                lines.append(
                    f"Rome captures {losses} {self.fname(loser)} unit{'s' if losses != 1 else ''} "
                    f"(capture track {ctx.f('rome').capture_track})"
                )
        elif winner == "christians":
            losses = self._crucify(ctx, loser, min(diff, n), crucify, lines)
            if losses:
                ctx.to_supply(t, loser, losses)
                removed = f"{losses} {self.fname(loser)} unit{' is' if losses == 1 else 's are'} removed"
                if self.convert_sources(ctx.s, t):
                    ctx.update(conversion=Conversion(territory=t, count=losses))
                    lines.append(f"{removed}; the Christians may convert up to {losses}")
                else:
                    lines.append(f"{removed}; no Christian unit is left to convert them")
        else:
            losses = self._crucify(ctx, loser, n, crucify, lines)
            ctx.to_supply(t, loser, losses)
            lines.append(f"{losses} {self.fname(loser)} unit{' returns' if losses == 1 else 's return'} to supply")
        if winner == "coalition":
            co = ctx.f("coalition")
            rage = max(RAGE_MIN, co.rage - 1)
            ctx.set_f("coalition", rage=rage)
            lines.append(f"Coalition Rage falls to {rage}")
            return rage > RAGE_MIN and self.units(ctx.s, t, "coalition") > 0
        return False

    def _crucify(self, ctx: _Ctx, loser: str, n: int, crucify: str | None, lines: list[str]) -> int:
        """Crucify, as Rome chose: 1 captured unit of ``crucify`` returns to its supply
        instead of 1 Roman unit; returns the Roman units still lost (RULINGS.md R16)."""
        if loser != "rome" or crucify is None or n <= 0:
            return n
        self._release_captured(ctx, 1, crucify)
        lines.append(
            f"Crucify: a captured {self.fname(crucify)} unit returns to its supply instead of a Roman unit "
            f"(capture track {ctx.f('rome').capture_track})"
        )
        return n - 1

    def _release_captured(self, ctx: _Ctx, k: int, who: str | None = None) -> None:
        """Return ``k`` captured units (of ``who``, else the largest group first) to their
        supplies; the capture track falls by ``k`` (Conscription, Crucify)."""
        for _ in range(k):
            cap = dict(ctx.f("rome").captured)
            if not any(cap.values()):
                return
            f = who if who is not None else max(sorted(cap), key=lambda x: cap[x])
            cap[f] -= 1
            if not cap[f]:
                del cap[f]
            ctx.set_f("rome", captured=cap, capture_track=max(0, ctx.f("rome").capture_track - 1))
            ctx.set_f(f, supply=ctx.f(f).supply + 1)

    def _convert_in(self, ctx: _Ctx, t: str, k: int) -> int:
        """Holy Spirit's conversion (an authored card: "put 1 Christian unit from supply in
        its place"): Christian units from supply, then from the Roman Captured Unit Area,
        replace the ``k`` removed units; the tracker advances; units over the 6-unit limit
        move to adjacent territories. A combat's conversion is the Christians' choice
        instead (``_apply_conversion``, RULINGS.md R10). Returns the units converted."""
        from_supply = min(k, ctx.f("christians").supply)
        ctx.from_supply(t, "christians", from_supply)
        done = from_supply
        rest = k - from_supply
        if rest and "rome" in ctx.s.factions:
            cap = dict(ctx.f("rome").captured)
            take = min(rest, cap.get("christians", 0))
            if take:
                cap["christians"] -= take
                if not cap["christians"]:
                    del cap["christians"]
                ctx.set_f("rome", captured=cap)
                ctx.add_units(t, "christians", take)
                done += take
        # the tracker stops at 18, the special victory's count (RULINGS.md R24)
        ctx.set_f("christians", converted=min(CONVERT_WIN, ctx.f("christians").converted + done))
        self._overflow(ctx, t, "christians")
        return done

    # ------------------------------------------------------------------ conversion (R10)

    def _default_sources(self, s: State, limit: int | None = None) -> tuple[tuple[str, int], ...]:
        """Up to ``count`` units: supply first, then the Captured Unit Area, then the largest
        stacks elsewhere."""
        c = s.conversion
        left = c.count if limit is None else limit
        have = self.convert_sources(s, c.territory)
        order = [x for x in ("supply", "captured") if x in have]
        order += sorted((x for x in have if x not in ("supply", "captured")), key=lambda x: (-have[x], x))
        out = []
        for x in order:
            k = min(left, have[x])
            if k > 0:
                out.append((x, k))
                left -= k
        return tuple(out)

    def _default_spread(self, s: State) -> tuple[tuple[str, int], ...]:
        left, out = s.conversion.excess, []
        for u, room in self.spread_room(s).items():
            k = min(left, room)
            if k > 0:
                out.append((u, k))
                left -= k
        return tuple(out)

    def conversion_options(self, s: State) -> list[Any]:
        """The conversion choices offered (the notation accepts any legal one): convert,
        as many as possible from the usual sources, from each source alone, or fewer;
        then, over the 6-unit limit, where the excess goes (RULINGS.md R10)."""
        c = s.conversion
        if c.stage == "spread":
            out: list[Any] = [Spread(moves=self._default_spread(s))]
            for u, room in self.spread_room(s).items():
                if room >= c.excess and Spread(moves=((u, c.excess),)) not in out:
                    out.append(Spread(moves=((u, c.excess),)))
            return out
        out = [Convert(sources=self._default_sources(s))]
        for x, k in self.convert_sources(s, c.territory).items():
            a = Convert(sources=((x, min(k, c.count)),))
            if a not in out:
                out.append(a)
        for n in range(c.count - 1, 0, -1):
            a = Convert(sources=self._default_sources(s, n))
            if a not in out:
                out.append(a)
        return out + [Pass()]

    def _conversion_prompt(self, s: State) -> Prompt:
        c = s.conversion
        own = s.active == "christians"
        if c.stage == "spread":
            return Prompt(
                kind="turn" if own else "respond",
                text=f"Conversion: {c.excess} Christian unit{'s' if c.excess != 1 else ''} over the 6-unit limit "
                f"in {self.tname(c.territory)} move to adjacent territories (free move): spread <units> "
                "<territory>, ...",
            )
        have = self.convert_sources(s, c.territory)
        where = [f"{k} {self.source_name(x)}" for x, k in have.items()]
        return Prompt(
            kind="turn" if own else "respond",
            text=f"Conversion in {self.tname(c.territory)}: replace up to {c.count} removed unit"
            f"{'s' if c.count != 1 else ''} with Christian units (convert <units> <source>, ...; sources: "
            + ", ".join(where)
            + "), or pass.",
        )

    def _apply_conversion(self, ctx: _Ctx, a: Any) -> None:
        c = ctx.s.conversion
        if c.stage == "spread":
            self._apply_spread(ctx, a)
            return
        t = c.territory
        have = self.convert_sources(ctx.s, t)
        example = ", ".join(f"{k} {self.source_name(x)}" for x, k in self._default_sources(ctx.s))
        if isinstance(a, Pass):
            sources: tuple[tuple[str, int], ...] = ()
        elif isinstance(a, Convert):
            sources = a.sources
        else:
            raise IllegalActionError(f"Conversion: convert {example}, fewer, or pass.")
        total = sum(k for _, k in sources)
        if any(k < 1 for _, k in sources) or len({x for x, _ in sources}) != len(sources):
            raise IllegalActionError(f"Conversion: name each source once with a number of units: convert {example}.")
        if total > c.count:
            raise IllegalActionError(
                f"Conversion: at most {c.count} unit{'s' if c.count != 1 else ''} were removed, so at most "
                f"{c.count} convert (you named {total})."
            )
        for x, k in sources:
            if k > have.get(x, 0):
                if x == t:
                    why = f"the units in {self.tname(t)} are the ones converting"
                else:
                    why = f"{self.source_name(x)} has {have.get(x, 0)}"
                raise IllegalActionError(
                    f"Conversion: {k} from {self.source_name(x)} is not possible ({why}); sources: "
                    + ", ".join(f"{n} {self.source_name(y)}" for y, n in have.items())
                    + "."
                )
        for x, k in sources:
            if x == "supply":
                ctx.from_supply(t, "christians", k)
            elif x == "captured":
                cap = dict(ctx.f("rome").captured)
                cap["christians"] -= k
                if not cap["christians"]:
                    del cap["christians"]
                ctx.set_f("rome", captured=cap)  # the capture track stays (Resolving Combat)
                ctx.add_units(t, "christians", k)
            else:
                ctx.move_units(x, t, "christians", k)
        # the tracker stops at 18, the special victory's count (RULINGS.md R24)
        ctx.set_f("christians", converted=min(CONVERT_WIN, ctx.f("christians").converted + total))
        ctx.note(
            f"Conversion in {self.tname(t)}: {total} unit{'s' if total != 1 else ''} converted"
            + (" (" + ", ".join(f"{k} from {self.source_name(x)}" for x, k in sources) + ")" if sources else "")
            + f"; conversion tracker {ctx.f('christians').converted}."
        )
        excess = self.units(ctx.s, t, "christians") - UNIT_LIMIT
        if excess <= 0:
            ctx.update(conversion=None)
            return
        ctx.update(conversion=c.model_copy(update={"stage": "spread", "excess": excess}))
        room = self.spread_room(ctx.s)
        if sum(room.values()) <= excess or len(room) <= 1:
            self._apply_spread(ctx, Spread(moves=self._default_spread(ctx.s)))  # no choice left

    def _apply_spread(self, ctx: _Ctx, a: Any) -> None:
        """Move the excess over the 6-unit limit to adjacent territories with room; what no
        adjacent territory has room for returns to supply (RULINGS.md R10)."""
        c = ctx.s.conversion
        t = c.territory
        room = self.spread_room(ctx.s)
        need = min(c.excess, sum(room.values()))
        moves = self._default_spread(ctx.s) if isinstance(a, Pass) else a.moves if isinstance(a, Spread) else None
        example = ", ".join(f"{k} {self.tname(u)}" for u, k in self._default_spread(ctx.s))
        if moves is None:
            raise IllegalActionError(f"Move the {c.excess} Christian units over the limit: spread {example}.")
        if any(k < 1 for _, k in moves) or len({u for u, _ in moves}) != len(moves) or sum(k for _, k in moves) != need:
            raise IllegalActionError(
                f"Conversion: move {need} Christian unit{'s' if need != 1 else ''} out of {self.tname(t)} "
                f"to adjacent territories, each named once: spread {example}."
            )
        for u, k in moves:
            if k > room.get(u, 0):
                raise IllegalActionError(
                    f"Conversion: {self.tname(u) if u in self.data.territories else u} "
                    + ("is not adjacent to " + self.tname(t) if u not in self.data.adjacent[t] else f"has room for {room[u]}")
                    + "; adjacent with room: "
                    + ", ".join(f"{self.tname(x)} ({n})" for x, n in room.items())
                    + "."
                )
        for u, k in moves:
            ctx.move_units(t, u, "christians", k)
        left = self.units(ctx.s, t, "christians") - UNIT_LIMIT
        ctx.to_supply(t, "christians", left)
        ctx.update(conversion=None)
        ctx.note(
            f"Conversion: the Christian units over the limit in {self.tname(t)} move to "
            + (", ".join(f"{self.tname(u)} ({k})" for u, k in moves) or "nowhere")
            + (f"; {left} with no room return to supply" if left > 0 else "")
            + "."
        )

    def _overflow(self, ctx: _Ctx, t: str, f: str) -> None:
        excess = self.units(ctx.s, t, f) - UNIT_LIMIT
        for u in self.data.adjacent[t]:
            if excess <= 0:
                break
            k = min(excess, self.room(ctx.s, u, f))
            if k > 0:
                ctx.add_units(t, f, -k)
                ctx.add_units(u, f, k)
                excess -= k
        if excess > 0:
            ctx.to_supply(t, f, excess)

    def _to_discard(self, ctx: _Ctx, card: str) -> None:
        owner = self.data.card(card).faction
        ctx.set_f(owner, discard=ctx.f(owner).discard + (card,))

    def _return_card(self, ctx: _Ctx, side: str, card: str, attacker: bool) -> None:
        holder = self.hand_owner(side)
        ctx.set_f(holder, hand=ctx.f(holder).hand + (card,))
        if attacker:
            ctx.update(power_played=max(0, ctx.s.power_played - 1))

    def _revolt_check(self, ctx: _Ctx) -> None:
        """Each revolt that has lost all of its own units ends on its own: its card is
        discarded face up into the Jewish discard pile and its yellow dice return to the
        Extra Dice Pool; the other revolts go on (RULINGS.md R13: "If a revolt loses all
        of its units, discard the revolt card face up into the Jewish Power Card Discard
        pile. Return the yellow die to the extra dice pool.")."""
        keep, back = [], 0
        for r in ctx.s.revolts:
            if r.on_board > 0:
                keep.append(r)
                continue
            back += len(r.dice)
            if not r.discarded:
                self._to_discard(ctx, r.card)
                ctx.set_f("jews", durable=tuple(x for x in ctx.f("jews").durable if x != r.card))
                ctx.note(
                    f"{self.card_name(r.card)} is crushed: the card is discarded and its yellow "
                    + ("die returns" if len(r.dice) == 1 else "dice return")
                    + " to the Extra Dice Pool."
                )
        if len(keep) != len(ctx.s.revolts):
            ctx.update(revolts=tuple(keep), yellow=ctx.s.yellow + back)

    # ------------------------------------------------------------------ plunder

    def _plunder_options(self, s: State) -> list[Plunder]:
        c = s.combat
        t = c.territory
        loser = c.defender if c.attacker == "coalition" else c.attacker
        out = [Plunder(option="none")]
        n = self.units(s, t, "coalition")
        for u in self.data.adjacent[t]:
            for k in range(1, min(n, self.room(s, u, "coalition")) + 1):
                out.append(Plunder(option="rampage", territory=u, count=k))
        holder = self.hand_owner(loser)
        if holder != "coalition" and holder in s.factions:
            out += self._salvage_options(s, holder)
            if s.factions[holder].hand:
                out.append(Plunder(option="exploit"))
            for d in s.factions[holder].durable:
                out.append(Plunder(option="exploit", card=d))
        return out

    def _salvage_options(self, s: State, holder: str) -> list[Plunder]:
        """Salvage: "Randomly draw 1 Power Card from the defeated faction's hand ... If they
        do not have any Power Cards in their hand, you may select any Power Card from their
        discard pile. If there are no cards in their discard pile, draw two Power Cards from
        the top of their deck, select one to keep"."""
        source = self.salvage_source(s, holder)
        if source == "discard":
            return [Plunder(option="salvage", card=c) for c in self.salvage_pile(s, holder)]
        return [Plunder(option="salvage")] if source is not None else []

    def _salvage_pick_options(self, s: State) -> list[Plunder]:
        return [
            Plunder(option="salvage", card=c)
            for c in self.distinct(s.combat.salvage_drawn)
            if not self.data.card(c).no_steal
        ]

    def _plunder_refusal(self, s: State, a: Any) -> str:
        """Why a plunder is not possible now, and what is (RULINGS.md R14)."""
        c = s.combat
        loser = c.defender if c.attacker == "coalition" else c.attacker
        holder = self.hand_owner(loser)
        name = self.fname(holder)
        legal = self._plunder_options(s)
        opts = []
        if any(o.option == "rampage" for o in legal):
            opts.append("rampage <count> to <territory>")
        if Plunder(option="salvage") in legal:
            opts.append("salvage")
        elif any(o.option == "salvage" for o in legal):
            opts.append("salvage <card of the discard pile>")
        if any(o.option == "exploit" for o in legal):
            opts.append("exploit [<Durable card>]")
        possible = "Plunder now: " + ", ".join(opts + ["or no plunder"]) + "."
        if isinstance(a, Plunder) and holder in s.factions and holder != "coalition":
            f = s.factions[holder]
            if a.option == "salvage" and self.salvage_source(s, holder) == "discard":
                return (
                    f"Salvage: the {name} faction has no Power Card in hand, so select a card from its "
                    "discard pile: "
                    + list_words([f"salvage {self.card_name(c)}" for c in self.salvage_pile(s, holder)], 12)
                    + "."
                )
            if a.option == "salvage" and a.card is not None:
                return (
                    f"Salvage: a card is selected only from the discard pile of a faction with no Power "
                    f"Card in hand; the {name} faction has "
                    + (f"{len(f.hand)} in hand, so salvage draws one at random" if f.hand else "an empty discard pile")
                    + ". "
                    + possible
                )
            if a.option == "exploit" and a.card is None and not f.hand:
                durable = ", ".join(f"exploit {self.card_name(d)}" for d in f.durable)
                return (
                    f"Exploit: the {name} faction has no Power Card in hand, so it would discard nothing"
                    + (f"; name a face-up Durable card instead ({durable})." if durable else ". ")
                    + ("" if durable else possible)
                )
            if a.option == "exploit" and a.card is not None and a.card not in f.durable:
                return (
                    f"Exploit: {self.card_name(a.card)} is not a face-up Durable card of the {name} faction. "
                    + possible
                )
            if a.option == "salvage" and self.salvage_source(s, holder) is None:
                return (
                    f"Salvage: the {name} faction has no Power Card in hand, no card the Coalition may "
                    "take in its discard pile, and no deck. " + possible
                )
        return possible

    def _apply_plunder(self, ctx: _Ctx, a: Any) -> None:
        """Plunder (one of rampage, salvage, exploit) for 1 more Rage, or none."""
        s = ctx.s
        c = s.combat
        if not isinstance(a, Plunder) or a not in self._plunder_options(s):
            raise IllegalActionError(self._plunder_refusal(s, a))
        ctx.update(combat=None)
        if a.option == "none":
            ctx.note("The Coalition does not plunder.")
            return
        # "Plunder reduces Rage by 1 additional point."
        rage = max(RAGE_MIN, ctx.f("coalition").rage - 1)
        ctx.set_f("coalition", rage=rage)
        cost = f"Coalition Rage falls to {rage}"
        loser = c.defender if c.attacker == "coalition" else c.attacker
        holder = self.hand_owner(loser)
        if a.option == "rampage":
            ctx.add_units(c.territory, "coalition", -a.count)
            ctx.add_units(a.territory, "coalition", a.count)
            text = (
                f"Rampage! {a.count} Coalition unit{'s sweep' if a.count != 1 else ' sweeps'} "
                f"into {self.tname(a.territory)}"
            )
        elif a.option == "salvage":
            text = self._salvage(ctx, holder, a.card, c)
            if ctx.s.combat is not None:  # two cards drawn: the Coalition selects one
                ctx.update(combat=ctx.s.combat.model_copy(update={"lines": (cost,)}))
                ctx.note(f"{text}; {cost} (plunder costs 1 Rage).")
                return
        else:
            text = self._exploit(ctx, holder, a.card)
        ctx.note(f"{text}; {cost} (plunder costs 1 Rage).")
        last = ctx.s.last_combat
        if last is not None and last.territory == c.territory:
            ctx.update(last_combat=last.model_copy(update={"text": f"{last.text} Plunder: {text}; {cost}."}))

    def _salvage(self, ctx: _Ctx, holder: str, card: str | None, combat: Combat) -> str:
        """Salvage: a random card from the hand (one that may be stolen; none if the hand
        holds only cards that may not be); else the discard pile's card ``card`` the
        Coalition selected; else draw the deck's top two: with two cards that may be
        stolen the Coalition selects one to keep (stage ``salvage``), with one it keeps
        that one, and the other goes to the bottom of the deck (RULINGS.md R14)."""
        f = ctx.f(holder)
        source = self.salvage_source(ctx.s, holder)
        got = None
        if source == "hand":
            hand = [x for x in f.hand if not self.data.card(x).no_steal]
            if hand:
                got = hand[ctx.rng.below(len(hand))]
                h = list(f.hand)
                h.remove(got)
                ctx.set_f(holder, hand=tuple(h))
        elif source == "discard":
            got = card
            d = list(f.discard)
            d.remove(got)
            ctx.set_f(holder, discard=tuple(d))
        else:
            two = tuple(f.deck[:2])
            ctx.set_f(holder, deck=tuple(f.deck[2:]))
            ctx.update(combat=combat.model_copy(update={"stage": "salvage", "salvage_drawn": two}))
            keep = self._salvage_pick_options(ctx.s)
            if len(keep) >= 2:
                ctx.emit(
                    Note(
                        text="Salvage: you drew "
                        + " and ".join(self.card_name(x) for x in two)
                        + f" from the top of the {self.fname(holder)} deck; select one to keep.",
                        visible_to=(ctx.f("coalition").seat,),
                    )
                )
                return (
                    f"Salvage: the Coalition draws two cards from the top of the {self.fname(holder)} deck "
                    "and selects one to keep"
                )
            ctx.update(combat=None)
            if not keep:
                ctx.set_f(holder, deck=ctx.f(holder).deck + two)
                return (
                    f"Salvage: neither card drawn from the {self.fname(holder)} deck may be taken; "
                    "both go to the bottom of the deck"
                )
            got = keep[0].card
            rest = list(two)
            rest.remove(got)
            ctx.set_f(holder, deck=ctx.f(holder).deck + tuple(rest))
        if got is None:
            return f"Salvage finds nothing the Coalition may take from the {self.fname(holder)} faction"
        return self._salvaged(ctx, holder, got, source)

    def _salvaged(self, ctx: _Ctx, holder: str, got: str, source: str) -> str:
        """The Coalition takes ``got``; its seat and the loser's seat see its name."""
        f = ctx.f(holder)
        where = {
            "hand": "from its hand",
            "discard": "from its discard pile (its hand is empty)",
            "deck": "from the top of its deck (its hand and discard pile are empty)",
        }[source]
        co = ctx.f("coalition")
        ctx.set_f("coalition", hand=co.hand + (got,))
        ctx.emit(CardsDrawn(faction="coalition", names=(self.card_name(got),), visible_to=(co.seat,)))
        if f.seat != co.seat:
            ctx.emit(
                Note(
                    text=f"The Coalition took your {self.card_name(got)} {where.replace('its', 'your')}.",
                    visible_to=(f.seat,),
                )
            )
        return f"Salvage: the Coalition takes a {self.fname(holder)} Power Card {where}"

    def _apply_salvage_pick(self, ctx: _Ctx, a: Any) -> None:
        """The Coalition selects one of the two cards drawn to keep; the other goes to the
        bottom of its owner's deck (Salvage, RULINGS.md R14)."""
        c = ctx.s.combat
        opts = self._salvage_pick_options(ctx.s)
        if not isinstance(a, Plunder) or a not in opts:
            raise IllegalActionError(
                "Salvage: select one of the two cards drawn to keep: "
                + list_words([f"salvage {self.card_name(o.card)}" for o in opts])
                + "."
            )
        loser = c.defender if c.attacker == "coalition" else c.attacker
        holder = self.hand_owner(loser)
        rest = list(c.salvage_drawn)
        rest.remove(a.card)
        ctx.set_f(holder, deck=ctx.f(holder).deck + tuple(rest))
        ctx.update(combat=None)
        text = self._salvaged(ctx, holder, a.card, "deck")
        cost = c.lines[0] if c.lines else f"Coalition Rage is {ctx.f('coalition').rage}"
        ctx.note(f"{text}; the other card goes to the bottom of the deck; {cost} (plunder costs 1 Rage).")
        last = ctx.s.last_combat
        if last is not None and last.territory == c.territory:
            ctx.update(last_combat=last.model_copy(update={"text": f"{last.text} Plunder: {text}; {cost}."}))

    def _gospel_unit_home(self, ctx: _Ctx, holder: str, card: str) -> None:
        """Gospel leaving play: the unit on it goes back to its faction's supply and no
        faction is named any more (RULINGS.md R26)."""
        named = ctx.f(holder).gospel
        if self.data.card(card).id != "gospel" or named is None:
            return
        ctx.set_f(named, supply=ctx.f(named).supply + 1)
        ctx.set_f(holder, gospel=None)
        ctx.note(f"The {self.fname(named)} unit on Gospel returns to its supply.")

    def _exploit(self, ctx: _Ctx, holder: str, card: str | None) -> str:
        """Exploit: the defeated faction discards a Power Card: the face-up Durable card
        the Coalition names, or a random card from its hand (RULINGS.md R14)."""
        f = ctx.f(holder)
        if card is not None:
            ctx.set_f(holder, durable=tuple(x for x in f.durable if x != card))
            self._gospel_unit_home(ctx, holder, card)
            if self.data.card(card).revolt:
                # its Gray units stay on the board without a card or yellow die (R13, R14)
                back = sum(len(r.dice) for r in ctx.s.revolts if r.card == card)
                revolts = tuple(
                    r.model_copy(update={"dice": (), "discarded": True}) if r.card == card else r
                    for r in ctx.s.revolts
                    if r.card != card or r.on_board > 0
                )
                ctx.update(revolts=revolts, yellow=ctx.s.yellow + back)
            self._to_discard(ctx, card)
            return f"Exploit: the {self.fname(holder)} faction discards {self.card_name(card)}"
        got = f.hand[ctx.rng.below(len(f.hand))]
        self._discard_card(ctx, holder, got)
        return f"Exploit: the {self.fname(holder)} faction discards {self.card_name(got)} from its hand"

    # ------------------------------------------------------------------ Power Cards

    COALITION_PLAYABLE = frozenset(
        {
            "advanced-culture",
            "collect-tribute",
            "tithe",
            "roman-roads",
            "caravan",
            "missionary-journey",
            "legion-levy",
            "pentecost",
            "city-riot",
            "industry",
            # "in accordance with the card instructions" (RULINGS.md R14)
            "circus-maximus",
            "die-by-the-sword",
            "persecution",
            "gladiator-games",
            "high-priest-letter",
            "divine-messenger",
            "synagogue",
            "pharisee",
            # Durable and response cards, their "you" the Coalition (R14): Auxiliaries and Help
            # the Wounded in its Start Phase, Give to Caesar on its own dice, Gospel for a
            # Christian unit, Grace's reversal of a combat result, Promised Land's window
            "auxiliaries",
            "give-to-caesar",
            "gospel",
            "grace",
            "help-the-wounded",
            "promised-land",
        }
    )
    # the salvaged cards whose text names what the Coalition has not got (R14)
    COALITION_LACKS = {
        "conscription": "a Captured Unit Area",
        "enrapture": "Objective Cards to claim",
        "giving": "a Power Card deck to draw from",
    }
    MOVE_CARDS = {"roman-roads": 4, "caravan": 3, "missionary-journey": 4}
    RECRUIT_CARDS = {"legion-levy": 3, "pentecost": 3}

    def _power_plays(self, s: State, f: str, phase: str) -> list[PlayPower]:
        """Power Cards ``f`` may play now, with their natural choices (the notation
        accepts any legal choice)."""
        if s.second_turn or s.power_played >= s.power_limit:
            return []
        out: list[PlayPower] = []
        for c in self.distinct(s.factions[f].hand):
            card = self.data.card(c)
            if phase not in card.phases:
                continue
            if f == "coalition" and card.id not in self.COALITION_PLAYABLE:
                continue
            out += self._card_options(s, f, c)
        return out

    def _durable_uses(self, s: State, f: str) -> list[Any]:
        """Start Phase uses of ``f``'s Durable cards: Auxiliaries (Rome, or the Coalition
        with a salvaged copy) and Help the Wounded (the Christians, or the Coalition)."""
        out: list[Any] = []
        if self.durable(s, f, "auxiliaries") and not s.auxiliaries_used:
            card = next(c for c in s.factions[f].durable if c.split("#")[0] == "auxiliaries")
            out += [PlayPower(card=card, territories=p) for p in self._aux_options(s, f)]
        if self.durable(s, f, "help-the-wounded"):
            for g in sorted(self.present(s) - {f} - set(s.help_moved)):
                out += self._shift_options(s, g)
        return out

    def _aux_options(self, s: State, f: str) -> list[tuple[str, ...]]:
        supply = s.factions[f].supply
        if supply <= 0:
            return []
        k = min(2, supply)
        return [
            (t,) * k
            for t in self.data.territories
            if self.data.in_empire(t) and self.marker_at(s, t) is None and self.room(s, t, f) >= k
        ]

    def _pieces(self, s: State, faction: str, k: int) -> tuple[str, ...]:
        """``k`` units of ``faction`` from its largest stacks, as "territory/faction"."""
        out: list[str] = []
        for t in sorted(self.territories_of(s, faction), key=lambda t: (-self.units(s, t, faction), t)):
            n = min(self.units(s, t, faction), k - len(out))
            out += [f"{t}/{faction}"] * n
            if len(out) >= k:
                break
        return tuple(out)

    def _card_options(self, s: State, f: str, c: str) -> list[PlayPower]:
        cid = self.data.card(c).id
        fs = s.factions[f]
        unspent = [d for d in fs.dice if d.place == "unspent"]
        if cid == "advanced-culture":
            k = min(3, len(unspent))
            return [PlayPower(card=c, values=(v,) * k) for v in range(1, 7)] if k else []
        if cid == "tithe":
            vals = sorted({d.value for d in unspent if d.value < 6})
            return [PlayPower(card=c, values=(v,)) for v in vals]
        if cid == "collect-tribute":
            return [PlayPower(card=c)]
        if cid in self.MOVE_CARDS:
            mover = f
            return [PlayPower(card=c, paths=(p,)) for p in self._move_options(s, mover, self.MOVE_CARDS[cid])]
        if cid in self.RECRUIT_CARDS:
            if fs.supply <= 0:
                return []
            spots, _ = self.recruit_spots(s, f)
            return [
                PlayPower(card=c, territories=(t,) * k)
                for t in spots
                for k in range(1, min(3, fs.supply, self.room(s, t, f)) + 1)
            ]
        if cid == "circus-maximus":
            out = []
            for g in sorted(self.present(s) - {"rome"}):
                pieces = self._pieces(s, g, 1 if g == "christians" else 4)
                if pieces:
                    out.append(PlayPower(card=c, territories=pieces))
            return out
        if cid == "die-by-the-sword":
            out = []
            for t in self.territories_of(s, "rome"):
                k = min(3, self.units(s, t, "rome") - 1)
                if k <= 0:
                    continue
                for g in sorted(self.present(s) - {"rome"}):
                    pieces = self._pieces(s, g, k)
                    if pieces:
                        out.append(PlayPower(card=c, territory=t, territories=pieces))
            return out
        if cid == "persecution":
            ts = [t for t in self.territories_of(s, "christians") if self.units(s, t, "rome") > 0]
            return [PlayPower(card=c, territories=tuple(ts[:3]))] if ts else []
        if cid == "gladiator-games":
            return [
                PlayPower(card=c, territory=t, target=g)
                for t in self.territories_of(s, f)
                if self.units(s, t, f) >= 3
                for g in sorted(self.occupants(s, t) - {"rome", f})
            ]
        if cid in (
            "auxiliaries",
            "conscription",
            "crucify",
            "give-to-caesar",
            "pharisee",
            "synagogue",
            "enrapture",
            "grace",
            "help-the-wounded",
        ):
            return [PlayPower(card=c)]
        if cid == "high-priest-letter":
            ok = any(
                self.units(s, t, "christians") and self.side_units(s, t, "jews")
                for t in self.data.region_territories("blue")
            )
            return [PlayPower(card=c)] if ok else []
        if cid == "industry":
            return [PlayPower(card=c)] if f != "coalition" or fs.hand else []
        if self.data.card(c).revolt:
            if s.factions["gray"].supply <= 0:
                return []
            return [PlayPower(card=c, territory=t) for t in self._revolt_spots(s, cid)]
        if cid == "city-riot":
            return [
                PlayPower(card=c, territory=t)
                for t in self.territories_of(s, f)
                if self.occupants(s, t) - {f}
            ]
        if cid == "divine-messenger":
            return [PlayPower(card=c)]
        if cid == "giving":
            return [
                PlayPower(card=c, target=g)
                for g in s.factions
                if g not in (f, "gray") and any(d.place == "unspent" for d in s.factions[g].dice)
            ]
        if cid == "gospel":
            return [
                PlayPower(card=c, target=g)
                for g in sorted(set(s.factions) - {f})
                if s.factions[g].supply > 0
            ]
        if cid == "holy-spirit":
            ok = any(self.occupants(s, t) - {"christians"} for t in self.territories_of(s, "christians"))
            return [PlayPower(card=c)] if ok and s.factions["christians"].supply > 0 else []
        return []

    def _revolt_spots(self, s: State, cid: str) -> list[str]:
        d = self.data
        if cid == "merchant-revolt":
            spots = [t for t in d.territories if d.territories[t].coastal and d.in_empire(t)]
        elif cid == "peasant-revolt":
            red = set(d.region_territories("red"))
            spots = [t for t in d.territories if t not in red and any(u in red for u in d.adjacent[t])]
        else:
            spots = list(d.region_territories("blue"))
        return [t for t in spots if self.marker_at(s, t) is None and self.units(s, t, "gray") == 0]

    def _play_power(self, ctx: _Ctx, f: str, a: PlayPower, phase: str) -> None:
        """Play a Power Card (Faction Power Cards: 1 a turn; none on a Divine Messenger
        turn), or use a Durable card's Start Phase effect. Raises IllegalActionError."""
        s = ctx.s
        fs = s.factions[f]
        ctx.update(acted=True)
        cid = self.data.card(a.card).id if a.card.split("#")[0] in self.data.power else None
        if cid == "auxiliaries" and a.card in fs.durable:
            if phase != "start" or s.auxiliaries_used:
                raise IllegalActionError("Auxiliaries places 2 units once, in your Start Phase.")
            self._auxiliaries(ctx, f, a)
            return
        if a.card not in fs.hand:
            raise IllegalActionError(
                "Play a Power Card from your hand: " + list_words([self.card_name(c) for c in fs.hand]) + "."
            )
        card = self.data.card(a.card)
        if phase not in card.phases:
            raise IllegalActionError(
                f"{card.name} is played in the {'/'.join(p.title() for p in card.phases)} phase, not now."
            )
        if s.second_turn:
            raise IllegalActionError("Divine Messenger: no Power Card on the second turn.")
        if s.power_played >= s.power_limit:
            raise IllegalActionError("You may play only 1 Power Card a turn.")
        if f == "coalition" and card.id not in self.COALITION_PLAYABLE:
            lacks = self.COALITION_LACKS.get(card.id, "what the card needs")
            raise IllegalActionError(
                f"The Coalition cannot play {card.name}: its text needs {lacks}, which the Coalition "
                "has not got (RULINGS.md R14); it stays in your hand until discarded."
            )
        hand = list(fs.hand)
        hand.remove(a.card)
        ctx.set_f(f, hand=tuple(hand))
        ctx.update(power_played=ctx.s.power_played + 1)
        ctx.note(f"{self.fname(f)} played {card.name}.")
        effect[card.id](self, ctx, f, a)
        if card.duration == "durable":
            ctx.set_f(f, durable=ctx.f(f).durable + (a.card,))
        else:
            self._to_discard(ctx, a.card)

    # each handler validates its parameters and applies the effect

    @effect("advanced-culture")
    def _card_advanced_culture(self, ctx: _Ctx, f: str, a: PlayPower) -> None:
        """Advanced Culture: "You may choose the values of up to 3 Unspent Dice." The player
        names which dice (``a.dice``) take which values; without dice named, the lowest
        Unspent dice take them."""
        dice = ctx.f(f).dice
        unspent = [i for i, d in enumerate(dice) if d.place == "unspent"]
        order = sorted(unspent, key=lambda i: (dice[i].value, i))
        if not 1 <= len(a.values) <= min(3, len(order)) or any(not 1 <= v <= 6 for v in a.values):
            raise IllegalActionError(
                "Advanced Culture: name up to 3 values (1-6), for your lowest Unspent dice (play Advanced "
                "Culture: 6 6) or for the dice you choose (play Advanced Culture: 2 to 6, 3 outside to 5)."
            )
        if a.dice:
            if len(a.dice) != len(a.values) or len(set(a.dice)) != len(a.dice) or set(a.dice) - set(unspent):
                raise IllegalActionError(
                    "Advanced Culture: name each Unspent die once with its new value; your Unspent dice: "
                    + ", ".join(f"{dice[i].value}{'' if dice[i].seq else ' outside'}" for i in order)
                    + "."
                )
            order = list(a.dice)
        for i, v in zip(order, a.values, strict=False):
            ctx.set_die(f, i, value=v)
        ctx.note("Advanced Culture sets dice to " + ", ".join(map(str, a.values)) + ".")

    @effect("tithe")
    def _card_tithe(self, ctx: _Ctx, f: str, a: PlayPower) -> None:
        dice = ctx.f(f).dice
        cand = [i for i, d in enumerate(dice) if d.place == "unspent" and a.values and d.value == a.values[0]]
        if len(a.values) != 1 or not cand:
            raise IllegalActionError("Tithe: name the value of the Unspent die to raise to 6.")
        i = max(cand, key=lambda i: (dice[i].seq, -i))
        ctx.set_die(f, i, value=6)
        ctx.note(f"Tithe raises a {a.values[0]} to 6.")

    @effect("collect-tribute")
    def _card_collect_tribute(self, ctx: _Ctx, f: str, a: PlayPower) -> None:
        """Each other faction, in play order, lowers an Unspent die of its choice by 1 pip
        (with only 1s, moves a 1 to Spent); then the player raises its Unspent dice by as
        many pips, one at a time (RULINGS.md R15)."""
        ctx.update(tribute=Tribute(player=f, waiting=tuple(g for g in ctx.s.order if g != f)))
        self._tribute_next(ctx)

    def _card_move(self, ctx: _Ctx, f: str, a: PlayPower, points: int) -> None:
        self._do_paths(ctx, f, a.paths, points)
        self._after_move(ctx, f, a.paths)

    @effect("roman-roads")
    def _card_roman_roads(self, ctx: _Ctx, f: str, a: PlayPower) -> None:
        self._card_move(ctx, f, a, self.MOVE_CARDS["roman-roads"])

    @effect("caravan")
    def _card_caravan(self, ctx: _Ctx, f: str, a: PlayPower) -> None:
        self._card_move(ctx, f, a, self.MOVE_CARDS["caravan"])

    @effect("missionary-journey")
    def _card_missionary_journey(self, ctx: _Ctx, f: str, a: PlayPower) -> None:
        self._card_move(ctx, f, a, self.MOVE_CARDS["missionary-journey"])

    def _card_recruit(self, ctx: _Ctx, f: str, a: PlayPower) -> None:
        counts: dict[str, int] = {}
        for t in a.territories:
            counts[t] = counts.get(t, 0) + 1
        self._recruit(ctx, f, tuple(counts.items()), 3)

    @effect("legion-levy")
    def _card_legion_levy(self, ctx: _Ctx, f: str, a: PlayPower) -> None:
        self._card_recruit(ctx, f, a)

    @effect("pentecost")
    def _card_pentecost(self, ctx: _Ctx, f: str, a: PlayPower) -> None:
        self._card_recruit(ctx, f, a)

    def _parse_pieces(self, ctx: _Ctx, pieces: tuple[str, ...]) -> list[tuple[str, str]]:
        out = []
        for p in pieces:
            t, _, g = p.partition("/")
            if t not in self.data.territories or g not in self.present(ctx.s):
                raise IllegalActionError(f"Name pieces as territory/faction, not {p!r}.")
            out.append((t, g))
        return out

    @effect("circus-maximus")
    def _card_circus_maximus(self, ctx: _Ctx, f: str, a: PlayPower) -> None:
        pieces = self._parse_pieces(ctx, a.territories)
        if not 1 <= len(pieces) <= 4 or any(g == "rome" for _, g in pieces):
            raise IllegalActionError("Circus Maximus takes up to 4 non-Roman pieces.")
        if sum(1 for _, g in pieces if g == "christians") > 1:
            raise IllegalActionError("Circus Maximus may remove only 1 Christian unit.")
        for t, g in pieces:
            if self.units(ctx.s, t, g) <= 0:
                raise IllegalActionError(f"No {self.fname(g)} unit is left in {self.tname(t)}.")
            ctx.add_units(t, g, -1)
            cap = dict(ctx.f("rome").captured)
            cap[g] = cap.get(g, 0) + 1
            ctx.set_f("rome", captured=cap, capture_track=ctx.f("rome").capture_track + 1)
        ctx.note(
            f"Circus Maximus: {len(pieces)} pieces captured (capture track {ctx.f('rome').capture_track})."
        )
        self._revolt_check(ctx)

    @effect("die-by-the-sword")
    def _card_die_by_the_sword(self, ctx: _Ctx, f: str, a: PlayPower) -> None:
        t = a.territory
        pieces = self._parse_pieces(ctx, a.territories)
        if (
            t is None
            or t not in self.data.territories
            or not 1 <= len(pieces) <= min(3, self.units(ctx.s, t, "rome") - 1)
        ):
            raise IllegalActionError(
                "Die by the Sword: from 1 territory remove up to 3 Roman units, leaving 1, and as many other units."
            )
        ctx.to_supply(t, "rome", len(pieces))
        for u, g in pieces:
            if g == "rome" or self.units(ctx.s, u, g) <= 0:
                raise IllegalActionError(f"No {self.fname(g)} unit to remove in {self.tname(u)}.")
            ctx.to_supply(u, g, 1)
        ctx.note(f"Die by the Sword: {len(pieces)} Roman units and {len(pieces)} others return to supply.")
        self._revolt_check(ctx)

    @effect("persecution")
    def _card_persecution(self, ctx: _Ctx, f: str, a: PlayPower) -> None:
        ts = a.territories
        if not 1 <= len(ts) <= 3 or len(set(ts)) != len(ts):
            raise IllegalActionError("Persecution: name 1 to 3 territories with Roman and Christian units.")
        for k, t in enumerate(ts):
            if self.units(ctx.s, t, "rome") <= 0 or self.units(ctx.s, t, "christians") <= 0:
                raise IllegalActionError(
                    f"{self.tname(t) if t in self.data.territories else t} needs Roman and Christian units."
                )
            if k == 0:
                ctx.add_units(t, "christians", -1)
                cap = dict(ctx.f("rome").captured)
                cap["christians"] = cap.get("christians", 0) + 1
                ctx.set_f("rome", captured=cap, capture_track=ctx.f("rome").capture_track + 1)
            else:
                ctx.to_supply(t, "christians", 1)
        ctx.note(f"Persecution: {len(ts)} Christian units removed, 1 captured.")

    @effect("gladiator-games")
    def _card_gladiator_games(self, ctx: _Ctx, f: str, a: PlayPower) -> None:
        t, g = a.territory, a.target
        if (
            t not in self.data.territories
            or self.units(ctx.s, t, f) < 3
            or g in (None, "rome", f)
            or self.units(ctx.s, t, g) <= 0
        ):
            raise IllegalActionError(
                f"Gladiator Games: a territory with at least 3 {self.fname(f)} units and another "
                "non-Roman faction there."
            )
        k = min(2, self.units(ctx.s, t, g))
        ctx.add_units(t, g, -k)
        cap = dict(ctx.f("rome").captured)
        cap[g] = cap.get(g, 0) + k
        ctx.set_f("rome", captured=cap, capture_track=ctx.f("rome").capture_track + k)
        ctx.note(f"Gladiator Games: {k} {self.fname(g)} units captured in {self.tname(t)}.")
        self._revolt_check(ctx)

    @effect("conscription", "crucify", "give-to-caesar", "synagogue", "enrapture", "grace", "help-the-wounded")
    def _card_none(self, ctx: _Ctx, f: str, a: PlayPower) -> None:
        """Durable cards with a passive effect."""


    @effect("auxiliaries")
    def _card_auxiliaries(self, ctx: _Ctx, f: str, a: PlayPower) -> None:
        pass  # placed by its Start Phase use

    def _auxiliaries(self, ctx: _Ctx, f: str, a: PlayPower) -> None:
        """Auxiliaries' Start Phase use: 2 of ``f``'s units from supply into the Roman
        Empire, not on an Objective Point Marker. Raises IllegalActionError."""
        ts = a.territories
        supply = ctx.f(f).supply
        if not 1 <= len(ts) <= min(2, supply):
            raise IllegalActionError("Auxiliaries: place 2 units from supply (fewer if the supply is short).")
        for t in ts:
            if (
                t not in self.data.territories
                or not self.data.in_empire(t)
                or self.marker_at(ctx.s, t) is not None
            ):
                raise IllegalActionError(
                    "Auxiliaries go in the Roman Empire, not on an Objective Point Marker."
                )
            ctx.from_supply(t, f, 1)
            if self.units(ctx.s, t, f) > UNIT_LIMIT:
                raise IllegalActionError(f"At most {UNIT_LIMIT} {self.fname(f)} units in {self.tname(t)}.")
        ctx.update(auxiliaries_used=True)
        ctx.note("Auxiliaries: " + ", ".join(self.tname(t) for t in ts) + ".")

    @effect("high-priest-letter")
    def _card_high_priest_letter(self, ctx: _Ctx, f: str, a: PlayPower) -> None:
        n = 0
        for t in self.data.region_territories("blue"):
            if self.units(ctx.s, t, "christians") and self.side_units(ctx.s, t, "jews"):
                ctx.to_supply(t, "christians", 1)
                n += 1
        ctx.note(f"High Priest Letter: {n} Christian units sent back to supply.")

    @effect("industry")
    def _card_industry(self, ctx: _Ctx, f: str, a: PlayPower) -> None:
        owner = f if f != "coalition" else None
        n = max(0, HAND_LIMIT - len(ctx.f(f).hand))
        if owner and n:
            self._draw(ctx, owner, n, "Industry")
        ctx.update(power_limit=ctx.s.power_limit + 1)

    @effect("merchant-revolt", "peasant-revolt", "jewish-revolt")
    def _card_revolt(self, ctx: _Ctx, f: str, a: PlayPower) -> None:
        cid = self.data.card(a.card).id
        spots = self._revolt_spots(ctx.s, cid)
        if a.territory not in spots:
            raise IllegalActionError(
                f"{self.card_name(a.card)}: place the Gray units in one of "
                + list_words([self.tname(t) for t in spots], 30)
                + "."
            )
        k = min(REVOLT_UNITS, ctx.f("gray").supply)
        want = 2 if any(self.durable(ctx.s, x, "pharisee") for x in ctx.s.factions) else 1
        n = min(want, ctx.s.yellow)
        dice = tuple(Die(value=ctx.rng.die(6), place="unspent") for _ in range(n))
        old = next((r for r in ctx.s.revolts if r.card == a.card), None)
        if old is not None:
            # the card comes back after an Exploit discarded it: the Gray units it left on the
            # board rejoin it (RULINGS.md R13)
            revolts = tuple(
                r.model_copy(update={"dice": dice, "discarded": False}) if r is old else r for r in ctx.s.revolts
            )
        else:
            revolts = ctx.s.revolts + (Revolt(card=a.card, dice=dice),)
        ctx.update(revolts=revolts, yellow=ctx.s.yellow - n)
        ctx.from_supply(a.territory, "gray", k, a.card)
        ctx.note(
            f"{self.card_name(a.card)}: {k} Gray units rise in {self.tname(a.territory)}"
            + (f"; yellow dice {', '.join(str(d.value) for d in dice)}." if dice else ".")
        )
        if n:
            refs = self.yellow_refs(ctx.s)
            mine = tuple(k for k, (r, _) in enumerate(refs) if ctx.s.revolts[r].card == a.card)
            self._offer_extra(ctx, "jews", "yellow", mine, "none")


    @effect("pharisee")
    def _card_pharisee(self, ctx: _Ctx, f: str, a: PlayPower) -> None:
        revolts, new, k = [], [], 0
        for r in ctx.s.revolts:
            k += len(r.dice)
            if ctx.s.yellow > 0 and not r.discarded:
                r = r.model_copy(update={"dice": r.dice + (Die(value=ctx.rng.die(6), place="unspent"),)})
                ctx.update(yellow=ctx.s.yellow - 1)
                new.append(k)
                k += 1
            revolts.append(r)
        ctx.update(revolts=tuple(revolts))
        if new:
            self._offer_extra(ctx, "jews", "yellow", tuple(new), "none")

    @effect("city-riot")
    def _card_city_riot(self, ctx: _Ctx, f: str, a: PlayPower) -> None:
        t = a.territory
        if (
            t not in self.data.territories
            or not self.units(ctx.s, t, f)
            or not (self.occupants(ctx.s, t) - {f})
        ):
            raise IllegalActionError("City Riot: a territory with your units and another faction's.")
        if a.territories:
            self._city_riot_choice(ctx, t, a.territories)
            return
        for g in sorted(self.occupants(ctx.s, t)):
            n = self.units(ctx.s, t, g)
            for u in self.data.adjacent[t]:
                k = min(n, self.room(ctx.s, u, g))
                if k > 0:
                    ctx.move_units(t, u, g, k)
                    n -= k
                if n == 0:
                    break
            ctx.to_supply(t, g, n)
        ctx.note(f"City Riot in {self.tname(t)}: every unit is driven out to the neighbouring territories.")

    def _city_riot_choice(self, ctx: _Ctx, t: str, pieces: tuple[str, ...]) -> None:
        """City Riot with the player's destinations: one "territory/faction" entry per unit
        driven out; every unit leaves, each to an adjacent territory with room (RULINGS.md R15)."""
        moves = self._parse_pieces(ctx, pieces)
        occ = self.occupants(ctx.s, t)
        for g in occ | {g for _, g in moves}:
            want = self.units(ctx.s, t, g)
            got = sum(1 for _, x in moves if x == g)
            if got != want:
                raise IllegalActionError(
                    f"City Riot: move all {want} {self.fname(g)} units out of {self.tname(t)} "
                    f"(one entry per unit, e.g. {self.fname(g)} in {self.tname(self.data.adjacent[t][0])})."
                )
        counts: dict[tuple[str, str], int] = {}
        for u, g in moves:
            if u not in self.data.adjacent[t]:
                raise IllegalActionError(f"City Riot: {self.tname(u)} is not adjacent to {self.tname(t)}.")
            counts[(u, g)] = counts.get((u, g), 0) + 1
        for (u, g), k in counts.items():
            if k > self.room(ctx.s, u, g):
                raise IllegalActionError(
                    f"City Riot: {self.tname(u)} has room for {self.room(ctx.s, u, g)} {self.fname(g)} units."
                )
            ctx.move_units(t, u, g, k)
        ctx.note(f"City Riot in {self.tname(t)}: every unit is driven out to the neighbouring territories.")

    @effect("divine-messenger")
    def _card_divine_messenger(self, ctx: _Ctx, f: str, a: PlayPower) -> None:
        ctx.update(extra_turn=True)

    @effect("giving")
    def _card_giving(self, ctx: _Ctx, f: str, a: PlayPower) -> None:
        """The named faction gives Unspent dice of its choice totalling 4 pips; the
        Christians draw 2 Power Cards (RULINGS.md R15)."""
        g = a.target
        if g is None or g in (f, "gray") or g not in ctx.s.factions:
            raise IllegalActionError("Giving: name another faction.")
        ctx.update(giving=Giving(giver=g))
        self._giving_next(ctx)

    @effect("gospel")
    def _card_gospel(self, ctx: _Ctx, f: str, a: PlayPower) -> None:
        g = a.target
        if g is None or g == f or g not in ctx.s.factions or ctx.f(g).supply <= 0:
            raise IllegalActionError("Gospel: name another faction with a unit in supply.")
        ctx.set_f(g, supply=ctx.f(g).supply - 1)
        ctx.set_f(f, gospel=g)
        ctx.note(f"Gospel names the {self.fname(g)} faction.")

    @effect("holy-spirit")
    def _card_holy_spirit(self, ctx: _Ctx, f: str, a: PlayPower) -> None:
        n = 0
        for t in self.territories_of(ctx.s, "christians"):
            others = sorted(
                self.occupants(ctx.s, t) - {"christians"}, key=lambda g: (-self.units(ctx.s, t, g), g)
            )
            if not others or ctx.f("christians").supply <= 0:
                continue
            ctx.to_supply(t, others[0], 1)
            self._convert_in(ctx, t, 1)
            n += 1
        ctx.note(f"Holy Spirit: {count(n, 'unit')} converted.")
        self._revolt_check(ctx)

    @effect("elder", "guardian-angel", "pharaohs-fate", "praetorian-guard", "hasmonean-valour", "martyrdom",
            "promised-land")
    def _card_elder(self, ctx: _Ctx, f: str, a: PlayPower) -> None:  # pragma: no cover - combat only
        raise IllegalActionError("Elder is played in combat.")


    def _help_the_wounded(self, ctx: _Ctx, f: str, a: Shift) -> None:
        """Help the Wounded: in the Start Phase of its holder (the Christians, or the
        Coalition with a salvaged copy) move 1 unit of each other faction 1 space."""
        if not self.durable(ctx.s, f, "help-the-wounded"):
            raise IllegalActionError("Only a faction with Help the Wounded face up moves other factions' units.")
        if (
            a.faction in ctx.s.help_moved
            or a.faction == f
            or a not in self._shift_options(ctx.s, a.faction)
        ):
            raise IllegalActionError(
                "Help the Wounded: move 1 unit of each other faction 1 territory (once each)."
            )
        ctx.move_units(a.source, a.destination, a.faction, 1)
        ctx.update(help_moved=ctx.s.help_moved + (a.faction,), acted=True)
        ctx.note(
            f"Help the Wounded: a {self.fname(a.faction)} unit moves from {self.tname(a.source)} to {self.tname(a.destination)}."
        )

    # ------------------------------------------------------------------ outcome, view, notation

    def outcome(self, s: State) -> Outcome | None:
        if s.phase != "over":
            return None
        return Outcome(winners=s.winners, reason=s.end_reason)

    # ------------------------------------------------------------ hidden information

    def seats(self, s: State) -> tuple[Seat, ...]:
        """Every seat (one seat may play two factions)."""
        return tuple(range(s.players))

    def perturb_hidden(self, s: State, keep: frozenset[Seat] | None, rand: random.Random) -> State:
        """``s`` as the seats of ``keep`` cannot tell it apart (games.core.secrets): the
        Objective deck and every Power Card deck shuffled, and the hand of each faction
        whose seat is outside ``keep`` (the Gray faction's always) redealt with its deck
        (a Power Card committed to the combat in progress stays in its hand)."""
        committed: dict[str, list[str]] = {}
        for side, choice in (s.combat.choices if s.combat is not None else {}).items():
            if choice.power:
                committed.setdefault(self.hand_owner(side), []).append(choice.power)
        factions = dict(s.factions)
        for fid, f in s.factions.items():
            if fid == "gray" or (keep is not None and f.seat not in keep):
                fixed = [c for c in committed.get(fid, []) if c in f.hand]
                free = list(f.hand)
                for c in fixed:
                    free.remove(c)
                hand, deck = redeal([free, f.deck], rand)
                factions[fid] = f.model_copy(update={"hand": tuple(fixed) + hand, "deck": deck})
            else:
                factions[fid] = f.model_copy(update={"deck": shuffled(f.deck, rand)})
        return s.model_copy(update={"factions": factions, "objective_deck": shuffled(s.objective_deck, rand)})

    def view(self, s: State, viewer: Seat | None) -> View:
        """What ``viewer`` may see: hands only for the seat that controls the faction;
        combat choices only as "chosen"; decks as sizes."""
        factions = []
        for fid in list(s.order) + (["gray"] if "gray" in s.factions else []):
            f = s.factions[fid]
            factions.append(
                FactionView(
                    id=fid,
                    name=self.fname(fid),
                    seat=f.seat,
                    supply=f.supply,
                    on_board=self.on_board(s, fid),
                    points=f.points,
                    dice=f.dice,
                    hand_size=len(f.hand),
                    deck_size=len(f.deck),
                    discard=f.discard,
                    durable=f.durable,
                    combat_used=f.combat_used,
                    captured=f.captured,
                    capture_track=f.capture_track,
                    converted=f.converted,
                    rage=f.rage,
                    markers=f.markers,
                    regions_scored=f.regions_scored,
                    hand=f.hand if viewer is not None and viewer == f.seat and fid != "gray" else None,
                )
            )
        objectives = []
        for c in s.objectives:
            card = self.data.objectives[c]
            lines = tuple(self.objective_text(card, o.faction) for o in card.objective)
            dice = []
            for fid, i in self.claims(s, c).items():
                dice.append(f"{self.fname(fid)} claimed (die {s.factions[fid].dice[i].value})")
            co = s.factions.get("coalition")
            if co:
                for d in co.dice:
                    if d.place == "block" and d.on == c:
                        dice.append(f"Coalition blocks {self.fname(d.target)} (die {d.value})")
            objectives.append(ObjectiveView(id=c, name=card.name, lines=lines, dice=tuple(dice)))
        c = s.combat
        window = None
        if s.window is not None:
            window = self._prompt(s, s.window.faction).text
        elif s.tribute is not None or s.giving is not None:
            window = self._tribute_prompt(s, self.tribute_chooser(s)).text
        return View(
            viewer=viewer,
            players=tuple(SeatView(seat=x, nation=self.seat_name(s, x)) for x in range(s.players)),
            round=s.round,
            phase=s.phase,
            active=s.active if s.phase in ("start", "main", "end", "discard") else None,
            order=s.order,
            factions=tuple(factions),
            board=s.board,
            markers=s.markers,
            objectives=tuple(objectives),
            objective_deck=len(s.objective_deck),
            revolts=s.revolts,
            yellow=s.yellow,
            rolling=s.rolling,
            combat_territory=c.territory if c else None,
            combat_sides=(c.attacker, c.defender) if c else (),
            combat_chosen=tuple(sorted(c.choices)) if c else (),
            window=window,
            waiting=tuple(sorted(self.to_act(s))),
            last_combat=s.last_combat,
            winners=s.winners,
            end_reason=s.end_reason,
        )

    def objective_text(self, card: ObjectiveCard, faction: str) -> str:
        """One objective in words: "Rome (1, Start Phase): sole occupancy of Italia, Gallia"."""
        o = card.for_faction(faction)
        if o is None:
            return ""
        ts = ", ".join(self.tname(t) for t in o.territories)
        region = self.data.regions[o.region].name if o.region else ""
        what = {
            "hold": f"{o.n}+ units in " + (ts if len(o.territories) == 1 else f"each of {ts}"),
            "sole": f"sole occupancy of {ts}",
            "region_units": f"{o.n}+ units in {region}",
            "sole_count": f"sole occupancy of {count(o.n, 'territory', 'territories')} of {region}",
            "territories": f"units in {o.n}+ territories",
            "regions": f"units in {o.n}+ regions of the Empire",
            "units_on_board": f"{o.n}+ units on the board",
            "captured": f"{o.n}+ captured units",
            "converted": f"{o.n}+ units converted",
            "share": f"share {ts} with every other faction",
            "share_any": f"share {o.n}+ territories with 2 other factions",
        }[o.kind]
        when = ", Start Phase" if o.score_in_start else ""
        return f"{self.fname(faction)} ({o.points}{when}): {what}"

    def parse_action(self, s: State, seat: Seat, text: str) -> Any:
        """Read ``text`` in the notation (see notation.py). Raises GameOverError,
        NotYourTurnError, InvalidNotationError, AmbiguousActionError."""
        self.require_turn(s, seat)
        f = self.acting(s, seat)
        assert f is not None  # require_turn: the seat is asked, so it acts for a faction
        return notation.parse(self, s, f, text)

    # ------------------------------------------------------------------ console text

    def summary(self, view: View) -> str:
        """A few lines for the terminal console: points, dice, board."""
        from . import text

        return text.summary(self, view)

    def hand_text(self, view: View) -> str:
        from . import text

        return text.hand_text(self, view)


GAME = SoulOfTheEmpire()
