"""Property tests of hidden information over random games of all five games (ARCHITECTURE.md,
trust invariants 2 and 3; issue 14). A bounded slice: the long run is
``python bench/hidden_info.py``.

- Reveals: an action the game marks non-revealing gives the same public events, views
  and prompts when the information its player could not see (undrawn deck order, other
  hands, face-down cards) is drawn again, and the same views for every seat when what
  nobody sees is; the perturbations are fresh, independent of the game's own verdict.
- Choices: a choice made face down (another choice its seat could have made that no
  other seat could tell apart) stays secret until a step marked revealing shows it;
  found by following both branches, without the game's ``perturb_hidden``.
- Prompts: who is asked and the public text of each prompt are the same in states that
  differ only in hidden information.

Both also check that each game's ``perturb_hidden`` keeps what its seats see.
"""

from __future__ import annotations

import pytest

from games.core import all_games
from games.core.secretcheck import check_all

GAMES = {g.id: g for g in all_games() if type(g).__module__.startswith("games.")}  # not the tests' toy games
SEEDS = range(2)
STEPS = 40
PROMPT_SEEDS = range(3)
PROMPT_STEPS = 80


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_non_revealing_actions_do_not_depend_on_hidden_information(game_id):
    report = check_all([GAMES[game_id]], SEEDS, STEPS, tries=2, checks=frozenset({"reveal"}))
    assert report.non_revealing > 10  # the check saw non-revealing actions
    assert not report.findings, "\n".join(map(str, report.findings[:5]))


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_public_prompts_do_not_depend_on_hidden_information(game_id):
    report = check_all([GAMES[game_id]], PROMPT_SEEDS, PROMPT_STEPS, tries=2, checks=frozenset({"prompt"}))
    assert report.states > 100
    assert not report.findings, "\n".join(map(str, report.findings[:5]))


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_a_secret_choice_is_shown_only_by_a_revealing_step(game_id):
    """Trust invariant 2: an undo past a step that showed another seat's face-down choice
    (a war commitment, a Combat Card, a secret discard) would let its player choose again
    knowing it; such a step must be marked revealing (games.core.secretcheck, "choice")."""
    report = check_all([GAMES[game_id]], SEEDS, STEPS * 2, tries=1, checks=frozenset({"choice"}))
    assert report.actions > 50
    assert not report.findings, "\n".join(map(str, report.findings[:5]))
