"""The host's side of deciding by clicks: each prompt's first step, following a click, a
click judged against the question its player saw, and a repeated placement with a count."""

from __future__ import annotations

import pytest

from bot.host import OutdatedActionError
from games.core import IllegalActionError
from tests.host_helpers import CHANNEL, GUILD, host_on

ALICE, BOB = 101, 102


async def soul_of_the_empire(host):
    await host.create(GUILD, CHANNEL, ALICE, "soul-of-the-empire", {})
    await host.join(CHANNEL, BOB)
    return await host.start(CHANNEL, ALICE)


def asked(reply, user: int):
    return next(p for p in reply.prompts if p.user_id == user)


async def until_final_units(host, reply):
    """Answer the set-up markers with the first option until Rome places its final units."""
    for _ in range(10):
        p = next(p for p in reply.prompts if p.user_id is not None)
        if "final units" in p.text:
            return reply, p
        reply = await host.act(CHANNEL, p.user_id, p.step.options[0].action, prompt=p.token)
    raise AssertionError("Rome never places its final units")


async def test_every_human_prompt_has_a_first_step_and_a_click_is_followed() -> None:
    async with host_on() as host:
        reply = await soul_of_the_empire(host)
        for p in reply.prompts:
            assert p.step is not None and p.step.options, "a human is shown the first step"
        reply, p = await until_final_units(host, reply)
        first = p.step.options[1]
        assert first.action is None and first.label.endswith("…")
        result = await host.choice(reply.session_id, p.user_id, p.token, (1,))
        assert result.action is None and result.step is not None and result.step.back
        labels = [o.label for o in result.step.options]
        assert result.step.options[0].action == f"{result.step.chosen}", "the placement once"
        assert first.label.removesuffix(" …") in result.step.chosen
        assert labels[1] == "×2", "the same placement again, with a count"
        leaf = await host.choice(reply.session_id, p.user_id, p.token, (1, 0))
        assert leaf.step is None and leaf.action == result.step.options[0].action


async def test_a_click_on_an_earlier_question_is_refused_and_changes_nothing() -> None:
    async with host_on() as host:
        reply = await soul_of_the_empire(host)
        p = next(p for p in reply.prompts if p.user_id is not None)
        await host.act(CHANNEL, p.user_id, p.step.options[0].action, prompt=p.token)
        before = await host.storage.get_session(reply.session_id)
        with pytest.raises(OutdatedActionError):
            await host.choice(reply.session_id, p.user_id, p.token, (0,))
        with pytest.raises(OutdatedActionError):
            await host.choice(reply.session_id, p.user_id, before and p.token, (99,))
        assert (await host.storage.get_session(reply.session_id)).seq == before.seq


async def test_a_path_not_among_the_choices_is_refused() -> None:
    async with host_on() as host:
        reply = await soul_of_the_empire(host)
        p = next(p for p in reply.prompts if p.user_id is not None)
        with pytest.raises(OutdatedActionError) as e:
            await host.choice(reply.session_id, p.user_id, p.token, (len(p.step.options) + 3,))
        assert "not offered" in e.value.message and p.text in e.value.message


async def test_rome_places_its_final_units_several_at_a_time() -> None:
    """Soul of the Empire set-up: Rome places 8 units one by one; the same placement made
    three times is one choice with a count, one update."""
    async with host_on() as host:
        reply = await soul_of_the_empire(host)
        reply, p = await until_final_units(host, reply)
        tree = await host.choice_tree(reply.session_id, p.seat)
        assert tree is not None
        grouped = next(a for a in tree.actions if a.endswith(" ×3"))
        base = grouped.rsplit(" ×", 1)[0]
        before = await host.storage.get_session(reply.session_id)
        after = await host.act(CHANNEL, p.user_id, grouped, prompt=p.token)
        rows = await host.storage.actions(reply.session_id, after=before.seq)
        assert [r.notation for r in rows[:3]] == [base] * 3
        assert "(5 left)" in after.text
        now = next(q for q in after.prompts if q.user_id is not None)
        still = await host.choice_tree(reply.session_id, now.seat)
        too_many = f"{still.actions[0]} ×12"
        with pytest.raises(IllegalActionError) as e:
            await host.act(CHANNEL, now.user_id, too_many, prompt=now.token)
        assert "nothing was applied" in e.value.message
