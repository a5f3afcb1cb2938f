"""The maps drawn on real geography keep the games' adjacency.

Soul of the Empire's and Promised Land's boards are territories cut from real coastlines
(``tools/author_maps.py`` writes ``render/maps/*.json``). Each territory is rasterised at
the board's scale; two territories share a drawn border when their pixels touch along at
least ``MIN_BORDER`` pixels. Every drawn border must be a rule border and every rule border
(other than a sea link, "dots across water") must be drawn. The test reads the committed
shapes only: the geographic data and shapely are needed to author, not to run.
"""

from __future__ import annotations

import pytest
from PIL import Image, ImageChops, ImageDraw, ImageFilter

from render import map as rmap
from render import promised_land as pl
from render import soul_of_the_empire as soe

MIN_BORDER = 6  # pixels of shared edge that make a drawn border (a corner is not one)


def _masks(m: rmap.MapData, width: int) -> tuple[rmap.Geometry, dict[str, Image.Image]]:
    """Each territory's pixels (mode "1"-like "L" masks, 255 inside) at ``width``."""
    g = rmap.Geometry(m, width)
    size = (width, g.height)
    out = {}
    for n in m.nodes:
        if not n.parts:
            continue
        img = Image.new("L", size, 0)
        d = ImageDraw.Draw(img)
        for ring in n.parts:
            d.polygon([g.pt(x, y) for x, y in ring], fill=255)
        out[n.id] = img
    return g, out


def drawn_borders(m: rmap.MapData, width: int) -> dict[frozenset[str], int]:
    """Pairs of territories whose pixels touch (8-neighbourhood) -> pixels of the one next
    to the other."""
    g, masks = _masks(m, width)
    ids = sorted(masks)
    index = Image.new("L", (width, g.height), 0)
    for k, t in enumerate(ids, start=1):
        index.paste(k, mask=masks[t])
    out: dict[frozenset[str], int] = {}
    for k, a in enumerate(ids, start=1):
        ring = ImageChops.subtract(masks[a].filter(ImageFilter.MaxFilter(3)), masks[a])
        counts = index.histogram(mask=ring)
        for j, b in enumerate(ids, start=1):
            if j != k and counts[j]:
                pair = frozenset((a, b))
                out[pair] = max(out.get(pair, 0), counts[j])
    return out


MAPS = {
    "soul-of-the-empire": (soe.map_data, soe.WIDTH),
    "promised-land": (pl.map_data, pl.MAP_WIDTH),
}


@pytest.mark.parametrize("game", sorted(MAPS))
def test_drawn_borders_are_the_rule_borders(game: str) -> None:
    """Soul of the Empire: territories are adjacent by a shared border or by "dots across
    water" (rule text, Movement; board.toml's edges). Promised Land: the lands' borders and
    the fords of the Jordan of lands.toml (RULINGS, the authored map). The map draws exactly
    the shared borders; a sea link is drawn as dots and never as a border."""
    make, width = MAPS[game]
    m = make()
    drawn = {pair for pair, n in drawn_borders(m, width).items() if n >= MIN_BORDER}
    rule = {frozenset((e.a, e.b)) for e in m.edges if e.kind != "sea"}
    sea = {frozenset((e.a, e.b)) for e in m.edges if e.kind == "sea"}
    assert sorted(map(sorted, drawn - rule)) == [], "drawn borders the rules do not have"
    assert sorted(map(sorted, rule - drawn)) == [], "rule borders the map does not draw"
    assert not drawn & sea
    drawn_links = {frozenset((s.a, s.b)) for s in m.geography.sea_links}
    assert drawn_links == sea, "every sea link is drawn as dots across water"


@pytest.mark.parametrize("game", sorted(MAPS))
def test_units_sit_inside_their_territory(game: str) -> None:
    """The point where a territory's units are drawn lies inside that territory, clear of
    its border by a few pixels."""
    make, width = MAPS[game]
    m = make()
    g, masks = _masks(m, width)
    for n in m.nodes:
        x, y = g.pt(n.x, n.y)
        around = [(x + dx, y + dy) for dx in (-4, 0, 4) for dy in (-4, 0, 4)]
        assert all(masks[n.id].getpixel((int(px), int(py))) == 255 for px, py in around), n.id


def test_red_line_is_the_edge_of_the_empire() -> None:
    """ "Roman Empire: All territories South and West of the heavy red line on the board"
    (rule text, Components): the red line runs along the borders between a territory of the
    Empire and one outside it, and along every such border."""
    from games.soul_of_the_empire.data import load

    d = load()
    empire = {t.id for t in d.territories.values() if d.regions[t.region].empire}
    m = soe.map_data()
    g, masks = _masks(m, soe.WIDTH)
    points = [g.pt(x, y) for line in m.geography.frontier for x, y in line]
    assert points
    covered = set()
    for x, y in points:
        window = [(int(x) + dx, int(y) + dy) for dx in range(-3, 4) for dy in range(-3, 4)]
        at = {t for t, img in masks.items() if any(img.getpixel(p) == 255 for p in window)}
        inside, outside = at & empire, at - empire
        assert inside and outside, (x, y, at)
        covered |= {frozenset((a, b)) for a in inside for b in outside}
    frontier = {
        pair for pair, n in drawn_borders(m, soe.WIDTH).items() if n >= MIN_BORDER and len(pair & empire) == 1
    }
    assert frontier and frontier <= covered, sorted(map(sorted, frontier - covered))


@pytest.mark.parametrize("game", sorted(MAPS))
def test_labels_do_not_overlap_and_read_as_their_own(game: str) -> None:
    """Every territory's name is drawn whole, no two names overlap, and each name sits by
    its own units (within 110 pixels of them)."""
    make, width = MAPS[game]
    m = make()
    g = rmap.Geometry(m, width)
    labels = rmap.layout_labels(m, width)
    items = list(labels.items())
    for i, (a, (box, text, _)) in enumerate(items):
        assert text == m.node(a).name
        for b, (other, _, _) in items[i + 1 :]:
            assert not rmap._overlaps(box, other), (a, b)
        cx, cy = g.pt(m.node(a).x, m.node(a).y)
        px, py = min(max(cx, box[0]), box[2]), min(max(cy, box[1]), box[3])
        assert ((px - cx) ** 2 + (py - cy) ** 2) ** 0.5 < 110, a
