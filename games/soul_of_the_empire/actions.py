"""Soul of the Empire's actions (pydantic, frozen): a discriminated union on ``kind``, one
imperative per decision of the rule text (see notation/ for how each is typed)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from games.core import Model

# Done and Pass are shared by every game (games.core.model)
from games.core.model import Done, Pass

Faction = Literal["rome", "jews", "coalition", "christians", "gray"]


class Path(Model):
    """``count`` units moved together along ``route`` (territory ids, start first)."""

    count: int = Field(ge=1)
    route: tuple[str, ...]


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


class TakeUnit(Model):
    """After scoring a region the Coalition takes 1 unit from ``territory`` of that region to
    its faction board (RULINGS.md R12)."""

    kind: Literal["take_unit"] = "take_unit"
    territory: str


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


class Prepare(Model):
    """A combat side's choice before the Combat Cards are chosen (RULINGS.md R9, R16), made in
    secret and shown together: a combat Power Card played face down (``power``), and for Rome
    with Conscription the captured units added, (faction, units) from its Captured Unit Area."""

    kind: Literal["prepare"] = "prepare"
    power: str | None = None
    conscript: tuple[tuple[Faction, int], ...] = ()


class Commit(Model):
    """A combat side's secret choice of its Combat Card."""

    kind: Literal["commit"] = "commit"
    card: str


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
    | TakeUnit
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
    | Prepare
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
