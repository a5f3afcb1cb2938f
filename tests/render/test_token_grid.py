"""Where a map's tokens may go: the grid of places inside a territory and their clearance,
measured to the nearby edges only, are the numbers measured to every edge (render.map)."""

from __future__ import annotations

import numpy as np
import pytest

from render import map as rm
from render import promised_land as pl
from render import soul_of_the_empire as soul


def _every_edge(m: rm.MapData, width: int, node_id: str) -> tuple[np.ndarray, np.ndarray]:
    """The clearance measured to every edge of the territory (the reference)."""
    g = rm.Geometry(m, width)
    node = m.node(node_id)
    rings = [np.array([g.pt(x, y) for x, y in ring], dtype=float) for ring in node.parts]
    if not rings:
        return np.zeros((0, 2)), np.zeros(0)
    allp = np.concatenate(rings)
    (x0, y0), (x1, y1) = allp.min(axis=0), allp.max(axis=0)
    xs, ys = np.meshgrid(np.arange(x0, x1, rm.SPOT_STEP), np.arange(y0, y1, rm.SPOT_STEP))
    pts = np.stack([xs.ravel(), ys.ravel()], axis=1)
    inside = np.zeros(len(pts), dtype=bool)
    dist = np.full(len(pts), np.inf)
    for ring in rings:
        a, b = ring, np.roll(ring, -1, axis=0)
        ay, by = a[:, 1][None, :], b[:, 1][None, :]
        py, px = pts[:, 1][:, None], pts[:, 0][:, None]
        crosses = (ay > py) != (by > py)
        with np.errstate(divide="ignore", invalid="ignore"):
            xi = a[:, 0][None, :] + (py - ay) * (b[:, 0] - a[:, 0])[None, :] / (by - ay)
        inside ^= (crosses & (px < xi)).sum(axis=1) % 2 == 1
        dist = np.minimum(dist, rm._distance(pts, a, b))
    pts, dist = pts[inside], dist[inside]
    for river in m.geography.rivers if m.geography else ():
        for line in river.lines:
            seg = np.array([g.pt(x, y) for x, y in line], dtype=float)
            near = (
                (seg[:, 0] > x0 - 60) & (seg[:, 0] < x1 + 60) & (seg[:, 1] > y0 - 60) & (seg[:, 1] < y1 + 60)
            )
            if len(seg) > 1 and near.any():
                dist = np.minimum(dist, rm._distance(pts, seg[:-1], seg[1:]))
    return pts, dist


@pytest.mark.parametrize(
    ("board", "width", "every"), [(pl, pl.MAP_WIDTH, 1), (soul, 1600, 4)], ids=["promised-land", "soul"]
)
def test_token_places_and_clearances_are_those_measured_to_every_edge(board, width: int, every: int) -> None:
    """The same grid points, the same clearances up to CLEARANCE_KEPT, more than it where the
    reference finds more (every territory of Promised Land, every fourth of Soul of the Empire)."""
    m = board.map_data()
    for node in m.nodes[::every]:
        pts, clear = rm._grid_inside(m, width, node.id)
        want_pts, want = _every_edge(m, width, node.id)
        assert pts.shape == want_pts.shape and (pts == want_pts).all(), node.id
        near = want <= rm.CLEARANCE_KEPT
        assert (clear[near] == want[near]).all(), node.id
        assert (clear[~near] > rm.CLEARANCE_KEPT).all(), node.id
