"""Recorded games: a seeded game written down so that any later change to the rules or
their code can be checked to replay it identically.

A record is a JSON-ready dict::

    {"game": id, "players": n, "options": {...}, "seed": int, "agent": "heuristic",
     "actions": [[seat, notation, action_json], ...],
     "views": [hash after setup, hash after action 1, ...],   # the spectator's View
     "final": hash of the final State, "outcome": {...} or None}

Hashes are the first 16 hex digits of the SHA-256 of the canonical JSON (sorted keys) of
the model. ``record_game`` plays the game with the given agents; ``check_record`` replays a
record from its seed and action JSON and lists every difference: an action that no longer
applies, a notation that no longer formats the same, a spectator view, the final state or
the outcome that changed. Step numbering as in ``games.core.replay``.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from pydantic import BaseModel

from .agents import make_agent
from .replay import apply_at, start

DEFAULT_MAX_STEPS = 3_000


def model_hash(model: BaseModel) -> str:
    """The first 16 hex digits of the SHA-256 of ``model``'s canonical JSON."""
    text = json.dumps(model.model_dump(mode="json"), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def record_game(
    game: Any,
    players: int,
    options: dict[str, Any],
    seed: int,
    *,
    agent: str = "heuristic",
    max_steps: int = DEFAULT_MAX_STEPS,
) -> dict[str, Any]:
    """Play a game of ``players`` seats with ``agent`` agents (seeded from ``seed``) for at
    most ``max_steps`` actions and return its record (see the module docstring)."""
    seats = list(range(players))
    opts = game.Options(**options)
    s = start(game, seats, opts, seed).state
    agents = {seat: make_agent(game, agent, seed=seed * 31 + seat) for seat in seats}
    actions: list[list[Any]] = []
    views = [model_hash(game.view(s, None))]
    while game.outcome(s) is None and len(actions) < max_steps:
        prompts = game.to_act(s)
        seat = sorted(prompts)[0]
        a = agents[seat].choose(game, s, seat)
        text = game.format_action(s, a)
        s = apply_at(game, s, seat, a, seed, len(actions) + 1).state
        actions.append([seat, text, a.model_dump(mode="json")])
        views.append(model_hash(game.view(s, None)))
    outcome = game.outcome(s)
    return {
        "game": game.id,
        "players": players,
        "options": options,
        "seed": seed,
        "agent": agent,
        "actions": actions,
        "views": views,
        "final": model_hash(s),
        "outcome": None if outcome is None else outcome.model_dump(mode="json"),
    }


def rehash_views(game: Any, record: dict[str, Any], *, final: bool = False) -> tuple[dict[str, Any], list[str]]:
    """``record`` with its spectator-view hashes recomputed from the same actions, for a
    change that alters what the View shows but not the rules (with ``final``, the
    final-state hash too: a field the State records without changing how games play);
    and the other differences (notation, the final state unless ``final``, outcome, an
    action that no longer applies), which must be empty for the new record to be kept."""
    views: list[str] = []
    seats = list(range(record["players"]))
    s = start(game, seats, game.Options(**record["options"]), record["seed"]).state
    views.append(model_hash(game.view(s, None)))
    for n, (seat, _text, data) in enumerate(record["actions"], start=1):
        try:
            s = apply_at(game, s, seat, game.action_from_json(data), record["seed"], n).state
        except Exception:
            break
        views.append(model_hash(game.view(s, None)))
    new = {**record, "views": views, **({"final": model_hash(s)} if final else {})}
    problems = [p for p in check_record(game, new) if "spectator view" not in p]
    return new, problems


def check_record(game: Any, record: dict[str, Any]) -> list[str]:
    """Replay ``record`` and return its differences (empty when it replays identically).
    Stops at the first action that no longer applies."""
    problems: list[str] = []
    seats = list(range(record["players"]))
    seed = record["seed"]
    s = start(game, seats, game.Options(**record["options"]), seed).state
    views = record["views"]

    def check_view(i: int) -> None:
        got = model_hash(game.view(s, None))
        if i >= len(views) or got != views[i]:
            problems.append(f"spectator view after step {i} differs")

    check_view(0)
    for n, (seat, text, data) in enumerate(record["actions"], start=1):
        a = game.action_from_json(data)
        formatted = game.format_action(s, a)
        if formatted != text:
            problems.append(f"step {n}: notation {text!r} now formats as {formatted!r}")
        try:
            s = apply_at(game, s, seat, a, seed, n).state
        except Exception as e:  # a record that no longer replays: report, stop
            problems.append(f"step {n}: seat {seat + 1} {text!r} no longer applies: {e}")
            return problems
        check_view(n)
    if model_hash(s) != record["final"]:
        problems.append("final state differs")
    outcome = game.outcome(s)
    got = None if outcome is None else outcome.model_dump(mode="json")
    if got != record["outcome"]:
        problems.append(f"outcome {got} differs from recorded {record['outcome']}")
    return problems
