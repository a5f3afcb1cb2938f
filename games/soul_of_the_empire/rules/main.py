"""The Main Phase (Using Your Dice To Take Actions): the actions a faction's dice may take (move, recruit, attack, claim, retrieve, buy, rage, block, the Gray Faction's dice) and their effects."""

from __future__ import annotations

from typing import Any

from games.core import (
    IllegalActionError,
    made_once,
)
from games.core.english import count
from games.core.errors import list_words

from ..model import (
    Attack,
    Block,
    Buy,
    Claim,
    ClaimMarker,
    DiscardObjective,
    EndMain,
    Move,
    PlayPower,
    Rage,
    Raise,
    Recruit,
    Retrieve,
    State,
    Unblock,
    Window,
)
from ..queries import (
    BLOCK_PIPS,
    BUY_LIMIT,
    PIPS_PER_CARD,
    PIPS_PER_RAGE,
    RAGE_MAX,
    UNIT_LIMIT,
)
from .context import _Ctx
from .runs import Runs, made_moves, move_make, moves_along, recruit_make


def recruit_spots(game: Any, s: State, f: str) -> tuple[list[str], bool]:
    """Territories ``f`` may recruit into, and whether only one may be chosen (no
    units on the board). Recruit Units; 2-Player Rules 1; Grace option 3."""
    grace = f == "christians" and game.grace_free(s, 3)
    if game.on_board(s, f) > 0:
        if f == "coalition":
            spots = [t for t in game.territories_of(s, f) if game.sole(s, t, f)]
        else:
            spots = [t for t in game.territories_of(s, f) if game.units(s, t, "coalition") == 0 or grace]
        return [t for t in spots if game.room(s, t, f) > 0], False
    starts = game.data.factions[f].start_territories
    if f == "coalition":
        spots = [t for t in starts if not (game.occupants(s, t) - {f})]
        if not spots:
            spots = [t for t in game.data.territories if not game.occupants(s, t)]
    else:
        # "you can only recruit to one of the starting territories" (RULINGS.md R23)
        spots = [t for t in starts if game.units(s, t, "coalition") == 0]
    return spots, True


_attack = made_once(Attack)
_buy = made_once(Buy)
_claim = made_once(Claim)
_retrieve = made_once(Retrieve)


def main_actions(game: Any, s: State, f: str) -> list[Any]:
    """The Main Phase's legal die actions of ``f`` (Using Your Dice To Take Actions), one
    group of units per Move and Recruit (RULINGS.md R5), in a fixed order."""
    moves, recruits, rest = main_space(game, s, f)
    return moves.items() + recruits.items() + rest


def main_space(game: Any, s: State, f: str) -> tuple[Runs, Runs, list[Any]]:
    """``main_actions`` in three parts, in its order: the moves of ``f``'s own units and the
    recruits as Runs (counted, made when asked for), then the other actions."""
    fs = s.factions[f]
    seq = game.seq_dice(s, f)
    # Move
    moves = Runs(move_make)
    groups = game._move_groups(s, f, max(fs.dice[i].value for i in seq)) if seq else []
    for i in seq:
        moves.add_routes(i, fs.dice[i].value, groups)
    # Recruit
    recruits = Runs(recruit_make)
    if fs.supply > 0 and f != "gray":
        spots, _ = game.recruit_spots(s, f)
        rooms = [(t, game.room(s, t, f)) for t in spots]
        for i in seq:
            v = fs.dice[i].value
            for t, room in rooms:
                n = min(v, fs.supply, room)
                if n > 0:
                    recruits.add(i, t, n)
    return moves, recruits, _other_actions(game, s, f, seq)


