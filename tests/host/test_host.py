"""The host service on the toy game: lobby, permissions, acting, idempotency, undo rules,
response-window deadlines, AI seats, spectator log filtering and fairness."""

from __future__ import annotations

import pytest

from bot.host import (
    ChannelBusyError,
    InvalidOptionError,
    LobbyError,
    NoSessionError,
    NotSeatedError,
    PermissionDeniedError,
    UndoError,
)
from games.core import (
    GameOverError,
    IllegalActionError,
    InvalidNotationError,
    NotYourTurnError,
    StaleStateError,
)
from games.core.registry import UnknownGameError
from storage import seed_hash
from storage.replay import verify_session
from tests.host_helpers import (
    ALICE,
    BOB,
    CAROL,
    CHANNEL,
    DAVE,
    GUILD,
    OUTSIDER,
    Clock,
    host_on,
    new_game,
    play_moves,
    raw_sql,
    turn_of,
)

pytestmark = pytest.mark.usefixtures("backend")


def other(user: int) -> int:
    return BOB if user == ALICE else ALICE


# ---------------------------------------------------------------- lobby


async def test_lobby_rules():
    async with host_on() as host:
        with pytest.raises(UnknownGameError, match="known games"):
            await host.create(GUILD, CHANNEL, ALICE, "no-such-game")
        with pytest.raises(InvalidOptionError, match="target"):
            await host.create(GUILD, CHANNEL, ALICE, "count", {"target": 1})
        r = await host.create(GUILD, CHANNEL, ALICE, "count")
        assert r.status == "lobby" and "Count" in r.text
        with pytest.raises(ChannelBusyError):
            await host.create(GUILD, CHANNEL, BOB, "count")
        with pytest.raises(LobbyError, match="already have seat 1"):
            await host.join(CHANNEL, ALICE)
        with pytest.raises(LobbyError, match="needs 2–4 seats"):
            await host.start(CHANNEL, ALICE)
        await host.join(CHANNEL, BOB, faction="Goths")
        with pytest.raises(InvalidOptionError, match="already taken"):
            await host.choose(CHANNEL, ALICE, "goths")
        await host.choose(CHANNEL, ALICE, "Huns")
        with pytest.raises(PermissionDeniedError, match="creator"):
            await host.set_options(CHANNEL, BOB, {"target": 40})
        with pytest.raises(InvalidOptionError, match="no option colour"):
            await host.set_options(CHANNEL, ALICE, {"colour": "red"})
        r = await host.set_options(CHANNEL, ALICE, {"target": 40})
        assert "target=40" in r.text
        with pytest.raises(PermissionDeniedError):
            await host.add_ai(CHANNEL, BOB)
        with pytest.raises(InvalidOptionError, match="Unknown AI kind"):
            await host.add_ai(CHANNEL, ALICE, kind="genius")
        await host.add_ai(CHANNEL, ALICE, 2)
        with pytest.raises(LobbyError, match="full"):
            await host.join(CHANNEL, CAROL)
        with pytest.raises(LobbyError, match="Only 0 seat"):
            await host.add_ai(CHANNEL, ALICE)
        await host.leave(CHANNEL, BOB)
        rec = await host.storage.open_session(CHANNEL)
        assert [(s.seat, s.user_id, s.ai) for s in rec.seats] == [(0, ALICE, None), (1, None, "heuristic"),
                                                                   (2, None, "heuristic")]
        assert rec.seats[0].faction == "Huns" and rec.options["target"] == 40
        with pytest.raises(PermissionDeniedError):
            await host.start(CHANNEL, BOB)
        with pytest.raises(LobbyError, match="not started"):
            await host.act(CHANNEL, ALICE, "add")
        r = await host.start(CHANNEL, ALICE)
        assert r.status == "active"
        with pytest.raises(LobbyError, match="already started"):
            await host.join(CHANNEL, CAROL)
        with pytest.raises(NoSessionError):
            await host.join(CHANNEL + 1, CAROL)


# ---------------------------------------------------------------- acting


