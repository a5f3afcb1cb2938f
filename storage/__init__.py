"""storage — sessions and their action logs (SQLite via aiosqlite).

``Storage`` (storage.base) is the interface the host uses; ``SqliteStorage`` is
the SQLite implementation. ``storage.replay`` rebuilds states (snapshot + replay)
and audits a database.
"""

from .base import (
    KEEP,
    ActionRecord,
    ChannelBusyError,
    CheckReport,
    DuplicateInteractionError,
    EventRecord,
    NewSession,
    SeatRecord,
    SessionRecord,
    SessionUpdate,
    Storage,
    UnknownSessionError,
    UserPrefs,
    seed_hash,
)
from .sqlite import SCHEMA_VERSION, SqliteStorage, migrations

__all__ = [
    "KEEP",
    "SCHEMA_VERSION",
    "ActionRecord",
    "ChannelBusyError",
    "CheckReport",
    "DuplicateInteractionError",
    "EventRecord",
    "NewSession",
    "SeatRecord",
    "SessionRecord",
    "SessionUpdate",
    "SqliteStorage",
    "Storage",
    "UnknownSessionError",
    "UserPrefs",
    "migrations",
    "seed_hash",
]