def _other_actions(game: Any, s: State, f: str, seq: list[int]) -> list[Any]:
    """``main_actions`` after the moves and recruits of ``f``'s own units: attacks, the Gray
    Faction's actions, claims and retrievals, buys, the Coalition's own, discards."""
    out: list[Any] = []
    fs = s.factions[f]
    present = [x for x in s.factions if x != f and x != "gray"]
    # Combat: the die's value does not count, but which die is spent is the player's
    targets = game._attack_targets(s, f) if seq else []
    for i in seq:
        out += [_attack(die=i, territory=t, target=target) for t, target in targets]
    out += gray_actions(game, s, f)
    # Objectives
    claimable = [c for c in s.objectives if game._can_claim(s, f, c)] if seq else []
    claimed = [c for c in s.objectives if game.claims(s, c).get(f) is not None] if seq else []
    for i in seq:
        out += [_claim(die=i, card=c) for c in claimable]
        out += [_retrieve(die=i, card=c) for c in claimed]
    # Buy Power Cards
    if f != "coalition" and s.bought < BUY_LIMIT:
        for i in seq:
            if fs.dice[i].value >= PIPS_PER_CARD:
                out.append(_buy(die=i))
            for j in game.outside_dice(s, f, exclude=i):
                if (
                    fs.dice[i].value + fs.dice[j].value >= PIPS_PER_CARD
                    and (fs.dice[i].value + fs.dice[j].value) // 2 > fs.dice[i].value // 2
                ):
                    out.append(_buy(die=i, extra=j))
    if f == "coalition":
        out += game._coalition_actions(s, f, seq, present)
    if s.players == 2:
        for i in seq:
            for extra in [None] + game.outside_dice(s, f, exclude=i):
                total = fs.dice[i].value + (fs.dice[extra].value if extra is not None else 0)
                if total == BLOCK_PIPS:
                    for c in s.objectives:
                        if game._can_discard_objective(s, c):
                            out.append(DiscardObjective(die=i, extra=extra, card=c))
    return out


