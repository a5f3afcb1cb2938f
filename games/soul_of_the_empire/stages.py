"""Soul of the Empire's flow, stated once (games.core.flow): the decisions in the order they
take precedence (rule text: shared/seeds/000; RULINGS.md). A completed objective to score
(Scoring) and an extra roll of yellow or returned dice come first, then the Coalition's
regrouping, a faction rolling and readying its dice, the setup placements (Objective Point
Markers, Rome's final units), a combat (Salvage, Plunder, the decisions after the reveal, the
secret Combat Cards), a conversion, Collect Tribute and Giving, a response window (Give to
Caesar, Promised Land, Gospel), and last the active faction's phase (Start, Main, End, the
discard to the hand limit). Dice, draws and scoring run inside the action that leads to
them, so no stage is automatic.

Each stage names the factions it asks; a seat acts for the first of them it controls (one
seat may play two factions in the 2-player game). Every stage takes every kind of action:
the rule function it hands the action to checks it and words the refusal (what was wrong and
what would be legal), as the rule text's sections do.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar, get_args

from games.core import ActionSpace, Prompt, Seat, made_once
from games.core.english import count
from games.core.flow import BaseStage, Flow

from .model import (
    Action,
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
from .queries import HAND_LIMIT
from .rules.context import _Ctx

# Roll and Ready names subsets of five dice: one object for each (games.core.made_once)
_ready = made_once(Ready, maxsize=64)
_reroll = made_once(Reroll, maxsize=64)

ALL_KINDS = frozenset(m.model_fields["kind"].default for m in get_args(get_args(Action)[0]))
"""Every action kind (model.py): the current stage takes any action and says why one does not fit it."""


class SoulStage(BaseStage):
    """A stage of Soul of the Empire: the factions it asks (``factions``), the question put
    to one of them (``ask``), its legal actions (``legal``) and the rule function that
    carries an action out (``effect``), each for the faction a seat acts for."""

    actions = ALL_KINDS

    def factions(self, game: Any, s: State) -> Sequence[str]:
        """The factions asked now, in the order a seat acts for them."""
        raise NotImplementedError

    def faction(self, game: Any, s: State, seat: Seat) -> str | None:
        """The faction ``seat`` acts for at this stage (None: the seat is not asked)."""
        for f in self.factions(game, s):
            if game.seat_of(s, f) == seat:
                return f
        return None

    def seats(self, game: Any, s: State) -> Sequence[Seat]:
        """The seats of the factions asked, in seat order."""
        factions = self.factions(game, s)
        if len(factions) == 1:
            return (game.seat_of(s, factions[0]),)
        return sorted({game.seat_of(s, f) for f in factions})

    def ask(self, game: Any, s: State, f: str) -> Prompt:
        """The question put to faction ``f``."""
        raise NotImplementedError

    def prompt(self, game: Any, s: State, seat: Seat) -> Prompt:
        """The question put to the faction ``seat`` acts for."""
        f = self.faction(game, s, seat)
        assert f is not None  # the flow asks only the seats of the factions asked
        return self.ask(game, s, f)

    def legal(self, game: Any, s: State, f: str) -> Sequence[Any]:
        """Every legal action of faction ``f``."""
        raise NotImplementedError

    def legal_actions(self, game: Any, s: State, seat: Seat) -> Sequence[Any]:
        """Every legal action of the faction ``seat`` acts for (none for a seat not asked)."""
        f = self.faction(game, s, seat)
        return () if f is None else self.legal(game, s, f)

    def refusal(self, game: Any, s: State, seat: Seat, action: Any) -> str | None:
        """None: the rule function checks the action and raises IllegalActionError with the reason."""
        return None

    def effect(self, game: Any, ctx: _Ctx, f: str, a: Any) -> None:
        """Carry out ``a`` of faction ``f``."""
        raise NotImplementedError

    def apply(self, game: Any, ctx: _Ctx, seat: Seat, action: Any) -> None:
        """Hand ``action`` to the rule function of this stage, for the faction ``seat`` acts for."""
        f = self.faction(game, ctx.s, seat)
        assert f is not None  # FlowGame.apply: the seat is asked
        self.effect(game, ctx, f, action)


class ScoringStage(SoulStage):
    """Scoring a completed objective (Objective Cards; score or leave it claimed)."""

    name = "scoring"

    def active(self, game: Any, s: State) -> bool:
        return s.scoring is not None

    def factions(self, game: Any, s: State) -> Sequence[str]:
        return (s.scoring.faction,)  # type: ignore[union-attr]

    def ask(self, game: Any, s: State, f: str) -> Prompt:
        return game._scoring_prompt(s)

    def legal(self, game: Any, s: State, f: str) -> Sequence[Any]:
        return [Score(card=c) for c in game.scoring_options(s)] + [Pass()]

    def effect(self, game: Any, ctx: _Ctx, f: str, a: Any) -> None:
        game._apply_scoring(ctx, a)


class ExtraRollStage(SoulStage):
    """The yellow dice (Jewish Revolt Power Cards) or the returned blocking dice, rolled up to 3 times."""

    name = "extra roll"

    def active(self, game: Any, s: State) -> bool:
        return s.extra_roll is not None

    def factions(self, game: Any, s: State) -> Sequence[str]:
        return (s.extra_roll.faction,)  # type: ignore[union-attr]

    def ask(self, game: Any, s: State, f: str) -> Prompt:
        e = s.extra_roll
        assert e is not None
        what = "yellow dice" if e.kind == "yellow" else "returned blocking dice"
        values = game.extra_values(s)
        return Prompt(
            kind="turn",
            text=f"{game.fname(f)}: your {what} show "
            + ", ".join(str(values[i]) for i in e.dice)
            + (f" — reroll some ({count(e.rerolls, 'roll')} left) or keep them." if e.rerolls
               else " — no rolls left: keep them."),
        )

    def legal(self, game: Any, s: State, f: str) -> Sequence[Any]:
        return game.extra_options(s)

    def effect(self, game: Any, ctx: _Ctx, f: str, a: Any) -> None:
        game._apply_extra(ctx, f, a)


class RegroupStage(SoulStage):
    """The Coalition regroups after scoring a region (The Coalition)."""

    name = "regroup"

    def active(self, game: Any, s: State) -> bool:
        return s.regroup is not None

    def factions(self, game: Any, s: State) -> Sequence[str]:
        return ("coalition",)

    def ask(self, game: Any, s: State, f: str) -> Prompt:
        name = game.data.regions[s.regroup.region].name  # type: ignore[union-attr]
        if not s.regroup.taken:  # type: ignore[union-attr]
            return Prompt(
                kind="turn",
                text=f"The Coalition scored {name}: take 1 unit from one of its territories to the "
                "faction board (take <territory>).",
            )
        return Prompt(
            kind="turn",
            text=f"The Coalition scored {name}: regroup up to 6 units into one of its territories, or pass.",
        )

    def legal(self, game: Any, s: State, f: str) -> Sequence[Any]:
        if not s.regroup.taken:  # type: ignore[union-attr]
            return [*game.take_options(s), Pass()]
        return [Pass(), *game.regroup_options(s)]

    def effect(self, game: Any, ctx: _Ctx, f: str, a: Any) -> None:
        if not ctx.s.regroup.taken:  # type: ignore[union-attr]
            game._apply_take(ctx, a)
        else:
            game._apply_regroup(ctx, a)


class RollingStage(SoulStage):
    """Roll and ready: up to 3 rolls, then the Dice Sequence (Using Your Dice)."""

    name = "roll and ready"

    def active(self, game: Any, s: State) -> bool:
        return s.rolling is not None

    def factions(self, game: Any, s: State) -> Sequence[str]:
        return (s.rolling.faction,)  # type: ignore[union-attr]

    def ask(self, game: Any, s: State, f: str) -> Prompt:
        r = s.rolling
        assert r is not None
        name = game.fname(f)
        return Prompt(
            kind="turn",
            text=f"{name}: roll and ready — reroll some dice ({count(r.rerolls, 'roll')} left) "
            "or ready your Dice Sequence." if r.rerolls
            else f"{name}: roll and ready — no rolls left: ready your Dice Sequence.",
        )

    def legal(self, game: Any, s: State, f: str) -> Sequence[Any]:
        return [_ready(dice=o) for o in game.ready_options(s)] + [_reroll(dice=o) for o in game.reroll_options(s)]

    def effect(self, game: Any, ctx: _Ctx, f: str, a: Any) -> None:
        game._apply_rolling(ctx, f, a)


class MarkersStage(SoulStage):
    """Setup: the Objective Point Markers placed in the Roman Empire."""

    name = "Objective Point Markers"

    def active(self, game: Any, s: State) -> bool:
        return s.phase == "markers"

    def factions(self, game: Any, s: State) -> Sequence[str]:
        return (game.marker_placer(s, s.markers_to_place[0]),)

    def ask(self, game: Any, s: State, f: str) -> Prompt:
        owner = s.markers_to_place[0]
        return Prompt(
            kind="turn", text=f"Setup: place the {game.fname(owner)} Objective Point Marker in the Roman Empire."
        )

    def legal(self, game: Any, s: State, f: str) -> Sequence[Any]:
        return [PlaceMarker(territory=t) for t in game.marker_spots(s)]

    def effect(self, game: Any, ctx: _Ctx, f: str, a: Any) -> None:
        game._apply_marker(ctx, a)


class FinalUnitsStage(SoulStage):
    """Setup: Rome's final units placed one at a time."""

    name = "Rome's final units"

    def active(self, game: Any, s: State) -> bool:
        return s.phase == "final"

    def factions(self, game: Any, s: State) -> Sequence[str]:
        return ("rome",)

    def ask(self, game: Any, s: State, f: str) -> Prompt:
        return Prompt(kind="turn", text=f"Setup: place Rome's final units ({s.final_left} left).")

    def legal(self, game: Any, s: State, f: str) -> Sequence[Any]:
        return [PlaceUnit(territory=t) for t in game.final_spots(s)]

    def effect(self, game: Any, ctx: _Ctx, f: str, a: Any) -> None:
        game._apply_final(ctx, a)


