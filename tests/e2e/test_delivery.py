"""Delivery faults: a redelivered interaction, closed DMs, missing permissions in the channel."""

from __future__ import annotations

import asyncio

import pytest

from bot.discordbot.messages import FALLBACK_NOTICE, NO_FILES_NOTE
from tests.fakediscord import message_text

from .conftest import World
from .test_game import pending_choice
from .test_reminders import act_simply
from .test_restart_faults import open_game, waiting_user

pytestmark = pytest.mark.timeout(120)


def public_count(world: World) -> int:
    return len([m for m in world.fake.channel_messages(world.channel) if m.audience is None])


async def redeliver_and_settle(bot, fake, interaction) -> None:
    """Deliver ``interaction`` again and wait until the bot has received it and finished with it:
    "nothing happened" is only worth asserting after the bot has read the repeat."""
    seen = bot.tracker.deliveries
    await fake.redeliver(interaction)
    for _ in range(500):
        if bot.tracker.deliveries > seen:
            break
        await asyncio.sleep(0.01)
    else:
        raise AssertionError("the bot never received the repeated interaction")
    await bot.tracker.idle()


async def legal_action(world: World, user) -> str:
    ac = await world.done(
        await world.fake.autocomplete(user, world.channel, "play", focused="action", action="")
    )
    return ac.choices[0]["value"]


async def test_a_redelivered_interaction_is_applied_once(world: World) -> None:
    fake = world.fake
    async with world.run_bot() as bot:
        rec = await open_game(world, bot)
        user = waiting_user(world, rec)
        action = await legal_action(world, user)
        r = await world.slash(user, world.channel, "play", action=action)
        after = await bot.host.storage.get_session(rec.id)
        public = public_count(world)
        requests = len(fake.requests)

        # the gateway delivers the same interaction again: nothing is applied, nothing answered
        await redeliver_and_settle(bot, fake, r)
        again = await bot.host.storage.get_session(rec.id)
        assert (again.seq, again.version) == (after.seq, after.version)
        assert public_count(world) == public
        assert [q for q in fake.requests[requests:] if "/callback" in q.path] == []

        # a component click delivered twice
        rec = after
        user = waiting_user(world, rec)
        found = pending_choice(fake, user, rec.id, rec.seq)
        assert found is not None
        msg, ids = found
        cid = next(c for c in ids if not c.startswith(("tabula:m:", "tabula:k:")))
        click = await world.click(user, msg, cid)
        assert click.callback_type == 6  # deferred when the rules took it, its prompt edited then
        clicked = await bot.host.storage.get_session(rec.id)
        await redeliver_and_settle(bot, fake, click)
        assert (await bot.host.storage.get_session(rec.id)).seq == clicked.seq

    # after a restart the bot no longer remembers it: the stored interaction id stops it,
    # and the player is told privately (the first answer never reached Discord here)
    async with world.run_bot() as bot:
        public = public_count(world)
        await world.done(await fake.redeliver(r, acknowledged=False))
        assert r.ephemeral and "already done" in r.text()
        assert (await bot.host.storage.get_session(rec.id)).seq == clicked.seq
        assert public_count(world) == public
        rows = [a for a in await bot.host.storage.actions(rec.id) if a.interaction_id == str(r.id)]
        assert len(rows) == 1
    assert fake.rejected == []


async def test_closed_dms_get_one_public_notice_and_nothing_private_in_public(world: World) -> None:
    fake = world.fake
    bob = world.bob
    fake.close_dms(bob)
    async with world.run_bot() as bot:
        await bot.sync_commands(world.guild.id)
        await world.slash(bob, world.channel, "game prefs", notify="dm")  # prompts by DM, not a private thread
        rec = await open_game(world, bot)
        for _ in range(12):
            rec = await bot.host.storage.get_session(rec.id)
            if rec.status != "active":
                break
            assert await act_simply(world, bot, waiting_user(world, rec))

        notices = [m for m in fake.channel_messages(world.channel)
                   if m.audience is None and "direct message" in m.content]
        assert [m.content for m in notices] == [FALLBACK_NOTICE.format(mentions=f"<@{bob.id}>")]
        assert notices[0].audience is None and notices[0].mentioned_user_ids() == [bob.id]
        assert fake.dms_to(bob) == []

        # bob's private events (his cards) reach no one else
        seat = rec.seat_of(bob.id).seat
        secret = [
            e.text
            for row in await bot.host.storage.actions(rec.id)
            for e in row.events
            if e.visible_to is not None and seat in e.visible_to and e.text
        ]
        assert secret, "bob was dealt cards"
        for m in fake.messages.values():
            if m.audience is None or m.audience != frozenset({bob.id}):
                assert not any(t in message_text(m) for t in secret), message_text(m)

        # /game hand shows him his hand, privately
        r = await world.slash(bob, world.channel, "game hand")
        assert r.ephemeral and r.original is not None and r.original.audience == frozenset({bob.id})
        assert any(f.filename == "hand.png" for m in r.messages() for f in m.files)


