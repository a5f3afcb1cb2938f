"""An action as typed may name a hidden card ("keep Article 3", "cost Supply Train"):
the host shows the notation to its player only, unless the game declares it public
(``notation_is_public``); the others learn what happened from the public events."""

from __future__ import annotations

import random

import pytest

from games.core import get_game
from games.core.base import GameDefaults
from tests.host_helpers import ALICE, CHANNEL, GUILD, OUTSIDER, host_on

pytestmark = pytest.mark.usefixtures("backend")


@pytest.mark.parametrize("game_id,ai", [("roman-war", 2), ("credo", 2)])
async def test_actions_of_games_without_public_notation_stay_private(game_id, ai):
    """Roman War keeps every notation private (the default) but a bare pass or done; Credo
    also placing an Article on a mat, which it announces to everyone anyway."""
    game = get_game(game_id)
    if game_id == "roman-war":
        assert type(game).notation_is_public is GameDefaults.notation_is_public  # the default: private

    def public(row) -> bool:
        action = row.action or {}
        if set(action) == {"kind"} and action["kind"] in ("pass", "done"):
            return True  # a bare pass or done names nothing hidden (tests/host/test_host_public_pass.py)
        return game_id == "credo" and action.get("kind") == "place"

    rand = random.Random(3)
    async with host_on(seed=5) as host:
        await host.create(GUILD, CHANNEL, ALICE, game_id)
        await host.add_ai(CHANNEL, ALICE, ai)
        reply = await host.start(CHANNEL, ALICE)
        for _ in range(40):
            if reply.status != "active":
                break
            prompt = next((p for p in reply.prompts if p.user_id == ALICE), None)
            if prompt is None:
                break
            options = await host.complete(CHANNEL, ALICE) or list(prompt.choices)
            reply = await host.act(CHANNEL, ALICE, rand.choice(options))
        rec = await host.storage.open_session(CHANNEL) or await host.storage.get_session(reply.session_id)
        rows = await host.storage.actions(rec.id, after=0)
        assert rows and all(r.secret != public(r) for r in rows if r.seq > 0)
        by_seq = {r.seq: r for r in rows}
        log = (await host.log(CHANNEL, OUTSIDER, per_page=100, session_id=rec.id)).log
        assert all((e.notation == "(a secret choice)") != public(by_seq[e.seq]) for e in log if e.seq > 0)


async def test_barbarian_hordes_declares_its_notation_public_outside_war_commitments():
    async with host_on(seed=5) as host:
        await host.create(GUILD, CHANNEL, ALICE, "barbarian-hordes")
        await host.add_ai(CHANNEL, ALICE, 2)
        reply = await host.start(CHANNEL, ALICE)
        options = await host.complete(CHANNEL, ALICE)
        reply = await host.act(CHANNEL, ALICE, options[0])
        assert f": {options[0]}" in reply.text  # a nation pick is public as typed
        rec = await host.storage.open_session(CHANNEL)
        rows = await host.storage.actions(rec.id, after=0)
        assert rows and not any(r.secret for r in rows if r.seq > 0)


def test_soul_of_the_empire_notation_is_public_outside_combat_and_discards():
    """Soul of the Empire: moves, recruits, purchases and cards played are public as typed; a
    Combat Card choice, the combat decisions (keeping Pharaoh's Fate face down) and a discard
    from the hand are not."""
    from games.soul_of_the_empire.model import Commit, DiscardPower, EndMain, Keep, Move
    from tests.games.soul_of_the_empire.test_soul_of_the_empire_rules import board, fight, fresh, g

    s = fresh()
    assert g.notation_is_public(s, 0, EndMain())
    assert g.notation_is_public(s, 0, Move(die=0, paths=()))
    assert not g.notation_is_public(s, 0, DiscardPower(card="industry"))
    s = board(fresh(), {"gallia": {"rome": 2, "coalition": 2}})
    s = fight(s, "coalition", "rome", "gallia", "berserker-charge", "legio")
    assert s.combat is not None and s.combat.stage == "plunder"
    in_combat = s.model_copy(update={"combat": s.combat.model_copy(update={"stage": "choose"})})
    assert not g.notation_is_public(in_combat, 1, Commit(card="legio"))
    assert not g.notation_is_public(in_combat, 2, Keep())
