-- Tabula schema 2 for PostgreSQL (as ../0002_people_and_timers.sql): followers, per-user
-- preferences, per-guild settings, response-window deadlines and pending undo requests.

ALTER TABLE sessions ADD COLUMN deadline double precision;  -- when the open response window closes
ALTER TABLE sessions ADD COLUMN pending_undo jsonb;         -- an undo awaiting consent
CREATE INDEX sessions_deadline ON sessions (deadline) WHERE deadline IS NOT NULL;

CREATE TABLE followers (
    session_id  bigint  NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    user_id     bigint  NOT NULL,
    since       double precision NOT NULL,
    PRIMARY KEY (session_id, user_id)
);
CREATE INDEX followers_user ON followers (user_id);

CREATE TABLE user_prefs (
    user_id         bigint  PRIMARY KEY,
    dms             boolean NOT NULL DEFAULT true,  -- private parts and updates by DM
    reminder_hours  integer,                        -- remind after this many hours; NULL = never
    updated_at      double precision NOT NULL
);

CREATE TABLE guild_settings (
    guild_id    bigint  PRIMARY KEY,
    settings    jsonb   NOT NULL DEFAULT '{}',      -- JSON object, see storage.base.GuildSettings
    updated_at  double precision NOT NULL
);
