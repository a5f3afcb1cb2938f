-- Tabula schema 4 for PostgreSQL (as ../0004_outbox.sql): the delivery outbox. A committed
-- change's messages wait here until Discord has taken them, so a Discord error or a restart
-- delays them but never loses them.

CREATE TABLE outbox (
    id            bigserial PRIMARY KEY,
    session_id    bigint  NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    kind          text    NOT NULL,                 -- public / dm
    payload       text    NOT NULL,                 -- JSON: where and what to send, how far the fallbacks went
    created_at    double precision NOT NULL,
    attempts      integer NOT NULL DEFAULT 0,
    next_at       double precision NOT NULL,        -- when to try again
    done_at       double precision,                 -- delivered (or given up: see last_error)
    message_id    bigint,                           -- the message Discord created
    last_error    text
);

CREATE INDEX outbox_pending ON outbox (next_at) WHERE done_at IS NULL;
