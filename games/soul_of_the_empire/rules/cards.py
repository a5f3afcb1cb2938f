"""The Power Cards' effects, one per card id, registered with ``@effect`` (tests/test_card_effects.py: every card id has exactly one)."""

from __future__ import annotations

from typing import Any

from games.core import (
    IllegalActionError,
)
from games.core.english import count
from games.core.errors import list_words

from ..model import (
    Die,
    Giving,
    PlayPower,
    Revolt,
    Shift,
    Tribute,
)
from ..queries import (
    HAND_LIMIT,
    REVOLT_UNITS,
    UNIT_LIMIT,
)
from .context import _Ctx, effect
from .powers import MOVE_CARDS


@effect("advanced-culture")
def card_advanced_culture(game: Any, ctx: _Ctx, f: str, a: PlayPower) -> None:
    """Advanced Culture: "You may choose the values of up to 3 Unspent Dice." The player
    names which dice (``a.dice``) take which values; without dice named, the lowest
    Unspent dice take them."""
    dice = ctx.f(f).dice
    unspent = [i for i, d in enumerate(dice) if d.place == "unspent"]
    order = sorted(unspent, key=lambda i: (dice[i].value, i))
    if not 1 <= len(a.values) <= min(3, len(order)) or any(not 1 <= v <= 6 for v in a.values):
        raise IllegalActionError(
            "Advanced Culture: name up to 3 values (1-6), for your lowest Unspent dice (play Advanced "
            "Culture: 6 6) or for the dice you choose (play Advanced Culture: 2 to 6, 3 outside to 5)."
        )
    if a.dice:
        if len(a.dice) != len(a.values) or len(set(a.dice)) != len(a.dice) or set(a.dice) - set(unspent):
            raise IllegalActionError(
                "Advanced Culture: name each Unspent die once with its new value; your Unspent dice: "
                + ", ".join(f"{dice[i].value}{'' if dice[i].seq else ' outside'}" for i in order)
                + "."
            )
        order = list(a.dice)
    for i, v in zip(order, a.values, strict=False):
        ctx.set_die(f, i, value=v)
    ctx.note("Advanced Culture sets dice to " + ", ".join(map(str, a.values)) + ".")


@effect("tithe")
def card_tithe(game: Any, ctx: _Ctx, f: str, a: PlayPower) -> None:
    """Tithe: one Unspent die of the value named becomes a 6."""
    dice = ctx.f(f).dice
    cand = [i for i, d in enumerate(dice) if d.place == "unspent" and a.values and d.value == a.values[0]]
    if len(a.values) != 1 or not cand:
        raise IllegalActionError("Tithe: name the value of the Unspent die to raise to 6.")
    i = max(cand, key=lambda i: (dice[i].seq, -i))
    ctx.set_die(f, i, value=6)
    ctx.note(f"Tithe raises a {a.values[0]} to 6.")


@effect("collect-tribute")
def card_collect_tribute(game: Any, ctx: _Ctx, f: str, a: PlayPower) -> None:
    """Each other faction, in play order, lowers an Unspent die of its choice by 1 pip
    (with only 1s, moves a 1 to Spent); then the player raises its Unspent dice by as
    many pips, one at a time (RULINGS.md R15)."""
    ctx.update(tribute=Tribute(player=f, waiting=tuple(g for g in ctx.s.order if g != f)))
    game._tribute_next(ctx)


def card_move(game: Any, ctx: _Ctx, f: str, a: PlayPower, points: int) -> None:
    """The moving cards: ``points`` movement points along the routes named, then the windows a move
    opens (Moving Units)."""
    game._do_paths(ctx, f, a.paths, points)
    game._after_move(ctx, f, a.paths)


@effect("roman-roads")
def card_roman_roads(game: Any, ctx: _Ctx, f: str, a: PlayPower) -> None:
    """Roman Roads: a move of 4 movement points."""
    game._card_move(ctx, f, a, MOVE_CARDS["roman-roads"])


@effect("caravan")
def card_caravan(game: Any, ctx: _Ctx, f: str, a: PlayPower) -> None:
    """Caravan: a move of 3 movement points."""
    game._card_move(ctx, f, a, MOVE_CARDS["caravan"])


