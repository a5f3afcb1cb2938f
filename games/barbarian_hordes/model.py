"""Barbarian Hordes: State, Actions, Events and View (pydantic, frozen).

Seats are zero-based ints. The seating circle is ``State.seating`` listed
clockwise; a seat's *left* neighbour is the next one clockwise, its *right*
neighbour the previous one (RULINGS.md R1).
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from games.core import Event, Model, ResponseWindow, Seat
from games.core.english import count, possessive

# Done, Note and Pass are shared by every game (games.core.model)
from games.core.model import Done as Done
from games.core.model import Note as Note
from games.core.model import Pass as Pass
from games.core.model import TextEvent

SCHEMA_VERSION = 1

Phase = Literal["draft", "reentry", "fate", "recruit", "event", "conquest", "end", "over"]
Variant = Literal["standard", "three-player"]


# --------------------------------------------------------------------------- state


class PlayerState(Model):
    """One seat. ``status``: ``in`` (playing), ``out`` (wiped out, may re-enter on
    its next turn), ``eliminated`` (wiped out with no nation left to re-enter as),
    ``drafting`` (has not picked a nation yet)."""

    nation: str | None = None
    armies: int = 0
    territories: int = 0
    hand: tuple[str, ...] = ()
    wins: int = 0  # wars won not yet used for a V card (RULINGS.md R9)
    status: Literal["drafting", "in", "out", "eliminated"] = "drafting"
    last_position: int = 0  # index in the seating circle when wiped out (R14)


class Contribution(Model):
    """What one seat committed to a war (hidden until every seat has committed)."""

    seat: Seat
    side: Seat | None = None  # the combatant it fights for; None = a blocking play only
    cards: tuple[str, ...] = ()  # Force / Leader / Y cards
    armies: int = 0  # allied Army Tokens sent
    sacrifice: bool = False  # Berserkers
    block: str | None = None  # a P, I or LI card played against the attack


class WarState(Model):
    """A war in progress: every living seat commits in secret, then Leader cards
    may be negated, then the war is resolved (RULINGS.md R5)."""

    attacker: Seat
    defender: Seat
    waiting: tuple[Seat, ...]
    contributions: tuple[Contribution, ...] = ()
    stage: Literal["commit", "negate"] = "commit"
    negated: tuple[str, ...] = ()  # leader cards negated by K cards


class PendingLeader(Model):
    """A Leader card just played outside a war, waiting for the K window to close."""

    seat: Seat
    card: str
    target: Seat | None = None


class Window(ResponseWindow):
    """A response window. ``kind``: ``opponents`` (the others may play cards on the
    active player's turn, at the end of its Event Phase) or ``negate`` (a Leader
    card was just played: anyone else may negate it with a K card)."""

    kind: Literal["opponents", "negate"]
    leader: PendingLeader | None = None


class WarResult(Model):
    """The last war's public result, for the view and the board image."""

    attacker: Seat
    defender: Seat
    attacker_total: int = 0
    defender_total: int = 0
    attacker_roll: int = 0
    defender_roll: int = 0
    outcome: Literal["attacker", "defender", "stalemate", "blocked"]
    attacker_losses: int = 0
    defender_losses: int = 0
    territory_taken: bool = False
    note: str = ""


class State(Model):
    """The whole game. Never leaves the host; players get ``View``."""

    schema_version: int = SCHEMA_VERSION
    variant: Variant = "standard"
    players: tuple[PlayerState, ...]
    seating: tuple[Seat, ...]
    turn_order: tuple[Seat, ...]
    turn: int = 0  # index into turn_order of the active seat
    round: int = 1
    phase: Phase = "draft"
    deck: tuple[str, ...] = ()
    discard: tuple[str, ...] = ()
    nations_played: tuple[str, ...] = ()
    conquests_left: int = 0
    attack_forbidden: bool = False  # an I card was played this turn
    protected: tuple[Seat, ...] = ()  # seats the active player may not attack (P cards)
    windows: tuple[Window, ...] = ()  # stack; the last is open
    war: WarState | None = None
    last_war: WarResult | None = None
    winner: Seat | None = None
    end_reason: str = ""
    round_limit: int | None = None

    @property
    def active(self) -> Seat:
        return self.turn_order[self.turn]


# --------------------------------------------------------------------------- actions


class PickNation(Model):
    """Choose a nation: in the draft, or when re-entering after being wiped out."""

    kind: Literal["pick"] = "pick"
    nation: str


class MoveSeat(Model):
    """Sit between two seats that are neighbours (Vandals in their Fate Phase)."""

    kind: Literal["move"] = "move"
    left: Seat
    right: Seat


class PlayCard(Model):
    """Play a card from hand. ``target``: the seat it is played on (S cards) or the
    owner of the Leader card negated (K cards); ``negate``: the Leader card a K card
    negates; ``left``/``right``: the new neighbours for an M card."""

    kind: Literal["play"] = "play"
    card: str
    target: Seat | None = None
    negate: str | None = None
    left: Seat | None = None
    right: Seat | None = None


class Attack(Model):
    """Declare war on a neighbour in the Conquest Phase."""

    kind: Literal["attack"] = "attack"
    target: Seat


class Fight(Model):
    """A combatant's secret war commitment: Force, Leader and Y cards, and for the
    Berserkers whether to sacrifice an Army Token for Force +3."""

    kind: Literal["fight"] = "fight"
    cards: tuple[str, ...] = ()
    sacrifice: bool = False


class Support(Model):
    """An ally's secret war commitment: Army Tokens and Force cards sent to one side."""

    kind: Literal["support"] = "support"
    side: Seat
    armies: int = 0
    cards: tuple[str, ...] = ()


