"""A heuristic player for Soul of the Empire.

It readies the longest Dice Sequence it can (rerolling the other dice), claims
objectives it has completed, fights when its Combat Value is likely the better
one, picks moves and recruits by a one-step look-ahead on a simple evaluation
(points, progress on the face-up objectives and markers, its special victory),
buys Power Cards with what is left and plays the cards it can.
"""

from __future__ import annotations

import random
from typing import Any

from games.core import Rng, Seat

from .model import (
    Attack,
    Buy,
    Claim,
    ClaimMarker,
    Commit,
    DiscardPower,
    Done,
    EndMain,
    Give,
    Keep,
    Lower,
    Move,
    Pass,
    PlaceMarker,
    PlaceUnit,
    PlayPower,
    Plunder,
    Rage,
    Raise,
    Ready,
    Recruit,
    Reroll,
    State,
)

SAMPLE = 48  # candidate moves/recruits looked at per decision


class HeuristicAgent:
    name = "heuristic"

    def __init__(self, seed: int | None = None) -> None:
        self.rand = random.Random(seed)

    # ------------------------------------------------------------------ evaluation

    def value(self, g: Any, s: State, f: str) -> float:
        """How good ``s`` looks for faction ``f`` (higher is better)."""
        fs = s.factions[f]
        v = fs.points * 100.0 + g.on_board(s, f) * 1.0
        if f == "jews":
            v += g.on_board(s, "gray") * 0.5
        for c in s.objectives:
            card = g.data.objectives[c]
            o = card.for_faction(f)
            if o is None:
                continue
            v += self._progress(g, s, f, c) * o.points * 12
        if f == "rome":
            v += fs.capture_track * 4
        elif f == "christians":
            v += fs.converted * 4
            v += sum(3 for t in ("rome", "jerusalem", "germania") if g.units(s, t, f))
        elif f == "coalition":
            for m in s.markers:
                if m.territory and g.sole(s, m.territory, f):
                    v += 15
                elif m.territory:
                    v += min(g.units(s, m.territory, f), 3) * 2
            for t in ("rome", "italia"):
                v += min(g.units(s, t, f), 4) * 3
            v += fs.rage * 2
        elif f == "jews":
            for t in g.data.region_territories("blue"):
                v += 6 if g.sole(s, t, f) else min(g.side_units(s, t, f), 4)
        return v

    def _progress(self, g: Any, s: State, f: str, c: str) -> float:
        """0..1: how near ``f`` is to its objective on card ``c``."""
        if g.objective_met(s, f, c):
            return 1.0
        o = g.data.objectives[c].for_faction(f)
        mine = lambda t: g.side_units(s, t, f)  # noqa: E731
        if o.kind in ("hold", "share"):
            need = max(o.n, 1) * len(o.territories)
            return sum(min(mine(t), max(o.n, 1)) for t in o.territories) / need * 0.8
        if o.kind == "sole":
            return sum(0.5 if mine(t) else 0 for t in o.territories) / len(o.territories) * 0.8
        if o.kind == "region_units":
            return min(1, sum(mine(t) for t in g.data.region_territories(o.region)) / o.n) * 0.8
        if o.kind == "territories":
            return min(1, sum(1 for t in g.data.territories if mine(t)) / o.n) * 0.8
        return 0.0

    # ------------------------------------------------------------------ choosing

    def choose(self, g: Any, s: State, seat: Seat) -> Any:
        f = g.acting(s, seat)
        actions = g.legal_actions(s, seat)
        if s.extra_roll is not None:
            # reroll the dice below 4 while rolls are left
            values = g.extra_values(s)
            low = tuple(i for i in s.extra_roll.dice if values[i] < 4)
            want = [
                a
                for a in actions
                if isinstance(a, Reroll)
                and sorted(values[i] for i in a.dice) == sorted(values[i] for i in low)
            ]
            return want[0] if low and want else Keep()
        if s.regroup is not None:
            return actions[1] if len(actions) > 1 and self.rand.random() < 0.5 else Pass()
        if s.rolling is not None:
            return self._roll(g, s, actions)
        if s.phase == "markers":
            return self._pick([a for a in actions if isinstance(a, PlaceMarker)])
        if s.phase == "final":
            spots = [a for a in actions if isinstance(a, PlaceUnit)]
            marked = [a for a in spots if g.marker_at(s, a.territory) is not None]
            return self._pick(marked or spots)
        if s.combat is not None:
            if s.combat.stage == "plunder":
                opts = list(actions)
                salvage = [a for a in opts if isinstance(a, Plunder) and a.option == "salvage"]
                return salvage[0] if salvage and self.rand.random() < 0.6 else opts[0]
            return self._commit(g, s, f, [a for a in actions if isinstance(a, Commit)])
        if s.tribute is not None or s.giving is not None:
            return self._tribute(g, s, f, actions)
        if s.window is not None and s.window.kind == "caesar":
            return actions[-1]  # raise the highest die offered below 6
        if s.window is not None:
            opts = list(actions)
            return opts[1] if len(opts) > 1 and self.rand.random() < 0.5 else Pass()
        if s.phase == "discard":
            return self._pick([a for a in actions if isinstance(a, DiscardPower)])
        if s.phase in ("start", "end"):
            plays = [a for a in actions if isinstance(a, PlayPower)]
            others = [a for a in actions if not isinstance(a, (PlayPower, Done, Pass))]
            if s.phase == "start" and others and self.rand.random() < 0.8:
                return self._pick(others)
            if plays and self.rand.random() < 0.5:
                return self._best(g, s, f, plays)
            return Done()
        if s.phase == "main":
            return self._main(g, s, f, actions)
        return actions[0]

    def _tribute(self, g: Any, s: State, f: str, actions: Any) -> Any:
        """Collect Tribute and Giving: lower or give the die that hurts least (outside the
        Dice Sequence first); raise the Dice Sequence die that helps most (the highest)."""
        if s.giving is not None:
            return Give(die=g.give_default(s, f))
        if s.tribute.waiting:
            return Lower(die=g.lower_default(s, f))
        dice = s.factions[f].dice
        raises = [a for a in actions if isinstance(a, Raise)]
        return max(raises, key=lambda a: (dice[a.die].seq, dice[a.die].value)) if raises else Done()

    def _pick(self, items: list[Any]) -> Any:
        return items[int(self.rand.random() * len(items))]

    def _roll(self, g: Any, s: State, actions: Any) -> Any:
        readies = [a for a in actions if isinstance(a, Ready)]
        best = readies[0]
        r = s.rolling
        if len(best.dice) >= 4 or r.rerolls == 0:
            return best
        dice = s.factions[r.faction].dice
        rest = sorted(dice[i].value for i in r.dice if i not in best.dice)
        for a in actions:
            if isinstance(a, Reroll) and sorted(dice[i].value for i in a.dice) == rest:
                return a
        return best

    def _commit(self, g: Any, s: State, f: str, actions: list[Commit]) -> Commit:
        c = s.combat
        other = c.defender if f == c.attacker else c.attacker
        low = g.lowest_wins(c.attacker, c.defender)

        def score(a: Commit) -> float:
            card = g.data.combat[a.card]
            x = card.number + (
                card.n
                if card.effect in ("edge", "hinder", "kill", "reinforce")
                else 0.5 * (card.effect == "cancel")
            )
            x = -x if low else x
            if a.power:
                x += 3
            x += a.conscript * (-1 if low else 1)
            return x + self.rand.random() * 0.5

        del other
        return max(actions, key=score)

    def _best(self, g: Any, s: State, f: str, actions: list[Any]) -> Any:
        """The action with the best one-step look-ahead value."""
        best, best_v = None, None
        rng = Rng(0, 0)
        for a in actions:
            try:
                after = g.apply(s, s.factions[f].seat, a, rng).state
            except Exception:  # noqa: BLE001 - a candidate the rules refuse is skipped
                continue
            if after.phase == "over":
                return a
            v = self.value(g, after, f) + self.rand.random() * 0.5
            if best_v is None or v > best_v:
                best, best_v = a, v
        return best

    def _main(self, g: Any, s: State, f: str, actions: Any) -> Any:
        n = len(actions)
        allowed = (
            [actions[i] for i in range(n)]
            if n <= 400
            else [actions[0]] + [actions[int(self.rand.random() * n)] for _ in range(400)]
        )
        by: dict[type, list[Any]] = {}
        for a in allowed:
            by.setdefault(type(a), []).append(a)
        # 1. claim completed objectives, Coalition markers held alone
        for a in by.get(Claim, []):
            if g.objective_met(s, f, a.card):
                return a
        for a in by.get(ClaimMarker, []):
            if g.units(s, a.territory, "coalition") >= 2 or g.sole(s, a.territory, "coalition"):
                return a
        # 2. favourable combat
        attacks = [a for a in by.get(Attack, []) if self._good_fight(g, s, f, a)]
        if attacks and self.rand.random() < 0.7:
            return self._pick(attacks)
        # 3. Coalition rage
        if f == "coalition" and s.factions[f].rage < 2:
            rage = by.get(Rage, [])
            if rage and self.rand.random() < 0.3:
                return self._pick(rage)
        # 4. moves, recruits and cards by look-ahead
        cands = by.get(Move, []) + by.get(Recruit, []) + by.get(PlayPower, [])
        if len(cands) > SAMPLE:
            cands = [cands[int(self.rand.random() * len(cands))] for _ in range(SAMPLE)]
        base = self.value(g, s, f)
        if cands:
            a = self._best(g, s, f, cands)
            if a is not None:
                rng = Rng(0, 0)
                try:
                    gain = self.value(g, g.apply(s, s.factions[f].seat, a, rng).state, f) - base
                except Exception:  # noqa: BLE001
                    gain = 0
                if gain > 0.6 or isinstance(a, PlayPower):
                    return a
        # 5. claim objectives close to completion, buy Power Cards
        close = [a for a in by.get(Claim, []) if self._progress(g, s, f, a.card) >= 0.5]
        if close and self.rand.random() < 0.5:
            return close[0]
        buys = by.get(Buy, [])
        if buys and len(s.factions[f].hand) + s.bought < 3:
            return max(buys, key=lambda a: s.factions[f].dice[a.die].value)
        if cands and self.rand.random() < 0.5:
            return self._pick(cands)
        return EndMain()

    def _good_fight(self, g: Any, s: State, f: str, a: Attack) -> bool:
        side = "gray" if a.gray else f
        mine = g.side_units(s, a.territory, side)
        theirs = g.side_units(s, a.territory, a.target)
        if g.lowest_wins(side, a.target):
            # the Christians want few units against Rome and the Jews; the others many
            return (mine < theirs) if side == "christians" else (mine > theirs + 1)
        rage = s.factions["coalition"].rage if side == "coalition" else 0
        bonus = (
            -g.units(s, a.territory, "christians")
            if side == "coalition" and a.target in ("rome", "jews", "gray")
            else 0
        )
        margin = 0 if side == "coalition" else 2
        return mine + rage + bonus >= theirs + margin
