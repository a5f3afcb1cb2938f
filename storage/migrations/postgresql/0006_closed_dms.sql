-- Tabula schema 6 for PostgreSQL (as ../0006_closed_dms.sql): users whose direct messages are
-- closed (Discord code 50007), and the public notice already posted per game and player.

CREATE TABLE closed_dms (
    user_id    bigint PRIMARY KEY,
    closed_at  double precision NOT NULL    -- when a DM to the user was last refused
);

CREATE TABLE closed_dm_notices (
    session_id  bigint NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    user_id     bigint NOT NULL,
    at          double precision NOT NULL,  -- when the channel was told
    PRIMARY KEY (session_id, user_id)
);
