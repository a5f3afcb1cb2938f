"""The heuristic agent's evaluation of a Soul of the Empire position for one faction: its
points, its units on the map, its progress on the face-up objectives and, by faction, what
leads to its special victory (the Coalition's markers and regions, Rome's captures and cards,
the Christians' conversions, the Jews' hold on Judea). The agent looks ahead one action and
keeps the best-evaluated (agent.py)."""

from __future__ import annotations

from typing import Any

from .model import State


class Evaluation:
    """How good a position looks for a faction (``value``), with what it needs computed once."""

    def __init__(self) -> None:
        self._dist_cache: dict[str, dict[str, int]] | None = None
        self._reads: dict[tuple[str, str], frozenset[str] | None] = {}
        # (card, faction) -> the faction's objective on the card (data alone)
        self._objective: dict[tuple[str, str], Any] = {}

    def value(
        self,
        g: Any,
        s: State,
        f: str,
        known: dict[str, float] | None = None,
        units: dict[str, int] | None = None,
    ) -> float:
        """How good ``s`` looks for faction ``f`` (higher is better). ``known``: the progress
        (``_progress``) on some of the objectives, already worked out on a position whose
        units in the territories they read are those of ``s`` (``unchanged``). ``units``: the
        units of ``s`` on the map (``queries.on_board``) of ``f`` and, for the Jews, of the
        Gray, when the caller has them (``map_units``)."""
        fs = s.factions[f]
        if units is None:
            units = self.map_units(g, s, f)
        v = fs.points * 100.0 + units[f] * 1.0
        if f == "jews":
            v += units["gray"] * 0.5
        objective = self._objective
        for c in s.objectives:
            o = objective.get((c, f), False)
            if o is False:
                o = objective[(c, f)] = g.data.objectives[c].for_faction(f)
            if o is None:
                continue
            # Rome's "Score in Start Phase" objectives wait a round for scoring, and any
            # faction scoring the card first takes it: they are worth less to chase
            p = known.get(c) if known else None
            if p is None:
                p = self._progress(g, s, f, c)
            v += p * o.points * (8 if o.score_in_start else 12)
        if f == "rome":
            v += fs.capture_track * 4
            # Rome's Power Cards capture, tax and crush: a card in hand or bought is worth a die
            v += min(3, len(fs.hand) + (s.bought if s.active == f else 0)) * 5 + len(fs.durable) * 4
        elif f == "christians":
            v += fs.converted * 4
            v += sum(3 for t in ("rome", "jerusalem", "germania") if g.units(s, t, f))
        elif f == "coalition":
            v += self._coalition_value(g, s)
        elif f == "jews":
            for t in g.data.region_territories("blue"):
                v += 6 if g.sole(s, t, f) else min(g.side_units(s, t, f), 4)
        return v

    def map_units(self, g: Any, s: State, f: str) -> dict[str, int]:
        """The units on the map (``queries.on_board``) that ``value`` reads for ``f``: its own,
        and for the Jews the Gray units too."""
        if f == "jews":
            return {f: g.on_board(s, f), "gray": g.on_board(s, "gray")}
        return {f: g.on_board(s, f)}

    def unchanged(
        self, g: Any, s: State, f: str, touched: frozenset[str], done: dict[str, float]
    ) -> dict[str, float]:
        """The progress of ``f`` on each objective of ``s`` that reads none of the
        ``touched`` territories (queries.objective_territories; the partial progress reads
        the same), for ``value`` of a position that differs from ``s`` only in the units
        there: the same computation on the same units gives the same figure. ``done``: the
        figures of ``s`` worked out so far, added to."""
        out = {}
        for c in s.objectives:
            reads = self._reads.get((c, f), False)
            if reads is False:
                # an objective f does not have is not evaluated: as one that reads the map
                mine = g.data.objectives[c].for_faction(f) is not None
                reads = self._reads[(c, f)] = g.objective_territories(c, f) if mine else None
            if reads is None or reads & touched:
                continue
            p = done.get(c)
            if p is None:
                p = done[c] = self._progress(g, s, f, c)
            out[c] = p
        return out

    def _dist(self, g: Any) -> dict[str, dict[str, int]]:
        """Steps between territories (adjacency only), computed once per board."""
        if self._dist_cache is None:
            adj = g.data.adjacent
            out: dict[str, dict[str, int]] = {}
            for t0 in adj:
                d = {t0: 0}
                frontier = [t0]
                while frontier:
                    nxt = []
                    for t in frontier:
                        for u in adj[t]:
                            if u not in d:
                                d[u] = d[t] + 1
                                nxt.append(u)
                    frontier = nxt
                out[t0] = d
            self._dist_cache = out
        return self._dist_cache

    def _coalition_value(self, g: Any, s: State) -> float:
        """The Coalition scores Objective Point Markers (sole occupancy of the marker's
        territory in its End Phase, with a die on it) and regions (sole occupancy of
        every territory of a region); it wins outright holding Rome and Italia alone."""
        f = "coalition"
        fs = s.factions[f]
        dist = self._dist(g)
        v = fs.rage * 3.0
        board = s.board
        mine = {t: cell[f] for t, cell in board.items() if cell.get(f)}  # the territories with its units
        alone = {t for t in mine if g.sole(s, t, f)}  # those it holds alone: its units there may move
        claimed = {d.on for d in fs.dice if d.place == "marker"}
        plans = []
        for m in s.markers:
            t = m.territory
            if not t:
                continue
            worth = 2.0 if m.owner in fs.markers else 1.0  # a second marker of a faction
            n = mine.get(t, 0)
            if t in alone:
                v += (22 + (14 if t in claimed else 0)) * worth
                continue
            # the force the Coalition has there and next to it, against the defenders
            defenders = sum(k for o, k in board.get(t, {}).items() if o != f and k > 0)
            near1 = near2 = 0
            for x in alone:
                steps = dist[x][t]
                if steps == 1:
                    near1 += mine[x]
                elif steps == 2:
                    near2 += mine[x]
            force = min(n, 6) * 2.0 + min(near1, 6) * 1.0 + min(near2, 6) * 0.4
            if n:
                edge = n + fs.rage - defenders
                force += 6 + (4 if t in claimed else 0) + (6 if edge >= 1 else 2 * edge)
            plans.append(force * worth / (1 + 0.15 * defenders))
        plans.sort(reverse=True)
        v += sum(p * (1.0 if i == 0 else 0.3) for i, p in enumerate(plans))
        for rid, region in g.data.regions.items():
            if not region.empire or rid in fs.regions_scored:
                continue
            ts = g.data.region_territories(rid)
            held = sum(1 for t in ts if t in alone)
            if held:
                v += 30.0 * (held / len(ts)) ** 2
        for t in ("rome", "italia"):
            n = mine.get(t, 0)
            if n:
                v += 4 + min(n, 4) * 2 + (12 if t in alone else 0)
        return v

    def _progress(self, g: Any, s: State, f: str, c: str) -> float:
        """0..1: how near ``f`` is to its objective on card ``c``."""
        o = g.data.objectives[c].for_faction(f)
        mine = g.side_counter(s, f)
        if o.kind == "hold":  # objective_met's test, from the same count as the partial figure
            have = [mine(t) for t in o.territories]
            if all(k >= o.n for k in have):
                return 1.0
        elif o.kind in ("region_units", "territories"):  # likewise: met at o.n, else partial
            if o.kind == "region_units":
                count = sum(mine(t) for t in g.data.region_territories(o.region))
            else:
                count = sum(1 for t in s.board if mine(t))
            return 1.0 if count >= o.n else min(1, count / o.n) * 0.8
        elif g.objective_met(s, f, c):
            return 1.0
        if o.kind in ("hold", "share"):
            most = max(o.n, 1)
            have = have if o.kind == "hold" else [mine(t) for t in o.territories]
            return sum(min(k, most) for k in have) / (most * len(o.territories)) * 0.8
        if o.kind == "sole":
            return sum(0.5 if mine(t) else 0 for t in o.territories) / len(o.territories) * 0.8
        return 0.0

