"""Soul of the Empire board image: the map of the Roman world through ``render.map`` plus a
panel with each faction's points, dice, tracks and the face-up Objective Cards.

Built from a View only. The map is the game's board data
(``games/soul_of_the_empire/data/board.toml``) on the real Mediterranean
(``render/maps/soul_of_the_empire.json``, authored by ``tools/author_maps.py``): provinces
as land filled in their region's colour (a fill pattern and the legend's region names as
the second cue), the sea as sea, shared borders as the rule borders, the sea links as dots
across water, and the red line between the Empire and the Coalition's territories. Units
are drawn per faction with counts inside their territory; Objective Point Markers as flags
labelled with their owner; the combat in progress's territory (else the last combat's)
is ringed and named under the factions.

Size: 1600 pixels wide; the map part as ``render.map.image_size`` gives, the panel
below it ``PANEL_H`` pixels high (RGB).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw

from games.core.english import count

from . import draw as dr
from . import theme
from .map import Edge as MapEdge
from .map import (
    Faction,
    MapData,
    MapOverlay,
    Marker,
    Region,
    Units,
    image_size,
    load_geography,
    paste_static,
    render_map_image,
)
from .map import Node as MapNode
from .paint import Draw
from .phone import HandCard
from .record import add as record_texts
from .record import panel, pasted, recording
from .text import draw_fit, draw_text, face, fit_paragraph, wrap

WIDTH = theme.WIDTH
PANEL_H = 636

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


MAP_FILE = Path(__file__).resolve().parent / "maps" / "soul_of_the_empire.json"


@functools.cache
def map_data() -> MapData:
    """The board as ``render.map`` data (cached): the territories of the game's board data
    (``games/soul_of_the_empire/data/board.toml``) drawn on the real Mediterranean, with the
    shapes authored by ``tools/author_maps.py`` into ``render/maps/soul_of_the_empire.json``."""
    from games.soul_of_the_empire.data import load

    d = load()
    geo, cells, width, height = load_geography(MAP_FILE)
    geo = geo.model_copy(update={"frontier_name": "red line: edge of the Roman Empire"})
    return MapData(
        id="soul-of-the-empire",
        title="The Roman world, first century AD",
        width=width,
        height=height,
        regions=tuple(
            Region(id=r.id, name=r.name, colour=r.colour, pattern=r.pattern) for r in d.regions.values()
        ),
        nodes=tuple(
            MapNode(
                id=t.id,
                name=t.name,
                x=cells[t.id][0][0],
                y=cells[t.id][0][1],
                region=t.region,
                parts=cells[t.id][1],
                authored=t.authored,
            )
            for t in d.territories.values()
        ),
        edges=tuple(MapEdge(a=e.a, b=e.b, kind=e.kind) for e in d.edges),
        geography=geo,
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
        note=_over_note(view) if view.phase == "over" else f"Objective deck {view.objective_deck}",
    )


def _over_note(view: Any) -> str:
    """The header's short word on a finished game; the full reason is in the panel."""
    nations = {p.seat: p.nation for p in view.players}
    won = [nations.get(w, f"seat {w + 1}") for w in view.winners]
    return ("Winner: " + ", ".join(won)) if won else "Game over"


def _die(
    d: ImageDraw.ImageDraw, box: dr.Box, value: int, style: theme.SeatStyle, seq: bool, faded: bool
) -> None:
    fill = theme.mix(style.colour, theme.PANEL, 0.65) if faded else style.colour
    d.rounded_rectangle(box, radius=7, fill=fill, outline=theme.INK, width=4 if seq else 2)
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    draw_text(d, (cx, cy), str(value) if value else "–", face(20, "bold"), theme.ink_on(fill), "mm")


def objective_lines(view: Any, o: Any) -> list[str]:
    """An Objective Card's lines for the factions in this game only (no Christian lines
    with 3 players): each line starts with its faction's name ("Rome (2): ...")."""
    present = {fv.name for fv in view.factions}
    return [_points_in_words(line) for line in o.lines if line and line.split(" (", 1)[0] in present]


_OBJECTIVE_LINE = re.compile(r"^([^()]+?) \((\d+)(?:, ([^)]*))?\): ")


