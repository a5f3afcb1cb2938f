"""A data-driven map board: a map data file plus a per-state overlay -> image.

A game adds a map without drawing code: a TOML file (read with ``tomllib``,
validated by ``MapData``) lists

- ``[[region]]``: id, name, colour ``#RRGGBB`` and a fill ``pattern`` (``none``,
  ``hatch``, ``dots``, ``cross``) — the pattern and the legend's name are the
  second cue beside colour;
- ``[[node]]``: a territory or land (``kind = "land"``) or a sea area
  (``kind = "sea"``): id, name, ``x``/``y`` in map units, optional ``polygon``
  outline (list of [x, y]), ``region``, ``terrain`` marks (``mountain``,
  ``forest``, ``hills``, ``desert``, ``marsh``);
- ``[[edge]]``: adjacency ``a``–``b`` of ``kind`` ``land`` (solid), ``sea``
  (dashed, blue), ``road`` (double) or ``river`` (wavy).

The static layer (sea, lands, regions, terrain, edges, labels placed so they do
not overlap, legend) is composed once per map and width and cached; each state
draws only its ``MapOverlay``: units per faction with counts, markers (cities,
control, revolts...), highlighted nodes, and the header.

Image size (RGB): ``width`` x (header + map scaled to width + legend) pixels,
see ``image_size``; 1600 wide by default.
"""

from __future__ import annotations

import collections
import dataclasses
import functools
import hashlib
import math
import tomllib
from collections.abc import Sequence
from pathlib import Path
from typing import Literal

import numpy as np
from PIL import Image, ImageDraw
from pydantic import BaseModel, ConfigDict, model_validator

from . import draw as dr
from . import theme
from .paint import Draw
from .record import DrawnText, cached_layer, recording
from .record import add as add_texts
from .text import draw_text, face, truncate
from .theme import RGB, SeatStyle


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Region(_Model):
    id: str
    name: str
    colour: str = "#D9D2BF"
    pattern: Literal["none", "hatch", "dots", "cross"] = "none"


class Node(_Model):
    id: str
    name: str
    x: float
    y: float
    kind: Literal["land", "sea"] = "land"
    region: str | None = None
    polygon: tuple[tuple[float, float], ...] | None = None
    parts: tuple[Ring, ...] = ()  # a territory of a geographic map: its land, one ring a part
    terrain: tuple[Literal["mountain", "forest", "hills", "desert", "marsh"], ...] = ()
    authored: bool = False


class Edge(_Model):
    a: str
    b: str
    kind: Literal["land", "sea", "road", "river"] = "land"


Ring = tuple[tuple[float, float], ...]
Line = tuple[tuple[float, float], ...]


class Lake(_Model):
    name: str | None = None
    polygon: Ring
    at: tuple[float, float] | None = None  # where its name is written


class River(_Model):
    name: str
    lines: tuple[Line, ...]


class SeaLink(_Model):
    """A sea link's "dots across water": from the coast of ``a`` to the coast of ``b``."""

    a: str
    b: str
    line: tuple[tuple[float, float], tuple[float, float]]


class WaterLabel(_Model):
    text: str
    at: tuple[float, float]


class Geography(_Model):
    """Real geography under a map's territories (authored by ``tools/author_maps.py``):
    the land masses, lakes, rivers, the sea links' dots, water names, and ``frontier``
    lines (Soul of the Empire's red line). Land not in any territory is outside play."""

    source: str
    land: tuple[Ring, ...]
    lakes: tuple[Lake, ...] = ()
    rivers: tuple[River, ...] = ()
    sea_links: tuple[SeaLink, ...] = ()
    labels: tuple[WaterLabel, ...] = ()
    frontier: tuple[Line, ...] = ()
    frontier_name: str = "frontier"


class MapData(_Model):
    """A map: its size in map units and its regions, nodes and edges."""

    id: str
    title: str
    width: float
    height: float
    land: str = "#E9E0C9"
    sea: str = "#9CC3D9"
    regions: tuple[Region, ...] = ()
    nodes: tuple[Node, ...]
    edges: tuple[Edge, ...] = ()
    geography: Geography | None = None
    # marks explained in the map's legend: a marker kind or "combat" (the ringed territory),
    # with the words the legend gives it
    legend_marks: tuple[tuple[MarkerKind | Literal["combat"], str], ...] = ()

    @model_validator(mode="after")
    def _check_refs(self) -> MapData:
        ids = {n.id for n in self.nodes}
        if len(ids) != len(self.nodes):
            raise ValueError("duplicate node ids")
        regions = {r.id for r in self.regions}
        for n in self.nodes:
            if n.region is not None and n.region not in regions:
                raise ValueError(f"node {n.id!r}: unknown region {n.region!r}")
        for e in self.edges:
            for end in (e.a, e.b):
                if end not in ids:
                    raise ValueError(f"edge {e.a}-{e.b}: unknown node {end!r}")
        return self

    def node(self, node_id: str) -> Node:
        for n in self.nodes:
            if n.id == node_id:
                return n
        raise KeyError(node_id)

    def digest(self) -> str:
        return hashlib.sha256(self.model_dump_json().encode()).hexdigest()[:16]


def load_geography(
    path: Path,
) -> tuple[Geography, dict[str, tuple[tuple[float, float], tuple[Ring, ...]]], float, float]:
    """A map written by ``tools/author_maps.py``: (its geography, territory id -> (anchor,
    parts), width, height in map units). Raises OSError or pydantic's ValidationError."""
    import json

    raw = json.loads(path.read_text(encoding="utf-8"))
    geo = Geography.model_validate(
        {
            k: raw[k]
            for k in ("source", "land", "lakes", "rivers", "sea_links", "labels", "frontier")
            if k in raw
        }
    )
    cells = {
        tid: (tuple(t["anchor"]), tuple(tuple(map(tuple, r)) for r in t["parts"]))
        for tid, t in raw["territories"].items()
    }
    return geo, cells, raw["width"], raw["height"]


def load_token_anchors(path: Path) -> dict[str, tuple[float, float]]:
    """Territory id -> where its tokens gather (map units), for a map authored with a
    ``token_zone`` (``tools/author_maps.py``: the point farthest inside the land near its units,
    clear of them and their name); empty for a map without."""
    import json

    raw = json.loads(path.read_text(encoding="utf-8"))
    return {tid: tuple(t["tokens"]) for tid, t in raw["territories"].items() if "tokens" in t}


def load_map(source: str | Path) -> MapData:
    """A map from TOML text or a ``.toml`` file path. Raises pydantic's
    ValidationError for a malformed map (unknown node or region ids...)."""
    if isinstance(source, Path) or (
        isinstance(source, str) and source.endswith(".toml") and "\n" not in source
    ):
        text = Path(source).read_text(encoding="utf-8")
    else:
        text = str(source)
    raw = tomllib.loads(text)
    raw["regions"] = raw.pop("region", [])
    raw["nodes"] = raw.pop("node", [])
    raw["edges"] = raw.pop("edge", [])
    return MapData.model_validate(raw)


# --------------------------------------------------------------------------- overlay


