"""Reminders and response-window deadlines, with time driven by the test's clock."""

from __future__ import annotations

import asyncio

import pytest
from discord.ext import commands

from tests.fakediscord import Message

from .conftest import World
from .test_restart_faults import open_game, waiting_user

pytestmark = pytest.mark.timeout(120)

HOUR = 3600.0


def pings(world: World, user_id: int) -> list[Message]:
    return [
        m
        for m in world.fake.channel_messages(world.channel)
        if "the game is waiting for you" in m.content and user_id in m.mentioned_user_ids()
    ]


async def test_one_ping_per_interval_and_none_early_after_a_restart(world: World) -> None:
    async with world.run_bot(reminders=True) as bot:
        rec = await open_game(world, bot)
        user = waiting_user(world, rec)
        t0 = rec.updated_at
        for hours, expected in ((11, 0), (12.01, 1), (12.5, 1), (23.9, 1), (24.01, 2), (24.02, 2)):
            world.clock.t = t0 + hours * HOUR
            await bot.reminders.run_once()
            assert len(pings(world, user.id)) == expected, hours
        ping = pings(world, user.id)[0]
        assert ping.mentioned_user_ids() == [user.id], "the reminder pings that player only"
        assert "24 h" in pings(world, user.id)[1].content
        others = [u for u in (world.alice, world.bob, world.carol) if u is not user]
        assert all(not pings(world, u.id) for u in others), "players not asked are not pinged"

    # a new process on the same database does not ping again before the next interval
    async with world.run_bot(reminders=True) as bot:
        await bot.reminders.run_once()
        assert len(pings(world, user.id)) == 2
        world.clock.t = t0 + 35.9 * HOUR
        await bot.reminders.run_once()
        assert len(pings(world, user.id)) == 2
        world.clock.t = t0 + 36.01 * HOUR
        await bot.reminders.run_once()
        assert len(pings(world, user.id)) == 3

        # the player acts: the wait is over, and the next one starts from zero
        found = await act_simply(world, bot, user)
        assert found
        rec = await bot.host.storage.get_session(rec.id)
        nxt = waiting_user(world, rec)
        world.clock.t = rec.updated_at + 1 * HOUR
        before = len(pings(world, nxt.id))
        await bot.reminders.run_once()
        assert len(pings(world, nxt.id)) == before


class Listener(commands.Cog):
    """A consumer of the reminders cog's events, as any cog of the bot may listen to them."""

    def __init__(self) -> None:
        self.events: list[tuple] = []

    @commands.Cog.listener()
    async def on_tabula_reminder_sent(self, session_id: int, user_id: int, how: str) -> None:
        self.events.append(("reminder", session_id, user_id, how))

    @commands.Cog.listener()
    async def on_tabula_deadline_closed(self, reply) -> None:
        self.events.append(("deadline", reply.session_id))


async def heard(listener: Listener, n: int) -> list[tuple]:
    """The listener's events once ``n`` have arrived (a dispatched event runs as its own task)."""
    for _ in range(200):
        if len(listener.events) >= n:
            break
        await asyncio.sleep(0.01)
    return listener.events


async def test_the_reminders_are_a_cog_whose_events_other_cogs_hear(world: World) -> None:
    """The reminders run as a discord.py cog: added with the bot's background work, its task
    stopped when the cog is removed, and what it did dispatched as events (a ping sent)."""
    async with world.run_bot(reminders=True) as bot:
        assert isinstance(bot.reminders, commands.Cog) and bot.get_cog("Reminders") is bot.reminders
        listener = Listener()
        await bot.add_cog(listener)
        rec = await open_game(world, bot)
        user = waiting_user(world, rec)
        world.clock.t = rec.updated_at + 12.01 * HOUR
        assert await bot.reminders.run_once() == 1
        assert await heard(listener, 1) == [("reminder", rec.id, user.id, "channel")]
        assert len(pings(world, user.id)) == 1
        reminders = bot.reminders
        await bot.remove_cog("Reminders")
        assert bot.get_cog("Reminders") is None and reminders._background._task is None


