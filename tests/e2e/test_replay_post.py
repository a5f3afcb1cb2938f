"""A finished game's replay page posted in its channel through the Discord emulator."""

from __future__ import annotations

import pytest

from games.core import apply_at, get_game
from games.core.agents import make_agent
from storage.replay import load_state

from .conftest import World

pytestmark = pytest.mark.timeout(240)


async def test_a_finished_game_posts_its_replay_page(world: World) -> None:
    fake, alice = world.fake, world.alice
    async with world.run_bot() as bot:
        await bot.sync_commands(world.guild.id)
        await world.slash(alice, world.channel, "game new", game="roman-war")
        thread = next(c for c in fake.channels.values() if c.is_thread)
        await world.slash(alice, thread, "game start")
        sid = (await bot.host.storage.open_session(thread.id)).id
        # the moves through the host, but the last one (that ends the game) through /play; when the
        # host itself ends it (an automatic pass), its reply is published as the cogs publish it
        game, agent = get_game("roman-war"), make_agent(get_game("roman-war"), "heuristic", seed=1)
        for _ in range(2000):
            rec = await bot.host.storage.get_session(sid)
            if rec.status != "active":
                break
            state = await load_state(bot.host.storage, game, rec)
            action = agent.choose(game, state, 0)
            if game.outcome(apply_at(game, state, 0, action, rec.seed, rec.seq + 1).state) is not None:
                await world.slash(alice, thread, "play", action=game.format_action(state, action))
                break
            reply = await bot.host.act(thread.id, alice.id, action=action, session_id=sid)
            if reply.status == "finished":
                await bot.outbox.publish(thread.id, reply)
                break
        rec = await bot.host.storage.get_session(sid)
        assert rec.status == "finished"

        def page():
            return next(((m, f) for m in fake.channel_messages(thread) for f in m.files
                         if f.filename.endswith(".html")), None)

        await fake.wait_until(page, timeout=120)
        message, file = page()
        assert message.audience is None and f"Replay of Roman War #{sid}" in message.content
        assert not (message.allowed_mentions or {}).get("users")
        html = file.data.decode("utf-8")
        assert len(file.data) <= 10 * 1024 * 1024
        assert str(rec.seed) in html and rec.seed_hash in html and f"tabula verify {sid}" in html
        assert html.count("data:image/webp;base64,") >= 2
        # /game status of the finished game does not post it again
        await world.slash(alice, thread, "game status")
        await fake.wait_until(lambda: not bot.outbox._replays)
        assert sum(1 for m in fake.channel_messages(thread) for f in m.files if f.filename.endswith(".html")) == 1
