"""Barbarian Hordes rules (rule text: shared/seeds/004; rulings: RULINGS.md).

The flow: setup (tokens, cards, 1D10 turn order) -> nation draft -> turns of five
phases (Fate, Recruit, Event, Conquest, End). Automatic steps (draws, recruit
rolls, war dice) happen inside ``apply``; the game stops whenever a seat must
decide something and says so through ``to_act``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from math import comb
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
from games.core.english import count as counted
from games.core.errors import list_words
from games.core.explain import Explanation
from games.core.secrets import redeal
from games.core.space import combination_at
from games.core.window import seats_after

from . import notation, text
from .data import Card, explanations, load
from .model import (
    Action,
    ArmiesChanged,
    Attack,
    Block,
    CardPlayed,
    CardsDrawn,
    CardsReceived,
    CardView,
    Contribution,
    Discard,
    Done,
    Fight,
    GameWon,
    HandSeen,
    MoveSeat,
    Note,
    Pass,
    PendingLeader,
    PhaseBegan,
    PickNation,
    PlayCard,
    PlayerState,
    PlayerView,
    SeatingChanged,
    State,
    Support,
    TurnOrderRolled,
    Variant,
    View,
    WarCommitted,
    WarDeclared,
    WarResolved,
    WarResult,
    WarState,
    Window,
)

VICTORY_TERRITORIES = 10  # VICTORY
START_TERRITORIES = 5  # SETUP
START_ARMIES = 10  # SETUP
START_CARDS = 5  # SETUP
HAND_LIMIT = 8  # END PHASE
SKILLED_HAND_LIMIT = 10  # Western Roman Empire: Skilled
SKILLED_FORCE = 2  # Western Roman Empire: Plus Force cards provide +2
BERSERK_FORCE = 3  # Visigoths: sacrifice an Army Token to get Force +3
D_CARDS = 3  # D = Draw 3 cards

_ACTION = TypeAdapter(Action)


class Options(Model):
    """Variants and options.

    ``variant``: ``standard`` or ``three-player`` (THREE PLAYER VARIANT; exactly 3
    seats). ``nations``: a nation id per seat to skip the draft. ``round_limit``:
    optional house rule ending the game after that many rounds (RULINGS.md R16).
    """

    variant: Variant = "standard"
    nations: tuple[str, ...] | None = None
    round_limit: int | None = Field(default=None, ge=1)

    @model_validator(mode="after")
    def _check(self) -> Options:
        if self.nations is not None and len(set(self.nations)) != len(self.nations):
            raise ValueError("each seat needs a different nation")
        return self


class _Ctx(ApplyContext):
    """One ``apply``'s scratch (games.core.ApplyContext) with this game's helpers."""

    __slots__ = ()

    def player(self, seat: Seat) -> PlayerState:
        return self.s.players[seat]


class BarbarianHordes(NotationGame):
    """The Barbarian Hordes game object (stateless; see games.core.Game)."""

    explained = "card, nation or nation ability"

    id = "barbarian-hordes"
    title = "Barbarian Hordes"
    min_players = 2
    max_players = 12
    Options = Options
    State = State
    View = View
    notation = notation
    action_adapter = _ACTION

    def explanations(self) -> tuple[Explanation, ...]:
        """Every card, nation and nation ability with its text (data/*.toml)."""
        return explanations()

    def __init__(self) -> None:
        self.data = load()

    # ------------------------------------------------------------------ helpers

    def card(self, card_id: str) -> Card:
        return self.data.cards[card_id]

    def nation_name(self, s: State, seat: Seat) -> str:
        nation = s.players[seat].nation
        return self.data.nation(nation).name if nation else f"Seat {seat + 1}"

    def notation_is_public(self, s: State, seat: Seat, a: Any) -> bool:
        """Every Barbarian Hordes action is public as typed, except war commitments
        (made at a secret prompt, revealed together later)."""
        return s.war is None or s.war.stage != "commit"

    def seat_name(self, s: State, seat: Seat) -> str | None:
        """The nation ``seat`` plays, or None before it has picked one."""
        nation = s.players[seat].nation
        return self.data.nation(nation).name if nation else None

    def possessive(self, s: State, seat: Seat) -> str:
        """ "Huns'", "Western Roman Empire's"."""
        name = self.nation_name(s, seat)
        return name + ("'" if name.endswith("s") else "'s")

    def abilities(self, s: State, seat: Seat) -> tuple[str, ...]:
        p = s.players[seat]
        return self.data.nation(p.nation).abilities if p.nation and p.status == "in" else ()

    def hand_limit(self, s: State, seat: Seat) -> int:
        return SKILLED_HAND_LIMIT if "skilled" in self.abilities(s, seat) else HAND_LIMIT

    def living(self, s: State) -> tuple[Seat, ...]:
        """Seats in play, in turn order."""
        return tuple(x for x in s.turn_order if s.players[x].status == "in")

    def neighbours(self, s: State, seat: Seat) -> tuple[Seat, ...]:
        """(left, right) neighbours in the seating circle; one seat when only two sit."""
        ring = s.seating
        if seat not in ring or len(ring) < 2:
            return ()
        i = ring.index(seat)
        left, right = ring[(i + 1) % len(ring)], ring[i - 1]
        return (left,) if left == right else (left, right)

    def attack_targets(self, s: State) -> tuple[Seat, ...]:
        """Neighbours the active player may attack now (CONQUEST PHASE; P and I cards)."""
        if s.attack_forbidden or s.conquests_left <= 0:
            return ()
        return tuple(t for t in self.neighbours(s, s.active) if t not in s.protected)

    def seat_moves(self, s: State, seat: Seat) -> list[tuple[Seat, Seat]]:
        """Every (left, right) pair of neighbours ``seat`` could move between, changing
        who its neighbours are (RULINGS.md R3)."""
        others = [x for x in s.seating if x != seat]
        if len(others) < 3:
            return []
        current = set(self.neighbours(s, seat))
        moves = []
        for i, right in enumerate(others):
            left = others[(i + 1) % len(others)]
            if {left, right} != current:
                moves.append((left, right))
        return moves

    def nation_pool(self, s: State, reentry: bool) -> list[str]:
        """Nations that may be picked now. Draft: the highest tier with a nation left
        (THE NATIONS). Re-entry: any nation not yet played (DEFEAT; RULINGS.md R13)."""
        played = set(s.nations_played)
        if s.variant == "three-player" and not reentry:
            return [n for n in self.data.variant_nations if n not in played]
        if s.variant == "three-player":
            taken = {a for n in self.data.variant_nations.values() for a in n.abilities}
            return [
                n.id
                for n in self.data.nations.values()
                if n.id not in played and not set(n.abilities) & taken
            ]
        free = [n for n in self.data.nations.values() if n.id not in played]
        if reentry or not free:
            return [n.id for n in free]
        tier = min(n.tier for n in free)
        return [n.id for n in free if n.tier == tier]

    # ------------------------------------------------------------------ contract

    def setup(self, seats: Sequence[Seat], options: Options | None, rng: Rng) -> Step[State]:
        """SETUP: 5 Territory Tokens, 10 Army Tokens, 5 random cards each; turn order by
        1D10, ties rerolled (RULINGS.md R2); then the nation draft unless
        ``options.nations`` assigns them.

        Raises IllegalActionError for a seat count or options the rules do not allow.
        """
        options = options or Options()
        n = len(seats)
        if list(seats) != list(range(n)):
            raise IllegalActionError("Seats must be numbered 0 .. players - 1.")
        if not self.min_players <= n <= self.max_players:
            raise IllegalActionError(f"Barbarian Hordes takes 2 to 12 players, not {n}.")
        if options.variant == "three-player" and n != 3:
            raise IllegalActionError(f"The three-player variant needs exactly 3 players, not {n}.")
        deck = rng.shuffle(list(self.data.cards))
        rolls: list[list[int]] = [[] for _ in range(n)]
        groups: list[list[Seat]] = [list(range(n))]
        order: list[Seat] = []
        while groups:
            group = groups.pop(0)
            if len(group) == 1:
                order.append(group[0])
                continue
            this = {x: rng.die(10) for x in group}
            for x in group:
                rolls[x].append(this[x])
            by_value: dict[int, list[Seat]] = {}
            for x in group:
                by_value.setdefault(this[x], []).append(x)
            groups = [by_value[v] for v in sorted(by_value, reverse=True)] + groups
        players = []
        for _ in range(n):
            hand, deck = deck[:START_CARDS], deck[START_CARDS:]
            players.append(PlayerState(armies=START_ARMIES, territories=START_TERRITORIES, hand=tuple(hand)))
        s = State(
            variant=options.variant,
            players=tuple(players),
            seating=tuple(range(n)),
            turn_order=tuple(order),
            deck=tuple(deck),
            round_limit=options.round_limit,
        )
        ctx = _Ctx(s, rng)
        ctx.emit(TurnOrderRolled(rolls=tuple(tuple(r) for r in rolls), order=tuple(order)))
        for x in range(n):
            ctx.emit(CardsDrawn(seat=x, who=f"Seat {x + 1}", count=START_CARDS, reason="setup"))
            ctx.emit(
                CardsReceived(
                    seat=x, cards=s.players[x].hand, names=self._names(s.players[x].hand), visible_to=(x,)
                )
            )
        if options.nations is not None:
            if len(options.nations) != n:
                raise IllegalActionError(f"Give one nation per seat: {n} needed.")
            for x, nation in enumerate(options.nations):
                pool = self.nation_pool(ctx.s, reentry=False)
                if nation not in pool:
                    names = [self.data.nation(p).name for p in pool]
                    raise IllegalActionError(
                        f"Seat {x + 1} cannot take {nation!r} now; available: {list_words(names)}."
                    )
                self._take_nation(ctx, x, nation)
            self._begin_turn(ctx)
        return Step(state=ctx.s, events=tuple(ctx.events))

    def to_act(self, s: State) -> Mapping[Seat, Prompt]:
        if s.phase == "over":
            return {}
        if s.phase == "draft":
            seat = self._drafter(s)
            return {seat: Prompt(kind="turn", text="Pick your nation.")}
        if s.war is not None:
            war = s.war
            if war.stage == "commit":
                return {x: Prompt(kind="secret", text=self._commit_text(s, x)) for x in war.waiting}
            return {
                x: Prompt(
                    kind="respond", text="Leader cards were revealed: negate one with a K card, or pass."
                )
                for x in war.waiting
            }
        if s.windows:
            w = s.windows[-1]
            return {x: Prompt(kind="respond", text=w.reason) for x in w.waiting}
        text = {
            "reentry": "You were wiped out: you may re-enter the game as a new nation (pick <nation>),"
            " or pass to stay out of the game for good.",
            "fate": "Fate Phase: you may change your seating position (Migratory), or say done.",
            "event": "Event Phase: play Event cards, or say done.",
            "conquest": "Conquest Phase: attack a neighbour, or say done.",
            "end": "End Phase: discard down to your hand limit.",
        }[s.phase]
        if s.phase == "conquest" and s.conquests_left <= 0:
            text = "Conquest Phase: you have no Conquest Phase left; play a Q card for another, or say done."
        if s.phase == "end":
            limit = self.hand_limit(s, s.active)
            excess = len(s.players[s.active].hand) - limit
            text = f"End Phase: discard {counted(excess, 'card')} (hand limit {limit})."
        return {s.active: Prompt(kind="turn", text=text)}

    def legal_actions(self, s: State, seat: Seat) -> Sequence[Any]:
        """Every legal action for ``seat`` (an ActionSpace: war commitments are many)."""
        prompts = self.to_act(s)
        if seat not in prompts:
            return ()
        p = s.players[seat]
        if s.phase == "draft":
            return [PickNation(nation=n) for n in self.nation_pool(s, reentry=False)]
        if s.phase == "reentry":
            # DEFEAT: "He may renter the game" — a choice (RULINGS R13)
            return [PickNation(nation=n) for n in self.nation_pool(s, reentry=True)] + [Pass()]
        if s.war is not None:
            return self._war_space(s, seat)
        plays = self._s_plays(s, seat)
        if s.windows:
            w = s.windows[-1]
            out: list[Any] = [Pass()]
            if w.kind == "negate":
                out += [PlayCard(card=c, negate=w.leader.card) for c in p.hand if self.card(c).has("K")]
            else:
                out += [PlayCard(card=c) for c in p.hand if self._opponent_card(self.card(c))]
            return out + plays
        if s.phase == "fate":
            return [Done()] + [MoveSeat(left=lft, right=rgt) for lft, rgt in self.seat_moves(s, seat)] + plays
        if s.phase == "event":
            out = [Done()]
            for c in p.hand:
                card = self.card(c)
                if card.has("M"):
                    out += [PlayCard(card=c, left=lft, right=rgt) for lft, rgt in self.seat_moves(s, seat)]
                elif self._event_card(s, seat, card):
                    out.append(PlayCard(card=c))
            return out + plays
        if s.phase == "conquest":
            out = [Done()] + [Attack(target=t) for t in self.attack_targets(s)]
            out += [PlayCard(card=c) for c in p.hand if self.card(c).has("Q")]
            return out + plays
        if s.phase == "end":
            excess = len(p.hand) - self.hand_limit(s, seat)
            hand = p.hand
            return ActionSpace(
                (comb(len(hand), excess), lambda i: Discard(cards=combination_at(hand, excess, i)))
            )
        return ()

    def _s_plays(self, s: State, seat: Seat) -> list[PlayCard]:
        """S cards: look at an opponent's hand, whenever you are asked to act (R12)."""
        return [
            PlayCard(card=c, target=t)
            for c in s.players[seat].hand
            if self.card(c).has("S")
            for t in self._others(s, seat)
        ]

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
        ctx = _Ctx(s, rng)
        if s.phase in ("draft", "reentry"):
            self._apply_pick(ctx, seat, a)
        elif s.war is not None:
            self._apply_war(ctx, seat, a)
        elif (
            isinstance(a, PlayCard)
            and s.phase in ("fate", "event", "conquest")
            and not s.windows
            and self.card_ok(a.card)
            and self.card(a.card).has("S")
        ):
            self._play_s(ctx, seat, a)
        elif s.windows:
            self._apply_window(ctx, seat, a)
        elif s.phase == "fate":
            self._apply_fate(ctx, seat, a)
        elif s.phase == "event":
            self._apply_event(ctx, seat, a)
        elif s.phase == "conquest":
            self._apply_conquest(ctx, seat, a)
        elif s.phase == "end":
            self._apply_end(ctx, seat, a)
        return Step(state=ctx.s, events=tuple(ctx.events))

    def outcome(self, s: State) -> Outcome | None:
        if s.phase != "over":
            return None
        winners = (s.winner,) if s.winner is not None else ()
        return Outcome(winners=winners, reason=s.end_reason)

    # ------------------------------------------------------------ hidden information

    def perturb_hidden(self, s: State, keep: frozenset[Seat] | None, rand: random.Random) -> State:
        """``s`` as the seats of ``keep`` cannot tell it apart (games.core.secrets): the
        deck shuffled, and the hands of the seats outside ``keep`` redealt with it (the
        cards a seat has committed to the war in progress stay in its hand)."""
        others = [x for x in range(len(s.players)) if keep is not None and x not in keep]
        committed: dict[Seat, list[str]] = {x: [] for x in others}
        for c in s.war.contributions if s.war is not None else ():
            if c.seat in committed:
                committed[c.seat] += [*c.cards, *([c.block] if c.block else [])]
        free = []
        for x in others:
            hand = list(s.players[x].hand)
            for c in committed[x]:
                if c in hand:
                    hand.remove(c)
            free.append(hand)
        zones = redeal([*free, s.deck], rand)
        players = list(s.players)
        for x, hand in zip(others, zones, strict=False):
            players[x] = players[x].model_copy(update={"hand": tuple(c for c in committed[x] if c in s.players[x].hand) + hand})
        return s.model_copy(update={"players": tuple(players), "deck": zones[-1]})

    def view(self, s: State, viewer: Seat | None) -> View:
        players = []
        for x, p in enumerate(s.players):
            players.append(
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
            )
        war = None
        if s.war is not None:
            w = s.war
            committed = tuple(c.seat for c in w.contributions)
            war = {
                "attacker": w.attacker,
                "defender": w.defender,
                "stage": w.stage,
                "committed": committed,
                "waiting": w.waiting,
                "revealed": w.contributions if w.stage == "negate" else (),
            }
        window = None
        if s.war is not None:
            window = "war commitments" if s.war.stage == "commit" else "negate Leader cards"
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

    def card_view(self, card_id: str) -> CardView:
        c = self.card(card_id)
        return CardView(id=c.id, name=c.display, types=c.types, force=c.force, only=c.only, text=c.text)

    # ------------------------------------------------------------------ small checks

    def card_ok(self, card_id: str) -> bool:
        return card_id in self.data.cards

    def _names(self, cards: Sequence[str]) -> tuple[str, ...]:
        return tuple(self.card(c).display for c in cards)

    def _others(self, s: State, seat: Seat) -> tuple[Seat, ...]:
        return tuple(x for x in self.living(s) if x != seat)

    def _drafter(self, s: State) -> Seat:
        return next(x for x in s.turn_order if s.players[x].nation is None)

    def _event_card(self, s: State, seat: Seat, card: Card) -> bool:
        """Cards the active player may play in its own Event Phase (G, D, V, Q; RULINGS R8-R10)."""
        if card.has("X") or card.has("C") or card.has("K") or card.has("Y"):
            return False
        if card.has("V"):
            return s.players[seat].wins > 0
        return any(card.has(code) for code in "GDQ")

    @staticmethod
    def _opponent_card(card: Card) -> bool:
        """Cards played on an opponent's turn, in its Event Phase (X, XG, P, I; RULINGS R6)."""
        return any(card.has(code) for code in "XPI")

    def _commit_text(self, s: State, seat: Seat) -> str:
        war = s.war
        a, d = self.nation_name(s, war.attacker), self.nation_name(s, war.defender)
        if seat == war.attacker:
            return f"War on {d}: commit Force, Leader and Y cards in secret (or fight with none)."
        if seat == war.defender:
            return f"{a} declared war on you: commit Force, Leader and Y cards in secret (or fight with none), or block with a P or I card."
        return (
            f"War: {a} against {d}. Support a side with Army Tokens and cards, block with an I card, or pass."
        )

    # ------------------------------------------------------------------ flow

    def _take_nation(self, ctx: _Ctx, seat: Seat, nation: str) -> None:
        ctx.set_player(seat, nation=nation, status="in")
        ctx.update(nations_played=ctx.s.nations_played + (nation,))
        name = self.data.nation(nation).name
        ctx.emit(Note(text=f"Seat {seat + 1} plays the {name}. {self.data.ability_text(nation)}"))

    def _apply_pick(self, ctx: _Ctx, seat: Seat, a: Any) -> None:
        s = ctx.s
        reentry = s.phase == "reentry"
        pool = self.nation_pool(s, reentry=reentry)
        if reentry and isinstance(a, Pass):
            self._decline_reentry(ctx, seat)
            return
        if not isinstance(a, PickNation):
            raise IllegalActionError(
                "Pick a nation first: " + list_words([self.data.nation(n).name for n in pool]) + "."
            )
        if a.nation not in pool:
            names = [self.data.nation(n).name for n in pool]
            raise IllegalActionError(f"You cannot pick that nation now; available: {list_words(names)}.")
        self._take_nation(ctx, seat, a.nation)
        if reentry:
            p = ctx.player(seat)
            ring = list(ctx.s.seating)
            ring.insert(min(p.last_position, len(ring)), seat)
            ctx.set_player(seat, armies=START_ARMIES, territories=START_TERRITORIES)
            ctx.update(seating=tuple(ring))
            ctx.emit(
                Note(
                    text=f"Re-entry: the {self.nation_name(ctx.s, seat)}, with {START_TERRITORIES} Territory and {counted(START_ARMIES, 'Army Token')}."
                )
            )
            self._draw(ctx, seat, START_CARDS, "re-entry")
            self._fate(ctx)
        elif all(p.nation is not None for p in ctx.s.players):
            self._begin_turn(ctx)

    def _decline_reentry(self, ctx: _Ctx, seat: Seat) -> None:
        """DEFEAT: "He may renter the game" — declining is final: the player is out of the
        game for good (RULINGS R13), and the next turn begins."""
        ctx.set_player(seat, status="eliminated")
        ctx.emit(Note(text=f"Seat {seat + 1} does not re-enter and is out of the game."))
        if self._check_last_standing(ctx):
            return
        self._next_turn(ctx)

    def _begin_turn(self, ctx: _Ctx) -> None:
        """Start the turn of ``turn_order[turn]``: skip eliminated seats, ask wiped-out
        ones to re-enter, else the Fate Phase."""
        for _ in range(len(ctx.s.turn_order) + 1):
            s = ctx.s
            seat = s.active
            status = s.players[seat].status
            ctx.update(attack_forbidden=False, protected=(), windows=())
            if status == "eliminated":
                self._advance(ctx)
                if ctx.s.phase == "over":
                    return
                continue
            if status == "out":
                if not self.nation_pool(s, reentry=True):
                    ctx.set_player(seat, status="eliminated")
                    ctx.emit(
                        Note(
                            text=f"Seat {seat + 1} has no nation left to re-enter as and is out of the game."
                        )
                    )
                    if self._check_last_standing(ctx):
                        return
                    self._advance(ctx)
                    if ctx.s.phase == "over":
                        return
                    continue
                ctx.update(phase="reentry")
                return
            self._fate(ctx)
            return

    def _advance(self, ctx: _Ctx) -> None:
        """Move ``turn`` to the next seat in turn order; a new round after the last."""
        s = ctx.s
        turn = s.turn + 1
        rnd = s.round
        if turn >= len(s.turn_order):
            turn, rnd = 0, rnd + 1
        ctx.update(turn=turn, round=rnd)
        if s.round_limit is not None and rnd > s.round_limit:
            self._end_by_round_limit(ctx)

    def _end_by_round_limit(self, ctx: _Ctx) -> None:
        """RULINGS.md R16: most Territory Tokens, then most Army Tokens; else no winner."""
        s = ctx.s
        ranked = sorted(
            self.living(s), key=lambda x: (s.players[x].territories, s.players[x].armies), reverse=True
        )
        best = ranked[:1]
        tie = len(ranked) > 1 and (s.players[ranked[0]].territories, s.players[ranked[0]].armies) == (
            s.players[ranked[1]].territories,
            s.players[ranked[1]].armies,
        )
        winner = None if tie or not best else best[0]
        text = f"The round limit ({s.round_limit}) is reached: " + (
            f"victory for the {self.nation_name(s, winner)}, with the most Territory Tokens."
            if winner is not None
            else "a tie, nobody wins."
        )
        self._finish(ctx, winner, text)

    def _finish(self, ctx: _Ctx, winner: Seat | None, text: str) -> None:
        ctx.update(phase="over", winner=winner, end_reason=text, windows=(), war=None)
        ctx.emit(GameWon(seat=winner, text=text))

    def _phase(self, ctx: _Ctx, phase: str) -> None:
        ctx.update(phase=phase)
        s = ctx.s
        ctx.emit(PhaseBegan(seat=s.active, who=self.nation_name(s, s.active), phase=phase, round=s.round))

    def _fate(self, ctx: _Ctx) -> None:
        """FATE PHASE: draw 1D6 cards (+1 for Manipulators); Migratory may move."""
        self._phase(ctx, "fate")
        seat = ctx.s.active
        ctx.update(conquests_left=1 + ("horsemen" in self.abilities(ctx.s, seat)))
        roll = ctx.rng.die(6)
        extra = 1 if "manipulators" in self.abilities(ctx.s, seat) else 0
        self._draw(
            ctx, seat, roll + extra, f"Fate Phase, rolled {roll}" + (" +1 Manipulators" if extra else "")
        )
        if "migratory" in self.abilities(ctx.s, seat) and self.seat_moves(ctx.s, seat):
            return  # the player decides: move or stay
        self._recruit(ctx)

    def _recruit(self, ctx: _Ctx) -> None:
        """RECRUIT PHASE: gain 1D6 Army Tokens (Populous: the better of two rolls)."""
        self._phase(ctx, "recruit")
        seat = ctx.s.active
        rolls = (ctx.rng.die(6),)
        if "populous" in self.abilities(ctx.s, seat):
            rolls = (rolls[0], ctx.rng.die(6))
        self._gain(
            ctx,
            seat,
            max(rolls),
            "Recruit Phase" + (" (Populous: better of two)" if len(rolls) > 1 else ""),
            rolls,
        )
        self._phase(ctx, "event")

    def _gain(self, ctx: _Ctx, seat: Seat, delta: int, reason: str, rolls: tuple[int, ...] = ()) -> int:
        """Add ``delta`` Army Tokens (negative: lose, never below 0); returns the change."""
        p = ctx.player(seat)
        new = max(0, p.armies + delta)
        change = new - p.armies
        ctx.set_player(seat, armies=new)
        ctx.emit(
            ArmiesChanged(
                seat=seat,
                who=self.nation_name(ctx.s, seat),
                delta=change,
                armies=new,
                reason=reason,
                rolls=rolls,
            )
        )
        return change

    def _draw(self, ctx: _Ctx, seat: Seat, count: int, reason: str) -> None:
        """Draw ``count`` cards; an empty deck is refilled by shuffling the discard
        pile (FATE PHASE); with both empty the draw stops short (RULINGS.md R4)."""
        drawn: list[str] = []
        for _ in range(count):
            s = ctx.s
            if not s.deck:
                if not s.discard:
                    break
                ctx.update(deck=ctx.rng.shuffle(s.discard), discard=())
                ctx.emit(
                    Note(
                        text=f"The deck ran out: the discard pile ({counted(len(ctx.s.deck), 'card')}) is shuffled into a new deck."
                    )
                )
            drawn.append(ctx.s.deck[0])
            ctx.update(deck=ctx.s.deck[1:])
        p = ctx.player(seat)
        ctx.set_player(seat, hand=p.hand + tuple(drawn))
        ctx.emit(CardsDrawn(seat=seat, who=self.nation_name(ctx.s, seat), count=len(drawn), reason=reason))
        if drawn:
            ctx.emit(
                CardsReceived(seat=seat, cards=tuple(drawn), names=self._names(drawn), visible_to=(seat,))
            )

    def _remove_cards(self, ctx: _Ctx, seat: Seat, cards: Sequence[str], to_discard: bool = True) -> None:
        hand = list(ctx.player(seat).hand)
        for c in cards:
            hand.remove(c)
        ctx.set_player(seat, hand=tuple(hand))
        if to_discard:
            ctx.update(discard=ctx.s.discard + tuple(cards))

    def _check_hand(self, s: State, seat: Seat, card_id: str, where: str) -> Card:
        if not self.card_ok(card_id) or card_id not in s.players[seat].hand:
            hand = self._names(s.players[seat].hand)
            name = self.card(card_id).display if self.card_ok(card_id) else card_id
            raise IllegalActionError(f"{name} is not in your hand; your hand: {list_words(hand)}.")
        return self.card(card_id)

    def _move_seat(self, ctx: _Ctx, seat: Seat, left: Seat | None, right: Seat | None, why: str) -> None:
        moves = self.seat_moves(ctx.s, seat)
        if (left, right) not in moves:
            options = [
                f"between {self.nation_name(ctx.s, r)} and {self.nation_name(ctx.s, lft)}" for lft, r in moves
            ]
            raise IllegalActionError(
                "You can only sit between two seats that are next to each other now, and somewhere new; "
                f"choose: {list_words(options)}."
                if options
                else "There is no other place to sit."
            )
        ring = [x for x in ctx.s.seating if x != seat]
        ring.insert(ring.index(right) + 1, seat)
        ctx.update(seating=tuple(ring))
        s = ctx.s
        ctx.emit(
            SeatingChanged(
                seat=seat,
                who=self.nation_name(s, seat),
                seating=s.seating,
                text=f"{self.nation_name(s, seat)} moved ({why}): now between {self.nation_name(s, right)} and {self.nation_name(s, left)}.",
            )
        )

    # ------------------------------------------------------------------ phases

    def _apply_fate(self, ctx: _Ctx, seat: Seat, a: Any) -> None:
        if isinstance(a, MoveSeat):
            self._move_seat(ctx, seat, a.left, a.right, "Migratory")
        elif not isinstance(a, Done):
            raise IllegalActionError("In your Fate Phase you may move (Migratory) or say done.")
        self._recruit(ctx)

    def _apply_event(self, ctx: _Ctx, seat: Seat, a: Any) -> None:
        s = ctx.s
        if isinstance(a, Done):
            others = seats_after(self.living(s), seat)
            if others:
                w = Window(
                    kind="opponents",
                    waiting=others,
                    reason=f"{self.possessive(s, seat)} Event Phase: play X, P or I cards on them, or pass.",
                )
                ctx.update(windows=(w,))
            else:
                self._begin_conquest(ctx)
            return
        if not isinstance(a, PlayCard):
            if isinstance(a, Attack):
                raise IllegalActionError(
                    "Attacks come in the Conquest Phase: say done to end your Event Phase first."
                )
            raise IllegalActionError("Event Phase: play an Event card (play <card>) or say done.")
        card = self._check_hand(s, seat, a.card, "Event Phase")
        if card.has("M"):
            self._remove_cards(ctx, seat, [a.card])
            ctx.emit(self._played(ctx.s, seat, card))
            self._move_seat(ctx, seat, a.left, a.right, card.display)
            return
        if not self._event_card(s, seat, card):
            if card.has("V"):
                raise IllegalActionError(f"{card.display} needs a war you have won first (V; RULINGS R9).")
            raise IllegalActionError(f"{card.display} cannot be played in your Event Phase: {card.text}")
        self._remove_cards(ctx, seat, [a.card])
        ctx.emit(self._played(ctx.s, seat, card))
        if card.is_leader:
            self._open_negate(ctx, PendingLeader(seat=seat, card=a.card))
        else:
            self._effect(ctx, PendingLeader(seat=seat, card=a.card))

    def _played(self, s: State, seat: Seat, card: Card, extra: str = "") -> CardPlayed:
        return CardPlayed(
            seat=seat, who=self.nation_name(s, seat), card=card.id, name=card.display, text=card.text + extra
        )

    def _effect(self, ctx: _Ctx, play: PendingLeader) -> None:
        """Carry out a played card's effect (outside wars)."""
        card = self.card(play.card)
        seat = play.seat
        s = ctx.s
        if card.has("X"):
            target = s.active
            roll = ctx.rng.die(6)
            lost = -self._gain(
                ctx, target, -roll, f"{card.display} played by {self.nation_name(s, seat)}", (roll,)
            )
            if card.has("G") and lost:
                self._gain(
                    ctx, seat, lost, f"{card.display}: the Army Tokens {self.nation_name(s, target)} lost"
                )
        elif card.has("P"):
            ctx.update(protected=tuple(sorted(set(ctx.s.protected) | {seat})))
            ctx.emit(
                Note(
                    text=f"{self.nation_name(s, s.active)} may not attack {self.nation_name(s, seat)} this turn."
                )
            )
        elif card.has("I"):
            ctx.update(attack_forbidden=True)
            ctx.emit(Note(text=f"{self.nation_name(s, s.active)} may not attack at all this turn."))
        elif card.has("V"):
            roll = ctx.rng.die(6)
            ctx.set_player(seat, wins=ctx.player(seat).wins - 1)
            self._gain(ctx, seat, roll, card.display, (roll,))
        elif card.has("G"):
            roll = ctx.rng.die(6)
            self._gain(ctx, seat, roll, card.display, (roll,))
        elif card.has("D"):
            self._draw(ctx, seat, D_CARDS, card.display)
        elif card.has("Q"):
            ctx.update(conquests_left=ctx.s.conquests_left + 1)
            ctx.emit(
                Note(
                    text=f"Extra Conquest Phase for {self.nation_name(s, seat)} ({ctx.s.conquests_left} left this turn)."
                )
            )

    def _open_negate(self, ctx: _Ctx, play: PendingLeader) -> None:
        """A Leader card was just played: every other seat may negate it (K; RULINGS R7)."""
        s = ctx.s
        others = seats_after(self.living(s), play.seat)
        name = self.card(play.card).display
        if not others:
            self._effect(ctx, play)
            return
        w = Window(
            kind="negate",
            waiting=others,
            leader=play,
            reason=f"{self.nation_name(s, play.seat)} played the Leader card {name}: negate it with a K card, or pass.",
        )
        ctx.update(windows=s.windows + (w,))

    def _apply_window(self, ctx: _Ctx, seat: Seat, a: Any) -> None:
        s = ctx.s
        w = s.windows[-1]
        if isinstance(a, Pass):
            self._window_done(ctx, seat)
            return
        if not isinstance(a, PlayCard):
            raise IllegalActionError(f"Only a response is possible now. {w.reason}")
        card = self._check_hand(s, seat, a.card, "window")
        if card.has("S"):
            self._play_s(ctx, seat, a)
            return
        if w.kind == "negate":
            if not card.has("K"):
                raise IllegalActionError(
                    f"Only a K card can negate {self.card(w.leader.card).display}; or pass."
                )
            if a.negate not in (None, w.leader.card):
                raise IllegalActionError(
                    f"The Leader card just played is {self.card(w.leader.card).display}."
                )
            self._remove_cards(ctx, seat, [a.card])
            ctx.emit(self._played(ctx.s, seat, card, f" {self.card(w.leader.card).display} is negated."))
            ctx.update(windows=ctx.s.windows[:-1])
            return
        if not self._opponent_card(card):
            raise IllegalActionError(
                f"{card.display} cannot be played on an opponent's turn; X, P and I cards can (or pass)."
            )
        self._remove_cards(ctx, seat, [a.card])
        ctx.emit(self._played(ctx.s, seat, card))
        play = PendingLeader(seat=seat, card=a.card, target=s.active)
        if card.is_leader:
            self._open_negate(ctx, play)
        else:
            self._effect(ctx, play)

    def _window_done(self, ctx: _Ctx, seat: Seat) -> None:
        w = ctx.s.windows[-1].done(seat)
        if w.is_open():
            ctx.update(windows=ctx.s.windows[:-1] + (w,))
            return
        ctx.update(windows=ctx.s.windows[:-1])
        if w.kind == "negate":
            # the Leader card stands: its effect happens; the phase or the window
            # below it goes on
            self._effect(ctx, w.leader)
        else:
            # the opponents' window ends the active player's Event Phase
            self._begin_conquest(ctx)

    def _begin_conquest(self, ctx: _Ctx) -> None:
        self._phase(ctx, "conquest")
        self._maybe_end_conquest(ctx)

    def _maybe_end_conquest(self, ctx: _Ctx) -> None:
        """RULINGS R11: with no Conquest Phase left, or nobody it may attack, the
        Conquest Phase ends by itself, unless a Q card in hand would give it another
        Conquest Phase with a neighbour to attack (R10: Q may be played in the Conquest
        Phase; the player is asked)."""
        s = ctx.s
        if self.attack_targets(s):
            return
        could = not s.attack_forbidden and any(t not in s.protected for t in self.neighbours(s, s.active))
        if could and any(self.card(c).has("Q") for c in s.players[s.active].hand):
            return
        self._end_phase(ctx)

    def _apply_conquest(self, ctx: _Ctx, seat: Seat, a: Any) -> None:
        s = ctx.s
        if isinstance(a, Done):
            self._end_phase(ctx)
            return
        if isinstance(a, PlayCard):
            card = self._check_hand(s, seat, a.card, "Conquest Phase")
            if not card.has("Q"):
                raise IllegalActionError(
                    f"{card.display} cannot be played now: in the Conquest Phase only Q cards (an extra Conquest "
                    "Phase) and S cards (look at a hand: play anytime) are played (Card List Notation)."
                )
            self._remove_cards(ctx, seat, [a.card])
            ctx.emit(self._played(ctx.s, seat, card))
            play = PendingLeader(seat=seat, card=a.card)
            if card.is_leader:
                self._open_negate(ctx, play)
            else:
                self._effect(ctx, play)
            return
        if not isinstance(a, Attack):
            raise IllegalActionError("Conquest Phase: attack a neighbour (attack <nation>) or say done.")
        targets = self.attack_targets(s)
        if a.target not in targets:
            names = [self.nation_name(s, t) for t in targets]
            why = ""
            if s.attack_forbidden:
                why = "an I card forbids you to attack this turn"
            elif s.conquests_left <= 0:
                why = "you have no Conquest Phase left (a Q card gives another)"
            elif a.target in s.protected:
                why = f"{self.nation_name(s, a.target)} played a P card: you may not attack them this turn"
            else:
                why = "you may only attack the neighbour to your immediate left or right"
            raise IllegalActionError(
                f"You cannot attack that seat: {why}. You may attack: {list_words(names)}."
            )
        waiting = (seat,) + seats_after(self.living(s), seat)
        ctx.update(war=WarState(attacker=seat, defender=a.target, waiting=waiting))
        ctx.emit(
            WarDeclared(
                attacker=seat,
                defender=a.target,
                text=f"War! {self.nation_name(s, seat)} against {self.nation_name(s, a.target)}. Everyone commits in secret.",
            )
        )

    def _end_phase(self, ctx: _Ctx) -> None:
        """END PHASE: discard down to the hand limit (8; 10 for Skilled)."""
        self._phase(ctx, "end")
        seat = ctx.s.active
        if len(ctx.player(seat).hand) <= self.hand_limit(ctx.s, seat):
            self._next_turn(ctx)

    def _apply_end(self, ctx: _Ctx, seat: Seat, a: Any) -> None:
        p = ctx.player(seat)
        excess = len(p.hand) - self.hand_limit(ctx.s, seat)
        if not isinstance(a, Discard):
            raise IllegalActionError(
                f"Discard {counted(excess, 'card')} (discard <card>, <card>...)."
            )
        if len(a.cards) != excess or len(set(a.cards)) != len(a.cards):
            raise IllegalActionError(
                f"Discard exactly {excess} different card{'s' if excess != 1 else ''}; your hand limit is {self.hand_limit(ctx.s, seat)}."
            )
        for c in a.cards:
            self._check_hand(ctx.s, seat, c, "End Phase")
        self._remove_cards(ctx, seat, a.cards)
        ctx.emit(Note(text=f"{self.nation_name(ctx.s, seat)} discarded {', '.join(self._names(a.cards))}."))
        self._next_turn(ctx)

    def _next_turn(self, ctx: _Ctx) -> None:
        self._advance(ctx)
        if ctx.s.phase != "over":
            self._begin_turn(ctx)

    def _play_s(self, ctx: _Ctx, seat: Seat, a: PlayCard) -> None:
        """S: look at an opponent's hand; play any time you are asked to act (RULINGS R12)."""
        s = ctx.s
        card = self._check_hand(s, seat, a.card, "")
        others = self._others(s, seat)
        if a.target not in others:
            raise IllegalActionError(
                f"Say whose hand to look at: play {card.display} on <nation>; one of {list_words([self.nation_name(s, o) for o in others])}."
            )
        self._remove_cards(ctx, seat, [a.card])
        ctx.emit(self._played(ctx.s, seat, card, f" ({self.possessive(s, a.target)} hand)"))
        ctx.emit(
            HandSeen(
                seat=seat,
                target=a.target,
                who=self.nation_name(s, a.target),
                names=self._names(s.players[a.target].hand),
                visible_to=(seat,),
            )
        )

    # ------------------------------------------------------------------ wars

    def _war_cards(self, s: State, seat: Seat, side: Seat, fight: bool) -> list[str]:
        """Cards ``seat`` may commit for ``side``: C (and LC) cards, Y for combatants,
        DO only for the defending side, AO only for the attacking side (RULINGS R5)."""
        war = s.war
        out = []
        for c in s.players[seat].hand:
            card = self.card(c)
            if not (card.has("C") or (fight and card.has("Y"))):
                continue
            if card.only == "DO" and side != war.defender:
                continue
            if card.only == "AO" and side != war.attacker:
                continue
            out.append(c)
        return out

    def _blocks(self, s: State, seat: Seat) -> list[str]:
        war = s.war
        if seat == war.attacker:
            return []
        out = []
        for c in s.players[seat].hand:
            card = self.card(c)
            if card.has("I") or (card.has("P") and seat == war.defender):
                out.append(c)
        return out

    def _war_space(self, s: State, seat: Seat) -> ActionSpace:
        war = s.war
        p = s.players[seat]
        if war.stage == "negate":
            leaders = self._revealed_leaders(s)
            ks = [c for c in p.hand if self.card(c).has("K")]
            return ActionSpace(
                [Pass()],
                [PlayCard(card=k, negate=ld) for k in ks for ld, owner in leaders if owner != seat],
                self._s_plays(s, seat),
            )
        blocks = [Block(card=c) for c in self._blocks(s, seat)]
        # S "play anytime": also while the commitments are made (committed cards stay in
        # the hand until the reveal, so a hand seen then shows nothing of them; R12)
        blocks += self._s_plays(s, seat)
        if seat in (war.attacker, war.defender):
            cards = self._war_cards(s, seat, seat, fight=True)
            can_sac = "berserkers" in self.abilities(s, seat) and p.armies > 0
            n_sub = 1 << len(cards)
            mult = 2 if can_sac else 1

            def fight(i: int) -> Fight:
                sub, sac = divmod(i, mult)
                return Fight(cards=tuple(c for b, c in enumerate(cards) if sub >> b & 1), sacrifice=bool(sac))

            return ActionSpace((n_sub * mult, fight), blocks)
        parts: list[Any] = [[Pass()], blocks]
        for side in (war.attacker, war.defender):
            cards = self._war_cards(s, seat, side, fight=False)
            n_sub = 1 << len(cards)
            per = n_sub * (p.armies + 1) - 1  # not (0 armies, no cards)

            def support(i: int, side: Seat = side, cards: list[str] = cards, n_sub: int = n_sub) -> Support:
                armies, sub = divmod(i + 1, n_sub)
                return Support(
                    side=side, armies=armies, cards=tuple(c for b, c in enumerate(cards) if sub >> b & 1)
                )

            parts.append((per, support))
        return ActionSpace(*parts)

    def _revealed_leaders(self, s: State) -> list[tuple[str, Seat]]:
        """Leader cards revealed in the war not yet negated: (card, owner)."""
        out = []
        for c in s.war.contributions:
            for card in c.cards + ((c.block,) if c.block else ()):
                if self.card(card).is_leader and card not in s.war.negated:
                    out.append((card, c.seat))
        return out

    def _apply_war(self, ctx: _Ctx, seat: Seat, a: Any) -> None:
        s = ctx.s
        war = s.war
        if war.stage == "negate":
            self._apply_war_negate(ctx, seat, a)
            return
        p = s.players[seat]
        combatant = seat in (war.attacker, war.defender)
        if isinstance(a, PlayCard) and self.card_ok(a.card) and self.card(a.card).has("S"):
            self._play_s(ctx, seat, a)  # R12: the seat still commits afterwards
            return
        if isinstance(a, Fight):
            if not combatant:
                raise IllegalActionError(
                    "Only the attacker and the defender fight; you may support a side or pass."
                )
            allowed = set(self._war_cards(s, seat, seat, fight=True))
            bad = [c for c in a.cards if c not in allowed]
            if bad or len(set(a.cards)) != len(a.cards):
                raise IllegalActionError(
                    f"You cannot fight with {list_words([self.card(c).display if self.card_ok(c) else c for c in bad] or ['a card twice'])}; "
                    f"cards you may commit: {list_words(self._names(sorted(allowed)))}."
                )
            if a.sacrifice and not ("berserkers" in self.abilities(s, seat) and p.armies > 0):
                raise IllegalActionError(
                    "Only the Berserkers (Visigoths, Goths) may sacrifice an Army Token, and only with one to spare."
                )
            contrib = Contribution(seat=seat, side=seat, cards=a.cards, sacrifice=a.sacrifice)
        elif isinstance(a, Support):
            if combatant:
                raise IllegalActionError(
                    "You are fighting this war: commit with fight (or fight with <cards>)."
                )
            if a.side not in (war.attacker, war.defender):
                raise IllegalActionError(
                    f"Support either {self.nation_name(s, war.attacker)} or {self.nation_name(s, war.defender)}."
                )
            if not 0 <= a.armies <= p.armies:
                raise IllegalActionError(f"You can send 0 to {counted(p.armies, 'Army Token')}.")
            allowed = set(self._war_cards(s, seat, a.side, fight=False))
            bad = [c for c in a.cards if c not in allowed]
            if bad or len(set(a.cards)) != len(a.cards):
                raise IllegalActionError(
                    f"You cannot send {list_words([self.card(c).display if self.card_ok(c) else c for c in bad] or ['a card twice'])} to that side; "
                    f"you may send: {list_words(self._names(sorted(allowed)))}."
                )
            if a.armies == 0 and not a.cards:
                raise IllegalActionError("Send at least one Army Token or card, or pass.")
            contrib = Contribution(seat=seat, side=a.side, cards=a.cards, armies=a.armies)
        elif isinstance(a, Block):
            allowed = self._blocks(s, seat)
            if a.card not in allowed:
                raise IllegalActionError(
                    "To block this attack, the defender may play a P card and anyone but the attacker an I card; "
                    f"you may block with: {list_words(self._names(allowed))}."
                )
            contrib = Contribution(seat=seat, block=a.card)
        elif isinstance(a, Pass):
            contrib = Contribution(seat=seat, side=seat) if combatant else Contribution(seat=seat)
        else:
            raise IllegalActionError(
                "A war is on: fight (combatants), support <side> with ... (others), block with <card>, or pass."
            )
        war = war.model_copy(
            update={
                "contributions": war.contributions + (contrib,),
                "waiting": tuple(x for x in war.waiting if x != seat),
            }
        )
        ctx.update(war=war)
        ctx.emit(WarCommitted(seat=seat, who=self.nation_name(s, seat)))
        if not war.waiting:
            self._reveal(ctx)

    def _reveal(self, ctx: _Ctx) -> None:
        s = ctx.s
        war = s.war
        lines = []
        for c in war.contributions:
            who = self.nation_name(s, c.seat)
            if c.block:
                lines.append(f"{who} blocks with {self.card(c.block).display}")
            elif c.armies or c.cards or c.sacrifice:
                bits = [counted(c.armies, "Army Token")] if c.armies else []
                bits += list(self._names(c.cards))
                if c.sacrifice:
                    bits.append("sacrifices an Army Token (Force +3)")
                target = "" if c.side == c.seat else f" for {self.nation_name(s, c.side)}"
                lines.append(f"{who}{target}: {', '.join(bits)}")
            elif c.side == c.seat:
                lines.append(f"{who}: no cards")
        for c in war.contributions:
            cards = c.cards + ((c.block,) if c.block else ())
            if cards:
                self._remove_cards(ctx, c.seat, cards, to_discard=False)
        ctx.emit(Note(text="War commitments revealed — " + "; ".join(lines) + "."))
        leaders = self._revealed_leaders(ctx.s)
        if leaders:
            waiting = seats_after(self.living(s), war.attacker)
            waiting = (war.attacker,) + waiting
            ctx.update(war=ctx.s.war.model_copy(update={"stage": "negate", "waiting": waiting}))
        else:
            self._resolve_war(ctx)

    def _apply_war_negate(self, ctx: _Ctx, seat: Seat, a: Any) -> None:
        s = ctx.s
        war = s.war
        if isinstance(a, Pass):
            waiting = tuple(x for x in war.waiting if x != seat)
            ctx.update(war=war.model_copy(update={"waiting": waiting}))
            if not waiting:
                self._resolve_war(ctx)
            return
        if not isinstance(a, PlayCard):
            raise IllegalActionError("Negate a revealed Leader card with a K card, or pass.")
        card = self._check_hand(s, seat, a.card, "war")
        if card.has("S"):
            self._play_s(ctx, seat, a)
            return
        targets = [(c, o) for c, o in self._revealed_leaders(s) if o != seat]
        if not card.has("K"):
            raise IllegalActionError("Only K cards negate Leader cards; or pass.")
        match = [c for c, _ in targets if c == a.negate] or (
            [targets[0][0]] if a.negate is None and len(targets) == 1 else []
        )
        if not match:
            raise IllegalActionError(
                f"Say which Leader card to negate: {list_words(self._names([c for c, _ in targets]))}."
            )
        self._remove_cards(ctx, seat, [a.card])
        leader = match[0]
        war = ctx.s.war.model_copy(update={"negated": ctx.s.war.negated + (leader,)})
        ctx.update(war=war)
        ctx.emit(self._played(ctx.s, seat, card, f" {self.card(leader).display} is negated."))
        if not self._revealed_leaders(ctx.s):
            self._resolve_war(ctx)

    def _force(self, s: State, contrib: Contribution) -> int:
        """Force bonus of a contribution's cards: F+n each, +2 each for Skilled (RULINGS R5)."""
        skilled = "skilled" in self.abilities(s, contrib.seat)
        total = 0
        for c in contrib.cards:
            card = self.card(c)
            if card.force and c not in s.war.negated:
                total += card.force + (SKILLED_FORCE if skilled else 0)
        return total

    def _resolve_war(self, ctx: _Ctx) -> None:
        """CONQUEST PHASE: War Total = Army Tokens + Force bonuses + 1D10; the higher
        wins; equal or 1 apart is a stalemate (both lose 1D6); otherwise the loser
        loses 1D6, the winner 1D6-3, and the winner takes a Territory Token."""
        s = ctx.s
        war = s.war
        att, dfn = war.attacker, war.defender
        contribs = war.contributions
        used = [c for con in contribs for c in con.cards + ((con.block,) if con.block else ())]
        # blocks: P by the defender, I (or an un-negated LI) by anyone
        blockers = [con for con in contribs if con.block and con.block not in war.negated]
        if blockers:
            for con in contribs:
                back = [c for c in con.cards]
                if back:
                    ctx.set_player(con.seat, hand=ctx.player(con.seat).hand + tuple(back))
            spent = [con.block for con in contribs if con.block]
            ctx.update(discard=ctx.s.discard + tuple(spent))
            b = blockers[0]
            card = self.card(b.block)
            if card.has("P"):
                ctx.update(protected=tuple(sorted(set(ctx.s.protected) | {b.seat})))
            else:
                ctx.update(attack_forbidden=True)
            text = (
                f"{self.possessive(s, b.seat)} {card.display} stops the attack: "
                + (
                    "it may not be attacked this turn."
                    if card.has("P")
                    else f"{self.nation_name(s, att)} may not attack at all this turn."
                )
                + " Committed cards return to their owners' hands."
            )
            result = WarResult(attacker=att, defender=dfn, outcome="blocked", note=text)
            ctx.update(war=None, last_war=result)
            ctx.emit(WarResolved(result=result, text=text))
            self._after_war(ctx)
            return
        ctx.update(discard=ctx.s.discard + tuple(used))
        totals = {}
        allied: dict[Seat, list[tuple[Seat, int]]] = {att: [], dfn: []}
        sacrifice = {att: False, dfn: False}
        forces = {att: 0, dfn: 0}
        stalemate_card = False
        for con in contribs:
            if con.side is None:
                continue
            forces[con.side] += self._force(s, con)
            if con.seat == con.side:
                sacrifice[con.seat] = con.sacrifice
                if any(self.card(c).has("Y") for c in con.cards):
                    stalemate_card = True
            elif con.armies:
                allied[con.side].append((con.seat, con.armies))
                ctx.set_player(con.seat, armies=ctx.player(con.seat).armies - con.armies)
        rolls = {}
        for side, role in ((att, "attacker"), (dfn, "defender")):
            if sacrifice[side]:
                ctx.set_player(side, armies=ctx.player(side).armies - 1)
            own = ctx.player(side).armies
            bonus_ability = "aggression" if role == "attacker" else "defenders"
            per_token = 2 if bonus_ability in self.abilities(s, side) else 1
            rolls[side] = ctx.rng.die(10)
            totals[side] = (
                own * per_token
                + (BERSERK_FORCE if sacrifice[side] else 0)
                + sum(n for _, n in allied[side])
                + forces[side]
                + rolls[side]
            )
        diff = totals[att] - totals[dfn]
        a_name, d_name = self.nation_name(s, att), self.nation_name(s, dfn)
        if stalemate_card or abs(diff) <= 1:
            outcome = "stalemate"
            a_loss, d_loss = ctx.rng.die(6), ctx.rng.die(6)
            why = "a Y card forces a stalemate" if stalemate_card else "the totals are within 1"
            head = f"Stalemate ({why})"
        else:
            outcome = "attacker" if diff > 0 else "defender"
            loser_roll, winner_roll = ctx.rng.die(6), ctx.rng.die(6)
            loss_l, loss_w = loser_roll, max(0, winner_roll - 3)
            a_loss, d_loss = (loss_w, loss_l) if outcome == "attacker" else (loss_l, loss_w)
            head = f"Victory for {a_name if outcome == 'attacker' else d_name}"
        a_lost = self._casualties(ctx, att, allied[att], a_loss)
        d_lost = self._casualties(ctx, dfn, allied[dfn], d_loss)
        taken = False
        if outcome in ("attacker", "defender"):
            winner, loser = (att, dfn) if outcome == "attacker" else (dfn, att)
            ctx.set_player(
                winner, territories=ctx.player(winner).territories + 1, wins=ctx.player(winner).wins + 1
            )
            ctx.set_player(loser, territories=ctx.player(loser).territories - 1)
            taken = True
        result = WarResult(
            attacker=att,
            defender=dfn,
            attacker_total=totals[att],
            defender_total=totals[dfn],
            attacker_roll=rolls[att],
            defender_roll=rolls[dfn],
            outcome=outcome,
            attacker_losses=a_lost,
            defender_losses=d_lost,
            territory_taken=taken,
        )
        text = (
            f"War: {a_name} {totals[att]} (rolled {rolls[att]}) vs {d_name} {totals[dfn]} (rolled {rolls[dfn]}). "
            f"{head}. Losses: {a_name} {counted(a_lost, 'Army Token')}, {d_name} {counted(d_lost, 'Army Token')}."
            + (" A Territory Token changes hands." if taken else "")
        )
        result = result.model_copy(update={"note": text})
        ctx.update(war=None, last_war=result)
        ctx.emit(WarResolved(result=result, text=text))
        ctx.update(conquests_left=ctx.s.conquests_left - 1)
        if taken:
            winner, loser = (att, dfn) if outcome == "attacker" else (dfn, att)
            if ctx.player(winner).territories >= VICTORY_TERRITORIES:
                self._finish(
                    ctx,
                    winner,
                    f"Victory for the {self.nation_name(ctx.s, winner)}: {VICTORY_TERRITORIES} Territory Tokens!",
                )
                return
            if ctx.player(loser).territories <= 0:
                self._wipe_out(ctx, loser)
                if ctx.s.phase == "over":
                    return
                if loser == att:
                    self._next_turn(ctx)
                    return
        self._after_war(ctx)

    def _casualties(self, ctx: _Ctx, side: Seat, allies: list[tuple[Seat, int]], loss: int) -> int:
        """Take ``loss`` Army Tokens from ``side``: its own first, allied armies last;
        surviving allied armies go home (CONQUEST PHASE; RULINGS R5). Returns the losses."""
        own = ctx.player(side).armies
        from_own = min(own, loss)
        ctx.set_player(side, armies=own - from_own)
        left = loss - from_own
        taken = from_own
        for ally, n in allies:
            lost = min(n, left)
            left -= lost
            taken += lost
            ctx.set_player(ally, armies=ctx.player(ally).armies + n - lost)
            if lost:
                ctx.emit(Note(text=f"{self.nation_name(ctx.s, ally)} lost {counted(lost, 'allied Army Token')}."))
        return taken

    def _wipe_out(self, ctx: _Ctx, seat: Seat) -> None:
        """DEFEAT: a player with no Territory Tokens is wiped out (hand discarded,
        armies gone); it may re-enter as a nation not yet played (RULINGS R13)."""
        s = ctx.s
        p = s.players[seat]
        name = self.nation_name(s, seat)
        position = s.seating.index(seat)
        ctx.update(discard=s.discard + p.hand, seating=tuple(x for x in s.seating if x != seat))
        status = "out" if self.nation_pool(ctx.s, reentry=True) else "eliminated"
        ctx.set_player(seat, hand=(), armies=0, territories=0, wins=0, status=status, last_position=position)
        ctx.emit(
            Note(
                text=f"Wiped out: the {name}!"
                + (
                    " They may re-enter as a new nation on their next turn."
                    if status == "out"
                    else " No nation is left for them: they are out."
                )
            )
        )
        self._check_last_standing(ctx)

    def _check_last_standing(self, ctx: _Ctx) -> bool:
        """RULINGS R15: when one nation is left and nobody can re-enter, it wins."""
        s = ctx.s
        living = self.living(s)
        can_return = [x for x, p in enumerate(s.players) if p.status == "out"]
        if len(living) == 1 and not can_return:
            self._finish(
                ctx, living[0], f"Victory for the {self.nation_name(s, living[0])}, the last nation standing!"
            )
            return True
        return False

    def _after_war(self, ctx: _Ctx) -> None:
        if ctx.s.phase == "over":
            return
        self._maybe_end_conquest(ctx)


GAME = BarbarianHordes()
