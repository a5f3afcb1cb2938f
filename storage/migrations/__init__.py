"""Numbered schema migrations ``NNNN_name.sql``, applied in order with ``PRAGMA user_version``."""
