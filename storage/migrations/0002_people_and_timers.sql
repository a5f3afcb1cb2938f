-- Tabula schema 2: followers, per-user preferences, per-guild settings,
-- response-window deadlines and pending undo requests.

ALTER TABLE sessions ADD COLUMN deadline REAL;          -- when the open response window closes
ALTER TABLE sessions ADD COLUMN pending_undo TEXT;      -- JSON of an undo awaiting consent
CREATE INDEX sessions_deadline ON sessions (deadline) WHERE deadline IS NOT NULL;

CREATE TABLE followers (
    session_id  INTEGER NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    user_id     INTEGER NOT NULL,
    since       REAL    NOT NULL,
    PRIMARY KEY (session_id, user_id)
) WITHOUT ROWID;
CREATE INDEX followers_user ON followers (user_id);

CREATE TABLE user_prefs (
    user_id         INTEGER PRIMARY KEY,
    dms             INTEGER NOT NULL DEFAULT 1,    -- 1 = private parts and updates by DM
    reminder_hours  INTEGER,                       -- remind after this many hours; NULL = never
    updated_at      REAL    NOT NULL
);

CREATE TABLE guild_settings (
    guild_id    INTEGER PRIMARY KEY,
    settings    TEXT    NOT NULL DEFAULT '{}',     -- JSON object, see storage.base.GuildSettings
    updated_at  REAL    NOT NULL
);
