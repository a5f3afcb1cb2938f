"""Pieces every game's rules share: the scratch of one ``apply`` and the notation and
JSON methods of the Game protocol (ARCHITECTURE.md, "The game contract")."""

from __future__ import annotations

import random
from collections.abc import Callable
from types import ModuleType
from typing import Any, ClassVar

from pydantic import BaseModel, TypeAdapter, ValidationError

from .effects import Effects
from .errors import GameOverError, InvalidNotationError, NotYourTurnError, list_words
from .explain import Explainable
from .model import Event, Prompt, Seat, Step
from .rng import Rng
from .secrets import derive_reveals


class ApplyContext:
    """Mutable scratch for one ``apply``: the state being built (``s``, replaced,
    never mutated), the step's ``rng`` and the events emitted so far, in order."""

    __slots__ = ("events", "rng", "s")

    def __init__(self, s: Any, rng: Rng) -> None:
        self.s = s
        self.rng = rng
        self.events: list[Event] = []

    def emit(self, event: Event) -> None:
        self.events.append(event)

    def update(self, **fields: Any) -> None:
        """Replace top-level fields of the state."""
        self.s = self.s.model_copy(update=fields)

    def replace_in(self, attr: str, index: int, /, **fields: Any) -> None:
        """Replace fields of item ``index`` of the tuple ``attr`` (a players list...)."""
        items = list(getattr(self.s, attr))
        items[index] = items[index].model_copy(update=fields)
        self.s = self.s.model_copy(update={attr: tuple(items)})

    def set_player(self, seat: Seat, /, **fields: Any) -> None:
        """Replace fields of ``s.players[seat]``."""
        self.replace_in("players", seat, **fields)


