"""Sessions that never stall: an exception from a game's code never locks a session, and
every wait has a deadline after which an AI answers for the seat.

The game here is the toy game "count" made deliberately faulty with monkeypatch: a rule
that raises ``IndexError`` as Credo's ``_accept`` did on a refuted doctrine's vote."""

from __future__ import annotations

import logging
from typing import Any

import pytest

from bot.host import GameFaultError, LobbyError, PermissionDeniedError, UndoError
from games.core import NotYourTurnError
from tests.host_helpers import ALICE, BOB, CAROL, CHANNEL, GUILD, Clock, host_on, new_game, turn_of
from tests.toygame import GAME, Roll

pytestmark = pytest.mark.usefixtures("backend")


def break_rolls(monkeypatch: pytest.MonkeyPatch, *, seats: tuple[int, ...] | None = None) -> None:
    """Make the toy game's ``roll`` raise IndexError (for ``seats`` only, when given)."""
    real = type(GAME).apply

    def apply(self: Any, s: Any, seat: int, a: Any, rng: Any) -> Any:
        if isinstance(a, Roll) and (seats is None or seat in seats):
            raise IndexError("tuple index out of range")
        return real(self, s, seat, a, rng)

    monkeypatch.setattr(type(GAME), "apply", apply)


def break_seat(monkeypatch: pytest.MonkeyPatch, broken: int) -> dict[str, bool]:
    """Make every action of seat ``broken`` raise IndexError while the returned switch's
    ``on`` is True (turned off, earlier actions of that seat replay again)."""
    real = type(GAME).apply
    switch = {"on": True}

    def apply(self: Any, s: Any, seat: int, a: Any, rng: Any) -> Any:
        if seat == broken and switch["on"]:
            raise IndexError("list index out of range")
        return real(self, s, seat, a, rng)

    monkeypatch.setattr(type(GAME), "apply", apply)
    return switch


async def test_rule_exception_stores_nothing_gives_an_incident_and_marks_the_session(monkeypatch, caplog):
    """Issue 16, item 1: the failing action is not stored, the actor gets an incident id
    (logged with the traceback), and the session is marked as needing attention where
    /game status and /game games show it; the game is not locked: a legal action that
    works still goes through and clears the mark."""
    break_rolls(monkeypatch)
    async with host_on() as host:
        r = await new_game(host)
        user, _ = turn_of(r)
        before = await host.storage.open_session(CHANNEL)
        with caplog.at_level(logging.ERROR, logger="tabula.host"), pytest.raises(GameFaultError) as err:
            await host.act(CHANNEL, user, "roll")
        incident = err.value.incident
        assert incident in err.value.message and "nothing was changed" in err.value.message
        assert "/game repair" in err.value.message
        logged = [rec for rec in caplog.records if incident in rec.getMessage()]
        assert logged and logged[0].exc_info and logged[0].exc_info[0] is IndexError
        rec = await host.storage.open_session(CHANNEL)
        assert rec.seq == before.seq and rec.to_act == before.to_act
        assert rec.attention["incident"] == incident and rec.attention["seat"] == before.to_act[0]
        assert rec.shown_status == "active, needs attention"
        status = await host.view(CHANNEL, user)
        assert any(f.name == "Needs attention" and incident in f.value for f in status.embed.fields)
        games = await host.my_games(user)
        assert games.games[0].status == "active, needs attention" and "needs attention" in games.text
        # the same action fails again the same way, with its own incident id
        with pytest.raises(GameFaultError) as again:
            await host.act(CHANNEL, user, "roll")
        assert again.value.incident != incident
        # but the game is not locked: another legal action is applied and clears the mark
        r = await host.act(CHANNEL, user, "add")
        rec = await host.storage.open_session(CHANNEL)
        assert rec.seq == before.seq + 1 and rec.attention is None
        assert not any(f.name == "Needs attention" for f in r.embed.fields)


