"""storage — sessions and their action logs (SQLite via aiosqlite, PostgreSQL via asyncpg).

``Storage`` (storage.base) is the interface the host uses; ``SqliteStorage`` is
the SQLite implementation and ``storage.postgres.PostgresStorage`` the PostgreSQL
one, chosen from a database URL by ``storage_for``. ``storage.replay`` rebuilds
states (snapshot + replay) and audits a database; ``storage.copy`` moves a SQLite
database to PostgreSQL.
"""

from .base import (
    FOLLOW_MODES,
    KEEP,
    NOTIFY_MODES,
    ActionRecord,
    ChannelBusyError,
    CheckReport,
    ContextChangedError,
    DuplicateInteractionError,
    EventRecord,
    GameResult,
    Home,
    NewSession,
    OutboxRecord,
    RatingRecord,
    SeatRecord,
    SeatResult,
    SessionContext,
    SessionRecord,
    SessionUpdate,
    Storage,
    UnknownSessionError,
    UserPrefs,
    seed_hash,
)
from .sqlite import SCHEMA_VERSION, SqliteStorage, migrations
from .url import file_problem, is_postgres, redact, storage_for

__all__ = [
    "file_problem",
    "KEEP",
    "SCHEMA_VERSION",
    "ActionRecord",
    "ChannelBusyError",
    "CheckReport",
    "ContextChangedError",
    "DuplicateInteractionError",
    "EventRecord",
    "GameResult",
    "NewSession",
    "OutboxRecord",
    "RatingRecord",
    "SeatRecord",
    "SeatResult",
    "SessionContext",
    "SessionRecord",
    "SessionUpdate",
    "SqliteStorage",
    "Storage",
    "UnknownSessionError",
    "UserPrefs",
    "Home",
    "NOTIFY_MODES",
    "FOLLOW_MODES",
    "is_postgres",
    "migrations",
    "redact",
    "seed_hash",
    "storage_for",
]