async def test_only_the_prompted_seated_player_acts_and_errors_change_nothing():
    async with host_on() as host:
        r = await new_game(host)
        user, kind = turn_of(r)
        assert kind == "turn" and r.mentions == (user,)
        version = r.version
        with pytest.raises(NotSeatedError):
            await host.act(CHANNEL, OUTSIDER, "add")
        with pytest.raises(NotYourTurnError, match="waiting for"):
            await host.act(CHANNEL, other(user), "add")
        with pytest.raises(InvalidNotationError):
            await host.act(CHANNEL, user, "dance")
        with pytest.raises(IllegalActionError, match="your hand"):
            await host.act(CHANNEL, user, "play 99")
        with pytest.raises(StaleStateError):
            await host.act(CHANNEL, user, "add", version=version - 1)
        rec = await host.storage.open_session(CHANNEL)
        assert rec.version == version and rec.seq == 0
        r = await host.act(CHANNEL, user, "add", version=version)
        assert r.version == version + 1 and "add" in r.text
        assert turn_of(r)[0] == other(user)


async def test_act_by_action_model():
    from tests.toygame import Add

    async with host_on() as host:
        user, _ = turn_of(await new_game(host))
        r = await host.act(CHANNEL, user, action=Add())
        assert (await host.storage.open_session(CHANNEL)).seq == 1 and r.status == "active"


async def test_the_same_interaction_id_applies_once():
    async with host_on() as host:
        user, _ = turn_of(await new_game(host))
        first = await host.act(CHANNEL, user, "add", interaction_id="12345")
        second = await host.act(CHANNEL, user, "add", interaction_id="12345")
        assert not first.duplicate and second.duplicate
        assert second.version == first.version
        rows = await host.storage.actions(first.session_id)
        assert [r.notation for r in rows] == ["setup", "add"]
        assert rows[1].interaction_id == "12345"


async def test_a_redelivered_interaction_after_the_game_ended_is_still_recognised():
    async with host_on() as host:
        user, _ = turn_of(await new_game(host, options={"target": 5}))
        r = None
        for i in range(20):
            r = await host.act(CHANNEL, user, "add", interaction_id=f"x{i}")
            if r.status != "active":
                break
            user, _ = turn_of(r)
        assert r is not None and r.status == "finished"
        again = await host.act(CHANNEL, user, "add", interaction_id=f"x{i}")
        assert again.duplicate and again.status == "finished"


async def test_a_finished_game_accepts_no_action_but_stays_readable():
    async with host_on() as host:
        r = await new_game(host, options={"target": 5})
        r = await play_moves(host, 10, reply=r)
        assert r.status == "finished"
        assert str(r.session_id) and "Seed: 42" in r.text
        with pytest.raises(NoSessionError):
            await host.act(CHANNEL, ALICE, "add")
        with pytest.raises(GameOverError, match="finished"):
            await host.act(CHANNEL, ALICE, "add", session_id=r.session_id)
        view = await host.view(CHANNEL, ALICE)
        assert view.status == "finished" and view.image is not None
        log = await host.log(CHANNEL, ALICE)
        assert log.log[-1].lines[-1].endswith("wins.")
        # a new game may start in the same channel
        await host.create(GUILD, CHANNEL, BOB, "count")


# ---------------------------------------------------------------- permissions


async def test_abandon_by_creator_or_moderator_only():
    async with host_on() as host:
        await new_game(host)
        with pytest.raises(PermissionDeniedError, match="creator"):
            await host.abandon(CHANNEL, BOB)
        with pytest.raises(PermissionDeniedError):
            await host.abandon(CHANNEL, OUTSIDER)
        r = await host.abandon(CHANNEL, OUTSIDER, is_moderator=True)
        assert r.status == "abandoned" and "Seed: 42" in r.text
        with pytest.raises(GameOverError):
            await host.act(CHANNEL, ALICE, "add", session_id=r.session_id)
        assert (await host.view(CHANNEL)).status == "abandoned"
    async with host_on() as host:
        await new_game(host)
        r = await host.abandon(CHANNEL, ALICE)
        assert r.status == "abandoned"


