"""Auto-pass: a player whose only legal answer is a pass, when the others know it already,
is answered for and the table is told so; a lone pass that depends on a hidden hand is
still asked (trust invariant 3, prompts never betray hands)."""

from __future__ import annotations

import random
from typing import Any

from bot.host.service import Host
from games.core import Prompt, get_game
from games.core.agents import make_agent
from storage import SeatRecord
from storage.replay import load_state
from tests import toygame
from tests.host_helpers import CHANNEL, GUILD, host_on

ALICE, BOB, CAROL = 101, 102, 103
AUTO = "answered automatically"


def count_game() -> Any:
    return toygame.GAME


def window_state(hands: tuple[tuple[int, ...], ...], deck: tuple[int, ...] = tuple(range(1, 10)) * 2) -> Any:
    return toygame.State(target=30, hands=hands, deck=deck, turn=0, window=(1,), last=(0, 5))


class OnlyWithAOne:
    """The Count game, except that blocking needs a 1 in the hand (a hidden card)."""

    def __init__(self, base: Any) -> None:
        self.base = base

    def __getattr__(self, name: str) -> Any:
        return getattr(self.base, name)

    def legal_actions(self, s: Any, seat: int) -> list[Any]:
        legal = self.base.legal_actions(s, seat)
        return [a for a in legal if a.kind != "block" or 1 in s.hands[seat]]


def seats() -> list[SeatRecord]:
    return [SeatRecord(0, ALICE), SeatRecord(1, BOB)]


def test_lone_pass_known_to_all_is_answered() -> None:
    game = count_game()

    class NoBlock(OnlyWithAOne):
        def legal_actions(self, s: Any, seat: int) -> list[Any]:
            return [a for a in self.base.legal_actions(s, seat) if a.kind != "block"]

    s = window_state(((2, 3), (4, 5)))
    prompts = {1: Prompt(kind="respond", text="Block the card or pass.")}
    found = Host._lone_pass(NoBlock(game), s, prompts, seats(), 7)
    assert found is not None and found[0] == 1 and found[1].kind == "pass"


def test_lone_pass_that_a_hidden_hand_decides_is_still_asked() -> None:
    """Bob holds no 1, so pass is his only answer, but as far as Alice knows he could hold
    one (the deck is full of them): answering at once would tell her what he holds (trust
    invariant 3)."""
    game = OnlyWithAOne(count_game())
    s = window_state(((2, 3), (4, 5)), deck=(1,) * 6 + (6, 7))
    assert [a.kind for a in game.legal_actions(s, 1)] == ["pass"]
    prompts = {1: Prompt(kind="respond", text="Block the card or pass.")}
    assert Host._lone_pass(game, s, prompts, seats(), 7) is None


def test_no_auto_pass_for_an_ai_seat_or_a_real_choice() -> None:
    game = count_game()
    s = window_state(((2, 3), (4, 5)))
    prompts = {1: Prompt(kind="respond", text="Block the card or pass.")}
    assert Host._lone_pass(game, s, prompts, seats(), 7) is None  # block or pass: a choice
    assert Host._lone_pass(game, s, prompts, [SeatRecord(0, ALICE), SeatRecord(1, None, ai="heuristic")], 7) is None


async def play_barbarian_hordes(auto_pass: bool) -> tuple[list[str], int]:
    """A short Barbarian Hordes game of three humans (each plays what the heuristic agent
    would): (the public lines, the human decisions asked)."""
    lines: list[str] = []
    asked = 0
    async with host_on(auto_pass=auto_pass) as host:
        await host.create(GUILD, CHANNEL, ALICE, "barbarian-hordes", {"round_limit": 1})
        for u in (BOB, CAROL):
            await host.join(CHANNEL, u)
        reply = await host.start(CHANNEL, ALICE)
        game = get_game("barbarian-hordes")
        agents = {u: make_agent(game, "heuristic", u) for u in (ALICE, BOB, CAROL)}
        rand = random.Random(1)
        while reply.status == "active" and asked < 600:
            lines += reply.text.splitlines()
            rec = await host.storage.get_session(reply.session_id)  # type: ignore[arg-type]
            state = await load_state(host.storage, game, rec)
            prompt = rand.choice([p for p in reply.prompts if p.user_id is not None])
            action = agents[prompt.user_id].choose(game, state, prompt.seat)  # type: ignore[index]
            asked += 1
            reply = await host.act(CHANNEL, prompt.user_id, action=action)  # type: ignore[arg-type]
        lines += reply.text.splitlines()
    return lines, asked


async def test_auto_pass_in_a_game_is_said_in_the_update() -> None:
    lines, asked = await play_barbarian_hordes(True)
    auto = [line for line in lines if AUTO in line]
    assert auto, "some lone passes were answered"
    assert all(": pass" in line or ": done" in line for line in auto)
    off_lines, off_asked = await play_barbarian_hordes(False)
    assert not any(AUTO in line for line in off_lines)
