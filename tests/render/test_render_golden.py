"""Golden board images, compared pixel by pixel with a tolerance (never as raw
PNG bytes: zlib and Pillow versions may encode the same pixels differently, and
font rasterisers differ by a shade on antialiased edges).

After an intended change to the look, refresh the goldens and look at them:

    TABULA_UPDATE_GOLDEN=1 python -m pytest tests/render/test_render_golden.py

The states are hand-built Views with Latin names only (no glyph fallback), so
the goldens do not depend on the fonts installed on the machine.
"""

from __future__ import annotations

import io
import os
from collections.abc import Callable
from pathlib import Path

import pytest
from PIL import Image, ImageChops

import render
from render import map as rmap
from tests.render_samples import bh_view, sample_overlay

GOLDEN = Path(__file__).parents[1] / "golden"
UPDATE = os.environ.get("TABULA_UPDATE_GOLDEN") == "1"

# A pixel "differs" when a channel moves by more than CHANNEL_TOLERANCE (of 255);
# at most MAX_DIFFERING of the pixels may differ, and the mean absolute channel
# difference must stay under MAX_MEAN.
CHANNEL_TOLERANCE = 48
MAX_DIFFERING = 0.002
MAX_MEAN = 1.0

NAMES = {0: "Aurelia", 1: "Björn", 2: "Chlodwig", 3: "Dagny", 4: "Eadric", 5: "Fenna", 6: "Gaiseric", 7: "Hild",
         8: "Ingund", 9: "Jovinus", 10: "Kunigunde", 11: "Liuva"}  # fmt: skip


def _bh(n: int, seed: int, **kw) -> Callable[[], bytes]:
    return lambda: render.render_view(bh_view(n, seed, **kw), {s: NAMES[s] for s in range(n)})


def _map(seed: int, factions: int) -> Callable[[], bytes]:
    def make() -> bytes:
        m, overlay = sample_overlay(seed, factions)
        return rmap.render_map(m, overlay)

    return make


def _opening(game_id: str, players: int, viewer: int | None = None) -> Callable[[], bytes]:
    """A game's board right after its set-up (seed 3): a position rule changes rarely move,
    unlike any position reached by play."""

    def make() -> bytes:
        import games  # noqa: F401
        from games.core import get_game, start

        game = get_game(game_id)
        state = start(game, list(range(players)), game.Options(), 3).state
        return render.render_view(game.view(state, viewer), {s: NAMES[s] for s in range(players)})

    return make


CASES: dict[str, Callable[[], bytes]] = {
    "credo_4_opening": _opening("credo", 4),
    "credo_3_opening_seat_1": _opening("credo", 3, viewer=0),
    "promised_land_4_opening": _opening("promised-land", 4),
    "roman_war_2_opening_seat_1": _opening("roman-war", 2, viewer=0),
    "roman_war_3_opening": _opening("roman-war", 3),
    "soul_4_opening": _opening("soul-of-the-empire", 4),
    "soul_2_opening_seat_2": _opening("soul-of-the-empire", 2, viewer=1),
    "bh_5_last_war": _bh(5, 1),
    "bh_12_war_in_progress": _bh(12, 1, war="now"),
    "bh_3_over": _bh(3, 1, phase="over"),
    "bh_4_private_hand": _bh(4, 2, viewer=1, hand_size=9),
    "map_sample": _map(3, 4),
}


def compare(actual: Image.Image, expected: Image.Image) -> tuple[float, float]:
    """(fraction of differing pixels, mean absolute channel difference)."""
    diff = ImageChops.difference(actual.convert("RGB"), expected.convert("RGB"))
    worst = diff.getchannel(0)
    for band in (1, 2):
        worst = ImageChops.lighter(worst, diff.getchannel(band))
    hist = worst.histogram()
    total = actual.width * actual.height
    differing = sum(hist[CHANNEL_TOLERANCE + 1 :]) / total
    channel_hist = diff.histogram()
    mean = sum(
        i * c for band in range(3) for i, c in enumerate(channel_hist[256 * band : 256 * (band + 1)])
    ) / (3 * total)
    return differing, mean


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden(name: str) -> None:
    png = CASES[name]()
    actual = Image.open(io.BytesIO(png))
    actual.load()
    path = GOLDEN / f"{name}.png"
    if UPDATE or not path.exists():
        if not UPDATE:
            pytest.fail(f"missing golden {path}; run with TABULA_UPDATE_GOLDEN=1 to create it")
        GOLDEN.mkdir(exist_ok=True)
        path.write_bytes(png)
        return
    expected = Image.open(path)
    expected.load()
    assert actual.size == expected.size, f"{name}: size {actual.size} != golden {expected.size}"
    assert actual.mode == expected.mode
    differing, mean = compare(actual, expected)
    if differing > MAX_DIFFERING or mean > MAX_MEAN:
        out = Path(os.environ.get("TABULA_GOLDEN_OUT", "/tmp")) / f"{name}.actual.png"
        out.write_bytes(png)
        pytest.fail(
            f"{name}: {differing:.3%} of pixels differ (max {MAX_DIFFERING:.1%}), mean channel difference "
            f"{mean:.2f} (max {MAX_MEAN}); actual image written to {out}. If the change is intended, refresh "
            "with TABULA_UPDATE_GOLDEN=1 python -m pytest tests/render/test_render_golden.py"
        )


def test_compare_tolerates_small_shifts_but_not_real_changes() -> None:
    base = Image.new("RGB", (200, 100), (30, 30, 30))
    faint = base.copy()
    faint.putpixel((5, 5), (60, 60, 60))  # one antialiasing shade
    assert compare(faint, base)[0] <= MAX_DIFFERING
    changed = base.copy()
    changed.paste((240, 228, 66), (0, 0, 100, 50))  # a panel turned yellow
    differing, mean = compare(changed, base)
    assert differing > MAX_DIFFERING and mean > MAX_MEAN