def _points_in_words(line: str) -> str:
    """"Rome (2, Start Phase): 35+ units" reads "Rome, 2 pts at Start Phase: 35+ units" (the
    number is the Objective Points the faction scores, the phase when it scores them)."""

    def words(m: re.Match) -> str:
        pts = f"{m[2]} pt" + ("" if m[2] == "1" else "s")
        return f"{m[1]}, {pts}" + (f" at {m[3]}" if m[3] else "") + ": "

    return _OBJECTIVE_LINE.sub(words, line, count=1)


def asked_factions(view: Any) -> set[str]:
    """The factions whose row is marked "to act": the active faction, and for each seat
    asked (``view.waiting``) the faction it is asked for: its only faction, or when the
    seat plays two (2 players) the active one or the one in the combat, never both."""
    if view.phase == "over":
        return set()
    asked = {view.active} if view.active else set()
    for seat in view.waiting:
        own = [fv.id for fv in view.factions if fv.seat == seat and fv.id != "gray"]
        if len(own) == 1:
            asked.add(own[0])
            continue
        pick = [f for f in own if f == view.active or (view.combat_territory and f in view.combat_sides)]
        asked.update(pick or ([] if view.active else own[:1]))
    return asked


def hand_lines(view: Any) -> list[str]:
    """The viewer's private hand as lines: each of its factions' Power Cards by name, then
    its unused Combat Cards; empty for the public image (no faction carries a hand)."""
    from games.soul_of_the_empire.data import load

    data = load()
    out = []
    for fv in view.factions:
        if fv.hand is None:
            continue
        if not fv.hand:
            out.append(f"{fv.name}: no Power Cards")
        for c in fv.hand:
            card = data.card(c)
            out.append(f"{fv.name} \u00b7 {card.name}: {card.text}")
        left = [c for c in data.combat.values() if c.faction == fv.id and c.id not in fv.combat_used]
        if left:
            out.append(f"{fv.name} Combat Cards left: " + ", ".join(f"{c.name} ({c.number})" for c in left))
    return out




def _card_size(o: Any, lines: list[str], box: dr.Box, largest: int = 22) -> int:
    """The largest text size from ``largest`` pixels down to 14 at which an Objective Card's
    claims and lines fit ``box``."""
    x0, y0, x1, y1 = box
    w, avail = x1 - x0 - 20, y1 - y0 - 36
    claims = claims_line(o)
    for size in range(largest, 14, -1):
        f, fc = face(size), face(size, "bold")
        wrapped = sum(len(wrap(line, f, w - 12)) for line in lines)
        claimed = len(wrap(claims, fc, w)) if claims else 0
        if (wrapped + claimed) * f.line_height <= avail:
            return size
    return 14


def _card(d: ImageDraw.ImageDraw, o: Any, lines: list[str], box: dr.Box, size: int) -> None:
    """An Objective Card: name (and claims) on top, then its lines wrapped to the box at ``size``
    pixels (``_card_size``: the cards share the largest size that fits them all)."""
    x0, y0, x1, y1 = box
    d.rounded_rectangle(box, radius=10, fill=theme.PANEL, outline=theme.INK, width=2)
    w = x1 - x0 - 20
    draw_fit(d, (x0 + 10, y0 + 16), o.name, 20, theme.INK, w, "lm", "bold")
    claims = claims_line(o)
    f, fc = face(size), face(size, "bold")
    step = f.line_height
    wrapped = [wrap(line, f, w - 12) for line in lines]
    claimed = wrap(claims, fc, w) if claims else []
    ly = y0 + 32
    for part in claimed:
        draw_text(d, (x0 + 10, ly), part, fc, theme.VERMILLION)
        ly += step
    for para in wrapped:
        for k, part in enumerate(para):
            draw_text(d, (x0 + 10 + (12 if k else 0), ly), part, f, theme.INK)
            ly += step


def claims_line(o: Any) -> str:
    """Who claimed an Objective Card's marker with which die ("Rome claimed (die 5); Jewish
    claimed (die 3)"), or "" when nobody has."""
    return "; ".join(o.dice)


