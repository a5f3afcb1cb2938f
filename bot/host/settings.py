"""Host configuration (pydantic-settings): environment variables ``TABULA_*``."""

from __future__ import annotations

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict


class HostSettings(BaseSettings):
    """Settings of the host service.

    Attributes
    ----------
    db : str
        SQLite database path (``TABULA_DB``), or ``":memory:"``.
    database : str | None
        Database URL (``TABULA_DATABASE``): ``postgresql://user@host/db`` for PostgreSQL,
        ``sqlite:///FILE`` or a file path for SQLite. When set it wins over ``db``.
    snapshot_every : int
        Store the full state every this many actions, so loading replays fewer (actions).
    respond_seconds : float
        How long a response window stays open before the host passes for whoever has
        not answered (seconds); a guild may override it with ``respond_seconds``.
    wait_seconds : float
        How long the host waits for a human seat's turn or secret choice before a heuristic
        AI answers that one decision for it (seconds, ``TABULA_WAIT_SECONDS``, default 72 h);
        a guild may override it with ``wait_seconds``.
    busy_timeout_ms : int
        How long a writer waits for another process's write lock (milliseconds).
    max_ai_steps : int
        At most this many AI actions after one human action (guards against a loop).
    cache_size : int
        Sessions whose current state is kept in memory.
    auto_pass : bool
        Answer for a human seat whose only legal answer is ``pass`` or ``done`` when the
        other seats know it already (``TABULA_AUTO_PASS``; off by default here, on for the
        Discord bot): the update says it was answered automatically.
    """

    model_config = SettingsConfigDict(env_prefix="TABULA_", extra="ignore")

    db: str = "tabula.db"
    database: str | None = None
    snapshot_every: int = Field(50, ge=1)
    respond_seconds: float = Field(12 * 3600, gt=0)
    wait_seconds: float = Field(72 * 3600, gt=0)
    busy_timeout_ms: int = Field(5000, ge=0)
    max_ai_steps: int = Field(10_000, ge=1)
    cache_size: int = Field(256, ge=1)
    auto_pass: bool = False

    def database_url(self) -> str:
        """The database to open: ``database`` when set, else the SQLite file ``db``."""
        return self.database or self.db
