"""Board images: decodable PNGs of the documented size for many states, any
Unicode name, no access to hidden hands, layering, map labels and caching.

ARCHITECTURE.md "Rendering" and "Hidden information, in one place"; issue "the Pillow renderer".
"""

from __future__ import annotations

import ast
import io
import tomllib
from pathlib import Path

import pytest
from PIL import Image, ImageDraw

import render
from bot.commands.render import playout
from games.core import get_game
from render import barbarian_hordes as bh
from render import map as rmap
from render import text as rtext
from render import theme
from tests.render_samples import LONG_NAME, SAMPLE_MAP, UNICODE_NAMES, bh_view, sample_overlay

ROOT = Path(__file__).resolve().parents[2]
MAX_BYTES = 1024 * 1024


def decode(png: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(png))
    img.load()
    return img


def names_for(n: int, offset: int = 0) -> dict[int, str]:
    return {s: UNICODE_NAMES[(s + offset) % len(UNICODE_NAMES)] for s in range(n)}


# --------------------------------------------------------------------------- AI playouts


PLAYOUTS = [
    (players, seed, steps)
    for players in (2, 3, 5, 8, 12)
    for seed, steps in ((1, 0), (2, 25), (3, 120), (4, 600))
]


@pytest.mark.parametrize(("players", "seed", "steps"), PLAYOUTS)
def test_playout_boards_decode_at_documented_size(players: int, seed: int, steps: int) -> None:
    game, state, _ = playout("barbarian-hordes", seed, steps, players)
    view = game.view(state, None)
    png = render.render_view(view, names_for(players, seed))
    img = decode(png)
    assert img.format == "PNG"
    assert img.mode == "RGB"
    assert img.size == bh.image_size(view) == (1600, 1000 if players <= 10 else 1160)
    assert len(png) < MAX_BYTES


@pytest.mark.parametrize("players", [2, 6, 12])
def test_private_view_adds_the_hand(players: int) -> None:
    game, state, _ = playout("barbarian-hordes", 5, 40, players)
    view = game.view(state, 0)
    hand = next(p.hand for p in view.players if p.seat == 0)
    assert hand is not None
    img = decode(render.render_view(view, names_for(players)))
    base = 1000 if players <= 10 else 1160
    rows = -(-len(hand) // bh.CARDS_PER_ROW)
    # a row of cards per CARDS_PER_ROW cards; an empty hand one line saying so
    assert img.size == (1600, base + bh.HAND_TITLE_H + (rows * bh.HAND_ROW_H if hand else 44))
    assert img.mode == "RGB"


@pytest.mark.parametrize(
    ("n", "kw"),
    [
        (2, {"phase": "draft", "war": "none"}),
        (3, {"phase": "over"}),
        (4, {"war": "now"}),
        (7, {}),
        (10, {"war": "now"}),
        (11, {}),
        (12, {"war": "now"}),
        (12, {"viewer": 3, "hand_size": 17}),
        (16, {"war": "now"}),
    ],
)
def test_hand_built_extremes(n: int, kw: dict) -> None:
    view = bh_view(n, n, **kw)
    png = render.render_view(view, {s: LONG_NAME for s in range(n)})
    img = decode(png)
    assert img.size == bh.image_size(view)
    assert img.mode == "RGB"
    assert len(png) < MAX_BYTES


def test_seats_keep_inside_the_image_and_apart() -> None:
    for n in range(1, 17):
        lay = bh.layout(n)
        assert len(lay.panels) == n
        for i, a in enumerate(lay.panels):
            assert (
                a[0] >= 0
                and a[2] <= bh.WIDTH
                and a[1] > bh.dr.HEADER_HEIGHT
                and a[3] <= lay.height - bh.LEGEND_H
            )
            for b in lay.panels[i + 1 :]:
                assert not rmap._overlaps(a, b), (n, a, b)


# --------------------------------------------------------------------------- hidden information


def test_public_board_has_no_access_to_hidden_hands() -> None:
    game, state, _ = playout("barbarian-hordes", 11, 80, 5)
    public = game.view(state, None)
    assert all(p.hand is None for p in public.players)
    # Reshuffle the hidden parts: rotate the hands between seats and reverse the deck.
    hands = [p.hand for p in state.players]
    rotated = hands[1:] + hands[:1]
    players = tuple(p.model_copy(update={"hand": h}) for p, h in zip(state.players, rotated, strict=True))
    # hand sizes are public, so only swap between seats holding as many cards
    same = all(len(a) == len(b) for a, b in zip(hands, rotated, strict=True))
    other = state.model_copy(
        update={"deck": tuple(reversed(state.deck)), "players": players if same else state.players}
    )
    assert other != state
    names = names_for(5)
    assert render.render_view(game.view(other, None), names) == render.render_view(public, names)
    # and a seat's private view does show its own hand, so the test would notice a leak
    private = game.view(state, 0)
    assert render.render_view(private, names) != render.render_view(public, names)


def test_render_refuses_a_state() -> None:
    game, state, _ = playout("barbarian-hordes", 1, 10, 3)
    with pytest.raises(TypeError):
        render.render_view(state)
    with pytest.raises(TypeError):
        render.render_view({"game": "barbarian-hordes"})


def test_render_only_imports_games_models_data_and_pillow() -> None:
    """render sees Views and static game data (maps, card faces), never rules, storage or bot."""
    banned = ("storage", "bot", "discord")
    for path in (ROOT / "render").glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            mods = []
            if isinstance(node, ast.Import):
                mods = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                mods = [node.module]
            for mod in mods:
                assert mod.split(".")[0] not in banned, f"{path.name} imports {mod}"
                if mod.startswith("games.") and mod != "games.core.english":  # shared English (plurals)
                    # View models, and a game's static data (its map), never its rules
                    assert mod.endswith((".model", ".data")), (
                        f"{path.name} imports {mod}: render may use View models and static data only"
                    )


# --------------------------------------------------------------------------- text and fonts


def test_fonts_and_licence_ship_with_the_package() -> None:
    for path in rtext.FONTS.values():
        assert path.is_file() and path.parent == ROOT / "render" / "fonts"
    assert "Bitstream" in (ROOT / "render" / "fonts" / "LICENSE.txt").read_text(encoding="utf-8")
    globs = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]["*"]
    assert "*.ttf" in globs and "*.txt" in globs


