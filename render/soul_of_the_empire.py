"""Soul of the Empire board image: the map of the Roman world through ``render.map`` plus a
panel with each faction's points, dice, tracks and the face-up Objective Cards.

Built from a View only. The map comes from the game's own board data
(``games/soul_of_the_empire/data/board.toml``): territories coloured by region (a fill
pattern and the legend's region names as the second cue), land borders and the sea
links (dashed). Units are drawn per faction with counts; Objective Point Markers as
flags labelled with their owner; the last combat's territory is ringed.

Size: 1600 pixels wide; the map part as ``render.map.image_size`` gives, the panel
below it ``PANEL_H`` pixels high (RGB).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

from PIL import Image, ImageDraw

from . import draw as dr
from . import theme
from .map import Edge as MapEdge
from .map import Faction, MapData, MapOverlay, Marker, Region, Units, render_map_image
from .map import Node as MapNode
from .text import draw_text, face, wrap

WIDTH = theme.WIDTH
PANEL_H = 430

# faction -> (palette index for theme.seat_style, label); Rome red, Jews blue, Coalition
# green, Christians white-ish (yellow in the colour-blind-safe palette), Gray black
STYLE = {
    "rome": (5, "R"),
    "jews": (4, "J"),
    "coalition": (2, "C"),
    "christians": (3, "X"),
    "gray": (7, "G"),
}
NAMES = {
    "rome": "Rome",
    "jews": "Jewish",
    "coalition": "Coalition",
    "christians": "Christian",
    "gray": "Gray",
}


@functools.cache
def map_data() -> MapData:
    """The board as ``render.map`` data (cached)."""
    from games.soul_of_the_empire.data import load

    d = load()
    return MapData(
        id="soul-of-the-empire",
        title="The Roman world, first century AD",
        width=1600,
        height=1080,
        regions=tuple(
            Region(id=r.id, name=r.name, colour=r.colour, pattern=r.pattern) for r in d.regions.values()
        ),
        nodes=tuple(
            MapNode(id=t.id, name=t.name, x=t.x, y=t.y, region=t.region, authored=t.authored)
            for t in d.territories.values()
        ),
        edges=tuple(MapEdge(a=e.a, b=e.b, kind=e.kind) for e in d.edges),
    )


def faction_style(fid: str) -> theme.SeatStyle:
    index, label = STYLE[fid]
    return theme.seat_style(index, label)


def _overlay(view: Any) -> MapOverlay:
    factions = tuple(Faction(id=f, name=NAMES[f], seat=STYLE[f][0], label=STYLE[f][1]) for f in STYLE)
    units = tuple(
        Units(node=t, faction=f, count=n)
        for t, cell in sorted(view.board.items())
        for f, n in sorted(cell.items(), key=lambda x: list(STYLE).index(x[0]))
    )
    claimed = set()
    for fv in view.factions:
        for d in fv.dice:
            if d.place == "marker" and d.on:
                claimed.add(d.on)
    markers = tuple(
        Marker(
            node=m.territory,
            kind="control",
            faction=m.owner,
            label=("claimed" if m.territory in claimed else None),
        )
        for m in view.markers
        if m.territory
    )
    highlight = ()
    if view.combat_territory:
        highlight = (view.combat_territory,)
    elif view.last_combat:
        highlight = (view.last_combat.territory,)
    phase = {
        "markers": "Setup: markers",
        "final": "Setup: Rome's final units",
        "roll": "Setup: roll and ready",
        "start": "Start Phase",
        "main": "Main Phase",
        "end": "End Phase",
        "discard": "End Phase",
        "over": "Game over",
    }[view.phase]
    return MapOverlay(
        game="Soul of the Empire",
        round=view.round,
        phase=phase,
        active=view.active,
        factions=factions,
        units=units,
        markers=markers,
        highlight=highlight,
        note=view.end_reason[:80] if view.phase == "over" else f"Objective deck {view.objective_deck}",
    )


def _die(
    d: ImageDraw.ImageDraw, box: dr.Box, value: int, style: theme.SeatStyle, seq: bool, faded: bool
) -> None:
    fill = theme.mix(style.colour, theme.PANEL, 0.65) if faded else style.colour
    d.rounded_rectangle(box, radius=7, fill=fill, outline=theme.INK, width=4 if seq else 2)
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    draw_text(d, (cx, cy), str(value) if value else "–", face(20, "bold"), theme.ink_on(fill), "mm")


def _panel(view: Any, names: Mapping[int, str] | None, width: int) -> Image.Image:
    img = Image.new("RGB", (width, PANEL_H), theme.TABLE)
    d = ImageDraw.Draw(img)
    names = names or {}
    f = face(19)
    fb = face(20, "bold")
    row_h = 64
    y = 14
    waiting = set(view.waiting)
    for fv in view.factions:
        style = faction_style(fv.id)
        d.rounded_rectangle(
            (16, y, 1000, y + row_h - 6), radius=10, fill=theme.PANEL, outline=theme.INK, width=2
        )
        if view.active == fv.id or (fv.id != "gray" and fv.seat in waiting and view.phase != "over"):
            d.rounded_rectangle((12, y - 4, 1004, y + row_h - 2), radius=12, outline=theme.ACTIVE, width=4)
        dr.paste_badge(img, style, (44, y + row_h / 2 - 3), 34)
        player = names.get(fv.seat, f"seat {fv.seat + 1}")
        draw_text(d, (70, y + 15), f"{fv.name}", fb, theme.INK, "lm", max_width=150)
        draw_text(d, (70, y + 37), player, face(16), theme.INK_MUTED, "lm", max_width=150)
        # points on the Objective Point Tracker 0..7
        x0 = 230
        draw_text(d, (x0, y + 25), f"{fv.points} pts", fb, theme.INK, "lm")
        for k in range(7):
            box = (x0 + 74 + k * 17, y + 16, x0 + 88 + k * 17, y + 34)
            d.rectangle(box, fill=style.colour if k < fv.points else theme.LIGHT, outline=theme.INK, width=1)
        x = 460
        if fv.id != "gray":
            for die in fv.dice:
                faded = die.place != "unspent"
                _die(
                    d,
                    (x, y + 8, x + 36, y + 44),
                    die.value if die.place != "spent" else 0,
                    style,
                    die.seq and not faded,
                    faded,
                )
                if die.place in ("objective", "block", "marker", "power"):
                    tag = {"objective": "obj", "block": "blk", "marker": "mkr", "power": "buy"}[die.place]
                    draw_text(d, (x + 18, y + 50), tag, face(13, "bold"), theme.INK, "mm")
                x += 42
        else:
            dice = [dd for r in view.revolts for dd in r.dice]
            for die in dice:
                _die(
                    d,
                    (x, y + 8, x + 36, y + 44),
                    die.value,
                    theme.seat_style(3, "Y"),
                    die.place == "unspent",
                    die.place != "unspent",
                )
                x += 42
            if not dice:
                draw_text(d, (x, y + 25), "no revolt", f, theme.INK_MUTED, "lm")
        x = 690
        bits = [f"supply {fv.supply}", f"board {fv.on_board}"]
        if fv.id != "gray":
            bits.append(f"hand {fv.hand_size}")
        if fv.id == "rome":
            bits.append(f"captured {fv.capture_track}/25")
        elif fv.id == "christians":
            bits.append(f"converted {fv.converted}/18")
        elif fv.id == "coalition":
            bits.append(f"Rage {fv.rage:+d}")
        # two lines: the counts, then the faction's own track
        draw_text(d, (x, y + (16 if bits[3:] else 28)), " · ".join(bits[:3]), f, theme.INK, "lm", max_width=305)
        if bits[3:]:
            draw_text(d, (x, y + 40), bits[3], f, theme.INK, "lm", max_width=305)
        y += row_h
    # the face-up Objective Cards
    x = 1020
    cw, ch = (width - x - 16), 96
    cy = 14
    for o in view.objectives[:4]:
        d.rounded_rectangle(
            (x, cy, x + cw, cy + ch - 6), radius=10, fill=theme.PANEL, outline=theme.INK, width=2
        )
        draw_text(d, (x + 10, cy + 14), o.name, face(18, "bold"), theme.INK, "lm", max_width=cw - 20)
        ly = cy + 34
        for line in o.lines:
            draw_text(d, (x + 10, ly), line, face(15), theme.INK, "lm", max_width=cw - 20)
            ly += 17
        if o.dice:
            draw_text(
                d,
                (x + cw - 10, cy + 14),
                "; ".join(o.dice),
                face(15, "bold"),
                theme.VERMILLION,
                "rm",
                max_width=cw * 0.45,
            )
        cy += ch
    small = face(16)
    key = (
        "Dice: thick border = Dice Sequence \u00b7 faded = placed (obj on an objective, blk blocking, "
        "mkr on a marker, buy paid for cards) \u00b7 \u2013 spent"
    )
    draw_text(d, (20, PANEL_H - 16), key, face(14), theme.LIGHT, "lm", max_width=980)
    if view.last_combat:
        lines = wrap("Last combat: " + view.last_combat.text, small, 980, max(1, (PANEL_H - y - 36) // 20))
        for line in lines:
            draw_text(d, (20, y + 10), line, small, theme.LIGHT, "lm")
            y += 20
    return img


def render(view: Any, names: Mapping[int, str] | None = None) -> Image.Image:
    """The board for ``view`` (RGB, 1600 wide): the map with units and markers, then the
    faction panel and the Objective Cards."""
    m = map_data()
    top = render_map_image(m, _overlay(view), WIDTH)
    panel = _panel(view, names, WIDTH)
    img = Image.new("RGB", (WIDTH, top.height + panel.height), theme.BACKGROUND)
    img.paste(top, (0, 0))
    img.paste(panel, (0, top.height))
    return img
