-- Tabula schema 1: sessions, seats, the action log and snapshots.
-- Times are REAL seconds since the Unix epoch (UTC). JSON columns hold UTF-8 JSON text.

CREATE TABLE sessions (
    id          INTEGER PRIMARY KEY,
    guild_id    INTEGER,                          -- NULL outside a guild (DMs, the terminal)
    channel_id  INTEGER NOT NULL,                 -- a thread counts as a channel
    game_id     TEXT    NOT NULL,                 -- games.core registry id, e.g. 'barbarian-hordes'
    options     TEXT    NOT NULL DEFAULT '{}',    -- JSON of the game's Options
    seed        INTEGER NOT NULL,                 -- 63-bit session seed, never shown before the end
    seed_hash   TEXT    NOT NULL,                 -- sha256 of the seed's decimal text, published at start
    status      TEXT    NOT NULL DEFAULT 'lobby'
                CHECK (status IN ('lobby', 'active', 'finished', 'abandoned')),
    version     INTEGER NOT NULL DEFAULT 0,       -- bumped by every change (optimistic concurrency)
    seq         INTEGER NOT NULL DEFAULT 0,       -- seq of the last action row (0 = setup)
    to_act      TEXT    NOT NULL DEFAULT '[]',    -- JSON list of the seats prompted now
    outcome     TEXT,                             -- JSON of games.core.Outcome once over
    created_by  INTEGER NOT NULL,
    created_at  REAL    NOT NULL,
    updated_at  REAL    NOT NULL,
    started_at  REAL,
    ended_at    REAL
);

-- One open (lobby or active) session per channel; any number finished or abandoned.
CREATE UNIQUE INDEX sessions_one_open_per_channel
    ON sessions (channel_id) WHERE status IN ('lobby', 'active');
CREATE INDEX sessions_status ON sessions (status);

CREATE TABLE seats (
    session_id  INTEGER NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    seat        INTEGER NOT NULL CHECK (seat >= 0),
    user_id     INTEGER,                          -- NULL for an AI seat
    faction     TEXT,                             -- nation / faction chosen before the start
    ai          TEXT,                             -- agent kind for an AI seat, NULL for a human
    joined_at   REAL    NOT NULL,
    left_at     REAL,                             -- when the last human left this seat
    PRIMARY KEY (session_id, seat),
    CHECK ((user_id IS NULL) <> (ai IS NULL))
);
CREATE INDEX seats_user ON seats (user_id) WHERE user_id IS NOT NULL;

-- The append-only action log (undo drops a tail of it). seq 0 is the setup step.
CREATE TABLE actions (
    session_id      INTEGER NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    seq             INTEGER NOT NULL CHECK (seq >= 0),
    seat            INTEGER,                      -- NULL for setup and host steps
    user_id         INTEGER,                      -- the human who sent it; NULL for AI and host
    notation        TEXT    NOT NULL,             -- the action in the game's notation
    action          TEXT,                         -- JSON of the action; NULL for setup
    events          TEXT    NOT NULL DEFAULT '[]',-- JSON list of {kind, visible_to, text, data}
    secret          INTEGER NOT NULL DEFAULT 0,   -- 1 when the notation is visible to its seat only
    reveals         INTEGER NOT NULL DEFAULT 0,   -- 1 when it drew randomness or showed hidden info
    interaction_id  TEXT,                         -- Discord interaction id; applied once
    at              REAL    NOT NULL,
    PRIMARY KEY (session_id, seq)
) WITHOUT ROWID;
CREATE UNIQUE INDEX actions_interaction ON actions (interaction_id) WHERE interaction_id IS NOT NULL;

-- The full state after action `seq`, every N actions, so loading replays at most N - 1.
CREATE TABLE snapshots (
    session_id  INTEGER NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    seq         INTEGER NOT NULL,
    state       TEXT    NOT NULL,                 -- JSON of the game's State
    at          REAL    NOT NULL,
    PRIMARY KEY (session_id, seq)
) WITHOUT ROWID;
