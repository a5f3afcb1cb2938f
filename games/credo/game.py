"""Credo rules (rule text: shared/seeds/003_a89d0bca05ff4a91.txt; rulings: RULINGS.md).

The flow: Set Up (deal Church cards and 9 Article cards, each Church places its
Articles) -> turns (draw an Event/Article card, handle it, play Event cards, end the
turn or, for the Emperor, convoke a General Council) until Article 10 passes, a
Church has 11 million Followers or 117 votes. Event cards are played at any time
through response windows: after each Event played, the other Churches are asked in
turn; during a Council's debate, every Church is asked until all pass in a row.
Choices of Church cards (Lose, Remove, Take, Give) are pending tasks answered with
``pick``. Dice and draws happen inside ``apply`` and are reported as events.

The flow is stated once in stages.py; the rules by area are the mixins of rules/ (the
Event card effects in the registry of rules/effects.py), the table queries queries.py,
the views view.py. This module holds the contract's attributes, the legal actions each
once in notation, the Game End check after every step and the outcome.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pydantic import TypeAdapter

from games.core import (
    Outcome,
    Rng,
    Seat,
    Step,
)
from games.core.base import NotationGame
from games.core.explain import Explanation
from games.core.flow import FlowGame
from games.core.memo import last_state

from . import notation
from .data import (
    explanations,
    load,
)
from .model import (
    Action,
    Place,
    Play,
    State,
    View,
)
from .options import Options
from .queries import (
    Queries,
    card_kinds,
    church_cards,
)
from .rules.church import ChurchRules
from .rules.context import _Ctx
from .rules.council import CouncilRules
from .rules.effects import effect
from .rules.events import EventRules
from .rules.events_empire import EmpireEventRules
from .rules.playable import PlayableRules
from .rules.plays import PlayRules
from .rules.rolls import TableRules
from .rules.setup import SetupRules
from .rules.turn import TurnRules
from .stages import FLOW
from .view import ViewRules

_ACTION = TypeAdapter(Action)


class Credo(
    FlowGame, Queries, SetupRules, TurnRules, ChurchRules, TableRules, PlayRules, PlayableRules, EventRules,
    EmpireEventRules, CouncilRules, ViewRules, NotationGame,
):
    """The Credo game object (stateless; see games.core.Game): the contract's attributes,
    the flow (stages.py) and the outcome; the rules are the mixins of rules/, the queries
    queries.py, the views view.py."""

    explained = "Church card, Article card or Event card"
    phase_word = "round"

    def phase_mark(self, s: State) -> str:
        """Credo is played in rounds of turns (the phase is only set-up or play): a round."""
        return f"round {s.round}, {s.phase}"

    def notation_is_public(self, s: State, seat: Seat, a: Any) -> bool:
        """Placing an Article on the Church mat (Set Up; an Article card drawn) is public as
        typed: the placement itself is announced to everyone. Every other action keeps the
        default (only its player reads the notation)."""
        return isinstance(a, Place)

    id = "credo"
    title = "Credo: the Game of Dueling Dogmas"
    min_players = 3
    max_players = 6
    Options = Options
    State = State
    View = View
    notation = notation
    action_adapter = _ACTION
    effects = effect
    flow = FLOW

    def card_ids(self) -> frozenset[str]:
        """Every Event card id of the data (events.toml): each has exactly one effect."""
        return frozenset(self.data.events)

    def explanations(self) -> tuple[Explanation, ...]:
        """Every Church, Article and Event card with its text (data/*.toml)."""
        return explanations()

    def __init__(self) -> None:
        self.data = load()
        self.cards = cards = church_cards(self.data)
        self._followers = {c: card.followers for c, card in cards.items()}
        self._votes = {c: card.votes for c, card in cards.items()}
        self._kinds = card_kinds(cards)
        self._views: dict[Any, Any] = {}
        self._single_plays: dict[str, Play] = {}

    def seat_name(self, s: State, seat: Seat) -> str:
        """Seats are named by their Church ("Church 2") in every message, the host's too
        ("Church 2 (AI)", "Church 2 (alice)")."""
        return self.church_name(seat)

    # ------------------------------------------------------------------ contract

    def setup(self, seats: Sequence[Seat], options: Options | None, rng: Rng) -> Step[State]:
        """Set Up (rules.setup.SetupRules.deal). Raises IllegalActionError for a seat count
        outside 3..6."""
        return self.deal(seats, options or Options(), rng)

    def context(self, s: State, rng: Rng) -> _Ctx:
        """The scratch of one ``apply``, with Credo's helpers."""
        return _Ctx(s, rng)

    def after_action(self, ctx: _Ctx, seat: Seat | None, action: Any) -> None:
        """Game End, checked after every action and automatic stage once no choice is
        pending and Set Up is over (rules.turn.TurnRules.check_end)."""
        s = ctx.s
        if s.phase == "play" and not s.tasks and not s.turn_ends:
            self.check_end(ctx)

    @last_state
    def rules_legal(self, s: State, seat: Seat) -> tuple[Any, ...]:
        """The legal actions of ``seat`` as the current stage's rules generate them (a few
        may share a notation); remembered for the last state (games.core.memo), so an
        agent's choice and ``apply``'s check share one list."""
        stage = self.flow.current(self, s)
        if stage is None or stage.automatic:
            return ()
        return tuple(stage.rules_legal(self, s, seat))

    @last_state
    def legal_once(self, s: State, seat: Seat) -> list[Any]:
        """The legal actions of ``seat``, each once in its notation form (a fresh list,
        remembered for the last state)."""
        seen: dict[str, Any] = {}
        for a in self.rules_legal(s, seat):
            seen.setdefault(notation.format_action(self, s, a), a)
        return list(seen.values())

    def outcome(self, s: State) -> Outcome | None:
        """None while playing; then the winners and why (Game End)."""
        if s.phase != "over":
            return None
        return Outcome(winners=s.winners, reason=s.end_reason)


GAME = Credo()
