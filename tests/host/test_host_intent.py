"""An intent is judged against the state its sender saw (design, trust invariant 4), on the toy
game: a typed action is bound on receipt to its seat's question, a click carries it; an action
is refused when its seat was not asked then ("not your turn") or its own question changed
(outdated, with the question asked now), never because another seat acted."""

from __future__ import annotations

import asyncio

import pytest

from bot.discordbot import components
from bot.host import OutdatedActionError, Reply, parse_token, prompt_token
from games.core import NotYourTurnError
from tests.host_helpers import ALICE, BOB, CAROL, CHANNEL, host_on, new_game

ALICE_, BOB_, CAROL_ = ALICE, BOB, CAROL

pytestmark = pytest.mark.usefixtures("backend")


def token_of(reply: Reply, user: int) -> str:
    return next(p.token for p in reply.prompts if p.user_id == user)


def order(reply: Reply) -> tuple[int, int, int]:
    """(the user asked, then the two others) of a three-player toy game."""
    asked = reply.prompts[0].user_id
    others = [u for u in (ALICE, BOB, CAROL) if u != asked]
    return asked, others[0], others[1]


async def test_typed_actions_sent_in_the_same_instant_are_judged_against_what_each_sender_saw():
    """Issue 15 item 1 on the host: alice (asked) and bob (not asked) act at once; bob's
    action waits behind alice's, after which the game asks bob; it is still refused."""
    async with host_on() as host:
        start = await new_game(host, (ALICE, BOB, CAROL))
        asked, *others = order(start)
        first, *late = await asyncio.gather(
            host.act(CHANNEL, asked, "add"), *(host.act(CHANNEL, u, "add") for u in others),
            return_exceptions=True,
        )
        assert isinstance(first, Reply)
        nxt = first.prompts[0].user_id
        assert nxt in others
        for user, result in zip(others, late, strict=True):
            assert isinstance(result, NotYourTurnError), result
            assert "not your turn when you sent" in result.message
            if user == nxt:
                assert "You are asked now: Your turn" in result.message
        rec = await host.storage.get_session(first.session_id)
        assert rec.seq == 1 and [p.user_id for p in (await host.view(CHANNEL)).prompts] == [nxt]


async def test_a_token_bound_before_the_seat_was_asked_is_refused_after():
    async with host_on() as host:
        asked, *_ = order(await new_game(host, (ALICE, BOB, CAROL)))
        tokens = {u: await host.question_token(CHANNEL, u) for u in (ALICE, BOB, CAROL)}
        assert [u for u, t in tokens.items() if t] == [asked]
        nxt = (await host.act(CHANNEL, asked, "add")).prompts[0].user_id
        with pytest.raises(NotYourTurnError, match="You are asked now"):
            await host.act(CHANNEL, nxt, "add", prompt=tokens[nxt])
        assert (await host.view(CHANNEL)).prompts[0].user_id == nxt
        # bound now, it is taken
        reply = await host.act(CHANNEL, nxt, "add", prompt=await host.question_token(CHANNEL, nxt))
        assert "add" in reply.text


async def test_a_response_stays_valid_while_other_seats_answer_the_same_window():
    """Issue 15 item 2 on the host: the window asks bob and carol; carol answers first; bob's
    answer to the question he saw is still his question, so it is applied."""
    async with host_on() as host:
        ALICE, BOB, CAROL = order(await new_game(host, (ALICE_, BOB_, CAROL_)))  # noqa: N806
        hand = await host.hand(CHANNEL, ALICE)
        card = next(c for c in hand.private[0].prompt.choices if c.startswith("play "))
        window = await host.act(CHANNEL, ALICE, card)
        assert {p.user_id for p in window.prompts} == {BOB, CAROL}
        bob_saw = token_of(window, BOB)
        after_carol = await host.act(CHANNEL, CAROL, "pass", prompt=token_of(window, CAROL))
        assert token_of(after_carol, BOB) != bob_saw  # asked after a later action...
        assert parse_token(token_of(after_carol, BOB))[1] == parse_token(bob_saw)[1]  # ...the same question
        reply = await host.act(CHANNEL, BOB, "pass", prompt=bob_saw)
        assert BOB not in {p.user_id for p in reply.prompts if p.kind == "respond"}


async def test_an_answer_to_a_question_that_changed_is_refused_as_outdated_with_the_new_question():
    async with host_on() as host:
        ALICE, BOB, CAROL = order(await new_game(host, (ALICE_, BOB_, CAROL_)))  # noqa: N806
        hand = await host.hand(CHANNEL, ALICE)
        card = next(c for c in hand.private[0].prompt.choices if c.startswith("play "))
        window = await host.act(CHANNEL, ALICE, card)
        bob_saw = token_of(window, BOB)
        # bob answers, then his old buttons (the same question token) are clicked again
        await host.act(CHANNEL, BOB, "pass", prompt=bob_saw)
        with pytest.raises(OutdatedActionError, match="earlier question"):
            await host.act(CHANNEL, BOB, "block", prompt=bob_saw)
        after = await host.act(CHANNEL, CAROL, "pass")
        asked = {p.user_id: p for p in after.prompts}
        if BOB in asked:  # bob's own turn now: a new question
            with pytest.raises(OutdatedActionError, match="You are asked now: Your turn"):
                await host.act(CHANNEL, BOB, "pass", prompt=bob_saw)
        seq = (await host.storage.get_session(after.session_id)).seq
        with pytest.raises(OutdatedActionError):
            await host.act(CHANNEL, ALICE, "add", prompt=prompt_token(seq + 5, "turn", "x", ()))
        with pytest.raises(OutdatedActionError, match="not understood"):
            await host.act(CHANNEL, next(iter(asked)), "add", prompt="garbage")


async def test_a_choice_index_plays_the_choice_of_the_question_it_names():
    async with host_on() as host:
        start = await new_game(host, (ALICE, BOB))
        p = start.prompts[0]
        assert p.choices[0] == "add"
        reply = await host.act(CHANNEL, p.user_id, choice=0, prompt=p.token)
        assert "add" in reply.text
        q = reply.prompts[0]
        with pytest.raises(OutdatedActionError, match="not offered"):
            await host.act(CHANNEL, q.user_id, choice=len(q.choices), prompt=q.token)


def test_custom_ids_name_the_question_and_old_ones_still_decode():
    token = prompt_token(12, "secret", "War: commit your cards.", ("fight", "pass"))
    cid = components.action_id(7, token, "fight with Cavalry, Great Leader", 3)
    assert len(cid) <= 100
    d = components.decode(cid)
    assert d is not None and (d.kind, d.session_id, d.token, d.notation) == (
        "a", 7, token, "fight with Cavalry, Great Leader")
    long = components.action_id(7, token, "x" * 90, 3)
    assert components.decode(long) == components.Decoded("i", 7, index=3, token=token)
    assert components.decode(components.select_id(7, token)) == components.Decoded("s", 7, token=token)
    # buttons posted by the earlier release (session version) keep being understood
    assert components.decode("tabula:a:7:41:pass") == components.Decoded("a", 7, 41, notation="pass")
    assert components.decode("tabula:i:7:41:2") == components.Decoded("i", 7, 41, index=2)
    assert components.decode("tabula:s:7:41") == components.Decoded("s", 7, 41)
    assert components.decode("tabula:p:7::pass") is None
