"""Board images rendered off the event loop, in worker processes.

``RenderPool.png(view, names=None, slot=None) -> bytes`` renders ``render_view(view,
names)`` in a pool of worker processes (one per CPU core by default, started with
``spawn`` and at a lower scheduling priority than the caller, so a busy pool does not
slow the process that answers players). Three rules keep the work bounded:

- **Back-pressure:** at most ``workers`` renders are handed to the processes at a time;
  the others wait in the pool's own queue, first come first served.
- **Coalescing:** a request names its ``slot`` (e.g. one game's public board). When a
  newer request for the same slot arrives while an older one is still waiting, the older
  board is never drawn: its callers get the newer board. Only requests that are still
  waiting are coalesced; one already drawing finishes, and so does one that a caller of
  another slot (or of none) also waits for.
- **One drawing per distinct image:** requests are keyed by the pickled bytes of the View
  and the names (the image depends on nothing else), so the same view asked for two
  audiences, or twice, is drawn once; the last ``cache_size`` images are kept.

Only what the View holds reaches an image, as with ``render_view``: the pool never sees a
State. Coalescing replaces a waiting request's View with a newer one of the same slot, so
a slot must only ever be shared by callers entitled to the same views (public boards:
``(session, None)``).
"""

from __future__ import annotations

import asyncio
import atexit
import collections
import concurrent.futures
import contextlib
import hashlib
import logging
import multiprocessing
import os
import pickle
import threading
import time
from collections.abc import Hashable, Mapping
from dataclasses import dataclass, field
from typing import Any

log = logging.getLogger("tabula.render")

NICE = 5  # added to the workers' scheduling niceness: the caller's event loop comes first


def default_workers() -> int:
    """One worker per core this process may run on (at least one)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


ORPHAN_CHECK_SECONDS = 1.0
"""How often a worker checks that the process that started it is still alive."""


def _exit_when_orphaned(parent: int) -> None:
    """In a worker: end the process once its parent is gone. A parent killed outright
    (SIGKILL, out of memory) never shuts its pool down, and a worker still holds its own
    end of the task queue, so it would otherwise wait for work forever."""
    while True:
        time.sleep(ORPHAN_CHECK_SECONDS)
        if os.getppid() != parent:
            os._exit(0)


def _worker_init() -> None:
    with contextlib.suppress(OSError):
        os.nice(NICE)
    threading.Thread(target=_exit_when_orphaned, args=(os.getppid(),), daemon=True,
                     name="tabula-orphan-check").start()
    import render  # noqa: F401  (fonts and modules load once per worker, not per board)


def _render_pickled(data: bytes) -> bytes:
    """In a worker: the PNG of a pickled ``(view, names)`` (a board), or of ``(view, names,
    kind, before)``: ``"hand"`` the seat's hand alone (``render.phone.hand_png``; the seat's
    board when its View shows no hand), ``"changed"`` the part of a tall board that changed
    since the View ``before`` (``render.phone.changed_png``; empty bytes when there is none),
    ``"crop"`` the same from the two boards' PNGs already drawn (``view`` and ``before`` are
    then the PNG bytes of the boards after and before, ``names`` the game's id)."""
    from render import phone, render_view

    view, names, *rest = pickle.loads(data)
    kind, before = rest if rest else ("board", None)
    if kind == "hand":
        return _hand_png(view) or render_view(view, names)
    if kind == "changed":
        return phone.changed_png(view, before, names) or b""
    if kind == "crop":
        return _crop_pngs(names, view, before)
    return render_view(view, names)


HAND_CACHE = 128
"""Hand images a worker keeps, keyed by the seat and the cards the image shows."""
_HANDS: collections.OrderedDict[bytes, bytes] = collections.OrderedDict()


