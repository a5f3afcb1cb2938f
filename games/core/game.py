"""The protocol every game implements (ARCHITECTURE.md, "The game contract").

A game object is stateless: all state lives in its immutable State model, so a
host can persist the action log, replay it, and run many sessions of one game
with one game object.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, ClassVar, Protocol, runtime_checkable

from pydantic import BaseModel

from .model import Event, Outcome, Prompt, Seat, Step
from .rng import Rng


@runtime_checkable
class Game(Protocol):
    """A game's rules. State, Action and View are the game's own pydantic models.

    Attributes
    ----------
    id : str
        Stable id used in commands and the database, e.g. ``"barbarian-hordes"``.
    title : str
        Display name.
    min_players, max_players : int
        Seat counts the game supports.
    Options : type[BaseModel]
        The game's variants and options; ``Options()`` are the defaults.
    State, Action, View : type
        The models (Action is a discriminated union's TypeAdapter-able type).
    rules_version : int
        The version of the game's rules this code plays (default 1, ``GameDefaults``). A
        release that changes the rules so that a log or snapshot stored before may no longer
        replay (an action's fields, the order of a phase's decisions) raises it; a session
        records the version it was started under, and one whose log no longer loads under
        another version is suspended rather than reported as an incident (``bot.host``).
    """

    id: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    Options: ClassVar[type[BaseModel]]
    State: ClassVar[type[BaseModel]]
    View: ClassVar[type[BaseModel]]
    rules_version: ClassVar[int]

    def setup(self, seats: Sequence[Seat], options: Any, rng: Rng) -> Step[Any]:
        """The initial state and the setup events (deals, rolls) for ``seats``."""
        ...

    def to_act(self, s: Any) -> Mapping[Seat, Prompt]:
        """Who is asked for input now, with what kind of prompt; empty once over."""
        ...

    def legal_actions(self, s: Any, seat: Seat) -> Iterable[Any]:
        """Every legal action for ``seat`` now (may be a generator for large spaces)."""
        ...

    def apply(self, s: Any, seat: Seat, a: Any, rng: Rng) -> Step[Any]:
        """Check and apply ``a``; raises a GameError subclass when it is not legal."""
        ...

    def outcome(self, s: Any) -> Outcome | None:
        """The result once the game is over, else None."""
        ...

    def view(self, s: Any, viewer: Seat | None) -> BaseModel:
        """What ``viewer`` may see (None = spectator): hidden parts removed."""
        ...

    def parse_action(self, s: Any, seat: Seat, text: str) -> Any:
        """Read ``text`` in the game's notation; raises InvalidNotationError,
        AmbiguousActionError, IllegalActionError or NotYourTurnError."""
        ...

    def format_action(self, s: Any, a: Any) -> str:
        """``a`` in the game's notation; ``parse_action(format_action(a)) == a``."""
        ...

    def complete(self, s: Any, seat: Seat, prefix: str) -> Sequence[str]:
        """Autocomplete: legal actions in notation starting with ``prefix``."""
        ...

    # Members with documented defaults in ``games.core.base.GameDefaults`` (every game
    # inherits them and overrides what applies; callers call them, never probe):
    # ``notation_is_public(s, seat, a) -> bool`` (default False: only its player sees the
    # notation, the others the public events), ``seat_name(s, seat) -> str | None`` and
    # ``seat_label(s, seat) -> str`` (the nation or faction a seat plays, for messages),
    # ``seats(s)`` (every seat; default the indices of ``s.players``), ``summary(view)``
    # and ``hand_text(view)`` (plain text for the terminal and logs), ``no_winner_label``,
    # the hidden-information hooks ``perturb_hidden(s, keep, rand)`` and
    # ``reveals(before, seat, action, step, rng_for, drew)`` (games.core.secrets),
    # ``require_turn(s, seat)`` (the one "game over" / "not your turn" refusal),
    # ``phase_mark(s)`` with ``phase_word`` (the phase a state is in, from public
    # information, for the host's "pass for the rest of this phase"), the refusal hooks
    # ``why_not(s, seat, verb)`` and ``not_offered(s, seat)`` (games.core.refusal), the
    # ``acted_note(s, seat, action, typed)`` its player is shown with an action's reply,
    # ``sides(s, players)`` (who wins or loses together), and ``option_notes(s, seat)`` (a
    # value shown on a button after the name it follows). A game built on stages
    # inherits ``to_act``, ``legal_actions`` and ``apply`` from ``games.core.flow.FlowGame``.

    def explain(self, name: str) -> Sequence[Any]:
        """The named things (cards, nations, abilities...) ``name`` matches, as
        games.core.explain.Explanation entries from the game's data files; ``[]`` when none.
        Default (games.core.explain.Explainable): the game names nothing."""
        ...

    def explainable(self) -> Sequence[str]:
        """Every name ``explain`` knows, for autocompletion."""
        ...

    def explanations(self) -> Sequence[Any]:
        """Every Explanation entry of the game."""
        ...

    def action_from_json(self, data: Any) -> Any:
        """An action from its JSON form (``a.model_dump(mode="json")``)."""
        ...

    def state_from_json(self, data: Any) -> Any:
        """A state from its JSON form."""
        ...


def dump_events(events: Iterable[Event]) -> list[dict[str, Any]]:
    """Events as JSON-ready dicts (each carries its ``kind`` discriminator)."""
    return [e.model_dump(mode="json") for e in events]
