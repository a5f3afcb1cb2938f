"""Promised Land: State, Actions, Events and View (pydantic, frozen).

Seats are zero-based ints. Lands are referred to by their index in the map data
(``GameData.lands``) inside the State and by their id (``"jericho"``) in actions,
events and views. Coins are counted as ``(bronze, silver, gold)``.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from games.core import Event, Model, Seat

# Done, Note and Pass are shared by every game (games.core.model)
from games.core.model import Done as Done
from games.core.model import Note as Note
from games.core.model import Pass as Pass
from games.core.model import TextEvent

from .data import Coin, Side

SCHEMA_VERSION = 1

PatriarchType = Literal["farmer", "merchant", "priest"]
PATRIARCH_TYPES: tuple[PatriarchType, ...] = ("farmer", "merchant", "priest")
Phase = Literal["order", "place", "discard", "turn", "over"]
TurnPhase = Literal["kb", "actions", "revenue", "buy"]
Coins = tuple[int, int, int]


# --------------------------------------------------------------------------- state


class LandState(Model):
    """What is in a land: the counters (a colour id, see kingdoms.toml) and how many units
    (1, or 2 when stacked), and whether it has a city and a temple."""

    counters: str | None = None
    units: int = 0
    city: bool = False
    temple: bool = False


class Patriarch(Model):
    """A Patriarch on the map: its owner, type and land (index)."""

    seat: Seat
    type: PatriarchType
    land: int


class OwnedArtefact(Model):
    """An Artefact in a player's supply: type id (``tribute-2.silver``), face down once played."""

    id: str
    face_down: bool = False


class PlayerState(Model):
    """One seat: its team, Kingdom cards in hand (hidden) and played (public), coins
    (hidden), Artefacts, its markers on the Royal and Kingdom tracks (tokens achieved),
    and the cards it discarded at the start of the current Book (hidden)."""

    side: Side
    hand: tuple[int, ...] = ()
    played: tuple[int, ...] = ()
    coins: Coins = (0, 0, 0)
    artefacts: tuple[OwnedArtefact, ...] = ()
    royal: int = 0
    kingdom: int = 0
    to_discard: int = 0
    discarded: tuple[int, ...] = ()  # its secret discard of the current Book (RULINGS.md R27)


class Retreat(Model):
    """A Patriarch of a conquered land waiting for its owner to retreat it (Retreating
    Patriarchs): ``counters`` is the colour of the kingdom that lost the land."""

    seat: Seat
    type: PatriarchType
    land: int
    counters: str


class PendingAttack(Model):
    """An attack declared on a land holding Patriarchs of players with a face-up Treaty:
    those players (``waiting``) may play it before the attack is resolved (RULINGS R18)."""

    land: int
    force: bool = False
    waiting: tuple[Seat, ...] = ()


class Turn(Model):
    """The turn in progress: the card, its player and kingdom, the units in hand and
    everything this turn has done so far (for continued attacks, the Kingdom track's
    demands and the Artefacts' effects)."""

    card: int
    seat: Seat
    kingdom: str
    phase: TurnPhase = "kb"
    units: int = 0
    shortfall: int = 0  # units the supply could not give: exchanged for coins (Unit Supply)
    half: bool = False  # a unit on the half space of the Combat chart
    last_failed: int | None = None  # land of the attack that just failed
    continued: int = 0  # +1..+3 for the next attack on that land
    built_cities: int = 0
    destroyed_cities: int = 0
    built_temples: int = 0
    destroyed_temples: int = 0
    used: tuple[tuple[str, int], ...] = ()  # Kingdom-track demands already used this turn
    ark_moved: bool = False
    plays: int = 0
    buys: int = 0
    actions: int = 0
    free_places: int = 0
    effects: tuple[str, ...] = ()  # siegecraft, chariots, treachery, masons, boom-*
    mason_credit: int = 0
    retreats: tuple[Retreat, ...] = ()
    pending: PendingAttack | None = None


class Combat(Model):
    """The last attack's public result (for the view and the board image)."""

    kingdom: str
    land: str
    method: Literal["dice", "force", "assault", "capitulation", "start-land", "treaty"]
    dice: tuple[int, ...] = ()
    attack: int = 0
    defence_roll: int = 0
    defence: int = 0
    won: bool = True
    text: str = ""