async def test_moderator_undoes_the_last_action_of_a_stuck_game(monkeypatch):
    """Issue 16, item 1: "moderators can undo the last action". The action before the
    failing one is taken back (with what followed), the mark is cleared, and only the
    creator or a moderator may do it."""
    async with host_on() as host:
        r = await new_game(host, (ALICE, BOB))
        first, _ = turn_of(r)
        second = BOB if first == ALICE else ALICE
        await host.act(CHANNEL, first, "add")
        break_rolls(monkeypatch)
        with pytest.raises(GameFaultError):
            await host.act(CHANNEL, second, "roll")
        with pytest.raises(PermissionDeniedError):
            await host.repair(CHANNEL, BOB, "undo")
        with pytest.raises(PermissionDeniedError):
            await host.repair(CHANNEL, CAROL, "undo")
        r = await host.repair(CHANNEL, CAROL, "undo", is_moderator=True)
        assert "undid 'add'" in r.text
        rec = await host.storage.open_session(CHANNEL)
        assert rec.seq == 0 and rec.attention is None
        assert turn_of(r)[0] == first
        with pytest.raises(UndoError, match="not stopped"):
            await host.repair(CHANNEL, ALICE, "undo")


async def test_moderator_lets_an_ai_answer_for_the_stuck_seat(monkeypatch):
    """Issue 16, item 1: "or let an AI answer for the stuck seat": the notation the player
    typed fails (the game's reader raises), an AI's answer for that seat goes through."""
    real = type(GAME).parse_action

    def parse(self: Any, s: Any, seat: int, text: str) -> Any:
        if text.startswith("ro"):
            raise IndexError("string index out of range")
        return real(self, s, seat, text)

    monkeypatch.setattr(type(GAME), "parse_action", parse)
    async with host_on() as host:
        r = await new_game(host, (ALICE, BOB))
        user, _ = turn_of(r)
        with pytest.raises(GameFaultError):
            await host.act(CHANNEL, user, "roll")
        stuck = (await host.storage.open_session(CHANNEL)).attention["seat"]
        r = await host.repair(CHANNEL, ALICE, "ai")
        assert f"let an AI answer for seat {stuck + 1}" in r.text
        rec = await host.storage.open_session(CHANNEL)
        assert rec.seq == 1 and rec.attention is None
        rows = await host.storage.actions(rec.id, after=0)
        assert rows[0].seat == stuck and rows[0].user_id is None
        assert turn_of(r)[0] != user


async def test_an_ai_seat_whose_move_fails_marks_the_game_and_keeps_the_human_action(monkeypatch, caplog):
    """Issue 16, item 1, "also exceptions while running AI seats after a human action": the
    human's legal action is stored, the table is told the game stopped (with the incident
    id), and a moderator's undo takes the human's action back."""
    async with host_on() as host:
        await host.create(GUILD, CHANNEL, ALICE, "count", {"target": 30})
        await host.add_ai(CHANNEL, ALICE, 1)
        r = await host.start(CHANNEL, ALICE)
        assert turn_of(r)[0] == ALICE
        ai_seat = 1
        switch = break_seat(monkeypatch, ai_seat)
        with caplog.at_level(logging.ERROR, logger="tabula.host"):
            r = await host.act(CHANNEL, ALICE, "add")
        rec = await host.storage.open_session(CHANNEL)
        assert rec.attention is not None and rec.attention["seat"] == ai_seat
        assert f"incident `{rec.attention['incident']}`" in r.text and "stopped" in r.text
        assert rec.to_act == (ai_seat,)
        rows = await host.storage.actions(rec.id)
        assert rows[-1].notation == "add" and rows[-1].user_id == ALICE
        assert any(rec.attention["incident"] in x.getMessage() for x in caplog.records)
        # the AI's own agent fails again: a random agent's answer fails too (it is the rules)
        with pytest.raises(GameFaultError):
            await host.repair(CHANNEL, ALICE, "ai")
        switch["on"] = False  # the seat's earlier moves replay while the undo rebuilds the state
        r = await host.repair(CHANNEL, ALICE, "undo")
        rec = await host.storage.open_session(CHANNEL)
        assert rec.attention is None and rec.to_act == (0,)


async def test_a_failure_while_closing_a_window_marks_that_game_and_spares_the_others(monkeypatch):
    """Issue 16, item 1, "while closing windows on deadline": one game's failing pass
    does not stop the tick for the other games; its table is told."""
    clock = Clock()
    async with host_on(clock=clock, respond_seconds=600.0) as host:
        sessions = []
        for channel in (CHANNEL, CHANNEL + 1):
            r = await new_game(host, (ALICE, BOB), channel=channel)
            user, _ = turn_of(r)
            hand = (await host.hand(channel, user)).private[0].view.hand
            await host.act(channel, user, f"play {hand[0]}")
            sessions.append(r.session_id)
        real = type(GAME).apply
        doomed = sessions[0]
        calls = {"n": 0}

        def apply(self: Any, s: Any, seat: int, a: Any, rng: Any) -> Any:
            if getattr(a, "kind", "") == "pass" and calls["n"] == 0:
                calls["n"] += 1
                raise IndexError("boom")
            return real(self, s, seat, a, rng)

        monkeypatch.setattr(type(GAME), "apply", apply)
        clock.advance(601)
        replies = await host.tick()
        by_session = {r.session_id: r for r in replies}
        assert set(by_session) == set(sessions)
        assert "incident" in by_session[doomed].text
        assert "Time is up" in by_session[sessions[1]].text
        doomed_rec = await host.storage.get_session(doomed)
        assert doomed_rec.attention is not None and doomed_rec.deadline is not None
        assert await host.tick() == []  # a stopped game is not retried on every pass


