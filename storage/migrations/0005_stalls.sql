-- Tabula schema 5: sessions that never stall.
-- attention: JSON of the incident that stopped the game (an exception in the game's code), until a
--            moderator undoes the last action or lets an AI answer for the stuck seat;
-- orphaned:  JSON {"at", "why"} once the game's channel, thread or server is gone for the bot;
-- wait_deadline: when the AI answers for the human seats the game is waiting on (every wait has one).

ALTER TABLE sessions ADD COLUMN attention TEXT;
ALTER TABLE sessions ADD COLUMN orphaned TEXT;
ALTER TABLE sessions ADD COLUMN wait_deadline REAL;
CREATE INDEX sessions_wait_deadline ON sessions (wait_deadline) WHERE wait_deadline IS NOT NULL;
