"""The flow engine (games.core.flow): the current stage is the first active, blocking one;
non-blocking stages add their actions; automatic stages run; ``apply`` refuses with one
wording for game over, not your turn, and an action no stage or its stage refuses."""

from __future__ import annotations

from typing import Any, ClassVar, Literal

import pytest

from games.core import GameOverError, IllegalActionError, NotYourTurnError, Outcome, Prompt, Rng, Seat, Step
from games.core.base import ApplyContext
from games.core.flow import BaseStage, Flow, FlowError, FlowGame, check_flow
from games.core.model import Model, Note


class State(Model):
    turn: Seat = 0
    total: int = 0
    window: tuple[Seat, ...] = ()
    refills: int = 0
    loop: bool = False


class Add(Model):
    kind: Literal["add"] = "add"
    n: int = 1


class Pass(Model):
    kind: Literal["pass"] = "pass"


class Shout(Model):
    kind: Literal["shout"] = "shout"


class Window(BaseStage):
    name = "window"
    actions = frozenset({"pass"})
    prompt_kind = "respond"
    prompt_text = "Pass."

    def active(self, game: Any, s: State) -> bool:
        return bool(s.window)

    def seats(self, game: Any, s: State) -> tuple[Seat, ...]:
        return s.window

    def legal_actions(self, game: Any, s: State, seat: Seat) -> list[Any]:
        return [Pass()]

    def apply(self, game: Any, ctx: ApplyContext, seat: Seat, action: Any) -> None:
        ctx.update(window=tuple(x for x in ctx.s.window if x != seat))


class Refill(BaseStage):
    name = "refill"
    automatic = True

    def active(self, game: Any, s: State) -> bool:
        return s.loop or (s.total % 5 == 0 and s.total > 5 * s.refills)

    def run(self, game: Any, ctx: ApplyContext) -> None:
        ctx.update(refills=ctx.s.refills + 1)
        ctx.emit(Note(text="refill"))


class Shouting(BaseStage):
    """Open beside any stage: a seat asked may shout."""

    name = "shout"
    actions = frozenset({"shout"})
    blocking = False

    def legal_actions(self, game: Any, s: State, seat: Seat) -> list[Any]:
        return [Shout()]

    def apply(self, game: Any, ctx: ApplyContext, seat: Seat, action: Any) -> None:
        ctx.emit(Note(text="shout"))


class Main(BaseStage):
    name = "main"
    actions = frozenset({"add"})
    prompt_text = "Add 1 or 2."

    def seats(self, game: Any, s: State) -> tuple[Seat, ...]:
        return (s.turn,)

    def legal_actions(self, game: Any, s: State, seat: Seat) -> list[Any]:
        return [Add(n=1), Add(n=2)]

    def apply(self, game: Any, ctx: ApplyContext, seat: Seat, action: Any) -> None:
        ctx.update(total=ctx.s.total + action.n, turn=1 - seat, window=(1 - seat,))


class Toy(FlowGame):
    id: ClassVar[str] = "flow-toy"
    flow = Flow([Refill(), Window(), Shouting(), Main()])
    after: ClassVar[list[Any]] = []

    def outcome(self, s: State) -> Outcome | None:
        return Outcome(winners=(0,), reason="ten") if s.total >= 10 else None

    def seats(self, s: State) -> tuple[Seat, ...]:
        return (0, 1)

    def format_action(self, s: State, a: Any) -> str:
        return f"add {a.n}" if a.kind == "add" else a.kind

    def action_from_json(self, data: Any) -> Any:
        return {"add": Add, "pass": Pass, "shout": Shout}[data["kind"]].model_validate(data)

    def after_action(self, ctx: ApplyContext, seat: Seat | None, action: Any) -> None:
        self.after.append(action)


GAME = Toy()
RNG = Rng(1, 0)


def test_current_stage_is_the_first_active_blocking_one() -> None:
    assert GAME.flow.current(GAME, State()).name == "main"
    assert GAME.flow.current(GAME, State(window=(1,))).name == "window"
    assert GAME.flow.current(GAME, State(total=5)).name == "refill"


def test_to_act_and_legal_actions_read_the_current_stage_and_the_open_non_blocking_ones() -> None:
    assert GAME.to_act(State()) == {0: Prompt(kind="turn", text="Add 1 or 2.")}
    assert list(GAME.legal_actions(State(), 0)) == [Shout(), Add(n=1), Add(n=2)]
    assert list(GAME.legal_actions(State(), 1)) == []
    assert GAME.to_act(State(window=(1,))) == {1: Prompt(kind="respond", text="Pass.")}
    assert list(GAME.legal_actions(State(window=(1,)), 1)) == [Pass()]  # the window blocks shouting
    assert GAME.to_act(State(total=10)) == {} and list(GAME.legal_actions(State(total=10), 0)) == []


def test_apply_dispatches_to_the_stage_then_runs_automatic_stages_and_the_hook() -> None:
    Toy.after.clear()
    step = GAME.apply(State(total=3), 0, Add(n=2), RNG)
    assert step.state == State(total=5, turn=1, window=(1,), refills=1)
    assert [e.describe() for e in step.events] == ["refill"]
    assert Toy.after == [Add(n=2), None]
    assert GAME.apply(State(), 0, {"kind": "shout"}, RNG).events[0].describe() == "shout"


def test_refusals_use_one_wording_per_cause() -> None:
    with pytest.raises(GameOverError):
        GAME.apply(State(total=10), 0, Add(), RNG)
    with pytest.raises(NotYourTurnError, match=r"^It is not your turn to act; waiting for seat 1\.$"):
        GAME.apply(State(), 1, Add(), RNG)
    with pytest.raises(IllegalActionError, match=r"'pass' is not possible now: the question now is “Add 1 or 2”"):
        GAME.apply(State(), 0, Pass(), RNG)
    with pytest.raises(IllegalActionError, match=r"'add 3' is not legal now: 3 is not among the choices.*add 1, add 2"):
        GAME.apply(State(), 0, Add(n=3), RNG)


def test_a_looping_flow_and_a_flow_without_a_current_stage_are_faults() -> None:
    with pytest.raises(FlowError):
        GAME.settle(ApplyContext(State(loop=True), RNG))
    empty = Toy()
    empty.flow = Flow([Window()])  # type: ignore[misc]
    with pytest.raises(FlowError):
        check_flow(empty, State())
    check_flow(GAME, State())
    assert isinstance(GAME.apply(State(), 0, Add(), RNG), Step)
