"""/game stats, /game leaderboard and /game mirror through the Discord emulator."""

from __future__ import annotations

import random

import pytest

from tests.finished_games import play_out

from .conftest import World

pytestmark = pytest.mark.timeout(240)


async def test_stats_and_leaderboard_of_finished_games(world: World) -> None:
    fake, alice, bob, carol = world.fake, world.alice, world.bob, world.carol
    async with world.run_bot() as bot:
        await bot.sync_commands(world.guild.id)
        r = await world.slash(alice, world.channel, "game leaderboard", game="roman-war")
        assert r.ephemeral and "No rated game of Roman War here yet" in r.text()
        for i, players in enumerate([(alice, bob), (alice, carol), (bob, carol)]):
            ch = fake.add_text_channel(world.guild, f"war-{i}")
            await play_out(bot.host, "roman-war", [u.id for u in players], guild=world.guild.id, channel=ch.id,
                           seed=100 + i)
        results = await bot.host.storage.results(guild_id=world.guild.id)
        assert len(results) == 3 and all(x.rated for r in results for x in r.seats)

        r = await world.slash(dave := world.dave, world.channel, "game leaderboard", game="roman-war")
        text = r.text()
        assert r.ephemeral and "Roman War" in text and "3 players" in text
        assert all(f"<@{u.id}>" in text for u in (alice, bob, carol)) and "2 games" in text
        msg = r.messages()[-1] if r.messages() else None
        assert msg is None or not (msg.allowed_mentions or {}).get("users"), "a leaderboard pings nobody"

        r = await world.slash(dave, world.channel, "game stats", player=alice.id)
        text = r.text()
        assert r.ephemeral and f"<@{alice.id}>: 2 finished games" in text and "Roman War" in text
        assert "by players: 2: 2 played" in text and "Fabius" in text

        r = await world.slash(dave, world.channel, "game stats", game="roman-war")
        assert "Roman War**: 3 games, 3 rated" in r.text() and "2 players (3 games)" in r.text()
        r = await world.slash(dave, world.channel, "game stats", game="credo")
        assert "No finished game of Credo" in r.text()


async def _play_some(world: World, user_of: dict[int, object], thread, sid: int, moves: int) -> None:
    rng = random.Random(3)
    for _ in range(moves):
        rec = await world.bot.host.storage.get_session(sid)
        if rec.status != "active":
            return
        seat = next(s for s in rec.seats if s.seat in rec.to_act and s.user_id is not None)
        ac = await world.done(await world.fake.autocomplete(user_of[seat.user_id], thread, "play",
                                                            focused="action", action=""))
        await world.slash(user_of[seat.user_id], thread, "play", action=rng.choice([c["value"] for c in ac.choices]))


async def test_mirror_posts_the_public_updates_in_another_channel(world: World) -> None:
    fake, alice, bob = world.fake, world.alice, world.bob
    showcase = fake.add_text_channel(world.guild, "showcase")
    async with world.run_bot() as bot:
        await bot.sync_commands(world.guild.id)
        await world.slash(alice, world.channel, "game new", game="barbarian-hordes", options="round_limit=2")
        thread = next(c for c in fake.channels.values() if c.is_thread)
        await world.slash(bob, thread, "game join")
        await world.slash(alice, thread, "game ai", count=1)
        await world.slash(alice, thread, "game start")
        sid = (await bot.host.storage.open_session(thread.id)).id

        r = await world.slash(alice, thread, "game mirror", channel=showcase.id)
        assert r.ephemeral and "moderator" in r.text()
        r = await world.slash(fake.owner, thread, "game mirror", channel=thread.id)
        assert r.ephemeral and "own channel" in r.text()
        r = await world.slash(fake.owner, thread, "game mirror")
        assert r.ephemeral and "off:True" in r.text()
        r = await world.slash(fake.owner, thread, "game mirror", channel=showcase.id)
        assert r.ephemeral and f"<#{showcase.id}>" in r.text() and "no pings" in r.text()
        assert await bot.host.storage.mirrors(sid) == [showcase.id]

        before = len(fake.channel_messages(thread))
        await _play_some(world, {alice.id: alice, bob.id: bob}, thread, sid, 6)
        await fake.wait_until(lambda: len(fake.channel_messages(showcase)) >= 3)
        game_posts = [m for m in fake.channel_messages(thread)[before:] if m.audience is None]
        mirrored = fake.channel_messages(showcase)
        assert mirrored and all(m.audience is None for m in mirrored)
        assert [m.content for m in mirrored] == [m.content for m in game_posts], "exactly the public updates"
        assert [len(m.files) for m in mirrored] == [len(m.files) for m in game_posts], "board images too"
        assert any(m.files for m in mirrored)
        assert any("<@" in m.content for m in mirrored), "the mirrored text names the players as the game's does"
        for m in mirrored:
            assert not (m.allowed_mentions or {}).get("users"), "a mirror pings nobody"
            assert not m.custom_ids(), "no buttons: nothing private can be asked from a mirror"
        hands = {e.text for row in await bot.host.storage.actions(sid) for e in row.events
                 if e.visible_to is not None}
        assert not any(h in m.content for h in hands for m in mirrored if len(h) > 20)

        # the mirror channel disappears: the mirror stops, the game goes on
        await fake.delete_channel(showcase)
        await _play_some(world, {alice.id: alice, bob.id: bob}, thread, sid, 2)
        await fake.wait_until(lambda: not bot.outbox._inflight)
        assert await bot.host.storage.mirrors(sid) == []
        assert (await bot.host.storage.get_session(sid)).status == "active"

        # a new mirror stops with the game's last update
        second = fake.add_text_channel(world.guild, "league")
        await world.slash(fake.owner, thread, "game mirror", channel=second.id)
        r = await world.slash(fake.owner, thread, "game mirror", channel=second.id)
        assert "already mirrored" in r.text()
        r = await world.slash(fake.owner, thread, "game abandon")
        await fake.wait_until(lambda: any("abandoned" in m.content for m in fake.channel_messages(second)))
        assert await bot.host.storage.mirrors(sid) == []
        r = await world.slash(fake.owner, thread, "game mirror", off=True)
        assert r.ephemeral

