"""How an action reads to each viewer (bot.host.voice; ARCHITECTURE.md, trust invariant 1):
its notation for its own seat and for everyone when public, otherwise "a secret choice" and
the first event the viewer may see."""

from __future__ import annotations

from bot.host.voice import MAX_EVENT_CHARS, SECRET_CHOICE, action_for, notation_for, shows_notation
from storage import ActionRecord, EventRecord


def row(*events: EventRecord, secret: bool = True, seat: int | None = 1) -> ActionRecord:
    return ActionRecord(seq=3, seat=seat, notation="support Huns with 3 armies", action=None,
                        events=events, secret=secret)


def event(text: str, visible_to: tuple[int, ...] | None = None) -> EventRecord:
    return EventRecord(kind="x", visible_to=visible_to, text=text)


def test_a_public_action_reads_as_typed_to_everyone():
    r = row(secret=False)
    for viewer in (None, 0, 1, 2):
        assert shows_notation(r, viewer) and notation_for(r, viewer) == r.notation
        assert action_for(r, viewer) == "'support Huns with 3 armies'"


def test_a_secret_action_reads_as_typed_to_its_own_seat_only():
    r = row(event("Huns committed in secret"))
    assert shows_notation(r, 1) and action_for(r, 1) == "'support Huns with 3 armies'"
    for viewer in (None, 0, 2):
        assert not shows_notation(r, viewer) and notation_for(r, viewer) is None
        assert action_for(r, viewer) == "a secret choice (Huns committed in secret)"
    # seat 0 is a seat, not "no viewer": a setup row without a seat shows seat 0 nothing
    assert not shows_notation(row(seat=None), None) and not shows_notation(row(seat=0), 1)
    assert shows_notation(row(seat=0), 0)


def test_others_read_the_first_event_they_may_see_or_only_a_secret_choice():
    r = row(event("   "), event("You chose Huns", (1,)), event("  Seat 2 chose  "), event("later"))
    assert action_for(r, 0) == "a secret choice (Seat 2 chose)"
    assert action_for(r, None) == "a secret choice (Seat 2 chose)"
    hidden = row(event("You chose Huns", (1,)))
    assert action_for(hidden, 0) == SECRET_CHOICE == "a secret choice"
    assert action_for(row(), None) == SECRET_CHOICE


def test_a_long_event_is_cut_to_its_cap_with_an_ellipsis():
    at_cap = "x" * MAX_EVENT_CHARS
    assert MAX_EVENT_CHARS == 160
    assert action_for(row(event(at_cap)), 0) == f"a secret choice ({at_cap})"
    long = "word " * 40
    shown = action_for(row(event(long)), 0)
    inner = shown.removeprefix("a secret choice (").removesuffix(")")
    assert inner == ("word " * 40)[: MAX_EVENT_CHARS - 1].rstrip() + "…" and len(inner) <= MAX_EVENT_CHARS
    over = "y" * (MAX_EVENT_CHARS + 1)
    assert action_for(row(event(over)), 0) == f"a secret choice ({'y' * (MAX_EVENT_CHARS - 1)}…)"
