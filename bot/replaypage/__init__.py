"""The replay page of a finished game: one self-contained HTML file (``tabula export``).

The page shows the public board image after each step, the public log beside it, a step
slider with keyboard navigation, and the seed with its published sha256 and the
``tabula verify`` command. It holds only what a spectator could see: every image is rendered
from the spectator's View (``game.view(state, None)``), and every log line goes through the
host's one voice (``bot.host.voice``) for the spectator, so a secret choice reads "a secret
choice" and private events (a hand, a card drawn) never appear.

Images are WebP data URIs inside the file (no server, no network); identical boards are
stored once. A page too large for a limit is built again with narrower images, then with a
subset of the steps (the log keeps every action; a shown step carries the actions since the
previous shown one), and the page says so.
"""

from __future__ import annotations

import base64
import hashlib
import io
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

from games.core import Outcome, get_game, start
from games.core.english import count
from storage import ActionRecord, SessionRecord, Storage
from storage.replay import options_of, replay_rows, rules_note, seats_of, short_error

from ..host.voice import notation_for

#: Widths (pixels) tried in turn when a page must fit a size limit.
WIDTHS = (1000, 720, 534, 400)
WEBP_QUALITY = 70


@dataclass(frozen=True)
class ReplayStep:
    """One shown step: ``seq`` of the last action it includes (0 = setup), the index of its
    board image in ``ReplayPage.images``, and its log entries (``LogLine``s)."""

    seq: int
    image: int
    entries: tuple[LogLine, ...]


@dataclass(frozen=True)
class LogLine:
    """One action as a spectator reads it: ``seq``, who played it, the notation or
    "(a secret choice)", and the public events it produced."""

    seq: int
    who: str
    action: str
    events: tuple[str, ...]


@dataclass(frozen=True)
class ReplayPage:
    """A built page: ``html`` (UTF-8 text) and what went into it."""

    html: str
    steps: int            # steps shown
    actions: int          # actions in the game's log
    width: int            # image width, pixels
    images: int           # distinct board images embedded
    note: str             # what was left out or shrunk to fit, "" when nothing
    seconds: float = 0.0  # time taken to build it

    @property
    def size(self) -> int:
        """The file's size in bytes."""
        return len(self.html.encode("utf-8"))


@dataclass
class _Frame:
    seq: int
    view: Any
    key: str
    entries: list[LogLine] = field(default_factory=list)


def _who(game: Any, state: Any, rec: SessionRecord, seat: int | None,
         user_name: Callable[[int], str] | None) -> str:
    if seat is None or seat >= len(rec.seats):
        return "The game"
    label = game.seat_name(state, seat) or f"Seat {seat + 1}"
    s = rec.seats[seat]
    if s.user_id is None:
        return f"{label} (AI)"
    if user_name is not None:
        return f"{label} ({user_name(s.user_id)})"
    return label if label.startswith("Seat ") else f"{label} (seat {seat + 1})"


def _line(row: ActionRecord, who: str) -> LogLine:
    shown = notation_for(row, None)
    action = "(setup)" if row.seq == 0 else ("(a secret choice)" if shown is None else shown)
    return LogLine(row.seq, who, action, tuple(e.text for e in row.events if e.visible(None) and e.text.strip()))


class Cancelled(Exception):
    """The page was no longer wanted (``stop`` was set) while it was being made."""


def _check(stop: Any) -> None:
    if stop is not None and stop.is_set():
        raise Cancelled


def _frames(rec: SessionRecord, rows: Sequence[ActionRecord],
            user_name: Callable[[int], str] | None, stop: Any = None) -> tuple[list[_Frame], Any, str]:
    """One frame per log row (its public board and log line), the final state, and a note for the
    page: for a game saved under another version of its rules (``SessionRecord.rules_version``)
    whose log stops replaying at some row, that row and the later ones keep the last board drawn
    and list their log lines as stored, and the note says so; "" otherwise.

    Raises the GameError of a row that does not replay under the rules it was saved under, or
    when a game saved under other rules cannot even be set up."""
    from games.core import GameError

    game = get_game(rec.game_id)
    other_rules = rec.rules_version != game.rules_version
    try:
        state = start(game, seats_of(rec), options_of(game, rec), rec.seed).state
    except Exception as e:
        if not other_rules:
            raise
        raise GameError(f"Game #{rec.id} was played under {rules_note(game, rec.rules_version)}, whose set-up this "
                        f"version cannot replay ({short_error(e)}); its log is kept.") from None
    frames: list[_Frame] = []
    note = ""
    for row in rows:
        _check(stop)
        if row.seq > 0 and not note:
            try:
                state = replay_rows(game, state, [row], rec.seed)
            except Exception:
                if not other_rules or not frames:
                    raise
                note = (f"This game was played under {rules_note(game, rec.rules_version)}: from action {row.seq} "
                        "on its log no longer replays, so the board stays as it was after action "
                        f"{row.seq - 1} and the later actions are listed as they were logged.")
        if note:
            last = frames[-1]
            frames.append(_Frame(row.seq, last.view, last.key, [_line(row, _who(game, state, rec, row.seat,
                                                                                   user_name))]))
            continue
        view = game.view(state, None)
        key = hashlib.sha256(view.model_dump_json().encode()).hexdigest()
        frames.append(_Frame(row.seq, view, key, [_line(row, _who(game, state, rec, row.seat, user_name))]))
    return frames, state, note


