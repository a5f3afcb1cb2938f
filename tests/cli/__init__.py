"""Tests of the `tabula` command and the terminal (bot/cli.py, bot/commands, bot/console.py)."""
