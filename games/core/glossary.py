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
