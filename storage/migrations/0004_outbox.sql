-- Tabula schema 4: the delivery outbox. A committed change's messages (the public turn update
-- with its pings, private prompts) wait here until Discord has taken them, so a Discord error or
-- a restart delays them but never loses them.

CREATE TABLE outbox (
    id            INTEGER PRIMARY KEY,
    session_id    INTEGER NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    kind          TEXT    NOT NULL,            -- public / dm
    payload       TEXT    NOT NULL,            -- JSON: where and what to send, how far the fallbacks went
    created_at    REAL    NOT NULL,
    attempts      INTEGER NOT NULL DEFAULT 0,
    next_at       REAL    NOT NULL,            -- when to try again
    done_at       REAL,                        -- delivered (or given up: see last_error)
    message_id    INTEGER,                     -- the message Discord created
    last_error    TEXT
);

CREATE INDEX outbox_pending ON outbox (next_at) WHERE done_at IS NULL;
