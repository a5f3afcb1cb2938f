"""The emulator serves the real discord.py client: a minimal bot logs in, syncs, and answers users."""

from __future__ import annotations

import io

import discord
import pytest
from discord import app_commands
from discord.ext import commands
from PIL import Image

from tests.fakediscord import FakeDiscord
from tests.fakediscord.fixtures import running

pytestmark = pytest.mark.timeout(60)


def png_bytes() -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", (8, 8), (200, 30, 30)).save(buf, "PNG")
    return buf.getvalue()


class Clicker(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label="Press", custom_id="mini:press")
    async def press(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        await interaction.response.send_message(f"pressed by {interaction.user.name}", ephemeral=True)

    @discord.ui.select(
        custom_id="mini:pick", options=[discord.SelectOption(label=x) for x in ("red", "blue")]
    )
    async def pick(self, interaction: discord.Interaction, select: discord.ui.Select) -> None:
        await interaction.response.edit_message(content=f"picked {select.values[0]}")


class MiniBot(commands.Bot):
    def __init__(self) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents.default(),
            guild_ready_timeout=0.01,
        )
        self.dms_failed: list[int] = []

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        pass  # Discord asks for 5 s between IDENTIFYs; the emulator does not

    async def setup_hook(self) -> None:
        self.add_view(Clicker())
        tree = self.tree

        @tree.command(description="Say hello privately")
        async def hello(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("hello, only you see this", ephemeral=True)

        @tree.command(description="Send a picture")
        async def picture(interaction: discord.Interaction) -> None:
            await interaction.response.defer(thinking=True)
            await interaction.followup.send("here", file=discord.File(io.BytesIO(png_bytes()), "board.png"))
            await interaction.followup.send("and a private note", ephemeral=True)

        fruits = ["apple", "apricot", "banana"]

        async def fruit_complete(
            interaction: discord.Interaction, current: str
        ) -> list[app_commands.Choice[str]]:
            return [app_commands.Choice(name=f, value=f) for f in fruits if f.startswith(current)]

        @tree.command(description="Pick a fruit")
        @app_commands.autocomplete(fruit=fruit_complete)
        async def eat(interaction: discord.Interaction, fruit: str, count: int = 1) -> None:
            await interaction.response.send_message(f"ate {count} {fruit}")

        @tree.command(description="Post buttons")
        async def buttons(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("choose", view=Clicker())

        @tree.command(description="DM and thread")
        async def chat(interaction: discord.Interaction, who: discord.User) -> None:
            await interaction.response.defer(ephemeral=True)
            try:
                await who.send("psst")
            except discord.Forbidden:
                self.dms_failed.append(who.id)
            assert isinstance(interaction.channel, discord.TextChannel)
            thread = await interaction.channel.create_thread(
                name="side", type=discord.ChannelType.public_thread
            )
            await thread.send("in the thread")
            await interaction.edit_original_response(content=f"done in {thread.mention}")


@pytest.fixture
def world(fake_discord: FakeDiscord):
    g = fake_discord.add_guild()
    ch = fake_discord.add_text_channel(g)
    alice = fake_discord.add_user("alice")
    bob = fake_discord.add_user("bob")
    fake_discord.add_member(g, alice)
    fake_discord.add_member(g, bob)
    return fake_discord, g, ch, alice, bob


async def test_login_sync_and_commands(world):
    fake, g, ch, alice, bob = world
    bot = MiniBot()
    async with running(bot, fake):
        assert bot.user is not None and bot.user.id == fake.bot_user.id
        assert bot.get_guild(g.id) is not None
        synced = await bot.tree.sync()
        assert {c.name for c in synced} == {"hello", "picture", "eat", "buttons", "chat"}

        rec = await (await fake.slash(alice, ch, "hello")).response()
        assert rec.ephemeral and rec.original is not None
        assert "only you" in rec.original.content
        assert rec.original not in fake.visible_to(bob)
        assert rec.original in fake.visible_to(alice)

        rec = await fake.slash(alice, ch, "picture")
        await fake.wait_until(lambda: len(rec.followups) == 2)
        first, note = rec.followups
        assert first is rec.original and not first.ephemeral  # the deferred message was filled
        Image.open(io.BytesIO(first.files[0].data)).verify()
        assert first.files[0].filename == "board.png"
        assert note.ephemeral and note in fake.visible_to(alice) and note not in fake.visible_to(bob)

        ac = await (await fake.autocomplete(alice, ch, "eat", focused="fruit", fruit="ap")).response()
        assert [c["value"] for c in ac.choices] == ["apple", "apricot"]

        rec = await (await fake.slash(bob, ch, "eat", fruit="banana", count=3)).response()
        assert rec.original is not None and rec.original.content == "ate 3 banana"

        with pytest.raises(AssertionError, match="missing required"):
            await fake.slash(bob, ch, "eat")


async def test_buttons_and_select_round_trip(world):
    fake, g, ch, alice, bob = world
    bot = MiniBot()
    async with running(bot, fake):
        bot.tree.copy_global_to(guild=discord.Object(g.id))
        await bot.tree.sync(guild=discord.Object(g.id))
        assert fake.global_commands == [] and len(fake.guild_commands[g.id]) == 5
        rec = await (await fake.slash(alice, ch, "buttons")).response()
        msg = rec.original
        assert msg is not None and msg.custom_ids() == ["mini:press", "mini:pick"]
        click = await (await fake.click(bob, msg, "mini:press")).response()
        assert click.original is not None and click.original.content == "pressed by bob"
        assert click.ephemeral
        sel = await (await fake.select(alice, msg, "mini:pick", ["blue"])).response()
        assert sel.callback_type == 7
        assert fake.messages[msg.id].content == "picked blue"


async def test_dm_thread_and_closed_dms(world):
    fake, g, ch, alice, bob = world
    fake.close_dms(bob)
    bot = MiniBot()
    async with running(bot, fake):
        await bot.tree.sync()
        rec = await fake.slash(alice, ch, "chat", who=alice)
        await fake.wait_until(lambda: rec.followup_times)
        assert [m.content for m in fake.dms_to(alice)] == ["psst"]
        assert fake.dms_to(alice)[0] not in fake.visible_to(bob)
        threads = [c for c in fake.channels.values() if c.is_thread]
        assert len(threads) == 1 and threads[0].parent_id == ch.id
        assert [m.content for m in fake.channel_messages(threads[0])] == ["in the thread"]
        assert rec.original is not None and rec.original.content.startswith("done in <#")

        rec = await fake.slash(alice, ch, "chat", who=bob)
        await fake.wait_until(lambda: rec.followup_times)
        assert bot.dms_failed == [bob.id]
        assert fake.dms_to(bob) == []


async def test_rate_limit_and_server_error_are_retried(world):
    fake, g, ch, alice, bob = world
    bot = MiniBot()
    async with running(bot, fake):
        fake.fail("PUT", r"/commands$", 429, retry_after=0.01)
        synced = await bot.tree.sync()
        assert len(synced) == 5
        statuses = [r.status for r in fake.requests if r.path.endswith("/commands")]
        assert statuses == [429, 200]

        fake.fail("POST", r"/channels/\d+/messages$", 500)
        channel = bot.get_channel(ch.id)
        assert isinstance(channel, discord.TextChannel)
        await channel.send("after a 500")
        assert [m.content for m in fake.channel_messages(ch)] == ["after a 500"]

        fake.fail("POST", r"/channels/\d+/messages$", 503)
        with pytest.raises(discord.DiscordServerError):
            await channel.send("lost")


async def test_gateway_reconnect_resume_and_invalid_session(world):
    fake, g, ch, alice, bob = world
    bot = MiniBot()
    async with running(bot, fake):
        await bot.tree.sync()
        await fake.gateway_reconnect()
        await fake.wait_until(lambda: fake.resume_count == 1 and fake._ws is not None)
        rec = await (await fake.slash(alice, ch, "hello")).response()
        assert rec.ephemeral

        await fake.gateway_invalidate()
        await fake.wait_until(lambda: fake.identify_count == 2)
        rec = await (await fake.slash(bob, ch, "hello")).response()
        assert rec.ephemeral and rec.user == bob


async def test_missing_permissions_and_limits_are_rejected(world):
    fake, g, ch, alice, bob = world
    fake.allow_invalid = True  # a command description of 101 characters, on purpose
    fake.deny(ch, "send_messages")
    bot = MiniBot()
    async with running(bot, fake):
        channel = bot.get_channel(ch.id)
        assert isinstance(channel, discord.TextChannel)
        with pytest.raises(discord.Forbidden) as err:
            await channel.send("no")
        assert err.value.code == 50013
        bad = app_commands.Command(name="bad", description="x" * 101, callback=_noop)
        bot.tree.add_command(bad)
        with pytest.raises(discord.HTTPException) as err2:
            await bot.tree.sync()
        assert err2.value.code == 50035
        assert [r.error_code for r in fake.rejected] == [50013, 50035]


async def _noop(interaction: discord.Interaction) -> None:  # pragma: no cover
    pass


async def test_unknown_route_is_recorded(fake_discord: FakeDiscord):
    import aiohttp

    async with aiohttp.ClientSession() as s, s.get(fake_discord.api_base + "/nowhere") as resp:
        assert resp.status == 404
    assert [r.path for r in fake_discord.unknown_routes] == ["/api/v10/nowhere"]
    fake_discord.unknown_routes.clear()


async def test_json_content_type_is_exact(fake_discord: FakeDiscord):
    import aiohttp

    async with aiohttp.ClientSession() as s, s.get(fake_discord.api_base + "/gateway") as resp:
        assert resp.headers["Content-Type"] == "application/json"
