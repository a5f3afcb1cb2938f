"""Credo: State, Actions, Events and View (pydantic, frozen).

Seats are zero-based ints; each seat is a Church. A Church's Church cards (blue:
Followers, Bishops, Laity) lie face up in front of it and are public; its hand of
Event/Article cards is secret (RULINGS.md R6).
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

Category = Literal["faith", "firm", "customary"]
CATEGORIES: tuple[Category, ...] = ("faith", "firm", "customary")
CATEGORY_NAMES = {"faith": "Article of Faith", "firm": "Firm Belief", "customary": "Customary Practice"}
STAKE = {"faith": 3, "firm": 2, "customary": 1}  # Results: 3 / 2 / 1 cards
Phase = Literal["setup", "play", "over"]
Stage = Literal["draw", "article", "immediate", "main", "council"]


class PlayerState(Model):
    """One Church. ``mat``: the nine boxes, three per category, None = empty.
    ``church``: Church cards held (and the Western Emperor or converted Goths)."""

    mat: tuple[str | None, ...] = (None,) * 9
    church: tuple[str, ...] = ()
    hand: tuple[str, ...] = ()
    setup_done: bool = False
    evangelised: tuple[str, ...] = ()  # Evangelisation of the Goths kept in front


class Task(Model):
    """A pending choice of Church cards (Lose, Remove, Take, Give; RULINGS.md R7), or
    of an Article to give up for a taught one (``kind`` = ``replace``).

    ``chooser`` picks ``count`` cards of ``owner``'s Church of the ``kinds`` listed;
    they go to ``dest`` (a seat) or to the discard (None). Other kinds: ``either``
    (Proselytism 2: the preacher ``chooser`` takes 2 Bishops or 3 Followers from
    ``owner``, R9); ``campaign`` (Evangelic Campaign: ``chooser`` names the next
    Church its ``bishop`` preaches to, ``count`` preaches left, ``done`` those
    already preached to); ``away`` (Bad Times: ``chooser`` keeps ``count`` of its
    Bishops away from the Council, R20); ``persecute`` ("Laity can Persecute", the Nika
    Riots' response: ``chooser`` may persecute ``owner`` or not, R30); ``convert``
    (Evangelisation of the Goths, ``card``: ``chooser`` may convert the invading Goths or
    not, R23); ``dock`` (Dock Strike: ``chooser`` may make ``owner``, the Eastern Emperor's
    Church, discard 1 Follower or not, R20).
    """

    chooser: Seat
    owner: Seat
    kinds: tuple[str, ...] = ("any",)
    count: int = 1
    dest: Seat | None = None
    reason: str = ""
    kind: Literal["cards", "replace", "either", "campaign", "away", "persecute", "convert", "dock"] = "cards"
    spare_nisibis: bool = False
    article: str | None = None  # the taught Article (replace)
    bishop: str | None = None  # the preaching Bishop (campaign)
    done: tuple[Seat, ...] = ()  # Churches already preached to (campaign)
    card: str | None = None  # the Event card waiting on the choice (convert)


class Window(Model):
    """A response window (ARCHITECTURE.md, "Prompts and response windows"): seats that may play Event cards now,
    asked one at a time in order. ``kind``: ``answer`` (after an Event was played)
    or ``debate`` (a General Council's debate)."""

    kind: Literal["answer", "debate"]
    reason: str
    waiting: tuple[Seat, ...]
    passed: tuple[Seat, ...] = ()


class Council(Model):
    """A General Council in progress (General Councils, The Debate, Results)."""

    article: int
    convoker: Seat | None
    stage: Literal["debate", "vote", "respect"] = "debate"
    proposals: tuple[str, ...] = ()  # doctrine keys proposed
    votes: tuple[tuple[Seat, str | None, int], ...] = ()  # (seat, doctrine or None = abstain, votes)
    voters: tuple[Seat, ...] = ()  # neutral Churches still to choose
    bonus: tuple[tuple[Seat, int], ...] = ()  # extra votes from Events
    books: tuple[tuple[Seat, str], ...] = ()  # heterodox books played (seat, symbol)
    scandal: bool = False
    hesitates: bool = False
    bad_times: tuple[str, ...] = ()  # Bishops kept away
    dock_strikes: tuple[Seat, ...] = ()
    losers: tuple[str, ...] = ()  # losing doctrines (for the Respect roll)
    loser_seats: tuple[tuple[str, Seat], ...] = ()
    end_turn: bool = False  # convoked by the Emperor at the end of his turn


class Roll(Model):
    """The last dice roll, for the view."""

    table: str
    roller: Seat
    dice: tuple[int, int]
    result: str


class State(Model):
    """The whole game. Never leaves the host; players get ``View``."""

    schema_version: int = SCHEMA_VERSION
    ask_all: bool = True
    round_limit: int | None = None
    players: tuple[PlayerState, ...]
    phase: Phase = "setup"
    stage: Stage = "draw"
    active: Seat = 0
    round: int = 1
    turns: int = 0  # turns begun so far
    drawn: str | None = None  # the Article or Play Immediately Event being handled
    church_deck: tuple[str, ...] = ()
    church_discard: tuple[str, ...] = ()
    event_deck: tuple[str, ...] = ()
    event_discard: tuple[str, ...] = ()
    event_permanent: tuple[str, ...] = ()
    article_permanent: tuple[str, ...] = ()
    patriarch_box: tuple[str, ...] = ()
    emperor_out: tuple[str, ...] = ()  # Emperor Out-Of-Play box
    removed: tuple[str, ...] = ()  # removed from the game (Odoacer)
    creed: tuple[str | None, ...] = (None,) * 10  # Definitive Creed boxes 1..10
    exiled: tuple[tuple[str, str], ...] = ()  # (Bishop, Exile card on top of him)
    goths: tuple[str, ...] = ()  # invading Goths beside the Emperors
    iconolatry: Seat | None = None
    mutilated_until: int | None = None  # Patriarch of Rome away until this turn count
    last_event: str | None = None  # effect of the last Event played (Regency)
    tasks: tuple[Task, ...] = ()
    turn_ends: bool = False  # the turn ends once the pending tasks are settled (a Council's Respect)
    window: Window | None = None
    council: Council | None = None
    last_roll: Roll | None = None
    winners: tuple[Seat, ...] = ()
    end_reason: str = ""


# --------------------------------------------------------------------------- actions


class Place(Model):
    """Place an Article card from hand on your Church mat (Set Up; Article Card)."""

    kind: Literal["place"] = "place"
    card: str


class Keep(Model):
    """Keep a drawn exact duplicate of one of your Articles for Teaching."""

    kind: Literal["keep"] = "keep"
    card: str


class Renounce(Model):
    """Replace your Customary Practice of the same number with the drawn Article
    (and Lose a Church card)."""

    kind: Literal["renounce"] = "renounce"
    card: str


class Reject(Model):
    """Reject and discard the drawn Article card (no replacement is drawn)."""

    kind: Literal["reject"] = "reject"
    card: str


class Discard(Model):
    """Discard an Event/Article card from hand (hand limit of 4)."""

    kind: Literal["discard"] = "discard"
    card: str


class Play(Model):
    """Play an Event card. ``target``: the Church it is played on; ``bishop``: the
    Bishop nominated (Proselytism, Church Father, Evangelic Campaign) or exiled /
    recalled (Exile, Interregnum...); ``mode``: ``refute``/``teach`` (Church Father),
    ``exile``/``recall`` (Exile cards), ``east``/``west`` (Dynastic Change);
    ``article``: the Article refuted (target's) or taught (a duplicate in hand)."""

    kind: Literal["play"] = "play"
    card: str
    target: Seat | None = None
    bishop: str | None = None
    mode: str | None = None
    article: str | None = None


class Pick(Model):
    """Choose a Church card (or an Article to give up) for the pending task."""

    kind: Literal["pick"] = "pick"
    card: str


class Vote(Model):
    """A Church without its own doctrine votes for a proposed doctrine."""

    kind: Literal["vote"] = "vote"
    doctrine: str


class Abstain(Model):
    """A Church without its own doctrine does not vote."""

    kind: Literal["abstain"] = "abstain"


class Respect(Model):
    """The Emperor enforces respect of the Council against a Losing doctrine."""

    kind: Literal["respect"] = "respect"
    doctrine: str


class Convoke(Model):
    """The Emperor ends his turn and convokes a General Council."""

    kind: Literal["convoke"] = "convoke"




Action = Annotated[
    Place
    | Keep
    | Renounce
    | Reject
    | Discard
    | Play
    | Pick
    | Vote
    | Abstain
    | Respect
    | Convoke
    | Done
    | Pass,
    Field(discriminator="kind"),
]


# --------------------------------------------------------------------------- events



class CardsReceived(Event):
    """Private: the Event/Article cards a seat drew or was dealt."""

    kind: Literal["cards_received"] = "cards_received"
    seat: Seat
    names: tuple[str, ...]

    def describe(self) -> str:
        return "You drew: " + (", ".join(self.names) or "nothing") + "."


class DiceRolled(Event):
    kind: Literal["dice"] = "dice"
    roll: Roll

    def describe(self) -> str:
        r = self.roll
        return f"{r.table} Table: rolled {r.dice[0]}+{r.dice[1]} = {sum(r.dice)}: {r.result}"


class CouncilResolved(TextEvent):
    kind: Literal["council"] = "council"
    article: int
    tally: tuple[tuple[str, int], ...]
    accepted: str | None


class GameWon(TextEvent):
    kind: Literal["game_won"] = "game_won"
    winners: tuple[Seat, ...]


# --------------------------------------------------------------------------- view


class ChurchCardView(Model):
    id: str
    name: str
    kind: str
    half: str
    votes: int
    followers: int
    exiled: bool = False


class ArticleView(Model):
    id: str
    name: str
    doctrine: str
    numbers: tuple[int, ...]
    symbol: str | None = None


class HandCardView(Model):
    id: str
    name: str
    kind: Literal["article", "event"]
    text: str


class PlayerView(Model):
    seat: Seat
    mat: tuple[ArticleView | None, ...]
    church: tuple[ChurchCardView, ...]
    followers: int
    votes: int
    hand_size: int
    emperor: bool
    hand: tuple[HandCardView, ...] | None = None  # only in the viewer's own view


class CouncilView(Model):
    article: int
    convoker: Seat | None
    stage: str
    proposals: tuple[str, ...]
    supporters: tuple[tuple[str, tuple[Seat, ...]], ...]
    votes: tuple[tuple[Seat, str | None, int], ...]
    bonus: tuple[tuple[Seat, int], ...]


class View(Model):
    """What one viewer (None = spectator) may see of a Credo game."""

    game: Literal["credo"] = "credo"
    viewer: Seat | None
    phase: Phase
    stage: Stage
    round: int
    active: Seat
    emperor: Seat | None
    players: tuple[PlayerView, ...]
    creed: tuple[ArticleView | None, ...]
    next_article: int | None
    church_deck: int
    church_discard: int
    event_deck: int
    event_discard: int
    patriarch_box: tuple[str, ...]
    emperor_out: tuple[str, ...]
    goths: tuple[str, ...]
    drawn: HandCardView | None  # the drawn card being handled, shown to its drawer only unless public
    council: CouncilView | None
    window: str | None
    waiting: tuple[Seat, ...]
    task: str | None
    last_roll: Roll | None
    winners: tuple[Seat, ...]
    end_reason: str
