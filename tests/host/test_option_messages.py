"""Refused session options are worded for players: which option, what was given, what is legal;
no validation-library text ("Extra inputs are not permitted", "Value error, ", "default None")."""

from __future__ import annotations

import pytest

from bot.commands.render import game_options
from games.core import GameError, get_game

LIBRARY_WORDS = ("Extra inputs", "Input should", "Value error", "default None", "default True", "default False")


@pytest.mark.parametrize(
    "game_id,values,expected",
    [
        ("roman-war", {"nonsense": 1}, "there is no option 'nonsense'"),
        ("roman-war", {"fee": 9}, "fee=9 is not allowed: fee is a whole number from 1 to 3"),
        ("roman-war", {"mode": "x"}, "mode=x is not allowed: mode is coop or duel"),
        ("soul-of-the-empire", {"factions": ["Rome", "Rome"]}, "Each faction may be chosen once"),
        ("barbarian-hordes", {"round_limit": 0}, "round_limit=0 is not allowed: round_limit is a whole number, at least 1"),
        ("credo", {"ask_all": 3}, "ask_all=3 is not allowed: ask_all is true or false"),
        ("credo", {"round_limit": [1, 2]}, "round_limit=[1,2] is not allowed: round_limit is a whole number, at least 1"),
        ("promised-land", {"no_dice": "maybe"}, "no_dice=maybe is not allowed: no_dice is true or false"),
    ],
)
def test_option_refusal_names_the_option_and_the_legal_values(game_id, values, expected) -> None:
    game = get_game(game_id)
    with pytest.raises(GameError) as e:
        game_options(game, values)
    text = str(e.value)
    assert expected in text, text
    assert not any(w in text for w in LIBRARY_WORDS), text
    assert "Options: " in text


def test_option_list_says_what_each_option_takes() -> None:
    from games.core.options import option_list

    text = option_list(get_game("roman-war").Options)
    assert "fee (a whole number from 1 to 3; default 1)" in text
    assert "mode (coop or duel; default coop)" in text
    assert "decks (a list, one entry per seat" in text and "default not set" in text