class Faction(_Model):
    """A side on the map: id, name, and its seat number for colour and shape
    (``theme.seat_style``); ``label`` overrides the number shown in its badge."""

    id: str
    name: str
    seat: int
    label: str | None = None

    @property
    def style(self) -> SeatStyle:
        return theme.seat_style(self.seat, self.label)


class Units(_Model):
    node: str
    faction: str
    count: int


MarkerKind = Literal["city", "capital", "temple", "revolt", "control", "port", "ark"]


class Marker(_Model):
    node: str
    kind: MarkerKind
    faction: str | None = None
    label: str | None = None


class MapOverlay(_Model):
    """One state's drawing on a map: units, markers, highlighted nodes, header."""

    game: str
    round: int | None = None
    phase: str | None = None
    active: str | None = None  # faction id whose turn it is
    factions: tuple[Faction, ...]
    units: tuple[Units, ...] = ()
    markers: tuple[Marker, ...] = ()
    highlight: tuple[str, ...] = ()  # node ids (e.g. a battle)
    note: str | None = None


# --------------------------------------------------------------------------- geometry

HEADER_H = dr.HEADER_HEIGHT
LEGEND_H = 96
PAD = 24
NODE_R = 9


class Geometry:
    """Map units -> pixels for one map at one width."""

    def __init__(self, m: MapData, width: int) -> None:
        self.width = width
        self.scale = (width - 2 * PAD) / m.width
        self.map_h = int(math.ceil(m.height * self.scale))
        self.top = HEADER_H + PAD
        self.height = self.top + self.map_h + PAD + LEGEND_H

    def pt(self, x: float, y: float) -> tuple[float, float]:
        return (PAD + x * self.scale, self.top + y * self.scale)


def image_size(m: MapData, width: int = theme.WIDTH) -> tuple[int, int]:
    """(width, height) in pixels of the board for map ``m``."""
    g = Geometry(m, width)
    return g.width, g.height


def _unit_zone(c: tuple[float, float], half: float = 125) -> dr.Box:
    """The box kept free around a node's centre for its unit tokens (``half`` pixels each
    side, at most 125)."""
    half = min(half, 125)
    return (c[0] - half, c[1] - 66, c[0] + half, c[1] + 22)  # markers above, one row of up to 3 unit chips


def _overlaps(a: dr.Box, b: dr.Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


class _ByIdentity:
    """A map as a cache's key by its identity: a MapData's own hash walks all its shapes (about
    0.3 ms for a geographic map, once per cached call). The cache holds the map through its key,
    so the identity of a map in the cache is never that of another."""

    __slots__ = ("m",)

    def __init__(self, m: MapData) -> None:
        self.m = m

    def __hash__(self) -> int:
        return id(self.m)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _ByIdentity) and other.m is self.m


def layout_labels(m: MapData, width: int = theme.WIDTH) -> dict[str, tuple[dr.Box, str, int]]:
    """Place every node's label: node id -> (box in pixels, text drawn, font size); remembered
    per map and width (see ``_layout_labels``)."""
    return _layout_labels(_ByIdentity(m), width)


@functools.lru_cache(maxsize=16)
def _layout_labels(key: _ByIdentity, width: int) -> dict[str, tuple[dr.Box, str, int]]:
    """Place every node's label: node id -> (box in pixels, text drawn, font size).

    Greedy: for each node (lands first, then seas) try positions below, above,
    right, left and diagonal of the unit zone, and take the first that overlaps
    no label placed before, no unit zone and no node dot, staying on the map (and,
    on a geographic map, inside the node's own territory); if none fits, the text is
    shortened (on a geographic map first set smaller) and tried again, and as a last resort
    the least-overlapping place is used.
    """
    m = key.m
    g = Geometry(m, width)
    f = face(18, "bold")
    small = face(15, "bold") if m.geography else f
    smaller = face(13, "bold") if m.geography else f
    centres = {n.id: g.pt(n.x, n.y) for n in m.nodes}
    room = chip_room(m, width)
    obstacles = {nid: _unit_zone(c, room[nid] if m.geography else 125) for nid, c in centres.items()}
    shapes = {n.id: [[g.pt(x, y) for x, y in ring] for ring in n.parts] for n in m.nodes if n.parts}
    placed: dict[str, tuple[dr.Box, str, int]] = {}
    bounds = (PAD, g.top, width - PAD, g.top + g.map_h)
    for n in sorted(m.nodes, key=lambda n: (n.kind == "sea", n.y, n.x)):
        cx, cy = centres[n.id]
        best: tuple[float, dr.Box, str, int] | None = None
        own = shapes.get(n.id)
        zone = obstacles[n.id]
        hw = (zone[2] - zone[0]) / 2
        tries = [(n.name, f), (n.name, small), (n.name, smaller)]
        tries += [(truncate(n.name, small, 150), small), (truncate(n.name, small, 100), small)]
        for text, f in tries:
            w, h = f.length(text) + 8, f.line_height + 2
            cands = [
                (cx - w / 2, cy + 24), (cx - w / 2, cy - 68 - h), (cx + hw + 2, cy - h / 2), (cx - hw - 2 - w, cy - h / 2),
                (cx + 40, cy + 24), (cx - 40 - w, cy + 24), (cx + 60, cy - 68 - h), (cx - 60 - w, cy - 68 - h),
                (cx - w / 2, cy + 26 + h), (cx - w / 2, cy - 70 - 2 * h),
                (cx - w / 4, cy + 24), (cx - 3 * w / 4, cy + 24), (cx - w, cy + 24), (cx, cy + 24),
            ]  # fmt: skip
            for x, y in cands:
                box = (x, y, x + w, y + h)
                inside = (
                    bounds[0] <= box[0]
                    and box[2] <= bounds[2]
                    and bounds[1] <= box[1]
                    and box[3] <= bounds[3]
                )
                hits = sum(_overlaps(box, o) for k, o in obstacles.items() if k != n.id or not own)
                if own:  # on a geographic map another territory's units weigh more than a corner
                    hits *= 3
                hits += 100 * sum(_overlaps(box, b) for b, _, _ in placed.values())
                score = hits + (0 if inside else 10) + (1.5 if text != n.name else 0) + (18 - f.size) * 0.3
                if own:  # on a geographic map: the name's middle inside its territory, and its corners
                    mid = ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)
                    corners = ((box[0], box[1]), (box[2], box[1]), (box[0], box[3]), (box[2], box[3]))
                    score += 3 * (not any(_inside(mid, ring) for ring in own))
                    score += 0.3 * sum(not any(_inside(c, ring) for ring in own) for c in corners)
                if score == 0:
                    best = (0, box, text, f.size)
                    break
                if best is None or score < best[0]:
                    best = (score, box, text, f.size)
            if best and best[0] == 0:
                break
        assert best is not None
        placed[n.id] = (best[1], best[2], best[3])
    return placed


# --------------------------------------------------------------------------- static layer


