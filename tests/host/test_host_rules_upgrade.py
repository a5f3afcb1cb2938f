"""A game saved under an older version of its rules (``Game.rules_version``) whose log no longer
loads is suspended: the table is told once, every command answers why and changes nothing, its
deadlines stop, it needs no repair (it is not an incident) and it can only be abandoned. A game
saved under the rules the bot plays that fails to load stays an incident.

The old game is Soul of the Empire as rules version 1 stored it (``tests.old_rules``): version 2
asks for combat Power Cards and Conscription before the Combat Cards, and its Commit lost the
``power`` field version 1 logged."""

from __future__ import annotations

import pytest

from bot.host import GameFaultError, SuspendedError
from bot.replaypage import build_page
from games.core import get_game
from storage.replay import check_database, verify_session
from tests.host_helpers import ALICE, BOB, CAROL, CHANNEL, GUILD, Clock, host_on
from tests.old_rules import SOUL, store_old_soul

pytestmark = pytest.mark.usefixtures("backend")

MESSAGE = ("was saved under an older version of Soul of the Empire's rules (version 1; this bot plays "
           "version 2) and cannot be continued")


def test_soul_of_the_empire_plays_rules_version_2_and_other_games_1() -> None:
    assert get_game(SOUL).rules_version == 2
    assert get_game("credo").rules_version == 1


async def _unchanged(host, rec) -> None:
    now = await host.storage.get_session(rec.id)
    assert (now.version, now.seq) == (rec.version, rec.seq)
    assert len(await host.storage.actions(rec.id)) == rec.seq + 1


async def test_an_old_session_that_no_longer_loads_is_suspended_and_the_table_told_once() -> None:
    clock = Clock()
    async with host_on(clock=clock) as host:
        old = await store_old_soul(host.storage, guild=GUILD, channel=CHANNEL, users=(ALICE, BOB), now=clock())
        assert old.rules_version == 1 and old.wait_deadline is not None and old.to_act == (1,)
        replies = await host.tick(clock())
        assert [r.session_id for r in replies] == [old.id]
        assert f"Game #{old.id} {MESSAGE}" in replies[0].text
        assert f"/game abandon game:{old.id}" in replies[0].text and f"tabula verify {old.id}" in replies[0].text
        rec = await host.storage.get_session(old.id)
        assert rec.suspended is not None and rec.suspended["told"] is True
        assert (rec.suspended["rules_version"], rec.suspended["plays"]) == (1, 2)
        assert "ValidationError" in rec.suspended["why"]
        assert rec.attention is None, "not an incident"
        assert rec.shown_status == "suspended"
        assert rec.wait_deadline is None and rec.deadline is None
        assert rec.seq == old.seq and rec.rules_version == 1
        # the table is told once; later ticks close nothing and say nothing
        clock.advance(30 * 86400)
        assert await host.tick(clock()) == []
        assert await host.storage.due_sessions(clock()) == []
        await _unchanged(host, rec)


async def test_every_command_on_a_suspended_game_answers_why_and_changes_nothing() -> None:
    clock = Clock()
    async with host_on(clock=clock) as host:
        old = await store_old_soul(host.storage, guild=GUILD, channel=CHANNEL, users=(ALICE, BOB), now=clock())
        # the first command to load it suspends it (no tick ran yet)
        with pytest.raises(SuspendedError) as first:
            await host.act(CHANNEL, BOB, "commit Pilum Volley")
        assert MESSAGE in first.value.message
        rec = await host.storage.get_session(old.id)
        assert rec.suspended is not None and rec.suspended["told"] is False
        calls = [
            lambda: host.act(CHANNEL, BOB, "pass"),
            lambda: host.act(CHANNEL, ALICE, "pass"),
            lambda: host.undo(CHANNEL, ALICE),
            lambda: host.repair(CHANNEL, ALICE, "undo"),
            lambda: host.repair(CHANNEL, ALICE, "ai"),
            lambda: host.hand(CHANNEL, BOB),
            lambda: host.leave(CHANNEL, BOB),
            lambda: host.replace(CHANNEL, BOB, 1, CAROL),
        ]
        for call in calls:
            with pytest.raises(SuspendedError) as refused:
                await call()
            assert MESSAGE in refused.value.message
            await _unchanged(host, rec)
        assert await host.complete(CHANNEL, BOB, "") == []
        shown = await host.view(CHANNEL, ALICE)
        assert MESSAGE in shown.text and shown.image is None
        assert any(f.name == "Suspended" and MESSAGE in f.value for f in shown.embed.fields)
        await _unchanged(host, rec)
        # the next tick tells the table, once
        told = await host.tick(clock())
        assert len(told) == 1 and MESSAGE in told[0].text
        assert await host.tick(clock()) == []
        # its creator ends it; the log stays and reads with a clear line
        ended = await host.abandon(CHANNEL, ALICE)
        assert "abandoned the game" in ended.text
        rec = await host.storage.get_session(old.id)
        assert rec.status == "abandoned" and len(await host.storage.actions(rec.id)) == old.seq + 1
        ok, lines = await verify_session(host.storage, rec.id)
        assert not ok
        assert any("saved under an older version of Soul of the Empire's rules (version 1; this bot plays "
                   f"version 2): action {old.seq} ('commit Pilum Volley') does not replay" in line
                   for line in lines), lines
        page = await build_page(host.storage, rec.id)
        assert page.actions == old.seq and page.steps == old.seq + 1
        assert f"from action {old.seq} on its log no longer replays" in page.html
        assert "commit Pilum Volley" not in page.html, "a secret choice stays secret on the page"
        with pytest.raises(SuspendedError, match="cannot be shown by this version"):
            await host.hand(CHANNEL, BOB, session_id=rec.id)


