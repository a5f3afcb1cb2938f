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
    """Only Views reach the renderer (ARCHITECTURE.md, "Hidden information, in one place")."""
    s = start(GAME, [0, 1, 2, 3], Options(), 5).state
    with pytest.raises(TypeError):
        render.render_view(s)


def test_map_matches_board_data() -> None:
    """Every territory is on the map, coloured by its region; every sea link is dashed."""
    m = map_data()
    assert {n.id for n in m.nodes} == set(GAME.data.territories)
    assert all(n.region == GAME.data.territories[n.id].region for n in m.nodes)
    assert sum(e.kind == "sea" for e in m.edges) == sum(e.kind == "sea" for e in GAME.data.edges)


# --------------------------------------------------------------------------- legibility


def _playout_views(seed: int, steps: int, players: int) -> list:
    """The views (public) after each step of an AI playout."""
    from bot.commands.render import playout

    out = []
    game, state, _ = playout("soul-of-the-empire", seed, 0, players)
    agents = {x: make_agent(GAME, "heuristic", seed * 1000 + x) for x in range(players)}
    for n in range(1, steps + 1):
        prompts = game.to_act(state)
        if not prompts:
            break
        seat = min(prompts)
        state = apply_at(game, state, seat, agents[seat].choose(game, state, seat), seed, n).state
        out.append(state)
    return out


def test_labels_clear_of_other_nodes_units() -> None:
    """No territory's name is drawn over another name, nor over the chips of another
    territory's units (two factions there), so Jerusalem reads as Jerusalem's, not
    Galilaea's; the names stay by their own units (tests/render/test_map_geography.py)."""
    from render import map as rmap
    from render.soul_of_the_empire import faction_style

    m = map_data()
    g = rmap.Geometry(m, 1600)
    labels = rmap.layout_labels(m)
    room = rmap.chip_room(m)
    chips = [(faction_style(f), "6") for f in ("rome", "jews")]
    for n in m.nodes:
        box, text, _ = labels[n.id]
        assert text == n.name
        for o in m.nodes:
            if o.id == n.id:
                continue
            cx, cy = g.pt(o.x, o.y)
            plan = rmap.chip_plan(chips, room[o.id])
            assert not rmap._overlaps(box, (cx - plan.half, cy + plan.top, cx + plan.half, cy + plan.bottom)), (
                n.id,
                o.id,
            )
            assert not rmap._overlaps(box, labels[o.id][0]), (n.id, o.id)


def test_full_stacks_stay_in_their_zone() -> None:
    """Five factions with 6 units each (the 6-unit limit, RULINGS.md R6) in any territory:
    the chips stay inside the node's unit zone (so off every label) and within half the
    distance to a neighbour on the same line (so off its chips)."""
    from render import map as rmap
    from render.soul_of_the_empire import faction_style

    m = map_data()
    room = rmap.chip_room(m)
    chips = [(faction_style(f), "6") for f in ("rome", "jews", "coalition", "christians", "gray")]
    for n in m.nodes:
        plan = rmap.chip_plan(chips, room[n.id])
        assert plan.half <= room[n.id] <= 125, n.id
        assert plan.top >= -66 and plan.bottom <= 22, n.id
    # the small territories of Judea get less than the full zone
    assert room["jerusalem"] < 125 and room["galilaea"] < 125


def test_viewer_image_shows_its_hand_only() -> None:
    """render --viewer shows the seat's own Power Cards in a "Your hand" box; the public
    image of the same state has no hand box and names no card of any hand."""
    from render.record import recording
    from render.soul_of_the_empire import hand_lines

    state = next(
        s for s in _playout_views(3, 400, 2) if s.factions["rome"].hand and s.phase in ("main", "start")
    )
    viewer = GAME.view(state, state.factions["rome"].seat)
    public = GAME.view(state, None)
    assert hand_lines(public) == []
    lines = hand_lines(viewer)
    names = [GAME.data.card(c).name for c in state.factions["rome"].hand]
    assert all(any(name in line for line in lines) for name in names)
    with recording() as seen:
        render.render_view(viewer)
    in_hand = " ".join(t.text for t in seen if t.panel and t.panel.name == "hand")
    assert in_hand.startswith("Your hand (private)") and all(name.split()[0] in in_hand for name in names)
    with recording() as seen:
        render.render_view(public)
    assert not [t for t in seen if t.panel and t.panel.name == "hand"]
    assert "Your hand (private)" not in [t.text for t in seen]