async def test_a_failing_view_still_answers_and_stores_the_action(monkeypatch, caplog):
    """Issue 16, item 1, "while rendering views": the action is stored, the reply carries
    the lines and the incident, no exception reaches the player."""
    async with host_on() as host:
        r = await new_game(host)
        user, _ = turn_of(r)

        def view(self: Any, s: Any, viewer: Any) -> Any:
            raise KeyError("viewer")

        monkeypatch.setattr(type(GAME), "view", view)
        with caplog.at_level(logging.ERROR, logger="tabula.host"):
            r = await host.act(CHANNEL, user, "add")
        assert "added 1" in r.text and "incident" in r.text
        rec = await host.storage.open_session(CHANNEL)
        assert rec.seq == 1 and rec.attention is not None


# ---------------------------------------------------------------- wait deadlines (item 2)


async def test_a_turn_waited_past_the_deadline_is_answered_by_an_ai_and_the_table_is_told():
    """Issue 16, item 2: every wait has a deadline (Board Game Arena's zombie mode): after
    it the AI plays the seat for that decision, the table is told how the player takes the
    seat back, and the seat stays theirs."""
    clock = Clock()
    async with host_on(clock=clock, wait_seconds=3600.0) as host:
        r = await new_game(host, (ALICE, BOB))
        user, kind = turn_of(r)
        assert kind == "turn" and r.prompts[0].deadline == clock() + 3600
        rec = await host.storage.open_session(CHANNEL)
        assert rec.wait_deadline == clock() + 3600
        clock.advance(3599)
        assert await host.tick() == []
        clock.advance(2)
        replies = await host.tick()
        assert len(replies) == 1
        text = replies[0].text
        assert f"Time is up for <@{user}>" in text and "AI answered" in text and "/play" in text
        rec = await host.storage.open_session(CHANNEL)
        assert rec.seq == 1 and rec.seat_of(user).user_id == user
        rows = await host.storage.actions(rec.id, after=0)
        assert rows[0].user_id is None and rows[0].seat == rec.seat_of(user).seat
        nxt, _ = turn_of(replies[0])
        assert nxt != user and rec.wait_deadline == clock() + 3600  # a fresh wait for the next seat
        with pytest.raises(NotYourTurnError):
            await host.act(CHANNEL, user, "add")


async def test_the_wait_deadline_is_a_server_setting():
    """Issue 16, item 2: "Settings: /game settings" (per server, like response windows)."""
    clock = Clock()
    async with host_on(clock=clock) as host:
        assert host.settings.wait_seconds == 72 * 3600
        with pytest.raises(PermissionDeniedError):
            await host.set_guild_settings(GUILD, is_moderator=False, respond_seconds=None, wait_seconds=7200)
        r = await host.set_guild_settings(GUILD, is_moderator=True, respond_seconds=None, wait_seconds=7200)
        assert "2 h" in r.text
        r = await new_game(host)
        assert r.prompts[0].deadline == clock() + 7200


async def test_an_answer_restarts_the_wait_and_a_finished_game_has_none():
    clock = Clock()
    async with host_on(clock=clock, wait_seconds=3600.0) as host:
        r = await new_game(host, (ALICE, BOB), options={"target": 5})
        for _ in range(10):
            if r.status != "active":
                break
            clock.advance(1800)
            user, kind = turn_of(r)
            r = await host.act(CHANNEL, user, "pass" if kind == "respond" else "roll")
            rec = await host.storage.get_session(r.session_id)
            if rec.status == "active" and any(p.kind == "turn" for p in r.prompts):
                assert rec.wait_deadline == clock() + 3600
        rec = await host.storage.get_session(r.session_id)
        assert rec.status == "finished" and rec.wait_deadline is None and rec.deadline is None


