"""A game's glossary of terms and marks, for players.

A game package may ship a ``GLOSSARY.md`` beside its code; its table rows
(``| term | meaning |``, any further column a note for maintainers that players are not
shown) are what ``/game rules`` and the terminal's ``rules`` show, after
the one-screen summary of its ``SUMMARY.md``.
"""

from __future__ import annotations

import functools
import sys
from pathlib import Path

from .game import Game


@functools.cache
def _read(module: str) -> tuple[tuple[str, str], ...]:
    package = module.rpartition(".")[0] or module
    path = Path(sys.modules[package].__file__ or "").parent / "GLOSSARY.md"
    if not path.is_file():
        return ()
    rows = []
    for line in path.read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if not line.lstrip().startswith("|") or len(cells) < 2 or set(cells[0]) <= set("-: "):
            continue
        rows.append((cells[0], cells[1]))  # further columns are notes for maintainers
    return tuple(rows[1:])  # the first row is the table's header


def glossary(game: Game) -> tuple[tuple[str, str], ...]:
    """The (term, meaning) rows of the game's ``GLOSSARY.md`` table, in order; ``()`` when
    the game has none. Terms keep their Markdown code marks (backticks)."""
    return _read(type(game).__module__)


@functools.cache
def _summary(module: str) -> str:
    package = module.rpartition(".")[0] or module
    path = Path(sys.modules[package].__file__ or "").parent / "SUMMARY.md"
    return path.read_text(encoding="utf-8").strip() if path.is_file() else ""


def summary(game: Game) -> str:
    """The game's one-screen summary for players (turn structure, how to win): the text of
    ``SUMMARY.md`` beside its code, in Discord Markdown; ``""`` when the game has none."""
    return _summary(type(game).__module__)


def _mark(text: str) -> str:
    """A mark or term as compared: no code marks, spaces or case, each number as ``n``
    ("D1.cz" and "`D n.cz`" both read "dn.cz")."""
    import re

    return re.sub(r"\d+", "n", text.replace("`", "").replace(" ", "").lower())


def glossary_rows_for(game: Game, topic: str) -> tuple[tuple[str, str], ...]:
    """The glossary rows whose term (or one of its ``/``-separated forms) is ``topic``, read
    as a mark with any number in it standing for ``n``: "D1" finds "`D n`", "H+2" finds
    "`H+n` / `H-n`", "dice sequence" finds "Dice Sequence". ``()`` when none is."""
    key = _mark(topic)
    if not key:
        return ()
    return tuple(row for row in glossary(game) if any(_mark(form) == key for form in row[0].split(" / ")))


@functools.cache
def _marks_pattern(module: str) -> tuple[object, tuple[tuple[str, str], ...]]:
    import re

    forms = []
    for term, meaning in _read(module):
        for form in term.split(" / "):
            form = form.replace("`", "").strip()
            if form:
                forms.append((form, term.replace("`", ""), meaning.replace("`", "")))
    forms.sort(key=lambda f: -len(f[0]))
    parts = []
    for form, _, _ in forms:
        pieces = re.split(r"((?<![A-Za-z]) ?n(?![A-Za-z]))", form)
        regex = "".join(r"\s?\d+" if p.strip() == "n" and i % 2 else re.escape(p) for i, p in enumerate(pieces))
        parts.append(regex.replace(r"\ \s?\d+", r"\s?\d+"))
    pattern = re.compile(r"(?<![\w.])(?:" + "|".join(f"({p})" for p in parts) + r")(?![\w])") if parts else None
    return pattern, tuple((t, m) for _, t, m in forms)


def marks_in_words(game: Game, line: str) -> tuple[tuple[str, str], ...]:
    """The glossary marks printed in ``line`` (a card's line, e.g. ``"Tactic C0 · D1.cz"``), each
    once, in the order they appear: ``(("C0", "Cost: rotate n ..."), ("D1.cz", "Draw n cards ..."))``.
    ``()`` when the game has no glossary or the line no mark. The one place marks are expanded."""
    pattern, rows = _marks_pattern(type(game).__module__)
    if pattern is None:
        return ()
    out: list[tuple[str, str]] = []
    seen: set[str] = set()
    for m in pattern.finditer(line):  # type: ignore[attr-defined]
        i = next(k for k, g in enumerate(m.groups()) if g is not None)
        term, meaning = rows[i]
        if term not in seen:
            seen.add(term)
            out.append((m.group(0).strip(), meaning))
    return tuple(out)
