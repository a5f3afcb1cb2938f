"""The Credo board: the Definitive Creed and every Church's mat.

Top: the Definitive Creed's ten Article boxes (decided doctrines filled in, the
next Article to debate marked NEXT). During a General Council, a band shows the
Article under debate, each proposed doctrine with its supporters (seat badges)
and the votes cast so far. Below, one panel per Church: its badge and name,
EMPEROR if it holds the Emperor, Followers (with a track towards 11 million),
votes (towards 117), hand size, its nine mat boxes (Articles of Faith, Firm
Beliefs, Customary Practices) and its notable Church cards (Laity, Patriarchs,
Bishops with votes; exiled ones struck through). A footer gives the last roll,
the pending choice and who is asked. A seat's private view adds its hand.

Image size (RGB): 1600 x 1120 pixels; a seat's private view adds 60 + 34 per
hand line (two cards a line).
"""

from __future__ import annotations

from collections.abc import Mapping

from PIL import Image, ImageDraw

from games.credo.model import ArticleView, CouncilView, PlayerView, View

from . import draw as dr
from . import theme
from .text import draw_text, face, truncate

WIDTH = 1600
HEIGHT = 1120
MARGIN = 20
CREED_Y = dr.HEADER_HEIGHT + 14
CREED_H = 118
COUNCIL_H = 120
PANEL_GAP = 16
FOOTER_H = 70
CATEGORY_SHORT = ("Faith", "Firm", "Custom.")
WIN_FOLLOWERS = 11_000_000
WIN_VOTES = 117


def image_size(view: View) -> tuple[int, int]:
    """(width, height) in pixels for ``view``."""
    me = view.players[view.viewer] if view.viewer is not None else None
    if me is None or me.hand is None:
        return WIDTH, HEIGHT
    lines = (len(me.hand) + 1) // 2 + (1 if view.drawn is not None else 0)
    return WIDTH, HEIGHT + 60 + 34 * max(1, lines)


def _names(view: View, names: Mapping[int, str] | None) -> dict[int, str]:
    names = names or {}
    return {p.seat: names.get(p.seat) or f"Church {p.seat + 1}" for p in view.players}


def _short(a: ArticleView | None) -> str:
    if a is None:
        return ""
    return a.doctrine


def _creed(img: Image.Image, view: View) -> None:
    d = ImageDraw.Draw(img)
    f_small, f = face(theme.MIN_TEXT, "bold"), face(18)
    draw_text(d, (MARGIN, CREED_Y), "DEFINITIVE CREED", f_small, theme.LIGHT)
    y0 = CREED_Y + 26
    w = (WIDTH - 2 * MARGIN - 9 * 10) / 10
    for i in range(10):
        x0 = MARGIN + i * (w + 10)
        box = (x0, y0, x0 + w, y0 + CREED_H - 30)
        a = view.creed[i]
        nxt = view.next_article == i + 1 and view.phase != "over"
        fill = theme.PANEL if a is not None else theme.mix(theme.TABLE, theme.PANEL, 0.15)
        d.rounded_rectangle(
            box, radius=10, fill=fill, outline=theme.ACTIVE if nxt else theme.INK, width=4 if nxt else 2
        )
        ink = theme.INK if a is not None else theme.LIGHT
        draw_text(d, (x0 + 10, y0 + 8), f"{i + 1}", face(theme.TEXT_BIG, "bold"), ink)
        if nxt:
            draw_text(d, (x0 + w - 10, y0 + 12), "NEXT", f_small, theme.ACTIVE, "ra")
        if a is not None:
            draw_text(d, (x0 + 10, y0 + 50), _short(a), f, theme.INK, max_width=w - 20)
        else:
            draw_text(d, (x0 + 10, y0 + 50), "undecided", f, theme.LIGHT_MUTED, max_width=w - 20)


