"""Helpers for the Roman War tests: build states directly, a rng that keeps order, and
the conformance test's "reshuffle hidden" function for Roman War."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from games.core import Rng
from games.roman_war.game import GAME
from games.roman_war.model import (
    ActiveAmbush,
    CostCard,
    FieldCard,
    HannibalEncampment,
    Roman,
    State,
)


class Fixed(Rng):
    """An Rng whose shuffles keep order, ``below`` picks 0 and samples take the first k."""

    def __init__(self) -> None:
        super().__init__(0, 0)

    def shuffle(self, items):
        return tuple(items)

    def below(self, n: int) -> int:
        return 0

    def sample(self, items, k):
        return tuple(items)[:k]


def cid(name: str) -> str:
    """A card id from its name (Roman or Hannibal card)."""
    for c in list(GAME.data.cards.values()) + list(GAME.data.hannibal.values()):
        if c.name == name or c.id == name:
            return c.id
    raise KeyError(name)


def roman(
    deck_id: str = "fabius",
    *,
    hand: Sequence[str] = (),
    deck: Sequence[str] | None = None,
    cost: int = 0,
    tapped: int = 0,
    face_up: Sequence[str] = (),
    field: Sequence[str] = (),
    power: int = 3,
    maneuver: int = 0,
    discard: Sequence[str] = (),
    uid0: int = 900,
) -> Roman:
    """A Roman with ``cost`` untapped face-down Cost Zone cards (Levy), ``tapped`` tapped
    ones, ``face_up`` untapped face-up cards, and field cards by name."""
    cz = [CostCard(card="levy") for _ in range(cost)] + [
        CostCard(card="levy", tapped=True) for _ in range(tapped)
    ]
    cz += [CostCard(card=cid(n), face_up=True) for n in face_up]
    deck_ids = tuple(cid(c) for c in deck) if deck is not None else tuple(["march"] * 20)
    return Roman(
        deck_id=deck_id,
        commander=GAME.data.decks[deck_id].commander,
        deck=deck_ids,
        hand=tuple(cid(c) for c in hand),
        discard=tuple(cid(c) for c in discard),
        cost_zone=tuple(cz),
        field=tuple(FieldCard(uid=uid0 + i, card=cid(n)) for i, n in enumerate(field)),
        power=power,
        maneuver=maneuver,
    )


def make_state(
    romans: Sequence[Roman],
    *,
    phase: str = "main",
    active: int = 0,
    round: int = 1,
    ambushes: Sequence[str] = (),
    encampments: Sequence[str] = (),
    hannibal_deck: Sequence[str] | None = None,
    abilities: Sequence[str] = (),
    charged: Sequence[str] = (),
    fee: int = 1,
    mode: str = "coop",
    **extra: Any,
) -> State:
    """A state with the given Romans, ``active`` to act in ``phase``; Ambushes (at the
    active Roman) and Hannibal's Encampments by name, uids 1, 2, ... in that order."""
    amb = tuple(ActiveAmbush(uid=i + 1, card=cid(n), target=active) for i, n in enumerate(ambushes))
    k = len(amb)
    enc = tuple(HannibalEncampment(uid=k + i + 1, card=cid(n)) for i, n in enumerate(encampments))
    hdeck = (
        tuple(cid(c) for c in hannibal_deck)
        if hannibal_deck is not None
        else tuple(["balearic-slingers"] * 20)
    )
    n = len(romans)
    return State(
        mode=mode,
        romans=tuple(romans),
        hannibal_seat=n if mode == "duel" else None,
        turn_order=tuple(range(n)),
        turn=active,
        round=round,
        phase=phase,
        hannibal_deck=hdeck,
        ambushes=amb,
        encampments=enc,
        next_uid=100,
        abilities=tuple(abilities),
        charged=tuple(charged),
        fee=fee,
        **extra,
    )


def act(s: State, seat: int, text: str) -> State:
    """Parse ``text`` for ``seat`` and apply it with the order-keeping rng."""
    return GAME.apply(s, seat, GAME.parse_action(s, seat, text), Fixed()).state


def act_events(s: State, seat: int, text: str):
    return GAME.apply(s, seat, GAME.parse_action(s, seat, text), Fixed())


def names(cards: Sequence[str]) -> list[str]:
    return [GAME.name(c) for c in cards]


def reshuffle_roman_war(game: Any, s: Any, rnd: random.Random, keep: int | None) -> Any:
    """Redistribute each other Roman's hidden cards (hand, deck, face-down Cost Zone cards;
    sizes, positions and rotation kept) among those places, shuffle ``keep``'s own deck,
    and shuffle the unrevealed part of the Hannibal deck (with Hannibal's hand in a duel
    unless ``keep`` is the Hannibal seat)."""
    romans = []
    for x, r in enumerate(s.romans):
        if x == keep:
            deck = list(r.deck)
            rnd.shuffle(deck)
            romans.append(r.model_copy(update={"deck": tuple(deck)}))
            continue
        down = [i for i, c in enumerate(r.cost_zone) if not c.face_up]
        pool = list(r.hand) + list(r.deck) + [r.cost_zone[i].card for i in down]
        rnd.shuffle(pool)
        hand, pool = pool[: len(r.hand)], pool[len(r.hand) :]
        deck, pool = pool[: len(r.deck)], pool[len(r.deck) :]
        cz = list(r.cost_zone)
        for i, card in zip(down, pool, strict=True):
            cz[i] = cz[i].model_copy(update={"card": card})
        romans.append(r.model_copy(update={"hand": tuple(hand), "deck": tuple(deck), "cost_zone": tuple(cz)}))
    top, rest = list(s.hannibal_deck[: s.known]), list(s.hannibal_deck[s.known :])
    hand = list(s.hannibal_hand)
    hidden_hand = s.hannibal_seat is not None and keep != s.hannibal_seat
    pool = rest + (hand if hidden_hand else [])
    rnd.shuffle(pool)
    update: dict[str, Any] = {"romans": tuple(romans), "hannibal_deck": tuple(top + pool[: len(rest)])}
    if hidden_hand:
        update["hannibal_hand"] = tuple(pool[len(rest) :])
    return s.model_copy(update=update)


def test_reshuffle_keeps_public_counts():
    """The reshuffle moves hidden cards only: the spectator view is unchanged."""
    from games.core import start

    s = start(GAME, [0, 1, 2], GAME.Options(), 11).state
    r = reshuffle_roman_war(GAME, s, random.Random(1), None)
    assert r != s
    assert GAME.view(r, None) == GAME.view(s, None)
    kept = reshuffle_roman_war(GAME, s, random.Random(2), 1)
    assert GAME.view(kept, 1) == GAME.view(s, 1)
