"""The Game (rule text): a Church's turn (draw an Event/Article card, handle an Article card, play, discard, end the turn) and the Game End."""

from __future__ import annotations

from typing import Any

from games.core import Seat
from games.core.english import count as counted

from ..model import (
    CardsReceived,
    Convoke,
    Discard,
    GameWon,
    Keep,
    Place,
    Play,
    Renounce,
)
from ..queries import (
    WIN_FOLLOWERS,
)
from .context import _Ctx


class TurnRules:
    """A Church's turn and the end of the game."""

    def begin_turn(self, ctx: _Ctx, seat: Seat) -> None:
        """The Game: ``seat``'s turn begins (a new round after the last Church); the round
        limit house rule ends the game by Followers (RULINGS.md R19)."""
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

    def draw_turn_card(self, ctx: _Ctx) -> None:
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
            self.play_event(ctx, seat, Play(card=card), open_window=True)
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

    def apply_article(self, ctx: _Ctx, seat: Seat, a: Any) -> None:
        """The Game, Article Card: place the drawn Article on the mat, keep it in hand,
        renounce a Customary Practice for it (losing 1 Church card), or reject it."""
        card = ctx.s.drawn
        ctx.update(stage="main", drawn=None)
        name = self.name(card)
        if isinstance(a, Place):
            self._put_on_mat(ctx, seat, card)
        elif isinstance(a, Keep):
            ctx.set_player(seat, hand=ctx.s.players[seat].hand + (card,))
            ctx.note(f"{self.church_name(seat)} keeps the Article card in hand.")
        elif isinstance(a, Renounce):
            box = self.renounce_box(ctx.s, seat, card)
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

    def apply_main(self, ctx: _Ctx, seat: Seat, a: Any) -> None:
        """The Game: discard, play an Event card, convoke a General Council (the Emperor), or
        end the turn."""
        if isinstance(a, Discard):
            hand = list(ctx.s.players[seat].hand)
            hand.remove(a.card)
            ctx.set_player(seat, hand=tuple(hand))
            ctx.update(event_discard=ctx.s.event_discard + (a.card,))
            ctx.note(f"{self.church_name(seat)} discards {self.name(a.card)}.")
        elif isinstance(a, Play):
            self.play_event(ctx, seat, a, open_window=True)
        elif isinstance(a, Convoke):
            ctx.note(f"The Emperor ({self.church_name(seat)}) convokes a General Council.")
            self._start_council(ctx, convoker=seat, end_turn=True)
        else:
            self.end_turn(ctx)

    def end_turn(self, ctx: _Ctx) -> None:
        """The Game: the turn passes to the next Church."""
        n = len(ctx.s.players)
        self.begin_turn(ctx, (ctx.s.active + 1) % n)

    def check_end(self, ctx: _Ctx) -> bool:
        """Game End: 11 million Followers or 117 votes (the first to realise one wins;
        several at once: most Followers, RULINGS.md R18); Article 10 passed: most Followers."""
        s = ctx.s
        hit = self.reached_victory(s)
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
