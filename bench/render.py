"""Board image benchmark: median milliseconds per render (View -> PNG bytes),
the ratio to encoding a blank PNG of the same size and mode in the same run (the
floor for any PNG that size), and the PNG's size in bytes.

    python bench/render.py [--repeat 15]

Targets: under 100 ms per board, ratio under 3. Each board is rendered over a
sequence of distinct states from an AI playout (as in a game, where consecutive
states share names and labels), so text caches warm the way they do in play.
"""

from __future__ import annotations

import argparse
import io
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from PIL import Image  # noqa: E402

import render  # noqa: E402
from bot.commands.render import playout  # noqa: E402
from render import draw as dr  # noqa: E402
from render import map as rmap  # noqa: E402
from tests.render_samples import sample_overlay  # noqa: E402


def _states(players: int, count: int, seed: int = 7) -> list:
    """Public views after 40, 45, 50, ... AI steps of one game."""
    views = []
    for k in range(count):
        game, state, _ = playout("barbarian-hordes", seed, 40 + 5 * k, players)
        views.append(game.view(state, None))
    return views


def _median_ms(fn: Callable[[int], bytes], repeat: int) -> tuple[float, bytes]:
    times, out = [], b""
    fn(0)  # warm-up: fonts, static layer
    for i in range(repeat):
        t = time.perf_counter()
        out = fn(i)
        times.append(time.perf_counter() - t)
    return statistics.median(times) * 1000, out


def _blank_ms(size: tuple[int, int], mode: str, repeat: int) -> float:
    blank = Image.new(mode, size)
    return _median_ms(lambda _: dr.encode_png(blank), repeat)[0]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=15)
    args = ap.parse_args()
    names = {s: f"Player {s + 1}" for s in range(12)}
    cases: list[tuple[str, Callable[[int], bytes]]] = []
    for players in (3, 6, 12):
        views = _states(players, args.repeat)
        cases.append(
            (f"barbarian-hordes {players}p", lambda i, v=views: render.render_view(v[i % len(v)], names))
        )
    game, state, _ = playout("barbarian-hordes", 7, 60, 6)
    private = game.view(state, 0)
    cases.append(("barbarian-hordes 6p, seat view with hand", lambda i: render.render_view(private, names)))
    overlays = [sample_overlay(seed, 4) for seed in range(args.repeat)]
    cases.append(("map sample (Mare Parvum)", lambda i: rmap.render_map(*overlays[i % len(overlays)])))

    print(f"{'board':42} {'size':>10} {'ms':>7} {'blank ms':>9} {'ratio':>6} {'bytes':>9}")
    for label, fn in cases:
        ms, png = _median_ms(fn, args.repeat)
        img = Image.open(io.BytesIO(png))
        blank = _blank_ms(img.size, img.mode, args.repeat)
        size = f"{img.width}x{img.height}"
        print(f"{label:42} {size:>10} {ms:7.1f} {blank:9.1f} {ms / blank:6.2f} {len(png):9,d}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
