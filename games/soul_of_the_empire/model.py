"""Soul of the Empire: State, Actions, Events and View (pydantic, frozen).

Factions are ``rome``, ``jews``, ``coalition``, ``christians`` and ``gray`` (the
Gray Faction of the Jewish revolts, controlled by the Jewish seat). Each seat
controls one faction (two in the 2-player game; the Jewish seat also the Gray).
Dice are referred to by index 0-4 in their faction's five dice; a die's ``place``
says which area of the faction board it is in.
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

SCHEMA_VERSION = 1

Faction = Literal["rome", "jews", "coalition", "christians", "gray"]
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


class Path(Model):
    """``count`` units moved together along ``route`` (territory ids, start first)."""

    count: int = Field(ge=1)
    route: tuple[str, ...]


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
    """The Coalition scored ``region`` and may regroup 6 units there (RULINGS.md R12)."""

    region: str


CombatQuestion = Literal["elder_play", "elder", "pharaoh", "grace", "crucify"]


class Combat(Model):
    """A combat in progress (RULINGS.md R9, R16).

    ``stage``: ``elder`` (a side holding Elder is asked whether to play it face up),
    ``choose`` (the secret choice; ``choices`` hold each side's choice until both
    chose), ``decide`` (after the reveal: ``asking`` answers ``question``), ``plunder``,
    ``salvage`` (the Coalition selects one of ``salvage_drawn`` to keep, RULINGS.md R14).
    From the reveal on: ``powers`` the Power Cards still in play by side (face down
    for Pharaoh's Fate and Guardian Angel until revealed), ``values`` the Combat
    Values, ``winner`` the side winning now, ``early`` the combat was decided by a
    card removing the final unit, ``no_losses`` Guardian Angel was revealed,
    ``crucify`` the faction whose captured unit Crucify returns, ``lines`` the story
    for the combat result."""

    territory: str
    attacker: Faction
    defender: Faction
    choices: dict[str, Commit] = {}
    stage: Literal["elder", "choose", "decide", "plunder", "salvage"] = "choose"
    asking: Faction | None = None
    question: CombatQuestion | None = None
    elder: Faction | None = None  # the side that played Elder face up
    elder_declined: tuple[Faction, ...] = ()
    powers: dict[str, str] = {}
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


# --------------------------------------------------------------------------- actions


class PlaceMarker(Model):
    """Setup: place an Objective Point Marker in a Roman Empire territory."""

    kind: Literal["place_marker"] = "place_marker"
    territory: str


class PlaceUnit(Model):
    """Setup: Rome places one of its final 8 units."""

    kind: Literal["place_unit"] = "place_unit"
    territory: str


class Reroll(Model):
    """Roll and ready: roll these dice (indices) again."""

    kind: Literal["reroll"] = "reroll"
    dice: tuple[int, ...]


class Raise(Model):
    """Raise the acting faction's Unspent die ``die`` (index) by 1 pip: Rome with Give to
    Caesar, or the player of Collect Tribute with the pips it collected."""

    kind: Literal["raise"] = "raise"
    die: int


class Lower(Model):
    """Collect Tribute: lower your Unspent die ``die`` (index) by 1 pip; with only 1s
    Unspent, that die goes to the Spent Dice area instead."""

    kind: Literal["lower"] = "lower"
    die: int


class Give(Model):
    """Giving: give the Christians your Unspent die ``die`` (index); it goes to your Spent
    Dice area."""

    kind: Literal["give"] = "give"
    die: int


class Keep(Model):
    """Keep the yellow or returned blocking dice as they are (no more rerolls)."""

    kind: Literal["keep"] = "keep"


class Regroup(Model):
    """After scoring a region the Coalition regroups: ``sources`` (territory, units)
    of that region move into ``territory`` of the same region (RULINGS.md R12)."""

    kind: Literal["regroup"] = "regroup"
    territory: str
    sources: tuple[tuple[str, int], ...]


class Ready(Model):
    """Roll and ready: keep the rolled dice; ``dice`` (indices) form the Dice Sequence."""

    kind: Literal["ready"] = "ready"
    dice: tuple[int, ...]



class EndMain(Model):
    """Finish the Main Phase."""

    kind: Literal["end"] = "end"



class Move(Model):
    """Move Units with a die (its pips are the movement points). ``gray``: move Gray
    units (Jewish seat); ``yellow``: the die is a revolt's yellow die (index into
    the revolts' dice in order)."""

    kind: Literal["move"] = "move"
    die: int
    paths: tuple[Path, ...]
    gray: bool = False
    yellow: bool = False


class Recruit(Model):
    """Recruit Units from supply: (territory, units) placements, total <= pips."""

    kind: Literal["recruit"] = "recruit"
    die: int
    placements: tuple[tuple[str, int], ...]


class Attack(Model):
    """Initiate Combat in ``territory`` against ``target``."""

    kind: Literal["attack"] = "attack"
    die: int
    territory: str
    target: Faction
    gray: bool = False
    yellow: bool = False


class Claim(Model):
    """Claim your objective on a face-up Objective Card with any die."""

    kind: Literal["claim"] = "claim"
    die: int
    card: str


class Buy(Model):
    """Designate a die (and maybe one die from outside the sequence) to purchase Power
    Cards: 2 pips each."""

    kind: Literal["buy"] = "buy"
    die: int
    extra: int | None = None


class ClaimMarker(Model):
    """Coalition: claim the Objective Point Marker in ``territory`` with any die."""

    kind: Literal["claim_marker"] = "claim_marker"
    die: int
    territory: str


class Block(Model):
    """Coalition: block ``target``'s objective on ``card`` with exactly 6 pips."""

    kind: Literal["block"] = "block"
    die: int
    extra: int | None = None
    card: str
    target: Faction


class Unblock(Model):
    """Coalition: return the dice blocking an objective on ``card`` with one die."""

    kind: Literal["unblock"] = "unblock"
    die: int
    card: str


class Rage(Model):
    """Coalition: increase Rage, 1 per 2 pips."""

    kind: Literal["rage"] = "rage"
    die: int
    extra: int | None = None


class Retrieve(Model):
    """Retrieve your die from an Objective Card (``card``) or a marker (``territory``)."""

    kind: Literal["retrieve"] = "retrieve"
    die: int
    card: str | None = None
    territory: str | None = None


class DiscardObjective(Model):
    """2-player: discard an unclaimed face-up Objective Card with exactly 6 pips."""

    kind: Literal["discard_objective"] = "discard_objective"
    die: int
    extra: int | None = None
    card: str


class PlayPower(Model):
    """Play a Power Card. Parameters by card: ``territory`` (revolts, City Riot,
    Gladiator Games), ``territories`` (placements, removals; one entry per unit),
    ``target`` (a faction: Giving, Gospel), ``values`` (Advanced Culture),
    ``paths`` (Roman Roads, Caravan, Missionary Journey), ``dice`` (Advanced Culture: the
    Unspent dice, by index, that take ``values`` in order; empty: the lowest ones)."""

    kind: Literal["play"] = "play"
    card: str
    territory: str | None = None
    territories: tuple[str, ...] = ()
    target: Faction | None = None
    values: tuple[int, ...] = ()
    paths: tuple[Path, ...] = ()
    dice: tuple[int, ...] = ()


class Commit(Model):
    """A combat side's secret choice: a Combat Card, maybe a combat Power Card, and
    for Rome with Conscription the captured units added (0-2)."""

    kind: Literal["commit"] = "commit"
    card: str
    power: str | None = None
    conscript: int = 0


class Elder(Model):
    """Elder: ``play`` it face up before the Combat Cards are chosen; after the reveal
    -1 to the Elder side's own Combat Value (``mine``), the other side's (``theirs``)
    or neither (``none``)."""

    kind: Literal["elder"] = "elder"
    choice: Literal["play", "mine", "theirs", "none"] = "play"


class Reveal(Model):
    """Pharaoh's Fate: reveal the face-down card after the Combat Cards are revealed,
    reversing the combat result (``keep`` returns it to the hand)."""

    kind: Literal["reveal"] = "reveal"


class UseGrace(Model):
    """Grace (Durable, option 2): the Christians reverse a combat result they lost."""

    kind: Literal["grace"] = "grace"


class Crucify(Model):
    """Crucify (Durable): return 1 captured unit of ``faction`` to its supply instead
    of removing 1 Roman unit; the capture track falls by 1."""

    kind: Literal["crucify"] = "crucify"
    faction: Faction


class Plunder(Model):
    """Coalition after winning a combat: ``rampage`` (move units to ``territory``),
    ``salvage`` (take a Power Card: ``card`` is the one selected from the discard pile
    or from the two drawn from the deck; None draws at random from the hand, or draws the
    two), ``exploit`` (force a discard: ``card``, a face-up
    Durable card, or None for a random card from hand) or ``none``."""

    kind: Literal["plunder"] = "plunder"
    option: Literal["rampage", "salvage", "exploit", "none"]
    territory: str | None = None
    count: int = 0
    card: str | None = None


class Shift(Model):
    """Move one unit of ``faction`` one territory: Help the Wounded (Start Phase) or
    Gospel (response window)."""

    kind: Literal["shift"] = "shift"
    faction: Faction
    source: str
    destination: str


class Redirect(Model):
    """Promised Land (RULINGS.md R22): the Jews choose where the units that moved out of
    the blue region go. ``territory``: all of them to that one territory; or ``sends``:
    (start, destination, units) for the units named, the others keeping their own move."""

    kind: Literal["redirect"] = "redirect"
    card: str
    territory: str | None = None
    sends: tuple[tuple[str, str, int], ...] = ()


class Convert(Model):
    """Conversion (RULINGS.md R10): the Christian units that replace the units removed,
    as (source, units): source ``supply``, ``captured`` (the Roman Captured Unit Area) or
    a territory id (Christian units elsewhere on the board). Fewer than the units removed,
    or none (``pass``), is allowed: "may then replace them"."""

    kind: Literal["convert"] = "convert"
    sources: tuple[tuple[str, int], ...]


class Spread(Model):
    """After a conversion, the Christian units over the 6-unit limit move to adjacent
    territories: (territory, units) (RULINGS.md R10)."""

    kind: Literal["spread"] = "spread"
    moves: tuple[tuple[str, int], ...]


class Score(Model):
    """Score the completed objective claimed on Objective Card ``card``."""

    kind: Literal["score"] = "score"
    card: str


class DiscardPower(Model):
    """End Phase: discard a Power Card down to the hand limit of 3."""

    kind: Literal["discard"] = "discard"
    card: str


Action = Annotated[
    PlaceMarker
    | PlaceUnit
    | Reroll
    | Keep
    | Raise
    | Lower
    | Give
    | Regroup
    | Ready
    | Done
    | EndMain
    | Pass
    | Move
    | Recruit
    | Attack
    | Claim
    | Buy
    | ClaimMarker
    | Block
    | Unblock
    | Rage
    | Retrieve
    | DiscardObjective
    | PlayPower
    | Commit
    | Elder
    | Reveal
    | UseGrace
    | Crucify
    | Plunder
    | Shift
    | Redirect
    | Convert
    | Spread
    | Score
    | DiscardPower,
    Field(discriminator="kind"),
]

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
    combat_chosen: tuple[str, ...]  # sides that have chosen (not what)
    window: str | None
    waiting: tuple[Seat, ...]
    last_combat: LastCombat | None
    winners: tuple[Seat, ...]
    end_reason: str
