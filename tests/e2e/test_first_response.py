"""An interaction gets its first response before anything slow (design, "Defer before anything
slow"): a ``/play`` or a click is answered as soon as the rules took the action, before its
reveals check, the AI seats' moves and the commit, with the visibility of its final answer;
and an action refused after that after all (another process moved the game on meanwhile)
is still answered privately, its public "thinking" message withdrawn, nothing applied.

Barbarian Hordes with three humans and an AI through the emulator; the storage's commit is
held back to show what the player has seen before it.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from bot.host import Host
from storage.sqlite import SqliteStorage

from .clicking import pending_step, plays_at_once, step_components
from .conftest import World
from .test_intent import first_choice
from .test_restart_faults import open_game, waiting_user

pytestmark = pytest.mark.timeout(180)


@contextmanager
def held_commits(bot: Any) -> Iterator[asyncio.Event]:
    """Every commit of the bot's host waits until the event is set."""
    storage = bot.host.storage
    real = storage.update
    gate = asyncio.Event()

    async def update(*args: Any, **kwargs: Any) -> Any:
        await gate.wait()
        return await real(*args, **kwargs)

    storage.update = update
    try:
        yield gate
    finally:
        gate.set()
        del storage.update


async def test_play_is_deferred_publicly_before_the_action_is_stored(world: World) -> None:
    fake = world.fake
    async with world.run_bot() as bot:
        rec = await open_game(world, bot)
        user = waiting_user(world, rec)
        action = await first_choice(world, user)
        await bot.tracker.idle()
        with held_commits(bot) as gate:
            r = await (await fake.slash(user, world.channel, "play", action=action)).response(30)
            # answered while the action waits for its commit: a public "thinking" message
            assert r.callback_type == 5 and not r.ephemeral and r.loading
            assert r.followups == []
            assert (await bot.host.storage.get_session(rec.id)).seq == rec.seq
            gate.set()
            await world.done(r)
        after = await bot.host.storage.get_session(rec.id)
        assert after.seq > rec.seq
        # the update replaced the thinking message, in public, with the board
        assert not r.loading and r.followups and r.followups[0] is r.original and not r.ephemeral
        assert action in r.text() and any(f.filename == "board.png" for f in r.original.files)
    assert fake.rejected == []


async def test_a_refused_play_is_answered_privately_at_once(world: World) -> None:
    """A refusal comes before the rules take anything: an ephemeral reply, nothing deferred."""
    fake = world.fake
    async with world.run_bot() as bot:
        rec = await open_game(world, bot)
        others = [u for u in (world.alice, world.bob, world.carol) if u is not waiting_user(world, rec)]
        r = await world.slash(others[0], world.channel, "play", action="pass")
        assert r.callback_type == 4 and r.ephemeral and "not your turn" in r.text().lower()
        assert (await bot.host.storage.get_session(rec.id)).seq == rec.seq
    assert fake.rejected == []


async def test_a_click_is_deferred_before_the_action_is_stored(world: World) -> None:
    fake = world.fake
    rng = random.Random(3)
    async with world.run_bot() as bot:
        rec = await open_game(world, bot)
        for _ in range(40):  # a question whose first step plays an action by itself
            rec = await bot.host.storage.get_session(rec.id)
            user = waiting_user(world, rec)
            message = pending_step(fake, user, rec.id, rec.seq)
            comps = [c for c in step_components(message, rec.id) if plays_at_once(c)] if message else []
            if comps and comps[0]["type"] == 2:
                break
            await world.slash(user, world.channel, "play", action=await first_choice(world, user))
        else:
            pytest.fail("no question answered by one button came up")
        comp = rng.choice([c for c in comps if c["type"] == 2])
        await bot.tracker.idle()
        with held_commits(bot) as gate:
            r = await (await fake.click(user, message, comp["custom_id"])).response(30)
            # acknowledged while the action waits for its commit; the prompt is not edited yet
            assert r.callback_type == 6
            assert "You chose" not in fake.messages[message.id].content
            assert (await bot.host.storage.get_session(rec.id)).seq == rec.seq
            gate.set()
            await world.done(r)
        assert (await bot.host.storage.get_session(rec.id)).seq > rec.seq
        edited = fake.messages[message.id]
        assert "You chose" in edited.content and step_components(edited, rec.id) == []
    assert fake.rejected == []


async def test_a_play_refused_after_its_defer_is_answered_privately(world: World) -> None:
    """The rules took the action and the bot deferred publicly; before it was stored, another
    process holding the same database played that seat's turn, so the storage refuses the
    commit (the game changed meanwhile): the public "thinking" message is deleted and the
    refusal comes in a message only its player sees; nothing of the action is stored."""
    fake = world.fake
    async with world.run_bot() as bot:
        rec = await open_game(world, bot)
        user = waiting_user(world, rec)
        choices = [c["value"] for c in (await world.done(
            await fake.autocomplete(user, world.channel, "play", focused="action", action=""))).choices]
        assert len(choices) >= 2
        await bot.tracker.idle()
        other = SqliteStorage(str(world.db))
        await other.open()
        try:
            second = Host(other, bot.host.settings, clock=world.clock)
            with held_commits(bot) as gate:
                r = await (await fake.slash(user, world.channel, "play", action=choices[0])).response(30)
                assert r.callback_type == 5 and not r.ephemeral
                await second.act(world.channel.id, user.id, choices[1])  # the other process's move
                gate.set()
                await world.done(r)
        finally:
            await other.close()
        rows = await bot.host.storage.actions(rec.id, after=rec.seq)
        assert rows[0].notation == choices[1] and choices[0] not in [a.notation for a in rows if a.user_id == user.id]
        assert r.original is not None and r.original.deleted  # the public "thinking" message is gone
        refusal = [m for m in r.followups if not m.deleted]
        assert len(refusal) == 1 and refusal[0].ephemeral and refusal[0].audience == {user.id}
        assert "changed while you were deciding" in refusal[0].content, refusal[0].content
        public = [m for m in fake.channel_messages(world.channel) if m.audience is None and m.interaction_id == r.id]
        assert public == []
    assert fake.rejected == []
