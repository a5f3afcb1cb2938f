"""Setting up: decks, hands, seats and the first turn (rule text "Setup"; RULINGS.md R4, R17)."""

from __future__ import annotations

from collections.abc import Sequence

from games.core import (
    IllegalActionError,
    Rng,
    Seat,
    Step,
)
from games.core.english import count

from ..model import (
    CardsDrawn,
    Note,
    Roman,
    State,
)
from ..options import Options
from ..queries import (
    DECK_ORDER,
    LAST_ROUND,
    START_HAND,
    START_POWER,
)
from .context import _Ctx


class SetupRules:
    """Setup of a game."""

    def setup(self, seats: Sequence[Seat], options: Options | None, rng: Rng) -> Step[State]:
        """Deal each Roman its shuffled 30-card starter deck and 5 cards (R4), shuffle the
        Hannibal deck, and begin round 1 with seat 1's turn.

        Raises IllegalActionError for a seat count the mode does not allow.
        """
        options = options or Options()
        n = len(seats)
        if list(seats) != list(range(n)):
            raise IllegalActionError("Seats must be numbered 0 .. players - 1.")
        if options.mode == "coop" and not 1 <= n <= 4:
            raise IllegalActionError(f"Co-op Roman War takes 1 to 4 Roman players, not {n}.")
        if options.mode == "duel" and not 2 <= n <= 4:
            raise IllegalActionError(
                f"A duel takes 2 to 4 players (1-3 Romans and 1-3 Hannibal players), not {n}."
            )
        if options.mode == "duel" and options.hannibals >= n:
            raise IllegalActionError(
                f"A duel of {count(n, 'player')} has at most {n - 1} Hannibal seat(s) (at least one Roman),"
                f" not {options.hannibals}."
            )
        if options.mode == "coop" and options.hannibals != 1:
            raise IllegalActionError(
                "hannibals is a duel option (mode=duel); in co-op the deck plays Hannibal."
            )
        romans_n = n if options.mode == "coop" else n - options.hannibals
        decks = options.decks or tuple(DECK_ORDER[i % len(DECK_ORDER)] for i in range(romans_n))
        if len(decks) != romans_n:
            raise IllegalActionError(f"Give one deck per Roman seat: {romans_n} needed.")
        romans = []
        for deck_id in decks:
            deck = rng.shuffle(self.data.deck_list(deck_id))
            romans.append(
                Roman(
                    deck_id=deck_id,
                    commander=self.data.decks[deck_id].commander,
                    deck=deck[START_HAND:],
                    hand=deck[:START_HAND],
                    power=START_POWER,
                )
            )
        s = State(
            mode=options.mode,
            romans=tuple(romans),
            hannibal_seat=None if options.mode == "coop" else romans_n,
            hannibal_seats=() if options.mode == "coop" else tuple(range(romans_n, n)),
            turn_order=tuple(range(romans_n)),
            last_round=LAST_ROUND,
            hannibal_deck=rng.shuffle(self.data.hannibal_deck),
            level_abilities=options.level_abilities,
            fee=options.fee,
            manual=options.manual,
        )
        ctx = _Ctx(s, rng)
        for x in range(romans_n):
            ctx.emit(
                Note(text=f"Seat {x + 1} commands {self.who(ctx.s, x)}: {self.data.decks[decks[x]].text}")
            )
            ctx.emit(CardsDrawn(seat=x, names=self._names(ctx.s.romans[x].hand), visible_to=(x,)))
        if options.mode == "duel":
            hs = ctx.s.hannibal_seats
            if len(hs) == 1:
                ctx.emit(Note(text=f"Seat {n} plays the Hannibal side."))
            else:
                ctx.emit(
                    Note(
                        text="Seats "
                        + ", ".join(str(x + 1) for x in hs)
                        + " play the Hannibal side: they share its deck and hand and take its Hannibal"
                        " phases in turn."
                    )
                )
        self._begin_turn(ctx)
        return Step(state=ctx.s, events=tuple(ctx.events))
