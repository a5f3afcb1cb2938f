"""Issue 16, item 3: a deleted channel or thread, or a server that removed the bot, orphans
its games: reminders and deadlines stop, /game games shows them, a moderator abandons them
from another channel, and inviting the bot back resumes nothing by itself."""

from __future__ import annotations

import asyncio

import pytest

from .conftest import World
from .test_restart_faults import open_game, waiting_user

pytestmark = pytest.mark.timeout(120)

HOUR = 3600.0
WEEK = 7 * 24 * HOUR


async def orphaned(bot, session_id: int):
    """The session once the bot has marked it orphaned (the gateway event is handled in a task)."""
    for _ in range(200):
        rec = await bot.host.storage.get_session(session_id)
        if rec.orphaned is not None:
            return rec
        await asyncio.sleep(0.02)
    pytest.fail(f"game #{session_id} was not marked orphaned")


def requests_to(world: World, channel_id: int) -> int:
    return sum(1 for r in world.fake.requests if f"/channels/{channel_id}" in r.path)


async def test_a_deleted_channel_orphans_its_game_and_a_moderator_abandons_it_from_elsewhere(world: World) -> None:
    fake = world.fake
    other = fake.add_text_channel(world.guild, "lobby")
    async with world.run_bot(reminders=True) as bot:
        rec = await open_game(world, bot)
        user = waiting_user(world, rec)
        await fake.delete_channel(world.channel)  # CHANNEL_DELETE on the gateway
        rec = await orphaned(bot, rec.id)
        assert "deleted" in rec.orphaned["why"] and rec.deadline is None and rec.wait_deadline is None

        # reminders stop: a week of passes asks Discord nothing about the gone channel
        before = requests_to(world, world.channel.id)
        for hours in (13, 25, 80, 170):
            world.clock.t = rec.updated_at + hours * HOUR
            await bot.reminders.run_once()
        assert requests_to(world, world.channel.id) == before
        assert (await bot.host.storage.get_session(rec.id)).seq == rec.seq, "no AI answered for anyone"

        # /game games shows it
        r = await world.slash(user, other, "game games")
        assert "orphaned" in r.text() and f"#{rec.id}" in r.text()

        # a player may not abandon it; a moderator may, from another channel
        r = await world.slash(world.bob, other, "game abandon", game=rec.id)
        assert r.ephemeral and "creator" in r.text() and "moderator" in r.text()
        r = await world.slash(fake.owner, other, "game abandon", game=rec.id)
        assert r.ephemeral and "abandoned" in r.text()
        assert (await bot.host.storage.get_session(rec.id)).status == "abandoned"
        r = await world.slash(fake.owner, other, "game abandon", game=rec.id + 1000)
        assert "no game" in r.text()


async def test_a_server_that_removed_the_bot_orphans_its_games_and_a_reinvite_resumes_nothing(world: World) -> None:
    fake = world.fake
    async with world.run_bot(reminders=True) as bot:
        rec = await open_game(world, bot)
        await fake.remove_bot(world.guild)  # GUILD_DELETE
        rec = await orphaned(bot, rec.id)
        assert "removed" in rec.orphaned["why"]

        await fake.invite_bot(world.guild)  # GUILD_CREATE
        world.clock.t = rec.updated_at + WEEK
        posted = len(fake.channel_messages(world.channel))
        await bot.reminders.run_once()
        again = await bot.host.storage.get_session(rec.id)
        assert again.orphaned is not None and again.seq == rec.seq
        assert len(fake.channel_messages(world.channel)) == posted, "nothing was posted by itself"

        user = waiting_user(world, again)
        r = await world.slash(user, world.channel, "play", action="done")
        assert r.ephemeral and "orphaned" in r.text() and "/game resume" in r.text()

        # a moderator takes it up again on purpose: its waits start from now
        r = await world.slash(fake.owner, world.channel, "game resume")
        assert not r.ephemeral and "took up" in r.text()
        resumed = await bot.host.storage.get_session(rec.id)
        assert resumed.orphaned is None and resumed.status == "active"
        assert resumed.wait_deadline is not None and resumed.wait_deadline > world.clock.t


async def test_unknown_channel_answers_orphan_the_game_and_stop_the_reminders(world: World) -> None:
    """Discord's 10003 Unknown Channel (a delete the bot missed) counts as the delete event."""
    fake = world.fake
    async with world.run_bot(reminders=True) as bot:
        rec = await open_game(world, bot)
        fake.channels.pop(world.channel.id)  # gone, without a gateway event
        world.guild.channels.pop(world.channel.id)
        bot.get_channel = lambda _id: None  # type: ignore[method-assign]  # not in the cache either
        world.clock.t = rec.updated_at + 13 * HOUR
        await bot.reminders.run_once()
        rec = await orphaned(bot, rec.id)
        assert "Unknown Channel" in rec.orphaned["why"]
        before = requests_to(world, world.channel.id)
        for hours in (25, 37, 49):
            world.clock.t = rec.updated_at + hours * HOUR
            await bot.reminders.run_once()
        assert requests_to(world, world.channel.id) == before


async def test_started_and_abandoned_games_leave_no_bookkeeping_in_the_bot(world: World) -> None:
    """Issue 16, item 4: "Start and abandon 12 games in one process: 12 host locks, 12
    outbox entries and 8 stored DM message objects stay." Now none stays."""
    import tests.toygame  # noqa: F401  (registers "count")

    fake = world.fake
    channels = [fake.add_text_channel(world.guild, f"table-{i}") for i in range(12)]
    async with world.run_bot() as bot:
        await bot.sync_commands(world.guild.id)
        for ch in channels:
            fake.deny(ch, "create_public_threads")  # each game stays in its channel
            await world.slash(world.alice, ch, "game new", game="count")
            await world.slash(world.bob, ch, "game join")
            await world.slash(world.alice, ch, "game start")
        assert bot.outbox.sessions_kept(), "the games in play are tracked"
        for ch in channels:
            r = await world.slash(world.alice, ch, "game abandon")
            assert "abandoned" in r.text()
        assert bot.host._locks == {}
        assert bot.host._cache == {} or all(
            (await bot.host.storage.get_session(sid)).is_open for sid in bot.host._cache
        )
        assert bot.outbox.sessions_kept() == set()
