"""Undo never lets a player peek (ARCHITECTURE.md, trust invariant 2): turning up a card of an
already-shuffled deck draws no randomness and shows no private event, yet it reveals
the deck; the game establishes it (games.core.secrets) and the host asks consent for
an undo past it, or refuses it when only AI seats could agree."""

from __future__ import annotations

import random

import pytest

from bot.host import UndoError
from games.core import get_game
from tests.host_helpers import ALICE, BOB, CHANNEL, GUILD, established, host_on

pytestmark = pytest.mark.usefixtures("backend")


async def _play_until(host, marker: str, rand: random.Random, limit: int = 400):
    """Human actions (random legal choices, ``done`` when offered) until the reply to one
    shows ``marker``; the acting user and that reply."""
    reply = await host.view(CHANNEL)
    for _ in range(limit):
        assert reply.status == "active", reply.text
        p = next(p for p in reply.prompts if p.user_id is not None)
        options = list(p.choices) or await host.complete(CHANNEL, p.user_id)
        choice = "done" if "done" in options else rand.choice(options)
        reply = await host.act(CHANNEL, p.user_id, choice)
        if marker in reply.text:
            return p.user_id, reply
    raise AssertionError(f"{marker!r} never showed in {limit} actions")


async def test_roman_war_solo_undo_of_a_hannibal_card_turned_up_is_refused():
    """Issue 14 item 2: Roman War solo, ``done`` shows "Hannibal makes camp: ..." (the
    Hannibal deck was shuffled at setup, the card is only turned up); an undo would let
    the player see the next card and play differently, so with no other human to agree
    it is refused."""
    async with host_on(seed=7) as host:
        await host.create(GUILD, CHANNEL, ALICE, "roman-war")
        await host.start(CHANNEL, ALICE)
        user, reply = await _play_until(host, "Hannibal makes camp", random.Random(1))
        rec = await host.storage.open_session(CHANNEL)
        last = (await established(host, rec.id, after=rec.seq - 1))[-1]
        assert last.reveals
        with pytest.raises(UndoError, match="no other player"):
            await host.undo(CHANNEL, user)
        assert (await host.storage.open_session(CHANNEL)).seq == rec.seq


async def test_credo_undo_past_a_drawn_play_immediately_event_asks_consent():
    """Issue 14 item 2: Credo, two humans and an AI: an action after which a Church draws
    an Event "(play immediately)" turned up the Event/Article deck; undoing it needs the
    other human's consent."""
    async with host_on(seed=4) as host:
        await host.create(GUILD, CHANNEL, ALICE, "credo")
        await host.join(CHANNEL, BOB)
        await host.add_ai(CHANNEL, ALICE, 1)
        await host.start(CHANNEL, ALICE)
        user, reply = await _play_until(host, "(play immediately", random.Random(4))
        rec = await host.storage.open_session(CHANNEL)
        r = await host.undo(CHANNEL, user)
        assert "must agree" in r.text
        assert (await host.storage.open_session(CHANNEL)).seq == rec.seq  # nothing undone yet
        other = BOB if user == ALICE else ALICE
        await host.undo(CHANNEL, other)  # consent given: now undone
        assert (await host.storage.open_session(CHANNEL)).seq < rec.seq


async def test_a_non_revealing_action_is_undone_freely():
    """The converse: a Roman War Cost Zone placement (a card from one's own hand, face
    down) reveals nothing, so its player may take it back without asking."""
    async with host_on(seed=7) as host:
        await host.create(GUILD, CHANNEL, ALICE, "roman-war")
        reply = await host.start(CHANNEL, ALICE)
        p = next(p for p in reply.prompts if p.user_id == ALICE)
        options = list(p.choices) or await host.complete(CHANNEL, ALICE)
        cost = next(o for o in options if o.startswith("cost "))
        await host.act(CHANNEL, ALICE, cost)
        rec = await host.storage.open_session(CHANNEL)
        stored = (await host.storage.actions(rec.id, after=rec.seq - 1))[-1]
        assert stored.reveals and not stored.reveals_checked  # not established yet: never stored as harmless
        assert not (await established(host, rec.id, after=rec.seq - 1))[-1].reveals
        await host.undo(CHANNEL, ALICE)
        assert (await host.storage.open_session(CHANNEL)).seq == rec.seq - 1


def test_soul_of_the_empire_new_objective_card_is_a_reveal():
    """Issue 14 item 2: a Soul of the Empire action after which a "New Objective Card" is
    turned up from the Objective deck (shuffled at setup; no randomness drawn) reveals it,
    so undo past it needs consent; the game says so (games.core.secrets)."""
    from games.core import Rng, get_game
    from games.core.agents import make_agent
    from games.core.replay import start
    from games.core.secrets import TrackingRng, reveals

    game = get_game("soul-of-the-empire")
    for seed in range(6):
        s = start(game, [0, 1, 2], game.Options(), seed).state
        agents = {x: make_agent(game, "heuristic", seed=x) for x in range(3)}
        for n in range(1, 400):
            if game.outcome(s) is not None:
                break
            seat = sorted(game.to_act(s))[0]
            action = agents[seat].choose(game, s, seat)
            rng = TrackingRng(seed, n)
            step = game.apply(s, seat, action, rng)
            if any("New Objective Card" in e.describe() for e in step.events) and rng.draws == 0:
                assert reveals(game, s, seat, action, step, lambda n=n, seed=seed: Rng(seed, n), False)
                return
            s = step.state
    raise AssertionError("no Objective Card was turned up without a die roll in six games")