class SalvageStage(SoulStage):
    """Salvage: the Coalition keeps one of the two Power Cards drawn (RULINGS.md R14)."""

    name = "Salvage"

    def active(self, game: Any, s: State) -> bool:
        return s.combat is not None and s.combat.stage == "salvage"

    def factions(self, game: Any, s: State) -> Sequence[str]:
        return ("coalition",)

    def ask(self, game: Any, s: State, f: str) -> Prompt:
        c = s.combat
        assert c is not None
        loser = c.defender if c.attacker == "coalition" else c.attacker
        return Prompt(
            kind="turn",
            text=f"Salvage: select one of the two Power Cards drawn from the top of the "
            f"{game.fname(game.hand_owner(loser))} deck to keep; the other goes to the bottom.",
        )

    def legal(self, game: Any, s: State, f: str) -> Sequence[Any]:
        return game._salvage_pick_options(s)

    def effect(self, game: Any, ctx: _Ctx, f: str, a: Any) -> None:
        game._apply_salvage_pick(ctx, a)


class PlunderStage(SoulStage):
    """Plunder after the Coalition's combat victory: rampage, salvage or exploit (RULINGS.md R14)."""

    name = "Plunder"

    def active(self, game: Any, s: State) -> bool:
        return s.combat is not None and s.combat.stage == "plunder"

    def factions(self, game: Any, s: State) -> Sequence[str]:
        return ("coalition",)

    def ask(self, game: Any, s: State, f: str) -> Prompt:
        opts = game._plunder_options(s)
        kinds = [k for k in ("rampage", "salvage", "exploit") if any(o.option == k for o in opts)]
        return Prompt(
            kind="turn",
            text=f"The Coalition won: plunder ({', '.join(kinds)}) for 1 more Rage "
            f"(Rage {s.factions['coalition'].rage} now), or no plunder.",
        )

    def legal(self, game: Any, s: State, f: str) -> Sequence[Any]:
        return game._plunder_options(s)

    def effect(self, game: Any, ctx: _Ctx, f: str, a: Any) -> None:
        game._apply_plunder(ctx, a)


