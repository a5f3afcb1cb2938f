"""A heuristic player for Soul of the Empire.

It readies the longest Dice Sequence it can (rerolling the other dice), claims
objectives it has completed, fights when its Combat Value is likely the better
one, picks moves and recruits by a one-step look-ahead on a simple evaluation
(points, progress on the face-up objectives and markers, its special victory),
buys Power Cards with what is left and plays the cards it can.

Each faction pursues its own way to win (Winning The Game, Scoring): Rome, the
Jews and the Christians claim objectives they hold and can keep, and fight where
it wins or denies the leader; the Coalition goes for sole occupancy of the
Objective Point Markers and the regions, claims a marker once it holds the
territory alone, raises Rage before fighting, blocks the leader's objectives
with exactly 6 pips and rampages or salvages after a win.
"""

from __future__ import annotations

import random
from itertools import groupby
from typing import Any

from games.core import ActionSpace, CountingRng, Rng, Seat

from . import lookahead
from .evaluation import Evaluation
from .model import (
    Attack,
    Block,
    Buy,
    Claim,
    ClaimMarker,
    Commit,
    Crucify,
    DiscardPower,
    Done,
    Elder,
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
    Prepare,
    Rage,
    Raise,
    Ready,
    Recruit,
    Redirect,
    Reroll,
    Reveal,
    State,
    UseGrace,
)
from .rules.runs import Runs
from .stages import MainPhase

SAMPLE = 48  # candidate moves/recruits looked at per decision
MAX_BLOCKS = 2  # Coalition dice it is willing to leave blocking objectives


