"""Board image benchmark: every board of every game, at every player count the game takes,
public and as one seat's own view (with its hand).

    python bench/render.py [--repeat 3] [--game credo] [--encoders]

For each board: the median CPU milliseconds of ``render_view`` (View -> PNG bytes, in
process) over ``--repeat`` distinct states of one AI playout, the states after 40, 48, 56, ...
steps (as in a game, where consecutive states share names and labels, so text and shape
caches warm the way they do in play; one earlier state, after 32 steps, is drawn first and not
timed, so that every timed board is a state not drawn before, as the board pool never draws a
View twice), the median time to encode a blank image of the same size and mode with the same
encoder in the same run (the floor for any PNG that size), timed alternately with the board
so a busy machine slows both alike, their ratio, and the PNG's size. Each figure is printed
beside its target: under 100 ms, at most 2x the blank encode, under 1 MB, read in this
process's CPU time (on a shared, busy machine the wall clock, printed after them, also counts
other processes' turns on the cores). Exits 0 (the machine may be busy: read the ratios).

``--load N`` plays the boards of N busy games at once (Barbarian Hordes, 4 players, a new
public state of each game every 50 ms, three each) through the bot's two ways of drawing, in
the same run: two threads in the process, one drawing per request (as before ``render.pool``),
and ``render.pool`` (worker processes, a game's waiting board replaced by its newer one). Printed
for each: the event loop's lag p95 (how late a 10 ms timer fires: what a first response to a
player waits for), each request's wait for its PNG (median, p95), the boards drawn, the wall
time, and the ratios.

``--encoders`` also times the PNG encoder settings on the largest public board of each game
(the measurement behind ``render.draw.encode_png``): Pillow's encoder (adaptive row filters)
at zlib levels 1, 4 and 6, and libpng through imagecodecs with no row filter or the Sub
filter at levels 1, 3 and 6, each as milliseconds and kilobytes.
"""

from __future__ import annotations

import argparse
import asyncio
import concurrent.futures
import functools
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

TARGET_MS = 100.0  # CPU milliseconds a board
TARGET_RATIO = 2.0  # a board's CPU time, at most twice the blank encode's
TARGET_BYTES = 1_000_000
GAMES = ("barbarian-hordes", "credo", "promised-land", "roman-war", "soul-of-the-empire")


def _views(game_id: str, players: int, count: int, viewer: int | None) -> list[Any]:
    """Views after 32 (the warm-up), 40, 48, 56, ... AI steps of one game (seed 7): ``count``
    after the warm-up's."""
    out = []
    for k in range(count + 1):
        game, state, _ = playout(game_id, 7, 32 + 8 * k, players)
        out.append(game.view(state, viewer))
    return out


def _interleaved_ms(
    board: Callable[[int], bytes], blank: Callable[[], bytes], repeat: int
) -> tuple[tuple[float, float], tuple[float, float], bytes]:
    """Median milliseconds of ``board(i)`` for i = 1 .. ``repeat`` and of ``blank()``, timed
    alternately (board, blank, board, ...) so that a busy moment of the machine slows both
    alike, each as (wall clock, this process's CPU time), and the last board's PNG (the caller
    has drawn ``board(0)`` first, untimed: fonts, static layers). On a shared machine the CPU
    times are the ones to read: the wall clock also counts the time other processes had the
    cores."""
    blank()  # warm-up
    wall: tuple[list[float], list[float]] = ([], [])
    cpu: tuple[list[float], list[float]] = ([], [])
    png = b""
    for i in range(1, repeat + 1):
        for k, fn in enumerate((functools.partial(board, i), blank)):
            t, c = time.perf_counter(), time.process_time()
            out = fn()
            wall[k].append(time.perf_counter() - t)
            cpu[k].append(time.process_time() - c)
            if k == 0:
                png = out
    med = [(statistics.median(wall[k]) * 1000, statistics.median(cpu[k]) * 1000) for k in (0, 1)]
    return med[0], med[1], png


def _verdict(ok: bool) -> str:
    return "ok" if ok else "MISSED"


