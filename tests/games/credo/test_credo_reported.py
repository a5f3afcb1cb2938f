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
from tests.games.credo.test_credo_rules import make


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


def _max_articles(cards: Sequence[tuple[int, ...]]) -> tuple[int, bool]:
    """Independent brute force over every subset of the dealt cards: the most Articles a
    mat can hold (Set Up a., g.), and whether an Article 1 can be among them (d.)."""
    from itertools import combinations

    best = (0, False)
    for k in range(min(9, len(cards)), 0, -1):
        for sub in combinations(cards, k):
            nums = [n for c in sub for n in c]
            if len(nums) == len(set(nums)):
                best = max(best, (k, 1 in nums))
        if best[0]:
            return best
    return best


def test_setup_b_f_seed_43_never_stops_short() -> None:
    """Issue input (seed 43, 6 players): Church 1's nine cards hold Articles 1&2 dualist,
    Articles 2, 3&4, 5, 8, 9, 10. Before the fix, `place Article 2 solar` then `place Article 5
    Amonian` left only `done`, with two Articles on the mat. Set Up b.: "He must place as many
    Articles as possible"; d.: "Article 1, if held, must be placed as an Article of Faith"; f.: "If
    possible he must have three Articles of Faith" (R13). The Article 2 that would leave the
    dualist unplaceable is refused with the reason; every legal line then reaches six Articles."""
    t = Table(43, 6)
    with pytest.raises(IllegalActionError, match=r"Set Up d\.") as e:
        t.play(1, "place Article 2 solar")
    assert "place Articles 1&2 dualist" in str(e.value)
    t.play(1, "place Article 5 Amonian")
    assert "done" not in t.legal(1)
    t.play(1, "place Articles 1&2 dualist")
    while "done" not in t.legal(1):
        assert all(x.startswith("place") for x in t.legal(1))
        t.play(1, t.legal(1)[-1])
    mat = [GAME.name(c) for c in t.s.players[0].mat if c]
    assert len(mat) == 6 and len([c for c in t.s.players[0].mat[:3] if c]) == 3
    assert "Articles 1&2 dualist" in mat[:3]


def test_setup_b_without_article_one_no_box_kept() -> None:
    """Set Up b. and f.: with no Article 1 to wait for, nothing keeps an Article of Faith box
    empty; the seed-43 hand without its dualist places all six of its numbers in any order."""
    from tests.games.credo.test_credo_rules import art, setup_state

    names = ["Article 2 solar", "Article 5 Amonian", "Article 10 Nicene", "Article 8 Orthodox",
             "Article 9 Nicene", "Article 10 Origenist", "Articles 3&4 Adoptionist"]  # fmt: skip
    hand = [art(x) for x in names]
    s = setup_state([hand, [], []])
    for name in ("Article 2 solar", "Article 5 Amonian"):
        s = GAME.apply(s, 0, GAME.parse_action(s, 0, f"place {name}"), Rng(0, 1)).state
    legal = [GAME.format_action(s, a) for a in GAME.legal_actions(s, 0)]
    assert "done" not in legal and "place Article 8 Orthodox" in legal


@pytest.mark.parametrize("players", [3, 6])
def test_setup_b_d_random_lines_reach_the_most_articles(players: int) -> None:
    """Set Up b., d., f. (R13) over many deals: whichever legal placements a Church makes,
    in any order, `done` becomes legal only when its mat holds the most Articles its nine
    cards allow, an Article 1 among them whenever one could be."""
    import random

    r = random.Random(17)
    for seed in range(40):
        s = start(GAME, list(range(players)), None, seed).state
        step = 0
        for x in range(players):
            dealt = tuple(GAME.article(c).numbers for c in s.players[x].hand)
            while True:
                if s.tasks:
                    t0 = s.tasks[0]
                    a = GAME.legal_actions(s, t0.chooser)[0]
                    step += 1
                    s = GAME.apply(s, t0.chooser, a, Rng(seed, step)).state
                    continue
                legal = GAME.legal_actions(s, x)
                texts = [GAME.format_action(s, a) for a in legal]
                if texts == ["done"]:
                    break
                assert "done" not in texts
                step += 1
                s = GAME.apply(s, x, r.choice(legal), Rng(seed, step)).state
            placed = [GAME.article(c).numbers for c in s.players[x].mat if c]
            assert (len(placed), any(1 in n for n in placed)) == _max_articles(dealt), (seed, x)
            step += 1
            s = GAME.apply(s, x, GAME.parse_action(s, x, "done"), Rng(seed, step)).state


def test_r30_laity_can_persecute_is_the_targets_choice() -> None:
    """Proselytism Table 9-11 "Laity can Persecute": the preached-to Church with Laity chooses;
    `pick spare` rolls nothing and removes nothing (RULINGS.md R30)."""
    from games.credo.model import Play
    from tests.games.credo.test_credo_rules import TARGET, Dice, ev, make, two

    s = make(church=[("b-caesarea",), TARGET, ()], hands=[(ev("Proselytism"),), (), ()])
    s = GAME.apply(s, 0, Play(card=ev("Proselytism"), bishop="b-caesarea", target=1), Dice(*two(10))).state
    assert s.tasks and s.tasks[0].kind == "persecute" and set(GAME.to_act(s)) == {1}
    assert "persecute" in GAME.to_act(s)[1].text
    church = s.players[0].church
    s = GAME.apply(s, 1, GAME.parse_action(s, 1, "pick spare"), Dice()).state
    assert not s.tasks and s.players[0].church == church and s.last_roll.table == "Proselytism"


