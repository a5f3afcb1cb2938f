"""Credo's flow, stated once (games.core.flow): the stages in the order they take
precedence (rule text: shared/seeds/003_a89d0bca05ff4a91.txt; rulings: RULINGS.md).

A pending choice of cards (a Task: Lose, Remove, Take, Give, and the choices Event cards
and Tables leave to a player) comes first; then the end of a turn a Council closed, Set
Up; a response window after an Event card (or a Council's debate); a General
Council's vote and the Emperor's Respect roll; then the active Church's turn: draw a card,
handle an Article card drawn, play an Event drawn on another Church, its main step (play,
discard, end the turn or convoke a Council). The automatic stages ask nobody: a Task with
no choice, the end of Set Up, a window or a vote that is over, the draw. The Game End is
checked after every action and automatic stage (``Credo.after_action``).

Every stage takes every kind of action and refuses one that is not legal at it in the same
words (:meth:`CredoStage.refusal`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from games.core import Prompt, Seat
from games.core.errors import list_words
from games.core.flow import BaseStage, Flow

from .model import (
    Abstain,
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
    Vote,
)
from .queries import HAND_LIMIT
from .rules.context import _Ctx

ALL_KINDS = frozenset({
    "place", "keep", "renounce", "reject", "discard", "play", "pick", "vote", "abstain", "respect", "convoke",
    "done", "pass",
})  # fmt: skip
"""Every action kind: the current stage takes any action and says why one does not fit it."""


class CredoStage(BaseStage):
    """A stage of Credo asking one seat. ``rules_legal`` lists the legal actions as the
    rules generate them (a few may share a notation); ``legal_actions`` hands them out once
    per notation (the game remembers both for the last state)."""

    actions = ALL_KINDS
    always: ClassVar[tuple[type, ...]] = ()
    """Action classes always legal at this stage (pass in a window, abstain at a vote):
    accepted without listing the other legal actions."""

    def rules_legal(self, game: Any, s: State, seat: Seat) -> list[Any]:
        """The legal actions of ``seat`` as the rules generate them."""
        return []

    def legal_actions(self, game: Any, s: State, seat: Seat) -> list[Any]:
        return game.legal_once(s, seat)

    def refusal(self, game: Any, s: State, seat: Seat, action: Any) -> str | None:
        """None for a legal action; else "That is not allowed now" with the legal actions
        of the same kind (or all of them)."""
        if isinstance(action, self.always):
            return None
        legal = game.rules_legal(s, seat)
        if action in legal:
            return None
        return f"{self.why(game, s, seat, action) or 'That is not allowed now'}; {hint(game, s, action, legal)}."

    def why(self, game: Any, s: State, seat: Seat, action: Any) -> str | None:
        """A stage's own reason for refusing ``action``, or None."""
        return None


def hint(game: Any, s: State, action: Any, legal: Sequence[Any]) -> str:
    """The legal actions of the kind of ``action`` in notation, or all of them."""
    kind = getattr(action, "kind", "?")
    same = [game.format_action(s, x) for x in legal if getattr(x, "kind", None) == kind]
    if same:
        return f"legal {kind} actions: {list_words(same)}"
    return f"legal now: {list_words([game.format_action(s, x) for x in legal])}"


class Automatic(BaseStage):
    """A step of the rules that asks nobody, run by the flow while it is current."""

    automatic = True


class SettleTask(Automatic):
    """A Task that leaves its chooser no choice resolves by itself (Lose, Remove, Take, Give)."""

    name = "task without a choice"

    def active(self, game: Any, s: State) -> bool:
        return bool(s.tasks) and game.task_settles(s, s.tasks[0])

    def run(self, game: Any, ctx: _Ctx) -> None:
        game.settle_task(ctx)


class TaskChoice(CredoStage):
    """A pending choice: the chooser picks a card (Lose, Remove, Take, Give; Teach's
    Article to give up; Bad Times) or an option (Proselytism 2, Evangelic Campaign,
    persecution, Evangelisation of the Goths, Dock Strike)."""

    name = "pending choice"

    def active(self, game: Any, s: State) -> bool:
        return bool(s.tasks)

    def seats(self, game: Any, s: State) -> Sequence[Seat]:
        return (s.tasks[0].chooser,)

    def prompt(self, game: Any, s: State, seat: Seat) -> Prompt:
        return Prompt(kind="turn", text=game.task_text(s, s.tasks[0]))

    def rules_legal(self, game: Any, s: State, seat: Seat) -> list[Any]:
        return [Pick(card=c) for c in game.eligible(s, s.tasks[0])]

    def apply(self, game: Any, ctx: _Ctx, seat: Seat, action: Any) -> None:
        game.apply_pick(ctx, action.card)


class TurnEnds(Automatic):
    """The Emperor's convoked Council is over and its results settled: his turn ends."""

    name = "end of the convoker's turn"

    def active(self, game: Any, s: State) -> bool:
        return s.turn_ends

    def run(self, game: Any, ctx: _Ctx) -> None:
        ctx.update(turn_ends=False)
        game.end_turn(ctx)


