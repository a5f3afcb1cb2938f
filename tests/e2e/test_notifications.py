"""Notifications, private homes, spectators' follow modes and board images, played through the
Discord emulator (issue: play every decision from a phone, items 2, 3, 5 and 6; "since your
last turn").

A notification is a created message that pings the player or a created direct message (an
edit notifies nobody); ``tests/e2e/playthrough.py`` counts them per question over whole games.
"""

from __future__ import annotations

import random
import re

import pytest

from bot.discordbot import boards as boards_module
from tests.fakediscord import FakeDiscord, Message, User, message_text

from .conftest import World
from .playthrough import play_through

pytestmark = pytest.mark.timeout(600)


async def open_game(world: World, game: str, options: str = "", ais: int = 0,
                    prefs: dict[int, str] | None = None, follow: list[tuple[User, str]] | None = None):
    fake, alice = world.fake, world.alice
    await world.slash(alice, world.channel, "game new", game=game, **({"options": options} if options else {}))
    thread = next(c for c in fake.channels.values() if c.type == 11)
    for u in (world.bob, world.carol):
        await world.slash(u, thread, "game join")
    if ais:
        await world.slash(alice, thread, "game ai", count=ais)
    for user, every in follow or ():
        await world.slash(user, thread, "game follow", every=every)
    for uid, notify in (prefs or {}).items():
        r = await world.slash(fake.users[uid], thread, "game prefs", notify=notify)
        assert r.ephemeral
    first = max(fake.messages)
    started = await world.slash(alice, thread, "game start")
    # the start's update may have gone to the channel instead of the followup (a busy machine)
    assert "begins" in started.text() or any("begins" in m.content for m in fake.channel_messages(thread))
    assert world.bot is not None
    rec = await world.bot.host.storage.open_session(thread.id)
    return thread, rec.id, first


def humans(world: World) -> dict[int, User]:
    return {u.id: u for u in (world.alice, world.bob, world.carol)}


def private_threads(fake: FakeDiscord) -> list:
    return [c for c in fake.channels.values() if c.type == 12]


def dms_to(fake: FakeDiscord, user: User) -> list[Message]:
    return [m for m in fake.messages.values()
            if (ch := fake.channels.get(m.channel_id)) is not None and ch.type == 1
            and ch.recipient is not None and ch.recipient.id == user.id]


def live_buttons(m: Message) -> list[str]:
    return [c for c in m.custom_ids()
            if c.startswith(("tabula:p:", "tabula:q:", "tabula:m:", "tabula:c:", "tabula:k:", "tabula:n:", "tabula:f:"))]


async def test_credo_one_notification_per_question_and_a_private_thread_each(world: World) -> None:
    """Item 2 and 3: thread pings, each prompt in the player's private thread, edited or
    superseded with a link, no live buttons after the end, everyone told of the end."""
    fake = world.fake
    async with world.run_bot() as bot:
        await bot.sync_commands(world.guild.id)
        thread, sid, first = await open_game(world, "credo", "round_limit=2")
        stats = await play_through(fake, bot, thread, sid, humans(world), random.Random(5), first=first)
        assert stats["steps"] >= 10
        assert stats["max_per_question"] <= 1, stats
        assert stats["follow_ups"] > 0 and stats["follow_ups_notified"] == 0, stats
        assert stats["end_notified"] == 3, stats
        assert stats["rejected"] == 0

        stale = [(m.id, m.channel_id, m.ephemeral if hasattr(m, "ephemeral") else None, m.content[:80])
                 for m in fake.messages.values() if not m.deleted and live_buttons(m)]
        assert not stale, ("live-looking buttons anywhere after the game ended (ephemeral replies, DMs, "
                           "homes)", stale[:5], len(stale))
        replaced = [m for m in fake.messages.values() if m.channel_id == thread.id and m.audience is not None
                    and "replaced by a newer one" in m.content]
        assert replaced, "an ephemeral copy of an earlier question says it was replaced"
        assert all(re.search(r"/channels/\d+/\d+/\d+|<#\d+>", m.content) for m in replaced)
        homes = private_threads(fake)
        assert sorted(t.thread_members - {fake.bot_user.id} for t in homes) == sorted(
            {u} for u in humans(world)), "one private thread per player, only that player in it"
        assert all(t.parent_id == world.channel.id for t in homes)
        for u in humans(world).values():
            assert not dms_to(fake, u), "a player with a private thread gets no DMs"
        by_id = {m.id: m for m in fake.messages.values()}
        for t in homes:
            msgs = fake.channel_messages(t)
            assert msgs and all(m.audience == frozenset(t.thread_members - {fake.bot_user.id}) for m in msgs)
            for m in msgs:
                assert not live_buttons(m), ("live-looking buttons after the game ended", m.content)
                assert not m.mentioned_user_ids(), "nothing in a private thread pings"
                link = re.search(r"/channels/\d+/(\d+)/(\d+)", m.content)
                if "replaced by a newer one" in m.content:
                    assert link is not None and int(link.group(1)) == t.id
                    assert int(link.group(2)) in by_id
            assert any("The game is over" in m.content for m in msgs) or any(
                "Game over" in message_text(m) for m in msgs)
        # once the game has begun, players are named by name, never by seat number (the lobby
        # numbers seats for /game replace)
        public = "\n".join(message_text(m) for m in fake.channel_messages(thread)
                           if m.audience is None and m.id > first)
        assert not re.search(r"\b[Ss]eat \d\b", public)
        assert "version " not in public


