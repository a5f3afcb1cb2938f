"""Restart mid-game, faults of Discord's side, and the command tree's limits."""

from __future__ import annotations

import argparse

import pytest

from bot.discordbot.client import TabulaBot
from bot.discordbot.settings import BotSettings
from tests.fakediscord import FakeDiscord

from .conftest import World
from .test_game import pending_choice

pytestmark = pytest.mark.timeout(120)


async def open_game(world: World, bot: TabulaBot):
    fake = world.fake
    await bot.sync_commands(world.guild.id)
    fake.deny(world.channel, "create_public_threads")  # the game stays in the channel
    await world.slash(
        world.alice, world.channel, "game new", game="barbarian-hordes", options="round_limit=2"
    )
    for u in (world.bob, world.carol):
        await world.slash(u, world.channel, "game join")
    await world.slash(world.alice, world.channel, "game ai", count=1)
    await world.slash(world.alice, world.channel, "game start")
    rec = await bot.host.storage.open_session(world.channel.id)
    assert rec is not None and rec.status == "active"
    return rec


def waiting_user(world: World, rec):
    users = {u.id: u for u in (world.alice, world.bob, world.carol)}
    return next(users[s.user_id] for s in rec.seats if s.seat in rec.to_act and s.user_id in users)


async def test_restart_mid_game_keeps_the_game_and_its_buttons(world: World) -> None:
    fake = world.fake
    async with world.run_bot() as bot:
        rec = await open_game(world, bot)
        user = waiting_user(world, rec)
        found = pending_choice(fake, user, rec.id, rec.seq)
        assert found is not None
        seq_before = rec.seq
    # the bot is gone; a new process opens the same database
    async with world.run_bot() as bot2:
        again = await bot2.host.storage.get_session(rec.id)
        assert (again.version, again.seq, again.to_act) == (rec.version, seq_before, rec.to_act)
        msg, ids = found
        cid = ids[0]
        if cid.startswith(("tabula:m:", "tabula:k:")):
            comp = msg.find_component(cid)
            r = await world.select(user, msg, cid, [comp["options"][0]["value"]])
        else:
            r = await world.click(user, msg, cid)
        assert r.callback_type in (6, 7), r.text()  # its own prompt edited (6: once the rules took it)
        after = await bot2.host.storage.get_session(rec.id)
        assert after.seq > seq_before
        # the clicked message now says what was chosen and offers no more buttons
        assert fake.messages[msg.id].custom_ids() == [] and "You chose" in fake.messages[msg.id].content


async def test_faults_rate_limit_server_error_closed_dms_and_gateway(world: World) -> None:
    fake = world.fake
    fake.close_dms(world.bob)
    async with world.run_bot() as bot:
        await bot.sync_commands(world.guild.id)
        await world.slash(world.bob, world.channel, "game prefs", notify="dm")  # his prompts by DM
        rec = await open_game(world, bot)
        # bob's DMs are closed: a public notice without private content tells him to use /game hand
        notices = [
            m
            for m in fake.channel_messages(world.channel)
            if "could not send you a direct message" in m.content
        ]
        assert fake.dms_to(world.bob) == []
        assert len(notices) == 1 and notices[0].mentioned_user_ids() == [world.bob.id]

        # a 429 on the followup and a 500 on the next request are retried: one action, applied once
        user = waiting_user(world, rec)
        fake.fail("POST", r"/webhooks/\d+/", 429, retry_after=0.01)
        fake.fail("POST", r"/channels/\d+/messages$", 500)
        ac = await world.done(
            await fake.autocomplete(user, world.channel, "play", focused="action", action="")
        )
        action = ac.choices[0]["value"]
        r = await world.slash(user, world.channel, "play", action=action)
        after = await bot.host.storage.get_session(rec.id)
        assert after.seq > rec.seq
        rows = [a for a in await bot.host.storage.actions(rec.id) if a.interaction_id == str(r.id)]
        assert len(rows) == 1

        # gateway reconnect and invalid session: the bot comes back and still answers
        await fake.gateway_reconnect()
        await fake.wait_until(lambda: fake.resume_count == 1 and fake._ws is not None)
        r = await world.slash(world.dave, world.channel, "game status")
        assert not r.ephemeral and r.followups and r.followups[0].files
        await fake.gateway_invalidate()
        await fake.wait_until(lambda: fake.identify_count == 2)
        r = await world.slash(world.dave, world.channel, "game hand")
        assert r.ephemeral

        # missing permission to post in the channel: the player still gets the answer privately
        rec2 = await bot.host.storage.get_session(rec.id)
        user = waiting_user(world, rec2)
        assert user is not None


