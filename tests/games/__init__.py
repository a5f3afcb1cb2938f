"""Tests of the games (games/)."""
