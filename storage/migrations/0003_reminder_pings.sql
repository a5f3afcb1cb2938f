-- Tabula schema 3: reminders already sent, so a restart does not ping a player early again.

CREATE TABLE reminder_pings (
    session_id     INTEGER NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    user_id        INTEGER NOT NULL,
    waiting_since  REAL    NOT NULL,   -- when the wait being reminded of began (the session's updated_at)
    pings          INTEGER NOT NULL,   -- reminder intervals already pinged during that wait
    last_at        REAL    NOT NULL,   -- when the last ping was sent
    PRIMARY KEY (session_id, user_id)
) WITHOUT ROWID;
