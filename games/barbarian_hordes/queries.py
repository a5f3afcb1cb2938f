"""Barbarian Hordes' queries: what the data and a State say, changing nothing (rule text:
shared/seeds/004; rulings: RULINGS.md). The game object inherits :class:`Queries`; the
notation, the agent, the rules and the stages read the table through it."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cached_property
from typing import Any

from games.core import ActionSpace, Seat

from .data import Card, Data
from .model import Block, Contribution, Fight, Pass, PlayCard, State, Support

VICTORY_TERRITORIES = 10  # VICTORY
START_TERRITORIES = 5  # SETUP
START_ARMIES = 10  # SETUP
START_CARDS = 5  # SETUP
HAND_LIMIT = 8  # END PHASE
SKILLED_HAND_LIMIT = 10  # Western Roman Empire: Skilled
SKILLED_FORCE = 2  # Western Roman Empire: Plus Force cards provide +2
BERSERK_FORCE = 3  # Visigoths: sacrifice an Army Token to get Force +3
D_CARDS = 3  # D = Draw 3 cards


class Queries:
    """Table queries on ``self.data`` (the game's data) and a State."""

    data: Data

    # ------------------------------------------------------------------ cards

    @cached_property
    def s_card_ids(self) -> frozenset[str]:
        """The ids of the S cards (look at an opponent's hand; RULINGS R12)."""
        return frozenset(c.id for c in self.data.cards.values() if c.has("S"))

    def card(self, card_id: str) -> Card:
        """The card ``card_id`` of the data (KeyError for an unknown id)."""
        return self.data.cards[card_id]

    def card_ok(self, card_id: str) -> bool:
        """Whether ``card_id`` is a card of the game."""
        return card_id in self.data.cards

    def names(self, cards: Sequence[str]) -> tuple[str, ...]:
        """The display names of ``cards``, in order."""
        return tuple(self.card(c).display for c in cards)

    def event_card(self, s: State, seat: Seat, card: Card) -> bool:
        """Cards the active player may play in its own Event Phase (G, D, V, Q; RULINGS R8-R10)."""
        if card.has("X") or card.has("C") or card.has("K") or card.has("Y"):
            return False
        if card.has("V"):
            return s.players[seat].wins > 0
        return any(card.has(code) for code in "GDQ")

    @staticmethod
    def opponent_card(card: Card) -> bool:
        """Cards played on an opponent's turn, in its Event Phase (X, XG, P, I; RULINGS R6)."""
        return any(card.has(code) for code in "XPI")

    # ------------------------------------------------------------------ nations and seats

    def nation_name(self, s: State, seat: Seat) -> str:
        """The nation ``seat`` plays ("Huns"), or "Seat N" before it has one."""
        nation = s.players[seat].nation
        return self.data.nation(nation).name if nation else f"Seat {seat + 1}"

    def the_nation(self, s: State, seat: Seat) -> str:
        """The nation ``seat`` plays as a sentence names it: "the Huns", "the Suebi", but "Rome"
        and "Attila the Hun" (the Three Player Variant; ``article = false``) and "Seat N"."""
        nation = s.players[seat].nation
        if not nation:
            return f"Seat {seat + 1}"
        n = self.data.nation(nation)
        return f"the {n.name}" if n.article else n.name

    def seat_name(self, s: State, seat: Seat) -> str | None:
        """The nation ``seat`` plays, or None before it has picked one."""
        nation = s.players[seat].nation
        return self.data.nation(nation).name if nation else None

    def possessive(self, s: State, seat: Seat) -> str:
        """ "Huns'", "Western Roman Empire's"."""
        name = self.nation_name(s, seat)
        return name + ("'" if name.endswith("s") else "'s")

    def abilities(self, s: State, seat: Seat) -> tuple[str, ...]:
        """The nation abilities of ``seat`` while it is in the game (THE NATIONS)."""
        p = s.players[seat]
        return self.data.nation(p.nation).abilities if p.nation and p.status == "in" else ()

    def hand_limit(self, s: State, seat: Seat) -> int:
        """END PHASE: 8 cards; 10 for Skilled."""
        return SKILLED_HAND_LIMIT if "skilled" in self.abilities(s, seat) else HAND_LIMIT

    def living(self, s: State) -> tuple[Seat, ...]:
        """Seats in play, in turn order."""
        return tuple(x for x in s.turn_order if s.players[x].status == "in")

    def others(self, s: State, seat: Seat) -> tuple[Seat, ...]:
        """The seats in play other than ``seat``, in turn order."""
        return tuple(x for x in self.living(s) if x != seat)

    def drafter(self, s: State) -> Seat:
        """THE NATIONS: the first seat in turn order without a nation picks next."""
        return next(x for x in s.turn_order if s.players[x].nation is None)

    def neighbours(self, s: State, seat: Seat) -> tuple[Seat, ...]:
        """(left, right) neighbours in the seating circle; one seat when only two sit."""
        ring = s.seating
        if seat not in ring or len(ring) < 2:
            return ()
        i = ring.index(seat)
        left, right = ring[(i + 1) % len(ring)], ring[i - 1]
        return (left,) if left == right else (left, right)

    def attack_targets(self, s: State) -> tuple[Seat, ...]:
        """Neighbours the active player may attack now (CONQUEST PHASE; P and I cards)."""
        if s.attack_forbidden or s.conquests_left <= 0:
            return ()
        return tuple(t for t in self.neighbours(s, s.active) if t not in s.protected)

    def seat_moves(self, s: State, seat: Seat) -> list[tuple[Seat, Seat]]:
        """Every (left, right) pair of neighbours ``seat`` could move between, changing
        who its neighbours are (RULINGS.md R3)."""
        others = [x for x in s.seating if x != seat]
        if len(others) < 3:
            return []
        current = set(self.neighbours(s, seat))
        moves = []
        for i, right in enumerate(others):
            left = others[(i + 1) % len(others)]
            if {left, right} != current:
                moves.append((left, right))
        return moves

    def nation_pool(self, s: State, reentry: bool) -> list[str]:
        """Nations that may be picked now. Draft: the highest tier with a nation left
        (THE NATIONS). Re-entry: any nation not yet played (DEFEAT; RULINGS.md R13)."""
        played = set(s.nations_played)
        if s.variant == "three-player" and not reentry:
            return [n for n in self.data.variant_nations if n not in played]
        if s.variant == "three-player":
            taken = {a for n in self.data.variant_nations.values() for a in n.abilities}
            return [
                n.id
                for n in self.data.nations.values()
                if n.id not in played and not set(n.abilities) & taken
            ]
        free = [n for n in self.data.nations.values() if n.id not in played]
        if reentry or not free:
            return [n.id for n in free]
        tier = min(n.tier for n in free)
        return [n.id for n in free if n.tier == tier]

    # ------------------------------------------------------------------ plays and wars

    def s_plays(self, s: State, seat: Seat) -> list[PlayCard]:
        """S cards: look at an opponent's hand, whenever you are asked to act (R12)."""
        return [
            PlayCard(card=c, target=t)
            for c in s.players[seat].hand
            if self.card(c).has("S")
            for t in self.others(s, seat)
        ]

    def war_cards(self, s: State, seat: Seat, side: Seat) -> list[str]:
        """Cards ``seat`` may commit for ``side``, fighting or as an ally ("Other players may
        send the combatants Armies and Cards"): C (and LC) cards and Y cards, DO only for the
        defending side, AO only for the attacking side (RULINGS R5)."""
        war = s.war
        out = []
        for c in s.players[seat].hand:
            card = self.card(c)
            if not (card.has("C") or card.has("Y")):
                continue
            if card.only == "DO" and side != war.defender:
                continue
            if card.only == "AO" and side != war.attacker:
                continue
            out.append(c)
        return out

    def blocks(self, s: State, seat: Seat) -> list[str]:
        """Cards ``seat`` may block the war with: I cards (anyone but the attacker), P
        cards (the defender; CONQUEST PHASE, Card List Notation)."""
        war = s.war
        if seat == war.attacker:
            return []
        out = []
        for c in s.players[seat].hand:
            card = self.card(c)
            if card.has("I") or (card.has("P") and seat == war.defender):
                out.append(c)
        return out

    def revealed_leaders(self, s: State) -> list[tuple[str, Seat]]:
        """Leader cards revealed in the war not yet negated: (card, owner) (RULINGS R7)."""
        out = []
        for c in s.war.contributions:
            for card in c.cards + ((c.block,) if c.block else ()):
                if self.card(card).is_leader and card not in s.war.negated:
                    out.append((card, c.seat))
        return out

    def force(self, s: State, contrib: Contribution) -> int:
        """Force bonus of a contribution's cards: F+n each, +2 each for Skilled (RULINGS R5)."""
        skilled = "skilled" in self.abilities(s, contrib.seat)
        total = 0
        for c in contrib.cards:
            card = self.card(c)
            if card.force and c not in s.war.negated:
                total += card.force + (SKILLED_FORCE if skilled else 0)
        return total

    def war_space(self, s: State, seat: Seat) -> ActionSpace:
        """Every commitment ``seat`` may make to the war (CONQUEST PHASE): fight with a
        subset of its war cards (and a Berserkers' sacrifice), support a side with Army
        Tokens and cards, block, look at a hand (S), or pass; in the negate step, negate
        a revealed Leader card with a K card (RULINGS R5, R7, R12)."""
        war = s.war
        p = s.players[seat]
        if war.stage == "negate":
            leaders = self.revealed_leaders(s)
            ks = [c for c in p.hand if self.card(c).has("K")]
            return ActionSpace(
                [Pass()],
                [PlayCard(card=k, negate=ld) for k in ks for ld, owner in leaders if owner != seat],
                self.s_plays(s, seat),
            )
        blocks: list[Any] = [Block(card=c) for c in self.blocks(s, seat)]
        # S "play anytime": also while the commitments are made (committed cards stay in
        # the hand until the reveal, so a hand seen then shows nothing of them; R12)
        blocks += self.s_plays(s, seat)
        if seat in (war.attacker, war.defender):
            cards = self.war_cards(s, seat, seat)
            can_sac = "berserkers" in self.abilities(s, seat) and p.armies > 0
            n_sub = 1 << len(cards)
            mult = 2 if can_sac else 1

            def fight(i: int) -> Fight:
                sub, sac = divmod(i, mult)
                return Fight(cards=tuple(c for b, c in enumerate(cards) if sub >> b & 1), sacrifice=bool(sac))

            return ActionSpace((n_sub * mult, fight), blocks)
        parts: list[Any] = [[Pass()], blocks]
        for side in (war.attacker, war.defender):
            cards = self.war_cards(s, seat, side)
            n_sub = 1 << len(cards)
            per = n_sub * (p.armies + 1) - 1  # not (0 armies, no cards)

            def support(i: int, side: Seat = side, cards: list[str] = cards, n_sub: int = n_sub) -> Support:
                armies, sub = divmod(i + 1, n_sub)
                return Support(
                    side=side, armies=armies, cards=tuple(c for b, c in enumerate(cards) if sub >> b & 1)
                )

            parts.append((per, support))
        return ActionSpace(*parts)

    def commit_text(self, s: State, seat: Seat) -> str:
        """The secret question of a war's commitments for ``seat`` (CONQUEST PHASE)."""
        war = s.war
        a, d = self.nation_name(s, war.attacker), self.nation_name(s, war.defender)
        if seat == war.attacker:
            return f"War on {d}: commit Force, Leader and Y cards in secret (or fight with none)."
        # The prompt is shown to the other seats too (who is asked what), so it cannot depend on
        # the hand: a block is named as open only to a holder of a P or I card (Card List Notation).
        if seat == war.defender:
            return (
                f"{a} declared war on you: commit Force, Leader and Y cards in secret (or fight with none);"
                " if you hold a P or I card, you may block the attack with it."
            )
        return (
            f"War: {a} against {d}. Support a side with Army Tokens and cards, or pass;"
            " if you hold an I card, you may block the attack with it."
        )
