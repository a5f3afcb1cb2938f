"""Soul of the Empire: State, Actions, Events and View (pydantic, frozen).

Factions are ``rome``, ``jews``, ``coalition``, ``christians`` and ``gray`` (the
Gray Faction of the Jewish revolts, controlled by the Jewish seat). Each seat
controls one faction (two in the 2-player game; the Jewish seat also the Gray).
Dice are referred to by index 0-4 in their faction's five dice; a die's ``place``
says which area of the faction board it is in.
"""

from __future__ import annotations

from typing import Literal

from games.core import Event, Model, Seat

# Done, Note and Pass are shared by every game (games.core.model)
from games.core.model import Done, Note, Pass, TextEvent

from .actions import (
    Action,
    Attack,
    Block,
    Buy,
    Claim,
    ClaimMarker,
    Commit,
    Convert,
    Crucify,
    DiscardObjective,
    DiscardPower,
    Elder,
    EndMain,
    Faction,
    Give,
    Keep,
    Lower,
    Move,
    Path,
    PlaceMarker,
    PlaceUnit,
    PlayPower,
    Plunder,
    Prepare,
    Rage,
    Raise,
    Ready,
    Recruit,
    Redirect,
    Regroup,
    Reroll,
    Retrieve,
    Reveal,
    Score,
    Shift,
    Spread,
    TakeUnit,
    Unblock,
    UseGrace,
)

SCHEMA_VERSION = 1

Phase = Literal["markers", "final", "roll", "start", "main", "end", "discard", "over"]
DiePlace = Literal["unspent", "spent", "power", "objective", "marker", "block"]


# --------------------------------------------------------------------------- state


class Die(Model):
    """One die. ``value`` 1-6 (0 = not rolled since it was spent to score);
    ``seq``: part of the Dice Sequence (only meaningful while unspent);
    ``on``: the Objective Card id (objective, block) or the marker's territory (marker)."""

    value: int = 0
    place: DiePlace = "spent"
    seq: bool = False
    on: str | None = None
    target: str | None = None  # block: the faction whose objective is blocked


class FactionState(Model):
    """One faction's board and hand."""

    id: Faction
    seat: Seat
    supply: int = 0
    points: int = 0
    dice: tuple[Die, ...] = ()
    hand: tuple[str, ...] = ()  # Power Card ids (copy ids like "roman-roads#2")
    deck: tuple[str, ...] = ()
    discard: tuple[str, ...] = ()
    durable: tuple[str, ...] = ()  # Durable Power Cards face up
    combat_used: tuple[str, ...] = ()  # Combat Cards played (face up) since the deck was refreshed
    captured: dict[str, int] = {}  # Rome: units in the Captured Unit Area by faction
    capture_track: int = 0  # Rome: highest filled capture space
    converted: int = 0  # Christians: the conversion tracker
    rage: int = 0  # Coalition: the Rage track, -2 .. 3
    markers: tuple[str, ...] = ()  # Coalition: owners of the Objective Point Markers scored
    regions_scored: tuple[str, ...] = ()  # Coalition: regions scored (once each)
    gospel: str | None = None  # the faction named by this faction's Gospel (Christians; Coalition, R14)
    grace_last: int = 0  # Christians: the Grace option used last turn (0 none)
    grace_now: int = 0  # Christians: the Grace option used this turn


class Marker(Model):
    """An Objective Point Marker: its owner faction and territory (None once scored)."""

    owner: Faction
    territory: str | None = None


class Revolt(Model):
    """A revolt card in play (Durable) with its yellow dice and its own Gray units
    (``units``: territory -> units of this revolt; the board's ``gray`` count is the sum
    over the revolts, RULINGS.md R13). ``discarded``: an Exploit discarded the card while
    its units stayed on the board (they have no yellow die)."""

    card: str
    dice: tuple[Die, ...] = ()
    units: dict[str, int] = {}
    discarded: bool = False

    @property
    def on_board(self) -> int:
        return sum(self.units.values())


class Rolling(Model):
    """A faction rolling and readying its dice: ``rerolls`` left (0-2) and why."""

    faction: Faction
    dice: tuple[int, ...] = ()  # the dice being rolled
    rerolls: int = 2
    reason: Literal["setup", "end", "pass"] = "end"


