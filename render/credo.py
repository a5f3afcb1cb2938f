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

Image size (RGB): 1600 pixels wide; the Creed, a row of two Church panels per two Churches
(360 pixels each, taller when a Church's Bishops and Laity need more lines: 1024 high for
three or four Churches as a rule, 1400 for five or six), more while a General Council
sits (170); a seat's private view adds 304 for its hand (five cards a row, 254 per further row;
100 when it is empty). See ``image_size``.
"""

from __future__ import annotations

from collections.abc import Mapping

from PIL import Image, ImageDraw

from games.core.english import count
from games.credo.model import ArticleView, CouncilView, PlayerView, View

from . import draw as dr
from . import theme
from .paint import Draw
from .phone import HandCard
from .record import panel
from .text import draw_fit, draw_text, face, fit_paragraph, wrap

WIDTH = 1600
MARGIN = 20
CREED_Y = dr.HEADER_HEIGHT + 14
CREED_H = 118
COUNCIL_H = 170
PANEL_GAP = 16
FOOTER_H = 70
TOP = CREED_Y + CREED_H + 8  # the Churches' panels start here (below the Council's band if any)
PANEL_H = 360
LIST_H = 72  # of PANEL_H, for the Bishops and Laity
CATEGORY_SHORT = ("Faith", "Firm", "Custom.")
WIN_FOLLOWERS = 11_000_000
WIN_VOTES = 117
# the symbols printed on some doctrines (articles.toml, RULINGS.md R3), which Event cards name
SYMBOLS = {"sun": "\u2600", "yin-yang": "\u262f", "open book": "\u2756", "dove and cross": "\u271d"}
HAND_H = 304  # the private hand band: a title and one row of cards


def image_size(view: View) -> tuple[int, int]:
    """(width, height) in pixels for ``view``."""
    me = view.players[view.viewer] if view.viewer is not None else None
    if me is None or me.hand is None:
        return WIDTH, board_height(view)
    cards = len(me.hand) + (1 if view.drawn is not None else 0)
    if not cards:
        return WIDTH, board_height(view) + 100
    rows = (cards + 4) // 5
    return WIDTH, board_height(view) + HAND_H + (rows - 1) * (HAND_H - 50)


def board_height(view: View) -> int:
    """Height in pixels of the board above the private hand: the Creed, the General Council's
    band while one sits, the Churches' panels two a row, and the footer."""
    rows = _row_heights(view)
    council = COUNCIL_H if view.council is not None else 0
    return TOP + council + sum(rows) + (len(rows) - 1) * PANEL_GAP + FOOTER_H


def _names(view: View, names: Mapping[int, str] | None) -> dict[int, str]:
    names = names or {}
    return {p.seat: names.get(p.seat) or f"Church {p.seat + 1}" for p in view.players}


def _short(a: ArticleView | None) -> str:
    """A doctrine with the symbol printed on it (if any)."""
    if a is None:
        return ""
    mark = SYMBOLS.get(a.symbol or "", "")
    return f"{a.doctrine} {mark}" if mark else a.doctrine


def _creed(img: Image.Image, view: View) -> None:
    d = Draw(img)
    f_small, f = face(theme.MIN_TEXT, "bold"), face(18)
    draw_text(d, (MARGIN, CREED_Y), "DEFINITIVE CREED", f_small, theme.LIGHT)
    piles = (f"Church cards: deck {view.church_deck}, discard {view.church_discard}   ·   "
             f"Events: deck {view.event_deck}, discard {view.event_discard}")  # fmt: skip
    draw_text(d, (WIDTH - MARGIN, CREED_Y), piles, f_small, theme.LIGHT, "ra")
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
        with panel(f"Article {i + 1}", box, img.size):
            draw_text(d, (x0 + 10, y0 + 8), f"{i + 1}", face(theme.TEXT_BIG, "bold"), ink)
            if nxt:
                draw_text(d, (x0 + w - 10, y0 + 12), "NEXT", f_small, theme.ACTIVE, "ra")
            text, colour = (_short(a), theme.INK) if a is not None else ("undecided", theme.LIGHT_MUTED)
            fs, lines = fit_paragraph(text.replace("/", "/ "), w - 14, CREED_H - 30 - 44, f.size)
            lines = [line.replace("/ ", "/") for line in lines]  # the space only lets a line break there
            for k, line in enumerate(lines):
                draw_text(d, (x0 + 7, y0 + 40 + k * fs.line_height), line, fs, colour)