async def test_db_check_lists_the_old_sessions_apart_from_problems() -> None:
    clock = Clock()
    async with host_on(clock=clock) as host:
        old = await store_old_soul(host.storage, guild=GUILD, channel=CHANNEL, users=(ALICE, BOB), now=clock())
        report = await check_database(host.storage)
        assert report.ok and report.problems == [] and report.sessions_checked == 1
        assert len(report.old_rules) == 1
        line = report.old_rules[0]
        assert line.startswith(f"session {old.id} (soul-of-the-empire, channel {CHANNEL}): saved under an older "
                               "version of Soul of the Empire's rules (version 1; this bot plays version 2)")
        assert "the bot suspends it when it next loads it" in line
        await host.tick(clock())
        line = (await check_database(host.storage)).old_rules[0]
        assert "suspended; its creator or a moderator ends it with /game abandon" in line


async def test_an_old_session_that_still_loads_plays_on() -> None:
    clock = Clock()
    async with host_on(clock=clock) as host:
        old = await store_old_soul(host.storage, guild=GUILD, channel=CHANNEL, users=(ALICE, BOB), now=clock(),
                                   old_rows=False)
        assert await host.tick(clock()) == []
        rec = await host.storage.get_session(old.id)
        assert rec.suspended is None and rec.attention is None and rec.shown_status == "active"
        hand = await host.hand(CHANNEL, ALICE)
        assert "choose a Combat Card in secret" in hand.text
        assert (await check_database(host.storage)).old_rules == []


async def test_a_session_of_the_rules_played_that_fails_to_load_stays_an_incident() -> None:
    clock = Clock()
    async with host_on(clock=clock) as host:
        old = await store_old_soul(host.storage, guild=GUILD, channel=CHANNEL, users=(ALICE, BOB), now=clock(),
                                   rules_version=2)
        assert await host.tick(clock()) == []
        with pytest.raises(GameFaultError) as fault:
            await host.hand(CHANNEL, BOB)
        assert "needing attention" in fault.value.message
        rec = await host.storage.get_session(old.id)
        assert rec.suspended is None and rec.attention is not None
        assert rec.shown_status == "active, needs attention"
        report = await check_database(host.storage)
        assert report.old_rules == [] and not report.ok
        assert any(f"action {old.seq} ('commit Pilum Volley') does not replay" in p for p in report.problems)


async def test_a_new_session_records_the_rules_version_it_was_started_under() -> None:
    async with host_on() as host:
        await host.create(GUILD, CHANNEL, ALICE, SOUL, {})
        assert (await host.storage.open_session(CHANNEL)).rules_version == 2
        await host.join(CHANNEL, BOB)
        await host.start(CHANNEL, ALICE)
        rec = await host.storage.open_session(CHANNEL)
        assert rec.status == "active" and rec.rules_version == 2 and rec.suspended is None


async def test_ratings_rebuild_keeps_the_stored_result_of_a_game_played_under_older_rules() -> None:
    from bot.host.results import rebuild
    from storage import GameResult, SeatResult, SessionUpdate

    clock = Clock()
    async with host_on(clock=clock) as host:
        old = await store_old_soul(host.storage, guild=GUILD, channel=CHANNEL, users=(ALICE, BOB), now=clock())
        ended = await host.storage.update(old.id, old.version, SessionUpdate(
            status="finished", outcome={"winners": [0], "reason": "Rome wins"}, ended_at=clock(), to_act=()),
            clock())
        result = GameResult(ended.id, GUILD, SOUL, clock(), (SeatResult(0, ALICE, "rome", 0, True, True),
                                                             SeatResult(1, BOB, "coalition", 1, False, True)))
        assert await host.storage.record_result(result, [], clock())
        report = await rebuild(host.storage, clock())
        assert report.problems == [] and report.games == 1
        assert await host.storage.results() == [result]
