"""Promised Land board: the map of Canaan through the data-driven map renderer, plus a
side panel with the Time, Royal and Kingdom tracks, the turn and the players.

Image: RGB, 1600 pixels wide; the map's height (about 1400), or more when the side panel's
players need the room, plus ``KEY_H`` for the key band along the bottom. The map is the game's
land data (``games/promised_land/data/lands.toml``) on the real Canaan: the Great Sea's coast,
the Jordan, the Sea of Chinnereth and the Salt Sea, each land the ground nearest its town on
its side of the Jordan (authored by ``tools/author_maps.py``, see ``tools/maps``). Hills and
plains are told apart by colour and pattern; units are badges in their counters' colour and
shape, labelled with the kingdom's initials and counted; Patriarchs are their owner's seat
badge with F, M or P; cities, temples and the Ark have their own symbols. The side panel
shows each player's points so far (every scoring item but coins, which stay hidden until the
end) and the two teams' sums.
"""

from __future__ import annotations

import functools
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from PIL import Image, ImageDraw

import games.promised_land.model as pl_model
from games.core.english import count
from games.promised_land.model import View

from . import draw as dr
from . import theme
from .map import (
    Faction,
    Geometry,
    MapData,
    MapOverlay,
    Marker,
    Units,
    chip_plan,
    chip_room,
    draw_marker,
    image_size,
    layout_labels,
    load_geography,
    load_token_anchors,
    paste_static,
    place_tokens,
    prepare_token_places,
    render_map_image,
    water_label_boxes,
)
from .paint import Draw
from .phone import HandCard
from .record import add as record_texts
from .record import panel, recording
from .text import draw_fit, draw_text, face, wrap
from .theme import SeatStyle

MAP_WIDTH = 1040
KEY_H = 108  # the key band under the map and the side panel
KEY_TEXT = 15  # pixels
PANEL_WIDTH = 1600 - MAP_WIDTH
# A counter colour's style: its Okabe-Ito colour (kingdoms.toml) in a shape that no player seat of
# a like colour has (seats 1-6 are an orange circle, a sky-blue square, a green triangle, a yellow
# diamond, a blue pentagon and a vermillion hexagon; the star is no seat's), so a kingdom's units
# are never drawn like a seat's Patriarchs: the Midianites' and Egyptians' vermillion is a square,
# never a circle like seat 1's orange. Squares, diamonds, pentagons and hexagons leave room for
# two letters.
COUNTER_SHAPE = {
    "pma": ("#E69F00", "pentagon"),
    "southern": ("#56B4E9", "diamond"),
    "pea": ("#009E73", "hexagon"),
    "northern": ("#0072B2", "star"),
    "me": ("#D55E00", "square"),
    "cab": ("#CC79A7", "square"),
}
COUNTER_SEAT = {  # the theme.seat_style number that gives each counter colour its shape
    c: next(n for n in range(64) if (theme.seat_style(n).colour, theme.seat_style(n).shape)
            == (theme.hex_colour(colour), shape))
    for c, (colour, shape) in COUNTER_SHAPE.items()
}  # fmt: skip
SHORT = {
    "northern": "N",
    "southern": "S",
    "canaanites": "Ca",
    "phoenicians": "Ph",
    "edomites": "Ed",
    "ammonites": "Am",
    "philistines": "Pi",
    "moabites": "Mo",
    "arameans": "Ar",
    "assyrians": "As",
    "babylonians": "Ba",
    "midianites": "Mi",
    "egyptians": "Eg",
}
PATRIARCH_LETTER = {"farmer": "F", "merchant": "M", "priest": "P"}


DATA = Path(pl_model.__file__).resolve().parent / "data"


@functools.cache
def _toml(name: str) -> dict:
    """A data file of the game (the board reads the map's TOML, never the rules)."""
    return tomllib.loads((DATA / name).read_text(encoding="utf-8"))


MAP_FILE = Path(__file__).resolve().parent / "maps" / "promised_land.json"


