-- Tabula schema 5 for PostgreSQL (as ../0005_stalls.sql): the incident that stopped a game, the
-- orphaning of a game whose channel, thread or server is gone, and the deadline of every wait.

ALTER TABLE sessions ADD COLUMN attention jsonb;
ALTER TABLE sessions ADD COLUMN orphaned jsonb;
ALTER TABLE sessions ADD COLUMN wait_deadline double precision;
CREATE INDEX sessions_wait_deadline ON sessions (wait_deadline) WHERE wait_deadline IS NOT NULL;
