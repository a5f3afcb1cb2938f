"""Tests of the Discord-free host service (bot/host)."""
