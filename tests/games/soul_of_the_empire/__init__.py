"""Tests of Soul Of The Empire (games/soul_of_the_empire)."""
