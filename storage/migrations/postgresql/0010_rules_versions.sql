-- Tabula schema 10 for PostgreSQL (as ../0010_rules_versions.sql): the version of its game's
-- rules a session was started under (1 for sessions stored before), and the suspension of a
-- game whose log no longer loads under the rules the bot plays.

ALTER TABLE sessions ADD COLUMN rules_version integer NOT NULL DEFAULT 1;
ALTER TABLE sessions ADD COLUMN suspended jsonb;
