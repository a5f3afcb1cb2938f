"""Promised Land 1250-587 BC rules (rule text: shared/seeds/002; rulings: RULINGS.md).

The flow: set-up (steps 1-9) -> initial placement of Patriarchs (Heathens all six, then
Hebrews one each) -> each Book: deal, secret discards, then the Time track calls the Book's
cards in order; the holder of a card plays a turn of five phases (reveal and take units,
Kingdom building, Actions, Collect revenue, Buy Artefact), stated once in stages.py. The
rules by area are in rules/, the table queries in queries.py and choices.py, the views in
view.py. Dice, deals and draws happen inside ``apply`` through the ``Rng``; the game stops
whenever a seat must decide.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pydantic import TypeAdapter

from games.core import Outcome, Rng, Seat, Step
from games.core.base import NotationGame
from games.core.explain import Explanation
from games.core.flow import FlowGame

from . import notation
from .choices import Choices
from .data import GameData, explanations, load
from .model import Action, ArtefactView, CardView, LandView, State, View
from .options import Options
from .queries import ACTIONS, coin_vec
from .rules.context import _Ctx, effect
from .rules.setup import setup
from .stages import FLOW
from .view import ViewRules

_ACTION = TypeAdapter(Action)


class PromisedLand(FlowGame, Choices, ViewRules, NotationGame):
    """The Promised Land game object (stateless; see games.core.Game): the contract's
    attributes, the flow (stages.py) and the outcome; the rules are the functions of
    rules/, the queries queries.py and choices.py, the views view.py."""

    explained = "Kingdom card, Artefact, track token or Patriarch"

    id = "promised-land"
    title = "Promised Land 1250-587 BC"
    min_players = 2
    max_players = 6
    Options = Options
    State = State
    View = View
    notation = notation
    action_adapter = _ACTION
    flow = FLOW
    effects = effect

    def __init__(self) -> None:
        self.data: GameData = load()
        self.idx = self.data.land_index
        self.adj = self.data.adjacent
        self._artefact_views: dict[tuple[str, bool], ArtefactView] = {}
        self._card_views: dict[int, CardView] = {}
        self._land_views: dict[tuple[Any, ...], LandView] = {}  # views are immutable: shared
        # kingdom_lands memo: (id of the lands tuple, kingdom) -> (that tuple, lands); the
        # tuple is kept so an id reused after garbage collection is never mistaken for it
        self._lands_cache: dict[tuple[int, str], tuple[Any, frozenset[int]]] = {}

    def explanations(self) -> tuple[Explanation, ...]:
        """Every Artefact, Kingdom card and track token with its text (data/*.toml)."""
        return explanations()

    def card_ids(self) -> frozenset[str]:
        """The Artefact kinds whose effect is carried out when played (List of Artefacts):
        every kind but the three Bonus Artefacts, which are never played (their extra coin
        is counted in every Collect Revenue: ``revenue``)."""
        return frozenset(k.kind for k in self.data.artefact_kinds if not k.kind.startswith("bonus-"))

    def phase_mark(self, s: State) -> str:
        """The Time track's card, the game's phase and, during a Player Turn, its step
        (Kingdom bonus, actions, revenue, buying)."""
        step = f", {s.turn.phase}" if s.turn is not None else ""
        return f"time {s.time}, {s.phase}{step}"

    def context(self, s: State, rng: Rng) -> _Ctx:
        """The scratch of one ``apply``, with Promised Land's helpers."""
        return _Ctx(s, rng)

    def setup(self, seats: Sequence[Seat], options: Options | None, rng: Rng) -> Step[State]:
        """Setting Up 1-9 (rules.setup.setup). Raises IllegalActionError for a seat count or
        teams the rules do not allow."""
        return setup(self, seats, options, rng)

    def settle(self, ctx: _Ctx) -> None:
        """Nothing to run: no stage of Promised Land is automatic (the Time track's calls,
        deals and dice run inside the action that leads to them, stages.py)."""

    def outcome(self, s: State) -> Outcome | None:
        """None while playing; then the winners (the highest score, ties broken by coins)."""
        if s.phase != "over":
            return None
        return Outcome(winners=s.winners, reason=s.end_reason)


GAME = PromisedLand()

__all__ = ["ACTIONS", "GAME", "Options", "PromisedLand", "_Ctx", "coin_vec"]
