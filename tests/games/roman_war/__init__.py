"""Tests of Roman War (games/roman_war)."""
