"""Roman War rules (rule text: shared/seeds/001_62f93fed39493365.txt; rulings: RULINGS.md).

A co-op deck game: the Roman team against the Hannibal deck. Each Roman turn runs the
text's phases in order — untap and conditions, draw Maneuver + 2, Cost Zone (up to four
cards face down, then an optional ability purchase), Hannibal draws and plays, defend
Ambushes or suffer Chaos, main (Maneuver, Encampment, Token and Tactic cards, rotating
field cards), end (discard to the hand limit). Every card play follows the text's five
steps on a stack (RULINGS.md R13-R16). The Hannibal deck's automation (co-op) runs inside
``apply`` by the written rules of RULINGS.md R8-R10 and is reported as events.
"""
from __future__ import annotations

from typing import Any

from pydantic import TypeAdapter

from games.core import Outcome, Rng, Seat
from games.core.base import NotationGame
from games.core.english import count
from games.core.errors import list_words
from games.core.explain import Explanation
from games.core.flow import FlowGame
from games.core.glossary import marks_in_words

from . import notation
from .data import explanations, load
from .model import Action, Assault, Defend, Discard, Overflow, PlaceCost, PlayCard, State, View
from .options import Options
from .queries import COST_ZONE_PER_TURN, Queries, ambush_named, hannibal_draws
from .rules.choices import ChoiceRules
from .rules.context import _Ctx
from .rules.effects import EffectRules
from .rules.plays import PlayRules
from .rules.setup import SetupRules
from .rules.stack import StackRules
from .rules.turn import TurnRules
from .stages import FLOW
from .view import ViewRules

_ACTION = TypeAdapter(Action)


class RomanWar(
    FlowGame, Queries, SetupRules, ChoiceRules, StackRules, EffectRules, PlayRules, TurnRules, ViewRules,
    NotationGame,
):
    """The Roman War game object (stateless; see games.core.Game): the contract's
    attributes, the flow (stages.py) and the outcome; the rules are the mixins of rules/,
    the queries queries.py, the views view.py."""

    explained = "card, level ability or starter deck"

    id = "roman-war"
    title = "Roman War"
    # a co-op or solo game the Hannibal deck wins has no winning seat (``outcome``)
    no_winner_label = "games Hannibal won (the Hannibal deck beat the Romans)"
    min_players = 1
    max_players = 4
    Options = Options
    State = State
    View = View
    notation = notation
    action_adapter = _ACTION
    flow = FLOW

    def explanations(self) -> tuple[Explanation, ...]:
        """Every Roman and Hannibal card, level ability and starter deck (data/*.toml), each
        card's line followed by its marks in words (GLOSSARY.md, games.core.glossary.marks_in_words)."""
        if self._explained is None:
            out = []
            for e in explanations():
                card = e.kind.startswith(("Roman card", "Hannibal's"))  # printed lines, not prose
                marks = marks_in_words(self, e.text) if card else ()
                words = "".join(f"\n{mark}: {meaning}" for mark, meaning in marks)
                out.append(e.model_copy(update={"text": e.text + words}) if words else e)
            self._explained = tuple(out)
        return self._explained

    def __init__(self) -> None:
        self._explained: tuple[Explanation, ...] | None = None
        self.data = load()

    def context(self, s: State, rng: Rng) -> _Ctx:
        """The scratch of one ``apply``, with Roman War's helpers."""
        return _Ctx(s, rng)

    def after_action(self, ctx: _Ctx, seat: Seat | None, action: Any) -> None:  # type: ignore[override]
        """Run the automatic flow (the stack, Hannibal's automatic plays, the next turns)
        until someone must decide (``StackRules._run``)."""
        self._run(ctx)

    def not_handled(self, s: State, seat: Seat, action: Any) -> str:
        """The refusal of an action no stage takes now: the game's reason (``refusal_reason``)."""
        return self.refusal_reason(s, seat, action, list(self.legal_actions(s, seat)))

    def refusal_reason(self, s: State, seat: Seat, a: Any, legal: list[Any]) -> str:
        """Why ``a`` by ``seat`` is not among ``legal`` (the legal actions now), for the player:
        a card not held, a cost not met, the question asked now; and what would be legal."""
        legal_text = (
            "legal now: " + list_words([self.format_action(s, x) for x in legal], limit=10) + "."
        )
        r = s.romans[seat] if seat < len(s.romans) else None
        if isinstance(a, (PlayCard, PlaceCost, Discard, Overflow)) and r is not None:
            cid = a.card
            if cid not in self.data.cards:
                return f"There is no card {cid!r}; {legal_text}"
            where = r.hand if getattr(a, "source", "hand") == "hand" else [c.card for c in r.cost_zone]
            if cid not in where:
                return f"{self.name(cid)} is not in your {'hand' if getattr(a, 'source', 'hand') == 'hand' else 'Cost Zone'}; {legal_text}"
            if isinstance(a, PlayCard):
                card = self.card(cid)
                need = card.cost + self.fee_for(s, card)
                if need > self.untapped(s, seat):
                    return f"{card.name} costs C{need}; you have {count(self.untapped(s, seat), 'untapped Cost Zone card')}; {legal_text}"
                return (
                    f"{card.name} ({card.type}) cannot be played now: the question now is "
                    f"“{self.to_act(s)[seat].text.rstrip('.')}”; {legal_text}"
                )
            if isinstance(a, PlaceCost) and s.placed >= COST_ZONE_PER_TURN:
                return f"You already put {COST_ZONE_PER_TURN} cards in your Cost Zone this turn; {legal_text}"
        if isinstance(a, (Defend, Assault)):
            return f"You cannot pay for that now: {self.untapped(s, seat)} untapped Cost Zone cards; {legal_text}"
        return f"That is not legal now: the question now is “{self.to_act(s)[seat].text.rstrip('.')}”; {legal_text}"

    def outcome(self, s: State) -> Outcome | None:
        """None while playing; then every Roman seat (Rome wins), or the Hannibal seat in a
        duel, or nobody (the deck won a co-op game)."""
        if s.phase != "over":
            return None
        if s.winner == "romans":
            return Outcome(winners=self.roman_seats(s), reason=s.end_reason)
        winners = self.hannibal_seats(s)
        return Outcome(winners=winners, reason=s.end_reason)


GAME = RomanWar()

__all__ = ["COST_ZONE_PER_TURN", "GAME", "Options", "RomanWar", "_Ctx", "ambush_named", "hannibal_draws"]