def _hand_png(view: Any) -> bytes | None:
    """In a worker: ``render.phone.hand_png(view)``, drawn again only when the seat's hand image
    would differ: the image shows only the title and cards ``render.phone.hand_cards`` gives, so
    it is kept under those (with the game and the seat), and an update that left the hand as it
    was costs no drawing. None when the View shows no hand."""
    from render import phone

    found = phone.hand_cards(view)
    if found is None:
        return None
    title, cards = found
    key = pickle.dumps((view.game, view.viewer, title, list(cards)), protocol=pickle.HIGHEST_PROTOCOL)
    png = _HANDS.get(key)
    if png is None:
        png = phone.hand_png_of(title, cards)
        _HANDS[key] = png
        while len(_HANDS) > HAND_CACHE:
            _HANDS.popitem(last=False)
    _HANDS.move_to_end(key)
    return png


def _crop_pngs(game: str, after: bytes, before: bytes) -> bytes:
    """In a worker: ``render.phone.changed_png`` from the PNGs of the two boards, decoded
    instead of drawn again (the same pixels: PNG is lossless); empty bytes when the map did not
    change."""
    import io

    from PIL import Image

    from render import draw, phone, renderer

    after_img, before_img = (Image.open(io.BytesIO(b)) for b in (after, before))
    after_img.load()
    box = phone.crop_box(before_img, after_img, renderer(game).phone_area(after_img.size))
    return b"" if box is None else draw.encode_png(after_img.crop(tuple(int(v) for v in box)))


def _cropped_games() -> frozenset[str]:
    """In a worker: the ids of the games whose boards have a changed part for phones (their
    module has ``phone_area``; ``render.phone.changed_crop``)."""
    import render

    return frozenset(g for g in render.supported_games() if hasattr(render.renderer(g), "phone_area"))


def _pickled(what: tuple[Any, ...]) -> bytes:
    return pickle.dumps(what, protocol=pickle.HIGHEST_PROTOCOL)


def _key(data: bytes) -> bytes:
    """A request's key: the hash of its pickled view and names (the image depends on nothing else)."""
    return hashlib.blake2b(data, digest_size=20).digest()


WAITS_KEPT = 10_000  # request waits a pool keeps (``RenderPool.waits``)
_CROPPED: frozenset[str] | None = None  # the games with a changed part for phones (``_cropped_games``)
_SHARED: concurrent.futures.ProcessPoolExecutor | None = None
_BROKEN: list[concurrent.futures.Executor] = []


def shared_executor(workers: int | None = None) -> concurrent.futures.ProcessPoolExecutor:
    """The process's board-rendering worker processes (``workers``, default one per core,
    fixed by the first call), started on first use and shared by every ``RenderPool``
    that is not given an executor: they cost a second or so of start-up each."""
    global _SHARED
    if _SHARED is None:
        _SHARED = concurrent.futures.ProcessPoolExecutor(
            max_workers=workers or default_workers(),
            mp_context=multiprocessing.get_context("spawn"),
            initializer=_worker_init,
        )
    return _SHARED


@atexit.register
def _shutdown() -> None:
    """Stop the worker processes before the interpreter tears its modules down."""
    global _SHARED
    ex, _SHARED = _SHARED, None
    for e in [*_BROKEN, *([ex] if ex is not None else [])]:
        e.shutdown(wait=True, cancel_futures=True)
    _BROKEN.clear()


def _discard(executor: concurrent.futures.Executor | None) -> None:
    global _SHARED
    if executor is not None and executor is _SHARED:
        _SHARED = None
        _BROKEN.append(executor)
        executor.shutdown(wait=False, cancel_futures=True)


@dataclass
class _Job:
    key: bytes
    data: bytes
    slot: Hashable | None
    waiters: list[asyncio.Future[bytes]] = field(default_factory=list)
    slots: list[Hashable | None] = field(default_factory=list)  # each waiter's slot


