"""Tests of Barbarian Hordes (games/barbarian_hordes)."""
