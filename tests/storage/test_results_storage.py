"""Storage of finished games' results, ratings and mirrors (migration 0008) on both backends."""

from __future__ import annotations

import pytest

from storage import GameResult, NewSession, RatingRecord, SeatResult, UnknownSessionError
from tests.host_helpers import make_storage

pytestmark = pytest.mark.usefixtures("backend")


def _result(sid: int, ended: float, game: str = "credo", guild: int | None = 1) -> GameResult:
    return GameResult(sid, guild, game, ended, (SeatResult(0, 100, "Rome", 0, True, True),
                                                SeatResult(1, None, None, 1, False, False)))


async def test_results_ratings_and_mirrors_are_stored_and_read_back(tmp_path) -> None:
    path = str(tmp_path / "r.db")
    async with await make_storage(path) as st:
        a = await st.create_session(NewSession(1, 10, "credo", {}, 7, 100), 0.0)
        b = await st.create_session(NewSession(2, 11, "credo", {}, 8, 100), 0.0)
        rating = RatingRecord("credo", 100, 26.5, 7.25, 1, 1)
        assert await st.record_result(_result(a.id, 5.0), [rating], 5.0)
        assert not await st.record_result(_result(a.id, 5.0), [rating], 6.0)  # stored already
        with pytest.raises(UnknownSessionError):
            await st.record_result(_result(a.id + 99, 5.0), [], 6.0)
        assert await st.record_result(_result(b.id, 4.0, guild=2), [], 7.0)
        assert await st.seat_actors(a.id) == {}
        assert await st.set_mirror(a.id, 50, 100, 1.0)
        assert not await st.set_mirror(a.id, 50, 100, 2.0)
        assert await st.set_mirror(a.id, 51, 100, 3.0)
        with pytest.raises(UnknownSessionError):
            await st.set_mirror(a.id + 99, 50, 100, 1.0)
    async with await make_storage(path) as st:
        assert [r.session_id for r in await st.results()] == [b.id, a.id]  # in order of their end
        assert await st.results(guild_id=1) == [_result(a.id, 5.0)]
        assert await st.results(game_id="roman-war") == []
        assert await st.ratings("credo") == [rating]
        assert await st.mirrors(a.id) == [50, 51]
        assert await st.clear_mirrors(a.id, 50) == 1
        assert await st.clear_mirrors(a.id) == 1
        assert await st.mirrors(a.id) == []
        await st.replace_results([_result(b.id, 4.0)], [RatingRecord("credo", 100, 20.0, 8.0, 1, 0)], 9.0)
        assert [r.session_id for r in await st.results()] == [b.id]
        assert [r.mu for r in await st.ratings("credo")] == [20.0]