def _council(img: Image.Image, c: CouncilView, y: float, names: dict[int, str]) -> None:
    d = ImageDraw.Draw(img)
    box = (MARGIN, y, WIDTH - MARGIN, y + COUNCIL_H - 10)
    d.rounded_rectangle(
        box, radius=12, fill=theme.mix(theme.PANEL, theme.ORANGE, 0.25), outline=theme.INK, width=3
    )
    stage = {"debate": "debate", "vote": "vote", "respect": "Respect roll"}.get(c.stage, c.stage)
    title = f"GENERAL COUNCIL on Article {c.article} — {stage}"
    draw_text(d, (MARGIN + 16, y + 12), title, face(theme.TEXT_BIG, "bold"), theme.INK, max_width=900)
    votes: dict[str, int] = {}
    for _x, doc, n in c.votes:
        if doc is not None:
            votes[doc] = votes.get(doc, 0) + n
    n = max(1, len(c.proposals))
    w = (WIDTH - 2 * MARGIN - 32) / n
    f = face(18, "bold")
    for i, (doc, sup) in enumerate(c.supporters):
        x0 = MARGIN + 16 + i * w
        draw_text(d, (x0, y + 52), doc, f, theme.INK, max_width=w - 16)
        x = x0
        for s in sup:
            dr.paste_badge(img, theme.seat_style(s), (x + 14, y + 88), 28)
            x += 34
        v = votes.get(doc)
        draw_text(d, (x + 6, y + 88), f"{v} votes" if v is not None else "", face(18), theme.INK, "lm")


def _bar(d: ImageDraw.ImageDraw, box: tuple[float, float, float, float], frac: float, colour) -> None:
    d.rectangle(box, fill=theme.PANEL_MUTED, outline=theme.INK, width=1)
    x0, y0, x1, y1 = box
    d.rectangle((x0, y0, x0 + (x1 - x0) * max(0.0, min(1.0, frac)), y1), fill=colour)


