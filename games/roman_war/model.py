"""Roman War: State, Actions, Events and View (pydantic, frozen).

Seats are zero-based ints. In co-op every seat is a Roman player; in a duel the last
seat plays the Hannibal side (RULINGS.md R17). ``uid`` numbers identify cards in play
(Ambushes, Hannibal's Encampments, stack items) across a game.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from games.core import Event, Model, Seat
from games.core.english import possessive

# Done, Note and Pass are shared by every game (games.core.model)
from games.core.model import Done as Done
from games.core.model import Note as Note
from games.core.model import Pass as Pass
from games.core.model import TextEvent

SCHEMA_VERSION = 1

Mode = Literal["coop", "duel"]
Phase = Literal["cost", "purchase", "hannibal", "defense", "main", "end", "over"]
Source = Literal["hand", "cost_zone"]


# --------------------------------------------------------------------------- state


class CostCard(Model):
    """A card in a Cost Zone: face down unless ``face_up``; ``tapped`` = rotated."""

    card: str
    face_up: bool = False
    tapped: bool = False


class FieldCard(Model):
    """A Roman Encampment or Token in play, with the Tokens attached to it."""

    uid: int
    card: str
    tapped: bool = False
    attached: tuple[str, ...] = ()


class Roman(Model):
    """One Roman player. ``maneuver`` is the Maneuver level 0-3 (RULINGS.md R1);
    ``overflow`` the cards still to discard for Power lost at 0; ``shaken`` the cards
    fewer to draw next turn; ``gained`` the Power gained this turn (Cost Zone Power)."""

    deck_id: str
    commander: str
    deck: tuple[str, ...] = ()
    hand: tuple[str, ...] = ()
    discard: tuple[str, ...] = ()
    cost_zone: tuple[CostCard, ...] = ()
    field: tuple[FieldCard, ...] = ()
    power: int = 3
    maneuver: int = 0
    overflow: int = 0
    shaken: int = 0
    gained: int = 0


class ActiveAmbush(Model):
    """An Ambush played at a Roman, waiting in the Defense step."""

    uid: int
    card: str
    target: Seat
    defended: bool = False


class HannibalEncampment(Model):
    uid: int
    card: str


class StackItem(Model):
    """A card, a paid boost, or a failed Ambush on the stack.

    ``stage``: ``new`` (the response window may open), ``pre`` (boosts taken before the
    action), ``text`` (the action resolves), ``post`` (the other boosts), ``done``.
    ``to``: the teammate named by the card (an ``ally`` effect or Brotherly Horse);
    ``target``: the Ambush a Defense card defends; ``boost``: the boost's index on
    ``card`` for a boost item; ``parent``: the card item a boost belongs to.
    """

    uid: int
    kind: Literal["card", "boost", "ambush"]
    seat: Seat
    card: str
    stage: Literal["new", "pre", "text", "post", "done"] = "new"
    to: Seat | None = None
    target: int | None = None
    boost: int | None = None
    parent: int | None = None
    payer: Seat | None = None
    boosted: bool = False
    taken: tuple[int, ...] = ()
    choice: int | None = None
    shielded: bool = False
    fee: bool = False
    speed: bool = False


class Pending(Model):
    """A decision the flow waits for. ``kind``: ``respond`` (seats holding a fast Tactic
    may answer the Ambush on the stack), ``boost`` (payers may take boosts of the card
    ``item``, in turn: ``waiting[0]`` is asked), ``choose`` (the controller picks one of
    ``options`` for ``item``), ``level`` (the team chooses a free level ability),
    ``help`` (Benevolence: teammates may pay to defend the remaining Ambushes)."""

    kind: Literal["respond", "boost", "choose", "level", "help"]
    waiting: tuple[Seat, ...]
    item: int | None = None
    boosts: tuple[int, ...] = ()
    options: int = 0


class Clearing(Model):
    """The clearing round: opened when the last player reached L3, at the start of
    ``opener``'s turn in ``round``; ``extended`` once it has closed before the end of
    round 10 without a win (it then runs to the end of round 10)."""

    opener: Seat
    round: int
    extended: bool = False


class State(Model):
    """The whole game. Never leaves the host; players get ``View``."""

    schema_version: int = SCHEMA_VERSION
    mode: Mode = "coop"
    romans: tuple[Roman, ...]
    hannibal_seat: Seat | None = None  # duel: the Hannibal seat deciding now (or last)
    hannibal_seats: tuple[Seat, ...] = ()  # duel: every seat of the Hannibal side (R17)
    hannibal_turns: int = 0  # duel: Hannibal phases so far (whose turn it is among hannibal_seats)
    turn_order: tuple[Seat, ...]
    turn: int = 0
    round: int = 1
    last_round: int = 10
    phase: Phase = "cost"
    placed: int = 0  # cards put in the Cost Zone this turn (up to 4)
    speed_used: bool = False
    horse_used: bool = False
    hannibal_deck: tuple[str, ...] = ()
    hannibal_discard: tuple[str, ...] = ()
    hannibal_hand: tuple[str, ...] = ()  # duel only
    hannibal_to_play: int = 0  # duel: cards Hannibal may still play this Hannibal phase
    defended_pile: tuple[str, ...] = ()
    known: int = 0  # top cards of the Hannibal deck revealed to everyone (Foresight, Scouts)
    ambushes: tuple[ActiveAmbush, ...] = ()
    encampments: tuple[HannibalEncampment, ...] = ()
    stack: tuple[StackItem, ...] = ()
    pending: tuple[Pending, ...] = ()
    settling: bool = False
    next_uid: int = 1
    level_abilities: bool = True
    abilities: tuple[str, ...] = ()
    charged: tuple[str, ...] = ()  # Restoration / Deliverance ready to use
    shared_level: int = 0  # highest Domination Level all players have reached
    fee: int = 1  # Target-Change fee, solo
    manual: bool = False  # manual Power / Maneuver adjustment allowed
    clearing: Clearing | None = None
    winner: Literal["romans", "hannibal"] | None = None
    end_reason: str = ""

    @property
    def active(self) -> Seat:
        return self.turn_order[self.turn]


# --------------------------------------------------------------------------- actions


class PlaceCost(Model):
    """Cost Zone phase: put a card from hand face down in your Cost Zone."""

    kind: Literal["cost"] = "cost"
    card: str


class PlayCard(Model):
    """Play a card from hand (or, ``source="cost_zone"``, a face-up Cost Zone card).
    ``target``: the Ambush (uid) a Defense card defends; ``to``: the teammate an
    ``ally`` effect aims at, or that Brotherly Horse redirects to."""

    kind: Literal["play"] = "play"
    card: str
    source: Source = "hand"
    target: int | None = None
    to: Seat | None = None


class Rotate(Model):
    """Rotate one of your field cards to use its ability (``target``: an Ambush to
    defend, for a defending ability)."""

    kind: Literal["rotate"] = "rotate"
    uid: int
    target: int | None = None


class Defend(Model):
    """Pay an Ambush's defense cost (R n / R X) from your own Cost Zone."""

    kind: Literal["defend"] = "defend"
    target: int