@effect("missionary-journey")
def card_missionary_journey(game: Any, ctx: _Ctx, f: str, a: PlayPower) -> None:
    """Missionary Journey: a move of 4 movement points."""
    game._card_move(ctx, f, a, MOVE_CARDS["missionary-journey"])


def card_recruit(game: Any, ctx: _Ctx, f: str, a: PlayPower) -> None:
    """The recruiting cards: up to 3 units into the territories named (Recruiting)."""
    counts: dict[str, int] = {}
    for t in a.territories:
        counts[t] = counts.get(t, 0) + 1
    game._recruit(ctx, f, tuple(counts.items()), 3)


@effect("legion-levy")
def card_legion_levy(game: Any, ctx: _Ctx, f: str, a: PlayPower) -> None:
    """Legion Levy: recruit up to 3 Roman units."""
    game._card_recruit(ctx, f, a)


@effect("pentecost")
def card_pentecost(game: Any, ctx: _Ctx, f: str, a: PlayPower) -> None:
    """Pentecost: recruit up to 3 Christian units."""
    game._card_recruit(ctx, f, a)


def parse_pieces(game: Any, ctx: _Ctx, pieces: tuple[str, ...]) -> list[tuple[str, str]]:
    """The pieces a card names, ``territory/faction``, as (territory, faction). Raises
    IllegalActionError for another form."""
    out = []
    for p in pieces:
        t, _, g = p.partition("/")
        if t not in game.data.territories or g not in game.present(ctx.s):
            raise IllegalActionError(f"Name pieces as territory/faction, not {p!r}.")
        out.append((t, g))
    return out


@effect("circus-maximus")
def card_circus_maximus(game: Any, ctx: _Ctx, f: str, a: PlayPower) -> None:
    """Circus Maximus: up to 4 non-Roman units removed, at most 1 of them Christian."""
    pieces = game._parse_pieces(ctx, a.territories)
    if not 1 <= len(pieces) <= 4 or any(g == "rome" for _, g in pieces):
        raise IllegalActionError("Circus Maximus takes up to 4 non-Roman pieces.")
    if sum(1 for _, g in pieces if g == "christians") > 1:
        raise IllegalActionError("Circus Maximus may remove only 1 Christian unit.")
    for t, g in pieces:
        if game.units(ctx.s, t, g) <= 0:
            raise IllegalActionError(f"No {game.fname(g)} unit is left in {game.tname(t)}.")
        ctx.add_units(t, g, -1)
        cap = dict(ctx.f("rome").captured)
        cap[g] = cap.get(g, 0) + 1
        ctx.set_f("rome", captured=cap, capture_track=ctx.f("rome").capture_track + 1)
    ctx.note(
        f"Circus Maximus: {count(len(pieces), 'piece')} captured (capture track {ctx.f('rome').capture_track})."
    )
    game._revolt_check(ctx)


@effect("die-by-the-sword")
def card_die_by_the_sword(game: Any, ctx: _Ctx, f: str, a: PlayPower) -> None:
    """Die by the Sword: up to 3 Roman units of one territory (leaving 1) return to supply, and as
    many units of any faction, named one by one anywhere."""
    t = a.territory
    pieces = game._parse_pieces(ctx, a.territories)
    if (
        t is None
        or t not in game.data.territories
        or not 1 <= len(pieces) <= min(3, game.units(ctx.s, t, "rome") - 1)
    ):
        raise IllegalActionError(
            "Die by the Sword: from 1 territory remove up to 3 Roman units, leaving 1, and as many other units."
        )
    ctx.to_supply(t, "rome", len(pieces))
    for u, g in pieces:
        # "For every unit removed, remove 1 unit from any territory": a unit of any faction
        if game.units(ctx.s, u, g) <= 0:
            raise IllegalActionError(f"No {game.fname(g)} unit to remove in {game.tname(u)}.")
        ctx.to_supply(u, g, 1)
    ctx.note(f"Die by the Sword: {count(len(pieces), 'Roman unit')} and {count(len(pieces), 'other')} return to supply.")
    game._revolt_check(ctx)


