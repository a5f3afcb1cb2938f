"""A game saved under an older version of its rules that no longer loads, through the real bot:
the channel is told once, nobody is reminded, /play answers why (and only its player sees it),
/game status shows why without a board, and its creator abandons it (``tests.old_rules``)."""

from __future__ import annotations

import pytest

from storage import SqliteStorage
from tests.old_rules import store_old_soul

from .conftest import World

pytestmark = pytest.mark.timeout(120)

HOUR = 3600.0
WHY = "older version of Soul of the Empire's rules (version 1; this bot plays version 2)"


async def test_a_game_saved_under_older_rules_is_suspended_and_reminds_nobody(world: World) -> None:
    st = SqliteStorage(str(world.db))
    await st.open()
    try:
        old = await store_old_soul(st, guild=world.guild.id, channel=world.channel.id,
                                   users=(world.alice.id, world.bob.id), now=world.clock())
    finally:
        await st.close()
    async with world.run_bot(reminders=True) as bot:
        await bot.sync_commands(world.guild.id)
        for hours in (13, 25, 200):  # past every reminder interval and the week's wait
            world.clock.t = old.updated_at + hours * HOUR
            await bot.reminders.run_once()
        said = [m.content for m in world.fake.channel_messages(world.channel)]
        assert not [t for t in said if "the game is waiting for you" in t], "nobody is reminded"
        told = [t for t in said if WHY in t]
        assert len(told) == 1 and "cannot be continued" in told[0] and "/game abandon" in told[0]
        rec = await bot.host.storage.get_session(old.id)
        assert rec.suspended is not None and rec.attention is None and rec.seq == old.seq

        r = await world.slash(world.bob, world.channel, "play", action="commit Pilum Volley")
        assert r.ephemeral and WHY in r.text()
        r = await world.slash(world.alice, world.channel, "game status")
        assert WHY in r.text()
        assert (await bot.host.storage.get_session(old.id)).version == rec.version, "nothing changed"

        r = await world.slash(world.alice, world.channel, "game abandon")
        assert "abandoned" in r.text()
        assert (await bot.host.storage.get_session(old.id)).status == "abandoned"
        assert not [t for t in (m.content for m in world.fake.channel_messages(world.channel))
                    if "Traceback" in t or "incident" in t]
