"""Credo's queries: what the data and a State say, changing nothing (rule text:
shared/seeds/003_a89d0bca05ff4a91.txt; rulings: RULINGS.md). The game object inherits
:class:`Queries`; the notation, the agent, the rules, the stages and the view read the
table through it."""

from __future__ import annotations

import functools
from collections.abc import Sequence

from games.core import Seat
from games.core.english import count as counted
from games.core.errors import list_words
from games.core.memo import last_state
from games.core.window import seats_after

from .data import (
    EASTERN_EMPEROR,
    EMPRESS,
    GOTHS,
    NISIBIS,
    ROME,
    WESTERN_EMPEROR,
    ArticleCard,
    ChurchCard,
    Data,
    EventCard,
)
from .model import CATEGORIES, State, Task

HAND_LIMIT = 4  # The Game: "No player may end his turn with more than 4 Event/Article cards"
SETUP_ARTICLES = 9  # Set Up: "Deal 9 Article cards to each player."
WIN_FOLLOWERS = 11_000_000  # Object of the Game
WIN_VOTES = 117  # Object of the Game
EXTRA_VOTES = 5  # Demonstration of Unity, heterodox books, Western Delegation...
BAD_TIMES_BISHOPS = 10
KIND_WORDS = {  # a Task's kinds of Church card, singular and plural, for its prompt
    "any": ("Church card", "Church cards"),
    "follower": ("Follower", "Followers"),
    "bishop": ("Bishop", "Bishops"),
    "laity": ("Laity card", "Laity cards"),
}
COUNCIL_EFFECTS = {
    "scandal", "military_intervention", "emperor_hesitates", "heterodox_book", "bad_times",
    "dock_strike", "extra_votes", "church_reform",
}  # fmt: skip
STAYS_IN_PLAY = {"exile", "exile_for_scandal", "goths", "western_emperor"}
CHOICE_TASKS = ("either", "campaign", "persecute", "convert", "dock")
"""The kinds of Task answered with an option rather than a card (``pick persecute``)."""


def card_kinds(cards: dict[str, ChurchCard]) -> dict[str, frozenset[str]]:
    """Per card, the kinds ``Queries.of_kind`` finds it under: ``any``, its own kind, and
    ``bishop`` for a Patriarch (Church Cards: "all rules pertaining to Bishops apply")."""
    return {
        c: frozenset({"any", card.kind, *(("bishop",) if card.is_bishop else ())}) for c, card in cards.items()
    }


def church_cards(data: Data) -> dict[str, ChurchCard]:
    """Every card that may sit among a Church's cards: the Church cards, and the Western
    Emperor and the two Goths cards as the Event cards that join a Church (Special Event
    Cards)."""
    cards: dict[str, ChurchCard] = dict(data.church)
    cards[WESTERN_EMPEROR] = ChurchCard(
        id=WESTERN_EMPEROR, kind="laity", name="Western Emperor", half="West", votes=5, followers=500_000
    )
    for g in GOTHS:
        e = data.events[g]
        cards[g] = ChurchCard(id=g, kind="follower", name=f"Goths ({e.half})", followers=e.goth_followers)
    return cards


@functools.cache
def _others_after(players: int, seat: Seat) -> tuple[Seat, ...]:
    """The seats of ``players`` after ``seat``, in turn order (games.core.window.seats_after)."""
    return tuple(seats_after(tuple(range(players)), seat))


@functools.lru_cache(maxsize=4096)
def _best_arrangement(
    used: frozenset[int], free: int, free_faith: int, cards: tuple[tuple[int, ...], ...]
) -> tuple[int, bool]:
    """Set Up b., d., f.: the most Articles placeable from ``cards`` (each the numbers of a
    hand card) into ``free`` empty boxes without repeating a number in ``used`` or between
    them; second, whether an Article 1 can be among them. An Article 1 goes first, into an
    Article of Faith box, so it needs ``free_faith`` > 0. Exhaustive over subsets."""
    best = (0, False)

    def go(i: int, taken: frozenset[int], count: int, one: bool) -> None:
        nonlocal best
        if (count, one) > best:
            best = (count, one)
        if i == len(cards) or count == free:
            return
        nums = cards[i]
        if not (set(nums) & taken) and (1 not in nums or free_faith > 0):
            go(i + 1, taken | set(nums), count + 1, one or 1 in nums)
        go(i + 1, taken, count, one)

    go(0, used, 0, False)
    return best


