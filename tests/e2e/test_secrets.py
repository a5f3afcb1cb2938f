"""Secrets stay secret through Discord (issue 14, failing inputs 1, 5, 6 and 7): undo messages,
seat reassignment, forged clicks and the players' own words, through the real bot and the
Discord emulator."""

from __future__ import annotations

import random

import pytest

from tests.fakediscord import message_text
from tests.fakediscord.model import MEMBER_PERMISSIONS, PERMISSIONS

from .conftest import World
from .test_restart_faults import open_game, waiting_user

pytestmark = pytest.mark.timeout(180)


async def choices_for(world: World, user, channel, prefix: str = "") -> list[str]:
    ac = await world.done(
        await world.fake.autocomplete(user, channel, "play", focused="action", action=prefix)
    )
    return [c["value"] for c in ac.choices]


def seen_by_others(world: World, user_id: int) -> list[str]:
    """The text of every message someone other than ``user_id`` can read."""
    return [message_text(m) for m in world.fake.messages.values()
            if not m.deleted and (m.audience is None or m.audience != frozenset({user_id}))]


async def test_undo_of_a_secret_war_commitment_never_quotes_it(world: World) -> None:
    """Barbarian Hordes, two humans: `support … with 1 army` is committed in secret, then
    `/game undo`: the undo request, the refusal and the notice, public or sent to the other
    players, never quote it; its player alone reads it."""
    fake = world.fake
    async with world.run_bot() as bot:
        await bot.sync_commands(world.guild.id)
        fake.deny(world.channel, "create_public_threads")
        await world.slash(world.alice, world.channel, "game new", game="barbarian-hordes")
        await world.slash(world.bob, world.channel, "game join")
        await world.slash(world.alice, world.channel, "game ai", count=1)
        await world.slash(world.alice, world.channel, "game start")
        rec = await bot.host.storage.open_session(world.channel.id)
        users = {u.id: u for u in (world.alice, world.bob)}
        rand = random.Random(1)
        committed = None
        for _ in range(300):
            rec = await bot.host.storage.get_session(rec.id)
            assert rec.status == "active"
            waiting = [users[s.user_id] for s in rec.seats if s.seat in rec.to_act and s.user_id in users]
            user = rand.choice(waiting)
            support = [c for c in await choices_for(world, user, world.channel, "support")
                       if c.endswith("with 1 army")]
            action = support[0] if support else rand.choice(await choices_for(world, user, world.channel))
            await world.slash(user, world.channel, "play", action=action)
            if support:
                rows = await bot.host.storage.actions(rec.id, after=rec.seq)
                if any(r.notation == action and r.secret and r.user_id == user.id for r in rows):
                    committed = (user, action)
                    break
        assert committed is not None, "nobody committed 1 army to a war"
        actor, notation = committed
        other = world.bob if actor is world.alice else world.alice
        r = await world.slash(actor, world.channel, "game undo")
        if "asks to undo" in message_text(r.original):
            r = await world.slash(other, world.channel, "game undo", decline=True)
            assert "refused the undo of a secret choice" in r.text()
            await world.slash(actor, world.channel, "game undo")
            r = await world.slash(other, world.channel, "game undo")
        assert "undid a secret choice" in r.text()
        for text in seen_by_others(world, actor.id):
            assert notation not in text, text
        mine = [message_text(m) for m in fake.visible_to(actor) if m.audience == frozenset({actor.id})]
        assert any(f"You undid '{notation}'" in t for t in mine)
    assert fake.rejected == [], [(q.method, q.path, q.error_code) for q in fake.rejected]


