-- Tabula schema 3 for PostgreSQL (as ../0003_reminder_pings.sql): reminders already sent,
-- so a restart does not ping a player early again, and several processes ping once.

CREATE TABLE reminder_pings (
    session_id     bigint  NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    user_id        bigint  NOT NULL,
    waiting_since  double precision NOT NULL,  -- when the wait being reminded of began (the session's updated_at)
    pings          integer NOT NULL,           -- reminder intervals already pinged during that wait
    last_at        double precision NOT NULL,  -- when the last ping was sent
    PRIMARY KEY (session_id, user_id)
);