def _public_cards(view: Any) -> str:
    """Each faction's Durable Power Cards in play (public)."""
    from games.soul_of_the_empire.data import load

    data = load()
    parts = []
    for fv in view.factions:
        bits = []
        if fv.durable:
            bits.append(", ".join(data.card(c).name for c in fv.durable))
        if bits:
            parts.append(f"{fv.name}: {'; '.join(bits)}")
    return " · ".join(parts)


def _hand(d: ImageDraw.ImageDraw, box: dr.Box, hand: list[str]) -> None:
    """The viewer's hand box: a title, then each line wrapped (later parts indented), what comes
    before its first colon (the faction and the card's name) in bold, the font shrinking (to 14
    pixels) until all of them fit."""
    d.rounded_rectangle(box, radius=10, fill=theme.PANEL, outline=theme.INK, width=2)
    draw_text(d, (box[0] + 12, box[1] + 14), "Your hand (private)", face(17, "bold"), theme.INK, "lm")
    w, room = box[2] - box[0] - 40, box[3] - box[1] - 34
    for size in (16, 15, 14):
        hf, hb = face(size), face(size, "bold")
        parts = [wrap(line, hb, w) for line in hand]  # measured in bold: the bold head never runs over
        if sum(len(p) for p in parts) * hf.line_height <= room:
            break
    hy = box[1] + 28
    for line, para in zip(hand, parts, strict=True):
        head = line.split(": ", 1)[0] + ":" if ": " in line else ""
        for k, part in enumerate(para):
            x = box[0] + 12 + (14 if k else 0)
            if k == 0 and head and part.startswith(head):
                x += draw_text(d, (x, hy), head, hb, theme.INK) + hf.size * 0.32  # a space
                part = part[len(head) :].lstrip()
            draw_text(d, (x, hy), part, hf, theme.INK)
            hy += hf.line_height


def _key(img: Image.Image, d: ImageDraw.ImageDraw, y: float) -> None:
    """The map's state symbols: the combat ring, the flags and the "claimed" tag."""
    f = face(theme.MIN_TEXT)
    x = 20.0
    d.rounded_rectangle((x, y - 11, x + 44, y + 11), radius=10, outline=theme.ACTIVE, width=4)
    x += 52
    text = "combat in progress / last combat"
    draw_text(d, (x, y), text, f, theme.LIGHT, "lm")
    x += f.length(text) + 24
    for fid in ("rome", "jews"):
        st = faction_style(fid)
        d.line((x, y + 11, x, y - 11), fill=theme.LIGHT, width=3)
        d.polygon([(x, y - 11), (x + 18, y - 5), (x, y + 1)], fill=st.colour, outline=theme.INK)
        x += 26
    text = "Objective Point Marker"
    draw_text(d, (x, y), text, f, theme.LIGHT, "lm")
    x += f.length(text) + 24
    ft = face(theme.MIN_TEXT, "bold")
    w = ft.length("claimed") + 8
    d.rounded_rectangle((x, y - 9, x + w, y + 9), radius=5, fill=theme.PANEL, outline=theme.INK, width=1)
    draw_text(d, (x + 4, y), "claimed", ft, theme.INK, "lm")
    x += w + 8
    draw_text(d, (x, y), "a die claimed it", f, theme.LIGHT, "lm")


