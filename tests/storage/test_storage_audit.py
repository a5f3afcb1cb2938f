"""What ``tabula db check`` adds to SQLite's own checks (storage.audit): the table behind each
page an integrity line names, and every unreadable value (not UTF-8, JSON that does not parse)
with its table, key and column; all of it read-only."""

from __future__ import annotations

import sqlite3

from storage.audit import JSON_COLUMNS, annotate, audit, audit_file, page_owners, scan_rows


def make(path) -> sqlite3.Connection:
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE outbox (id INTEGER PRIMARY KEY, guild TEXT, payload TEXT)")
    conn.execute("CREATE TABLE notes (a TEXT, b TEXT, c TEXT)")
    conn.executemany("INSERT INTO outbox VALUES (?, ?, ?)", [(i, "g" * 300, '{"n": 1}') for i in range(1, 60)])
    conn.commit()
    return conn


def test_annotate_names_the_table_of_each_page_once():
    owners = {2: "sessions", 11: "sessions_deadline"}
    lines = ["ok", "Tree 2 page 11 cell 3: bad", "Page 11: btreeInitPage() returns error code 11",
             "Page 99: never used", "row 5 missing from index"]
    assert annotate(lines, owners) == [
        "ok",
        "Tree 2 page 11 cell 3: bad (page 2: sessions; page 11: sessions_deadline)",
        "Page 11: btreeInitPage() returns error code 11 (page 11: sessions_deadline)",
        "Page 99: never used",
        "row 5 missing from index",
    ]
    assert annotate(["Tree 11 Page 11"], owners) == ["Tree 11 Page 11 (page 11: sessions_deadline)"]
    assert annotate(["row 7 missing from index on page 11"], owners) == [
        "row 7 missing from index on page 11 (page 11: sessions_deadline)"]


def test_page_owners_has_root_pages_and_every_page_of_a_table(tmp_path):
    conn = make(tmp_path / "a.db")
    owners = page_owners(conn)
    roots = dict(conn.execute("SELECT rootpage, name FROM sqlite_schema WHERE rootpage"))
    assert all(owners[p] == n for p, n in roots.items())
    assert list(owners.values()).count("outbox") > 1  # the table's leaves too (dbstat)
    assert 0 not in owners


def test_page_owners_of_a_file_that_is_no_database_is_empty(tmp_path):
    bad = tmp_path / "notes.db"
    bad.write_text("shopping list\n" * 400)
    assert page_owners(sqlite3.connect(bad)) == {}


def test_scan_rows_reports_bad_text_and_bad_json_with_table_key_and_column(tmp_path):
    conn = make(tmp_path / "a.db")
    assert {"payload", "state", "events", "options"} <= JSON_COLUMNS
    conn.execute("UPDATE outbox SET payload = '{oops' WHERE id = 3")
    conn.execute("UPDATE outbox SET guild = CAST(x'ff00' AS TEXT) WHERE id = 4")
    conn.execute("INSERT INTO notes VALUES ('x', '{not json either', 5)")
    conn.execute("INSERT INTO notes VALUES ('y', CAST(x'c3' AS TEXT), 6)")
    conn.commit()
    factory = conn.text_factory
    assert scan_rows(conn) == [
        "table notes (a=b'y', b=b'\\xc3'): column b is not UTF-8 text",
        "table outbox (id=3): column payload is not valid JSON",
        "table outbox (id=4): column guild is not UTF-8 text",
    ]
    assert conn.text_factory is factory


def test_scan_rows_stops_at_its_limit(tmp_path):
    conn = make(tmp_path / "a.db")
    conn.execute("UPDATE outbox SET payload = '[' WHERE id <= 5")
    conn.commit()
    assert len(scan_rows(conn)) == 5
    assert scan_rows(conn, limit=5) == [f"table outbox (id={i}): column payload is not valid JSON"
                                        for i in range(1, 6)] + ["(stopped after 5 damaged values)"]
    assert scan_rows(conn, limit=2)[-1] == "(stopped after 2 damaged values)" and len(scan_rows(conn, limit=2)) == 3
    conn.execute("UPDATE outbox SET payload = '['")
    conn.commit()
    assert len(scan_rows(conn)) == 51 and scan_rows(conn)[-1] == "(stopped after 50 damaged values)"


def test_a_file_audits_its_own_rows(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    conn = make(tmp_path / "a.db")
    conn.execute("UPDATE outbox SET payload = '{' WHERE id = 2")
    conn.commit()
    conn.close()
    assert audit_file(str(tmp_path / "a.db")) == (["ok"], ["table outbox (id=2): column payload is not valid JSON"])
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.db"]  # opened by URI, no other file made


def test_a_sound_file_audits_clean_and_read_only(tmp_path):
    path = tmp_path / "with space" / "a b.db"
    path.parent.mkdir()
    make(path).close()
    before = path.read_bytes()
    assert audit_file(str(path)) == (["ok"], [])
    assert path.read_bytes() == before
    assert audit(sqlite3.connect(":memory:")) == (["ok"], [])


class Scripted:
    """A connection whose integrity check answers ``lines`` (or raises ``error`` after them) and
    whose ``SELECT * FROM "broken"`` fails; everything else goes to the real connection."""

    def __init__(self, conn: sqlite3.Connection, lines: list[str], error: str | None = None,
                 broken: str | None = None) -> None:
        object.__setattr__(self, "_conn", conn)
        object.__setattr__(self, "_script", (lines, error, broken))

    def __getattr__(self, name):
        return getattr(self._conn, name)

    def __setattr__(self, name, value):
        setattr(self._conn, name, value)

    def execute(self, sql, *args):
        lines, error, broken = self._script
        if sql.startswith("PRAGMA integrity_check"):
            def rows():
                yield from ((line,) for line in lines)
                if error:
                    raise sqlite3.DatabaseError(error)
            return rows()
        if broken and sql == f'SELECT * FROM "{broken}"':
            raise sqlite3.DatabaseError("database disk image is malformed")
        return self._conn.execute(sql, *args)


def test_audit_drops_sqlites_database_header_and_blank_lines_and_names_pages(tmp_path):
    conn = make(tmp_path / "a.db")
    root = conn.execute("SELECT rootpage FROM sqlite_schema WHERE name = 'outbox'").fetchone()[0]
    lines, problems = audit(Scripted(conn, [f"*** in database main ***\nPage {root}: bad cell\n\n   "]))
    assert lines == [f"Page {root}: bad cell (page {root}: outbox)"] and problems == []


def test_an_integrity_check_that_fails_midway_keeps_its_lines_and_says_so(tmp_path):
    conn = make(tmp_path / "a.db")
    lines, _ = audit(Scripted(conn, ["row 3 missing from index i"], error="disk I/O error"))
    assert lines == ["row 3 missing from index i", "integrity_check stopped: disk I/O error"]


def test_a_table_that_cannot_be_read_is_named_with_its_root_page(tmp_path):
    conn = make(tmp_path / "a.db")
    root = conn.execute("SELECT rootpage FROM sqlite_schema WHERE name = 'outbox'").fetchone()[0]
    assert root != 1
    assert scan_rows(Scripted(conn, [], broken="outbox")) == [
        f"table outbox (b-tree at page {root}): cannot be read to the end: database disk image is malformed"
    ]
