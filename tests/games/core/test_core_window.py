"""Response windows (games.core.window; ARCHITECTURE.md, "Prompts and response windows"):
open while a seat may answer, each seat leaving once, the others asked in turn order after
the seat that opened it."""

from __future__ import annotations

from games.core.window import ResponseWindow, seats_after


def test_a_window_closes_when_every_seat_has_answered():
    w = ResponseWindow(reason="Great Leader was played: negate it?", waiting=(2, 0, 3))
    assert w.is_open()
    w = w.done(0)
    assert w.waiting == (2, 3) and w.is_open() and w.reason.startswith("Great Leader")
    assert w.done(1).waiting == (2, 3)  # a seat not asked changes nothing
    assert ResponseWindow(reason="r", waiting=(2, 0, 3)).done(2).waiting == (0, 3)
    assert not w.done(2).done(3).is_open()


def test_the_others_are_asked_after_the_first_in_turn_order():
    order = (0, 1, 2, 3, 4)
    assert seats_after(order, 2) == (3, 4, 0, 1)
    assert seats_after(order, 0) == (1, 2, 3, 4)
    assert seats_after(order, 4) == (0, 1, 2, 3)
    assert seats_after(order, 2, exclude={4, 0}) == (3, 1)
    assert seats_after((3, 1, 4), 1) == (4, 3)
    assert seats_after(order, 9) == order  # a first seat outside the order: everyone, as ordered
    assert seats_after(order, 9, exclude=frozenset({1})) == (0, 2, 3, 4)
