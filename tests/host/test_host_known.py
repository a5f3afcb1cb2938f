"""What a seat is offered (autocomplete, the next step of its choices, where its game is played)
is answered from what this process knows of the session when it holds the state: such answers
change nothing, and the action is judged again when it is played. That the seat is not asked,
or that its click is outdated, is only ever said from a read: another process may have moved
the game on (trust invariant 4)."""

from __future__ import annotations

import pytest

from bot.host import OutdatedActionError
from tests.host.test_host_warm_commit import count_calls
from tests.host_helpers import CHANNEL, host_on, new_game, turn_of

pytestmark = pytest.mark.usefixtures("backend")

READS = ("get_session", "open_session", "session_context", "actions", "sessions_in_channel")


def asked(reply, user: int):
    return next(p for p in reply.prompts if p.user_id == user)


async def test_what_a_seat_is_offered_after_this_process_last_action_reads_nothing():
    async with host_on() as host:
        r = await host.act(CHANNEL, turn_of(await new_game(host))[0], "add")
        user = turn_of(r)[0]
        prompt = asked(r, user)
        assert prompt.step is not None
        calls = count_calls(host.storage, *READS)
        assert await host.complete(CHANNEL, user) == list(prompt.choices)
        assert await host.channel_of(r.session_id) == CHANNEL
        result = await host.choice(r.session_id, user, prompt.token, ())
        assert result.step is not None or result.action is not None
        assert calls == dict.fromkeys(READS, 0)
        # a seat this process does not see asked is told so from a read
        other = next(s.user_id for s in (await host.storage.get_session(r.session_id)).seats if s.user_id != user)
        assert await host.complete(CHANNEL, other) == []
        assert calls["open_session"] == 1


async def test_a_seat_another_process_asked_is_offered_its_choices(tmp_path):
    """The first process's memory is behind the second one's action: the seat now asked is
    offered its actions and the next step of its new question, both from a read."""
    path = str(tmp_path / "shared.db")
    async with host_on(path) as first:
        r = await first.act(CHANNEL, turn_of(await new_game(first))[0], "add")
        mover = turn_of(r)[0]
        async with host_on(path) as second:
            r2 = await second.act(CHANNEL, mover, "add")
        user = turn_of(r2)[0]
        assert user != mover
        prompt = asked(r2, user)
        assert await first.complete(CHANNEL, user) == list(prompt.choices)
        result = await first.choice(r2.session_id, user, prompt.token, ())
        assert result.step is not None or result.action is not None
        # the question the first process remembered is outdated, and said so from the read
        with pytest.raises(OutdatedActionError):
            await first.choice(r.session_id, mover, asked(r, mover).token, ())