# ---------------------------------------------------------------- the terminal


def test_the_terminal_never_shows_a_traceback_and_repairs_a_stuck_game(monkeypatch, tmp_path, capsys):
    """Issue 16, item 1, "the console never shows a traceback": a failing rule answers
    with the incident id and where its details are; 'repair undo' gets the game going."""
    import io
    import itertools

    from bot.console import Console

    break_rolls(monkeypatch, seats=(0,))  # the human's seat
    db = str(tmp_path / "g.db")
    lines = itertools.chain(["roll", "roll", "repair ai"], itertools.islice(itertools.cycle(["add", "pass"]), 200))

    def read(prompt: str) -> str:
        try:
            return next(lines)
        except StopIteration:
            raise EOFError from None

    out = io.StringIO()
    console = Console("count", 2, 1, seed=3, options={"target": 8}, out=out, read=read, db=db)
    assert console.run() == 0
    text = out.getvalue() + capsys.readouterr().err
    assert "Traceback" not in text and "IndexError" not in text
    assert "the game's rules failed on seat" in text and "incident `" in text
    assert f"are in {db}.log" in text and "'repair undo'" in text
    assert "let an AI answer for seat" in text and "Game over" in text
    with open(db + ".log", encoding="utf-8") as f:
        log_text = f.read()
    assert "Traceback" in log_text and "IndexError" in log_text


def test_the_terminal_asks_for_a_repair_when_an_ai_seat_is_stuck(monkeypatch, tmp_path, capsys):
    import io

    from bot.console import Console

    switch = break_seat(monkeypatch, 1)
    switch["on"] = False
    db = str(tmp_path / "g.db")
    answers = iter(["add", "repair ai"])

    def read(prompt: str) -> str:
        switch["on"] = prompt == "> "  # the AI seat fails after the human's move, not in the repair
        try:
            return next(answers)
        except StopIteration:
            raise EOFError from None

    out = io.StringIO()
    console = Console("count", 2, 1, seed=3, options={"target": 50}, out=out, read=read, db=db)
    console.run()
    text = out.getvalue() + capsys.readouterr().err
    assert "Traceback" not in text
    assert "The game stopped: its rules failed on the AI's move for seat 2" in text
    assert "You let an AI answer for seat 2" in text


# ---------------------------------------------------------------- orphaned games (item 3)


async def test_an_orphaned_game_takes_no_action_has_no_deadline_and_is_abandoned_from_elsewhere():
    """Issue 16, item 3, host side: the session becomes "orphaned", its deadlines stop,
    /game games shows it, a moderator abandons it with game:<number> from another channel
    of the same server (and only of that server)."""
    from bot.host import NoSessionError, OrphanedError

    clock = Clock()
    async with host_on(clock=clock, wait_seconds=3600.0) as host:
        r = await new_game(host, (ALICE, BOB))
        other = await new_game(host, (ALICE, CAROL), channel=CHANNEL + 1)
        assert await host.orphan(channel_id=CHANNEL, why="its channel was deleted") == [r.session_id]
        assert await host.orphan(channel_id=CHANNEL, why="again") == []
        rec = await host.storage.get_session(r.session_id)
        assert rec.shown_status == "orphaned" and rec.wait_deadline is None and rec.deadline is None
        user, _ = turn_of(r)
        with pytest.raises(OrphanedError, match="abandon game:"):
            await host.act(CHANNEL, user, "add")
        clock.advance(7 * 86400)
        assert [x.session_id for x in await host.tick()] == [other.session_id]  # only the live game
        games = await host.my_games(BOB)
        assert games.games[0].status == "orphaned" and "orphaned" in games.text
        with pytest.raises(NoSessionError):
            await host.abandon(CHANNEL + 5, ALICE, is_moderator=True, session_id=r.session_id, guild_id=GUILD + 1)
        with pytest.raises(PermissionDeniedError):
            await host.abandon(CHANNEL + 5, BOB, session_id=r.session_id, guild_id=GUILD)
        done = await host.abandon(CHANNEL + 5, CAROL, is_moderator=True, session_id=r.session_id, guild_id=GUILD)
        assert done.status == "abandoned"