async def test_direct_messages_instead_of_pings(world: World) -> None:
    """Item 2: a player who chose DMs is never pinged in the thread; their prompts come by DM,
    each starting with the game's name and a link to its thread, one per question."""
    fake, alice = world.fake, world.alice
    async with world.run_bot() as bot:
        await bot.sync_commands(world.guild.id)
        thread, sid, first = await open_game(world, "barbarian-hordes", "round_limit=2", ais=1,
                                             prefs={alice.id: "dm"})
        stats = await play_through(fake, bot, thread, sid, humans(world), random.Random(2), first=first)
        assert stats["max_per_question"] <= 1 and stats["follow_ups_notified"] == 0, stats
        assert stats["end_notified"] == 3, stats
        for m in fake.channel_messages(thread):
            assert alice.id not in m.mentioned_user_ids(), m.content
        dms = dms_to(fake, alice)
        assert dms, "alice's prompts came by DM"
        for m in dms:
            assert m.content.startswith(f"**Barbarian Hordes #{sid} in <#{thread.id}>**"), m.content[:80]
            assert not live_buttons(m), "no live-looking buttons after the end"
        assert {frozenset(t.thread_members - {fake.bot_user.id}) for t in private_threads(fake)} == {
            frozenset({world.bob.id}), frozenset({world.carol.id})}


async def test_no_private_threads_falls_back_to_direct_messages(world: World) -> None:
    """Item 3: where the bot may not make private threads, the homes are DMs that start with
    the game's name and a link to its thread; still one notification per question."""
    fake = world.fake
    world.channel.denied.add("create_private_threads")
    async with world.run_bot() as bot:
        await bot.sync_commands(world.guild.id)
        thread, sid, first = await open_game(world, "credo", "round_limit=1")
        stats = await play_through(fake, bot, thread, sid, humans(world), random.Random(1), first=first)
        assert not private_threads(fake)
        assert stats["max_per_question"] <= 1, stats
        for u in humans(world).values():
            for m in dms_to(fake, u):
                assert m.content.startswith("**Credo"), m.content[:80]
                assert m.content.split("\n", 1)[0].endswith(f"#{sid} in <#{thread.id}>**"), m.content[:80]


async def test_followers_every_round_and_every_turn_get_the_board(world: World) -> None:
    """Item 6: a follower chooses every move, once per turn or once per round; each update
    carries the board image; fewer updates for coarser modes."""
    fake = world.fake
    erin = fake.add_user("erin")
    fake.add_member(world.guild, erin)
    async with world.run_bot() as bot:
        await bot.sync_commands(world.guild.id)
        thread, sid, first = await open_game(world, "credo", "round_limit=2",
                                             follow=[(world.dave, "round"), (erin, "turn")])
        stats = await play_through(fake, bot, thread, sid, humans(world), random.Random(3), first=first)
        by_round, by_turn = dms_to(fake, world.dave), dms_to(fake, erin)
        assert by_round and by_turn
        for m in by_round + by_turn:
            assert any(f.filename == "board.png" for f in m.files), "each update has the board"
            assert m.content.startswith("Update — Credo")
        assert len(by_round) < len(by_turn) <= stats["steps"], (len(by_round), len(by_turn), stats["steps"])
        assert "Game over" in message_text(by_round[-1]) and "Game over" in message_text(by_turn[-1])


async def test_digest_since_your_last_turn_and_full_log(world: World) -> None:
    """Issue 20 item 4: a prompt after others played starts with what happened since the
    player's own last action, with a "Full log" button that shows the log privately."""
    fake = world.fake
    async with world.run_bot() as bot:
        await bot.sync_commands(world.guild.id)
        thread, sid, first = await open_game(world, "credo", "round_limit=2")
        await play_through(fake, bot, thread, sid, humans(world), random.Random(4), first=first, max_steps=12)
        found = [m for t in private_threads(fake) for m in fake.channel_messages(t)
                 if "Since your last turn:" in m.content and f"tabula:l:{sid}" in m.custom_ids()]
        assert found, "a prompt with a digest and a Full log button"
        m = found[-1]
        assert len(m.content) <= 2000
        head, digest = m.content.split("Since your last turn:", 1)
        assert head.startswith("**Credo") and f"#{sid} in <#{thread.id}>**" in head
        assert "> " in digest and "You are asked" in digest.split("> ")[-1]
        user = fake.users[next(iter(m.audience))]
        r = await world.click(user, m, f"tabula:l:{sid}")
        assert r.ephemeral and r.text(), "the full log, privately"


async def test_boards_only_when_the_board_changed_with_player_names(world: World, monkeypatch) -> None:
    """Item 5: a new board image only when the public board changed (the View without who
    is asked), a text update otherwise; boards carry the players' display names."""
    fake = world.fake
    drawn: list[dict[int, str]] = []
    real = boards_module.render_png

    async def spy(image, audience=None, names=None):
        if image is not None and getattr(image.view, "viewer", 0) is None:
            drawn.append(dict(names or {}))
        return await real(image, audience, names)

    monkeypatch.setattr(boards_module, "render_png", spy)
    async with world.run_bot() as bot:
        await bot.sync_commands(world.guild.id)
        thread, sid, first = await open_game(world, "barbarian-hordes", "round_limit=2", ais=1)
        stats = await play_through(fake, bot, thread, sid, humans(world), random.Random(6), first=first)
        assert stats["board_images"] < stats["public_updates"], stats
        assert drawn and all({"alice", "bob", "carol"} <= set(n.values()) for n in drawn), drawn[:2]
        assert all("AI" in n.values() for n in drawn)
