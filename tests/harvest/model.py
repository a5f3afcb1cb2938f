"""Harvest's State, actions, events and View (immutable pydantic models)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, TypeAdapter

from games.core import Event, Model, Seat


class Options(Model):
    """``target``: the grain that wins (rule 5)."""

    target: int = Field(8, ge=3, le=100)


class State(Model):
    """A game of Harvest. ``refill``: the seat on turn still has to draw (rule 2);
    ``raid``: the seat that played a Raid, while the next seat answers it (rule 4)."""

    target: int
    grain: tuple[int, ...]
    hands: tuple[tuple[str, ...], ...]
    deck: tuple[str, ...]
    discard: tuple[str, ...] = ()
    turn: Seat
    refill: bool = True
    raid: Seat | None = None
    winner: Seat | None = None

    def next_seat(self, seat: Seat) -> Seat:
        """The seat after ``seat`` in turn order."""
        return (seat + 1) % len(self.grain)


class Gather(Model):
    kind: Literal["gather"] = "gather"


class Play(Model):
    kind: Literal["play"] = "play"
    card: str


class Block(Model):
    kind: Literal["block"] = "block"


class Pass(Model):
    kind: Literal["pass"] = "pass"


Action = Annotated[Gather | Play | Block | Pass, Field(discriminator="kind")]
ACTION: TypeAdapter[Action] = TypeAdapter(Action)


class Said(Event):
    """A line of the game's story (public unless ``visible_to``)."""

    kind: Literal["said"] = "said"
    text: str

    def describe(self) -> str:
        return self.text


class View(Model):
    """What ``viewer`` sees: every seat's grain and hand size, its own hand only."""

    game: Literal["harvest"] = "harvest"
    viewer: Seat | None
    target: int
    grain: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    hand: tuple[str, ...] | None
    deck_size: int
    discard_top: str | None
    turn: Seat
    raid: Seat | None
    winner: Seat | None
