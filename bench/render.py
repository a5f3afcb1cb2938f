"""Board image benchmark: every board of every game, at every player count the game takes,
public and as one seat's own view (with its hand).

    python bench/render.py [--repeat 3] [--game credo] [--encoders]

For each board: the median milliseconds of ``render_view`` (View -> PNG bytes, in process)
over ``--repeat`` distinct states of one AI playout (as in a game, where consecutive states
share names and labels, so text caches warm the way they do in play), the median time to
encode a blank image of the same size and mode with the same encoder in the same run (the
floor for any PNG that size), their ratio, and the PNG's size. Each figure is printed beside
its target: under 100 ms, at most 2x the blank encode, under 1 MB. Exits 0 (the machine may be
busy: read the ratios).

``--encoders`` also times the PNG encoder settings on the largest public board of each game
(the measurement behind ``render.draw.encode_png``): Pillow's encoder (adaptive row filters)
at zlib levels 1, 4 and 6, and libpng through imagecodecs with no row filter or the Sub
filter at levels 1, 3 and 6, each as milliseconds and kilobytes.
"""

from __future__ import annotations

import argparse
import io
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import imagecodecs  # noqa: E402
import numpy as np  # noqa: E402
from PIL import Image  # noqa: E402

import render  # noqa: E402
from bot.commands.render import playout  # noqa: E402
from games.core import get_game  # noqa: E402
from render import draw as dr  # noqa: E402

TARGET_MS = 100.0
TARGET_RATIO = 2.0
TARGET_BYTES = 1_000_000
GAMES = ("barbarian-hordes", "credo", "promised-land", "roman-war", "soul-of-the-empire")


def _views(game_id: str, players: int, count: int, viewer: int | None) -> list[Any]:
    """Views after 40, 48, 56, ... AI steps of one game (seed 7)."""
    out = []
    for k in range(count):
        game, state, _ = playout(game_id, 7, 40 + 8 * k, players)
        out.append(game.view(state, viewer))
    return out


def _median_ms(fn: Callable[[int], Any], repeat: int) -> tuple[float, Any]:
    times, out = [], None
    fn(0)  # warm-up: fonts, static layers
    for i in range(repeat):
        t = time.perf_counter()
        out = fn(i)
        times.append(time.perf_counter() - t)
    return statistics.median(times) * 1000, out


def _verdict(ok: bool) -> str:
    return "ok" if ok else "MISSED"


def boards(args: argparse.Namespace) -> int:
    names = {s: f"Player {s + 1}" for s in range(12)}
    print(
        f"{'board':44} {'size':>10} {'ms':>7} {'<100':>6} {'blank':>6} {'ratio':>6} {'<=2x':>6} "
        f"{'bytes':>9} {'<1MB':>6}"
    )
    missed = 0
    for game_id in args.game or GAMES:
        game = get_game(game_id)
        for players in range(game.min_players, game.max_players + 1):
            for viewer in (None, 0):
                views = _views(game_id, players, args.repeat, viewer)
                ms, png = _median_ms(lambda i, v=views: render.render_view(v[i % len(v)], names), args.repeat)
                img = Image.open(io.BytesIO(png))
                blank = Image.new(img.mode, img.size)
                blank_ms = _median_ms(lambda _, b=blank: dr.encode_png(b), max(3, args.repeat))[0]
                ratio = ms / blank_ms
                checks = (ms < TARGET_MS, ratio <= TARGET_RATIO, len(png) < TARGET_BYTES)
                missed += not all(checks)
                label = f"{game_id} {players}p {'public' if viewer is None else 'seat 1 view'}"
                print(
                    f"{label:44} {img.width}x{img.height:<5} {ms:7.1f} {_verdict(checks[0]):>6} "
                    f"{blank_ms:6.1f} {ratio:6.2f} {_verdict(checks[1]):>6} {len(png):9,d} "
                    f"{_verdict(checks[2]):>6}",
                    flush=True,
                )
    print(
        f"targets: < {TARGET_MS:.0f} ms, <= {TARGET_RATIO:.0f}x the blank encode, < 1 MB; boards missing one: {missed}"
    )
    return 0


def _pillow(img: Image.Image, level: int) -> bytes:
    buf = io.BytesIO()
    img.save(buf, "PNG", compress_level=level)
    return buf.getvalue()


def _libpng(img: Image.Image, level: int, filt: int) -> bytes:
    return bytes(imagecodecs.png_encode(np.asarray(img), level=level, filter=filt))


ENCODERS: dict[str, Callable[[Image.Image], bytes]] = {
    "Pillow level 1": lambda im: _pillow(im, 1),
    "Pillow level 4": lambda im: _pillow(im, 4),
    "Pillow level 6": lambda im: _pillow(im, 6),
    "libpng level 1, no filter": lambda im: _libpng(im, 1, 8),
    "libpng level 3, no filter": lambda im: _libpng(im, 3, 8),
    "libpng level 6, no filter": lambda im: _libpng(im, 6, 8),
    "libpng level 1, Sub filter": lambda im: _libpng(im, 1, 16),
    "encode_png (in use)": dr.encode_png,
}


def encoders(args: argparse.Namespace) -> None:
    print("\nPNG encoder settings (largest public board of each game; ms and KB)")
    for game_id in args.game or GAMES:
        game = get_game(game_id)
        (view,) = _views(game_id, game.max_players, 1, None)
        img = render.render_image(view)
        times: dict[str, list[float]] = {k: [] for k in ENCODERS}
        sizes: dict[str, int] = {}
        for _ in range(max(3, args.repeat)):  # interleaved: a busy moment hits every setting alike
            for k, enc in ENCODERS.items():
                t = time.perf_counter()
                sizes[k] = len(enc(img))
                times[k].append(time.perf_counter() - t)
        base = statistics.median(times["Pillow level 4"])
        print(f"{game_id} {game.max_players}p {img.width}x{img.height}")
        for k in ENCODERS:
            med = statistics.median(times[k])
            print(
                f"  {k:28} {med * 1000:7.1f} ms ({med / base:4.2f}x Pillow level 4) {sizes[k] // 1024:6d} KB"
            )


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3, help="states per board (distinct views)")
    ap.add_argument("--game", action="append", choices=GAMES, help="only this game (repeatable)")
    ap.add_argument("--encoders", action="store_true", help="also compare PNG encoder settings")
    args = ap.parse_args()
    code = boards(args)
    if args.encoders:
        encoders(args)
    return code


if __name__ == "__main__":
    raise SystemExit(main())
