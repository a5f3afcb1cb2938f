"""Text for board images: shipped fonts, glyph fallback, wrapping and truncation.

The package ships DejaVu Sans (``render/fonts/``, Bitstream Vera licence, see
``LICENSE.txt``), so a fresh machine draws the same pixels. A character the
shipped font lacks is drawn with the first fallback font on this machine that
has it (Noto CJK, Noto Emoji, Symbola, Unifont... when installed), else as a
white square; any Unicode string (emoji, CJK, right-to-left, control
characters, 100 characters) is drawn without raising.

Layout is Pillow's basic engine (deterministic everywhere). The character map
of each font is read with fontTools; right-to-left text is put in visual order by
python-bidi (the Unicode bidi algorithm), and when Pillow has libraqm its
right-to-left runs are also shaped by it.
"""

from __future__ import annotations

import functools
import operator
import unicodedata
from dataclasses import dataclass
from pathlib import Path

from bidi import get_display
from fontTools.ttLib import TTFont
from PIL import Image, ImageDraw, ImageFont, features

from . import glyphs
from .record import record

FONT_DIR = Path(__file__).parent / "fonts"
FONTS = {
    "regular": FONT_DIR / "DejaVuSans.ttf",
    "bold": FONT_DIR / "DejaVuSans-Bold.ttf",
    "condensed": FONT_DIR / "DejaVuSansCondensed-Bold.ttf",
}
REPLACEMENT = "\u25a1"  # WHITE SQUARE, drawn for a glyph no font has
ELLIPSIS = "\u2026"
LAYOUTS_KEPT = 8192  # wrapped and fitted texts remembered per process (each a few short strings)
PAIRS_KEPT = 100_000  # kerning pairs remembered per font

# Fallback fonts looked up on the machine, in order; missing ones are skipped.
FALLBACK_PATHS: tuple[str, ...] = (
    "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
    "/usr/share/fonts/noto-cjk/NotoSansCJK-Regular.ttc",
    "/usr/share/fonts/truetype/noto/NotoSansCJK-Regular.ttc",
    "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc",
    "/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf",
    "/usr/share/fonts/truetype/noto/NotoSansArabic-Regular.ttf",
    "/usr/share/fonts/truetype/noto/NotoSansHebrew-Regular.ttf",
    "/usr/share/fonts/truetype/noto/NotoEmoji-Regular.ttf",
    "/usr/share/fonts/truetype/ancient-scripts/Symbola_hint.ttf",
    "/usr/share/fonts/truetype/unifont/unifont.ttf",
    "/System/Library/Fonts/Supplemental/Arial Unicode.ttf",
    "C:/Windows/Fonts/seguisym.ttf",
)

_RAQM = features.check("raqm")


# --------------------------------------------------------------------------- cmap


@functools.cache
def font_charset(path: str) -> frozenset[int]:
    """Code points the font file at ``path`` maps to a glyph (its best Unicode cmap
    subtable, read with fontTools; for a collection, its first face). Empty if the
    file cannot be read as a font."""
    try:
        with TTFont(path, fontNumber=0, lazy=True) as font:
            cmap = font.getBestCmap() or {}
    except Exception:  # fontTools raises many kinds for a file that is not a font
        return frozenset()
    return frozenset(cp for cp, glyph in cmap.items() if glyph != ".notdef")


@functools.cache
def fallback_fonts() -> tuple[str, ...]:
    """Paths of the fallback fonts present on this machine."""
    return tuple(p for p in FALLBACK_PATHS if Path(p).is_file() and font_charset(p))


# --------------------------------------------------------------------------- cleaning and bidi

_DROP_CATEGORIES = {"Cc", "Cf", "Cs", "Co", "Cn"}


def clean(text: str) -> str:
    """``text`` ready to draw: NFC, whitespace runs collapsed to one space, control,
    format (zero-width joiners, bidi marks), variation selectors and emoji skin
    tone modifiers removed. Remembered per process (names and labels repeat from
    board to board)."""
    return _clean(str(text))


