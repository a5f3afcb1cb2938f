"""Credo board image (render/credo.py): sizes, hidden hands, Unicode names, a Council."""

from __future__ import annotations

import io
import random

from PIL import Image

from games.core import apply_at, start
from games.core.agents import make_agent
from games.credo import GAME
from render import render_view
from render.credo import WIDTH, board_height, image_size


def _states() -> dict[str, object]:
    seed, n = 11, 5
    s = start(GAME, list(range(n)), GAME.Options(), seed).state
    agents = [make_agent(GAME, "heuristic", x) for x in range(n)]
    rnd = random.Random(1)
    found = {"setup": s}
    step = 0
    while GAME.outcome(s) is None and step < 5000:
        if s.council is not None and "council" not in found:
            found["council"] = s
        if s.phase == "play" and s.council is None and "play" not in found and s.turns > 6:
            found["play"] = s
        seat = rnd.choice(sorted(GAME.to_act(s)))
        step += 1
        s = apply_at(GAME, s, seat, agents[seat].choose(GAME, s, seat), seed, step).state
    found["over"] = s
    return found


def _png(data: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(data))
    img.load()
    return img


def test_boards_render_at_their_sizes() -> None:
    names = {0: "Athanasius", 1: "Ἄρειος", 2: "نسطور", 3: "Cyril of Alexandria " * 5, 4: "🕊"}
    for s in _states().values():
        public = GAME.view(s, None)
        img = _png(render_view(public, names))
        assert img.size == (WIDTH, board_height(public)) == image_size(public)
        own = GAME.view(s, 1)
        assert _png(render_view(own, names)).size == image_size(own)
        assert image_size(own)[1] > board_height(own)  # the hand below the board


def test_public_board_ignores_hands() -> None:
    """The public image is the same whatever the hands hold (it only sees the View)."""
    s = _states()["play"]
    players = list(s.players)
    players[0], players[1] = (
        players[0].model_copy(update={"hand": players[1].hand}),
        players[1].model_copy(update={"hand": players[0].hand}),
    )
    if len(players[0].hand) == len(players[1].hand):
        other = s.model_copy(update={"players": tuple(players)})
        assert render_view(GAME.view(s, None)) == render_view(GAME.view(other, None))
