"""Nothing cut, nothing overlapping: every board of every game, at every player count, in random
positions and in each seat's own view, is read back from its record of drawn texts
(``render.record``) and fails on

- a text shortened with an ellipsis ("Eastern Roman E…"), or items left out and counted ("+2 more"),
- two texts drawn over each other,
- a text leaving the panel it was laid out in (a seat's panel, a card, the footer), or the image.

Positions come from uniformly random legal play (seeded), which reaches crowded states (full
hands, long lists of cards, every seat waiting) that hand-built samples miss, and from the
heuristic AI players, which reach states random play rarely does (two claims on one objective,
a Cost Zone grown over many turns).
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

import pytest

import games  # noqa: F401  (registers the games)
from games.core import Rng, get_game, start
from render import render_image
from render.record import DrawnText, Panel, panel, recording
from tests.render_samples import bh_view

ELLIPSIS = "\u2026"
SLACK = 2  # pixels two boxes may share (antialiased edges, a descender over the next line's accent)
STEPS = (0, 30, 120, 300)
# the texts that end in an ellipsis on purpose (an unfinished action), not because they were cut
MEANT = {"choosing a nation\u2026"}
# "+3 more", "(+3 more)", "and 2 more" closing a list: items not shown (not a card's "+2 more Force")
LEFT_OUT = re.compile(r"\+\d+ more\)?$|\band \d+ more\b")


def layout_faults(texts: list[DrawnText], size: tuple[int, int]) -> list[str]:
    """What is wrong with the layout of an image of ``size`` (width, height) pixels that drew
    ``texts``: cut texts, texts leaving their panel or their image, and overlapping texts."""
    out = []
    for t in texts:
        if ELLIPSIS in t.text and t.text not in MEANT:
            out.append(f"cut: {t.requested!r} drawn as {t.text!r}")
        if LEFT_OUT.search(t.text):
            out.append(f"cut: items left out, {t.text!r}")
        w, h = t.canvas
        if t.box[0] < -1 or t.box[1] < -1 or t.box[2] > w + 1 or t.box[3] > h + 1:
            out.append(f"outside its image: {t.text!r} at {t.box} on {t.canvas}")
        if t.panel is not None and not t.panel.holds(t.box):
            out.append(f"leaves {t.panel.name} {t.panel.box}: {t.text!r} at {t.box}")
    board = [t for t in texts if t.canvas == size]
    for i, a in enumerate(board):
        for b in board[i + 1 :]:
            dx = min(a.box[2], b.box[2]) - max(a.box[0], b.box[0])
            dy = min(a.box[3], b.box[3]) - max(a.box[1], b.box[1])
            if dx > SLACK and dy > SLACK:
                out.append(f"overlap: {a.text!r} at {a.box} and {b.text!r} at {b.box}")
    return out


def views(game_id: str, players: int, seed: int, options: dict | None = None) -> Iterator[tuple[str, Any]]:
    """(where, view): the public view and every seat's own view of one random game after each of
    ``STEPS`` actions."""
    game = get_game(game_id)
    state = start(game, list(range(players)), game.Options(**(options or {})), seed).state
    rnd = random.Random(seed)
    done = 0
    for target in STEPS:
        while done < target and game.to_act(state):
            seat = sorted(game.to_act(state))[0]
            done += 1
            state = game.apply(state, seat, rnd.choice(list(game.legal_actions(state, seat))), Rng(seed, done)).state
        for viewer in (None, *range(players)):
            where = f"{players} players, seed {seed}, step {done}, " + (
                "public view" if viewer is None else f"seat {viewer + 1}'s view"
            )
            yield where, game.view(state, viewer)


def heuristic_views(game_id: str, players: int, seed: int, options: dict | None = None,
                    steps: tuple[int, ...] = (60, 200)) -> Iterator[tuple[str, Any]]:
    """(where, view): the public view and every seat's own view of one game played by the
    heuristic AI players after each of ``steps`` actions."""
    from games.core.agents import make_agent
    from games.core.replay import apply_at

    game = get_game(game_id)
    state = start(game, list(range(players)), game.Options(**(options or {})), seed).state
    agents = {s: make_agent(game, "heuristic", seed=seed * 1000 + s) for s in range(players)}
    done = 0
    for target in steps:
        while done < target and game.to_act(state):
            seat = min(game.to_act(state))
            done += 1
            state = apply_at(game, state, seat, agents[seat].choose(game, state, seat), seed, done).state
        for viewer in (None, *range(players)):
            where = f"heuristic, {players} players, seed {seed}, step {done}, " + (
                "public view" if viewer is None else f"seat {viewer + 1}'s view"
            )
            yield where, game.view(state, viewer)


def check(where: str, view: Any) -> list[str]:
    with recording() as texts:
        img = render_image(view)
    return [f"{where}: {f}" for f in layout_faults(texts, img.size)]


CASES: dict[str, tuple[tuple[int, dict], ...]] = {
    "credo": ((3, {}), (4, {}), (5, {}), (6, {})),
    "barbarian-hordes": ((2, {}), (3, {}), (3, {"variant": "three-player"}), (5, {}), (8, {}), (12, {})),
    "promised-land": ((2, {}), (3, {}), (4, {}), (6, {})),
    "soul-of-the-empire": ((2, {}), (3, {}), (4, {})),
    "roman-war": ((1, {}), (2, {}), (3, {}), (4, {}), (2, {"mode": "duel"}), (3, {"mode": "duel", "hannibals": 2})),
}


@pytest.mark.parametrize("game_id", sorted(CASES))
def test_no_text_is_cut_overlapping_or_outside_its_panel(game_id: str) -> None:
    faults: list[str] = []
    for players, options in CASES[game_id]:
        for seed in (1, 2):
            for where, view in views(game_id, players, seed, options):
                faults += check(where, view)
    assert not faults, f"{len(faults)} layout faults, the first ones:\n" + "\n".join(faults[:15])


# one crowded case per game for the heuristic players (their look-ahead makes them slower)
HEURISTIC: dict[str, tuple[int, dict]] = {
    "credo": (4, {}),
    "barbarian-hordes": (12, {}),
    "promised-land": (4, {}),
    "soul-of-the-empire": (2, {}),
    "roman-war": (1, {}),
}


@pytest.mark.parametrize("game_id", sorted(HEURISTIC))
def test_no_text_is_cut_in_heuristic_play(game_id: str) -> None:
    """As above, in positions the heuristic AI players reach (seed 3, steps 60 and 200)."""
    players, options = HEURISTIC[game_id]
    faults: list[str] = []
    for where, view in heuristic_views(game_id, players, 3, options):
        faults += check(where, view)
    assert not faults, f"{len(faults)} layout faults, the first ones:\n" + "\n".join(faults[:15])


def test_the_check_finds_cut_overlapping_and_escaping_texts() -> None:
    """The faults are found: a cut name, two texts on top of each other, a text past its panel."""
    area = Panel("seat 1", (0, 0, 100, 40), (400, 200))
    texts = [
        DrawnText("Eastern Roman E" + ELLIPSIS, "Eastern Roman Empire", (200, 150, 280, 170), (400, 200)),
        DrawnText("Huns", "Huns", (60, 100, 120, 120), (400, 200)),
        DrawnText("Goths", "Goths", (100, 105, 160, 125), (400, 200)),
        DrawnText("+3 more", "+3 more", (300, 10, 360, 30), (400, 200)),
        DrawnText("far too long a line", "far too long a line", (10, 12, 180, 32), (400, 200), area),
    ]
    faults = layout_faults(texts, (400, 200))
    assert [f.split(":")[0] for f in faults] == ["cut", "cut", "leaves seat 1 (0, 0, 100, 40)", "overlap"], faults
    assert layout_faults(texts[1:2], (400, 200)) == []


def test_a_text_drawn_in_a_panel_records_it() -> None:
    from PIL import Image, ImageDraw

    from render.text import draw_text, face

    img = Image.new("RGB", (300, 100))
    with recording() as texts, panel("footer", (0, 50, 300, 100), img.size):
        draw_text(ImageDraw.Draw(img), (5, 60), "Asked now", face(16), (255, 255, 255))
    assert texts[0].panel is not None and texts[0].panel.name == "footer"
    assert texts[0].panel.holds(texts[0].box)


def test_barbarian_hordes_full_hands_at_twelve_players() -> None:
    """Every seat's own view with a full hand of 10 cards (Skilled's hand size), at 12 players."""
    faults: list[str] = []
    for viewer in range(12):
        view = bh_view(12, viewer, viewer=viewer, hand_size=10, war="now")
        faults += check(f"12 players, seat {viewer + 1}'s view with 10 cards", view)
    assert not faults, "\n".join(faults[:15])


def test_roman_war_cost_zone_of_twenty_cards_past_step_300() -> None:
    """A Roman's own view with 20 and more face-down Cost Zone cards it knows (heuristic play, 3
    players, seeds 2 and 4, step 320) keeps its FIELD heading and cards inside its panel: the
    Cost Zone's cards are listed in one box per face instead of one chip each."""
    crowded = 0
    faults: list[str] = []
    for seed in (2, 4):
        for where, view in heuristic_views("roman-war", 3, seed, steps=(320,)):
            if view.viewer is not None:
                own = view.romans[view.viewer].cost_zone
                crowded += sum(1 for c in own if c.card is not None and not c.face_up) >= 20
            faults += check(where, view)
    assert crowded >= 2
    assert not faults, "\n".join(faults[:15])