class ExtraRoll(Model):
    """Dice rolled "up to 3 times" outside Roll and Ready (RULINGS.md R13, R18): the
    revolts' yellow dice (``kind`` yellow, ``dice`` flat yellow indices) or the
    Coalition's returned blocking dice (``kind`` block, Coalition die indices).
    ``rerolls`` left; ``resume``: what follows once the dice are kept."""

    faction: Faction
    kind: Literal["yellow", "block"]
    dice: tuple[int, ...] = ()
    rerolls: int = 2
    resume: Literal["none", "setup", "end", "pass", "end_scoring", "main"] = "none"


class Regrouping(Model):
    """The Coalition scored ``region``: it takes 1 unit from it (``taken`` once done), then
    may regroup 6 units there (RULINGS.md R12)."""

    region: str
    taken: bool = False


CombatQuestion = Literal["elder_play", "elder", "pharaoh", "grace", "crucify"]


class Combat(Model):
    """A combat in progress (RULINGS.md R9, R16).

    ``stage``: ``elder`` (a side holding Elder is asked whether to play it face up),
    ``powers`` (before the Combat Cards, in secret: a combat Power Card face down and
    Conscription; ``prepared`` holds each side's answer until all answered), ``choose``
    (the secret choice of the Combat Cards; ``choices`` hold each side's card until both
    chose), ``decide`` (after the reveal: ``asking`` answers ``question``), ``plunder``,
    ``salvage`` (the Coalition selects one of ``salvage_drawn`` to keep, RULINGS.md R14).
    ``powers``: the Power Cards in play by side (Elder face up; the others face down until the
    reveal, Pharaoh's Fate and Guardian Angel after it too); ``conscripted``: the captured
    units Conscription added, by side. From the reveal on: ``values`` the Combat
    Values, ``winner`` the side winning now, ``early`` the combat was decided by a
    card removing the final unit, ``no_losses`` Guardian Angel was revealed,
    ``crucify`` the faction whose captured unit Crucify returns, ``lines`` the story
    for the combat result."""

    territory: str
    attacker: Faction
    defender: Faction
    prepared: dict[str, Prepare] = {}
    choices: dict[str, Commit] = {}
    stage: Literal["elder", "powers", "choose", "decide", "plunder", "salvage"] = "choose"
    asking: Faction | None = None
    question: CombatQuestion | None = None
    elder: Faction | None = None  # the side that played Elder face up
    elder_declined: tuple[Faction, ...] = ()
    reveal_answered: tuple[Faction, ...] = ()  # answered the face-down card's question (R9, R25)
    grace_answered: tuple[Faction, ...] = ()  # answered Grace's reversal (R9)
    powers: dict[str, str] = {}
    conscripted: dict[str, int] = {}
    values: dict[str, int] = {}
    winner: Faction | None = None
    early: bool = False
    no_losses: bool = False
    crucify: Faction | None = None
    lines: tuple[str, ...] = ()
    salvage_drawn: tuple[str, ...] = ()  # stage salvage: the two cards drawn from the deck


class Window(Model):
    """A response window on another faction's turn, answered by ``faction``: the Jews,
    Rome or the Christians, or the Coalition with a salvaged card (RULINGS.md R14).
    ``kind``: ``promised_land`` (a faction moved units out of the blue region: the
    holder may redirect them), ``gospel`` (the Gospel faction moved: the holder may move
    1 Christian unit 1 territory) or ``caesar`` (a faction bought Power Cards: the
    holder may raise 1 of its Unspent dice, Give to Caesar)."""

    kind: Literal["promised_land", "gospel", "caesar"]
    faction: Faction  # who may answer
    mover: Faction
    moved: tuple[Path, ...] = ()


class Tribute(Model):
    """Collect Tribute being resolved (RULINGS.md R15). The factions in ``waiting`` lower
    an Unspent die by 1 pip, in play order (the first is asked now); then ``player``, who
    played the card, raises its Unspent dice one pip at a time, up to ``collected`` pips
    (``raised`` so far)."""

    player: Faction
    waiting: tuple[Faction, ...] = ()
    collected: int = 0
    raised: int = 0


