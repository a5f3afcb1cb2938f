"""The boards' faster drawing paths give Pillow's pixels: rounded rectangles replayed from
remembered masks (render.paint), text lengths summed from characters and pairs, text masks
blended by pasting (render.text)."""

from __future__ import annotations

import random
import string

import pytest
from PIL import Image, ImageDraw

from render import glyphs, paint
from render import text as tx

BACKGROUND = {"RGB": (10, 20, 30), "RGBA": (10, 20, 30, 0), "L": 40}
COLOURS = {
    "RGB": [(200, 100, 50), (1, 2, 3), (0, 0, 0), (250, 250, 0)],
    "RGBA": [(200, 100, 50, 255), (0, 0, 0, 255), (250, 250, 0, 128)],
    "L": [0, 5, 200, 255],
}


def _case(rnd: random.Random, mode: str, size: tuple[int, int]) -> tuple:
    w, h = size
    x0, y0 = rnd.uniform(-5, w), rnd.uniform(-5, h)
    if rnd.random() < 0.3:
        x0, y0 = round(x0), round(y0)
    bw = rnd.choice([rnd.uniform(0, 40), rnd.uniform(0, 400), rnd.randint(0, 300)])
    bh = rnd.choice([rnd.uniform(0, 40), rnd.uniform(0, 200), rnd.randint(0, 100)])
    radius = rnd.choice([0, 2, 4, 6, 8, 12, 14, 16, 20, 24, 100, rnd.uniform(0, 30)])
    fill = rnd.choice([None, *COLOURS[mode]])
    outline = rnd.choice([None, *COLOURS[mode]])
    if fill is None and outline is None:
        fill = COLOURS[mode][0]
    return (x0, y0, x0 + bw, y0 + bh), radius, fill, outline, rnd.choice([1, 2, 3, 4, 6])


@pytest.mark.parametrize("mode", ["RGB", "RGBA", "L"])
def test_rounded_rectangles_from_remembered_masks_are_pillows(mode: str) -> None:
    """Each shape drawn twice through paint.Draw (recorded, then replayed from its masks) gives
    the pixels of Pillow's ImageDraw, across the image's edges too."""
    rnd = random.Random(mode)
    for _ in range(200):
        size = rnd.choice([(200, 150), (640, 400), (64, 64)])
        xy, radius, fill, outline, width = _case(rnd, mode, size)
        expected = Image.new(mode, size, BACKGROUND[mode])
        try:
            ImageDraw.Draw(expected).rounded_rectangle(xy, radius, fill, outline, width)
        except ValueError:  # Pillow refuses some thin outlines: so does Draw, at either call
            for _ in range(2):
                with pytest.raises(ValueError):
                    paint.Draw(Image.new(mode, size)).rounded_rectangle(xy, radius, fill, outline, width)
            continue
        for attempt in ("recorded", "replayed"):
            got = Image.new(mode, size, BACKGROUND[mode])
            paint.Draw(got).rounded_rectangle(xy, radius, fill, outline, width)
            assert got.tobytes() == expected.tobytes(), (attempt, mode, size, xy, radius, fill, outline)


@pytest.mark.parametrize("mode", ["RGB", "RGBA"])
def test_jointed_lines_from_remembered_masks_are_pillows(mode: str) -> None:
    """Lines with curved joints (the seating ring's links) drawn twice through paint.Draw give
    the pixels of Pillow's ImageDraw."""
    rnd = random.Random("line" + mode)
    for _ in range(80):
        size = rnd.choice([(300, 200), (640, 400)])
        x, y = rnd.uniform(-20, size[0]), rnd.uniform(-20, size[1])
        points = [(x, y)]
        for _ in range(rnd.randint(2, 60)):
            x, y = x + rnd.uniform(-30, 30), y + rnd.uniform(-30, 30)
            points.append((x, y) if rnd.random() < 0.7 else (round(x), round(y)))
        fill, width = rnd.choice(COLOURS[mode]), rnd.choice([3, 5, 8, 10, 12, 16])
        expected = Image.new(mode, size, BACKGROUND[mode])
        ImageDraw.Draw(expected).line(points, fill=fill, width=width, joint="curve")
        for attempt in ("recorded", "replayed"):
            got = Image.new(mode, size, BACKGROUND[mode])
            paint.Draw(got).line(list(points), fill=fill, width=width, joint="curve")
            assert got.tobytes() == expected.tobytes(), (attempt, mode, size, points, fill, width)


