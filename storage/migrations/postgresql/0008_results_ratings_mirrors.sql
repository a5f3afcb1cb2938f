-- Tabula schema 8 for PostgreSQL (as ../0008_results_ratings_mirrors.sql): the result of each finished game per seat (for statistics), the skill rating
-- per game and player derived from them, and mirrors of a game's public updates in other channels.
-- Results and ratings are derived from finished sessions' logs; `tabula ratings rebuild` recomputes
-- both from the logs and replaces them.

CREATE TABLE result_seats (
    session_id  bigint NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    seat        INTEGER NOT NULL CHECK (seat >= 0),
    guild_id    bigint,                       -- the session's server (NULL in the terminal)
    game_id     TEXT    NOT NULL,
    ended_at    double precision    NOT NULL,
    players     INTEGER NOT NULL,              -- seats in the game
    user_id     bigint,                        -- the human who played the seat; NULL for an AI seat
    faction     TEXT,                          -- the nation or faction the seat played
    side        INTEGER NOT NULL,              -- seats with the same side played as one team
    won         INTEGER NOT NULL,              -- 1 when the seat is among the winners
    rated       INTEGER NOT NULL,              -- 1 when the game changed this player's rating
    PRIMARY KEY (session_id, seat)
);
CREATE INDEX result_seats_game ON result_seats (game_id, ended_at);
CREATE INDEX result_seats_user ON result_seats (user_id) WHERE user_id IS NOT NULL;

CREATE TABLE ratings (
    game_id     TEXT    NOT NULL,
    user_id     bigint NOT NULL,
    mu          double precision    NOT NULL,              -- openskill Plackett-Luce mean
    sigma       double precision    NOT NULL,              -- and its uncertainty
    games       INTEGER NOT NULL,              -- rated games played
    wins        INTEGER NOT NULL,              -- of which won (joint wins included)
    updated_at  double precision    NOT NULL,
    PRIMARY KEY (game_id, user_id)
);

CREATE TABLE mirrors (
    session_id  bigint NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    channel_id  bigint NOT NULL,              -- where the public updates are posted too
    set_by      bigint NOT NULL,
    since       double precision    NOT NULL,
    PRIMARY KEY (session_id, channel_id)
);
