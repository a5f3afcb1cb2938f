"""Roman War board image (render/roman_war.py): sizes, hidden hands, Unicode names,
duel and game-over boards, from real playouts."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image

from games.core import apply_at, start
from games.core.agents import make_agent
from games.roman_war.game import GAME, Options
from render import render_view
from render.roman_war import image_size


def playout(players: int, seed: int, stop, options: Options | None = None):
    s = start(GAME, list(range(players)), options or Options(), seed).state
    agents = [make_agent(GAME, "heuristic", seed + x) for x in range(players)]
    rnd = random.Random(seed)
    for step in range(1, 5000):
        if GAME.outcome(s) is not None or stop(s):
            break
        seat = rnd.choice(sorted(GAME.to_act(s)))
        s = apply_at(GAME, s, seat, agents[seat].choose(GAME, s, seat), seed, step).state
    return s


def png(view, names=None) -> Image.Image:
    data = render_view(view, names)
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) < 1_000_000
    return Image.open(io.BytesIO(data))


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_spectator_board_size(players):
    s = playout(players, 7, lambda s: bool(s.ambushes) and s.round >= 3)
    img = png(GAME.view(s, None), {0: "Ælfgifu 🦅", 1: "ﻣﺮﺣﺒﺎ", 2: "名前がとても長いプレイヤー" * 3})
    assert img.size == (1600, 1050)


def test_seat_view_shows_its_hand_band():
    """The hand below the board: a title and rows of up to seven cards, each row as tall as its
    longest card text needs (150 to 276 pixels), or a line saying it is empty (90)."""
    from render.roman_war import HAND_ROW, HAND_ROW_MIN, _hand_grid

    s = playout(3, 3, lambda s: s.round >= 2)
    v = GAME.view(s, 1)
    hand = v.romans[1].hand
    rows = -(-len(hand) // 7)
    row_h = _hand_grid(hand)[1]
    assert HAND_ROW_MIN <= row_h <= HAND_ROW
    assert image_size(v) == (1600, 1050 + (40 + row_h * rows if rows else 90))
    assert png(v).size == image_size(v)


def test_duel_and_game_over_boards():
    s = playout(2, 8, lambda s: s.phase == "hannibal" and s.round >= 2, Options(mode="duel"))
    assert png(GAME.view(s, 1)).size == image_size(GAME.view(s, 1))
    assert image_size(GAME.view(s, 1))[1] > 1050
    over = playout(1, 2, lambda s: False)
    assert GAME.outcome(over) is not None
    assert png(GAME.view(over, None)).size == (1600, 1050)


def test_a_state_is_refused():
    s = playout(1, 1, lambda s: True)
    with pytest.raises(TypeError):
        render_view(s)


def test_the_key_explains_the_ability_chips_marks() -> None:
    """Issue 19: the ✓ on a bought level ability and the ● on a ready one are in the key."""
    from render.roman_war import KEY

    key = " ".join(KEY)
    assert "\u2713 ability bought" in key and "\u25cf ready" in key
