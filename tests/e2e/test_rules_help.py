"""The help that goes with a decision: "What do these do?" and "Rules for this step" buttons on
a player's prompt, and `/game rules topic:` quoting the rule text, all private and within
Discord's limits."""

from __future__ import annotations

import pytest

from tests.fakediscord import message_text

from .conftest import World
from .test_restart_faults import open_game, waiting_user

pytestmark = pytest.mark.timeout(180)


def prompt_with(fake, user, custom_id: str):
    """The newest message only ``user`` sees that carries ``custom_id``."""
    for m in sorted(fake.visible_to(user), key=lambda m: m.id, reverse=True):
        if m.audience is not None and custom_id in m.custom_ids():
            return m
    return None


async def test_the_prompt_explains_its_options_and_quotes_the_rules_for_its_step(world: World) -> None:
    """At the nation pick (Barbarian Hordes), the asked player's private prompt carries "What
    do these do?" and "Rules for this step". The first answers only the clicker with the text of
    each nation still offered (nations.toml) and of nothing else; the second quotes the rule
    text's section The Nations and the ruling on it (R14). A player not asked is told so."""
    fake = world.fake
    async with world.run_bot() as bot:
        rec = await open_game(world, bot)
        user = waiting_user(world, rec)
        msg = prompt_with(fake, user, f"tabula:x:{rec.id}")
        assert msg is not None, "the prompt offers What do these do?"
        assert f"tabula:r:{rec.id}" in msg.custom_ids()
        offered = [
            c["label"]
            for row in msg.components
            for c in row.get("components", [])
            if str(c.get("custom_id", "")).startswith((f"tabula:c:{rec.id}:", f"tabula:p:{rec.id}:"))
        ]
        offered = [o.removeprefix("pick ") for o in offered]  # a button may name the nation alone
        assert offered and "Huns" in offered

        r = await world.click(user, msg, f"tabula:x:{rec.id}")
        assert r.ephemeral and all(m.audience == frozenset({user.id}) for m in r.messages())
        text = "\n".join(message_text(m) for m in r.messages())
        assert "You are asked: Pick your nation." in text
        for o in offered:
            assert f"{o} (nation): Tier" in text
        assert "(card)" not in text, "only what the options name is explained"

        r = await world.click(user, msg, f"tabula:r:{rec.id}")
        assert r.ephemeral and all(m.audience == frozenset({user.id}) for m in r.messages())
        text = "\n".join(message_text(m) for m in r.messages())
        assert "**The Nations** (rule text)" in text
        assert "> Each Player picks one nation, starting with the Primary nations" in text
        assert "R14 (Picking nations)" in text
        assert all(len(message_text(m)) <= 2000 for m in r.messages())

        rec = await bot.host.storage.get_session(rec.id)
        others = [s.user_id for s in rec.seats if s.user_id is not None and s.seat not in rec.to_act]
        if others:  # an aid answers for the clicker's own question, never for someone else's
            idle = await bot.host.aid(world.channel.id, others[0], "explain", session_id=rec.id)
            assert idle.text == "Nothing is asked of you right now."
    assert not fake.rejected


async def test_game_rules_topic_quotes_the_text_autocompletes_and_fits(world: World) -> None:
    """`/game rules topic:` suggests sections, rulings and names; `conquest` quotes the
    Conquest Phase with R1 and R5; `R5` gives the ruling; a long answer (Credo's Tables) is cut
    into messages of at most 2000 characters with a pointer to the rest."""
    fake = world.fake
    async with world.run_bot() as bot:
        await open_game(world, bot)
        bob = world.bob
        ac = await world.done(
            await fake.autocomplete(bob, world.channel, "game rules", focused="topic", topic="conq")
        )
        assert [c["value"] for c in ac.choices] == ["Conquest Phase", "Conquest"]  # a section, a card
        ac = await world.done(await fake.autocomplete(bob, world.channel, "game rules", focused="topic", topic="r1"))
        assert ac.choices and ac.choices[0]["value"].startswith("R1 Left and right")
        ac = await world.done(await fake.autocomplete(bob, world.channel, "game rules", focused="topic", topic=""))
        assert len(ac.choices) == 25 and all(len(c["value"]) <= 100 for c in ac.choices)

        r = await world.slash(bob, world.channel, "game rules", topic="conquest")
        assert r.ephemeral and all(m.audience == frozenset({bob.id}) for m in r.messages())
        text = message_text(r.messages()[0])
        assert "> You may attack the player to your immediate left or right." in text
        assert "R1 (Left and right)" in text and "R5 (How a war is fought)" in text
        assert "Also by that name:\nConquest (card)" in text

        r = await world.slash(bob, world.channel, "game rules", topic="R5")
        assert "**R5. How a war is fought** (ruling)" in message_text(r.messages()[0])

        r = await world.slash(bob, world.channel, "game rules", topic="tables", game="credo")
        pages = [message_text(m) for m in r.messages()]
        assert r.ephemeral and 1 <= len(pages) <= 3 and all(len(p) <= 2000 for p in pages)

        r = await world.slash(bob, world.channel, "game rules")
        assert "Barbarian Hordes" in message_text(r.messages()[0])
    assert not fake.rejected


def _within_limits(messages) -> bool:
    """Discord's limits: a message's content at most 2000 characters, an embed's description 4096."""
    return all(len(m.content) <= 2000 and all(len(e.get("description", "")) <= 4096 for e in m.embeds)
               for m in messages)


async def test_credos_set_up_step_quotes_its_sentences_in_one_message(world: World) -> None:
    """Credo's set-up asks every Church to place its Articles; "Rules for this step" quotes Set
    Up's placement rules (b. "He must place as many Articles as possible on his Church mat."),
    not the whole section (no dealing of Church cards), in one message; "What do these do?"
    gives the Article cards offered; both private and within Discord's limits."""
    fake = world.fake
    async with world.run_bot() as bot:
        await bot.sync_commands(world.guild.id)
        fake.deny(world.channel, "create_public_threads")
        await world.slash(world.alice, world.channel, "game new", game="credo")
        for u in (world.bob, world.carol):
            await world.slash(u, world.channel, "game join")
        await world.slash(world.alice, world.channel, "game start")
        rec = await bot.host.storage.open_session(world.channel.id)
        user = waiting_user(world, rec)
        msg = prompt_with(fake, user, f"tabula:r:{rec.id}")
        assert msg is not None, "the set-up prompt offers Rules for this step"

        r = await world.click(user, msg, f"tabula:r:{rec.id}")
        assert r.ephemeral and len(r.messages()) == 1 and _within_limits(r.messages())
        text = message_text(r.messages()[0])
        assert "You are asked: Place your Articles on your Church mat, then say done." in text
        assert "> b. He must place as many Articles as possible on his Church mat." in text
        assert "Deal all the Church cards" not in text

        assert f"tabula:x:{rec.id}" in msg.custom_ids(), "the options name Article cards"
        r = await world.click(user, msg, f"tabula:x:{rec.id}")
        assert r.ephemeral and _within_limits(r.messages())
        assert "(Article card): a vote for the" in "\n".join(message_text(m) for m in r.messages())

        r = await world.slash(user, world.channel, "game rules", topic="D1.cz", game="roman-war")
        assert r.ephemeral and _within_limits(r.messages())
        assert "D n.cz (glossary): Draw n cards straight to your Cost Zone, face down." in message_text(r.messages()[0])
    assert not fake.rejected
