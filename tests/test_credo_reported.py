"""Credo: positions reported against the rule text (shared/seeds/003_a89d0bca05ff4a91.txt),
replayed through the game's own notation from a seed, as a player types them.

Each test names the rule sentence or ruling (games/credo/RULINGS.md) it enforces.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from games.core import IllegalActionError, Rng
from games.core.replay import start
from games.credo.game import GAME
from games.credo.model import Council, Window
from tests.test_credo_rules import make


class Table:
    """A game from ``seed`` driven by typed text; step n draws from ``Rng(seed, n)``."""

    def __init__(self, seed: int, players: int) -> None:
        self.seed = seed
        self.step = 0
        self.s = start(GAME, list(range(players)), None, seed).state

    def play(self, seat: int, text: str) -> None:
        """``seat`` is 1-based (Church 1 ...), as in the terminal."""
        a = GAME.parse_action(self.s, seat - 1, text)
        self.step += 1
        self.s = GAME.apply(self.s, seat - 1, a, Rng(self.seed, self.step)).state

    def run(self, moves: Sequence[tuple[int, str]]) -> None:
        for seat, text in moves:
            self.play(seat, text)

    def legal(self, seat: int) -> list[str]:
        return [GAME.format_action(self.s, a) for a in GAME.legal_actions(self.s, seat - 1)]


# tabula play credo --players 3 --ai 0 --seed 2204: Church 2 holds Article 2 Orthodox as a
# Customary Practice, Church 3 Article 2 solar; Church 1 refutes Church 2's Orthodox in the debate.
SEED_2204 = [
    (1, "place Article 4 Manichaean"),
    (1, "place Article 8 Orthodox"),
    (1, "place Article 5 Homoean/Semi-Arian"),
    (1, "place Article 7 Orthodox"),
    (1, "place Article 6 Orthodox"),
    (1, "done"),
    (2, "place Article 5 Amonian"),
    (2, "place Article 8 Monophysite"),
    (2, "place Article 1 Orthodox"),
    (2, "place Article 9 Nicene"),
    (2, "place Article 2 Orthodox"),
    (2, "done"),
    (3, "place Article 10 Gnostic (lose 2 Followers)"),
    (3, "pick 5,000 Followers"),
    (3, "pick 500,000 Followers"),
    (3, "place Articles 3&4 Adoptionist"),
    (3, "place Article 1 Orthodox"),
    (3, "place Article 6 Monophysite"),
    (3, "place Article 2 solar"),
    (3, "done"),
    (1, "done"),
    (2, "place Article 6 Apollinarian"),
    (2, "convoke"),
    (3, "discard Article 2 solar"),
    (3, "discard Deathbed Conversion"),
    (3, "done"),
    (1, "place Article 3 Judaic"),
    (1, "done"),
    (2, "done"),
    (3, "done"),
    (1, "done"),
    (2, "reject Articles 3,4&5 Mandaean"),
    (2, "discard New Emperor"),
    (2, "convoke"),
    (3, "pass"),
    (1, "play Church Father with Bishop of Laodicea to refute Article 2 Orthodox of Church 2"),
    (1, "pass"),
    (2, "pass"),
    (3, "pass"),
]


def test_r29_refuted_doctrine_without_holder_leaves_the_ballot() -> None:
    """Issue input (seed 2204): a doctrine whose only holder lost it in the debate is not on the
    ballot. "Each Church must announce if it has a doctrine for the Article under discussion";
    the Winners are "those who possess the exact doctrine attaining the plurality on their Church
    mats" (General Councils, The Debate; RULINGS.md R29). Before the fix, Church 2's vote for it
    won and accepting it raised IndexError, locking the game."""
    t = Table(2204, 3)
    t.run(SEED_2204[:35])
    assert GAME.doctrine_of(t.s, 1, 2) is not None  # Church 2 still holds Article 2 Orthodox
    t.run(SEED_2204[35:])
    assert GAME.doctrine_of(t.s, 1, 2) is None  # refuted in the debate
    assert t.s.council is not None and t.s.council.stage == "vote"
    assert t.s.council.proposals == ("Article 2 solar",)
    t.play(1, "abstain")
    # Church 2 has no doctrine now: it may abstain or vote for a doctrine still proposed
    assert t.legal(2) == ["abstain", "vote Article 2 solar"]
    with pytest.raises(IllegalActionError, match="vote Article 2 solar"):
        t.play(2, "vote Article 2 Orthodox")
    t.play(2, "vote Article 2 solar")
    assert GAME.article(t.s.creed[1]).key == "Article 2 solar"
    assert GAME.to_act(t.s)  # the game goes on


def test_r29_ballot_empty_when_every_doctrine_lost() -> None:
    """A Council whose proposed doctrines all lost their holders in the debate has nothing to
    vote on: the Article stays undecided (nobody "possess[es] the exact doctrine", R29)."""
    s = make(3, active=0)
    s = s.model_copy(
        update={
            "council": Council(
                article=1, convoker=None, proposals=("Article 1 Orthodox", "Article 1 pagan")
            ),
            "window": Window(kind="debate", reason="Debate on Article 1.", waiting=(0,)),
        }
    )
    s = GAME.apply(s, 0, GAME.parse_action(s, 0, "pass"), Rng(0, 1)).state
    assert s.council is None
    assert s.creed[0] is None
    assert GAME.to_act(s) == {0: GAME.to_act(s)[0]} and s.stage == "main"