def _encode(view: Any, width: int, cache: dict[tuple[str, int], str], key: str) -> str:
    hit = cache.get((key, width))
    if hit is None:
        from PIL import Image

        import render

        image = render.render_image(view)
        if image.width >= 2 * width:  # a whole factor: Pillow's fast box reduction
            image = image.reduce(round(image.width / width))
        elif image.width > width:
            image = image.resize((width, round(image.height * width / image.width)), Image.Resampling.BILINEAR)
        buf = io.BytesIO()
        image.save(buf, "WEBP", quality=WEBP_QUALITY, method=0)
        hit = "data:image/webp;base64," + base64.b64encode(buf.getvalue()).decode("ascii")
        cache[(key, width)] = hit
    return hit


def _subset(frames: list[_Frame], keep: int) -> list[_Frame]:
    """``keep`` frames spread evenly (always the first and the last); each kept frame takes the
    log entries of the frames dropped before it."""
    if keep >= len(frames):
        return frames
    keep = max(2, keep)
    n = len(frames)
    picks = sorted({round(i * (n - 1) / (keep - 1)) for i in range(keep)})
    out: list[_Frame] = []
    prev = -1
    for p in picks:
        entries = [e for f in frames[prev + 1: p + 1] for e in f.entries]
        out.append(_Frame(frames[p].seq, frames[p].view, frames[p].key, entries))
        prev = p
    return out