class GameDefaults(Explainable):
    """The optional members of the Game protocol, with their documented defaults, so
    callers call them instead of probing for them. A game overrides what applies to it.

    It also holds the one wording of "not your turn" and "game over" every game's
    ``apply`` and notation use (:meth:`require_turn`)."""

    no_winner_label: ClassVar[str] = "games without a winner"
    """How ``tabula simulate`` labels games that ended without a winner."""

    rules_version: ClassVar[int] = 1
    """The version of the rules this code plays (``games.core.Game.rules_version``): raised by
    a release after which logs or snapshots stored under the old rules may no longer replay."""

    effects: ClassVar[Effects[Any] | None] = None
    """The game's card effects by card id (games.core.effects), for a game that keeps its
    cards' effects in a registry; ``None`` (the default) otherwise."""

    def card_ids(self) -> frozenset[str]:
        """Every card id of the game's data that ``effects`` must serve, each exactly once
        (tests/games/core/test_card_effects.py). Default: none."""
        return frozenset()

    def seat_name(self, s: Any, seat: Seat) -> str | None:
        """The nation or faction ``seat`` plays in ``s``, for messages; ``None`` (the
        default) when the game has no such name or it is not chosen yet."""
        return None

    def seat_label(self, s: Any, seat: Seat) -> str:
        """``seat_name``, or "seat N" (1-based) when there is none."""
        return self.seat_name(s, seat) or f"seat {seat + 1}"

    phase_word: ClassVar[str] = "phase"
    """What the rule text calls the span :meth:`phase_mark` names ("phase"; "round" where
    the game is played in rounds of turns without phases of its own), for "pass for the
    rest of this phase"."""

    def phase_mark(self, s: Any) -> str:
        """A text naming the phase ``s`` is in, from public information only: equal for two
        states of the same phase, different once the phase (or the turn it belongs to, or
        the round) has moved on. The host's "pass for the rest of this phase" lasts while
        the mark stays the same. Default: the state's ``round``, ``turn`` and ``phase``
        (Barbarian Hordes, Roman War, Soul of the Empire); a game without them overrides it."""
        return f"round {s.round}, turn {s.turn}, {s.phase}"

    def option_notes(self, s: Any, seat: Seat) -> dict[str, str]:
        """Short notes the clickable choices of ``seat`` show after a name they contain,
        e.g. a Combat Card's value: ``{"Pilum Volley": "6"}`` reads "Pilum Volley (6)". Only
        what ``seat`` may see. Default: none."""
        return {}

    def seats(self, s: Any) -> tuple[Seat, ...]:
        """Every seat of the game in ``s``. Default: the indices of ``s.players``."""
        return tuple(range(len(s.players)))

    def notation_is_public(self, s: Any, seat: Seat, a: Any) -> bool:
        """Whether everyone may read ``a`` as typed. Default ``False``: its player sees
        the notation and the others learn what happened from the public events (an
        action may name a card kept in hand or laid face down)."""
        return False

    def why_not(self, s: Any, seat: Seat, verb: str) -> str | None:
        """The rule that keeps actions of kind ``verb`` (an action's ``kind``) out for
        ``seat`` now, for a refusal ("the Tracks are gone"); ``None`` (the default) when
        the game has no reason more precise than the step asked now
        (games.core.refusal.cannot)."""
        return None

    def not_offered(self, s: Any, seat: Seat) -> list[str]:
        """Lines ``"<verb>: <why>"`` for the asked ``seat`` alone, on what its prompt names
        but the rules do not offer it now (the host shows them under "You are asked");
        ``[]`` (the default) when there is nothing to say."""
        return []

    def acted_note(self, s: Any, seat: Seat, action: Any, typed: str | None) -> str | None:
        """A line for ``seat`` alone on what ``action``, legal in ``s``, does when its words
        may not say so (``typed``: the text the player typed, None for a button): a word read
        as another ("pass" that means done), a phase ended with dice unspent. The host shows it
        with the action's reply; ``None`` (the default) when there is nothing to add."""
        return None

    def sides(self, s: Any, players: int) -> list[int]:
        """The side of each of the ``players`` seats, for results and ratings: seats on one
        side win or lose together. Default: every seat is its own side."""
        return list(range(players))

    def summary(self, view: BaseModel) -> str:
        """The board as plain text (terminal, logs). Default: the View's repr."""
        return str(view)

    def hand_text(self, view: BaseModel) -> str:
        """A seat's hand as plain text. Default: the View's repr."""
        return str(view)

    # ------------------------------------------------------------ hidden information

    def perturb_hidden(self, s: Any, keep: frozenset[Seat] | None, rand: random.Random) -> Any:
        """A state that no seat of ``keep`` can tell apart from ``s`` (``keep=None``: no
        seat at all), with what they cannot see drawn again with ``rand``: undrawn
        decks shuffled, other hands redealt, face-down cards exchanged
        (games.core.secrets). The default, for a game without hidden information, is
        ``s`` itself; every game with hands, decks or face-down cards overrides it."""
        return s

    def sealed(self, s: Any) -> frozenset[Seat]:
        """The seats whose choice in ``s`` is made and kept face down until the others
        have chosen (a war commitment, a Combat Card chosen in secret, a secret
        discard). A step after which another seat's sealed choice is no longer sealed
        reveals it (``games.core.secrets.derive_reveals``). Default: none."""
        return frozenset()

    def reveals(
        self, before: Any, seat: Seat, action: Any, step: Step[Any], rng_for: Callable[[], Rng], drew: bool
    ) -> bool:
        """Whether ``action`` by ``seat``, applied to ``before`` and giving ``step``,
        revealed information hidden from ``seat`` before (dice, deck order, other hands,
        face-down cards): the host refuses an undo past it without the others' consent.
        ``rng_for()`` gives a fresh copy of the step's Rng; ``drew`` says whether the step
        drew from it. The default derives it by perturbation
        (``games.core.secrets.derive_reveals``). An override must count what
        ``games.core.secrets.evident_reveals`` finds as revealing: the host stores that
        much with the action and asks this hook only when an undo needs the verdict."""
        return derive_reveals(self, before, seat, action, step, rng_for, drew)

    def require_turn(self, s: Any, seat: Seat) -> dict[Seat, Prompt]:
        """The prompts of ``s`` when ``seat`` is among the seats asked.

        Raises
        ------
        GameOverError
            The game is over.
        NotYourTurnError
            ``seat`` is not asked now; the message names the seats that are.
        """
        prompts = dict(self.to_act(s))  # type: ignore[attr-defined]
        if not prompts and self.outcome(s) is not None:  # type: ignore[attr-defined]
            raise GameOverError("The game is over; no more actions are accepted.")
        if seat not in prompts:
            waiting = list_words([self.seat_label(s, x) for x in sorted(prompts)])
            raise NotYourTurnError(f"It is not your turn to act; waiting for {waiting}.")
        return prompts


class NotationGame(GameDefaults):
    """The notation and JSON methods of the Game protocol, delegated to the game's
    ``notation`` module (with ``parse``, ``format_action``, ``complete``) and its
    Action union. A game class sets ``notation``, ``action_adapter``, ``State`` and
    ``title``. It inherits the explain hook (games.core.explain.Explainable)."""

    notation: ClassVar[ModuleType]
    action_adapter: ClassVar[TypeAdapter[Any]]
    State: ClassVar[type[BaseModel]]
    title: ClassVar[str]

    def parse_action(self, s: Any, seat: Seat, text: str) -> Any:
        """Read ``text`` in the game's notation; raises the GameError family."""
        return self.notation.parse(self, s, seat, text)

    def format_action(self, s: Any, a: Any) -> str:
        """``a`` in the notation; ``parse_action(format_action(a)) == a`` when legal."""
        return self.notation.format_action(self, s, a)

    def complete(self, s: Any, seat: Seat, prefix: str) -> list[str]:
        """Autocomplete: legal actions in notation matching ``prefix``."""
        return list(self.notation.complete(self, s, seat, prefix))

    def action_from_json(self, data: Any) -> Any:
        """An action from its JSON form. Raises InvalidNotationError when it is not one."""
        try:
            return self.action_adapter.validate_python(data)
        except ValidationError as e:
            raise InvalidNotationError(f"Not a {self.title} action: {e.errors()[0]['msg']}.") from None

    def state_from_json(self, data: Any) -> Any:
        """A state from its JSON form (``State.model_dump(mode="json")``)."""
        return self.State.model_validate(data)
