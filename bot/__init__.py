"""bot — the host service (Discord-free) and its adapters: discord.py cogs and the terminal."""
