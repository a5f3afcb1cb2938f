"""Soul of the Empire (rule text: shared/seeds/000; rulings: RULINGS.md).

The flow: setup (Objective Point Markers, Rome's final 8 units, every faction rolls
and readies) -> rounds of one turn per faction (Start, Main, End phases) -> the
first to 7 points or a special victory wins, checked after every action. The flow is
stated once in stages.py; the rules by area are in rules/, the table queries in
queries.py, the views in view.py. Automatic steps (dice rolls, draws, scoring) happen
inside the action that leads to them; the game stops whenever a seat must decide
something and says so through ``to_act``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from pydantic import TypeAdapter

from games.core import Outcome, Prompt, Rng, Seat
from games.core.base import NotationGame
from games.core.english import count
from games.core.explain import Explanation, named_in
from games.core.flow import FlowGame
from games.core.memo import last_state

from . import notation, text
from . import view as view_rules
from .data import Data, load
from .model import Action, DiscardPower, EndMain, Pass, State, View
from .options import Options
from .queries import Queries
from .rules import Rules
from .rules.context import _Ctx, effect
from .stages import FLOW

_ACTION = TypeAdapter(Action)


class SoulOfTheEmpire(FlowGame, Rules, Queries, NotationGame):
    """The Soul of the Empire game object (stateless; see games.core.Game): the contract's
    attributes, the flow (stages.py), the outcome and the views; the rules are the functions of
    rules/ (bound by :class:`Rules`), the table queries queries.py, the views view.py."""

    effects = effect

    def card_ids(self) -> frozenset[str]:
        """Every Power Card id of the data (power.toml)."""
        return frozenset(self.data.power)

    explained = "Power Card, Combat Card, Objective Card or faction"

    id = "soul-of-the-empire"
    title = "Soul of the Empire"
    min_players = 2
    max_players = 4
    Options = Options
    State = State
    View = View
    notation = notation
    action_adapter = _ACTION
    flow = FLOW
    # 2: the combat order changed: Power Cards and Conscription are played face down, in secret,
    # before the Combat Cards are chosen (Commit lost its ``power``; a new step asks
    # ``play <card>`` / ``conscript ...`` / ``pass`` first). Logs of version 1 no longer replay.
    rules_version = 2

    def __init__(self) -> None:
        self.data: Data = load()
        self._explanations: tuple[Explanation, ...] | None = None
        blue = self.data.region_territories("blue")
        self._blue = frozenset(blue)
        self._zone = self._blue.union(*(self.data.adjacent[t] for t in blue))

    def explanations(self) -> tuple[Explanation, ...]:
        """What ``explain`` knows: every Power Card, Combat Card, Objective Card and faction,
        from power.toml, combat.toml, objectives.toml and factions.toml."""
        if self._explanations is None:
            self._explanations = self._explain_all()
        return self._explanations

    def named_by(self, texts: Iterable[str]) -> list[Explanation]:
        """The entries a decision names, where a territory that shares its name with a faction
        (Rome) counts as the territory: after ``marker``, ``place``, ``in``, ``from``, ``to`` or
        a count, and on either side of a route's ``-`` (``marker Rome``, ``move 4: 2 Rome-Italia``);
        a faction is written ``Rome in Jerusalem``, ``on Rome``, ``shift Rome ...``. The faction
        that heads a question ("Rome — Main Phase: ...") is not what it names."""
        entries = self.explanations()
        # a question's "Rome — " says whose it is (a seat playing two factions), not what it is about
        texts = [re.sub(r"^\w+ — ", "", t) for t in texts]
        both = {e.name for e in entries} & {t.name for t in self.data.territories.values()}
        if not both:
            return named_in(entries, texts)
        names = "|".join(re.escape(n) for n in sorted(both, key=len, reverse=True))
        place = re.compile(
            rf"\b(?:marker|place|take|regroup|in|from|to|\d+)\s+(?:{names})\b|(?:{names})(?=[-:])|(?<=-)(?:{names})\b",
            re.I,
        )
        return named_in(entries, [place.sub(" ", t) for t in texts])

    def notation_is_public(self, s: State, seat: Seat, a: Any) -> bool:
        """Whether others may read ``a`` as typed: every action outside combat but a
        discard from the hand (which names a hidden card); in combat the events tell what
        may be told (a Combat Card is chosen in secret, and keeping Pharaoh's Fate face
        down must not show that it was there)."""
        if s.combat is not None and s.combat.stage != "plunder":
            return False
        return not isinstance(a, DiscardPower)

    def option_notes(self, s: State, seat: Seat) -> dict[str, str]:
        """During a combat, each Combat Card's number (its printed value, data/combat.toml),
        shown on the buttons that commit it."""
        if s.combat is None:
            return {}
        return {c.name: str(c.number) for c in self.data.combat.values()}

    def acted_note(self, s: State, seat: Seat, action: Any, typed: str | None) -> str | None:
        """What ``pass`` in the Start Phase does (Passing: the whole turn is passed and every die
        gathered and rolled again), and how many dice of the Dice Sequence ``end`` leaves unspent
        (they are rolled again in the End Phase: Roll and Ready)."""
        f = self.acting(s, seat)
        if f is None:
            return None
        if isinstance(action, Pass) and s.phase == "start":
            return (f"pass: {self.fname(f)} passes its whole turn instead of playing its 3 phases (Passing): "
                    "all its dice are gathered, then rolled and readied for its next turn.")
        if isinstance(action, EndMain):
            left = sorted(d.value for d in s.factions[f].dice if d.place == "unspent" and d.seq)
            if left:
                return (f"end: {self.fname(f)} ends its Main Phase with {count(len(left), 'die', 'dice')} of its "
                        f"Dice Sequence unspent ({' '.join(map(str, left))}); they are rolled again in the End Phase.")
        return None

    def seat_name(self, s: State, seat: Seat) -> str:
        """The factions a seat plays: "Rome", or "Rome + Jewish" with 2 players."""
        return " + ".join(self.fname(f) for f in s.order if s.factions[f].seat == seat)

    # ------------------------------------------------------------------ the flow (stages.py)

    def to_act(self, s: State) -> Mapping[Seat, Prompt]:
        """Who is asked now and how: the current stage's seats and questions (a fresh dict,
        remembered for the last state: games.core.memo; the agents' look-ahead applies many
        actions to one state)."""
        return dict(self._to_act(s))

    @last_state
    def _to_act(self, s: State) -> Mapping[Seat, Prompt]:
        return FlowGame.to_act(self, s)

    def legal_actions(self, s: State, seat: Seat) -> Sequence[Any]:
        """Every legal action for ``seat``; for Move and Recruit, one group of units
        along one route or into one territory per action (the notation accepts any
        combination; RULINGS.md R5). A fresh list each call, remembered for the last state
        (games.core.memo): reading typed text asks for it again and again."""
        return list(self._legal_actions(s, seat))

    @last_state
    def _legal_actions(self, s: State, seat: Seat) -> Sequence[Any]:
        return FlowGame.legal_actions(self, s, seat)  # type: ignore[return-value]

    def acting(self, s: State, seat: Seat) -> str | None:
        """The faction ``seat`` is asked to act for now (by the current stage), or None."""
        if s.phase == "over":
            return None
        stage = self.flow.current(self, s)
        return None if stage is None else stage.faction(self, s, seat)  # type: ignore[attr-defined]

    def faction_prompt(self, s: State, f: str) -> Prompt:
        """The question the current stage puts to faction ``f`` (whether or not it is asked)."""
        return self.flow.current(self, s).ask(self, s, f)  # type: ignore[union-attr]

    def context(self, s: State, rng: Rng) -> _Ctx:
        """The scratch of one ``apply``, with Soul of the Empire's helpers."""
        return _Ctx(s, rng)

    def settle(self, ctx: _Ctx) -> None:  # type: ignore[override]
        """Nothing to run: no stage of Soul of the Empire is automatic (dice, draws and scoring
        run inside the action that leads to them, stages.py)."""

    def after_action(self, ctx: _Ctx, seat: Seat | None, action: Any) -> None:  # type: ignore[override]
        """After every action: a revolt left without units ends, whatever removed them
        (RULINGS.md R13); then Winning The Game (and the special victories) is checked."""
        if ctx.s.revolts and ctx.s.combat is None and ctx.s.extra_roll is None:
            self._revolt_check(ctx)
        if ctx.s.phase != "over":
            self._check_victory(ctx)

    # ------------------------------------------------------------------ outcome, view, notation

    view = view_rules.view
    perturb_hidden = view_rules.perturb_hidden
    sealed = view_rules.sealed
    objective_text = view_rules.objective_text
    _explain_all = view_rules.explain_all

    def outcome(self, s: State) -> Outcome | None:
        """None while playing; then the winners and why (Winning The Game)."""
        if s.phase != "over":
            return None
        return Outcome(winners=s.winners, reason=s.end_reason)

    # ------------------------------------------------------------ hidden information

    def seats(self, s: State) -> tuple[Seat, ...]:
        """Every seat (one seat may play two factions)."""
        return tuple(range(s.players))

    def parse_action(self, s: State, seat: Seat, text: str) -> Any:
        """Read ``text`` in the notation (see notation.py). Raises GameOverError,
        NotYourTurnError, InvalidNotationError, AmbiguousActionError."""
        self.require_turn(s, seat)
        f = self.acting(s, seat)
        assert f is not None  # require_turn: the seat is asked, so it acts for a faction
        return notation.parse(self, s, f, text)

    # ------------------------------------------------------------------ console text

    def summary(self, view: View) -> str:
        """A few lines for the terminal console: points, dice, board."""
        return text.summary(self, view)

    def hand_text(self, view: View) -> str:
        """The seat's hand for the terminal console."""
        return text.hand_text(self, view)


GAME = SoulOfTheEmpire()
