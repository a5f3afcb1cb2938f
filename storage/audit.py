"""What SQLite's own checks miss or say too tersely, for ``tabula db check`` and ``tabula backup``.

``PRAGMA integrity_check`` finds damaged b-tree pages and indexes, but its lines name pages, not
tables, and it never looks inside a row: random bytes in the middle of a stored action or state
leave the b-tree valid. ``annotate`` names the table behind each page a line mentions, and
``scan_rows`` reads every row of every table, checking that text is UTF-8 and that the JSON
columns parse, so damage inside the data is reported with its table and key.

Everything here reads only; it runs on a plain ``sqlite3.Connection`` (in a worker thread).
"""

from __future__ import annotations

import contextlib
import json
import re
import sqlite3

#: Columns that hold JSON text in Tabula's schema (storage/migrations).
JSON_COLUMNS = frozenset(
    {"options", "to_act", "outcome", "pending_undo", "action", "events", "state", "settings", "payload"}
)

_TREE = re.compile(r"\bTree (\d+)\b")
_PAGE = re.compile(r"\b[Pp]age (\d+)\b")


def page_owners(conn: sqlite3.Connection) -> dict[int, str]:
    """Page number -> the table or index stored on it, from ``dbstat`` where SQLite has it,
    else from the root pages in the schema only. Empty when even the schema is unreadable."""
    owners: dict[int, str] = {}
    try:
        owners.update({int(p): str(n) for n, p in conn.execute("SELECT name, rootpage FROM sqlite_schema")
                       if p})
    except sqlite3.DatabaseError:
        return owners
    # no dbstat in this SQLite build, or the walk hit the damage: root pages only
    with contextlib.suppress(sqlite3.DatabaseError):
        owners.update({int(p): str(n) for n, p in conn.execute("SELECT name, pageno FROM dbstat")})
    return owners


def annotate(lines: list[str], owners: dict[int, str]) -> list[str]:
    """``integrity_check`` lines with the table or index of each page they name appended:
    ``'Page 11: btreeInitPage() returns error code 11'`` ->
    ``'Page 11: btreeInitPage() returns error code 11 (page 11: sessions_deadline)'``."""
    out = []
    for line in lines:
        if line == "ok":
            out.append(line)
            continue
        pages = [int(m) for m in _TREE.findall(line)] + [int(m) for m in _PAGE.findall(line)]
        named = [f"page {p}: {owners[p]}" for p in dict.fromkeys(pages) if p in owners]
        out.append(f"{line} ({'; '.join(named)})" if named else line)
    return out


def _key(columns: list[str], pk: list[str], row: tuple[object, ...]) -> str:
    names = pk or columns[:2]
    return ", ".join(f"{n}={row[columns.index(n)]!r}" for n in names)


def scan_rows(conn: sqlite3.Connection, limit: int = 50) -> list[str]:
    """Read every row of every table; one sentence per unreadable value (at most ``limit``).

    A value is unreadable when its text is not UTF-8, or when a JSON column (``JSON_COLUMNS``)
    does not parse. Sets ``conn.text_factory`` to ``bytes`` for the scan and restores it."""
    problems: list[str] = []
    saved = conn.text_factory
    conn.text_factory = bytes
    try:
        tables = [(r[0].decode(), r[1]) for r in conn.execute(
            "SELECT name, rootpage FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' "
            "ORDER BY name")]
        for table, root in tables:
            info = list(conn.execute(f'PRAGMA table_info("{table}")'))
            columns = [r[1].decode() for r in info]
            pk = [r[1].decode() for r in sorted(info, key=lambda r: r[5]) if r[5]]
            try:
                rows = conn.execute(f'SELECT * FROM "{table}"')
                for row in rows:
                    for name, value in zip(columns, row, strict=True):
                        if not isinstance(value, bytes):
                            continue
                        try:
                            text = value.decode("utf-8")
                            if name in JSON_COLUMNS:
                                json.loads(text)
                        except (UnicodeDecodeError, ValueError) as e:
                            kind = "is not UTF-8 text" if isinstance(e, UnicodeDecodeError) else "is not valid JSON"
                            problems.append(f"table {table} ({_key(columns, pk, row)}): column {name} {kind}")
                            if len(problems) >= limit:
                                return [*problems, f"(stopped after {limit} damaged values)"]
            except sqlite3.DatabaseError as e:
                problems.append(f"table {table} (b-tree at page {root}): cannot be read to the end: {e}")
    finally:
        conn.text_factory = saved
    return problems


def audit(conn: sqlite3.Connection) -> tuple[list[str], list[str]]:
    """(``integrity_check`` lines annotated with tables, ``scan_rows`` problems) of an open file."""
    lines: list[str] = []
    try:  # row by row: SQLite can report a damaged page and then fail the statement
        for row in conn.execute("PRAGMA integrity_check(100)"):
            lines.append(row[0])
    except sqlite3.DatabaseError as e:
        lines.append(f"integrity_check stopped: {e}")
    lines = [part for line in lines for part in str(line).splitlines() if part.strip()
             and not part.startswith("*** in database")]
    return annotate(lines, page_owners(conn)), scan_rows(conn)


def audit_file(path: str) -> tuple[list[str], list[str]]:
    """``audit`` of the SQLite file at ``path``, opened read-only (it writes nothing)."""
    from urllib.parse import quote

    conn = sqlite3.connect(f"file:{quote(path)}?mode=ro", uri=True)
    try:
        return audit(conn)
    finally:
        conn.close()
