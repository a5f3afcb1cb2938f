"""Unit tests of the discord.py adapter (bot/discordbot); tests/e2e drives it through the emulator."""
