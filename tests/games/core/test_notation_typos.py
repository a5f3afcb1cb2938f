"""Input read the way a player means it, in all five games (ARCHITECTURE.md, "Notation").

For legal actions met in short random playouts, the action's notation, its shortest
prefix that no other legal action shares, and common typos of its command word (two
letters swapped, one letter dropped) each either read as the intended action or get a
message that names it (its command word). Bounded: a few seconds per game.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from games.core import GameError, apply_at, get_game, start
from games.core.agents import make_agent
from games.core.notation import fold

GAME_IDS = ["barbarian-hordes", "credo", "promised-land", "soul-of-the-empire", "roman-war"]
STEPS = 60
PER_STATE = 3


def _visited(game: Any, seed: int) -> list[tuple[Any, int]]:
    """(state, acting seat) along a random playout of at most STEPS steps."""
    n = max(game.min_players, min(4, game.max_players))
    s = start(game, list(range(n)), game.Options(), seed).state
    agents = [make_agent(game, "random", seed * 10 + x) for x in range(n)]
    pick = random.Random(seed)
    out = []
    for step in range(1, STEPS + 1):
        if game.outcome(s) is not None:
            break
        seat = pick.choice(sorted(game.to_act(s)))
        out.append((s, seat))
        s = apply_at(game, s, seat, agents[seat].choose(game, s, seat), seed, step).state
    return out


def _typos(word: str) -> list[str]:
    """``word`` with two neighbouring letters swapped, and with one letter dropped."""
    out = set()
    for i in range(len(word) - 1):
        out.add(word[:i] + word[i + 1] + word[i] + word[i + 2:])
    for i in range(len(word)):
        out.add(word[:i] + word[i + 1:])
    return sorted(t for t in out if t and t != word)


def _shortest_unique_prefix(text: str, others: list[str]) -> str:
    key = fold(text)
    rivals = [fold(o) for o in others if fold(o) != key]
    for cut in range(1, len(text) + 1):
        p = fold(text[:cut])
        if p and not text[cut - 1].isspace() and not any(r.startswith(p) for r in rivals):
            return text[:cut]
    return text


def _reads_as(game: Any, s: Any, seat: int, typed: str, action: Any, text: str) -> str | None:
    """None when ``typed`` reads as ``action`` or its message names it; else what went wrong."""
    try:
        got = game.parse_action(s, seat, typed)
    except GameError as e:
        verb = fold(text.split()[0])
        if verb in fold(e.message).split() or fold(text) in fold(e.message):
            return None
        return f"{typed!r} (meant {text!r}) -> {e.message!r}"
    if got == action:
        return None
    return f"{typed!r} (meant {text!r}) read as {game.format_action(s, got)!r}"


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_notation_prefixes_and_typos_read_as_meant(game_id: str) -> None:
    """Every legal action's text, its unique shortest prefix and typos of its command word
    read as the intended action or get a message naming it."""
    game = get_game(game_id)
    rnd = random.Random(game_id)
    wrong: list[str] = []
    for seed in (1, 2):
        for s, seat in _visited(game, seed):
            legal = list(game.legal_actions(s, seat))
            texts = [game.format_action(s, a) for a in legal]
            for i in rnd.sample(range(len(legal)), min(PER_STATE, len(legal))):
                action, text = legal[i], texts[i]
                if texts.count(text) > 1:
                    continue
                tries = [text, _shortest_unique_prefix(text, texts)]
                verb, _, rest = text.partition(" ")
                tries += [f"{t} {rest}".strip() for t in _typos(verb)[:3]]
                for typed in tries:
                    why = _reads_as(game, s, seat, typed, action, text)
                    if why:
                        wrong.append(why)
    assert not wrong, "\n".join(sorted(set(wrong))[:25])
