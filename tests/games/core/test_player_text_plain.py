"""Text players read (glossaries, rulings, cards in hand) carries no developer words: no data
field names ("draw_cz", "face_up = true"), no raw icon markup ("#rot#", "#bb#"), no code names
("State.seating", "Options.factions")."""

from __future__ import annotations

import re

import pytest

from games.core import get_game
from games.core.glossary import glossary
from games.core.rulebook import rulebook

GAMES = ("barbarian-hordes", "credo", "promised-land", "roman-war", "soul-of-the-empire")
DEV = re.compile(r"#rot#|#bb#|draw_cz|face_up|team_power|rotate = |who = |State\.|Options\.|legal_actions|parse_action"
                 r"|two_player")
QUOTE = re.compile(r'"[^"]*"')


@pytest.mark.parametrize("game_id", GAMES)
def test_glossary_and_rulings_speak_to_players(game_id: str) -> None:
    game = get_game(game_id)
    # a ruling's quotes of the rule text stay as printed
    rulings = [r.number + " " + QUOTE.sub("", r.text) for r in rulebook(game).rulings]
    shown = [f"{t} {m}" for t, m in glossary(game)] + rulings
    bad = [t for t in shown if DEV.search(t)]
    assert not bad, bad


def test_roman_war_cards_show_rotate_and_boosts_first_in_words() -> None:
    """Roman War, the rule text's rotate and top-boost icons are printed as "rotate:" and
    "boosts first:" on every card line (hand, glossary, card lookups)."""
    from games.roman_war import GAME as RW

    lines = [c.line() for c in RW.data.cards.values()]
    assert not [x for x in lines if "#rot#" in x or "#bb#" in x]
    assert any("rotate: " in x for x in lines) and any("boosts first: " in x for x in lines)