def _council(img: Image.Image, c: CouncilView, y: float, names: dict[int, str], view: View) -> None:
    """The General Council's band (rule text, General Councils): each proposed doctrine with
    its backers, the votes cast for it (or, before the vote, the votes its backers hold), the
    Churches with no doctrine for the Article and their votes, and what the losers discard."""
    d = Draw(img)
    box = (MARGIN, y, WIDTH - MARGIN, y + COUNCIL_H - 10)
    d.rounded_rectangle(
        box, radius=12, fill=theme.mix(theme.PANEL, theme.ORANGE, 0.25), outline=theme.INK, width=3
    )
    stage = {"debate": "debate", "vote": "vote", "respect": "Respect roll"}.get(c.stage, c.stage)
    title = f"GENERAL COUNCIL on Article {c.article} — {stage}"
    draw_fit(d, (MARGIN + 16, y + 12), title, theme.TEXT_BIG, theme.INK, 900, style="bold")
    votes: dict[str, int] = {}
    for _x, doc, n in c.votes:
        if doc is not None:
            votes[doc] = votes.get(doc, 0) + n
    held = {p.seat: p.votes for p in view.players}
    backing = {x for _doc, sup in c.supporters for x in sup}
    n = max(1, len(c.proposals))
    w = (WIDTH - 2 * MARGIN - 32) / n
    f = face(18, "bold")
    for i, (doc, sup) in enumerate(c.supporters):
        x0 = MARGIN + 16 + i * w
        draw_fit(d, (x0, y + 52), doc, f.size, theme.INK, w - 16, style="bold")
        x = x0
        for s in sup:
            dr.paste_badge(img, theme.seat_style(s), (x + 14, y + 88), 28)
            x += 34
        v = votes.get(doc)
        text = f"{count(v, 'vote')} cast" if v is not None else f"backers hold {count(sum(held[x] for x in sup), 'vote')}"
        draw_fit(d, (x + 6, y + 88), text, 18, theme.INK, x0 + w - 16 - x - 6, "lm")
    free = [p for p in view.players if p.seat not in backing]
    undecided = ("No doctrine: " + ", ".join(f"{names[p.seat]} ({count(p.votes, 'vote')})" for p in free)
                 + " — may vote for any doctrine or abstain") if free else "Every Church backs a doctrine"  # fmt: skip
    rule = "Most votes wins (a tie: undecided) · losers discard 3 / 2 / 1 Church cards (Faith / Firm / Custom.)"
    fs = face(theme.MIN_TEXT)
    for k, line in enumerate((undecided, rule)):
        draw_fit(d, (MARGIN + 16, y + 118 + 22 * k), line, fs.size, theme.INK, WIDTH - 2 * MARGIN - 32, "lm")


def _bishops(p: PlayerView) -> str:
    """A Church's Bishops and Laity, grouped by their votes (exiled ones marked)."""
    by_votes: dict[int, list[str]] = {}
    for c in sorted((c for c in p.church if c.kind != "follower"), key=lambda c: c.name):
        by_votes.setdefault(c.votes, []).append(c.name.replace("Bishop of ", "") + (" (exiled)" if c.exiled else ""))
    groups = [f"{v}: {', '.join(by_votes[v])}" for v in sorted(by_votes, reverse=True)]
    return "Bishops and Laity by votes — " + " · ".join(groups) if groups else "No Bishops or Laity"


def _row_heights(view: View) -> list[int]:
    """Height in pixels of each row of panels (two a row): PANEL_H, or more when a Church's
    Bishops and Laity need more lines than its panel has at 14 pixels."""
    pw = (WIDTH - 2 * MARGIN - PANEL_GAP) / 2
    out = []
    for i in range(0, len(view.players), 2):
        need = PANEL_H
        for p in view.players[i : i + 2]:
            lines = len(wrap(_bishops(p), face(14), pw - 28))
            need = max(need, PANEL_H - LIST_H + lines * face(14).line_height + 1)
        out.append(int(need + 0.5))
    return out