async def test_replace_and_leave():
    async with host_on() as host:
        await new_game(host, (ALICE, BOB, CAROL))
        with pytest.raises(PermissionDeniedError):
            await host.replace(CHANNEL, CAROL, 1, DAVE)
        with pytest.raises(LobbyError, match="already has seat"):
            await host.replace(CHANNEL, ALICE, 1, CAROL, is_moderator=True)
        with pytest.raises(LobbyError, match="no seat 9"):
            await host.replace(CHANNEL, ALICE, 8, DAVE)
        await host.replace(CHANNEL, BOB, 1, DAVE)  # a player hands over their own seat
        rec = await host.storage.open_session(CHANNEL)
        assert rec.seats[1].user_id == DAVE and rec.seats[1].left_at is not None
        # Carol leaves: an AI plays her seat from now on, also when it is prompted
        await host.leave(CHANNEL, CAROL)
        rec = await host.storage.open_session(CHANNEL)
        assert rec.seats[2].ai == "heuristic" and rec.seats[2].user_id is None
        assert all(p.user_id is not None for p in (await host.view(CHANNEL)).prompts)
        await play_moves(host, 12)
        rows = await host.storage.actions(rec.id)
        assert any(r.seat == 2 and r.user_id is None for r in rows[1:])
        assert not any(r.user_id == CAROL for r in rows)
        mine = await host.my_games(DAVE)
        assert [g.session_id for g in mine.games] == [rec.id]
        assert (await host.my_games(CAROL)).games == ()


async def test_my_games_across_channels_says_whose_turn():
    async with host_on() as host:
        r1 = await new_game(host, channel=10)
        await new_game(host, (BOB, ALICE), channel=11)
        first, _ = turn_of(r1)
        mine = await host.my_games(first)
        assert {g.channel_id for g in mine.games} == {10, 11}
        g10 = next(g for g in mine.games if g.channel_id == 10)
        assert g10.your_turn and "your turn" in mine.text


# ---------------------------------------------------------------- undo


async def _to_turn_of(host, user, reply):
    while turn_of(reply)[0] != user:
        reply = await play_moves(host, 1, reply=reply)
    return reply


async def test_undo_own_last_action_when_nothing_was_revealed():
    async with host_on() as host:
        r = await new_game(host)
        user, _ = turn_of(r)
        with pytest.raises(UndoError, match="no action"):
            await host.undo(CHANNEL, user)
        before = await host.view(CHANNEL, user)
        await host.act(CHANNEL, user, "add")
        with pytest.raises(NotSeatedError):
            await host.undo(CHANNEL, OUTSIDER)
        with pytest.raises(UndoError, match="no action"):
            await host.undo(CHANNEL, other(user))
        r = await host.undo(CHANNEL, user)
        assert "undid 'add'" in r.text
        after = await host.view(CHANNEL, user)
        assert after.image.view == before.image.view and turn_of(after)[0] == user
        assert (await host.storage.open_session(CHANNEL)).seq == 0


async def test_undo_after_a_die_roll_needs_everyone_elses_consent():
    async with host_on() as host:
        r = await new_game(host, (ALICE, BOB, CAROL))
        user, _ = turn_of(r)
        others = [u for u in (ALICE, BOB, CAROL) if u != user]
        await host.act(CHANNEL, user, "roll")
        r = await host.undo(CHANNEL, user)
        assert "must agree" in r.text and set(r.mentions) == set(others)
        assert "use /game undo to agree or /game undo decline:True to refuse" in r.text  # the command's own syntax
        assert (await host.storage.open_session(CHANNEL)).seq == 1
        with pytest.raises(UndoError, match="already asked"):
            await host.undo(CHANNEL, user)
        r = await host.undo(CHANNEL, others[0])
        assert "Still waiting" in r.text and r.mentions == (others[1],)
        with pytest.raises(UndoError, match="already agreed"):
            await host.undo(CHANNEL, others[0])
        assert (await host.storage.open_session(CHANNEL)).seq == 1
        r = await host.undo(CHANNEL, others[1])
        assert "everyone agreed" in r.text
        assert (await host.storage.open_session(CHANNEL)).seq == 0


