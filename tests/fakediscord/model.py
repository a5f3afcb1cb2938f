"""In-memory objects of the Discord emulator and their JSON payloads.

The payload shapes follow Discord's API v10 as discord.py 2.7 reads them
(``discord/types/*.py``): every key that discord.py indexes directly is present.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Any

DISCORD_EPOCH_MS = 1420070400000
# A fixed instant (2025-01-01T00:00:00Z) so that snowflakes are deterministic.
BASE_MS = 1735689600000
TIMESTAMP = "2025-01-01T00:00:00.000000+00:00"

# Permission bits (https://discord.com/developers/docs/topics/permissions).
PERMISSIONS = {
    "create_instant_invite": 1 << 0,
    "administrator": 1 << 3,
    "manage_channels": 1 << 4,
    "manage_guild": 1 << 5,
    "add_reactions": 1 << 6,
    "view_channel": 1 << 10,
    "send_messages": 1 << 11,
    "manage_messages": 1 << 13,
    "embed_links": 1 << 14,
    "attach_files": 1 << 15,
    "read_message_history": 1 << 16,
    "mention_everyone": 1 << 17,
    "use_external_emojis": 1 << 18,
    "use_application_commands": 1 << 31,
    "manage_threads": 1 << 34,
    "create_public_threads": 1 << 35,
    "create_private_threads": 1 << 36,
    "send_messages_in_threads": 1 << 38,
}
MEMBER_PERMISSIONS = sum(
    PERMISSIONS[p]
    for p in (
        "view_channel",
        "send_messages",
        "add_reactions",
        "embed_links",
        "attach_files",
        "read_message_history",
        "use_application_commands",
        "create_public_threads",
        "send_messages_in_threads",
    )
)
ALL_PERMISSIONS = (1 << 50) - 1


class Snowflakes:
    """Deterministic snowflake ids: a fixed instant plus a counter."""

    def __init__(self, start: int = 1) -> None:
        self._counter = itertools.count(start)

    def __call__(self) -> int:
        n = next(self._counter)
        return ((BASE_MS + n - DISCORD_EPOCH_MS) << 22) | (n & 0xFFF)


@dataclass
class User:
    id: int
    username: str
    bot: bool = False
    global_name: str | None = None

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "id": str(self.id),
            "username": self.username,
            "global_name": self.global_name,
            "discriminator": "0",
            "avatar": None,
            "public_flags": 0,
            "flags": 0,
        }
        if self.bot:
            d["bot"] = True
        return d


@dataclass
class Member:
    user: User
    guild_id: int
    permissions: int = MEMBER_PERMISSIONS
    nick: str | None = None

    def to_dict(self, *, with_permissions: bool = False) -> dict[str, Any]:
        d: dict[str, Any] = {
            "user": self.user.to_dict(),
            "nick": self.nick,
            "avatar": None,
            "roles": [],
            "joined_at": TIMESTAMP,
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "communication_disabled_until": None,
        }
        if with_permissions:
            d["permissions"] = str(self.permissions)
        return d


@dataclass
class Channel:
    id: int
    type: int  # 0 text, 1 DM, 11 public thread, 12 private thread
    name: str = ""
    guild_id: int | None = None
    parent_id: int | None = None
    owner_id: int | None = None
    recipient: User | None = None
    position: int = 0
    thread_members: set[int] = field(default_factory=set)
    message_count: int = 0
    last_message_id: int | None = None
    # permissions the bot lacks here (names from PERMISSIONS), for fault injection
    denied: set[str] = field(default_factory=set)
    # a thread's state: archived threads refuse posts (50083) until unarchived; locked
    # threads (160005) take posts only from members with Manage Threads
    archived: bool = False
    locked: bool = False
    bot_id: int | None = None  # whose member overwrite carries ``denied``

    @property
    def is_thread(self) -> bool:
        return self.type in (10, 11, 12)

    def to_dict(self) -> dict[str, Any]:
        last = str(self.last_message_id) if self.last_message_id else None
        if self.type == 1:
            assert self.recipient is not None
            return {
                "id": str(self.id),
                "type": 1,
                "last_message_id": last,
                "recipients": [self.recipient.to_dict()],
                "flags": 0,
            }
        d: dict[str, Any] = {
            "id": str(self.id),
            "type": self.type,
            "guild_id": str(self.guild_id),
            "name": self.name,
            "parent_id": str(self.parent_id) if self.parent_id else None,
            "last_message_id": last,
            "rate_limit_per_user": 0,
            "flags": 0,
        }
        if self.is_thread:
            d.update(
                owner_id=str(self.owner_id),
                message_count=self.message_count,
                member_count=len(self.thread_members),
                total_message_sent=self.message_count,
                applied_tags=[],
                thread_metadata={
                    "archived": self.archived,
                    "auto_archive_duration": 10080,
                    "archive_timestamp": TIMESTAMP,
                    "locked": self.locked,
                    "invitable": True,
                    "create_timestamp": TIMESTAMP,
                },
            )
        else:
            overwrites = []
            if self.denied and self.bot_id is not None:
                bits = sum(PERMISSIONS[p] for p in self.denied)
                overwrites.append({"id": str(self.bot_id), "type": 1, "allow": "0", "deny": str(bits)})
            d.update(position=self.position, permission_overwrites=overwrites, topic=None, nsfw=False)
        return d


@dataclass
class Guild:
    id: int
    name: str
    owner_id: int
    members: dict[int, Member] = field(default_factory=dict)
    channels: dict[int, Channel] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        text = [c.to_dict() for c in self.channels.values() if not c.is_thread]
        threads = [c.to_dict() for c in self.channels.values() if c.is_thread]
        return {
            "id": str(self.id),
            "name": self.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "owner_id": str(self.owner_id),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "roles": [
                {
                    "id": str(self.id),
                    "name": "@everyone",
                    "color": 0,
                    "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
                    "hoist": False,
                    "icon": None,
                    "unicode_emoji": None,
                    "position": 0,
                    "permissions": str(MEMBER_PERMISSIONS),
                    "managed": False,
                    "mentionable": False,
                    "flags": 0,
                }
            ],
            "emojis": [],
            "stickers": [],
            "features": [],
            "mfa_level": 0,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "public_updates_channel_id": None,
            "safety_alerts_channel_id": None,
            "vanity_url_code": None,
            "description": None,
            "banner": None,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "preferred_locale": "en-US",
            "nsfw_level": 0,
            "premium_progress_bar_enabled": False,
            "joined_at": TIMESTAMP,
            "large": False,
            "unavailable": False,
            "member_count": len(self.members),
            "voice_states": [],
            "members": [m.to_dict() for m in self.members.values()],
            "channels": text,
            "threads": threads,
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
        }


@dataclass
class StoredFile:
    """A file the bot uploaded: the bytes as received and their declared metadata."""

    id: int
    filename: str
    content_type: str | None
    data: bytes


@dataclass
class Message:
    """A message as the emulator stores it.

    ``audience`` is who can see it: ``None`` for everyone who can read the channel, otherwise the
    user ids (an ephemeral interaction reply is seen only by the user who interacted, a DM only by
    its recipient).
    """

    id: int
    channel_id: int
    guild_id: int | None
    author: User
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    files: list[StoredFile] = field(default_factory=list)
    flags: int = 0
    audience: frozenset[int] | None = None
    webhook_id: int | None = None
    interaction_id: int | None = None
    interaction_user: User | None = None
    edits: int = 0
    deleted: bool = False
    allowed_mentions: dict[str, Any] | None = None
    base_url: str = ""

    EPHEMERAL = 64
    LOADING = 128

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & self.EPHEMERAL)

    def mentioned_user_ids(self) -> list[int]:
        """User ids that ``<@id>`` mentions in the content actually ping (allowed_mentions applied)."""
        import re

        ids = [int(m) for m in re.findall(r"<@!?(\d+)>", self.content)]
        am = self.allowed_mentions
        if am is None:
            return ids
        parse = am.get("parse", [])
        if "users" in parse:
            return ids
        allowed = {int(u) for u in am.get("users", [])}
        return [i for i in ids if i in allowed]

    def custom_ids(self) -> list[str]:
        out = []
        for row in self.components:
            for c in row.get("components", []):
                if "custom_id" in c:
                    out.append(c["custom_id"])
        return out

    def find_component(self, custom_id: str) -> dict[str, Any] | None:
        for row in self.components:
            for c in row.get("components", []):
                if c.get("custom_id") == custom_id:
                    return c
        return None

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "id": str(self.id),
            "channel_id": str(self.channel_id),
            "author": self.author.to_dict(),
            "content": self.content,
            "timestamp": TIMESTAMP,
            "edited_timestamp": TIMESTAMP if self.edits else None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [
                {
                    "id": str(f.id),
                    "filename": f.filename,
                    "size": len(f.data),
                    "url": f"{self.base_url}/attachments/{self.channel_id}/{f.id}/{f.filename}",
                    "proxy_url": f"{self.base_url}/attachments/{self.channel_id}/{f.id}/{f.filename}",
                    "content_type": f.content_type,
                }
                for f in self.files
            ],
            "embeds": self.embeds,
            "pinned": False,
            "type": 20 if self.interaction_id else 0,
            "flags": self.flags,
            "components": self.components,
        }
        if self.guild_id:
            d["guild_id"] = str(self.guild_id)
        if self.webhook_id:
            d["webhook_id"] = str(self.webhook_id)
            d["application_id"] = str(self.webhook_id)
        if self.interaction_id and self.interaction_user:
            d["interaction_metadata"] = {
                "id": str(self.interaction_id),
                "type": 2,
                "user": self.interaction_user.to_dict(),
                "authorizing_integration_owners": {},
            }
        return d