def test_r23_evangelisation_may_leave_the_goths_unconverted() -> None:
    """Evangelisation of the Goths: "You can convert the Invading Goths to your Church" — a
    choice (R23): `pick spare` leaves the Goths invading and discards the card."""
    from games.credo.data import EASTERN_EMPEROR
    from games.credo.model import Done
    from tests.games.credo.test_credo_rules import Dice, ev, fol, make, pass_window

    s = make(stage="main", active=2, church=[(EASTERN_EMPEROR,) + fol(5000, 2), (), ()],
             event_deck=[ev("Goths Invade the East"), ev("Evangelisation of the Goths")])  # fmt: skip
    s = GAME.apply(s, 2, Done(), Dice()).state
    while s.tasks:
        t0 = s.tasks[0]
        s = GAME.apply(s, t0.chooser, GAME.legal_actions(s, t0.chooser)[0], Dice()).state
    s = GAME.apply(pass_window(s), 0, Done(), Dice()).state
    assert [GAME.format_action(s, a) for a in GAME.legal_actions(s, 1)] == ["pick convert", "pick spare"]
    s = GAME.apply(s, 1, GAME.parse_action(s, 1, "pick spare"), Dice()).state
    assert s.goths == ("e-goths-invade-the-east-1",) and GAME.followers(s, 1) == 0
    assert ev("Evangelisation of the Goths") in s.event_discard + s.event_permanent


def test_r20_dock_strike_is_the_players_choice() -> None:
    """Dock Strike: "you can prevent him from resupplying his Followers" — after the vote the
    player chooses (`pick strike` / `pick spare`, R20); sparing costs the Emperor nothing."""
    from games.credo.model import Convoke, Play
    from tests.games.credo.test_credo_rules import art, council_state, ev, finish_council, fol, mat

    a, b = art("Article 1 Orthodox"), art("Article 1 Tritheist")
    s = council_state([mat(faith=[a]), mat(faith=[b]), mat()], [fol(5000, 2), ("p-alexandria",), ()],
                      hands=[(), (ev("Dock Strike"),), ()])  # fmt: skip
    s = GAME.apply(s, 0, Convoke(), Rng(0, 1)).state
    s = GAME.apply(s, 1, Play(card=ev("Dock Strike")), Rng(0, 2)).state
    for _ in range(50):
        if s.tasks and s.tasks[0].kind == "dock":
            break
        if s.window is not None and s.window.waiting:
            x = s.window.waiting[0]
        elif s.council is not None and s.council.voters:
            x = s.council.voters[0]
        else:
            break
        s = GAME.apply(s, x, GAME.parse_action(s, x, "pass" if s.window else "abstain"), Rng(0, 3)).state
    assert s.tasks and s.tasks[0].kind == "dock" and s.tasks[0].chooser == 1
    assert [GAME.format_action(s, x) for x in GAME.legal_actions(s, 1)] == ["pick strike", "pick spare"]
    s = finish_council(GAME.apply(s, 1, GAME.parse_action(s, 1, "pick spare"), Rng(0, 4)).state)
    assert sum(1 for c in s.players[0].church if GAME.cards[c].kind == "follower") == 2


def test_done_at_set_up_while_an_article_can_be_placed_names_set_up_b() -> None:
    """Set Up b.: "He must place as many Articles as possible on his Church mat" — `done` while
    a hand Article still fits is refused with that rule, not with the step alone."""
    t = Table(3, 3)
    assert "done" not in t.legal(1)
    with pytest.raises(IllegalActionError) as e:
        GAME.parse_action(t.s, 0, "done")
    assert "Set Up b." in e.value.message and "place an Article" in e.value.message, e.value.message
    assert "you must place as many Articles as possible on your Church mat" in e.value.message
    assert "He must" not in e.value.message


def event_step(seed: int):
    """The first position of a random game from ``seed`` where a Church is asked to "Play Event
    cards, discard, then say done" and no Event card in its hand can be played: (state, seat)."""
    import itertools
    import random

    from games.core.replay import apply_at

    s = start(GAME, [0, 1, 2], None, seed).state
    rnd = random.Random(seed)
    for step in range(1, 600):
        asked = GAME.to_act(s)
        for seat, p in asked.items():
            legal = [GAME.format_action(s, a) for a in GAME.legal_actions(s, seat)]
            if p.text.startswith("Play Event cards") and not any(x.startswith("play ") for x in legal):
                return s, seat
        seat = rnd.choice(sorted(asked))
        s = apply_at(GAME, s, seat, rnd.choice(list(itertools.islice(GAME.legal_actions(s, seat), 200))),
                     seed, step).state
    raise AssertionError("no such position")


def test_play_when_no_event_card_is_playable_says_why_for_each_card_held() -> None:
    """Event Cards: cards "can be played at any time" unless their own condition (or RULINGS.md
    R20, a council card) forbids it: `play` names the cards held and why, not the step alone."""
    s, seat = event_step(5)
    held = [GAME.event(c).name for c in s.players[seat].hand if c in GAME.data.events]
    with pytest.raises(IllegalActionError) as e:
        GAME.parse_action(s, seat, "play")
    msg = e.value.message
    assert "the question now is" not in msg, msg
    if held:
        assert "no Event card in your hand can be played now" in msg and all(n in msg for n in held), msg
    else:
        assert "you hold no Event card" in msg, msg


def test_play_of_an_event_card_not_held_says_it_is_not_in_your_hand() -> None:
    s, seat = event_step(5)
    names = {GAME.event(c).name for c in s.players[seat].hand if c in GAME.data.events}
    other = next(e.name for e in GAME.data.events.values() if e.name not in names)
    with pytest.raises(IllegalActionError) as e:
        GAME.parse_action(s, seat, f"play {other}")
    assert f"{other} is not in your hand" in e.value.message, e.value.message
