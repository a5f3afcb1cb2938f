"""Tests of the board images (render/)."""
