"""Credo rules (rule text: shared/seeds/003_a89d0bca05ff4a91.txt; rulings: RULINGS.md).

The flow: Set Up (deal Church cards and 9 Article cards, each Church places its
Articles) -> turns (draw an Event/Article card, handle it, play Event cards, end the
turn or, for the Emperor, convoke a General Council) until Article 10 passes, a
Church has 11 million Followers or 117 votes. Event cards are played at any time
through response windows: after each Event played, the other Churches are asked in
turn; during a Council's debate, every Church is asked until all pass in a row.
Choices of Church cards (Lose, Remove, Take, Give) are pending tasks answered with
``pick``. Dice and draws happen inside ``apply`` and are reported as events.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pydantic import TypeAdapter

from games.core import (
    IllegalActionError,
    Outcome,
    Prompt,
    Rng,
    Seat,
    Step,
)
from games.core.base import NotationGame
from games.core.errors import list_words
from games.core.explain import Explanation
from games.core.memo import last_state

from . import notation
from .data import (
    explanations,
    load,
)
from .model import (
    Abstain,
    Action,
    Convoke,
    Discard,
    Done,
    Keep,
    Pass,
    Pick,
    Place,
    Play,
    Reject,
    Renounce,
    Respect,
    State,
    View,
    Vote,
)
from .options import Options
from .queries import (
    HAND_LIMIT,
    Queries,
    church_cards,
)
from .rules.church import ChurchRules
from .rules.context import _Ctx
from .rules.council import CouncilRules
from .rules.effects import effect
from .rules.events import EventRules
from .rules.events_empire import EmpireEventRules
from .rules.plays import PlayRules
from .rules.rolls import TableRules
from .rules.setup import SetupRules
from .rules.turn import TurnRules
from .view import ViewRules

_ACTION = TypeAdapter(Action)


class Credo(
    Queries, SetupRules, TurnRules, ChurchRules, TableRules, PlayRules, EventRules, EmpireEventRules,
    CouncilRules, ViewRules,
    NotationGame,
):
    """The Credo game object (stateless; see games.core.Game)."""

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
        self._views: dict[Any, Any] = {}

    # ------------------------------------------------------------------ lookups

    def seat_name(self, s: State, seat: Seat) -> str:
        """Seats are named by their Church ("Church 2") in every message, the host's too
        ("Church 2 (AI)", "Church 2 (alice)")."""
        return self.church_name(seat)


















    # ------------------------------------------------------------------ contract

    def setup(self, seats: Sequence[Seat], options: Options | None, rng: Rng) -> Step[State]:
        """Set Up (rules.setup.SetupRules.deal). Raises IllegalActionError for a seat count
        outside 3..6."""
        return self.deal(seats, options or Options(), rng)

    def to_act(self, s: State) -> Mapping[Seat, Prompt]:
        if s.phase == "over":
            return {}
        if s.tasks:
            t = s.tasks[0]
            return {t.chooser: Prompt(kind="turn", text=self.task_text(s, t))}
        if s.phase == "setup":
            return {
                x: Prompt(kind="turn", text="Place your Articles on your Church mat, then say done.")
                for x, p in enumerate(s.players)
                if not p.setup_done
            }
        if s.window is not None and s.window.waiting:
            w = s.window
            return {w.waiting[0]: Prompt(kind="respond", text=w.reason + " Play an Event card, or pass.")}
        c = s.council
        if c is not None:
            if c.stage == "vote" and c.voters:
                return {
                    c.voters[0]: Prompt(
                        kind="turn",
                        text=f"Council on Article {c.article}: vote for a proposed doctrine, or abstain.",
                    )
                }
            if c.stage == "respect":
                emp = self.emperor(s)
                if emp is not None:
                    return {
                        emp: Prompt(
                            kind="turn", text="Enforce respect of the Council on a Losing doctrine, or pass."
                        )
                    }
        text = {
            "article": "You drew an Article card: place, keep, renounce or reject it.",
            "immediate": "Play the Event you drew on another Church.",
            "main": "Play Event cards, discard, then say done"
            + (" or convoke a General Council." if self.emperor(s) == s.active else "."),
        }.get(s.stage)
        if text is None:
            return {}
        return {s.active: Prompt(kind="turn", text=text)}

    def legal_actions(self, s: State, seat: Seat) -> Sequence[Any]:
        """Every legal action for ``seat`` now, each once in its notation form (a fresh
        list, remembered for the last state: games.core.memo)."""
        return list(self._legal_actions(s, seat))

    @last_state
    def _legal_actions(self, s: State, seat: Seat) -> Sequence[Any]:
        prompts = self.to_act(s)
        if seat not in prompts:
            return ()
        out = self._rules_legal(s, seat)
        seen: dict[str, Any] = {}
        for a in out:
            seen.setdefault(notation.format_action(self, s, a), a)
        return list(seen.values())

    @last_state
    def _rules_legal(self, s: State, seat: Seat) -> tuple[Any, ...]:
        """``_legal`` remembered for the last state (a tuple, not copied when handed out):
        an agent's choice and ``apply``'s check share one."""
        return tuple(self._legal(s, seat))

    def _legal(self, s: State, seat: Seat) -> list[Any]:
        """The legal actions as the rules generate them (a few may share a notation)."""
        if s.tasks:
            t = s.tasks[0]
            return [Pick(card=c) for c in self._eligible(s, t)]
        if s.phase == "setup":
            p = s.players[seat]
            places = [Place(card=c) for c in p.hand if self._placeable(s, seat, c, setup=True)]
            return places if places else [Done()]
        if s.window is not None and s.window.waiting:
            return [Pass(), *self._plays(s, seat)]
        c = s.council
        if c is not None and c.stage == "vote":
            return [Abstain(), *(Vote(doctrine=d) for d in c.proposals)]
        if c is not None and c.stage == "respect":
            return [Pass(), *(Respect(doctrine=d) for d in c.losers)]
        p = s.players[seat]
        if s.stage == "article":
            card = s.drawn
            out: list[Any] = []
            if self._placeable(s, seat, card, setup=False):
                out.append(Place(card=card))
            if self._can_keep(s, seat, card):
                out.append(Keep(card=card))
            if self._renounce_box(s, seat, card) is not None:
                out.append(Renounce(card=card))
            out.append(Reject(card=card))
            return out
        if s.stage == "immediate":
            return [Play(card=s.drawn, target=t) for t in self._others(s, seat)]
        if s.stage == "main":
            out = []
            if len(p.hand) <= HAND_LIMIT:
                out.append(Done())
                if self.emperor(s) == seat and self.next_article(s) is not None:
                    out.append(Convoke())
            out += self._plays(s, seat)
            out += [Discard(card=c) for c in p.hand]
            return out
        return []

    def apply(self, s: State, seat: Seat, a: Any, rng: Rng) -> Step[State]:
        """Check ``a`` for ``seat`` and apply it, then run the automatic steps.

        Raises
        ------
        GameOverError, NotYourTurnError, IllegalActionError
            With a message saying what would be legal.
        """
        self.require_turn(s, seat)
        if isinstance(a, dict):
            a = _ACTION.validate_python(a)
        legal = self._rules_legal(s, seat)
        if a not in legal:
            kind = getattr(a, "kind", "?")
            same = [notation.format_action(self, s, x) for x in legal if getattr(x, "kind", None) == kind]
            every = [notation.format_action(self, s, x) for x in legal]
            hint = f"legal {kind} actions: {list_words(same)}" if same else f"legal now: {list_words(every)}"
            why = None
            if s.phase == "setup" and not s.tasks and isinstance(a, Place):
                why = self.setup_refusal(s, seat, a.card)
            if why:
                raise IllegalActionError(f"{self.name(a.card)} cannot be placed now: {why}; {hint}.")
            raise IllegalActionError(f"That is not allowed now; {hint}.")
        ctx = _Ctx(s, rng)
        if s.tasks:
            self._apply_pick(ctx, a.card)
        elif s.phase == "setup":
            self._apply_setup(ctx, seat, a)
        elif s.window is not None and s.window.waiting:
            self._apply_window(ctx, seat, a)
        elif s.council is not None and s.council.stage == "vote":
            self._apply_vote(ctx, seat, a)
        elif s.council is not None and s.council.stage == "respect":
            self._apply_respect(ctx, seat, a)
        elif s.stage == "article":
            self._apply_article(ctx, seat, a)
        elif s.stage == "immediate":
            ctx.update(stage="main", drawn=None)
            self._play(ctx, seat, a, open_window=True)
        else:
            self._apply_main(ctx, seat, a)
        self._advance(ctx)
        return Step(state=ctx.s, events=tuple(ctx.events))

    def outcome(self, s: State) -> Outcome | None:
        if s.phase != "over":
            return None
        return Outcome(winners=s.winners, reason=s.end_reason)

    # ------------------------------------------------------------------ set-up






    # ------------------------------------------------------------------ the turn












    # ------------------------------------------------------------------ automatic steps





    # ------------------------------------------------------------------ Church cards














    # ------------------------------------------------------------------ dice and tables










    # ------------------------------------------------------------------ Event cards













    # ------------------------------------------------------------------ General Councils













    # ------------------------------------------------------------------ views




    # ------------------------------------------------------------ hidden information





    # ------------------------------------------------------------------ notation



GAME = Credo()
