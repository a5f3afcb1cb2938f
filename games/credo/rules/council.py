"""General Councils (rule text: General Councils, The Debate, The Vote, Results): convoking, debating, voting, the results and the Emperor's Respect roll."""

from __future__ import annotations

from typing import Any

from games.core import Seat
from games.core.english import count as counted
from games.core.errors import list_words

from ..data import (
    EASTERN_EMPEROR,
)
from ..model import (
    CATEGORIES,
    STAKE,
    Council,
    CouncilResolved,
    Pass,
    Task,
    Vote,
    Window,
)
from ..tables import RESPECT
from .context import _Ctx


class CouncilRules:
    """General Councils from convocation to the Emperor's Respect roll."""

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
            self.end_council(ctx)
            return
        if len(props) == 1:
            ctx.note(f"General Council on Article {n}: only {props[0]} is proposed and is accepted.")
            self._accept(ctx, props[0], ())
            return
        ctx.note(f"General Council on Article {n}: proposed {list_words(props)}. The debate is open.")
        opener = convoker if convoker is not None else s.active
        order = tuple(self.others(s, opener)) + (opener,)
        ctx.update(window=Window(kind="debate", reason=f"Debate on Article {n}.", waiting=order))

    def open_vote(self, ctx: _Ctx) -> None:
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
            self.end_council(ctx)
            return
        if ballot != c.proposals:
            c = c.model_copy(update={"proposals": ballot})
            ctx.update(council=c)
            s = ctx.s
        opener = c.convoker if c.convoker is not None else s.active
        order = tuple(self.others(s, opener)) + (opener,)
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

    def apply_vote(self, ctx: _Ctx, seat: Seat, a: Any) -> None:
        """The Vote: ``seat`` votes for a proposed doctrine with its Council votes, or abstains."""
        c = ctx.s.council
        if isinstance(a, Vote):
            entry = (seat, a.doctrine, self.council_votes(ctx.s, seat))
            ctx.note(f"{self.church_name(seat)} votes for {a.doctrine} ({counted(entry[2], 'vote')}).")
        else:
            entry = (seat, None, 0)
            ctx.note(f"{self.church_name(seat)} abstains.")
        ctx.update(council=c.model_copy(update={"votes": c.votes + (entry,), "voters": c.voters[1:]}))

    def resolve_council(self, ctx: _Ctx) -> None:
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
            self.end_council(ctx)
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

    def apply_respect(self, ctx: _Ctx, seat: Seat, a: Any) -> None:
        """Results: the Emperor enforces respect of the Council against a Losing doctrine
        (Respect Table: he takes from its holders, may draw or lose Followers), or passes;
        the Council ends."""
        c = ctx.s.council
        if isinstance(a, Pass):
            ctx.note("The Emperor does not enforce respect of the Council.")
            self.end_council(ctx)
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
        self.end_council(ctx)

    def end_council(self, ctx: _Ctx, closing: bool = False) -> None:
        """The Council is over: the Emperor's convoking turn ends (once its results are
        settled), or the turn it interrupted goes on."""
        c = ctx.s.council
        ctx.update(council=None)
        if c is not None and c.end_turn and ctx.s.tasks:
            ctx.update(turn_ends=True)  # the Council's results are settled before the next turn
        elif c is not None and c.end_turn:
            self.end_turn(ctx)
        elif ctx.s.stage == "draw":
            ctx.update(stage="main")