@effect("persecution")
def card_persecution(game: Any, ctx: _Ctx, f: str, a: PlayPower) -> None:
    """Persecution: in 1 to 3 territories with Roman and Christian units, a Christian unit is
    removed: the first captured by Rome, the others back to supply."""
    ts = a.territories
    if not 1 <= len(ts) <= 3 or len(set(ts)) != len(ts):
        raise IllegalActionError("Persecution: name 1 to 3 territories with Roman and Christian units.")
    for k, t in enumerate(ts):
        if game.units(ctx.s, t, "rome") <= 0 or game.units(ctx.s, t, "christians") <= 0:
            raise IllegalActionError(
                f"{game.tname(t) if t in game.data.territories else t} needs Roman and Christian units."
            )
        if k == 0:
            ctx.add_units(t, "christians", -1)
            cap = dict(ctx.f("rome").captured)
            cap["christians"] = cap.get("christians", 0) + 1
            ctx.set_f("rome", captured=cap, capture_track=ctx.f("rome").capture_track + 1)
        else:
            ctx.to_supply(t, "christians", 1)
    ctx.note(f"Persecution: {len(ts)} Christian units removed, 1 captured.")


@effect("gladiator-games")
def card_gladiator_games(game: Any, ctx: _Ctx, f: str, a: PlayPower) -> None:
    """Gladiator Games: where the faction has 3 or more units, up to 2 units of the other non-Roman
    factions there are captured by Rome: the units named (``Christian in Rome, Jewish in Rome``),
    or up to 2 of the one faction named (``in Rome on Christian``)."""
    if a.territories:
        picks = game._parse_pieces(ctx, a.territories)
        t = picks[0][0]
        if not 1 <= len(picks) <= 2:
            raise IllegalActionError("Gladiator Games captures up to 2 units: name 1 or 2.")
        if len({u for u, _ in picks}) != 1 or (a.territory not in (None, t)):
            raise IllegalActionError("Gladiator Games captures its units in one territory.")
    else:
        t, g = a.territory, a.target
        picks = [(t, g)] * min(2, game.units(ctx.s, t, g)) if t in game.data.territories and g else []
        # "in <territory> on <faction>": up to 2 of that faction
    if (
        t not in game.data.territories
        or game.units(ctx.s, t, f) < 3
        or not picks
        or any(x in (None, "rome", f) or game.units(ctx.s, t, x) < picks.count((t, x)) for _, x in picks)
    ):
        raise IllegalActionError(
            f"Gladiator Games: a territory with at least 3 {game.fname(f)} units and another "
            "non-Roman faction's units there."
        )
    cap = dict(ctx.f("rome").captured)
    for _, x in picks:
        ctx.add_units(t, x, -1)
        cap[x] = cap.get(x, 0) + 1
    ctx.set_f("rome", captured=cap, capture_track=ctx.f("rome").capture_track + len(picks))
    who = list_words(sorted({game.fname(x) for _, x in picks}))
    ctx.note(f"Gladiator Games: {len(picks)} {who} unit{'s' if len(picks) != 1 else ''} captured in {game.tname(t)}.")
    game._revolt_check(ctx)


@effect("conscription", "crucify", "give-to-caesar", "synagogue", "enrapture", "grace", "help-the-wounded")
def card_none(game: Any, ctx: _Ctx, f: str, a: PlayPower) -> None:
    """Durable cards with a passive effect."""


@effect("auxiliaries")
def card_auxiliaries(game: Any, ctx: _Ctx, f: str, a: PlayPower) -> None:
    """Auxiliaries: nothing when played (Durable: it places 2 units in each Start Phase)."""
    # its units are placed by its Start Phase use (rules.cards.auxiliaries)