@pytest.mark.parametrize("name", UNICODE_NAMES + ["", " ", "\u202e\u202d", "a" * 500, "👨‍👩‍👧‍👦" * 30])
def test_any_unicode_name_draws_within_bounds(name: str) -> None:
    img = Image.new("RGB", (400, 60))
    d = ImageDraw.Draw(img)
    for style in ("regular", "bold", "condensed"):
        f = rtext.face(20, style)
        w = rtext.draw_text(d, (10, 30), name, f, theme.LIGHT, "lm", max_width=300)
        assert w <= 300 + 1
        for line in rtext.wrap(name, f, 200, max_lines=2):
            assert f.length(line) <= 200 + 1
        assert len(rtext.wrap(name, f, 200, max_lines=2)) <= 2


def test_clean_removes_controls_and_joiners() -> None:
    assert rtext.clean("Zoë\u200b\u202e evil\nname\t") == "Zoë evil name"
    assert rtext.clean("\u0000\u0007bell") == "bell"
    assert rtext.clean("👍🏽\ufe0f") == "👍"


def test_missing_glyph_becomes_one_square_and_rtl_is_reordered() -> None:
    f = rtext.face(20)
    chunks = "".join(s for s, _, _ in f.segments("\U0001f98a"))
    assert chunks in ("\U0001f98a", rtext.REPLACEMENT)  # a fallback font may have the fox
    runs = rtext.visual_runs("abc \u05e9\u05dc\u05d5\u05dd")
    assert runs[0] == ("abc ", False) and runs[1][1] is True
    assert rtext.truncate("x" * 100, f, 120).endswith(rtext.ELLIPSIS)


def test_font_charset_reads_the_shipped_fonts_cmap_and_nothing_from_a_non_font(tmp_path: Path) -> None:
    chars = rtext.font_charset(str(rtext.FONTS["regular"]))
    assert {ord("A"), ord("é"), ord("Ω"), 0x2026} <= chars  # Latin, Greek, the ellipsis
    assert 0x4E00 not in chars and 0x1F98A not in chars  # no CJK, no emoji in DejaVu Sans
    junk = tmp_path / "junk.ttf"
    junk.write_bytes(b"not a font at all")
    assert rtext.font_charset(str(junk)) == frozenset()


def test_mixed_direction_text_is_in_bidi_visual_order() -> None:
    """Hebrew words in a right-to-left paragraph are laid out right to left, the number keeps
    its digit order (Unicode bidi, rules W and L)."""
    runs = rtext.visual_runs("\u05e9\u05dc\u05d5\u05dd \u05e2\u05d5\u05dc\u05dd 42")
    assert runs == [("42 ", False), ("\u05dd\u05dc\u05d5\u05e2 \u05dd\u05d5\u05dc\u05e9", True)]


def test_long_name_is_truncated_not_overflowing() -> None:
    f = rtext.face(19)
    assert f.length(rtext.truncate(LONG_NAME, f, 250)) <= 250
    assert len(LONG_NAME) == 100


def test_okabe_ito_seat_styles_are_unique_with_shape_and_number() -> None:
    styles = [theme.seat_style(s) for s in range(16)]
    assert len({(s.colour, s.shape) for s in styles}) == 16
    assert [s.label for s in styles] == [str(i + 1) for i in range(16)]
    assert theme.MIN_TEXT >= 14


# --------------------------------------------------------------------------- map


