"""A whole game of Barbarian Hordes through slash commands and buttons, as players would play it."""

from __future__ import annotations

import io
import os
import random
from pathlib import Path

import pytest
from PIL import Image

from tests.fakediscord import User, message_text

from .clicking import click_through, pending_choice, pending_step
from .conftest import World

__all__ = ["pending_choice", "play_one"]

pytestmark = pytest.mark.timeout(240)


async def play_one(
    world: World, user: User, thread, session_id: int, seq: int, rng: random.Random, step: int
):
    fake = world.fake
    message = pending_step(fake, user, session_id, seq)
    if message is not None and step % 3 != 0:
        rec, _ = await click_through(world, user, message, session_id, rng)
        return rec
    ac = await world.done(await fake.autocomplete(user, thread, "play", focused="action", action=""))
    choices = [c["value"] for c in ac.choices]
    assert choices, "autocomplete offers nothing to the player who must act"
    return await world.slash(user, thread, "play", action=rng.choice(choices))


async def test_full_game_three_humans_and_an_ai(world: World) -> None:
    fake, alice, bob, carol, dave = world.fake, world.alice, world.bob, world.carol, world.dave
    async with world.run_bot() as bot:
        await bot.sync_commands(world.guild.id)
        opened = await world.slash(
            alice, world.channel, "game new", game="barbarian-hordes", options="round_limit=2"
        )
        threads = [c for c in fake.channels.values() if c.is_thread]
        assert len(threads) == 1, "the game gets its own thread"
        thread = threads[0]
        assert f"<#{thread.id}>" in opened.text()

        # lobby
        for u in (bob, carol):
            r = await world.slash(u, thread, "game join")
            assert not r.ephemeral and "joined" in r.text()
        r = await world.slash(bob, thread, "game start")
        assert r.ephemeral, "only the creator may start"
        await world.slash(alice, thread, "game ai", count=1)
        started = await world.slash(alice, thread, "game start")
        assert "begins" in started.text()

        # illegal moves and non-players get private errors
        r = await world.slash(dave, thread, "play", action="pick Goths")
        assert r.ephemeral and "seat" in r.text().lower()
        r = await world.slash(alice, thread, "play", action="fly to the moon")
        assert r.ephemeral
        r = await world.slash(dave, thread, "game hand")
        assert r.ephemeral

        session = await bot.host.storage.open_session(thread.id)
        assert session is not None
        sid = session.id
        humans = {u.id: u for u in (alice, bob, carol)}
        rng = random.Random(4)
        steps = 0
        hand_checked = False
        while True:
            rec = await bot.host.storage.get_session(sid)
            if rec.status != "active":
                break
            waiting = [s.user_id for s in rec.seats if s.seat in rec.to_act and s.user_id is not None]
            assert waiting, "an AI seat is waiting while no human is asked"
            user = humans[waiting[0]]
            if not hand_checked:
                # a player looks at their hand through the public button
                public = [m for m in fake.channel_messages(thread) if m.audience is None and m.custom_ids()]
                r = await world.click(user, public[-1], f"tabula:h:{sid}")
                assert r.ephemeral and r.original is not None and r.original.audience == frozenset({user.id})
                other = next(u for u in humans.values() if u is not user)
                r = await world.slash(other, thread, "play", action="pass")
                assert r.ephemeral, "acting out of turn is refused privately"
                hand_checked = True
            r = await play_one(world, user, thread, sid, rec.seq, rng, steps)
            assert not (r.ephemeral and r.callback_type == 4 and "went wrong" in r.text()), r.text()
            steps += 1
            assert steps < 1500, "the game does not end"

        rec = await bot.host.storage.get_session(sid)
        assert rec.status == "finished"
        assert steps >= 10
        kinds = [i.type for i in fake.interactions.values()]
        assert kinds.count(3) >= 5 and kinds.count(4) >= 5, "buttons and autocomplete were both used"
        assert any(m.audience is not None and m.channel_id != thread.id for m in fake.messages.values()), (
            "DMs"
        )
        public_texts = [message_text(m) for m in fake.channel_messages(thread) if m.audience is None]
        assert any("Game over" in t for t in public_texts), "the winner is announced in the thread"

        # a player is pinged when asked something new, not again while others play
        asked_before: dict[int, str] = {}
        for m in fake.channel_messages(thread):
            if m.audience is not None or "**Now**" not in m.content:
                continue
            now_part = m.content.split("**Now**", 1)[1]
            asked = {}
            for line in now_part.split("\n"):
                for uid in humans:
                    if f"<@{uid}>" in line:
                        asked[uid] = line.split(" (closes", 1)[0].lstrip("- ")
            for uid in m.mentioned_user_ids():
                assert asked_before.get(uid) != asked.get(uid), ("pinged twice", uid, asked.get(uid))
            asked_before = asked

        # every image is a decodable PNG
        files = fake.file_bytes()
        assert any(f.filename == "board.png" for _, f in files)
        for _, f in files:
            if f.filename.endswith(".html"):
                continue  # the replay page posted at the end (tests/e2e/test_standings.py)
            assert f.data[:8] == b"\x89PNG\r\n\x1a\n"
            Image.open(io.BytesIO(f.data)).verify()

        # hands and private events reach only their player
        for m, f in files:
            if f.filename == "hand.png":
                assert m.audience is not None and len(m.audience) == 1
        seat_user = {s.seat: s.user_id for s in rec.seats}
        private_texts: list[tuple[str, set[int]]] = []
        for row in await bot.host.storage.actions(sid):
            for e in row.events:
                if e.visible_to is not None:
                    allowed = {seat_user[s] for s in e.visible_to if seat_user.get(s) is not None}
                    private_texts.append((e.text, allowed))
        assert private_texts, "the game has private events (cards drawn)"
        for text, allowed in private_texts:
            for m in fake.messages.values():
                if text and text in message_text(m):
                    assert m.audience is not None and m.audience <= allowed, (text, m.audience, allowed)

        # buttons of a past decision are refused clearly
        old = [m for m in fake.messages.values() if any(c.startswith("tabula:c:") for c in m.custom_ids())]
        if old:
            m = old[0]
            user = fake.users[next(iter(m.audience))] if m.audience else alice
            cid = next(c for c in m.custom_ids() if c.startswith("tabula:c:"))
            r = await world.click(user, m, cid)
            assert r.ephemeral

    if os.environ.get("TABULA_TRANSCRIPT"):  # read what players saw: TABULA_TRANSCRIPT=game.txt
        Path(os.environ["TABULA_TRANSCRIPT"]).write_text(fake.transcript(), encoding="utf-8")
    assert fake.rejected == [], [(r.method, r.path, r.error_code) for r in fake.rejected]
