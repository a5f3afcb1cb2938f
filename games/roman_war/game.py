"""Roman War rules (rule text: shared/seeds/001_62f93fed39493365.txt; rulings: RULINGS.md).

A co-op deck game: the Roman team against the Hannibal deck. Each Roman turn runs the
text's phases in order — untap and conditions, draw Maneuver + 2, Cost Zone (up to four
cards face down, then an optional ability purchase), Hannibal draws and plays, defend
Ambushes or suffer Chaos, main (Maneuver, Encampment, Token and Tactic cards, rotating
field cards), end (discard to the hand limit). Every card play follows the text's five
steps on a stack (RULINGS.md R13-R16). The Hannibal deck's automation (co-op) runs inside
``apply`` by the written rules of RULINGS.md R8-R10 and is reported as events.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from pydantic import Field, TypeAdapter, model_validator

from games.core import (
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
from games.core.secrets import redeal, shuffled

from . import notation, text
from .data import ABILITY_COST, Card, Effect, HannibalCard, explanations, load
from .model import (
    Action,
    ActiveAmbush,
    Adjust,
    Ambush,
    AmbushView,
    Assault,
    CardPlayed,
    CardsDrawn,
    CardView,
    Choose,
    Clearing,
    ClearingView,
    CostCard,
    CostView,
    Defend,
    Discard,
    Done,
    EncampmentView,
    FieldCard,
    FieldView,
    GameEnded,
    HannibalEncampment,
    HannibalPlayed,
    ManeuverChanged,
    Mode,
    Note,
    Overflow,
    Pass,
    Pending,
    PickAbility,
    PlaceCost,
    PlayCard,
    PowerChanged,
    Roman,
    RomanView,
    Rotate,
    StackItem,
    StackView,
    State,
    TakeBoost,
    TurnBegan,
    UseAbility,
    View,
)

START_POWER = 3  # "Start at 3/10 Power"
MAX_POWER = 10
START_HAND = 4  # RULINGS.md R4
HAND_LIMIT = 7  # RULINGS.md R4
COST_ZONE_PER_TURN = 4  # "Play up to 4 cards face-down from your hand to your Cost Zone"
MAX_MANEUVER = 3  # "(0 -> 1 -> 2 -> 3)"
LAST_ROUND = 10  # "the Roman side has not won by the end of round 10"
RESTORATION_CARDS = 15  # "shuffles up to 15 random cards"
DELIVERANCE_BREAKS = 3  # "break up to 3 Hannibal's Encampments"
VIBRANCY_FLIPS = 2  # "flip 2 Cost Zone cards face-up"
COST_ZONE_POWER_GAIN = 3  # "gained 3+ Power this turn?"
DECK_ORDER = ("fabius", "scipio", "marcellus", "nero")
CHARGED_ABILITIES = ("restoration", "deliverance")
DUEL_MAX_HANNIBAL_HAND = 7  # RULINGS.md R17

_ACTION = TypeAdapter(Action)


def ambush_named(name: str) -> str:
    """An Ambush card named once: ``"the Ambush Cannae"``, but ``"the Ambush at the Ford"``
    (not "the Ambush Ambush at the Ford") when the card's name already says it."""
    return f"the {name}" if name.split()[0].lower() == "ambush" else f"the Ambush {name}"


class Options(Model):
    """Session options.

    ``mode``: ``coop`` (the deck plays Hannibal; 1-4 Romans, solo with one) or ``duel``
    (the last ``hannibals`` seats play the Hannibal side; 2-4 seats, at least one Roman:
    1 v 1 to 3 v 1, 2 v 2, 1 v 2, 1 v 3; R17). ``hannibals``: Hannibal seats in a duel. ``level_abilities``: the whole
    level-ability system on or off ("Toggle the whole system on/off"). ``fee``: the solo
    Target-Change fee, C1 (or C2/C3 "for a harder game"). ``manual``: allow the public
    house-rule action that sets your own Power or Maneuver level. ``decks``: a starter
    deck id per Roman seat (default fabius, scipio, marcellus, nero in seat order).
    """

    mode: Mode = "coop"
    level_abilities: bool = True
    fee: int = Field(default=1, ge=1, le=3)
    manual: bool = False
    decks: tuple[str, ...] | None = None
    hannibals: int = Field(default=1, ge=1, le=3)

    @model_validator(mode="after")
    def _check(self) -> Options:
        if self.decks is not None:
            unknown = [d for d in self.decks if d not in DECK_ORDER]
            if unknown:
                raise ValueError(f"unknown deck {unknown[0]!r}; decks: {', '.join(DECK_ORDER)}")
        return self


def hannibal_draws(maneuver: int) -> int:
    """How many cards Hannibal draws and plays on a Roman turn: the Roman's draw
    (Maneuver + 2) minus 1, or Maneuver + 2 once Maneuver is 2 or more."""
    roman = maneuver + 2
    return roman if maneuver >= 2 else roman - 1


class _Ctx(ApplyContext):
    """One ``apply``'s scratch (games.core.ApplyContext) with this game's helpers."""

    __slots__ = ()

    def roman(self, seat: Seat) -> Roman:
        return self.s.romans[seat]

    def set_roman(self, seat: Seat, **fields: Any) -> None:
        self.replace_in("romans", seat, **fields)
    def uid(self) -> int:
        n = self.s.next_uid
        self.update(next_uid=n + 1)
        return n

    def set_item(self, uid: int, **fields: Any) -> None:
        self.update(stack=tuple(i.model_copy(update=fields) if i.uid == uid else i for i in self.s.stack))

    def item(self, uid: int) -> StackItem | None:
        return next((i for i in self.s.stack if i.uid == uid), None)


