"""Soul of the Empire's route queries: where a faction's units may move and the shortest
routes they take (rule text: shared/seeds/000, Move Units and its Limitation; Promised
Land's redirect). Part of :class:`games.soul_of_the_empire.queries.Queries`, which the game
object inherits; changes nothing."""

from __future__ import annotations

from typing import Any

from .data import Data
from .model import State, Window

_ROUTES: dict[tuple[str, int, frozenset[str]], dict[str, tuple[str, ...]]] = {}
"""``reach``'s answers by (start, limit, stuck territories), for the one map of the game."""
_ROUTES_KEPT = 20_000  # answers kept before the cache starts afresh (a few MB)


class RouteQueries:
    """Movement queries of :class:`~games.soul_of_the_empire.queries.Queries` (which
    provides ``occupants`` and ``partner``)."""

    data: Data
    _zone: frozenset[str]
    occupants: Any
    partner: Any

    def blocked_leave(self, s: State, t: str, faction: str) -> bool:
        """Whether ``faction``'s units in ``t`` may not move out (Move Units, Limitation)."""
        occ = self.occupants(s, t) - {faction}
        if faction == "coalition":
            return any(not self.partner(s, faction, o) for o in occ)
        return "coalition" in occ and not self.partner(s, faction, "coalition")

    def blocked_pass(self, s: State, t: str, faction: str) -> bool:
        """Whether ``faction`` may not move through ``t`` (enter and leave it)."""
        return self.blocked_leave(s, t, faction)

    def stuck(self, s: State, faction: str) -> frozenset[str]:
        """The territories ``faction`` may not move through (``blocked_pass``): only an
        occupied one may be, so each of those is asked once."""
        if faction == "coalition":
            return frozenset(t for t in s.board if self.blocked_pass(s, t, faction))
        if self.partner(s, faction, "coalition"):
            return frozenset()
        # another faction is stopped by Coalition units alone (blocked_leave)
        return frozenset(t for t, cell in s.board.items() if cell.get("coalition", 0) > 0)

    def reach(
        self,
        s: State,
        start: str,
        faction: str,
        limit: int,
        grace: bool = False,
        stuck: frozenset[str] | None = None,
    ) -> dict[str, tuple[str, ...]]:
        """Shortest legal routes from ``start`` (ends within ``limit`` steps). ``stuck``:
        ``self.stuck(s, faction)`` when the caller has it (a search from several starts).
        The routes depend on the map, ``start``, ``limit`` and ``stuck`` alone, and the same few
        come back state after state: each is searched once (``_routes``) and the answer is
        shared, not to be changed."""
        if grace:
            stuck = frozenset()
        elif stuck is None:
            stuck = self.stuck(s, faction)
        key = (start, limit, stuck)
        found = _ROUTES.get(key)
        if found is None:
            if len(_ROUTES) >= _ROUTES_KEPT:
                _ROUTES.clear()
            found = _ROUTES[key] = self._routes(start, limit, stuck)
        return found

    def _routes(self, start: str, limit: int, stuck: frozenset[str]) -> dict[str, tuple[str, ...]]:
        """``reach``'s search: breadth first from ``start``, through no territory of ``stuck``."""
        adjacent = self.data.adjacent
        routes = {start: (start,)}
        frontier = [start]
        for _ in range(limit):
            nxt = []
            for t in frontier:
                if t != start and t in stuck:
                    continue
                for u in adjacent[t]:
                    if u not in routes:
                        routes[u] = routes[t] + (u,)
                        nxt.append(u)
            frontier = nxt
        del routes[start]
        return routes

    def redirect_zone(self) -> frozenset[str]:
        """The blue region and the territories adjacent to it (Promised Land); board
        data alone, so computed once."""
        return self._zone

    def redirect_units(self, w: Window) -> dict[str, list[tuple[str, int]]]:
        """Per start territory, one (end, steps) per unit that moved out of the blue region."""
        out: dict[str, list[tuple[str, int]]] = {}
        for p in w.moved:
            out.setdefault(p.route[0], []).extend([(p.route[-1], len(p.route) - 1)] * p.count)
        return out