def _panel(img: Image.Image, box, p: PlayerView, view: View, name: str) -> None:
    d = ImageDraw.Draw(img)
    x0, y0, x1, y1 = box
    active = view.active == p.seat and view.phase == "play"
    waiting = p.seat in view.waiting
    winner = p.seat in view.winners
    d.rounded_rectangle(box, radius=14, fill=theme.PANEL, outline=theme.ACTIVE if active else theme.INK,
                        width=6 if active else 2)  # fmt: skip
    style = theme.seat_style(p.seat)
    dr.paste_badge(img, style, (x0 + 28, y0 + 30), 40)
    title_w = x1 - x0 - 70 - 150
    draw_text(d, (x0 + 56, y0 + 30), name, face(theme.TEXT_BIG, "bold"), theme.INK, "lm", max_width=title_w)
    tags = []
    if winner:
        tags.append(("WINNER", theme.GOOD))
    if p.emperor:
        tags.append(("EMPEROR", theme.ORANGE))
    if waiting and view.phase != "over":
        tags.append(("WAITING", theme.WAITING))
    tx = x1 - 12
    for label, colour in tags[:2]:
        f = face(theme.MIN_TEXT, "bold")
        tw = f.length(label) + 16
        d.rounded_rectangle((tx - tw, y0 + 16, tx, y0 + 44), radius=8, fill=colour, outline=theme.INK)
        draw_text(d, (tx - tw / 2, y0 + 30), label, f, theme.ink_on(colour), "mm")
        tx -= tw + 6
    # totals
    f = face(18)
    y = y0 + 58
    draw_text(d, (x0 + 14, y), f"{p.followers:,} Followers", face(18, "bold"), theme.INK)
    draw_text(d, (x1 - 14, y), f"{p.votes} votes · {p.hand_size} in hand", f, theme.INK, "ra")
    _bar(
        d, (x0 + 14, y + 26, x0 + (x1 - x0) / 2 - 8, y + 36), p.followers / WIN_FOLLOWERS, theme.BLUISH_GREEN
    )
    _bar(d, (x0 + (x1 - x0) / 2 + 8, y + 26, x1 - 14, y + 36), p.votes / WIN_VOTES, theme.BLUE)
    # mat
    y = y0 + 108
    cw = (x1 - x0 - 28 - 84) / 3
    for row in range(3):
        draw_text(
            d,
            (x0 + 14, y + row * 34 + 15),
            CATEGORY_SHORT[row],
            face(theme.MIN_TEXT, "bold"),
            theme.INK_MUTED,
            "lm",
        )
        for col in range(3):
            a = p.mat[row * 3 + col]
            bx = x0 + 14 + 84 + col * cw
            cell = (bx, y + row * 34, bx + cw - 6, y + row * 34 + 30)
            fill = theme.mix(theme.PANEL, theme.YELLOW, 0.5) if a is not None else theme.PANEL_MUTED
            d.rectangle(cell, fill=fill, outline=theme.INK_MUTED)
            if a is not None:
                num = "&".join(str(n) for n in a.numbers)
                label = f"{num} {a.doctrine}"
                draw_text(
                    d,
                    (bx + 6, y + row * 34 + 15),
                    label,
                    face(theme.MIN_TEXT),
                    theme.INK,
                    "lm",
                    max_width=cw - 16,
                )
    # Church cards
    y = y0 + 218
    notable = [c for c in p.church if c.kind != "follower"]
    notable.sort(key=lambda c: (-c.votes, c.name))
    fcount = sum(1 for c in p.church if c.kind == "follower")
    parts = [
        f"{c.name.replace('Bishop of ', '')} {c.votes}" + (" (exiled)" if c.exiled else "") for c in notable
    ]
    text = f"{fcount} Follower cards; " + (", ".join(parts) if parts else "no Bishops or Laity")
    lines = []
    fs = face(theme.MIN_TEXT)
    rest = text
    width = x1 - x0 - 28
    for _ in range(3):
        if not rest:
            break
        cut = truncate(rest, fs, width)
        if cut == rest or not cut.endswith("\u2026"):
            lines.append(rest)
            rest = ""
            break
        k = rest.rfind(", ", 0, len(cut) - 1)
        k = k if k > 0 else len(cut) - 1
        lines.append(rest[: k + 1])
        rest = rest[k + 2 :]
    if rest and lines:
        lines[-1] = truncate(lines[-1] + " " + rest, fs, width)
    for i, line in enumerate(lines):
        draw_text(d, (x0 + 14, y + i * 22), line, fs, theme.INK, max_width=width)


def render(view: View, names: Mapping[int, str] | None = None) -> Image.Image:
    """The board for ``view`` as an RGB image (see ``image_size``).

    ``names`` maps seats to the players' display names (any Unicode; truncated to
    fit); seats without one are shown as "Church N".
    """
    if not isinstance(view, View):
        raise TypeError(f"render() takes a Credo View, not {type(view).__name__}")
    names_ = _names(view, names)
    width, height = image_size(view)
    img = Image.new("RGB", (width, height), theme.TABLE)
    _creed(img, view)
    y = CREED_Y + CREED_H + 8
    if view.council is not None:
        _council(img, view.council, y, names_)
        panel_h = (HEIGHT - y - COUNCIL_H - FOOTER_H - PANEL_GAP) / 2
        y += COUNCIL_H
    else:
        panel_h = (HEIGHT - y - FOOTER_H - PANEL_GAP) / 2
    panel_h = min(panel_h, 300)
    n = len(view.players)
    cols = 3 if n > 4 else 2 if n == 4 else 3
    pw = (WIDTH - 2 * MARGIN - (cols - 1) * PANEL_GAP) / cols
    for i, p in enumerate(view.players):
        r, c = divmod(i, cols)
        x0 = MARGIN + c * (pw + PANEL_GAP)
        y0 = y + r * (panel_h + PANEL_GAP)
        _panel(img, (x0, y0, x0 + pw, y0 + panel_h - 4), p, view, names_[p.seat])
    _footer(img, view, names_)
    _hand(img, view)
    turn_label, turn_style = None, None
    if view.phase == "over" and view.winners:
        turn_label = "Winner: " + ", ".join(names_[w] for w in view.winners)
        turn_style = theme.seat_style(view.winners[0])
    elif view.phase == "play":
        turn_label = names_[view.active]
        turn_style = theme.seat_style(view.active)
    stage = {"setup": "Set-up", "over": "Game over"}.get(view.phase) or {
        "article": "Article drawn", "immediate": "Event drawn", "main": "Turn", "draw": "Draw", "council": "Council",
    }.get(view.stage, view.stage)  # fmt: skip
    if view.council is not None and view.phase == "play":
        stage = f"Council on Article {view.council.article}"
    dr.header(
        img,
        dr.Header(
            game="Credo",
            round=view.round if view.phase != "setup" else None,
            phase=stage,
            turn_label=turn_label,
            turn_style=turn_style,
            note=f"Church cards {view.church_deck} · Events {view.event_deck}",
        ),
    )
    return img


