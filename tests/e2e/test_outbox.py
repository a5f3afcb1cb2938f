"""A stored move is never reported as not stored (issue 15 items 3 and 4): its update and the next
players' pings go through the stored outbox, with Discord's fallbacks, and a restart resumes
delivery; a game whose channel cannot take posts refuses moves before applying them."""

from __future__ import annotations

import asyncio

import pytest

from bot.discordbot.messages import IMAGE_SMALLER_NOTE
from tests.fakediscord import Channel, message_text

from .conftest import World
from .test_game import pending_choice
from .test_restart_faults import open_game, waiting_user

pytestmark = pytest.mark.timeout(120)

APOLOGY = "nothing was changed"


def updates(world: World, channel: Channel, after: int = 0) -> list:
    """Public messages in the channel (after message id ``after``) that say who must act."""
    return [
        m
        for m in world.fake.channel_messages(channel)
        if m.audience is None and m.id > after and ("**Now**" in m.content or "Game over" in m.content)
    ]


async def legal_action(world: World, user, channel: Channel | None = None) -> str:
    ac = await world.done(
        await world.fake.autocomplete(user, channel or world.channel, "play", focused="action", action="")
    )
    return ac.choices[0]["value"]


async def drained(bot, timeout: float = 20.0) -> None:
    """Wait until the bot's outbox holds nothing undelivered."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while await bot.outbox.pending():
        assert loop.time() < end, "the outbox did not drain"
        await asyncio.sleep(0.05)


def no_apology(world: World) -> None:
    said = [message_text(m) for m in world.fake.messages.values() if APOLOGY in message_text(m)]
    assert said == [], said


async def open_thread_game(world: World, bot) -> tuple[Channel, object]:
    fake = world.fake
    await bot.sync_commands(world.guild.id)
    await world.slash(world.alice, world.channel, "game new", game="barbarian-hordes", options="round_limit=2")
    thread = next(c for c in fake.channels.values() if c.is_thread)
    for u in (world.bob, world.carol):
        await world.slash(u, thread, "game join")
    await world.slash(world.alice, thread, "game ai", count=1)
    await world.slash(world.alice, thread, "game start")
    rec = await bot.host.storage.open_session(thread.id)
    assert rec is not None and rec.status == "active"
    return thread, rec


async def click_first(world: World, rec) -> tuple[object, object]:
    user = waiting_user(world, rec)
    found = pending_choice(world.fake, user, rec.id, rec.seq)
    assert found is not None
    msg, ids = found
    cid = ids[0]
    if cid.startswith(("tabula:m:", "tabula:k:")):
        comp = msg.find_component(cid)
        return user, await world.select(user, msg, cid, [comp["options"][0]["value"]])
    return user, await world.click(user, msg, cid)


async def test_413_on_the_board_sends_a_smaller_image_and_the_move_stands(world: World) -> None:
    """Issue 15 item 3: 413 on the image upload -> a smaller image (JPEG), saying so."""
    fake = world.fake
    async with world.run_bot() as bot:
        rec = await open_game(world, bot)
        user = waiting_user(world, rec)
        action = await legal_action(world, user)
        last = max(m.id for m in fake.messages.values())
        fake.fail("POST", r"/webhooks/\d+/[^/]+$", 413, code=40005, message="Request entity too large")
        r = await world.slash(user, world.channel, "play", action=action)
        after = await bot.host.storage.get_session(rec.id)
        assert after.seq > rec.seq
        new = updates(world, world.channel, last)
        assert len(new) == 1, [m.content for m in new]
        assert IMAGE_SMALLER_NOTE in new[0].content
        assert [f.filename for f in new[0].files] == ["board.jpg"]
        assert new[0].files[0].data[:2] == b"\xff\xd8"
        assert r.messages()[0] is new[0], "still the answer to the command"
        assert await bot.outbox.pending() == 0
        no_apology(world)


async def test_unknown_webhook_posts_the_update_in_the_channel(world: World) -> None:
    """Issue 15 item 3: 404 / 10015 on the followup -> the update is posted in the channel."""
    fake = world.fake
    async with world.run_bot() as bot:
        rec = await open_game(world, bot)
        user = waiting_user(world, rec)
        action = await legal_action(world, user)
        last = max(m.id for m in fake.messages.values())
        fake.fail("POST", r"/webhooks/\d+/[^/]+$", 404, code=10015, message="Unknown Webhook")
        await world.slash(user, world.channel, "play", action=action)
        new = updates(world, world.channel, last)
        assert len(new) == 1 and new[0].interaction_id is None, "posted as a channel message"
        after = await bot.host.storage.get_session(rec.id)
        asked = {s.user_id for s in after.seats if s.seat in after.to_act and s.user_id is not None}
        assert asked <= set(new[0].mentioned_user_ids()) | {user.id}
        assert await bot.outbox.pending() == 0
        no_apology(world)


async def test_archived_thread_is_unarchived_and_the_update_posted(world: World) -> None:
    """Issue 15 item 3: 400 / 50083 (archived thread) -> unarchive it and post."""
    fake = world.fake
    async with world.run_bot() as bot:
        thread, rec = await open_thread_game(world, bot)
        last = max(m.id for m in fake.messages.values())
        fake.archive(thread)
        _, r = await click_first(world, rec)
        assert r.callback_type == 6  # deferred when the rules took it, its prompt edited then
        assert not thread.archived
        assert len(updates(world, thread, last)) == 1
        assert [q.error_code for q in fake.rejected] == [50083]
        no_apology(world)


async def test_locked_thread_refuses_moves_before_applying_them(world: World) -> None:
    """Issue 15 item 4: a locked thread (160005) refuses the move, privately, with the true
    reason, and applies nothing."""
    fake = world.fake
    async with world.run_bot() as bot:
        thread, rec = await open_thread_game(world, bot)
        fake.deny(world.channel, "manage_threads")
        fake.lock(thread)
        last = max(m.id for m in fake.messages.values())
        user = waiting_user(world, rec)
        action = await legal_action(world, user, thread)
        r = await world.slash(user, thread, "play", action=action)
        assert r.ephemeral and "Not applied" in r.text() and "locked" in r.text()
        assert "Send Messages" not in r.text()
        _, r2 = await click_first(world, rec)
        assert r2.ephemeral and "locked" in r2.text()
        again = await bot.host.storage.get_session(rec.id)
        assert (again.seq, again.version) == (rec.seq, rec.version)
        assert [m for m in fake.messages.values() if m.id > last and m.audience is None] == []


async def test_a_restart_resumes_delivery_exactly_once(world: World) -> None:
    """Issue 15 item 3: the outbox is stored, so a restart delivers what was still failing."""
    fake = world.fake
    async with world.run_bot() as bot:
        rec = await open_game(world, bot)
        last = max(m.id for m in fake.messages.values())
        fault = fake.fail("POST", rf"/channels/{world.channel.id}/messages$", 503, times=10_000)
        user, r = await click_first(world, rec)
        assert r.callback_type == 6  # deferred when the rules took it, its prompt edited then
        assert updates(world, world.channel, last) == []
        assert await bot.outbox.pending() == 1
        fault.times = fault.hits  # Discord works again, but the bot is gone
    assert updates(world, world.channel, last) == []
    async with world.run_bot() as bot2:
        await drained(bot2)
        assert len(updates(world, world.channel, last)) == 1
    no_apology(world)


async def play_to_the_end(world: World, bot, game: str, ai: int, options: str, max_steps: int = 400):
    """alice and ``ai`` AI seats in ``game`` (seed 1), alice playing the first legal action
    each time she is asked; returns the session at the end."""
    fake = world.fake
    bot.host.seeds = lambda: 1
    await bot.sync_commands(world.guild.id)
    fake.deny(world.channel, "create_public_threads")
    await world.slash(world.alice, world.channel, "game new", game=game, options=options)
    await world.slash(world.alice, world.channel, "game ai", count=ai)
    await world.slash(world.alice, world.channel, "game start")
    rec = await bot.host.storage.open_session(world.channel.id)
    assert rec is not None and rec.seed == 1
    for _ in range(max_steps):
        rec = await bot.host.storage.get_session(rec.id)
        if rec.status != "active":
            return rec
        # whoever waits was pinged by the newest update that asked them (issue 15 item 5)
        last = updates(world, world.channel)[-1]
        assert "**Now**" in last.content, last.content[-300:]
        assert f"<@{world.alice.id}>" in last.content
        action = await legal_action(world, world.alice)
        await world.slash(world.alice, world.channel, "play", action=action)
    raise AssertionError("the game did not end")


async def test_long_updates_keep_the_now_line_its_ping_and_the_end(world: World) -> None:
    """Issue 15 item 5: Barbarian Hordes, 1 human + 11 AI, seed 1: every update fits Discord's
    2,000 characters (the emulator refuses more), keeps "Now" with its ping, summarises what
    it leaves out pointing to /game log, and the end says Game over, who won and the seed."""
    fake = world.fake
    async with world.run_bot() as bot:
        rec = await play_to_the_end(world, bot, "barbarian-hordes", 11, "round_limit=1")
        public = [m for m in fake.channel_messages(world.channel) if m.audience is None]
        assert all(len(m.content) <= 2000 for m in public)
        assert any("see `/game log`" in m.content for m in public), "a long AI sequence is summarised"
        end = [m for m in public if "Game over" in m.content]
        assert len(end) == 1 and f"Seed: {rec.seed}" in end[0].content and "won" in end[0].content
        # a log page longer than one message comes in several, none over the limit
        r = await world.slash(world.alice, world.channel, "game log")
        assert r.ephemeral and "Log, page 1/" in r.text()
        assert all(len(m.content) <= 2000 for m in r.messages())
