"""Text a user types that others read (issue 14, failing input 7): faction wishes from
`/game nation` and `/game join nation:` are normalised (NFKC; control and zero-width
characters removed), capped, compared in that form and shown escaped; once the game knows
the faction a seat plays, the status shows that instead of the wish."""

from __future__ import annotations

import io

import pytest

import tests.toygame  # noqa: F401  (registers "count")
from bot.console import Console
from bot.host import InvalidOptionError
from bot.host.usertext import MAX_FACTION_CHARS, UNREADABLE, clean, readable, same, unreadable
from games.core import InvalidNotationError
from tests.host_helpers import ALICE, BOB, CHANNEL, GUILD, host_on, new_game

pytestmark = pytest.mark.usefixtures("backend")


def embed_text(reply) -> str:
    return "\n".join(f.value for f in reply.embed.fields)


def test_clean_normalises_and_caps():
    assert clean("Ro\u200bme\x07") == "Rome"
    assert clean("\uff32\uff4f\uff4d\uff45") == "Rome"  # full-width letters (NFKC)
    assert clean("  Western\nRoman\u202e  Empire ") == "Western Roman Empire"
    assert same("Rome\u200b", "ROME")
    with pytest.raises(InvalidOptionError, match="at most 40 characters long; this one has 6000"):
        clean("x" * 6000)
    with pytest.raises(InvalidOptionError, match="visible character"):
        clean("\u200b\u200d")


async def test_a_long_wish_is_refused_and_changes_nothing():
    async with host_on() as host:
        await host.create(GUILD, CHANNEL, ALICE, "soul-of-the-empire")
        before = await host.storage.open_session(CHANNEL)
        with pytest.raises(InvalidOptionError, match=f"at most {MAX_FACTION_CHARS} characters long"):
            await host.join(CHANNEL, BOB, faction="R" * 6000)
        with pytest.raises(InvalidOptionError, match=f"at most {MAX_FACTION_CHARS} characters long"):
            await host.choose(CHANNEL, ALICE, "R" * 6000)
        after = await host.storage.open_session(CHANNEL)
        assert after.seats == before.seats and after.version == before.version


async def test_markdown_masked_links_spoilers_and_mentions_are_shown_escaped():
    async with host_on() as host:
        await host.create(GUILD, CHANNEL, ALICE, "barbarian-hordes")
        r = await host.choose(CHANNEL, ALICE, "[Huns](https://ex.com) ||x|| @everyone\u200b")
        rec = await host.storage.open_session(CHANNEL)
        assert rec.seats[0].faction == "[Huns](https://ex.com) ||x|| @everyone"
        for text in (r.text, embed_text(r)):
            assert "\\[Huns](https://ex.com)" in text
            assert "\\|\\|x\\|\\|" in text
            assert "@everyone" not in text and "@\u200beveryone" in text


async def test_a_zero_width_twin_is_the_same_faction_and_does_not_block_the_start():
    """"Rome\u200b" beside "Rome": the second wish is refused as taken (not stored as a
    different faction that then fails at /game start), and the game starts."""
    async with host_on() as host:
        await host.create(GUILD, CHANNEL, ALICE, "soul-of-the-empire")
        await host.join(CHANNEL, BOB)
        await host.choose(CHANNEL, ALICE, "Rome\u200b")
        with pytest.raises(InvalidOptionError, match="already taken by seat 1"):
            await host.choose(CHANNEL, BOB, "\uff52\uff4f\uff4d\uff45")
        with pytest.raises(InvalidOptionError, match="already taken by seat 1"):
            await host.join(CHANNEL, 555, faction="Rome\u200b")
        await host.choose(CHANNEL, BOB, "Coalition\u200b")
        started = await host.start(CHANNEL, ALICE)
        assert started.status == "active"


async def test_after_the_start_the_status_shows_the_faction_played_not_the_wish():
    """Soul of the Empire with 2 players: a seat that wished "Rome" plays Rome + Jewish
    (2-Player Rules); Barbarian Hordes: a wish is only a wish, the draft decides."""
    async with host_on() as host:
        await host.create(GUILD, CHANNEL, ALICE, "soul-of-the-empire")
        await host.join(CHANNEL, BOB)
        await host.choose(CHANNEL, ALICE, "Rome")
        await host.start(CHANNEL, ALICE)
        status = embed_text(await host.view(CHANNEL))
        assert "— Rome + Jewish" in status
        assert "— Coalition + Christian" in status
    async with host_on() as host:
        await host.create(GUILD, CHANNEL, ALICE, "barbarian-hordes")
        await host.add_ai(CHANNEL, ALICE, 2)
        await host.choose(CHANNEL, ALICE, "Atlantis")
        r = await host.start(CHANNEL, ALICE)
        assert "wished Atlantis" in embed_text(await host.view(CHANNEL))
        pick = next(c for c in (await host.complete(CHANNEL, ALICE)) if c.startswith("pick"))
        await host.act(CHANNEL, ALICE, pick)
        status = embed_text(await host.view(CHANNEL))
        assert "Atlantis" not in status
        assert r.status == "active"


async def test_option_values_are_shown_escaped_and_shortened():
    """Option values a creator types (here Barbarian Hordes' ``nations``) are echoed in the
    public lobby message: escaped, and cut to 100 characters each."""
    async with host_on() as host:
        await host.create(GUILD, CHANNEL, ALICE, "barbarian-hordes")
        r = await host.set_options(CHANNEL, ALICE, {"nations": ["@everyone", "y" * 500]})
        assert "@everyone" not in r.text and "@\u200beveryone" in r.text
        assert "y" * 101 not in r.text and "…" in r.text


def test_unreadable_input_is_told_apart_and_shown_without_escapes():
    """Bytes that are not UTF-8 (read by a terminal as lone surrogates, "\\udcff") are found,
    and shown as U+FFFD, never as the escape."""
    assert unreadable("pick \udcff\udcfe") and unreadable("\ufffd") and not unreadable("pick Hünen")
    assert readable("pick \udcff\udcfe") == "pick \ufffd\ufffd"
    assert readable("Rome") == "Rome"


async def test_an_action_with_unreadable_characters_is_refused_plainly_and_changes_nothing():
    async with host_on() as host:
        await new_game(host)
        before = await host.storage.open_session(CHANNEL)
        with pytest.raises(InvalidNotationError) as e:
            await host.act(CHANNEL, ALICE, "add \udcff\udcfe")
        assert e.value.message == UNREADABLE
        assert "\\udc" not in e.value.message and "could not be read" in e.value.message
        assert (await host.storage.open_session(CHANNEL)).version == before.version


def test_the_console_says_input_could_not_be_read_instead_of_echoing_escapes():
    out = io.StringIO()
    lines = iter(["\udcff\udcfe", "explain \udcff", "quit"])
    Console("count", 2, 1, seed=9, options={"target": 15}, out=out, read=lambda prompt: next(lines)).run()
    text = out.getvalue()
    assert text.count(UNREADABLE) == 2
    assert "\udcff" not in text and "\\udc" not in text