def test_objective_lines_only_for_factions_in_the_game() -> None:
    """With 3 players there are no Christians: Objective Cards show no Christian line;
    with 4 players they do."""
    from render.soul_of_the_empire import objective_lines

    v3 = GAME.view(start(GAME, [0, 1, 2], Options(), 5).state, None)
    assert v3.objectives and all("Christian" not in f.name for f in v3.factions)
    assert any(line.startswith("Christian") for o in v3.objectives for line in o.lines)
    for o in v3.objectives:
        lines = objective_lines(v3, o)
        assert lines and not any(line.startswith("Christian") for line in lines)
    v4 = GAME.view(start(GAME, [0, 1, 2, 3], Options(), 5).state, None)
    assert any(line.startswith("Christian") for o in v4.objectives for line in objective_lines(v4, o))


def test_two_player_rows_mark_only_the_asked_faction() -> None:
    """With 2 players one seat plays two factions: the panel marks the active faction (or
    the faction in the combat), never all four factions at once."""
    from render.soul_of_the_empire import asked_factions

    seen = 0
    for s in _playout_views(41, 300, 2):
        v = GAME.view(s, None)
        asked = asked_factions(v)
        if v.phase == "over":
            assert asked == set()
            continue
        assert len(asked) <= 2
        if v.active:
            assert v.active in asked
            seen += 1
    assert seen


def test_finished_game_names_the_winner_in_full() -> None:
    """A finished game: the header names the winner briefly, the panel gives the whole
    reason (it is not cut off in the header)."""
    from render.soul_of_the_empire import _over_note

    s = _states()[-1]
    v = GAME.view(s, None)
    assert v.phase == "over"
    note = _over_note(v)
    assert note.startswith("Winner") and len(note) < 40


def test_judea_is_drawn_blue() -> None:
    """The Judean (blue) territories (rule text) are visibly blue on the map."""
    from render import map as rmap

    m = map_data()
    g = rmap.Geometry(m, 1600)
    img = rmap.static_layer(m)
    n = m.node("jerusalem")
    cx, cy = g.pt(n.x, n.y)
    pixels = [img.getpixel((int(cx) + dx, int(cy) + dy)) for dx in range(-6, 7, 3) for dy in range(-6, 7, 3)]
    assert sum(b - r > 50 for r, _, b in pixels) > len(pixels) * 0.8


def test_ringed_combat_in_progress_is_named_under_the_factions() -> None:
    """The ring marks the combat in progress (rule text, Combat) before the last one; the notes
    name that combat's territory and sides, so the ring and the text agree."""
    from bot.commands.render import playout
    from render.soul_of_the_empire import _overlay, notes

    game, state, _ = playout("soul-of-the-empire", 7, 156, 4, "heuristic", {})
    view = game.view(state, None)
    assert view.combat_territory == "armenia"
    assert view.last_combat and view.last_combat.territory == "galatia"
    assert _overlay(view).highlight == ("armenia",)
    texts = [t for t, _ in notes(view)]
    assert "Combat in progress in Armenia: Coalition attacks Rome; Rome has chosen a Combat Card" in texts[1]
    # who is asked, and for what: the combat's card, not the Main Phase's dice (the prompt asks
    # "Combat in Armenia: Coalition against Rome — choose a Combat Card in secret")
    assert texts[0] == "Asked now: Coalition — choose a Combat Card for the combat in Armenia"


def test_the_power_cards_asked_before_the_combat_cards_are_named_so() -> None:
    """Before the Combat Cards, the sides answer whether they play a Power Card face down
    (RULINGS.md R9): the notes say that is what is asked, and who has answered, not that a
    Combat Card was chosen."""
    from games.soul_of_the_empire.model import Attack, Prepare
    from render.soul_of_the_empire import combat_note, notes
    from tests.games.soul_of_the_empire.test_soul_of_the_empire_rules import (
        act,
        board,
        dice,
        fresh,
        g,
        pass_elder,
        set_f,
        turn_of,
    )

    s = board(fresh(), {"syria": {"rome": 3, "christians": 2}})
    s = set_f(set_f(s, "rome", hand=("praetorian-guard",)), "christians", hand=("martyrdom",))
    s = act(dice(turn_of(s, "rome"), "rome", [1]), "rome", Attack(die=0, territory="syria", target="christians"))
    s = act(pass_elder(s), "rome", Prepare(power="praetorian-guard"))
    view = g.view(s, None)
    assert view.combat_stage == "powers" and view.combat_chosen == ("rome",)
    assert "Rome has answered before the Combat Cards" in combat_note(view)
    assert "play a Power Card face down, or pass, before the Combat Cards in Syria" in notes(view)[0][0]
