"""A tiny deterministic game for host and storage tests: "Count".

Two to four seats race a shared total to ``target``. On its turn a seat may
``add`` (+1, reveals nothing), ``roll`` (+1D6, random and public) or ``play N``
(a card from its hidden hand; it then draws a card only it sees). After a card is
played every other seat may ``block`` it (the total drops back) or ``pass``: a
response window. The seat whose action (once its window closes) brings the total
to the target wins.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Any, ClassVar, Literal

from pydantic import BaseModel, Field, TypeAdapter

from games.core import (
    Event,
    GameOverError,
    IllegalActionError,
    InvalidNotationError,
    Model,
    NotYourTurnError,
    Outcome,
    Prompt,
    Rng,
    Seat,
    Step,
    register,
)
from games.core.base import GameDefaults
from games.core.errors import list_words
from games.core.secrets import redeal

CARDS = tuple(range(1, 10))


class Options(Model):
    target: int = Field(20, ge=5, le=1_000_000)
    hand_size: int = Field(3, ge=1, le=9)


class State(Model):
    schema_version: int = 1
    target: int
    total: int = 0
    hands: tuple[tuple[int, ...], ...]
    deck: tuple[int, ...]
    turn: Seat
    window: tuple[Seat, ...] = ()
    last: tuple[Seat, int] | None = None  # (seat, card) awaiting responses
    winner: Seat | None = None


class Add(Model):
    kind: Literal["add"] = "add"


class Roll(Model):
    kind: Literal["roll"] = "roll"


class Play(Model):
    kind: Literal["play"] = "play"
    card: int


class Block(Model):
    kind: Literal["block"] = "block"


class Pass(Model):
    kind: Literal["pass"] = "pass"


Action = Annotated[Add | Roll | Play | Block | Pass, Field(discriminator="kind")]
_ACTION = TypeAdapter(Action)


class Dealt(Event):
    kind: Literal["dealt"] = "dealt"
    seat: Seat
    cards: tuple[int, ...]

    def describe(self) -> str:
        return "Your hand: " + ", ".join(map(str, self.cards)) + "."


class FirstPlayer(Event):
    kind: Literal["first"] = "first"
    seat: Seat

    def describe(self) -> str:
        return f"Seat {self.seat + 1} goes first."


class Added(Event):
    kind: Literal["added"] = "added"
    seat: Seat
    total: int

    def describe(self) -> str:
        return f"Seat {self.seat + 1} added 1; total {self.total}."


class Rolled(Event):
    kind: Literal["rolled"] = "rolled"
    seat: Seat
    die: int
    total: int

    def describe(self) -> str:
        return f"Seat {self.seat + 1} rolled {self.die}; total {self.total}."


class Played(Event):
    kind: Literal["played"] = "played"
    seat: Seat
    card: int
    total: int

    def describe(self) -> str:
        return f"Seat {self.seat + 1} played {self.card}; total {self.total}. Block or pass?"


class Drew(Event):
    kind: Literal["drew"] = "drew"
    seat: Seat
    card: int

    def describe(self) -> str:
        return f"You drew {self.card}."


class Blocked(Event):
    kind: Literal["blocked"] = "blocked"
    seat: Seat
    card: int
    total: int

    def describe(self) -> str:
        return f"Seat {self.seat + 1} blocked the {self.card}; total {self.total}."


class Passed(Event):
    kind: Literal["passed"] = "passed"
    seat: Seat

    def describe(self) -> str:
        return f"Seat {self.seat + 1} passed."


class Won(Event):
    kind: Literal["won"] = "won"
    seat: Seat
    total: int

    def describe(self) -> str:
        return f"Seat {self.seat + 1} reached {self.total} and wins."


class View(Model):
    viewer: Seat | None
    target: int
    total: int
    turn: Seat
    hand_sizes: tuple[int, ...]
    hand: tuple[int, ...] | None
    window: tuple[Seat, ...]
    winner: Seat | None


class CountGame(GameDefaults):
    """The toy game object (stateless)."""

    id: ClassVar[str] = "count"
    title: ClassVar[str] = "Count"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    Options: ClassVar[type[BaseModel]] = Options
    State: ClassVar[type[BaseModel]] = State
    View: ClassVar[type[BaseModel]] = View

    def setup(self, seats: Sequence[Seat], options: Any, rng: Rng) -> Step[Any]:
        opts = options if isinstance(options, Options) else Options.model_validate(options or {})
        deck = rng.shuffle(CARDS * 4)
        hands = []
        events: list[Event] = []
        for seat in seats:
            hand, deck = tuple(sorted(deck[: opts.hand_size])), deck[opts.hand_size :]
            hands.append(hand)
            events.append(Dealt(seat=seat, cards=hand, visible_to=(seat,)))
        first = rng.below(len(seats))
        events.append(FirstPlayer(seat=first))
        return Step(state=State(target=opts.target, hands=tuple(hands), deck=deck, turn=first),
                    events=tuple(events))

    def to_act(self, s: State) -> dict[Seat, Prompt]:
        if s.winner is not None:
            return {}
        if s.window:
            return {seat: Prompt(kind="respond", text="Block the card or pass.") for seat in s.window}
        return {s.turn: Prompt(kind="turn", text="Your turn: add, roll or play a card.")}

    def legal_actions(self, s: State, seat: Seat) -> list[Any]:
        if s.winner is not None:
            return []
        if s.window:
            return [Block(), Pass()] if seat in s.window else []
        if seat != s.turn:
            return []
        return [Add(), Roll(), *(Play(card=c) for c in sorted(set(s.hands[seat])))]

    def apply(self, s: State, seat: Seat, a: Any, rng: Rng) -> Step[Any]:
        if s.winner is not None:
            raise GameOverError("The game is over.")
        if seat not in self.to_act(s):
            raise NotYourTurnError(f"It is not seat {seat + 1}'s turn; seat(s) "
                                   f"{list_words([str(x + 1) for x in self.to_act(s)])} must act.")
        legal = self.legal_actions(s, seat)
        if a not in legal:
            raise IllegalActionError(
                f"{self.format_action(s, a)} is not legal now; legal: "
                f"{list_words([self.format_action(s, x) for x in legal])}."
            )
        n = len(s.hands)
        if isinstance(a, Add):
            total = s.total + 1
            return self._end_turn(s.model_copy(update={"total": total}), seat, [Added(seat=seat, total=total)])
        if isinstance(a, Roll):
            die = rng.die(6)
            total = s.total + die
            return self._end_turn(s.model_copy(update={"total": total}),
                                  seat, [Rolled(seat=seat, die=die, total=total)])
        if isinstance(a, Play):
            hand = list(s.hands[seat])
            hand.remove(a.card)
            deck = s.deck or rng.shuffle(CARDS * 4)
            hand.append(deck[0])
            hands = tuple(tuple(sorted(hand)) if i == seat else h for i, h in enumerate(s.hands))
            total = s.total + a.card
            window = tuple((seat + k) % n for k in range(1, n))
            new = s.model_copy(update={"total": total, "hands": hands, "deck": deck[1:], "window": window,
                                       "last": (seat, a.card)})
            return Step(state=new, events=(Played(seat=seat, card=a.card, total=total),
                                           Drew(seat=seat, card=deck[0], visible_to=(seat,))))
        assert s.last is not None
        player, card = s.last
        if isinstance(a, Block):
            total = s.total - card
            new = s.model_copy(update={"total": total, "window": (), "last": None})
            return self._end_turn(new, player, [Blocked(seat=seat, card=card, total=total)])
        window = tuple(x for x in s.window if x != seat)
        new = s.model_copy(update={"window": window})
        if window:
            return Step(state=new, events=(Passed(seat=seat),))
        return self._end_turn(new.model_copy(update={"last": None}), player, [Passed(seat=seat)])

    def _end_turn(self, s: State, player: Seat, events: list[Event]) -> Step[Any]:
        if s.total >= s.target:
            return Step(state=s.model_copy(update={"winner": player}),
                        events=(*events, Won(seat=player, total=s.total)))
        return Step(state=s.model_copy(update={"turn": (s.turn + 1) % len(s.hands)}), events=tuple(events))

    def outcome(self, s: State) -> Outcome | None:
        if s.winner is None:
            return None
        return Outcome(winners=(s.winner,), reason=f"seat {s.winner + 1} reached {s.target}")

    def perturb_hidden(self, s: State, keep: frozenset[Seat] | None, rand: Any) -> State:
        """The deck shuffled, the hands outside ``keep`` redealt with it (games.core.secrets)."""
        others = [x for x in range(len(s.hands)) if keep is not None and x not in keep]
        zones = redeal([*(s.hands[x] for x in others), s.deck], rand)
        hands = list(s.hands)
        for x, hand in zip(others, zones, strict=False):
            hands[x] = tuple(sorted(hand))
        return s.model_copy(update={"hands": tuple(hands), "deck": zones[-1]})

    def seats(self, s: State) -> tuple[Seat, ...]:
        return tuple(range(len(s.hands)))

    def view(self, s: State, viewer: Seat | None) -> View:
        return View(viewer=viewer, target=s.target, total=s.total, turn=s.turn,
                    hand_sizes=tuple(len(h) for h in s.hands),
                    hand=None if viewer is None else s.hands[viewer], window=s.window, winner=s.winner)

    def parse_action(self, s: State, seat: Seat, text: str) -> Any:
        words = text.strip().lower().split()
        if not words:
            raise InvalidNotationError("Type an action: add, roll, play N, block or pass.")
        verbs = [v for v in ("add", "roll", "play", "block", "pass") if v.startswith(words[0])]
        if len(verbs) != 1:
            raise InvalidNotationError(f"{text!r} is not an action here; try add, roll, play N, block or pass.")
        verb = verbs[0]
        if verb == "play":
            if len(words) != 2 or not words[1].isdigit():
                raise InvalidNotationError("Say which card to play, e.g. 'play 3'.")
            a: Any = Play(card=int(words[1]))
            if int(words[1]) not in s.hands[seat]:
                raise IllegalActionError(f"You have no {words[1]} in hand; your hand: "
                                         f"{list_words([str(c) for c in s.hands[seat]])}.")
            return a
        return _ACTION.validate_python({"kind": verb})

    def notation_is_public(self, s: State, seat: Seat, a: Any) -> bool:
        """Every action is public as typed: a card played is shown face up (``Played``)."""
        return True

    def format_action(self, s: State, a: Any) -> str:
        return f"play {a.card}" if isinstance(a, Play) else a.kind

    def complete(self, s: State, seat: Seat, prefix: str) -> list[str]:
        return [t for t in (self.format_action(s, a) for a in self.legal_actions(s, seat)) if t.startswith(prefix)]

    def action_from_json(self, data: Any) -> Any:
        return _ACTION.validate_python(data)

    def state_from_json(self, data: Any) -> State:
        return State.model_validate(data)


GAME = register(CountGame())
