"""Soul of the Empire rules (rule text: shared/seeds/000; rulings: RULINGS.md).

The flow: setup (Objective Point Markers, Rome's final 8 units, every faction rolls
and readies) -> rounds of one turn per faction (Start, Main, End phases) -> the
first to 7 points or a special victory wins, checked after every action.
Automatic steps (dice rolls, draws, scoring) happen inside ``apply``; the game
stops whenever a seat must decide something and says so through ``to_act``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pydantic import TypeAdapter

from games.core import Outcome, Prompt, Rng, Seat
from games.core.base import NotationGame
from games.core.explain import Explanation
from games.core.flow import FlowGame
from games.core.memo import last_state

from . import notation
from . import view as view_rules
from .data import Data, load
from .model import Action, DiscardPower, State, View
from .options import Options
from .queries import Queries
from .rules import cards as cards_rules
from .rules import combat as combat_rules
from .rules import conversion as conversion_rules
from .rules import dice as dice_rules
from .rules import main as main_rules
from .rules import movement as movement_rules
from .rules import outcome as outcome_rules
from .rules import plunder as plunder_rules
from .rules import powers as powers_rules
from .rules import scoring as scoring_rules
from .rules import setup as setup_rules
from .rules import tribute as tribute_rules
from .rules import turn as turn_rules
from .rules import windows as windows_rules
from .rules.context import _Ctx, effect
from .stages import FLOW

_ACTION = TypeAdapter(Action)


class SoulOfTheEmpire(FlowGame, Queries, NotationGame):
    """The Soul of the Empire game object (stateless; see games.core.Game)."""

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

    def __init__(self) -> None:
        self.data: Data = load()
        self._explanations: tuple[Explanation, ...] | None = None
        blue = self.data.region_territories("blue")
        self._zone = frozenset(blue).union(*(self.data.adjacent[t] for t in blue))

    def explanations(self) -> tuple[Explanation, ...]:
        """What ``explain`` knows: every Power Card, Combat Card, Objective Card and faction,
        from power.toml, combat.toml, objectives.toml and factions.toml."""
        if self._explanations is None:
            self._explanations = self._explain_all()
        return self._explanations

    # ------------------------------------------------------------------ setup

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

    def after_action(self, ctx: _Ctx, seat: Seat | None, action: Any) -> None:  # type: ignore[override]
        """After every action: a revolt left without units ends, whatever removed them
        (RULINGS.md R13); then Winning The Game (and the special victories) is checked."""
        if ctx.s.revolts and ctx.s.combat is None and ctx.s.extra_roll is None:
            self._revolt_check(ctx)
        if ctx.s.phase != "over":
            self._check_victory(ctx)

    # ------------------------------------------------------------------ movement

    PROMISED_LAND_HOLDERS = ("jews", "coalition")

    # ------------------------------------------------------------------ combat

    FACE_DOWN = frozenset({"pharaohs-fate", "guardian-angel"})

    COMBAT_STEPS = ("elder", "pharaoh", "grace", "angel", "crucify", "outcome")

    # ------------------------------------------------------------------ Power Cards

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
    # the salvaged cards whose text names what the Coalition has not got (R14)
    COALITION_LACKS = {
        "conscription": "a Captured Unit Area",
        "enrapture": "Objective Cards to claim",
        "giving": "a Power Card deck to draw from",
    }
    MOVE_CARDS = {"roman-roads": 4, "caravan": 3, "missionary-journey": 4}
    RECRUIT_CARDS = {"legion-levy": 3, "pentecost": 3}

    # each handler validates its parameters and applies the effect

    # ------------------------------------------------------------------ outcome, view, notation

    def outcome(self, s: State) -> Outcome | None:
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
        from . import text

        return text.summary(self, view)

    def hand_text(self, view: View) -> str:
        from . import text

        return text.hand_text(self, view)

    _explain_all = view_rules.explain_all
    view = view_rules.view
    objective_text = view_rules.objective_text
    perturb_hidden = view_rules.perturb_hidden

    seat_factions = setup_rules.seat_factions
    setup = setup_rules.setup
    _order = setup_rules.order
    _begin_final = setup_rules.begin_final
    _begin_setup_rolls = setup_rules.begin_setup_rolls
    _apply_marker = setup_rules.apply_marker
    _apply_final = setup_rules.apply_final

    _start_rolling = dice_rules.start_rolling
    _roll_yellow = dice_rules.roll_yellow
    ready_options = dice_rules.ready_options
    reroll_options = dice_rules.reroll_options
    _apply_rolling = dice_rules.apply_rolling
    _finish_rolling = dice_rules.finish_rolling
    _after_ready = dice_rules.after_ready
    _set_yellow = dice_rules.set_yellow
    _offer_extra = dice_rules.offer_extra
    extra_options = dice_rules.extra_options
    _apply_extra = dice_rules.apply_extra

    _begin_turn = turn_rules.begin_turn
    _next_turn = turn_rules.next_turn
    _end_start_phase = turn_rules.end_start_phase
    _after_start_scoring = turn_rules.after_start_scoring
    _end_phase_done = turn_rules.end_phase_done
    _end_roll = turn_rules.end_roll
    _end_scoring = turn_rules.end_scoring
    _after_end_scoring = turn_rules.after_end_scoring
    _end_scoring_rest = turn_rules.end_scoring_rest
    _draw = turn_rules.draw
    _apply_start = turn_rules.apply_start
    _apply_end = turn_rules.apply_end
    _apply_discard = turn_rules.apply_discard
    _discard_card = turn_rules.discard_card
    _pass_turn = turn_rules.pass_turn
    _check_victory = turn_rules.check_victory
    _finish = turn_rules.finish
    _finish_by_limit = turn_rules.finish_by_limit
    _to_discard = turn_rules.to_discard
    _return_card = turn_rules.return_card

    scoring_options = scoring_rules.scoring_options
    _score_objectives = scoring_rules.score_objectives
    _scoring_prompt = scoring_rules.scoring_prompt
    _apply_scoring = scoring_rules.apply_scoring
    _score_card = scoring_rules.score_card
    _gain = scoring_rules.gain
    _score_markers = scoring_rules.score_markers
    _score_regions = scoring_rules.score_regions
    regroup_options = scoring_rules.regroup_options
    _apply_regroup = scoring_rules.apply_regroup

    _move_options = movement_rules.move_options
    _move_options_by_budget = movement_rules.move_options_by_budget
    _do_paths = movement_rules.do_paths
    _after_move = movement_rules.after_move
    _promised_land_window = movement_rules.promised_land_window
    _gospel_window = movement_rules.gospel_window
    _shift_options = movement_rules.shift_options

    _redirect_goals = windows_rules.redirect_goals
    _redirect_goals_memo = windows_rules.redirect_goals_memo
    _redirect_delta = windows_rules.redirect_delta
    _redirect_match = staticmethod(windows_rules.redirect_match)
    _redirect_options = windows_rules.redirect_options
    _window_options = windows_rules.window_options
    _apply_window = windows_rules.apply_window

    recruit_spots = main_rules.recruit_spots
    _main_actions = main_rules.main_actions
    _attack_targets = main_rules.attack_targets
    _can_claim = main_rules.can_claim
    _can_block = main_rules.can_block
    _can_discard_objective = main_rules.can_discard_objective
    _use_die = dice_rules.use_die
    _use_extra = dice_rules.use_extra
    _use_gray_die = dice_rules.use_gray_die
    _apply_main = main_rules.apply_main
    _coalition_only = main_rules.coalition_only
    _give_to_caesar = main_rules.give_to_caesar
    _caesar_options = main_rules.caesar_options
    _recruit = main_rules.recruit

    _tribute_options = tribute_rules.tribute_options
    _choices_text = tribute_rules.choices_text
    _tribute_prompt = tribute_rules.tribute_prompt
    _tribute_next = tribute_rules.tribute_next
    _tribute_finish = tribute_rules.tribute_finish
    _lower = tribute_rules.lower
    _apply_tribute = tribute_rules.apply_tribute
    _giving_next = tribute_rules.giving_next
    _give = tribute_rules.give
    _apply_giving = tribute_rules.apply_giving

    _begin_combat = combat_rules.begin_combat
    _elder_card = combat_rules.elder_card
    _could_hold_elder = combat_rules.could_hold_elder
    _could_hold = combat_rules.could_hold
    _ask_elder = combat_rules.ask_elder
    _combat_powers = combat_rules.combat_powers
    _conscript_max = combat_rules.conscript_max
    _commit_options = combat_rules.commit_options
    _apply_elder_play = combat_rules.apply_elder_play
    _apply_commit = combat_rules.apply_commit
    lowest_wins = combat_rules.lowest_wins
    combat_value = combat_rules.combat_value
    _leader = combat_rules.leader
    _resolve_combat = combat_rules.resolve_combat
    _ask = combat_rules.ask
    _line = combat_rules.line
    _loser = combat_rules.loser
    _drop_power = combat_rules.drop_power
    _rome_losses = combat_rules.rome_losses
    crucify_options = combat_rules.crucify_options
    _face_down = combat_rules.face_down
    _advance_combat = combat_rules.advance_combat

    decide_options = outcome_rules.decide_options
    _apply_decide = outcome_rules.apply_decide
    _decide_help = outcome_rules.decide_help
    _decide_prompt = outcome_rules.decide_prompt
    combat_status = outcome_rules.combat_status
    _finish_combat = outcome_rules.finish_combat
    _combat_result = outcome_rules.combat_result
    _crucify = outcome_rules.crucify
    _release_captured = outcome_rules.release_captured
    _convert_in = outcome_rules.convert_in

    _default_sources = conversion_rules.default_sources
    _default_spread = conversion_rules.default_spread
    conversion_options = conversion_rules.conversion_options
    _conversion_prompt = conversion_rules.conversion_prompt
    _apply_conversion = conversion_rules.apply_conversion
    _apply_spread = conversion_rules.apply_spread
    _overflow = conversion_rules.overflow
    _revolt_check = conversion_rules.revolt_check

    _plunder_options = plunder_rules.plunder_options
    _salvage_options = plunder_rules.salvage_options
    _salvage_pick_options = plunder_rules.salvage_pick_options
    _plunder_refusal = plunder_rules.plunder_refusal
    _apply_plunder = plunder_rules.apply_plunder
    _salvage = plunder_rules.salvage
    _salvaged = plunder_rules.salvaged
    _apply_salvage_pick = plunder_rules.apply_salvage_pick
    _gospel_unit_home = plunder_rules.gospel_unit_home
    _exploit = plunder_rules.exploit

    _power_plays = powers_rules.power_plays
    _durable_uses = powers_rules.durable_uses
    _aux_options = powers_rules.aux_options
    _pieces = powers_rules.pieces
    _card_options = powers_rules.card_options
    _revolt_spots = powers_rules.revolt_spots
    _play_power = powers_rules.play_power

    _card_advanced_culture = cards_rules.card_advanced_culture
    _card_tithe = cards_rules.card_tithe
    _card_collect_tribute = cards_rules.card_collect_tribute
    _card_move = cards_rules.card_move
    _card_roman_roads = cards_rules.card_roman_roads
    _card_caravan = cards_rules.card_caravan
    _card_missionary_journey = cards_rules.card_missionary_journey
    _card_recruit = cards_rules.card_recruit
    _card_legion_levy = cards_rules.card_legion_levy
    _card_pentecost = cards_rules.card_pentecost
    _parse_pieces = cards_rules.parse_pieces
    _card_circus_maximus = cards_rules.card_circus_maximus
    _card_die_by_the_sword = cards_rules.card_die_by_the_sword
    _card_persecution = cards_rules.card_persecution
    _card_gladiator_games = cards_rules.card_gladiator_games
    _card_none = cards_rules.card_none
    _card_auxiliaries = cards_rules.card_auxiliaries
    _auxiliaries = cards_rules.auxiliaries
    _card_high_priest_letter = cards_rules.card_high_priest_letter
    _card_industry = cards_rules.card_industry
    _card_revolt = cards_rules.card_revolt
    _card_pharisee = cards_rules.card_pharisee
    _card_city_riot = cards_rules.card_city_riot
    _city_riot_choice = cards_rules.city_riot_choice
    _card_divine_messenger = cards_rules.card_divine_messenger
    _card_giving = cards_rules.card_giving
    _card_gospel = cards_rules.card_gospel
    _card_holy_spirit = cards_rules.card_holy_spirit
    _card_elder = cards_rules.card_elder
    _help_the_wounded = cards_rules.help_the_wounded


GAME = SoulOfTheEmpire()
