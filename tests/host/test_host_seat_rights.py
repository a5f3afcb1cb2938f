"""Who may hand a seat to someone else (issue 14, failing input 5): whoever takes a seat reads
its hand and private log lines, so a seat a human holds changes hands only by that human or
a moderator; the game's creator may fill AI seats."""

from __future__ import annotations

import pytest

from bot.host import PermissionDeniedError
from tests.host_helpers import ALICE, BOB, CAROL, CHANNEL, DAVE, GUILD, host_on

pytestmark = pytest.mark.usefixtures("backend")


async def credo_for_three(host) -> None:
    await host.create(GUILD, CHANNEL, ALICE, "credo")
    for user in (BOB, CAROL):
        await host.join(CHANNEL, user)
    await host.start(CHANNEL, ALICE)


async def test_the_creator_cannot_take_over_another_players_seat_to_read_their_hand():
    """Credo: the creator's `/game replace` of seat 2 to an alternate account (then `/game
    hand`) is refused and changes nothing; so is a kick of that player to an AI (which the
    creator could then fill)."""
    async with host_on(seed=4) as host:
        await credo_for_three(host)
        before = await host.storage.open_session(CHANNEL)
        with pytest.raises(PermissionDeniedError, match="only that player or a moderator"):
            await host.replace(CHANNEL, ALICE, 1, DAVE)
        with pytest.raises(PermissionDeniedError, match="only that player or a moderator"):
            await host.replace(CHANNEL, ALICE, 1, None)
        after = await host.storage.open_session(CHANNEL)
        assert after.seats == before.seats and after.version == before.version
        with pytest.raises(Exception, match="no seat"):
            await host.hand(CHANNEL, DAVE)


async def test_a_moderator_or_the_holder_may_reassign_a_human_seat_and_the_creator_may_fill_an_ai_seat():
    async with host_on(seed=4) as host:
        await credo_for_three(host)
        await host.replace(CHANNEL, ALICE, 1, DAVE, is_moderator=True)  # a moderator
        rec = await host.storage.open_session(CHANNEL)
        assert rec.seats[1].user_id == DAVE
        await host.replace(CHANNEL, DAVE, 1, BOB)  # the holder hands it on
        rec = await host.storage.open_session(CHANNEL)
        assert rec.seats[1].user_id == BOB
        await host.leave(CHANNEL, CAROL)  # an AI plays seat 3 now
        with pytest.raises(PermissionDeniedError, match="creator"):
            await host.replace(CHANNEL, BOB, 2, DAVE)  # filling an AI seat: creator or moderator
        await host.replace(CHANNEL, ALICE, 2, DAVE)  # the creator fills the AI seat
        rec = await host.storage.open_session(CHANNEL)
        assert rec.seats[2].user_id == DAVE and rec.seats[2].ai is None


async def test_the_creator_cannot_reassign_a_lobby_seat_either():
    async with host_on() as host:
        await host.create(GUILD, CHANNEL, ALICE, "credo")
        await host.join(CHANNEL, BOB)
        with pytest.raises(PermissionDeniedError):
            await host.replace(CHANNEL, ALICE, 1, DAVE)
        assert (await host.storage.open_session(CHANNEL)).seats[1].user_id == BOB