class Giving(Model):
    """Giving being resolved (RULINGS.md R15): ``giver``, the faction the Christians named,
    gives Unspent dice of its choice, one at a time, until they total 4 pips (``given``
    so far; ``values`` the dice given)."""

    giver: Faction
    given: int = 0
    values: tuple[int, ...] = ()


class Conversion(Model):
    """The Christians won a combat in ``territory`` and ``count`` units were removed
    (RULINGS.md R10). Stage ``convert``: they may replace up to ``count`` of them with
    Christian units from their supply, the Roman Captured Unit Area or other territories.
    Stage ``spread``: ``excess`` Christian units over the 6-unit limit there move to
    adjacent territories of their choice (free move)."""

    territory: str
    count: int = 0
    stage: Literal["convert", "spread"] = "convert"
    excess: int = 0


class Scoring(Model):
    """``faction`` has completed claimed objectives and may score them (Scoring a Claimed
    Objective Card: "you may score the Objective Card(s)"); ``start``: Rome's "Score in
    Start Phase" cards in its Start Phase, else the End Phase."""

    faction: Faction
    start: bool = False


class LastCombat(Model):
    """The last combat's public result, for the view and the board image."""

    territory: str
    attacker: Faction
    defender: Faction
    attacker_card: str
    defender_card: str
    attacker_value: int
    defender_value: int
    winner: Faction
    text: str


class State(Model):
    """The whole game. Never leaves the host; players get ``View``."""

    schema_version: int = SCHEMA_VERSION
    players: int
    factions: dict[str, FactionState]
    order: tuple[Faction, ...]  # turn order of the factions (Gray has no turn of its own)
    turn: int = 0  # index into order
    round: int = 1
    phase: Phase = "markers"
    board: dict[str, dict[str, int]] = {}  # territory -> faction -> units
    markers: tuple[Marker, ...] = ()
    markers_to_place: tuple[Faction, ...] = ()  # owners, in placing order
    final_left: int = 0  # Rome's final units still to place in setup
    objective_deck: tuple[str, ...] = ()
    objectives: tuple[str, ...] = ()  # the face-up Objective Cards
    objective_discard: tuple[str, ...] = ()
    scored: dict[str, tuple[str, ...]] = {}  # faction -> Objective Cards scored
    yellow: int = 4  # yellow dice in the Extra Dice Pool
    revolts: tuple[Revolt, ...] = ()
    rolling: Rolling | None = None
    extra_roll: ExtraRoll | None = None
    regroup: Regrouping | None = None
    roll_queue: tuple[Faction, ...] = ()  # setup: factions still to roll and ready
    combat: Combat | None = None
    window: Window | None = None
    tribute: Tribute | None = None
    giving: Giving | None = None
    conversion: Conversion | None = None
    scoring: Scoring | None = None
    last_combat: LastCombat | None = None
    # turn flags
    power_played: int = 0  # Power Cards played this turn (limit 1; Industry raises it)
    power_limit: int = 1
    bought: int = 0  # Power Cards purchased this turn (limit 6)
    gray_die_used: bool = False  # the one Jewish die spent on a Gray action this turn
    help_moved: tuple[str, ...] = ()  # Help the Wounded: factions moved this Start Phase
    auxiliaries_used: bool = False
    enrapture_used: bool = False
    extra_turn: bool = False  # Divine Messenger: another full turn follows
    second_turn: bool = False  # this is the Divine Messenger turn (no Power Card)
    acted: bool = False  # something happened this turn (passing is only allowed before)
    winners: tuple[Seat, ...] = ()
    end_reason: str = ""
    round_limit: int | None = None

    @property
    def active(self) -> str:
        return self.order[self.turn]
Combat.model_rebuild()
Conversion.model_rebuild()
State.model_rebuild()


# --------------------------------------------------------------------------- events


class DiceRolled(TextEvent):
    kind: Literal["dice_rolled"] = "dice_rolled"
    faction: Faction
    values: tuple[int, ...]  # per die, 0 = not rolled


