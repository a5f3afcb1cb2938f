-- Tabula schema 11: whether an action's "reveals" verdict was established when it was stored.
-- The host establishes at commit only what is evident (the step drew randomness, showed a
-- private event to another seat, or follows a revealing step of the same operation); the
-- costly check (the action applied to perturbed states, games.core.secrets) waits for an
-- undo that needs it.
-- reveals_checked: 1 when reveals is the verdict; 0 when it is not established yet, and
--                  reveals is then 1 (it may reveal: nothing stored claims otherwise).
--                  Rows stored before were all checked.
-- reveals_chained: 1 on a row not established that follows, in the same host operation, a
--                  row not established either: it reveals if that row does.

ALTER TABLE actions ADD COLUMN reveals_checked INTEGER NOT NULL DEFAULT 1;
ALTER TABLE actions ADD COLUMN reveals_chained INTEGER NOT NULL DEFAULT 0;