async def act_simply(world: World, bot, user) -> bool:
    """The player plays "done" or "pass" when offered, else the first legal action."""
    ac = await world.done(
        await world.fake.autocomplete(user, world.channel, "play", focused="action", action="")
    )
    choices = [c["value"] for c in ac.choices]
    if not choices:
        return False
    action = next((c for c in choices if c in ("done", "pass")), choices[0])
    r = await world.slash(user, world.channel, "play", action=action)
    assert not r.ephemeral, r.text()
    return True


async def test_a_response_window_past_its_deadline_passes_for_those_who_did_not_answer(
    world: World,
) -> None:
    async with world.run_bot(reminders=True) as bot:
        listener = Listener()
        await bot.add_cog(listener)
        rec = await open_game(world, bot)
        humans = {u.id: u for u in (world.alice, world.bob, world.carol)}
        for _ in range(60):
            rec = await bot.host.storage.get_session(rec.id)
            asked = [s for s in rec.seats if s.seat in rec.to_act and s.user_id is not None]
            if rec.deadline is not None and len(asked) >= 2:
                break
            assert await act_simply(world, bot, humans[asked[0].user_id])
        else:
            pytest.fail("no response window with two human players came up")
        deadline = rec.deadline
        assert deadline is not None

        # before the deadline nothing happens
        world.clock.t = deadline - 1
        await bot.reminders.run_once()
        assert (await bot.host.storage.get_session(rec.id)).seq == rec.seq

        # one of them answers in time
        first = humans[asked[0].user_id]
        late = [s for s in asked[1:]]
        r = await world.slash(first, world.channel, "play", action="pass")
        assert not r.ephemeral, r.text()
        answered = await bot.host.storage.get_session(rec.id)
        window_rows = await bot.host.storage.actions(rec.id, after=rec.seq)
        assert [row.user_id for row in window_rows][:1] == [first.id]

        world.clock.t = deadline + 1
        public_before = len(world.fake.channel_messages(world.channel))
        await bot.reminders.run_once()
        after = await bot.host.storage.get_session(rec.id)
        rows = await bot.host.storage.actions(rec.id, after=answered.seq)
        passed = [row for row in rows if row.user_id is None and row.seat in {s.seat for s in late}]
        assert {row.seat for row in passed} == {s.seat for s in late}, "each late player passed"
        assert all(row.notation.lower() == "pass" for row in passed)
        assert all(row.seat != rec.seat_of(first.id).seat for row in rows[: len(passed)]), (
            "the player who answered is not passed for"
        )
        assert after.deadline is None or after.deadline > deadline
        new_public = world.fake.channel_messages(world.channel)[public_before:]
        timeouts = [m for m in new_public if "Time is up for responses" in m.content]
        assert len(timeouts) == 1 and timeouts[0].files, "one public message, with the board"
        assert ("deadline", rec.id) in await heard(listener, 1), "the closed window is dispatched"

        # running again changes nothing
        seq = after.seq
        await bot.reminders.run_once()
        assert (await bot.host.storage.get_session(rec.id)).seq == seq


async def test_a_reminder_goes_the_way_the_player_chose(world: World) -> None:
    """A player who chose direct messages (``/game prefs notify:dm``) is reminded by DM and
    not pinged in the channel (issue: play every decision from a phone, one notification
    per question, the player's choice)."""
    async with world.run_bot(reminders=True) as bot:
        rec = await open_game(world, bot)
        user = waiting_user(world, rec)
        r = await world.slash(user, world.channel, "game prefs", notify="dm")
        assert r.ephemeral
        dm_before = [m.id for m in world.fake.messages.values() if _dm_to(world, m, user.id)]
        world.clock.t = rec.updated_at + 12.01 * HOUR
        assert await bot.reminders.run_once() == 1
        assert pings(world, user.id) == [], "no ping in the channel for a player who chose DMs"
        reminders = [m for m in world.fake.messages.values()
                     if _dm_to(world, m, user.id) and m.id not in dm_before]
        assert len(reminders) == 1 and "the game is waiting for you" in reminders[0].content.lower()
        assert f"<#{world.channel.id}>" in reminders[0].content
        assert not reminders[0].mentioned_user_ids()


def _dm_to(world: World, m: Message, user_id: int) -> bool:
    ch = world.fake.channels.get(m.channel_id)
    return ch is not None and ch.type == 1 and ch.recipient is not None and ch.recipient.id == user_id