async def test_the_creator_cannot_reassign_a_human_seat_but_a_moderator_can(world: World) -> None:
    """Credo: the creator's `/game replace` of another player's seat (to read that hand) is
    refused privately and changes nothing; a moderator (Manage Channels) may; the creator
    fills an AI seat by its number."""
    fake = world.fake
    mod = fake.add_user("mod")
    fake.add_member(world.guild, mod, permissions=MEMBER_PERMISSIONS | PERMISSIONS["manage_channels"])
    async with world.run_bot() as bot:
        await bot.sync_commands(world.guild.id)
        fake.deny(world.channel, "create_public_threads")
        await world.slash(world.alice, world.channel, "game new", game="credo")
        for u in (world.bob, world.carol):
            await world.slash(u, world.channel, "game join")
        await world.slash(world.alice, world.channel, "game start")
        before = await bot.host.storage.open_session(world.channel.id)

        r = await world.slash(world.alice, world.channel, "game replace", old=world.bob, new=world.dave)
        assert r.ephemeral and "only that player or a moderator" in r.text()
        r = await world.slash(world.alice, world.channel, "game kick", player=world.bob)
        assert r.ephemeral and "only that player or a moderator" in r.text()
        assert (await bot.host.storage.open_session(world.channel.id)).seats == before.seats
        r = await world.slash(world.dave, world.channel, "game hand")
        assert r.ephemeral and "no seat" in r.text()

        r = await world.slash(mod, world.channel, "game replace", old=world.bob, new=world.dave)
        assert not r.ephemeral and "takes over seat 2" in r.text()
        await world.slash(world.carol, world.channel, "game leave")
        r = await world.slash(world.alice, world.channel, "game replace", new=world.bob, seat=3)
        assert not r.ephemeral and "takes over seat 3" in r.text()
        seats = (await bot.host.storage.open_session(world.channel.id)).seats
        assert [s.user_id for s in seats] == [world.alice.id, world.dave.id, world.bob.id]
    assert fake.rejected == [], [(q.method, q.path, q.error_code) for q in fake.rejected]


async def test_a_forged_click_on_the_public_board_message_does_not_edit_it(world: World) -> None:
    """A component payload `tabula:a:<sid>:<ver>:<notation>` sent by the player who must act
    against the public board message: the message keeps its text, image and "My hand"
    button; the click is answered privately."""
    fake = world.fake
    async with world.run_bot() as bot:
        rec = await open_game(world, bot)
        user = waiting_user(world, rec)
        board = [m for m in fake.channel_messages(world.channel) if m.audience is None and m.files][-1]
        content, components, files, edits = board.content, board.components, list(board.files), board.edits
        notation = (await choices_for(world, user, world.channel))[0]
        forged = f"tabula:a:{rec.id}:{rec.version}:{notation}"
        click = await fake._interact(
            3, user, world.channel, {"custom_id": forged, "component_type": 2}, board
        )
        r = await world.done(click)
        assert r.ephemeral, "a click on someone else's message is answered privately"
        after = fake.messages[board.id]
        assert (after.content, after.components, after.files, after.edits) == (
            content, components, files, edits)
    assert fake.rejected == [], [(q.method, q.path, q.error_code) for q in fake.rejected]


async def test_faction_wishes_are_normalised_escaped_and_replaced_by_the_faction_played(world: World) -> None:
    """`/game join nation:` and `/game nation`: markdown, masked links and mentions are shown
    escaped, "Rome\u200b" is "Rome" (taken), over-long text is refused, and after the start
    `/game status` shows the factions played (2-player Soul of the Empire: Rome + Jewish)."""
    fake = world.fake
    async with world.run_bot() as bot:
        await bot.sync_commands(world.guild.id)
        fake.deny(world.channel, "create_public_threads")
        await world.slash(world.alice, world.channel, "game new", game="soul-of-the-empire")
        r = await world.slash(world.bob, world.channel, "game join", nation="x" * 100)  # within Discord's 100, over the 40 a nation takes
        assert r.ephemeral and "at most 40 characters" in r.text()
        r = await world.slash(world.bob, world.channel, "game join", nation="[Rome](https://ex.com) @everyone")
        assert not r.ephemeral
        lobby = r.text()
        assert "\\[Rome](https://ex.com)" in lobby and "@everyone" not in lobby
        r = await world.slash(world.bob, world.channel, "game nation", name="Coalition")
        r = await world.slash(world.alice, world.channel, "game nation", name="Rome\u200b")
        assert "chose Rome." in r.text()
        r = await world.slash(world.bob, world.channel, "game nation", name="ROME")
        assert r.ephemeral and "already taken by seat 1" in r.text()
        started = await world.slash(world.alice, world.channel, "game start")
        assert "begins" in started.text()
        status = (await world.slash(world.carol, world.channel, "game status")).text()
        assert "Rome + Jewish" in status and "Coalition + Christian" in status
    assert fake.rejected == [], [(q.method, q.path, q.error_code) for q in fake.rejected]
