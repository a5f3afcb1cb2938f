"""Tests of Credo (games/credo)."""
