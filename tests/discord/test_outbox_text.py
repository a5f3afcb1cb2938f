"""Long public updates fit Discord's 2,000 characters without losing who must act (with the ping)
or the game's end (issue 15 item 5: Promised Land, one human and five AI seats, played to the end)."""

from __future__ import annotations

import pytest

from bot.discordbot.messages import LOG_HINT, fit, public_text, split_lines
from tests.host_helpers import ALICE, CHANNEL, GUILD, host_on

pytestmark = pytest.mark.timeout(300)


def test_fit_keeps_the_now_block_and_says_what_it_left_out():
    ai = [f"Seat {i % 11 + 2} (AI): attacks the Franks with 3 armies and a Great Leader card" for i in range(60)]
    now = ["**Now**", f"- <@{ALICE}>: Choose your Force cards for the war", "- Seat 3 (AI): Support a side"]
    text = fit("\n".join([*ai, *now]))
    assert len(text) <= 2000
    assert text.endswith("\n".join(now))
    assert text.startswith(ai[0])
    left = [line for line in text.split("\n") if LOG_HINT in line]
    assert len(left) == 1 and left[0].startswith(f"… {60 - (text.count(chr(10)) - 3)} more lines")


def test_fit_keeps_the_game_over_line_with_the_seed():
    end = "Game over: alice won (10 Territory Tokens). Seed: 1 (sha256 `ab`); anyone can replay it."
    text = fit("\n".join(["x" * 99] * 40 + [end]))
    assert len(text) <= 2000 and text.endswith(end)


def test_split_lines_cuts_at_line_breaks_within_the_limit():
    page = "\n".join(f"{i}. seat {i % 6}: move " + "y" * 80 for i in range(100))
    parts = split_lines(page)
    assert all(len(p) <= 2000 for p in parts) and "\n".join(parts) == page


async def test_promised_land_one_human_five_ai_to_the_end_keeps_now_and_the_end():
    """Issue 15 item 5 repro: every update within 2,000 characters; each one that asks alice
    names and mentions her in its "Now" lines; the last says Game over, who won and the seed."""
    async with host_on(seed=1) as h:
        await h.create(GUILD, CHANNEL, ALICE, "promised-land", {})
        await h.add_ai(CHANNEL, ALICE, 5)
        reply = await h.start(CHANNEL, ALICE)
        for _ in range(1500):
            text = fit(public_text(reply))
            assert len(text) <= 2000
            if reply.status != "active":
                break
            if ALICE in reply.mentions:
                assert "**Now**" in text and f"<@{ALICE}>" in text.split("**Now**", 1)[1], text[-400:]
            legal = list(await h.complete(CHANNEL, ALICE, ""))
            assert legal, "alice is asked but has nothing legal"
            reply = await h.act(CHANNEL, ALICE, legal[0])
        assert reply.status == "finished"
        assert "Game over" in text and "Seed: 1 " in text
