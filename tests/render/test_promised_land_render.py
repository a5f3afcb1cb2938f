"""Promised Land board image (render/promised_land.py): decodes at its documented size, is
under 1 MB, draws any Unicode name, shows the viewer's own hand only, and the map data
(Voronoi outlines from the land data) covers every land."""

from __future__ import annotations

import io

import pytest
from PIL import Image

import render
from games.core import apply_at, get_game, start
from games.core.agents import make_agent
from render import promised_land as board

GAME = get_game("promised-land")
NAMES = {0: "Ælfgifu", 1: "李小龍 (Bruce)", 2: "مرحبا بالعالم", 3: "x" * 100, 4: "🦊🔥", 5: "Zoë\u202e"}


def _state(players: int, steps: int, seed: int = 3):
    s = start(GAME, list(range(players)), GAME.Options(), seed).state
    agents = [make_agent(GAME, "heuristic", x) for x in range(players)]
    for n in range(1, steps + 1):
        if GAME.outcome(s) is not None:
            break
        seat = min(GAME.to_act(s))
        s = apply_at(GAME, s, seat, agents[seat].choose(GAME, s, seat), seed, n).state
    return s


@pytest.mark.parametrize(("players", "steps"), [(2, 0), (4, 150), (6, 400), (3, 5000)])
def test_board_decodes_at_documented_size(players: int, steps: int) -> None:
    s = _state(players, steps)
    png = render.render_view(GAME.view(s, None), NAMES)
    img = Image.open(io.BytesIO(png))
    assert img.mode == "RGB" and img.width == 1600 and 1200 < img.height < 1600
    assert len(png) < 1_000_000


def test_own_hand_only_in_a_seat_view() -> None:
    s = _state(4, 60)
    seat = next(x for x, p in enumerate(s.players) if p.hand)
    public = render.render_image(GAME.view(s, None), NAMES)
    private = render.render_image(GAME.view(s, seat), NAMES)
    assert public.tobytes() != private.tobytes()  # the hand and coins are drawn for the seat
    with pytest.raises(TypeError):
        render.render_view(s)


def test_map_covers_every_land_with_an_outline() -> None:
    m = board.map_data()
    lands = [n for n in m.nodes if n.region in ("hill", "plain")]
    assert len(lands) == 25
    assert all(len(n.parts) == 1 and len(n.parts[0]) >= 3 for n in lands)  # each land in one piece
    assert "promised-land" in render.supported_games()


def test_key_names_every_kingdom_whose_units_are_on_the_board() -> None:
    """The key explains each unit label drawn on the map (and only those), with the counter
    drawn there (its colour and shape), the Patriarch letters and the marks after land names."""
    v = GAME.view(_state(4, 150), None)
    units = board._key_units(v)
    text = "\n".join([" · ".join(t for _, t in units), *board._key_lines(v)])
    shown = {land.kingdom for land in v.lands if land.units and land.kingdom}
    assert shown
    styles = {f.id: f.style for f in board._factions()}
    assert {(styles[k], board.SHORT[k]) for k in shown} == {(st, t.split(" ")[0]) for st, t in units}
    for k in shown:
        assert f"{board.SHORT[k]} " in text
    for k in set(board.SHORT) - shown:
        assert f" {board.SHORT[k]} " not in f" {text} ".replace(":", " ")
    assert "F farmer" in text and "\u2693 port" in text


@pytest.mark.parametrize(("players", "steps"), [(2, 120), (4, 150), (6, 200), (6, 400)])
def test_tokens_stand_inside_their_land_apart_from_each_other(players: int, steps: int) -> None:
    """Cities, temples, the Ark and Patriarchs ("placed on the land", rule text "Kingdom
    Building") are drawn inside their own land, not on a border, a neighbour or a unit counter:
    each centre inside its land's outline, and no two tokens of the board overlapping."""
    from render.map import PAD, Geometry, _inside

    v = GAME.view(_state(players, steps), None)
    m = board.map_data()
    g = Geometry(m, board.MAP_WIDTH)
    tokens = board.token_places(m, v, board.map_overlay(v))
    assert tokens
    assert sum(t.placed for t in tokens) >= 0.9 * len(tokens), "most tokens find a place inside their land"
    for t in tokens:
        if not t.placed:
            continue
        node = m.node(t.land)
        x, y = (t.at[0] - PAD) / g.scale, (t.at[1] - g.top) / g.scale  # back to map units
        assert any(_inside((x, y), ring) for ring in node.parts), (t.land, t.kind, t.at)
    for i, a in enumerate(tokens):
        for b in tokens[i + 1 :]:
            if a.placed and b.placed:
                ra, rb = a.size / 2, b.size / 2
                assert (a.at[0] - b.at[0]) ** 2 + (a.at[1] - b.at[1]) ** 2 >= (ra + rb) ** 2, (a, b)