class SetupComplete(Automatic):
    """Set Up is complete when every Church has placed its Articles; Church 1 begins."""

    name = "end of Set Up"

    def active(self, game: Any, s: State) -> bool:
        return s.phase == "setup" and all(p.setup_done for p in s.players)

    def run(self, game: Any, ctx: _Ctx) -> None:
        ctx.update(phase="play")
        ctx.note("Set-up is complete; the game begins with Church 1.")
        game.begin_turn(ctx, 0)


class SetUp(CredoStage):
    """Set Up a. to h.: every Church still placing places its Articles, then says done."""

    name = "Set Up"
    _prompt = Prompt(kind="turn", text="Place your Articles on your Church mat, then say done.")

    def active(self, game: Any, s: State) -> bool:
        return s.phase == "setup"

    def seats(self, game: Any, s: State) -> Sequence[Seat]:
        return tuple(x for x, p in enumerate(s.players) if not p.setup_done)

    def prompt(self, game: Any, s: State, seat: Seat) -> Prompt:
        return self._prompt

    def rules_legal(self, game: Any, s: State, seat: Seat) -> list[Any]:
        places = [Place(card=c) for c in s.players[seat].hand if game.placeable(s, seat, c, setup=True)]
        return places if places else [Done()]

    def why(self, game: Any, s: State, seat: Seat, action: Any) -> str | None:
        """Set Up a., b., d., g.: why a hand card cannot be placed now."""
        if not isinstance(action, Place):
            return None
        why = game.setup_refusal(s, seat, action.card)
        return f"{game.name(action.card)} cannot be placed now: {why}" if why else None

    def apply(self, game: Any, ctx: _Ctx, seat: Seat, action: Any) -> None:
        game.apply_setup(ctx, seat, action)


class SkipEmptyHands(Automatic):
    """RULINGS.md R21 (``ask_all`` off): a Church holding no card is not asked in a window."""

    name = "window without the empty hands"

    def active(self, game: Any, s: State) -> bool:
        w = s.window
        return w is not None and not s.ask_all and bool(w.waiting) and not s.players[w.waiting[0]].hand

    def run(self, game: Any, ctx: _Ctx) -> None:
        w = ctx.s.window
        waiting = w.waiting
        while waiting and not ctx.s.players[waiting[0]].hand:
            waiting = waiting[1:]
        ctx.update(window=w.model_copy(update={"waiting": waiting}))


class CloseWindow(Automatic):
    """Every Church asked has passed: the window closes; a Council's debate is over and
    its vote opens (The Debate)."""

    name = "end of a window"

    def active(self, game: Any, s: State) -> bool:
        return s.window is not None and not s.window.waiting

    def run(self, game: Any, ctx: _Ctx) -> None:
        w = ctx.s.window
        ctx.update(window=None)
        if w.kind == "debate" and ctx.s.council is not None:
            game.open_vote(ctx)


class Window(CredoStage):
    """Event Cards: after an Event card played, the other Churches in turn may play one;
    a Council's debate asks every Church until all pass in a row (The Debate)."""

    name = "response window"
    always = (Pass,)

    def active(self, game: Any, s: State) -> bool:
        return s.window is not None

    def seats(self, game: Any, s: State) -> Sequence[Seat]:
        return (s.window.waiting[0],)

    def prompt(self, game: Any, s: State, seat: Seat) -> Prompt:
        return Prompt(kind="respond", text=s.window.reason + " Play an Event card, or pass.")

    def rules_legal(self, game: Any, s: State, seat: Seat) -> list[Any]:
        return [Pass(), *game.event_plays(s, seat)]

    def apply(self, game: Any, ctx: _Ctx, seat: Seat, action: Any) -> None:
        game.apply_window(ctx, seat, action)


class CouncilStage(CredoStage):
    """A stage of a General Council at its ``stage``."""

    council_stage: ClassVar[str] = ""

    def active(self, game: Any, s: State) -> bool:
        return s.council is not None and s.council.stage == self.council_stage


class CouncilVote(CouncilStage):
    """The Vote: each Church without a doctrine for the Article votes for a proposed
    doctrine or abstains, in order."""

    name = "Council vote"
    always = (Abstain,)
    council_stage = "vote"

    def active(self, game: Any, s: State) -> bool:
        return super().active(game, s) and bool(s.council.voters)

    def seats(self, game: Any, s: State) -> Sequence[Seat]:
        return (s.council.voters[0],)

    def prompt(self, game: Any, s: State, seat: Seat) -> Prompt:
        text = f"Council on Article {s.council.article}: vote for a proposed doctrine, or abstain."
        return Prompt(kind="turn", text=text)

    def rules_legal(self, game: Any, s: State, seat: Seat) -> list[Any]:
        return [Abstain(), *(Vote(doctrine=d) for d in s.council.proposals)]

    def apply(self, game: Any, ctx: _Ctx, seat: Seat, action: Any) -> None:
        game.apply_vote(ctx, seat, action)


class Tally(Automatic, CouncilStage):
    """Every vote is cast: the Council is resolved (The Vote, Results)."""

    name = "Council tally"
    council_stage = "vote"

    def run(self, game: Any, ctx: _Ctx) -> None:
        game.resolve_council(ctx)


