"""A game of Credo through slash commands, with a General Council (issue: Credo, "Done when")."""

from __future__ import annotations

import random

import pytest

from tests.fakediscord import message_text

from .conftest import World

pytestmark = pytest.mark.timeout(240)


async def test_credo_game_with_a_council(world: World) -> None:
    fake, alice, bob, carol = world.fake, world.alice, world.bob, world.carol
    async with world.run_bot() as bot:
        await bot.sync_commands(world.guild.id)
        await world.slash(alice, world.channel, "game new", game="credo", options="round_limit=3")
        thread = next(c for c in fake.channels.values() if c.is_thread)
        for u in (bob, carol):
            await world.slash(u, thread, "game join")
        started = await world.slash(alice, thread, "game start")
        assert "begins" in started.text()
        session = await bot.host.storage.open_session(thread.id)
        sid = session.id
        humans = {u.id: u for u in (alice, bob, carol)}
        rng = random.Random(3)
        steps = 0
        while True:
            rec = await bot.host.storage.get_session(sid)
            if rec.status != "active":
                break
            waiting = [s.user_id for s in rec.seats if s.seat in rec.to_act and s.user_id is not None]
            user = humans[waiting[0]]
            ac = await world.done(await fake.autocomplete(user, thread, "play", focused="action", action=""))
            choices = [c["value"] for c in ac.choices]
            assert choices, "autocomplete offers nothing to the player who must act"
            wanted = [c for c in choices if c.startswith(("convoke", "vote"))]
            action = wanted[0] if wanted else rng.choice(choices)
            r = await world.slash(user, thread, "play", action=action)
            assert not (r.ephemeral and "went wrong" in r.text()), r.text()
            steps += 1
            assert steps < 1500, "the game does not end"
        public = [message_text(m) for m in fake.channel_messages(thread) if m.audience is None]
        assert any("General Council" in t for t in public), "a Council was held"
        assert any("Game over" in t for t in public)
    assert fake.rejected == [], [(r.method, r.path, r.error_code) for r in fake.rejected]