class HeuristicAgent(Evaluation):
    name = "heuristic"

    def __init__(self, seed: int | None = None) -> None:
        super().__init__()
        self.rand = random.Random(seed)
        self._best_v = float("-inf")

    # ------------------------------------------------------------------ choosing

    def choose(self, g: Any, s: State, seat: Seat) -> Any:
        f = g.acting(s, seat)
        if self._in_main(g, s):
            # the legal actions in parts, the moves and recruits counted, not made (rules/runs.py)
            moves, recruits, rest = g._main_space(s, f)
            return self._main(g, s, f, (moves, recruits, rest, g._power_plays(s, f, "main")))
        actions = g.legal_actions(s, seat)
        if s.scoring is not None:
            return list(actions)[0]  # score every completed objective
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
            return self._best(g, s, f, list(actions)) or Pass()
        if s.rolling is not None:
            return self._roll(g, s, actions)
        if s.phase == "markers":
            return self._pick([a for a in actions if isinstance(a, PlaceMarker)])
        if s.phase == "final":
            return self._final(g, s, [a for a in actions if isinstance(a, PlaceUnit)])
        if s.combat is not None:
            if s.combat.stage == "plunder":
                return self._plunder(g, s, list(actions))
            if s.combat.stage == "salvage":
                return self._pick(list(actions))
            if s.combat.stage in ("elder", "decide"):
                return self._decide(g, s, f, list(actions))
            if s.combat.stage == "powers":
                return self._prepare(g, s, list(actions))
            return self._commit(g, s, f, [a for a in actions if isinstance(a, Commit)])
        if s.conversion is not None:
            return list(actions)[0]  # convert as many as possible; the excess spread in name order
        if s.tribute is not None or s.giving is not None:
            return self._tribute(g, s, f, actions)
        if s.window is not None and s.window.kind == "caesar":
            return actions[-1]  # raise the highest die offered below 6
        if s.window is not None and s.window.kind == "promised_land":
            return self._redirect(g, s, seat, [a for a in actions if isinstance(a, Redirect)])
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
            if plays and (self.rand.random() < 0.5 or Done() not in actions):
                return self._best(g, s, f, plays)  # Auxiliaries' units are due before done
            return Done()
        return actions[0]

    @staticmethod
    def _in_main(g: Any, s: State) -> bool:
        """Whether ``choose`` answers ``s`` with ``_main``: the Main Phase asks, with none of
        the questions ``choose`` answers first open (the legal actions are MainPhase.legal's)."""
        return (
            s.phase == "main"
            and s.scoring is None
            and s.extra_roll is None
            and s.regroup is None
            and s.rolling is None
            and s.combat is None
            and s.conversion is None
            and s.tribute is None
            and s.giving is None
            and s.window is None
            and isinstance(g.flow.current(g, s), MainPhase)
        )

    def _plunder(self, g: Any, s: State, opts: list[Plunder]) -> Plunder:
        """Rampage into a territory that gains the most (a marker or region territory
        held alone), else salvage a Power Card while Rage stays at 1 or more; plunder
        costs 1 Rage."""
        none = next(a for a in opts if a.option == "none")
        rampage = [a for a in opts if a.option == "rampage"]
        if rampage:
            a = self._best(g, s, "coalition", [none, *rampage])
            if a is not None and a.option == "rampage":
                return a
        salvage = [a for a in opts if a.option == "salvage"]
        if salvage and s.factions["coalition"].rage >= 2:
            return salvage[0]
        return none

    def _final(self, g: Any, s: State, spots: list[PlaceUnit]) -> PlaceUnit:
        """Rome's final units: first guard its own Objective Point Markers (Dacia and
        Armenia, where the Coalition stands) until it outnumbers the Coalition there by
        2, then the other markers."""
        own = []
        for a in spots:
            m = g.marker_at(s, a.territory)
            if m is not None and m.owner == "rome":
                lead = g.units(s, a.territory, "rome") - g.units(s, a.territory, "coalition")
                if lead < 2:
                    own.append((lead, a.territory, a))
        if own:
            return min(own)[2]
        marked = [a for a in spots if g.marker_at(s, a.territory) is not None]
        return self._pick(marked or spots)

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

    def _prepare(self, g: Any, s: State, actions: list[Any]) -> Any:
        """Before the Combat Cards: a combat Power Card if it has one; Conscription's 2 units where
        the highest value wins (from the largest captured groups), none where the lowest wins."""
        c = s.combat
        low = g.lowest_wins(c.attacker, c.defender)
        prepared = [a for a in actions if isinstance(a, Prepare)]
        if not prepared:
            return Pass()

        def score(a: Prepare) -> float:
            units = sum(n for _, n in a.conscript)
            largest = a.conscript == g.conscript_default(s, units) if units else True
            return 3 * (a.power is not None) + units * (-1 if low else 1) + 0.1 * largest + self.rand.random() * 0.01

        best = max(prepared, key=score)
        return best if score(best) > 0.5 else Pass()

    def _commit(self, g: Any, s: State, f: str, actions: list[Commit]) -> Commit:
        c = s.combat
        low = g.lowest_wins(c.attacker, c.defender)

        def score(a: Commit) -> float:
            card = g.data.combat[a.card]
            x = card.number + (
                card.n
                if card.effect in ("edge", "hinder", "kill", "reinforce")
                else 0.5 * (card.effect == "cancel")
            )
            x = -x if low else x
            return x + self.rand.random() * 0.5

        return max(actions, key=score)

    def _decide(self, g: Any, s: State, f: str, actions: list[Any]) -> Any:
        """Combat decisions: play Elder and -1 on whichever value helps; reveal Pharaoh's
        Fate and use Grace on a loss (keep a win); Crucify the largest captured group
        unless the capture track is needed."""
        c = s.combat
        q = c.question
        if q == "elder_play":
            return Elder() if Elder() in actions else Pass()
        if q == "elder":
            # the lowest wins: -1 to our own value; the highest wins: -1 to theirs
            return Elder(choice="mine" if g.lowest_wins(c.attacker, c.defender) else "theirs")
        if q == "pharaoh":
            # reverse a loss; a win (or a Guardian Angel, which cannot be revealed now) is kept
            return Reveal() if c.winner != c.asking and Reveal() in actions else Keep()
        if q == "grace":
            return UseGrace() if c.winner != c.asking else Pass()  # reverse a loss, keep a win
        if q == "crucify":
            rome = s.factions["rome"]
            needed = rome.capture_track >= 20 or any(
                o is not None and o.kind == "captured" and rome.capture_track <= o.n
                for o in (g.data.objectives[x].for_faction("rome") for x in s.objectives)
            )
            crucify = [a for a in actions if isinstance(a, Crucify)]
            if needed or not crucify:
                return Pass()
            return max(crucify, key=lambda a: rome.captured.get(a.faction, 0))
        return actions[-1]

    def _redirect(self, g: Any, s: State, seat: Seat, actions: list[Redirect]) -> Any:
        """Promised Land: send the units where they hurt the mover most (away from its
        objectives and markers, out of the blue region), if that costs it something."""
        mover = s.window.mover
        blue = g.data.region_territories("blue")

        def harm(t: State) -> float:
            inside = sum(g.units(t, b, mover) for b in blue)
            return self.value(g, t, s.window.faction) * 0.3 - self.value(g, t, mover) - 1.5 * inside

        base = harm(s)
        best, best_v = Pass(), base + 1.0  # the card is spent only for a real gain
        rng = Rng(0, 0)
        for a in actions:
            try:
                after = g.apply(s, seat, a, rng).state
            except Exception:  # noqa: BLE001 - a candidate the rules refuse is skipped
                continue
            v = harm(after) + self.rand.random() * 0.1
            if v > best_v:
                best, best_v = a, v
        return best

    def _best(self, g: Any, s: State, f: str, actions: list[Any], main: bool = False) -> Any:
        """The action with the best one-step look-ahead value. ``main``: ``actions`` are
        legal Main Phase actions of ``f``, so a move or recruit is looked ahead without a full
        apply (lookahead.after: the same board, and the evaluation reads nothing else it
        changes)."""
        best, best_v = None, None
        rng = CountingRng(0, 0)
        # a candidate sampled twice is looked ahead at once, unless its apply drew from
        # the shared generator (then a second apply may differ, and draws again)
        # (by identity: a sampled candidate is the legal list's own object, and hashing an
        # action model costs more than its look-ahead's bookkeeping; an equal copy is only
        # looked ahead again, to the same figure)
        seen: dict[int, float | None] = {}
        progress: dict[str, float] = {}  # of s, for the objectives a quick look-ahead leaves alone
        units = self.map_units(g, s, f) if main else None  # of s, changed by a recruit only
        for a in actions:
            if id(a) in seen:
                worth = seen[id(a)]
            else:
                before = rng.position()
                after = lookahead.after(g, s, f, a) if main else None
                if after is not None:
                    known = self.unchanged(g, s, f, lookahead.touched(a), progress)
                    worth = self.value(g, after, f, known, lookahead.units(f, a, units))
                else:
                    try:
                        after = g.apply(s, s.factions[f].seat, a, rng).state
                    except Exception:  # noqa: BLE001 - a candidate the rules refuse is skipped
                        worth = None
                    else:
                        if after.phase == "over":
                            self._best_v = float("inf")
                            return a
                        worth = self.value(g, after, f)
                if rng.position() == before:
                    seen[id(a)] = worth
            if worth is None:
                continue
            v = worth + self.rand.random() * 0.5
            if best_v is None or v > best_v:
                best, best_v = a, v
        self._best_v = best_v if best_v is not None else float("-inf")
        return best

    def _kinds(self, parts: tuple[Runs, Runs, list[Any], list[Any]]) -> tuple[dict[type, list[Any]], Any]:
        """The Main Phase's legal actions (``parts``: the moves and recruits of the faction's own,
        the other die actions, the Power Card plays; MainPhase.legal lists End Main, then them)
        by kind, and the moves, recruits and plays in that order (made when read). With more than
        400 actions, a sample of 400 of them (and End Main) stands for them."""
        moves, recruits, rest, plays = parts
        m, r, k = len(moves), len(recruits), len(rest)
        n = 1 + m + r + k + len(plays)
        by: dict[type, list[Any]] = {}
        if n <= 400:
            for kind, run in groupby(rest, type):  # runs of one kind (the legal list has long runs)
                by.setdefault(kind, []).extend(run)
            return by, ActionSpace(moves.part(), by.get(Move, []), recruits.part(), plays)

        def legal(j: int) -> Any:  # the j-th legal action
            if j == 0:
                return EndMain()
            if j <= m:
                return moves.at(j - 1)
            if j <= m + r:
                return recruits.at(j - 1 - m)
            return rest[j - 1 - m - r] if j <= m + r + k else plays[j - 1 - m - r - k]

        later: dict[type, list[int]] = {Move: [], Recruit: [], PlayPower: []}  # read when picked
        for j in [0] + [int(self.rand.random() * n) for _ in range(400)]:
            if 0 < j <= m + r:
                later[Move if j <= m else Recruit].append(j)
                continue
            a = legal(j)
            if type(a) in later:
                later[type(a)].append(j)
            else:
                by.setdefault(type(a), []).append(a)
        picks = later[Move] + later[Recruit] + later[PlayPower]
        return by, ActionSpace((len(picks), lambda i: legal(picks[i])))

    def _main(self, g: Any, s: State, f: str, parts: tuple[Runs, Runs, list[Any], list[Any]]) -> Any:
        by, cands = self._kinds(parts)
        fs = s.factions[f]
        # 1. claim completed objectives it can keep until scoring, the most points first;
        #    the Coalition claims a marker once it holds the territory alone
        met = [
            a for a in by.get(Claim, []) if g.objective_met(s, f, a.card) and self._keepable(g, s, f, a.card)
        ]
        if met:
            return max(met, key=lambda a: g.data.objectives[a.card].for_faction(f).points)
        for a in by.get(ClaimMarker, []):
            if g.units(s, a.territory, "coalition") > 0 and g.sole(s, a.territory, "coalition"):
                return a
        # 2. the Coalition raises Rage with a spare die before a fight it wants
        # the die's value does not count in a combat: attack with the lowest one offered
        lowest: dict[tuple[Any, ...], Attack] = {}
        for a in by.get(Attack, []):
            key = (a.territory, a.target, a.gray, a.yellow, a.die if a.yellow else None)
            v = g.die_value(s, f, a.die, a.yellow)
            if key not in lowest or v < g.die_value(s, f, lowest[key].die, a.yellow):
                lowest[key] = a
        attacks = list(lowest.values())
        if f == "coalition" and fs.rage < 3 and by.get(Rage) and len(g.seq_dice(s, f)) >= 2:
            wanted = [a for a in attacks if self._fight_worth(g, s, f, a) >= 5]
            if any(self._good_fight(g, s, f, a, rage=3) for a in wanted):

                def gain(a: Rage) -> int:
                    pips = fs.dice[a.die].value + (fs.dice[a.extra].value if a.extra is not None else 0)
                    return min(3 - fs.rage, pips // 2)

                return max(by[Rage], key=lambda a: (gain(a), -fs.dice[a.die].value))
        # 3. favourable combat, the most useful first
        good = [a for a in attacks if self._good_fight(g, s, f, a)]
        if good:
            best = max(good, key=lambda a: self._fight_worth(g, s, f, a) + self.rand.random())
            if self._fight_worth(g, s, f, best) >= 3 or self.rand.random() < 0.6:
                return best
        # 4. the Coalition blocks the objective that most helps the leader (exactly 6 pips)
        if f == "coalition":
            b = self._block(g, s, by.get(Block, []))
            if b is not None:
                return b
        # 5. moves, recruits, cards (and Rage) by look-ahead
        if len(cands) > SAMPLE:
            cands = [cands[int(self.rand.random() * len(cands))] for _ in range(SAMPLE)]
        else:
            cands = list(cands)
        if f == "coalition":
            cands += by.get(Rage, [])
        elif f == "rome" and len(fs.hand) + s.bought < 3:
            cands += by.get(Buy, [])
        base = self.value(g, s, f)
        if cands:
            a = self._best(g, s, f, cands, main=True)
            if a is not None and (self._best_v - base > 0.6 or isinstance(a, PlayPower)):
                return a
        # 6. claim objectives close to completion, buy Power Cards
        close = [
            a
            for a in by.get(Claim, [])
            if self._progress(g, s, f, a.card) >= 0.5
            and not g.data.objectives[a.card].for_faction(f).score_in_start
        ]
        if close and self.rand.random() < 0.5:
            return close[0]
        buys = by.get(Buy, [])
        if buys and len(fs.hand) + s.bought < 3:
            return max(buys, key=lambda a: fs.dice[a.die].value)
        if cands and self.rand.random() < 0.5:
            return self._pick(cands)
        return EndMain()

    def _rivals(self, g: Any, s: State, f: str) -> list[str]:
        return [o for o in s.order if o != f and not g.same_player(s, f, o)]

    def _keepable(self, g: Any, s: State, f: str, c: str) -> bool:
        """Whether a completed objective is worth a die: Rome's "Score in Start Phase"
        objectives score only at its next Start Phase, so not when a rival has its own
        objective on that card done already (it would score the card first) or the
        requirement hangs on a single unit."""
        o = g.data.objectives[c].for_faction(f)
        if not o.score_in_start:
            return True
        for r in self._rivals(g, s, f):
            if r == "coalition" or g.data.objectives[c].for_faction(r) is None:
                continue
            if g.objective_met(s, r, c) and not g.blocked(s, c, r):
                return False
        if o.kind == "hold":
            return all(g.side_units(s, t, f) > o.n for t in o.territories) or o.n >= 4
        return True

    def _fight_worth(self, g: Any, s: State, f: str, a: Attack) -> float:
        """How much a won fight helps: units removed or captured, a rival's completed
        objective undone, and for the Coalition a marker, region, Rome or Italia opened."""
        side = "gray" if a.gray else f
        t, target = a.territory, a.target
        theirs = g.side_units(s, t, target)
        w = theirs * (1.0 if f == "rome" else 0.5)
        tf = "jews" if target == "gray" else target
        if tf in s.factions:
            w += s.factions[tf].points * 0.5
            for c in s.objectives:
                o = g.data.objectives[c].for_faction(tf)
                if o is not None and t in o.territories and g.objective_met(s, tf, c):
                    w += 3 * o.points
                    if g.claims(s, c).get(f) is not None:
                        w += 4  # it would score the card we claimed first
        if side == "coalition":
            co = s.factions["coalition"]
            others = g.occupants(s, t) - {"coalition", target}
            m = g.marker_at(s, t)
            if m is not None:
                w += (6 if not others else 3) * (2 if m.owner in co.markers else 1)
                if any(d.place == "marker" and d.on == t for d in co.dice):
                    w += 3
            rid = g.data.region_of(t)
            if g.data.regions[rid].empire and rid not in co.regions_scored:
                ts = g.data.region_territories(rid)
                w += (
                    4
                    * sum(
                        1 for x in ts if x != t and g.units(s, x, "coalition") and g.sole(s, x, "coalition")
                    )
                    / len(ts)
                )
            if t in ("rome", "italia"):
                w += 6
            w += 1  # the units there are frozen until the others are gone
        return w

    def _block(self, g: Any, s: State, blocks: list[Block]) -> Block | None:
        """Block (exactly 6 pips) a rival's unclaimed objective that is done or nearly
        done, the leader's first; at most MAX_BLOCKS dice left on objectives."""
        co = s.factions["coalition"]
        if not blocks or sum(1 for d in co.dice if d.place == "block") >= MAX_BLOCKS:
            return None
        best, best_w = None, 0.0
        for a in blocks:
            o = g.data.objectives[a.card].for_faction(a.target)
            pts = s.factions[a.target].points
            if g.objective_met(s, a.target, a.card):
                near = 1.0
            else:
                near = self._progress(g, s, a.target, a.card)
                if near < 0.6:
                    continue
            w = near * (4 * o.points + 2 * pts) + (8 if pts + o.points >= 7 else 0)
            w -= 1.5 if a.extra is not None else 0  # a second die left on the card
            if w > best_w:
                best, best_w = a, w
        return best if best_w >= 9 else None

    def _good_fight(self, g: Any, s: State, f: str, a: Attack, rage: int | None = None) -> bool:
        side = "gray" if a.gray else f
        mine = g.side_units(s, a.territory, side)
        theirs = g.side_units(s, a.territory, a.target)
        if g.lowest_wins(side, a.target):
            # the Christians want few units against Rome and the Jews; the others many
            return (mine < theirs) if side == "christians" else (mine > theirs + 1)
        if side != "coalition":
            rage = 0
        elif rage is None:
            rage = s.factions["coalition"].rage
        bonus = (
            -g.units(s, a.territory, "christians")
            if side == "coalition" and a.target in ("rome", "jews", "gray")
            else 0
        )
        if side == "coalition":
            # ties go to the defender: an even fight only where a marker, region or Rome is at stake
            margin = 0 if self._fight_worth(g, s, f, a) >= 5 else 1
        elif side == "rome":
            # Rome captures what it beats: one unit more is enough where it undoes a rival's objective
            margin = 1 if self._fight_worth(g, s, f, a) >= theirs + 3 else 2
        else:
            margin = 2
        return mine + rage + bonus >= theirs + margin