class RomanWar(NotationGame):
    """The Roman War game object (stateless; see games.core.Game)."""

    explained = "card, level ability or starter deck"

    id = "roman-war"
    title = "Roman War"
    # a co-op or solo game the Hannibal deck wins has no winning seat (``outcome``)
    no_winner_label = "games Hannibal won (the Hannibal deck beat the Romans)"
    min_players = 1
    max_players = 4
    Options = Options
    State = State
    View = View
    notation = notation
    action_adapter = _ACTION

    def explanations(self) -> tuple[Explanation, ...]:
        """Every Roman and Hannibal card, level ability and starter deck (data/*.toml)."""
        return explanations()

    def __init__(self) -> None:
        self.data = load()

    # ------------------------------------------------------------------ lookups

    def card(self, card_id: str) -> Card:
        return self.data.cards[card_id]

    def hcard(self, card_id: str) -> HannibalCard:
        return self.data.hannibal[card_id]

    def name(self, card_id: str) -> str:
        c = self.data.cards.get(card_id) or self.data.hannibal.get(card_id)
        return c.name if c else card_id

    def roman_seats(self, s: State) -> tuple[Seat, ...]:
        return tuple(range(len(s.romans)))

    def who(self, s: State, seat: Seat | None) -> str:
        """A seat's label: its commander (numbered when two share one), or Hannibal."""
        if seat is None:
            return "nobody"
        if seat in self.hannibal_seats(s):
            return "Hannibal" if len(self.hannibal_seats(s)) == 1 else f"Hannibal {seat + 1}"
        commander = s.romans[seat].commander
        if sum(1 for r in s.romans if r.commander == commander) > 1:
            return f"{commander} {seat + 1}"
        return commander

    def hannibal_seats(self, s: State) -> tuple[Seat, ...]:
        """Every seat of the Hannibal side in a duel (none in co-op)."""
        if s.hannibal_seats:
            return s.hannibal_seats
        return (s.hannibal_seat,) if s.hannibal_seat is not None else ()

    def sides(self, s: State, players: int) -> list[int]:
        """Two sides for results and ratings: the Hannibal seats (1) against the Romans (0);
        in co-op every seat is a Roman, one team."""
        hannibals = set(self.hannibal_seats(s))
        return [1 if x in hannibals else 0 for x in range(players)]

    def seat_name(self, s: State, seat: Seat) -> str:
        """The host's name for ``seat``: its commander, or "Hannibal" (duel)."""
        return self.who(s, seat)

    def teammates(self, s: State, seat: Seat) -> tuple[Seat, ...]:
        return tuple(x for x in self.roman_seats(s) if x != seat)

    def solo(self, s: State) -> bool:
        return len(s.romans) == 1

    def untapped(self, s: State, seat: Seat) -> int:
        """Untapped Cost Zone cards of ``seat``: the Cost it can pay now (C n, R n)."""
        return sum(1 for c in s.romans[seat].cost_zone if not c.tapped)

    def ambush_cost(self, s: State, card_id: str) -> int:
        """An Ambush's defense cost: R n, or R X = Hannibal's Encampments in play + 1 (R9)."""
        d = self.hcard(card_id).defense
        return d if d is not None else len(s.encampments) + 1

    def has(self, s: State, ability: str) -> bool:
        return s.level_abilities and ability in s.abilities

    def fee_for(self, s: State, card: Card) -> int:
        """The solo Target-Change fee a card needs (an effect aimed at a teammate)."""
        return s.fee if self.solo(s) and card.needs_ally else 0

    # ------------------------------------------------------------------ setup

    def setup(self, seats: Sequence[Seat], options: Options | None, rng: Rng) -> Step[State]:
        """Deal each Roman its shuffled 30-card starter deck and 5 cards (R4), shuffle the
        Hannibal deck, and begin round 1 with seat 1's turn.

        Raises IllegalActionError for a seat count the mode does not allow.
        """
        options = options or Options()
        n = len(seats)
        if list(seats) != list(range(n)):
            raise IllegalActionError("Seats must be numbered 0 .. players - 1.")
        if options.mode == "coop" and not 1 <= n <= 4:
            raise IllegalActionError(f"Co-op Roman War takes 1 to 4 Roman players, not {n}.")
        if options.mode == "duel" and not 2 <= n <= 4:
            raise IllegalActionError(
                f"A duel takes 2 to 4 players (1-3 Romans and 1-3 Hannibal players), not {n}."
            )
        if options.mode == "duel" and options.hannibals >= n:
            raise IllegalActionError(
                f"A duel of {count(n, 'player')} has at most {n - 1} Hannibal seat(s) (at least one Roman),"
                f" not {options.hannibals}."
            )
        if options.mode == "coop" and options.hannibals != 1:
            raise IllegalActionError("hannibals is a duel option (mode=duel); in co-op the deck plays Hannibal.")
        romans_n = n if options.mode == "coop" else n - options.hannibals
        decks = options.decks or tuple(DECK_ORDER[i % len(DECK_ORDER)] for i in range(romans_n))
        if len(decks) != romans_n:
            raise IllegalActionError(f"Give one deck per Roman seat: {romans_n} needed.")
        romans = []
        for deck_id in decks:
            deck = rng.shuffle(self.data.deck_list(deck_id))
            romans.append(
                Roman(
                    deck_id=deck_id,
                    commander=self.data.decks[deck_id].commander,
                    deck=deck[START_HAND:],
                    hand=deck[:START_HAND],
                    power=START_POWER,
                )
            )
        s = State(
            mode=options.mode,
            romans=tuple(romans),
            hannibal_seat=None if options.mode == "coop" else romans_n,
            hannibal_seats=() if options.mode == "coop" else tuple(range(romans_n, n)),
            turn_order=tuple(range(romans_n)),
            last_round=LAST_ROUND,
            hannibal_deck=rng.shuffle(self.data.hannibal_deck),
            level_abilities=options.level_abilities,
            fee=options.fee,
            manual=options.manual,
        )
        ctx = _Ctx(s, rng)
        for x in range(romans_n):
            ctx.emit(
                Note(text=f"Seat {x + 1} commands {self.who(ctx.s, x)}: {self.data.decks[decks[x]].text}")
            )
            ctx.emit(CardsDrawn(seat=x, names=self._names(ctx.s.romans[x].hand), visible_to=(x,)))
        if options.mode == "duel":
            hs = ctx.s.hannibal_seats
            if len(hs) == 1:
                ctx.emit(Note(text=f"Seat {n} plays the Hannibal side."))
            else:
                ctx.emit(
                    Note(
                        text="Seats "
                        + ", ".join(str(x + 1) for x in hs)
                        + " play the Hannibal side: they share its deck and hand and take its Hannibal"
                        " phases in turn."
                    )
                )
        self._begin_turn(ctx)
        return Step(state=ctx.s, events=tuple(ctx.events))

    # ------------------------------------------------------------------ prompts

    def _blocking(self, s: State) -> Pending | None:
        """The pending decision the flow waits for, if any."""
        if not s.pending:
            return None
        p = s.pending[-1]
        if p.item is None or (s.stack and s.stack[-1].uid == p.item):
            return p
        return None

    def to_act(self, s: State) -> Mapping[Seat, Prompt]:
        """Who is asked now: a Roman discarding for overflow first, then the pending
        decision (respond, boost, choose, level, help), then the phase's player (the
        active Roman, or the Hannibal seat in a duel's Hannibal phase). Empty once over."""
        if s.phase == "over":
            return {}
        for x in s.turn_order:
            if s.romans[x].overflow > 0:
                n = s.romans[x].overflow
                return {
                    x: Prompt(
                        kind="turn", text=f"Power lost at 0: discard {count(n, 'card')} from hand or Cost Zone."
                    )
                }
        p = self._blocking(s)
        if p is not None:
            if p.kind == "respond":
                return {x: Prompt(kind="respond", text=self._respond_text(s)) for x in p.waiting}
            text_ = {
                "boost": "Take a boost of " + self._item_name(s, p.item) + " (boost <n>), or pass.",
                "choose": "Choose one for " + self._item_name(s, p.item) + " (choose <n>).",
                "level": "All players reached a new Domination Level: take a free level ability for the team.",
                "help": "Help defend the remaining Ambushes from your own Cost Zone (defend <ambush>), or pass.",
            }[p.kind]
            kind = "turn" if p.kind in ("choose", "level") else "respond"
            return {p.waiting[0]: Prompt(kind=kind, text=text_)}
        if s.phase == "hannibal":
            return {
                s.hannibal_seat: Prompt(
                    kind="turn", text=f"Hannibal: play up to {count(s.hannibal_to_play, 'more card')}, or done."
                )
            }
        text_ = {
            "cost": (
                f"Cost Zone phase: put up to {count(COST_ZONE_PER_TURN - s.placed, 'more card')} face down "
                "(cost <card>), or done."
                if s.placed < COST_ZONE_PER_TURN
                else f"Cost Zone phase: you have put {count(COST_ZONE_PER_TURN, 'card')} face down this turn; done."
            ),
            "purchase": "You may buy a level ability with Cost (buy <ability>), or done.",
            "defense": "Defend the Ambushes (defend <ambush>, play a Defense card) or suffer Chaos; done to settle.",
            "main": "Main phase: play Maneuver, Encampment, Token and Tactic cards, rotate field cards, assault; done.",
            "end": f"End phase: discard down to {HAND_LIMIT} cards.",
        }[s.phase]
        return {s.active: Prompt(kind="turn", text=text_)}

    def _respond_text(self, s: State) -> str:
        return f"{self._item_name(s, s.stack[-1].uid)} is on the stack: respond with a fast Tactic, or pass."

    def _item_name(self, s: State, uid: int | None) -> str:
        item = next((i for i in s.stack if i.uid == uid), None)
        if item is None:
            return "the card"
        if item.kind == "boost":
            return f"boost {item.boost + 1} of {self.name(item.card)}"
        if item.kind == "ambush":
            return f"{ambush_named(self.name(item.card))} (at {self.who(s, item.seat)})"
        return self.name(item.card)

    # ------------------------------------------------------------------ legal actions

    def legal_actions(self, s: State, seat: Seat) -> list[Any]:
        """Every legal action for ``seat`` now (a short list; duplicates removed)."""
        prompts = self.to_act(s)
        if seat not in prompts:
            return []
        out: list[Any] = []
        r = s.romans[seat] if seat < len(s.romans) else None
        if r is not None and r.overflow > 0:
            out += [Overflow(card=c) for c in dict.fromkeys(r.hand)]
            out += [Overflow(card=c.card, source="cost_zone") for c in dict.fromkeys(r.cost_zone)]
            return _dedupe(out)
        p = self._blocking(s)
        if p is not None:
            if p.kind == "respond":
                out = [Pass()] + self._card_plays(s, seat, responding=True)
            elif p.kind == "boost":
                out = [Pass()] + [TakeBoost(index=i) for i in self._takeable(s, seat, p)]
            elif p.kind == "choose":
                out = [Choose(index=i) for i in range(p.options)]
            elif p.kind == "level":
                out = [PickAbility(ability=a) for a in self._unowned(s)]
            elif p.kind == "help":
                out = [Pass()] + [Defend(target=u) for u in self._defendable(s, seat, helper=True)]
                out += self._card_plays(s, seat, helping=True)
            return _dedupe(out)
        if s.phase == "hannibal":
            return self._hannibal_actions(s)
        if s.phase == "cost":
            if s.placed < COST_ZONE_PER_TURN:
                out += [PlaceCost(card=c) for c in r.hand]
            out += self._card_plays(s, seat)
            out.append(Done())
        elif s.phase == "purchase":
            out += [PickAbility(ability=a, buy=True) for a in self._buyable(s, seat)]
            out.append(Done())
        elif s.phase == "defense":
            out += [Defend(target=u) for u in self._defendable(s, seat)]
            out += self._card_plays(s, seat)
            out += self._rotations(s, seat)
            out.append(Done())
        elif s.phase == "main":
            out += self._card_plays(s, seat)
            out += self._rotations(s, seat)
            out += [Assault(target=u) for u in self._assaultable(s, seat)]
            out += [UseAbility(ability=a) for a in self._usable(s)]
            out.append(Done())
        elif s.phase == "end":
            out += [Discard(card=c) for c in r.hand]
        if s.manual and s.phase in ("cost", "main"):
            out += [Adjust(stat="power", value=v) for v in range(MAX_POWER + 1) if v != r.power]
            out += [Adjust(stat="maneuver", value=v) for v in range(MAX_MANEUVER + 1) if v != r.maneuver]
        return _dedupe(out)

    def _hannibal_actions(self, s: State) -> list[Any]:
        out: list[Any] = [Done()]
        if s.hannibal_to_play <= 0:
            return out
        for c in dict.fromkeys(s.hannibal_hand):
            if self.hcard(c).type == "Encampment":
                out.append(Ambush(card=c))
            else:
                out += [Ambush(card=c, target=x) for x in self.roman_seats(s)]
        return out

    def _card_plays(
        self, s: State, seat: Seat, responding: bool = False, helping: bool = False
    ) -> list[PlayCard]:
        """Cards ``seat`` may play now, from hand and face-up Cost Zone cards (R11), each
        with its possible targets; only those it can pay for."""
        r = s.romans[seat]
        sources = [(c, "hand") for c in dict.fromkeys(r.hand)]
        sources += [(c.card, "cost_zone") for c in dict.fromkeys(r.cost_zone) if c.face_up and not c.tapped]
        out: list[PlayCard] = []
        own_turn = not responding and seat == s.active and s.phase in ("cost", "defense", "main")
        for cid, source in dict.fromkeys(sources):
            card = self.card(cid)
            if helping:
                if card.type != "Defense":
                    continue
            elif not self._timing_ok(s, seat, card, responding, own_turn):
                continue
            spare = self.untapped(s, seat) - (1 if source == "cost_zone" else 0)
            if card.cost + self.fee_for(s, card) > spare:
                continue
            targets: list[int | None] = [None]
            if card.defends:
                targets = list(self._defendable(s, seat, own=True, max_cost=None))
                if not targets:
                    continue
            tos: list[Seat | None] = [None]
            if card.needs_ally and not self.solo(s):
                tos = list(self.teammates(s, seat))
            elif self._horse_ok(s, seat, card, responding):
                tos = [None, *self.teammates(s, seat)]
            for t in targets:
                for to in tos:
                    out.append(PlayCard(card=cid, source=source, target=t, to=to))
        return out

    def _timing_ok(self, s: State, seat: Seat, card: Card, responding: bool, own_turn: bool) -> bool:
        """When a card type may be played (the phases; RULINGS.md R11)."""
        if responding:
            return card.fast
        if not own_turn:
            return False
        if card.effects and all(e.do in ("counter", "shield") for e in card.effects):
            return False  # only an answer to an Ambush on the stack
        if card.type in ("Maneuver", "Encampment"):
            if s.phase == "main":
                return True
            return self.has(s, "speed") and not s.speed_used  # "at any time on your turn"
        if card.type == "Token":
            return s.phase == "main"
        if card.type == "Defense":
            return s.phase == "defense"
        return s.phase in ("defense", "main")  # Tactic

    def _horse_ok(self, s: State, seat: Seat, card: Card, responding: bool) -> bool:
        return (
            not responding
            and self.has(s, "brotherly-horse")
            and not s.horse_used
            and not self.solo(s)
            and any(
                e.beneficial
                for e in card.effects + card.if_boosted + tuple(e for c in card.choose for e in c)
            )
        )

    def _defendable(
        self, s: State, seat: Seat, helper: bool = False, own: bool = False, max_cost: int | None = None
    ) -> list[int]:
        """Undefended Ambushes ``seat`` may defend now, one per (card, target): its own, or
        any with Benevolence when helping (R7). ``own``: as the card's target (Defense
        cards); otherwise paid from the Cost Zone, so only those it can afford."""
        seen: set[tuple[str, int]] = set()
        out = []
        for a in s.ambushes:
            if a.defended or (a.card, a.target) in seen:
                continue
            mine = a.target == seat
            if not mine and not (helper and self.has(s, "benevolence")) and not own:
                continue
            if own and not mine:
                continue
            cost = self.ambush_cost(s, a.card)
            if max_cost is not None and cost > max_cost:
                continue
            if not own and cost > self.untapped(s, seat):
                continue
            seen.add((a.card, a.target))
            out.append(a.uid)
        return out

    def _rotations(self, s: State, seat: Seat) -> list[Rotate]:
        out = []
        seen = set()
        for f in s.romans[seat].field:
            key = (f.card, f.attached)
            if f.tapped or key in seen:
                continue
            seen.add(key)
            effects = self.card(f.card).rotate
            if any(e.do == "defend" for e in effects):
                if s.phase != "defense":
                    continue
                cap = next(e.max_cost for e in effects if e.do == "defend")
                out += [
                    Rotate(uid=f.uid, target=u) for u in self._defendable(s, seat, own=True, max_cost=cap)
                ]
            elif s.phase == "main":
                out.append(Rotate(uid=f.uid))
        return out

    def _assaultable(self, s: State, seat: Seat) -> list[int]:
        seen = set()
        out = []
        for e in s.encampments:
            if e.card in seen or self.hcard(e.card).defense > self.untapped(s, seat):
                continue
            seen.add(e.card)
            out.append(e.uid)
        return out

    def _usable(self, s: State) -> list[str]:
        out = []
        if self.has(s, "restoration") and "restoration" in s.charged and any(r.discard for r in s.romans):
            out.append("restoration")
        if self.has(s, "deliverance") and "deliverance" in s.charged and s.encampments:
            out.append("deliverance")
        return out

    def _unowned(self, s: State) -> list[str]:
        return [a for a in self.data.abilities if a not in s.abilities]

    def _buyable(self, s: State, seat: Seat) -> list[str]:
        if not s.level_abilities:
            return []
        spare = self.untapped(s, seat)
        return [a for a in self._unowned(s) if ABILITY_COST[self.data.abilities[a].tier] <= spare]

    def _payers(self, s: State, item: StackItem, boosts: Sequence[int]) -> tuple[Seat, ...]:
        """Seats that may pay at least one of ``boosts`` now: the card's player first,
        then the teammates in turn order (R14)."""
        order = [item.seat] + [x for x in s.turn_order if x != item.seat]
        probe = Pending(kind="boost", waiting=(), item=item.uid, boosts=tuple(boosts))
        return tuple(x for x in order if self._takeable(s, x, probe))

    def _takeable(self, s: State, seat: Seat, p: Pending) -> list[int]:
        item = next((i for i in s.stack if i.uid == p.item), None)
        if item is None:
            return []
        card = self.card(item.card)
        out = []
        for i in p.boosts:
            if i in item.taken:
                continue
            b = card.boosts[i]
            cost = self._boost_cost(s, item, b, seat)
            if cost is None or cost > self.untapped(s, seat):
                continue
            out.append(i)
        return out

    def _boost_cost(self, s: State, item: StackItem, b: Any, seat: Seat) -> int | None:
        """What ``seat`` pays for boost ``b`` of ``item``, or None if it may not pay: the
        glyph says who may pay; solo reads an ally boost as yours for the fee (R18)."""
        if b.payer == "self":
            return b.cost if seat == item.seat else None
        if b.payer == "ally":
            if self.solo(s):
                return b.cost + s.fee if seat == item.seat else None
            return b.cost if seat != item.seat else None
        return b.cost

    # ------------------------------------------------------------------ apply

    def apply(self, s: State, seat: Seat, a: Any, rng: Rng) -> Step[State]:
        """Check ``a`` for ``seat`` and apply it, then run the flow (stack, Hannibal's
        automatic plays, the next turns) until someone must decide.

        Raises
        ------
        GameOverError, NotYourTurnError, IllegalActionError
            With a message saying what would be legal.
        """
        self.require_turn(s, seat)
        if isinstance(a, dict):
            a = self.action_from_json(a)
        legal = self.legal_actions(s, seat)
        if a not in legal:
            raise IllegalActionError(self._why_not(s, seat, a, legal))
        ctx = _Ctx(s, rng)
        self._do(ctx, seat, a)
        self._run(ctx)
        return Step(state=ctx.s, events=tuple(ctx.events))

    def _why_not(self, s: State, seat: Seat, a: Any, legal: list[Any]) -> str:
        """A player-safe reason, and what would be legal."""
        legal_text = (
            "legal now: " + list_words([notation.format_action(self, s, x) for x in legal], limit=10) + "."
        )
        r = s.romans[seat] if seat < len(s.romans) else None
        if isinstance(a, (PlayCard, PlaceCost, Discard, Overflow)) and r is not None:
            cid = a.card
            if cid not in self.data.cards:
                return f"There is no card {cid!r}; {legal_text}"
            where = r.hand if getattr(a, "source", "hand") == "hand" else [c.card for c in r.cost_zone]
            if cid not in where:
                return f"{self.name(cid)} is not in your {'hand' if getattr(a, 'source', 'hand') == 'hand' else 'Cost Zone'}; {legal_text}"
            if isinstance(a, PlayCard):
                card = self.card(cid)
                need = card.cost + self.fee_for(s, card)
                if need > self.untapped(s, seat):
                    return f"{card.name} costs C{need}; you have {self.untapped(s, seat)} untapped Cost Zone cards; {legal_text}"
                return (
                    f"{card.name} ({card.type}) cannot be played now: the question now is "
                    f"“{self.to_act(s)[seat].text.rstrip('.')}”; {legal_text}"
                )
            if isinstance(a, PlaceCost) and s.placed >= COST_ZONE_PER_TURN:
                return f"You already put {COST_ZONE_PER_TURN} cards in your Cost Zone this turn; {legal_text}"
        if isinstance(a, (Defend, Assault)):
            return f"You cannot pay for that now: {self.untapped(s, seat)} untapped Cost Zone cards; {legal_text}"
        return f"That is not legal now: the question now is “{self.to_act(s)[seat].text.rstrip('.')}”; {legal_text}"

    def _do(self, ctx: _Ctx, seat: Seat, a: Any) -> None:
        s = ctx.s
        p = self._blocking(s) if not any(r.overflow for r in s.romans) else None
        if isinstance(a, Overflow):
            self._overflow(ctx, seat, a)
        elif isinstance(a, Pass):
            self._pass(ctx, seat, p)
        elif isinstance(a, TakeBoost):
            self._take_boost(ctx, seat, p, a.index)
        elif isinstance(a, Choose):
            ctx.set_item(p.item, choice=a.index)
            ctx.update(pending=ctx.s.pending[:-1])
        elif isinstance(a, PickAbility):
            self._pick_ability(ctx, seat, a, p)
        elif isinstance(a, UseAbility):
            self._use_ability(ctx, seat, a.ability)
        elif isinstance(a, PlaceCost):
            r = ctx.roman(seat)
            hand = list(r.hand)
            hand.remove(a.card)
            ctx.set_roman(seat, hand=tuple(hand), cost_zone=r.cost_zone + (CostCard(card=a.card),))
            ctx.update(placed=s.placed + 1)
            ctx.emit(Note(text=f"{self.who(s, seat)} puts a card face down in the Cost Zone."))
        elif isinstance(a, PlayCard):
            if p is not None and p.kind == "respond":
                ctx.update(
                    pending=ctx.s.pending[:-1]
                    + (p.model_copy(update={"waiting": tuple(x for x in p.waiting if x != seat)}),)
                )
            self._play(ctx, seat, a)
        elif isinstance(a, Rotate):
            self._rotate(ctx, seat, a)
        elif isinstance(a, Defend):
            self._pay(ctx, seat, self.ambush_cost(s, self._ambush(s, a.target).card))
            self._mark_defended(
                ctx,
                a.target,
                f"{self.who(s, seat)} pays R{self.ambush_cost(s, self._ambush(s, a.target).card)}",
            )
        elif isinstance(a, Assault):
            enc = next(e for e in s.encampments if e.uid == a.target)
            cost = self.hcard(enc.card).defense
            self._pay(ctx, seat, cost)
            self._break_one(ctx, enc.uid, f"{self.who(s, seat)} assaults it (R{cost})")
        elif isinstance(a, Discard):
            r = ctx.roman(seat)
            hand = list(r.hand)
            hand.remove(a.card)
            ctx.set_roman(seat, hand=tuple(hand), discard=r.discard + (a.card,))
            ctx.emit(Note(text=f"{self.who(s, seat)} discards {self.name(a.card)} (hand limit)."))
        elif isinstance(a, Ambush):
            self._duel_play(ctx, a)
        elif isinstance(a, Adjust):
            self._adjust(ctx, seat, a)
        elif isinstance(a, Done):
            self._done(ctx, seat)

    # ------------------------------------------------------------------ flow

    def _run(self, ctx: _Ctx) -> None:
        """Advance the automatic flow until someone must decide or the game is over."""
        for _ in range(10_000):
            s = ctx.s
            if s.phase == "over":
                return
            for x, r in enumerate(s.romans):
                if r.overflow and not r.hand and not r.cost_zone:
                    ctx.set_roman(x, overflow=0)  # nothing left to discard
            s = ctx.s
            if any(r.overflow > 0 for r in s.romans):
                return
            if s.pending:
                p = s.pending[-1]
                if p.kind in ("respond", "boost", "help"):
                    waiting = p.waiting
                    if p.kind == "boost":
                        waiting = tuple(x for x in waiting if self._takeable(s, x, p))
                    if p.kind == "help":
                        waiting = tuple(x for x in waiting if self._helps(s, x))
                    if p.kind == "respond":
                        waiting = tuple(x for x in waiting if self._could_respond(s, x))
                    if waiting != p.waiting:
                        p = p.model_copy(update={"waiting": waiting})
                        ctx.update(pending=s.pending[:-1] + (p,))
                    if not waiting:
                        ctx.update(pending=s.pending[:-1])
                        if p.kind == "help":
                            self._settle(ctx)
                        continue
                if self._blocking(ctx.s) is not None:
                    return
                if p.item is not None and ctx.item(p.item) is None:
                    ctx.update(pending=ctx.s.pending[:-1])  # its item left the stack (countered)
                    continue
            s = ctx.s
            if s.stack:
                self._step_item(ctx, s.stack[-1])
                continue
            if s.settling:
                self._settle_next(ctx)
                continue
            if s.phase == "end" and len(s.romans[s.active].hand) <= HAND_LIMIT:
                self._end_turn(ctx)
                continue
            return
        raise RuntimeError("the flow did not settle")  # pragma: no cover

    def _step_item(self, ctx: _Ctx, item: StackItem) -> None:
        s = ctx.s
        if item.stage == "new":
            if item.kind == "ambush":
                ctx.set_item(item.uid, stage="text")
                responders = self._responders(s, item)
                if responders:
                    ctx.update(
                        pending=s.pending + (Pending(kind="respond", waiting=responders, item=item.uid),)
                    )
            elif item.kind == "boost":
                ctx.set_item(item.uid, stage="text")
            else:
                ctx.set_item(item.uid, stage="pre")
            return
        if item.kind == "card" and item.stage in ("pre", "post"):
            card = self.card(item.card)
            boosts = card.pre_boosts() if item.stage == "pre" else card.post_boosts()
            ctx.set_item(item.uid, stage="text" if item.stage == "pre" else "done")
            payers = self._payers(ctx.s, ctx.item(item.uid), boosts) if boosts else ()
            if payers:
                ctx.update(
                    pending=ctx.s.pending
                    + (Pending(kind="boost", waiting=payers, item=item.uid, boosts=boosts),)
                )
            return
        if item.stage == "text":
            if item.kind == "card":
                self._resolve_card(ctx, item)
            elif item.kind == "boost":
                self._resolve_boost(ctx, item)
            else:
                self._resolve_ambush(ctx, item)
            return
        # done: leave the stack
        ctx.update(stack=tuple(i for i in ctx.s.stack if i.uid != item.uid))
        if item.kind == "card" and self.card(item.card).type not in ("Encampment", "Token"):
            r = ctx.roman(item.seat)
            ctx.set_roman(item.seat, discard=r.discard + (item.card,))
        elif item.kind == "ambush":
            ctx.update(hannibal_discard=ctx.s.hannibal_discard + (item.card,))

    def _responders(self, s: State, item: StackItem) -> tuple[Seat, ...]:
        """Romans who could hold a fast Tactic they can pay for (R15, R23), the Ambush's
        target first: judged from what everyone sees, never from the hands."""
        order = [item.seat] + [x for x in s.turn_order if x != item.seat]
        return tuple(x for x in order if self._could_respond(s, x))

    def _could_respond(self, s: State, seat: Seat) -> bool:
        """Whether ``seat`` may be holding a fast card it can pay for now, as far as the
        table can tell (R23)."""
        return self._could_play(s, seat, responding=True)

    def _could_play(self, s: State, seat: Seat, *, responding: bool = False, helping: bool = False) -> bool:
        """Whether ``seat`` may hold a card it could play now in a response window
        (``responding``: a fast card) or to help defend (``helping``: a Defense card), as
        far as the table can tell (R23): a face-up Cost Zone card it can play, or a card in
        hand while its deck list has such a card whose cost its untapped Cost Zone covers
        (and, for a defending card, an Ambush it could defend). The hand itself is never
        looked at, so who is asked says nothing about it."""
        plays = self._card_plays(s, seat, responding=responding, helping=helping)
        if any(p.source == "cost_zone" for p in plays):
            return True
        r = s.romans[seat]
        if not r.hand:
            return False
        spare = self.untapped(s, seat)
        for cid in self.data.decks[r.deck_id].cards:
            c = self.card(cid)
            if not (c.fast if responding else c.type == "Defense"):
                continue
            if c.cost + self.fee_for(s, c) > spare:
                continue
            if c.defends and not list(self._defendable(s, seat, own=True, max_cost=None)):
                continue
            return True
        return False

    def _resolve_card(self, ctx: _Ctx, item: StackItem) -> None:
        """Step four: the card's rules text (after any boosts printed at the top or fast)."""
        card = self.card(item.card)
        if card.choose and not (item.boosted and card.choose_all_if_boosted) and item.choice is None:
            ctx.update(
                pending=ctx.s.pending
                + (Pending(kind="choose", waiting=(item.seat,), item=item.uid, options=len(card.choose)),)
            )
            return
        ctx.set_item(item.uid, stage="post")
        effects = list(card.effects)
        if item.boosted:
            effects += card.if_boosted
        if card.choose:
            if item.boosted and card.choose_all_if_boosted:
                effects += [e for opt in card.choose for e in opt]
                ctx.emit(Note(text=f"{card.name} was boosted: both are done."))
            else:
                effects += card.choose[item.choice]
        for e in effects:
            self._effect(ctx, item, e, redirect=True)
            if ctx.s.phase == "over":
                return
        if card.type == "Maneuver":
            r = ctx.roman(item.seat)
            if r.maneuver < MAX_MANEUVER:
                self._set_maneuver(ctx, item.seat, r.maneuver + 1, f"{card.name} resolved")
        elif card.type in ("Encampment", "Token"):
            self._enter_field(ctx, item.seat, item.card)

    def _resolve_boost(self, ctx: _Ctx, item: StackItem) -> None:
        b = self.card(item.card).boosts[item.boost]
        if b.choose and item.choice is None:
            ctx.update(
                pending=ctx.s.pending
                + (Pending(kind="choose", waiting=(item.seat,), item=item.uid, options=len(b.choose)),)
            )
            return
        ctx.set_item(item.uid, stage="done")
        effects = list(b.effects) + (list(b.choose[item.choice]) if b.choose else [])
        for e in effects:
            self._effect(ctx, item, e, redirect=False)

    def _resolve_ambush(self, ctx: _Ctx, item: StackItem) -> None:
        """A failed Ambush resolves: Chaos — H-1 (overflow at 0) and its own effects."""
        ctx.set_item(item.uid, stage="done")
        h = self.hcard(item.card)
        ctx.emit(Note(text=f"Chaos: {h.name} was not defended ({self.who(ctx.s, item.seat)})."))
        if item.shielded:
            ctx.emit(Note(text="Testudo: no Power is lost."))
        else:
            self._lose(ctx, item.seat, 1, f"{h.name} failed")
        for e in h.chaos:
            self._hannibal_effect(ctx, item.seat, e, h.name)

    def _enter_field(self, ctx: _Ctx, seat: Seat, card_id: str) -> None:
        r = ctx.roman(seat)
        card = self.card(card_id)
        hosts = [f for f in r.field if self.card(f.card).type == "Encampment"]
        if card.attach and hosts:
            host = min(hosts, key=lambda f: (len(f.attached), f.uid))
            field = tuple(
                f.model_copy(update={"attached": f.attached + (card_id,)}) if f.uid == host.uid else f
                for f in r.field
            )
            ctx.set_roman(seat, field=field)
            ctx.emit(
                Note(text=f"{card.name} is attached to {self.who(ctx.s, seat)}'s {self.name(host.card)}.")
            )
            return
        ctx.set_roman(seat, field=r.field + (FieldCard(uid=ctx.uid(), card=card_id),))

    # ------------------------------------------------------------------ effects

    def _effect(self, ctx: _Ctx, item: StackItem, e: Effect, redirect: bool) -> None:
        """Apply a Roman card's effect for ``item``'s controller (or the teammate it names)."""
        s = ctx.s
        seat = item.seat
        if e.who == "ally" or (redirect and item.to is not None and e.beneficial):
            seat = item.to if item.to is not None else item.seat
        name = self.name(item.card)
        if e.do == "power":
            if e.n >= 0:
                self._gain(ctx, seat, e.n, name)
            else:
                self._lose(ctx, seat, -e.n, name)
        elif e.do == "team_power":
            for x in self.roman_seats(s):
                self._gain(ctx, x, e.n, name)
        elif e.do == "draw":
            self._draw(ctx, seat, e.n, name)
        elif e.do == "draw_cz":
            self._draw(ctx, seat, e.n, name, cost_zone=True, face_up=e.face_up)
        elif e.do == "untap":
            self._untap(ctx, seat, e.n)
        elif e.do == "break":
            self._break(ctx, e.n, name)
        elif e.do == "recover":
            self._recover(ctx, seat, e.n, name)
        elif e.do == "reveal":
            self._reveal(ctx, e.n, name)
        elif e.do in ("defend", "defend_gain"):
            a = self._ambush(ctx.s, item.target)
            if a is None or a.defended:
                ctx.emit(Note(text=f"{name}: that Ambush is no longer there to defend."))
                return
            x = self.ambush_cost(ctx.s, a.card)
            self._mark_defended(ctx, a.uid, f"{self.who(s, item.seat)} plays {name}")
            if e.do == "defend_gain":
                gain = max(0, x - 3)
                ctx.emit(Note(text=f"{name}: X is {x}, so X -3 = {gain} Power."))
                if gain:
                    self._gain(ctx, seat, gain, name)
        elif e.do in ("counter", "shield"):
            target = next((i for i in reversed(ctx.s.stack) if i.kind == "ambush"), None)
            if target is None:  # nothing a boost or card may be countered by: R16
                return
            if e.do == "counter":
                ctx.update(
                    stack=tuple(i for i in ctx.s.stack if i.uid != target.uid),
                    defended_pile=ctx.s.defended_pile + (target.card,),
                    pending=tuple(p for p in ctx.s.pending if p.item != target.uid),
                )
                ctx.emit(Note(text=f"{name} counters {self.name(target.card)}: to the Defended pile."))
            else:
                ctx.set_item(target.uid, shielded=True)
        else:
            self._hannibal_effect(ctx, seat, e, name)

    def _hannibal_effect(self, ctx: _Ctx, seat: Seat, e: Effect, name: str) -> None:
        """Effects the Hannibal deck's cards have on a Roman (Chaos and conditions)."""
        r = ctx.roman(seat)
        who = self.who(ctx.s, seat)
        if e.do == "power":
            if e.n < 0:
                self._lose(ctx, seat, -e.n, name)
            else:
                self._gain(ctx, seat, e.n, name)
        elif e.do == "rotate":
            cz, left = [], e.n
            for c in r.cost_zone:
                if left and not c.tapped:
                    c = c.model_copy(update={"tapped": True})
                    left -= 1
                cz.append(c)
            ctx.set_roman(seat, cost_zone=tuple(cz))
            ctx.emit(Note(text=f"{name}: {who} rotates {count(e.n - left, 'Cost Zone card')}."))
        elif e.do == "discard":
            hand = list(r.hand)
            gone = []
            for _ in range(min(e.n, len(hand))):
                gone.append(hand.pop(ctx.rng.below(len(hand))))
            ctx.set_roman(seat, hand=tuple(hand), discard=r.discard + tuple(gone))
            if gone:
                ctx.emit(Note(text=f"{name}: {who} discards {', '.join(self._names(gone))} at random."))
        elif e.do == "shaken":
            ctx.set_roman(seat, shaken=r.shaken + 1)
            ctx.emit(Note(text=f"{name}: {who} is shaken and draws 1 card fewer next turn."))
        elif e.do == "maneuver":
            level = max(0, min(MAX_MANEUVER, r.maneuver + e.n))
            if level != r.maneuver:
                self._set_maneuver(ctx, seat, level, name)

    def _gain(self, ctx: _Ctx, seat: Seat, n: int, reason: str) -> None:
        r = ctx.roman(seat)
        new = min(MAX_POWER, r.power + n)
        ctx.set_roman(seat, power=new, gained=r.gained + (new - r.power))
        ctx.emit(
            PowerChanged(seat=seat, who=self.who(ctx.s, seat), delta=new - r.power, power=new, reason=reason)
        )

    def _lose(self, ctx: _Ctx, seat: Seat, n: int, reason: str) -> None:
        """Lose ``n`` Power; each point that cannot come off Power (already 0) is a card to
        discard from hand or Cost Zone (Overflow Rule)."""
        r = ctx.roman(seat)
        lost = min(r.power, n)
        over = n - lost
        cards = len(r.hand) + len(r.cost_zone)
        ctx.set_roman(seat, power=r.power - lost, overflow=min(r.overflow + over, cards))
        ctx.emit(
            PowerChanged(
                seat=seat, who=self.who(ctx.s, seat), delta=-lost, power=r.power - lost, reason=reason
            )
        )
        if over:
            ctx.emit(
                Note(
                    text=f"Overflow: {self.who(ctx.s, seat)} is at H0 and must discard {count(min(over, cards), 'card')}."
                )
            )

    def _set_maneuver(self, ctx: _Ctx, seat: Seat, level: int, reason: str) -> None:
        ctx.set_roman(seat, maneuver=level)
        ctx.emit(ManeuverChanged(seat=seat, who=self.who(ctx.s, seat), level=level, reason=reason))
        self._check_levels(ctx)

    def _check_levels(self, ctx: _Ctx) -> None:
        """Shared Domination Levels (free ability, recharges) and the clearing round."""
        s = ctx.s
        team = min(r.maneuver for r in s.romans)
        while team > ctx.s.shared_level:
            level = ctx.s.shared_level + 1
            ctx.update(shared_level=level)
            ctx.emit(Note(text=f"All Roman players reached Domination Level L{level}."))
            if ctx.s.level_abilities:
                charged = tuple(a for a in CHARGED_ABILITIES if a in ctx.s.abilities)
                if charged:
                    ctx.update(charged=charged)
                    ctx.emit(
                        Note(
                            text="Recharged: " + ", ".join(self.data.abilities[a].name for a in charged) + "."
                        )
                    )
                if self._unowned(ctx.s):
                    chooser = ctx.s.active
                    ctx.update(pending=ctx.s.pending + (Pending(kind="level", waiting=(chooser,)),))
        if team >= MAX_MANEUVER and ctx.s.clearing is None:
            ctx.update(clearing=Clearing(opener=ctx.s.active, round=ctx.s.round))
            ctx.emit(
                Note(
                    text=f"Every Roman player is at Domination L3: the clearing round opens, from the start of "
                    f"{self.who(ctx.s, ctx.s.active)}'s turn (round {ctx.s.round}) to their next turn."
                )
            )

    def _draw(
        self, ctx: _Ctx, seat: Seat, n: int, reason: str, cost_zone: bool = False, face_up: bool = False
    ) -> None:
        """Draw ``n`` cards; an empty deck is refilled from the shuffled discard pile, and
        with both empty the draw stops short (R5)."""
        drawn: list[str] = []
        for _ in range(n):
            r = ctx.roman(seat)
            if not r.deck:
                if not r.discard:
                    break
                ctx.set_roman(seat, deck=ctx.rng.shuffle(r.discard), discard=())
                ctx.emit(Note(text=f"{self.who(ctx.s, seat)} shuffles the discard pile into a new deck."))
                r = ctx.roman(seat)
            drawn.append(r.deck[0])
            ctx.set_roman(seat, deck=r.deck[1:])
        r = ctx.roman(seat)
        if cost_zone:
            ctx.set_roman(
                seat, cost_zone=r.cost_zone + tuple(CostCard(card=c, face_up=face_up) for c in drawn)
            )
        else:
            ctx.set_roman(seat, hand=r.hand + tuple(drawn))
        where = "Cost Zone" + (" face up" if face_up else "") if cost_zone else "hand"
        if face_up and drawn:
            ctx.emit(
                Note(
                    text=f"{self.who(ctx.s, seat)} draws {', '.join(self._names(drawn))} to the Cost Zone face up ({reason})."
                )
            )
        else:
            ctx.emit(
                Note(text=f"{self.who(ctx.s, seat)} draws {count(len(drawn), 'card')} to the {where} ({reason}).")
            )
        ctx.emit(CardsDrawn(seat=seat, names=self._names(drawn), where=where, visible_to=(seat,)))

    def _untap(self, ctx: _Ctx, seat: Seat, n: int) -> None:
        cz, left = [], n
        for c in ctx.roman(seat).cost_zone:
            if left and c.tapped:
                c = c.model_copy(update={"tapped": False})
                left -= 1
            cz.append(c)
        ctx.set_roman(seat, cost_zone=tuple(cz))
        ctx.emit(Note(text=f"{self.who(ctx.s, seat)} untaps {count(n - left, 'Cost Zone card')}."))

    def _pay(self, ctx: _Ctx, seat: Seat, n: int) -> None:
        """Pay C n / R n: rotate ``n`` untapped Cost Zone cards, face-down ones first (R11)."""
        cz = list(ctx.roman(seat).cost_zone)
        left = n
        for pass_face_up in (False, True):
            for i, c in enumerate(cz):
                if left and not c.tapped and c.face_up == pass_face_up:
                    cz[i] = c.model_copy(update={"tapped": True})
                    left -= 1
        if left:  # pragma: no cover - legality is checked before
            raise IllegalActionError(f"Not enough untapped Cost Zone cards to pay {n}.")
        ctx.set_roman(seat, cost_zone=tuple(cz))

    def _break(self, ctx: _Ctx, n: int, reason: str) -> None:
        """Break ``n`` Hannibal's Encampments, the strongest (highest defense) first (R10)."""
        for _ in range(n):
            if not ctx.s.encampments:
                return
            enc = max(ctx.s.encampments, key=lambda e: (self.hcard(e.card).defense, -e.uid))
            self._break_one(ctx, enc.uid, reason)

    def _break_one(self, ctx: _Ctx, uid: int, reason: str) -> None:
        enc = next(e for e in ctx.s.encampments if e.uid == uid)
        ctx.update(
            encampments=tuple(e for e in ctx.s.encampments if e.uid != uid),
            defended_pile=ctx.s.defended_pile + (enc.card,),
        )
        ctx.emit(Note(text=f"{self.name(enc.card)} is broken ({reason}): to the Defended pile."))

    def _recover(self, ctx: _Ctx, seat: Seat, n: int, reason: str) -> None:
        r = ctx.roman(seat)
        k = min(n, len(r.discard))
        if not k:
            return
        idx = set(ctx.rng.sample(range(len(r.discard)), k))
        back = [c for i, c in enumerate(r.discard) if i in idx]
        rest = tuple(c for i, c in enumerate(r.discard) if i not in idx)
        ctx.set_roman(seat, discard=rest, deck=ctx.rng.shuffle(r.deck + tuple(back)))
        ctx.emit(
            Note(
                text=f"{self.who(ctx.s, seat)} shuffles {count(k, 'card')} from the discard pile into the deck ({reason}): {', '.join(self._names(back))}."
            )
        )

    def _reveal(self, ctx: _Ctx, n: int, reason: str) -> None:
        k = min(n, len(ctx.s.hannibal_deck))
        ctx.update(known=max(ctx.s.known, k))
        top = ctx.s.hannibal_deck[: ctx.s.known]
        ctx.emit(
            Note(
                text=f"{reason}: the Hannibal deck's next draws are "
                + (", ".join(self._names(top)) or "none")
                + "."
            )
        )

    def _mark_defended(self, ctx: _Ctx, uid: int, how: str) -> None:
        a = self._ambush(ctx.s, uid)
        ctx.update(
            ambushes=tuple(
                x.model_copy(update={"defended": True}) if x.uid == uid else x for x in ctx.s.ambushes
            )
        )
        ctx.emit(Note(text=f"{self.name(a.card)} is defended: {how}."))

    @staticmethod
    def _ambush(s: State, uid: int | None) -> ActiveAmbush | None:
        return next((a for a in s.ambushes if a.uid == uid), None)

    # ------------------------------------------------------------------ actions

    def _play(self, ctx: _Ctx, seat: Seat, a: PlayCard) -> None:
        """Step one: pay for the card and play it (it goes on the stack; R13)."""
        s = ctx.s
        card = self.card(a.card)
        r = ctx.roman(seat)
        if a.source == "hand":
            hand = list(r.hand)
            hand.remove(a.card)
            ctx.set_roman(seat, hand=tuple(hand))
        else:
            cz = list(r.cost_zone)
            i = next(i for i, c in enumerate(cz) if c.card == a.card and c.face_up and not c.tapped)
            cz.pop(i)
            ctx.set_roman(seat, cost_zone=tuple(cz))
        fee = self.fee_for(s, card)
        self._pay(ctx, seat, card.cost + fee)
        speed = s.phase != "main" and card.type in ("Maneuver", "Encampment")
        if speed:
            ctx.update(speed_used=True)
        horse = a.to is not None and not card.needs_ally
        if horse:
            ctx.update(horse_used=True)
        item = StackItem(
            uid=ctx.uid(),
            kind="card",
            seat=seat,
            card=a.card,
            to=a.to,
            target=a.target,
            fee=bool(fee),
            speed=speed,
        )
        ctx.update(stack=ctx.s.stack + (item,))
        bits = [f"{self.who(s, seat)} plays {card.name} (C{card.cost}{f' + fee C{fee}' if fee else ''})"]
        if a.source == "cost_zone":
            bits.append("from the Cost Zone")
        if a.target is not None:
            bits.append(f"against {self.name(self._ambush(s, a.target).card)}")
        if a.to is not None:
            bits.append(("for " if not horse else "redirected by Brotherly Horse to ") + self.who(s, a.to))
        if speed:
            bits.append("(Speed)")
        ctx.emit(CardPlayed(seat=seat, card=a.card, text=" ".join(bits) + f": {card.line()}"))

    def _rotate(self, ctx: _Ctx, seat: Seat, a: Rotate) -> None:
        r = ctx.roman(seat)
        f = next(f for f in r.field if f.uid == a.uid)
        ctx.set_roman(
            seat, field=tuple(x.model_copy(update={"tapped": True}) if x.uid == a.uid else x for x in r.field)
        )
        ctx.emit(
            Note(
                text=f"{self.who(ctx.s, seat)} rotates {self.name(f.card)}"
                + "".join(f" + {self.name(c)}" for c in f.attached)
                + "."
            )
        )
        item = StackItem(uid=0, kind="card", seat=seat, card=f.card, target=a.target)
        for cid in (f.card, *f.attached):
            for e in self.card(cid).rotate:
                self._effect(ctx, item, e, redirect=False)

    def _take_boost(self, ctx: _Ctx, seat: Seat, p: Pending, index: int) -> None:
        item = ctx.item(p.item)
        b = self.card(item.card).boosts[index]
        cost = self._boost_cost(ctx.s, item, b, seat)
        self._pay(ctx, seat, cost)
        ctx.set_item(item.uid, taken=item.taken + (index,), boosted=True)
        boost = StackItem(
            uid=ctx.uid(),
            kind="boost",
            seat=item.seat,
            card=item.card,
            boost=index,
            parent=item.uid,
            payer=seat,
        )
        ctx.update(stack=ctx.s.stack + (boost,))
        fee = " (with the Target-Change fee)" if b.payer == "ally" and self.solo(ctx.s) else ""
        ctx.emit(
            Note(
                text=f"{self.who(ctx.s, seat)} pays C{cost}{fee} for boost {index + 1} of {self.name(item.card)}: {b.line()}."
            )
        )

    def _pass(self, ctx: _Ctx, seat: Seat, p: Pending) -> None:
        waiting = tuple(x for x in p.waiting if x != seat)
        ctx.update(pending=ctx.s.pending[:-1] + (p.model_copy(update={"waiting": waiting}),))

    def _helps(self, s: State, seat: Seat) -> bool:
        """Whether ``seat`` is asked to help defend: it can pay from its Cost Zone, or it may
        hold a Defense card it could play, as far as the table can tell (R23)."""
        return bool(self._defendable(s, seat, helper=True) or self._could_play(s, seat, helping=True))

    def _pick_ability(self, ctx: _Ctx, seat: Seat, a: PickAbility, p: Pending | None) -> None:
        ab = self.data.abilities[a.ability]
        if a.buy:
            cost = ABILITY_COST[ab.tier]
            self._pay(ctx, seat, cost)
            how = f"bought by {self.who(ctx.s, seat)} for {cost} Cost"
        else:
            ctx.update(pending=ctx.s.pending[:-1])
            how = "chosen free for reaching a new Domination Level"
        ctx.update(abilities=ctx.s.abilities + (a.ability,))
        if a.ability in CHARGED_ABILITIES:
            ctx.update(charged=ctx.s.charged + (a.ability,))
        ctx.emit(Note(text=f"The Roman team gains {ab.display} ({how}): {ab.text}"))
        if a.buy and not self._buyable(ctx.s, seat):
            self._to_hannibal(ctx)

    def _use_ability(self, ctx: _Ctx, seat: Seat, ability: str) -> None:
        ctx.update(charged=tuple(x for x in ctx.s.charged if x != ability))
        if ability == "restoration":
            ctx.emit(Note(text=f"{self.who(ctx.s, seat)} uses Restoration."))
            for x in self.roman_seats(ctx.s):
                self._recover(ctx, x, RESTORATION_CARDS, "Restoration")
        else:
            ctx.emit(Note(text=f"{self.who(ctx.s, seat)} uses Deliverance."))
            self._break(ctx, DELIVERANCE_BREAKS, "Deliverance")

    def _overflow(self, ctx: _Ctx, seat: Seat, a: Overflow) -> None:
        r = ctx.roman(seat)
        if a.source == "hand":
            hand = list(r.hand)
            hand.remove(a.card)
            ctx.set_roman(seat, hand=tuple(hand))
        else:
            cz = list(r.cost_zone)
            i = max(
                (i for i, c in enumerate(cz) if c.card == a.card),
                key=lambda i: (cz[i].tapped, not cz[i].face_up, i),
            )
            cz.pop(i)
            ctx.set_roman(seat, cost_zone=tuple(cz))
        r = ctx.roman(seat)
        left = r.overflow - 1
        if not r.hand and not r.cost_zone:
            left = 0
        ctx.set_roman(seat, discard=r.discard + (a.card,), overflow=left)
        where = "hand" if a.source == "hand" else "Cost Zone"
        ctx.emit(
            Note(text=f"Overflow: {self.who(ctx.s, seat)} discards {self.name(a.card)} from the {where}.")
        )

    def _adjust(self, ctx: _Ctx, seat: Seat, a: Adjust) -> None:
        who = self.who(ctx.s, seat)
        ctx.emit(Note(text=f"House rule: {who} sets {a.stat.title()} to {a.value} by hand."))
        if a.stat == "power":
            r = ctx.roman(seat)
            ctx.set_roman(seat, power=a.value)
            ctx.emit(
                PowerChanged(
                    seat=seat, who=who, delta=a.value - r.power, power=a.value, reason="adjusted by hand"
                )
            )
        else:
            self._set_maneuver(ctx, seat, a.value, "adjusted by hand")

    def _duel_play(self, ctx: _Ctx, a: Ambush) -> None:
        hand = list(ctx.s.hannibal_hand)
        hand.remove(a.card)
        ctx.update(hannibal_hand=tuple(hand), hannibal_to_play=ctx.s.hannibal_to_play - 1)
        self._hannibal_play(ctx, a.card, a.target)

    def _done(self, ctx: _Ctx, seat: Seat) -> None:
        s = ctx.s
        if s.phase == "cost":
            self._after_cost(ctx)
        elif s.phase == "purchase":
            self._to_hannibal(ctx)
        elif s.phase == "hannibal":
            extra = len(s.hannibal_hand) - DUEL_MAX_HANNIBAL_HAND
            if extra > 0:
                hand = list(s.hannibal_hand)
                gone = [hand.pop(ctx.rng.below(len(hand))) for _ in range(extra)]
                ctx.update(hannibal_hand=tuple(hand), hannibal_discard=s.hannibal_discard + tuple(gone))
                ctx.emit(
                    Note(
                        text=f"Hannibal discards {count(extra, 'card')} at random down to {DUEL_MAX_HANNIBAL_HAND}."
                    )
                )
            self._to_defense(ctx)
        elif s.phase == "defense":
            helpers = tuple(x for x in s.turn_order if x != seat and self._helps(s, x))
            if helpers and any(not a.defended for a in s.ambushes):
                ctx.update(pending=s.pending + (Pending(kind="help", waiting=helpers),))
            else:
                self._settle(ctx)
        elif s.phase == "main":
            ctx.update(phase="end")

    # ------------------------------------------------------------------ turn structure

    def _begin_turn(self, ctx: _Ctx) -> None:
        """The first phase: untap, conditions and status effects, draw Maneuver + 2."""
        s = ctx.s
        seat = s.active
        ctx.emit(TurnBegan(seat=seat, who=self.who(s, seat), round=s.round))
        r = ctx.roman(seat)
        ctx.set_roman(
            seat,
            cost_zone=tuple(c.model_copy(update={"tapped": False}) for c in r.cost_zone),
            field=tuple(f.model_copy(update={"tapped": False}) for f in r.field),
            gained=0,
        )
        ctx.update(placed=0, speed_used=False, horse_used=False, phase="cost")
        for enc in s.encampments:
            h = self.hcard(enc.card)
            for e in h.condition:
                self._hannibal_effect(ctx, seat, e, h.name)
        r = ctx.roman(seat)
        n_draw = max(0, r.maneuver + 2 - r.shaken)
        ctx.set_roman(seat, shaken=0)
        self._draw(
            ctx, seat, n_draw, f"Maneuver {r.maneuver} + 2" + (f", shaken -{r.shaken}" if r.shaken else "")
        )
        if self.has(ctx.s, "foresight"):
            self._reveal(ctx, hannibal_draws(ctx.roman(seat).maneuver), "Foresight")

    def _after_cost(self, ctx: _Ctx) -> None:
        s = ctx.s
        seat = s.active
        if self.has(s, "vibrancy"):
            cz = list(ctx.roman(seat).cost_zone)
            down = [i for i, c in enumerate(cz) if not c.face_up][-VIBRANCY_FLIPS:]
            for i in down:
                cz[i] = cz[i].model_copy(update={"face_up": True})
            ctx.set_roman(seat, cost_zone=tuple(cz))
            if down:
                ctx.emit(
                    Note(
                        text=f"Vibrancy: {self.who(s, seat)} flips {', '.join(self.name(cz[i].card) for i in down)} face up."
                    )
                )
        if self._buyable(ctx.s, seat):
            ctx.update(phase="purchase")
        else:
            self._to_hannibal(ctx)

    def _to_hannibal(self, ctx: _Ctx) -> None:
        """Hannibal draws and plays the Roman's draw minus 1, or Maneuver + 2 at
        Maneuver 2+ (R8). Co-op: every card drawn is played at once, at the active Roman."""
        s = ctx.s
        k = hannibal_draws(s.romans[s.active].maneuver)
        drawn = self._hannibal_draw(ctx, k)
        if s.mode == "duel":
            # several Hannibal seats take the Hannibal phases in turn, one per Roman turn (R17)
            hs = self.hannibal_seats(s)
            deciding = hs[s.hannibal_turns % len(hs)]
            ctx.update(
                hannibal_hand=ctx.s.hannibal_hand + tuple(drawn),
                hannibal_to_play=k,
                phase="hannibal",
                hannibal_seat=deciding,
                hannibal_turns=s.hannibal_turns + 1,
            )
            who = self.who(ctx.s, deciding)
            ctx.emit(Note(text=f"{who} draws {count(len(drawn), 'card')} for the Hannibal side and may play up to {k}."))
            ctx.emit(CardsDrawn(seat=deciding, names=self._names(drawn), visible_to=hs))
            return
        ctx.emit(
            Note(
                text=f"The Hannibal deck draws and plays {count(len(drawn), 'card')} (Maneuver {s.romans[s.active].maneuver})."
            )
        )
        for c in drawn:
            self._hannibal_play(ctx, c, s.active)
        self._to_defense(ctx)

    def _hannibal_draw(self, ctx: _Ctx, k: int) -> list[str]:
        drawn = []
        for _ in range(k):
            if not ctx.s.hannibal_deck:
                if not ctx.s.hannibal_discard:
                    break
                ctx.update(
                    hannibal_deck=ctx.rng.shuffle(ctx.s.hannibal_discard), hannibal_discard=(), known=0
                )
                ctx.emit(
                    Note(
                        text="The Hannibal deck is shuffled from its discard pile (the Defended pile stays out)."
                    )
                )
            drawn.append(ctx.s.hannibal_deck[0])
            ctx.update(hannibal_deck=ctx.s.hannibal_deck[1:], known=max(0, ctx.s.known - 1))
        return drawn

    def _hannibal_play(self, ctx: _Ctx, card_id: str, target: Seat | None) -> None:
        h = self.hcard(card_id)
        if h.type == "Ambush":
            amb = ActiveAmbush(uid=ctx.uid(), card=card_id, target=target)
            ctx.update(ambushes=ctx.s.ambushes + (amb,))
            text_ = f"Hannibal plays {ambush_named(h.name)} against {self.who(ctx.s, target)} ({h.line()}; now R{self.ambush_cost(ctx.s, card_id)})."
        else:
            ctx.update(encampments=ctx.s.encampments + (HannibalEncampment(uid=ctx.uid(), card=card_id),))
            text_ = f"Hannibal makes camp: {h.name} ({h.line()})."
            target = None
        ctx.emit(HannibalPlayed(card=card_id, name=h.name, target=target, text=text_))

    def _to_defense(self, ctx: _Ctx) -> None:
        ctx.update(phase="defense")
        if not ctx.s.ambushes:
            ctx.update(phase="main")

    def _settle(self, ctx: _Ctx) -> None:
        """Every active Ambush is settled: defended (to the Defended pile) or failed (onto
        the stack, where it resolves as Chaos)."""
        ctx.update(settling=True)

    def _settle_next(self, ctx: _Ctx) -> None:
        s = ctx.s
        failed = next((a for a in s.ambushes if not a.defended), None)
        if failed is None:
            done = tuple(a.card for a in s.ambushes)
            ctx.update(ambushes=(), settling=False, phase="main", defended_pile=s.defended_pile + done)
            return
        ctx.update(ambushes=tuple(a for a in s.ambushes if a.uid != failed.uid))
        ctx.update(
            stack=ctx.s.stack
            + (StackItem(uid=failed.uid, kind="ambush", seat=failed.target, card=failed.card),)
        )

    def _end_turn(self, ctx: _Ctx) -> None:
        s = ctx.s
        seat = s.active
        r = ctx.roman(seat)
        if self.has(s, "cost-zone-power") and r.gained >= COST_ZONE_POWER_GAIN:
            self._draw(ctx, seat, 1, "Cost Zone Power", cost_zone=True)
        if s.mode == "duel" and all(x.power == 0 for x in ctx.s.romans):
            self._finish(
                ctx, "hannibal", "Hannibal has ground every Roman's Power to nothing: Hannibal wins the duel."
            )
            return
        self._advance(ctx)

    def _advance(self, ctx: _Ctx) -> None:
        """Pass the turn; judge the clearing round when it closes and the end of round 10 (R3)."""
        s = ctx.s
        turn, rnd = s.turn + 1, s.round
        if turn >= len(s.turn_order):
            turn, rnd = 0, rnd + 1
        ctx.update(turn=turn, round=rnd)
        seat = s.turn_order[turn]
        c = s.clearing
        if c is not None and not c.extended and seat == c.opener:
            if self._cleared(ctx.s):
                self._finish(
                    ctx,
                    "romans",
                    "Every Roman player is at Domination L3 and no Hannibal's Encampment stands: the clearing round is won. Rome wins!",
                )
                return
            if rnd <= s.last_round:
                ctx.update(clearing=c.model_copy(update={"extended": True}))
                ctx.emit(
                    Note(
                        text=f"The clearing round closes unfinished; round {s.last_round} has not ended, so it runs on to the end of round {s.last_round}."
                    )
                )
            else:
                self._finish(
                    ctx,
                    "hannibal",
                    "The clearing round closed with the condition unmet, after round 10: Hannibal wins.",
                )
                return
        if turn == 0 and rnd == s.last_round + 1:
            c = ctx.s.clearing
            if c is None:
                self._finish(
                    ctx,
                    "hannibal",
                    f"The Roman side has not won by the end of round {s.last_round}: Hannibal wins.",
                )
                return
            if c.extended:
                if self._cleared(ctx.s):
                    self._finish(
                        ctx,
                        "romans",
                        f"At the end of round {s.last_round}, every Roman is at L3 and no Hannibal's Encampment stands. Rome wins!",
                    )
                else:
                    self._finish(
                        ctx,
                        "hannibal",
                        f"The end of round {s.last_round}: the clearing round is not won. Hannibal wins.",
                    )
                return
            ctx.emit(
                Note(
                    text=f"Round {s.last_round} is over, but the clearing round runs to {self.who(ctx.s, c.opener)}'s next turn."
                )
            )
        self._begin_turn(ctx)

    def _cleared(self, s: State) -> bool:
        return all(r.maneuver >= MAX_MANEUVER for r in s.romans) and not s.encampments

    def _finish(self, ctx: _Ctx, winner: str, reason: str) -> None:
        ctx.update(phase="over", winner=winner, end_reason=reason, pending=(), stack=(), settling=False)
        ctx.emit(GameEnded(winner=winner, text=reason))

    # ------------------------------------------------------------------ outcome and view

    def outcome(self, s: State) -> Outcome | None:
        """None while playing; then every Roman seat (Rome wins), or the Hannibal seat in a
        duel, or nobody (the deck won a co-op game)."""
        if s.phase != "over":
            return None
        if s.winner == "romans":
            return Outcome(winners=self.roman_seats(s), reason=s.end_reason)
        winners = self.hannibal_seats(s)
        return Outcome(winners=winners, reason=s.end_reason)

    def card_view(self, card_id: str) -> CardView:
        if card_id in self.data.cards:
            c = self.card(card_id)
            return CardView(id=c.id, name=c.name, type=c.type, cost=c.cost, line=c.line())
        h = self.hcard(card_id)
        return CardView(id=h.id, name=h.name, type=h.type, defense=h.defense, line=h.line())

    # ------------------------------------------------------------ hidden information

    def seats(self, s: State) -> tuple[Seat, ...]:
        """Every seat: the Romans, then Hannibal's seat in a duel."""
        extra = (s.hannibal_seat,) if s.hannibal_seat is not None else ()
        return tuple(range(len(s.romans))) + extra

    def perturb_hidden(self, s: State, keep: frozenset[Seat] | None, rand: random.Random) -> State:
        """``s`` as the seats of ``keep`` cannot tell it apart (games.core.secrets): every
        draw pile shuffled (the Hannibal deck below its ``known`` top cards); for a Roman
        outside ``keep``, hand, deck and face-down Cost Zone cards redealt among
        themselves; Hannibal's duel hand redealt with the unknown Hannibal deck when
        Hannibal's seat is outside ``keep``."""
        romans = []
        for x, r in enumerate(s.romans):
            if keep is not None and x not in keep:
                down = [i for i, c in enumerate(r.cost_zone) if not c.face_up]
                hand, deck, faces = redeal([r.hand, r.deck, [r.cost_zone[i].card for i in down]], rand)
                zone = list(r.cost_zone)
                for i, c in zip(down, faces, strict=True):
                    zone[i] = zone[i].model_copy(update={"card": c})
                romans.append(r.model_copy(update={"hand": hand, "deck": deck, "cost_zone": tuple(zone)}))
            else:
                romans.append(r.model_copy(update={"deck": shuffled(r.deck, rand)}))
        top, rest = s.hannibal_deck[: s.known], s.hannibal_deck[s.known :]
        hand = s.hannibal_hand
        if s.hannibal_seat is not None and keep is not None and s.hannibal_seat not in keep:
            hand, rest = redeal([hand, rest], rand)
        else:
            rest = shuffled(rest, rand)
        return s.model_copy(update={"romans": tuple(romans), "hannibal_deck": top + rest, "hannibal_hand": hand})

    def view(self, s: State, viewer: Seat | None) -> View:
        """What ``viewer`` may see (None = spectator): its own hand and face-down Cost Zone
        cards, Hannibal's hand for the Hannibal seat; other hands, face-down cards and the
        deck orders are never in it (only the revealed top of the Hannibal deck)."""
        romans = []
        for x, r in enumerate(s.romans):
            own = viewer == x
            romans.append(
                RomanView(
                    seat=x,
                    commander=self.who(s, x),
                    deck_id=r.deck_id,
                    power=r.power,
                    maneuver=r.maneuver,
                    hand_size=len(r.hand),
                    deck_size=len(r.deck),
                    discard_size=len(r.discard),
                    discard_top=self.card_view(r.discard[-1]) if r.discard else None,
                    cost_zone=tuple(
                        CostView(
                            card=self.card_view(c.card) if (c.face_up or own) else None,
                            face_up=c.face_up,
                            tapped=c.tapped,
                        )
                        for c in r.cost_zone
                    ),
                    untapped_cost=self.untapped(s, x),
                    field=tuple(
                        FieldView(
                            uid=f.uid,
                            card=self.card_view(f.card),
                            tapped=f.tapped,
                            attached=tuple(self.card_view(c) for c in f.attached),
                        )
                        for f in r.field
                    ),
                    shaken=r.shaken,
                    overflow=r.overflow,
                    hand=tuple(self.card_view(c) for c in r.hand) if own else None,
                )
            )
        prompts = self.to_act(s)
        return View(
            viewer=viewer,
            mode=s.mode,
            round=s.round,
            last_round=s.last_round,
            phase=s.phase,
            active=None if s.phase == "over" else s.active,
            turn_order=s.turn_order,
            romans=tuple(romans),
            hannibal_seat=s.hannibal_seat,
            hannibal_seats=self.hannibal_seats(s),
            hannibal_deck_size=len(s.hannibal_deck),
            hannibal_discard_size=len(s.hannibal_discard),
            hannibal_hand_size=len(s.hannibal_hand),
            hannibal_hand=tuple(self.card_view(c) for c in s.hannibal_hand)
            if viewer is not None and viewer in self.hannibal_seats(s)
            else None,
            defended_size=len(s.defended_pile),
            foresight=tuple(self.card_view(c) for c in s.hannibal_deck[: s.known]),
            ambushes=tuple(
                AmbushView(
                    uid=a.uid,
                    card=self.card_view(a.card),
                    target=a.target,
                    defense=self.ambush_cost(s, a.card),
                    defended=a.defended,
                )
                for a in s.ambushes
            ),
            encampments=tuple(
                EncampmentView(uid=e.uid, card=self.card_view(e.card), defense=self.hcard(e.card).defense)
                for e in s.encampments
            ),
            stack=tuple(
                StackView(uid=i.uid, kind=i.kind, seat=i.seat, name=self._item_name(s, i.uid), stage=i.stage)
                for i in s.stack
            ),
            level_abilities=s.level_abilities,
            abilities=s.abilities,
            charged=s.charged,
            shared_level=s.shared_level,
            clearing=ClearingView(
                opener=s.clearing.opener, round=s.clearing.round, extended=s.clearing.extended
            )
            if s.clearing
            else None,
            waiting=tuple(prompts),
            prompt="; ".join(p.text for p in prompts.values()),
            winner=s.winner,
            end_reason=s.end_reason,
        )

    def summary(self, v: View) -> str:
        """Plain-text board for the terminal and logs (see text.summary)."""
        return text.summary(v)

    def hand_text(self, v: View) -> str:
        """The viewer's hand as text."""
        return text.hand_text(v)

    # ------------------------------------------------------------------ notation

    def _names(self, cards: Sequence[str]) -> tuple[str, ...]:
        return tuple(self.name(c) for c in cards)


def _dedupe(actions: list[Any]) -> list[Any]:
    return list(dict.fromkeys(actions))


GAME = RomanWar()
