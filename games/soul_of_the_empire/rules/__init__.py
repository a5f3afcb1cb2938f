"""Soul of the Empire's rules by area, as functions of the game object and an apply's scratch
(rule text: shared/seeds/000; rulings: RULINGS.md): setup, dice, turn, scoring, movement,
windows, main (the Main Phase), coalition (its own die actions), tribute, combat, outcome (after a combat's reveal),
conversion, plunder, prepare (before the Combat Cards), powers (playing Power Cards) and cards (their effects, by card id).

The rule functions call one another through the game object, under the names bound in
:class:`Rules`, so that no rules module imports another's functions (no import cycle between
areas that hand work to each other: a move opens a window, a window ends in a combat, a
combat in a conversion, and so on); the game object inherits :class:`Rules`.
"""

from __future__ import annotations

from . import cards as cards_rules
from . import coalition as coalition_rules
from . import combat as combat_rules
from . import conversion as conversion_rules
from . import dice as dice_rules
from . import main as main_rules
from . import movement as movement_rules
from . import outcome as outcome_rules
from . import plunder as plunder_rules
from . import powers as powers_rules
from . import prepare as prepare_rules
from . import scoring as scoring_rules
from . import setup as setup_rules
from . import tribute as tribute_rules
from . import turn as turn_rules
from . import windows as windows_rules


class Rules:
    """The rule functions of rules/, bound as methods of the game object (``game._apply_main(ctx,
    f, a)`` runs ``rules.main.apply_main(game, ctx, f, a)``)."""

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
    _use_die = dice_rules.use_die
    _use_extra = dice_rules.use_extra
    _use_gray_die = dice_rules.use_gray_die

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
    take_options = scoring_rules.take_options
    _apply_take = scoring_rules.apply_take
    _take_unit = scoring_rules.take_unit
    _after_regions = scoring_rules.after_regions

    _move_options = movement_rules.move_options
    _move_options_by_budget = movement_rules.move_options_by_budget
    _move_groups = movement_rules.move_groups
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
    _main_space = main_rules.main_space
    _attack_targets = main_rules.attack_targets
    _can_claim = main_rules.can_claim
    _claim_refusal = main_rules.claim_refusal
    _can_block = coalition_rules.can_block
    _block_moved = coalition_rules.block_moved
    _coalition_actions = coalition_rules.coalition_actions
    _can_discard_objective = main_rules.can_discard_objective
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
    _ask_powers = prepare_rules.ask_powers
    _powers_asked = prepare_rules.powers_asked
    prepare_options = prepare_rules.prepare_options
    _apply_prepare = prepare_rules.apply_prepare
    _prepare_help = prepare_rules.prepare_help
    conscript_default = prepare_rules.conscript_default
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
    _reveal_asked = combat_rules.reveal_asked
    _grace_asked = combat_rules.grace_asked
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
    _aux_due = powers_rules.aux_due
    _aux_spots = powers_rules.aux_spots
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
    _holy_spirit_places = cards_rules.holy_spirit_places
    _holy_spirit_default = cards_rules.holy_spirit_default
    _holy_spirit_choice = cards_rules.holy_spirit_choice
    _card_elder = cards_rules.card_elder
    _help_the_wounded = cards_rules.help_the_wounded