class DecideStage(SoulStage):
    """A combat's decisions after the reveal (Elder, Pharaoh's Fate, Grace, Crucify), one side at a time."""

    name = "combat decision"

    def active(self, game: Any, s: State) -> bool:
        return s.combat is not None and s.combat.stage in ("elder", "decide")

    def factions(self, game: Any, s: State) -> Sequence[str]:
        asking = s.combat.asking  # type: ignore[union-attr]
        return () if asking is None else (asking,)

    def ask(self, game: Any, s: State, f: str) -> Prompt:
        own = game.hand_owner(f) == s.active  # the Gray act on the Jewish turn
        return Prompt(kind="turn" if own else "respond", text=game._decide_prompt(s))

    def legal(self, game: Any, s: State, f: str) -> Sequence[Any]:
        return game.decide_options(s)

    def effect(self, game: Any, ctx: _Ctx, f: str, a: Any) -> None:
        game._apply_decide(ctx, f, a)


class PowersStage(SoulStage):
    """Combat, before the Combat Cards: each side may play a combat Power Card face down (and Rome
    add captured units with Conscription), in secret, shown together (Combat; RULINGS.md R9, R16)."""

    name = "Power Cards before the Combat Cards"

    def active(self, game: Any, s: State) -> bool:
        return s.combat is not None and s.combat.stage == "powers"

    def factions(self, game: Any, s: State) -> Sequence[str]:
        return tuple(game._powers_asked(s))

    def ask(self, game: Any, s: State, f: str) -> Prompt:
        c = s.combat
        assert c is not None
        other = c.defender if f == c.attacker else c.attacker
        conscript = (
            ", add up to 2 captured units with Conscription (conscript 1 Jewish, 1 Coalition)"
            if game._conscript_max(s, f)
            else ""
        )
        return Prompt(
            kind="secret",
            text=f"Combat in {game.tname(c.territory)}: {game.fname(f)} against {game.fname(other)} — before "
            f"the Combat Cards are chosen, play a combat Power Card face down (play <card>){conscript}, or "
            "pass; the other side sees only whether you did (R9).",
        )

    def legal(self, game: Any, s: State, f: str) -> Sequence[Any]:
        return game.prepare_options(s, f)

    def effect(self, game: Any, ctx: _Ctx, f: str, a: Any) -> None:
        game._apply_prepare(ctx, f, a)


