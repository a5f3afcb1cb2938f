"""The host's side of notifications: who is pinged, who is told by DM, the game's end, spectators'
follow modes, the "since your last turn" digest, and names instead of seat numbers (issue: play
from a phone, items 2, 6 and 7; "since your last turn")."""

from __future__ import annotations

import re

import pytest

from bot.host import InvalidOptionError, LobbyError
from bot.host.replies import ImageRequest
from bot.host.service import DIGEST_LINES
from games.core import get_game
from games.core.replay import start
from tests.host_helpers import ALICE, BOB, CAROL, CHANNEL, DAVE, GUILD, host_on, new_game, play_moves, turn_of


async def test_a_player_who_chose_dms_is_not_pinged_and_gets_the_prompt_privately():
    async with host_on() as host:
        r = await host.set_prefs(ALICE, notify="dm")
        assert "direct message" in r.text
        r = await new_game(host, (ALICE, BOB))
        asked = {p.user_id for p in r.prompts if p.user_id is not None}
        assert ALICE not in r.mentions
        assert asked - {ALICE} <= set(r.mentions)
        for p in r.private:
            assert p.notify == ("dm" if p.user_id == ALICE else "thread")


async def test_an_unknown_notification_mode_is_refused_and_nothing_changes():
    async with host_on() as host:
        await host.set_prefs(ALICE, notify="dm")
        with pytest.raises(InvalidOptionError, match="thread or dm"):
            await host.set_prefs(ALICE, notify="carrier pigeon")
        assert (await host.storage.get_prefs(ALICE)).notify == "dm"


async def test_every_player_is_told_when_the_game_ends():
    async with host_on() as host:
        await host.set_prefs(BOB, notify="dm")
        r = await new_game(host, (ALICE, BOB, CAROL), options={"target": 12})
        for _ in range(200):
            if r.status != "active":
                break
            user, kind = turn_of(r)
            r = await host.act(CHANNEL, user, "pass" if kind == "respond" else "add")
        assert r.status == "finished"
        assert set(r.mentions) == {ALICE, CAROL}, "pinged in the thread: those who chose pings"
        bob = r.private_for(BOB)
        assert bob and "Game over" in bob[0].text, "told by DM: those who chose DMs"


async def test_follow_modes():
    """Item 6: every move, once per turn, once per round; another mode replaces the first."""
    async with host_on() as host:
        await new_game(host, (ALICE, BOB))
        with pytest.raises(InvalidOptionError, match="move, turn or round"):
            await host.follow(CHANNEL, DAVE, mode="hour")
        r = await host.follow(CHANNEL, DAVE, mode="round")
        assert "every round" in r.text
        with pytest.raises(LobbyError, match="already follow"):
            await host.follow(CHANNEL, DAVE, mode="round")
        await host.follow(CHANNEL, DAVE, mode="turn")
        rec = await host.storage.open_session(CHANNEL)
        assert await host.storage.follower_modes(rec.id) == {DAVE: "turn"}
        r = await play_moves(host, 1)
        assert r.following == ((DAVE, "turn"),) and r.notify == (DAVE,)


async def test_digest_since_your_last_turn():
    """Issue 20 item 4: the prompt of a player asked after others played carries what happened
    since their own last action (public lines and their own private lines), the latest lines
    when there are many, and how many were left out."""
    async with host_on() as host:
        r = await new_game(host, (ALICE, BOB, CAROL), options={"target": 200})
        seen_digest = False
        for _ in range(12):
            user, kind = turn_of(r)
            part = next(p for p in r.private_for(user) if p.prompt is not None)
            rec = await host.storage.open_session(CHANNEL)
            rows = await host.storage.actions(rec.id)
            mine = [row.seq for row in rows if row.user_id == user]
            if mine and mine[-1] != rows[-1].seq:
                others = [row for row in rows if row.seq > mine[-1]]
                assert part.digest, "asked after others played: a digest"
                assert len(part.digest) <= DIGEST_LINES
                assert any(line.endswith(others[-1].notation) for line in part.digest), part.digest
                seen_digest = True
            elif mine:
                assert part.digest == (), "their own action is the latest: nothing to tell"
            r = await host.act(CHANNEL, user, "pass" if kind == "respond" else "add")
        assert seen_digest


async def test_names_not_seat_numbers_in_public_lines():
    """Item 7: a player is named by name in event lines and the "Now" line, not "seat N"."""
    async with host_on() as host:
        r = await new_game(host, (ALICE, BOB))
        r = await play_moves(host, 3, reply=r)
        assert not re.search(r"\b[Ss]eat \d\b", r.text), r.text
        assert "<@" in r.text  # the names (mentions, shown as names by Discord)


async def test_the_now_line_does_not_repeat_the_seat_name():
    """Item 7: "Rome (@alice): Rome — Main Phase" reads "Rome (@alice): Main Phase"."""
    async with host_on() as host:
        await host.create(GUILD, CHANNEL, ALICE, "soul-of-the-empire", {})
        await host.join(CHANNEL, BOB)
        r = await host.start(CHANNEL, ALICE)
        r = await play_moves(host, 6, reply=r)
        now = next(line for line in r.text.splitlines() if line.startswith("Now: "))
        for part in now[5:].split("; "):
            who, _, asked = part.partition(": ")
            label = who.split(" (", 1)[0]
            assert not asked.startswith(label + " "), now
        assert r.embed is not None and r.embed.footer == "", "no version number shown"


def test_board_key_ignores_who_is_asked():
    """Item 5: the public board is compared by its View without who is asked (turn marker,
    waiting seats, prompt, window)."""
    game = get_game("credo")
    view = game.view(start(game, [0, 1, 2], game.Options(), 3).state, None)
    a = ImageRequest("credo", 1, 1, view)
    b = ImageRequest("credo", 1, 2, view.model_copy(update={"active": (view.active + 1) % 3, "waiting": []}))
    c = ImageRequest("credo", 1, 3, view.model_copy(update={"round": view.round + 1}))
    assert a.board_key() == b.board_key()
    assert a.board_key() != c.board_key()


@pytest.mark.parametrize("game_id", ["barbarian-hordes", "credo", "promised-land", "roman-war", "soul-of-the-empire"])
def test_rules_show_the_players_summary_not_developer_text(game_id):
    """Item 7: `/game rules` opens with the game's summary for players, never a docstring."""
    from games.core.glossary import summary

    text = summary(get_game(game_id))
    assert len(text) > 200
    for developer in ("stateless", "games.core", "game object", "docstring"):
        assert developer not in text