@functools.lru_cache(maxsize=16384)
def _clean(text: str) -> str:
    if text.isascii() and text.isprintable() and "  " not in text:
        return text.strip()  # nothing to normalise, drop or collapse
    if "  " not in text and _kept_as_is().issuperset(map(ord, text)) and unicodedata.is_normalized("NFC", text):
        return text.strip()  # the same: every character kept, no whitespace but single spaces
    out = []
    for ch in unicodedata.normalize("NFC", str(text)):
        cp = ord(ch)
        if ch.isspace():
            if out and out[-1] != " ":
                out.append(" ")
            continue
        if unicodedata.category(ch) in _DROP_CATEGORIES:
            continue
        if 0xFE00 <= cp <= 0xFE0F or 0xE0100 <= cp <= 0xE01EF or 0x1F3FB <= cp <= 0x1F3FF:
            continue
        out.append(ch)
    return "".join(out).strip()


@functools.cache
def _kept_as_is() -> frozenset[int]:
    """The characters of the shipped fonts that ``_clean`` keeps as they are (the space, and none
    it drops or treats as whitespace)."""
    chars = frozenset().union(*(font_charset(str(p)) for p in FONTS.values()))
    return frozenset(cp for cp in chars if _as_is(chr(cp))) | {ord(" ")}


def _as_is(ch: str) -> bool:
    cp = ord(ch)
    return not (
        ch.isspace()
        or unicodedata.category(ch) in _DROP_CATEGORIES
        or 0xFE00 <= cp <= 0xFE0F
        or 0xE0100 <= cp <= 0xE01EF
        or 0x1F3FB <= cp <= 0x1F3FF
    )


def _is_rtl(ch: str) -> bool:
    return unicodedata.bidirectional(ch) in ("R", "AL")


def visual_runs(text: str) -> list[tuple[str, bool]]:
    """Split ``text`` into (run, right_to_left) in visual (left-to-right) order.

    The order is the Unicode bidi algorithm's (python-bidi), the paragraph direction
    that of the first strong character. A right-to-left run is given in visual order
    (its characters reversed from the logical order); neutral characters join the run
    before them, digits form left-to-right runs.
    """
    if not any(_is_rtl(c) for c in text):
        return [(text, False)]
    shown = get_display(text)
    runs: list[list] = []
    for ch in shown:
        kind = unicodedata.bidirectional(ch)
        rtl = True if kind in ("R", "AL") else False if kind in ("L", "EN", "AN") else None
        if runs and (rtl is None or runs[-1][1] is None or runs[-1][1] == rtl):
            runs[-1][0] += ch
            if runs[-1][1] is None:
                runs[-1][1] = rtl
        else:
            runs.append([ch, rtl])
    return [(s, bool(r)) for s, r in runs]


# --------------------------------------------------------------------------- faces


@dataclass(frozen=True)
class Face:
    """A font at one size with glyph fallback. ``size`` in pixels (em size)."""

    style: str
    size: int

    @functools.cached_property
    def primary(self) -> ImageFont.FreeTypeFont:
        return ImageFont.truetype(str(FONTS[self.style]), self.size, layout_engine=ImageFont.Layout.BASIC)

    @functools.cached_property
    def charset(self) -> frozenset[int]:
        return font_charset(str(FONTS[self.style]))

    @functools.cached_property
    def fallbacks(self) -> list[tuple[ImageFont.FreeTypeFont, frozenset[int]]]:
        out = []
        for p in fallback_fonts():
            try:
                out.append(
                    (ImageFont.truetype(p, self.size, layout_engine=ImageFont.Layout.BASIC), font_charset(p))
                )
            except OSError:
                continue
        return out

    @functools.cached_property
    def metrics(self) -> tuple[int, int]:
        """(ascent, descent) in pixels."""
        return self.primary.getmetrics()

    @property
    def line_height(self) -> int:
        a, d = self.metrics
        return int(round((a + d) * 1.08))

    def font_for(self, ch: str) -> ImageFont.FreeTypeFont | None:
        cp = ord(ch)
        if cp in self.charset or ch == " ":
            return self.primary
        for font, chars in self.fallbacks:
            if cp in chars:
                return font
        return None

    def segments(self, text: str) -> tuple[tuple[str, ImageFont.FreeTypeFont, bool], ...]:
        """(chunk, font, rtl) in visual order; chunks with no font become REPLACEMENT.
        Remembered per face and text."""
        return _segments(self, text)

    def length(self, text: str) -> float:
        """Advance width of ``text`` in pixels (after ``clean``)."""
        text = clean(text)
        return _length(self, text)


