"""An intent is judged against the state its sender saw (design, trust invariant 4).

Barbarian Hordes with three humans and an AI through the emulator: a typed action sent while
its player was not asked is refused even when the player is asked by the time it is handled,
and simultaneous clicks in a secret phase (war commitments) are all taken, since a click is
outdated only when the clicker's own question changed.
"""

from __future__ import annotations

import asyncio

import pytest

from .conftest import World
from .test_game import pending_choice
from .test_restart_faults import open_game

pytestmark = pytest.mark.timeout(180)


def humans(world: World) -> dict[int, object]:
    return {u.id: u for u in (world.alice, world.bob, world.carol)}


async def first_choice(world: World, user) -> str:
    ac = await world.done(
        await world.fake.autocomplete(user, world.channel, "play", focused="action", action="")
    )
    return ac.choices[0]["value"]


async def test_typed_action_sent_out_of_turn_is_refused_even_if_asked_by_then(world: World) -> None:
    """Issue 15 item 1: the last player picks a nation while the two others type ``pass`` in
    the same instant. Neither was asked when they sent it, so both are refused as not their
    turn; before, the ``pass`` of whoever the game asked next was applied to a turn (the
    Event Phase's ``done``) they never saw."""
    fake = world.fake
    people = humans(world)
    async with world.run_bot() as bot:
        rec = await open_game(world, bot)
        # the first pickers pick; stop when the last human is asked to pick
        while True:
            rec = await bot.host.storage.get_session(rec.id)
            asked = [s.user_id for s in rec.seats if s.seat in rec.to_act and s.user_id in people]
            picks = [a for a in await bot.host.storage.actions(rec.id) if a.notation.startswith("pick ")]
            assert len(asked) == 1
            last = people[asked[0]]
            if len([a for a in picks if a.user_id in people]) == 2:
                break
            await world.slash(last, world.channel, "play", action=await first_choice(world, last))
        others = [u for uid, u in people.items() if uid != last.id]
        pick = await first_choice(world, last)
        assert pick.startswith("pick ")
        before = rec.seq
        # the three interactions leave Discord in the same instant
        sent = [await fake.slash(last, world.channel, "play", action=pick)]
        sent += [await fake.slash(u, world.channel, "play", action="pass") for u in others]
        await asyncio.gather(*(world.done(r) for r in sent))
        after = await bot.host.storage.get_session(rec.id)
        rows = await bot.host.storage.actions(rec.id, after=before)
        assert rows[0].user_id == last.id and rows[0].notation == pick
        assert [r for r in rows if r.user_id in {u.id for u in others}] == [], [r.notation for r in rows]
        for r in sent[1:]:
            assert r.ephemeral and "not your turn" in r.text().lower(), r.text()
        # whoever the game asks now is still asked, and told so in the refusal
        now_asked = [s.user_id for s in after.seats if s.seat in after.to_act and s.user_id in people]
        for uid in now_asked:
            r = next((r for u, r in zip(others, sent[1:], strict=True) if u.id == uid), None)
            if r is not None:
                assert "asked" in r.text().lower(), r.text()
    assert fake.rejected == []


def policy(choices: list[str]) -> str:
    """Head for a war: attack when possible, else end the phase or pass."""
    for word in ("attack ", "done", "pass"):
        for c in choices:
            if c.startswith(word) or c == word:
                return c
    return choices[0]


async def test_simultaneous_clicks_in_a_secret_phase_are_all_taken(world: World) -> None:
    """Issue 15 item 2: war commitments (prompt kind ``secret``), three humans clicking at the
    same instant: every click is applied, none is refused as "the game has moved on"."""
    fake = world.fake
    people = humans(world)
    async with world.run_bot() as bot:
        rec = await open_game(world, bot)
        for _ in range(300):
            rec = await bot.host.storage.get_session(rec.id)
            assert rec.status == "active"
            state = await bot.host.view(world.channel.id)
            secret = [p for p in state.prompts if p.kind == "secret" and p.user_id in people and p.choices]
            if len(secret) >= 2:
                break
            p = next(p for p in state.prompts if p.user_id in people)
            user = people[p.user_id]
            choices = list(p.choices) or [await first_choice(world, user)]
            await world.slash(user, world.channel, "play", action=policy(choices))
        else:
            pytest.fail("no war with two human commitments came up")
        clicks = []
        for p in secret:
            user = people[p.user_id]
            found = pending_choice(fake, user, rec.id, rec.seq)
            assert found is not None, f"no buttons for {user.username}"
            msg, ids = found
            clicks.append((user, msg, ids[0]))
        before = rec.seq
        sent = []
        for user, msg, cid in clicks:  # dispatched back to back, answered later
            comp = msg.find_component(cid)
            assert comp is not None
            if comp["type"] == 3:
                sent.append(await fake.select(user, msg, cid, [comp["options"][0]["value"]]))
            else:
                sent.append(await fake.click(user, msg, cid))
        await asyncio.gather(*(world.done(r) for r in sent))
        for r in sent:
            assert r.callback_type in (6, 7), r.text()  # its own prompt edited (6: once the rules took it)
            assert "moved on" not in r.text()
        rows = await bot.host.storage.actions(rec.id, after=before)
        acted = {r.user_id for r in rows if r.user_id is not None}
        assert {user.id for user, _, _ in clicks} <= acted
    assert fake.rejected == []