def gray_actions(game: Any, s: State, f: str) -> list[Any]:
    """The Gray Faction's moves and attacks, with a Jewish die or a yellow die of its revolt
    (Jewish Revolt Power Cards; RULINGS.md R7): the Jewish seat's options."""
    out: list[Any] = []
    if f == "jews" and game.on_board(s, "gray") > 0:
        for die, yellow in game.gray_dice(s):
            v = game.die_value(s, f, die, yellow)
            revolt = game.yellow_revolt(s, die) if yellow else None
            for route, steps, cap in game._move_groups(s, "gray", v, revolt):
                n = min(cap, v // steps)
                if n > 0:
                    out += moves_along(made_moves(route, True, yellow), die, route, n, gray=True, yellow=yellow)
            for t, target in game._attack_targets(s, "gray"):
                if revolt is None or game.revolt_units(s, t, revolt):
                    out.append(Attack(die=die, territory=t, target=target, gray=True, yellow=yellow))
    return out


def attack_targets(game: Any, s: State, f: str) -> list[tuple[str, str]]:
    """(territory, faction) pairs ``f`` may attack: its units and theirs in the
    territory, not a faction of the same player (2-Player Rules 2), and the Jews
    and the Gray never fight each other (RULINGS.md R7)."""
    out = []
    for t in game.territories_of(s, f):
        for o in sorted(game.occupants(s, t) - {f}):
            if {f, o} == {"jews", "gray"} or game.same_player(s, f, o):
                continue
            out.append((t, o))
    return out


def can_claim(game: Any, s: State, f: str, card: str) -> bool:
    """Whether ``f`` may claim its objective on Objective Card ``card`` now (face up, not claimed by
    it, not blocked; 2-player cards only in the 2-player game)."""
    c = game.data.objectives[card]  # _claim_bar's tests, without the words of its reasons
    return (
        card in s.objectives
        and c.for_faction(f) is not None
        and (s.players != 2 or c.two_player)
        and game.claims(s, card).get(f) is None
        and not game.blocked(s, card, f)
    )


def _claim_bar(game: Any, s: State, f: str, card: str) -> str | None:
    """What keeps ``f`` from claiming its objective on ``card`` now (RULINGS.md R17), or None."""
    c = game.data.objectives[card]
    name, who = c.name, game.fname(f)
    if card not in s.objectives:
        return f"{name} is not face up: an objective is claimed on a face-up Objective Card"
    if c.for_faction(f) is None:
        return f"{name} holds no objective for {who}"
    if s.players == 2 and not c.two_player:
        return f"{name} cannot be achieved in the 2-player game (2-Player Rules 5), so it cannot be claimed"
    if game.claims(s, card).get(f) is not None:
        return f"{who} has claimed its objective on {name} already (a faction holds one die on a card, R17)"
    if game.blocked(s, card, f):
        return f"the Coalition blocks {who}'s objective on {name}, and a blocked objective cannot be claimed (R17)"
    return None


def claim_refusal(game: Any, s: State, f: str, card: str) -> str | None:
    """Why ``f`` may not claim its objective on Objective Card ``card`` now, naming the rule,
    and the cards it may claim; None when it may."""
    why = _claim_bar(game, s, f, card)
    if why is None:
        return None
    may = [game.data.objectives[x].name for x in s.objectives if can_claim(game, s, f, x)]
    return f"{why}; " + (f"you may claim: {list_words(may)}." if may else "you may claim no objective now.")


def can_discard_objective(game: Any, s: State, card: str) -> bool:
    """Whether Objective Card ``card`` may be discarded: face up, unclaimed, with no die on it
    (2-Player Rules)."""
    if card not in s.objectives:
        return False
    if game.claims(s, card):
        return False
    co = s.factions.get("coalition")
    return not (co and any(d.place == "block" and d.on == card for d in co.dice))


def apply_main(game: Any, ctx: _Ctx, f: str, a: Any) -> None:
    """The Main Phase (Using Your Dice To Take Actions): end it, or one action of the
    faction's dice, carried out by its handler (``MAIN_HANDLERS``)."""
    s = ctx.s
    if isinstance(a, EndMain):
        ctx.update(phase="end")
        ctx.note(f"{game.fname(f)} ended the Main Phase.")
        return
    ctx.update(acted=True)
    handler = MAIN_HANDLERS.get(type(a))
    if handler is None:
        raise IllegalActionError(
            "Main Phase: move, recruit, attack, claim, retrieve, buy, play a card"
            + (", marker, block, unblock, rage" if f == "coalition" else "")
            + ", or end."
        )
    handler(game, ctx, s, f, a)


def main_play_power(game: Any, ctx: _Ctx, s: State, f: str, a: PlayPower) -> None:
    """Play a Power Card in the Main Phase (Faction Power Cards)."""
    game._play_power(ctx, f, a, "main")


def main_move(game: Any, ctx: _Ctx, s: State, f: str, a: Move) -> None:
    """Move: a die's value in movement points along routes (Moving Units); the Gray Faction with a Jewish or yellow die (Jewish Revolt Power Cards)."""
    mover = f
    if a.gray:
        if f != "jews":
            raise IllegalActionError("Only the Jewish Faction moves the Gray Faction.")
        mover = "gray"
        revolt = game.yellow_revolt(s, a.die) if a.yellow else None
        v = game._use_gray_die(ctx, a.die, a.yellow)
    elif a.yellow:
        raise IllegalActionError("Yellow dice move only Gray units: move gray yellow <value>: ...")
    else:
        revolt = None
        v = game._use_die(ctx, f, a.die)
    game._do_paths(ctx, mover, a.paths, v, revolt)
    game._after_move(ctx, mover, a.paths)


def main_recruit(game: Any, ctx: _Ctx, s: State, f: str, a: Recruit) -> None:
    """Recruit: a die's value in units from the supply into the faction's territories (Recruiting)."""
    v = game._use_die(ctx, f, a.die)
    game._recruit(ctx, f, a.placements, v)


def main_attack(game: Any, ctx: _Ctx, s: State, f: str, a: Attack) -> None:
    """Initiate Combat: a die and a territory shared with another faction's units (Initiate Combat; 2-Player Rules; RULINGS.md R7)."""
    side = f
    if a.gray:
        if f != "jews":
            raise IllegalActionError("Only the Jewish Faction fights with the Gray Faction.")
        side = "gray"
        revolt = game.yellow_revolt(s, a.die) if a.yellow else None
        game._use_gray_die(ctx, a.die, a.yellow)
        if revolt is not None and not game.revolt_units(s, a.territory, revolt):
            where = [game.tname(t) for t in sorted(game.revolt_territories(s, revolt))]
            raise IllegalActionError(
                f"The yellow die of {game.card_name(revolt)} initiates combat only with that revolt's "
                f"units; it has none in {game.tname(a.territory)}"
                + (f" (its units are in {list_words(where)})." if where else ".")
            )
    elif a.yellow:
        raise IllegalActionError("Yellow dice are for Gray actions: attack gray yellow <value>: ...")
    else:
        game._use_die(ctx, f, a.die)
    targets = game._attack_targets(s, side)
    if (a.territory, a.target) not in targets:
        why = ""
        if a.target == side:
            why = (f"{game.fname(side)} cannot attack its own units: combat needs a unit \"in the same "
                   "territory as another faction\" (Initiate Combat). ")
        elif a.target in s.factions and game.same_player(s, side, a.target):
            why = (
                f"{game.fname(side)} and {game.fname(a.target)} are both your factions, and factions "
                "controlled by the same player never fight each other (2-Player Rules). "
            )
        elif {side, a.target} == {"jews", "gray"}:
            why = "The Jewish and Gray Factions never fight each other (RULINGS.md R7). "
        elif a.territory in game.data.territories and not game.units(s, a.territory, a.target):
            why = f"There are no {game.fname(a.target)} units in {game.tname(a.territory)}. "
        elif a.territory in game.data.territories and not game.units(s, a.territory, side):
            why = f"You have no units in {game.tname(a.territory)}. "
        raise IllegalActionError(
            why
            + (
                "You may fight: "
                + list_words([f"{game.fname(o)} in {game.tname(t)}" for t, o in targets])
                + "."
                if targets
                else "There is nobody you may fight now."
            )
        )
    game._begin_combat(ctx, side, a.target, a.territory)


def main_claim(game: Any, ctx: _Ctx, s: State, f: str, a: Claim) -> None:
    """Claim an objective: a die on an Objective Card the faction may claim (Objective Cards; Enrapture)."""
    refused = claim_refusal(game, s, f, a.card) if a.card in game.data.objectives else "no such Objective Card"
    if refused:
        raise IllegalActionError(refused[0].upper() + refused[1:])
    game._use_die(ctx, f, a.die, place="objective", on=a.card)
    ctx.note(f"{game.fname(f)} claimed its objective on {game.data.objectives[a.card].name}.")
    if f == "christians" and game.durable(ctx.s, f, "enrapture") and not ctx.s.enrapture_used:
        spent = [i for i, d in enumerate(ctx.f(f).dice) if d.place == "spent"]
        if spent:
            v = ctx.rng.die(6)
            ctx.set_die(f, spent[0], place="unspent", seq=True, value=v)
            ctx.update(enrapture_used=True)
            ctx.note(f"Enrapture: a Spent die is rerolled ({v}) for another action.")


def main_buy(game: Any, ctx: _Ctx, s: State, f: str, a: Buy) -> None:
    """Buy Power Cards: 2 pips a card, at most 6 a turn (Power Cards; Give to Caesar)."""
    if f == "coalition":
        raise IllegalActionError("The Coalition has no Power Card deck to buy from.")
    v = game._use_die(ctx, f, a.die, place="power") + game._use_extra(ctx, f, a.extra, place="power")
    n = min(v // PIPS_PER_CARD, BUY_LIMIT - s.bought)
    if n <= 0:
        raise IllegalActionError(
            f"Power Cards cost {PIPS_PER_CARD} pips each (at most {BUY_LIMIT} a turn; {s.bought} bought)."
        )
    ctx.update(bought=s.bought + n)
    ctx.note(
        f"{game.fname(f)} designated {count(v, 'pip')} to purchase {n} Power Card{'s' if n != 1 else ''}."
    )
    game._give_to_caesar(ctx, f)


def main_claim_marker(game: Any, ctx: _Ctx, s: State, f: str, a: ClaimMarker) -> None:
    """The Coalition claims an Objective Point Marker with a die (The Coalition)."""
    game._coalition_only(f)
    m = game.marker_at(s, a.territory)
    if m is None or game.marker_claimed(s, a.territory):
        free = [
            game.tname(x.territory)
            for x in s.markers
            if x.territory and not game.marker_claimed(s, x.territory)
        ]
        raise IllegalActionError("Unclaimed Objective Point Markers: " + list_words(free) + ".")
    game._use_die(ctx, f, a.die, place="marker", on=a.territory)
    ctx.note(
        f"The Coalition claimed the {game.fname(m.owner)} Objective Point Marker in {game.tname(a.territory)}."
    )


def main_block(game: Any, ctx: _Ctx, s: State, f: str, a: Block) -> None:
    """The Coalition blocks another faction's objective with exactly 6 pips (The Coalition)."""
    game._coalition_only(f)
    moved = None
    if a.card not in s.objectives or a.target not in s.factions or not game._can_block(s, a.card, a.target):
        moved = game._block_moved(s, a.card, a.target) if a.card in s.objectives and a.target in s.factions else None
        if moved is None:
            raise IllegalActionError(
                "You may block an unclaimed objective of another faction, 1 per card and 1 per faction "
                "(or move a block there for 6 pips)."
            )
    old = [i for i, d in enumerate(s.factions[f].dice) if d.place == "block" and d.on == moved]
    v = game._use_die(ctx, f, a.die, place="block", on=a.card, target=a.target)
    v += game._use_extra(ctx, f, a.extra, place="block", on=a.card, target=a.target)
    if v != BLOCK_PIPS:
        raise IllegalActionError(f"Blocking requires exactly {BLOCK_PIPS} pips, not {v}.")
    name = game.data.objectives[a.card].name
    if moved is not None:
        # "Moving the die (or dice) to another objective requires another 6 pips": the block leaves
        # its card, the dice that held it go to the Spent Dice area
        for i in old:
            ctx.set_die(f, i, place="spent", on=None, target=None)
        ctx.note(
            f"The Coalition moves its block from {game.data.objectives[moved].name} to the "
            f"{game.fname(a.target)} objective on {name}."
        )
        return
    ctx.note(f"The Coalition blocks the {game.fname(a.target)} objective on {name}.")


def main_unblock(game: Any, ctx: _Ctx, s: State, f: str, a: Unblock) -> None:
    """The Coalition returns its blocking dice from an Objective Card (The Coalition)."""
    game._coalition_only(f)
    dice = [i for i, d in enumerate(ctx.f(f).dice) if d.place == "block" and d.on == a.card]
    if not dice:
        raise IllegalActionError("You have no die blocking an objective on that card.")
    game._use_die(ctx, f, a.die)
    for i in dice:
        ctx.set_die(f, i, place="spent", on=None, target=None)
    ctx.note(f"The Coalition returned its blocking dice from {game.data.objectives[a.card].name}.")


def main_rage(game: Any, ctx: _Ctx, s: State, f: str, a: Rage) -> None:
    """The Coalition raises its Rage: 2 pips a point, at most 3 (The Coalition)."""
    game._coalition_only(f)
    fs = ctx.f(f)
    if fs.rage >= RAGE_MAX:
        raise IllegalActionError(f"Rage cannot be increased above {RAGE_MAX}.")
    v = game._use_die(ctx, f, a.die) + game._use_extra(ctx, f, a.extra)
    gain = v // PIPS_PER_RAGE
    if gain <= 0:
        raise IllegalActionError(f"Rage costs {PIPS_PER_RAGE} pips per point.")
    rage = min(RAGE_MAX, fs.rage + gain)
    ctx.set_f(f, rage=rage)
    ctx.note(f"The Coalition's Rage rises to {rage}.")


def main_retrieve(game: Any, ctx: _Ctx, s: State, f: str, a: Retrieve) -> None:
    """Retrieve a die from an Objective Card or an Objective Point Marker."""
    fs = ctx.f(f)
    if a.card is not None:
        idx = [i for i, d in enumerate(fs.dice) if d.place == "objective" and d.on == a.card]
    elif a.territory is not None:
        idx = [i for i, d in enumerate(fs.dice) if d.place == "marker" and d.on == a.territory]
    else:
        idx = []
    if not idx:
        raise IllegalActionError("You have no die on that Objective Card or marker.")
    game._use_die(ctx, f, a.die)
    for i in idx:
        ctx.set_die(f, i, place="spent", on=None)
    ctx.note(f"{game.fname(f)} retrieved a die.")


def main_discard_objective(game: Any, ctx: _Ctx, s: State, f: str, a: DiscardObjective) -> None:
    """Discard a face-up Objective Card with exactly 6 pips and turn up a new one (2-Player Rules)."""
    if s.players != 2:
        raise IllegalActionError("Objective Cards may be discarded only in the 2-player game.")
    if not game._can_discard_objective(s, a.card):
        raise IllegalActionError(
            "Only an unclaimed face-up Objective Card with no die on it may be discarded."
        )
    v = game._use_die(ctx, f, a.die) + game._use_extra(ctx, f, a.extra)
    if v != BLOCK_PIPS:
        raise IllegalActionError(
            f"Discarding an Objective Card requires exactly {BLOCK_PIPS} pips, not {v}."
        )
    ctx.update(
        objectives=tuple(c for c in ctx.s.objectives if c != a.card),
        objective_discard=ctx.s.objective_discard + (a.card,),
    )
    ctx.note(f"{game.fname(f)} discarded the Objective Card {game.data.objectives[a.card].name}.")
    if ctx.s.objective_deck:
        new, rest = ctx.s.objective_deck[0], ctx.s.objective_deck[1:]
        ctx.update(objectives=ctx.s.objectives + (new,), objective_deck=rest)
        ctx.note(f"New Objective Card: {game.data.objectives[new].name}.")


MAIN_HANDLERS: dict[type, Any] = {
    PlayPower: main_play_power,
    Move: main_move,
    Recruit: main_recruit,
    Attack: main_attack,
    Claim: main_claim,
    Buy: main_buy,
    ClaimMarker: main_claim_marker,
    Block: main_block,
    Unblock: main_unblock,
    Rage: main_rage,
    Retrieve: main_retrieve,
    DiscardObjective: main_discard_objective,
}


def coalition_only(game: Any, f: str) -> None:
    """Raise IllegalActionError unless ``f`` is the Coalition (its own actions: The Coalition)."""
    if f != "coalition":
        raise IllegalActionError("Only the Coalition may do that.")


def give_to_caesar(game: Any, ctx: _Ctx, buyer: str) -> None:
    """Give to Caesar: whenever a faction purchases Power Cards, its holder (Rome, or
    the Coalition with a salvaged copy, R14) may raise 1 of its own Unspent dice by 1
    pip, chosen in a response window (RULINGS.md R15)."""
    for holder in ("rome", "coalition"):
        if game.durable(ctx.s, holder, "give-to-caesar") and game._caesar_options(ctx.s, holder):
            ctx.update(window=Window(kind="caesar", faction=holder, mover=buyer))
            return


def caesar_options(game: Any, s: State, holder: str) -> list[Raise]:
    """One Raise per distinct (value, in the sequence) of ``holder``'s Unspent dice below 6."""
    out, seen = [], set()
    for i, d in enumerate(s.factions[holder].dice):
        if d.place == "unspent" and d.value < 6 and (d.value, d.seq) not in seen:
            seen.add((d.value, d.seq))
            out.append(Raise(die=i))
    return out


def recruit(game: Any, ctx: _Ctx, f: str, placements: tuple[tuple[str, int], ...], units: int) -> None:
    """Recruit Units: up to ``units`` from supply into legal territories (at least 1
    of your units and no Coalition units; the Coalition where it is alone; only
    one start territory with no units on the board). Synagogue adds 1.

    Raises IllegalActionError naming the legal territories."""
    if f == "gray":
        raise IllegalActionError("The Gray Faction cannot recruit.")
    s = ctx.s
    fs = s.factions[f]
    if fs.supply <= 0:
        raise IllegalActionError("Your unit supply is empty: you cannot recruit.")
    spots, only_one = game.recruit_spots(s, f)
    if not spots and only_one:
        raise IllegalActionError(
            "With no units on the board you can only recruit to one of your starting territories ("
            + list_words([game.tname(t) for t in game.data.factions[f].start_territories])
            + "), and every one of them holds a Coalition piece."
        )
    bonus = 1 if game.durable(s, f, "synagogue") else 0
    total = sum(k for _, k in placements)
    if not placements or any(k < 1 for _, k in placements) or total > units + bonus:
        n = min(units + bonus, fs.supply)
        where = sorted(spots, key=game.tname)
        if n >= 2 and len(where) >= 2 and not only_one:
            example = f"{n - 1} {game.tname(where[0])}, 1 {game.tname(where[1])}"
        else:
            example = f"{n} {game.tname(where[0])}" if where else ""
        raise IllegalActionError(
            f"Recruit 1 to {units + bonus} unit{'s' if units + bonus != 1 else ''} with a {units}"
            + (f" (Synagogue adds 1), not {total}" if bonus else f", not {total}")
            + (f"; e.g. recruit {units}: {example}." if example else ".")
        )
    if total > fs.supply:
        raise IllegalActionError(f"Only {count(fs.supply, 'unit')} are left in your supply.")
    if only_one and len({t for t, _ in placements}) > 1:
        raise IllegalActionError(
            "With no units on the board you recruit into one starting territory only."
        )
    grace = False
    for t, _k in placements:
        if t not in spots:
            raise IllegalActionError(
                f"You cannot recruit in {game.tname(t) if t in game.data.territories else t}; you may recruit in: "
                + list_words([game.tname(x) for x in spots], 30)
                + "."
            )
        if f == "christians" and game.units(s, t, "coalition") > 0:
            grace = True
    for t, k in placements:
        ctx.from_supply(t, f, k)
    for t, _ in placements:
        if game.units(ctx.s, t, f) > UNIT_LIMIT:
            raise IllegalActionError(
                f"At most {UNIT_LIMIT} {game.fname(f)} units may be in {game.tname(t)}."
            )
    if grace:
        ctx.set_f("christians", grace_now=3)
        ctx.note("Grace: the Christians recruit among Coalition units.")
    ctx.note(
        f"{game.fname(f)} recruited " + ", ".join(f"{k} in {game.tname(t)}" for t, k in placements) + "."
    )
