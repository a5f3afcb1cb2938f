-- Tabula schema 7: how each player is notified (a ping in the game's thread or a direct message),
-- how often each spectator follows a game, and each player's private home per game (a private
-- thread, or their direct messages) with the message that holds their live prompt.

ALTER TABLE user_prefs ADD COLUMN notify TEXT NOT NULL DEFAULT 'thread';  -- thread / dm
ALTER TABLE followers ADD COLUMN mode TEXT NOT NULL DEFAULT 'move';       -- move / turn / round

CREATE TABLE homes (
    session_id  INTEGER NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    user_id     INTEGER NOT NULL,
    channel_id  INTEGER NOT NULL,   -- the private thread, or the direct-message channel
    kind        TEXT    NOT NULL,   -- thread / dm
    message_id  INTEGER,            -- the message holding the live prompt
    question    TEXT,               -- the prompt token that message answers
    updated_at  REAL    NOT NULL,
    PRIMARY KEY (session_id, user_id)
) WITHOUT ROWID;
