"""A heuristic player for Credo.

Set-up: places its Articles in hand order (those with a penalty last). A drawn
Article: placed if it can be, kept if a duplicate, otherwise rejected. On its turn it
plays Draw cards, Proselytism and Church Father on the richest rival, keeps Council
cards for debates where its own doctrine is proposed, and convokes a Council as the
Emperor when its doctrine for the next Article would win. It votes for the doctrine
of the weakest Church (to keep the leader from gaining), loses its cheapest cards,
takes and removes the most valuable ones. On a Proselytism 2 it takes whichever of
2 Bishops or 3 Followers is worth more; an Evangelic Campaign preaches to the
richest Churches left, as many as it may; Bad Times keeps its cheapest Bishops away.
"""

from __future__ import annotations

import random
from typing import Any

from games.core import Seat

from .model import Abstain, Convoke, Discard, Done, Pass, Pick, Place, Play, Respect, State, Vote

VALUE = {"follower": 1.0, "bishop": 1.0, "patriarch": 1.0, "laity": 1.0}


class HeuristicAgent:
    """The heuristic player described above (seeded: the same seed plays the same way)."""

    name = "heuristic"

    def __init__(self, seed: int | None = None) -> None:
        self.rand = random.Random(seed)

    def _worth(self, game: Any, card: str) -> float:
        c = game.cards[card]
        return c.followers / 100_000 + c.votes

    def _haul(self, game: Any, s: State, owner: Seat, option: str) -> float:
        """What Proselytism 2's option would bring: the best 2 Bishops or 3 Followers."""
        kind, n = ("bishop", 2) if option == "bishops" else ("follower", 3)
        worths = sorted((self._worth(game, c) for c in game.of_kind(s, owner, kind)), reverse=True)
        return sum(worths[:n])

    def choose(self, game: Any, s: State, seat: Seat) -> Any:
        """One legal action for ``seat`` in ``s``, chosen as the module describes."""
        actions = list(game.legal_actions(s, seat))
        if len(actions) == 1:
            return actions[0]
        if s.tasks:
            return self._pick(game, s, [a for a in actions if isinstance(a, Pick)])
        if s.phase == "setup":
            places = [a for a in actions if isinstance(a, Place)]
            if places:
                plain = [a for a in places if not game.article(a.card).penalty_text]
                return (plain or places)[0]
            return actions[0]
        c = s.council
        if c is not None and c.stage == "vote" and s.window is None:
            votes = [a for a in actions if isinstance(a, Vote)]
            if not votes:
                return Abstain()
            weakest = min(
                votes,
                key=lambda a: min(
                    (
                        game.followers(s, x)
                        for x in range(len(s.players))
                        if (d := game.doctrine_of(s, x, c.article)) and game.article(d[1]).key == a.doctrine
                    ),
                    default=0,
                ),
            )
            return weakest
        if c is not None and c.stage == "respect" and s.window is None:
            resp = [a for a in actions if isinstance(a, Respect)]
            mine = {game.article(x).key for _, x in game.mat_cards(s, seat)}
            resp = [a for a in resp if a.doctrine not in mine]
            return resp[0] if resp else Pass()
        plays = [a for a in actions if isinstance(a, Play)]
        if s.window is not None:
            if s.window.kind == "debate" and c is not None and game.doctrine_of(s, seat, c.article):
                good = [a for a in plays if game.event(a.card).effect in ("extra_votes", "heterodox_book")]
                if good:
                    return good[0]
            return Pass()
        if s.stage == "article":
            for kind in ("place", "keep"):
                for a in actions:
                    if a.kind == kind:
                        return a
            return actions[-1]
        if s.stage == "immediate":
            return max(actions, key=lambda a: game.followers(s, a.target))
        return self._main(game, s, seat, actions, plays)

    def _pick(self, game: Any, s: State, picks: list[Pick]) -> Pick:
        """A pending Task's choice (the picks legal now, more than one)."""
        t = s.tasks[0]
        if t.kind == "replace":
            return picks[-1]
        if t.kind == "either":  # Proselytism 2: the richer haul
            return max(picks, key=lambda a: self._haul(game, s, t.owner, a.card))
        if t.kind == "persecute":  # "Laity can Persecute": on average it costs the victim cards
            return next(a for a in picks if a.card == "persecute")
        if t.kind in ("convert", "dock"):  # Followers gained, or the Emperor's lost
            return picks[0]
        if t.kind == "campaign":  # preach to the richest Church left; never stop early
            churches = [a for a in picks if a.card != "stop"] or picks
            return max(churches, key=lambda a: game.followers(s, int(a.card)) if a.card != "stop" else 0)
        if t.chooser == t.owner:  # losing or giving: the cheapest
            return min(picks, key=lambda a: self._worth(game, a.card))
        return max(picks, key=lambda a: self._worth(game, a.card))

    def _main(self, game: Any, s: State, seat: Seat, actions: list[Any], plays: list[Play]) -> Any:
        """The turn's main step: a useful Event card, a discard down to the limit, a
        Council it would win, or done."""
        leader = max((x for x in range(len(s.players)) if x != seat), key=lambda x: game.followers(s, x))
        for a in plays:
            e = game.event(a.card).effect
            if e in (
                "draw",
                "iconolatry",
                "new_emperor",
                "western_emperor",
                "by_this_sign",
                "usurpation",
                "patriarchate_constantinople",
                "patriarchate_jerusalem",
            ):
                return a
            if (
                e in ("proselytism", "simony", "agentes_in_rebus", "contested_election")
                and a.target == leader
            ):
                return a
            if (
                e == "church_father"
                and a.target == leader
                and (a.mode == "teach" or self.rand.random() < 0.5)
            ):
                return a
        hand = s.players[seat].hand
        if len(hand) > 4:
            discards = [a for a in actions if isinstance(a, Discard)]
            return discards[0]
        if any(isinstance(a, Convoke) for a in actions) and self._would_win(game, s, seat):
            return Convoke()
        return Done()

    def _would_win(self, game: Any, s: State, seat: Seat) -> bool:
        n = game.next_article(s)
        mine = game.doctrine_of(s, seat, n)
        if mine is None:
            return self.rand.random() < 0.3
        key = game.article(mine[1]).key
        totals: dict[str, int] = {}
        for x in range(len(s.players)):
            d = game.doctrine_of(s, x, n)
            if d is not None:
                k = game.article(d[1]).key
                totals[k] = totals.get(k, 0) + game.council_votes(s, x)
        return totals.get(key, 0) >= max(totals.values())