class CardsDrawn(Event):
    """Private: the Power Cards a faction drew."""

    kind: Literal["cards_drawn"] = "cards_drawn"
    faction: Faction
    names: tuple[str, ...]

    def describe(self) -> str:
        return "You drew: " + (", ".join(self.names) or "nothing") + "."


class CombatResolved(Event):
    kind: Literal["combat"] = "combat"
    result: LastCombat

    def describe(self) -> str:
        return self.result.text


class Scored(TextEvent):
    kind: Literal["scored"] = "scored"
    faction: Faction
    points: int
    total: int


class GameWon(TextEvent):
    kind: Literal["game_won"] = "game_won"
    winners: tuple[Seat, ...]


# --------------------------------------------------------------------------- view


class FactionView(Model):
    id: Faction
    name: str
    seat: Seat
    supply: int
    on_board: int
    points: int
    dice: tuple[Die, ...]
    hand_size: int
    deck_size: int
    discard: tuple[str, ...]
    durable: tuple[str, ...]
    combat_used: tuple[str, ...]
    captured: dict[str, int]
    capture_track: int
    converted: int
    rage: int
    markers: tuple[str, ...]
    regions_scored: tuple[str, ...]
    hand: tuple[str, ...] | None = None  # only for the seat that controls it


class ObjectiveView(Model):
    id: str
    name: str
    lines: tuple[str, ...]  # "Rome (2, Start Phase): ..."
    dice: tuple[str, ...]  # "Rome claimed (die 4)", "Coalition blocks Jewish"


class SeatView(Model):
    """A seat and the factions it plays ("Rome", "Rome + Jewish")."""

    seat: Seat
    nation: str


class View(Model):
    """What one viewer (None = spectator) may see of a Soul of the Empire game."""

    game: Literal["soul-of-the-empire"] = "soul-of-the-empire"
    viewer: Seat | None
    players: tuple[SeatView, ...]
    round: int
    phase: Phase
    active: Faction | None
    order: tuple[Faction, ...]
    factions: tuple[FactionView, ...]
    board: dict[str, dict[str, int]]
    markers: tuple[Marker, ...]
    objectives: tuple[ObjectiveView, ...]
    objective_deck: int
    revolts: tuple[Revolt, ...]
    yellow: int
    rolling: Rolling | None
    combat_territory: str | None
    combat_sides: tuple[str, ...]
    combat_chosen: tuple[str, ...]  # sides that have chosen (not what), at combat_stage
    combat_stage: str | None = None  # "powers" (Power Cards face down first) or "choose" (Combat Cards); None otherwise
    window: str | None
    waiting: tuple[Seat, ...]
    last_combat: LastCombat | None
    winners: tuple[Seat, ...]
    end_reason: str

# the model of the game: its State, the actions (actions.py), the events and the View
__all__ = [
    "Action",
    "Attack",
    "Block",
    "Buy",
    "CardsDrawn",
    "Claim",
    "ClaimMarker",
    "Combat",
    "CombatQuestion",
    "CombatResolved",
    "Commit",
    "Conversion",
    "Convert",
    "Crucify",
    "DiceRolled",
    "Die",
    "DiePlace",
    "DiscardObjective",
    "DiscardPower",
    "Done",
    "Elder",
    "EndMain",
    "ExtraRoll",
    "Faction",
    "FactionState",
    "FactionView",
    "GameWon",
    "Give",
    "Giving",
    "Keep",
    "LastCombat",
    "Lower",
    "Marker",
    "Move",
    "Note",
    "ObjectiveView",
    "Pass",
    "Path",
    "Phase",
    "PlaceMarker",
    "PlaceUnit",
    "PlayPower",
    "Plunder",
    "Prepare",
    "Rage",
    "Raise",
    "Ready",
    "Recruit",
    "Redirect",
    "Regroup",
    "TakeUnit",
    "Regrouping",
    "Reroll",
    "Retrieve",
    "Reveal",
    "Revolt",
    "Rolling",
    "SCHEMA_VERSION",
    "Score",
    "Scored",
    "Scoring",
    "SeatView",
    "Shift",
    "Spread",
    "State",
    "Tribute",
    "Unblock",
    "UseGrace",
    "View",
    "Window",
]