def _pattern(
    d: ImageDraw.ImageDraw, poly: Sequence[tuple[float, float]], kind: str, colour: RGB, step: int = 22
) -> None:
    """Fill-pattern marks inside ``poly`` (hatch lines, dots or crosses)."""
    if kind == "none" or len(poly) < 3:
        return
    xs, ys = [p[0] for p in poly], [p[1] for p in poly]
    x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
    step = 16
    for yy in range(int(y0), int(y1) + 1, step):
        for xx in range(int(x0), int(x1) + 1, step):
            if not _inside((xx, yy), poly):
                continue
            if kind == "hatch":
                d.line((xx - 5, yy + 5, xx + 5, yy - 5), fill=colour, width=2)
            elif kind == "dots":
                d.ellipse((xx - 2, yy - 2, xx + 2, yy + 2), fill=colour)
            elif kind == "cross":
                d.line((xx - 4, yy, xx + 4, yy), fill=colour, width=2)
                d.line((xx, yy - 4, xx, yy + 4), fill=colour, width=2)


def _inside(p: tuple[float, float], poly: Sequence[tuple[float, float]]) -> bool:
    x, y = p
    inside = False
    for (x0, y0), (x1, y1) in zip(poly, list(poly[1:]) + [poly[0]], strict=True):
        if (y0 > y) != (y1 > y) and x < x0 + (y - y0) * (x1 - x0) / ((y1 - y0) or 1e-9):
            inside = not inside
    return inside


def _terrain(d: ImageDraw.ImageDraw, kind: str, c: tuple[float, float]) -> None:
    x, y = c
    ink = theme.INK_MUTED
    if kind == "mountain":
        for dx in (-12, 6):
            d.polygon(
                [(x + dx - 9, y + 6), (x + dx, y - 10), (x + dx + 9, y + 6)],
                outline=ink,
                fill=(200, 190, 170),
                width=2,
            )
    elif kind == "forest":
        for dx in (-10, 8):
            d.polygon([(x + dx - 7, y + 4), (x + dx, y - 10), (x + dx + 7, y + 4)], fill=(70, 120, 80))
            d.line((x + dx, y + 4, x + dx, y + 9), fill=ink, width=2)
    elif kind == "hills":
        for dx in (-10, 8):
            d.arc((x + dx - 9, y - 6, x + dx + 9, y + 10), 180, 360, fill=ink, width=2)
    elif kind == "desert":
        for dx, dy in ((-10, -4), (0, 4), (10, -4), (-4, -10), (6, 10)):
            d.ellipse((x + dx - 2, y + dy - 2, x + dx + 2, y + dy + 2), fill=(160, 120, 60))
    elif kind == "marsh":
        for dy in (-5, 3):
            d.line((x - 12, y + dy, x + 12, y + dy), fill=(60, 110, 130), width=2)


def _dashed(
    d: ImageDraw.ImageDraw,
    a: tuple[float, float],
    b: tuple[float, float],
    colour: RGB,
    width: int,
    dash: float = 12,
) -> None:
    length = math.hypot(b[0] - a[0], b[1] - a[1]) or 1
    n = int(length // (2 * dash)) + 1
    for i in range(n):
        t0, t1 = (2 * i * dash) / length, min(1.0, (2 * i + 1) * dash / length)
        d.line(
            (
                a[0] + (b[0] - a[0]) * t0,
                a[1] + (b[1] - a[1]) * t0,
                a[0] + (b[0] - a[0]) * t1,
                a[1] + (b[1] - a[1]) * t1,
            ),
            fill=colour,
            width=width,
        )


def _edge(d: ImageDraw.ImageDraw, e: Edge, a: tuple[float, float], b: tuple[float, float]) -> None:
    if e.kind == "sea":
        _dashed(d, a, b, (30, 90, 150), 4)
    elif e.kind == "road":
        d.line((*a, *b), fill=theme.INK_MUTED, width=7)
        d.line((*a, *b), fill=(236, 226, 200), width=3)
    elif e.kind == "river":
        length = math.hypot(b[0] - a[0], b[1] - a[1]) or 1
        nx, ny = -(b[1] - a[1]) / length, (b[0] - a[0]) / length
        pts = []
        for k in range(41):
            t = k / 40
            w = 5 * math.sin(t * length / 10)
            pts.append((a[0] + (b[0] - a[0]) * t + nx * w, a[1] + (b[1] - a[1]) * t + ny * w))
        d.line(pts, fill=(40, 110, 170), width=4)
    else:
        d.line((*a, *b), fill=theme.INK_MUTED, width=3)


@cached_layer(maxsize=16)
def _static(key: _ByIdentity, width: int) -> Image.Image:
    return static_layer(key.m, width)


def static_layer(m: MapData, width: int = theme.WIDTH) -> Image.Image:
    """The map without any state: sea, lands, regions, terrain, edges, labels and
    legend; RGB, ``image_size(m, width)``. ``render_map`` caches it per map and width."""
    g = Geometry(m, width)
    img = Image.new("RGB", (width, g.height), theme.BACKGROUND)
    d = Draw(img)
    sea = theme.hex_colour(m.sea)
    d.rectangle((PAD, g.top, width - PAD, g.top + g.map_h), fill=sea, outline=theme.INK, width=2)
    centres = {n.id: g.pt(n.x, n.y) for n in m.nodes}
    if m.geography is not None:
        _geography(img, m, g)
    else:
        _diagram(d, m, g, centres)
    labels = layout_labels(m, width)
    for node_id, (box, _, _) in labels.items():
        _leader(d, box, g.pt(m.node(node_id).x, m.node(node_id).y))
    for node_id, (box, text, size) in labels.items():
        n = m.node(node_id)
        ink = (20, 60, 110) if n.kind == "sea" else theme.INK
        bg = theme.mix(sea, theme.LIGHT, 0.45) if n.kind == "sea" else theme.PANEL
        d.rounded_rectangle(box, radius=6, fill=bg, outline=theme.mix(bg, theme.INK, 0.4), width=1)
        draw_text(d, ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2), text, face(size, "bold"), ink, "mm")
    _map_legend(img, m, (PAD, g.height - LEGEND_H + 8, width - PAD, g.height - 8))
    return img


LAND_SHARE = 0.62  # of the map's land colour in a region's fill (the rest the region's colour)
GEO_LAND_SHARE = 0.12  # the same on a geographic map: the regions are the map's colours
OUTSIDE = (226, 224, 218)  # land outside play on a geographic map
RIVER: RGB = (40, 110, 170)
FRONTIER: RGB = (200, 16, 32)
SEA_LINK: RGB = (24, 70, 130)