class RespectRoll(CouncilStage):
    """Results: the Emperor may enforce respect of the Council on a Losing doctrine."""

    name = "Emperor's Respect"
    always = (Pass,)
    council_stage = "respect"
    _prompt = Prompt(kind="turn", text="Enforce respect of the Council on a Losing doctrine, or pass.")

    def active(self, game: Any, s: State) -> bool:
        return super().active(game, s) and bool(s.council.losers) and game.emperor(s) is not None

    def seats(self, game: Any, s: State) -> Sequence[Seat]:
        return (game.emperor(s),)

    def prompt(self, game: Any, s: State, seat: Seat) -> Prompt:
        return self._prompt

    def rules_legal(self, game: Any, s: State, seat: Seat) -> list[Any]:
        return [Pass(), *(Respect(doctrine=d) for d in s.council.losers)]

    def apply(self, game: Any, ctx: _Ctx, seat: Seat, action: Any) -> None:
        game.apply_respect(ctx, seat, action)


class CloseCouncil(Automatic, CouncilStage):
    """No Emperor or no Losing doctrine: the Council ends."""

    name = "end of a Council"
    council_stage = "respect"

    def run(self, game: Any, ctx: _Ctx) -> None:
        game.end_council(ctx)


class OpenVote(Automatic):
    """A Council whose debate has no window open goes to the vote."""

    name = "opening of a vote"

    def active(self, game: Any, s: State) -> bool:
        return s.council is not None

    def run(self, game: Any, ctx: _Ctx) -> None:
        game.open_vote(ctx)


class TurnStage(CredoStage):
    """A step of the active Church's turn (The Game)."""

    turn_stage: ClassVar[str] = ""

    def active(self, game: Any, s: State) -> bool:
        return s.stage == self.turn_stage

    def seats(self, game: Any, s: State) -> Sequence[Seat]:
        return (s.active,)


class Draw(Automatic, TurnStage):
    """The Game: the active Church draws an Event/Article card."""

    name = "draw"
    turn_stage = "draw"

    def run(self, game: Any, ctx: _Ctx) -> None:
        game.draw_turn_card(ctx)


class ArticleDrawn(TurnStage):
    """The Game, Article Card: place, keep, renounce or reject the Article card drawn."""

    name = "Article card drawn"
    turn_stage = "article"
    prompt_text = "You drew an Article card: place, keep, renounce or reject it."

    def rules_legal(self, game: Any, s: State, seat: Seat) -> list[Any]:
        card = s.drawn
        out: list[Any] = []
        if game.placeable(s, seat, card, setup=False):
            out.append(Place(card=card))
        if game.can_keep(s, seat, card):
            out.append(Keep(card=card))
        if game.renounce_box(s, seat, card) is not None:
            out.append(Renounce(card=card))
        out.append(Reject(card=card))
        return out

    def apply(self, game: Any, ctx: _Ctx, seat: Seat, action: Any) -> None:
        game.apply_article(ctx, seat, action)


class Immediate(TurnStage):
    """Event Cards, Play Immediately on another player: the Event drawn is played on
    another Church."""

    name = "Event drawn"
    turn_stage = "immediate"
    prompt_text = "Play the Event you drew on another Church."

    def rules_legal(self, game: Any, s: State, seat: Seat) -> list[Any]:
        return [Play(card=s.drawn, target=t) for t in game.others(s, seat)]

    def apply(self, game: Any, ctx: _Ctx, seat: Seat, action: Any) -> None:
        ctx.update(stage="main", drawn=None)
        game.play_event(ctx, seat, action, open_window=True)


class Main(TurnStage):
    """The Game: play Event cards, discard, then end the turn (at most 4 Event/Article
    cards in hand) or, for the Emperor, convoke a General Council."""

    name = "main step"
    turn_stage = "main"

    def prompt(self, game: Any, s: State, seat: Seat) -> Prompt:
        emperor = game.emperor(s) == s.active
        text = "Play Event cards, discard, then say done" + (
            " or convoke a General Council." if emperor else "."
        )
        return Prompt(kind="turn", text=text)

    def rules_legal(self, game: Any, s: State, seat: Seat) -> list[Any]:
        p = s.players[seat]
        out: list[Any] = []
        if len(p.hand) <= HAND_LIMIT:
            out.append(Done())
            if game.emperor(s) == seat and game.next_article(s) is not None:
                out.append(Convoke())
        out += game.event_plays(s, seat)
        out += [Discard(card=c) for c in p.hand]
        return out

    def apply(self, game: Any, ctx: _Ctx, seat: Seat, action: Any) -> None:
        game.apply_main(ctx, seat, action)


FLOW = Flow([
    SettleTask(), TaskChoice(), TurnEnds(), SetupComplete(), SetUp(), SkipEmptyHands(), CloseWindow(),
    Window(), CouncilVote(), Tally(), RespectRoll(), CloseCouncil(), OpenVote(), Draw(), ArticleDrawn(), Immediate(),
    Main(),
])  # fmt: skip
"""Credo's stages in order of precedence."""
