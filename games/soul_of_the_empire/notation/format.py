"""Writing an action in Soul of the Empire's notation, with the names players see."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from games.core import InvalidNotationError
from games.core.memo import last_state

from ..model import (
    Attack,
    Block,
    Buy,
    Claim,
    ClaimMarker,
    Commit,
    Convert,
    Crucify,
    DiscardObjective,
    DiscardPower,
    Done,
    Elder,
    EndMain,
    Give,
    Keep,
    Lower,
    Move,
    Pass,
    Path,
    PlaceMarker,
    PlaceUnit,
    PlayPower,
    Plunder,
    Prepare,
    Rage,
    Raise,
    Ready,
    Recruit,
    Redirect,
    Regroup,
    Reroll,
    Retrieve,
    Reveal,
    Score,
    Shift,
    Spread,
    State,
    TakeUnit,
    Unblock,
    UseGrace,
)

if TYPE_CHECKING:
    from ..queries import Queries as SoulOfTheEmpire


def _t(g: SoulOfTheEmpire, t: str) -> str:
    return g.tname(t)


def _source(g: SoulOfTheEmpire, x: str) -> str:
    return x if x in ("supply", "captured") else _t(g, x)


def _route(g: SoulOfTheEmpire, p: Path) -> str:
    return f"{p.count} " + "-".join(_t(g, t) for t in p.route)


def _dice(s: State, f: str, die: int, extra: int | None) -> str:
    dice = s.factions[f].dice
    text = str(dice[die].value)
    if extra is not None:
        text += f"+{dice[extra].value}"
    return text


def _gray_die(g: SoulOfTheEmpire, s: State, die: int, yellow: bool) -> str:
    if yellow:
        v = g.yellow_value(s, die)
        text = f"yellow {v}"
        if sum(1 for _, value in g.yellow_dice(s) if value == v) > 1:
            # revolts with a yellow die of this value: name the revolt (RULINGS.md R13)
            text += " " + g.card_name(g.yellow_revolt(s, die))
        return text
    return str(s.factions["jews"].dice[die].value)


def _piece(g: SoulOfTheEmpire, p: str) -> str:
    t, _, f = p.partition("/")
    return f"{g.fname(f)} in {_t(g, t)}" if f else _t(g, t)


def format_action(g: SoulOfTheEmpire, s: State, a: Any) -> str:
    """``a`` in notation, with the names players see."""
    f = _actor(g, s, a)
    for part in _PARTS.get(type(a), _ALL_PARTS):
        text = part(g, s, f, a)
        if text is not None:
            return text
    raise InvalidNotationError(f"Cannot write {a!r} in notation.")


def _format_setup(g: SoulOfTheEmpire, s: State, f: str, a: Any) -> str | None:
    """Setup, rolls, Collect Tribute, Giving, regrouping and the bare words."""
    if isinstance(a, PlaceMarker):
        return f"marker {_t(g, a.territory)}"
    if isinstance(a, PlaceUnit):
        return f"place {_t(g, a.territory)}"
    if isinstance(a, Reroll) and s.extra_roll is not None:
        values = g.extra_values(s)
        return "reroll " + " ".join(str(v) for v in sorted(values[i] for i in a.dice))
    if isinstance(a, Keep):
        return "keep"
    if isinstance(a, Raise | Lower | Give):
        d = s.factions[f].dice[a.die]
        return f"{a.kind} {d.value}" + ("" if d.seq else " outside")
    if isinstance(a, TakeUnit):
        return f"take {_t(g, a.territory)}"
    if isinstance(a, Regroup):
        return f"regroup {_t(g, a.territory)}: " + ", ".join(f"{k} {_t(g, o)}" for o, k in a.sources)
    if isinstance(a, Reroll | Ready):
        dice = s.factions[s.rolling.faction].dice
        return f"{a.kind} " + " ".join(str(v) for v in sorted(dice[i].value for i in a.dice))
    if isinstance(a, Done):
        return "done"
    if isinstance(a, EndMain):
        return "end"
    if isinstance(a, Pass):
        return "pass"
    return None


def _format_main(g: SoulOfTheEmpire, s: State, f: str, a: Any) -> str | None:
    """The Main Phase's die actions."""
    if isinstance(a, Move):
        head = (
            "move gray " + _gray_die(g, s, a.die, a.yellow) if a.gray else f"move {_dice(s, f, a.die, None)}"
        )
        return head + ": " + ", ".join(_route(g, p) for p in a.paths)
    if isinstance(a, Recruit):
        return f"recruit {_dice(s, f, a.die, None)}: " + ", ".join(f"{k} {_t(g, t)}" for t, k in a.placements)
    if isinstance(a, Attack):
        head = (
            "attack gray " + _gray_die(g, s, a.die, a.yellow)
            if a.gray
            else f"attack {_dice(s, f, a.die, None)}"
        )
        return f"{head}: {g.fname(a.target)} in {_t(g, a.territory)}"
    if isinstance(a, Claim):
        return f"claim {_dice(s, f, a.die, None)}: {g.data.objectives[a.card].name}"
    if isinstance(a, Retrieve):
        what = g.data.objectives[a.card].name if a.card else f"marker {_t(g, a.territory)}"
        return f"retrieve {_dice(s, f, a.die, None)}: {what}"
    if isinstance(a, Buy):
        return f"buy {_dice(s, f, a.die, a.extra)}"
    if isinstance(a, ClaimMarker):
        return f"marker {_dice(s, f, a.die, None)}: {_t(g, a.territory)}"
    if isinstance(a, Block):
        return f"block {_dice(s, f, a.die, a.extra)}: {g.fname(a.target)} on {g.data.objectives[a.card].name}"
    if isinstance(a, Unblock):
        return f"unblock {_dice(s, f, a.die, None)}: {g.data.objectives[a.card].name}"
    if isinstance(a, Rage):
        return f"rage {_dice(s, f, a.die, a.extra)}"
    if isinstance(a, DiscardObjective):
        return f"discard objective {_dice(s, f, a.die, a.extra)}: {g.data.objectives[a.card].name}"
    return None


