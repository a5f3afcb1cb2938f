"""Autocomplete suggestions mean exactly the action they name, whatever its length
(Discord caps a choice's name and value at 100 characters; issue 15 item 6).

Property over all five games: in states reached by random playouts, every legal action of
every seat asked is suggested with a name and a value of at most 100 characters, and the
value resolves to that very action (``bot.host.suggest.resolve``, else the game's notation)."""

from __future__ import annotations

import itertools
import random
from functools import cache
from typing import Any

import pytest

from bot.host.suggest import LIMIT, resolve, suggestion, tag_of
from games.core import IllegalActionError, apply_at, get_game, start
from games.core.agents import make_agent
from games.core.registry import all_games
from tests.host_helpers import ALICE, CHANNEL, GUILD, host_on

GAMES = sorted(g.id for g in all_games() if type(g).__module__.startswith("games."))  # not the tests' toy games
STEPS = 160  # actions per playout
EVERY = 7  # look at one state in so many
PER_SEAT = 400  # legal actions checked per seat and state (large spaces are long)


@cache
def states(game_id: str) -> list[tuple[Any, int]]:
    """(state, seat asked) pairs met in two random playouts of ``game_id``."""
    game = get_game(game_id)
    out = []
    for seed in (1, 2):
        n = min(game.max_players, max(game.min_players, 3 + seed))
        s = start(game, list(range(n)), game.Options(), seed).state
        agents = [make_agent(game, "random", seed * 100 + x) for x in range(n)]
        pick = random.Random(seed)
        for step in range(1, STEPS + 1):
            if game.outcome(s) is not None:
                break
            asked = sorted(game.to_act(s))
            if step % EVERY == 0:
                out.extend((s, seat) for seat in asked)
            seat = pick.choice(asked)
            s = apply_at(game, s, seat, agents[seat].choose(game, s, seat), seed, step).state
    return out


@pytest.mark.parametrize("game_id", GAMES)
def test_every_suggestion_value_resolves_to_the_action_it_names(game_id: str) -> None:
    game = get_game(game_id)
    checked = 0
    for s, seat in states(game_id):
        for action in itertools.islice(game.legal_actions(s, seat), PER_SEAT):
            notation = game.format_action(s, action)
            name, value = suggestion(notation)
            assert 1 <= len(name) <= LIMIT and 1 <= len(value) <= LIMIT, notation
            found = resolve(game, s, seat, value)
            if found is None:
                found = game.parse_action(s, seat, value)
            assert found == action, (notation, value, found)
            checked += 1
    assert checked > 50


def test_a_long_notation_gets_a_tagged_value_and_a_name_with_its_end() -> None:
    """The issue's 101-character Credo action: both halves are kept where Discord shows them."""
    text = ("play Church Father with Bishop of Serdica to refute Article 10 populist (lose 1 Follower) "
            "of Church 2")
    assert len(text) == 101
    name, value = suggestion(text)
    assert len(name) <= 100 and len(value) <= 100
    assert name.endswith("of Church 2") and name.startswith("play Church Father with Bishop of Serdica")
    assert value.endswith(f"… #{tag_of(text)}")
    assert suggestion("pass") == ("pass", "pass")


def long_credo_state() -> tuple[Any, int, Any, str]:
    """The first state of a random Credo playout where a seat may take an action whose notation
    is longer than 100 characters: (state, seat, action, notation)."""
    game = get_game("credo")
    for seed in range(1, 20):
        s = start(game, [0, 1, 2, 3], game.Options(), seed).state
        agents = [make_agent(game, "random", seed * 10 + x) for x in range(4)]
        for step in range(1, 400):
            if game.outcome(s) is not None:
                break
            for seat in sorted(game.to_act(s)):
                for a in game.legal_actions(s, seat):
                    n = game.format_action(s, a)
                    if len(n) > LIMIT:
                        return s, seat, a, n
            seat = sorted(game.to_act(s))[0]
            s = apply_at(game, s, seat, agents[seat].choose(game, s, seat), seed, step).state
    raise AssertionError("no Credo action longer than 100 characters met")


def test_a_cut_credo_suggestion_resolves_to_its_action_and_not_to_a_sibling() -> None:
    game = get_game("credo")
    s, seat, action, notation = long_credo_state()
    _, value = suggestion(notation)
    assert resolve(game, s, seat, value) == action
    # cut at 100 as before, it named several actions or none
    with pytest.raises(Exception):  # noqa: B017 - any refusal of the game
        assert game.parse_action(s, seat, notation[:100]) != action
    # a tag no legal action carries is refused with a message, never guessed
    with pytest.raises(IllegalActionError, match="not legal any more"):
        resolve(game, s, seat, value[:-8] + "00000000")


async def test_the_host_plays_a_tagged_suggestion_as_the_whole_action() -> None:
    """Through the host: the suggestion offered for a long Credo action is played as it
    (one human and three AI seats, random human play from seed 8 on until such an action is
    offered to the human)."""
    async with host_on() as host:
        found: list[str] = []
        for n, seed in enumerate(range(8, 20)):
            channel = CHANNEL + n
            await host.create(GUILD, channel, ALICE, "credo", seed=seed)
            await host.add_ai(channel, ALICE, 3)
            reply = await host.start(channel, ALICE)
            rand = random.Random(seed)
            for _ in range(400):
                if reply.status != "active":
                    break
                legal = await host.complete(channel, ALICE, "", limit=None)
                found = [c for c in legal if len(c) > LIMIT]
                if found or not legal:
                    break
                reply = await host.act(channel, ALICE, rand.choice(legal))
            if found:
                break
        assert found, "no Credo action longer than 100 characters was offered to the human"
        _, value = suggestion(found[0])
        assert await host.complete(channel, ALICE, value) == [found[0]]
        rec = await host.storage.open_session(channel)
        await host.act(channel, ALICE, value)
        row = (await host.storage.actions(rec.id, after=rec.seq, through=rec.seq + 1))[0]
        assert row.notation == found[0]
