"""The flow engine: a game's flow stated once, as an ordered list of stages
(ARCHITECTURE.md, "The flow engine").

A *stage* is one small piece of a game's flow (a response window, a phase's step, a
pending choice). Stages are stateless objects: everything they read and write lives in
the game's immutable State. A :class:`Flow` is the ordered list of a game's stages; the
*current* stage is the first one that is active and blocking, as a round's active step
is in the 18xx engine. Who is asked, their prompts, the legal actions and the dispatch
of an action all read that one list, so the order of the flow is written once.

A stage that is active but not blocking (an action a seat may take at any time of
another stage) adds its actions for the seats the current stage asks, and handles them.
A stage marked ``automatic`` asks nobody: while it is current, :class:`FlowGame` runs
it (an upkeep, a refill, the end of a round) after each action and after setup.

:class:`FlowGame` implements ``to_act``, ``legal_actions`` and ``apply`` of the game
contract once for every game built on stages: the game-over refusal, an action given as
JSON, the one not-your-turn wording (:meth:`GameDefaults.require_turn`), the refusal of
an illegal action with the stage's reason, then the stage's effect, the automatic stages
and the game's :meth:`FlowGame.after_action` hook (victory checks).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, ClassVar, Protocol, runtime_checkable

from .base import ApplyContext, GameDefaults
from .errors import IllegalActionError, list_words
from .memo import last_state
from .model import Prompt, Seat, Step
from .refusal import not_now, not_this
from .rng import Rng

MAX_AUTOMATIC = 1000
"""How many automatic stages one action may run before the flow is taken to loop."""


@runtime_checkable
class Stage(Protocol):
    """One stateless step of a game's flow. ``game`` is the game object (its data and
    queries), ``s`` its immutable State.

    Attributes
    ----------
    name : str
        A short name for messages and tests ("Tribute", "response window").
    actions : frozenset[str]
        The ``kind`` of every action this stage handles.
    blocking : bool
        Whether the flow waits on this stage while it is active (``False``: its actions
        may be taken besides those of the current stage).
    automatic : bool
        Whether it asks nobody and is run by the flow (:meth:`run`) while current.
    """

    name: str
    actions: frozenset[str]
    blocking: bool
    automatic: bool

    def active(self, game: Any, s: Any) -> bool:
        """Whether the stage applies in ``s``."""
        ...

    def seats(self, game: Any, s: Any) -> Sequence[Seat]:
        """The seats asked by this stage in ``s`` (public information only: Trust invariant 3)."""
        ...

    def prompt(self, game: Any, s: Any, seat: Seat) -> Prompt:
        """How ``seat`` is asked: its kind (turn, respond, secret) and its text."""
        ...

    def legal_actions(self, game: Any, s: Any, seat: Seat) -> Iterable[Any]:
        """Every legal action of ``seat`` at this stage (a list or a lazy ActionSpace)."""
        ...

    def refusal(self, game: Any, s: Any, seat: Seat, action: Any) -> str | None:
        """Why ``action`` by ``seat`` is not legal at this stage, for the player to read
        (what was wrong and what would be legal); ``None`` when it is legal."""
        ...

    def apply(self, game: Any, ctx: ApplyContext, seat: Seat, action: Any) -> None:
        """Apply a legal ``action`` to ``ctx`` (replacing ``ctx.s``, emitting events)."""
        ...

    def run(self, game: Any, ctx: ApplyContext) -> None:
        """Apply an automatic stage (``automatic`` only); must change ``ctx.s``."""
        ...


class BaseStage:
    """Documented defaults of :class:`Stage`: a blocking, non-automatic stage that asks a
    ``turn`` of its seats, whose refusal checks membership in its legal actions and
    words it with :mod:`games.core.refusal`. A stage overrides what applies to it."""

    name: ClassVar[str] = "stage"
    actions: ClassVar[frozenset[str]] = frozenset()
    blocking: ClassVar[bool] = True
    automatic: ClassVar[bool] = False
    prompt_kind: ClassVar[str] = "turn"
    prompt_text: ClassVar[str] = ""

    def active(self, game: Any, s: Any) -> bool:
        """Default: always active (the last stage of a flow, a main phase)."""
        return True

    def seats(self, game: Any, s: Any) -> Sequence[Seat]:
        """Default: nobody (an automatic stage)."""
        return ()

    def prompt(self, game: Any, s: Any, seat: Seat) -> Prompt:
        """Default: ``prompt_kind`` with ``prompt_text``."""
        return Prompt(kind=self.prompt_kind, text=self.prompt_text)  # type: ignore[arg-type]

    def legal_actions(self, game: Any, s: Any, seat: Seat) -> Iterable[Any]:
        """Default: none."""
        return ()

    def refusal(self, game: Any, s: Any, seat: Seat, action: Any) -> str | None:
        """Default: ``None`` when ``action`` is among :meth:`legal_actions`, else a refusal
        naming the typed action, what is not among the choices and the question asked."""
        legal = list(self.legal_actions(game, s, seat))
        if action in legal:
            return None
        options = [game.format_action(s, a) for a in legal]
        return not_this(game.format_action(s, action), self.prompt(game, s, seat).text, options)

    def apply(self, game: Any, ctx: ApplyContext, seat: Seat, action: Any) -> None:  # pragma: no cover
        raise NotImplementedError(f"stage {self.name!r} handles no action")

    def run(self, game: Any, ctx: ApplyContext) -> None:  # pragma: no cover
        raise NotImplementedError(f"stage {self.name!r} is not automatic")


class FlowError(RuntimeError):
    """A flow that cannot go on: no stage is current in a running game, or automatic
    stages loop. A fault of the game's code, never of a player's input."""


class Flow:
    """A game's stages in order; the first active, blocking stage is the current one."""

    def __init__(self, stages: Sequence[Stage]) -> None:
        self.stages: tuple[Stage, ...] = tuple(stages)
        self._by_kind: dict[str, tuple[Stage, ...]] = {}
        self._last: tuple[Any, Any, Stage | None] = (None, None, None)
        # with every stage blocking, the open stages are the current stage alone
        self._all_blocking = all(stage.blocking for stage in self.stages)
        for stage in self.stages:
            for kind in stage.actions:
                self._by_kind[kind] = (*self._by_kind.get(kind, ()), stage)

    def current(self, game: Any, s: Any) -> Stage | None:
        """The first active, blocking stage of ``s``; ``None`` when none is (game over).

        The answer for the last State asked is kept (States are immutable, and one
        ``apply`` asks it several times: who is asked, which stage handles the action)."""
        last = self._last
        if last[0] is s and last[1] is game:
            return last[2]
        found = None
        for stage in self.stages:
            if stage.blocking and stage.active(game, s):
                found = stage
                break
        self._last = (s, game, found)
        return found

    def open_stages(self, game: Any, s: Any) -> list[Stage]:
        """The active stages up to and including the current one, in order: the current
        stage and the non-blocking stages whose actions may be taken besides it."""
        out: list[Stage] = []
        for stage in self.stages:
            if stage.active(game, s):
                out.append(stage)
                if stage.blocking:
                    return out
        return []

    def to_act(self, game: Any, s: Any) -> dict[Seat, Prompt]:
        """Who the current stage asks, with their prompts; ``{}`` when none is current."""
        stage = self.current(game, s)
        if stage is None or stage.automatic:
            return {}
        return {seat: stage.prompt(game, s, seat) for seat in stage.seats(game, s)}

    def handler(self, game: Any, s: Any, kind: str) -> Stage | None:
        """The open stage that handles actions of ``kind`` (the first in the flow's order)."""
        candidates = self._by_kind.get(kind, ())
        if not candidates:
            return None
        if self._all_blocking:
            current = self.current(game, s)
            return current if current in candidates else None
        for stage in self.open_stages(game, s):
            if stage in candidates:
                return stage
        return None

    def kinds(self) -> frozenset[str]:
        """Every action kind some stage handles."""
        return frozenset(self._by_kind)


