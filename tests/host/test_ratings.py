"""Statistics and skill ratings (bot.host.ratings, bot.host.results, bot.host.stats): which games
count, how winners, joint winners, draws, teams and a fixed opponent are rated (README,
"Statistics and ratings"), and ``tabula ratings rebuild`` reproducing the stored ratings."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from openskill.models import PlackettLuce

from bot.cli import main
from bot.host.ratings import MIN_OWN_SHARE, credited_user, rate, rate_all
from bot.host.results import rebuild
from bot.host.stats import compare_lines, player_lines, read_simulate, server_lines
from storage import GameResult, RatingRecord, SeatResult, SqliteStorage
from tests.finished_games import play_out
from tests.host_helpers import ALICE, BOB, CAROL, Clock, Host, host_on, settings


def result(seats: list[tuple[int | None, int, bool]], sid: int = 1, game: str = "credo",
           rated: bool = True) -> GameResult:
    """(user, side, won) per seat; AI seats have user None."""
    return GameResult(sid, 1, game, float(sid), tuple(
        SeatResult(i, u, None, side, won, rated and u is not None) for i, (u, side, won) in enumerate(seats)))


def test_winner_takes_first_place_everyone_else_shares_second() -> None:
    m = PlackettLuce()
    new = {r.user_id: r for r in rate(result([(1, 0, True), (2, 1, False), (3, 2, False)]), {})}
    want = m.rate([[m.rating()], [m.rating()], [m.rating()]], ranks=[1, 2, 2])
    assert (new[1].mu, new[1].sigma) == (want[0][0].mu, want[0][0].sigma)
    assert new[2].mu == new[3].mu == want[1][0].mu
    assert (new[1].wins, new[2].wins, new[1].games) == (1, 0, 1)


def test_joint_winners_share_first_place_and_no_winner_is_a_draw() -> None:
    m = PlackettLuce()
    joint = {r.user_id: r for r in rate(result([(1, 0, True), (2, 1, True), (3, 2, False)]), {})}
    want = m.rate([[m.rating()], [m.rating()], [m.rating()]], ranks=[1, 1, 2])
    assert joint[1].mu == joint[2].mu == want[0][0].mu and joint[1].wins == joint[2].wins == 1
    draw = {r.user_id: r for r in rate(result([(1, 0, False), (2, 1, False)]), {})}
    assert draw[1].mu == draw[2].mu == 25.0 and draw[1].sigma < 25 / 3


def test_teams_are_rated_as_teams_promised_land() -> None:
    """Promised Land: the Hebrews and the Heathens are two teams (the winners are a team)."""
    m = PlackettLuce()
    new = {r.user_id: r for r in rate(result([(1, 0, False), (2, 1, True), (3, 0, False), (4, 1, True)],
                                             game="promised-land"), {})}
    want = m.rate([[m.rating(), m.rating()], [m.rating(), m.rating()]], ranks=[2, 1])
    assert new[2].mu == new[4].mu == want[1][0].mu and new[1].mu == new[3].mu == want[0][0].mu


def test_coop_team_against_the_fixed_hannibal_deck() -> None:
    """Roman War co-op: one side only, rated against a fixed opponent at the starting rating."""
    m = PlackettLuce()
    lost = {r.user_id: r for r in rate(result([(1, 0, False), (2, 0, False)], game="roman-war"), {})}
    want = m.rate([[m.rating(), m.rating()], [m.rating()]], ranks=[2, 1])
    assert lost[1].mu == lost[2].mu == want[0][0].mu < 25
    won = {r.user_id: r for r in rate(result([(1, 0, True), (2, 0, True)], game="roman-war"), {})}
    assert won[1].mu > 25 and won[1].wins == 1


def test_ai_seats_play_at_the_starting_rating_and_are_not_stored() -> None:
    m = PlackettLuce()
    before = {1: RatingRecord("credo", 1, 30.0, 5.0, 3, 2)}
    new = rate(result([(1, 0, False), (None, 1, True), (2, 2, False)]), before)
    assert {r.user_id for r in new} == {1, 2}
    want = m.rate([[m.rating(mu=30.0, sigma=5.0)], [m.rating()], [m.rating()]], ranks=[2, 1, 2])
    assert next(r for r in new if r.user_id == 1).mu == want[0][0].mu
    assert next(r for r in new if r.user_id == 1).games == 4


def test_a_seat_the_ai_played_for_long_is_not_rated() -> None:
    assert credited_user({7: 75, None: 25}, 7) == (7, True)
    assert credited_user({7: 74, None: 26}, None) == (7, False)
    assert credited_user({7: 40, 8: 60}, 8) == (8, False)  # two players shared the seat
    assert credited_user({None: 10}, None) == (None, False)
    assert MIN_OWN_SHARE == 0.75


def test_rate_all_applies_results_in_order_of_their_end() -> None:
    a = result([(1, 0, True), (2, 1, False)], sid=1)
    b = result([(1, 0, False), (2, 1, True)], sid=2)
    assert rate_all([b, a]) == rate_all([a, b])
    assert rate_all([a, b]) != rate_all([GameResult(2, 1, "credo", 0.5, b.seats), a])


async def test_finished_games_record_results_and_ratings_and_rebuild_reproduces_them(tmp_path: Path) -> None:
    clock = Clock()
    async with host_on(str(tmp_path / "g.db"), clock=clock) as host:
        for i, players in enumerate([(ALICE, BOB), (BOB, CAROL, ALICE), (ALICE, BOB)]):
            clock.advance(60)
            await play_out(host, "count", list(players), channel=10 + i, options={"target": 12}, seed=i + 1)
        clock.advance(60)
        await play_out(host, "count", [CAROL], ai=1, channel=20, options={"target": 12})  # one human: not rated
        results = await host.storage.results(guild_id=1)
        assert len(results) == 4
        assert [any(x.rated for x in r.seats) for r in results] == [True, True, True, False]
        stored = await host.storage.ratings("count")
        assert {r.user_id: r.games for r in stored} == {ALICE: 3, BOB: 3, CAROL: 1}
        report = await rebuild(host.storage, clock())
        assert report.games == 4 and report.rated_games == 3 and report.differences == []
        assert await host.storage.ratings("count") == stored
        # a rating changed by hand is found and put back
        await host.storage.replace_results(results, [*stored[:-1], RatingRecord("count", stored[-1].user_id,
                                                                                 1.0, 1.0, 9, 9)], clock())
        report = await rebuild(host.storage, clock())
        assert len(report.differences) == 1 and "stored mu 1.0" in report.differences[0]
        assert await host.storage.ratings("count") == stored
        # the host's answers
        board = (await host.leaderboard(1, "count")).text
        assert board.index(f"<@{stored[0].user_id}>") > 0 and "3 games" in board
        mine = (await host.stats(1, user_id=CAROL)).text
        assert "<@300>: 2 finished games" in mine
        server = (await host.stats(1, game_id="count")).text
        assert "4 games, 3 rated" in server and "2 players (3 games)" in server
        assert (await host.stats(2)).text == "No finished game here yet."


def test_stats_lines_per_player_and_per_faction() -> None:
    rs = [GameResult(1, 1, "barbarian-hordes", 1.0, (SeatResult(0, 5, "Huns", 0, True, True),
                                                     SeatResult(1, 6, "Franks", 1, False, True))),
          GameResult(2, 1, "barbarian-hordes", 2.0, (SeatResult(0, 6, "Huns", 0, True, True),
                                                     SeatResult(1, 5, "Goths", 1, False, True),
                                                     SeatResult(2, None, "Franks", 2, False, False)))]
    lines = player_lines(rs, 5, "Ann")
    assert lines[0] == "Ann: 2 finished games, 1 won (50%)."
    assert "2: 1 played, 1 won (100%)" in lines[2] and "3: 1 played, 0 won (0%)" in lines[2]
    assert "Goths: 1 played, 0 won (0%)" in lines[3] and "Huns: 1 played, 1 won (100%)" in lines[3]
    server = server_lines(rs)
    assert "  2 players (1 game): Huns 1/1 (100%); Franks 0/1 (0%)" in server
    assert "  3 players (1 game): Huns 1/1 (100%); Franks 0/1 (0%); Goths 0/1 (0%)" in server


SIMULATE_REPORT = """Barbarian Hordes: 20 games, 4 players, heuristic agents, seed 1
games per second: 4.0 (5.00 s)
finished games: 20
mean actions per game: 300.0 (max 400)
win rate (wins / games in which it held a seat at the end):
  nation     games   wins    rate
  Huns          10      4   40.0%
  Franks        12      3   25.0%