def _geography(img: Image.Image, m: MapData, g: Geometry) -> None:
    """Land outside play, the territories in their regions' colours and patterns, lakes,
    rivers, the frontier (red line), the sea links' dots and the waters' names."""
    geo = m.geography
    assert geo is not None
    d = Draw(img)
    sea = theme.hex_colour(m.sea)
    land = theme.hex_colour(m.land)
    regions = {r.id: r for r in m.regions}
    for ring in geo.land:
        d.polygon([g.pt(x, y) for x, y in ring], fill=OUTSIDE, outline=theme.INK_MUTED, width=1)
    for n in m.nodes:
        r = regions.get(n.region or "")
        fill = theme.mix(theme.hex_colour(r.colour), land, GEO_LAND_SHARE) if r else land
        for ring in n.parts:
            poly = [g.pt(x, y) for x, y in ring]
            d.polygon(poly, fill=fill)
            if r:
                _pattern(d, poly, r.pattern, theme.mix(theme.hex_colour(r.colour), theme.INK, 0.3))
    for n in m.nodes:
        for ring in n.parts:
            d.polygon([g.pt(x, y) for x, y in ring], outline=theme.INK, width=2)
    for lake in geo.lakes:
        d.polygon([g.pt(x, y) for x, y in lake.polygon], fill=sea, outline=(30, 90, 150), width=2)
    for river in geo.rivers:
        for line in river.lines:
            d.line([g.pt(x, y) for x, y in line], fill=RIVER, width=5, joint="curve")
    for line in geo.frontier:
        pts = [g.pt(x, y) for x, y in line]
        d.line(pts, fill=theme.INK, width=10, joint="curve")
        d.line(pts, fill=FRONTIER, width=6, joint="curve")
    # pattern marks near the map's edge may reach past it: the margin is repainted
    top, bottom = g.top, g.top + g.map_h
    for box in ((0, top - PAD, g.width, top - 1), (0, bottom + 1, g.width, bottom + PAD - 2)):
        d.rectangle(box, fill=theme.BACKGROUND)
    for box in ((0, top, PAD - 1, bottom), (g.width - PAD + 1, top, g.width, bottom)):
        d.rectangle(box, fill=theme.BACKGROUND)
    d.rectangle((PAD, top, g.width - PAD, bottom), outline=theme.INK, width=2)
    for link in geo.sea_links:
        _dots(d, g.pt(*link.line[0]), g.pt(*link.line[1]))
    for lake in geo.lakes:
        if lake.name and lake.at:
            _water_label(d, g.pt(*lake.at), lake.name, face(15, "bold"))
    for label in geo.labels:
        _water_label(d, g.pt(*label.at), label.text, face(20, "bold"))


def _water_label(d: ImageDraw.ImageDraw, c: tuple[float, float], text: str, f) -> None:
    """A sea's or a lake's name, dark blue on a pale blue box."""
    d.rounded_rectangle(_water_box(c, text, f), radius=6, fill=(214, 232, 242))
    draw_text(d, c, text, f, (20, 60, 110), "mm")


def _water_box(c: tuple[float, float], text: str, f) -> dr.Box:
    w, h = f.length(text) + 10, f.line_height + 2
    return (c[0] - w / 2, c[1] - h / 2, c[0] + w / 2, c[1] + h / 2)


def water_label_boxes(m: MapData, width: int = theme.WIDTH) -> list[dr.Box]:
    """The boxes in pixels of a geographic map's sea and lake names (for tokens to keep clear)."""
    if m.geography is None:
        return []
    g = Geometry(m, width)
    out = [
        _water_box(g.pt(*lk.at), lk.name, face(15, "bold")) for lk in m.geography.lakes if lk.name and lk.at
    ]
    return out + [_water_box(g.pt(*lb.at), lb.text, face(20, "bold")) for lb in m.geography.labels]