class Assault(Model):
    """Main phase: pay a Hannibal's Encampment's defense cost to break it."""

    kind: Literal["assault"] = "assault"
    target: int


class TakeBoost(Model):
    """Pay for boost ``index`` (0-based) of the card being resolved."""

    kind: Literal["boost"] = "boost"
    index: int


class Choose(Model):
    """Pick option ``index`` (0-based) of a "choose one" card or boost."""

    kind: Literal["choose"] = "choose"
    index: int


class PickAbility(Model):
    """Choose the team's free level ability (``buy=False``) or buy one with Cost."""

    kind: Literal["ability"] = "ability"
    ability: str
    buy: bool = False


class UseAbility(Model):
    """Use Restoration or Deliverance (once per shared level)."""

    kind: Literal["use"] = "use"
    ability: str


class Overflow(Model):
    """Discard a card for Power lost at 0, from hand or from the Cost Zone."""

    kind: Literal["overflow"] = "overflow"
    card: str
    source: Source = "hand"


class Discard(Model):
    """End phase: discard a card down to the hand limit."""

    kind: Literal["discard"] = "discard"
    card: str


class Ambush(Model):
    """Duel, the Hannibal side: play an Ambush at a Roman, or an Encampment (target None)."""

    kind: Literal["ambush"] = "ambush"
    card: str
    target: Seat | None = None


class Adjust(Model):
    """House rule (option ``manual``): set your own Power or Maneuver level, publicly."""

    kind: Literal["adjust"] = "adjust"
    stat: Literal["power", "maneuver"]
    value: int




