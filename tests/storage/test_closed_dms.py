"""Storage of closed DMs and of the notices posted about them (migration 0006), so that a
restart neither knocks on closed DMs again nor repeats the public notice."""

from __future__ import annotations

import pytest

from storage import NewSession, UnknownSessionError
from tests.host_helpers import make_storage

pytestmark = pytest.mark.usefixtures("backend")


async def test_closed_dms_and_their_notices_survive_reopening(tmp_path) -> None:
    path = str(tmp_path / "d.db")
    async with await make_storage(path) as st:
        rec = await st.create_session(NewSession(1, 10, "barbarian-hordes", {}, 7, 100), 0.0)
        assert await st.closed_dms([100, 200]) == {}
        await st.set_closed_dms(100, 5.0)
        await st.set_closed_dms(100, 6.0)  # refused again later
        assert await st.claim_closed_dm_notice(rec.id, 100, 6.0)
        assert not await st.claim_closed_dm_notice(rec.id, 100, 7.0)
        with pytest.raises(UnknownSessionError):
            await st.claim_closed_dm_notice(rec.id + 99, 100, 7.0)
    async with await make_storage(path) as st:
        assert await st.closed_dms([100, 200, 100]) == {100: 6.0}
        assert not await st.claim_closed_dm_notice(rec.id, 100, 8.0)
        # the DMs work again: both are forgotten, a later closing is told again
        await st.set_closed_dms(100, None)
        await st.clear_closed_dm_notices(100)
        assert await st.closed_dms([100]) == {}
        assert await st.claim_closed_dm_notice(rec.id, 100, 9.0)
        assert await st.closed_dms([]) == {}