async def test_an_undo_request_can_be_refused_and_lapses_when_someone_acts():
    async with host_on() as host:
        r = await new_game(host)
        user, _ = turn_of(r)
        await host.act(CHANNEL, user, "roll")
        await host.undo(CHANNEL, user)
        with pytest.raises(UndoError, match="Only the players asked"):
            await host.decline_undo(CHANNEL, OUTSIDER)
        r = await host.decline_undo(CHANNEL, other(user))
        assert "refused" in r.text
        with pytest.raises(UndoError, match="no undo request"):
            await host.decline_undo(CHANNEL, other(user))
        await host.undo(CHANNEL, user)
        await host.act(CHANNEL, other(user), "add")  # acting voids the pending request
        r = await host.undo(CHANNEL, other(user))  # his own add: free
        assert "undid 'add'" in r.text
        assert (await host.storage.open_session(CHANNEL)).seq == 1


async def test_undo_after_another_player_acted_needs_consent():
    async with host_on() as host:
        r = await new_game(host)
        user, _ = turn_of(r)
        await host.act(CHANNEL, user, "add")
        await host.act(CHANNEL, other(user), "add")
        r = await host.undo(CHANNEL, user)
        assert "another player has acted" in r.text
        r = await host.undo(CHANNEL, other(user))
        assert "undid 'add' and 1 later action" in r.text
        assert (await host.storage.open_session(CHANNEL)).seq == 0


async def test_undo_against_ai_is_refused_once_randomness_was_revealed():
    """With only AI opponents nobody can agree, so an undo past a die roll is refused
    (a lost roll cannot be taken back and re-rolled)."""
    async with host_on() as host:
        r = await new_game(host, (ALICE,), ai=1)
        assert turn_of(r)[0] == ALICE
        seq0 = (await host.storage.open_session(CHANNEL)).seq
        r = await host.act(CHANNEL, ALICE, "add")
        rec = await host.storage.open_session(CHANNEL)
        assert rec.seq > seq0 + 1  # the AI played after Alice
        rows = await host.storage.actions(rec.id, after=seq0)
        assert any(x.reveals for x in rows)
        with pytest.raises(UndoError, match="no other player to agree"):
            await host.undo(CHANNEL, ALICE)
        assert (await host.storage.open_session(CHANNEL)).seq == rec.seq


async def test_undo_on_a_finished_game_is_refused():
    async with host_on() as host:
        r = await play_moves(host, 10, reply=await new_game(host, options={"target": 5}))
        assert r.status == "finished"
        with pytest.raises(NoSessionError):
            await host.undo(CHANNEL, ALICE)
        with pytest.raises(GameOverError):
            await host.undo(CHANNEL, ALICE, session_id=r.session_id)


# ---------------------------------------------------------------- windows and AI


async def test_response_window_closes_by_passing_after_the_deadline():
    clock = Clock()
    async with host_on(clock=clock, respond_seconds=600.0) as host:
        r = await new_game(host, (ALICE, BOB, CAROL))
        user, _ = turn_of(r)
        hand = (await host.hand(CHANNEL, user)).private[0].view.hand
        r = await host.act(CHANNEL, user, f"play {hand[0]}")
        responders = {p.user_id for p in r.prompts}
        assert all(p.kind == "respond" for p in r.prompts) and user not in responders
        assert r.prompts[0].deadline == clock() + 600
        one = sorted(responders)[0]
        clock.advance(300)
        await host.act(CHANNEL, one, "pass")  # answering does not move the deadline
        assert await host.tick() == []
        clock.advance(299)
        assert await host.tick() == []  # one second before the deadline: still open
        clock.advance(1)
        assert clock() == r.prompts[0].deadline
        replies = await host.tick()  # exactly at the deadline the window closes
        assert len(replies) == 1 and "Time is up" in replies[0].text and "passed" in replies[0].text
        rec = await host.storage.open_session(CHANNEL)
        assert rec.deadline is None
        assert [p.kind for p in replies[0].prompts] == ["turn"]
        rows = await host.storage.actions(rec.id)
        assert rows[-1].notation == "pass" and rows[-1].user_id is None
        assert await host.tick() == []