class Block(Model):
    """A secret war commitment that tries to stop the attack with a P, I or LI card."""

    kind: Literal["block"] = "block"
    card: str


class Discard(Model):
    """Discard down to the hand limit in the End Phase."""

    kind: Literal["discard"] = "discard"
    cards: tuple[str, ...]




Action = Annotated[
    PickNation | MoveSeat | PlayCard | Attack | Fight | Support | Block | Discard | Done | Pass,
    Field(discriminator="kind"),
]


# --------------------------------------------------------------------------- events



class TurnOrderRolled(Event):
    kind: Literal["turn_order"] = "turn_order"
    rolls: tuple[tuple[int, ...], ...]  # per seat, every 1D10 it rolled (rerolls for ties)
    order: tuple[Seat, ...]

    def describe(self) -> str:
        return "Turn order rolled on 1D10: " + ", ".join(
            f"seat {s + 1} ({'/'.join(map(str, self.rolls[s]))})" for s in self.order
        )


class CardsDrawn(Event):
    kind: Literal["cards_drawn"] = "cards_drawn"
    seat: Seat
    who: str
    count: int
    reason: str = ""

    def describe(self) -> str:
        why = f" ({self.reason})" if self.reason else ""
        return f"{self.who} drew {count(self.count, 'card')}{why}."


class CardsReceived(Event):
    """Private: which cards a seat drew."""

    kind: Literal["cards_received"] = "cards_received"
    seat: Seat
    cards: tuple[str, ...]
    names: tuple[str, ...]

    def describe(self) -> str:
        return "You drew: " + (", ".join(self.names) or "nothing") + "."


class HandSeen(Event):
    """Private: the hand an S card let a seat look at."""

    kind: Literal["hand_seen"] = "hand_seen"
    seat: Seat
    target: Seat
    who: str
    names: tuple[str, ...]

    def describe(self) -> str:
        return f"{possessive(self.who)} hand: " + (", ".join(self.names) or "empty") + "."


class ArmiesChanged(Event):
    kind: Literal["armies"] = "armies"
    seat: Seat
    who: str
    delta: int
    armies: int
    reason: str
    rolls: tuple[int, ...] = ()

    def describe(self) -> str:
        roll = f" (rolled {'/'.join(map(str, self.rolls))})" if self.rolls else ""
        verb = "gained" if self.delta >= 0 else "lost"
        n = abs(self.delta)
        return f"{self.who} {verb} {n} Army Token{'' if n == 1 else 's'}: {self.reason}{roll}; now {self.armies}."


class CardPlayed(Event):
    kind: Literal["card_played"] = "card_played"
    seat: Seat
    who: str
    card: str
    name: str
    text: str

    def describe(self) -> str:
        return f"{self.who} played {self.name}: {self.text}"


class SeatingChanged(TextEvent):
    kind: Literal["seating"] = "seating"
    seat: Seat
    who: str
    seating: tuple[Seat, ...]


class WarDeclared(TextEvent):
    kind: Literal["war_declared"] = "war_declared"
    attacker: Seat
    defender: Seat


class WarCommitted(Event):
    """Public: a seat has made its secret war commitment (not what it is)."""

    kind: Literal["war_committed"] = "war_committed"
    seat: Seat
    who: str

    def describe(self) -> str:
        return f"{self.who}: committed to the war in secret."


class WarResolved(TextEvent):
    kind: Literal["war_resolved"] = "war_resolved"
    result: WarResult


class PhaseBegan(Event):
    kind: Literal["phase"] = "phase"
    seat: Seat
    who: str
    phase: Phase
    round: int

    def describe(self) -> str:
        return f"Round {self.round}: {self.who} — {self.phase.title()} Phase."


class GameWon(TextEvent):
    kind: Literal["game_won"] = "game_won"
    seat: Seat | None


# --------------------------------------------------------------------------- view


class CardView(Model):
    """A card face: id, name, type codes, Force bonus, DO/AO note, what it does."""

    id: str
    name: str
    types: str
    force: int | None = None
    only: str | None = None
    text: str


class PlayerView(Model):
    seat: Seat
    nation: str | None
    nation_id: str | None
    ability: str
    armies: int
    territories: int
    hand_size: int
    status: Literal["drafting", "in", "out", "eliminated"]
    hand: tuple[CardView, ...] | None = None  # only in the viewer's own view


class WarView(Model):
    """Public part of a war in progress: who fights and who has committed."""

    attacker: Seat
    defender: Seat
    stage: Literal["commit", "negate"]
    committed: tuple[Seat, ...]
    waiting: tuple[Seat, ...]
    revealed: tuple[Contribution, ...] = ()  # filled once every commitment is revealed


class View(Model):
    """What one viewer (None = spectator) may see of a Barbarian Hordes game."""

    game: Literal["barbarian-hordes"] = "barbarian-hordes"
    viewer: Seat | None
    variant: Variant
    round: int
    phase: Phase
    active: Seat | None
    turn_order: tuple[Seat, ...]
    seating: tuple[Seat, ...]  # clockwise; left neighbour = next
    players: tuple[PlayerView, ...]
    deck_size: int
    discard_size: int
    discard_top: CardView | None
    conquests_left: int
    attack_forbidden: bool
    protected: tuple[Seat, ...]
    waiting: tuple[Seat, ...]  # seats being asked for input now
    window: str | None  # what the open response window is about
    war: WarView | None
    last_war: WarResult | None
    winner: Seat | None
    end_reason: str
    hand_limit: int = 8
    victory_territories: int = 10
