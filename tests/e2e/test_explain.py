"""/game explain: a named thing's full text, privately, autocompleted from the channel's game."""

from __future__ import annotations

import pytest

from tests.fakediscord import message_text

from .conftest import World
from .test_restart_faults import open_game

pytestmark = pytest.mark.timeout(120)


async def test_game_explain_answers_privately_from_the_channels_game(world: World) -> None:
    """In a Barbarian Hordes channel, the name option suggests the game's names; `/game explain
    huns` answers only the asker with the nation's ability from nations.toml; an unknown name
    gets the nearest names; `game:` explains another game's card; every answer fits Discord."""
    async with world.run_bot() as bot:
        await open_game(world, bot)
        bob = world.bob
        ac = await world.done(
            await world.fake.autocomplete(bob, world.channel, "game explain", focused="name", name="hu")
        )
        assert [c["value"] for c in ac.choices] == ["Huns"]
        ac = await world.done(
            await world.fake.autocomplete(bob, world.channel, "game explain", focused="name", name="")
        )
        assert len(ac.choices) == 25 and all(len(c["name"]) <= 100 for c in ac.choices)

        r = await world.slash(bob, world.channel, "game explain", name="huns")
        assert r.ephemeral and all(m.audience == frozenset({bob.id}) for m in r.messages())
        text = message_text(r.messages()[0])
        assert "Huns (nation): Tier 1 nation. Horsemen: an extra Conquest Phase each turn." in text

        r = await world.slash(bob, world.channel, "game explain", name="hnus")
        assert "Nothing called 'hnus' in this game. Nearest: Huns" in message_text(r.messages()[0])

        r = await world.slash(bob, world.channel, "game explain", name="plague", game="promised-land")
        text = message_text(r.messages()[0])
        assert r.ephemeral and "Plague (Artefact)" in text and "Cost: 3 coins" in text

        r = await world.slash(bob, world.channel, "game explain", name="o", game="credo")
        assert r.ephemeral and all(len(message_text(m)) <= 2000 for m in r.messages())
    assert not world.fake.rejected


async def test_game_explain_and_rules_take_at_most_100_characters(world: World) -> None:
    """Discord itself refuses a 101-character `name:` or `topic:` (the options' max_length), so
    no over-long name reaches the matcher; 100 characters still get the unknown-name answer, shortened."""
    async with world.run_bot() as bot:
        await open_game(world, bot)
        bob = world.bob
        for command, option in (("game explain", "name"), ("game rules", "topic")):
            with pytest.raises(AssertionError, match="101 characters"):
                await world.slash(bob, world.channel, command, **{option: "x" * 101})
        r = await world.slash(bob, world.channel, "game explain", name="zq" * 50)
        text = message_text(r.messages()[0])
        assert r.ephemeral and text.startswith("Nothing called 'zqzq") and "…" in text and len(text) < 500
    assert not world.fake.rejected