async def test_guild_setting_changes_the_window_length():
    clock = Clock()
    async with host_on(clock=clock) as host:
        with pytest.raises(PermissionDeniedError):
            await host.set_guild_settings(GUILD, is_moderator=False, respond_seconds=120)
        await host.set_guild_settings(GUILD, is_moderator=True, respond_seconds=120)
        r = await new_game(host)
        user, _ = turn_of(r)
        hand = (await host.hand(CHANNEL, user)).private[0].view.hand
        r = await host.act(CHANNEL, user, f"play {hand[0]}")
        assert r.prompts[0].deadline == clock() + 120


async def test_an_all_ai_game_plays_itself_to_the_end_and_verifies():
    async with host_on() as host:
        await host.create(GUILD, CHANNEL, ALICE, "count", {"target": 40}, join=False)
        await host.add_ai(CHANNEL, ALICE, 2, kind="random")
        await host.add_ai(CHANNEL, ALICE, 1)
        r = await host.start(CHANNEL, ALICE)
        assert r.status == "finished" and r.prompts == ()
        ok, lines = await verify_session(host.storage, r.session_id)
        assert ok, lines


# ---------------------------------------------------------------- hidden information


async def test_spectators_and_players_see_only_what_they_may_in_the_log():
    async with host_on() as host:
        r = await new_game(host, options={"target": 200})
        hands = {u: (await host.hand(CHANNEL, u)).private[0].view.hand for u in (ALICE, BOB)}
        for _ in range(6):
            user, kind = turn_of(r)
            text = "pass" if kind == "respond" else f"play {(await host.hand(CHANNEL, user)).private[0].view.hand[0]}"
            r = await host.act(CHANNEL, user, text)
            assert all(line.startswith("  ") or ":" in line for line in r.text.splitlines())
            assert "You drew" not in r.text and "Your hand" not in r.text
        await host.follow(CHANNEL, OUTSIDER)
        spectator = await host.log(CHANNEL, OUTSIDER, per_page=100)
        alice = await host.log(CHANNEL, ALICE, per_page=100)
        bob = await host.log(CHANNEL, BOB, per_page=100)
        rec = await host.storage.open_session(CHANNEL)
        seat = {s.user_id: s.seat for s in rec.seats}
        rows = await host.storage.actions(rec.id)
        assert len(spectator.log) == len(rows)
        for entries, viewer in ((spectator.log, None), (alice.log, seat[ALICE]), (bob.log, seat[BOB])):
            for entry, row in zip(entries, rows, strict=True):
                assert entry.lines == tuple(host._named(rec, e.text) for e in row.events if e.visible(viewer))
        joined = "\n".join(spectator.text.splitlines())
        assert "You drew" not in joined and "Your hand" not in joined
        assert f"Your hand: {', '.join(map(str, hands[ALICE]))}." in alice.text
        assert f"Your hand: {', '.join(map(str, hands[ALICE]))}." not in bob.text
        assert "You drew" in alice.text and "You drew" in bob.text
        # paging: page 1 is the latest actions
        page = await host.log(CHANNEL, OUTSIDER, per_page=2)
        assert [e.seq for e in page.log] == [rec.seq - 1, rec.seq] and page.pages == (rec.seq + 2) // 2
        page = await host.log(CHANNEL, OUTSIDER, per_page=2, page=page.pages)
        assert page.log[0].seq == 0


