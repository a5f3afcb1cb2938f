"""Tests of the game contract, the flow engine and what every game shares (games/core)."""
