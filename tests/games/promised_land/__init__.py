"""Tests of Promised Land (games/promised_land)."""
