-- Tabula schema 7 for PostgreSQL (as ../0007_homes_and_follow_modes.sql): how each player is
-- notified, how often each spectator follows a game, and each player's private home per game.

ALTER TABLE user_prefs ADD COLUMN notify text NOT NULL DEFAULT 'thread';  -- thread / dm
ALTER TABLE followers ADD COLUMN mode text NOT NULL DEFAULT 'move';       -- move / turn / round

CREATE TABLE homes (
    session_id  bigint NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    user_id     bigint NOT NULL,
    channel_id  bigint NOT NULL,   -- the private thread, or the direct-message channel
    kind        text   NOT NULL,   -- thread / dm
    message_id  bigint,            -- the message holding the live prompt
    question    text,              -- the prompt token that message answers
    updated_at  double precision NOT NULL,
    PRIMARY KEY (session_id, user_id)
);