@functools.cache
def map_data() -> MapData:
    """The board's map: the 25 lands of ``lands.toml`` on the real Canaan (coast, the
    Jordan, the Sea of Chinnereth and the Salt Sea), with the shapes authored by
    ``tools/author_maps.py`` into ``render/maps/promised_land.json``; hills and plains
    told apart by colour and pattern, a port and a road marked after a land's name."""
    geo, cells, width, height = load_geography(MAP_FILE)
    nodes = []
    for land in _toml("lands.toml")["land"]:
        (x, y), parts = cells[land["id"]]
        nodes.append(
            {
                "id": land["id"],
                "name": land["name"]
                + (" \u2693" if land.get("port") else "")
                + (" \u2261" if land.get("road") else ""),
                "x": x,
                "y": y,
                "region": land["terrain"],
                "parts": parts,
            }
        )
    edges = [{"a": b["a"], "b": b["b"], "kind": b.get("kind", "land")} for b in _toml("lands.toml")["border"]]
    return MapData.model_validate(
        {
            "id": "promised-land",
            "title": "Canaan 1250-587 BC",
            "width": width,
            "height": height,
            "regions": [
                {"id": "hill", "name": "Hills", "colour": "#B07D3C", "pattern": "hatch"},
                {"id": "plain", "name": "Plains", "colour": "#9DBF6A", "pattern": "dots"},
            ],
            "nodes": nodes,
            "edges": edges,
            "geography": geo,
            "legend_marks": [
                ("city", "city"),
                ("temple", "temple"),
                ("ark", "the Ark"),
                ("combat", "last combat"),
            ],
        }
    )


@functools.cache
def _factions() -> tuple[Faction, ...]:
    """A faction per kingdom in its counters' colour and shape, labelled with its initials;
    and one per colour ("?") for units cut off from their kingdom."""
    kingdoms = _toml("kingdoms.toml")["kingdom"]
    out = [
        Faction(id=k["id"], name=k["name"], seat=COUNTER_SEAT[k["counters"]], label=SHORT[k["id"]])
        for k in kingdoms
    ]
    return tuple(out + [Faction(id=f"c-{c}", name=c, seat=COUNTER_SEAT[c], label="?") for c in COUNTER_SEAT])


def _seat_name(v: View, seat: int, names: Mapping[int, str] | None) -> str:
    base = (names or {}).get(seat) or f"Seat {seat + 1}"
    return f"{base} ({'Hebrews' if v.players[seat].side == 'hebrew' else 'Heathens'})"


def hand_cards(v: View) -> tuple[str, list[HandCard]] | None:
    """The viewer's Kingdom cards for the phone hand image (``render.phone``): each card's
    number and name, its kingdom, side and units, its combat dice and Weaker-card points; None
    without a hand."""
    me = next((p for p in v.players if p.seat == v.viewer), None)
    if me is None or me.hand is None:
        return None
    out = []
    for c in me.hand:
        kind = f"{c.kingdom} \u00b7 {c.side.title()} \u00b7 {count(c.units, 'unit')}"
        text = (f"Combat dice: {c.hills} in hills, {c.plains} on plains. "
                f"Weaker-card points: {c.points}.")  # fmt: skip
        out.append(HandCard(f"{c.number} {c.name}", kind, text, theme.seat_style(me.seat).colour))
    return f"Your Kingdom cards \u2014 {count(len(me.hand), 'card')}", out


def phone_area(size: tuple[int, int]) -> dr.Box:
    """The map's part of a board image of ``size`` (width, height) pixels: below the header,
    left of the side panel, above the key (for ``render.phone.changed_crop``)."""
    return (0, dr.HEADER_HEIGHT, MAP_WIDTH, size[1] - KEY_H)