@pytest.mark.parametrize("mode", ["RGB", "RGBA", "L"])
def test_rectangles_filled_by_pasting_are_pillows(mode: str) -> None:
    """Draw.rectangle pastes its fill: the pixels of Pillow's, with float, reversed and clipped
    coordinates."""
    rnd = random.Random("rect" + mode)
    for _ in range(300):
        size = rnd.choice([(200, 150), (64, 64)])
        x0, y0 = rnd.uniform(-40, size[0] + 10), rnd.uniform(-40, size[1] + 10)
        x1, y1 = x0 + rnd.uniform(-20, 120), y0 + rnd.uniform(-20, 120)
        if x1 < x0:  # Pillow refuses x1 < x0 (and takes y1 < y0)
            x0, x1 = x1, x0
        fill, outline = rnd.choice([None, *COLOURS[mode]]), rnd.choice([None, *COLOURS[mode]])
        width = rnd.choice([0, 1, 2, 5])
        expected, got = Image.new(mode, size, BACKGROUND[mode]), Image.new(mode, size, BACKGROUND[mode])
        try:
            ImageDraw.Draw(expected).rectangle((x0, y0, x1, y1), fill, outline, width)
        except ValueError:
            continue
        paint.Draw(got).rectangle((x0, y0, x1, y1), fill, outline, width)
        assert got.tobytes() == expected.tobytes(), (mode, size, (x0, y0, x1, y1), fill, outline, width)


def test_a_blending_draw_is_left_to_pillow() -> None:
    """Draw(img, "RGBA") on an RGB image blends its inks: no masks are kept for it."""
    expected = Image.new("RGB", (100, 60), (10, 20, 30))
    ImageDraw.Draw(expected, "RGBA").rounded_rectangle((5, 5, 90, 50), radius=10, fill=(200, 0, 0, 100))
    for _ in range(2):
        got = Image.new("RGB", (100, 60), (10, 20, 30))
        paint.Draw(got, "RGBA").rounded_rectangle((5, 5, 90, 50), radius=10, fill=(200, 0, 0, 100))
        assert got.tobytes() == expected.tobytes()


def test_text_lengths_summed_from_characters_and_pairs_are_freetypes() -> None:
    """text._advance (advances and kerning pairs, summed) equals Pillow's getlength exactly."""
    rnd = random.Random(5)
    chars = string.printable[:-5] + "…·—–’“”éüßñ✓●◇▶★⚓≡↻⌂◆×½ÆΑβ長い"
    for style in ("regular", "bold", "condensed"):
        for size in (14, 15, 17, 18, 21, 24, 27, 34):
            f = tx.face(size, style)
            for _ in range(60):
                text = tx.clean("".join(rnd.choice(chars) for _ in range(rnd.randint(1, 70))))
                for seg, font, _ in f.segments(text):
                    assert tx._advance(font, seg) == font.getlength(seg), (style, size, seg)


def _covered(mask, at: tuple[int, int]) -> dict[tuple[int, int], int]:
    """(x, y) -> coverage of each pixel ``mask`` covers, placed with its top left at ``at``."""
    img = Image.Image()._new(mask) if not isinstance(mask, Image.Image) else mask
    w = img.width
    return {(at[0] + i % w, at[1] + i // w): v for i, v in enumerate(img.tobytes()) if v}


def test_text_masks_composed_from_glyphs_are_freetypes() -> None:
    """render.glyphs.compose (each glyph's mask laid at the rounded pen, "over" where two
    cover a pixel) covers the pixels Pillow's getmask2 covers, with the same values, in every
    shipped font at the boards' sizes."""
    rnd = random.Random(11)
    chars = string.printable[:-5] + "…·—–’“”éüßñ✓●◇▶★⚓≡↻⌂◆×½ÆΑβ"
    for style in ("regular", "bold", "condensed"):
        for size in (14, 16, 17, 20, 22, 27, 34):
            f = tx.face(size, style)
            for _ in range(25):
                text = tx.clean("".join(rnd.choice(chars) for _ in range(rnd.randint(1, 60))))
                for seg, font, _ in f.segments(text):
                    want = _covered(*font.getmask2(seg, "L", anchor="ls"))
                    got = glyphs.compose(font, seg, tx.advance64, tx.kerning64)
                    assert (_covered(*got) if got else {}) == want, (style, size, seg)


@pytest.mark.parametrize("mode", ["RGB", "L"])
def test_text_blended_by_pasting_is_pillows(mode: str) -> None:
    """text._blit (a tile of the ink pasted through the mask) gives draw_bitmap's pixels,
    also for text running off the image."""
    rnd = random.Random(mode)
    for _ in range(300):
        size = rnd.choice([(300, 80), (64, 64)])
        bg = (rnd.randint(0, 255), 20, 30) if mode == "RGB" else rnd.randint(0, 255)
        ink_colour = (rnd.randint(0, 255), rnd.randint(0, 255), 9) if mode == "RGB" else rnd.randint(0, 255)
        f = tx.face(rnd.choice([14, 17, 22, 34]), rnd.choice(["regular", "bold"]))
        text = "".join(rnd.choice("abcdefghij KLMNOP 0123456789.,:;!?") for _ in range(rnd.randint(1, 40)))
        mask, (ox, oy) = tx._mask(f.primary, text)
        at = (rnd.randint(-50, size[0]) + ox, rnd.randint(-20, size[1]) + oy)
        expected, got = Image.new(mode, size, bg), Image.new(mode, size, bg)
        d = ImageDraw.Draw(expected)
        d.draw.draw_bitmap(at, mask, d._getink(ink_colour)[0])
        g = ImageDraw.Draw(got)
        tx._blit(g, at, mask, g._getink(ink_colour)[0])
        assert got.tobytes() == expected.tobytes(), (mode, size, text, at)