class FlowGame(GameDefaults):
    """The game contract's ``to_act``, ``legal_actions`` and ``apply`` implemented once on
    a :class:`Flow` (the class attribute ``flow``). A game provides ``flow``, ``setup``
    (which may end with :meth:`settle`), ``outcome``, ``view``, the notation, and
    overrides the hooks below where its rules need them."""

    flow: ClassVar[Flow]

    # ------------------------------------------------------------------ hooks

    def context(self, s: Any, rng: Rng) -> ApplyContext:
        """The scratch of one ``apply`` (a game may return a subclass with its helpers)."""
        return ApplyContext(s, rng)

    def after_action(self, ctx: ApplyContext, seat: Seat | None, action: Any) -> None:
        """Called after every action and every automatic stage (``seat`` and ``action``
        ``None`` then): victory checks. Default: nothing."""

    def kind_of(self, action: Any) -> str:
        """The kind an action is dispatched on. Default: its ``kind`` field."""
        return str(action.kind)

    # --------------------------------------------------------------- contract

    def to_act(self, s: Any) -> Mapping[Seat, Prompt]:
        """Who is asked now and how: the current stage's seats and prompts; ``{}`` when the
        game is over. A fresh dict, its prompts remembered for the last state (games.core.memo):
        reading each typed action asks whether its seat is asked."""
        if self.outcome(s) is not None:  # type: ignore[attr-defined]
            return {}
        return dict(self._prompts(s))

    @last_state
    def _prompts(self, s: Any) -> Mapping[Seat, Prompt]:
        return self.flow.to_act(self, s)

    def asks(self, s: Any, seat: Seat) -> bool:
        """Whether ``seat`` is among the seats ``to_act`` names in ``s``, without building
        their prompts (the check at the start of every ``apply``)."""
        if self.outcome(s) is not None:  # type: ignore[attr-defined]
            return False
        stage = self.flow.current(self, s)
        return stage is not None and not stage.automatic and seat in stage.seats(self, s)

    def legal_actions(self, s: Any, seat: Seat) -> Iterable[Any]:
        """Every legal action of ``seat``: those of the current stage and of the
        non-blocking stages open beside it, for a seat the current stage asks; ``[]``
        for any other seat and once the game is over."""
        if self.outcome(s) is not None:  # type: ignore[attr-defined]
            return []
        stages = self.flow.open_stages(self, s)
        if not stages or stages[-1].automatic or seat not in stages[-1].seats(self, s):
            return []
        if len(stages) == 1:
            return stages[0].legal_actions(self, s, seat)
        return [a for stage in stages for a in stage.legal_actions(self, s, seat)]

    def apply(self, s: Any, seat: Seat, action: Any, rng: Rng) -> Step[Any]:
        """Check ``action`` (an action model, or its JSON form) by ``seat`` and apply it.

        Raises
        ------
        GameOverError
            The game is over.
        NotYourTurnError
            ``seat`` is not asked now (one wording for every game: ``require_turn``).
        InvalidNotationError
            ``action`` is JSON that is no action of the game.
        IllegalActionError
            No open stage takes actions of its kind, or the stage refuses it (its reason).
        """
        if isinstance(action, Mapping):
            action = self.action_from_json(action)  # type: ignore[attr-defined]
        if not self.asks(s, seat):
            self.require_turn(s, seat)  # raises: the game is over, or not this seat's turn
        stage = self.flow.handler(self, s, self.kind_of(action))
        if stage is None:
            raise IllegalActionError(self.not_handled(s, seat, action))
        reason = stage.refusal(self, s, seat, action)
        if reason is not None:
            raise IllegalActionError(reason)
        ctx = self.context(s, rng)
        stage.apply(self, ctx, seat, action)
        self.after_action(ctx, seat, action)
        self.settle(ctx)
        return Step(state=ctx.s, events=tuple(ctx.events))

    def settle(self, ctx: ApplyContext) -> None:
        """Run the automatic stages while one is current (each followed by
        :meth:`after_action`).

        Raises
        ------
        FlowError
            More than ``MAX_AUTOMATIC`` automatic stages ran: the flow loops.
        """
        for _ in range(MAX_AUTOMATIC):
            if self.outcome(ctx.s) is not None:  # type: ignore[attr-defined]
                return
            stage = self.flow.current(self, ctx.s)
            if stage is None or not stage.automatic:
                return
            stage.run(self, ctx)
            self.after_action(ctx, None, None)
        raise FlowError(f"automatic stages ran {MAX_AUTOMATIC} times in one action")

    def not_handled(self, s: Any, seat: Seat, action: Any) -> str:
        """The refusal of an action whose kind no open stage takes: the game's own reason
        (:meth:`why_not`), else the question asked now and what is legal."""
        verb = self.kind_of(action)
        legal = [self.format_action(s, a) for a in self.legal_actions(s, seat)]  # type: ignore[attr-defined]
        tail = f"legal now: {list_words(legal)}."
        reason = self.why_not(s, seat, verb)
        if reason:
            return f"{verb!r} is not possible now: {reason}; {tail}"
        stage = self.flow.current(self, s)
        prompt = stage.prompt(self, s, seat).text if stage is not None else ""
        return not_now(verb, prompt, tail)


def check_flow(game: FlowGame, s: Any) -> None:
    """Raise :class:`FlowError` when a running game's state ``s`` has no current stage
    (a stage list that misses a case of the rules); for tests and the conformance run."""
    if game.outcome(s) is None and game.flow.current(game, s) is None:  # type: ignore[attr-defined]
        raise FlowError(f"{game.id}: no stage of the flow is current in a running game")  # type: ignore[attr-defined]


__all__ = ["BaseStage", "Flow", "FlowError", "FlowGame", "Stage", "check_flow"]
