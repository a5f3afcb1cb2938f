-- Tabula schema 9: each player's auto-pass setting (NULL: the host's default), and the seats
-- whose player asked the host to pass for them for the rest of a phase (``mark`` names the
-- phase, as the game's ``phase_mark`` gives it; a row whose phase has ended is inert).

ALTER TABLE user_prefs ADD COLUMN auto_pass INTEGER;  -- 1 on, 0 off, NULL the host's default

CREATE TABLE standing_passes (
    session_id  INTEGER NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    seat        INTEGER NOT NULL,
    mark        TEXT    NOT NULL,
    since       REAL    NOT NULL,
    PRIMARY KEY (session_id, seat)
) WITHOUT ROWID;