class RenderPool:
    """Board images with back-pressure, coalescing and de-duplication (see the module's
    docstring), drawn in the process's shared worker processes (``shared_executor``). Use
    one per event loop.

    Parameters
    ----------
    workers
        Renders handed to the workers at a time (default: one per core).
    cache_size
        Finished images kept, keyed by their view and names.
    executor
        Where renders run, instead of the shared worker processes (tests pass a thread
        pool, or a pool of their own).
    """

    def __init__(
        self,
        workers: int | None = None,
        *,
        cache_size: int = 64,
        executor: concurrent.futures.Executor | None = None,
    ) -> None:
        self.workers = workers or default_workers()
        self.cache_size = cache_size
        self._executor = executor
        self._queue: collections.deque[_Job] = collections.deque()  # waiting, first come first served
        self._waiting: dict[bytes, _Job] = {}  # the same jobs by key
        self._waiting_slots: dict[Hashable, _Job] = {}
        self._running: dict[bytes, _Job] = {}
        self._cache: collections.OrderedDict[bytes, bytes] = collections.OrderedDict()
        self.drawn = 0  # renders handed to the workers
        self.coalesced = 0  # waiting requests replaced by a newer one of their slot
        self.shared = 0  # requests answered by a drawing asked for by someone else (or the cache)
        # (kind, seconds) of the latest requests: how long each caller waited for its image
        # ("board", "hand", "changed" or "crop"), for bench/e2e.py
        self.waits: collections.deque[tuple[str, float]] = collections.deque(maxlen=WAITS_KEPT)

    # ------------------------------------------------------------------ public

    async def png(
        self, view: Any, names: Mapping[int, str] | None = None, *, slot: Hashable | None = None
    ) -> bytes:
        """The PNG bytes of ``render_view(view, names)``.

        ``slot`` names the board over time (e.g. ``("public", session_id)``): a newer request
        of the same slot supersedes this one while it waits, and this call then returns the
        newer board. Raises what ``render_view`` raises (``TypeError`` for a non-View), or
        ``concurrent.futures.process.BrokenProcessPool`` when a worker died twice in a row.
        """
        return await self._request((view, dict(names) if names else None), slot)

    async def hand_png(self, view: Any, names: Mapping[int, str] | None = None, *, slot: Hashable | None = None) -> bytes:
        """The PNG of the seat's hand alone in ``view`` (``render.phone.hand_png``: large text
        for a phone), or of the seat's board when the View shows no hand. ``slot`` as for ``png``
        (a seat's images only: never shared with another reader)."""
        return await self._request((view, dict(names) if names else None, "hand", None), slot)

    async def changed_png(
        self, view: Any, before: Any, names: Mapping[int, str] | None = None, *, slot: Hashable | None = None
    ) -> bytes | None:
        """The PNG of the part of ``view``'s board that changed since ``before`` (an earlier View
        for the same readers), for a board too tall to read on a phone
        (``render.phone.changed_png``); None for other games or when the map did not change."""
        game = getattr(view, "game", None)
        if type(view).__name__ == "View" and (before is None or getattr(before, "game", None) != game):
            return None
        cropped = await self._cropped()
        if type(view).__name__ == "View" and cropped is not None and game not in cropped:
            return None  # a board a phone reads whole: no trip to a worker
        names = dict(names) if names else None
        after_png, before_png = (self._cache.get(_key(_pickled((v, names)))) for v in (view, before))
        if after_png is not None and before_png is not None:  # both boards drawn already: decode, not draw
            png = await self._request((after_png, game, "crop", before_png), slot)
        else:
            png = await self._request((view, names, "changed", before), slot)
        return png or None

    async def _cropped(self) -> frozenset[str] | None:
        """The games with a changed part for phones (``_cropped_games``), asked of a worker once
        per process; None when the workers cannot answer now (the request then goes to them as
        any other, with its retry)."""
        global _CROPPED
        if _CROPPED is None:
            try:
                _CROPPED = await asyncio.wrap_future(self._pool().submit(_cropped_games))
            except (RuntimeError, concurrent.futures.BrokenExecutor) as e:
                log.warning("could not ask the render workers which boards have a changed part: %s", e)
        return _CROPPED

    async def _request(self, what: tuple[Any, ...], slot: Hashable | None) -> bytes:
        data = _pickled(what)
        key = _key(data)
        cached = self._cache.get(key)
        if cached is not None:
            self._cache.move_to_end(key)
            self.shared += 1
            self.waits.append((what[2] if len(what) > 2 else "board", 0.0))
            return cached
        fut: asyncio.Future[bytes] = asyncio.get_running_loop().create_future()
        job = self._running.get(key) or self._waiting.get(key)
        older = self._waiting_slots.get(slot) if slot is not None else None
        if job is not None:
            self.shared += 1
        elif older is not None and all(s == slot for s in older.slots):
            # an older board of this slot is waiting, asked for by this slot's readers only: draw this one instead
            del self._waiting[older.key]
            older.key, older.data = key, data
            self._waiting[key] = job = older  # keeps its place in the queue
            self.coalesced += 1
        else:
            job = _Job(key, data, slot)
            self._queue.append(job)
            self._waiting[key] = job
            if slot is not None:
                self._waiting_slots[slot] = job
        job.waiters.append(fut)
        job.slots.append(slot)
        self._pump()
        start = time.perf_counter()
        try:
            return await fut
        finally:
            self.waits.append((what[2] if len(what) > 2 else "board", time.perf_counter() - start))

    def close(self) -> None:
        """Cancel the requests still waiting (their callers get ``CancelledError``); the
        worker processes stay for other pools."""
        for job in self._queue:
            for w in job.waiters:
                w.cancel()
        self._queue.clear()
        self._waiting.clear()
        self._waiting_slots.clear()

    def warm(self) -> None:
        """Start the worker processes now, so the first board does not wait for them."""
        ex = self._pool()
        if isinstance(ex, concurrent.futures.ProcessPoolExecutor):
            for _ in range(self.workers):
                ex.submit(os.getpid)

    # ------------------------------------------------------------------ inside

    def _pool(self) -> concurrent.futures.Executor:
        return self._executor if self._executor is not None else shared_executor(self.workers)

    def _pump(self) -> None:
        while self._queue and len(self._running) < self.workers:
            job = self._queue.popleft()
            key = job.key
            del self._waiting[key]
            if job.slot is not None and self._waiting_slots.get(job.slot) is job:
                del self._waiting_slots[job.slot]
            self._running[key] = job
            self._start(job, retry=True)

    def _start(self, job: _Job, *, retry: bool) -> None:
        self.drawn += 1
        pool = self._pool()
        try:
            cfut = pool.submit(_render_pickled, job.data)
        except (RuntimeError, concurrent.futures.BrokenExecutor) as e:  # shut down or broken
            self._done(job, pool, None, concurrent.futures.BrokenExecutor(str(e)), retry=retry)
            return
        afut = asyncio.wrap_future(cfut, loop=asyncio.get_running_loop())
        afut.add_done_callback(lambda f: self._finished(job, pool, f, retry))

    def _finished(
        self, job: _Job, pool: concurrent.futures.Executor, f: asyncio.Future[bytes], retry: bool
    ) -> None:
        if f.cancelled():
            self._done(job, pool, None, asyncio.CancelledError(), retry=False)
        elif f.exception() is not None:
            self._done(job, pool, None, f.exception(), retry=retry)
        else:
            self._done(job, pool, f.result(), None, retry=retry)

    def _done(
        self,
        job: _Job,
        pool: concurrent.futures.Executor,
        png: bytes | None,
        error: BaseException | None,
        *,
        retry: bool,
    ) -> None:
        if isinstance(error, concurrent.futures.BrokenExecutor) and retry and self._executor is None:
            # a worker died (killed, out of memory): start fresh workers once and try again
            log.warning("render worker processes broke (%s); starting them again", error)
            _discard(pool)
            self._start(job, retry=False)
            return
        self._running.pop(job.key, None)
        if png is not None:
            self._cache[job.key] = png
            while len(self._cache) > self.cache_size:
                self._cache.popitem(last=False)
        for w in job.waiters:
            if w.done():
                continue
            if isinstance(error, asyncio.CancelledError):
                w.cancel()
            elif png is not None:
                w.set_result(png)
            else:
                w.set_exception(error or RuntimeError("render failed"))
        self._pump()


__all__ = ["RenderPool", "default_workers", "shared_executor"]