def test_kingdom_units_never_drawn_like_a_seats_patriarchs() -> None:
    """Units are a kingdom's counters and Patriarchs a player's (rule text, Components): no
    kingdom's token has the shape of any seat's Patriarch token (up to 6 players) in a like
    colour — the Midianites' and Egyptians' vermillion is not a circle like seat 1's orange, nor
    the Philistines' orange a diamond like seat 4's yellow — and each counter colour is the one
    kingdoms.toml gives."""
    from render import theme
    from render.promised_land import COUNTER_SHAPE, _factions, _toml

    def near(a: tuple[int, int, int], b: tuple[int, int, int]) -> bool:
        return sum((x - y) ** 2 for x, y in zip(a, b, strict=True)) ** 0.5 < 130

    seats = [theme.seat_style(s) for s in range(6)]
    for f in _factions():
        like = [s for s in seats if s.shape == f.style.shape and near(s.colour, f.style.colour)]
        assert not like, (f.name, f.style, like)
    colours = {c["id"]: c["colour"] for c in _toml("kingdoms.toml")["counters"]}
    assert {c: colour for c, (colour, _) in COUNTER_SHAPE.items()} == colours
    me = next(f for f in _factions() if f.id == "midianites")
    assert me.style.shape != "circle"


def test_every_land_has_a_token_anchor_inside_it() -> None:
    """Each land's tokens gather at an anchor authored with the map (tools/author_maps.py): inside
    the land, and clear of the place where its units and name are drawn."""
    from render.map import _inside

    m = board.map_data()
    anchors = board.token_anchors()
    assert set(anchors) == {n.id for n in m.nodes if n.parts}
    for n in m.nodes:
        if n.parts:
            x, y = anchors[n.id]
            assert any(_inside((x, y), ring) for ring in n.parts), n.id
            assert (x, y) != (n.x, n.y), n.id


@pytest.mark.parametrize(
    ("players", "seed", "steps"), [(2, 40, 40), (2, 40, 250), (2, 1, 40), (3, 1, 40), (4, 2, 120), (6, 3, 300)]
)
def test_tokens_keep_off_borders_and_rivers(players: int, seed: int, steps: int) -> None:
    """Issue 19: a city, temple, the Ark or a Patriarch is drawn wholly inside its land, its disc
    off the land's border and the Jordan (2 players seed 40: Patriarchs sat on Hazor's river bank
    and on Bethel's border with Jericho); a Patriarch is drawn smaller (26 pixels, not 32) where
    its land has no room for its full size."""
    import numpy as np

    from bot.commands.render import playout
    from render.map import Geometry, _distance

    game, state, _ = playout("promised-land", seed, steps, players)
    view = game.view(state, None)
    m = board.map_data()
    g = Geometry(m, board.MAP_WIDTH)
    river = [np.array([g.pt(x, y) for x, y in line]) for r in m.geography.rivers for line in r.lines]
    tokens = board.token_places(m, view, board.map_overlay(view))
    assert tokens
    for t in tokens:
        at = np.array([t.at])
        edges = [np.array([g.pt(x, y) for x, y in ring]) for ring in m.node(t.land).parts]
        gap = min([float(_distance(at, e, np.roll(e, -1, axis=0))[0]) for e in edges]
                  + [float(_distance(at, r[:-1], r[1:])[0]) for r in river])  # fmt: skip
        assert t.placed and gap >= t.size / 2, (t, round(gap, 1))
        assert t.size >= 2 * board.SMALL_RADIUS.get(t.kind, board.TOKEN_RADIUS[t.kind])


def test_patriarch_letters_at_least_12_px() -> None:
    """A Patriarch token's F/M/P letter is drawn at 12 px bold or more, triangles included."""
    from render.promised_land import PATRIARCH_SIZE

    assert int(PATRIARCH_SIZE * 0.46) >= 12 and int(PATRIARCH_SIZE * 0.56) >= 12


def test_tokens_clear_of_the_last_combat_ring() -> None:
    """The last combat's land is ringed; no city, temple, Ark or Patriarch is drawn under that
    ring (seed 7, 300 steps, 5 players rang Dor through Megiddo's Patriarch)."""
    from bot.commands.render import playout
    from render.map import Geometry
    from render.promised_land import MAP_WIDTH, map_data, map_overlay, token_places

    game, state, _ = playout("promised-land", 7, 300, 5, "heuristic", {})
    view = game.view(state, None)
    m, overlay = map_data(), map_overlay(view)
    assert overlay.highlight
    g = Geometry(m, MAP_WIDTH)
    for node_id in overlay.highlight:
        hx, hy = g.pt(m.node(node_id).x, m.node(node_id).y)
        for t in token_places(m, view, overlay):
            # the ring is at least 60 px either side and 24 px above and 22 below the land's point
            clear = abs(t.at[0] - hx) > 60 + 12 or not -24 - 12 < t.at[1] - hy < 22 + 12
            assert clear, (t, node_id)


def test_track_markers_stay_readable_when_seats_share_a_token() -> None:
    """Royal and Kingdom tracks (rule text, "Royal Track", "Kingdom Track"): each seat's marker is
    28 pixels across and shows at least four fifths of itself; five seats on one Kingdom token
    take a second line under it (5 players seed 5 had five markers squeezed into 85 pixels)."""
    w = board.PANEL_WIDTH - 48
    per_row, cw, fit, heights = board._track_layout(12, [3, 3, 3, 3, 3, 0], w)
    m = board.TRACK_MARKER
    assert m >= 28 and fit >= 2
    assert (cw - m - 6) / (fit - 1) >= 0.8 * m
    assert heights == [board.TRACK_TOKEN + 2 * (m + 2), board.TRACK_TOKEN + m + 2]
