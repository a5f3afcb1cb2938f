"""Power Cards (Faction Power Cards): which cards a faction may play now, with which parameters, and playing one."""

from __future__ import annotations

from typing import Any

from games.core import (
    IllegalActionError,
    made_once,
)
from games.core.errors import list_words

from ..model import (
    PlayPower,
    State,
)
from ..queries import REVOLT_UNITS
from .context import _Ctx, effect

_play = made_once(PlayPower)
"""PlayPower shared by the legal actions of every state (a moving or recruiting card names
the same groups and territories over and over)."""

COALITION_PLAYABLE = frozenset(
    {
        "advanced-culture",
        "collect-tribute",
        "tithe",
        "roman-roads",
        "caravan",
        "missionary-journey",
        "legion-levy",
        "pentecost",
        "city-riot",
        "industry",
        # "in accordance with the card instructions" (RULINGS.md R14)
        "circus-maximus",
        "die-by-the-sword",
        "persecution",
        "gladiator-games",
        "high-priest-letter",
        "divine-messenger",
        "synagogue",
        "pharisee",
        # Durable and response cards, their "you" the Coalition (R14): Auxiliaries and Help
        # the Wounded in its Start Phase, Give to Caesar on its own dice, Gospel for a
        # Christian unit, Grace's reversal of a combat result, Promised Land's window
        "auxiliaries",
        "give-to-caesar",
        "gospel",
        "grace",
        "help-the-wounded",
        "promised-land",
    }
)
"""The Power Cards the Coalition may play from a salvage, its "you" the Coalition (RULINGS.md R14)."""

COALITION_LACKS = {
    "conscription": "a Captured Unit Area",
    "enrapture": "Objective Cards to claim",
    "giving": "a Power Card deck to draw from",
}
"""The salvaged cards whose text names what the Coalition has not got (RULINGS.md R14)."""

MOVE_CARDS = {"roman-roads": 4, "caravan": 3, "missionary-journey": 4}
"""The Power Cards that move units, with their movement points (Roman Roads, Caravan, Missionary Journey)."""

RECRUIT_CARDS = {"legion-levy": 3, "pentecost": 3}
"""The Power Cards that recruit units, with how many at most (Legion Levy, Pentecost)."""


def power_plays(game: Any, s: State, f: str, phase: str) -> list[PlayPower]:
    """Power Cards ``f`` may play now, with their natural choices (the notation
    accepts any legal choice)."""
    if s.second_turn or s.power_played >= s.power_limit:
        return []
    out: list[PlayPower] = []
    for c in game.distinct(s.factions[f].hand):
        card = game.data.card(c)
        if phase not in card.phases:
            continue
        if f == "coalition" and card.id not in COALITION_PLAYABLE:
            continue
        out += game._card_options(s, f, c)
    return out


def durable_uses(game: Any, s: State, f: str) -> list[Any]:
    """Start Phase uses of ``f``'s Durable cards: Auxiliaries (Rome, or the Coalition
    with a salvaged copy) and Help the Wounded (the Christians, or the Coalition)."""
    out: list[Any] = []
    if game.durable(s, f, "auxiliaries") and not s.auxiliaries_used:
        card = next(c for c in s.factions[f].durable if c.split("#")[0] == "auxiliaries")
        out += [PlayPower(card=card, territories=p) for p in game._aux_options(s, f)]
    if game.durable(s, f, "help-the-wounded"):
        for g in sorted(game.present(s) - {f} - set(s.help_moved)):
            out += game._shift_options(s, g)
    return out


def aux_due(game: Any, s: State, f: str) -> int:
    """How many units ``f``'s Auxiliaries must still place this Start Phase: "take 2 units from
    supply and place them anywhere in the Roman Empire" (not on an Objective Point Marker),
    fewer only when the supply or the room there is short; 0 once placed."""
    if not game.durable(s, f, "auxiliaries") or s.auxiliaries_used:
        return 0
    room = sum(min(2, game.room(s, t, f)) for t in game._aux_spots(s))
    return min(2, s.factions[f].supply, room)


def aux_spots(game: Any, s: State) -> list[str]:
    """The territories Auxiliaries may place in: the Roman Empire, without a marker."""
    return [t for t in game.data.territories if game.data.in_empire(t) and game.marker_at(s, t) is None]


def aux_options(game: Any, s: State, f: str) -> list[tuple[str, ...]]:
    """Auxiliaries' Start Phase placements: its units (2, or what the supply holds) into one
    territory with room; into two when none has room for both (the notation takes any split)."""
    k = game._aux_due(s, f)
    if k <= 0:
        return []
    spots = game._aux_spots(s)
    out = [(t,) * k for t in spots if game.room(s, t, f) >= k]
    if not out:
        free = [t for t in spots if game.room(s, t, f) > 0]
        out = [(t, u) for i, t in enumerate(free) for u in free[i + 1 :]][:40]
    return out


