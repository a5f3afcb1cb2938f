"""Chaos (issue 15): a whole game through the emulator with Discord errors injected on a fraction
of the bot's posts and a bot restart in the middle. In the end every stored change's update was
delivered exactly once, no message claims a stored move was not stored, and whoever is asked was
pinged."""

from __future__ import annotations

import os
import random
import sqlite3

import pytest

from tests.fakediscord import message_text

from .conftest import World
from .test_game import pending_choice
from .test_outbox import APOLOGY, drained, legal_action, open_thread_game, updates

pytestmark = pytest.mark.timeout(240)

# Discord's answers injected at random: its own failures, rate limits, a lost followup, an
# archived thread (the 413 of a too large upload has its own test).
ERRORS = (
    (503, 0, "503: Service Unavailable"),
    (429, 0, "You are being rate limited."),
    (404, 10015, "Unknown Webhook"),
    (400, 50083, "Operation cannot be performed on an archived thread."),
)
POSTS = r"^/api/v10/(channels/\d+/messages$|webhooks/\d+/[^/]+$)"
RATE = 0.2
STEPS = 24  # human actions, half before the restart
SEED = int(os.environ.get("TABULA_CHAOS_SEED", "15"))  # another run: TABULA_CHAOS_SEED=N


def tune(bot) -> None:
    bot.outbox.retry_base = 0.05
    bot.outbox.poll_seconds = 0.05


async def one_step(world: World, bot, session_id: int, rng: random.Random) -> bool:
    """The first waiting human acts (a button when offered, else /play); False when over."""
    rec = await bot.host.storage.get_session(session_id)
    if rec.status != "active":
        return False
    users = {u.id: u for u in (world.alice, world.bob, world.carol)}
    waiting = [s.user_id for s in rec.seats if s.seat in rec.to_act and s.user_id in users]
    assert waiting, "an AI seat waits while no human is asked"
    user = users[waiting[0]]
    found = pending_choice(world.fake, user, rec.id, rec.seq)
    if found is not None and rng.random() < 0.5:
        msg, ids = found
        cid = rng.choice(ids)
        if cid.startswith(("tabula:m:", "tabula:k:")):
            comp = msg.find_component(cid)
            await world.select(user, msg, cid, [rng.choice(comp["options"])["value"]])
        else:
            await world.click(user, msg, cid)
    else:
        thread = world.fake.channels[rec.channel_id]
        await world.slash(user, thread, "play", action=await legal_action(world, user, thread))
    return True


async def test_chaos_every_stored_update_is_delivered_once(world: World) -> None:
    fake = world.fake
    rng = random.Random(SEED)
    async with world.run_bot() as bot:
        tune(bot)
        thread, rec = await open_thread_game(world, bot)
        start = max(m.id for m in fake.messages.values())
        fake.chaos(RATE, seed=SEED, errors=ERRORS, method="POST", path_regex=POSTS)
        for _ in range(STEPS // 2):
            if not await one_step(world, bot, rec.id, rng):
                break
    # the bot stops mid-game, with deliveries perhaps still failing; a new process goes on
    async with world.run_bot() as bot:
        tune(bot)
        for _ in range(STEPS // 2):
            if not await one_step(world, bot, rec.id, rng):
                break
        injected = sum(c.hits for c in fake.chaos_faults)
        fake.stop_chaos()
        await drained(bot)
        final = await bot.host.storage.get_session(rec.id)
    assert injected > 0

    # every stored update was delivered, exactly once
    rows = sqlite3.connect(world.db).execute(
        "SELECT id, kind, message_id, last_error, done_at FROM outbox ORDER BY id"
    ).fetchall()
    public = [r for r in rows if r[1] == "public"]
    assert all(r[4] is not None and r[2] is not None for r in public), [r for r in public if r[2] is None]
    delivered = [fake.messages[r[2]] for r in public]
    assert len({m.id for m in delivered}) == len(delivered), "one message per update"
    posted = [m for m in fake.channel_messages(thread) if m.audience is None and m.id > start and m.content]
    shown = [m for m in posted if m.author.id == fake.bot_user.id and ("**Now**" in m.content or "Game over" in m.content)]
    # each update in the thread is the one message of its outbox row: none was posted twice
    assert shown and {m.id for m in shown} <= {m.id for m in delivered}
    assert len(shown) == len([m for m in delivered if m.id > start and m in shown])

    # private messages that failed were sent again (none is left undelivered)
    dms = [r for r in rows if r[1] == "dm"]
    assert all(r[4] is not None and r[2] is not None for r in dms), [r for r in dms if r[2] is None]

    # no message claims a stored move was not stored
    assert not [message_text(m) for m in fake.messages.values() if APOLOGY in message_text(m)]

    # whoever is asked now was named and pinged by the newest update
    if final.status == "active":
        last = updates(world, thread)[-1]
        waiting = {s.user_id for s in final.seats if s.seat in final.to_act and s.user_id is not None}
        assert all(f"<@{u}>" in last.content for u in waiting), last.content
        pinged = {u for m in updates(world, thread) for u in m.mentioned_user_ids()}
        assert waiting <= pinged