class State(Model):
    """The whole game. Never leaves the host; players get ``View``."""

    schema_version: int = SCHEMA_VERSION
    no_dice: bool = False
    players: tuple[PlayerState, ...]
    lands: tuple[LandState, ...]
    ark: int
    patriarchs: tuple[Patriarch, ...] = ()
    unit_supply: tuple[tuple[str, int], ...]
    cities: int  # in the supply
    temples: int
    coin_supply: Coins
    bag: tuple[str, ...]  # hidden order
    array: tuple[str, ...]  # face up, for sale
    royal_track: tuple[str, ...]
    kingdom_track: tuple[str, ...]
    decks: tuple[tuple[int, ...], ...]  # per Book and side: cards not dealt or discarded (hidden)
    book: int = 1
    time: int = 0  # Time track: the card last called
    phase: Phase = "place"
    place_order: tuple[Seat, ...] = ()
    orderer: Seat | None = None  # phase "order": the player with most coins, choosing the placement order
    turn: Turn | None = None
    last_combat: Combat | None = None
    winners: tuple[Seat, ...] = ()
    end_reason: str = ""


# --------------------------------------------------------------------------- actions


class Discard(Model):
    """Discard Kingdom cards back to the supply at the start of a Book (secret)."""

    kind: Literal["discard"] = "discard"
    cards: tuple[int, ...]


class PlacementOrder(Model):
    """The initial placement order of one team, chosen by its player with most coins."""

    kind: Literal["order"] = "order"
    seats: tuple[Seat, ...]


class PlacePatriarch(Model):
    """Place a Patriarch from the supply (``source`` None) or from the land ``source``."""

    kind: Literal["place"] = "place"
    type: PatriarchType
    land: str
    source: str | None = None


class Attack(Model):
    """Attack a land with one unit: roll dice, or Force victory (``force``)."""

    kind: Literal["attack"] = "attack"
    land: str
    force: bool = False


class Build(Model):
    """Build a city (1 unit) or a temple (2 units) in a land of the active kingdom."""

    kind: Literal["build"] = "build"
    what: Literal["city", "temple"]
    land: str


class Stack(Model):
    """Stack a second unit in a land of the active kingdom."""

    kind: Literal["stack"] = "stack"
    land: str


class MoveArk(Model):
    """Move the Ark to another land of the active kingdom; ``priest``: take your own Priest."""

    kind: Literal["ark"] = "ark"
    land: str
    priest: bool = False


class PlayArtefact(Model):
    """Play an Artefact (type id). ``land``/``land2``: its lands; ``coin``: Tribute's coin
    or the coin Commerce gives; ``coin2``/``count``: what Commerce takes and how many.
    ``give``/``take``: a Commerce exchange of more than two metals, as (bronze, silver, gold)
    counts: one metal for two others, or two metals for the third (RULINGS R21)."""

    kind: Literal["play"] = "play"
    artefact: str
    land: str | None = None
    land2: str | None = None
    coin: Coin | None = None
    coin2: Coin | None = None
    count: int | None = None
    give: tuple[int, int, int] | None = None
    take: tuple[int, int, int] | None = None


class EndBuilding(Model):
    """End Kingdom building: unused units exchanged 1:1 for coins (bronze, silver, gold)."""

    kind: Literal["end-building"] = "end-building"
    coins: Coins = (0, 0, 0)


class AdvanceRoyal(Model):
    """Advance on the Royal track, paying ``pay`` (bronze, silver, gold)."""

    kind: Literal["royal"] = "royal"
    pay: Coins


class AdvanceKingdom(Model):
    """Advance on the Kingdom track (the active kingdom meets the token's demand)."""

    kind: Literal["kingdom"] = "kingdom"


class CollectCoin(Model):
    """Collect one coin (two with the Treasury token)."""

    kind: Literal["collect"] = "collect"
    coins: tuple[Coin, ...]


class Buy(Model):
    """Buy an Artefact from the array (type id)."""

    kind: Literal["buy"] = "buy"
    artefact: str


class RetreatTo(Model):
    """Retreat a Patriarch of a conquered land to ``land``, or to the supply (None)."""

    kind: Literal["retreat"] = "retreat"
    land: str | None = None




Action = Annotated[
    Discard
    | PlacementOrder
    | PlacePatriarch
    | Attack
    | Build
    | Stack
    | MoveArk
    | PlayArtefact
    | EndBuilding
    | AdvanceRoyal
    | AdvanceKingdom
    | CollectCoin
    | Buy
    | RetreatTo
    | Done
    | Pass,
    Field(discriminator="kind"),
]