class Queries:
    """Table queries on ``self.data`` and ``self.cards`` (the game's data) and a State."""

    data: Data
    cards: dict[str, ChurchCard]
    _followers: dict[str, int]
    _votes: dict[str, int]
    _kinds: dict[str, frozenset[str]]

    def church_name(self, seat: Seat) -> str:
        """A seat's Church, as every message names it ("Church 2")."""
        return f"Church {seat + 1}"

    def name(self, card_id: str) -> str:
        """The printed name of any card: Church, Article or Event card."""
        if card_id in self.cards:
            return self.cards[card_id].name
        return self.data.name(card_id)

    def article(self, card_id: str) -> ArticleCard:
        """The Article card ``card_id`` (its numbers, doctrine, penalty)."""
        return self.data.articles[card_id]

    def event(self, card_id: str) -> EventCard:
        """The Event card ``card_id`` (its timing and effect)."""
        return self.data.events[card_id]

    def holder(self, s: State, card: str) -> Seat | None:
        """The Church holding the Church card ``card`` among its Church cards, or None."""
        for x, p in enumerate(s.players):
            if card in p.church:
                return x
        return None

    def emperor(self, s: State) -> Seat | None:
        """The Emperor: the Eastern Emperor's Church, else the Western Emperor's
        (General Councils, note)."""
        x = self.holder(s, EASTERN_EMPEROR)
        return x if x is not None else self.holder(s, WESTERN_EMPEROR)

    def emperor_card(self, s: State) -> str | None:
        """The Emperor's card in play: the Eastern Emperor, else the Western (General
        Councils, note), or None."""
        if self.holder(s, EASTERN_EMPEROR) is not None:
            return EASTERN_EMPEROR
        if self.holder(s, WESTERN_EMPEROR) is not None:
            return WESTERN_EMPEROR
        return None

    def is_exiled(self, s: State, card: str) -> bool:
        """Whether ``card`` (a Bishop) is in exile (Exile cards)."""
        return bool(s.exiled) and any(b == card for b, _ in s.exiled)

    def of_kind(self, s: State, seat: Seat, kind: str) -> list[str]:
        """Church cards of ``seat`` of a kind: follower, bishop (Patriarchs included),
        patriarch, laity or any."""
        kinds = self._kinds
        return [c for c in s.players[seat].church if kind in kinds[c]]

    def followers(self, s: State, seat: Seat, civil: bool = False) -> int:
        """Followers of a Church: Follower cards plus intrinsic Followers of Patriarchs
        and Laity. ``civil``: without exiled Patriarchs (Civil War, Usurpation)."""
        church = s.players[seat].church
        if civil and s.exiled:
            church = tuple(c for c in church if not self.is_exiled(s, c))
        return sum(map(self._followers.__getitem__, church))

    def laity_followers(self, s: State, seat: Seat) -> int:
        """The Followers of a Church's Laity cards (Usurpation)."""
        return sum(self.cards[c].followers for c in self.of_kind(s, seat, "laity"))

    def total_votes(self, s: State, seat: Seat) -> int:
        """Votes amongst a Church's Bishops and Laity (for the 117-vote victory)."""
        return sum(map(self._votes.__getitem__, s.players[seat].church))

    def mat_cards(self, s: State, seat: Seat) -> list[tuple[int, str]]:
        """(box, Article card) of each filled box of a Church mat (boxes 0-2 Articles of
        Faith, 3-5 Firm Beliefs, 6-8 Customary Practices)."""
        return [(i, c) for i, c in enumerate(s.players[seat].mat) if c is not None]

    def mat_numbers(self, s: State, seat: Seat) -> set[int]:
        """The Article numbers a Church mat holds (Set Up a.: one Article of a number)."""
        return {n for _, c in self.mat_cards(s, seat) for n in self.article(c).numbers}

    def decided(self, s: State) -> set[int]:
        """The Article numbers already in the Definitive Creed."""
        return {i + 1 for i, c in enumerate(s.creed) if c is not None}

    def next_article(self, s: State) -> int | None:
        """The Article a General Council decides next (the lowest undecided), or None."""
        for i, c in enumerate(s.creed):
            if c is None:
                return i + 1
        return None

    def doctrine_of(self, s: State, seat: Seat, number: int) -> tuple[int, str] | None:
        """(box, card) of the seat's Article covering ``number``."""
        for i, c in self.mat_cards(s, seat):
            if number in self.article(c).numbers:
                return i, c
        return None

    def others(self, s: State, seat: Seat) -> list[Seat]:
        """The other Churches in turn order after ``seat`` (a fresh list)."""
        return list(_others_after(len(s.players), seat))

    def placeable(self, s: State, seat: Seat, card: str, setup: bool) -> bool:
        """Set Up a., e., g. and The Game, Article Card: a card can go on the mat when none
        of its numbers is there or decided, into the first empty box (Articles of Faith
        first). At set-up also b., d. and f.: the card must leave a complete arrangement
        placing as many Articles as possible, an Article 1 held among them as an Article of
        Faith (RULINGS.md R13, R14)."""
        if card not in self.data.articles:
            return False
        art = self.article(card)
        if set(art.numbers) & (self.mat_numbers(s, seat) | self.decided(s)):
            return False
        mat = s.players[seat].mat
        if None not in mat:
            return False
        box = mat.index(None)
        if not setup:
            return True
        if 1 in art.numbers and CATEGORIES[box // 3] != "faith":
            return False
        hand = list(s.players[seat].hand)
        hand.remove(card)
        used = self.mat_numbers(s, seat) | self.decided(s)
        now = self._setup_best(s, seat, used, mat, s.players[seat].hand)
        after = self._setup_best(s, seat, used | set(art.numbers), mat[:box] + (card,) + mat[box + 1 :], hand)
        return (after[0] + 1, after[1] or 1 in art.numbers) == now

    def _setup_best(
        self, s: State, seat: Seat, used: set[int], mat: tuple[str | None, ...], hand: Sequence[str]
    ) -> tuple[int, bool]:
        """The best complete arrangement from here (Set Up b., d., f.): (how many more
        Articles can be placed at most, whether an Article 1 is among them), searched over
        every set of hand cards, not greedily."""
        cards = tuple(
            sorted({self.article(c).numbers for c in hand if c in self.data.articles}, key=lambda t: t)
        )
        return _best_arrangement(frozenset(used), mat.count(None), mat[:3].count(None), cards)

    def setup_refusal(self, s: State, seat: Seat, card: str) -> str | None:
        """Why a set-up ``place`` of a hand card is refused, in the rule text's words."""
        if card not in s.players[seat].hand or card not in self.data.articles:
            return None
        art = self.article(card)
        taken = set(art.numbers) & self.mat_numbers(s, seat)
        if taken:
            return (
                f"{art.name} shares Article {min(taken)} with your mat; only one Article of a given"
                " number is permitted (Set Up a.)"
            )
        mat = s.players[seat].mat
        if None not in mat:
            return "your mat is full (Set Up g.)"
        box = mat.index(None)
        if 1 in art.numbers and CATEGORIES[box // 3] != "faith":
            return "Article 1 must be placed as an Article of Faith (Set Up d.)"
        used = self.mat_numbers(s, seat)
        hand = list(s.players[seat].hand)
        hand.remove(card)
        now = self._setup_best(s, seat, used, mat, s.players[seat].hand)
        after = self._setup_best(s, seat, used | set(art.numbers), mat[:box] + (card,) + mat[box + 1 :], hand)
        if after[0] + 1 < now[0]:
            return (
                f"with {art.name} you could place at most {len(self.mat_cards(s, seat)) + after[0] + 1}"
                f" Articles, and {len(self.mat_cards(s, seat)) + now[0]} are possible: \"He must place as many"
                " Articles as possible on his Church mat\" (Set Up b.)"
            )
        ones = [self.name(c) for c in hand if c in self.data.articles and 1 in self.article(c).numbers]
        return (
            f"it would leave {list_words(ones)} unplaceable: Article 1, if held, must be placed as an"
            " Article of Faith (Set Up d.)"
        )

    def can_keep(self, s: State, seat: Seat, card: str) -> bool:
        """The Game, Article Card: whether the drawn Article is exactly identical in number and
        doctrine to one on the seat's mat (it may be kept in hand)."""
        key = self.article(card).key
        return any(self.article(c).key == key for _, c in self.mat_cards(s, seat))

    def renounce_box(self, s: State, seat: Seat, card: str) -> int | None:
        """The Customary Practice box a drawn Article may replace (same number, other
        doctrine; RULINGS.md R15), or None."""
        art = self.article(card)
        overlap = [
            (i, c) for i, c in self.mat_cards(s, seat) if set(self.article(c).numbers) & set(art.numbers)
        ]
        if len(overlap) != 1:
            return None
        box, old = overlap[0]
        if box < 6 or self.article(old).key == art.key:
            return None
        return box

    def reached_victory(self, s: State) -> list[Seat]:
        """Object of the Game: the Churches with 11 million Followers or 117 votes."""
        return [
            x
            for x in range(len(s.players))
            if self.followers(s, x) >= WIN_FOLLOWERS or self.total_votes(s, x) >= WIN_VOTES
        ]

    def task_settles(self, s: State, t: Task) -> bool:
        """Whether the Task ``t`` resolves by itself, leaving its chooser no choice: one
        option or none, or no more eligible cards than asked, or cards all of one name."""
        eligible = self.eligible(s, t)
        if t.kind == "replace" or t.kind in CHOICE_TASKS:
            return len(eligible) <= 1
        if not eligible or t.count <= 0 or len(eligible) <= t.count:
            return True
        return len({self.name(c) for c in eligible}) == 1

    @last_state
    def eligible(self, s: State, t: Task) -> list[str]:
        """The options of the Task ``t`` in ``s``: cards, or words for a choice (remembered
        for the last state: games.core.memo)."""
        if t.kind == "replace":
            return [c for i, c in self.mat_cards(s, t.owner) if i >= 3]
        if t.kind == "either":  # only the options that are possible (R9)
            return [
                o
                for o, kind in (("bishops", "bishop"), ("followers", "follower"))
                if self.of_kind(s, t.owner, kind)
            ]
        if t.kind == "campaign":  # a Bishop lost on the way preaches no more (RULINGS.md R28)
            if t.count <= 0 or t.bishop not in s.players[t.chooser].church:
                return []
            left = [str(x) for x in self.others(s, t.chooser) if x not in t.done]
            return left + ["stop"] if left and t.done else left
        if t.kind == "convert":
            return ["convert", "spare"] if s.goths else ["spare"]
        if t.kind == "dock":
            return ["strike", "spare"]
        if t.kind == "persecute":  # only while the persecutor still has Laity (or the Emperor)
            if t.reason.startswith("the Emperor"):
                able = self.emperor(s) == t.chooser
            else:
                able = bool(self.of_kind(s, t.chooser, "laity"))
            return ["persecute", "spare"] if able else []
        if t.kind == "away":
            away = s.council.bad_times if s.council is not None else ()
            return [b for b in self._bishops(s, t.owner) if b not in away]
        out: list[str] = []
        for kind in t.kinds:
            for c in self.of_kind(s, t.owner, kind):
                if t.spare_nisibis and c == NISIBIS:
                    continue
                if c not in out:
                    out.append(c)
        return out

    def task_text(self, s: State, t: Task) -> str:
        """The question a pending Task asks its chooser (Lose, Remove, Take, Give; the
        choices Event cards and Tables leave to a player)."""
        if t.kind == "replace":
            return f"Choose the Firm Belief or Customary Practice to give up for {self.name(t.article)}."
        if t.kind == "either":
            return f"Proselytism: take 2 Bishop or 3 Follower cards from {self.church_name(t.owner)}."
        if t.kind == "campaign":
            more = " or stop" if t.done else ""
            return (
                f"Evangelic Campaign: choose the next Church {self.name(t.bishop)} preaches to{more} "
                f"({t.count} more at most)."
            )
        if t.kind == "convert":
            return "Evangelisation of the Goths: you may convert the invading Goths: pick convert, or pick spare."
        if t.kind == "dock":
            return (
                f"Dock Strike: the Eastern Emperor did not vote with you; you may make {self.church_name(t.owner)}"
                " discard 1 Follower: pick strike, or pick spare."
            )
        if t.kind == "persecute":
            return (
                f"You may persecute {self.church_name(t.owner)} ({t.reason}): pick persecute, or pick spare."
            )
        if t.kind == "away":
            how = "pick it" if t.count == 1 else "pick them one by one"
            return f"Bad Times: choose {t.count} of your Bishops kept away from the Council: {how}."
        kinds = " or ".join(
            counted(t.count, *KIND_WORDS.get(k, (k, k + "s"))).split(" ", 1)[1] for k in t.kinds
        )
        if t.dest is None and t.chooser == t.owner:
            verb = f"Lose {t.count} {kinds}"
        elif t.dest is None:
            verb = f"Remove {t.count} {kinds} of {self.church_name(t.owner)}"
        elif t.chooser == t.owner:
            verb = f"Give {t.count} {kinds} to {self.church_name(t.dest)}"
        else:
            verb = f"Take {t.count} {kinds} from {self.church_name(t.owner)}"
        how = "pick it" if t.count == 1 else "pick them one by one"
        return f"{verb}{' (' + t.reason + ')' if t.reason else ''}: {how}."

    def _in_debate(self, s: State) -> bool:
        return s.council is not None and s.window is not None and s.window.kind == "debate"

    def _bishops(self, s: State, seat: Seat) -> list[str]:
        """The Bishops of ``seat`` not in exile."""
        bishops = self.of_kind(s, seat, "bishop")
        return [c for c in bishops if not self.is_exiled(s, c)] if s.exiled else bishops

    def _nominees(self, s: State, seat: Seat) -> list[str]:
        """The Bishops ``seat`` may nominate (Proselytism, Church Father, Evangelic Campaign): all
        its own, exiled ones too ("Exiled Bishops cannot vote at a General Council" is all that
        exile takes from them; RULINGS.md R9)."""
        return self.of_kind(s, seat, "bishop")

    def _teachable(self, s: State, seat: Seat) -> list[str]:
        """Duplicates in hand of Articles on the seat's own mat."""
        keys = {self.article(c).key for _, c in self.mat_cards(s, seat)}
        out, seen = [], set()
        for c in s.players[seat].hand:
            if c in self.data.articles and self.article(c).key in keys and self.article(c).key not in seen:
                seen.add(self.article(c).key)
                out.append(c)
        return out

    def _teach_ok(self, s: State, target: Seat, card: str) -> bool:
        """Teach (RULINGS.md R10): the target lacks the doctrine; an Article of the same
        number, if any, is one Firm Belief or Customary Practice and is the one replaced;
        otherwise the target has a Firm Belief or Customary Practice to give up."""
        art = self.article(card)
        if set(art.numbers) & self.decided(s):
            return False
        mine = self.mat_cards(s, target)
        if any(self.article(c).key == art.key for _, c in mine):
            return False
        overlap = [(i, c) for i, c in mine if set(self.article(c).numbers) & set(art.numbers)]
        if len(overlap) > 1:
            return False
        if overlap:
            return overlap[0][0] >= 3
        return any(i >= 3 for i, _ in mine)

    def proposals(self, s: State, article: int) -> list[str]:
        """The doctrines proposed for ``article``: each Church with a doctrine for it
        announces it (General Councils)."""
        out: list[str] = []
        for x in range(len(s.players)):
            d = self.doctrine_of(s, x, article)
            if d is not None and self.article(d[1]).key not in out:
                out.append(self.article(d[1]).key)
        return out

    def council_votes(self, s: State, seat: Seat, doctrine: str | None = None) -> int:
        """Votes a Church casts at the current Council: its Bishops and Laity, less the
        exiled, those kept away (Bad Times), the Empress after a Scandal, the Emperor
        who hesitates, the mutilated Patriarch of Rome; plus extra votes from Events."""
        c = s.council
        total = 0
        emp_card = self.emperor_card(s)
        for card in s.players[seat].church:
            if self.is_exiled(s, card):
                continue
            if c is not None and (
                card in c.bad_times or (c.scandal and card == EMPRESS) or (c.hesitates and card == emp_card)
            ):
                continue
            if card == ROME and s.mutilated_until is not None:
                continue
            total += self.cards[card].votes
        if c is not None:
            total += sum(v for x, v in c.bonus if x == seat)
            if doctrine is not None:
                sym = self._symbol(doctrine)
                total += sum(EXTRA_VOTES for x, book in c.books if x == seat and book == sym)
        return total

    def _symbol(self, key: str) -> str | None:
        for a in self.data.articles.values():
            if a.key == key:
                return a.symbol
        return None

    def tally(self, s: State) -> dict[str, int]:
        """Votes per proposed doctrine (heterodox books counted for their doctrine)."""
        c = s.council
        out = {d: 0 for d in c.proposals}
        for x, d, _ in c.votes:
            if d is not None:
                out[d] += self.council_votes(s, x, d)
        return out

    def why_not(self, s: State, seat: Seat, verb: str) -> str | None:
        """Why ``verb`` ("play", "done") is not legal for ``seat`` now, naming the rule, or
        None when the step asked now is the whole reason. ``play``: each Event card held and
        why it cannot be played (Event Cards: "can be played at any time, except when another
        player is in the process of determining the outcome of another Event"; RULINGS.md R20:
        a council card only during a General Council's debate). ``done`` at set-up: an Article
        can still be placed (Set Up b.)."""
        if s.phase == "over":
            return None
        if verb == "done" and s.phase == "setup" and not s.tasks:
            places = [self.name(c) for c in s.players[seat].hand if self.placeable(s, seat, c, setup=True)]
            if places:
                return (f"you can still place an Article (e.g. {places[0]}), and you must place as many "
                        "Articles as possible on your Church mat (Set Up b.)")
            return None
        if verb != "play":
            return None
        if s.tasks or (s.window is not None and s.window.waiting and seat not in s.window.waiting):
            return ("another Event is being resolved (Event Cards: \"except when another player is in the "
                    "process of determining the outcome of another Event\")")
        events = [c for c in dict.fromkeys(s.players[seat].hand) if c in self.data.events]
        if not events:
            return "you hold no Event card to play"
        why = []
        for card in events:
            ev = self.event(card)
            if ev.timing != "any":
                why.append(f"{ev.name} is played only when drawn (Play Immediately)")
            elif ev.effect in COUNCIL_EFFECTS and not self._in_debate(s):
                why.append(f"{ev.name} acts at a General Council, so only during its debate (RULINGS.md R20)")
            else:
                why.append(f"{ev.name}'s own condition is not met now (its card: {ev.text})")
        return "no Event card in your hand can be played now: " + "; ".join(why)

    def not_offered(self, s: State, seat: Seat) -> list[str]:
        """Why a choice the prompt names is not offered to ``seat`` now, one line each, for
        that seat alone (it may depend on the drawn card). After drawing an Article (The Game,
        Article Card): place, keep and renounce when the card does not allow them."""
        if s.phase == "over" or s.stage != "article" or s.active != seat or s.drawn is None:
            return []
        if s.window is not None and s.window.waiting or s.council is not None:
            return []
        card = s.drawn
        art = self.article(card)
        out = []
        if not self.placeable(s, seat, card, setup=False):
            decided = set(art.numbers) & self.decided(s)
            held = set(art.numbers) & self.mat_numbers(s, seat)
            if decided:
                why = f"Article {min(decided)} has already been voted on"
            elif held:
                why = f"your mat already has an Article {min(held)}"
            else:
                why = "your mat is full"
            out.append(f"place: {why} (Article Card: \"If he does not yet possess an Article with the same number\")")
        if not self.can_keep(s, seat, card):
            out.append(
                "keep: no card on your mat is identical in number and doctrine (Article Card: \"If it is a card "
                "exactly identical in number and doctrine to one he already possesses on his mat\")"
            )
        if self.renounce_box(s, seat, card) is None:
            out.append(
                "renounce: your mat has no Customary Practice of this number with another doctrine (Article "
                "Card: \"an Article whose number (but not doctrine) he already has as a Customary Practice\")"
            )
        return out
