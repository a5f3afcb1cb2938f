"""games.core.memo.last_state: the last state's answer is reused only for that same state
object and the same arguments, and a list answer is handed out as a fresh copy."""

from __future__ import annotations

from games.core.memo import last_state


class Counting:
    def __init__(self) -> None:
        self.calls = 0

    @last_state
    def legal(self, s: object, seat: int) -> list[int]:
        self.calls += 1
        return [seat, id(s) % 7]


def test_same_state_and_arguments_reuse_the_answer() -> None:
    g, s = Counting(), object()
    first = g.legal(s, 1)
    first.append(99)  # the caller's copy: the remembered answer is not changed
    assert g.legal(s, 1) == [1, id(s) % 7] and g.calls == 1


def test_another_state_seat_or_owner_is_computed_again() -> None:
    g, s, t = Counting(), object(), object()
    g.legal(s, 1)
    g.legal(s, 2)
    assert g.calls == 2
    g.legal(t, 2)  # an equal-looking but different state object
    assert g.calls == 3
    h = Counting()
    h.legal(t, 2)
    assert h.calls == 1 and g.calls == 3


def test_counts_tell_asked_and_computed() -> None:
    from games.core import memo

    memo.reset_counts()
    g, s, t = Counting(), object(), object()
    g.legal(s, 1)
    g.legal(s, 1)
    g.legal(s, 1)
    g.legal(t, 1)
    name = f"{__name__}.Counting.legal"
    assert memo.counts() == {name: (4, 2)}
    memo.reset_counts()
    assert memo.counts() == {}


class Viewing:
    def __init__(self) -> None:
        self.calls: list[tuple[object, int | None]] = []

    def view(self, s: object, viewer: int | None) -> tuple[object, int | None]:
        self.calls.append((s, viewer))
        return (s, viewer)


def test_views_of_the_last_state_are_computed_once_per_viewer() -> None:
    """memo.view: the reveals check and the host's reply share the views of an action's state."""
    from games.core import memo

    g, s, t = Viewing(), object(), object()
    assert memo.view(g, s, 0) is memo.view(g, s, 0) and memo.view(g, s, None) == (s, None)
    assert g.calls == [(s, 0), (s, None)]
    assert memo.view(g, t, 0) == (t, 0) and memo.view(g, s, 0) == (s, 0)  # another state: computed again
    assert g.calls == [(s, 0), (s, None), (t, 0), (s, 0)]
    assert memo.view(Viewing(), s, 0) == (s, 0)  # another game: its own view
