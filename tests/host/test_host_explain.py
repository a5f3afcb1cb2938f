"""`explain` alone (the host's ``aid(..., "explain")``, /game explain and the terminal's
`explain`) explains the decision asked now, the same way in every game: the question, what
may be done now, then the text of what those options name."""

from __future__ import annotations

import pytest

from bot.host import Host
from games.core import get_game
from games.core.explain import choices_summary
from tests.host_helpers import ALICE, CHANNEL, GUILD, host_on

pytestmark = pytest.mark.usefixtures("backend")

GAMES = ["barbarian-hordes", "credo", "promised-land", "roman-war", "soul-of-the-empire"]


async def _asked_alice(host: Host, game_id: str) -> str:
    """Start ``game_id`` with Alice and AI seats, play until Alice is asked; her `explain`."""
    g = get_game(game_id)
    await host.create(GUILD, CHANNEL, ALICE, game_id)
    await host.add_ai(CHANNEL, ALICE, max(g.min_players, 2) - 1)
    reply = await host.start(CHANNEL, ALICE)
    assert any(p.user_id == ALICE for p in reply.prompts), reply.text
    return (await host.aid(CHANNEL, ALICE, "explain")).text


@pytest.mark.parametrize("game_id", GAMES)
async def test_explain_alone_gives_the_question_and_what_can_be_done_now(game_id: str) -> None:
    async with host_on(seed=5) as host:
        text = await _asked_alice(host, game_id)
        rec = await host.storage.open_session(CHANNEL)
        g = get_game(game_id)
        state = await host._state(g, rec)
        seat = rec.seat_of(ALICE).seat
        lines = text.splitlines()
        assert lines[0] == f"You are asked: {g.to_act(state)[seat].text}"
        assert lines[1] == f"What you can do now: {choices_summary(list(g.complete(state, seat, '')))}."


async def test_soul_of_the_empire_marker_in_rome_is_the_territory_not_the_faction() -> None:
    """Setup ("Place the Jewish Objective Point Marker in the Roman Empire"): `marker Rome` names
    the territory Rome, so `explain` does not describe the Rome faction; the question's
    Jewish faction is explained, and the options are summed up by command word."""
    async with host_on(seed=1) as host:
        text = await _asked_alice(host, "soul-of-the-empire")
    assert "What you can do now: marker (" in text
    assert "Rome (faction)" not in text
    assert "Jewish (faction)" in text


def test_soul_of_the_empire_tells_the_faction_rome_from_the_territory() -> None:
    g = get_game("soul-of-the-empire")
    names = lambda *texts: [e.name for e in g.named_by(texts)]  # noqa: E731
    assert names("marker Rome", "move 4: 2 Rome-Italia", "recruit 3: 1 Rome", "attack 2: Coalition in Rome") == [
        "Coalition"
    ]
    assert names("attack 2: Rome in Jerusalem") == ["Rome"]
    assert names("Rome — Main Phase: take actions with your dice, or end the Main Phase.") == []
    assert names("claim 4: Pax Romana") == ["Pax Romana"]