def _footer(img: Image.Image, view: View, names: dict[int, str]) -> None:
    d = ImageDraw.Draw(img)
    y = HEIGHT - FOOTER_H
    d.rectangle((0, y, WIDTH, HEIGHT), fill=theme.BACKGROUND)
    f = face(18)
    parts = []
    if view.last_roll is not None:
        r = view.last_roll
        parts.append(f"{r.table} Table: {r.dice[0]}+{r.dice[1]} = {sum(r.dice)} — {r.result}")
    if view.emperor_out:
        parts.append("Emperor out of play")
    if view.goths:
        parts.append("Invading: " + ", ".join(view.goths))
    draw_text(
        d,
        (MARGIN, y + 18),
        "   ·   ".join(parts) or "No dice rolled yet.",
        f,
        theme.LIGHT,
        "lm",
        max_width=WIDTH - 2 * MARGIN,
    )
    if view.phase == "over":
        line = view.end_reason
    else:
        who = ", ".join(names[x] for x in view.waiting)
        line = f"Asked now: {who}" + (
            f" — {view.task}" if view.task else f" — {view.window}" if view.window else ""
        )
    draw_text(d, (MARGIN, y + 48), line, face(18, "bold"), theme.YELLOW, "lm", max_width=WIDTH - 2 * MARGIN)


def _hand(img: Image.Image, view: View) -> None:
    me = view.players[view.viewer] if view.viewer is not None else None
    if me is None or me.hand is None:
        return
    d = ImageDraw.Draw(img)
    y = HEIGHT
    d.rectangle((0, y, WIDTH, img.height), fill=theme.HEADER)
    draw_text(d, (MARGIN, y + 30), "YOUR HAND (secret)", face(theme.TEXT_BIG, "bold"), theme.LIGHT, "lm")
    items = []
    if view.drawn is not None:
        items.append(("Drawn: " + view.drawn.name, True))
    items += [(c.name, False) for c in me.hand]
    f = face(18)
    col_w = (WIDTH - 2 * MARGIN) / 2
    row = 0
    i = 0
    while i < len(items):
        text, wide = items[i]
        if wide:
            draw_text(
                d,
                (MARGIN, y + 76 + row * 34),
                text,
                face(18, "bold"),
                theme.YELLOW,
                "lm",
                max_width=WIDTH - 40,
            )
            i += 1
        else:
            for c in range(2):
                if i < len(items) and not items[i][1]:
                    draw_text(d, (MARGIN + c * col_w, y + 76 + row * 34), "• " + items[i][0], f, theme.LIGHT, "lm",
                              max_width=col_w - 20)  # fmt: skip
                    i += 1
        row += 1
    if not items:
        draw_text(d, (MARGIN, y + 76), "Your hand is empty.", f, theme.LIGHT_MUTED, "lm")
