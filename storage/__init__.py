"""storage — sessions and their action logs (SQLite via aiosqlite)."""