PATRIARCH_SIZE = 32  # pixels across a Patriarch token: its letter 14 px bold even in a triangle
PATRIARCH_SMALL = 26  # in a land too crowded for the full size: its letter 14 px, 11 in a triangle
# a token's radius in pixels, for placing it inside its land
# (a city is drawn 4 pixels below its place, so that its roof and walls, 20 pixels above the
# marker's centre and 11 below, stand within 17 pixels of it: render.map.draw_marker)
TOKEN_RADIUS = {"city": 17, "temple": 16, "ark": 22, "patriarch": PATRIARCH_SIZE // 2}
CITY_DROP = 4
# in a land too crowded for a token at its full size: a Patriarch 26 px across, a city or temple
# drawn at three quarters of its size
SMALL_RADIUS = {"patriarch": PATRIARCH_SMALL // 2, "city": 13, "temple": 12}


@functools.cache
def token_anchors() -> dict[str, tuple[float, float]]:
    """Land id -> where its tokens gather, in map units (authored with the map: the point
    farthest inside the land near its units, clear of them and of its name)."""
    return load_token_anchors(MAP_FILE)


@dataclass(frozen=True)
class Token:
    """A token drawn on a land: ``kind`` (city, temple, ark, patriarch), its Patriarch's
    (seat, type) or None, its centre in pixels of the map image, and whether it found a place
    inside its land (else it stands in a row at the land's token anchor), and its ``size`` in
    pixels across (a Patriarch is drawn smaller in a land too crowded for its full size)."""

    land: str
    kind: str
    patriarch: tuple[int, str] | None
    at: tuple[float, float]
    placed: bool
    size: int = 0


def token_places(m: MapData, v: View, overlay: MapOverlay) -> list[Token]:
    """Where the city, temple, Ark and Patriarchs of each land go: inside the land, clear of
    its border, every unit chip, the last combat's ring and every name (``render.map.place_tokens``), near the row
    above its units; a token with no such place goes in that row."""
    g = Geometry(m, MAP_WIDTH)
    room = chip_room(m, MAP_WIDTH)
    labels = [box for box, _, _ in layout_labels(m, MAP_WIDTH).values()] + water_label_boxes(m, MAP_WIDTH)
    styles = {f.id: f.style for f in overlay.factions}
    chips = []  # every land's unit chips: a chip may reach over its land's border
    for u in overlay.units:
        ux, uy = g.pt(m.node(u.node).x, m.node(u.node).y)
        plan = chip_plan([(styles[u.faction], str(u.count))], room[u.node])
        chips.append((ux - plan.half - 4, uy + plan.top - 4, ux + plan.half + 4, uy + plan.bottom + 4))
    for node_id in overlay.highlight:  # the last combat's ring, as render.map draws it
        hx, hy = g.pt(m.node(node_id).x, m.node(node_id).y)
        here = [(styles[u.faction], str(u.count)) for u in overlay.units if u.node == node_id]
        hplan = chip_plan(here, room[node_id]) if here else None
        half = min(124.0, max(60.0, (hplan.half if hplan else 0) + 10), room[node_id] + 2)
        top = min(hplan.top - 6, -24) if hplan else -24
        bottom = max(hplan.bottom + 4, 22) if hplan else 22
        chips.append((hx - half - 4, hy + top - 4, hx + half + 4, hy + bottom + 4))
    out = []
    for land in v.lands:
        node = m.node(land.id)
        cx, cy = g.pt(node.x, node.y)
        items: list[tuple[str, tuple[int, str] | None]] = []
        items += [("city", None)] * land.city + [("temple", None)] * land.temple + [("ark", None)] * land.ark
        items += [("patriarch", pat) for pat in land.patriarchs]
        if not items:
            continue
        avoid = [
            b
            for b in labels + chips
            if abs((b[0] + b[2]) / 2 - cx) < 260 and abs((b[1] + b[3]) / 2 - cy) < 260
        ]
        anchor = token_anchors().get(land.id)
        prefer = g.pt(*anchor) if anchor else (cx, cy - 44)
        radii = tuple((TOKEN_RADIUS[k], SMALL_RADIUS[k]) if k in SMALL_RADIUS else TOKEN_RADIUS[k] for k, _ in items)
        spots = _spots(m, land.id, radii, tuple(avoid), prefer)
        row = iter([(prefer[0] + 34 * k, prefer[1]) for k in range(len(items))])
        for (kind, pat), spot in zip(items, spots, strict=True):
            at = spot[0] if spot else next(row)
            size = 2 * int(spot[1]) if spot else 2 * TOKEN_RADIUS[kind]
            out.append(Token(land.id, kind, pat, at, spot is not None, size))
    return out


_SPOTS: dict[tuple, tuple[MapData, list[tuple[tuple[float, float], float] | None]]] = {}


def _spots(
    m: MapData, land: str, radii: tuple, avoid: tuple[dr.Box, ...], prefer: tuple[float, float]
) -> list[tuple[tuple[float, float], float] | None]:
    """``place_tokens`` remembered per map object and inputs: from one state to the next most
    lands keep their tokens and their neighbours' chips."""
    key = (id(m), land, radii, avoid, prefer)
    found = _SPOTS.get(key)
    if found is None or found[0] is not m:
        if len(_SPOTS) > 4096:
            _SPOTS.clear()
        found = _SPOTS[key] = (m, place_tokens(m, MAP_WIDTH, land, radii, avoid, prefer))
    return found[1]


def _tokens(mapimg: Image.Image, m: MapData, v: View, overlay: MapOverlay) -> None:
    """Draw each land's tokens where ``token_places`` puts them."""
    for t in token_places(m, v, overlay):
        if t.patriarch is None:
            scale = t.size / (2 * TOKEN_RADIUS[t.kind]) if t.size else 1.0
            at = (t.at[0], t.at[1] + (CITY_DROP if t.kind == "city" else 0) * scale)
            if scale >= 1:
                draw_marker(mapimg, Marker(node=t.land, kind=t.kind), at, None)  # type: ignore[arg-type]
            else:
                _small_marker(mapimg, t, at, scale)
        else:
            seat, ptype = t.patriarch
            dr.paste_badge(mapimg, theme.seat_style(seat, PATRIARCH_LETTER[ptype]), t.at, t.size or PATRIARCH_SIZE)


def _small_marker(mapimg: Image.Image, t: Token, at: tuple[float, float], scale: float) -> None:
    """A city's or temple's marker at ``scale`` of its size, centred on ``at``: drawn on its own
    layer and scaled down."""
    layer = Image.new("RGBA", (64, 64), (0, 0, 0, 0))
    draw_marker(layer, Marker(node=t.land, kind=t.kind), (32, 32), None)  # type: ignore[arg-type]
    side = max(1, round(64 * scale))
    small = layer.resize((side, side), Image.Resampling.LANCZOS)
    mapimg.paste(small, (round(at[0] - side / 2), round(at[1] - side / 2)), small)


def map_overlay(v: View) -> MapOverlay:
    """What the map shows of ``v`` beyond the land itself: each land's units (as its kingdom's
    counters), the header's phase and turn, and the last combat's land ringed."""
    units = []
    for land in v.lands:
        if land.units:
            fid = land.kingdom or f"c-{land.counters}"
            units.append(Units(node=land.id, faction=fid, count=land.units))
    phase = (
        v.phase
        if v.turn is None
        else {
            "kb": "Kingdom building",
            "actions": "Actions",
            "revenue": "Collect revenue",
            "buy": "Buy Artefact",
        }[v.turn.phase]
    )
    highlight = (
        (v.last_combat.land,) if v.last_combat and v.last_combat.land in {x.id for x in v.lands} else ()
    )
    overlay = MapOverlay(
        game="Promised Land",
        phase=f"Book {v.book} \u00b7 card {v.time} \u00b7 {phase}" if v.phase != "over" else "Game over",
        active=v.turn.kingdom if v.turn else None,
        factions=_factions(),
        units=tuple(units),
        highlight=highlight,
        note=None,
    )
    return overlay


def render(v: View, names: Mapping[int, str] | None = None) -> Image.Image:
    """The board image of a Promised Land View (public or a seat's own): RGB, 1600 wide."""
    m = map_data()
    overlay = map_overlay(v)
    map_size = image_size(m, MAP_WIDTH)
    # the side panel runs below the map when its players need more room than the map is high
    extra = max(0, side_height(v, names) - (map_size[1] - 16 - dr.HEADER_HEIGHT - 16))
    map_h = map_size[1] + extra
    img = Image.new("RGB", (MAP_WIDTH + PANEL_WIDTH, map_h + KEY_H), theme.BACKGROUND)
    with recording() as drawn:  # the map drawn onto the board (its header drawn over by the board's own)
        paste_static(img, m, MAP_WIDTH)
        prepare_token_places(m, MAP_WIDTH)
        render_map_image(m, overlay, MAP_WIDTH, header=False, onto=img)
    # the map's own header is drawn over below (the board has one across its whole width)
    record_texts([t for t in drawn if t.canvas != map_size or t.box[1] >= dr.HEADER_HEIGHT])
    _tokens(img, m, v, overlay)
    side = (MAP_WIDTH, dr.HEADER_HEIGHT + 16, img.width - 16, map_h - 16)
    with panel("side panel", side, img.size):
        _panel(img, v, names, side)
    band = (16, map_h - 4, img.width - 16, img.height - 8)
    with panel("key", band, img.size):
        _key(img, v, band)
    active = None
    if v.turn is not None:
        label = f"{v.turn.card.name} \u2014 {_seat_name(v, v.turn.seat, names)}"
        active = (label, theme.seat_style(v.turn.seat))
    dr.header(
        img,
        dr.Header(
            game="Promised Land",
            phase=overlay.phase,
            turn_label=active[0] if active else None,
            turn_style=active[1] if active else None,
        ),
    )
    return img


def _panel(img: Image.Image, v: View, names: Mapping[int, str] | None, box: dr.Box) -> None:
    d = Draw(img)
    left, top, right, bottom = box
    d.rounded_rectangle(box, radius=14, fill=theme.PANEL, outline=theme.INK, width=2)
    x = left + 16
    w = right - left - 32
    y = top + 12
    f = face(theme.MIN_TEXT + 1)
    fb = face(theme.TEXT, "bold")
    small = face(theme.MIN_TEXT)

    def title(text: str, note: str = "") -> None:
        nonlocal y
        tw = draw_text(d, (x, y), text, fb, theme.INK)
        if note:  # after the title, in the room left on its line
            draw_fit(d, (x + tw + 10, y + fb.metrics[0]), note, small.size, theme.INK_MUTED, w - tw - 10, "ls")
        y += 28

    # Time track: 54 cells, 18 per Book
    title("Time track")
    cell = w / 18
    for n in range(1, 55):
        col, row = (n - 1) % 18, (n - 1) // 18
        cx0, cy0 = x + col * cell, y + row * 30
        done = n <= v.time
        fill = theme.mix(theme.PANEL, theme.INK, 0.35) if done else theme.LIGHT
        if n == v.time and v.phase == "turn":
            fill = theme.ACTIVE
        d.rectangle((cx0 + 1, cy0, cx0 + cell - 2, cy0 + 26), fill=fill, outline=theme.INK, width=1)
        draw_text(d, (cx0 + cell / 2, cy0 + 13), str(n), small, theme.INK, "mm")
    y += 3 * 30 + 8
    for text in _turn_texts(v):
        y = _para(d, x, y, w, text, f)
    y += 6
    # Royal track
    title("Royal track", "a seat's badge: the last token it reached")
    y = _track(
        img, d, x, y, w, [(name, str(pts)) for _, name, _, pts in v.royal_track], [p.royal for p in v.players]
    )
    title("Kingdom track")
    y = _track(
        img,
        d,
        x,
        y,
        w,
        [(_short_demand(tid), str(pts)) for tid, _, pts in v.kingdom_track],
        [p.kingdom for p in v.players],
    )
    # the key and the supply line are reserved at the bottom; the players get the room between
    key_h = 30
    foot = bottom - 30

    # players, with their points so far (public items only: coins are hidden until the end)
    def pts(p: pl_model.PlayerView) -> int:  # the final score once over (coins counted), else so far
        return p.score if v.phase == "over" and p.score is not None else p.points

    teams = {side: sum(pts(p) for p in v.players if p.side == side) for side in ("hebrew", "heathen")}
    draw_text(d, (x, y), "Players", fb, theme.INK)
    over = v.phase == "over"
    team_line = f"Hebrews {teams['hebrew']} \u00b7 Heathens {teams['heathen']} pts" + (
        "" if over else " so far"
    )
    draw_fit(d, (right - 16, y + 4), team_line, small.size, theme.INK, w - 110, "ra", "bold")
    y += 28
    room = foot - key_h - y
    blocks = None
    for size in (19, 18, 17, 16, 15, 14):  # few players: larger, for the room they leave
        blocks = [_player_block(v, p, names, w, size) for p in v.players]
        if sum(h for h, _ in blocks) <= room:
            break
    assert blocks is not None
    gap = max(0.0, min(18.0, (room - sum(h for h, _ in blocks)) / len(blocks)))  # room left: between players
    for p, (h, lines) in zip(v.players, blocks, strict=True):
        with panel(f"player {p.seat + 1}", (x, y, right - 16, y + h), img.size):
            _draw_player(img, d, v, p, names, x, y, w, lines)
        y += h + gap
    line = (
        f"Artefact array {len(v.array)} \u00b7 bag {v.bag_size} \u00b7 supply: cities {v.cities}, "
        f"temples {v.temples}"
    )
    draw_fit(d, (x, foot), line, small.size, theme.INK, w)


def _turn_texts(v: View) -> list[str]:
    """The paragraphs under the Time track: the card played now, its actions and effects, and
    the last combat."""
    out = []
    if v.turn is not None:
        t = v.turn
        c = t.card
        half = " +\u00bd" if t.half else ""
        out.append(
            f"Card {c.number}: {c.name} ({t.kingdom_name}) \u2014 dice hills {c.hills} / plains {c.plains}; "
            f"units in hand {t.units}{half}"
        )
        extra = []
        if t.phase == "actions":
            extra.append(
                f"actions left {t.actions}" + (f", free placements {t.free_places}" if t.free_places else "")
            )
        if t.continued:
            extra.append(f"continued attack +{t.continued}")
        if t.effects:
            extra.append("in play: " + ", ".join(t.effects))
        if extra:
            out.append("; ".join(extra))
    if v.last_combat is not None:
        out.append("\u2694 " + v.last_combat.text)
    return out


TRACK_TOKEN = 42  # pixels a track token takes (40) and the gap under it
TRACK_MARKER = 28  # pixels across a seat's marker on a track (its number 15 px bold, 12 in a triangle)


def _track_layout(count: int, marks: list[int], w: float) -> tuple[int, float, int, list[int]]:
    """(tokens a row, a token's width, markers a line, each row's height in pixels) of a track of
    ``count`` tokens ``w`` pixels wide with the seats' markers ``marks`` (1-based token, 0 none):
    under each token its seats' markers side by side, each at least four fifths visible, in as
    many lines as the most crowded token of the row needs."""
    per_row = 6 if count > 8 else 4
    cw = w / per_row
    m = TRACK_MARKER
    fit = 1 + int((cw - 6 - m) // (0.8 * m))
    heights = []
    for row in range(-(-count // per_row)):
        most = max((sum(1 for x in marks if x == i + 1) for i in range(row * per_row, (row + 1) * per_row)), default=0)
        heights.append(TRACK_TOKEN + max(1, -(-most // fit)) * (m + 2))
    return per_row, cw, fit, heights


def _track_height(count: int, marks: list[int], w: float) -> int:
    return sum(_track_layout(count, marks, w)[3]) + 4


def side_height(v: View, names: Mapping[int, str] | None) -> int:
    """Height in pixels the side panel needs: the tracks, the turn, every player's block at 14
    pixels and the supply line."""
    w = PANEL_WIDTH - 16 - 32
    f = face(theme.MIN_TEXT + 1)
    h = 12 + 28 + 3 * 30 + 8
    h += sum(len(wrap(text, f, w)) * f.line_height for text in _turn_texts(v)) + 6
    h += 28 + _track_height(len(v.royal_track), [p.royal for p in v.players], w)
    h += 28 + _track_height(len(v.kingdom_track), [p.kingdom for p in v.players], w)
    h += 28 + sum(_player_block(v, p, names, w, 14)[0] for p in v.players)
    return h + 30 + 16


def _player_block(
    v: View, p: pl_model.PlayerView, names: Mapping[int, str] | None, w: float, size: int
) -> tuple[float, list[tuple[str, object]]]:
    """(height, lines) of one player's block at text ``size``: the lines under the name row,
    each (text, face), wrapped to the panel's width."""
    f = face(size)
    coins = (
        "coins hidden"
        if p.coins is None
        else f"coins {p.coins[0]} bronze, {p.coins[1]} silver, {p.coins[2]} gold"
    )
    sup = "/".join(str(n) for n in p.patriarchs_in_supply)
    first = f"{count(p.hand_size, 'card')} \u00b7 {coins}"
    supply = f"Patriarchs F/M/P in supply {sup}"
    # on one line when it fits, else the supply on a line of its own (never its numbers alone)
    texts = [f"{first} \u00b7 {supply}"] if f.length(f"{first} \u00b7 {supply}") <= w - 36 else [first, supply]
    if p.artefacts:
        texts.append("Artefacts: " + _artefacts(p))
    if p.hand:
        texts += ["Hand:"] + [_hand_line(c) for c in p.hand]
    lines: list[tuple[str, object]] = []
    for text in texts:
        lines += [(line, f) for line in wrap(text, f, w - 36)]
    return 30 + len(lines) * f.line_height + 4, lines


def _hand_line(c: pl_model.CardView) -> str:
    """A Kingdom card in hand as one line: what a player decides with (units, dice, points)."""
    return (f"{c.number} {c.name}: {count(c.units, 'unit')}, dice {c.hills} in hills / {c.plains} on plains, "
            f"Weaker card {count(c.points, 'pt')}")  # fmt: skip


def _artefacts(p: pl_model.PlayerView) -> str:
    """A seat's Artefacts, the same ones counted ("Treaty (silver) ×2"), with how many are played."""
    seen: dict[str, list[int]] = {}
    for a in p.artefacts:
        n = seen.setdefault(a.name, [0, 0])
        n[0] += 1
        n[1] += 1 if a.face_down else 0
    parts = []
    for name, (n, played) in seen.items():
        mark = "" if not played else " played" if played == n else f" ({played} played)"
        parts.append(name + (f" \u00d7{n}" if n > 1 else "") + mark)
    return ", ".join(parts)


def _draw_player(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    v: View,
    p: pl_model.PlayerView,
    names: Mapping[int, str] | None,
    x: float,
    y: float,
    w: float,
    lines: list[tuple[str, object]],
) -> None:
    fb = face(theme.TEXT, "bold")
    dr.paste_badge(img, theme.seat_style(p.seat), (x + 14, y + 14), 28)
    tags = []
    if p.seat == v.viewer:
        tags.append("YOU")
    if p.seat in v.waiting and v.phase != "over":
        tags.append("\u25b6 to act")
    if v.phase == "over" and p.seat in v.winners:
        tags.append("\u2605 winner")
    pts = count(p.score, "point") if v.phase == "over" and p.score is not None else count(p.points, "pt")
    right = x + w
    right -= draw_text(d, (right, y + 14), pts, fb, theme.INK, "rm") + 12
    ft = face(theme.MIN_TEXT, "bold")
    for tag in tags:
        tw = ft.length(tag) + 14
        d.rounded_rectangle((right - tw, y + 2, right, y + 26), radius=8,
                            fill=theme.ACTIVE if "act" in tag else theme.LIGHT, outline=theme.INK)  # fmt: skip
        draw_text(d, (right - tw / 2, y + 14), tag, ft, theme.INK, "mm")
        right -= tw + 6
    draw_fit(
        d, (x + 36, y + 14), _seat_name(v, p.seat, names), fb.size, theme.INK, right - x - 42, "lm", "bold"
    )
    ly = y + 30
    for text, f in lines:
        draw_text(d, (x + 36, ly), text, f, theme.INK)
        ly += f.line_height


def _key(img: Image.Image, v: View, box: dr.Box) -> None:
    """The key band: what the map's marks and the panel's points mean."""
    d = Draw(img)
    left, top, right, bottom = box
    d.rounded_rectangle(box, radius=10, fill=theme.PANEL, outline=theme.INK, width=2)
    x, w = left + 12, right - left - 24
    y = top + 6
    f = face(KEY_TEXT)
    units = _key_units(v)
    if units:  # each kingdom's counter as drawn on the map, then its initials and name
        ux = x
        draw_text(d, (ux, y + 11), "Units:", face(KEY_TEXT, "bold"), theme.INK, "lm")
        ux += face(KEY_TEXT, "bold").length("Units:") + 8
        for style, text in units:
            tw = 24 + f.length(text) + 14
            if ux + tw > x + w:
                ux, y = x, y + 24
            dr.paste_badge(img, style, (ux + 11, y + 11), 22)
            draw_text(d, (ux + 26, y + 11), text, f, theme.INK, "lm")
            ux += tw
        y += 25
    for line in _key_lines(v):
        y = _para(d, x, y, w, line, f)


def _key_units(v: View) -> list[tuple[SeatStyle, str]]:
    """(counter style, "Pi Philistines") for each kingdom whose units are on the board, in the
    order of kingdoms.toml; the kingdoms sharing a counter colour differ by their initials."""
    on_board = {land.kingdom for land in v.lands if land.units}
    styles = {f.id: f.style for f in _factions()}
    return [(styles[k["id"]], f"{SHORT[k['id']]} {k['name']}") for k in _toml("kingdoms.toml")["kingdom"]
            if k["id"] in on_board]  # fmt: skip


def _key_lines(v: View) -> list[str]:
    """The key to the map's other abbreviations (below the units' counters, ``_key_units``):
    the Patriarch letters, the points shown in the panel and the marks after land names
    (port, road)."""
    lines: list = []
    cut = (
        " \u00b7 ? units cut off from their kingdom"
        if any(land.units and not land.kingdom for land in v.lands)
        else ""
    )
    lines.append(
        "Patriarchs (owner's colour): F farmer \u00b7 M merchant \u00b7 P priest" + cut + " \u00b7 pts: "
        "points so far (Hebrew remnant, tokens, Weaker cards, Artefacts); coins count at the end"
    )
    lines.append(
        "After a land's name: \u2693 port \u00b7 \u2261 road (the key under the map shows the "
        "city, the temple, the Ark and the last combat)"
    )
    return lines


def _short_demand(token_id: str) -> str:
    """``plains-2`` -> ``2 plains``; ``ark`` -> ``Ark``."""
    what, _, n = token_id.partition("-")
    return f"{n} {what}" if n else what.title()


def _para(d: ImageDraw.ImageDraw, x: float, y: float, w: float, text: str, f) -> float:
    """Draw ``text`` wrapped to ``w`` pixels from (x, y); returns the y below it."""
    for line in wrap(text, f, w):
        draw_text(d, (x, y), line, f, theme.INK)
        y += f.line_height
    return y


def _track(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    x: float,
    y: float,
    w: float,
    tokens: list[tuple[str, str]],
    marks: list[int],
) -> float:
    """Tokens left to right (two rows when many); each player's marker on the last achieved token
    (``_track_layout``)."""
    per_row, cw, fit, heights = _track_layout(len(tokens), marks, w)
    small = face(theme.MIN_TEXT)
    for i, (name, pts) in enumerate(tokens):
        col, row = i % per_row, i // per_row
        x0, y0 = x + col * cw, y + sum(heights[:row])
        d.rounded_rectangle(
            (x0 + 2, y0, x0 + cw - 4, y0 + 40), radius=6, fill=theme.LIGHT, outline=theme.INK, width=1
        )
        draw_fit(d, (x0 + cw / 2 - 1, y0 + 12), name, small.size, theme.INK, cw - 10, "mm")
        draw_text(d, (x0 + cw / 2 - 1, y0 + 30), f"{pts} pt", face(14), theme.INK_MUTED, "mm")
        here = [s for s, m in enumerate(marks) if m == i + 1]
        m = TRACK_MARKER
        step = min(m + 2.0, (cw - m - 6) / max(1, min(len(here), fit) - 1))  # several seats share the width
        for k, s in enumerate(here):
            line, k = divmod(k, fit)
            at = (x0 + 2 + m / 2 + k * step, y0 + TRACK_TOKEN + m / 2 + line * (m + 2))
            dr.paste_badge(img, theme.seat_style(s), at, m)
    return y + sum(heights) + 4