async def test_a_server_removal_orphans_every_open_game_of_that_server_only():
    async with host_on() as host:
        a = await new_game(host, (ALICE, BOB))
        await host.create(GUILD, CHANNEL + 1, CAROL, "count")  # a lobby
        await host.create(GUILD + 1, CHANNEL + 2, CAROL, "count")  # another server
        marked = await host.orphan(guild_id=GUILD, why="the bot was removed from the server")
        assert len(marked) == 2 and a.session_id in marked
        assert (await host.storage.open_session(CHANNEL + 2)).orphaned is None
        with pytest.raises(LobbyError, match="not orphaned"):
            await host.resume(CHANNEL + 2, CAROL)
        r = await host.resume(CHANNEL, ALICE)
        assert "took up" in r.text and (await host.storage.open_session(CHANNEL)).orphaned is None


async def test_a_game_stored_without_a_wait_deadline_gets_one_at_the_first_tick():
    """Games stored before waits had deadlines do not wait forever either."""
    from tests.host_helpers import raw_sql

    clock = Clock()
    async with host_on(clock=clock, wait_seconds=3600.0) as host:
        r = await new_game(host)
        await raw_sql(host.storage, "UPDATE sessions SET wait_deadline = NULL WHERE id = ?", r.session_id)
        assert (await host.storage.get_session(r.session_id)).wait_deadline is None
        clock.advance(10 * 3600)
        assert await host.tick() == []
        assert (await host.storage.get_session(r.session_id)).wait_deadline == clock() + 3600
        clock.advance(3601)
        assert len(await host.tick()) == 1


async def test_a_secret_war_commitment_waited_past_the_deadline_is_made_by_an_ai_and_stays_secret():
    """Issue 16, item 2: "A war commitment waiting on a player who left the server waited 7
    simulated days"; now a secret choice waits its deadline (default 72 h), then an AI
    commits for the seat, the table learns only that time was up, and the seat stays its
    player's."""
    import random

    clock = Clock()
    rand = random.Random(4)
    async with host_on(clock=clock, seed=11) as host:
        await host.create(GUILD, CHANNEL, ALICE, "barbarian-hordes")
        await host.join(CHANNEL, BOB)
        await host.add_ai(CHANNEL, ALICE, 2)
        reply = await host.start(CHANNEL, ALICE)
        for _ in range(600):
            secret = next((p for p in reply.prompts if p.user_id is not None and p.kind == "secret"), None)
            if secret is not None or reply.status != "active":
                break
            prompt = next(p for p in reply.prompts if p.user_id is not None)
            options = await host.complete(CHANNEL, prompt.user_id) or list(prompt.choices)
            reply = await host.act(CHANNEL, prompt.user_id, rand.choice(options))
            clock.advance(60)
        assert secret is not None, "no secret war commitment came up"
        assert secret.deadline == (await host.storage.open_session(CHANNEL)).wait_deadline
        assert secret.deadline - clock() <= 72 * 3600
        rec = await host.storage.open_session(CHANNEL)
        clock.t = secret.deadline + 1
        replies = await host.tick()
        assert len(replies) == 1
        r = replies[0]
        assert f"Time is up for <@{secret.user_id}>" in r.text
        rows = await host.storage.actions(rec.id, after=rec.seq)
        mine = next(row for row in rows if row.seat == secret.seat)
        assert mine.secret and mine.user_id is None
        assert mine.notation not in r.text, "the AI's secret commitment is not shown to the table"
        after = await host.storage.open_session(CHANNEL)
        assert after.seats[secret.seat].user_id == secret.user_id


def test_db_info_names_the_games_that_need_attention_and_the_orphaned_ones(tmp_path, monkeypatch, capsys):
    """Issue 16, items 1 and 3: `tabula db info` shows both."""
    import asyncio

    from bot.cli import main
    from tests import backends

    if backends.CURRENT.is_postgres:
        pytest.skip("this test reads a SQLite file with tabula db info; the PostgreSQL run covers the rest")

    db = str(tmp_path / "t.db")

    async def go() -> tuple[int, str]:
        async with host_on(db) as host:
            r = await new_game(host)
            await new_game(host, channel=CHANNEL + 1)
            await host.orphan(channel_id=CHANNEL + 1, why="its channel was deleted")
            break_rolls(monkeypatch)
            with pytest.raises(GameFaultError) as err:
                await host.act(CHANNEL, turn_of(r)[0], "roll")
            return r.session_id, err.value.incident

    sid, incident = asyncio.run(go())
    assert main(["db", "info", "--db", db]) == 0
    out = capsys.readouterr().out
    assert "2 active" in out
    assert f"1 need attention (stopped by an incident; /game repair): #{sid} (incident {incident}" in out
    assert "1 orphaned" in out and "its channel was deleted" in out