def test_map_data_file_is_validated() -> None:
    m = rmap.load_map(SAMPLE_MAP)
    assert len(m.nodes) == 9 and any(e.kind == "sea" for e in m.edges)
    bad = SAMPLE_MAP + '\n[[edge]]\na = "arvernia"\nb = "atlantis"\n'
    with pytest.raises(ValueError, match="atlantis"):
        rmap.load_map(bad)


def test_map_labels_do_not_overlap() -> None:
    m = rmap.load_map(SAMPLE_MAP)
    g = rmap.Geometry(m, 1600)
    labels = rmap.layout_labels(m)
    assert set(labels) == {n.id for n in m.nodes}
    boxes = [b for b, _, _ in labels.values()]
    for i, a in enumerate(boxes):
        assert a[0] >= rmap.PAD and a[2] <= 1600 - rmap.PAD and g.top <= a[1] and a[3] <= g.top + g.map_h
        for b in boxes[i + 1 :]:
            assert not rmap._overlaps(a, b), (a, b)


@pytest.mark.parametrize(("seed", "factions"), [(0, 2), (1, 4), (2, 8), (3, 12)])
def test_map_board_decodes_at_documented_size(seed: int, factions: int) -> None:
    m, overlay = sample_overlay(seed, factions)
    png = rmap.render_map(m, overlay)
    img = decode(png)
    assert img.size == rmap.image_size(m) and img.size[0] == 1600
    assert img.mode == "RGB"
    assert len(png) < MAX_BYTES


def test_map_overlay_rejects_unknown_ids() -> None:
    m, overlay = sample_overlay(0)
    bad = overlay.model_copy(update={"units": (rmap.Units(node="atlantis", faction="f0", count=1),)})
    with pytest.raises(KeyError):
        rmap.render_map_image(m, bad)


def test_static_layers_are_cached() -> None:
    m, overlay = sample_overlay(0)
    rmap.render_map_image(m, overlay)
    before = rmap._static.cache_info().hits
    rmap.render_map_image(m, overlay)
    assert rmap._static.cache_info().hits == before + 1
    assert bh.static_layer(5) is bh.static_layer(5)
    # overlays never draw into the cached layer
    first = bh.static_layer(5).tobytes()
    render.render_view(bh_view(5, 3))
    assert bh.static_layer(5).tobytes() == first


def test_render_command_writes_a_png(tmp_path: Path) -> None:
    from bot.commands import render as cmd

    out = tmp_path / "board.png"
    parser = __import__("argparse").ArgumentParser()
    cmd.add_parser(parser.add_subparsers())
    args = parser.parse_args(
        ["render", "barbarian-hordes", "--seed", "3", "--steps", "30", "--out", str(out)]
    )
    assert args.func(args) == 0
    assert decode(out.read_bytes()).size == (1600, 1000)


def test_game_registry_has_a_renderer_for_barbarian_hordes() -> None:
    assert get_game("barbarian-hordes").id in render.supported_games()


def test_a_label_away_from_its_node_gets_a_leader_line_and_one_below_does_not():
    """render.map: a label placed away from its node (crowded maps) is joined to the node's
    oval by a line, so it cannot be read as a neighbour's label."""
    from PIL import Image, ImageDraw

    from render.map import _leader

    def ink(box):
        img = Image.new("RGB", (400, 400), (255, 255, 255))
        _leader(ImageDraw.Draw(img), box, (200, 200))
        return 400 * 400 - img.convert("L").histogram()[255]

    assert ink((160, 224, 240, 250)) == 0  # right below the node
    assert ink((20, 100, 100, 126)) > 20  # up and to the left


def test_fit_sentences_leaves_whole_sentences_out_and_ends_with_a_full_stop() -> None:
    """A card text too long for its box loses its last sentences, never a word, and what is kept
    ends as a sentence ("Leader card (may be negated by a K card)." not "...a K card);")."""
    text = "Leader card (may be negated by a K card); an extra Conquest Phase this turn."
    f = rtext.face(14)
    one = rtext.fit_sentences(text, 400, f.line_height, 14)[1]
    assert one == ["Leader card (may be negated by a K card)."]
    assert rtext.fit_sentences(text, 1000, 40, 14)[1] == [text]


def test_bh_attacker_asked_in_a_war_carries_to_act() -> None:
    """Issue 19: with 12 players and a war under way, every seat asked to act carries a TO ACT
    pill, the attacker (whose turn it is, TURN) too, so no one asked reads as not asked."""
    from render.record import recording

    view = bh_view(12, 0, viewer=0, war="now")
    attacker = view.war.attacker
    assert attacker in view.waiting and view.active == attacker
    with recording() as texts:
        render.render_image(view)
    marked = {t.panel.name for t in texts if t.panel and t.text == "TO ACT"}
    assert marked == {f"seat {s + 1}" for s in view.waiting}
    assert "TURN" in {t.text for t in texts if t.panel and t.panel.name == f"seat {attacker + 1}"}
