-- Tabula schema 9 for PostgreSQL (as ../0009_auto_pass.sql): each player's auto-pass setting
-- and the seats passing for the rest of a phase.

ALTER TABLE user_prefs ADD COLUMN auto_pass boolean;  -- NULL: the host's default

CREATE TABLE standing_passes (
    session_id  bigint NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    seat        integer NOT NULL,
    mark        text   NOT NULL,
    since       double precision NOT NULL,
    PRIMARY KEY (session_id, seat)
);