def auxiliaries(game: Any, ctx: _Ctx, f: str, a: PlayPower) -> None:
    """Auxiliaries' Start Phase use: 2 of ``f``'s units from supply into the Roman
    Empire, not on an Objective Point Marker. Raises IllegalActionError."""
    ts = a.territories
    due = game._aux_due(ctx.s, f)
    if len(ts) != due:
        raise IllegalActionError(
            f"Auxiliaries: place {count(due, 'unit')} from supply (2, fewer only if the supply or the room is "
            "short), one territory per unit: play Auxiliaries: Gallia, Italia."
        )
    for t in ts:
        if (
            t not in game.data.territories
            or not game.data.in_empire(t)
            or game.marker_at(ctx.s, t) is not None
        ):
            raise IllegalActionError(
                "Auxiliaries go in the Roman Empire, not on an Objective Point Marker."
            )
        ctx.from_supply(t, f, 1)
        if game.units(ctx.s, t, f) > UNIT_LIMIT:
            raise IllegalActionError(f"At most {UNIT_LIMIT} {game.fname(f)} units in {game.tname(t)}.")
    ctx.update(auxiliaries_used=True)
    ctx.note("Auxiliaries: " + ", ".join(game.tname(t) for t in ts) + ".")


@effect("high-priest-letter")
def card_high_priest_letter(game: Any, ctx: _Ctx, f: str, a: PlayPower) -> None:
    """High Priest Letter: in the blue region, 1 Christian unit goes back to supply wherever Jewish
    units are."""
    n = 0
    for t in game.data.region_territories("blue"):
        if game.units(ctx.s, t, "christians") and game.side_units(ctx.s, t, "jews"):
            ctx.to_supply(t, "christians", 1)
            n += 1
    ctx.note(f"High Priest Letter: {n} Christian units sent back to supply.")


@effect("industry")
def card_industry(game: Any, ctx: _Ctx, f: str, a: PlayPower) -> None:
    """Industry: draw up to the hand limit, and 1 more Power Card may be played this turn."""
    owner = f if f != "coalition" else None
    n = max(0, HAND_LIMIT - len(ctx.f(f).hand))
    if owner and n:
        game._draw(ctx, owner, n, "Industry")
    ctx.update(power_limit=ctx.s.power_limit + 1)


@effect("merchant-revolt", "peasant-revolt", "jewish-revolt")
def card_revolt(game: Any, ctx: _Ctx, f: str, a: PlayPower) -> None:
    """The Jewish Revolt cards: Gray units placed in a territory the revolt allows, with its yellow
    dice (Jewish Revolt Power Cards; RULINGS.md R13)."""
    cid = game.data.card(a.card).id
    spots = game._revolt_spots(ctx.s, cid)
    if a.territory not in spots:
        raise IllegalActionError(
            f"{game.card_name(a.card)}: place the Gray units in one of "
            + list_words([game.tname(t) for t in spots], 30)
            + "."
        )
    k = min(REVOLT_UNITS, ctx.f("gray").supply)
    want = 2 if any(game.durable(ctx.s, x, "pharisee") for x in ctx.s.factions) else 1
    n = min(want, ctx.s.yellow)
    dice = tuple(Die(value=ctx.rng.die(6), place="unspent") for _ in range(n))
    old = next((r for r in ctx.s.revolts if r.card == a.card), None)
    if old is not None:
        # the card comes back after an Exploit discarded it: the Gray units it left on the
        # board rejoin it (RULINGS.md R13)
        revolts = tuple(
            r.model_copy(update={"dice": dice, "discarded": False}) if r is old else r for r in ctx.s.revolts
        )
    else:
        revolts = ctx.s.revolts + (Revolt(card=a.card, dice=dice),)
    ctx.update(revolts=revolts, yellow=ctx.s.yellow - n)
    ctx.from_supply(a.territory, "gray", k, a.card)
    ctx.note(
        f"{game.card_name(a.card)}: {k} Gray units rise in {game.tname(a.territory)}"
        + (f"; yellow dice {', '.join(str(d.value) for d in dice)}." if dice else ".")
    )
    if n:
        refs = game.yellow_refs(ctx.s)
        mine = tuple(k for k, (r, _) in enumerate(refs) if ctx.s.revolts[r].card == a.card)
        game._offer_extra(ctx, "jews", "yellow", mine, "none")


