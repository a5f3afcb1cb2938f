"""The host with Barbarian Hordes: humans and AI seats, secret war commitments, a
restart mid-game, and a finished game that verifies from its seed."""

from __future__ import annotations

import random

import pytest

from bot.host import Host, Reply
from storage.replay import check_database, verify_session
from tests.host_helpers import ALICE, BOB, CHANNEL, GUILD, OUTSIDER, Clock, host_on

pytestmark = pytest.mark.usefixtures("backend")

HUMANS = (ALICE, BOB)


async def human_move(host: Host, reply: Reply, rand: random.Random) -> Reply:
    """One action by the first human asked, chosen at random among the legal ones."""
    prompt = next(p for p in reply.prompts if p.user_id is not None)
    options = await host.complete(CHANNEL, prompt.user_id) or list(prompt.choices)
    assert options, prompt
    return await host.act(CHANNEL, prompt.user_id, rand.choice(options))


async def everything(host: Host) -> dict:
    public = await host.view(CHANNEL)
    return {
        "record": await host.storage.get_session(public.session_id),
        "public": public.image.view,
        "prompts": public.prompts,
        "views": {u: (await host.hand(CHANNEL, u)).private[0].view for u in HUMANS},
        "logs": {u: (await host.log(CHANNEL, u, per_page=100)).log for u in (*HUMANS, OUTSIDER)},
    }


async def test_restart_mid_game_and_play_to_the_end(tmp_path):
    path = str(tmp_path / "bh.db")
    clock = Clock()
    rand = random.Random(5)
    async with host_on(path, clock=clock, seed=11, snapshot_every=16) as host:
        await host.create(GUILD, CHANNEL, ALICE, "barbarian-hordes")
        await host.join(CHANNEL, BOB)
        await host.add_ai(CHANNEL, ALICE, 2)
        reply = await host.start(CHANNEL, ALICE)
        assert reply.status == "active" and reply.mentions
        for _ in range(25):
            if reply.status != "active":
                break
            reply = await human_move(host, reply, rand)
        before = await everything(host)
    async with host_on(path, clock=clock, seed=11, snapshot_every=16) as host:
        assert await everything(host) == before
        reply = await host.view(CHANNEL)
        for _ in range(3000):
            if reply.status != "active":
                break
            reply = await human_move(host, reply, rand)
        assert reply.status == "finished", reply.text
        assert "Seed: 11" in reply.text
        ok, lines = await verify_session(host.storage, reply.session_id)
        assert ok, lines
        assert (await check_database(host.storage)).ok
        rows = await host.storage.actions(reply.session_id)
        rec = await host.storage.get_session(reply.session_id)
        spectator = await host.log(CHANNEL, OUTSIDER, per_page=100, page=1)
        pages = spectator.pages
        secret_rows = {r.seq: r for r in rows if r.secret}
        assert secret_rows, "a full game has secret war commitments"
        for page in range(1, pages + 1):
            for entry in (await host.log(CHANNEL, OUTSIDER, per_page=100, page=page)).log:
                row = rows[entry.seq]
                # the public event lines, players named instead of "Seat N"
                assert entry.lines == tuple(host._named(rec, e.text) for e in row.events if e.visible_to is None)
                if row.secret:
                    assert entry.notation == "(a secret choice)"


async def test_an_all_ai_game_finishes_at_start_and_verifies():
    async with host_on(seed=3) as host:
        await host.create(GUILD, CHANNEL, ALICE, "barbarian-hordes", join=False)
        await host.add_ai(CHANNEL, ALICE, 5)
        reply = await host.start(CHANNEL, ALICE)
        assert reply.status == "finished"
        ok, lines = await verify_session(host.storage, reply.session_id)
        assert ok, lines


async def test_pass_that_means_done_says_so_to_its_player():
    """Barbarian Hordes' Event and Conquest Phases end with done; `pass` typed there is read as
    done, and the reply tells its player: "'pass' here means done: you end your Event Phase"."""
    async with host_on(seed=3) as host:
        await host.create(GUILD, CHANNEL, ALICE, "barbarian-hordes")
        await host.add_ai(CHANNEL, ALICE, 1)
        reply = await host.start(CHANNEL, ALICE)
        for _ in range(60):
            prompt = next(p for p in reply.prompts if p.user_id == ALICE)
            if prompt.text.startswith("Event Phase:"):
                break
            reply = await host.act(CHANNEL, ALICE, "pass" if prompt.kind == "respond" else prompt.choices[0])
        else:
            raise AssertionError("Alice's Event Phase never came")
        reply = await host.act(CHANNEL, ALICE, "pass")
        mine = "\n".join(p.text for p in reply.private_for(ALICE))
        assert "'pass' here means done: you end your Event Phase." in mine
        assert "here means done" not in reply.text  # for its player alone
        log = (await host.log(CHANNEL, ALICE, per_page=100)).log
        assert log[-1].notation == "done" or any(e.notation == "done" for e in log)
