"""Shared value types of the game contract (ARCHITECTURE.md, "The game contract").

All are immutable pydantic models (``frozen=True, extra="forbid"``). A ``Seat`` is
the zero-based index of a player in the session's seat list; the host maps seats
to Discord users, the games never see users.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import lru_cache
from typing import Any, Generic, Literal, Self, TypeVar

from pydantic import BaseModel, ConfigDict

Seat = int
"""Zero-based seat number: 0 .. players - 1."""


_set = object.__setattr__


class Model(BaseModel):
    """Base of every State, Action, Event and View: frozen, no unknown fields."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    def model_copy(self, *, update: Mapping[str, Any] | None = None, deep: bool = False) -> Self:
        """pydantic's ``model_copy``, the shallow copy made directly: the field values and
        the set fields copied, ``update`` laid over them (not validated, as pydantic's own).
        Every change of state in ``apply`` is one, and pydantic's goes through the copy
        module for each part. A deep copy, and a model with private attributes or extra
        fields, goes to pydantic's."""
        if deep or self.__private_attributes__ or self.model_config.get("extra") == "allow":
            return super().model_copy(update=update, deep=deep)
        cls = type(self)
        m = cls.__new__(cls)
        values = self.__dict__.copy()
        fields_set = self.__pydantic_fields_set__.copy()
        if update:
            values.update(update)
            fields_set.update(update)
        _set(m, "__dict__", values)
        _set(m, "__pydantic_extra__", None)
        _set(m, "__pydantic_fields_set__", fields_set)
        _set(m, "__pydantic_private__", None)
        return m


M = TypeVar("M", bound=Model)


def made_once(cls: type[M], maxsize: int = 4096) -> Callable[..., M]:
    """``cls(**fields)``, one object for each distinct set of fields (the latest ``maxsize``
    kept): the legal actions of a game's states name the same few thousand actions over
    and over, and a model is frozen, so one object may serve them all instead of a
    validation each time. Fields are given by keyword, with hashable values."""

    @lru_cache(maxsize=maxsize)
    def make(**fields: Any) -> M:
        return cls(**fields)

    make.__doc__ = f"A shared {cls.__name__} (games.core.model.made_once)."
    return make


PromptKind = Literal["turn", "respond", "secret"]


class Prompt(Model):
    """What a seat is being asked for now.

    ``kind`` is ``turn`` (must act), ``respond`` (may answer or pass: a response
    window the host may close on a deadline by passing for the seat), or ``secret``
    (a simultaneous hidden choice: other seats see only that the choice was made).
    ``text`` is a short player-facing description ("Your Conquest Phase: attack a
    neighbour or say done").
    """

    kind: PromptKind
    text: str


class Event(Model):
    """Something that happened. ``visible_to`` None means public; otherwise only
    those seats (and never spectators) may see it. Subclasses add a ``kind``
    literal and their fields, and implement ``describe``."""

    visible_to: tuple[Seat, ...] | None = None

    def describe(self) -> str:  # pragma: no cover - every subclass overrides
        return type(self).__name__

    def visible(self, viewer: Seat | None) -> bool:
        """Whether ``viewer`` (None = spectator) may see this event."""
        return self.visible_to is None or (viewer is not None and viewer in self.visible_to)


S = TypeVar("S")


class Step(Model, Generic[S]):
    """The result of ``apply``: the new state and the events, in order."""

    model_config = ConfigDict(frozen=True, extra="forbid", arbitrary_types_allowed=True)

    state: S
    events: tuple[Event, ...] = ()


class Outcome(Model):
    """How a game ended. ``winners`` empty means nobody won (a draw or abandon)."""

    winners: tuple[Seat, ...]
    reason: str


def visible_events(events: tuple[Event, ...] | list[Event], viewer: Seat | None) -> list[Event]:
    """The events ``viewer`` may see (None = spectator)."""
    return [e for e in events if e.visible(viewer)]


class TextEvent(Event):
    """An event whose description is its ``text``, written when it happened; subclasses
    add a ``kind`` literal and any structured fields."""

    text: str

    def describe(self) -> str:
        return self.text


class Note(TextEvent):
    """A line of a game's story that needs no structure (public unless ``visible_to``)."""

    kind: Literal["note"] = "note"


class Done(Model):
    """Finish the current phase or step."""

    kind: Literal["done"] = "done"


class Pass(Model):
    """Decline to respond, or to do anything more now."""

    kind: Literal["pass"] = "pass"
