"""A property check of hidden information over random games (ARCHITECTURE.md, trust
invariants 2 and 3), used by ``tests/host/test_secrets_property.py`` (a bounded slice)
and ``bench/hidden_info.py`` (a long run).

At every state reached by random play it checks:

- **perturbation**: ``perturb_hidden`` keeps what its seats see (the spectator's view
  for ``keep`` empty; a seat's own view for ``keep={seat}``). A helper that changed
  a visible part would make the two checks below meaningless.
- **prompt**: the public prompts (who is asked, the kind and the text of each prompt)
  are the same in states that differ only in hidden information (``keep`` empty:
  everything a spectator cannot see drawn again); and after an action, applied again
  where what its player could not see is drawn again, the same public events never
  come with different public prompts (a window opened or skipped by who holds what).
- **reveal**: an action the game marks non-revealing (``games.core.secrets.reveals``)
  gives the same views, events and prompts for its player and the spectators when
  what its player could not see is drawn again, and the same views for every seat
  when what nobody sees is drawn again; these perturbations are fresh ones, drawn
  independently of those the game's own verdict may use.
- **choice**: a choice made in secret stays secret until a step marked revealing shows
  it. Where a seat's action could have been another that leaves every other seat's
  view, events and the prompts the same (a face-down card, a war commitment), the game
  is followed along both branches with the same later actions; the first step after
  which some other seat sees a difference must be marked revealing, unless the chooser
  itself took it. This check does not rely on ``perturb_hidden``: it finds a secret
  choice the game forgot to perturb (an undo after that step would let the other seat
  choose again knowing it).
"""

from __future__ import annotations

import dataclasses
import random
from dataclasses import dataclass, field
from typing import Any

from .agents import make_agent
from .errors import GameError
from .rng import Rng
from .secrets import TrackingRng, observation, perturb, public_prompts, reveals, same_outcome, seats_of


@dataclass(frozen=True)
class Finding:
    """One failed check: ``kind`` is ``perturbation``, ``prompt`` or ``reveal``."""

    game: str
    players: int
    options: dict[str, Any]
    seed: int
    step: int
    kind: str
    detail: str
    context: Any = field(default=None, compare=False, repr=False)  # (state, seat, action) to investigate

    def __str__(self) -> str:
        return (f"{self.game} players={self.players} options={self.options} seed={self.seed} "
                f"step={self.step}: {self.kind}: {self.detail}")


@dataclass
class Report:
    """States and actions checked, and the findings (empty when all held)."""

    states: int = 0
    actions: int = 0
    non_revealing: int = 0
    findings: list[Finding] = field(default_factory=list)

    def add(self, other: Report) -> None:
        self.states += other.states
        self.actions += other.actions
        self.non_revealing += other.non_revealing
        self.findings.extend(other.findings)


def _dump(game: Any, s: Any, viewer: Any) -> Any:
    return game.view(s, viewer).model_dump(mode="json")