@functools.lru_cache(maxsize=16384)
def _segments(face: Face, text: str) -> tuple[tuple[str, ImageFont.FreeTypeFont, bool], ...]:
    if text.isascii() and text.isprintable():  # the shipped fonts have every printable ASCII glyph
        return ((text, face.primary, False),)
    if _left_to_right(face.style).issuperset(map(ord, text)):  # one left-to-right run, all in the font
        return ((text, face.primary, False),)
    out: list[tuple[str, ImageFont.FreeTypeFont, bool]] = []
    for run, rtl in visual_runs(text):
        chunks: list[list] = []
        for ch in run:
            font = face.font_for(ch)
            if font is None:
                ch, font = REPLACEMENT, face.primary
            if chunks and chunks[-1][1] is font:
                chunks[-1][0] += ch
            else:
                chunks.append([ch, font])
        out.extend((s, f, rtl) for s, f in chunks)
    return tuple(out)


@functools.cache
def _left_to_right(style: str) -> frozenset[int]:
    """The characters of a shipped font (and the space) that are not right-to-left: a text of
    only these is one run drawn in that font (``_segments``)."""
    chars = font_charset(str(FONTS[style])) | {ord(" ")}
    return frozenset(cp for cp in chars if not _is_rtl(chr(cp)))


@functools.lru_cache(maxsize=16384)
def _length(face: Face, text: str) -> float:
    return sum(_advance(font, s) for s, font, _ in _segments(face, text))


@functools.cache
def face(size: int, style: str = "regular") -> Face:
    """The shipped font (``regular``, ``bold`` or ``condensed`` bold) at ``size`` pixels."""
    if style not in FONTS:
        raise ValueError(f"unknown font style {style!r}; use one of {', '.join(FONTS)}")
    return Face(style, int(size))


# --------------------------------------------------------------------------- drawing


def draw_text(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    font: Face,
    fill: tuple[int, ...] | str,
    anchor: str = "la",
    max_width: float | None = None,
) -> float:
    """Draw one line of ``text`` at ``xy`` (pixels) and return its width in pixels.

    ``anchor`` is two letters like Pillow's: horizontal ``l``/``m``/``r``, vertical
    ``a`` (ascender top), ``m`` (middle), ``s`` (baseline) or ``d`` (descender
    bottom). With ``max_width`` the text is truncated with an ellipsis to fit.
    """
    requested = text = clean(text)
    if max_width is not None:
        text = truncate(text, font, max_width)
    if not text:
        return 0.0
    width = _length(font, text)
    x, y = xy
    h, v = anchor[0], anchor[1]
    if h == "m":
        x -= width / 2
    elif h == "r":
        x -= width
    ascent, descent = font.metrics
    if v in ("a", "t"):
        base = y + ascent
    elif v == "m":
        base = y + (ascent - descent) / 2
    elif v in ("d", "b"):
        base = y - descent
    else:
        base = y
    x, base = int(round(x)), int(round(base))
    record(text, requested, (x, base - ascent, x + int(round(width)), base + descent), draw.im.size)
    ink = None
    for s, f, rtl in font.segments(text):
        if rtl and _RAQM:
            shaped = _raqm_font(f.path, f.size)
            adv = shaped.getlength(s[::-1], direction="rtl")
            draw.text((x, base), s[::-1], font=shaped, fill=fill, anchor="ls", direction="rtl")
            x += int(round(adv))
            continue
        try:
            if ink is None:
                ink = draw._getink(fill)[0]
            mask, (ox, oy) = _mask(f, s)
            _blit(draw, (x + ox, base + oy), mask, ink)
        except (AttributeError, TypeError):  # a Pillow without these internals
            draw.text((x, base), s, font=f, fill=fill, anchor="ls")
        x += int(round(_advance(f, s)))
    return width


def _blit(draw: ImageDraw.ImageDraw, xy: tuple[int, int], mask, ink: int) -> None:
    """Blend the coverage ``mask`` in ``ink`` onto ``draw``'s image with its top left at ``xy``.

    The same arithmetic as Pillow's ``draw_bitmap`` (each channel ``mask * ink + (255 - mask) *
    pixel``, divided by 255 and rounded), done by pasting a tile of the ink through the mask,
    which Pillow does about twice as fast (its fill through a mask checks the image's mode at
    every pixel). RGB and L images only: on RGBA, Pillow's fill treats transparent pixels apart."""
    w, h = mask.size
    if not (w and h):  # a text that covers no pixel (spaces)
        return
    if draw.mode == draw.im.mode and draw.mode in ("RGB", "L"):
        tile = Image.core.fill(draw.im.mode, (w, h), ink)
        draw.im.paste(tile, (xy[0], xy[1], xy[0] + w, xy[1] + h), mask)
    else:
        draw.draw.draw_bitmap(xy, mask, ink)