async def test_private_parts_go_only_to_their_owner_and_followers_are_notified():
    async with host_on() as host:
        r = await new_game(host)
        for part in r.private:
            view = part.view
            assert view.viewer == part.seat and view.hand is not None
        assert r.image.view.hand is None  # the public image is the spectator view
        await host.follow(CHANNEL, OUTSIDER)
        with pytest.raises(LobbyError, match="already follow"):
            await host.follow(CHANNEL, OUTSIDER)
        with pytest.raises(LobbyError, match="you already get"):
            await host.follow(CHANNEL, ALICE)
        await host.follow(CHANNEL, DAVE)
        await host.set_prefs(DAVE, dms=False)
        user, _ = turn_of(r)
        r = await host.act(CHANNEL, user, "add")
        assert r.notify == (OUTSIDER,)
        await host.unfollow(CHANNEL, OUTSIDER)
        with pytest.raises(LobbyError, match="do not follow"):
            await host.unfollow(CHANNEL, OUTSIDER)
        r = await host.act(CHANNEL, turn_of(r)[0], "add")
        assert r.notify == ()


# ---------------------------------------------------------------- fairness


async def test_seed_hash_published_at_start_and_seed_revealed_at_the_end():
    async with host_on(seed=123456789) as host:
        r = await new_game(host, options={"target": 5})
        assert seed_hash(123456789) in r.text and "123456789" not in r.text.replace(seed_hash(123456789), "")
        r = await play_moves(host, 20, reply=r)
        assert r.status == "finished" and "Seed: 123456789" in r.text
        ok, lines = await verify_session(host.storage, r.session_id)
        assert ok, lines
        # a tampered seed no longer matches its published hash
        await raw_sql(host.storage, "UPDATE sessions SET seed = seed + 1 WHERE id = ?", r.session_id)
        ok, lines = await verify_session(host.storage, r.session_id)
        assert not ok and any("does NOT match" in line for line in lines)


async def test_log_calls_its_first_entry_the_set_up():
    """The log's entry 0 is the game's set-up, not an action of someone called "The host"."""
    async with host_on() as host:
        await new_game(host, options={"target": 5})
        log = await host.log(CHANNEL, ALICE, per_page=100)
        first = log.text.splitlines()[1]
        assert first == "0. Set-up", log.text
        assert "The host: setup" not in log.text


async def test_a_secret_action_is_echoed_to_its_player_as_a_public_one_is():
    """Every accepted action is echoed "<who>: <notation>" before what it did: a public one to
    everyone, a secret one to its player alone, whatever private lines the game adds ("You
    drew to your hand: Castra." once made Roman War's `play Levy` go unechoed)."""
    from bot.host.service import _Applied
    from storage import ActionRecord, EventRecord

    async with host_on() as host:
        await new_game(host, options={"target": 5})
        rec = await host._find(CHANNEL, None)
        seat = rec.seats[0].seat
        user = rec.seats[0].user_id
        who = host._who(rec, seat)
        drew = ActionRecord(1, seat, "play Levy", None, secret=True,
                            events=(EventRecord("note", None, "Fabius plays Levy."),
                                    EventRecord("note", (seat,), "You drew to your hand: Castra.")))
        bare = ActionRecord(2, seat, "discard Goliath", None, secret=True)
        public = ActionRecord(3, seat, "pass", None, secret=False)
        lines = host._feed_rows(rec, [_Applied(drew, None), _Applied(bare, None), _Applied(public, None)])
        assert lines == [(user, f"{who}: play Levy"), "  Fabius plays Levy.", (user, "You drew to your hand: Castra."),
                         f"{who} made a secret choice.", (user, f"{who}: discard Goliath"), f"{who}: pass"], lines


async def test_a_log_page_out_of_range_says_which_pages_there_are():
    """`log 0` / `log 99999999999999999999`: the nearest page is shown with what was wrong."""
    async with host_on() as host:
        await new_game(host, options={"target": 5})
        for asked in (0, 10**20):
            log = await host.log(CHANNEL, ALICE, page=asked)
            assert log.page == 1 and log.pages == 1
            assert f"There is no page {asked}: there is only one page; showing page 1." in log.text
        assert "There is no page" not in (await host.log(CHANNEL, ALICE, page=1)).text