def boards(args: argparse.Namespace) -> int:
    names = {s: f"Player {s + 1}" for s in range(12)}
    print("CPU time of this process, each beside its target; the wall clock after them")
    print(
        f"{'board':36} {'size':>10} {'ms':>6} {'<100':>6} {'blank':>6} {'ratio':>6} {'<=2x':>6} "
        f"{'bytes':>9} {'<1MB':>6}   {'wall ms':>7} {'blank':>6} {'ratio':>6}"
    )
    missed = 0
    ratios: list[float] = []
    wall_ratios: list[float] = []
    repeat = max(3, args.repeat)
    for game_id in args.game or GAMES:
        game = get_game(game_id)
        for players in range(game.min_players, game.max_players + 1):
            for viewer in (None, 0):
                views = _views(game_id, players, repeat, viewer)
                # the warm-up state (untimed) gives the blank's size and mode
                img = Image.open(io.BytesIO(render.render_view(views[0], names)))
                blank = Image.new(img.mode, img.size)
                (ms, cms), (blank_ms, blank_cms), png = _interleaved_ms(
                    lambda i, v=views: render.render_view(v[i], names),
                    lambda b=blank: dr.encode_png(b),
                    repeat,
                )
                ratio, wall_ratio = cms / max(blank_cms, 1e-6), ms / blank_ms
                ratios.append(ratio)
                wall_ratios.append(wall_ratio)
                checks = (cms < TARGET_MS, ratio <= TARGET_RATIO, len(png) < TARGET_BYTES)
                missed += not all(checks)
                label = f"{game_id} {players}p {'public' if viewer is None else 'seat 1 view'}"
                print(
                    f"{label:36} {img.width}x{img.height:<5} {cms:6.1f} {_verdict(checks[0]):>6} "
                    f"{blank_cms:6.1f} {ratio:6.2f} {_verdict(checks[1]):>6} {len(png):9,d} "
                    f"{_verdict(checks[2]):>6}   {ms:7.1f} {blank_ms:6.1f} {wall_ratio:6.2f}",
                    flush=True,
                )
    print(
        f"targets: < {TARGET_MS:.0f} ms, <= {TARGET_RATIO:.0f}x the blank encode, < 1 MB (CPU time); boards "
        f"missing one: {missed} of {len(ratios)}; over {TARGET_RATIO:.0f}x: "
        f"{sum(r > TARGET_RATIO for r in ratios)}; ratio median {statistics.median(ratios):.2f}, max "
        f"{max(ratios):.2f} (wall clock: median {statistics.median(wall_ratios):.2f}, max {max(wall_ratios):.2f})"
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


async def _load_run(kind: str, views: list[list[Any]]) -> dict[str, float]:
    from render.pool import RenderPool

    loop = asyncio.get_running_loop()
    lags: list[float] = []
    waits: list[float] = []
    stop = asyncio.Event()
    drawn = 0
    if kind == "threads":
        ex = concurrent.futures.ThreadPoolExecutor(2)
        await loop.run_in_executor(ex, render.render_view, views[0][0])

        async def draw(v: Any, k: int) -> bytes:
            nonlocal drawn
            drawn += 1
            return await loop.run_in_executor(ex, render.render_view, v)
    else:
        pool = RenderPool()
        await asyncio.gather(*(pool.png(views[i][0]) for i in range(pool.workers)))  # workers started
        base = pool.drawn

        async def draw(v: Any, k: int) -> bytes:
            return await pool.png(v, slot=("public", k))

    async def ticker() -> None:
        while not stop.is_set():
            t = time.perf_counter()
            await asyncio.sleep(0.01)
            lags.append(time.perf_counter() - t - 0.01)

    async def timed(v: Any, k: int) -> None:
        t = time.perf_counter()
        await draw(v, k)
        waits.append(time.perf_counter() - t)

    async def game(k: int) -> None:
        tasks = []
        for v in views[k]:
            tasks.append(asyncio.create_task(timed(v, k)))
            await asyncio.sleep(0.05)
        await asyncio.gather(*tasks)

    tick = asyncio.create_task(ticker())
    t0 = time.perf_counter()
    await asyncio.gather(*(game(k) for k in range(len(views))))
    wall = time.perf_counter() - t0
    stop.set()
    await tick
    if kind != "threads":
        drawn = pool.drawn - base
    return {
        "lag": _pct(lags, 95) * 1000,
        "wait": statistics.median(waits) * 1000,
        "wait95": _pct(waits, 95) * 1000,
        "drawn": drawn,
        "wall": wall,
    }


def _pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


def load(args: argparse.Namespace) -> None:
    views = [
        [playout("barbarian-hordes", 100 + k, 40 + 6 * i, 4)[1] for i in range(3)] for k in range(args.load)
    ]
    game = get_game("barbarian-hordes")
    views = [[game.view(s, None) for s in states] for states in views]
    print(f"\n{args.load} busy games at once (Barbarian Hordes 4p, a new public board every 50 ms, 3 each)")
    print(
        f"  {'drawing':26} {'loop lag p95':>13} {'wait median':>12} {'wait p95':>10} {'drawn':>6} {'wall s':>7}"
    )
    results = {}
    for kind in ("threads", "pool"):
        r = asyncio.run(_load_run(kind, views))
        results[kind] = r
        label = "2 threads, every request" if kind == "threads" else "render.pool"
        print(
            f"  {label:26} {r['lag']:10.1f} ms {r['wait']:9.1f} ms {r['wait95']:7.1f} ms {r['drawn']:6.0f} "
            f"{r['wall']:7.2f}"
        )
    a, b = results["threads"], results["pool"]
    print(
        f"  {'pool / threads':26} {b['lag'] / max(a['lag'], 1e-9):12.2f}x {b['wait'] / a['wait']:11.2f}x "
        f"{b['wait95'] / a['wait95']:9.2f}x {b['drawn'] / a['drawn']:5.2f}x {b['wall'] / a['wall']:6.2f}x"
    )


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3, help="states per board (distinct views)")
    ap.add_argument("--game", action="append", choices=GAMES, help="only this game (repeatable)")
    ap.add_argument("--encoders", action="store_true", help="also compare PNG encoder settings")
    ap.add_argument(
        "--load", type=int, default=0, metavar="N", help="also N busy games at once: threads vs pool"
    )
    ap.add_argument("--no-boards", dest="boards", action="store_false", help="skip the table of boards")
    args = ap.parse_args()
    code = boards(args) if args.boards else 0
    if args.load:
        load(args)
    if args.encoders:
        encoders(args)
    return code


if __name__ == "__main__":
    raise SystemExit(main())