class CombatCardsStage(SoulStage):
    """Combat: both sides choose a Combat Card in secret (Combat; RULINGS.md R9)."""

    name = "Combat Cards"

    def active(self, game: Any, s: State) -> bool:
        return s.combat is not None

    def factions(self, game: Any, s: State) -> Sequence[str]:
        c = s.combat
        assert c is not None
        return tuple(side for side in (c.attacker, c.defender) if side not in c.choices)

    def ask(self, game: Any, s: State, f: str) -> Prompt:
        c = s.combat
        assert c is not None
        other = c.defender if f == c.attacker else c.attacker
        elder = " (Elder is face up: no other Power Cards in this combat)" if c.elder is not None else ""
        return Prompt(
            kind="secret",
            text=f"Combat in {game.tname(c.territory)}: {game.fname(f)} against {game.fname(other)} — choose a "
            f"Combat Card in secret{elder}; pass plays the first unused card of your deck (R9).",
        )

    def legal(self, game: Any, s: State, f: str) -> Sequence[Any]:
        return game._commit_options(s, f) + [Pass()]

    def effect(self, game: Any, ctx: _Ctx, f: str, a: Any) -> None:
        game._apply_commit(ctx, f, a)


class ConversionStage(SoulStage):
    """Conversion: the sources of the Christian units, then their spread (RULINGS.md R10)."""

    name = "conversion"

    def active(self, game: Any, s: State) -> bool:
        return s.conversion is not None

    def factions(self, game: Any, s: State) -> Sequence[str]:
        return ("christians",)

    def ask(self, game: Any, s: State, f: str) -> Prompt:
        return game._conversion_prompt(s)

    def legal(self, game: Any, s: State, f: str) -> Sequence[Any]:
        return game.conversion_options(s)

    def effect(self, game: Any, ctx: _Ctx, f: str, a: Any) -> None:
        game._apply_conversion(ctx, a)


class TributeStage(SoulStage):
    """Collect Tribute and Giving: each faction in turn lowers or gives a die (Power Cards)."""

    name = "Collect Tribute"

    def active(self, game: Any, s: State) -> bool:
        return s.tribute is not None or s.giving is not None

    def factions(self, game: Any, s: State) -> Sequence[str]:
        return (game.tribute_chooser(s),)

    def ask(self, game: Any, s: State, f: str) -> Prompt:
        return game._tribute_prompt(s, f)

    def legal(self, game: Any, s: State, f: str) -> Sequence[Any]:
        return game._tribute_options(s, f)

    def effect(self, game: Any, ctx: _Ctx, f: str, a: Any) -> None:
        if ctx.s.tribute is not None:
            game._apply_tribute(ctx, f, a)
        else:
            game._apply_giving(ctx, f, a)