def _dots(d: ImageDraw.ImageDraw, a: tuple[float, float], b: tuple[float, float], step: float = 13) -> None:
    """Dots across water from ``a`` to ``b`` (a sea link), with a light halo each."""
    length = math.hypot(b[0] - a[0], b[1] - a[1])
    n = max(2, int(length // step) + 1)
    for i in range(n):
        t = i / (n - 1)
        x, y = a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t
        d.ellipse((x - 5, y - 5, x + 5, y + 5), fill=theme.LIGHT)
        d.ellipse((x - 3.5, y - 3.5, x + 3.5, y + 3.5), fill=SEA_LINK)


def _diagram(
    d: ImageDraw.ImageDraw, m: MapData, g: Geometry, centres: dict[str, tuple[float, float]]
) -> None:
    """A schematic map: outlined or disc lands, edges drawn as lines between the nodes."""
    sea = theme.hex_colour(m.sea)
    land = theme.hex_colour(m.land)
    regions = {r.id: r for r in m.regions}
    for n in m.nodes:
        if n.kind != "land" or not n.polygon:
            continue
        poly = [g.pt(x, y) for x, y in n.polygon]
        r = regions.get(n.region or "")
        fill = theme.mix(theme.hex_colour(r.colour), land, LAND_SHARE) if r else land
        d.polygon(poly, fill=fill, outline=theme.INK, width=3)
        if r:
            _pattern(d, poly, r.pattern, theme.mix(theme.hex_colour(r.colour), theme.INK, 0.15))
    for e in m.edges:
        _edge(d, e, centres[e.a], centres[e.b])
    for n in m.nodes:
        cx, cy = centres[n.id]
        for i, t in enumerate(n.terrain):
            _terrain(d, t, (cx + 70 + 34 * i, cy + 30))
        r = regions.get(n.region or "")
        if n.kind == "sea":
            d.ellipse(
                (cx - NODE_R, cy - NODE_R, cx + NODE_R, cy + NODE_R), fill=sea, outline=(30, 90, 150), width=3
            )
        elif not n.polygon:  # a land without an outline: a disc in its region's colour
            fill = theme.hex_colour(r.colour) if r else land
            d.ellipse(
                (cx - 48, cy - 30, cx + 48, cy + 30),
                fill=theme.mix(fill, land, 0.4),
                outline=theme.INK,
                width=3,
            )
        d.ellipse((cx - 5, cy - 5, cx + 5, cy + 5), fill=theme.INK)


def _leader(d: ImageDraw.ImageDraw, box: dr.Box, c: tuple[float, float]) -> None:
    """A thin line from a label placed away from its node (not right below or above the
    node's token zone) to the edge of the node's oval, so the label cannot be read as a
    neighbour's."""
    cx, cy = c
    px, py = min(max(cx, box[0]), box[2]), min(max(cy, box[1]), box[3])
    dx, dy = px - cx, py - cy
    if abs(dx) < box[2] - box[0] and (0 < dy <= 40 or -45 <= dy < 0):
        return  # right below or above: plainly its node's
    t = 1 / math.hypot(dx / 48, dy / 30)
    d.line((cx + dx * t, cy + dy * t, px, py), fill=theme.INK_MUTED, width=2)


def _mark_symbol(kind: str):
    """A legend symbol for a marker kind, or for "combat" the ring around a territory."""

    def sym(img: Image.Image, c: tuple[float, float], size: int) -> None:
        if kind == "combat":
            d = Draw(img)
            d.rounded_rectangle(
                (c[0] - 15, c[1] - 11, c[0] + 15, c[1] + 11), radius=10, outline=theme.ACTIVE, width=5
            )
            return
        draw_marker(img, Marker(node="", kind=kind), (c[0], c[1] + 2), None)  # type: ignore[arg-type]

    return sym


def _map_legend(img: Image.Image, m: MapData, box: dr.Box) -> None:
    entries: list[dr.LegendEntry] = []
    land = theme.hex_colour(m.land)
    for r in m.regions:
        # the swatch blends like the map does: outlined lands 62 % land colour (12 % on a
        # geographic map), lands drawn as discs (no outline) 40 %
        discs = any(n.region == r.id and n.kind == "land" and not n.polygon and not n.parts for n in m.nodes)
        has_poly = any(n.region == r.id and (n.polygon or n.parts) for n in m.nodes)
        t = 0.4 if discs and not has_poly else GEO_LAND_SHARE if m.geography else LAND_SHARE
        ink_t = 0.3 if m.geography else 0.15

        def region(
            img: Image.Image,
            c: tuple[float, float],
            size: int,
            r: Region = r,
            t: float = t,
            ink_t: float = ink_t,
        ) -> None:
            d = Draw(img)
            poly = [
                (c[0] - size / 2, c[1] - size / 2),
                (c[0] + size / 2, c[1] - size / 2),
                (c[0] + size / 2, c[1] + size / 2),
                (c[0] - size / 2, c[1] + size / 2),
            ]
            colour = theme.hex_colour(r.colour)
            d.polygon(poly, fill=theme.mix(colour, land, t), outline=theme.INK, width=2)
            inset = [(p[0] + (5 if p[0] < c[0] else -5), p[1] + (5 if p[1] < c[1] else -5)) for p in poly]
            _pattern(d, inset, r.pattern, theme.mix(colour, theme.INK, ink_t), step=8)

        entries.append((region, r.name))

    def line(kind: str):
        def sym(img: Image.Image, c: tuple[float, float], size: int) -> None:
            _edge(
                Draw(img),
                Edge(a="a", b="b", kind=kind),
                (c[0] - size / 2 - 4, c[1]),
                (c[0] + size / 2 + 4, c[1]),
            )  # type: ignore[arg-type]

        return sym

    geo = m.geography
    if geo is None:
        kinds = {e.kind for e in m.edges}
        names = {"land": "border", "sea": "sea link", "road": "road", "river": "river"}
        for kind in ("land", "sea", "road", "river"):
            if kind in kinds:
                entries.append((line(kind), names[kind]))
        dr.legend(img, box, entries)
        return

    def outside(img: Image.Image, c: tuple[float, float], size: int) -> None:
        Draw(img).rectangle(
            (c[0] - size / 2, c[1] - size / 2, c[0] + size / 2, c[1] + size / 2),
            fill=OUTSIDE,
            outline=theme.INK_MUTED,
        )

    def dots(img: Image.Image, c: tuple[float, float], size: int) -> None:
        # within the swatch (a dot's halo is 5 px), clear of the label after it
        _dots(Draw(img), (c[0] - size / 2 + 5, c[1]), (c[0] + size / 2 - 5, c[1]))

    def frontier(img: Image.Image, c: tuple[float, float], size: int) -> None:
        d = Draw(img)
        d.line((c[0] - size / 2 - 4, c[1], c[0] + size / 2 - 1, c[1]), fill=theme.INK, width=10)
        d.line((c[0] - size / 2 - 4, c[1], c[0] + size / 2 - 1, c[1]), fill=FRONTIER, width=6)

    def river(img: Image.Image, c: tuple[float, float], size: int) -> None:
        d = Draw(img)
        pts = [(c[0] - size / 2 - 4 + k * (size + 1) / 12, c[1] + 4 * math.sin(k * 1.1)) for k in range(13)]
        d.line(pts, fill=RIVER, width=5, joint="curve")

    def border(img: Image.Image, c: tuple[float, float], size: int) -> None:
        d = Draw(img)
        d.rectangle((c[0] - size / 2, c[1] - size / 2, c[0], c[1] + size / 2), fill=land)
        d.rectangle(
            (c[0], c[1] - size / 2, c[0] + size / 2, c[1] + size / 2), fill=theme.mix(land, theme.INK, 0.15)
        )
        d.line((c[0], c[1] - size / 2, c[0], c[1] + size / 2), fill=theme.INK, width=2)

    for kind, words in m.legend_marks:
        entries.append((_mark_symbol(kind), words))
    entries.append((border, "border (adjacent)"))
    if geo.frontier:
        entries.append((frontier, geo.frontier_name))
    if geo.sea_links:
        entries.append((dots, "dots across water (adjacent)"))
    if geo.rivers:
        entries.append((river, "river (" + ", ".join(r.name for r in geo.rivers) + ")"))
    entries.append((outside, "land outside play"))
    dr.legend(img, box, entries)


# --------------------------------------------------------------------------- overlay drawing


def draw_marker(img: Image.Image, mk: Marker, c: tuple[float, float], style: SeatStyle | None) -> None:
    """Marker ``mk`` centred at ``c`` (pixels), in ``style``'s colour when it has an owner."""
    d = Draw(img)
    x, y = c
    colour = style.colour if style else theme.LIGHT
    if mk.kind in ("city", "capital", "port"):
        w = 15 if mk.kind == "capital" else 11
        d.rectangle((x - w, y - w + 4, x + w, y + w), fill=colour, outline=theme.INK, width=2)
        d.polygon(
            [(x - w - 3, y - w + 5), (x, y - w - 9), (x + w + 3, y - w + 5)], fill=colour, outline=theme.INK
        )
        if mk.kind == "capital":
            dr.paste_icon(img, "crown", (x, y + 4), 18, theme.ink_on(colour))
        elif mk.kind == "port":
            draw_text(d, (x, y + 4), "\u2693", face(16, "bold"), theme.ink_on(colour), "mm")
    elif mk.kind == "temple":
        d.polygon([(x - 14, y - 2), (x, y - 14), (x + 14, y - 2)], fill=colour, outline=theme.INK)
        d.rectangle((x - 12, y - 2, x + 12, y + 12), fill=colour, outline=theme.INK, width=2)
        for k in (-6, 0, 6):
            d.line((x + k, y + 1, x + k, y + 10), fill=theme.INK, width=2)
    elif mk.kind == "ark":
        d.rectangle((x - 16, y - 9, x + 16, y + 9), fill=(212, 175, 55), outline=theme.INK, width=2)
        d.line((x - 22, y + 3, x + 22, y + 3), fill=theme.INK, width=3)
        draw_text(d, (x, y - 1), "ARK", face(12, "bold"), theme.INK, "mm")
    elif mk.kind == "revolt":
        d.ellipse((x - 15, y - 15, x + 15, y + 15), fill=theme.VERMILLION, outline=theme.INK, width=2)
        draw_text(d, (x, y), "!", face(22, "bold"), theme.LIGHT, "mm")
    elif mk.kind == "control":
        d.line((x - 6, y + 14, x - 6, y - 14), fill=theme.INK, width=3)
        d.polygon([(x - 6, y - 14), (x + 14, y - 8), (x - 6, y - 1)], fill=colour, outline=theme.INK)
        if style:
            draw_text(d, (x + 1, y - 8), style.label, face(12, "bold"), style.ink, "mm")
    if mk.label and mk.kind == "control":
        # beside the flag, inside the node's unit zone (not up into the label above)
        _tag(d, (x + 16, y - 8), mk.label)
    elif mk.label:
        draw_text(d, (x, y - 28), mk.label, face(16, "bold"), theme.INK, "mm", max_width=120)


def _tag(d: ImageDraw.ImageDraw, at: tuple[float, float], text: str) -> None:
    """A small boxed tag (e.g. "claimed" beside a control flag), left edge at ``at``."""
    f = face(14, "bold")
    w = min(f.length(text), 90) + 8
    x, y = at
    d.rounded_rectangle((x, y - 9, x + w, y + 9), radius=5, fill=theme.PANEL, outline=theme.INK, width=1)
    draw_text(d, (x + 4, y), text, f, theme.INK, "lm", max_width=90)


MARKER_OFFSETS = [(0, -44), (-40, -44), (40, -44), (-80, -44), (80, -44)]
SPOT_STEP = 4  # pixels between the candidate places of a token inside its territory


INNER_KEPT = 512  # territories' sorted token places kept (``_inner_points``; one per territory and ``prefer``)
_INNER: collections.OrderedDict[tuple[int, int, str, tuple[float, float]], tuple[MapData, np.ndarray, np.ndarray]] = (
    collections.OrderedDict()
)
_GRID: dict[tuple[int, int, str], tuple[MapData, np.ndarray, np.ndarray]] = {}


def _inner_points(
    m: MapData, width: int, node_id: str, prefer: tuple[float, float]
) -> tuple[np.ndarray, np.ndarray]:
    """``_grid_inside`` sorted nearest ``prefer`` first, remembered per map object (a map's
    hash walks all its shapes), width, territory and ``prefer`` (the latest ``INNER_KEPT``);
    the grid itself, which does not depend on ``prefer``, is computed once per territory."""
    key = (id(m), width, node_id, prefer)
    found = _INNER.get(key)
    if found is None or found[0] is not m:
        grid_key = (id(m), width, node_id)
        grid = _GRID.get(grid_key)
        if grid is None or grid[0] is not m:
            grid = _GRID[grid_key] = (m, *_grid_inside(m, width, node_id))
        _, pts, clear = grid
        order = np.argsort(((pts - np.array(prefer)) ** 2).sum(axis=1), kind="stable")
        found = _INNER[key] = (m, pts[order], clear[order])
        while len(_INNER) > INNER_KEPT:
            _INNER.popitem(last=False)
    _INNER.move_to_end(key)
    return found[1], found[2]


def prepare_token_places(m: MapData, width: int) -> None:
    """Compute the token grid of every territory of ``m`` at ``width`` now (``_grid_inside``, once
    per map object and width, like the static layer), so that no board pays for a territory's
    grid the first time a token lands there."""
    for node in m.nodes:
        grid_key = (id(m), width, node.id)
        grid = _GRID.get(grid_key)
        if grid is None or grid[0] is not m:
            _GRID[grid_key] = (m, *_grid_inside(m, width, node.id))


CLEARANCE_KEPT = 64.0  # pixels: a token place's clearance is exact up to this, "more" beyond it
BLOCK = 16  # grid points a side of a block whose distances are measured together


def _grid_inside(m: MapData, width: int, node_id: str) -> tuple[np.ndarray, np.ndarray]:
    """(points, clearance): the pixel points of a ``SPOT_STEP`` grid inside a territory of a
    geographic map, and each one's distance in pixels to the territory's border (or the sea)
    and to the rivers drawn across it, exact up to ``CLEARANCE_KEPT`` pixels (more than any
    token needs) and above it wherever the true distance is (place_tokens compares clearances
    with a token's radius and a few pixels, and looks for the most room only among places with
    less than that).

    A point is inside by the even-odd rule along its grid row (the edges crossing the row,
    sorted once, counted right of each point); its distances are measured only to the edges
    and river segments within ``CLEARANCE_KEPT`` pixels of its block of rows, the nearest of
    which always is one of them when it is that near: the same numbers as measuring every
    edge, in a fraction of the time (a coastline has hundreds of edges)."""
    g = Geometry(m, width)
    node = m.node(node_id)
    rings = [np.array([g.pt(x, y) for x, y in ring], dtype=float) for ring in node.parts]
    if not rings:
        return np.zeros((0, 2)), np.zeros(0)
    allp = np.concatenate(rings)
    (x0, y0), (x1, y1) = allp.min(axis=0), allp.max(axis=0)
    xs, ys = np.arange(x0, x1, SPOT_STEP), np.arange(y0, y1, SPOT_STEP)
    inside = np.zeros((len(ys), len(xs)), dtype=bool)
    segments = [(ring, np.roll(ring, -1, axis=0)) for ring in rings]
    for a, b in segments:  # even-odd rule: a horizontal ray from each point crosses the ring's edges
        for j, y in enumerate(ys):
            crosses = (a[:, 1] > y) != (b[:, 1] > y)
            if crosses.any():
                aa, bb = a[crosses], b[crosses]
                xi = np.sort(aa[:, 0] + (y - aa[:, 1]) * (bb[:, 0] - aa[:, 0]) / (bb[:, 1] - aa[:, 1]))
                inside[j] ^= (len(xi) - np.searchsorted(xi, xs, side="right")) % 2 == 1
    lines = [seg for seg in _river_lines(m, g) if len(seg) > 1]
    near = [(seg[:-1], seg[1:]) for seg in lines if _touches(seg, (x0 - 60, y0 - 60, x1 + 60, y1 + 60))]
    gx, gy = np.meshgrid(xs, ys)
    pts = np.stack([gx.ravel(), gy.ravel()], axis=1)
    block = np.add.outer(np.arange(len(ys)) // BLOCK * len(xs), np.arange(len(xs)) // BLOCK).ravel()
    keep = inside.ravel()
    pts, block = pts[keep], block[keep]
    dist = np.full(len(pts), np.inf)
    for k in np.unique(block):  # blocks of BLOCK x BLOCK grid points
        here = np.flatnonzero(block == k)
        p = pts[here]
        box = (p[:, 0].min(), p[:, 1].min(), p[:, 0].max(), p[:, 1].max())
        for a, b in [*segments, *near]:
            sel = _segments_near(a, b, box)
            if sel.any():
                dist[here] = np.minimum(dist[here], _distance(p, a[sel], b[sel]))
    return pts, dist


def _touches(seg: np.ndarray, box: tuple[float, float, float, float]) -> bool:
    """Whether a point of ``seg`` lies strictly inside ``box``."""
    return bool(
        ((seg[:, 0] > box[0]) & (seg[:, 0] < box[2]) & (seg[:, 1] > box[1]) & (seg[:, 1] < box[3])).any()
    )


def _river_lines(m: MapData, g: Geometry) -> list[np.ndarray]:
    """Every river line of a geographic map, in pixels."""
    rivers = m.geography.rivers if m.geography else ()
    return [np.array([g.pt(x, y) for x, y in line], dtype=float) for river in rivers for line in river.lines]


def _segments_near(a: np.ndarray, b: np.ndarray, box: tuple[float, float, float, float]) -> np.ndarray:
    """Which segments ``a[i]``-``b[i]`` come within ``CLEARANCE_KEPT`` pixels of ``box``."""
    c = CLEARANCE_KEPT
    return (
        (np.maximum(a[:, 0], b[:, 0]) >= box[0] - c)
        & (np.minimum(a[:, 0], b[:, 0]) <= box[2] + c)
        & (np.maximum(a[:, 1], b[:, 1]) >= box[1] - c)
        & (np.minimum(a[:, 1], b[:, 1]) <= box[3] + c)
    )


def _distance(pts: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Each point's distance in pixels to the nearest of the segments ``a[i]``-``b[i]``."""
    if not len(pts):
        return np.zeros(0)
    ab = b - a
    length2 = np.maximum((ab**2).sum(axis=1), 1e-9)
    t = np.clip(((pts[:, None, :] - a[None, :, :]) * ab[None, :, :]).sum(axis=2) / length2[None, :], 0, 1)
    nearest = a[None, :, :] + t[:, :, None] * ab[None, :, :]
    return np.sqrt(((pts[:, None, :] - nearest) ** 2).sum(axis=2)).min(axis=1)


def place_tokens(
    m: MapData,
    width: int,
    node_id: str,
    radii: Sequence[float | tuple[float, ...]],
    avoid: Sequence[dr.Box],
    prefer: tuple[float, float],
) -> list[tuple[tuple[float, float], float] | None]:
    """(centre in pixels, radius) for tokens of ``radii`` (pixels; a tuple for a token that may
    also be drawn smaller: its sizes, largest first) inside territory ``node_id`` of a
    geographic map: each at least its radius plus 5 pixels from the territory's border and
    rivers (in a land too narrow for that, plus 2, then just inside), clear of the boxes in
    ``avoid`` (unit chips, names) and of the tokens placed before it, as near ``prefer`` as that
    allows, at its largest size that finds such a place; in a land with no such place, inside
    it at its largest size where it covers the least of those boxes (``_least_covering``); None
    only for a land with no room at all (the caller decides where it goes)."""
    pts, clear = _inner_points(m, width, node_id, prefer)
    if not len(pts):
        return [None] * len(radii)
    boxes = np.array(avoid, dtype=float).reshape(-1, 4)
    out: list[tuple[tuple[float, float], float] | None] = []
    placed: list[tuple[float, float, float]] = []  # (x, y, radius) of the tokens placed so far
    for sizes in radii:
        sizes = sizes if isinstance(sizes, tuple) else (sizes,)
        found = None
        for r in sizes:
            spot = _clear_spot(pts, clear, _free(pts, placed, r), boxes, r)
            if spot is not None:
                found = (spot, r)
                break
        if found is None:
            spot = _least_covering(pts, clear, _free(pts, placed, sizes[0]), boxes, sizes[0])
            found = None if spot is None else (spot, sizes[0])
        if found is not None:
            placed.append((*found[0], found[1]))
        out.append(found)
    return out


def _free(pts: np.ndarray, placed: list[tuple[float, float, float]], r: float) -> np.ndarray:
    """Which of ``pts`` a token of radius ``r`` may take: 3 pixels clear of each placed token."""
    free = np.ones(len(pts), dtype=bool)
    for x, y, rr in placed:
        free &= ((pts[:, 0] - x) ** 2 + (pts[:, 1] - y) ** 2) >= (r + rr + 3) ** 2
    return free


def _clear_spot(
    pts: np.ndarray, clear: np.ndarray, free: np.ndarray, boxes: np.ndarray, r: float
) -> tuple[float, float] | None:
    """The first of ``pts`` (nearest the preferred place first) where a token of radius ``r``
    is ``free``, clear of ``boxes`` and 5 pixels inside its land, else 2, else just inside."""
    for need in (r + 5, r + 2, r + 0.5):
        cand = np.flatnonzero(free & (clear >= need))
        for k in range(0, len(cand), 256):  # nearest first: usually the first chunk has one
            p = pts[cand[k : k + 256]]
            hit = (
                (p[:, 0:1] + r > boxes[None, :, 0])
                & (p[:, 0:1] - r < boxes[None, :, 2])
                & (p[:, 1:2] + r > boxes[None, :, 1])
                & (p[:, 1:2] - r < boxes[None, :, 3])
            ).any(axis=1)
            ok = np.flatnonzero(~hit)
            if len(ok):
                return float(p[ok[0], 0]), float(p[ok[0], 1])
    return None


def _least_covering(
    pts: np.ndarray, clear: np.ndarray, free: np.ndarray, boxes: np.ndarray, r: float
) -> tuple[float, float] | None:
    """Of the points ``pts`` (nearest the preferred place first) clear of the tokens placed so
    far (``free``) and inside their land with 2 pixels to spare (else the point with the most
    room), the first whose disc of radius ``r`` covers the least area of ``boxes``."""
    cand = np.flatnonzero(free & (clear >= r + 2))
    if not len(cand):
        cand = np.flatnonzero(free)
        if not len(cand):
            return None
        cand = cand[clear[cand] >= clear[cand].max() - 0.5]
    p = pts[cand]
    if len(boxes):
        w = np.clip(
            np.minimum(p[:, 0:1] + r, boxes[None, :, 2]) - np.maximum(p[:, 0:1] - r, boxes[None, :, 0]),
            0,
            None,
        )
        h = np.clip(
            np.minimum(p[:, 1:2] + r, boxes[None, :, 3]) - np.maximum(p[:, 1:2] - r, boxes[None, :, 1]),
            0,
            None,
        )
        covered = (w * h).sum(axis=1)
    else:
        covered = np.zeros(len(p))
    best = int(np.argmin(covered))  # argmin takes the first, the nearest the preferred place
    return float(p[best, 0]), float(p[best, 1])


class _ChipPlan:
    """Where a node's unit chips go: rows of (style, count, width) at y offsets from the
    node's centre, in the normal size (badge 34) or the compact one (badge 26)."""

    def __init__(self, rows: list[tuple[float, list[tuple[SeatStyle, str, float]]]], compact: bool) -> None:
        self.rows = rows
        self.compact = compact
        self.badge, self.r, self.size = (26, 14, 17) if compact else (34, 19, 20)
        self.half = max(sum(w for _, _, w in row) - (3 if compact else 4) for _, row in rows) / 2
        self.top = min(y for y, _ in rows) - self.r
        self.bottom = max(y for y, _ in rows) + self.r


def chip_room(m: MapData, width: int = theme.WIDTH) -> dict[str, float]:
    """The room of each node's unit chips (``_chip_room``), remembered per map and width."""
    return _chip_room(_ByIdentity(m), width)


@functools.lru_cache(maxsize=16)
def _chip_room(key: _ByIdentity, width: int) -> dict[str, float]:
    """Node id -> the half-width in pixels its unit chips may take: at most the unit zone's
    (125), and less where another node's chips would sit on the same line (half the
    distance between the two centres), so neighbours' chips never run into each other; on a
    geographic map also no more than the territory's own width along that line (at least
    50, a row of two compact chips)."""
    m = key.m
    g = Geometry(m, width)
    centres = {n.id: g.pt(n.x, n.y) for n in m.nodes}
    room = {}
    for n in m.nodes:
        ax, ay = centres[n.id]
        half = 125.0
        for b, (bx, by) in centres.items():
            if b != n.id and abs(by - ay) < 44:
                half = min(half, abs(bx - ax) / 2 - 4)
        if n.parts:
            half = min(half, max(50.0, _span(n.parts, (n.x, n.y)) * g.scale - 6))
        room[n.id] = half
    return room


def _span(parts: Sequence[Ring], at: tuple[float, float]) -> float:
    """The smaller distance from ``at`` to the edge of its part, left or right along its
    line (map units)."""
    x, y = at
    left, right = -math.inf, math.inf
    for ring in parts:
        for (x0, y0), (x1, y1) in zip(ring, ring[1:] + ring[:1], strict=True):
            if (y0 > y) != (y1 > y):
                xi = x0 + (y - y0) * (x1 - x0) / (y1 - y0)
                if xi <= x:
                    left = max(left, xi)
                else:
                    right = min(right, xi)
    return min(x - left, right - x)


def chip_plan(chips: Sequence[tuple[SeatStyle, str]], half: float) -> _ChipPlan:
    """Chips in one row of the normal size when they fit in ``half`` each side of the
    centre (up to 3), else compact chips in one row, else compact chips in two rows kept
    inside the unit zone (the label below stays clear), else (a narrow territory) in rows
    of two, up to three rows, still inside the zone."""
    f = face(20, "bold")
    widths = [34 + 6 + f.length(n) + 10 for _, n in chips]
    if len(chips) <= 3 and sum(widths) - 4 <= 2 * half:
        return _ChipPlan([(0, [(st, n, w) for (st, n), w in zip(chips, widths, strict=True)])], False)
    fc = face(17, "bold")
    items = [(st, n, 26 + 4 + fc.length(n) + 9) for st, n in chips]
    if sum(w for _, _, w in items) - 3 <= 2 * half:
        return _ChipPlan([(0, items)], True)
    k = (len(items) + 1) // 2
    two = _ChipPlan([(-22, items[:k]), (8, items[k:])], True)
    if two.half <= half or len(items) <= 4:
        return two
    return _ChipPlan([(-50, items[:2]), (-22, items[2:4]), (6, items[4:6])], True)


def _draw_chips(img: Image.Image, d: ImageDraw.ImageDraw, plan: _ChipPlan, c: tuple[float, float]) -> None:
    cx, cy = c
    f = face(plan.size, "bold")
    gap = 3 if plan.compact else 4
    for dy, row in plan.rows:
        y = cy + dy
        x = cx - sum(w for _, _, w in row) / 2
        for style, count, w in row:
            d.rounded_rectangle(
                (x, y - plan.r, x + w - gap, y + plan.r),
                radius=plan.r,
                fill=theme.PANEL,
                outline=theme.INK,
                width=2,
            )
            dr.paste_badge(img, style, (x + plan.r, y), plan.badge)
            draw_text(
                d,
                (x + plan.badge + 6 if not plan.compact else x + plan.badge + 5, y),
                count,
                f,
                theme.INK,
                "lm",
            )
            x += w


def paste_static(img: Image.Image, m: MapData, width: int = theme.WIDTH) -> None:
    """Paste map ``m``'s static layer at ``width`` at the top left of ``img`` (a board holding
    the map and more), for ``render_map_image(..., onto=img)``."""
    img.paste(_static(_ByIdentity(m), width), (0, 0))


def render_map_image(
    m: MapData,
    overlay: MapOverlay,
    width: int = theme.WIDTH,
    *,
    header: bool = True,
    onto: Image.Image | None = None,
) -> Image.Image:
    """The board for ``overlay`` on map ``m``: RGB, ``image_size(m, width)`` pixels.

    Units at a node are drawn as their faction's badge (colour, shape, number)
    with the count beside it, in a row centred on the node; markers sit around
    it. Unknown node or faction ids raise KeyError. Without ``header`` the header band
    is left as the static layer has it, for a caller that draws its own over it.

    With ``onto``, a larger board whose top left already holds the map's static layer
    (``paste_static``), the overlay is drawn there instead of on a copy of the static layer
    (one copy of the map less per board) and ``onto`` is returned; the header then spans
    ``onto``'s width. Its texts are recorded as drawn on an image of the map's size, as when
    the map is drawn apart and pasted.
    """
    if onto is None:
        img = _static(_ByIdentity(m), width).copy()
        _draw_overlay(img, m, overlay, width, header)
        return img
    size = image_size(m, width)
    with recording() as drawn:
        _draw_overlay(onto, m, overlay, width, header)
    add_texts([t if t.canvas != onto.size else _on_canvas(t, size) for t in drawn])
    return onto


def _on_canvas(t: DrawnText, size: tuple[int, int]) -> DrawnText:
    """``t`` as recorded on an image of ``size`` (its panel too)."""
    area = t.panel if t.panel is None else dataclasses.replace(t.panel, canvas=size)
    return dataclasses.replace(t, canvas=size, panel=area)


def _draw_overlay(img: Image.Image, m: MapData, overlay: MapOverlay, width: int, header: bool) -> None:
    g = Geometry(m, width)
    d = Draw(img)
    factions = {f.id: f for f in overlay.factions}
    centres = {n.id: g.pt(n.x, n.y) for n in m.nodes}
    markers: dict[str, list[Marker]] = {}
    for mk in overlay.markers:
        centres[mk.node]  # KeyError for an unknown node
        markers.setdefault(mk.node, []).append(mk)
    stacks: dict[str, list[Units]] = {}
    for u in overlay.units:
        if u.count > 0:
            factions[u.faction]  # KeyError for an unknown faction
            stacks.setdefault(u.node, []).append(u)
    room = chip_room(m, width)
    plans = {
        node_id: chip_plan([(factions[u.faction].style, str(u.count)) for u in units], room[node_id])
        for node_id, units in stacks.items()
    }
    for node_id in overlay.highlight:
        cx, cy = centres[node_id]
        plan = plans.get(node_id)
        half = min(124.0, max(60.0, (plan.half if plan else 0) + 10), room[node_id] + 2)
        top, bottom = (plan.top - 6, plan.bottom + 4) if plan else (-24, 22)
        top, bottom = min(top, -24), max(bottom, 22)
        d.rounded_rectangle(
            (cx - half, cy + top, cx + half, cy + bottom), radius=22, outline=theme.ACTIVE, width=6
        )
        d.rounded_rectangle(
            (cx - half + 6, cy + top + 6, cx + half - 6, cy + bottom - 6),
            radius=17,
            outline=theme.INK,
            width=2,
        )
    for node_id, mks in markers.items():
        cx, cy = centres[node_id]
        for mk, (dx, dy) in zip(mks, MARKER_OFFSETS, strict=False):
            draw_marker(img, mk, (cx + dx, cy + dy), factions[mk.faction].style if mk.faction else None)
    for node_id, plan in plans.items():
        _draw_chips(img, d, plan, centres[node_id])
    if not header:
        return
    active = factions.get(overlay.active or "")
    dr.header(
        img,
        dr.Header(
            game=overlay.game,
            round=overlay.round,
            phase=overlay.phase,
            turn_label=active.name if active else None,
            turn_style=active.style if active else None,
            note=overlay.note or m.title,
        ),
    )


def render_map(m: MapData, overlay: MapOverlay, width: int = theme.WIDTH) -> bytes:
    """``render_map_image`` as PNG bytes."""
    return dr.encode_png(render_map_image(m, overlay, width))
