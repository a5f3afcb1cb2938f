"""Set Up (rule text, Set Up a. to h.): dealing the cards and placing the Articles on the Church mats."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.core import IllegalActionError, Rng, Seat, Step
from games.core.errors import list_words

from ..model import (
    CATEGORIES,
    CATEGORY_NAMES,
    CardsReceived,
    Place,
    PlayerState,
    State,
)
from ..options import Options
from ..queries import SETUP_ARTICLES
from .context import _Ctx


class SetupRules:
    """Set Up: the deal and the placing of Articles."""

    def deal(self, seats: Sequence[Seat], options: Options, rng: Rng) -> Step[State]:
        """Set Up: set aside the Patriarchs of Jerusalem and Constantinople, deal the
        Church cards into players + 1 piles (the extra pile and the rest to the Church
        Cards box), deal 9 Article cards each; the remaining Articles and the Event cards
        form the Event/Article deck (RULINGS.md R12). Then each Church places its
        Articles (set-up rules a. to h.).

        Raises IllegalActionError for a seat count outside 3..6.
        """
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

    def apply_setup(self, ctx: _Ctx, seat: Seat, a: Any) -> None:
        """Set Up a. to h.: place an Article from hand on the mat, or say done: the other
        cards of the numbers placed are discarded, exact duplicates kept (Set Up a., c.)."""
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