def _format_cards(g: SoulOfTheEmpire, s: State, f: str, a: Any) -> str | None:
    """Power Cards, combat decisions, plunder, redirects, scoring, conversion, discards."""
    if isinstance(a, PlayPower):
        text = f"play {g.card_name(a.card)}"
        if a.territory:
            text += f" in {_t(g, a.territory)}"
        if a.target:
            text += f" on {g.fname(a.target)}"
        rest = []
        if a.paths:
            rest = [_route(g, p) for p in a.paths]
        elif a.territories:
            rest = [_piece(g, p) for p in a.territories]
        elif a.values and a.dice:
            dice = s.factions[f].dice
            rest = [
                f"{dice[i].value}{'' if dice[i].seq else ' outside'} to {v}" for i, v in zip(a.dice, a.values, strict=False)
            ]
        elif a.values:
            rest = [" ".join(map(str, a.values))]
        if rest:
            text += ": " + ", ".join(rest)
        return text
    if isinstance(a, Commit):
        return f"commit {g.data.combat[a.card].name}"
    if isinstance(a, Prepare):
        parts = [f"play {g.card_name(a.power)}"] if a.power else []
        if a.conscript:
            parts.append("conscript " + ", ".join(f"{n} {g.fname(x)}" for x, n in a.conscript))
        return " and ".join(parts) or "pass"
    if isinstance(a, Elder):
        return "elder" if a.choice == "play" else f"elder {a.choice}"
    if isinstance(a, Reveal):
        return "reveal"
    if isinstance(a, UseGrace):
        return "grace"
    if isinstance(a, Crucify):
        return f"crucify {g.fname(a.faction)}"
    if isinstance(a, Plunder):
        if a.option == "rampage":
            return f"rampage {a.count} to {_t(g, a.territory)}"
        if a.option == "exploit" and a.card:
            return f"exploit {g.card_name(a.card)}"
        if a.option == "salvage" and a.card:
            return f"salvage {g.card_name(a.card)}"
        return "no plunder" if a.option == "none" else a.option
    if isinstance(a, Shift):
        return f"shift {g.fname(a.faction)} {_t(g, a.source)}-{_t(g, a.destination)}"
    if isinstance(a, Redirect):
        if a.territory is not None:
            return f"redirect to {_t(g, a.territory)}"
        starts = _redirect_starts(s)
        short = len(starts) == 1 and all(t0 in starts for t0, _, _ in a.sends)
        return "redirect " + ", ".join(
            f"{n} {_t(g, t1)}" if short else f"{n} {_t(g, t0)}-{_t(g, t1)}" for t0, t1, n in a.sends
        )
    if isinstance(a, Score):
        return f"score {g.data.objectives[a.card].name}"
    if isinstance(a, Convert):
        return "convert " + ", ".join(f"{k} {_source(g, x)}" for x, k in a.sources)
    if isinstance(a, Spread):
        return "spread " + ", ".join(f"{k} {_t(g, u)}" for u, k in a.moves)
    if isinstance(a, DiscardPower):
        return f"discard {g.card_name(a.card)}"
    return None


def _redirect_starts(s: State) -> list[str]:
    """Where the units Promised Land may redirect started (none when no window is open)."""
    w = s.window
    if w is None or w.kind != "promised_land":
        return []
    return list(dict.fromkeys(p.route[0] for p in w.moved))


def _actor(g: SoulOfTheEmpire, s: State, a: Any) -> str:
    """The faction whose dice an action names: the acting faction (the same for every
    action of a state)."""
    return _acting(g, s)


@last_state
def _acting(g: SoulOfTheEmpire, s: State) -> str:
    """The faction asked first in seat order, else the active one (remembered for the last
    state: every legal action of a state is written with it)."""
    for seat in range(s.players):
        f = g.acting(s, seat)
        if f is not None:
            return f
    return s.active


_SETUP_KINDS = (PlaceMarker, PlaceUnit, Reroll, Keep, Raise, Lower, Give, Regroup, Ready, Done, EndMain, Pass)
_MAIN_KINDS = (Move, Recruit, Attack, Claim, Retrieve, Buy, ClaimMarker, Block, Unblock, Rage)
_MAIN_KINDS += (DiscardObjective,)
_CARD_KINDS = (PlayPower, Commit, Elder, Reveal, UseGrace, Crucify, Plunder, Shift, Redirect, Score)
_CARD_KINDS += (Convert, Spread, DiscardPower)
_ALL_PARTS = (_format_setup, _format_main, _format_cards)
_PARTS = {
    **{k: (_format_setup,) for k in _SETUP_KINDS},
    **{k: (_format_main,) for k in _MAIN_KINDS},
    **{k: (_format_cards,) for k in _CARD_KINDS},
}
"""The one part that writes each action type (each writes every action of its types), so
an action is not tried against the others' types first; any other type tries them all."""