def _panel(view: Any, names: Mapping[int, str] | None, width: int) -> Image.Image:
    height = panel_height(view)
    img = Image.new("RGB", (width, height), theme.TABLE)
    d = Draw(img)
    names = names or {}
    f = face(19)
    fb = face(20, "bold")
    row_h = 64
    y = 14
    asked = asked_factions(view)
    for fv in view.factions:
        style = faction_style(fv.id)
        d.rounded_rectangle(
            (16, y, 1000, y + row_h - 6), radius=10, fill=theme.PANEL, outline=theme.INK, width=2
        )
        if fv.id in asked:
            d.rounded_rectangle((12, y - 4, 1004, y + row_h - 2), radius=12, outline=theme.ACTIVE, width=4)
        dr.paste_badge(img, style, (44, y + row_h / 2 - 3), 34)
        player = names.get(fv.seat, f"seat {fv.seat + 1}")
        draw_fit(d, (70, y + 15), f"{fv.name}", fb.size, theme.INK, 150, "lm", "bold")
        if fv.seat == view.viewer:
            ft = face(14, "bold")
            d.rounded_rectangle((70, y + 28, 70 + ft.length("YOU") + 12, y + 48), radius=6, fill=theme.LIGHT,
                                outline=theme.INK)  # fmt: skip
            draw_text(d, (76, y + 38), "YOU", ft, theme.INK, "lm")
            draw_fit(d, (70 + ft.length("YOU") + 18, y + 37), player, 16, theme.INK_MUTED, 132 - ft.length("YOU"), "lm")
        else:
            draw_fit(d, (70, y + 37), player, 16, theme.INK_MUTED, 150, "lm")
        # points on the Objective Point Tracker 0..7
        x0 = 230
        draw_text(d, (x0, y + 25), f"{fv.points} pt" + ("" if fv.points == 1 else "s"), fb, theme.INK, "lm")
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
        second = []
        if fv.id != "gray":
            bits.append(f"hand {fv.hand_size}")
            second.append(f"deck {fv.deck_size} · discard {len(fv.discard)}")
        if fv.id == "rome":
            second.insert(0, f"captured {fv.capture_track}/25")
        elif fv.id == "christians":
            second.insert(0, f"converted {fv.converted}/18")
        elif fv.id == "coalition":
            second.insert(0, f"Rage {fv.rage:+d}")
        # two lines: the counts, then the faction's own track and its Power Card piles
        draw_fit(d, (x, y + (16 if second else 28)), " · ".join(bits), f.size, theme.INK, 305, "lm")
        if second:
            draw_fit(d, (x, y + 40), " · ".join(second), f.size, theme.INK, 305, "lm")
        y += row_h
    # the face-up Objective Cards, as many lines as they need
    x = 1020
    cards = [(o, objective_lines(view, o)) for o in view.objectives[:4]]
    if cards:
        top, bottom = 14, height - 14
        heights = [
            36 + 20 * (sum(len(wrap(line, face(17), width - x - 48)) for line in lines)
                       + len(wrap(claims_line(o), face(17, "bold"), width - x - 36)))
            for o, lines in cards
        ]  # fmt: skip
        spare = (bottom - top - 8 * (len(cards) - 1)) / max(1, sum(heights))
        boxes, cy = [], top
        for h in heights:
            boxes.append((x, cy, width - 16, cy + h * spare))
            cy += h * spare + 8
        size = min(_card_size(o, lines, box) for (o, lines), box in zip(cards, boxes, strict=True))
        for (o, lines), box in zip(cards, boxes, strict=True):
            with panel(f"objective {o.name}", box, img.size):
                _card(d, o, lines, box, size)
    small = face(16)
    bottom = height - 76  # the key below
    if view.phase == "over" and view.end_reason:
        fe, lines = fit_paragraph(view.end_reason, 960, 60, 19, "bold")
        box = (16, y + 6, 1004, y + 16 + fe.line_height * len(lines))
        d.rounded_rectangle(box, radius=10, fill=theme.PANEL, outline=theme.ACTIVE, width=4)
        for k, line in enumerate(lines):
            draw_text(d, (30, y + 11 + k * fe.line_height), line, fe, theme.INK)
        y = box[3] + 4
    hand = hand_lines(view)
    texts = notes(view)
    for text, colour in texts:
        for line in wrap(text, small, 980):
            draw_text(d, (20, y + 4), line, small, colour)
            y += small.line_height
        y += 4
    public = _public_cards(view)
    if public and not hand:  # the public board: what is in play, in the room a hand has in a seat's view
        for line in wrap("Durable Power Cards in play: " + public, small, 980):
            draw_text(d, (20, y + 4), line, small, theme.LIGHT)
            y += small.line_height
    if not hand and view.phase != "over":  # the room a hand takes in a seat's view: a faction's turn
        fb = face(16, "bold")
        paras = [wrap(text, small, 860) for _, text in TURN_GUIDE]
        need = fb.line_height + 6 + sum(len(x) * small.line_height + 2 for x in paras)
        if y + 12 + need <= bottom:
            y += 12
            draw_text(d, (20, y), "A FACTION'S TURN (rule text, Turn Sequence)", fb, theme.LIGHT)
            y += fb.line_height + 6
            for (title, _), para in zip(TURN_GUIDE, paras, strict=True):
                draw_text(d, (20, y), title, fb, theme.LIGHT_MUTED)
                for line in para:
                    draw_text(d, (140, y), line, small, theme.LIGHT_MUTED)
                    y += small.line_height
                y += 2
    if hand:
        box = (16, y + 8, 1004, bottom)
        with panel("hand", box, img.size):
            _hand(d, box, hand + ([f"Durable Power Cards in play: {public}"] if public else []))
    _key_lines(img, d, height)
    return img


