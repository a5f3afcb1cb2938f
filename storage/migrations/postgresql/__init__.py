"""The PostgreSQL migrations: the same numbers and names as the SQLite ones in ``storage/migrations``,
applied in order and recorded in the table ``tabula_schema``."""