def check_game(
    game: Any,
    players: int,
    options: dict[str, Any],
    seed: int,
    steps: int,
    *,
    tries: int = 3,
    agent: str = "random",
    checks: frozenset[str] = frozenset({"prompt", "reveal", "choice"}),
) -> Report:
    """Play one random game of ``game`` (``players`` seats, ``options``, ``seed``) for up
    to ``steps`` actions and run the checks (module docstring) at each state, ``tries``
    perturbations each: ``checks`` holds ``prompt`` and/or ``reveal`` (the perturbation
    checks always run), ``choice`` too. ``agent``: ``random`` or ``heuristic`` players."""
    from .replay import start

    report = Report()
    seats = list(range(players))
    opts = game.Options(**options)
    s = start(game, seats, opts, seed).state
    rand = random.Random(f"tabula:secretcheck:{game.id}:{seed}")
    agents = {x: make_agent(game, agent, seed=seed * 31 + x) for x in seats}

    def found(step: int, kind: str, detail: str, context: Any = None) -> None:
        report.findings.append(Finding(game.id, players, options, seed, step, kind, detail, context))

    branches: list[_Branch] = []  # the "choice" check's other branches, alive while secret

    for n in range(1, steps + 1):
        if game.outcome(s) is not None:
            break
        prompts = game.to_act(s)
        if not prompts:
            break
        report.states += 1
        public = public_prompts(game, s)
        spectator = _dump(game, s, None)
        for i in range(tries):
            other = perturb(game, s, frozenset(), random.Random(f"{rand.random()}:{i}"))
            if _dump(game, other, None) != spectator:
                found(n, "perturbation", "the spectator's view changed when only hidden information did")
                break
            if "prompt" in checks and public_prompts(game, other) != public:
                found(n, "prompt", f"{public} became {public_prompts(game, other)}", (s, other))
                break
        seat = sorted(prompts)[int(rand.random() * len(prompts))]
        own = _dump(game, s, seat)
        for i in range(tries):
            other = perturb(game, s, frozenset({seat}), random.Random(f"{rand.random()}:{i}"))
            if _dump(game, other, seat) != own or _dump(game, other, None) != spectator:
                found(n, "perturbation", f"seat {seat}'s view changed when only what it cannot see did")
                break
        action = agents[seat].choose(game, s, seat)
        notation = game.format_action(s, action)
        rng = TrackingRng(seed, n)
        step = game.apply(s, seat, action, rng)
        report.actions += 1
        if "prompt" in checks:
            after = public_prompts(game, step.state)
            shown = [e.model_dump(mode="json") for e in step.events if e.visible(None)]
            for i in range(tries):
                other = perturb(game, s, frozenset({seat}), random.Random(f"{rand.random()}:{i}"))
                try:
                    alt = game.apply(other, seat, action, Rng(seed, n))
                except GameError as e:
                    found(n, "prompt", f"'{notation}' by seat {seat} is refused ({e}) when only what that seat "
                                       "cannot see changes", (s, other, seat, action))
                    break
                if [e.model_dump(mode="json") for e in alt.events if e.visible(None)] == shown and (
                    public_prompts(game, alt.state) != after
                ):
                    found(n, "prompt", f"after '{notation}' by seat {seat} the same public events lead to "
                                       f"{after} or {public_prompts(game, alt.state)}", (s, other, seat, action))
                    break
        revealing = ("reveal" in checks or "choice" in checks) and reveals(
            game, s, seat, action, step, lambda n=n: Rng(seed, n), rng.draws > 0)
        if "choice" in checks:
            for finding in _follow(game, branches, seat, action, step, Rng(seed, n), revealing, n, notation):
                found(n, "choice", finding, (s, seat, action))
            branches += _secret_branches(game, s, seat, action, step, Rng(seed, n), rand, n, notation)
        if "reveal" in checks and not revealing:
            report.non_revealing += 1
            for i in range(tries):
                for keep in ({seat}, None):
                    r = random.Random(f"tabula:secretcheck:fresh:{rand.random()}:{i}")
                    try:
                        same = same_outcome(game, s, seat, action, step, lambda n=n: Rng(seed, n), keep, r)
                    except GameError as e:  # pragma: no cover - reported, not raised
                        same, notation = False, f"{notation} ({e})"
                    if not same:
                        who = f"seat {seat}" if keep else "every seat"
                        found(n, "reveal", f"'{notation}' by seat {seat} is marked non-revealing, yet what "
                                           f"{who} sees after it changed with hidden information",
                              (s, seat, action))
                        break
                else:
                    continue
                break
        s = step.state
    return report


BRANCH_STEPS = 16
"""How many steps the "choice" check follows a branch before giving it up."""


@dataclass
class _Branch:
    """The game as it would be had ``chooser`` made another secret choice at ``step``."""

    state: Any
    chooser: int
    step: int
    notation: str
    blind: tuple[int, ...]  # the seats that cannot tell the branches apart