def _bar(d: ImageDraw.ImageDraw, box: tuple[float, float, float, float], frac: float, colour) -> None:
    d.rectangle(box, fill=theme.PANEL_MUTED, outline=theme.INK, width=1)
    x0, y0, x1, y1 = box
    d.rectangle((x0, y0, x0 + (x1 - x0) * max(0.0, min(1.0, frac)), y1), fill=colour)


def _panel(img: Image.Image, box, p: PlayerView, view: View, name: str) -> None:
    d = Draw(img)
    x0, y0, x1, y1 = box
    active = view.active == p.seat and view.phase == "play"
    waiting = p.seat in view.waiting
    winner = p.seat in view.winners
    d.rounded_rectangle(box, radius=14, fill=theme.PANEL, outline=theme.ACTIVE if active else theme.INK,
                        width=6 if active else 2)  # fmt: skip
    style = theme.seat_style(p.seat)
    dr.paste_badge(img, style, (x0 + 28, y0 + 30), 40)
    tags = []
    if p.seat == view.viewer:
        tags.append(("YOU", theme.LIGHT))
    if winner:
        tags.append(("WINNER", theme.GOOD))
    if p.emperor:
        tags.append(("EMPEROR", theme.ORANGE))
    if waiting and view.phase != "over":
        tags.append(("TURN", theme.ACTIVE) if active else ("TO ACT", theme.WAITING))
    tx = x1 - 12
    ft = face(theme.MIN_TEXT, "bold")
    for label, colour in tags[:3]:
        tw = ft.length(label) + 16
        d.rounded_rectangle((tx - tw, y0 + 16, tx, y0 + 44), radius=8, fill=colour, outline=theme.INK)
        draw_text(d, (tx - tw / 2, y0 + 30), label, ft, theme.ink_on(colour), "mm")
        tx -= tw + 6
    draw_fit(d, (x0 + 56, y0 + 30), name, theme.TEXT_BIG, theme.INK, tx - x0 - 62, "lm", "bold")
    # totals, each over its track to victory (11 million Followers, 117 votes)
    y = y0 + 58
    mid = x0 + (x1 - x0) / 2
    half = mid - x0 - 22
    fol = f"{p.followers:,} Followers"
    draw_fit(d, (x0 + 14, y), fol, 18, theme.INK, half, style="bold")
    draw_fit(d, (mid + 8, y), f"{count(p.votes, 'vote')}", 18, theme.INK, half, style="bold")
    _bar(d, (x0 + 14, y + 26, mid - 8, y + 36), p.followers / WIN_FOLLOWERS, theme.BLUISH_GREEN)
    _bar(d, (mid + 8, y + 26, x1 - 14, y + 36), p.votes / WIN_VOTES, theme.BLUE)
    fm = face(14)
    draw_text(d, (x0 + 14, y + 40), "0", fm, theme.INK_MUTED)
    draw_text(d, (mid - 8, y + 40), "11,000,000 win", fm, theme.INK_MUTED, "ra")
    draw_text(d, (mid + 8, y + 40), "0", fm, theme.INK_MUTED)
    draw_text(d, (x1 - 14, y + 40), "117 votes win", fm, theme.INK_MUTED, "ra")
    # mat
    y = y0 + 120
    cw = (x1 - x0 - 28 - 84) / 3
    ch = 40
    for row in range(3):
        draw_text(
            d, (x0 + 14, y + row * (ch + 4) + ch / 2), CATEGORY_SHORT[row], face(theme.MIN_TEXT, "bold"),
            theme.INK_MUTED, "lm",
        )  # fmt: skip
        for col in range(3):
            a = p.mat[row * 3 + col]
            bx = x0 + 14 + 84 + col * cw
            cell = (bx, y + row * (ch + 4), bx + cw - 6, y + row * (ch + 4) + ch)
            fill = theme.mix(theme.PANEL, theme.YELLOW, 0.5) if a is not None else theme.PANEL_MUTED
            d.rectangle(cell, fill=fill, outline=theme.INK_MUTED)
            if a is not None:
                num = "&".join(str(n) for n in a.numbers)
                label = f"{num} {_short(a)}".replace("/", "/ ")  # a line may break after a slash
                fs, lines = fit_paragraph(label, cw - 16, ch - 4, theme.MIN_TEXT)
                lines = [line.replace("/ ", "/") for line in lines]
                top = cell[1] + (ch - len(lines) * fs.line_height) / 2 + 1
                for k, line in enumerate(lines):
                    draw_text(d, (bx + 5, top + k * fs.line_height), line, fs, theme.INK)
    # hand size and Church cards, wrapped into the rest of the panel
    y = y0 + 120 + 3 * (ch + 4) + 6
    fcount = sum(1 for c in p.church if c.kind == "follower")
    draw_text(d, (x0 + 14, y), f"{count(p.hand_size, 'card')} in hand · {count(fcount, 'Follower card')}",
              face(theme.MIN_TEXT, "bold"), theme.INK, max_width=x1 - x0 - 28)  # fmt: skip
    y += 22
    text = _bishops(p)
    fs, lines = fit_paragraph(text, x1 - x0 - 28, y1 - 8 - y, theme.MIN_TEXT)
    for i, line in enumerate(lines):
        draw_text(d, (x0 + 14, y + i * fs.line_height), line, fs, theme.INK)