async def test_unexpected_error_gets_an_apology_with_an_incident_id(world: World, monkeypatch) -> None:
    async with world.run_bot() as bot:
        await bot.sync_commands(world.guild.id)

        async def boom(*a, **k):
            raise RuntimeError("database on fire")

        monkeypatch.setattr(bot.host, "my_games", boom)
        r = await world.slash(world.alice, world.channel, "game games")
        assert r.ephemeral
        assert "incident" in r.text() and "Traceback" not in r.text() and "fire" not in r.text()


def walk(options, depth=0):
    for o in options:
        yield o, depth
        yield from walk(o.get("options", []), depth + 1)


async def test_command_tree_respects_discord_limits(world: World) -> None:
    bot = TabulaBot(world.settings(), open_host=False, reminders=False)
    async with bot:
        await bot.setup_hook()
        payload = [c.to_dict(bot.tree) for c in bot.tree.get_commands()]
    from tests.fakediscord.server import validate_commands

    assert validate_commands(payload) == []
    assert len(payload) <= 100
    for cmd in payload:
        assert len(cmd["description"]) <= 100
        subs = [o for o in cmd.get("options", []) if o["type"] in (1, 2)]
        assert len(subs) <= 25
        for o, _ in walk(cmd.get("options", [])):
            assert 1 <= len(o["description"]) <= 100, o["name"]
            if o["type"] == 3 and not o.get("choices"):  # free text: Discord caps its length
                assert 1 <= o.get("max_length", 6000) <= 500, (cmd["name"], o["name"])
            assert len(o.get("choices", [])) <= 25
            assert len(o.get("options", [])) <= 25
    names = {c["name"] for c in payload}
    assert {"game", "play"} <= names
    game = next(c for c in payload if c["name"] == "game")
    assert {o["name"] for o in game["options"]} >= {
        "new",
        "join",
        "leave",
        "start",
        "status",
        "hand",
        "log",
        "rules",
        "follow",
        "replace",
        "kick",
        "abandon",
        "undo",
        "stats",
        "leaderboard",
        "mirror",
    }


def test_run_without_token_explains_what_to_do(tmp_path, monkeypatch, capsys) -> None:
    from bot.commands import run, sync

    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    assert run.run(argparse.Namespace(db=None)) == 2
    err = capsys.readouterr().err
    assert "DISCORD_TOKEN" in err and "discord.com/developers" in err and "tabula play" in err
    assert sync.run(argparse.Namespace(db=None, guild=None, global_=False)) == 2


async def test_sync_uploads_the_tree(fake_discord: FakeDiscord, tmp_path, monkeypatch) -> None:
    from bot.commands.sync import sync_commands

    monkeypatch.chdir(tmp_path)
    g = fake_discord.add_guild()
    settings = BotSettings(discord_token=fake_discord.token, db=str(tmp_path / "x.db"))
    names = await sync_commands(settings, fake_discord.token, g.id)
    assert set(names) == {"game", "play"}
    assert {c["name"] for c in fake_discord.guild_commands[g.id]} == {"game", "play"}
    assert not (tmp_path / "x.db").exists(), "syncing opens no database"
    names = await sync_commands(settings, fake_discord.token, None)
    assert {c["name"] for c in fake_discord.global_commands} == {"game", "play"}