def pieces(game: Any, s: State, faction: str, k: int) -> tuple[str, ...]:
    """``k`` units of ``faction`` from its largest stacks, as "territory/faction"."""
    out: list[str] = []
    for t in sorted(game.territories_of(s, faction), key=lambda t: (-game.units(s, t, faction), t)):
        n = min(game.units(s, t, faction), k - len(out))
        out += [f"{t}/{faction}"] * n
        if len(out) >= k:
            break
    return tuple(out)


def card_options(game: Any, s: State, f: str, c: str) -> list[PlayPower]:
    """The ways faction ``f`` may play Power Card ``c`` now, with its parameters (the card's
    text; RULINGS.md R12: the lists hold some of the choices, the notation reads any)."""
    cid = game.data.card(c).id
    found = dice_and_unit_card_options(game, s, f, c, cid)
    return found if found is not None else other_card_options(game, s, f, c, cid)


def dice_and_unit_card_options(game: Any, s: State, f: str, c: str, cid: str) -> list[PlayPower] | None:
    """The options of the cards that set dice, move, recruit or remove units (None for another card)."""
    fs = s.factions[f]
    unspent = [d for d in fs.dice if d.place == "unspent"]
    if cid == "advanced-culture":
        k = min(3, len(unspent))
        return [PlayPower(card=c, values=(v,) * k) for v in range(1, 7)] if k else []
    if cid == "tithe":
        vals = sorted({d.value for d in unspent if d.value < 6})
        return [PlayPower(card=c, values=(v,)) for v in vals]
    if cid == "collect-tribute":
        return [PlayPower(card=c)]
    if cid in MOVE_CARDS:
        mover = f
        return [_play(card=c, paths=(p,)) for p in game._move_options(s, mover, MOVE_CARDS[cid])]
    if cid in RECRUIT_CARDS:
        if fs.supply <= 0:
            return []
        spots, _ = game.recruit_spots(s, f)
        return [
            _play(card=c, territories=(t,) * k)
            for t in spots
            for k in range(1, min(3, fs.supply, game.room(s, t, f)) + 1)
        ]
    if cid == "circus-maximus":
        out = []
        for g in sorted(game.present(s) - {"rome"}):
            pieces = game._pieces(s, g, 1 if g == "christians" else 4)
            if pieces:
                out.append(PlayPower(card=c, territories=pieces))
        return out
    if cid == "die-by-the-sword":
        out = []
        for t in game.territories_of(s, "rome"):
            k = min(3, game.units(s, t, "rome") - 1)
            if k <= 0:
                continue
            for g in sorted(game.present(s) - {f}):  # the Coalition may name Roman units (R14)
                pieces = game._pieces(s, g, k)
                if g == "rome":  # the Roman units left in that territory are not offered again
                    pieces = tuple(p for p in game._pieces(s, g, k + game.units(s, t, g)) if p != f"{t}/rome")[:k]
                if pieces:
                    out.append(PlayPower(card=c, territory=t, territories=pieces))
        return out
    if cid == "persecution":
        ts = [t for t in game.territories_of(s, "christians") if game.units(s, t, "rome") > 0]
        return [PlayPower(card=c, territories=tuple(ts[:3]))] if ts else []
    if cid == "gladiator-games":
        out = []
        for t in game.territories_of(s, f):
            others = sorted(game.occupants(s, t) - {"rome", f}) if game.units(s, t, f) >= 3 else []
            # up to 2 of one faction; 1 unit only; 1 each of two factions
            out += [PlayPower(card=c, territory=t, target=g) for g in others]
            out += [PlayPower(card=c, territories=(f"{t}/{g}",)) for g in others if game.units(s, t, g) >= 2]
            out += [
                PlayPower(card=c, territories=(f"{t}/{g}", f"{t}/{h}"))
                for i, g in enumerate(others)
                for h in others[i + 1 :]
            ]
        return out
    return None