async def test_no_permission_to_post_or_attach_in_the_channel(world: World) -> None:
    fake = world.fake
    async with world.run_bot() as bot:
        rec = await open_game(world, bot)
        opened = [m for m in fake.channel_messages(world.channel) if "may not create threads" in m.content]
        assert len(opened) == 1, "the creator learns why the game has no thread"

        # the bot may no longer post in the channel: a click is refused before it is applied
        # (nobody could be told of it), privately, with the true reason (issue 15 item 4)
        fake.deny(world.channel, "send_messages")
        user = waiting_user(world, rec)
        found = pending_choice(fake, user, rec.id, rec.seq)
        assert found is not None
        msg, ids = found
        cid = next(c for c in ids if not c.startswith(("tabula:m:", "tabula:k:")))
        public = public_count(world)
        click = await world.click(user, msg, cid)
        after = await bot.host.storage.get_session(rec.id)
        assert (after.seq, after.version) == (rec.seq, rec.version), "nothing was applied"
        assert public_count(world) == public, "nothing was posted in the channel"
        told = click.messages()
        assert len(told) == 1 and told[0].audience == frozenset({user.id})
        assert "Not applied" in told[0].content and "Send Messages" in told[0].content

        # may post but not attach files: the update comes without its image, saying so
        fake.allow(world.channel, "send_messages")
        fake.deny(world.channel, "attach_files")
        rec = after
        user = waiting_user(world, rec)
        found = pending_choice(fake, user, rec.id, rec.seq)
        assert found is not None
        msg, ids = found
        cid = next(c for c in ids if not c.startswith(("tabula:m:", "tabula:k:")))
        seen = {m.id for m in fake.channel_messages(world.channel)}
        click = await world.click(user, msg, cid)
        rows = [a for a in await bot.host.storage.actions(rec.id) if a.interaction_id == str(click.id)]
        assert len(rows) == 1
        new = [m for m in fake.channel_messages(world.channel) if m.audience is None and m.id not in seen]
        updates = [m for m in new if NO_FILES_NOTE in m.content]
        assert len(updates) == 1 and updates[0].files == []
    rejected = {(r.path.split("/")[-1], r.error_code) for r in fake.rejected}
    assert rejected <= {("messages", 50013)}, rejected


async def test_game_rules_sends_the_glossary_of_a_game_that_has_one_privately(world: World) -> None:
    """/game rules game:roman-war answers privately with the overview, then the card marks of
    GLOSSARY.md in messages within Discord's 2,000 characters; a game without one sends none."""
    async with world.run_bot() as bot:
        await bot.sync_commands(world.guild.id)
        alice = world.alice
        r = await world.slash(alice, world.channel, "game rules", game="roman-war")
        texts = [message_text(m) for m in r.messages()]
        assert r.ephemeral and all(m.audience == frozenset({alice.id}) for m in r.messages())
        assert "Roman War" in texts[0] and "Terms and marks" in texts[0]
        marks = "\n".join(texts[1:])
        assert "`C n` — Cost: rotate n untapped cards" in marks and "`boosts first:`" in marks
        assert all(len(t) <= 2000 for t in texts)
        r = await world.slash(alice, world.channel, "game rules", game="credo")
        assert len(r.messages()) == 1 and "Terms and marks" not in message_text(r.messages()[0])
        first = message_text(r.messages()[0])
        assert "**How to win**" in first and "117 votes" in first  # SUMMARY.md, not a docstring
        assert "game object" not in first and len(first) <= 2000