games without a winner: 0
errors: 0
"""


def test_simulate_report_is_read_back_and_compared() -> None:
    sims = read_simulate(SIMULATE_REPORT)
    assert sims[0].rows == {"Huns": (10, 4), "Franks": (12, 3)} and sims[0].players == "4"
    rs = [GameResult(1, 1, "barbarian-hordes", 1.0, (SeatResult(0, 5, "Huns", 0, True, True),
                                                     SeatResult(1, 6, "Franks", 1, False, True)))]
    lines = compare_lines(rs, sims)
    assert "  Huns: here 1/1 (100%); simulated 4/10 (40%)" in lines
    with pytest.raises(ValueError, match="no `tabula simulate` report"):
        read_simulate("hello")


def test_cli_stats_and_ratings_rebuild(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "g.db")

    async def play() -> None:
        st = SqliteStorage(db)
        await st.open()
        try:
            host = Host(st, settings(), clock=Clock(), seeds=lambda: 5)
            await play_out(host, "count", [ALICE, BOB], options={"target": 12})
        finally:
            await st.close()

    asyncio.run(play())
    assert main(["ratings", "rebuild", "--db", db]) == 0
    out = capsys.readouterr().out
    assert "1 finished game" in out and "identical to the stored ones" in out
    sim = tmp_path / "sim.txt"
    sim.write_text(SIMULATE_REPORT.replace("Barbarian Hordes", "Count"))
    assert main(["stats", "--db", db, "--game", "count", "--simulated", str(sim)]) == 0
    out = capsys.readouterr().out
    assert "1 finished game." in out and "simulated" in out
    assert main(["stats", "--db", db, "--player", str(ALICE)]) == 0
    assert "user 100: 1 finished game," in capsys.readouterr().out
    assert main(["stats", "--db", db, "--simulated", str(tmp_path / "none.txt")]) == 2
