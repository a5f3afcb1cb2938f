"""Roman War's queries: what the data and a State say (cards, seats, costs, the pending
decision), read by the rules, the stages, the view and the notation. No rule effect lives
here (rule text: shared/seeds/001_62f93fed39493365.txt)."""

from __future__ import annotations

from collections.abc import Sequence

from games.core import (
    Seat,
)

from .data import Card, Data, HannibalCard
from .model import (
    ActiveAmbush,
    CardView,
    Pending,
    State,
)

START_POWER = 3  # "Start at 3/10 Power"
MAX_POWER = 10
START_HAND = 4  # RULINGS.md R4
HAND_LIMIT = 7  # RULINGS.md R4
COST_ZONE_PER_TURN = 4  # "Play up to 4 cards face-down from your hand to your Cost Zone"
MAX_MANEUVER = 3  # "(0 -> 1 -> 2 -> 3)"
LAST_ROUND = 10  # "the Roman side has not won by the end of round 10"
RESTORATION_CARDS = 15  # "shuffles up to 15 random cards"
DELIVERANCE_BREAKS = 3  # "break up to 3 Hannibal's Encampments"
VIBRANCY_FLIPS = 2  # "flip 2 Cost Zone cards face-up"
COST_ZONE_POWER_GAIN = 3  # "gained 3+ Power this turn?"
DECK_ORDER = ("fabius", "scipio", "marcellus", "nero")
CHARGED_ABILITIES = ("restoration", "deliverance")
DUEL_MAX_HANNIBAL_HAND = 7  # RULINGS.md R17


def ambush_named(name: str) -> str:
    """An Ambush card named once: ``"the Ambush Cannae"``, but ``"the Ambush at the Ford"``
    (not "the Ambush Ambush at the Ford") when the card's name already says it."""
    return f"the {name}" if name.split()[0].lower() == "ambush" else f"the Ambush {name}"


def hannibal_draws(maneuver: int) -> int:
    """How many cards Hannibal draws and plays on a Roman turn: the Roman's draw
    (Maneuver + 2) minus 1, or Maneuver + 2 once Maneuver is 2 or more."""
    roman = maneuver + 2
    return roman if maneuver >= 2 else roman - 1


class Queries:
    """The game object's queries on its data (``self.data``) and a State."""

    data: Data

    def card(self, card_id: str) -> Card:
        return self.data.cards[card_id]

    def hcard(self, card_id: str) -> HannibalCard:
        return self.data.hannibal[card_id]

    def name(self, card_id: str) -> str:
        c = self.data.cards.get(card_id) or self.data.hannibal.get(card_id)
        return c.name if c else card_id

    def roman_seats(self, s: State) -> tuple[Seat, ...]:
        return tuple(range(len(s.romans)))

    def who(self, s: State, seat: Seat | None) -> str:
        """A seat's label: its commander (numbered when two share one), or Hannibal."""
        if seat is None:
            return "nobody"
        if seat in self.hannibal_seats(s):
            return "Hannibal" if len(self.hannibal_seats(s)) == 1 else f"Hannibal {seat + 1}"
        commander = s.romans[seat].commander
        if sum(1 for r in s.romans if r.commander == commander) > 1:
            return f"{commander} {seat + 1}"
        return commander

    def hannibal_seats(self, s: State) -> tuple[Seat, ...]:
        """Every seat of the Hannibal side in a duel (none in co-op)."""
        if s.hannibal_seats:
            return s.hannibal_seats
        return (s.hannibal_seat,) if s.hannibal_seat is not None else ()

    def sides(self, s: State, players: int) -> list[int]:
        """Two sides for results and ratings: the Hannibal seats (1) against the Romans (0);
        in co-op every seat is a Roman, one team."""
        hannibals = set(self.hannibal_seats(s))
        return [1 if x in hannibals else 0 for x in range(players)]

    def seat_name(self, s: State, seat: Seat) -> str:
        """The host's name for ``seat``: its commander, or "Hannibal" (duel)."""
        return self.who(s, seat)

    def teammates(self, s: State, seat: Seat) -> tuple[Seat, ...]:
        return tuple(x for x in self.roman_seats(s) if x != seat)

    def solo(self, s: State) -> bool:
        return len(s.romans) == 1

    def untapped(self, s: State, seat: Seat) -> int:
        """Untapped Cost Zone cards of ``seat``: the Cost it can pay now (C n, R n)."""
        return sum(1 for c in s.romans[seat].cost_zone if not c.tapped)

    def ambush_cost(self, s: State, card_id: str) -> int:
        """An Ambush's defense cost: R n, or R X = Hannibal's Encampments in play + 1 (R9)."""
        d = self.hcard(card_id).defense
        return d if d is not None else len(s.encampments) + 1

    def has(self, s: State, ability: str) -> bool:
        return s.level_abilities and ability in s.abilities

    def fee_for(self, s: State, card: Card) -> int:
        """The solo Target-Change fee a card needs (an effect aimed at a teammate)."""
        return s.fee if self.solo(s) and card.needs_ally else 0

    def _blocking(self, s: State) -> Pending | None:
        """The pending decision the flow waits for, if any."""
        if not s.pending:
            return None
        p = s.pending[-1]
        if p.item is None or (s.stack and s.stack[-1].uid == p.item):
            return p
        return None

    def _respond_text(self, s: State) -> str:
        return f"{self._item_name(s, s.stack[-1].uid)} is on the stack: respond with a fast Tactic, or pass."

    def _item_name(self, s: State, uid: int | None) -> str:
        item = next((i for i in s.stack if i.uid == uid), None)
        if item is None:
            return "the card"
        if item.kind == "boost":
            return f"boost {item.boost + 1} of {self.name(item.card)}"
        if item.kind == "ambush":
            return f"{ambush_named(self.name(item.card))} (at {self.who(s, item.seat)})"
        return self.name(item.card)

    @staticmethod
    def _ambush(s: State, uid: int | None) -> ActiveAmbush | None:
        return next((a for a in s.ambushes if a.uid == uid), None)

    def _cleared(self, s: State) -> bool:
        return all(r.maneuver >= MAX_MANEUVER for r in s.romans) and not s.encampments

    def card_view(self, card_id: str) -> CardView:
        if card_id in self.data.cards:
            c = self.card(card_id)
            return CardView(id=c.id, name=c.name, type=c.type, cost=c.cost, line=c.line())
        h = self.hcard(card_id)
        return CardView(id=h.id, name=h.name, type=h.type, defense=h.defense, line=h.line())

    def seats(self, s: State) -> tuple[Seat, ...]:
        """Every seat: the Romans, then Hannibal's seat in a duel."""
        extra = (s.hannibal_seat,) if s.hannibal_seat is not None else ()
        return tuple(range(len(s.romans))) + extra

    def _names(self, cards: Sequence[str]) -> tuple[str, ...]:
        return tuple(self.name(c) for c in cards)
