"""The heuristic agent's look-ahead without a full ``apply`` where a cheaper exact answer
exists. A legal Main Phase move (of the faction's own units or, for the Jews, Gray units) or
recruit changes nothing the agent's evaluation reads but the board: its die goes to Spent,
the recruited units leave the supply, a Promised Land or Gospel window may open, Grace may be
used, and none of that counts in the evaluation. So the board after it is worked out
directly, and the full ``apply`` is left to every other action and to a move or recruit
after which some faction has won (the game would be over).

tests/games/soul_of_the_empire/test_soul_of_the_empire_agent.py checks over the positions of
whole games that every such action is accepted by ``apply``, leaves the board worked out
here and the same evaluation.
"""

from __future__ import annotations

from typing import Any

from games.core.memo import last_state

from .model import Move, Recruit, State


def _add(board: dict[str, dict[str, int]], t: str, faction: str, n: int) -> None:
    """``n`` (may be negative) units of ``faction`` more in ``t``; an emptied entry goes, as
    the rules' own board keeps none."""
    cell = dict(board.get(t, ()))
    left = cell.get(faction, 0) + n
    if left:
        cell[faction] = left
    else:
        del cell[faction]
    if cell:
        board[t] = cell
    else:
        del board[t]


def after(g: Any, s: State, f: str, a: Any) -> State | None:
    """``s`` with the board as ``a``, a legal Main Phase action of faction ``f``, leaves it
    when ``a`` is a Move or a Recruit, every other field as in ``s``; None where the full
    ``apply`` must decide: another kind of action, or a game won by it."""
    kind = type(a)
    if kind is Move:
        board = dict(s.board)
        mover = "gray" if a.gray else f
        for p in a.paths:
            _add(board, p.route[0], mover, -p.count)
            _add(board, p.route[-1], mover, p.count)
    elif kind is Recruit:
        board = dict(s.board)
        for t, k in a.placements:
            _add(board, t, f, k)
    else:
        return None
    out = s.model_copy(update={"board": board})
    # only the board differs from s: a faction whose victory reads none of the territories
    # changed wins in out exactly when it wins in s (queries.victory_territories)
    changed = touched(a)
    for x, reads, wins in _victories(g, s):
        if reads.isdisjoint(changed):
            if wins:
                return None
        elif g.faction_wins(out, x) is not None:
            return None
    return out


@last_state
def _victories(g: Any, s: State) -> tuple[tuple[str, frozenset[str], bool], ...]:
    """For each faction of ``s.order``: the territories its victory reads
    (``victory_territories``) and whether it wins in ``s`` (``faction_wins``), remembered
    for the last state asked about: the look-ahead asks for every candidate of one position."""
    return tuple((x, g.victory_territories(x), g.faction_wins(s, x) is not None) for x in s.order)


def units(f: str, a: Move | Recruit, before: dict[str, int]) -> dict[str, int]:
    """The units on the map by faction (``queries.on_board``) after ``a`` of faction ``f``,
    from ``before`` (those of the position it is taken in, for some factions): a Move
    changes no count (units change territories), a Recruit adds its units to ``f``."""
    if type(a) is Move:
        return before
    out = dict(before)
    out[f] = out.get(f, 0) + sum(k for _, k in a.placements)
    return out


def touched(a: Move | Recruit) -> frozenset[str]:
    """The territories whose units ``after`` changes for ``a``."""
    if type(a) is Move:
        return frozenset([t for p in a.paths for t in (p.route[0], p.route[-1])])
    return frozenset([t for t, _ in a.placements])
