"""Credo conservation invariants (rule text: "Components", "Set-up", "Removed from the game").

"120 Church cards (blue): 68 Followers, 45 Bishops (including 5 Patriarchs), 7 Laity",
the Event/Article cards and the 18 boxes of the central gameboard: every card is in
exactly one place (an Article covering two boxes, 3&4, counts once): a box of the board (the Church Cards box and its discard, the
Event/Article box and its discard, the two permanent discards, the Patriarchs box,
the Emperor Out-Of-Play box), a Church (its Church cards, its hand, its mat, the
Evangelisation of the Goths kept in front of it), the Definitive Creed, on top of an
exiled Bishop (Exile cards), beside the Emperors (invading Goths), the card being
handled (``drawn``), the Article a Church Father is teaching until its Church
makes room for it, an Event card waiting on its player's choice (Evangelisation of
the Goths, R23), or removed from the game (Odoacer).
"""

from __future__ import annotations

from itertools import chain
from typing import Any

from games.core.invariants import ledger


def _cards(boxes: tuple[str | None, ...]) -> tuple[str, ...]:
    """The cards on a row of boxes: an Article numbered for two boxes (3&4) fills both
    and is one card."""
    return tuple(dict.fromkeys(c for c in boxes if c is not None))


def places(s: Any) -> dict[str, tuple[str, ...]]:
    """Where the cards are: place name -> card ids."""
    out: dict[str, tuple[str, ...]] = {
        "Church Cards box": s.church_deck,
        "Church Card Discard box": s.church_discard,
        "Event/Article box": s.event_deck,
        "Event/Article Discard box": s.event_discard,
        "Event Card Permanent Discard box": s.event_permanent,
        "Article Card Permanent Discard box": s.article_permanent,
        "Patriarchs box": s.patriarch_box,
        "Emperor Out-Of-Play box": s.emperor_out,
        "removed from the game": s.removed,
        "Definitive Creed": _cards(s.creed),
        "on exiled Bishops": tuple(e for _, e in s.exiled),
        "invading Goths": s.goths,
        "being handled": (s.drawn,) if s.drawn is not None else (),
        "being taught": tuple(t.article for t in s.tasks if t.kind == "replace" and t.article),
        "waiting on its player's choice": tuple(t.card for t in s.tasks if t.card is not None),
    }
    for x, p in enumerate(s.players):
        who = f"Church {x + 1}"
        out[f"{who}'s Church cards"] = p.church
        out[f"{who}'s hand"] = p.hand
        out[f"{who}'s mat"] = _cards(p.mat)
        out[f"{who}'s Evangelisation"] = p.evangelised
    return out


def check(game: Any, s: Any) -> list[str]:
    """The violations in ``s`` (empty when sound); see the module docstring."""
    d = game.data
    return ledger("card", chain(d.church, d.articles, d.events), places(s))


def fuzz_variants(game: Any, players: int) -> list[dict[str, Any]]:
    """The option sets the fuzz covers: the whole game with every Church asked in each
    response window, and with ``ask_all`` off (RULINGS.md R21), each also ended by the
    round-limit house rule (RULINGS.md R19)."""
    return [{}, {"ask_all": False}, {"round_limit": 4}, {"round_limit": 4, "ask_all": False}]
