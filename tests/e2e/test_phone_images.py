"""Images for phones through the Discord emulator (issue 23, "Images when they help"): a tall
board's update carries, beside the full board, a crop of the map where it changed, shown in
the message's embed and posted in the game's channel only; a seat's private messages carry
its hand alone in large text (``render.phone``), never the whole board, and only to that seat.
"""

from __future__ import annotations

import io

import pytest
from PIL import Image

from games.core import get_game
from games.core.agents import make_agent
from render import phone
from storage.replay import load_state

from .conftest import World

pytestmark = pytest.mark.timeout(240)


async def play(world: World, game_id: str, decisions: int) -> tuple[object, int]:
    """A two-player game of ``game_id`` (Alice and Bob) played by typed moves, the heuristic
    agent choosing, for ``decisions`` decisions or to its end; (the game's thread, session id)."""
    fake, users = world.fake, [world.alice, world.bob]
    game = get_game(game_id)
    bot = world.bot
    assert bot is not None
    await bot.sync_commands(world.guild.id)
    await world.slash(users[0], world.channel, "game new", game=game_id)
    thread = next(c for c in fake.channels.values() if c.is_thread)
    await world.slash(users[1], thread, "game join")
    started = await world.slash(users[0], thread, "game start")
    assert "begins" in started.text(), started.text()
    sid = (await bot.host.storage.open_session(thread.id)).id
    by_id = {u.id: u for u in users}
    agents: dict[int, object] = {}
    for _ in range(decisions):
        rec = await bot.host.storage.get_session(sid)
        if rec.status != "active":
            break
        state = await load_state(bot.host.storage, game, rec)
        seat = next(s for s in rec.seats if s.seat in rec.to_act and s.user_id is not None)
        agent = agents.setdefault(seat.seat, make_agent(game, "heuristic", seat.seat))
        notation = game.format_action(state, agent.choose(game, state, seat.seat))  # type: ignore[attr-defined]
        await world.slash(by_id[seat.user_id], thread, "play", action=notation)
    return thread, sid


async def test_tall_board_updates_carry_the_changed_part_in_the_channel_only(world: World) -> None:
    """Promised Land (1600 x 1528): updates whose map changed carry ``changed.png``, a
    ``render.phone.CROP``-pixel square of the map, shown as the embed's image, in the game's
    thread; no private message carries one."""
    async with world.run_bot():
        thread, _ = await play(world, "promised-land", 40)
    fake = world.fake
    crops = [(m, f) for m, f in fake.file_bytes() if f.filename == "changed.png"]
    assert crops, "no update carried the changed part of the map"
    for m, f in crops:
        assert m.audience is None and m.channel_id == thread.id, "a crop is public, in the game's thread"
        assert any(f2.filename == "board.png" for f2 in m.files), "the full board goes with it"
        img = Image.open(io.BytesIO(f.data))
        assert img.size == (phone.CROP, phone.CROP)
        images = [(e.get("image") or {}).get("url") for e in m.embeds]
        assert "attachment://changed.png" in images, "the crop is the embed's image"


async def test_private_hand_images_are_the_cards_alone_and_reach_their_seat_only(world: World) -> None:
    """Barbarian Hordes (a board of 1600 pixels with the hand as a strip under it): each private
    ``hand.png`` is ``render.phone.HAND_WIDTH`` wide, goes to one player, and is the hand image
    of that player's own View (the same pixels as drawn from their seat's View now or earlier)."""
    async with world.run_bot() as bot:
        _, sid = await play(world, "barbarian-hordes", 25)
        rec = await bot.host.storage.get_session(sid)
        game = get_game("barbarian-hordes")
        state = await load_state(bot.host.storage, game, rec)
        seat_of = {s.user_id: s.seat for s in rec.seats}
    fake = world.fake
    hands = [(m, f) for m, f in fake.file_bytes() if f.filename == "hand.png"]
    assert hands, "no private message carried a hand image"
    for m, f in hands:
        assert m.audience is not None and len(m.audience) == 1, "a hand image goes to one player"
        img = Image.open(io.BytesIO(f.data))
        assert img.width == phone.HAND_WIDTH, "the hand alone, not the whole board"
    # the last hand image each player received is their own hand, never the other's
    for uid, seat in seat_of.items():
        own = [f for m, f in hands if m.audience == frozenset({uid})]
        assert own, f"player {uid} got no hand image"
        other = next(s for s in seat_of.values() if s != seat)
        theirs = phone.hand_png(game.view(state, other))
        assert all(f.data != theirs for f in own), "a player received another seat's hand"