# what the asked faction decides in each phase (rule text, Turn Sequence), when no window says more
DECIDING = {
    "markers": "place an Objective Point Marker (setup)",
    "final": "place Rome's last units (setup)",
    "roll": "roll and ready dice (setup)",
    "start": "Start Phase: play Start Phase Power Cards, or go on",
    "main": "Main Phase: move a die to take an action, or end the phase",
    "end": "End Phase: play End Phase Power Cards, buy Power Cards, roll and ready dice, score claims",
    "discard": "End Phase: discard down to the hand limit",
}


TURN_GUIDE = (
    ("Start", "play Start Phase Power Cards; Rome scores its claimed Start Phase Objectives"),
    ("Main", "move a die from your Unspent Dice to take an action, in any order, again and again"),
    ("End", "play End Phase Power Cards, buy Power Cards (2 pips each), roll and ready your dice, score "
     "claimed Objectives; the Coalition scores sole occupancy of a Region"),
    ("Pass", "instead of the three phases: gather all your dice and roll and ready them"),
)


def combat_note(view: Any) -> str:
    """The combat in progress, which the map rings (it takes the ring from the last combat):
    "Combat in progress in Garamantes: Coalition attacks Rome; Rome has chosen a Combat Card"."""
    name = territory_name(view.combat_territory)
    text = f"Combat in progress in {name}"
    if len(view.combat_sides) == 2:
        att, dfn = view.combat_sides
        text += f": {NAMES.get(att, att)} attacks {NAMES.get(dfn, dfn)}"
    chosen = [NAMES.get(f, f) for f in view.combat_chosen]
    if chosen:
        what = "answered before the Combat Cards" if view.combat_stage == "powers" else "chosen a Combat Card"
        text += f"; {' and '.join(chosen)} {'has' if len(chosen) == 1 else 'have'} {what}"
    return text + " (ringed on the map)."


def territory_name(tid: str) -> str:
    """A territory's name on the map (its id when the map has none)."""
    return next((n.name for n in map_data().nodes if n.id == tid), tid)


def _combat_choice(view: Any) -> str:
    """What an asked side of the combat in progress decides (rule text, Combat: a Power Card
    played face down first, then each side chooses a Combat Card in secret), or "" when no
    combat waits for either."""
    if view.combat_stage is None or not view.combat_territory or not set(view.combat_sides) - set(view.combat_chosen):
        return ""
    name = territory_name(view.combat_territory)
    if view.combat_stage == "powers":
        return f"play a Power Card face down, or pass, before the Combat Cards in {name}"
    return f"choose a Combat Card for the combat in {name}"


def notes(view: Any) -> list[tuple[str, tuple[int, int, int]]]:
    """(text, colour) of the notes under the faction rows: who is asked, the last combat, how
    to win and what Rage does."""
    texts = []
    if view.phase != "over" and view.waiting:
        who = ", ".join(NAMES[f] for f in sorted(asked_factions(view), key=list(STYLE).index))
        what = view.window or _combat_choice(view) or DECIDING.get(view.phase, "")
        texts.append((f"Asked now: {who}" + (f" — {what}" if what else ""), theme.YELLOW))
    if view.combat_territory:
        texts.append((combat_note(view), theme.YELLOW))
    if view.last_combat:
        texts.append(("Last combat: " + view.last_combat.text, theme.LIGHT))
    if view.phase != "over":
        second = " with one faction and 3 with the other" if len(view.players) == 2 else ""
        rage = " Rage (Coalition, -2 to 3) adds to the Coalition's Combat Value." if any(
            fv.id == "coalition" for fv in view.factions) else ""
        texts.append((f"To win: be first to 7 Objective Points{second}, or reach your faction's special victory "
                      f"(rule text, Win Conditions).{rage}", theme.LIGHT_MUTED))  # fmt: skip
    return texts


