"""The boards' faster drawing paths give Pillow's pixels: rounded rectangles replayed from
remembered masks (render.paint), text lengths summed from characters and pairs, text masks
blended by pasting (render.text)."""

from __future__ import annotations

import random
import string

import pytest
from PIL import Image, ImageDraw

from render import paint
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
    for _ in range(400):
        size = rnd.choice([(200, 150), (1600, 1000), (64, 64)])
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
