"""Soul of the Empire board image: rendered from Views at setup, mid-game and at the end,
with any Unicode player names; PNG under 1 MB; a State is refused."""

from __future__ import annotations

import io

import pytest
from PIL import Image

import render
from games.core import apply_at, start
from games.core.agents import make_agent
from games.soul_of_the_empire.game import GAME, Options
from render.soul_of_the_empire import map_data

NAMES = {0: "Ælfgifu", 1: "李小龍 (Bruce)", 2: "مرحبا بالعالم", 3: "🦊🔥 Fox" + "x" * 90}


def _states() -> list:
    s = start(GAME, [0, 1, 2, 3], Options(round_limit=3), 5).state
    out = [s]
    agents = [make_agent(GAME, "heuristic", x) for x in range(4)]
    n = 1
    while GAME.outcome(s) is None:
        seat = min(GAME.to_act(s))
        s = apply_at(GAME, s, seat, agents[seat].choose(GAME, s, seat), 5, n).state
        n += 1
        if n in (60, 140):
            out.append(s)
    out.append(s)
    return out


def test_board_images() -> None:
    """render_view gives a 1600-wide PNG under 1 MB for public and private views."""
    assert "soul-of-the-empire" in render.supported_games()
    for s in _states():
        for viewer in (None, 0):
            data = render.render_view(GAME.view(s, viewer), NAMES)
            assert len(data) < 1_000_000
            img = Image.open(io.BytesIO(data))
            assert img.size[0] == 1600 and img.mode == "RGB"


def test_render_refuses_state() -> None:
    """Only Views reach the renderer (DESIGN.md, Hidden information)."""
    s = start(GAME, [0, 1, 2, 3], Options(), 5).state
    with pytest.raises(TypeError):
        render.render_view(s)


def test_map_matches_board_data() -> None:
    """Every territory is on the map, coloured by its region; every sea link is dashed."""
    m = map_data()
    assert {n.id for n in m.nodes} == set(GAME.data.territories)
    assert all(n.region == GAME.data.territories[n.id].region for n in m.nodes)
    assert sum(e.kind == "sea" for e in m.edges) == sum(e.kind == "sea" for e in GAME.data.edges)
