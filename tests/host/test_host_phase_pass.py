"""Auto-pass as a player's own setting (``/game prefs``), and "pass for the rest of this
phase": the host passes for the seat at its questions until the phase (``Game.phase_mark``)
changes, says so in the public update, and the player can stop it. Only a pass the others
know to be legal is given (trust invariant 3, prompts never betray hands)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.host.service import Host
from games.core import get_game
from games.core.agents import make_agent
from games.core.errors import IllegalActionError
from games.core.replay import start
from games.core.rng import Rng
from games.core.secrets import perturb
from storage.replay import load_state
from tests.host_helpers import CHANNEL, GUILD, host_on

ALICE, BOB, CAROL = 101, 102, 103
AUTO = "answered automatically"
GAMES = ("barbarian-hordes", "credo", "promised-land", "soul-of-the-empire", "roman-war")


async def _state(host: Host, game: Any, session_id: int) -> Any:
    return await load_state(host.storage, game, await host.storage.get_session(session_id))


async def _three_humans(host: Host, game_id: str) -> Any:
    await host.create(GUILD, CHANNEL, ALICE, game_id, {"round_limit": 1} if game_id == "barbarian-hordes" else {})
    for u in (BOB, CAROL):
        await host.join(CHANNEL, u)
    return await host.start(CHANNEL, ALICE)


@pytest.mark.parametrize("game_id", GAMES)
def test_every_game_names_its_phase_from_public_information(game_id: str) -> None:
    """The phase mark of a state (the span "pass for the rest of this phase" lasts) is the
    same for every state the seats cannot tell apart (hidden parts drawn anew), and it moves
    on during a game."""
    game = get_game(game_id)
    players = max(game.min_players, 3) if game_id != "roman-war" else 2
    state = start(game, list(range(players)), game.Options(), 5).state
    agent = make_agent(game, "random", seed=5)
    marks = set()
    rand = random.Random(3)
    for n in range(1, 150):
        if game.outcome(state) is not None:
            break
        marks.add(game.phase_mark(state))
        for _ in range(3):
            assert game.phase_mark(perturb(game, state, frozenset(), rand)) == game.phase_mark(state)
        seat = sorted(game.to_act(state))[0]
        state = game.apply(state, seat, agent.choose(game, state, seat), Rng(5, n)).state
    assert len(marks) > 1


async def test_auto_pass_follows_the_players_own_setting() -> None:
    """With the host's default on, a player who turned auto-pass off is asked; the others
    are still answered for (issue: auto-pass as a per-player setting)."""
    async with host_on(auto_pass=True) as host:
        reply = await host.set_prefs(BOB, auto_pass=False)
        assert "auto-pass off" in reply.text
        reply = await _three_humans(host, "barbarian-hordes")
        game = get_game("barbarian-hordes")
        agents = {u: make_agent(game, "heuristic", u) for u in (ALICE, BOB, CAROL)}
        lines: list[str] = []
        bob_lone = 0
        for _ in range(400):
            if reply.status != "active":
                break
            lines += reply.text.splitlines()
            state = await _state(host, game, reply.session_id)  # type: ignore[arg-type]
            prompt = next(p for p in reply.prompts if p.user_id is not None)
            legal = list(game.legal_actions(state, prompt.seat))
            if prompt.user_id == BOB and len(legal) == 1 and game.format_action(state, legal[0]) in ("pass", "done"):
                bob_lone += 1
            action = agents[prompt.user_id].choose(game, state, prompt.seat)  # type: ignore[index]
            reply = await host.act(CHANNEL, prompt.user_id, action=action)  # type: ignore[arg-type]
        auto = [line for line in lines if AUTO in line]
        assert bob_lone > 0, "Bob met lone passes and was asked them"
        assert auto
        assert all(str(BOB) not in line for line in auto)


async def test_pass_for_the_rest_of_the_phase_is_said_kept_and_stopped() -> None:
    """Barbarian Hordes: a player passing for the rest of the phase is not asked again in
    it where pass answers, the table reads it, a new phase asks them again, and
    ``stop_passing`` ends it at once."""
    game = get_game("barbarian-hordes")
    async with host_on(auto_pass=False) as host:
        reply = await _three_humans(host, "barbarian-hordes")
        agents = {u: make_agent(game, "heuristic", u) for u in (ALICE, BOB, CAROL)}
        passer: tuple[int, int, str] | None = None  # (user, seat, mark)
        said = asked_again_in_phase = 0
        for _ in range(400):
            if reply.status != "active":
                break
            state = await _state(host, game, reply.session_id)  # type: ignore[arg-type]
            mark = game.phase_mark(state)
            humans = [p for p in reply.prompts if p.user_id is not None]
            if passer is not None and mark == passer[2]:
                for p in humans:
                    if p.seat == passer[1] and Host._pass_action(game, state, p.seat) is not None \
                            and p.kind == "respond":
                        asked_again_in_phase += 1
            if passer is None:
                can = [p for p in humans if p.phase_pass and p.kind == "respond"]
                if can:  # a response window: pass is always among its answers
                    p = can[0]
                    reply = await host.act(CHANNEL, p.user_id, "pass", for_phase=True)  # type: ignore[arg-type]
                    assert "passes for the rest of this phase" in reply.text
                    passer = (p.user_id, p.seat, mark)  # type: ignore[assignment]
                    continue
            said += sum("passing for the rest of this phase, as they chose" in line
                        for line in reply.text.splitlines())
            p = humans[0]
            action = agents[p.user_id].choose(game, state, p.seat)  # type: ignore[index]
            reply = await host.act(CHANNEL, p.user_id, action=action)  # type: ignore[arg-type]
        assert passer is not None
        assert asked_again_in_phase == 0
        assert said > 0, "the host passed for the seat later in the same phase"
        stopped = await host.stop_passing(CHANNEL, passer[0], session_id=reply.session_id)
        assert "asked again" in stopped.text
        assert await host.storage.standing_passes(reply.session_id) == {}  # type: ignore[arg-type]


async def test_pass_for_the_phase_needs_pass_among_the_answers() -> None:
    async with host_on(auto_pass=False) as host:
        reply = await _three_humans(host, "barbarian-hordes")
        game = get_game("barbarian-hordes")
        for _ in range(50):
            state = await _state(host, game, reply.session_id)  # type: ignore[arg-type]
            p = next(p for p in reply.prompts if p.user_id is not None)
            if Host._pass_action(game, state, p.seat) is None:
                before = (await host.storage.get_session(reply.session_id)).version  # type: ignore[arg-type]
                with pytest.raises(IllegalActionError, match="Pass is not among your answers now"):
                    await host.act(CHANNEL, p.user_id, "pass", for_phase=True)  # type: ignore[arg-type]
                after = (await host.storage.get_session(reply.session_id)).version  # type: ignore[arg-type]
                assert before == after
                return
            reply = await host.act(CHANNEL, p.user_id, action=make_agent(game, "heuristic", 1).choose(  # type: ignore[arg-type]
                game, state, p.seat))
        pytest.fail("no question without pass met")
