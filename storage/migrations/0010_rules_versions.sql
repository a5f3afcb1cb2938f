-- Tabula schema 10: the version of its game's rules a session was started under, and the
-- suspension of a game whose log no longer loads under the rules the bot plays.
-- rules_version: Game.rules_version at the start; sessions stored before were started under 1;
-- suspended:     JSON {"at", "rules_version", "plays", "why", "told"} once an active game saved
--                under older rules fails to load: it waits for nobody until it is abandoned.

ALTER TABLE sessions ADD COLUMN rules_version INTEGER NOT NULL DEFAULT 1;
ALTER TABLE sessions ADD COLUMN suspended TEXT;
