"""The board image pool (render/pool.py): back-pressure, coalescing of a slot's waiting
boards, one drawing per distinct view, and real worker processes."""

from __future__ import annotations

import asyncio
import concurrent.futures
import os
import pickle
import signal
from collections.abc import Callable
from typing import Any

import pytest

import render
from bot.commands.render import playout
from render import pool as rpool
from render.pool import RenderPool


class HeldExecutor(concurrent.futures.Executor):
    """Runs nothing until the test says so: each submission waits in ``held``."""

    def __init__(self) -> None:
        self.held: list[tuple[Callable[..., Any], tuple[Any, ...], concurrent.futures.Future[Any]]] = []

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> concurrent.futures.Future[Any]:
        fut: concurrent.futures.Future[Any] = concurrent.futures.Future()
        self.held.append((fn, args, fut))
        return fut

    def views(self) -> list[Any]:
        return [pickle.loads(args[0])[0] for _, args, _ in self.held]

    def finish(self, i: int) -> None:
        fn, args, fut = self.held[i]
        fut.set_result(fn(*args))


def views(n: int) -> list[Any]:
    """Public views of ``n`` successive states of one Barbarian Hordes game."""
    out = []
    for k in range(n):
        game, state, _ = playout("barbarian-hordes", 3, 30 + 4 * k, 3)
        out.append(game.view(state, None))
    assert len({v.model_dump_json() for v in out}) == n
    return out


async def settle() -> None:
    for _ in range(5):
        await asyncio.sleep(0)


def test_a_newer_board_of_the_same_slot_replaces_the_waiting_one() -> None:
    """Coalescing: the older waiting board is never drawn; its caller gets the newer one."""
    a, b, c = views(3)

    async def go() -> None:
        ex = HeldExecutor()
        pool = RenderPool(1, executor=ex)
        ta = asyncio.create_task(pool.png(a, slot=("public", 1)))
        await settle()
        tb = asyncio.create_task(pool.png(b, slot=("public", 1)))
        await settle()
        tc = asyncio.create_task(pool.png(c, slot=("public", 1)))
        await settle()
        assert len(ex.held) == 1, "back-pressure: one worker, one render handed over at a time"
        ex.finish(0)
        assert await ta == render.render_view(a)
        await settle()
        assert ex.views() == [a, c], "b was superseded while it waited: never drawn"
        ex.finish(1)
        png_c = render.render_view(c)
        assert await tb == png_c and await tc == png_c
        assert (pool.drawn, pool.coalesced) == (2, 1)

    asyncio.run(go())


def test_boards_without_a_slot_or_of_other_slots_are_all_drawn() -> None:
    """A seat's own view (no slot) and another game's board are never coalesced."""
    a, b, c = views(3)

    async def go() -> None:
        ex = HeldExecutor()
        pool = RenderPool(1, executor=ex)
        tasks = [
            asyncio.create_task(pool.png(a, slot=("public", 1))),
            asyncio.create_task(pool.png(b)),
            asyncio.create_task(pool.png(c)),
            asyncio.create_task(pool.png(a, slot=("public", 2))),
        ]
        for i in range(3):
            await settle()
            ex.finish(i)
        results = await asyncio.gather(*tasks)
        assert ex.views() == [a, b, c]
        assert results == [render.render_view(v) for v in (a, b, c, a)]
        assert pool.coalesced == 0 and pool.shared == 1

    asyncio.run(go())


def test_the_same_view_for_two_audiences_is_drawn_once() -> None:
    """Two requests of one view (waiting, drawing or drawn) share one drawing."""
    (a,) = views(1)

    async def go() -> None:
        ex = HeldExecutor()
        pool = RenderPool(2, executor=ex)
        first = asyncio.create_task(pool.png(a, slot=("public", 1)))
        second = asyncio.create_task(pool.png(a))
        await settle()
        assert len(ex.held) == 1
        ex.finish(0)
        assert await first == await second
        assert await pool.png(a) == await first  # from the cache
        assert pool.drawn == 1 and pool.shared == 2
        assert [k for k, _ in pool.waits] == ["board"] * 3, "each caller's wait is kept (bench/e2e.py)"
        assert pool.waits[-1][1] == 0.0  # the cached one did not wait

    asyncio.run(go())