def _fit(frames: list[_Frame], widths: Sequence[int], max_bytes: int,
         make: Callable[[list[_Frame], int, str], ReplayPage], encode: Callable[[_Frame, int], str]) -> ReplayPage:
    """The page under ``max_bytes``: the widest image width whose predicted size fits (the mean
    size of a few sample boards at each width times the distinct boards), then, at the narrowest
    width, fewer steps until it fits. Boards are rendered at one width only, except the samples."""
    distinct = list({f.key: f for f in frames}.values())
    samples = distinct[:: max(1, len(distinct) // 4)][:4]
    limit = f"{max_bytes / 2**20:.1f}".rstrip("0").rstrip(".")
    base = len(make(frames[:1], widths[-1], "").html.encode()) + sum(
        len(e.action) + len(e.who) + sum(map(len, e.events)) + 60 for f in frames for e in f.entries)
    notes: list[str] = []
    width = widths[-1]
    for w in widths:
        mean = sum(len(encode(f, w)) for f in samples) / len(samples)
        if base + mean * len(distinct) <= max_bytes:
            width = w
            break
    if width != widths[0]:
        notes.append(f"board images {width} pixels wide to fit {limit} MiB")
    page = make(frames, width, "; ".join(notes) + ("." if notes else ""))
    keep = len(frames)
    while page.size > max_bytes and keep > 2:
        keep = max(2, int(keep * max_bytes / page.size * 0.9))
        shown = _subset(frames, keep)
        note = "; ".join([*notes, f"{len(shown)} of {count(len(frames), 'step')} shown to fit {limit} MiB (each shown "
                                  "step lists every action since the previous one)"]) + "."
        page = make(shown, width, note)
    return page


def _outcome_line(rec: SessionRecord, who: Callable[[int], str]) -> str:
    if rec.status == "abandoned":
        return "The game was abandoned."
    if not rec.outcome:
        return "The game is not over."
    outcome = Outcome.model_validate(rec.outcome)
    if outcome.winners:
        return f"Won by {', '.join(who(w) for w in outcome.winners)} ({outcome.reason})."
    return f"Nobody won ({outcome.reason})."


def _template() -> Any:
    from jinja2 import Environment, select_autoescape

    text = resources.files(__package__).joinpath("templates/replay.html.j2").read_text(encoding="utf-8")
    env = Environment(autoescape=select_autoescape(default=True, default_for_string=True))
    return env.from_string(text)


async def build_page(
    storage: Storage,
    session_id: int,
    *,
    max_bytes: int | None = None,
    widths: Sequence[int] = WIDTHS,
    verify_command: str | None = None,
    user_name: Callable[[int], str] | None = None,
    stop: Any = None,
) -> ReplayPage:
    """The replay page of session ``session_id`` (finished or abandoned).

    Parameters
    ----------
    max_bytes
        When given, the page is made to fit: first narrower images (``widths`` in turn,
        pixels), then fewer steps; ``ReplayPage.note`` says what was done.
    verify_command
        The command shown for checking the game (default ``tabula verify <id>``).
    user_name
        How a human seat's player is named (user id -> name); default: the seat's label only.
    stop
        A ``threading.Event``: once set, the work stops with ``Cancelled`` (the page is made in a
        thread, which cancelling the caller does not stop).

    Raises
    ------
    games.core.GameError
        The session is unknown (``UnknownSessionError``), not over yet (its seed is still
        secret), or its log does not replay.
    """
    import asyncio

    from games.core import GameError

    began = time.perf_counter()
    rec = await storage.get_session(session_id)
    if rec.status not in ("finished", "abandoned") or rec.started_at is None:
        raise GameError(f"Game #{session_id} is not over (it is {rec.shown_status}): its seed stays secret and "
                        "its replay page is made once it has ended.")
    rec, rows, _ = await storage.session_log(session_id)
    page = await asyncio.to_thread(compose_page, rec, rows, max_bytes=max_bytes, widths=widths,
                                   verify_command=verify_command, user_name=user_name, stop=stop)
    return ReplayPage(page.html, page.steps, page.actions, page.width, page.images, page.note,
                      time.perf_counter() - began)


def compose_page(
    rec: SessionRecord,
    rows: Sequence[ActionRecord],
    *,
    max_bytes: int | None = None,
    widths: Sequence[int] = WIDTHS,
    verify_command: str | None = None,
    user_name: Callable[[int], str] | None = None,
    stop: Any = None,
) -> ReplayPage:
    """``build_page`` from a session and its whole log (seq order), without storage: replays the
    log, renders each distinct public board and fills the template (CPU work; ``build_page`` runs
    it in a thread). A game saved under another version of its rules whose log stops replaying
    shows its last board drawn from there on, its log lines as stored, and a note saying so.
    Raises the GameError of a log row that does not replay under the rules it was saved under."""
    began = time.perf_counter()
    frames, final_state, replay_note = _frames(rec, rows, user_name, stop)
    game = get_game(rec.game_id)
    cache: dict[tuple[str, int], str] = {}
    template = _template()

    def names(seat: int) -> str:
        return _who(game, final_state, rec, seat, user_name)

    def make(shown: list[_Frame], width: int, note: str) -> ReplayPage:
        note = " ".join(n for n in (replay_note, note) if n)
        keys: dict[str, int] = {}
        images: list[str] = []
        steps = []
        for f in shown:
            _check(stop)
            if f.key not in keys:
                keys[f.key] = len(images)
                images.append(_encode(f.view, width, cache, f.key))
            steps.append(ReplayStep(f.seq, keys[f.key], tuple(f.entries)))
        html = template.render(
            title=f"{game.title} — game #{rec.id}",
            game=game.title,
            session=rec.id,
            seed=rec.seed,
            seed_hash=rec.seed_hash,
            verify=verify_command or f"tabula verify {rec.id}",
            outcome=_outcome_line(rec, names),
            seats=[names(s.seat) for s in rec.seats],
            note=note,
            data={
                "images": images,
                "steps": [{"seq": s.seq, "image": s.image,
                           "entries": [{"seq": e.seq, "who": e.who, "action": e.action, "events": list(e.events)}
                                       for e in s.entries]} for s in steps],
            },
        )
        return ReplayPage(html, len(steps), rec.seq, width, len(images), note)

    if max_bytes is None:
        page = make(frames, widths[0], "")
    else:
        page = _fit(frames, widths, max_bytes, make, lambda f, w: _encode(f.view, w, cache, f.key))
    return ReplayPage(page.html, page.steps, page.actions, page.width, page.images, page.note,
                      time.perf_counter() - began)