def hand_cards(view: View) -> tuple[str, list[HandCard]] | None:
    """The viewer's hand (and the card they drew) for the phone hand image (``render.phone``):
    each card's name, whether it is an Article or an Event, and its text; None without a hand."""
    me = view.players[view.viewer] if view.viewer is not None else None
    if me is None or me.hand is None:
        return None
    cards = [(view.drawn, True)] if view.drawn is not None else []
    cards += [(c, False) for c in me.hand]
    out = []
    for c, drawn in cards:
        kind = ("Drawn \u00b7 " if drawn else "") + ("Article" if c.kind == "article" else "Event")
        accent = theme.YELLOW if drawn else theme.ORANGE if c.kind == "event" else theme.SKY_BLUE
        text = article_text(view, c.id) if c.kind == "article" else c.text  # as the board's hand shows it
        out.append(HandCard(c.name, kind, text, accent))
    return f"Your hand \u2014 {count(len(me.hand), 'card')} (limit 4)", out


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
    y = TOP
    if view.council is not None:
        _council(img, view.council, y, names_, view)
        y += COUNCIL_H
    heights = _row_heights(view)
    pw = (WIDTH - 2 * MARGIN - PANEL_GAP) / 2
    for i, p in enumerate(view.players):
        r, c = divmod(i, 2)
        x0 = MARGIN + c * (pw + PANEL_GAP)
        y0 = y + sum(heights[:r]) + r * PANEL_GAP
        box = (x0, y0, x0 + pw, y0 + heights[r])
        with panel(f"Church {p.seat + 1}", box, img.size):
            _panel(img, box, p, view, names_[p.seat])
    if len(view.players) % 2:  # the free place beside the last Church: how the game is played
        r = len(view.players) // 2
        x0 = MARGIN + pw + PANEL_GAP
        y0 = y + sum(heights[:r]) + r * PANEL_GAP
        box = (x0, y0, x0 + pw, y0 + heights[r])
        with panel("guide", box, img.size):
            _guide(img, box)
    _footer(img, view, names_)
    _hand(img, view, names_)
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
            turn_icon="crown" if view.phase == "over" else "arrow",
        ),
    )
    return img