def other_card_options(game: Any, s: State, f: str, c: str, cid: str) -> list[PlayPower]:
    """The options of the other cards: played alone, on a territory or on a faction."""
    fs = s.factions[f]
    if cid in (
        "auxiliaries",
        "conscription",
        "crucify",
        "give-to-caesar",
        "pharisee",
        "synagogue",
        "enrapture",
        "grace",
        "help-the-wounded",
    ):
        return [PlayPower(card=c)]
    if cid == "high-priest-letter":
        ok = any(
            game.units(s, t, "christians") and game.side_units(s, t, "jews")
            for t in game.data.region_territories("blue")
        )
        return [PlayPower(card=c)] if ok else []
    if cid == "industry":
        return [PlayPower(card=c)] if f != "coalition" or fs.hand else []
    if game.data.card(c).revolt:
        if s.factions["gray"].supply <= 0:
            return []
        return [PlayPower(card=c, territory=t) for t in game._revolt_spots(s, cid)]
    if cid == "city-riot":
        return [
            PlayPower(card=c, territory=t)
            for t in game.territories_of(s, f)
            if game.occupants(s, t) - {f}
        ]
    if cid == "divine-messenger":
        return [PlayPower(card=c)]
    if cid == "giving":
        return [
            PlayPower(card=c, target=g)
            for g in s.factions
            if g not in (f, "gray") and any(d.place == "unspent" for d in s.factions[g].dice)
        ]
    if cid == "gospel":
        return [
            PlayPower(card=c, target=g)
            for g in sorted(set(s.factions) - {f})
            if s.factions[g].supply > 0
        ]
    if cid == "holy-spirit":
        return holy_spirit_options(game, s, c)
    return []


def revolt_spots(game: Any, s: State, cid: str) -> list[str]:
    """Where a Jewish Revolt card places its Gray units (Merchant: coastal territories of the
    Empire; Peasant: next to the red region; Jewish: the blue region), without a marker, with room for
    its units (RULINGS.md R13)."""
    d = game.data
    if cid == "merchant-revolt":
        spots = [t for t in d.territories if d.territories[t].coastal and d.in_empire(t)]
    elif cid == "peasant-revolt":
        red = set(d.region_territories("red"))
        spots = [t for t in d.territories if t not in red and any(u in red for u in d.adjacent[t])]
    else:
        spots = list(d.region_territories("blue"))
    # "Place 5 Gray Faction units": where they fit (6 Gray at most), fewer only if the supply is short
    k = min(REVOLT_UNITS, s.factions["gray"].supply)
    return [t for t in spots if game.marker_at(s, t) is None and game.room(s, t, "gray") >= k]


def play_power(game: Any, ctx: _Ctx, f: str, a: PlayPower, phase: str) -> None:
    """Play a Power Card (Faction Power Cards: 1 a turn; none on a Divine Messenger
    turn), or use a Durable card's Start Phase effect. Raises IllegalActionError."""
    s = ctx.s
    fs = s.factions[f]
    ctx.update(acted=True)
    cid = game.data.card(a.card).id if a.card.split("#")[0] in game.data.power else None
    if cid == "auxiliaries" and a.card in fs.durable:
        if phase != "start" or s.auxiliaries_used:
            raise IllegalActionError("Auxiliaries places 2 units once, in your Start Phase.")
        game._auxiliaries(ctx, f, a)
        return
    if a.card not in fs.hand:
        raise IllegalActionError(
            "Play a Power Card from your hand: " + list_words([game.card_name(c) for c in fs.hand]) + "."
        )
    card = game.data.card(a.card)
    if phase not in card.phases:
        raise IllegalActionError(
            f"{card.name} is played in the {'/'.join(p.title() for p in card.phases)} phase, not now."
        )
    if s.second_turn:
        raise IllegalActionError("Divine Messenger: no Power Card on the second turn.")
    if s.power_played >= s.power_limit:
        raise IllegalActionError("You may play only 1 Power Card a turn.")
    if f == "coalition" and card.id not in COALITION_PLAYABLE:
        lacks = COALITION_LACKS.get(card.id, "what the card needs")
        raise IllegalActionError(
            f"The Coalition cannot play {card.name}: its text needs {lacks}, which the Coalition "
            "has not got (RULINGS.md R14); it stays in your hand until discarded."
        )
    hand = list(fs.hand)
    hand.remove(a.card)
    ctx.set_f(f, hand=tuple(hand))
    ctx.update(power_played=ctx.s.power_played + 1)
    ctx.note(f"{game.fname(f)} played {card.name}.")
    effect[card.id](game, ctx, f, a)
    if card.duration == "durable":
        ctx.set_f(f, durable=ctx.f(f).durable + (a.card,))
    else:
        game._to_discard(ctx, a.card)


def holy_spirit_options(game: Any, s: State, c: str) -> list[PlayPower]:
    """Holy Spirit with the faction converted named in each territory ("your choice of
    faction"): the largest faction everywhere, and each other choice in one territory (the
    notation takes any combination)."""
    places = game._holy_spirit_places(s)[: s.factions["christians"].supply]
    if not places:
        return []
    base = [f"{t}/{game._holy_spirit_default(s, t)}" for t in places]
    out = [PlayPower(card=c, territories=tuple(base))]
    for k, t in enumerate(places):
        for g in sorted(game.occupants(s, t) - {"christians"}):
            if f"{t}/{g}" != base[k]:
                out.append(PlayPower(card=c, territories=tuple(base[:k] + [f"{t}/{g}"] + base[k + 1 :])))
    return out