@functools.lru_cache(maxsize=16384)
def _advance(font: ImageFont.FreeTypeFont, text: str) -> float:
    """``font.getlength(text)``, summed from each character's advance and each pair's kerning.

    Pillow's basic layout is additive: a text's length is its glyphs' advances plus, for each
    pair of neighbours, the pair's kerning (in 1/64 pixels), so these are asked of FreeType
    once per character and per pair and the sum is the same number to the last bit (a new
    line of 60 characters costs dictionary look-ups instead of a layout of 60 glyphs)."""
    return _advance64(font, text) / 64


def _advance64(font: ImageFont.FreeTypeFont, text: str) -> int:
    """``_advance`` in 1/64 pixels: the characters' and pairs' numbers summed in C when all are
    known, else looked up (and remembered) one by one."""
    adv, kern = _metrics(font)
    try:
        total = sum(map(adv.__getitem__, text))
        if len(text) > 1:
            total += sum(map(kern.__getitem__, map(operator.add, text, text[1:])))
        return total
    except KeyError:
        pass
    total = 0
    prev = ""
    for ch in text:
        total += advance64(font, ch)
        if prev:
            total += kerning64(font, prev + ch)
        prev = ch
    return total


def advance64(font: ImageFont.FreeTypeFont, ch: str) -> int:
    """The advance of character ``ch`` in ``font``, in 1/64 pixels (remembered)."""
    adv = _metrics(font)[0]
    a = adv.get(ch)
    if a is None:
        a = adv[ch] = round(font.getlength(ch) * 64)
    return a


def kerning64(font: ImageFont.FreeTypeFont, pair: str) -> int:
    """The kerning between the two characters of ``pair`` in ``font`` as Pillow's basic layout
    adds it, in 1/64 pixels (remembered)."""
    kern = _metrics(font)[1]
    k = kern.get(pair)
    if k is None:
        if len(kern) > PAIRS_KEPT:  # players' names in every script: kept bounded
            kern.clear()
        k = kern[pair] = round(font.getlength(pair) * 64) - advance64(font, pair[0]) - advance64(font, pair[1])
    return k


@functools.cache
def _metrics(font: ImageFont.FreeTypeFont) -> tuple[dict[str, int], dict[str, int]]:
    """(character -> advance, pair -> kerning) of ``font`` in 1/64 pixels, filled as met."""
    return {}, {}


@functools.lru_cache(maxsize=8192)
def _mask(font: ImageFont.FreeTypeFont, text: str):
    """The rendered coverage mask of ``text`` (baseline-left anchored) and its offset, in a
    shipped font composed from its glyphs' masks (``render.glyphs``: the pixels of
    ``getmask2`` in a third of the time); cached, since names, abilities and labels repeat
    from state to state. An empty mask for a text that covers no pixel."""
    if str(font.path) not in _SHIPPED:  # a machine's fallback font: FreeType's own rendering
        return font.getmask2(text, "L", anchor="ls")
    composed = glyphs.compose(font, text, advance64, kerning64)
    if composed is None:
        return Image.core.fill("L", (0, 0), 0), (0, 0)
    mask, at = composed
    return mask.im, at


_SHIPPED = frozenset(str(p) for p in FONTS.values())  # the fonts whose composed masks are tested


