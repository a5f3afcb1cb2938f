"""Barbarian Hordes rules (rule text: shared/seeds/004; rulings: RULINGS.md).

The flow: setup (tokens, cards, 1D10 turn order) -> nation draft -> turns of five
phases (Fate, Recruit, Event, Conquest, End), stated once in stages.py; the rules by
area are in rules/, the table queries in queries.py, the views in view.py. Automatic
steps (draws, recruit rolls, war dice) happen inside ``apply``; the game stops whenever
a seat must decide something and says so through ``to_act``.
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
from .data import explanations, load
from .model import Action, Done, State, View
from .options import Options
from .queries import HAND_LIMIT, Queries
from .rules.context import _Ctx
from .rules.setup import setup
from .stages import FLOW
from .view import ViewRules

_ACTION = TypeAdapter(Action)


class BarbarianHordes(FlowGame, Queries, ViewRules, NotationGame):
    """The Barbarian Hordes game object (stateless; see games.core.Game): the contract's
    attributes, the flow (stages.py) and the outcome; the rules are the functions of
    rules/, the queries queries.py, the views view.py."""

    explained = "card, nation or nation ability"

    id = "barbarian-hordes"
    title = "Barbarian Hordes"
    min_players = 2
    max_players = 12
    Options = Options
    State = State
    View = View
    notation = notation
    action_adapter = _ACTION
    flow = FLOW

    def __init__(self) -> None:
        self.data = load()

    def explanations(self) -> tuple[Explanation, ...]:
        """Every card, nation and nation ability with its text (data/*.toml)."""
        return explanations()

    def context(self, s: State, rng: Rng) -> _Ctx:
        """The scratch of one ``apply``, with Barbarian Hordes' helpers."""
        return _Ctx(s, rng)

    def setup(self, seats: Sequence[Seat], options: Options | None, rng: Rng) -> Step[State]:
        """SETUP (rules.setup.setup). Raises IllegalActionError for a seat count or
        options the rules do not allow."""
        return setup(self, seats, options, rng)

    def settle(self, ctx: _Ctx) -> None:
        """Nothing to run: no stage of Barbarian Hordes is automatic (its draws, recruit
        rolls and war dice run inside the action that leads to them, stages.py)."""

    def notation_is_public(self, s: State, seat: Seat, a: Any) -> bool:
        """Every Barbarian Hordes action is public as typed, except war commitments
        (made at a secret prompt, revealed together later)."""
        return s.war is None or s.war.stage != "commit"

    def why_not(self, s: State, seat: Seat, verb: str) -> str | None:
        """Why ``block`` is not possible for ``seat``: no war is being committed to, it is
        the attacker's own war, or the seat holds no card that blocks (an I card, or a P card
        for the defender: CONQUEST PHASE, Card List Notation). None for other kinds."""
        if verb != "block":
            return None
        war = s.war
        if war is None or war.stage != "commit":
            return ("a war is blocked while its sides commit, with an I card (or a P card by the defender; "
                    "Card List Notation), and no war is at that point now")
        if seat == war.attacker:
            return "you are the attacker, and the attacker cannot block its own war (Card List Notation)"
        which = "an I card or a P card" if seat == war.defender else "an I card (a P card blocks for the defender only)"
        return f"you hold no card that can block this war: that takes {which} (Card List Notation)"

    def acted_note(self, s: State, seat: Seat, action: Any, typed: str | None) -> str | None:
        """A word typed for done that says something else ("pass", "skip", "end"...) ends the
        phase: the player is told so, "'pass' here means done: you end your Event Phase"."""
        word = " ".join((typed or "").lower().split())
        if not isinstance(action, Done) or word in ("", "done") or word not in (*notation.DONE_WORDS, "pass"):
            return None
        return f"'{word}' here means done: you end your {s.phase.capitalize()} Phase."

    def outcome(self, s: State) -> Outcome | None:
        """None while playing; then the winner (none after a tied round limit) and why."""
        if s.phase != "over":
            return None
        winners = (s.winner,) if s.winner is not None else ()
        return Outcome(winners=winners, reason=s.end_reason)


GAME = BarbarianHordes()

__all__ = ["GAME", "HAND_LIMIT", "BarbarianHordes", "Options", "_Ctx"]
