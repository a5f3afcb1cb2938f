"""Credo rules (rule text: shared/seeds/003_a89d0bca05ff4a91.txt; rulings: RULINGS.md).

The flow: Set Up (deal Church cards and 9 Article cards, each Church places its
Articles) -> turns (draw an Event/Article card, handle it, play Event cards, end the
turn or, for the Emperor, convoke a General Council) until Article 10 passes, a
Church has 11 million Followers or 117 votes. Event cards are played at any time
through response windows: after each Event played, the other Churches are asked in
turn; during a Council's debate, every Church is asked until all pass in a row.
Choices of Church cards (Lose, Remove, Take, Give) are pending tasks answered with
``pick``. Dice and draws happen inside ``apply`` and are reported as events.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from pydantic import Field, TypeAdapter

from games.core import (
    IllegalActionError,
    Model,
    Outcome,
    Prompt,
    Rng,
    Seat,
    Step,
)
from games.core.base import ApplyContext, NotationGame
from games.core.english import count as counted
from games.core.errors import list_words
from games.core.explain import Explanation
from games.core.memo import last_state
from games.core.secrets import redeal, shuffled

from . import notation
from .data import (
    CONSTANTINOPLE_P,
    EASTERN_EMPEROR,
    EMPRESS,
    JERUSALEM_P,
    MAGISTER,
    NISIBIS,
    ROME,
    WESTERN_EMPEROR,
    EventCard,
    explanations,
    load,
)
from .model import (
    CATEGORIES,
    CATEGORY_NAMES,
    STAKE,
    Abstain,
    Action,
    ArticleView,
    CardsReceived,
    ChurchCardView,
    Convoke,
    Council,
    CouncilResolved,
    CouncilView,
    DiceRolled,
    Discard,
    Done,
    GameWon,
    HandCardView,
    Keep,
    Note,
    Pass,
    Pick,
    Place,
    Play,
    PlayerState,
    PlayerView,
    Reject,
    Renounce,
    Respect,
    Roll,
    State,
    Task,
    View,
    Vote,
    Window,
)
from .queries import (
    BAD_TIMES_BISHOPS,
    CHOICE_TASKS,
    COUNCIL_EFFECTS,
    EXTRA_VOTES,
    HAND_LIMIT,
    SETUP_ARTICLES,
    WIN_FOLLOWERS,
    WIN_VOTES,
    Queries,
    church_cards,
)
from .tables import PERSECUTION, PROSELYTISM, REFUTATION, RESPECT, Result

_ACTION = TypeAdapter(Action)


class Options(Model):
    """Session options.

    ``ask_all``: in response windows and debates, ask every Church (default) or only
    those holding at least one card (RULINGS.md R21: whether a card could be played
    now is never what decides who is asked, so nobody learns about a hand). ``round_limit``: optional house rule ending the game after that many
    rounds, most Followers winning (RULINGS.md R19).
    """

    ask_all: bool = True
    round_limit: int | None = Field(default=None, ge=1)


class _Ctx(ApplyContext):
    """One ``apply``'s scratch (games.core.ApplyContext) with this game's helpers."""

    __slots__ = ()

    def note(self, text: str) -> None:
        self.events.append(Note(text=text))


class Credo(Queries, NotationGame):
    """The Credo game object (stateless; see games.core.Game)."""

    explained = "Church card, Article card or Event card"
    phase_word = "round"

    def phase_mark(self, s: State) -> str:
        """Credo is played in rounds of turns (the phase is only set-up or play): a round."""
        return f"round {s.round}, {s.phase}"

    def notation_is_public(self, s: State, seat: Seat, a: Any) -> bool:
        """Placing an Article on the Church mat (Set Up; an Article card drawn) is public as
        typed: the placement itself is announced to everyone. Every other action keeps the
        default (only its player reads the notation)."""
        return isinstance(a, Place)

    id = "credo"
    title = "Credo: the Game of Dueling Dogmas"
    min_players = 3
    max_players = 6
    Options = Options
    State = State
    View = View
    notation = notation
    action_adapter = _ACTION

    def explanations(self) -> tuple[Explanation, ...]:
        """Every Church, Article and Event card with its text (data/*.toml)."""
        return explanations()

    def __init__(self) -> None:
        self.data = load()
        self.cards = cards = church_cards(self.data)
        self._followers = {c: card.followers for c, card in cards.items()}
        self._votes = {c: card.votes for c, card in cards.items()}
        self._views: dict[Any, Any] = {}

    # ------------------------------------------------------------------ lookups

    def seat_name(self, s: State, seat: Seat) -> str:
        """Seats are named by their Church ("Church 2") in every message, the host's too
        ("Church 2 (AI)", "Church 2 (alice)")."""
        return self.church_name(seat)


















    # ------------------------------------------------------------------ contract

    def setup(self, seats: Sequence[Seat], options: Options | None, rng: Rng) -> Step[State]:
        """Set Up: set aside the Patriarchs of Jerusalem and Constantinople, deal the
        Church cards into players + 1 piles (the extra pile and the rest to the Church
        Cards box), deal 9 Article cards each; the remaining Articles and the Event cards
        form the Event/Article deck (RULINGS.md R12). Then each Church places its
        Articles (set-up rules a. to h.).

        Raises IllegalActionError for a seat count outside 3..6.
        """
        options = options or Options()
        n = len(seats)
        if list(seats) != list(range(n)):
            raise IllegalActionError("Seats must be numbered 0 .. players - 1.")
        if not self.min_players <= n <= self.max_players:
            raise IllegalActionError(f"Credo takes 3 to 6 players, not {n}.")
        church = [c for c in self.data.church if not self.data.church[c].set_aside]
        box = tuple(c for c in self.data.church if self.data.church[c].set_aside)
        church = list(rng.shuffle(church))
        per = len(church) // (n + 1)
        hands_church = [tuple(church[i * per : (i + 1) * per]) for i in range(n)]
        deck_church = tuple(church[n * per :])
        articles = list(rng.shuffle(list(self.data.articles)))
        dealt = [tuple(articles[i * SETUP_ARTICLES : (i + 1) * SETUP_ARTICLES]) for i in range(n)]
        rest = articles[n * SETUP_ARTICLES :] + list(self.data.events)
        players = tuple(PlayerState(church=hands_church[i], hand=dealt[i]) for i in range(n))
        s = State(
            ask_all=options.ask_all,
            round_limit=options.round_limit,
            players=players,
            church_deck=deck_church,
            event_deck=rng.shuffle(rest),
            patriarch_box=box,
        )
        ctx = _Ctx(s, rng)
        ctx.note(
            f"Church cards dealt: {per} to each Church, {len(deck_church)} in the Church Cards box; "
            "the Patriarchs of Jerusalem and Constantinople are set aside."
        )
        for x in range(n):
            ctx.emit(CardsReceived(seat=x, names=tuple(self.name(c) for c in dealt[x]), visible_to=(x,)))
        ctx.note("Each Church places its Articles on its mat (Set Up a. to h.).")
        return Step(state=ctx.s, events=tuple(ctx.events))

    def to_act(self, s: State) -> Mapping[Seat, Prompt]:
        if s.phase == "over":
            return {}
        if s.tasks:
            t = s.tasks[0]
            return {t.chooser: Prompt(kind="turn", text=self.task_text(s, t))}
        if s.phase == "setup":
            return {
                x: Prompt(kind="turn", text="Place your Articles on your Church mat, then say done.")
                for x, p in enumerate(s.players)
                if not p.setup_done
            }
        if s.window is not None and s.window.waiting:
            w = s.window
            return {w.waiting[0]: Prompt(kind="respond", text=w.reason + " Play an Event card, or pass.")}
        c = s.council
        if c is not None:
            if c.stage == "vote" and c.voters:
                return {
                    c.voters[0]: Prompt(
                        kind="turn",
                        text=f"Council on Article {c.article}: vote for a proposed doctrine, or abstain.",
                    )
                }
            if c.stage == "respect":
                emp = self.emperor(s)
                if emp is not None:
                    return {
                        emp: Prompt(
                            kind="turn", text="Enforce respect of the Council on a Losing doctrine, or pass."
                        )
                    }
        text = {
            "article": "You drew an Article card: place, keep, renounce or reject it.",
            "immediate": "Play the Event you drew on another Church.",
            "main": "Play Event cards, discard, then say done"
            + (" or convoke a General Council." if self.emperor(s) == s.active else "."),
        }.get(s.stage)
        if text is None:
            return {}
        return {s.active: Prompt(kind="turn", text=text)}

    def legal_actions(self, s: State, seat: Seat) -> Sequence[Any]:
        """Every legal action for ``seat`` now, each once in its notation form (a fresh
        list, remembered for the last state: games.core.memo)."""
        return list(self._legal_actions(s, seat))

    @last_state
    def _legal_actions(self, s: State, seat: Seat) -> Sequence[Any]:
        prompts = self.to_act(s)
        if seat not in prompts:
            return ()
        out = self._rules_legal(s, seat)
        seen: dict[str, Any] = {}
        for a in out:
            seen.setdefault(notation.format_action(self, s, a), a)
        return list(seen.values())

    @last_state
    def _rules_legal(self, s: State, seat: Seat) -> tuple[Any, ...]:
        """``_legal`` remembered for the last state (a tuple, not copied when handed out):
        an agent's choice and ``apply``'s check share one."""
        return tuple(self._legal(s, seat))

    def _legal(self, s: State, seat: Seat) -> list[Any]:
        """The legal actions as the rules generate them (a few may share a notation)."""
        if s.tasks:
            t = s.tasks[0]
            return [Pick(card=c) for c in self._eligible(s, t)]
        if s.phase == "setup":
            p = s.players[seat]
            places = [Place(card=c) for c in p.hand if self._placeable(s, seat, c, setup=True)]
            return places if places else [Done()]
        if s.window is not None and s.window.waiting:
            return [Pass(), *self._plays(s, seat)]
        c = s.council
        if c is not None and c.stage == "vote":
            return [Abstain(), *(Vote(doctrine=d) for d in c.proposals)]
        if c is not None and c.stage == "respect":
            return [Pass(), *(Respect(doctrine=d) for d in c.losers)]
        p = s.players[seat]
        if s.stage == "article":
            card = s.drawn
            out: list[Any] = []
            if self._placeable(s, seat, card, setup=False):
                out.append(Place(card=card))
            if self._can_keep(s, seat, card):
                out.append(Keep(card=card))
            if self._renounce_box(s, seat, card) is not None:
                out.append(Renounce(card=card))
            out.append(Reject(card=card))
            return out
        if s.stage == "immediate":
            return [Play(card=s.drawn, target=t) for t in self._others(s, seat)]
        if s.stage == "main":
            out = []
            if len(p.hand) <= HAND_LIMIT:
                out.append(Done())
                if self.emperor(s) == seat and self.next_article(s) is not None:
                    out.append(Convoke())
            out += self._plays(s, seat)
            out += [Discard(card=c) for c in p.hand]
            return out
        return []

    def apply(self, s: State, seat: Seat, a: Any, rng: Rng) -> Step[State]:
        """Check ``a`` for ``seat`` and apply it, then run the automatic steps.

        Raises
        ------
        GameOverError, NotYourTurnError, IllegalActionError
            With a message saying what would be legal.
        """
        self.require_turn(s, seat)
        if isinstance(a, dict):
            a = _ACTION.validate_python(a)
        legal = self._rules_legal(s, seat)
        if a not in legal:
            kind = getattr(a, "kind", "?")
            same = [notation.format_action(self, s, x) for x in legal if getattr(x, "kind", None) == kind]
            every = [notation.format_action(self, s, x) for x in legal]
            hint = f"legal {kind} actions: {list_words(same)}" if same else f"legal now: {list_words(every)}"
            why = None
            if s.phase == "setup" and not s.tasks and isinstance(a, Place):
                why = self.setup_refusal(s, seat, a.card)
            if why:
                raise IllegalActionError(f"{self.name(a.card)} cannot be placed now: {why}; {hint}.")
            raise IllegalActionError(f"That is not allowed now; {hint}.")
        ctx = _Ctx(s, rng)
        if s.tasks:
            self._apply_pick(ctx, a.card)
        elif s.phase == "setup":
            self._apply_setup(ctx, seat, a)
        elif s.window is not None and s.window.waiting:
            self._apply_window(ctx, seat, a)
        elif s.council is not None and s.council.stage == "vote":
            self._apply_vote(ctx, seat, a)
        elif s.council is not None and s.council.stage == "respect":
            self._apply_respect(ctx, seat, a)
        elif s.stage == "article":
            self._apply_article(ctx, seat, a)
        elif s.stage == "immediate":
            ctx.update(stage="main", drawn=None)
            self._play(ctx, seat, a, open_window=True)
        else:
            self._apply_main(ctx, seat, a)
        self._advance(ctx)
        return Step(state=ctx.s, events=tuple(ctx.events))

    def outcome(self, s: State) -> Outcome | None:
        if s.phase != "over":
            return None
        return Outcome(winners=s.winners, reason=s.end_reason)

    # ------------------------------------------------------------------ set-up




    def _apply_setup(self, ctx: _Ctx, seat: Seat, a: Any) -> None:
        s = ctx.s
        p = s.players[seat]
        if isinstance(a, Place):
            hand = list(p.hand)
            hand.remove(a.card)
            ctx.set_player(seat, hand=tuple(hand))
            self._put_on_mat(ctx, seat, a.card)
            return
        # Done: Set Up a. and c. — discard other cards of the numbers placed, keep exact duplicates
        numbers = self.mat_numbers(s, seat)
        keys = {self.article(c).key for _, c in self.mat_cards(s, seat)}
        keep, gone = [], []
        for c in p.hand:
            art = self.article(c)
            if art.key in keys:
                keep.append(c)
            elif set(art.numbers) & numbers:
                gone.append(c)
            else:
                keep.append(c)
        ctx.set_player(seat, hand=tuple(keep), setup_done=True)
        ctx.update(event_discard=ctx.s.event_discard + tuple(gone))
        ctx.note(
            f"{self.church_name(seat)} has placed its Articles and discards {len(gone)} Article card"
            f"{'s' if len(gone) != 1 else ''}: {list_words([self.name(c) for c in gone])}."
        )

    def _put_on_mat(self, ctx: _Ctx, seat: Seat, card: str, box: int | None = None) -> None:
        """Put an Article in the first empty box (or ``box``); Set Up h.: its penalty."""
        mat = list(ctx.s.players[seat].mat)
        if box is None:
            box = mat.index(None)
        mat[box] = card
        ctx.set_player(seat, mat=tuple(mat))
        art = self.article(card)
        ctx.note(f"{self.church_name(seat)} places {art.name} as {CATEGORY_NAMES[CATEGORIES[box // 3]]}.")
        reason = f"penalty of {art.key}"
        if art.penalty_followers:
            self._lose(ctx, seat, "follower", art.penalty_followers, reason)
        if art.penalty_bishops:
            self._lose(ctx, seat, "bishop", art.penalty_bishops, reason)

    # ------------------------------------------------------------------ the turn

    def _begin_turn(self, ctx: _Ctx, seat: Seat) -> None:
        s = ctx.s
        n = len(s.players)
        turns = s.turns + 1
        rnd = (turns - 1) // n + 1
        if s.round_limit is not None and rnd > s.round_limit:
            self._finish_by_followers(ctx, f"The round limit ({s.round_limit}) is reached.")
            return
        ctx.update(active=seat, turns=turns, round=rnd, stage="draw", drawn=None)
        if s.mutilated_until is not None and turns >= s.mutilated_until:
            ctx.update(mutilated_until=None)
            ctx.note("The Patriarch of Rome's eyes and tongue have miraculously regrown.")
        ctx.note(f"Round {rnd}: {self.church_name(seat)}'s turn.")

    def _draw_turn_card(self, ctx: _Ctx) -> None:
        """The Game: draw an Event/Article card. Articles already voted on go to the
        Article Card Permanent Discard and are replaced."""
        seat = ctx.s.active
        while True:
            card = self._draw_event_card(ctx)
            if card is None:
                ctx.note("The Event/Article cards are exhausted: no card to draw.")
                ctx.update(stage="main")
                return
            if card in self.data.articles:
                art = self.article(card)
                if set(art.numbers) & self.decided(ctx.s):
                    ctx.update(article_permanent=ctx.s.article_permanent + (card,))
                    ctx.note(
                        f"{self.church_name(seat)} drew {art.name}, already voted on: discarded, draws again."
                    )
                    continue
                ctx.emit(CardsReceived(seat=seat, names=(art.name,), visible_to=(seat,)))
                ctx.note(f"{self.church_name(seat)} drew an Article card.")
                ctx.update(stage="article", drawn=card)
                return
            ev = self.event(card)
            if ev.timing == "any":
                ctx.emit(CardsReceived(seat=seat, names=(ev.name,), visible_to=(seat,)))
                ctx.note(f"{self.church_name(seat)} drew an Event card.")
                ctx.set_player(seat, hand=ctx.s.players[seat].hand + (card,))
                ctx.update(stage="main")
                return
            if ev.timing == "other":
                ctx.note(f"{self.church_name(seat)} drew {ev.name} (play immediately on another player).")
                ctx.update(stage="immediate", drawn=card)
                return
            ctx.note(f"{self.church_name(seat)} drew {ev.name} (play immediately).")
            ctx.update(stage="main", drawn=None)
            self._play(ctx, seat, Play(card=card), open_window=True)
            return

    def _draw_event_card(self, ctx: _Ctx) -> str | None:
        s = ctx.s
        if not s.event_deck:
            if not s.event_discard:
                return None
            ctx.update(event_deck=ctx.rng.shuffle(s.event_discard), event_discard=())
            ctx.note("The Event/Article discard is reshuffled into the Event/Article box.")
        card, rest = ctx.s.event_deck[0], ctx.s.event_deck[1:]
        ctx.update(event_deck=rest)
        return card





    def _apply_article(self, ctx: _Ctx, seat: Seat, a: Any) -> None:
        card = ctx.s.drawn
        ctx.update(stage="main", drawn=None)
        name = self.name(card)
        if isinstance(a, Place):
            self._put_on_mat(ctx, seat, card)
        elif isinstance(a, Keep):
            ctx.set_player(seat, hand=ctx.s.players[seat].hand + (card,))
            ctx.note(f"{self.church_name(seat)} keeps the Article card in hand.")
        elif isinstance(a, Renounce):
            box = self._renounce_box(ctx.s, seat, card)
            old = ctx.s.players[seat].mat[box]
            mat = list(ctx.s.players[seat].mat)
            mat[box] = None
            ctx.set_player(seat, mat=tuple(mat))
            ctx.update(event_discard=ctx.s.event_discard + (old,))
            ctx.note(f"{self.church_name(seat)} renounces {self.name(old)}.")
            self._put_on_mat(ctx, seat, card, box)
            self._lose(ctx, seat, "any", 1, "renouncing a Customary Practice")
        else:
            ctx.update(event_discard=ctx.s.event_discard + (card,))
            ctx.note(f"{self.church_name(seat)} rejects {name}.")

    def _apply_main(self, ctx: _Ctx, seat: Seat, a: Any) -> None:
        if isinstance(a, Discard):
            hand = list(ctx.s.players[seat].hand)
            hand.remove(a.card)
            ctx.set_player(seat, hand=tuple(hand))
            ctx.update(event_discard=ctx.s.event_discard + (a.card,))
            ctx.note(f"{self.church_name(seat)} discards {self.name(a.card)}.")
        elif isinstance(a, Play):
            self._play(ctx, seat, a, open_window=True)
        elif isinstance(a, Convoke):
            ctx.note(f"The Emperor ({self.church_name(seat)}) convokes a General Council.")
            self._start_council(ctx, convoker=seat, end_turn=True)
        else:
            self._end_turn(ctx)

    def _end_turn(self, ctx: _Ctx) -> None:
        n = len(ctx.s.players)
        self._begin_turn(ctx, (ctx.s.active + 1) % n)


    # ------------------------------------------------------------------ automatic steps

    def _advance(self, ctx: _Ctx) -> None:
        """Run automatic steps until someone must decide (or the game ends)."""
        for _ in range(10_000):
            s = ctx.s
            if s.phase == "over":
                return
            if s.tasks:
                if self._settle_task(ctx):
                    continue
                return
            if s.turn_ends:
                ctx.update(turn_ends=False)
                self._end_turn(ctx)
                continue
            if s.phase == "setup":
                if all(p.setup_done for p in s.players):
                    ctx.update(phase="play")
                    ctx.note("Set-up is complete; the game begins with Church 1.")
                    self._begin_turn(ctx, 0)
                    continue
                return
            if self._check_end(ctx):
                return
            w = s.window
            if w is not None:
                waiting = w.waiting
                if not s.ask_all:  # R21: skip empty hands only (a hand's size is public)
                    while waiting and not s.players[waiting[0]].hand:
                        waiting = waiting[1:]
                    if waiting != w.waiting:
                        ctx.update(window=w.model_copy(update={"waiting": waiting}))
                        continue
                if waiting:
                    return
                ctx.update(window=None)
                if w.kind == "debate" and s.council is not None:
                    self._open_vote(ctx)
                continue
            c = s.council
            if c is not None:
                if c.stage == "vote":
                    if c.voters:
                        return
                    self._resolve_council(ctx)
                    continue
                if c.stage == "respect":
                    if self.emperor(s) is not None and c.losers:
                        return
                    self._end_council(ctx)
                    continue
                self._open_vote(ctx)
                continue
            if s.stage == "draw":
                self._draw_turn_card(ctx)
                continue
            return
        raise RuntimeError("credo: automatic steps do not settle")  # pragma: no cover

    def _check_end(self, ctx: _Ctx) -> bool:
        """Game End: 11 million Followers or 117 votes (the first to realise one wins;
        several at once: most Followers, RULINGS.md R18); Article 10 passed: most Followers."""
        s = ctx.s
        n = len(s.players)
        hit = [
            x
            for x in range(n)
            if self.followers(s, x) >= WIN_FOLLOWERS or self.total_votes(s, x) >= WIN_VOTES
        ]
        if hit:
            best = max(self.followers(s, x) for x in hit)
            winners = tuple(x for x in hit if self.followers(s, x) == best)
            why = []
            for x in winners:
                if self.followers(s, x) >= WIN_FOLLOWERS:
                    why.append(f"{self.church_name(x)} has {self.followers(s, x):,} Followers")
                else:
                    why.append(f"{self.church_name(x)} has {counted(self.total_votes(s, x), 'vote')}")
            self._finish(ctx, winners, "; ".join(why) + ".")
            return True
        if s.creed[9] is not None:
            self._finish_by_followers(ctx, "Article 10 has passed: the Creed is complete.")
            return True
        return False

    def _finish_by_followers(self, ctx: _Ctx, why: str) -> None:
        s = ctx.s
        counts = [self.followers(s, x) for x in range(len(s.players))]
        best = max(counts)
        winners = tuple(x for x, c in enumerate(counts) if c == best)
        tally = ", ".join(f"{self.church_name(x)} {c:,}" for x, c in enumerate(counts))
        self._finish(ctx, winners, f"{why} Followers: {tally}.")

    def _finish(self, ctx: _Ctx, winners: tuple[Seat, ...], why: str) -> None:
        names = " and ".join(self.church_name(x) for x in winners)
        text = f"{names} win{'s' if len(winners) == 1 else ''}! {why}"
        ctx.update(phase="over", winners=winners, end_reason=text, tasks=(), window=None, council=None)
        ctx.emit(GameWon(winners=winners, text=text))

    # ------------------------------------------------------------------ Church cards

    def _draw_church(self, ctx: _Ctx, seat: Seat, count: int, reason: str = "") -> None:
        """Draw: Church cards from the Church Cards box; an empty box takes the
        reshuffled Church Card Discard pile (Set Up)."""
        got = []
        for _ in range(count):
            if not ctx.s.church_deck:
                if not ctx.s.church_discard:
                    break
                ctx.update(church_deck=ctx.rng.shuffle(ctx.s.church_discard), church_discard=())
                ctx.note("The Church Card Discard pile is reshuffled into the Church Cards box.")
            card, rest = ctx.s.church_deck[0], ctx.s.church_deck[1:]
            ctx.update(church_deck=rest)
            ctx.set_player(seat, church=ctx.s.players[seat].church + (card,))
            got.append(card)
        why = f" ({reason})" if reason else ""
        if got:
            ctx.note(f"{self.church_name(seat)} draws {list_words([self.name(c) for c in got])}{why}.")
        elif count:
            ctx.note(f"{self.church_name(seat)} has no Church card to draw{why}.")

    def _remove_church(self, ctx: _Ctx, card: str) -> None:
        """Take a Church card out of its Church (Exile card freed)."""
        x = self.holder(ctx.s, card)
        if x is not None:
            church = list(ctx.s.players[x].church)
            church.remove(card)
            ctx.set_player(x, church=tuple(church))
        for b, e in ctx.s.exiled:
            if b == card:
                ctx.update(
                    exiled=tuple(p for p in ctx.s.exiled if p[0] != card),
                    event_discard=ctx.s.event_discard + (e,),
                )

    def _discard_church(self, ctx: _Ctx, card: str) -> None:
        """Discard a Church card: the Eastern Emperor is placed aside in the Emperor
        Out-Of-Play box; the Western Emperor and Goths are permanent discards."""
        self._remove_church(ctx, card)
        if card == EASTERN_EMPEROR:
            ctx.update(emperor_out=ctx.s.emperor_out + (card,))
        elif card in self.data.events:
            ctx.update(event_permanent=ctx.s.event_permanent + (card,))
        else:
            ctx.update(church_discard=ctx.s.church_discard + (card,))

    def _give_church(self, ctx: _Ctx, card: str, to: Seat) -> None:
        self._remove_church(ctx, card)
        ctx.set_player(to, church=ctx.s.players[to].church + (card,))

    def _take_from_anywhere(self, ctx: _Ctx, card: str, to: Seat) -> None:
        s = ctx.s
        self._remove_church(ctx, card)
        for field in ("church_deck", "church_discard", "emperor_out", "patriarch_box"):
            pile = getattr(ctx.s, field)
            if card in pile:
                ctx.update(**{field: tuple(c for c in pile if c != card)})
        del s
        ctx.set_player(to, church=ctx.s.players[to].church + (card,))

    def _lose(self, ctx: _Ctx, seat: Seat, kind: str, count: int, reason: str) -> None:
        """Lose: the Church discards cards of its own choice."""
        self._task(ctx, Task(chooser=seat, owner=seat, kinds=(kind,), count=count, reason=reason))

    def _task(self, ctx: _Ctx, t: Task) -> None:
        if t.count > 0:
            ctx.update(tasks=ctx.s.tasks + (t,))


    def _settle_task(self, ctx: _Ctx) -> bool:
        """Resolve the first task by itself when there is no choice; True if it did."""
        t = ctx.s.tasks[0]
        eligible = self._eligible(ctx.s, t)
        if t.kind == "replace":
            if len(eligible) > 1:
                return False
            ctx.update(tasks=ctx.s.tasks[1:])
            if eligible:
                self._replace(ctx, t, eligible[0])
            return True
        if t.kind in CHOICE_TASKS:
            if len(eligible) > 1:
                return False
            if eligible:
                self._apply_pick(ctx, eligible[0])
            else:
                ctx.update(tasks=ctx.s.tasks[1:])
            return True
        if not eligible or t.count <= 0:
            ctx.update(tasks=ctx.s.tasks[1:])
            return True
        names = {self.name(c) for c in eligible}
        if len(eligible) <= t.count or len(names) == 1:
            take = eligible[: t.count]
            ctx.update(tasks=ctx.s.tasks[1:])
            for c in take:
                self._move_task_card(ctx, t, c)
            return True
        return False

    def _apply_pick(self, ctx: _Ctx, card: str) -> None:
        t = ctx.s.tasks[0]
        if t.kind == "replace":
            ctx.update(tasks=ctx.s.tasks[1:])
            self._replace(ctx, t, card)
            return
        if t.kind in CHOICE_TASKS:
            # what the choice sets off comes before the tasks already waiting
            later = ctx.s.tasks[1:]
            ctx.update(tasks=())
            if t.kind == "convert":
                self._convert_goths(ctx, t, card == "convert")
            elif t.kind == "dock":
                if card == "strike":
                    self._lose(ctx, t.owner, "follower", 1, "Dock Strike")
                else:
                    ctx.note(f"{self.church_name(t.chooser)} lets the Eastern Emperor resupply his Followers.")
            elif t.kind == "persecute":
                if card == "persecute":
                    self.persecute(ctx, t.chooser, t.owner, t.reason)
                else:
                    ctx.note(f"{self.church_name(t.chooser)} does not persecute {self.church_name(t.owner)}.")
            elif t.kind == "either":
                self._choose_either(ctx, t, card)
            else:
                self._campaign_step(ctx, t, card)
            ctx.update(tasks=ctx.s.tasks + later)
            return
        rest = t.model_copy(update={"count": t.count - 1})
        ctx.update(tasks=((rest,) if rest.count > 0 else ()) + ctx.s.tasks[1:])
        self._move_task_card(ctx, t, card)

    def _move_task_card(self, ctx: _Ctx, t: Task, card: str) -> None:
        who, whose = self.church_name(t.chooser), self.church_name(t.owner)
        why = f" ({t.reason})" if t.reason else ""
        if t.kind == "away":
            c = ctx.s.council
            if c is not None:
                ctx.update(council=c.model_copy(update={"bad_times": c.bad_times + (card,)}))
            ctx.note(f"{whose} keeps {self.name(card)} away from the Council{why}.")
            return
        if t.dest is None:
            self._discard_church(ctx, card)
            if t.chooser == t.owner:
                ctx.note(f"{who} loses {self.name(card)}{why}.")
            else:
                ctx.note(f"{who} removes {whose}'s {self.name(card)}{why}.")
        else:
            self._give_church(ctx, card, t.dest)
            ctx.note(f"{self.name(card)} goes from {whose} to {self.church_name(t.dest)}{why}.")

    def _replace(self, ctx: _Ctx, t: Task, old: str) -> None:
        """Teach: the target discards a Firm Belief or Customary Practice and puts the
        taught Article in its place."""
        mat = list(ctx.s.players[t.owner].mat)
        box = mat.index(old)
        mat[box] = None
        ctx.set_player(t.owner, mat=tuple(mat))
        ctx.update(event_discard=ctx.s.event_discard + (old,))
        ctx.note(f"{self.church_name(t.owner)} gives up {self.name(old)}.")
        self._put_on_mat(ctx, t.owner, t.article, box)


    # ------------------------------------------------------------------ dice and tables

    def _roll(self, ctx: _Ctx, table: str, roller: Seat, results: dict[int, Result]) -> tuple[int, Result]:
        dice = (ctx.rng.die(6), ctx.rng.die(6))
        total = sum(dice)
        res = results[total]
        roll = Roll(table=table, roller=roller, dice=dice, result=res.text)
        ctx.update(last_roll=roll)
        ctx.emit(DiceRolled(roll=roll))
        return total, res

    def persecute(self, ctx: _Ctx, persecutor: Seat, victim: Seat, why: str) -> None:
        """Persecution Table: the persecutor removes the victim's cards (Nisibis spared)."""
        ctx.note(f"{self.church_name(persecutor)} persecutes {self.church_name(victim)} ({why}).")
        _, res = self._roll(ctx, "Persecution", persecutor, PERSECUTION)
        for kind, n in res.remove:
            self._task(
                ctx,
                Task(
                    chooser=persecutor,
                    owner=victim,
                    kinds=(kind,),
                    count=n,
                    reason="persecution",
                    spare_nisibis=True,
                ),
            )
        if res.target_draws:
            self._draw_church(ctx, victim, res.target_draws, "persecution")

    def _convert_goths(self, ctx: _Ctx, t: Task, convert: bool) -> None:
        """Evangelisation of the Goths, as its player chose: every invading Goths card joins
        his Church and the card stays in front of him; or the card is discarded (R23)."""
        seat, card = t.chooser, t.card
        if convert and ctx.s.goths:
            for g in ctx.s.goths:
                ctx.set_player(seat, church=ctx.s.players[seat].church + (g,))
            names = list_words([self.name(g) for g in ctx.s.goths])
            ctx.note(f"{self.church_name(seat)} converts the Goths: {names}.")
            ctx.update(goths=())
            ctx.set_player(seat, evangelised=ctx.s.players[seat].evangelised + (card,))
            return
        ctx.note(f"{self.church_name(seat)} does not convert the Goths.")
        if card is not None:
            if self.event(card).permanent:
                ctx.update(event_permanent=ctx.s.event_permanent + (card,))
            else:
                ctx.update(event_discard=ctx.s.event_discard + (card,))

    def _may_persecute(self, ctx: _Ctx, persecutor: Seat, victim: Seat, why: str) -> None:
        """"Laity can Persecute" (Proselytism 9-11, Refutation 11) and "The Emperor can
        Persecute your Church in response" (Nika Riots): the persecutor chooses whether to
        (``pick persecute`` / ``pick spare``; RULINGS.md R30)."""
        self._task(ctx, Task(chooser=persecutor, owner=victim, kind="persecute", reason=why))

    def _take(self, ctx: _Ctx, taker: Seat, owner: Seat, kind: str, n: int, reason: str) -> None:
        self._task(ctx, Task(chooser=taker, owner=owner, kinds=(kind,), count=n, dest=taker, reason=reason))

    def _apply_takes(self, ctx: _Ctx, actor: Seat, target: Seat, res: Result, reason: str) -> None:
        for kind, n in res.take:
            if kind == "bishop-or-followers":  # RULINGS.md R9: the preacher chooses
                self._task(ctx, Task(chooser=actor, owner=target, kind="either", dest=actor, reason=reason))
            else:
                self._take(ctx, actor, target, kind, n, reason)

    def _choose_either(self, ctx: _Ctx, t: Task, option: str) -> None:
        """Proselytism 2: the preacher takes 2 Bishops or 3 Followers, as he chose."""
        kind, n = ("bishop", 2) if option == "bishops" else ("follower", 3)
        ctx.note(f"{self.church_name(t.chooser)} chooses to take {n} {kind.title()} cards.")
        self._take(ctx, t.chooser, t.owner, kind, n, t.reason)

    def _campaign_step(self, ctx: _Ctx, t: Task, choice: str) -> None:
        """Evangelic Campaign: preach to the Church chosen, then choose the next one."""
        if choice == "stop":
            ctx.note(f"{self.church_name(t.chooser)} ends the Evangelic Campaign.")
            return
        target = int(choice)
        if self.proselytise(ctx, t.chooser, t.bishop, target):
            nxt = t.model_copy(update={"count": t.count - 1, "done": t.done + (target,)})
            self._task(ctx, nxt)

    def proselytise(self, ctx: _Ctx, seat: Seat, bishop: str, target: Seat) -> bool:
        """Proselytism Table; returns False if the Bishop was lost (roll of 12)."""
        ctx.note(f"{self.church_name(seat)}'s {self.name(bishop)} preaches to {self.church_name(target)}.")
        total, res = self._roll(ctx, "Proselytism", seat, PROSELYTISM)
        self._apply_takes(ctx, seat, target, res, "Proselytism")
        if res.persecute and self.of_kind(ctx.s, target, "laity"):
            self._may_persecute(ctx, target, seat, "its Laity answer the preaching")
        if res.lose_bishop:
            if bishop == NISIBIS:
                ctx.note("The Bishop of Nisibis lives outside the Empire and is immune.")
            else:
                self._discard_church(ctx, bishop)
                ctx.note(f"{self.church_name(seat)} loses {self.name(bishop)}.")
                return False
        return True

    # ------------------------------------------------------------------ Event cards



    def _plays(self, s: State, seat: Seat) -> list[Play]:
        """The Event cards ``seat`` may play now, with every choice they need."""
        out: list[Play] = []
        seen: set[str] = set()
        for card in s.players[seat].hand:
            if card not in self.data.events:
                continue
            ev = self.event(card)
            if ev.name in seen or ev.timing != "any":
                continue
            seen.add(ev.name)
            out += self._card_plays(s, seat, card, ev)
        return out

    def _card_plays(self, s: State, seat: Seat, card: str, ev: EventCard) -> list[Play]:
        e = ev.effect
        if e in COUNCIL_EFFECTS and not self._in_debate(s):
            return []
        others = self._others(s, seat)
        one = [Play(card=card)]
        if e in ("draw", "iconolatry", "western_emperor", "julian", "extra_votes", "church_reform"):
            return one
        if e == "regency":
            return (
                one if s.last_event == "new_emperor" and self.holder(s, EASTERN_EMPEROR) is not None else []
            )
        if e == "scandal":
            return one if self.holder(s, EMPRESS) is not None and not s.council.scandal else []
        if e == "proselytism":
            return [Play(card=card, bishop=b, target=t) for b in self._bishops(s, seat) for t in others]
        if e == "church_father":
            out = []
            for b in self._bishops(s, seat):
                for t in others:
                    for i, a in self.mat_cards(s, t):
                        if i >= 3:
                            out.append(Play(card=card, bishop=b, mode="refute", target=t, article=a))
                for dup in self._teachable(s, seat):
                    for t in others:
                        if self._teach_ok(s, t, dup):
                            out.append(Play(card=card, bishop=b, mode="teach", target=t, article=dup))
            return out
        if e == "evangelic_campaign":
            return [Play(card=card, bishop=b) for b in self._bishops(s, seat) if self.cards[b].votes > 0]
        if e == "exile":
            halves = {self.cards[c].half for c in self.of_kind(s, seat, "laity")}
            if not halves:
                return []
            out = []
            for x in range(len(s.players)):
                for b in self.of_kind(s, x, "bishop"):
                    h = self.cards[b].half
                    if not self.is_exiled(s, b) and b != NISIBIS and (h in halves or h == "Both"):
                        out.append(Play(card=card, mode="exile", bishop=b))
            out += [Play(card=card, mode="recall", bishop=b) for b, _ in s.exiled]
            return out
        if e == "agentes_in_rebus":
            return (
                [Play(card=card, target=t) for t in others]
                if self.holder(s, EASTERN_EMPEROR) is not None
                else []
            )
        if e == "odoacer":
            ok = self.holder(s, WESTERN_EMPEROR) is not None or self.holder(s, MAGISTER) is not None
            return one if ok else []
        if e == "civil_war":
            if not self.of_kind(s, seat, "laity"):
                return []
            return [Play(card=card, target=t) for t in others if self.of_kind(s, t, "laity")]
        if e == "iconoclasts":
            x = s.iconolatry
            ok = x is not None and x != seat and self.followers(s, seat) > self.followers(s, x)
            return one if ok else []
        if e in ("military_intervention", "bad_times"):
            return [Play(card=card, target=t) for t in others]
        if e == "corpse_synod":
            return [Play(card=card, target=t) for t in others] if self.of_kind(s, seat, "patriarch") else []
        if e == "nika_riots":
            emp = self.emperor(s)
            return one if emp is not None and emp != seat else []
        if e == "new_emperor":
            return one if self.holder(s, EASTERN_EMPEROR) != seat and EASTERN_EMPEROR not in s.removed else []
        if e == "emperor_hesitates":
            return one if self.emperor_card(s) is not None and not s.council.hesitates else []
        if e == "dynastic_change":
            out = []
            if self.holder(s, EASTERN_EMPEROR) != seat:
                out.append(Play(card=card, mode="east"))
            w = self.holder(s, WESTERN_EMPEROR)
            if w is not None and w != seat:
                out.append(Play(card=card, mode="west"))
            return out
        if e == "patriarchate_constantinople":
            ok = self.holder(s, EASTERN_EMPEROR) == seat and CONSTANTINOPLE_P in s.patriarch_box
            return one if ok else []
        if e == "patriarchate_jerusalem":
            return one if self.holder(s, EASTERN_EMPEROR) == seat and JERUSALEM_P in s.patriarch_box else []
        if e == "usurpation":
            h = self.holder(s, EASTERN_EMPEROR)
            ok = h is not None and h != seat and self.laity_followers(s, seat) > self.laity_followers(s, h)
            return one if ok else []
        if e == "heterodox_book":
            d = self.doctrine_of(s, seat, s.council.article)
            ok = (
                d is not None
                and self.article(d[1]).symbol == ev.book
                and (seat, ev.book) not in s.council.books
            )
            return one if ok else []
        if e == "by_this_sign":
            return [Play(card=card, target=t) for t in others if self.of_kind(s, t, "laity")]
        if e == "recall_own":
            mine = set(s.players[seat].church)
            return [Play(card=card, mode="recall", bishop=b) for b, _ in s.exiled if b in mine]
        if e == "mutilation":
            return one if self.holder(s, ROME) is not None and s.mutilated_until is None else []
        if e == "plague_west":
            return one if self.holder(s, ROME) is not None else []
        if e == "simony":
            return [Play(card=card, target=t) for t in others if self.of_kind(s, t, "bishop")]
        if e == "dock_strike":
            h = self.holder(s, EASTERN_EMPEROR)
            return one if h is not None and h != seat and seat not in s.council.dock_strikes else []
        if e == "circumcellions":
            return [] if self.of_kind(s, seat, "laity") else [Play(card=card, target=t) for t in others]
        return []



    def _play(self, ctx: _Ctx, seat: Seat, a: Play, open_window: bool) -> None:
        """Play an Event card: remove it from the hand, resolve it, discard it (or keep
        it in play), then open a response window for the other Churches."""
        card = a.card
        ev = self.event(card)
        hand = ctx.s.players[seat].hand
        if card in hand:
            h = list(hand)
            h.remove(card)
            ctx.set_player(seat, hand=tuple(h))
        ctx.note(f"{self.church_name(seat)} plays {ev.name}: {ev.text}")
        stays = self._resolve(ctx, seat, a, ev)
        if not stays:
            if ev.permanent:
                ctx.update(event_permanent=ctx.s.event_permanent + (card,))
            else:
                ctx.update(event_discard=ctx.s.event_discard + (card,))
        ctx.update(last_event=ev.effect)
        if ctx.s.phase == "over":
            return
        if open_window and ctx.s.council is None and ctx.s.window is None:
            waiting = tuple(self._others(ctx.s, seat))
            ctx.update(
                window=Window(
                    kind="answer", reason=f"{self.church_name(seat)} played {ev.name}.", waiting=waiting
                )
            )

    def _resolve(self, ctx: _Ctx, seat: Seat, a: Play, ev: EventCard) -> bool:
        """Resolve an Event's effect; returns True when the card stays in play."""
        s = ctx.s
        e = ev.effect
        me = self.church_name(seat)
        c = s.council
        if e == "draw":
            self._draw_church(ctx, seat, ev.amount, ev.name)
        elif e == "iconolatry":
            self._draw_church(ctx, seat, ev.amount, ev.name)
            ctx.update(iconolatry=seat)
        elif e == "regency":
            emp_to = self.holder(s, EMPRESS)
            to = emp_to if emp_to is not None else seat
            self._give_church(ctx, EASTERN_EMPEROR, to)
            ctx.note(f"The Eastern Emperor goes to {self.church_name(to)} (Regency).")
        elif e == "scandal":
            ctx.update(council=c.model_copy(update={"scandal": True}))
        elif e == "proselytism":
            self.proselytise(ctx, seat, a.bishop, a.target)
        elif e == "church_father":
            self._church_father(ctx, seat, a)
        elif e == "evangelic_campaign":
            votes = self.cards[a.bishop].votes
            ctx.note(f"{self.name(a.bishop)} may preach to {votes} Church{'es' if votes != 1 else ''}.")
            self._task(
                ctx,
                Task(chooser=seat, owner=seat, kind="campaign", bishop=a.bishop, count=votes, reason=ev.name),
            )
        elif e == "fire_at_temple":
            h = self.holder(s, EASTERN_EMPEROR)
            if h is None:
                ctx.note("The Eastern Emperor is not in play: no persecution.")
            else:
                self.persecute(ctx, h, seat, "the Eastern Emperor is obliged to")
        elif e == "exile":
            if a.mode == "exile":
                ctx.update(exiled=ctx.s.exiled + ((a.bishop, a.card),))
                ctx.note(f"{self.name(a.bishop)} is exiled.")
                return True
            self._recall(ctx, a.bishop)
        elif e == "recall_own":
            self._recall(ctx, a.bishop)
        elif e == "agentes_in_rebus":
            self.persecute(ctx, self.holder(s, EASTERN_EMPEROR), a.target, "Agentes in Rebus")
        elif e == "odoacer":
            if self.holder(s, WESTERN_EMPEROR) is not None:
                self._remove_church(ctx, WESTERN_EMPEROR)
                ctx.update(removed=ctx.s.removed + (WESTERN_EMPEROR,))
                ctx.note("The Western Emperor is overthrown and removed from the game.")
            m = self.holder(ctx.s, MAGISTER)
            if m is not None:
                self._draw_church(ctx, m, 2, "Odoacer")
        elif e == "civil_war":
            mine, theirs = self.followers(s, seat, civil=True), self.followers(s, a.target, civil=True)
            ctx.note(f"Civil War: {me} {mine:,} Followers against {self.church_name(a.target)} {theirs:,}.")
            if mine != theirs:
                win, lose = (seat, a.target) if mine > theirs else (a.target, seat)
                for card in self.of_kind(ctx.s, lose, "laity"):
                    self._give_church(ctx, card, win)
                ctx.note(f"{self.church_name(win)} takes all the Laity of {self.church_name(lose)}.")
            else:
                ctx.note("The Followers are equal: nobody takes anything.")
        elif e == "iconoclasts":
            self.persecute(ctx, seat, s.iconolatry, "Iconoclasts")
        elif e == "military_intervention":
            ctx.note("The army closes down the General Council before any vote: the Article is undecided.")
            ctx.update(window=None)
            self._end_council(ctx, closing=True)
            self.persecute(ctx, seat, a.target, "Military Intervention")
        elif e == "corpse_synod":
            self.persecute(ctx, seat, a.target, "Corpse Synod")
            self._lose(ctx, seat, "follower", 1, "Corpse Synod")
        elif e == "nika_riots":
            emp = self.emperor(s)
            self.persecute(ctx, seat, emp, "Nika Riots")
            self._may_persecute(ctx, emp, seat, "the Emperor's response to the Nika Riots")
        elif e == "new_emperor":
            self._take_from_anywhere(ctx, EASTERN_EMPEROR, seat)
            ctx.note(f"The Eastern Emperor joins {me}.")
        elif e == "western_emperor":
            ctx.set_player(seat, church=ctx.s.players[seat].church + (a.card,))
            ctx.note(
                f"The Western Emperor comes into play in {me} (Laity, West, 5 votes, 500,000 Followers)."
            )
            return True
        elif e == "emperor_hesitates":
            ctx.update(council=c.model_copy(update={"hesitates": True}))
        elif e == "dynastic_change":
            card = EASTERN_EMPEROR if a.mode == "east" else WESTERN_EMPEROR
            self._take_from_anywhere(ctx, card, seat)
            ctx.note(f"The {self.name(card)} joins {me}.")
        elif e == "patriarchate_constantinople":
            self._take_from_anywhere(ctx, CONSTANTINOPLE_P, seat)
            ctx.note(f"The Patriarch of Constantinople joins {me}.")
        elif e == "patriarchate_jerusalem":
            self._take_from_anywhere(ctx, JERUSALEM_P, seat)
            for b in ("b-jerusalem", "b-caesarea"):
                if self.holder(ctx.s, b) is not None:
                    self._discard_church(ctx, b)
                    ctx.note(f"The {self.name(b)} is discarded.")
        elif e == "usurpation":
            self._give_church(ctx, EASTERN_EMPEROR, seat)
            ctx.note(f"{me} usurps the Eastern Emperor.")
        elif e == "apostacy":
            solar = any(self.article(x).symbol == "sun" for _, x in self.mat_cards(s, seat)) or any(
                x is not None and self.article(x).symbol == "sun" for x in s.creed
            )
            if solar:
                ctx.note("The sun doctrine is held: no loss.")
            else:
                self._lose(ctx, seat, "bishop", 1, "Apostacy!")
        elif e == "heterodox_book":
            ctx.update(council=c.model_copy(update={"books": c.books + ((seat, ev.book),)}))
        elif e == "extra_votes":
            self._bonus(ctx, seat)
        elif e == "church_reform":
            self._bonus(ctx, seat)
            self._lose(ctx, seat, "bishop", 1, "Church Reform")
            self._lose(ctx, seat, "laity", 1, "Church Reform")
            self._draw_church(ctx, seat, 1, "Church Reform")
        elif e == "by_this_sign":
            self._take(ctx, seat, a.target, "laity", 1, "By This Sign Shall You Conquer")
            self._draw_church(ctx, seat, 2, "By This Sign Shall You Conquer")
        elif e == "pagan_magician":
            self._lose(ctx, seat, "follower", 1, ev.name)
        elif e == "true_cross":
            for x in [seat, *self._others(s, seat)]:
                self._draw_church(ctx, x, 1, ev.name)
        elif e == "goths":
            ctx.update(goths=ctx.s.goths + (a.card,))
            for x in range(len(s.players)):
                n = sum(1 for lay in self.of_kind(s, x, "laity") if self.cards[lay].half == ev.half)
                if n:
                    self._lose(ctx, x, "follower", 2 * n, ev.name)
            return True
        elif e == "barbarians_west":
            w = self.holder(s, WESTERN_EMPEROR)
            if w is not None:
                self._lose(ctx, w, "follower", 4, ev.name)
            m = self.holder(s, MAGISTER)
            if m is not None:
                self._draw_church(ctx, m, 2, ev.name)
        elif e == "persians_east":
            hit = {
                "l-prefect-of-the-east",
                "l-prefect-of-illyria",
                "p-alexandria",
                "p-jerusalem",
                "p-antioch",
            }
            for x in range(len(s.players)):
                n = len(hit & set(s.players[x].church))
                if n:
                    self._lose(ctx, x, "follower", 2 * n, ev.name)
        elif e == "evangelisation":
            if ctx.s.goths:
                # "You can convert the Invading Goths": the player's choice (R23); the card
                # waits in front of him until he answers
                self._task(ctx, Task(chooser=seat, owner=seat, kind="convert", card=a.card, reason=ev.name))
                return True
            ctx.note("No Goths are invading: the card has no effect.")
        elif e == "demonstration_of_unity":
            self._start_council(ctx, convoker=None, end_turn=False, bonus=((seat, EXTRA_VOTES),))
        elif e == "council_convoked":
            self._start_council(ctx, convoker=None, end_turn=False)
        elif e == "scourge_of_god":
            for p in ("l-prefect-of-gaul", "l-prefect-of-italy-africa"):
                h = self.holder(s, p)
                if h is not None:
                    self._lose(ctx, h, "follower", 2, ev.name)
            r = self.holder(s, ROME)
            if r is not None:
                self._lose(ctx, r, "any", 4, ev.name)
        elif e == "exile_for_scandal":
            bishops = self._bishops(s, seat)
            if bishops:
                top = max(bishops, key=lambda b: (self.cards[b].votes, -bishops.index(b)))
                ctx.update(exiled=ctx.s.exiled + ((top, a.card),))
                ctx.note(f"{self.name(top)} is exiled to the silver mines of Sardinia.")
                return True
            ctx.note(f"{me} has no Bishop to exile.")
        elif e == "rich_lay_dignitary":
            self._lose(ctx, seat, "follower", 1, ev.name)
            self._lose(ctx, seat, "bishop", 1, ev.name)
        elif e == "neoplatonic":
            self._lose(ctx, seat, "bishop", 2, ev.name)
        elif e == "stylite":
            self._lose(ctx, seat, "follower", 3, ev.name)
            self._draw_church(ctx, seat, ev.amount, ev.name)
        elif e == "earthquake_antioch":
            h = self.holder(s, "p-antioch")
            if h is not None:
                self._lose(ctx, h, "follower", 2, ev.name)
        elif e == "schism":
            self._lose(ctx, seat, "bishop", 1, ev.name)
        elif e == "lose_bishop":
            self._lose(ctx, a.target, "bishop", 1, ev.name)
        elif e == "contested_election":
            self._take(ctx, seat, a.target, "bishop", 1, ev.name)
        elif e == "wave_of_asceticism":
            self._lose(ctx, a.target, "follower", 1, ev.name)
            self._lose(ctx, a.target, "laity", 1, ev.name)
        elif e == "serapis":
            self._lose(ctx, a.target, "patriarch", 1, ev.name)
        elif e == "gross_persecution":
            self._lose(ctx, a.target, "bishop", 1, ev.name)
            self._lose(ctx, a.target, "follower", 2, ev.name)
        elif e == "mutilation":
            ctx.update(mutilated_until=s.turns + len(s.players))
            ctx.note("The Patriarch of Rome is out of the game for 1 round (no votes until then).")
        elif e == "julian":
            if self.holder(s, EASTERN_EMPEROR) is not None:
                self._discard_church(ctx, EASTERN_EMPEROR)
            for x in range(len(s.players)):
                for card in self.of_kind(ctx.s, x, "laity"):
                    if self.cards[card].prefect:
                        self._discard_church(ctx, card)
            for x in range(len(s.players)):
                self._lose(ctx, x, "follower", 1, ev.name)
            pile = ctx.s.church_deck + ctx.s.church_discard
            ctx.update(church_deck=ctx.rng.shuffle(pile), church_discard=())
            ctx.note("The Eastern Emperor and the Prefects are discarded; the Church cards are reshuffled.")
        elif e == "plague_west":
            h = self.holder(s, ROME)
            self._lose(ctx, h, "follower", 2, ev.name)
            self._lose(ctx, h, "bishop", 1, ev.name)
        elif e == "bad_times":
            # "The rival chooses which Bishops cannot attend." (RULINGS.md R20)
            self._task(
                ctx,
                Task(
                    chooser=a.target,
                    owner=a.target,
                    kind="away",
                    kinds=("bishop",),
                    count=BAD_TIMES_BISHOPS,
                    reason=ev.name,
                ),
            )
        elif e == "simony":
            self._take(ctx, seat, a.target, "bishop", 1, ev.name)
            self._task(
                ctx, Task(chooser=seat, owner=seat, kinds=("follower",), dest=a.target, reason=ev.name)
            )
        elif e == "dock_strike":
            ctx.update(council=c.model_copy(update={"dock_strikes": c.dock_strikes + (seat,)}))
        elif e == "circumcellions":
            mine, theirs = len(self.of_kind(s, seat, "follower")), len(self.of_kind(s, a.target, "follower"))
            ctx.note(
                f"Circumcellions: {me} holds {mine} Follower cards, {self.church_name(a.target)} {theirs}."
            )
            if mine != theirs:
                win, lose = (seat, a.target) if mine > theirs else (a.target, seat)
                self._take(ctx, win, lose, "any", 2, ev.name)
        else:  # pragma: no cover - data and code out of step
            raise IllegalActionError(f"Unknown effect {e!r}.")
        return False

    def _bonus(self, ctx: _Ctx, seat: Seat) -> None:
        c = ctx.s.council
        ctx.update(council=c.model_copy(update={"bonus": c.bonus + ((seat, EXTRA_VOTES),)}))

    def _recall(self, ctx: _Ctx, bishop: str) -> None:
        for b, e in ctx.s.exiled:
            if b == bishop:
                ctx.update(
                    exiled=tuple(p for p in ctx.s.exiled if p[0] != bishop),
                    event_discard=ctx.s.event_discard + (e,),
                )
        ctx.note(f"{self.name(bishop)} returns from exile.")

    def _church_father(self, ctx: _Ctx, seat: Seat, a: Play) -> None:
        """Church Father: Refute (Refutation Table) or Teach an Article."""
        target = a.target
        if a.mode == "teach":
            h = list(ctx.s.players[seat].hand)
            h.remove(a.article)
            ctx.set_player(seat, hand=tuple(h))
            art = self.article(a.article)
            ctx.note(f"{self.name(a.bishop)} teaches {art.name} to {self.church_name(target)}.")
            overlap = [
                (i, c)
                for i, c in self.mat_cards(ctx.s, target)
                if set(self.article(c).numbers) & set(art.numbers)
            ]
            t = Task(chooser=target, owner=target, kind="replace", article=a.article, reason="Teach")
            if overlap:
                self._replace(ctx, t, overlap[0][1])
            else:
                self._task(ctx, t)
            return
        ctx.note(
            f"{self.name(a.bishop)} tries to refute {self.church_name(target)}'s {self.name(a.article)}."
        )
        _, res = self._roll(ctx, "Refutation", seat, REFUTATION)
        mat = ctx.s.players[target].mat
        box = mat.index(a.article)
        if CATEGORIES[box // 3] in res.refute:
            m = list(mat)
            m[box] = None
            ctx.set_player(target, mat=tuple(m))
            ctx.update(event_discard=ctx.s.event_discard + (a.article,))
            ctx.note(f"{self.name(a.article)} is refuted and leaves {self.church_name(target)}'s mat.")
        elif res.refute:
            ctx.note("An Article of that category cannot be refuted with this roll.")
        if res.persecute and self.of_kind(ctx.s, target, "laity"):
            self._may_persecute(ctx, target, seat, "its Laity answer the Church Father")
        if res.lose_bishop:
            if a.bishop == NISIBIS:
                ctx.note("The Bishop of Nisibis lives outside the Empire and is immune.")
            else:
                self._discard_church(ctx, a.bishop)
                ctx.note(f"{self.church_name(seat)} loses {self.name(a.bishop)}.")

    def _apply_window(self, ctx: _Ctx, seat: Seat, a: Any) -> None:
        w = ctx.s.window
        if isinstance(a, Pass):
            ctx.update(window=w.model_copy(update={"waiting": w.waiting[1:], "passed": w.passed + (seat,)}))
            return
        if w.kind == "debate":
            # a card announced in the debate: everyone may answer again (The Debate)
            order = (seat,) + tuple(self._others(ctx.s, seat))
            ctx.update(window=w.model_copy(update={"waiting": order, "passed": ()}))
        self._play(ctx, seat, a, open_window=False)

    # ------------------------------------------------------------------ General Councils


    def _start_council(
        self, ctx: _Ctx, convoker: Seat | None, end_turn: bool, bonus: tuple[tuple[Seat, int], ...] = ()
    ) -> None:
        s = ctx.s
        n = self.next_article(s)
        if n is None:
            return
        props = self.proposals(s, n)
        council = Council(
            article=n, convoker=convoker, proposals=tuple(props), bonus=bonus, end_turn=end_turn
        )
        ctx.update(council=council, window=None)
        if not props:
            ctx.note(f"General Council on Article {n}: no Church has a doctrine for it; it stays undecided.")
            self._end_council(ctx)
            return
        if len(props) == 1:
            ctx.note(f"General Council on Article {n}: only {props[0]} is proposed and is accepted.")
            self._accept(ctx, props[0], ())
            return
        ctx.note(f"General Council on Article {n}: proposed {list_words(props)}. The debate is open.")
        opener = convoker if convoker is not None else s.active
        order = tuple(self._others(s, opener)) + (opener,)
        ctx.update(window=Window(kind="debate", reason=f"Debate on Article {n}.", waiting=order))

    def _open_vote(self, ctx: _Ctx) -> None:
        """The debate is closed: the ballot is the doctrines Churches still hold on their
        mats (a doctrine whose every holder lost it in the debate is withdrawn, RULINGS.md
        R29); holders vote for their own, the others choose in order. With nothing left on
        the ballot the Article stays undecided."""
        s = ctx.s
        c = s.council
        ballot = tuple(d for d in self.proposals(s, c.article) if d in c.proposals) + tuple(
            d for d in self.proposals(s, c.article) if d not in c.proposals
        )
        for d in c.proposals:
            if d not in ballot:
                ctx.note(f"No Church holds {d} any more: it is withdrawn from the ballot.")
        if not ballot:
            ctx.note(f"No doctrine for Article {c.article} is left to vote on; it stays undecided.")
            self._end_council(ctx)
            return
        if ballot != c.proposals:
            c = c.model_copy(update={"proposals": ballot})
            ctx.update(council=c)
            s = ctx.s
        opener = c.convoker if c.convoker is not None else s.active
        order = tuple(self._others(s, opener)) + (opener,)
        votes = []
        voters = []
        for x in order:
            d = self.doctrine_of(s, x, c.article)
            if d is not None:
                votes.append((x, self.article(d[1]).key, self.council_votes(s, x)))
            else:
                voters.append(x)
        for x, key, n in votes:
            ctx.note(
                f"{self.church_name(x)} votes for its own doctrine, {key} ({counted(n, 'vote')}): a Church with a "
                "doctrine for the Article must vote for it (General Councils)."
            )
        ctx.update(
            council=c.model_copy(update={"stage": "vote", "votes": tuple(votes), "voters": tuple(voters)})
        )



    def _apply_vote(self, ctx: _Ctx, seat: Seat, a: Any) -> None:
        c = ctx.s.council
        if isinstance(a, Vote):
            entry = (seat, a.doctrine, self.council_votes(ctx.s, seat))
            ctx.note(f"{self.church_name(seat)} votes for {a.doctrine} ({counted(entry[2], 'vote')}).")
        else:
            entry = (seat, None, 0)
            ctx.note(f"{self.church_name(seat)} abstains.")
        ctx.update(council=c.model_copy(update={"votes": c.votes + (entry,), "voters": c.voters[1:]}))


    def _resolve_council(self, ctx: _Ctx) -> None:
        """The vote: plurality wins; a tie leaves the Article undecided (The Debate)."""
        s = ctx.s
        c = s.council
        tally = self.tally(s)
        best = max(tally.values())
        top = [d for d, v in tally.items() if v == best]
        text = ", ".join(f"{d} {v}" for d, v in tally.items())
        if len(top) != 1:
            msg = f"Council on Article {c.article}: {text}. A tie: the Article is undecided."
            ctx.emit(CouncilResolved(article=c.article, tally=tuple(tally.items()), accepted=None, text=msg))
            self._dock_strikes(ctx, None)
            self._end_council(ctx)
            return
        ctx.emit(
            CouncilResolved(
                article=c.article,
                tally=tuple(tally.items()),
                accepted=top[0],
                text=f"Council on Article {c.article}: {text}. {top[0]} is accepted.",
            )
        )
        self._dock_strikes(ctx, top[0])
        self._accept(ctx, top[0], c.votes)

    def _dock_strikes(self, ctx: _Ctx, accepted: str | None) -> None:
        c = ctx.s.council
        h = self.holder(ctx.s, EASTERN_EMPEROR)
        for x in c.dock_strikes:
            if h is None or h == x:
                continue
            theirs = next((d for y, d, _ in c.votes if y == h), None)
            mine = next((d for y, d, _ in c.votes if y == x), None)
            if theirs is None or theirs != mine:
                ctx.note(f"Dock Strike: the Eastern Emperor did not vote with {self.church_name(x)}.")
                # "you can prevent him from resupplying his Followers": the player's choice (R20)
                self._task(ctx, Task(chooser=x, owner=h, kind="dock", reason="Dock Strike"))

    def _accept(self, ctx: _Ctx, key: str, votes: tuple[tuple[Seat, str | None, int], ...]) -> None:
        """Results: Losers discard 3/2/1 per rejected Article (a multiple Article once),
        Winners draw 3/2/1 once; the Article enters the Definitive Creed; every other
        card of its numbers is discarded; then the Emperor's Respect roll."""
        s = ctx.s
        c = s.council
        n = len(s.players)
        accepted_card = next(a for a in self.data.articles.values() if a.key == key)
        numbers = set(accepted_card.numbers)
        winners: list[tuple[Seat, int, str]] = []
        losers: list[tuple[Seat, int, str]] = []
        for x in range(n):
            for i, card in self.mat_cards(s, x):
                art = self.article(card)
                if not set(art.numbers) & numbers:
                    continue
                (winners if art.key == key else losers).append((x, i, card))
        # the honour of moving the Article: the Church giving the most votes to it
        given = [(v, -k, x) for k, (x, d, v) in enumerate(votes) if d == key]
        holders = [x for x, _, _ in winners]
        honour = max(given)[2] if given else holders[0]
        if honour in holders:
            mover = honour
        else:
            backing = [g for g in given if g[2] in holders]
            mover = max(backing)[2] if backing else holders[0]
        creed_card = next(card for x, _, card in winners if x == mover)
        creed = list(s.creed)
        for num in accepted_card.numbers:
            creed[num - 1] = creed_card
        ctx.update(creed=tuple(creed))
        ctx.note(
            f"{key} enters the Definitive Creed"
            + (f"; {self.church_name(honour)} has the honour of moving it." if honour is not None else ".")
        )
        gone = []
        for x, i, card in losers + winners:
            mat = list(ctx.s.players[x].mat)
            mat[i] = None
            ctx.set_player(x, mat=tuple(mat))
            if card != creed_card:
                gone.append(card)
        for x, i, card in losers:
            stake = STAKE[CATEGORIES[i // 3]]
            self._lose(ctx, x, "any", stake, f"rejected {self.article(card).key}")
        for x, i, _ in winners:
            self._draw_church(ctx, x, STAKE[CATEGORIES[i // 3]], f"{key} accepted")
        decided = self.decided(ctx.s)
        for x in range(n):
            hand = ctx.s.players[x].hand
            keep = tuple(
                h for h in hand if h not in self.data.articles or not set(self.article(h).numbers) & decided
            )
            gone += [h for h in hand if h not in keep]
            ctx.set_player(x, hand=keep)
        ctx.update(article_permanent=ctx.s.article_permanent + tuple(gone))
        lost_keys = []
        for _x, _, card in losers:
            k = self.article(card).key
            if k not in lost_keys:
                lost_keys.append(k)
        ctx.update(
            council=c.model_copy(
                update={
                    "stage": "respect",
                    "losers": tuple(lost_keys),
                    "loser_seats": tuple((self.article(card).key, x) for x, _, card in losers),
                    "voters": (),
                }
            )
        )

    def _apply_respect(self, ctx: _Ctx, seat: Seat, a: Any) -> None:
        c = ctx.s.council
        if isinstance(a, Pass):
            ctx.note("The Emperor does not enforce respect of the Council.")
            self._end_council(ctx)
            return
        ctx.note(f"The Emperor enforces respect of the Council against {a.doctrine}.")
        _, res = self._roll(ctx, "Respect", seat, RESPECT)
        targets = [x for k, x in c.loser_seats if k == a.doctrine and x != seat]
        for x in dict.fromkeys(targets):
            self._apply_takes(ctx, seat, x, res, "Respect")
        if res.actor_draws:
            self._draw_church(ctx, seat, res.actor_draws, "Respect")
        if res.actor_loses_followers:
            self._lose(ctx, seat, "follower", res.actor_loses_followers, "Respect")
        self._end_council(ctx)

    def _end_council(self, ctx: _Ctx, closing: bool = False) -> None:
        c = ctx.s.council
        ctx.update(council=None)
        if c is not None and c.end_turn and ctx.s.tasks:
            ctx.update(turn_ends=True)  # the Council's results are settled before the next turn
        elif c is not None and c.end_turn:
            self._end_turn(ctx)
        elif ctx.s.stage == "draw":
            ctx.update(stage="main")

    # ------------------------------------------------------------------ views

    def _article_view(self, card: str | None) -> ArticleView | None:
        if card is None:
            return None
        v = self._views.get(card)
        if v is None:
            a = self.article(card)
            v = ArticleView(id=a.id, name=a.name, doctrine=a.doctrine, numbers=a.numbers, symbol=a.symbol)
            self._views[card] = v
        return v

    def _card_view(self, card: str, exiled: bool) -> ChurchCardView:
        key = (card, exiled)
        v = self._views.get(key)
        if v is None:
            c = self.cards[card]
            v = ChurchCardView(
                id=card,
                name=c.name,
                kind=c.kind,
                half=c.half,
                votes=c.votes,
                followers=c.followers,
                exiled=exiled,
            )
            self._views[key] = v
        return v

    def hand_card_view(self, card: str) -> HandCardView:
        if card in self.data.articles:
            a = self.article(card)
            text = "Article card" + (f"; penalty: {a.penalty_text}" if a.penalty_text else "")
            return HandCardView(id=card, name=a.name, kind="article", text=text)
        e = self.event(card)
        return HandCardView(id=card, name=e.name, kind="event", text=e.text)

    # ------------------------------------------------------------ hidden information

    def perturb_hidden(self, s: State, keep: frozenset[Seat] | None, rand: random.Random) -> State:
        """``s`` as the seats of ``keep`` cannot tell it apart (games.core.secrets): the
        Church Cards box and the Event/Article deck shuffled, and the hands of the
        Churches outside ``keep`` redealt with the Event/Article deck."""
        others = [x for x in range(len(s.players)) if keep is not None and x not in keep]
        zones = redeal([*(s.players[x].hand for x in others), s.event_deck], rand)
        players = list(s.players)
        for x, hand in zip(others, zones, strict=False):
            players[x] = players[x].model_copy(update={"hand": hand})
        return s.model_copy(
            update={"players": tuple(players), "event_deck": zones[-1], "church_deck": shuffled(s.church_deck, rand)}
        )

    def view(self, s: State, viewer: Seat | None) -> View:
        players = []
        for x, p in enumerate(s.players):
            exiled = {b for b, _ in s.exiled}
            church = tuple(self._card_view(c, c in exiled) for c in p.church)
            players.append(
                PlayerView(
                    seat=x,
                    mat=tuple(self._article_view(c) for c in p.mat),
                    church=church,
                    followers=self.followers(s, x),
                    votes=self.total_votes(s, x),
                    hand_size=len(p.hand),
                    emperor=self.emperor(s) == x,
                    hand=tuple(self.hand_card_view(c) for c in p.hand) if viewer == x else None,
                )
            )
        council = None
        if s.council is not None:
            c = s.council
            supporters = tuple(
                (
                    d,
                    tuple(
                        x
                        for x in range(len(s.players))
                        if (dd := self.doctrine_of(s, x, c.article)) and self.article(dd[1]).key == d
                    ),
                )
                for d in c.proposals
            )
            council = CouncilView(
                article=c.article,
                convoker=c.convoker,
                stage=c.stage,
                proposals=c.proposals,
                supporters=supporters,
                votes=c.votes,
                bonus=c.bonus,
            )
        drawn = None
        if s.drawn is not None and (viewer == s.active or s.stage == "immediate"):
            drawn = self.hand_card_view(s.drawn)
        task = self.task_text(s, s.tasks[0]) if s.tasks else None
        return View(
            viewer=viewer,
            phase=s.phase,
            stage=s.stage,
            round=s.round,
            active=s.active,
            emperor=self.emperor(s),
            players=tuple(players),
            creed=tuple(self._article_view(c) for c in s.creed),
            next_article=self.next_article(s),
            church_deck=len(s.church_deck),
            church_discard=len(s.church_discard),
            event_deck=len(s.event_deck),
            event_discard=len(s.event_discard),
            patriarch_box=tuple(self.name(c) for c in s.patriarch_box),
            emperor_out=tuple(self.name(c) for c in s.emperor_out),
            goths=tuple(self.name(c) for c in s.goths),
            drawn=drawn,
            council=council,
            window=s.window.reason if s.window is not None else None,
            waiting=tuple(self.to_act(s)),
            task=task,
            last_roll=s.last_roll,
            winners=s.winners,
            end_reason=s.end_reason,
        )

    def summary(self, v: View) -> str:
        """Plain-text board for the terminal and logs."""
        from . import text

        return text.summary(v)

    def hand_text(self, v: View) -> str:
        from . import text

        return text.hand_text(v)

    # ------------------------------------------------------------------ notation



GAME = Credo()