def _secret_branches(game: Any, s: Any, seat: int, action: Any, step: Any, rng: Rng, rand: random.Random,
                     n: int, notation: str) -> list[_Branch]:
    """One other choice ``seat`` could have made instead of ``action`` (drawn with
    ``rand``) when the seats other than ``seat`` and the spectators cannot tell it from
    ``action`` after the step: a branch to follow (empty otherwise, or when the other
    choice draws differently)."""
    legal = game.legal_actions(s, seat)
    if len(legal) < 2:
        return []
    other = legal[int(rand.random() * len(legal))]
    if other == action:
        return []
    try:
        alt = game.apply(s, seat, other, Rng(rng.seed, rng.step))
    except GameError:
        return []
    viewers = [x for x in seats_of(game, s) if x != seat] + [None]
    if observation(game, step.state, step.events, viewers) != observation(game, alt.state, alt.events, viewers):
        return []
    alt_notation = game.format_action(s, other)
    return [_Branch(alt.state, seat, n, f"'{notation}' or '{alt_notation}'", tuple(x for x in viewers if x is not None))]


def _follow(game: Any, branches: list[_Branch], seat: int, action: Any, step: Any, rng: Rng, revealing: bool,
            n: int, notation: str) -> list[str]:
    """Apply ``action`` by ``seat`` to each branch too; a branch whose difference some
    other seat now sees is a finding when the step is not marked ``revealing`` (and was
    not the chooser's), and ends; a branch where the action is refused, or followed for
    ``BRANCH_STEPS``, ends too. ``branches`` is updated in place."""
    out, alive = [], []
    for b in branches:
        try:
            alt = game.apply(b.state, seat, action, Rng(rng.seed, rng.step))
        except GameError:
            continue
        shown = [v for v in b.blind
                 if observation(game, step.state, step.events, [v]) != observation(game, alt.state, alt.events, [v])]
        if shown:
            if not revealing and seat != b.chooser:
                out.append(f"'{notation}' by seat {seat} is marked non-revealing, yet it shows seat(s) "
                           f"{shown} the secret choice seat {b.chooser} made at step {b.step} ({b.notation})")
            continue
        if n - b.step < BRANCH_STEPS:
            alive.append(dataclasses.replace(b, state=alt.state))
    branches[:] = alive
    return out


def configurations(game: Any) -> list[tuple[int, dict[str, Any]]]:
    """The seat counts and options a check covers for ``game``: each variant that
    changes who holds what (solo, duel, teams, ``ask_all``...)."""
    by_game: dict[str, list[tuple[int, dict[str, Any]]]] = {
        "barbarian-hordes": [(2, {}), (4, {}), (3, {"variant": "three-player"}), (6, {})],
        "credo": [(3, {}), (4, {"ask_all": False}), (5, {})],
        "promised-land": [(2, {}), (4, {}), (6, {})],
        "roman-war": [(1, {}), (2, {}), (3, {"mode": "duel"}), (4, {})],
        "soul-of-the-empire": [(2, {}), (3, {}), (4, {})],
    }
    lo, hi = game.min_players, game.max_players
    return [(n, o) for n, o in by_game.get(game.id, [(lo, {}), (hi, {})]) if lo <= n <= hi]


def check_all(
    games: list[Any],
    seeds: range,
    steps: int,
    *,
    tries: int = 3,
    checks: frozenset[str] = frozenset({"prompt", "reveal", "choice"}),
) -> Report:
    """``check_game`` over every configuration of each game and every seed (agents
    alternate between heuristic and random by seed)."""
    report = Report()
    for game in games:
        for players, options in configurations(game):
            for seed in seeds:
                agent = "random" if seed % 2 else "heuristic"
                report.add(check_game(game, players, options, seed, steps, tries=tries, agent=agent, checks=checks))
    return report
