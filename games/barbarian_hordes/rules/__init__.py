"""Barbarian Hordes' rules by rule area: functions on the game object (its data and
queries) and one ``apply``'s context."""
