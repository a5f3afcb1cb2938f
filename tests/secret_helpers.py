"""Drive a host game with human seats until one of them makes a secret choice of a given kind
(for the tests that check how undo and the other messages word a secret action)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from bot.host import Host, Reply
from storage import ActionRecord
from tests.host_helpers import ALICE, BOB, CAROL, CHANNEL, GUILD

# game id -> (human seats, AI seats, options): small tables where every secret kind occurs
TABLES: dict[str, tuple[tuple[int, ...], int, dict[str, Any]]] = {
    "barbarian-hordes": ((ALICE, BOB), 1, {}),
    "credo": ((ALICE, BOB, CAROL), 0, {}),
    "promised-land": ((ALICE, BOB), 0, {}),
    "soul-of-the-empire": ((ALICE, BOB), 0, {}),
    "roman-war": ((ALICE, BOB), 0, {"mode": "duel"}),
}


async def open_table(host: Host, game_id: str, *, ai: int | None = None) -> Reply:
    """Create, seat and start ``game_id`` with its ``TABLES`` humans (ALICE creates)."""
    humans, n_ai, options = TABLES[game_id]
    await host.create(GUILD, CHANNEL, humans[0], game_id, options)
    for user in humans[1:]:
        await host.join(CHANNEL, user)
    n_ai = n_ai if ai is None else ai
    if n_ai:
        await host.add_ai(CHANNEL, humans[0], n_ai)
    return await host.start(CHANNEL, humans[0])


async def play_until_secret(
    host: Host,
    wanted: Callable[[str], bool],
    *,
    seed: int = 1,
    max_steps: int = 600,
    on_reply: Callable[[Reply], None] | None = None,
) -> ActionRecord:
    """Play random legal actions for whichever human is asked (preferring one for which
    ``wanted(notation)`` holds) until a human's secret row whose notation is ``wanted`` was
    stored; returns that row. Raises AssertionError when none came in ``max_steps``."""
    rand = random.Random(seed)
    rec = await host.storage.open_session(CHANNEL)
    assert rec is not None
    for _ in range(max_steps):
        rec = await host.storage.get_session(rec.id)
        if rec.status != "active":
            break
        humans = [s.user_id for s in rec.seats if s.seat in rec.to_act and s.user_id is not None]
        if not humans:
            break
        user = rand.choice(humans)
        options = await host.complete(CHANNEL, user, limit=None)
        if not options:
            break
        liked = [o for o in options if wanted(o)]
        choice = rand.choice(liked or options)
        reply = await host.act(CHANNEL, user, choice)
        if on_reply is not None:
            on_reply(reply)
        if liked and choice in liked:
            last = await host.storage.actions(rec.id, after=rec.seq)
            mine = [r for r in last if r.user_id == user and wanted(r.notation) and r.secret]
            if mine:
                return mine[-1]
    raise AssertionError(f"no secret action of the wanted kind in {max_steps} steps")
