"""Random-agent fuzz: no reachable position raises, and nothing is lost on the way.

Every seat plays uniformly random legal actions (not the heuristic agents, which
avoid odd lines). After setup and after every step the fuzz checks:

- no exception escapes ``to_act``, ``legal_actions``, ``apply``, ``format_action``,
  ``parse_action`` or ``outcome``;
- someone is asked unless the game is over, and nobody once it is;
- every asked seat has at least one legal action;
- ``parse_action(format_action(a)) == a`` for the legal actions of every asked seat
  (all of them up to ``notation_cap`` per seat, a random sample of that many beyond,
  since a war commitment can have millions);
- the game's conservation invariants (``games.core.invariants``).

A failure carries what reproduces it: the session seed, the player count, the
options and the action sequence in the game's notation (step n is applied with
``Rng(seed, n)``, as the host does, so ``tabula play`` with the same seed and these
actions reaches the same position).

The variants covered per game (every player count, every option that changes the
rules) are declared next to the game with its invariants.
"""

from __future__ import annotations

import bisect
import hashlib
import importlib
import multiprocessing
import random
import signal
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from .invariants import check_invariants
from .model import Seat
from .replay import apply_at, start

DEFAULT_MAX_STEPS = 20_000
DEFAULT_NOTATION_CAP = 40

Variants = Callable[[Any, int], Sequence[dict[str, Any]]]
"""(game, players) -> the option sets to fuzz at that player count (each a dict of
Options fields; ``{}`` is the defaults)."""

_VARIANTS: dict[str, Variants] = {}


def register_variants(game_id: str, variants: Variants) -> None:
    """Register the option sets the fuzz covers for a game (called by the game package)."""
    _VARIANTS[game_id] = variants


def variants_of(game: Any, players: int) -> list[dict[str, Any]]:
    """The option sets to fuzz ``game`` with at ``players`` seats (at least the defaults)."""
    fn = _VARIANTS.get(game.id)
    out = list(fn(game, players)) if fn is not None else []
    return out or [{}]


@dataclass(frozen=True)
class Case:
    """One fuzzed game: its session seed, seats and options (Options fields)."""

    game_id: str
    players: int
    options: dict[str, Any]
    seed: int

    def describe(self) -> str:
        opts = ", ".join(f"{k}={v!r}" for k, v in sorted(self.options.items())) or "defaults"
        return f"seed {self.seed}, {self.players} players, options: {opts}"


@dataclass
class Failure:
    """What went wrong, at which step (0 = setup), and the actions that lead there:
    ``(seat, notation)`` pairs, the last one the action being checked or applied when
    the failure is about it."""

    case: Case
    step: int
    kind: str
    message: str
    actions: list[tuple[Seat, str]] = field(default_factory=list)


@dataclass
class Result:
    """One fuzzed game: steps applied, whether it ended, and its failure if any."""

    case: Case
    steps: int = 0
    finished: bool = False
    failure: Failure | None = None


