"""Less clicking when nothing is to be decided (issue: play every decision from a phone,
item 4): "Pass for the rest of this phase" on a prompt whose answers include pass, said to
the table, kept by the host until the phase changes, and stopped by "Ask me again"."""

from __future__ import annotations

import random

import pytest

from .clicking import click_through, pending_step
from .conftest import World
from .test_notifications import humans, open_game

pytestmark = pytest.mark.timeout(600)


def phase_button(m) -> str | None:
    return next((c for c in m.custom_ids() if c.startswith("tabula:f:")), None)


async def test_pass_for_the_rest_of_the_phase_by_a_click(world: World) -> None:
    fake = world.fake
    rng = random.Random(4)
    async with world.run_bot() as bot:
        await bot.sync_commands(world.guild.id)
        thread, sid, _first = await open_game(world, "barbarian-hordes", "round_limit=1")
        by_id = humans(world)
        for _ in range(200):
            rec = await bot.host.storage.get_session(sid)
            assert rec.status == "active", "the game ended before a prompt offered to pass for the phase"
            seat = next(s for s in rec.seats if s.seat in rec.to_act and s.user_id is not None)
            user = by_id[seat.user_id]
            message = pending_step(fake, user, sid, rec.seq)
            assert message is not None, "every question reaches its player with buttons"
            button = phase_button(message)
            if button is None:
                await click_through(world, user, message, sid, rng, prefer="pass")
                continue
            assert len(next(c["label"] for row in message.components for c in row["components"]
                            if c.get("custom_id") == button)) <= 40
            clicked = await world.click(user, message, button)
            answer = fake.messages[message.id] if not clicked.ephemeral or clicked.original is None \
                else clicked.original
            stop = next((c for c in answer.custom_ids() if c.startswith("tabula:u:")), None)
            assert stop is not None, ("the answer offers to stop passing", answer.content)
            public = [m.content for m in fake.channel_messages(thread) if m.audience is None]
            assert any("passes for the rest of this phase" in t for t in public), public[-3:]
            assert list(await bot.host.storage.standing_passes(sid)) == [seat.seat]
            stopped = await world.click(user, answer, stop)
            assert "asked again" in stopped.text() or "asked again" in fake.messages[answer.id].content
            assert await bot.host.storage.standing_passes(sid) == {}
            break
        else:
            pytest.fail("no prompt offered to pass for the rest of the phase")
    assert fake.rejected == [], [(r.method, r.path, r.error_code) for r in fake.rejected]
