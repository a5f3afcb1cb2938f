"""A local emulator of Discord's API for end-to-end tests of the real discord.py client.

See ``server.py`` for what it serves and ``fixtures.py`` for the pytest fixtures that point
discord.py at it.
"""

from .model import Channel, Guild, Member, Message, StoredFile, User
from .server import DiscordError, FakeDiscord, InteractionRecord, Recorded, message_text

__all__ = [
    "Channel",
    "DiscordError",
    "FakeDiscord",
    "Guild",
    "InteractionRecord",
    "Member",
    "Message",
    "Recorded",
    "StoredFile",
    "User",
    "message_text",
]
