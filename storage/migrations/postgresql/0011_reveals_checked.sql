-- Tabula schema 11 for PostgreSQL (as ../0011_reveals_checked.sql): whether an action's
-- "reveals" verdict was established when it was stored (rows stored before: all checked;
-- a row not established is stored as revealing), and whether a row not established follows
-- another of the same host operation (it reveals if that row does).

ALTER TABLE actions ADD COLUMN reveals_checked boolean NOT NULL DEFAULT true;
ALTER TABLE actions ADD COLUMN reveals_chained boolean NOT NULL DEFAULT false;