async def test_the_costly_check_waits_for_an_undo_and_stops_at_the_first_revealing_step(monkeypatch):
    """The reveals check (several perturbed replays) is not run when an action is stored:
    a row whose verdict is not evident (no randomness, no private event to another seat,
    no revealing step before it in the same operation) is stored as not established, and
    as revealing. An undo establishes the rows it would take back, in order, only until
    one of them reveals; its verdict is the one the full check gives: consent (here:
    refused, no other human)."""
    import bot.host.stepping as stepping
    import bot.host.undo as undo

    checked: list[int] = []
    real = undo.game_reveals

    def counting(game, before, seat, action, step, rng_for, drew):
        checked.append(rng_for().step)
        return real(game, before, seat, action, step, rng_for, drew)

    monkeypatch.setattr(undo, "game_reveals", counting)
    monkeypatch.setattr(stepping, "game_reveals", counting)
    async with host_on(seed=4) as host:  # Credo: an Event turned up from the deck reveals it, unevidently
        await host.create(GUILD, CHANNEL, ALICE, "credo")
        await host.add_ai(CHANNEL, ALICE, 2)
        await host.start(CHANNEL, ALICE)
        rand = random.Random(2)
        rec = await host.storage.open_session(CHANNEL)
        for _ in range(60):
            rec = await host.storage.get_session(rec.id)
            if rec.status != "active":
                break
            before = rec.seq
            options = await host.complete(CHANNEL, ALICE)
            checked.clear()
            await host.act(CHANNEL, ALICE, "done" if "done" in options else rand.choice(options))
            assert checked == [], "no perturbation check when actions are stored"
            rec = await host.storage.get_session(rec.id)
            stored = await host.storage.actions(rec.id, after=before)
            assert all(r.reveals for r in stored if not r.reveals_checked)
            rows = await established(host, rec.id, after=before)
            # a row of the same operation after a revealing one reveals without a check
            assert checked == [r.seq for i, r in enumerate(stored) if not r.reveals_checked
                               and not (r.reveals_chained and rows[i - 1].reveals)]
            first = next((i for i, r in enumerate(rows) if r.reveals), None)
            if (first is not None and not stored[first].reveals_checked
                    and any(not r.reveals_checked for r in stored[first + 1:])):
                assert all(r.reveals for r in rows[first:])
                checked.clear()
                with pytest.raises(UndoError, match="no other player"):
                    await host.undo(CHANNEL, ALICE)
                assert checked == [r.seq for r in stored[: first + 1] if not r.reveals_checked], \
                    "checked up to the first revealing step"
                return
            assert not any(r.reveals for r in rows) or first is not None
    raise AssertionError("no step revealing by the perturbations followed by unchecked ones in 60 actions")


@pytest.mark.parametrize(("game_id", "seed"), [("barbarian-hordes", 7), ("soul-of-the-empire", 3),
                                             ("promised-land", 5)])
async def test_undo_after_a_reveal_of_another_seats_secret_choice_is_refused(game_id, seed):
    """Trust invariant 2: a choice an AI seat made face down (Barbarian Hordes' war
    commitments, CONQUEST PHASE / RULINGS R5; Soul of the Empire's Combat Card, R9;
    Promised Land's secret discard, R27) is shown once the human has chosen too; an undo
    past that would let the human choose again knowing it, so with no other human to
    agree it is refused and nothing is taken back."""
    game = get_game(game_id)
    rand = random.Random(seed)
    async with host_on(seed=seed) as host:
        await host.create(GUILD, CHANNEL, ALICE, game_id)
        await host.add_ai(CHANNEL, ALICE, 1)
        await host.start(CHANNEL, ALICE)
        rec = await host.storage.open_session(CHANNEL)
        for _ in range(600):
            options = await host.complete(CHANNEL, ALICE)
            await host.act(CHANNEL, ALICE, "done" if "done" in options else rand.choice(options))
            before = rec.seq
            rec = await host.storage.get_session(rec.id)
            assert rec.status == "active"
            shown = (game.sealed(await host._state_at(game, rec, before)) - {0}
                     - game.sealed(await host._state_at(game, rec, rec.seq)))
            if shown:  # the AI seat's sealed choice is face up now
                with pytest.raises(UndoError, match="no other player"):
                    await host.undo(CHANNEL, ALICE)
                assert (await host.storage.get_session(rec.id)).seq == rec.seq
                return
    raise AssertionError("no reveal of an AI seat's secret choice in 600 actions")