def _footer(img: Image.Image, view: View, names: dict[int, str]) -> None:
    d = Draw(img)
    bottom = board_height(view)
    y = bottom - FOOTER_H
    d.rectangle((0, y, WIDTH, bottom), fill=theme.BACKGROUND)
    f = face(18)
    parts = []
    if view.last_roll is not None:
        r = view.last_roll
        parts.append(f"{r.table} Table: {r.dice[0]}+{r.dice[1]} = {sum(r.dice)} — {r.result}")
    if view.emperor_out:
        parts.append("Emperor out of play")
    if view.goths:
        parts.append("Invading: " + ", ".join(view.goths))
    shown = _symbols_shown(view) if len(view.players) % 2 == 0 else set()  # else in the guide
    key = "Symbols: " + " · ".join(f"{m} {name}" for name, m in SYMBOLS.items() if name in shown) if shown else ""
    with panel("footer", (0, y, WIDTH, bottom), img.size):
        kw = draw_text(d, (WIDTH - MARGIN, y + 18), key, face(theme.MIN_TEXT), theme.LIGHT, "rm") if key else 0
        draw_fit(d, (MARGIN, y + 18), "   ·   ".join(parts) or "No dice rolled yet.", f.size, theme.LIGHT,
                 WIDTH - 3 * MARGIN - kw, "lm")  # fmt: skip
        _asked(d, view, names, y)


GUIDE = (
    ("TO WIN", "11,000,000 Followers, or 117 votes among your Bishops and Laity."),
    ("A TURN", "Draw a card. An Article: place it on your mat, keep, renounce or reject it. An Event drawn "
     "to play at once: play it on another Church. Then play Event cards, discard down to 4 cards and end "
     "the turn; the Emperor may then convoke a General Council on the next Article."),
    ("A GENERAL COUNCIL", "Each Church with a doctrine for the Article votes for it; the others vote for "
     "any doctrine or abstain. Most votes wins (a tie leaves it undecided). Losers discard 3, 2 or 1 Church "
     "cards (Faith, Firm, Custom.); the Emperor may enforce respect on one of them."),
    ("DOCTRINE SYMBOLS", " · ".join(f"{m} {name}" for name, m in SYMBOLS.items())
     + " (Event cards name them)."),
)  # fmt: skip


def _guide(img: Image.Image, box: tuple[float, float, float, float]) -> None:
    """With three or five Churches, the free place of the last row: how to win, a turn, a General
    Council and the doctrine symbols (rule text: Victory, The Game, General Councils)."""
    d = Draw(img)
    x0, y0, x1, y1 = box
    d.rounded_rectangle(box, radius=14, fill=theme.mix(theme.TABLE, theme.PANEL, 0.12), outline=theme.INK, width=2)
    fb = face(theme.MIN_TEXT, "bold")
    room = (y1 - y0 - 24 - len(GUIDE) * (fb.line_height + 6))
    for size in range(18, theme.MIN_TEXT - 1, -1):
        f = face(size)
        paras = [wrap(text, f, x1 - x0 - 28) for _, text in GUIDE]
        if sum(len(p) for p in paras) * f.line_height <= room:
            break
    y = y0 + 12
    for (title, _), lines in zip(GUIDE, paras, strict=True):
        draw_text(d, (x0 + 14, y), title, fb, theme.YELLOW)
        y += fb.line_height + 2
        for line in lines:
            draw_text(d, (x0 + 14, y), line, f, theme.LIGHT)
            y += f.line_height
        y += 4


def _symbols_shown(view: View) -> set[str]:
    """The doctrine symbols drawn on the board: on the Creed, on the mats, in the viewer's hand."""
    arts = [a for a in view.creed if a is not None] + [a for p in view.players for a in p.mat if a is not None]
    out = {a.symbol for a in arts if a.symbol}
    me = view.players[view.viewer] if view.viewer is not None else None
    for c in (me.hand or ()) if me is not None else ():
        out |= {name for name in SYMBOLS if name in c.text}
    return out


# what the asked Church decides when no task or window says more (the rules' prompts)
DECIDING = {
    "article": "an Article card was drawn: place, keep, renounce or reject it",
    "immediate": "play the Event drawn on another Church",
    "main": "play Event cards, discard, then end the turn",
}


