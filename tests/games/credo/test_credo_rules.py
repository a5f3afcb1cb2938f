"""Credo rules tests (rule text: shared/seeds/003_a89d0bca05ff4a91.txt; games/credo/RULINGS.md).

States are built directly and the dice scripted; each test names the rule section or
ruling it checks.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

import pytest

from games.core import GameError, IllegalActionError, Rng
from games.core.english import count
from games.core.secrets import public_prompts
from games.credo.data import EASTERN_EMPEROR, NISIBIS, WESTERN_EMPEROR
from games.credo.game import GAME
from games.credo.model import (
    Abstain,
    Convoke,
    Done,
    Keep,
    Pass,
    Pick,
    Place,
    Play,
    PlayerState,
    Reject,
    Renounce,
    Respect,
    State,
    Vote,
)
from games.credo.notation import format_action, parse
from games.credo.tables import PERSECUTION, PROSELYTISM, REFUTATION, RESPECT

D = GAME.data


class Dice(Rng):
    """An Rng whose die rolls come from a script; shuffles keep order."""

    def __init__(self, *rolls: int) -> None:
        super().__init__(0, 0)
        self.rolls = list(rolls)

    def die(self, sides: int = 6) -> int:
        assert self.rolls, "the rules rolled more dice than the test scripted"
        return self.rolls.pop(0)

    def shuffle(self, items):
        return tuple(items)


def two(total: int) -> tuple[int, int]:
    """Two dice summing to ``total`` (2..12)."""
    a = min(6, total - 1)
    return a, total - a


def art(name: str, n: int = 1) -> str:
    """The n-th card id of an Article by its display name ("Article 3 Orthodox")."""
    ids = [a.id for a in D.articles.values() if a.name == name]
    assert ids, name
    return ids[n - 1]


def ev(name: str, n: int = 1) -> str:
    ids = [e.id for e in D.events.values() if e.name == name]
    assert ids, name
    return ids[n - 1]


def fol(value: int, k: int) -> tuple[str, ...]:
    ids = [c.id for c in D.church.values() if c.kind == "follower" and c.followers == value]
    return tuple(ids[:k])


def mat(faith: Sequence[str] = (), firm: Sequence[str] = (), customary: Sequence[str] = ()) -> tuple:
    boxes = [None] * 9
    for base, cards in ((0, faith), (3, firm), (6, customary)):
        for i, c in enumerate(cards):
            boxes[base + i] = c
    return tuple(boxes)


def make(
    n: int = 3,
    *,
    mats: Sequence[tuple] | None = None,
    church: Sequence[Sequence[str]] | None = None,
    hands: Sequence[Sequence[str]] | None = None,
    active: int = 0,
    stage: str = "main",
    church_deck: Sequence[str] | None = None,
    event_deck: Sequence[str] = (),
    creed: Sequence[str | None] | None = None,
    **extra: Any,
) -> State:
    """A state in play (set-up done). Church cards not given to anybody form the
    Church Cards box (in data order) unless ``church_deck`` is given."""
    mats = mats or [mat()] * n
    church = church or [()] * n
    hands = hands or [()] * n
    held = {c for ch in church for c in ch}
    if church_deck is None:
        church_deck = [c for c in D.church if c not in held and not D.church[c].set_aside]
    players = tuple(
        PlayerState(mat=mats[x], church=tuple(church[x]), hand=tuple(hands[x]), setup_done=True)
        for x in range(n)
    )
    return State(
        players=players,
        phase="play",
        stage=stage,
        active=active,
        turns=1,
        church_deck=tuple(church_deck),
        event_deck=tuple(event_deck),
        patriarch_box=("p-jerusalem", "p-constantinople"),
        creed=tuple(creed) if creed is not None else (None,) * 10,
        **extra,
    )


def act(s: State, seat: int, a: Any, *rolls: int) -> State:
    return GAME.apply(s, seat, a, Dice(*rolls)).state


def pick_all(s: State) -> State:
    """Answer pending tasks with the first legal pick."""
    while s.tasks:
        t = s.tasks[0]
        s = act(s, t.chooser, GAME.legal_actions(s, t.chooser)[0])
    return s


def pass_window(s: State) -> State:
    while s.window is not None and s.window.waiting and not s.tasks:
        s = act(s, s.window.waiting[0], Pass())
    return s


# --------------------------------------------------------------------------- card data


def test_church_card_totals() -> None:
    """Card List, Church Card Totals: 120 cards, 211 votes, 21,445,000 Followers;
    68 Followers (12,895,000), 7 Laity (41 votes, 3,550,000), 5 Patriarchs (80 votes,
    5,000,000), 40 Bishops (90 votes); R1: twelve authored Bishops."""
    cards = list(D.church.values())
    assert len(cards) == 120
    assert sum(c.votes for c in cards) == 211
    assert sum(c.followers for c in cards) == 21_445_000
    kinds = Counter(c.kind for c in cards)
    assert kinds == {"follower": 68, "bishop": 40, "patriarch": 5, "laity": 7}
    assert sum(c.followers for c in cards if c.kind == "follower") == 12_895_000
    laity = [c for c in cards if c.kind == "laity"]
    assert sum(c.votes for c in laity) == 41 and sum(c.followers for c in laity) == 3_550_000
    pats = [c for c in cards if c.kind == "patriarch"]
    assert sum(c.votes for c in pats) == 80 and sum(c.followers for c in pats) == 5_000_000
    bishops = [c for c in cards if c.kind == "bishop"]
    assert sum(c.votes for c in bishops) == 90
    assert sum(1 for c in bishops if c.authored) == 12
    assert sum(c.votes for c in bishops if c.authored) == 12
    assert D.church["b-mursa"].half == "Both" and D.church[NISIBIS].votes == 0


def test_article_card_counts() -> None:
    """Card List, Article Cards (129 cards): counts per Article number and doctrine."""
    arts = list(D.articles.values())
    assert len(arts) == 129
    by_numbers = Counter(a.numbers for a in arts)
    assert by_numbers == {
        (1,): 9, (2,): 10, (1, 2): 2, (3,): 11, (4,): 13, (3, 4): 2, (5,): 16, (3, 4, 5): 1,
        (6,): 13, (7,): 11, (8,): 9, (9,): 15, (10,): 17,
    }  # fmt: skip
    ten = Counter(a.doctrine for a in arts if a.numbers == (10,))
    assert ten == {"populist": 9, "Nicene": 5, "Origenist": 1, "Donatist": 1, "Gnostic": 1}
    penalised = [a for a in arts if a.penalty_followers or a.penalty_bishops]
    assert len(penalised) == 9  # 2#, 2#, 2#, 2# populist and Gnostic*#
    symbols = Counter(a.symbol for a in arts if a.symbol)
    assert symbols == {"sun": 2, "yin-yang": 2, "open book": 1, "dove and cross": 1}
    assert all(a.authored for a in arts if a.symbol or a.penalty_followers or a.penalty_bishops)
    assert Counter(a.doctrine for a in arts if a.numbers == (5,)) == {
        "Athanasian": 5, "Amonian": 4, "Homoean/Semi-Arian": 4, "Monotheist": 3,
    }  # fmt: skip


def test_event_card_counts() -> None:
    """Card List, Event Cards (111 cards): per symbol and timing; R5: four authored."""
    evs = list(D.events.values())
    assert len(evs) == 111
    assert Counter(e.symbol for e in evs) == {
        "People": 15, "Empress": 2, "Bishop": 23, "Laity": 18, "Emperor": 11,
        "Heterodoxy": 5, "PX": 1, "Cross": 36,
    }  # fmt: skip
    cross = Counter(e.timing for e in evs if e.symbol == "Cross")
    assert cross == {"immediate": 18, "other": 6, "any": 12}
    assert sum(1 for e in evs if e.authored) == 4
    assert Counter(e.name for e in evs)["Proselytism"] == 11
    assert Counter(e.name for e in evs)["New Emperor"] == 5
    assert Counter(e.timing for e in evs if e.symbol == "Laity") == {"immediate": 1, "any": 17}


# --------------------------------------------------------------------------- set-up


def setup_state(hands: Sequence[Sequence[str]], church: Sequence[Sequence[str]] | None = None) -> State:
    n = len(hands)
    s = GAME.setup(list(range(n)), GAME.Options(), Rng(1, 0)).state
    players = tuple(
        p.model_copy(update={"hand": tuple(hands[x]), **({"church": tuple(church[x])} if church else {})})
        for x, p in enumerate(s.players)
    )
    return s.model_copy(update={"players": players})


def test_setup_deal() -> None:
    """Set Up: Jerusalem and Constantinople set aside; Church cards in players+1 piles;
    9 Article cards each (R12)."""
    for n in (3, 4, 5, 6):
        s = GAME.setup(list(range(n)), GAME.Options(), Rng(5, 0)).state
        per = 118 // (n + 1)
        assert all(len(p.church) == per for p in s.players)
        assert len(s.church_deck) == 118 - n * per
        assert set(s.patriarch_box) == {"p-jerusalem", "p-constantinople"}
        assert all(len(p.hand) == 9 and all(c in D.articles for c in p.hand) for p in s.players)
        assert len(s.event_deck) == 129 - 9 * n + 111
    with pytest.raises(IllegalActionError):
        GAME.setup([0, 1], GAME.Options(), Rng(5, 0))


def test_setup_a_c_one_per_number_duplicates_kept() -> None:
    """Set Up a. and c.: one Article per number; other cards of that number discarded,
    exact duplicates kept in hand; a multiple Article blocks all its numbers."""
    # (with an Article 2 card besides, b. would require Article 1 + Article 2 over the dualist)
    hand = [art("Articles 1&2 dualist"), art("Article 1 Orthodox"), art("Articles 3&4 Adoptionist"),
            art("Articles 1&2 dualist", 2), art("Article 3 Orthodox"), art("Article 4 Arian")]  # fmt: skip
    s = setup_state([hand, [], []])
    s = act(s, 0, Place(card=hand[0]))
    legal = GAME.legal_actions(s, 0)
    assert Place(card=hand[1]) not in legal
    assert Done() not in legal  # b.: Articles 3 and 4 can still be placed
    s = act(s, 0, Place(card=hand[4]))
    assert Place(card=hand[2]) not in GAME.legal_actions(s, 0)  # 3&4 shares Article 3
    s = act(s, 0, Place(card=hand[5]))
    assert GAME.legal_actions(s, 0) == [Done()]
    s = act(s, 0, Done())
    p = s.players[0]
    assert p.hand == (hand[3],)  # exact duplicate kept
    assert {hand[1], hand[2]} <= set(s.event_discard)


def test_setup_b_as_many_as_possible() -> None:
    """Set Up b.: no stopping while a card can be placed."""
    hand = [art("Article 3 Orthodox"), art("Article 4 Arian")]
    s = setup_state([hand, [], []])
    with pytest.raises(IllegalActionError):
        act(s, 0, Done())


def test_setup_d_e_f_article_one_as_faith_and_order() -> None:
    """Set Up d., e., f.: Articles of Faith fill first; the last Article of Faith box is
    kept for an Article 1 held (R13)."""
    hand = [
        art("Article 3 Orthodox"),
        art("Article 4 Arian"),
        art("Article 5 Athanasian"),
        art("Article 1 Orthodox"),
    ]
    s = setup_state([hand, [], []])
    s = act(s, 0, Place(card=hand[0]))
    s = act(s, 0, Place(card=hand[1]))
    assert Place(card=hand[2]) not in GAME.legal_actions(s, 0)  # would take Article 1's box
    s = act(s, 0, Place(card=hand[3]))
    assert s.players[0].mat[:3] == (hand[0], hand[1], hand[3])
    s = act(s, 0, Place(card=hand[2]))
    assert s.players[0].mat[3] == hand[2]  # e.: a Firm Belief once the Articles of Faith are full


def test_setup_g_at_most_nine() -> None:
    """Set Up g.: three per category; cards beyond a full mat stay in hand (R13)."""
    names = [f"Article {i} Orthodox" for i in (1, 2, 3, 4, 6, 7, 8, 9)] + [
        "Article 5 Athanasian",
        "Article 10 Nicene",
    ]
    hand = [art(x) for x in names]
    s = setup_state([hand, [], []])
    for c in hand[:9]:
        s = act(s, 0, Place(card=c))
    assert None not in s.players[0].mat
    assert GAME.legal_actions(s, 0) == [Done()]
    s = act(s, 0, Done())
    assert s.players[0].hand == (hand[9],)


def test_setup_h_penalty() -> None:
    """Set Up h. (R4): placing a penalty Article costs Followers/Bishops from the dealt cards."""
    card = art("Article 10 populist (lose 2 Followers)")
    church = [fol(100000, 1) + fol(500000, 1) + ("b-nicea",), (), ()]
    s = setup_state([[card], [], []], church)
    s = act(s, 0, Place(card=card))
    assert s.players[0].church == ("b-nicea",)
    card2 = art("Article 10 populist (lose 1 Bishop)")
    s = setup_state([[card2], [], []], [("b-nicea", "b-gaza") + fol(100000, 1), (), ()])
    s = act(s, 0, Place(card=card2))
    assert s.tasks and s.tasks[0].kinds == ("bishop",)
    s = act(s, 0, Pick(card="b-gaza"))
    assert s.players[0].church == ("b-nicea",) + fol(100000, 1)


def test_setup_ends_and_church_one_draws() -> None:
    """The Game: after set-up, Church 1 (the dealer's left, R12) takes the first turn."""
    s = GAME.setup([0, 1, 2], GAME.Options(), Rng(3, 0)).state
    for x in range(3):
        while not s.players[x].setup_done:
            s = act(s, x, GAME.legal_actions(s, x)[0]) if not s.tasks else pick_all(s)
    s = pick_all(s)
    assert s.phase == "play" and s.active == 0 and s.turns == 1


# --------------------------------------------------------------------------- the turn


def test_turn_decided_article_redrawn() -> None:
    """Article Card: an Article already voted on goes to the Article Card Permanent
    Discard and a replacement is drawn."""
    a1, a2 = art("Article 1 Orthodox"), art("Article 2 Orthodox")
    creed = [a1] + [None] * 9
    t = make(stage="main", event_deck=[art("Article 1 Orthodox", 2), a2], creed=creed, active=2)
    t = act(t, 2, Done())
    assert t.active == 0 and t.stage == "article" and t.drawn == a2
    assert art("Article 1 Orthodox", 2) in t.article_permanent


def test_turn_article_choices() -> None:
    """Article Card: place / keep a duplicate / renounce a Customary Practice (Lose a
    Church card) / reject."""
    cp = art("Article 4 Arian")
    s = make(
        mats=[mat(faith=[art("Article 3 Orthodox")], customary=[cp]), mat(), mat()],
        church=[fol(100000, 1) + fol(5000, 1), (), ()],
        stage="article",
        drawn=art("Article 4 Orthodox"),
    )
    legal = GAME.legal_actions(s, 0)
    assert (
        Renounce(card=s.drawn) in legal and Reject(card=s.drawn) in legal and Place(card=s.drawn) not in legal
    )
    t = act(s, 0, Renounce(card=s.drawn))
    assert t.players[0].mat[6] == art("Article 4 Orthodox") and cp in t.event_discard
    t = act(t, 0, Pick(card=fol(5000, 1)[0]))
    assert t.players[0].church == fol(100000, 1)
    dup = make(
        mats=[mat(faith=[art("Article 3 Orthodox")]), mat(), mat()],
        stage="article",
        drawn=art("Article 3 Orthodox", 2),
    )
    assert Keep(card=dup.drawn) in GAME.legal_actions(dup, 0)
    kept = act(dup, 0, Keep(card=dup.drawn))
    assert kept.players[0].hand == (art("Article 3 Orthodox", 2),)
    new = make(
        mats=[mat(faith=[art("Article 3 Orthodox")]), mat(), mat()],
        stage="article",
        drawn=art("Article 5 Amonian"),
    )
    placed = act(new, 0, Place(card=new.drawn))
    assert placed.players[0].mat[1] == art("Article 5 Amonian")


def test_hand_limit_four() -> None:
    """The Game: no turn ends with more than 4 Event/Article cards."""
    hand = [ev("Proselytism", i) for i in range(1, 6)]
    s = make(hands=[hand, (), ()])
    with pytest.raises(IllegalActionError):
        act(s, 0, Done())
    s = act(s, 0, GAME.parse_action(s, 0, "discard proselytism"))
    assert len(s.players[0].hand) == 4
    s = act(s, 0, Done())
    assert s.active == 1


# --------------------------------------------------------------------------- councils


def council_state(mats, church, *, emperor: int = 0, hands=None, **kw) -> State:
    church = [list(c) for c in church]
    church[emperor].append(EASTERN_EMPEROR)
    return make(n=len(mats), mats=mats, church=church, hands=hands, **kw)


def finish_council(s: State) -> State:
    """Pass the debate, abstain, answer tasks, decline the Respect roll."""
    for _ in range(100):
        if s.tasks:
            s = pick_all(s)
        elif s.window is not None and s.window.waiting:
            s = act(s, s.window.waiting[0], Pass())
        elif s.council is not None and s.council.stage == "vote" and s.council.voters:
            s = act(s, s.council.voters[0], Abstain())
        elif s.council is not None and s.council.stage == "respect":
            s = act(s, GAME.emperor(s), Pass())
        else:
            return s
    raise AssertionError("the Council does not end")


def run_council(s: State, votes: dict[int, Any] | None = None) -> State:
    """Convoke as the Emperor (seat 0), pass the debate, cast neutral votes."""
    s = act(s, 0, Convoke())
    s = pass_window(s)
    votes = votes or {}
    while s.council is not None and s.council.stage == "vote" and s.council.voters:
        x = s.council.voters[0]
        s = act(s, x, votes.get(x, Abstain()))
    return s


def test_council_only_emperor_convokes() -> None:
    """General Councils: only the Emperor (Eastern, else Western) convokes."""
    s = council_state([mat(), mat(), mat()], [(), (), ()], emperor=1)
    assert Convoke() not in GAME.legal_actions(s, 0)
    w = make(church=[(WESTERN_EMPEROR,), (), ()])
    assert Convoke() in GAME.legal_actions(w, 0)


def test_council_single_doctrine_accepted() -> None:
    """General Councils: a single proposed doctrine is accepted automatically."""
    a1 = art("Article 1 Orthodox")
    s = council_state([mat(faith=[a1]), mat(), mat()], [(), (), ()])
    s = act(s, 0, Convoke())
    assert s.creed[0] == a1 and s.players[0].mat[0] is None
    assert len(s.players[0].church) == 1 + 3  # Winner of an Article of Faith draws 3


def test_council_plurality_wins() -> None:
    """The Debate: more votes than any other doctrine (a plurality) wins; a neutral
    Church may vote for any proposed doctrine."""
    a, b = art("Article 1 Orthodox"), art("Article 1 Tritheist")
    s = council_state(
        [mat(faith=[a]), mat(faith=[b]), mat(), mat()],
        [(), ("b-nicea",), ("b-caesarea",), ("b-gaza",)],
    )  # Orthodox 20 (Emperor), Tritheist 5
    s = run_council(s, {2: Vote(doctrine="Article 1 Tritheist"), 3: Vote(doctrine="Article 1 Orthodox")})
    # Tritheist 5 + 10 = 15; Orthodox 20 + 2 = 22
    assert s.creed[0] == a


def test_council_tie_undecided() -> None:
    """The Debate: a tie leaves the Article undecided, to be debated again."""
    a, b = art("Article 1 Orthodox"), art("Article 1 Tritheist")
    s = council_state([mat(faith=[a]), mat(faith=[b]), mat()], [(), ("p-alexandria",), ()])
    s = run_council(s)
    assert s.creed[0] is None and s.players[0].mat[0] == a and s.players[1].mat[0] == b
    assert s.active == 1  # the Emperor's turn ended with the Council


def test_council_exiled_bishops_do_not_vote() -> None:
    """Exile: exiled Bishops cannot vote at a General Council."""
    a, b = art("Article 1 Orthodox"), art("Article 1 Tritheist")
    s = council_state(
        [mat(faith=[a]), mat(faith=[b]), mat()],
        [(), ("p-alexandria", "b-caesarea"), ()],
        exiled=(("p-alexandria", ev("Exile in Armenia")),),
    )
    s = run_council(s)
    assert s.creed[0] == a  # 20 against 10


def test_results_example_article_one() -> None:
    """Results, the example: A (Article 1), B (another Article 1), C (Articles 1&2).
    A's passes: B and C each lose once by attachment."""
    a, b, c = art("Article 1 Orthodox"), art("Article 1 Tritheist"), art("Articles 1&2 dualist")
    s = council_state(
        [
            mat(faith=[a]),
            mat(faith=[art("Article 3 Orthodox")], firm=[b]),
            mat(faith=[art("Article 3 Judaic")], customary=[c]),
        ],
        [(), fol(5000, 2) + fol(10000, 2), fol(20000, 2)],
    )
    s = run_council(s)
    assert s.creed[0] == a and s.creed[1] is None
    s = pick_all(s)
    assert len(s.players[1].church) == 4 - 2  # Firm Belief: 2 cards
    assert len(s.players[2].church) == 2 - 1  # Customary Practice, multiple Article: once
    assert s.players[2].mat[6] is None and c in s.article_permanent
    assert len(s.players[0].church) == 1 + 3


def test_results_example_double_article_passes() -> None:
    """Results, the example: C's Articles 1&2 pass; C wins once; A and B lose for
    their Article 1 and again for an Article 2."""
    a, b, c = art("Article 1 Orthodox"), art("Article 1 Tritheist"), art("Articles 1&2 dualist")
    a2 = art("Article 2 Orthodox")
    s = council_state(
        [mat(faith=[a, a2]), mat(faith=[art("Article 3 Orthodox")], firm=[b]), mat(faith=[c])],
        [fol(5000, 2) + fol(10000, 6), fol(20000, 5), ("p-alexandria", "p-antioch")],
    )
    s = run_council(s)  # C: 40 votes, A: 20, B: 0
    assert s.creed[0] == c and s.creed[1] == c
    s = pick_all(s)
    # A: faith Article 1 (3) + faith Article 2 (3); 8 Follower cards + Emperor
    assert len(s.players[0].church) == 9 - 6
    assert len(s.players[1].church) == 5 - 2
    assert len(s.players[2].church) == 2 + 3  # wins once, an Article of Faith
    assert s.council is None or s.council.stage == "respect"


def test_honour_of_moving() -> None:
    """The Debate: the Church giving most votes moves the Article (R16)."""
    a = art("Article 1 Orthodox")
    s = council_state(
        [mat(faith=[a]), mat(faith=[art("Article 1 Orthodox", 2)]), mat(faith=[art("Article 1 pagan")])],
        [(), ("p-alexandria", "p-antioch"), ()],
    )
    s = run_council(s)
    assert s.creed[0] == art("Article 1 Orthodox", 2)


def test_respect_roll_takes_from_losers() -> None:
    """Results: the Emperor chooses a Losing doctrine and rolls on the Respect Table;
    every holder of it is affected (R8)."""
    a, b = art("Article 1 Orthodox"), art("Article 1 Tritheist")
    s = council_state(
        [mat(faith=[a]), mat(faith=[b]), mat(faith=[art("Article 1 Tritheist", 2)])],
        [(), fol(100000, 5), fol(250000, 5)],
    )
    s = run_council(s)
    s = pick_all(s)
    assert s.council.stage == "respect" and s.council.losers == ("Article 1 Tritheist",)
    s = act(s, 0, Respect(doctrine="Article 1 Tritheist"), *two(5))
    s = pick_all(s)
    assert len(s.players[1].church) == 5 - 3 - 2 and len(s.players[2].church) == 5 - 3 - 2


def test_multiple_article_rejected_loses_once() -> None:
    """Results: a Loser holding a multiple Article of the rejected number loses once."""
    a = art("Article 3 Orthodox")
    m = art("Articles 3,4&5 Mandaean")
    s = council_state(
        [mat(faith=[a]), mat(faith=[m]), mat()],
        [(), fol(10000, 6), ()],
        creed=[art("Article 1 Orthodox", 2), art("Article 2 Orthodox")] + [None] * 8,
    )
    s = run_council(s)
    s = pick_all(s)
    assert s.creed[2] == a and s.creed[3] is None
    assert len(s.players[1].church) == 6 - 3


def test_hand_cards_of_decided_article_discarded() -> None:
    """Miscellaneous: a rejected Article's duplicates in hand are discarded too (R17)."""
    a, b = art("Article 1 Orthodox"), art("Article 1 Tritheist")
    s = council_state(
        [mat(faith=[a]), mat(faith=[b]), mat()],
        [(), (), ()],
        hands=[(), (art("Article 1 Tritheist", 2),), ()],
    )
    s = run_council(s)
    assert s.players[1].hand == () and art("Article 1 Tritheist", 2) in s.article_permanent


def test_debate_cards_extra_votes() -> None:
    """The Debate: Event cards played in the debate change the vote (Western Delegation)."""
    a, b = art("Article 1 Orthodox"), art("Article 1 Tritheist")
    s = council_state(
        [mat(faith=[a]), mat(faith=[b]), mat()],
        [(), ("p-alexandria",), ()],
        hands=[(), (ev("Western Delegation"),), ()],
    )
    s = act(s, 0, Convoke())
    assert s.window.kind == "debate" and s.window.waiting[0] == 1
    s = finish_council(act(s, 1, Play(card=ev("Western Delegation"))))
    assert s.creed[0] == b  # 25 against 20


def test_military_intervention_closes_council() -> None:
    """Military Intervention: the Council closes before any vote; the player persecutes."""
    a, b = art("Article 1 Orthodox"), art("Article 1 Tritheist")
    s = council_state(
        [mat(faith=[a]), mat(faith=[b]), mat()],
        [fol(10000, 3), (), ()],
        hands=[(), (ev("Military Intervention"),), ()],
    )
    s = act(s, 0, Convoke())
    s = act(s, 1, Play(card=ev("Military Intervention"), target=0), *two(6))
    assert s.council is None and s.creed[0] is None
    s = pick_all(s)
    assert len(s.players[0].church) == 3 + 1 - 1


# --------------------------------------------------------------------------- tables


def test_tables_as_printed() -> None:
    """Tables: every row's printed text."""
    assert RESPECT[2].text == "Take 2 Laity cards." and RESPECT[10].text == "No effect."
    assert RESPECT[12].text == "Lose 2 Follower cards."
    assert PROSELYTISM[2].text == "Take 1 Laity, & 2 Bishop or 3 Follower cards."
    assert PROSELYTISM[12].text == "Enraged rioters lynch the Bishop. Lose the Bishop."
    assert REFUTATION[5].text == "Refute a Firm Belief or a Customary Practice."
    assert REFUTATION[6].text == "Refute a Customary Practice." and REFUTATION[12].text == "Lose the Bishop."
    assert PERSECUTION[11].text == "Remove 3 Follower cards. The Persecuted Church draws 1 Church card."
    for table in (RESPECT, PROSELYTISM, REFUTATION, PERSECUTION):
        assert sorted(table) == list(range(2, 13))


VICTIM = fol(100000, 4) + ("b-nicea", "b-gaza", "b-sinope", NISIBIS)


@pytest.mark.parametrize("roll", range(2, 13))
def test_persecution_table_row(roll: int) -> None:
    """Persecution Table, every row (Agentes in Rebus; R11: Nisibis spared)."""
    s = make(
        church=[(EASTERN_EMPEROR,), VICTIM, ()],
        hands=[(ev("Agentes in Rebus"),), (), ()],
        church_deck=fol(5000, 2) + fol(10000, 3),
    )
    s = act(s, 0, Play(card=ev("Agentes in Rebus"), target=1), *two(roll))
    s = pick_all(s)
    left = s.players[1].church
    removed_bishops = 3 - sum(1 for c in left if c in ("b-nicea", "b-gaza", "b-sinope"))
    removed_followers = 4 - sum(1 for c in left if c in fol(100000, 4))
    drawn = len([c for c in left if c not in VICTIM])
    expect = {2: (2, 0, 0), 3: (1, 0, 0), 4: (0, 2, 0), 5: (0, 2, 0), 6: (0, 1, 0), 7: (0, 1, 0), 8: (0, 1, 0),
              9: (0, 1, 0), 10: (0, 0, 0), 11: (0, 3, 1), 12: (0, 1, 3)}[roll]  # fmt: skip
    assert (removed_bishops, removed_followers, drawn) == expect
    assert NISIBIS in left


TARGET = fol(100000, 4) + ("b-nicea", "b-gaza", "l-prefect-of-gaul", "l-prefect-of-illyria")


@pytest.mark.parametrize("roll", range(2, 13))
def test_proselytism_table_row(roll: int) -> None:
    """Proselytism Table, every row (R9): the preacher takes; 9-11 "Laity can Persecute": the
    target chooses to (R30; here rolling a 10: no effect); 12 the Bishop is lynched."""
    s = make(church=[("b-caesarea",), TARGET, ()], hands=[(ev("Proselytism"),), (), ()])
    s = act(s, 0, Play(card=ev("Proselytism"), bishop="b-caesarea", target=1), *two(roll))
    if roll in (9, 10, 11):
        s = pick_all(s) if s.tasks and s.tasks[0].kind != "persecute" else s
        assert s.tasks[0].kind == "persecute" and s.tasks[0].chooser == 1
        s = act(s, 1, Pick(card="persecute"), *two(10))
    s = pick_all(s)
    mine = Counter(GAME.cards[c].kind for c in s.players[0].church if c != "b-caesarea")
    expect = {2: {"laity": 1, "bishop": 2}, 3: {"bishop": 2, "follower": 2}, 4: {"bishop": 2, "follower": 2},
              5: {"bishop": 1, "follower": 1}, 6: {"bishop": 1, "follower": 1}, 7: {"follower": 1},
              8: {"follower": 1}, 9: {"follower": 1}, 10: {}, 11: {}, 12: {}}[roll]  # fmt: skip
    assert dict(mine) == expect
    assert ("b-caesarea" in s.players[0].church) == (roll != 12)
    if roll in (9, 10, 11):
        assert s.last_roll.table == "Persecution"


def test_proselytism_two_takes_followers_without_bishops() -> None:
    """Proselytism 2 (R9): 3 Followers when the target has no Bishop."""
    s = make(
        church=[("b-caesarea",), fol(100000, 4) + ("l-prefect-of-gaul",), ()],
        hands=[(ev("Proselytism"),), (), ()],
    )
    s = pick_all(act(s, 0, Play(card=ev("Proselytism"), bishop="b-caesarea", target=1), 1, 1))
    assert Counter(GAME.cards[c].kind for c in s.players[0].church) == {
        "bishop": 1,
        "laity": 1,
        "follower": 3,
    }


def test_proselytism_two_preacher_chooses() -> None:
    """Proselytism 2, "Take 1 Laity, & 2 Bishop or 3 Follower cards.": the preaching
    Church chooses (R9), here 3 Followers though the target has Bishops."""
    s = make(church=[("b-caesarea",), TARGET, ()], hands=[(ev("Proselytism"),), (), ()])
    s = act(s, 0, Play(card=ev("Proselytism"), bishop="b-caesarea", target=1), *two(2))
    s = act(s, 0, Pick(card="l-prefect-of-gaul"))
    assert set(GAME.to_act(s)) == {0} and s.tasks[0].kind == "either"
    names = [format_action(GAME, s, a) for a in GAME.legal_actions(s, 0)]
    assert names == ["pick 2 Bishops", "pick 3 Followers"]
    s = act(s, 0, parse(GAME, s, 0, "pick 3 fol"))
    s = pick_all(s)
    assert Counter(GAME.cards[c].kind for c in s.players[0].church) == {
        "bishop": 1,
        "laity": 1,
        "follower": 3,
    }


def test_proselytism_two_only_possible_options() -> None:
    """Proselytism 2: with Bishops but no Followers, only Bishops can be taken."""
    s = make(
        church=[("b-caesarea",), ("b-nicea", "b-gaza", "l-prefect-of-gaul"), ()],
        hands=[(ev("Proselytism"),), (), ()],
    )
    s = act(s, 0, Play(card=ev("Proselytism"), bishop="b-caesarea", target=1), *two(2))
    assert not s.tasks and s.players[1].church == ()


def test_nisibis_immune_to_twelve() -> None:
    """Special Church Cards: Nisibis is never lost on a 12 (Proselytism, Refutation)."""
    s = make(church=[(NISIBIS,), TARGET, ()], hands=[(ev("Proselytism"),), (), ()])
    s = act(s, 0, Play(card=ev("Proselytism"), bishop=NISIBIS, target=1), 6, 6)
    assert NISIBIS in s.players[0].church


@pytest.mark.parametrize("roll", range(2, 13))
@pytest.mark.parametrize("category", ["firm", "customary"])
def test_refutation_table_row(roll: int, category: str) -> None:
    """Refutation Table, every row (R10): 2-5 refutes a Firm Belief or Customary
    Practice, 6-8 a Customary Practice only, 11 the target's Laity persecute, 12 the
    Bishop is lost."""
    target_art = art("Article 4 Arian")
    m = mat(faith=[art("Article 3 Orthodox")], **{category: [target_art]})
    s = make(
        mats=[mat(), m, mat()],
        church=[("b-caesarea",), ("l-prefect-of-gaul",) + fol(5000, 2), ()],
        hands=[(ev("Church Father"),), (), ()],
    )
    s = act(
        s,
        0,
        Play(card=ev("Church Father"), bishop="b-caesarea", mode="refute", target=1, article=target_art),
        *two(roll),
    )
    if roll == 11:  # "Laity can Persecute": the target's choice (R30)
        assert s.tasks[0].kind == "persecute" and s.tasks[0].chooser == 1
        s = act(s, 1, Pick(card="persecute"), *two(10))
    refuted = target_art not in s.players[1].mat
    assert refuted == (roll <= 5 or (roll <= 8 and category == "customary"))
    assert ("b-caesarea" in s.players[0].church) == (roll != 12)
    assert (s.last_roll.table == "Persecution") == (roll == 11)


def test_article_of_faith_cannot_be_refuted() -> None:
    """Church Father: an Article of Faith cannot be refuted."""
    m = mat(faith=[art("Article 3 Orthodox")])
    s = make(mats=[mat(), m, mat()], church=[("b-caesarea",), (), ()], hands=[(ev("Church Father"),), (), ()])
    assert not [a for a in GAME.legal_actions(s, 0) if isinstance(a, Play) and a.mode == "refute"]


@pytest.mark.parametrize("roll", range(2, 13))
def test_respect_table_row(roll: int) -> None:
    """Respect Table, every row (R8): the Emperor takes from each Loser; 9 he draws 2;
    11-12 he loses Followers."""
    a, b = art("Article 1 Orthodox"), art("Article 1 Tritheist")
    loser = fol(100000, 4) + ("b-nicea", "b-gaza", "l-prefect-of-gaul", "l-prefect-of-illyria")
    s = council_state([mat(faith=[a]), mat(customary=[b]), mat()], [fol(500000, 3), loser, ()])
    s = run_council(s)
    s = pick_all(s)  # the Loser's 1 card (customary)
    before = Counter(GAME.cards[c].kind for c in s.players[0].church)
    s = pick_all(act(s, 0, Respect(doctrine="Article 1 Tritheist"), *two(roll)))
    after = Counter(GAME.cards[c].kind for c in s.players[0].church)
    gained = {k: after[k] - before[k] for k in ("laity", "bishop", "follower") if after[k] != before[k]}
    expect = {2: {"laity": 2}, 3: {"laity": 1}, 4: {"bishop": 1, "follower": 2}, 5: {"follower": 2},
              6: {"bishop": 1, "follower": 1}, 7: {"follower": 1}, 8: {"follower": 1}, 10: {},
              11: {"follower": -1}, 12: {"follower": -2}}  # fmt: skip
    if roll == 9:
        assert sum(after.values()) == sum(before.values()) + 2
    else:
        assert gained == expect[roll]


# --------------------------------------------------------------------------- Event cards


def test_play_immediately_on_another_player() -> None:
    """Event Card: "Play Immediately on Another Player" — the drawer chooses the target."""
    s = make(stage="main", active=2, church=[("b-nicea",), ("b-gaza",), ()], event_deck=[ev("Dies Irae")])
    s = act(s, 2, Done())
    assert s.stage == "immediate" and s.active == 0
    s = act(s, 0, Play(card=ev("Dies Irae"), target=1))
    assert s.players[1].church == ()


def test_play_immediately_event() -> None:
    """Event Card: "Play Immediately" cards act on the drawer at once (Stylite)."""
    s = make(
        stage="main",
        active=2,
        church=[fol(5000, 2) + fol(10000, 2), (), ()],
        event_deck=[ev("Stylite")],
        church_deck=fol(500000, 3),
    )
    s = pick_all(act(s, 2, Done()))
    assert len(s.players[0].church) == 4 - 3 + 2
    assert ev("Stylite") in s.event_permanent


def test_answer_window_after_event() -> None:
    """R21: after an Event is played, the other Churches are asked in turn."""
    s = make(hands=[(ev("New Basilica"),), (ev("Proselytism"),), ()], church=[(), ("b-nicea",), ()])
    s = act(s, 0, Play(card=ev("New Basilica")))
    assert s.window is not None and s.window.waiting == (1, 2)
    assert set(GAME.to_act(s)) == {1}
    s = pass_window(s)
    assert s.window is None and set(GAME.to_act(s)) == {0}


def test_ask_all_off_skips_churches_without_cards() -> None:
    """R21, option ask_all off: Churches with no card in hand are not asked."""
    s = make(hands=[(ev("New Basilica"),), (), (ev("New Liturgy"),)]).model_copy(update={"ask_all": False})
    s = act(s, 0, Play(card=ev("New Basilica")))
    assert s.window.waiting == (2,)


def test_ask_all_off_still_asks_a_church_holding_nothing_playable() -> None:
    """R31 ("Who is asked never depends on a hand"): with ask_all off, a Church holding
    only a card it cannot play now is asked like one holding a playable card, so who is
    asked tells nothing about a hand; the public prompts are the same either way."""
    article = next(c for c in GAME.data.articles)
    hands = {
        "playable": [(ev("New Basilica"),), (ev("New Liturgy"),), (ev("New Liturgy"),)],
        "unplayable": [(ev("New Basilica"),), (article,), (article,)],
    }
    prompts = {}
    for kind, hand in hands.items():
        s = make(hands=hand).model_copy(update={"ask_all": False})
        s = act(s, 0, Play(card=ev("New Basilica")))
        prompts[kind] = public_prompts(GAME, s)
    assert prompts["playable"] == prompts["unplayable"]
    assert {seat for seat, _, _ in prompts["unplayable"]} == {1}


def test_exile_and_recall() -> None:
    """Exile (R24): Laity exile Bishops of their half; any Laity recall; Nisibis never."""
    s = make(
        church=[("l-prefect-of-gaul",), ("b-mediolanum", "b-nicea", "b-mursa", NISIBIS), ()],
        hands=[(ev("Exile in Corsica"), ev("Exile in Armenia")), (), ()],
    )
    plays = [a for a in GAME.legal_actions(s, 0) if isinstance(a, Play) and a.mode == "exile"]
    assert {a.bishop for a in plays} == {"b-mediolanum", "b-mursa"}
    s = pass_window(act(s, 0, Play(card=ev("Exile in Corsica"), mode="exile", bishop="b-mediolanum")))
    assert GAME.is_exiled(s, "b-mediolanum")
    s = pass_window(act(s, 0, Play(card=ev("Exile in Armenia"), mode="recall", bishop="b-mediolanum")))
    assert not s.exiled and ev("Exile in Corsica") in s.event_discard


def test_civil_war() -> None:
    """Civil War: the Church with more Followers takes all the other's Laity."""
    s = make(
        church=[
            ("l-prefect-of-gaul",) + fol(1000000, 2),
            ("l-eastern-empress", "l-prefect-of-italy-africa"),
            (),
        ],
        hands=[(ev("Civil War"),), (), ()],
    )
    s = act(s, 0, Play(card=ev("Civil War"), target=1))
    assert set(s.players[0].church) >= {"l-eastern-empress", "l-prefect-of-italy-africa"}


def test_usurpation_and_new_emperor() -> None:
    """Usurpation needs more Laity Followers; New Emperor takes the Eastern Emperor."""
    s = make(
        church=[("l-prefect-of-gaul",), (EASTERN_EMPEROR,), ()],
        hands=[(ev("Usurpation"), ev("New Emperor")), (), ()],
    )
    assert not [a for a in GAME.legal_actions(s, 0) if isinstance(a, Play) and "usurpation" in a.card]
    s = act(s, 0, Play(card=ev("New Emperor")))
    assert s.players[0].church[-1] == EASTERN_EMPEROR and GAME.emperor(s) == 0


def test_regency_after_new_emperor() -> None:
    """Regency: right after a New Emperor, the Empress's Church takes the Emperor."""
    s = make(church=[(), ("l-eastern-empress",), ()], hands=[(ev("New Emperor"),), (), (ev("Regency"),)])
    s = act(s, 0, Play(card=ev("New Emperor")))
    s = act(s, 1, Pass())
    s = act(s, 2, Play(card=ev("Regency")))
    assert GAME.emperor(s) == 1


def test_julian_the_apostate() -> None:
    """Julian: Eastern Emperor placed aside, Prefects discarded, each loses 1 Follower."""
    s = make(
        church=[(EASTERN_EMPEROR, "l-prefect-of-gaul") + fol(5000, 1), fol(10000, 1), ()],
        hands=[(ev("Julian the Apostate"),), (), ()],
    )
    s = pick_all(act(s, 0, Play(card=ev("Julian the Apostate"))))
    assert s.players[0].church == () and s.players[1].church == ()
    assert s.emperor_out == (EASTERN_EMPEROR,) and GAME.emperor(s) is None


def test_patriarchs_enter_by_event() -> None:
    """Special Church Cards: Jerusalem and Constantinople come in by Event cards held
    by the Eastern Emperor's Church; the Bishops of Jerusalem and Caesarea are discarded."""
    s = make(
        church=[(EASTERN_EMPEROR,), ("b-jerusalem", "b-caesarea"), ()],
        hands=[
            (
                ev("The Emperor Promotes the Bishop of Jerusalem to the Rank of Patriarch"),
                ev("The Emperor Creates the Patriarchate of Constantinople"),
            ),
            (),
            (),
        ],
    )
    s = pass_window(
        act(s, 0, Play(card=ev("The Emperor Promotes the Bishop of Jerusalem to the Rank of Patriarch")))
    )
    s = act(s, 0, Play(card=ev("The Emperor Creates the Patriarchate of Constantinople")))
    assert {"p-jerusalem", "p-constantinople"} <= set(s.players[0].church) and s.players[1].church == ()
    assert s.patriarch_box == ()


def test_goths_and_evangelisation() -> None:
    """Goths Invade the East; Evangelisation converts them into Follower cards."""
    s = make(
        stage="main",
        active=2,
        church=[(EASTERN_EMPEROR,) + fol(5000, 2), (), ()],
        event_deck=[ev("Goths Invade the East"), ev("Evangelisation of the Goths")],
    )
    s = pick_all(act(s, 2, Done()))
    assert s.goths == ("e-goths-invade-the-east-1",) and s.players[0].church == (EASTERN_EMPEROR,)
    s = act(pass_window(s), 0, Done())  # Church 2 draws Evangelisation of the Goths
    # "You can convert the Invading Goths": Church 2 chooses (R23)
    assert s.tasks[0].kind == "convert" and list(GAME.to_act(s)) == [1]
    s = act(s, 1, GAME.parse_action(s, 1, "pick convert"))
    assert s.active == 1 and s.goths == ()
    assert "e-goths-invade-the-east-1" in s.players[1].church
    assert GAME.followers(s, 1) == 50_000


def test_western_emperor_is_laity() -> None:
    """Special Event Cards: the Western Emperor is Laity once in play, calls Councils
    without an Eastern Emperor."""
    s = make(hands=[(ev("Western Emperor"),), (), ()])
    s = act(s, 0, Play(card=ev("Western Emperor")))
    assert GAME.total_votes(s, 0) == 5 and GAME.followers(s, 0) == 500_000 and GAME.emperor(s) == 0


def test_heterodox_book_votes() -> None:
    """Heterodox books: +5 votes for its symbol doctrine, if possessed."""
    a, b = art("Article 2 solar"), art("Article 2 Orthodox")
    s = council_state(
        [mat(faith=[b]), mat(faith=[a]), mat()],
        [(), ("p-alexandria",), ()],
        hands=[(), (ev("Gospel of the Child Thomas"),), ()],
        creed=[art("Article 1 Orthodox")] + [None] * 9,
    )
    s = act(s, 0, Convoke())
    s = finish_council(act(s, 1, Play(card=ev("Gospel of the Child Thomas"))))
    assert s.creed[1] == a


def test_apostacy_spares_sun_doctrine() -> None:
    """Apostacy!: lose a Bishop unless the sun doctrine is held or in the Creed."""
    s = make(
        stage="main",
        active=2,
        church=[("b-nicea",), (), ()],
        event_deck=[ev("Apostacy!")],
        mats=[mat(faith=[art("Article 2 solar")]), mat(), mat()],
    )
    s = act(s, 2, Done())
    assert s.players[0].church == ("b-nicea",)
    t = make(stage="main", active=2, church=[("b-nicea",), (), ()], event_deck=[ev("Apostacy!")])
    t = act(t, 2, Done())
    assert t.players[0].church == ()


def test_simony_takes_and_gives() -> None:
    """Simony: take a Bishop, give 1 Follower."""
    s = make(church=[fol(5000, 1), ("b-nicea",), ()], hands=[(ev("Simony"),), (), ()])
    s = act(s, 0, Play(card=ev("Simony"), target=1))
    assert s.players[0].church == ("b-nicea",) and s.players[1].church == fol(5000, 1)


def test_bad_times_keeps_ten_bishops_away() -> None:
    """Bad Times (R20): ten of the rival's Bishops do not vote."""
    a, b = art("Article 1 Orthodox"), art("Article 1 Tritheist")
    bishops = ("p-alexandria", "p-antioch") + tuple(
        f"b-{x}"
        for x in (
            "assos",
            "athens",
            "corinth",
            "edessa",
            "tyre",
            "laodicea",
            "seleucia",
            "nyssa",
            "nazianzus",
            "tarsus",
        )
    )
    s = council_state(
        [mat(faith=[a]), mat(faith=[b]), mat()], [(), bishops, ()], hands=[(ev("Bad Times"),), (), ()]
    )
    s = act(s, 0, Convoke())
    s = act(s, 1, Pass())
    s = act(s, 2, Pass())
    s = act(s, 0, Play(card=ev("Bad Times"), target=1))
    # "The rival chooses which Bishops cannot attend.": Church 2 is asked, not the player.
    assert set(GAME.to_act(s)) == {1} and s.tasks[0].kind == "away"
    assert {a.card for a in GAME.legal_actions(s, 1)} == set(bishops)
    for b in bishops[:10]:  # the rival may keep even its Patriarchs away
        s = act(s, 1, Pick(card=b))
    assert not s.tasks
    assert set(s.council.bad_times) == set(bishops[:10])
    assert GAME.council_votes(s, 1) == 2  # Nazianzus and Tarsus attend


def test_bad_times_ten_or_fewer_bishops_all_kept_away() -> None:
    """Bad Times: with no more than 10 Bishops there is nothing to choose."""
    a, b = art("Article 1 Orthodox"), art("Article 1 Tritheist")
    s = council_state(
        [mat(faith=[a]), mat(faith=[b]), mat()],
        [(), ("b-nicea", "b-gaza") + fol(100000, 1), ()],
        hands=[(ev("Bad Times"),), (), ()],
    )
    s = act(s, 0, Convoke())
    s = act(s, 1, Pass())
    s = act(s, 2, Pass())
    s = act(s, 0, Play(card=ev("Bad Times"), target=1))
    assert not s.tasks and set(s.council.bad_times) == {"b-nicea", "b-gaza"}


# --------------------------------------------------------------------------- the end


def test_end_article_ten_most_followers() -> None:
    """Game End: Article 10 passed; the most Followers wins."""
    creed = [art(f"Article {i} Orthodox") for i in (1, 2, 3, 4)] + [art("Article 5 Athanasian")] + [
        art(f"Article {i} Orthodox") for i in (6, 7, 8, 9)] + [None]  # fmt: skip
    s = council_state(
        [mat(faith=[art("Article 10 Nicene")]), mat(), mat()], [(), fol(1000000, 2), ()], creed=creed
    )
    s = act(s, 0, Convoke())
    assert s.phase == "over" and s.winners == (1,)
    assert GAME.outcome(s).winners == (1,)


def test_end_eleven_million() -> None:
    """Game End: 11 million Followers."""
    big = (
        fol(1000000, 2)
        + fol(750000, 2)
        + fol(500000, 7)
        + ("p-alexandria", "p-antioch", "p-rome")
        + fol(250000, 9)
    )
    assert sum(GAME.cards[c].followers for c in big) >= 11_000_000
    s = make(church=[big[:-1], (), ()], hands=[(ev("New Basilica"),), (), ()], church_deck=big[-1:])
    s = act(s, 0, Play(card=ev("New Basilica")))
    assert s.phase == "over" and s.winners == (0,)


def test_end_117_votes() -> None:
    """Game End: 117 votes amongst Bishops and Laity."""
    held = (
        "p-alexandria",
        "p-antioch",
        "p-rome",
        EASTERN_EMPEROR,
        "b-caesarea",
        "b-jerusalem",
        "b-nicea",
        "b-cyrene",
        "b-chalcedonia",
        "b-nicomedia",
    )  # 20+20+10+20+10+10+5+5+5+5 = 110
    s = make(
        church=[held, (), ()],
        hands=[(ev("New Basilica"),), (), ()],
        church_deck=("l-prefect-of-the-east", "b-ancyra"),
    )
    assert GAME.total_votes(s, 0) == 110
    s = act(s, 0, Play(card=ev("New Basilica")))
    assert s.phase == "over" and s.winners == (0,) and "votes" in s.end_reason


def test_round_limit_option() -> None:
    """R19: the round limit ends the game; most Followers wins."""
    s = make(church=[(), fol(5000, 1), ()], active=2).model_copy(update={"round_limit": 1, "turns": 3})
    s = act(s, 2, Done())
    assert s.phase == "over" and s.winners == (1,)
    with pytest.raises(GameError):
        act(s, 0, Done())


# --------------------------------------------------------------------------- every other Event card


def immediate(name: str, church, **kw) -> State:
    """Church 3 ends its turn; Church 1 draws ``name`` (a Play Immediately card)."""
    s = make(stage="main", active=2, church=church, event_deck=[ev(name)], **kw)
    return pick_all(act(s, 2, Done()))


def play(s: State, name: str, seat: int = 0, *rolls: int, **fields: Any) -> State:
    return pick_all(act(s, seat, Play(card=ev(name), **fields), *rolls))


def kinds(s: State, seat: int) -> Counter:
    return Counter(GAME.cards[c].kind for c in s.players[seat].church)


def test_event_iconolatry_and_iconoclasts() -> None:
    """Iconolatry draws 1 and marks its Church; Iconoclasts persecute it (more Followers)."""
    s = make(
        church=[(), fol(1000000, 1), ()],
        hands=[(), (ev("Iconolatry"),), (ev("Iconoclasts"),)],
        church_deck=fol(5000, 1),
        active=1,
    )
    s = play(s, "Iconolatry", 1)
    assert s.iconolatry == 1 and len(s.players[1].church) == 2
    assert not [a for a in GAME.legal_actions(s, 2) if isinstance(a, Play) and a.card == ev("Iconoclasts")]
    s2 = s.model_copy(update={"players": (s.players[0], s.players[1], s.players[2].model_copy(
        update={"church": fol(1000000, 2)[1:] + ("p-rome", "p-antioch")}))})  # fmt: skip
    s2 = play(s2, "Iconoclasts", 2, *two(6))
    assert s2.last_roll.table == "Persecution" and len(s2.players[1].church) == 1


def test_event_scandal_and_hesitates() -> None:
    """Scandal!: the Empress's votes are not counted; The Emperor Hesitates: the
    Emperor card's votes are not counted (R20)."""
    a, b = art("Article 1 Orthodox"), art("Article 1 Tritheist")
    s = council_state(
        [mat(faith=[a]), mat(faith=[b]), mat()],
        [("l-eastern-empress",), ("p-alexandria",), ()],
        hands=[(), (ev("Scandal!"), ev("The Emperor Hesitates")), ()],
    )
    s = act(s, 0, Convoke())
    assert GAME.council_votes(s, 0) == 25
    s = act(s, 1, Play(card=ev("Scandal!")))
    s = act(s, 1, Play(card=ev("The Emperor Hesitates")))
    assert GAME.council_votes(s, 0) == 0
    s = finish_council(s)
    assert s.creed[0] == b


def test_event_evangelic_campaign() -> None:
    """Evangelic Campaign: as many Churches as the Bishop has votes, once each."""
    s = make(
        n=4,
        church=[("b-mursa",), fol(5000, 2), fol(10000, 2), fol(20000, 2)],
        hands=[(ev("Evangelic Campaign"),), (), (), ()],
    )
    s = act(s, 0, Play(card=ev("Evangelic Campaign"), bishop="b-mursa"))
    # "One of your Bishops can Proselytise against as many Churches of other players
    # as he has votes": the player chooses them (Mursa has 2 votes).
    assert set(GAME.to_act(s)) == {0} and s.tasks[0].kind == "campaign"
    names = [format_action(GAME, s, a) for a in GAME.legal_actions(s, 0)]
    assert names == ["pick Church 2", "pick Church 3", "pick Church 4"]  # no stop before preaching
    s = act(s, 0, parse(GAME, s, 0, "pick Church 4"), *two(7))
    # "He can only Proselytise once against each other Church."
    names = [format_action(GAME, s, a) for a in GAME.legal_actions(s, 0)]
    assert names == ["pick Church 2", "pick Church 3", "pick stop"]
    s = act(s, 0, parse(GAME, s, 0, "pick Church 3"), *two(7))
    s = pick_all(s)
    assert not s.tasks  # two votes: two Churches at most
    assert kinds(s, 0)["follower"] == 2
    assert len(s.players[1].church) == 2 and len(s.players[2].church) == 1 and len(s.players[3].church) == 1


def test_event_evangelic_campaign_may_stop() -> None:
    """Evangelic Campaign: "can" — the player may preach to fewer Churches."""
    s = make(
        n=4,
        church=[("b-nicea",), fol(5000, 2), fol(10000, 2), fol(20000, 2)],
        hands=[(ev("Evangelic Campaign"),), (), (), ()],
    )
    s = act(s, 0, Play(card=ev("Evangelic Campaign"), bishop="b-nicea"))
    s = act(s, 0, Pick(card="2"), *two(7))
    s = act(s, 0, Pick(card="stop"))
    assert not s.tasks and kinds(s, 0)["follower"] == 1 and len(s.players[2].church) == 1


def test_event_evangelic_campaign_ends_when_bishop_lost() -> None:
    """Evangelic Campaign: a Bishop lynched on a 12 preaches no more."""
    s = make(
        n=4,
        church=[("b-nicea",), fol(5000, 2), fol(10000, 2), fol(20000, 2)],
        hands=[(ev("Evangelic Campaign"),), (), (), ()],
    )
    s = act(s, 0, Play(card=ev("Evangelic Campaign"), bishop="b-nicea"))
    s = act(s, 0, Pick(card="1"), *two(12))
    assert not s.tasks and "b-nicea" not in s.players[0].church


def test_event_fire_at_the_temple() -> None:
    """Fire at the Temple of Apollo: the Eastern Emperor persecutes the drawer."""
    s = make(
        stage="main",
        active=2,
        church=[fol(5000, 2), (EASTERN_EMPEROR,), ()],
        event_deck=[ev("Fire at the Temple of Apollo")],
    )
    s = pick_all(GAME.apply(s, 2, Done(), Dice(*two(4))).state)
    assert s.players[0].church == () and ev("Fire at the Temple of Apollo") in s.event_permanent


def test_event_odoacer() -> None:
    """Odoacer: the Western Emperor leaves the game; the Magister Militum draws 2."""
    s = make(
        church=[(WESTERN_EMPEROR,), ("l-western-magister-militum",), ()],
        hands=[(ev("Odoacer"),), (), ()],
        church_deck=fol(5000, 2),
    )
    s = play(s, "Odoacer")
    assert WESTERN_EMPEROR in s.removed and len(s.players[1].church) == 3


def test_event_corpse_synod() -> None:
    """Corpse Synod: a Patriarch's Church persecutes another and loses 1 Follower."""
    s = make(church=[("p-rome",) + fol(5000, 1), fol(10000, 2), ()], hands=[(ev("Corpse Synod"),), (), ()])
    s = play(s, "Corpse Synod", 0, *two(6), target=1)
    assert s.players[0].church == ("p-rome",) and len(s.players[1].church) == 1


def test_event_nika_riots() -> None:
    """Nika Riots: persecute the Emperor's Church, who persecutes back."""
    s = make(
        church=[fol(5000, 2), (EASTERN_EMPEROR,) + fol(10000, 2), ()], hands=[(ev("Nika Riots"),), (), ()]
    )
    s = act(s, 0, Play(card=ev("Nika Riots")), *two(6))
    s = pick_all(s) if s.tasks and s.tasks[0].kind != "persecute" else s
    # "The Emperor can Persecute your Church in response": the Emperor's choice (R30)
    assert s.tasks[0].kind == "persecute" and s.tasks[0].chooser == 1
    assert [GAME.format_action(s, a) for a in GAME.legal_actions(s, 1)] == ["pick persecute", "pick spare"]
    s = pick_all(act(s, 1, Pick(card="persecute"), *two(4)))
    assert len(s.players[1].church) == 2 and s.players[0].church == ()


def test_event_dynastic_change() -> None:
    """Dynastic Change: take the Western or Eastern Emperor."""
    s = make(
        church=[(), (WESTERN_EMPEROR,), ()],
        hands=[(ev("Dynastic Change"),), (), ()],
        emperor_out=(EASTERN_EMPEROR,),
    )
    assert {a.mode for a in GAME.legal_actions(s, 0) if isinstance(a, Play)} == {"east", "west"}
    s = play(s, "Dynastic Change", mode="west")
    assert s.players[0].church == (WESTERN_EMPEROR,)


def test_event_by_this_sign() -> None:
    """By This Sign Shall You Conquer: take 1 Laity, draw 2."""
    s = make(
        church=[(), ("l-prefect-of-gaul",), ()],
        hands=[(ev("By This Sign Shall You Conquer"),), (), ()],
        church_deck=fol(5000, 2),
    )
    s = play(s, "By This Sign Shall You Conquer", target=1)
    assert kinds(s, 0) == {"laity": 1, "follower": 2}


@pytest.mark.parametrize(
    ("name", "church", "expect"),
    [
        ("Pagan Magician", fol(5000, 2), 1),
        ("Rich Lay Dignitary Renounces your Church", fol(5000, 2) + ("b-nicea",), 1),
        ("Neoplatonic Philosophers", ("b-nicea", "b-gaza", "b-assos"), 1),
        ("Schism in your Church", ("b-nicea", "b-gaza"), 1),
        ("Pestilence", fol(5000, 1), 0),
        ("Translation of Relics", (), 1),
        ("Apostacy!", ("b-nicea",), 0),
    ],
)
def test_event_play_immediately_losses(name: str, church: tuple, expect: int) -> None:
    """Cross and Heterodoxy Play Immediately cards on the drawer: Lose / Draw."""
    s = immediate(name, [church, (), ()], church_deck=fol(500000, 2))
    assert len(s.players[0].church) == expect


def test_event_true_cross() -> None:
    """Emperor's Mother Finds the True Cross: each player draws 1."""
    s = immediate("Emperor's Mother Finds the True Cross", [(), (), ()], church_deck=fol(10000, 3))
    assert [len(p.church) for p in s.players] == [1, 1, 1]


def test_event_goths_invade_the_west_losses() -> None:
    """Goths Invade the West: 2 Followers per Western Laity."""
    s = immediate(
        "Goths Invade the West",
        [(WESTERN_EMPEROR, "l-prefect-of-gaul") + fol(10000, 5), fol(5000, 2)[:0], ()],
    )
    assert kinds(s, 0)["follower"] == 1


def test_event_barbarians_invade_the_west() -> None:
    """Barbarians Invade the West: the Western Emperor's Church loses 4; the Magister draws 2."""
    s = immediate(
        "Barbarians Invade the West",
        [(WESTERN_EMPEROR,) + fol(5000, 2) + fol(10000, 3), ("l-western-magister-militum",), ()],
        church_deck=fol(20000, 2),
    )
    assert kinds(s, 0)["follower"] == 1 and len(s.players[1].church) == 3


def test_event_persians_invade_the_east() -> None:
    """Persians Invade the East: 2 Followers per Eastern Prefect or listed Patriarch."""
    s = immediate(
        "Persians Invade the East",
        [("l-prefect-of-the-east", "p-antioch") + fol(10000, 5), ("l-prefect-of-gaul",) + fol(10000, 2), ()],
    )
    assert kinds(s, 0)["follower"] == 1 and kinds(s, 1)["follower"] == 2


def test_event_demonstration_of_unity() -> None:
    """Demonstration of Unity: a Council at once, the drawer's Church +5 votes."""
    a, b = art("Article 1 Orthodox"), art("Article 1 Tritheist")
    s = immediate(
        "Demonstration of Unity",
        [("b-nicea",), ("b-gaza", "b-sinope"), ()],
        mats=[mat(faith=[a]), mat(faith=[b]), mat()],
    )
    assert s.council is not None and s.council.bonus == ((0, 5),)
    s = finish_council(s)
    assert s.creed[0] == a and s.active == 0 and s.stage == "main"


def test_event_general_council_must_be_convoked() -> None:
    """General Council must be Convoked: a Council on the next Article now."""
    a = art("Article 1 Orthodox")
    s = immediate("General Council must be Convoked", [(), (), ()], mats=[mat(), mat(faith=[a]), mat()])
    assert s.creed[0] == a


def test_event_scourge_of_god() -> None:
    """Scourge of God!: the two Western Prefects' Churches lose 2 Followers each; the
    Patriarch of Rome's loses 4 Church cards."""
    s = immediate(
        "Scourge of God!", [("l-prefect-of-gaul",) + fol(10000, 3), ("p-rome",) + fol(20000, 4), ()]
    )
    assert kinds(s, 0)["follower"] == 1 and len(s.players[1].church) == 1


def test_event_exile_for_causing_scandal() -> None:
    """Exile for Causing Scandal: the drawer's highest-vote Bishop is exiled."""
    s = immediate("Exile for Causing Scandal", [("b-gaza", "b-caesarea"), (), ()])
    assert s.exiled == (("b-caesarea", ev("Exile for Causing Scandal")),)


def test_event_earthquake_at_antioch() -> None:
    """Earthquake at Antioch (R5): the Patriarch of Antioch's Church loses 2 Followers."""
    s = immediate("Earthquake at Antioch", [(), ("p-antioch",) + fol(10000, 3), ()])
    assert kinds(s, 1)["follower"] == 1


@pytest.mark.parametrize(
    ("name", "target_church", "mine", "theirs"),
    [
        ("Dethronement", ("b-nicea", "b-gaza"), 0, 1),
        ("Contested Episcopal Election", ("b-nicea",), 1, 0),
        ("Wave of Asceticism", ("l-prefect-of-gaul",) + fol(5000, 2), 0, 1),
        ("Enraged Worshipers of Serapis", ("p-rome", "b-nicea"), 0, 1),
        ("Accounts of Gross Persecution", ("b-nicea",) + fol(10000, 3), 0, 1),
    ],
)
def test_event_play_immediately_on_another(name: str, target_church: tuple, mine: int, theirs: int) -> None:
    """Cross Play Immediately on Another Player cards."""
    s = make(stage="main", active=2, church=[(), target_church, ()], event_deck=[ev(name)])
    s = pick_all(act(act(s, 2, Done()), 0, Play(card=ev(name), target=1)))
    assert (len(s.players[0].church), len(s.players[1].church)) == (mine, theirs)


def test_event_concubine_and_interregnum() -> None:
    """Emperor's Concubine Intercedes / Interregnum: one of your Bishops returns."""
    s = make(
        church=[("b-nicea", "b-gaza"), (), ()],
        hands=[(ev("Emperor's Concubine Intercedes"), ev("Interregnum")), (), ()],
        exiled=(("b-nicea", ev("Exile in Armenia")), ("b-gaza", ev("Exile in Armenia", 2))),
    )
    s = pass_window(play(s, "Emperor's Concubine Intercedes", mode="recall", bishop="b-nicea"))
    s = play(s, "Interregnum", mode="recall", bishop="b-gaza")
    assert s.exiled == ()


def test_event_mutilation() -> None:
    """Mutilation!: the Patriarch of Rome casts no votes for a round (R25)."""
    s = make(church=[(), ("p-rome",), ()], hands=[(ev("Mutilation!"),), (), ()])
    s = play(s, "Mutilation!")
    assert s.mutilated_until == s.turns + 3
    assert GAME.council_votes(s, 1) == 0


def test_event_plague_in_the_west() -> None:
    """Plague in the West: Rome's Church loses 2 Followers and 1 Bishop."""
    s = make(
        church=[(), ("p-rome", "b-nicea") + fol(10000, 3), ()], hands=[(ev("Plague in the West"),), (), ()]
    )
    s = play(s, "Plague in the West")
    assert kinds(s, 1) == {"follower": 1, "patriarch": 1} or kinds(s, 1) == {"follower": 1, "bishop": 1}


def test_event_dock_strike() -> None:
    """Dock Strike (R20): the Eastern Emperor's Church, not voting with you, loses 1 Follower."""
    a, b = art("Article 1 Orthodox"), art("Article 1 Tritheist")
    s = council_state(
        [mat(faith=[a]), mat(faith=[b]), mat()],
        [fol(5000, 2), ("p-alexandria",), ()],
        hands=[(), (ev("Dock Strike"),), ()],
    )
    s = act(s, 0, Convoke())
    s = finish_council(act(s, 1, Play(card=ev("Dock Strike"))))
    assert kinds(s, 0)["follower"] <= 1


def test_event_circumcellions() -> None:
    """Circumcellions: without Laity, more Follower cards takes 2 Church cards."""
    s = make(
        church=[fol(10000, 3), fol(20000, 1) + ("b-nicea",), ()], hands=[(ev("Circumcellions"),), (), ()]
    )
    s = play(s, "Circumcellions", target=1)
    assert len(s.players[0].church) == 5 and s.players[1].church == ()


def test_event_church_reform_and_deathbed() -> None:
    """Church Reform: +5 votes, lose a Bishop and a Laity, draw 1; Deathbed Conversion: +5."""
    a, b = art("Article 1 Orthodox"), art("Article 1 Tritheist")
    s = council_state(
        [mat(faith=[a]), mat(faith=[b]), mat()],
        [(), ("b-nicea", "l-prefect-of-gaul"), ()],
        hands=[(), (ev("Church Reform"), ev("Deathbed Conversion")), ()],
        church_deck=fol(5000, 1),
    )
    s = act(s, 0, Convoke())
    s = act(s, 1, Play(card=ev("Church Reform")))
    s = act(s, 1, Play(card=ev("Deathbed Conversion")))
    assert GAME.council_votes(s, 1) == 10 and s.players[1].church == fol(5000, 1)


def test_every_event_effect_is_tested() -> None:
    """Each Event card's effect appears in a test of this module."""
    with open(__file__, encoding="utf-8") as f:
        text = f.read()
    effects: dict[str, set[str]] = {}
    for e in D.events.values():
        effects.setdefault(e.effect, set()).add(e.name)
    missing = [sorted(names) for names in effects.values() if not any(f'"{n}"' in text for n in names)]
    assert not missing, missing


def test_a_drawn_article_says_why_place_keep_or_renounce_is_not_offered() -> None:
    """The Game, Article Card: when the drawn Article may only be rejected (or renounced), its
    player reads why the other choices are missing, each with the sentence of the rule, and a
    typed `place` is refused with that reason."""
    import itertools
    import random

    from games.core import IllegalActionError
    from games.core.replay import apply_at, start

    g = GAME
    for seed in range(6):
        s = start(g, [0, 1, 2, 3], g.Options(), seed).state
        rnd = random.Random(seed)
        for step in range(1, 400):
            if g.outcome(s) is not None:
                break
            seat = rnd.choice(sorted(g.to_act(s)))
            texts = [g.format_action(s, a) for a in g.legal_actions(s, seat)]
            if s.stage == "article" and s.active == seat and not any(t.startswith("place") for t in texts):
                lines = g.not_offered(s, seat)
                place = next(line for line in lines if line.startswith("place: "))
                assert "(Article Card: \"If he does not yet possess an Article with the same number\")" in place
                try:
                    g.parse_action(s, seat, "place " + texts[-1].split(None, 1)[1])
                except IllegalActionError as e:
                    assert e.message.startswith("'place' is not possible now: " + place.split(": ", 1)[1])
                    return
            acts = list(itertools.islice(g.legal_actions(s, seat), 100))
            s = apply_at(g, s, seat, rnd.choice(acts), seed, step).state
    raise AssertionError("no drawn Article without place in the games tried")


def test_a_councils_respect_is_settled_before_the_next_turn_begins() -> None:
    """R32 (General Councils, Results): the Emperor's Respect roll may make him take Church cards;
    those are picked before the next Church's turn is announced, so events read in the order
    they happen (the "Round N: Church X's turn" line comes after the last pick)."""
    import itertools
    import random

    from games.core.replay import apply_at, start

    g = GAME
    checked = 0
    for seed in range(40):
        s = start(g, [0, 1, 2, 3], g.Options(), seed).state
        rnd = random.Random(seed)
        pending_turn = False
        for step in range(1, 600):
            if g.outcome(s) is not None:
                break
            seat = rnd.choice(sorted(g.to_act(s)))
            acts = list(itertools.islice(g.legal_actions(s, seat), 100))
            respects = [a for a in acts if type(a).__name__ == "Respect"]
            a = rnd.choice(respects or acts)
            step_ = apply_at(g, s, seat, a, seed, step)
            lines = [e.describe() for e in step_.events if e.visible_to is None]
            turn_line = any(line.endswith("'s turn.") and line.startswith("Round ") for line in lines)
            respect_tasks = [t for t in step_.state.tasks if t.reason == "Respect"]
            if respect_tasks:
                assert not turn_line, lines  # the next turn waits for the Council's results
                pending_turn = pending_turn or (s.council is not None and s.council.end_turn)
            elif pending_turn:
                assert turn_line, lines  # the last pick of the Respect lets the next turn begin
                checked += 1
                pending_turn = False
            s = step_.state
        if checked >= 2:
            return
    assert checked, "no Respect with cards to take at the end of a turn in the games tried"


def test_a_vote_cast_for_a_church_says_why() -> None:
    """General Councils: "If so, it must vote for its own doctrine." The votes the game casts
    for a Church holding a doctrine of the Article are announced with that reason, one line
    per Church, before the others are asked."""
    import itertools
    import random

    from games.core.replay import apply_at, start

    g = GAME
    s = start(g, [0, 1, 2, 3], g.Options(), 1).state
    rnd = random.Random(1)
    for step in range(1, 400):
        seat = rnd.choice(sorted(g.to_act(s)))
        r = apply_at(g, s, seat, rnd.choice(list(itertools.islice(g.legal_actions(s, seat), 100))), 1, step)
        if r.state.council is not None and r.state.council.stage == "vote" and r.state.council.votes:
            lines = [e.describe() for e in r.events]
            for x, key, n in r.state.council.votes:
                assert (
                    f"{g.church_name(x)} votes for its own doctrine, {key} ({count(n, 'vote')}): a Church with a doctrine "
                    "for the Article must vote for it (General Councils)."
                ) in lines
            return
        s = r.state
    raise AssertionError("no Council reached its vote")