def test_a_failed_render_reaches_its_callers_and_the_queue_goes_on() -> None:
    (a,) = views(1)

    async def go() -> None:
        pool = RenderPool(1, executor=concurrent.futures.ThreadPoolExecutor(1))
        with pytest.raises(TypeError, match="View"):
            await pool.png(game_state())
        assert await pool.png(a) == render.render_view(a)

    asyncio.run(go())


def game_state() -> Any:
    _, state, _ = playout("barbarian-hordes", 3, 10, 3)
    return state


def test_worker_processes_draw_the_same_png_and_survive_a_killed_worker() -> None:
    """The real pool: worker processes give the in-process image; a worker killed (out of
    memory, by an operator) costs a restart of the workers, not the board."""
    a, b = views(2)

    async def go() -> None:
        pool = RenderPool()
        assert await pool.png(a, {0: "Ann"}) == render.render_view(a, {0: "Ann"})
        ex = rpool.shared_executor()
        pids = list(ex._processes)  # noqa: SLF001 (the test kills a worker on purpose)
        os.kill(pids[0], signal.SIGKILL)
        await asyncio.sleep(0.5)
        assert await pool.png(b) == render.render_view(b)

    asyncio.run(go())


def test_the_bot_coalesces_a_seats_view_only_for_the_same_reader(monkeypatch):
    """render_png: a seat's own view waiting for the same user is replaced by the newer one;
    the same seat's view for another user, or with no user named, is drawn as asked."""
    from bot.discordbot import boards
    from bot.host.replies import ImageRequest

    states = [playout("barbarian-hordes", 3, 30 + 4 * k, 3) for k in range(5)]
    a, b, c, d, e = (game.view(state, 0) for game, state, _ in states)

    async def go() -> None:
        ex = HeldExecutor()
        pool = RenderPool(1, executor=ex)
        monkeypatch.setattr(boards, "board_pool", lambda: pool)

        def req(v: Any) -> ImageRequest:
            return ImageRequest("barbarian-hordes", 1, 0, v, 0)

        tasks = [
            asyncio.create_task(boards.render_png(req(a), 100)),  # drawing
            asyncio.create_task(boards.render_png(req(b), 100)),  # waits, then superseded by d
            asyncio.create_task(boards.render_png(req(c), 200)),  # another reader
            asyncio.create_task(boards.render_png(req(e))),  # nobody named: never coalesced
            asyncio.create_task(boards.render_png(req(d), 100)),
            asyncio.create_task(boards.render_png(req(e), 100)),  # shares e's drawing: d stays as asked
        ]
        for i in range(4):
            await settle()
            ex.finish(i)
        got = await asyncio.gather(*tasks)
        assert ex.views() == [a, d, c, e]
        assert got == [render.render_view(v) for v in (a, d, c, e, d, e)]

    asyncio.run(go())