def case_seed(base: int, index: int) -> int:
    """The 63-bit session seed of game ``index`` of a fuzz run with base seed ``base``."""
    digest = hashlib.sha256(f"tabula-fuzz:{base}:{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def cases(game: Any, games: int, seed: int, players: Sequence[int] | None = None) -> list[Case]:
    """``games`` cases cycling through the player counts (default: every count the game
    takes) and, for each count, through its variants."""
    counts = list(players) if players else list(range(game.min_players, game.max_players + 1))
    out = []
    for i in range(games):
        n = counts[i % len(counts)]
        variants = variants_of(game, n)
        opts = variants[(i // len(counts)) % len(variants)]
        out.append(Case(game.id, n, dict(opts), case_seed(seed, i)))
    return out


def _short_trace(e: BaseException) -> str:
    frames = traceback.extract_tb(e.__traceback__)[-3:]
    where = "; ".join(f"{f.filename.rsplit('/', 2)[-2:][-1]}:{f.lineno} {f.name}" for f in frames)
    return f"{type(e).__name__}: {e} [{where}]"


def _indices(n: int, cap: int, rnd: random.Random) -> Sequence[int]:
    return range(n) if n <= cap else sorted(rnd.sample(range(n), cap))


def fuzz_game(
    game: Any,
    case: Case,
    *,
    max_steps: int = DEFAULT_MAX_STEPS,
    notation_cap: int = DEFAULT_NOTATION_CAP,
    invariants: Callable[[Any, Any], list[str]] = check_invariants,
) -> Result:
    """Play ``case`` with uniformly random legal actions, checking after every step
    (see the module docstring). Stops at the first failure. A game still running
    after ``max_steps`` actions is returned unfinished (not a failure: random play
    can be long).

    ``invariants``: the conservation check, ``(game, state) -> violations``.
    """
    result = Result(case)
    rnd = random.Random(f"tabula-fuzz-agent:{case.seed}")
    log: list[tuple[Seat, str]] = []
    seats = list(range(case.players))

    def fail(kind: str, message: str, extra: tuple[Seat, str] | None = None) -> Result:
        result.failure = Failure(case, result.steps, kind, message, log + ([extra] if extra else []))
        return result

    try:
        options = game.Options(**case.options)
        s = start(game, seats, options, case.seed).state
    except Exception as e:
        return fail("exception", "setup: " + _short_trace(e))
    step = 0
    while True:
        try:
            problems = invariants(game, s)
        except Exception as e:
            return fail("exception", "invariant check: " + _short_trace(e))
        if problems:
            return fail("invariant", "; ".join(problems))
        try:
            over = game.outcome(s) is not None
            prompts = game.to_act(s)
        except Exception as e:
            return fail("exception", "outcome/to_act: " + _short_trace(e))
        if over:
            if prompts:
                return fail(
                    "asked after the end", f"seats {sorted(x + 1 for x in prompts)} asked after the end"
                )
            result.finished = True
            return result
        if not prompts:
            return fail("nobody asked", "the game is not over but nobody is asked")
        if step >= max_steps:
            return result
        chosen: tuple[Seat, Any, str] | None = None
        pick = sorted(prompts)[int(rnd.random() * len(prompts))]
        for seat in sorted(prompts):
            try:
                legal = game.legal_actions(s, seat)
                if not isinstance(legal, Sequence):
                    legal = list(legal)
            except Exception as e:
                return fail("exception", f"legal_actions for seat {seat + 1}: " + _short_trace(e))
            if len(legal) == 0:
                return fail(
                    "no legal action",
                    f"seat {seat + 1} is asked ({prompts[seat].kind}) but has no legal action",
                )
            texts: dict[int, str] = {}
            for i in _indices(len(legal), notation_cap, rnd):
                a = legal[i]
                try:
                    text = texts[i] = game.format_action(s, a)
                except Exception as e:
                    return fail("notation", f"format_action({a!r}): " + _short_trace(e))
                try:
                    back = game.parse_action(s, seat, text)
                except Exception as e:
                    return fail(
                        "notation",
                        f"seat {seat + 1}: parse_action({text!r}) of {a!r}: {_short_trace(e)}",
                        (seat, text),
                    )
                if back != a:
                    return fail(
                        "notation",
                        f"seat {seat + 1}: parse_action({text!r}) gave {back!r}, not {a!r}",
                        (seat, text),
                    )
            if seat == pick:
                i = int(rnd.random() * len(legal))
                if i not in texts:  # not among those read back: its notation for the log
                    try:
                        texts[i] = game.format_action(s, legal[i])
                    except Exception as e:
                        return fail("notation", f"format_action({legal[i]!r}): " + _short_trace(e))
                chosen = (seat, legal[i], texts[i])
        assert chosen is not None
        seat, a, text = chosen  # its notation as read back above when it was among those checked
        step += 1
        result.steps = step
        try:
            s = apply_at(game, s, seat, a, case.seed, step).state
        except Exception as e:
            return fail("exception", f"apply: {_short_trace(e)}", (seat, text))
        log.append((seat, text))


@dataclass
class Report:
    """A fuzz run: games, steps, unfinished games and failures."""

    game_id: str
    games: int = 0
    steps: int = 0
    finished: int = 0
    failures: list[Failure] = field(default_factory=list)


def run(
    game: Any,
    cases: Sequence[Case],
    *,
    max_steps: int = DEFAULT_MAX_STEPS,
    notation_cap: int = DEFAULT_NOTATION_CAP,
    progress: Callable[[int, Report], None] | None = None,
    jobs: int = 1,
) -> Report:
    """Fuzz every case (see ``cases``); ``progress(games done, report so far)`` is
    called after each game.

    ``jobs`` > 1 fuzzes the cases in that many worker processes (each game is played as
    a serial run plays it: its case alone decides it). The report is the one a serial run
    gives, failures in case order; while it runs, the report so far counts the games
    finished, in whatever order they finish. Ctrl-C (KeyboardInterrupt) in the calling
    process ends the workers and propagates; the last report given to ``progress`` holds
    the games finished by then.
    """
    report = Report(game.id)
    if jobs <= 1 or len(cases) <= 1:
        for i, case in enumerate(cases, 1):
            r = fuzz_game(game, case, max_steps=max_steps, notation_cap=notation_cap)
            _count(report, r)
            if r.failure is not None:
                report.failures.append(r.failure)
            if progress is not None:
                progress(i, report)
        return report
    order: list[int] = []  # the case index of each failure in report.failures
    ctx = multiprocessing.get_context("spawn")  # a fresh interpreter: no lock or thread of ours copied
    start = (type(game).__module__, game.id, max_steps, notation_cap)
    with ctx.Pool(min(jobs, len(cases)), initializer=_start_worker, initargs=start) as pool:
        results = pool.imap_unordered(_fuzz_indexed, enumerate(cases))
        for done, (index, r) in enumerate(results, 1):
            _count(report, r)
            if r.failure is not None:  # in case order, as a serial run lists them
                at = bisect.bisect(order, index)
                order.insert(at, index)
                report.failures.insert(at, r.failure)
            if progress is not None:
                progress(done, report)
    return report


def _count(report: Report, r: Result) -> None:
    """Add a game's figures (not its failure) to ``report``."""
    report.games += 1
    report.steps += r.steps
    report.finished += r.finished


_worker: dict[str, Any] = {}
"""A worker process's game and limits (``_start_worker``)."""


def _start_worker(module: str, game_id: str, max_steps: int, notation_cap: int) -> None:
    """Set up a worker of ``run``: the parent alone answers Ctrl-C (and then ends the
    workers); the game is found as the parent found it (its module registers it)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    importlib.import_module(module)
    from .registry import get_game

    _worker.update(game=get_game(game_id), max_steps=max_steps, notation_cap=notation_cap)


def _fuzz_indexed(item: tuple[int, Case]) -> tuple[int, Result]:
    index, case = item
    w = _worker
    return index, fuzz_game(w["game"], case, max_steps=w["max_steps"], notation_cap=w["notation_cap"])
