"""Who is asked and what is legal now: the decisions in the order they take precedence (a scoring choice, an extra roll, regrouping, rolling, setup, a combat, conversion, Collect Tribute and Giving, a response window, the active faction's phase)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.core import (
    ActionSpace,
    Prompt,
    Seat,
)
from games.core.english import count
from games.core.memo import last_state

from ..model import (
    DiscardPower,
    Done,
    EndMain,
    Pass,
    PlaceMarker,
    PlaceUnit,
    Ready,
    Reroll,
    Score,
    State,
)
from ..queries import (
    HAND_LIMIT,
)


@last_state
def to_act(game: Any, s: State) -> Mapping[Seat, Prompt]:
    if s.phase == "over":
        return {}
    out: dict[Seat, Prompt] = {}
    for seat in range(s.players):
        f = game.acting(s, seat)
        if f is None:
            continue
        out[seat] = game._prompt(s, f)
    return out


def prompt(game: Any, s: State, f: str) -> Prompt:
    name = game.fname(f)
    if s.scoring is not None:
        return game._scoring_prompt(s)
    if s.extra_roll is not None:
        e = s.extra_roll
        what = "yellow dice" if e.kind == "yellow" else "returned blocking dice"
        values = game.extra_values(s)
        return Prompt(
            kind="turn",
            text=f"{name}: your {what} show "
            + ", ".join(str(values[i]) for i in e.dice)
            + (f" — reroll some ({count(e.rerolls, 'roll')} left) or keep them." if e.rerolls
               else " — no rolls left: keep them."),
        )
    if s.regroup is not None:
        return Prompt(
            kind="turn",
            text=f"The Coalition scored {game.data.regions[s.regroup.region].name}: regroup up to 6 units "
            "into one of its territories, or pass.",
        )
    if s.rolling is not None:
        r = s.rolling
        return Prompt(
            kind="turn",
            text=f"{name}: roll and ready — reroll some dice ({count(r.rerolls, 'roll')} left) "
            "or ready your Dice Sequence." if r.rerolls
            else f"{name}: roll and ready — no rolls left: ready your Dice Sequence.",
        )
    if s.phase == "markers":
        owner = s.markers_to_place[0]
        return Prompt(
            kind="turn",
            text=f"Setup: place the {game.fname(owner)} Objective Point Marker in the Roman Empire.",
        )
    if s.phase == "final":
        return Prompt(kind="turn", text=f"Setup: place Rome's final units ({s.final_left} left).")
    if s.combat is not None:
        c = s.combat
        if c.stage == "salvage":
            loser = c.defender if c.attacker == "coalition" else c.attacker
            return Prompt(
                kind="turn",
                text=f"Salvage: select one of the two Power Cards drawn from the top of the "
                f"{game.fname(game.hand_owner(loser))} deck to keep; the other goes to the bottom.",
            )
        if c.stage == "plunder":
            opts = game._plunder_options(s)
            kinds = [k for k in ("rampage", "salvage", "exploit") if any(o.option == k for o in opts)]
            return Prompt(
                kind="turn",
                text=f"The Coalition won: plunder ({', '.join(kinds)}) for 1 more Rage "
                f"(Rage {s.factions['coalition'].rage} now), or no plunder.",
            )
        if c.stage in ("elder", "decide"):
            own = game.hand_owner(f) == s.active  # the Gray act on the Jewish turn
            return Prompt(kind="turn" if own else "respond", text=game._decide_prompt(s))
        other = c.defender if f == c.attacker else c.attacker
        elder = " (Elder is face up: no other Power Cards in this combat)" if c.elder is not None else ""
        return Prompt(
            kind="secret",
            text=f"Combat in {game.tname(c.territory)}: {name} against {game.fname(other)} — choose a Combat Card "
            f"in secret{elder}; pass plays the first unused card of your deck with no Power Card (R9).",
        )
    if s.conversion is not None:
        return game._conversion_prompt(s)
    if s.tribute is not None or s.giving is not None:
        return game._tribute_prompt(s, f)
    if s.window is not None:
        w = s.window
        if w.kind == "caesar":
            return Prompt(
                kind="respond",
                text=f"Give to Caesar: {game.fname(w.mover)} bought Power Cards — raise 1 Unspent "
                f"{game.fname(w.faction)} die by 1 pip, or pass.",
            )
        if w.kind == "promised_land":
            return Prompt(
                kind="respond",
                text=f"{game.fname(w.mover)} units moved from inside the blue region ("
                + ", ".join(f"{p.count} {'-'.join(game.tname(t) for t in p.route)}" for p in w.moved)
                + "): play Promised Land to choose where those units go (redirect to <territory>, "
                "or per unit: redirect 2 <territory>, 1 <territory>), or pass.",
            )
        return Prompt(
            kind="respond",
            text=f"Gospel: {game.fname(w.mover)} moved — move 1 Christian unit 1 territory, or pass.",
        )
    text = {
        "start": "Start Phase: play Start Phase Power Cards, or say done (or pass the turn).",
        "main": "Main Phase: take actions with your dice, or end the Main Phase.",
        "end": "End Phase: play End Phase Power Cards, or say done.",
        "discard": f"End Phase: discard down to {HAND_LIMIT} Power Cards.",
    }[s.phase]
    seat = game.seat_of(s, f)
    shared = sum(1 for g in s.factions.values() if g.seat == seat) > 1  # 2 players: say which faction
    return Prompt(kind="turn", text=f"{name} — {text}" if shared else text)


@last_state
def legal_actions(game: Any, s: State, seat: Seat) -> Sequence[Any]:
    f = game.acting(s, seat)
    if f is None:
        return ()
    if s.scoring is not None:
        return [Score(card=c) for c in game.scoring_options(s)] + [Pass()]
    if s.extra_roll is not None:
        return game.extra_options(s)
    if s.regroup is not None:
        return [Pass(), *game.regroup_options(s)]
    if s.rolling is not None:
        return [Ready(dice=o) for o in game.ready_options(s)] + [
            Reroll(dice=o) for o in game.reroll_options(s)
        ]
    if s.phase == "markers":
        return [PlaceMarker(territory=t) for t in game.marker_spots(s)]
    if s.phase == "final":
        return [PlaceUnit(territory=t) for t in game.final_spots(s)]
    if s.combat is not None:
        if s.combat.stage == "plunder":
            return game._plunder_options(s)
        if s.combat.stage == "salvage":
            return game._salvage_pick_options(s)
        if s.combat.stage in ("elder", "decide"):
            return game.decide_options(s)
        return game._commit_options(s, f) + [Pass()]
    if s.conversion is not None:
        return game.conversion_options(s)
    if s.tribute is not None or s.giving is not None:
        return game._tribute_options(s, f)
    if s.window is not None:
        return [Pass()] + game._window_options(s)
    if s.phase == "start":
        out: list[Any] = [Done()]
        if not s.acted:
            out.append(Pass())
        out += game._power_plays(s, f, "start")
        out += game._durable_uses(s, f)
        return out
    if s.phase == "end":
        return [Done()] + game._power_plays(s, f, "end")
    if s.phase == "discard":
        return [DiscardPower(card=c) for c in game.distinct(s.factions[f].hand)]
    if s.phase == "main":
        return ActionSpace([EndMain()], game._main_actions(s, f), game._power_plays(s, f, "main"))
    return ()