def _alive(pid: int) -> bool:
    """Whether ``pid`` still runs (a zombie waiting to be reaped does not)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="reads /proc to watch the worker")
def test_workers_end_when_the_bot_is_killed_outright(tmp_path) -> None:
    """A bot process killed with SIGKILL never shuts its pool down: its board workers
    notice that their parent is gone and end instead of waiting for work forever."""
    import subprocess
    import sys
    import time

    script = (
        "import os, signal\n"
        "from render import pool\n"
        "ex = pool.shared_executor(1)\n"
        "print(ex.submit(os.getpid).result(), flush=True)\n"
        "os.kill(os.getpid(), signal.SIGKILL)\n"
    )
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert proc.returncode == -signal.SIGKILL, proc.stderr
    worker = int(proc.stdout.split()[0])
    deadline = time.monotonic() + 30
    while _alive(worker) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not _alive(worker), f"board worker {worker} outlived the killed bot"


def test_a_board_a_phone_reads_whole_has_no_changed_part_and_costs_no_drawing() -> None:
    """changed_png for a game without a changed part for phones (Barbarian Hordes) answers None
    in the caller's process: no render is queued behind other games' boards for it."""
    a, b = views(2)

    async def go() -> None:
        pool = RenderPool(1, executor=concurrent.futures.ThreadPoolExecutor(1))
        assert await pool.changed_png(b, a) is None
        assert await pool.changed_png(b, None) is None
        assert pool.drawn == 0

    asyncio.run(go())


def test_the_changed_part_of_a_tall_board_is_cut_from_the_boards_already_drawn() -> None:
    """With both boards drawn (in the pool's cache), the changed part is cut from their PNGs,
    decoded rather than drawn again, and is the same image render.phone draws from the Views."""
    from render import phone

    g, before_state, _ = playout("promised-land", 3, 30, 4)
    _, after_state, _ = playout("promised-land", 3, 60, 4)
    before, after = g.view(before_state, None), g.view(after_state, None)
    names = {0: "Ann"}

    async def go() -> None:
        ex = concurrent.futures.ThreadPoolExecutor(1)
        pool = RenderPool(1, executor=ex)
        await pool.png(before, names)
        await pool.png(after, names)
        calls: list[str] = []
        real = ex.submit

        def submit(fn: Callable[..., Any], *args: Any) -> concurrent.futures.Future[Any]:
            calls.append(pickle.loads(args[0])[2] if args else fn.__name__)
            return real(fn, *args)

        ex.submit = submit  # type: ignore[method-assign]
        crop = await pool.changed_png(after, before, names)
        assert crop == phone.changed_png(after, before, names)
        assert calls == ["_cropped_games", "crop"] or calls == ["crop"]
        assert await pool.changed_png(after, after, names) is None  # the map did not change

    asyncio.run(go())


def test_a_hand_left_as_it_was_is_not_drawn_again(monkeypatch) -> None:
    """A worker keeps a seat's hand image under the seat and the cards it shows: a later View
    of the same hand gives the same PNG (that of render.phone) without drawing; another seat's
    hand, or a changed hand, is drawn."""
    from render import phone

    game, state, _ = playout("barbarian-hordes", 3, 30, 3)
    views_by_step = {}
    for steps in range(30, 60):
        g, st, _ = playout("barbarian-hordes", 3, steps, 3)
        views_by_step[steps] = g.view(st, 0)
    first = views_by_step[30]
    same = next(v for v in views_by_step.values() if v != first and phone.hand_cards(v) == phone.hand_cards(first))
    other = next(v for v in views_by_step.values() if phone.hand_cards(v) != phone.hand_cards(first))
    drawn: list[str] = []
    real = phone.hand_png_of
    monkeypatch.setattr(phone, "hand_png_of", lambda t, c: drawn.append(t) or real(t, c))
    monkeypatch.setattr(rpool, "_HANDS", type(rpool._HANDS)())  # noqa: SLF001
    assert rpool._hand_png(first) == phone.hand_png(first)  # noqa: SLF001
    assert rpool._hand_png(same) == phone.hand_png(same)  # noqa: SLF001
    assert len(drawn) == 1
    assert rpool._hand_png(other) == phone.hand_png(other)  # noqa: SLF001
    assert rpool._hand_png(game.view(state, 1)) == phone.hand_png(game.view(state, 1))  # noqa: SLF001
    assert len(drawn) == 3
    assert rpool._hand_png(game.view(state, None)) is None  # noqa: SLF001


def test_a_changed_part_is_still_drawn_when_the_workers_cannot_say_which_boards_have_one(monkeypatch) -> None:
    """When asking the workers which games have a changed part fails (a broken pool), the
    request is drawn as any other instead of failing."""
    from render import phone

    g, before_state, _ = playout("promised-land", 3, 30, 4)
    _, after_state, _ = playout("promised-land", 3, 60, 4)
    before, after = g.view(before_state, None), g.view(after_state, None)

    class Refusing(concurrent.futures.ThreadPoolExecutor):
        def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> concurrent.futures.Future[Any]:
            if fn is rpool._cropped_games:  # noqa: SLF001
                raise concurrent.futures.BrokenExecutor("a worker died")
            return super().submit(fn, *args, **kwargs)

    monkeypatch.setattr(rpool, "_CROPPED", None)

    async def go() -> None:
        pool = RenderPool(1, executor=Refusing(1))
        assert await pool.changed_png(after, before) == phone.changed_png(after, before)

    asyncio.run(go())
