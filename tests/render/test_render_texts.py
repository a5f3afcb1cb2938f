"""What each board shows, read from the texts it draws (``render.record``) and compared with the
View it was drawn from, for all five games, at several player counts and positions.

A pixel golden cannot tell an army counter of 7 from one of 8, nor notice that a whole panel was
left out; these tests can. Positions come from random legal play (seeded), so they cover states
no hand-built sample has.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest

import games  # noqa: F401  (registers the games)
from games.core import Rng, get_game, start
from games.core.english import count
from render import render_image
from render.record import DrawnText, cached_layer, recording
from render.soul_of_the_empire import NAMES as SOUL_NAMES
from render.soul_of_the_empire import asked_factions as soul_asked

STEPS = (0, 40, 160)


def positions(game_id: str, players: int, seed: int = 3) -> Iterator[Any]:
    """Public Views of one random game (uniformly random legal actions) after each of ``STEPS``."""
    game = get_game(game_id)
    state = start(game, list(range(players)), game.Options(), seed).state
    rnd = random.Random(seed)
    done = 0
    for target in STEPS:
        while done < target and game.to_act(state):
            seat = sorted(game.to_act(state))[0]
            action = rnd.choice(list(game.legal_actions(state, seat)))
            done += 1
            state = game.apply(state, seat, action, Rng(seed, done)).state
        yield game.view(state, None)


def drawn(view: Any) -> list[DrawnText]:
    with recording() as texts:
        render_image(view)
    return texts


def words(texts: list[DrawnText]) -> list[str]:
    return [t.text for t in texts]


def below(texts: list[DrawnText], anchor: DrawnText, within: int, width: int = 600) -> list[DrawnText]:
    """Texts on the same canvas as ``anchor`` whose top lies up to ``within`` pixels below its top,
    and that start from 60 pixels left of it to ``width`` right of it (its panel)."""
    return [t for t in texts if t.canvas == anchor.canvas and 0 <= t.box[1] - anchor.box[1] <= within
            and -60 <= t.box[0] - anchor.box[0] <= width]


def the(texts: list[DrawnText], text: str) -> DrawnText:
    found = [t for t in texts if t.requested == text]  # cut names are a separate finding
    assert found, f"{text!r} is not drawn; drawn: {words(texts)}"
    return found[0]


# ---------------------------------------------------------------- per game: the View's public numbers


def barbarian_hordes(view: Any, texts: list[DrawnText]) -> None:
    for p in view.players:
        if p.nation is None or p.status == "eliminated":
            continue
        name = the(texts, p.nation)
        # the counters row under the name: Army Tokens, Territory Tokens (of 10), cards in hand
        row = sorted((t for t in below(texts, name, 140, width=320) if t.box[1] - name.box[1] >= 80 and t.text.isdigit()),
                     key=lambda t: t.box[0])
        assert [t.text for t in row] == [str(p.armies), str(p.territories), str(p.hand_size)], (p.nation, row)
    assert str(view.deck_size) in words(texts) and "DECK" in words(texts)
    assert any(w.split(" (")[0] == f"discard pile: {view.discard_size}" for w in words(texts))
    header = [t.text for t in texts if t.panel and t.panel.name == "header"]
    assert any(w.startswith(f"Round {view.round} ") for w in header), header
    if view.active is not None and view.phase != "over":  # whose turn
        assert f"{view.players[view.active].nation} · Seat {view.active + 1}" in header, header
    # who is asked to act: a TO ACT (or TURN) pill on each waiting seat's panel
    marked = {t.panel.name for t in texts if t.panel and t.text in ("TO ACT", "TURN")}
    assert marked >= {f"seat {s + 1}" for s in view.waiting} or view.phase == "over", (marked, view.waiting)


def credo(view: Any, texts: list[DrawnText]) -> None:
    for p in view.players:
        name = the(texts, f"Church {p.seat + 1}")
        panel = words(below(texts, name, 100, width=800))
        assert f"{p.followers:,} Followers" in panel, (p.seat, panel)
        assert f"{p.votes} votes" in panel, (p.seat, panel)
        # the tracks' scale: 11 million Followers or 117 votes win (rule text, Victory)
        assert "11,000,000 win" in panel and "117 votes win" in panel, (p.seat, panel)
        hand = words(below(texts, name, 300))
        assert any(w.startswith(f"{count(p.hand_size, 'card')} in hand · ") for w in hand), (p.seat, hand)
    rows = words(texts)
    assert (f"Church cards: deck {view.church_deck}, discard {view.church_discard} · "
            f"Events: deck {view.event_deck}, discard {view.event_discard}") in rows  # fmt: skip
    if view.phase != "setup":  # the set-up has no round yet
        assert any(w.startswith(f"Round {view.round} ") for w in rows)
    if view.phase == "play":  # whose turn, and who is asked now for what
        assert f"Church {view.active + 1}" in [t.text for t in texts if t.panel and t.panel.name == "header"]
    if view.phase != "over":
        asked = ", ".join(f"Church {s + 1}" for s in view.waiting)
        assert any(w.startswith(f"Asked now: {asked}") for w in rows), rows


def roman_war(view: Any, texts: list[DrawnText]) -> None:
    for r in view.romans:
        name = the(texts, r.commander)
        panel = words(below(texts, name, 160))
        assert f"Power {r.power}/10" in panel, (r.commander, panel)
        assert f"Maneuver L{r.maneuver}" in panel
        counts = f"Hand {r.hand_size} · Deck {r.deck_size} · Discard {r.discard_size}"
        assert any(w == counts or w.startswith(counts + " · ") for w in panel), (counts, panel)  # + status
        assert f"COST ZONE {r.untapped_cost} of {len(r.cost_zone)} untapped" in panel
    hannibal = words(texts)
    assert f"Deck {view.hannibal_deck_size} · Discard {view.hannibal_discard_size} · Defended pile " \
           f"{view.defended_size}" in hannibal
    assert f"ENCAMPMENTS IN PLAY ({len(view.encampments)})" in hannibal
    assert f"ACTIVE AMBUSHES ({len(view.ambushes)})" in hannibal
    for e in view.encampments:  # each, the same ones counted on one row ("Camp at Capua ×2")
        assert any(w == e.card.name or w.startswith(e.card.name + " ×") for w in hannibal), e.card.name
    assert any(w.startswith(f"Round {view.round} ") for w in hannibal)
    header = [t.text for t in texts if t.panel and t.panel.name == "header"]
    if view.phase != "over" and view.active is not None and view.active < len(view.romans):
        assert f"{view.romans[view.active].commander} (seat {view.active + 1})" in header, header
    if view.phase != "over" and view.waiting:  # who is asked, and for what (wrapped onto two lines)
        footer = " ".join(t.text for t in texts if t.panel and t.panel.name == "footer")
        assert footer.startswith("Waiting for ") and view.prompt.split()[0] in footer, footer


def soul_of_the_empire(view: Any, texts: list[DrawnText]) -> None:
    for f in view.factions:
        # the faction's row (a territory may share its name: Rome)
        rows = [words(below(texts, t, 50, width=700)) for t in texts if t.requested == f.name]
        row = next((r for r in rows if any(w.endswith((" pts", " pt")) for w in r)), [])
        assert f"{f.points} pt" + ("" if f.points == 1 else "s") in row, (f.name, row)  # "1 pt", "2 pts"
        assert any(w.startswith(f"supply {f.supply} · board {f.on_board}") for w in row), (f.name, row)
        track = {"rome": f"captured {f.capture_track}/25", "christians": f"converted {f.converted}/18",
                 "coalition": f"Rage {f.rage:+d}"}.get(f.id)
        assert track is None or any(w.startswith(track) for w in row), (f.name, track, row)
        if f.id != "gray":  # its Power Card piles (rule text: Power Cards)
            assert any(w.endswith(f"deck {f.deck_size} · discard {len(f.discard)}") for w in row), (f.name, row)
    assert any(w.startswith(f"Round {view.round}") for w in words(texts))
    if view.phase != "over" and view.waiting:  # who is asked now (what for: the window's text after it)
        asked = [w for w in words(texts) if w.startswith("Asked now: ")]
        assert asked and all(SOUL_NAMES[f] in asked[0] for f in soul_asked(view)), (asked, view.waiting)


def promised_land(view: Any, texts: list[DrawnText]) -> None:
    rows = words(texts)
    # each player's row, in seat order: "<n> card(s) · <coins> · Patriarchs F/M/P in supply f/m/p"
    # (wrapped onto two lines when the coins are shown)
    hands = [w.split(" · ")[0] for w in rows if re.fullmatch(r"\d+ cards? · .*", w)]
    assert hands == [count(p.hand_size, "card") for p in view.players], rows
    supplies = [m.group(1) for w in rows if (m := re.search(r"in supply (\d+/\d+/\d+)$", w))]
    assert supplies == ["/".join(map(str, p.patriarchs_in_supply)) for p in view.players], rows
    if view.phase != "over":  # a finished game's header names the winners instead
        assert any(w.startswith(f"Book {view.book} · card {view.time} ·") for w in rows), rows
    assert any(f"· bag {view.bag_size} ·" in w for w in rows), rows
    # each player's points so far (public items; the final score once over), and the teams' sums
    pts = [t.text for t in texts if t.panel and t.panel.name.startswith("player ")
           and re.fullmatch(r"\d+ (pts?|points?)", t.text)]  # fmt: skip
    over = view.phase == "over"
    assert pts == [count(p.score, "point") if over else count(p.points, "pt") for p in view.players], pts
    teams = {side: sum(p.score if over else p.points for p in view.players if p.side == side)
             for side in ("hebrew", "heathen")}  # fmt: skip
    assert any(w.startswith(f"Hebrews {teams['hebrew']} · Heathens {teams['heathen']} pts") for w in rows), rows
    if view.turn is not None:  # whose turn: the card and its player
        header = [t.text for t in texts if t.panel and t.panel.name == "header"]
        assert any(w.startswith(view.turn.card.name + " — ") for w in header), header
    asked = {t.panel.name for t in texts if t.panel and t.text == "▶ to act"}
    assert asked == ({f"player {s + 1}" for s in view.waiting} if not over else set()), (asked, view.waiting)


CHECKS: dict[str, tuple[Callable[[Any, list[DrawnText]], None], tuple[int, ...]]] = {
    "barbarian-hordes": (barbarian_hordes, (3, 6)),
    "credo": (credo, (3, 5)),
    "promised-land": (promised_land, (2, 5)),
    "roman-war": (roman_war, (1, 3)),
    "soul-of-the-empire": (soul_of_the_empire, (2, 4)),
}


@pytest.mark.parametrize("game_id", sorted(CHECKS))
def test_every_public_number_of_the_view_is_drawn_in_its_place(game_id: str) -> None:
    check, counts = CHECKS[game_id]
    for players in counts:
        for view in positions(game_id, players):
            check(view, drawn(view))


def test_a_cached_layer_records_its_texts_on_every_reuse() -> None:
    from PIL import Image, ImageDraw

    from render.text import draw_text, face

    calls = []

    @cached_layer(maxsize=2)
    def layer(n: int) -> Image.Image:
        calls.append(n)
        img = Image.new("RGB", (200, 40))
        draw_text(ImageDraw.Draw(img), (5, 5), f"label {n}", face(14), (255, 255, 255))
        return img

    for _ in range(2):
        with recording() as texts:
            layer(1)
        assert [t.text for t in texts] == ["label 1"] and texts[0].canvas == (200, 40)
    assert calls == [1]


def test_a_board_missing_a_panel_is_caught(monkeypatch) -> None:
    """The checks fail when a renderer leaves something out (here: every Credo Follower count)."""
    view = next(iter(positions("credo", 3)))
    texts = [t for t in drawn(view) if not t.text.endswith(" Followers")]
    with pytest.raises(AssertionError):
        credo(view, texts)


@pytest.mark.parametrize("game_id", sorted(CHECKS))
def test_the_viewer_is_marked_you_in_its_own_view_only(game_id: str) -> None:
    """Each seat's own view marks its seat (its panel, row or faction) "YOU"; the public view
    marks nobody."""
    game = get_game(game_id)
    players = CHECKS[game_id][1][0]
    state = start(game, list(range(players)), game.Options(), 3).state
    for seat in range(players):
        mine = [t for t in drawn(game.view(state, seat)) if t.text == "YOU" or "(you)" in t.text]
        assert mine, (game_id, seat)
        if mine[0].panel is not None and mine[0].text == "YOU":  # in the viewer's own panel
            assert str(seat + 1) in mine[0].panel.name or game_id == "soul-of-the-empire", mine[0].panel
    assert not [t for t in drawn(game.view(state, None)) if t.text == "YOU" or "(you)" in t.text]