def _asked(d: ImageDraw.ImageDraw, view: View, names: dict[int, str], y: float) -> None:
    if view.phase == "over":
        line = view.end_reason
    else:
        who = ", ".join(names[x] for x in view.waiting)
        what = view.task or (f"{view.window} Play an Event card, or pass." if view.window else None)
        what = what or (DECIDING.get(view.stage) if view.phase == "play" else None)
        if view.council is not None and not (view.task or view.window):
            what = {"vote": f"vote on Article {view.council.article}, or abstain",
                    "respect": "the Emperor may enforce respect of the Council on a Losing doctrine"}.get(
                view.council.stage, what)  # fmt: skip
        if view.phase == "setup":
            what = "place your Articles on your Church mat"
        line = f"Asked now: {who}" + (f" — {what}" if what else "")
    draw_fit(d, (MARGIN, y + 48), line, 18, theme.YELLOW, WIDTH - 2 * MARGIN, "lm", "bold")


def _hand(img: Image.Image, view: View, names: Mapping[int, str]) -> None:
    """The viewer's own hand (and the card they drew), one card face per card, five a row."""
    me = view.players[view.viewer] if view.viewer is not None else None
    if me is None or me.hand is None:
        return
    d = Draw(img)
    y = board_height(view)
    d.rectangle((0, y, WIDTH, img.height), fill=theme.HEADER)
    with panel("hand", (0, y, WIDTH, img.height), img.size):
        title = f"YOUR HAND (secret) — {count(len(me.hand), 'card')}, limit 4"
        draw_text(d, (MARGIN, y + 26), title, face(theme.TEXT, "bold"), theme.LIGHT, "lm")
        cards = [(c, False) for c in me.hand]
        if view.drawn is not None:
            cards.insert(0, (view.drawn, True))
        if not cards:
            draw_text(d, (MARGIN, y + 70), "Your hand is empty.", face(18), theme.LIGHT_MUTED, "lm")
        # up to five a row; a few cards wider (two fifths of the row), their text larger
        per_row = max(1, min(len(cards), 5))
        cw = min(2 * (WIDTH - 2 * MARGIN - 4 * 12) / 5, (WIDTH - 2 * MARGIN - (per_row - 1) * 12) / per_row)
        for i, (c, drawn) in enumerate(cards):
            r, k = divmod(i, 5)
            x0 = MARGIN + k * (cw + 12)
            top = y + 50 + r * (HAND_H - 50)
            box = (x0, top, x0 + cw, top + HAND_H - 64)
            kind = ("Drawn · " if drawn else "") + ("Article" if c.kind == "article" else "Event")
            text = article_text(view, c.id, names) if c.kind == "article" else c.text
            with panel(f"hand card {i + 1}", box, img.size):
                accent = theme.YELLOW if drawn else theme.ORANGE if c.kind == "event" else theme.SKY_BLUE
                dr.card_face(img, box, dr.CardFace(name=c.name, note=kind, text=text), accent=accent, text_size=20)


def article_text(view: View, card_id: str, names: Mapping[int, str] | None = None) -> str:
    """What an Article card in the hand means now: its doctrine and symbol, whether the Creed has
    decided its Article, which Churches hold a doctrine for it on their mats (public), its
    and its penalty (the cost of losing a Council is in the Council band and the guide)."""
    from games.credo.data import load

    a = load().articles[card_id]
    nums = "&".join(str(n) for n in a.numbers)
    mark = SYMBOLS.get(a.symbol or "")
    parts = [f"Doctrine: {a.doctrine}" + (f" {mark} ({a.symbol} symbol)" if mark else "") + "."]
    decided = [view.creed[n - 1] for n in a.numbers if 0 < n <= len(view.creed) and view.creed[n - 1] is not None]
    if decided:
        parts.append("Creed already has " + ", ".join(_short(d) for d in decided) + ".")
    else:
        nxt = " (next to debate)" if view.next_article in a.numbers else ""
        parts.append(f"Article {nums} undecided{nxt}.")
    names = names or {}
    rivals = [f"{names.get(p.seat) or f'Church {p.seat + 1}'}: {m.doctrine}" for p in view.players for m in p.mat
              if m is not None and set(m.numbers) & set(a.numbers)]  # fmt: skip
    parts.append(("On mats: " + "; ".join(rivals) + ".") if rivals else "No Church holds this Article yet.")
    if a.penalty_text:
        parts.append(f"Penalty: {a.penalty_text}.")
    return " ".join(parts)
