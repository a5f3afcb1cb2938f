"""Private messages name their game, buttons act on their own game, and the player who just
acted is not pinged for their own follow-up question (issue 15 items 7 and 8)."""

from __future__ import annotations

import re

import pytest

from tests.fakediscord import message_text

from .clicking import plays_at_once, step_components
from .conftest import World

pytestmark = pytest.mark.timeout(180)


async def open_two_games(world: World, bot):
    """bob opens a Barbarian Hordes game in two channels, alice joins both, one AI each."""
    fake = world.fake
    second = fake.add_text_channel(world.guild, "more-games")
    await bot.sync_commands(world.guild.id)
    await world.slash(world.alice, world.channel, "game prefs", notify="dm")  # her prompts by DM
    recs = []
    for ch in (world.channel, second):
        fake.deny(ch, "create_public_threads")
        await world.slash(world.bob, ch, "game new", game="barbarian-hordes", options="round_limit=2")
        await world.slash(world.alice, ch, "game join")
        await world.slash(world.bob, ch, "game ai", count=1)
        await world.slash(world.bob, ch, "game start")
        rec = await bot.host.storage.open_session(ch.id)
        assert rec is not None and rec.status == "active"
        recs.append(rec)
    return second, recs


async def test_every_private_message_names_its_game_and_dm_buttons_act_on_it_alone(world: World) -> None:
    fake, alice = world.fake, world.alice
    async with world.run_bot() as bot:
        second, recs = await open_two_games(world, bot)
        names = {rec.id: f"Barbarian Hordes #{rec.id} in <#{rec.channel_id}>" for rec in recs}
        dms = [m for m in fake.dms_to(alice)]
        assert len(dms) >= 2, "alice gets a DM from each game"
        seen = set()
        for m in dms:
            text = message_text(m)
            found = [sid for sid, name in names.items() if name in text]
            assert len(found) == 1, text
            seen.add(found[0])
            # the buttons of a DM belong to the game it names
            for cid in m.custom_ids():
                assert re.match(rf"tabula:[pqmhxrckn]:{found[0]}(:|$)", cid), (cid, text)
        assert seen == set(names)

        # a private reply in a channel names its game too
        r = await world.slash(alice, second, "game hand")
        assert r.ephemeral and names[recs[1].id] in r.text()
        r = await world.slash(alice, world.channel, "game log")
        assert r.ephemeral and names[recs[0].id] in r.text()
        r = await world.slash(alice, second, "play", action="fly to the moon")
        assert r.ephemeral and names[recs[1].id] in r.text(), r.text()

        # a click in the DM of one game acts on that game only
        for rec in recs:
            now = await bot.host.storage.get_session(rec.id)
            seat = now.seat_of(alice.id)
            if seat is None or seat.seat not in now.to_act:
                continue
            other = next(r for r in recs if r.id != rec.id)
            other_before = (await bot.host.storage.get_session(other.id)).seq
            m = next(m for m in sorted(fake.dms_to(alice), key=lambda m: m.id, reverse=True)
                     if any(c.startswith(f"tabula:c:{rec.id}:") for c in m.custom_ids()))
            cid = next(c["custom_id"] for c in step_components(m, rec.id) if plays_at_once(c))
            click = await world.click(alice, m, cid)
            assert click.callback_type == 6, click.text()  # deferred when the rules took it
            assert (await bot.host.storage.get_session(rec.id)).seq > now.seq
            assert (await bot.host.storage.get_session(other.id)).seq == other_before
            break
        else:
            pytest.fail("alice is asked nothing in either game")
    assert fake.rejected == []


async def test_the_player_who_acted_is_not_pinged_for_their_own_follow_up_question(world: World) -> None:
    """One human and two AI seats: after each of alice's actions the update names who must act
    (often alice again) but pings her only when the question comes after others played."""
    fake, alice = world.fake, world.alice
    async with world.run_bot() as bot:
        await bot.sync_commands(world.guild.id)
        fake.deny(world.channel, "create_public_threads")
        await world.slash(alice, world.channel, "game new", game="barbarian-hordes", options="round_limit=2")
        await world.slash(alice, world.channel, "game ai", count=2)
        await world.slash(alice, world.channel, "game start")
        rec = await bot.host.storage.open_session(world.channel.id)
        asked_again = 0
        for _ in range(12):
            rec = await bot.host.storage.get_session(rec.id)
            if rec.status != "active":
                break
            ac = await world.done(
                await fake.autocomplete(alice, world.channel, "play", focused="action", action="")
            )
            r = await world.slash(alice, world.channel, "play", action=ac.choices[-1]["value"])
            public = [m for m in r.messages() if m.audience is None]
            assert public, r.text()
            for m in public:
                assert alice.id not in m.mentioned_user_ids(), m.content
                if "**Now**" in m.content and f"<@{alice.id}>" in m.content.split("**Now**", 1)[1]:
                    asked_again += 1
        assert asked_again >= 3, "alice was asked follow-up questions"
    assert fake.rejected == []


async def test_closed_dms_are_remembered_and_their_notice_is_not_repeated_after_a_restart(world: World) -> None:
    """Issue 15 item 8: bob's DMs answer 50007. The bot tries once, remembers it (stored), does
    not knock again after every update, and posts the public notice once per game, also across
    a restart; when his DMs are open again a day later, DMs reach him again."""
    from .test_reminders import act_simply
    from .test_restart_faults import open_game, waiting_user

    fake, bob = world.fake, world.bob
    fake.close_dms(bob)

    def refused() -> int:
        return len([q for q in fake.requests if q.error_code == 50007])

    def notices() -> int:
        return len([m for m in fake.channel_messages(world.channel)
                    if m.audience is None and "direct message" in m.content])

    async with world.run_bot() as bot:
        await bot.sync_commands(world.guild.id)
        await world.slash(bob, world.channel, "game prefs", notify="dm")  # his prompts by DM
        rec = await open_game(world, bot)
        for _ in range(8):
            rec = await bot.host.storage.get_session(rec.id)
            if rec.status != "active":
                break
            assert await act_simply(world, bot, waiting_user(world, rec))
        assert refused() == 1, "one refused DM, not one per update"
        assert notices() == 1
    async with world.run_bot() as bot:
        for _ in range(8):
            rec = await bot.host.storage.get_session(rec.id)
            if rec.status != "active":
                break
            assert await act_simply(world, bot, waiting_user(world, rec))
        assert refused() == 1 and notices() == 1, "nothing repeated after the restart"
        # a day later his DMs are open again: the next update reaches him
        fake.close_dms(bob, closed=False)
        world.clock.t += 25 * 3600
        for _ in range(12):
            rec = await bot.host.storage.get_session(rec.id)
            if rec.status != "active" or fake.dms_to(bob):
                break
            assert await act_simply(world, bot, waiting_user(world, rec))
        assert fake.dms_to(bob), "DMs reach bob again once they are open"
        assert await bot.host.storage.closed_dms([bob.id]) == {}
    assert [q for q in fake.rejected if q.error_code != 50007] == []
