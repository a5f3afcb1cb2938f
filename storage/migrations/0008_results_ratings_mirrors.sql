-- Tabula schema 8: the result of each finished game per seat (for statistics), the skill rating
-- per game and player derived from them, and mirrors of a game's public updates in other channels.
-- Results and ratings are derived from finished sessions' logs; `tabula ratings rebuild` recomputes
-- both from the logs and replaces them.

CREATE TABLE result_seats (
    session_id  INTEGER NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    seat        INTEGER NOT NULL CHECK (seat >= 0),
    guild_id    INTEGER,                       -- the session's server (NULL in the terminal)
    game_id     TEXT    NOT NULL,
    ended_at    REAL    NOT NULL,
    players     INTEGER NOT NULL,              -- seats in the game
    user_id     INTEGER,                       -- the human who played the seat; NULL for an AI seat
    faction     TEXT,                          -- the nation or faction the seat played
    side        INTEGER NOT NULL,              -- seats with the same side played as one team
    won         INTEGER NOT NULL,              -- 1 when the seat is among the winners
    rated       INTEGER NOT NULL,              -- 1 when the game changed this player's rating
    PRIMARY KEY (session_id, seat)
) WITHOUT ROWID;
CREATE INDEX result_seats_game ON result_seats (game_id, ended_at);
CREATE INDEX result_seats_user ON result_seats (user_id) WHERE user_id IS NOT NULL;

CREATE TABLE ratings (
    game_id     TEXT    NOT NULL,
    user_id     INTEGER NOT NULL,
    mu          REAL    NOT NULL,              -- openskill Plackett-Luce mean
    sigma       REAL    NOT NULL,              -- and its uncertainty
    games       INTEGER NOT NULL,              -- rated games played
    wins        INTEGER NOT NULL,              -- of which won (joint wins included)
    updated_at  REAL    NOT NULL,
    PRIMARY KEY (game_id, user_id)
) WITHOUT ROWID;

CREATE TABLE mirrors (
    session_id  INTEGER NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    channel_id  INTEGER NOT NULL,              -- where the public updates are posted too
    set_by      INTEGER NOT NULL,
    since       REAL    NOT NULL,
    PRIMARY KEY (session_id, channel_id)
) WITHOUT ROWID;
