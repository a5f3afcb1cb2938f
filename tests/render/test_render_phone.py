"""Images for phones (``render.phone``; issue 23, "Images when they help"): a seat's hand alone
in large text, and the part of a tall board that changed."""

from __future__ import annotations

import pytest
from PIL import Image, ImageDraw

from bot.commands.render import playout
from games.core import get_game
from render import phone
from render.record import recording

GAMES = ["barbarian-hordes", "credo", "promised-land", "roman-war", "soul-of-the-empire"]


@pytest.mark.parametrize("game_id", GAMES)
def test_the_hand_image_shows_every_card_of_the_seat_and_nothing_for_the_public(game_id: str) -> None:
    """Each card ``hand_cards`` lists is drawn, name and kind, in a 640-pixel image whose card
    names are at least 20 px (about 12 px on a 400-pixel phone); a public View has no hand image."""
    game = get_game(game_id)
    players = max(2, game.min_players)
    shown = 0
    for steps in (10, 40, 80):
        g, state, _ = playout(game_id, 3, steps, players)
        assert phone.hand_image(g.view(state, None)) is None
        found = phone.hand_cards(g.view(state, 0))
        if found is None:
            continue
        title, cards = found
        with recording() as texts:
            img = phone.hand_image(g.view(state, 0))
        assert img is not None and img.width == phone.HAND_WIDTH
        drawn = [t.text for t in texts]
        assert title.split(" ")[0] in " ".join(drawn)
        for c in cards:
            assert c.name in drawn, (c.name, drawn)
            shown += 1
        names = [t for t in texts if t.text in {c.name for c in cards}]
        assert all(t.box[3] - t.box[1] >= 20 for t in names), "card names read on a phone"
        assert not any(t.cut for t in texts), [t.text for t in texts if t.cut]
    assert shown, "no seat held a card in the sampled positions"


def test_the_crop_is_centred_on_what_changed_and_none_when_nothing_did() -> None:
    """``crop_box``: a change smaller than the window is in its middle; a change at the map's edge
    keeps the window inside the map; an unchanged map has no crop."""
    before = Image.new("RGB", (1600, 1200), (0, 0, 0))
    after = before.copy()
    area = (0, 100, 1600, 1100)
    assert phone.crop_box(before, after, area) is None
    ImageDraw.Draw(after).rectangle((700, 500, 740, 540), fill=(255, 0, 0))
    left, top, right, bottom = phone.crop_box(before, after, area)
    assert right - left == phone.CROP and bottom - top == phone.CROP
    assert abs((left + right) / 2 - 720) <= 1 and abs((top + bottom) / 2 - 520) <= 1
    edge = before.copy()
    ImageDraw.Draw(edge).rectangle((1590, 1090, 1599, 1099), fill=(255, 0, 0))
    box = phone.crop_box(before, edge, area)
    assert box == (1600 - phone.CROP, 1100 - phone.CROP, 1600, 1100)


def test_only_tall_boards_have_a_crop() -> None:
    """Soul of the Empire and Promised Land (1600 x about 2000 and 1550) post the changed part;
    the boards a phone reads whole (Barbarian Hordes) do not."""
    g, a, _ = playout("barbarian-hordes", 3, 30, 4)
    _, b, _ = playout("barbarian-hordes", 3, 40, 4)
    assert phone.changed_crop(g.view(b, None), g.view(a, None)) is None
    g, a, _ = playout("promised-land", 3, 30, 4)
    _, b, _ = playout("promised-land", 3, 60, 4)
    crop = phone.changed_crop(g.view(b, None), g.view(a, None))
    assert crop is not None and crop.size == (phone.CROP, phone.CROP)


def _words(texts: list, card: int) -> set[str]:
    """The words drawn inside hand card ``card`` (1-based), lower case, punctuation left out."""
    import re

    drawn = " ".join(t.text for t in texts if t.panel is not None and t.panel.name == f"hand card {card}")
    return set(re.findall(r"[\w+\-]+", drawn.lower()))


@pytest.mark.parametrize("game_id", ["barbarian-hordes", "credo", "roman-war"])
def test_the_hand_image_says_what_each_card_does_as_the_board_does(game_id: str) -> None:
    """Issue 19: a phone hand card holds the words its card shows on the board's hand — the card
    text of a Credo Article (its doctrine, whether the Creed decided it, who holds it), a Barbarian
    Hordes card's type in words ("Type M · move seat", not a bare "M"), a Roman War card's marks in
    words ("Power +1", not "H+1") — besides its name."""
    from render import render_image

    checked = 0
    players = 2 if game_id == "roman-war" else 4
    for seed, steps in ((3, 10), (3, 40), (5, 80), (7, 25)):
        g, state, _ = playout(game_id, seed, steps, players)
        for seat in range(players):
            view = g.view(state, seat)
            found = phone.hand_cards(view)
            if not found or not found[1]:
                continue
            with recording() as board:
                render_image(view)
            with recording() as hand:
                phone.hand_image(view)
            for i, card in enumerate(found[1], 1):
                on_board, on_phone = _words(board, i), _words(hand, i)
                assert on_board, f"{game_id}: no hand card {i} on the board"
                assert on_board <= on_phone, (card.name, sorted(on_board - on_phone))
                assert len(card.kind) > 2 and card.text, card
                for mark in ("H+", "D1", "Article card"):
                    assert mark not in card.text, card
                checked += 1
    assert checked >= 5, game_id
