"""The Discord adapter: discord.py cogs over the host service (see ARCHITECTURE.md, "The adapters").

- ``settings.BotSettings``: configuration from the environment or a ``.env`` file.
- ``client.TabulaBot``: the ``commands.Bot`` subclass; ``tree.TabulaTree`` its command tree.
- ``cogs``: lobby, play, views, spectators, admin — thin adapters, interaction -> host -> send.
- ``outbox``: turns the host's plain ``Reply`` objects into Discord messages.
- ``components``: persistent buttons and select menus (custom ids naming session and version).
"""
