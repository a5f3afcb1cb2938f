"""A plain pass or done in the open is public: the table reads "<seat>: pass", never "made a
secret choice" (DESIGN.md, Trust invariants: only a secret choice, prompt kind ``secret``, or an
action naming hidden cards is hidden). Tester finding: Credo Event windows, Roman War's Cost Zone
and Defend phases and Promised Land's Actions announced every pass as a secret choice."""

from __future__ import annotations

import random

import pytest

from bot.host.service import _notation_is_public
from games.core import get_game
from games.core.model import Done, Pass
from tests.host_helpers import CHANNEL, host_on
from tests.secret_helpers import open_table

pytestmark = pytest.mark.usefixtures("backend")


def test_a_bare_pass_or_done_is_public_in_every_game():
    """Pass and Done carry nothing but their kind: every game lets the table read them."""
    for game_id in ("barbarian-hordes", "credo", "promised-land", "roman-war", "soul-of-the-empire"):
        game = get_game(game_id)
        assert _notation_is_public(game, None, 0, Pass())
        assert _notation_is_public(game, None, 0, Done())


@pytest.mark.parametrize("game_id", ["credo", "promised-land", "roman-war"])
async def test_passes_in_the_open_are_announced_as_passes(game_id):
    """Humans passing or saying done where nothing is secret: the stored row is public and the
    channel reads "<seat>: pass" (or done), with no "made a secret choice" line for it."""
    rand = random.Random(3)
    seen = 0
    async with host_on(seed=4) as host:
        await open_table(host, game_id)
        rec = await host.storage.open_session(CHANNEL)
        for _ in range(300):
            rec = await host.storage.get_session(rec.id)
            humans = [s.user_id for s in rec.seats if s.seat in rec.to_act and s.user_id is not None]
            if rec.status != "active" or not humans:
                break
            user = rand.choice(humans)
            options = await host.complete(CHANNEL, user, limit=None)
            if not options:
                break
            passes = [o for o in options if o in ("pass", "done")]
            choice = rand.choice(passes) if passes and rand.random() < 0.7 else rand.choice(options)
            before = rec.seq
            reply = await host.act(CHANNEL, user, choice)
            rows = [r for r in await host.storage.actions(rec.id, after=before)
                    if r.user_id == user and r.notation == choice]
            if choice in ("pass", "done") and rows and rows[0].seq == before + 1 and not rows[0].secret:
                seen += 1
                assert "made a secret choice" not in reply.text.split(f": {choice}")[0].splitlines()[-1]
                assert f": {choice}" in reply.text, reply.text
            if seen >= 3:
                break
    assert seen >= 3, f"only {seen} public passes in {game_id}"