Action = Annotated[
    PlaceCost
    | PlayCard
    | Rotate
    | Defend
    | Assault
    | TakeBoost
    | Choose
    | PickAbility
    | UseAbility
    | Overflow
    | Discard
    | Ambush
    | Adjust
    | Done
    | Pass,
    Field(discriminator="kind"),
]


# --------------------------------------------------------------------------- events



class CardsDrawn(Event):
    """Private: the names of the cards a seat drew (or saw)."""

    kind: Literal["cards_drawn"] = "cards_drawn"
    seat: Seat
    names: tuple[str, ...]
    where: str = "hand"

    def describe(self) -> str:
        return f"You drew to your {self.where}: " + (", ".join(self.names) or "nothing") + "."


class PowerChanged(Event):
    kind: Literal["power"] = "power"
    seat: Seat
    who: str
    delta: int
    power: int
    reason: str

    def describe(self) -> str:
        sign = "+" if self.delta >= 0 else "-"
        return f"{self.who}: H{sign}{abs(self.delta)} ({self.reason}); Power {self.power}/10."


class ManeuverChanged(Event):
    kind: Literal["maneuver"] = "maneuver"
    seat: Seat
    who: str
    level: int
    reason: str

    def describe(self) -> str:
        return f"{self.who}: Maneuver level {self.level} ({self.reason})."


class HannibalPlayed(TextEvent):
    kind: Literal["hannibal_played"] = "hannibal_played"
    card: str
    name: str
    target: Seat | None


class CardPlayed(TextEvent):
    kind: Literal["card_played"] = "card_played"
    seat: Seat
    card: str


class TurnBegan(Event):
    kind: Literal["turn"] = "turn"
    seat: Seat
    who: str
    round: int

    def describe(self) -> str:
        return f"Round {self.round}: {possessive(self.who)} turn."


class GameEnded(TextEvent):
    kind: Literal["game_ended"] = "game_ended"
    winner: Literal["romans", "hannibal"]


# --------------------------------------------------------------------------- view


class CardView(Model):
    """A card face: id, name, type, cost (C n) and its printed line."""

    id: str
    name: str
    type: str
    cost: int | None = None
    defense: int | None = None
    line: str


class CostView(Model):
    """A Cost Zone card: ``card`` is None when face down and not the viewer's own."""

    card: CardView | None
    face_up: bool
    tapped: bool


class FieldView(Model):
    uid: int
    card: CardView
    tapped: bool
    attached: tuple[CardView, ...] = ()


class RomanView(Model):
    seat: Seat
    commander: str
    deck_id: str
    power: int
    maneuver: int
    hand_size: int
    deck_size: int
    discard_size: int
    discard_top: CardView | None
    cost_zone: tuple[CostView, ...]
    untapped_cost: int
    field: tuple[FieldView, ...]
    shaken: int
    overflow: int
    hand: tuple[CardView, ...] | None = None  # only in the viewer's own view


class AmbushView(Model):
    uid: int
    card: CardView
    target: Seat
    defense: int
    defended: bool


class EncampmentView(Model):
    uid: int
    card: CardView
    defense: int


class StackView(Model):
    uid: int
    kind: str
    seat: Seat
    name: str
    stage: str


class ClearingView(Model):
    opener: Seat
    round: int
    extended: bool


class View(Model):
    """What one viewer (None = spectator) may see of a Roman War game."""

    game: Literal["roman-war"] = "roman-war"
    viewer: Seat | None
    mode: Mode
    round: int
    last_round: int
    phase: Phase
    active: Seat | None
    turn_order: tuple[Seat, ...]
    romans: tuple[RomanView, ...]
    hannibal_seat: Seat | None
    hannibal_seats: tuple[Seat, ...] = ()
    hannibal_deck_size: int
    hannibal_discard_size: int
    hannibal_hand_size: int
    hannibal_hand: tuple[CardView, ...] | None = None
    defended_size: int
    foresight: tuple[CardView, ...]
    ambushes: tuple[AmbushView, ...]
    encampments: tuple[EncampmentView, ...]
    stack: tuple[StackView, ...]
    level_abilities: bool
    abilities: tuple[str, ...]
    charged: tuple[str, ...]
    shared_level: int
    clearing: ClearingView | None
    waiting: tuple[Seat, ...]
    prompt: str
    winner: Literal["romans", "hannibal"] | None
    end_reason: str
    hand_limit: int = 7