class WindowStage(SoulStage):
    """A response window after a purchase or a move: Give to Caesar, Promised Land, Gospel."""

    name = "response window"

    def active(self, game: Any, s: State) -> bool:
        return s.window is not None

    def factions(self, game: Any, s: State) -> Sequence[str]:
        return (s.window.faction,)  # type: ignore[union-attr]

    def ask(self, game: Any, s: State, f: str) -> Prompt:
        w = s.window
        assert w is not None
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
        return Prompt(kind="respond", text=f"Gospel: {game.fname(w.mover)} moved — move 1 Christian unit 1 territory, or pass.")

    def legal(self, game: Any, s: State, f: str) -> Sequence[Any]:
        return [Pass()] + game._window_options(s)

    def effect(self, game: Any, ctx: _Ctx, f: str, a: Any) -> None:
        game._apply_window(ctx, f, a)


class PhaseStage(SoulStage):
    """One phase of the active faction's turn (``phase``), asked with ``text``."""

    phase: ClassVar[str]
    text: ClassVar[str]

    def active(self, game: Any, s: State) -> bool:
        return s.phase == self.phase

    def factions(self, game: Any, s: State) -> Sequence[str]:
        return (s.active,)

    def ask(self, game: Any, s: State, f: str) -> Prompt:
        text = self.text.format(limit=HAND_LIMIT)
        seat = game.seat_of(s, f)
        shared = sum(1 for g in s.factions.values() if g.seat == seat) > 1  # 2 players: say which faction
        return Prompt(kind="turn", text=f"{game.fname(f)} — {text}" if shared else text)


class StartPhase(PhaseStage):
    """The Start Phase: Start Phase Power Cards and Durable effects, done, or pass the turn."""

    name = phase = "start"
    text = "Start Phase: play Start Phase Power Cards, or say done (or pass the turn)."

    def legal(self, game: Any, s: State, f: str) -> Sequence[Any]:
        # Auxiliaries: "During the Start Phase, take 2 units from supply and place them" (RULINGS.md R19)
        out: list[Any] = [] if game._aux_due(s, f) else [Done()]
        if not s.acted:
            out.append(Pass())
        out += game._power_plays(s, f, "start")
        out += game._durable_uses(s, f)
        return out

    def effect(self, game: Any, ctx: _Ctx, f: str, a: Any) -> None:
        game._apply_start(ctx, f, a)


class MainPhase(PhaseStage):
    """The Main Phase: actions with the faction's dice (Using Your Dice To Take Actions)."""

    name = phase = "main"
    text = "Main Phase: take actions with your dice, or end the Main Phase."

    def legal(self, game: Any, s: State, f: str) -> Sequence[Any]:
        return ActionSpace([EndMain()], game._main_actions(s, f), game._power_plays(s, f, "main"))  # type: ignore[return-value]

    def effect(self, game: Any, ctx: _Ctx, f: str, a: Any) -> None:
        game._apply_main(ctx, f, a)


class EndPhase(PhaseStage):
    """The End Phase: End Phase Power Cards, then done."""

    name = phase = "end"
    text = "End Phase: play End Phase Power Cards, or say done."

    def legal(self, game: Any, s: State, f: str) -> Sequence[Any]:
        return [Done()] + game._power_plays(s, f, "end")

    def effect(self, game: Any, ctx: _Ctx, f: str, a: Any) -> None:
        game._apply_end(ctx, f, a)


class DiscardStage(PhaseStage):
    """The End Phase's discard down to the hand limit."""

    name = phase = "discard"
    text = "End Phase: discard down to {limit} Power Cards."

    def legal(self, game: Any, s: State, f: str) -> Sequence[Any]:
        return [DiscardPower(card=c) for c in game.distinct(s.factions[f].hand)]

    def effect(self, game: Any, ctx: _Ctx, f: str, a: Any) -> None:
        game._apply_discard(ctx, f, a)


FLOW = Flow([
    ScoringStage(), ExtraRollStage(), RegroupStage(), RollingStage(), MarkersStage(), FinalUnitsStage(),
    SalvageStage(), PlunderStage(), DecideStage(), PowersStage(), CombatCardsStage(), ConversionStage(), TributeStage(), WindowStage(),
    StartPhase(), MainPhase(), EndPhase(), DiscardStage(),
])
"""The stages in order of precedence: the first active one is current."""