@effect("pharisee")
def card_pharisee(game: Any, ctx: _Ctx, f: str, a: PlayPower) -> None:
    """Pharisee: every revolt still on the board gets one more yellow die, rolled up to 3 times."""
    revolts, new, k = [], [], 0
    for r in ctx.s.revolts:
        k += len(r.dice)
        if ctx.s.yellow > 0 and not r.discarded:
            r = r.model_copy(update={"dice": r.dice + (Die(value=ctx.rng.die(6), place="unspent"),)})
            ctx.update(yellow=ctx.s.yellow - 1)
            new.append(k)
            k += 1
        revolts.append(r)
    ctx.update(revolts=tuple(revolts))
    if new:
        game._offer_extra(ctx, "jews", "yellow", tuple(new), "none")


@effect("city-riot")
def card_city_riot(game: Any, ctx: _Ctx, f: str, a: PlayPower) -> None:
    """City Riot: in a territory shared with another faction, every unit is driven out to the
    neighbouring territories (or as the player places them), the rest to supply."""
    t = a.territory
    if (
        t not in game.data.territories
        or not game.units(ctx.s, t, f)
        or not (game.occupants(ctx.s, t) - {f})
    ):
        raise IllegalActionError("City Riot: a territory with your units and another faction's.")
    if a.territories:
        game._city_riot_choice(ctx, t, a.territories)
        return
    for g in sorted(game.occupants(ctx.s, t)):
        n = game.units(ctx.s, t, g)
        for u in game.data.adjacent[t]:
            k = min(n, game.room(ctx.s, u, g))
            if k > 0:
                ctx.move_units(t, u, g, k)
                n -= k
            if n == 0:
                break
        ctx.to_supply(t, g, n)
    ctx.note(f"City Riot in {game.tname(t)}: every unit is driven out to the neighbouring territories.")


def city_riot_choice(game: Any, ctx: _Ctx, t: str, pieces: tuple[str, ...]) -> None:
    """City Riot with the player's destinations: one "territory/faction" entry per unit
    driven out; every unit leaves, each to an adjacent territory with room (RULINGS.md R15)."""
    moves = game._parse_pieces(ctx, pieces)
    occ = game.occupants(ctx.s, t)
    for g in occ | {g for _, g in moves}:
        want = game.units(ctx.s, t, g)
        got = sum(1 for _, x in moves if x == g)
        if got != want:
            raise IllegalActionError(
                f"City Riot: move all {count(want, game.fname(g) + ' unit')} out of {game.tname(t)} "
                f"(one entry per unit, e.g. {game.fname(g)} in {game.tname(game.data.adjacent[t][0])})."
            )
    counts: dict[tuple[str, str], int] = {}
    for u, g in moves:
        if u not in game.data.adjacent[t]:
            raise IllegalActionError(f"City Riot: {game.tname(u)} is not adjacent to {game.tname(t)}.")
        counts[(u, g)] = counts.get((u, g), 0) + 1
    for (u, g), k in counts.items():
        if k > game.room(ctx.s, u, g):
            raise IllegalActionError(
                f"City Riot: {game.tname(u)} has room for {count(game.room(ctx.s, u, g), game.fname(g) + ' unit')}."
            )
        ctx.move_units(t, u, g, k)
    ctx.note(f"City Riot in {game.tname(t)}: every unit is driven out to the neighbouring territories.")


@effect("divine-messenger")
def card_divine_messenger(game: Any, ctx: _Ctx, f: str, a: PlayPower) -> None:
    """Divine Messenger: the faction takes a second turn after this one."""
    ctx.update(extra_turn=True)


@effect("giving")
def card_giving(game: Any, ctx: _Ctx, f: str, a: PlayPower) -> None:
    """The named faction gives Unspent dice of its choice totalling 4 pips; the
    Christians draw 2 Power Cards (RULINGS.md R15)."""
    g = a.target
    if g is None or g in (f, "gray") or g not in ctx.s.factions:
        raise IllegalActionError("Giving: name another faction.")
    ctx.update(giving=Giving(giver=g))
    game._giving_next(ctx)


@effect("gospel")
def card_gospel(game: Any, ctx: _Ctx, f: str, a: PlayPower) -> None:
    """Gospel (Durable): names another faction with a unit in supply, which the card holds; when that
    faction moves, the Christians may move 1 unit 1 territory (the Gospel window)."""
    g = a.target
    if g is None or g == f or g not in ctx.s.factions or ctx.f(g).supply <= 0:
        raise IllegalActionError("Gospel: name another faction with a unit in supply.")
    ctx.set_f(g, supply=ctx.f(g).supply - 1)
    ctx.set_f(f, gospel=g)
    ctx.note(f"Gospel names the {game.fname(g)} faction.")


