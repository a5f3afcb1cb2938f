"""Play whole games through the host, the human seats' moves chosen by an AI agent, so that
tests and benchmarks get finished sessions with real logs (stats, ratings, replay pages)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.host import Host
from games.core import get_game
from games.core.agents import make_agent
from storage.replay import load_state


async def play_out(
    host: Host,
    game_id: str,
    humans: Sequence[int],
    *,
    ai: int = 0,
    options: dict[str, Any] | None = None,
    guild: int | None = 1,
    channel: int = 10,
    seed: int | None = None,
    agent: str = "heuristic",
    max_actions: int = 20_000,
) -> int:
    """Open ``game_id`` in ``channel`` with ``humans`` (user ids, the first creates it) and ``ai``
    AI seats, start it, and answer every human question with ``agent``'s choice until the game
    ends. Returns the session id. Raises AssertionError when it does not end in ``max_actions``."""
    game = get_game(game_id)
    created = await host.create(guild, channel, humans[0], game_id, options or {}, seed=seed)
    sid = created.session_id
    for user in humans[1:]:
        await host.join(channel, user, session_id=sid)
    if ai:
        await host.add_ai(channel, humans[0], ai, session_id=sid)
    await host.start(channel, humans[0], session_id=sid)
    agents = {s: make_agent(game, agent, seed=1000 + s) for s in range(len(humans) + ai)}
    for _ in range(max_actions):
        rec = await host.storage.get_session(sid)
        if rec.status != "active":
            return sid
        state = await load_state(host.storage, game, rec)
        asked = sorted(game.to_act(state))
        seat = next(s for s in asked if rec.seats[s].user_id is not None)
        action = agents[seat].choose(game, state, seat)
        await host.act(channel, rec.seats[seat].user_id, action=action, session_id=sid)
    raise AssertionError(f"{game_id} did not end within {max_actions} actions")
