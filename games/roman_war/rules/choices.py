"""What may be chosen now: card plays and their timing, defenses, rotations, assaults, abilities and
boosts (RULINGS.md R13-R16)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.core import (
    Seat,
)

from ..data import ABILITY_COST, Card
from ..model import (
    Ambush,
    Done,
    Pending,
    PlayCard,
    Rotate,
    StackItem,
    State,
)


class ChoiceRules:
    """The options of each decision, for the stages' legal actions."""

    def _hannibal_actions(self, s: State) -> list[Any]:
        out: list[Any] = [Done()]
        if s.hannibal_to_play <= 0:
            return out
        for c in dict.fromkeys(s.hannibal_hand):
            if self.hcard(c).type == "Encampment":
                out.append(Ambush(card=c))
            else:
                out += [Ambush(card=c, target=x) for x in self.roman_seats(s)]
        return out

    def _card_plays(
        self, s: State, seat: Seat, responding: bool = False, helping: bool = False
    ) -> list[PlayCard]:
        """Cards ``seat`` may play now, from hand and face-up Cost Zone cards (R11), each
        with its possible targets; only those it can pay for."""
        r = s.romans[seat]
        sources = [(c, "hand") for c in dict.fromkeys(r.hand)]
        sources += [(c.card, "cost_zone") for c in dict.fromkeys(r.cost_zone) if c.face_up and not c.tapped]
        out: list[PlayCard] = []
        own_turn = not responding and seat == s.active and s.phase in ("cost", "defense", "main")
        for cid, source in dict.fromkeys(sources):
            card = self.card(cid)
            if helping:
                if card.type != "Defense":
                    continue
            elif not self._timing_ok(s, seat, card, responding, own_turn):
                continue
            spare = self.untapped(s, seat) - (1 if source == "cost_zone" else 0)
            if card.cost + self.fee_for(s, card) > spare:
                continue
            targets: list[int | None] = [None]
            if card.defends:
                targets = list(self._defendable(s, seat, own=True, max_cost=None))
                if not targets:
                    continue
            tos: list[Seat | None] = [None]
            if card.needs_ally and not self.solo(s):
                tos = list(self.teammates(s, seat))
            elif self._horse_ok(s, seat, card, responding):
                tos = [None, *self.teammates(s, seat)]
            for t in targets:
                for to in tos:
                    out.append(PlayCard(card=cid, source=source, target=t, to=to))
        return out

    def _timing_ok(self, s: State, seat: Seat, card: Card, responding: bool, own_turn: bool) -> bool:
        """When a card type may be played (the phases; RULINGS.md R11)."""
        if responding:
            return card.fast
        if not own_turn:
            return False
        if card.effects and all(e.do in ("counter", "shield") for e in card.effects):
            return False  # only an answer to an Ambush on the stack
        if card.type in ("Maneuver", "Encampment"):
            if s.phase == "main":
                return True
            return self.has(s, "speed") and not s.speed_used  # "at any time on your turn"
        if card.type == "Token":
            return s.phase == "main"
        if card.type == "Defense":
            return s.phase == "defense"
        return s.phase in ("defense", "main")  # Tactic

    def _horse_ok(self, s: State, seat: Seat, card: Card, responding: bool) -> bool:
        return (
            not responding
            and self.has(s, "brotherly-horse")
            and not s.horse_used
            and not self.solo(s)
            and any(
                e.beneficial
                for e in card.effects + card.if_boosted + tuple(e for c in card.choose for e in c)
            )
        )

    def _defendable(
        self, s: State, seat: Seat, helper: bool = False, own: bool = False, max_cost: int | None = None
    ) -> list[int]:
        """Undefended Ambushes ``seat`` may defend now, one per (card, target): its own, or
        any with Benevolence when helping (R7). ``own``: as the card's target (Defense
        cards); otherwise paid from the Cost Zone, so only those it can afford."""
        seen: set[tuple[str, int]] = set()
        out = []
        for a in s.ambushes:
            if a.defended or (a.card, a.target) in seen:
                continue
            mine = a.target == seat
            if not mine and not (helper and self.has(s, "benevolence")) and not own:
                continue
            if own and not mine:
                continue
            cost = self.ambush_cost(s, a.card)
            if max_cost is not None and cost > max_cost:
                continue
            if not own and cost > self.untapped(s, seat):
                continue
            seen.add((a.card, a.target))
            out.append(a.uid)
        return out

    def _rotations(self, s: State, seat: Seat) -> list[Rotate]:
        out = []
        seen = set()
        for f in s.romans[seat].field:
            key = (f.card, f.attached)
            if f.tapped or key in seen:
                continue
            seen.add(key)
            effects = self.card(f.card).rotate
            if any(e.do == "defend" for e in effects):
                if s.phase != "defense":
                    continue
                cap = next(e.max_cost for e in effects if e.do == "defend")
                out += [
                    Rotate(uid=f.uid, target=u) for u in self._defendable(s, seat, own=True, max_cost=cap)
                ]
            elif s.phase == "main":
                out.append(Rotate(uid=f.uid))
        return out

    def _assaultable(self, s: State, seat: Seat) -> list[int]:
        seen = set()
        out = []
        for e in s.encampments:
            if e.card in seen or self.hcard(e.card).defense > self.untapped(s, seat):
                continue
            seen.add(e.card)
            out.append(e.uid)
        return out

    def _usable(self, s: State) -> list[str]:
        out = []
        if self.has(s, "restoration") and "restoration" in s.charged and any(r.discard for r in s.romans):
            out.append("restoration")
        if self.has(s, "deliverance") and "deliverance" in s.charged and s.encampments:
            out.append("deliverance")
        return out

    def _unowned(self, s: State) -> list[str]:
        return [a for a in self.data.abilities if a not in s.abilities]

    def _buyable(self, s: State, seat: Seat) -> list[str]:
        if not s.level_abilities:
            return []
        spare = self.untapped(s, seat)
        return [a for a in self._unowned(s) if ABILITY_COST[self.data.abilities[a].tier] <= spare]

    def _payers(self, s: State, item: StackItem, boosts: Sequence[int]) -> tuple[Seat, ...]:
        """Seats that may pay at least one of ``boosts`` now: the card's player first,
        then the teammates in turn order (R14)."""
        order = [item.seat] + [x for x in s.turn_order if x != item.seat]
        probe = Pending(kind="boost", waiting=(), item=item.uid, boosts=tuple(boosts))
        return tuple(x for x in order if self._takeable(s, x, probe))

    def _takeable(self, s: State, seat: Seat, p: Pending) -> list[int]:
        item = next((i for i in s.stack if i.uid == p.item), None)
        if item is None:
            return []
        card = self.card(item.card)
        out = []
        for i in p.boosts:
            if i in item.taken:
                continue
            b = card.boosts[i]
            cost = self._boost_cost(s, item, b, seat)
            if cost is None or cost > self.untapped(s, seat):
                continue
            out.append(i)
        return out

    def _boost_cost(self, s: State, item: StackItem, b: Any, seat: Seat) -> int | None:
        """What ``seat`` pays for boost ``b`` of ``item``, or None if it may not pay: the
        glyph says who may pay; solo reads an ally boost as yours for the fee (R18)."""
        if b.payer == "self":
            return b.cost if seat == item.seat else None
        if b.payer == "ally":
            if self.solo(s):
                return b.cost + s.fee if seat == item.seat else None
            return b.cost if seat != item.seat else None
        return b.cost
