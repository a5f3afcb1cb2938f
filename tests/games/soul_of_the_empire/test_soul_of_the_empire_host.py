"""The host with Soul of the Empire: two humans and two AI seats, secret Combat Card
choices, a restart mid-game, and a finished game that verifies from its seed."""

from __future__ import annotations

import random

import pytest

from bot.host import Host, Reply
from storage.replay import verify_session
from tests.host_helpers import ALICE, BOB, CHANNEL, GUILD, Clock, host_on

pytestmark = pytest.mark.usefixtures("backend")


async def human_move(host: Host, reply: Reply, rand: random.Random) -> Reply:
    """One action by the first human asked, chosen at random among the completions."""
    prompt = next(p for p in reply.prompts if p.user_id is not None)
    options = await host.complete(CHANNEL, prompt.user_id) or list(prompt.choices)
    assert options, prompt
    return await host.act(CHANNEL, prompt.user_id, rand.choice(options))


async def test_soul_of_the_empire_through_the_host(tmp_path):
    path = str(tmp_path / "soe.db")
    clock = Clock()
    rand = random.Random(3)
    async with host_on(path, clock=clock, seed=21) as host:
        await host.create(GUILD, CHANNEL, ALICE, "soul-of-the-empire", {"round_limit": 3})
        await host.join(CHANNEL, BOB)
        await host.add_ai(CHANNEL, ALICE, 2)
        reply = await host.start(CHANNEL, ALICE)
        assert reply.status == "active"
        for _ in range(40):
            if reply.status != "active":
                break
            reply = await human_move(host, reply, rand)
    async with host_on(path, clock=clock, seed=21) as host:
        reply = await host.view(CHANNEL)
        for _ in range(4000):
            if reply.status != "active":
                break
            reply = await human_move(host, reply, rand)
        assert reply.status == "finished", reply.text
        ok, lines = await verify_session(host.storage, reply.session_id)
        assert ok, lines


async def test_the_factions_option_seats_players_and_a_lobby_pick_wins_for_its_seat():
    """Options.factions (RULINGS.md R1) given at creation decides each seat's faction; a faction
    a player picks in the lobby replaces the option's entry for that seat only."""
    async with host_on(seed=4) as host:
        await host.create(GUILD, CHANNEL, ALICE, "soul-of-the-empire",
                          {"factions": ["Christian", "Rome", "Coalition", "Jewish"]})
        await host.join(CHANNEL, BOB)
        await host.add_ai(CHANNEL, ALICE, 2)
        await host.start(CHANNEL, ALICE)
        rec = await host.storage.open_session(CHANNEL)
        assert rec.options["factions"] == ["Christian", "Rome", "Coalition", "Jewish"]
        await host.abandon(CHANNEL, ALICE)
        await host.create(GUILD, CHANNEL, ALICE, "soul-of-the-empire", {"factions": ["Christian", "Rome"]})
        await host.join(CHANNEL, BOB)
        await host.choose(CHANNEL, BOB, "Jewish")
        await host.add_ai(CHANNEL, ALICE, 2)
        await host.start(CHANNEL, ALICE)
        rec = await host.storage.open_session(CHANNEL)
        assert rec.options["factions"][:2] == ["Christian", "Jewish"]