# --------------------------------------------------------------------------- events



class PrivateNote(TextEvent):
    """A line only some seats see (cards dealt, cards discarded)."""

    kind: Literal["private-note"] = "private-note"


class DiceRolled(Event):
    """Dice rolled, with their purpose."""

    kind: Literal["dice"] = "dice"
    purpose: str
    dice: tuple[int, ...]

    def describe(self) -> str:
        return f"{self.purpose}: rolled {', '.join(map(str, self.dice))}."


class Attacked(Event):
    """An attack and its result."""

    kind: Literal["attacked"] = "attacked"
    combat: Combat

    def describe(self) -> str:
        return self.combat.text


class CardRevealed(TextEvent):
    """A Kingdom card called on the Time track and revealed."""

    kind: Literal["card-revealed"] = "card-revealed"
    seat: Seat
    card: int


class CoinsChanged(Event):
    """A seat's coins changed (public, as on the table)."""

    kind: Literal["coins"] = "coins"
    seat: Seat
    delta: tuple[int, int, int]
    reason: str

    def describe(self) -> str:
        parts = [
            f"{'+' if d > 0 else ''}{d} {c}"
            for d, c in zip(self.delta, ("bronze", "silver", "gold"), strict=True)
            if d
        ]
        return f"Seat {self.seat + 1}: {', '.join(parts) or 'no coins'} ({self.reason})."


class GameEnded(TextEvent):
    kind: Literal["game-ended"] = "game-ended"


# --------------------------------------------------------------------------- view


class CardView(Model):
    number: int
    name: str
    side: Side
    kingdom: str
    units: int
    hills: int
    plains: int
    points: int


class ArtefactView(Model):
    id: str
    name: str
    coin: Coin
    cost: int
    points: int
    phase: str
    text: str
    face_down: bool = False


class LandView(Model):
    id: str
    name: str
    terrain: str
    port: bool
    road: bool
    counters: str | None
    kingdom: str | None  # the kingdom the counters belong to, when one can tell
    units: int
    city: bool
    temple: bool
    ark: bool
    patriarchs: tuple[tuple[Seat, PatriarchType], ...]


class PlayerView(Model):
    seat: Seat
    side: Side
    hand_size: int
    hand: tuple[CardView, ...] | None  # only the viewer's own (or all once the game is over)
    played: tuple[CardView, ...]
    coins: Coins | None  # only the viewer's own (or all once the game is over)
    artefacts: tuple[ArtefactView, ...]
    royal: int
    kingdom: int
    patriarchs_in_supply: tuple[int, int, int]
    to_discard: int
    score: int | None = None  # once the game is over
    score_parts: tuple[tuple[str, int], ...] = ()
    # points the seat would score if the game ended now, from its public items only (every part of
    # Ending the Game's count but coins, which are hidden): Hebrew remnant, tokens, cards, Artefacts
    points: int = 0


class TurnView(Model):
    card: CardView
    seat: Seat
    kingdom: str
    kingdom_name: str
    phase: TurnPhase
    units: int
    shortfall: int
    half: bool
    continued: int
    actions: int
    free_places: int
    plays: int
    buys: int
    effects: tuple[str, ...]
    retreating: tuple[Seat, ...]
    treaty_window: tuple[str, tuple[Seat, ...]] | None = None  # attacked land, seats that may play Treaty


class View(Model):
    """What one viewer (None = spectator) may see of a Promised Land game."""

    game: Literal["promised-land"] = "promised-land"
    viewer: Seat | None
    no_dice: bool
    phase: Phase
    book: int
    time: int
    players: tuple[PlayerView, ...]
    lands: tuple[LandView, ...]
    unit_supply: tuple[tuple[str, int], ...]
    cities: int
    temples: int
    coin_supply: Coins
    bag_size: int
    array: tuple[ArtefactView, ...]
    royal_track: tuple[tuple[str, str, str, int], ...]  # id, name, cost, points
    kingdom_track: tuple[tuple[str, str, int], ...]  # id, text, points
    turn: TurnView | None
    waiting: tuple[Seat, ...]
    prompt: str
    last_combat: Combat | None
    winners: tuple[Seat, ...]
    end_reason: str