def panel_height(view: Any) -> int:
    """Pixels of the panel under the map: ``PANEL_H``, or more when the faction rows, the notes,
    the viewer's hand (16-pixel text) and the key need it."""
    small = face(16)
    y = 14 + 64 * len(view.factions)
    if view.phase == "over" and view.end_reason:
        fe, lines = fit_paragraph(view.end_reason, 960, 60, 19, "bold")
        y += 20 + fe.line_height * len(lines)
    y += sum(4 + small.line_height * len(wrap(text, small, 980)) for text, _ in notes(view))
    hand = hand_lines(view)
    public = _public_cards(view)
    if hand:
        lines = hand + ([f"Durable Power Cards in play: {public}"] if public else [])
        y += 8 + 34 + 4 + small.line_height * sum(len(wrap(line, small, 948)) for line in lines)
    elif public:
        y += small.line_height * len(wrap("Durable Power Cards in play: " + public, small, 980))
    return max(PANEL_H, y + 76)


def _key_lines(img: Image.Image, d: ImageDraw.ImageDraw, height: int) -> None:
    """The key at the foot of the panel: map symbols, then the dice."""
    _key(img, d, height - 60)
    key = (
        "Dice: thick border = Dice Sequence \u00b7 faded = placed (obj on an objective, blk blocking, "
        "mkr on a marker, buy paid for cards) \u00b7 \u2013 spent"
    )
    fk = face(theme.MIN_TEXT)
    for k, line in enumerate(wrap(key, fk, 980)):
        draw_text(d, (20, height - 36 + k * 20), line, fk, theme.LIGHT, "lm")


def hand_cards(view: Any) -> tuple[str, list[HandCard]] | None:
    """The viewer's hand for the phone hand image (``render.phone``): each of its factions'
    Power Cards (name, duration, text), then its Combat Cards not yet used (name, number,
    effect); None when the View shows no faction's hand."""
    from games.soul_of_the_empire.data import load

    data = load()
    out = []
    for fv in view.factions:
        if fv.hand is None:
            continue
        colour = faction_style(fv.id).colour
        for cid in fv.hand:
            c = data.card(cid)
            out.append(HandCard(c.name, f"{fv.name} \u00b7 Power Card \u00b7 {c.duration}", c.text, colour))
        for c in data.combat.values():
            if c.faction == fv.id and c.id not in fv.combat_used:
                effect = c.text.split(", ", 1)[1] if ", " in c.text else c.text  # "3, remove 1 ..."
                text = f"Combat Value +{c.number} (the number on the card); {effect}."
                out.append(HandCard(f"{c.name} ({c.number})", f"{fv.name} \u00b7 Combat Card", text, colour))
    if not out and not any(fv.hand is not None for fv in view.factions):
        return None
    return f"Your hand \u2014 {count(len(out), 'card')}", out


def phone_area(size: tuple[int, int]) -> dr.Box:
    """The map's part of a board image of ``size`` (width, height) pixels: below the header,
    above the faction panel (for ``render.phone.changed_crop``)."""
    return (0, dr.HEADER_HEIGHT, size[0], size[1] - PANEL_H)


def render(view: Any, names: Mapping[int, str] | None = None) -> Image.Image:
    """The board for ``view`` (RGB, 1600 wide): the map with units and markers, then the
    faction panel and the Objective Cards."""
    m = map_data()
    top = image_size(m, WIDTH)[1]
    with recording() as drawn:
        board = _panel(view, names, WIDTH)
    # every pixel is pasted over (the map's static layer above, the panel below): not filled first
    img = Image.new("RGB", (WIDTH, top + board.height), None)
    paste_static(img, m, WIDTH)
    render_map_image(m, _overlay(view), WIDTH, onto=img)
    record_texts(pasted(drawn, (0, top), img.size))
    img.paste(board, (0, top))
    return img