@functools.cache
def _raqm_font(path: str, size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(path, size, layout_engine=ImageFont.Layout.RAQM)


def truncate(text: str, font: Face, max_width: float) -> str:
    """``text`` shortened with an ellipsis so its width is at most ``max_width`` pixels."""
    text = clean(text)
    if _length(font, text) <= max_width:
        return text
    return _with_ellipsis(text, font, max_width)


def _with_ellipsis(text: str, font: Face, max_width: float) -> str:
    """The longest prefix of ``text`` that fits ``max_width`` with an ellipsis after it."""
    lo, hi = 0, len(text)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if _length(font, text[:mid].rstrip() + ELLIPSIS) <= max_width:
            lo = mid
        else:
            hi = mid - 1
    if lo:
        return text[:lo].rstrip() + ELLIPSIS
    return ELLIPSIS if _length(font, ELLIPSIS) <= max_width else ""


def _longest_prefix(word: str, font: Face, max_width: float) -> int:
    lo, hi = 1, len(word) - 1
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if _length(font, word[:mid]) <= max_width:
            lo = mid
        else:
            hi = mid - 1
    return lo


def wrap(text: str, font: Face, max_width: float, max_lines: int | None = None) -> list[str]:
    """Break ``text`` into lines no wider than ``max_width`` pixels, at spaces where
    possible (a word longer than a line is cut). With ``max_lines`` the last line
    kept ends with an ellipsis when text was left out. Remembered per process (a card's or
    an ability's text is wrapped the same way on every board)."""
    return list(_wrap(text, font, max_width, max_lines))


@functools.lru_cache(maxsize=LAYOUTS_KEPT)
def _wrap(text: str, font: Face, max_width: float, max_lines: int | None) -> tuple[str, ...]:
    text = clean(text)
    if (text.isascii() and text.isprintable()) or _left_to_right(font.style).issuperset(map(ord, text)):
        return _wrap_one_font(text, font, max_width, max_lines)  # widths summed as the line grows
    lines: list[str] = []
    line = ""
    for word in text.split(" "):
        candidate = f"{line} {word}" if line else word
        if _length(font, candidate) <= max_width:
            line = candidate
            continue
        if line:
            lines.append(line)
        while len(word) > 1 and _length(font, word) > max_width:
            cut = _longest_prefix(word, font, max_width)
            lines.append(word[:cut])
            word = word[cut:]
        line = word
    return _lines_kept([*lines, line] if line else lines, font, max_width, max_lines)


def _lines_kept(lines: list[str], font: Face, max_width: float, max_lines: int | None) -> tuple[str, ...]:
    """The wrapped ``lines``, at most ``max_lines`` of them, the last one kept ending with an
    ellipsis when lines were left out."""
    if max_lines is not None and len(lines) > max_lines:
        kept = lines[:max_lines]
        kept[-1] = _with_ellipsis(kept[-1] + " ", font, max_width)
        return tuple(kept)
    return tuple(lines)


def _wrap_one_font(text: str, font: Face, max_width: float, max_lines: int | None) -> tuple[str, ...]:
    """``_wrap`` of a ``text`` drawn wholly in the face's primary font, left to right (as every
    part of it is, ``_segments``): a candidate line's width is the line's so far plus the space,
    the word and the two kerning pairs between them, the same sum ``_length`` makes of the whole
    candidate."""
    f = font.primary
    space = advance64(f, " ")
    lines: list[str] = []
    line, line64 = "", 0
    for word in text.split(" "):
        word64 = _advance64(f, word)
        if line:
            cand64 = line64 + kerning64(f, line[-1] + " ") + space
            if word:
                cand64 += kerning64(f, " " + word[0]) + word64
        else:
            cand64 = word64
        if cand64 / 64 <= max_width:
            line, line64 = (f"{line} {word}" if line else word), cand64
            continue
        if line:
            lines.append(line)
        while len(word) > 1 and word64 / 64 > max_width:
            cut = _longest_prefix(word, font, max_width)
            lines.append(word[:cut])
            word = word[cut:]
            word64 = _advance64(f, word)
        line, line64 = word, word64
    return _lines_kept([*lines, line] if line else lines, font, max_width, max_lines)


def draw_paragraph(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    font: Face,
    fill: tuple[int, ...] | str,
    max_width: float,
    max_lines: int | None = None,
    line_gap: float = 1.0,
) -> float:
    """Draw wrapped ``text`` with its top-left at ``xy``; returns the height used in pixels."""
    x, y = xy
    lines = wrap(text, font, max_width, max_lines)
    step = font.line_height * line_gap
    for i, line in enumerate(lines):
        draw_text(draw, (x, y + i * step), line, font, fill, anchor="la")
    return step * len(lines)


# --------------------------------------------------------------------------- fitting

SMALLEST = 14  # pixels: no text is shrunk below this (Discord's inline preview stays legible)


@functools.lru_cache(maxsize=LAYOUTS_KEPT)
def fit(text: str, max_width: float, size: int, style: str = "regular", smallest: int = SMALLEST) -> Face:
    """The largest face from ``size`` down to ``smallest`` pixels in which ``text`` is at most
    ``max_width`` pixels wide (``smallest`` when none is). Remembered per process."""
    text = clean(text)
    for s in range(int(size), int(smallest) - 1, -1):
        f = face(s, style)
        if _length(f, text) <= max_width:
            return f
    return face(int(smallest), style)


def draw_fit(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    size: int,
    fill: tuple[int, ...] | str,
    max_width: float,
    anchor: str = "la",
    style: str = "regular",
    smallest: int = SMALLEST,
) -> float:
    """Draw one line of ``text`` shrunk (from ``size`` down to ``smallest`` pixels) to fit
    ``max_width`` pixels, truncated only if it does not fit even then; returns its width."""
    f = fit(text, max_width, size, style, smallest)
    return draw_text(draw, xy, text, f, fill, anchor, max_width=max_width)


def fit_paragraph(
    text: str,
    max_width: float,
    max_height: float,
    size: int,
    style: str = "regular",
    smallest: int = SMALLEST,
    line_gap: float = 1.0,
) -> tuple[Face, list[str]]:
    """(face, lines): ``text`` wrapped at the largest size from ``size`` down to ``smallest``
    pixels whose lines fit ``max_width`` x ``max_height`` pixels; at ``smallest`` the lines
    that fit, the last one ending in an ellipsis when text was left out. Remembered per
    process."""
    f, lines = _fit_paragraph(text, max_width, max_height, size, style, smallest, line_gap)
    return f, list(lines)


@functools.lru_cache(maxsize=LAYOUTS_KEPT)
def _fit_paragraph(
    text: str, max_width: float, max_height: float, size: int, style: str, smallest: int, line_gap: float
) -> tuple[Face, tuple[str, ...]]:
    for s in range(int(size), int(smallest) - 1, -1):
        f = face(s, style)
        lines = _wrap(text, f, max_width, None)
        if len(lines) * f.line_height * line_gap <= max_height:
            return f, lines
    f = face(int(smallest), style)
    return f, _wrap(text, f, max_width, max(1, int(max_height // (f.line_height * line_gap))))


def draw_fit_paragraph(
    draw: ImageDraw.ImageDraw,
    box: tuple[float, float, float, float],
    text: str,
    size: int,
    fill: tuple[int, ...] | str,
    style: str = "regular",
    smallest: int = SMALLEST,
    line_gap: float = 1.0,
) -> float:
    """Draw ``text`` wrapped into ``box`` ((left, top, right, bottom) pixels) at the largest
    size that fits (see ``fit_paragraph``); returns the height used in pixels."""
    x0, y0, x1, y1 = box
    f, lines = fit_paragraph(text, x1 - x0, y1 - y0, size, style, smallest, line_gap)
    step = f.line_height * line_gap
    for i, line in enumerate(lines):
        draw_text(draw, (x0, y0 + i * step), line, f, fill, anchor="la")
    return step * len(lines)


def fit_sentences(
    text: str,
    max_width: float,
    max_height: float,
    size: int,
    style: str = "regular",
    smallest: int = SMALLEST,
) -> tuple[Face, list[str]]:
    """Like ``fit_paragraph``, but when ``text`` does not fit even at ``smallest`` pixels, its
    last sentences are left out (whole sentences, never a cut word; the last one kept ends with a
    full stop, "...a K card." not "...a K card;"); empty lines when not even the first sentence
    fits. For secondary text whose whole is shown elsewhere (a card's rules text, a war's note).
    Remembered per process."""
    f, lines = _fit_sentences(text, max_width, max_height, size, style, smallest)
    return f, list(lines)


@functools.lru_cache(maxsize=LAYOUTS_KEPT)
def _fit_sentences(
    text: str, max_width: float, max_height: float, size: int, style: str, smallest: int
) -> tuple[Face, tuple[str, ...]]:
    f, lines = _fit_paragraph(text, max_width, max_height, size, style, smallest, 1.0)
    if not any(ELLIPSIS in line for line in lines) or ELLIPSIS in text:
        return f, lines
    sentences = [s for s in clean(text).replace(". ", ".\n").replace("; ", ";\n").split("\n") if s]
    f = face(int(smallest), style)
    for keep in range(len(sentences) - 1, 0, -1):
        kept = sentences[:keep]
        if kept[-1].endswith((";", ",", ":")):  # the last one kept ends the text: a full stop
            kept = [*kept[:-1], kept[-1][:-1] + "."]
        lines = _wrap(" ".join(kept), f, max_width, None)
        if len(lines) * f.line_height <= max_height:
            return f, lines
    return f, ()