def holy_spirit_places(game: Any, s: Any) -> list[str]:
    """The territories where Holy Spirit converts: Christian units and another faction's."""
    return [t for t in game.territories_of(s, "christians") if game.occupants(s, t) - {"christians"}]


def holy_spirit_default(game: Any, s: Any, t: str) -> str:
    """The faction Holy Spirit converts in ``t`` when the player names none: the largest there."""
    return min(game.occupants(s, t) - {"christians"}, key=lambda g: (-game.units(s, t, g), g))


def holy_spirit_choice(game: Any, ctx: _Ctx, a: PlayPower) -> list[tuple[str, str]]:
    """(territory, faction) for each conversion: as the player named them ("your choice of
    faction"), one in each territory while the supply lasts; else the largest faction in each.
    Raises IllegalActionError."""
    s = ctx.s
    places = game._holy_spirit_places(s)
    n = min(len(places), s.factions["christians"].supply)
    if not a.territories:
        return [(t, game._holy_spirit_default(s, t)) for t in places[:n]]
    picks = game._parse_pieces(ctx, a.territories)
    for t, g in picks:
        if not game.units(s, t, "christians"):
            raise IllegalActionError(f"Holy Spirit: there is no Christian unit in {game.tname(t)}.")
        if g == "christians" or not game.units(s, t, g):
            raise IllegalActionError(f"Holy Spirit: no {game.fname(g)} unit to convert in {game.tname(t)}.")
    if len({t for t, _ in picks}) != len(picks) or len(picks) != n:
        raise IllegalActionError(
            f"Holy Spirit converts 1 unit in every territory where you have units beside another "
            f"faction's ({list_words([game.tname(t) for t in places])}), while your supply lasts: "
            f"name {count(n, 'unit')}, one per territory (e.g. {game.fname(game._holy_spirit_default(s, places[0]))} "
            f"in {game.tname(places[0])})."
        )
    return picks


@effect("holy-spirit")
def card_holy_spirit(game: Any, ctx: _Ctx, f: str, a: PlayPower) -> None:
    """Holy Spirit: in each Christian territory shared with another faction, a unit of the faction
    the Christians name (the largest other faction there, if they name none) goes to its supply and
    a Christian unit takes its place (while the supply lasts)."""
    picks = game._holy_spirit_choice(ctx, a)
    for t, g in picks:
        ctx.to_supply(t, g, 1)
        game._convert_in(ctx, t, 1)
    ctx.note(f"Holy Spirit: {count(len(picks), 'unit')} converted.")
    game._revolt_check(ctx)


@effect("elder", "guardian-angel", "pharaohs-fate", "praetorian-guard", "hasmonean-valour", "martyrdom",
        "promised-land")
def card_elder(game: Any, ctx: _Ctx, f: str, a: PlayPower) -> None:  # pragma: no cover - combat only
    """Elder is played in a combat only (Combat), never from the phases."""
    raise IllegalActionError("Elder is played in combat.")


def help_the_wounded(game: Any, ctx: _Ctx, f: str, a: Shift) -> None:
    """Help the Wounded: in the Start Phase of its holder (the Christians, or the
    Coalition with a salvaged copy) move 1 unit of each other faction 1 space."""
    if not game.durable(ctx.s, f, "help-the-wounded"):
        raise IllegalActionError("Only a faction with Help the Wounded face up moves other factions' units.")
    if (
        a.faction in ctx.s.help_moved
        or a.faction == f
        or a not in game._shift_options(ctx.s, a.faction)
    ):
        raise IllegalActionError(
            "Help the Wounded: move 1 unit of each other faction 1 territory (once each)."
        )
    ctx.move_units(a.source, a.destination, a.faction, 1)
    ctx.update(help_moved=ctx.s.help_moved + (a.faction,), acted=True)
    ctx.note(
        f"Help the Wounded: a {game.fname(a.faction)} unit moves from {game.tname(a.source)} to {game.tname(a.destination)}."
    )
