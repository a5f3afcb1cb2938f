"""A local emulator of Discord's HTTP API (v10) and JSON gateway, on 127.0.0.1.

It serves the real, unmodified discord.py client: REST under ``/api/v10``, the gateway as a
websocket at ``/gateway``, uploaded attachments under ``/attachments``. Tests drive it as the
users would (``slash``, ``autocomplete``, ``click``, ``select``), read what each user could see
(``visible_to``), and inject faults (``fail``, ``gateway_reconnect``, ``gateway_invalidate``,
``close_dms``, ``deny``, ``redeliver``).

Every HTTP request is recorded in ``requests``; a request no route knows is answered 404 and kept
in ``unknown_routes`` (tests assert it stays empty). Requests Discord itself would reject (a second
interaction response, an embed over its limits, a command name with capitals...) are answered with
Discord's error and kept in ``rejected``.

Every request body is checked against Discord's published OpenAPI description (``openapi.py``)
and against the limits Discord documents beyond it (``check_message``); a body that fails is
answered 400 / code 50035 "Invalid Form Body", as Discord does, and kept in ``invalid`` (the
fixture fails the test unless it says it sends invalid bodies on purpose). An interaction's first
response later than ``response_deadline`` (3 s, Discord's limit) is refused with 10062 "Unknown
interaction" and kept in ``late``, which also fails the test.

Sharding: ``FakeDiscord(shards=N)`` (or ``fake.shards = N``) is the count GET /gateway/bot
recommends; each gateway connection IDENTIFYs as one shard [id, count] and receives only the
events of the guilds Discord routes to it (``(guild_id >> 22) % count``, direct messages to shard
0), ``add_guild(shard=k)`` makes a guild of shard k. With one shard everything goes to the one
connection, as before.

Faults: ``fail`` answers chosen requests with a status and Discord error code (413, 404/10015,
400/50083, 403/160005, 403/50007, 429, 5xx...), ``chaos`` answers a random fraction of requests
with such errors; ``archive``/``lock`` put a thread in the state where Discord refuses posts.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

from .model import (
    ALL_PERMISSIONS,
    MEMBER_PERMISSIONS,
    PERMISSIONS,
    Channel,
    Guild,
    Member,
    Message,
    Snowflakes,
    StoredFile,
    User,
)

ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024
RESPONSE_DEADLINE = 3.0  # seconds Discord allows for an interaction's first response
NONCE_WINDOW = 100  # messages per channel remembered for enforce_nonce

# Discord errors the chaos injector picks from: (status, code, message)
CHAOS_ERRORS: tuple[tuple[int, int, str], ...] = (
    (500, 0, "500: Internal Server Error"),
    (502, 0, "502: Bad Gateway"),
    (503, 0, "503: Service Unavailable"),
    (429, 0, "You are being rate limited."),
    (404, 10015, "Unknown Webhook"),
    (413, 40005, "Request entity too large"),
    (400, 50083, "Operation cannot be performed on an archived thread."),
)

# Gateway opcodes
DISPATCH, HEARTBEAT, IDENTIFY, RESUME, RECONNECT, INVALID_SESSION, HELLO, HEARTBEAT_ACK = (
    0,
    1,
    2,
    6,
    7,
    9,
    10,
    11,
)

OPTION_TYPES = {"sub_command": 1, "sub_command_group": 2, "string": 3, "integer": 4, "boolean": 5, "user": 6}


BODY = web.RequestKey("body", object)
FILES = web.RequestKey("files", list)
ARRIVED = web.RequestKey("arrived", float)
"""When the emulator's server took the request (``time.perf_counter``), before reading its body and
checking it against the OpenAPI description: a first response is timed to its arrival, as Discord
times its 3-second window, not to the end of the emulator's own work on it (followups likewise)."""


class DiscordError(Exception):
    """An error the emulated API answers with: HTTP status, Discord JSON error code, message."""

    def __init__(self, status: int, code: int, message: str, errors: Any = None) -> None:
        super().__init__(message)
        self.status, self.code, self.message, self.errors = status, code, message, errors


@dataclass
class Recorded:
    """One HTTP request received by the emulator and how it was answered."""

    method: str
    path: str
    query: dict[str, str]
    route: str | None
    json: Any = None
    files: list[StoredFile] = field(default_factory=list)
    status: int = 0
    error_code: int | None = None


@dataclass
class Fault:
    method: str
    pattern: re.Pattern[str]
    status: int
    times: int
    retry_after: float = 0.05
    code: int = 0
    message: str = "Injected fault"
    hits: int = 0


@dataclass
class Chaos:
    """Random faults: each request matching ``method`` and ``pattern`` is answered, with
    probability ``rate``, with one of ``errors`` (status, code, message)."""

    rate: float
    rng: random.Random
    errors: tuple[tuple[int, int, str], ...]
    method: str | None
    pattern: re.Pattern[str]
    hits: int = 0


@dataclass
class InteractionRecord:
    """An interaction the emulator sent to the bot, and everything the bot answered to it."""

    id: int
    token: str
    type: int  # 2 command, 3 component, 4 autocomplete
    user: User
    channel: Channel
    data: dict[str, Any]
    message: Message | None = None
    sent_at: float = 0.0
    responded_at: float | None = None
    callback_type: int | None = None
    callback_data: dict[str, Any] | None = None
    original: Message | None = None
    loading: bool = False
    followups: list[Message] = field(default_factory=list)
    followup_times: list[float] = field(default_factory=list)
    responded: asyncio.Event = field(default_factory=asyncio.Event)
    payload: dict[str, Any] = field(default_factory=dict)  # as dispatched on the gateway

    async def response(self, timeout: float = 10.0) -> InteractionRecord:
        """Wait until the bot sent the initial response (callback); return self."""
        await asyncio.wait_for(self.responded.wait(), timeout)
        return self

    @property
    def choices(self) -> list[dict[str, Any]]:
        """Autocomplete choices answered (type 8)."""
        assert self.callback_type == 8, f"not an autocomplete answer: {self.callback_type}"
        return list((self.callback_data or {}).get("choices", []))

    @property
    def ephemeral(self) -> bool:
        return bool(self.original is not None and self.original.ephemeral)

    def messages(self) -> list[Message]:
        """The original response (if a message) followed by the followups, as they stand now."""
        out = [self.original] if self.original is not None and self.callback_type in (4, 5) else []
        out += [m for m in self.followups if m is not self.original]
        return out

    def text(self) -> str:
        """All the text of the responses: content, embed titles, descriptions and fields."""
        return "\n".join(message_text(m) for m in self.messages())


def message_text(m: Message) -> str:
    parts = [m.content]
    for e in m.embeds:
        parts += [e.get("title", ""), e.get("description", "")]
        for f in e.get("fields", []):
            parts += [f.get("name", ""), f.get("value", "")]
        if e.get("footer"):
            parts.append(e["footer"].get("text", ""))
    return "\n".join(p for p in parts if p)


class GatewaySession:
    def __init__(self, session_id: str, shard: int = 0, shard_count: int = 1) -> None:
        self.id = session_id
        self.shard, self.shard_count = shard, shard_count
        self.seq = 0
        self.events: list[dict[str, Any]] = []
        self.resumable = True


def shard_of(guild_id: int | None, shard_count: int) -> int:
    """The shard whose connection receives a guild's events, as Discord routes them:
    ``(guild_id >> 22) % shard_count``; events without a guild (direct messages) go to shard 0."""
    if guild_id is None or shard_count <= 1:
        return 0
    return (guild_id >> 22) % shard_count


def event_guild(event: str, data: dict[str, Any]) -> int | None:
    """The guild a gateway event belongs to (None for a direct message or the connection's own)."""
    gid = data.get("guild_id") or (data.get("id") if event.startswith("GUILD_") else None)
    return int(gid) if gid else None


class FakeDiscord:
    """The emulator. Create, ``await start()``, point discord.py at ``api_base``/``gateway_url``."""

    def __init__(
        self,
        *,
        token: str = "fake-bot-token",
        app_name: str = "Tabula",
        validate: bool = True,
        response_deadline: float = RESPONSE_DEADLINE,
        shards: int = 1,
    ) -> None:
        self.snowflake = Snowflakes()
        self.token = token
        self.application_id = self.snowflake()
        self.bot_user = User(self.application_id, app_name, bot=True)
        self.owner = User(self.snowflake(), "owner")
        self.users: dict[int, User] = {self.bot_user.id: self.bot_user, self.owner.id: self.owner}
        self.guilds: dict[int, Guild] = {}
        self.removed_guilds: dict[int, Guild] = {}  # servers that removed the bot (see remove_bot)
        self.channels: dict[int, Channel] = {}
        self.messages: dict[int, Message] = {}
        self._private: dict[int, list[Message]] = {}  # user id -> the messages with them in the audience
        self.dm_channels: dict[int, Channel] = {}
        self.global_commands: list[dict[str, Any]] = []
        self.guild_commands: dict[int, list[dict[str, Any]]] = {}
        self.interactions: dict[int, InteractionRecord] = {}
        self.interactions_by_token: dict[str, InteractionRecord] = {}
        self.requests: list[Recorded] = []
        self.unknown_routes: list[Recorded] = []
        self.rejected: list[Recorded] = []
        self.invalid: list[Recorded] = []  # bodies Discord would refuse (400 / 50035)
        self.allow_invalid = False  # a test that sends invalid bodies on purpose sets this
        self.late: list[InteractionRecord] = []  # first responses after the deadline
        self.response_deadline = response_deadline
        self.faults: list[Fault] = []
        self.chaos_faults: list[Chaos] = []
        self.openapi = None
        if validate:
            from .openapi import checker, spec_path

            self.openapi = checker()
            if self.openapi is None:
                raise RuntimeError(
                    "Discord's OpenAPI description was not found (shared/discord-api-spec/openapi.json "
                    f"beside the repository, or TABULA_DISCORD_OPENAPI); looked for {spec_path()}"
                )
        self._nonces: dict[int, dict[str, int]] = {}
        self._dirty: list[Channel] = []
        self.closed_dms: set[int] = set()
        self.gateway_log: list[tuple[str, int, str | None]] = []
        self.identify_count = 0
        self.resume_count = 0
        # Sharding: GET /gateway/bot recommends ``shards``; each connection IDENTIFYs as one
        # shard [id, count] and receives the events of that shard's guilds only.
        self.shards = shards
        self.identified: list[tuple[int, int]] = []  # (shard id, shard count) of each IDENTIFY
        self.undelivered: list[tuple[int, dict[str, Any]]] = []  # (shard, event) no connection had
        self._sessions: dict[int, GatewaySession] = {}  # shard id -> its gateway session
        self._sockets: dict[int, web.WebSocketResponse] = {}  # shard id -> its live connection
        self._ws_lock = asyncio.Lock()
        self._changed = asyncio.Condition()
        self._runner: web.AppRunner | None = None
        self.port = 0
        self.app = web.Application(middlewares=[self._middleware], client_max_size=64 * 1024 * 1024)
        self._add_routes()

    # ------------------------------------------------------------------ lifecycle

    async def start(self) -> FakeDiscord:
        self._runner = web.AppRunner(self.app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        return self

    async def stop(self) -> None:
        for ws in list(self._sockets.values()):
            if not ws.closed:
                await ws.close()
        if self._runner is not None:
            await self._runner.cleanup()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def api_base(self) -> str:
        return f"{self.base_url}/api/v10"

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway"

    # ------------------------------------------------------------------ world building

    def add_guild(self, name: str = "Test Guild", owner: User | None = None, *, shard: int | None = None) -> Guild:
        """A guild with the bot and ``owner`` in it; with ``shard``, its id is one Discord routes
        to that shard of ``shards``."""
        owner = owner or self.owner
        gid = self.snowflake()
        if shard is not None:
            assert 0 <= shard < self.shards, f"shard {shard} of {self.shards}"
            while shard_of(gid, self.shards) != shard:
                gid = self.snowflake()
        g = Guild(gid, name, owner.id)
        self.guilds[g.id] = g
        self.add_member(g, self.bot_user)
        self.add_member(g, owner, permissions=ALL_PERMISSIONS)
        return g

    def add_user(self, username: str, *, global_name: str | None = None) -> User:
        u = User(self.snowflake(), username, global_name=global_name)
        self.users[u.id] = u
        return u

    def add_member(self, guild: Guild, user: User, *, permissions: int = MEMBER_PERMISSIONS) -> Member:
        self.users[user.id] = user
        m = Member(user, guild.id, permissions=permissions)
        guild.members[user.id] = m
        return m

    def add_text_channel(self, guild: Guild, name: str = "general") -> Channel:
        c = Channel(self.snowflake(), 0, name=name, guild_id=guild.id, position=len(guild.channels))
        guild.channels[c.id] = c
        self.channels[c.id] = c
        return c

    async def delete_channel(self, channel: Channel) -> None:
        """A member deletes a channel or thread: it is gone from the API (10003 Unknown Channel
        from now on) and the gateway says so (CHANNEL_DELETE, or THREAD_DELETE for a thread)."""
        self.channels.pop(channel.id, None)
        if channel.guild_id is not None:
            self.guilds[channel.guild_id].channels.pop(channel.id, None)
        if channel.is_thread:
            await self.dispatch("THREAD_DELETE", {"id": str(channel.id), "guild_id": str(channel.guild_id),
                                                  "parent_id": str(channel.parent_id), "type": channel.type})
        else:
            await self.dispatch("CHANNEL_DELETE", channel.to_dict())

    async def remove_bot(self, guild: Guild) -> None:
        """The server removes the bot: its routes answer 10004 Unknown Guild / 10003 Unknown Channel
        and the gateway sends GUILD_DELETE (without ``unavailable``: a removal, not an outage).
        ``invite_bot`` brings it back with the same channels."""
        self.guilds.pop(guild.id, None)
        for cid in list(guild.channels):
            self.channels.pop(cid, None)
        self.removed_guilds[guild.id] = guild
        await self.dispatch("GUILD_DELETE", {"id": str(guild.id)})

    async def invite_bot(self, guild: Guild) -> None:
        """The server invites the bot again: the guild and its channels are back (GUILD_CREATE)."""
        self.removed_guilds.pop(guild.id, None)
        self.guilds[guild.id] = guild
        for c in guild.channels.values():
            self.channels[c.id] = c
        await self.dispatch("GUILD_CREATE", guild.to_dict())

    def close_dms(self, user: User | int, closed: bool = True) -> None:
        """Make the user refuse DMs from the bot (Discord error 50007), or accept them again."""
        uid = user if isinstance(user, int) else user.id
        (self.closed_dms.add if closed else self.closed_dms.discard)(uid)

    def deny(self, channel: Channel, *permissions: str) -> None:
        """Take permissions (names as in ``model.PERMISSIONS``) from the bot in a channel."""
        for p in permissions:
            assert p in PERMISSIONS, p
        channel.denied.update(permissions)
        channel.bot_id = self.bot_user.id
        self._dirty.append(channel)

    def allow(self, channel: Channel, *permissions: str) -> None:
        """Give back permissions taken with ``deny``."""
        channel.denied.difference_update(permissions)
        self._dirty.append(channel)

    async def _flush_channel_updates(self) -> None:
        """Tell the gateway about channels changed by ``deny``/``allow``/``lock``/``archive``
        (as Discord sends CHANNEL_UPDATE / THREAD_UPDATE), before the next interaction."""
        dirty, self._dirty = self._dirty, []
        if not self._sessions:
            return
        for ch in {c.id: c for c in dirty}.values():
            await self.dispatch("THREAD_UPDATE" if ch.is_thread else "CHANNEL_UPDATE", ch.to_dict())

    def fail(
        self,
        method: str,
        path_regex: str,
        status: int,
        *,
        times: int = 1,
        retry_after: float = 0.05,
        code: int = 0,
        message: str = "Injected fault",
    ) -> Fault:
        """Answer the next ``times`` matching requests with ``status`` (429 carries ``Via``)."""
        f = Fault(method.upper(), re.compile(path_regex), status, times, retry_after, code, message)
        self.faults.append(f)
        return f

    def chaos(
        self,
        rate: float,
        *,
        seed: int = 0,
        errors: tuple[tuple[int, int, str], ...] = CHAOS_ERRORS,
        method: str | None = None,
        path_regex: str = r"^/api/v10/(channels|webhooks|interactions)/",
    ) -> Chaos:
        """From now on answer a random ``rate`` of the matching requests with one of
        ``errors``; ``stop_chaos`` ends it."""
        c = Chaos(rate, random.Random(seed), errors, method.upper() if method else None, re.compile(path_regex))
        self.chaos_faults.append(c)
        return c

    def stop_chaos(self) -> None:
        self.chaos_faults.clear()

    def archive(self, thread: Channel, archived: bool = True) -> None:
        """Archive a thread (posts are refused with 50083 until it is unarchived)."""
        assert thread.is_thread
        thread.archived = archived
        self._dirty.append(thread)

    def lock(self, thread: Channel, locked: bool = True) -> None:
        """Lock a thread: only members with Manage Threads may post (others get 160005)."""
        assert thread.is_thread
        thread.locked = locked
        self._dirty.append(thread)

    # ------------------------------------------------------------------ observation

    async def _notify(self) -> None:
        async with self._changed:
            self._changed.notify_all()

    async def wait_until(self, predicate: Callable[[], Any], timeout: float = 10.0) -> Any:
        """Wait until ``predicate()`` is truthy (checked after every request and event)."""

        async def _wait() -> Any:
            async with self._changed:
                while True:
                    value = predicate()
                    if value:
                        return value
                    await self._changed.wait()

        return await asyncio.wait_for(_wait(), timeout)

    def channel_messages(self, channel: Channel | int) -> list[Message]:
        cid = channel if isinstance(channel, int) else channel.id
        return [m for m in self.messages.values() if m.channel_id == cid and not m.deleted]

    def dms_to(self, user: User | int) -> list[Message]:
        uid = user if isinstance(user, int) else user.id
        ch = self.dm_channels.get(uid)
        return [] if ch is None else self.channel_messages(ch)

    def visible_to(self, user: User | int) -> list[Message]:
        """Every message this user could see: public ones in guilds they belong to, their
        ephemeral replies, their DMs."""
        uid = user if isinstance(user, int) else user.id
        out = []
        for m in self.messages.values():
            if m.deleted:
                continue
            if m.audience is not None:
                if uid in m.audience:
                    out.append(m)
            elif m.guild_id is not None and uid in self.guilds[m.guild_id].members:
                out.append(m)
        return out

    def private_to(self, user: User | int) -> list[Message]:
        """The messages this user sees and the channel's others do not (ephemeral replies, their
        DMs), in the order sent, deleted ones left out: without a scan of every message."""
        uid = user if isinstance(user, int) else user.id
        return [m for m in self._private.get(uid, ()) if not m.deleted]

    def file_bytes(self) -> list[tuple[Message, StoredFile]]:
        return [(m, f) for m in self.messages.values() for f in m.files]

    def transcript(self) -> str:
        """Every message as it stands now, in the order sent: where, who sees it, the text,
        attachments and components. For reading what players see (not for assertions)."""
        names = {u.id: u.username for u in self.users.values()}
        out = []
        for m in sorted(self.messages.values(), key=lambda m: m.id):
            ch = self.channels.get(m.channel_id)
            if ch is not None and ch.type == 1 and ch.recipient is not None:
                where = f"DM {ch.recipient.username}"
            else:
                where = f"#{ch.name if ch is not None else m.channel_id}"
            who = "everyone" if m.audience is None else ",".join(names.get(u, str(u)) for u in sorted(m.audience))
            flags = [x for x, on in (("ephemeral", m.ephemeral), ("deleted", m.deleted)) if on]
            if m.edits:
                flags.append(f"edited x{m.edits}")
            head = f"--- {m.id} {where} -> {who}" + (f" ({', '.join(flags)})" if flags else "")
            body = re.sub(r"<@!?(\d+)>", lambda x: "@" + names.get(int(x.group(1)), x.group(1)), message_text(m))
            lines = [head, body]
            if m.files:
                lines.append("[files: " + ", ".join(f"{f.filename} {len(f.data)} B" for f in m.files) + "]")
            labels = [
                c.get("label") or c.get("placeholder") or c.get("custom_id", "?")
                for row in m.components
                for c in row.get("components", [])
            ]
            if labels:
                lines.append("[components: " + " | ".join(str(x) for x in labels) + "]")
            pinged = m.mentioned_user_ids()
            if pinged:
                lines.append("[pings: " + ", ".join(names.get(u, str(u)) for u in pinged) + "]")
            out.append("\n".join(lines))
        return "\n".join(out) + "\n"

    # ------------------------------------------------------------------ gateway

    @property
    def shard_count(self) -> int:
        """The shard count the connected sessions identified with (1 before any)."""
        return next((s.shard_count for s in self._sessions.values()), 1)

    @property
    def _session(self) -> GatewaySession | None:
        """Shard 0's gateway session (the only one, unsharded)."""
        return self._sessions.get(0)

    @property
    def _ws(self) -> web.WebSocketResponse | None:
        """Shard 0's live connection (the only one, unsharded)."""
        return self._sockets.get(0)

    def shard_of(self, guild_id: int | None) -> int:
        """The shard that receives ``guild_id``'s events (a DM's: 0) with the sessions' shard count."""
        return shard_of(guild_id, self.shard_count)

    async def dispatch(self, event: str, data: dict[str, Any], *, shard: int | None = None) -> None:
        """Send a DISPATCH event on the gateway session of the shard of its guild (``shard``
        when given), buffered for RESUME when that shard is disconnected. With several shards,
        an event for a shard no connection ever identified as is kept in ``undelivered``."""
        if shard is None:
            shard = self.shard_of(event_guild(event, data))
        s = self._sessions.get(shard)
        if s is None:
            assert self._sessions, "the bot has not identified on the gateway yet"
            self.undelivered.append((shard, {"t": event, "d": data}))
            await self._notify()
            return
        s.seq += 1
        payload = {"op": DISPATCH, "t": event, "s": s.seq, "d": data}
        s.events.append(payload)
        ws = self._sockets.get(shard)
        if ws is not None and not ws.closed:
            await self._send(ws, payload)
        await self._notify()

    async def _send(self, ws: web.WebSocketResponse, payload: dict[str, Any]) -> None:
        async with self._ws_lock:
            self.gateway_log.append(("send", payload["op"], payload.get("t")))
            await ws.send_str(json.dumps(payload))

    async def gateway_reconnect(self, shard: int = 0) -> None:
        """Ask the client to reconnect and RESUME (opcode 7)."""
        ws = self._sockets.get(shard)
        assert ws is not None
        await self._send(ws, {"op": RECONNECT, "d": None})

    async def gateway_invalidate(self, resumable: bool = False, shard: int = 0) -> None:
        """Invalidate the session (opcode 9); the client must IDENTIFY anew unless resumable."""
        ws, s = self._sockets.get(shard), self._sessions.get(shard)
        assert ws is not None and s is not None
        s.resumable = resumable
        await self._send(ws, {"op": INVALID_SESSION, "d": resumable})

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(autoping=True)
        await ws.prepare(request)
        shard: int | None = None  # which shard this connection is, once it IDENTIFYs or RESUMEs
        await self._send(ws, {"op": HELLO, "d": {"heartbeat_interval": 41250}})
        async for msg in ws:
            if msg.type != WSMsgType.TEXT:
                continue
            payload = json.loads(msg.data)
            op, d = payload.get("op"), payload.get("d")
            self.gateway_log.append(("recv", op, None))
            if op == HEARTBEAT:
                await self._send(ws, {"op": HEARTBEAT_ACK})
            elif op == IDENTIFY:
                if d.get("token") != self.token:
                    await ws.close(code=4004, message=b"Authentication failed.")
                    break
                sid, count = d.get("shard") or (0, 1)
                others = {s.shard_count for k, s in self._sessions.items() if k != sid and k in self._sockets}
                if not 0 <= sid < count or (others and others != {count}):
                    await ws.close(code=4010, message=b"Invalid shard.")
                    break
                # sessions of another shard count (all disconnected, see above) are gone
                self._sessions = {k: s for k, s in self._sessions.items() if s.shard_count == count}
                self.identify_count += 1
                self.identified.append((sid, count))
                shard = sid
                self._sockets[shard] = ws
                await self._ready(ws, shard, count)
            elif op == RESUME:
                if d.get("token") != self.token:
                    await ws.close(code=4004, message=b"Authentication failed.")
                    break
                s = next((x for x in self._sessions.values() if x.id == d.get("session_id")), None)
                if s is None or not s.resumable:
                    await self._send(ws, {"op": INVALID_SESSION, "d": False})
                    continue
                self.resume_count += 1
                shard = s.shard
                self._sockets[shard] = ws
                last = d.get("seq") or 0
                for ev in s.events:
                    if ev["s"] > last:
                        await self._send(ws, ev)
                await self.dispatch("RESUMED", {}, shard=shard)
        if shard is not None and self._sockets.get(shard) is ws:
            del self._sockets[shard]
        await self._notify()
        return ws

    async def _ready(self, ws: web.WebSocketResponse, shard: int = 0, count: int = 1) -> None:
        session = self._sessions[shard] = GatewaySession(f"session-{self.snowflake()}", shard, count)
        guilds = [g for g in self.guilds.values() if shard_of(g.id, count) == shard]
        await self.dispatch(
            "READY",
            {
                "v": 10,
                "user": self.bot_user.to_dict(),
                "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
                "session_id": session.id,
                "resume_gateway_url": self.gateway_url,
                "shard": [shard, count],
                "application": {"id": str(self.application_id), "flags": 0},
                "private_channels": [],
                "relationships": [],
            },
            shard=shard,
        )
        for g in guilds:
            await self.dispatch("GUILD_CREATE", g.to_dict(), shard=shard)

    # ------------------------------------------------------------------ injectors

    def _commands_for(self, channel: Channel) -> list[dict[str, Any]]:
        cmds = list(self.global_commands)
        if channel.guild_id is not None:
            cmds = self.guild_commands.get(channel.guild_id, []) + cmds
        return cmds

    def _build_options(
        self, command: str, channel: Channel, values: dict[str, Any], focused: str | None
    ) -> tuple[dict[str, Any], list[dict[str, Any]], dict[str, Any]]:
        words = command.split()
        cmd = next((c for c in self._commands_for(channel) if c["name"] == words[0]), None)
        if cmd is None:
            raise AssertionError(f"/{words[0]} is not a synced command here")
        schema = cmd.get("options", [])
        top: list[dict[str, Any]] = []
        leaf = top
        for w in words[1:]:
            opt = next((o for o in schema if o["name"] == w and o["type"] in (1, 2)), None)
            if opt is None:
                raise AssertionError(f"/{command}: no subcommand {w!r}")
            node: dict[str, Any] = {"type": opt["type"], "name": w, "options": []}
            leaf.append(node)
            leaf = node["options"]
            schema = opt.get("options", [])
        if any(o["type"] in (1, 2) for o in schema):
            raise AssertionError(f"/{command} needs a subcommand")
        resolved: dict[str, Any] = {}
        for name, value in values.items():
            opt = next((o for o in schema if o["name"] == name), None)
            if opt is None:
                raise AssertionError(f"/{command} has no option {name!r}")
            t = opt["type"]
            entry: dict[str, Any] = {"type": t, "name": name}
            if t == 6:
                user = value if isinstance(value, User) else self.users[int(value)]
                entry["value"] = str(user.id)
                resolved.setdefault("users", {})[str(user.id)] = user.to_dict()
                g = self.guilds.get(channel.guild_id or 0)
                if g is not None and user.id in g.members:
                    md = g.members[user.id].to_dict(with_permissions=True)
                    md.pop("user")
                    resolved.setdefault("members", {})[str(user.id)] = md
            elif t == 7:  # a channel: Discord sends its id and the channel under resolved.channels
                ch = value if isinstance(value, Channel) else self.channels[int(value)]
                entry["value"] = str(ch.id)
                partial = {k: v for k, v in ch.to_dict().items() if k not in ("last_message_id", "flags")}
                partial["permissions"] = str(MEMBER_PERMISSIONS)
                resolved.setdefault("channels", {})[str(ch.id)] = partial
            else:
                entry["value"] = value
                if t == 3 and name != focused and not (
                    opt.get("min_length", 0) <= len(value) <= opt.get("max_length", 6000)
                ):
                    # Discord's client lets no one type past an option's length limits
                    raise AssertionError(
                        f"/{command} {name}: {len(value)} characters; Discord takes "
                        f"{opt.get('min_length', 0)} to {opt.get('max_length', 6000)}"
                    )
                if opt.get("choices") and name != focused:
                    allowed = [c["value"] for c in opt["choices"]]
                    if value not in allowed:
                        raise AssertionError(f"/{command} {name}={value!r} is not one of {allowed}")
            if name == focused:
                entry["focused"] = True
            leaf.append(entry)
        if focused is None:
            missing = [o["name"] for o in schema if o.get("required") and o["name"] not in values]
            if missing:
                raise AssertionError(f"/{command} is missing required options {missing}")
        data = {"id": cmd["id"], "name": cmd["name"], "type": 1, "options": top}
        if cmd.get("guild_id"):
            data["guild_id"] = cmd["guild_id"]
        if resolved:
            data["resolved"] = resolved
        return data, top, resolved

    async def slash(self, user: User, channel: Channel, command: str, /, **options: Any) -> InteractionRecord:
        """A user runs ``/command [subcommand] option=value ...``; returns at once after dispatch."""
        data, _, _ = self._build_options(command, channel, options, None)
        return await self._interact(2, user, channel, data)

    async def autocomplete(
        self, user: User, channel: Channel, command: str, focused: str, **options: Any
    ) -> InteractionRecord:
        """A user types in the option ``focused`` of ``/command``; await ``.response()`` then ``.choices``."""
        options.setdefault(focused, "")
        data, _, _ = self._build_options(command, channel, options, focused)
        return await self._interact(4, user, channel, data)

    async def click(self, user: User, message: Message, custom_id: str) -> InteractionRecord:
        """A user clicks the button ``custom_id`` on ``message``."""
        comp = self._component(user, message, custom_id, 2)
        return await self._interact(
            3,
            user,
            self.channels[message.channel_id],
            {"custom_id": comp["custom_id"], "component_type": 2},
            message,
        )

    async def select(
        self, user: User, message: Message, custom_id: str, values: list[str]
    ) -> InteractionRecord:
        """A user picks ``values`` in the select menu ``custom_id`` on ``message``."""
        comp = self._component(user, message, custom_id, 3)
        known = [o["value"] for o in comp.get("options", [])]
        for v in values:
            assert v in known, f"{v!r} is not an option of {custom_id}: {known}"
        assert comp.get("min_values", 1) <= len(values) <= comp.get("max_values", 1)
        data = {"custom_id": custom_id, "component_type": 3, "values": values}
        return await self._interact(3, user, self.channels[message.channel_id], data, message)

    def _component(self, user: User, message: Message, custom_id: str, ctype: int) -> dict[str, Any]:
        message = self.messages[message.id]
        assert not message.deleted, "the message was deleted"
        if message.audience is not None:
            assert user.id in message.audience, "this user cannot see that message"
        comp = message.find_component(custom_id)
        assert comp is not None, f"no component {custom_id!r} on the message; has {message.custom_ids()}"
        assert comp["type"] == ctype, f"component {custom_id!r} has type {comp['type']}"
        assert not comp.get("disabled"), f"component {custom_id!r} is disabled"
        return comp

    async def _interact(
        self, itype: int, user: User, channel: Channel, data: dict[str, Any], message: Message | None = None
    ) -> InteractionRecord:
        iid = self.snowflake()
        token = f"itoken-{iid}"
        rec = InteractionRecord(iid, token, itype, user, channel, data, message)
        self.interactions[iid] = rec
        self.interactions_by_token[token] = rec
        payload: dict[str, Any] = {
            "id": str(iid),
            "application_id": str(self.application_id),
            "type": itype,
            "data": data,
            "token": token,
            "version": 1,
            "locale": "en-US",
            "entitlements": [],
            "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
            "app_permissions": str(self._bot_permissions(channel)),
            "channel_id": str(channel.id),
        }
        chan = channel.to_dict()
        if channel.guild_id is not None:
            g = self.guilds[channel.guild_id]
            member = g.members.get(user.id)
            assert member is not None, f"{user.username} is not a member of {g.name}"
            chan["permissions"] = str(member.permissions)
            payload.update(
                guild_id=str(g.id),
                guild={"id": str(g.id), "locale": "en-US", "features": []},
                guild_locale="en-US",
                member=member.to_dict(with_permissions=True),
                authorizing_integration_owners={"0": str(g.id)},
                context=0,
            )
        else:
            payload.update(user=user.to_dict(), authorizing_integration_owners={"1": str(user.id)}, context=1)
        payload["channel"] = chan
        if message is not None:
            payload["message"] = message.to_dict()
        rec.payload = payload
        await self._flush_channel_updates()
        rec.sent_at = time.perf_counter()
        await self.dispatch("INTERACTION_CREATE", payload)
        return rec

    async def redeliver(self, rec: InteractionRecord, *, acknowledged: bool = True) -> InteractionRecord:
        """Dispatch the same interaction (same id and token) once more, as a gateway replay
        would. With ``acknowledged=False`` the emulator forgets the first response, as if it
        had never reached Discord, so the bot may answer again; otherwise a second callback is
        refused with Discord's 40060 "already acknowledged"."""
        if not acknowledged:
            rec.callback_type = rec.callback_data = rec.original = None
            rec.loading = False
            rec.responded = asyncio.Event()
        rec.sent_at = time.perf_counter()
        await self.dispatch("INTERACTION_CREATE", rec.payload)
        return rec

    def _bot_permissions(self, channel: Channel) -> int:
        perms = ALL_PERMISSIONS
        for p in channel.denied:
            perms &= ~PERMISSIONS[p]
        parent = self.channels.get(channel.parent_id or 0)
        if parent is not None:
            for p in parent.denied:
                perms &= ~PERMISSIONS[p]
        return perms

    # ------------------------------------------------------------------ HTTP plumbing

    @web.middleware
    async def _middleware(self, request: web.Request, handler: Any) -> web.StreamResponse:
        if request.path == "/gateway":
            return await handler(request)
        request[ARRIVED] = time.perf_counter()
        rec = Recorded(request.method, request.path, dict(request.query), None)
        route = request.match_info.route.resource
        rec.route = route.canonical if route is not None else None
        self.requests.append(rec)
        try:
            for f in self.faults:
                if f.hits < f.times and f.method == request.method and f.pattern.search(request.path):
                    f.hits += 1
                    return self._fault_response(f, rec)
            for c in self.chaos_faults:
                if (
                    (c.method is None or c.method == request.method)
                    and c.pattern.search(request.path)
                    and c.rng.random() < c.rate
                ):
                    c.hits += 1
                    status, code, message = c.rng.choice(c.errors)
                    return self._fault_response(Fault(request.method, c.pattern, status, 1, 0.01, code, message), rec)
            if rec.route is None or rec.route == "/{tail}":
                rec.status = 404
                self.unknown_routes.append(rec)
                return _json({"message": "404: Not Found", "code": 0}, 404)
            needs_auth = request.path.startswith("/api/") and not _no_auth(request.path)
            if needs_auth and request.headers.get("Authorization") != f"Bot {self.token}":
                rec.status = 401
                return _json({"message": "401: Unauthorized", "code": 0}, 401)
            body, files = await _read_body(request, self.snowflake)
            rec.json, rec.files = body, files
            request[BODY], request[FILES] = body, files
            try:
                if self.openapi is not None and body is not None and request.method in ("POST", "PUT", "PATCH"):
                    errors = self.openapi.errors(request.method, request.path, body)
                    if errors:
                        raise DiscordError(400, 50035, "Invalid Form Body", errors)
                resp = await handler(request)
            except DiscordError as e:
                rec.error_code = e.code
                self.rejected.append(rec)
                if e.code == 50035:
                    self.invalid.append(rec)
                payload: dict[str, Any] = {"message": e.message, "code": e.code}
                if e.errors is not None:
                    payload["errors"] = {
                        str(i): {"_errors": [{"code": "INVALID", "message": msg}]}
                        for i, msg in enumerate(e.errors)
                    }
                resp = _json(payload, e.status)
            rec.status = resp.status
            return resp
        finally:
            await self._notify()

    def _fault_response(self, f: Fault, rec: Recorded) -> web.Response:
        rec.status = f.status
        if f.status == 429:
            return _json(
                {"message": "You are being rate limited.", "retry_after": f.retry_after, "global": False},
                429,
                {
                    "Via": "1.1 google",
                    "Retry-After": str(f.retry_after),
                    "X-RateLimit-Scope": "user",
                },
            )
        return _json({"message": f.message, "code": f.code}, f.status)

    def _add_routes(self) -> None:
        r = self.app.router
        api = "/api/v10"
        r.add_get("/gateway", self._gateway)
        r.add_get("/attachments/{channel}/{file}/{name}", self._get_attachment)
        r.add_get(api + "/gateway", self._get_gateway)
        r.add_get(api + "/gateway/bot", self._get_gateway_bot)
        r.add_get(api + "/users/@me", self._get_me)
        r.add_get(api + "/users/{user}", self._get_user)
        r.add_post(api + "/users/@me/channels", self._create_dm)
        r.add_get(api + "/oauth2/applications/@me", self._get_app)
        r.add_get(api + "/applications/{app}/commands", self._get_commands)
        r.add_put(api + "/applications/{app}/commands", self._put_commands)
        r.add_get(api + "/applications/{app}/guilds/{guild}/commands", self._get_commands)
        r.add_put(api + "/applications/{app}/guilds/{guild}/commands", self._put_commands)
        r.add_get(api + "/guilds/{guild}", self._get_guild)
        r.add_get(api + "/guilds/{guild}/channels", self._get_guild_channels)
        r.add_get(api + "/guilds/{guild}/members/{user}", self._get_member)
        r.add_get(api + "/channels/{channel}", self._get_channel)
        r.add_delete(api + "/channels/{channel}", self._delete_channel)
        r.add_patch(api + "/channels/{channel}", self._patch_channel)
        r.add_post(api + "/channels/{channel}/messages", self._post_message)
        r.add_get(api + "/channels/{channel}/messages", self._get_messages)
        r.add_get(api + "/channels/{channel}/messages/{message}", self._get_message)
        r.add_patch(api + "/channels/{channel}/messages/{message}", self._patch_message)
        r.add_delete(api + "/channels/{channel}/messages/{message}", self._delete_message)
        r.add_post(api + "/channels/{channel}/threads", self._create_thread)
        r.add_post(api + "/channels/{channel}/messages/{message}/threads", self._create_thread)
        r.add_put(api + "/channels/{channel}/thread-members/{user}", self._add_thread_member)
        r.add_delete(api + "/channels/{channel}/thread-members/{user}", self._remove_thread_member)
        r.add_post(api + "/interactions/{interaction}/{token}/callback", self._callback)
        r.add_post(api + "/webhooks/{app}/{token}", self._followup)
        r.add_get(api + "/webhooks/{app}/{token}/messages/{message}", self._get_webhook_message)
        r.add_patch(api + "/webhooks/{app}/{token}/messages/{message}", self._edit_webhook_message)
        r.add_delete(api + "/webhooks/{app}/{token}/messages/{message}", self._delete_webhook_message)
        r.add_route("*", "/{tail:.*}", self._unknown)

    async def _unknown(self, request: web.Request) -> web.Response:  # pragma: no cover - middleware answers
        return _json({"message": "404: Not Found", "code": 0}, 404)

    # ------------------------------------------------------------------ REST: misc

    async def _get_gateway(self, request: web.Request) -> web.Response:
        return _json({"url": self.gateway_url})

    async def _get_gateway_bot(self, request: web.Request) -> web.Response:
        return _json(
            {
                "url": self.gateway_url,
                "shards": self.shards,
                "session_start_limit": {
                    "total": 1000,
                    "remaining": 999,
                    "reset_after": 0,
                    "max_concurrency": 1,
                },
            }
        )

    async def _get_me(self, request: web.Request) -> web.Response:
        return _json(self.bot_user.to_dict())

    async def _get_user(self, request: web.Request) -> web.Response:
        u = self.users.get(_id(request, "user"))
        if u is None:
            raise DiscordError(404, 10013, "Unknown User")
        return _json(u.to_dict())

    async def _get_app(self, request: web.Request) -> web.Response:
        return _json(
            {
                "id": str(self.application_id),
                "name": self.bot_user.username,
                "icon": None,
                "description": "",
                "rpc_origins": [],
                "bot_public": True,
                "bot_require_code_grant": False,
                "bot": self.bot_user.to_dict(),
                "owner": self.owner.to_dict(),
                "team": None,
                "verify_key": "0" * 64,
                "flags": 0,
                "interactions_endpoint_url": None,
                "tags": [],
                "redirect_uris": [],
                "approximate_guild_count": len(self.guilds),
            }
        )

    async def _get_attachment(self, request: web.Request) -> web.Response:
        fid = int(request.match_info["file"])
        for _, f in self.file_bytes():
            if f.id == fid:
                return web.Response(
                    body=f.data, headers={"Content-Type": f.content_type or "application/octet-stream"}
                )
        raise DiscordError(404, 0, "404: Not Found")

    # ------------------------------------------------------------------ REST: commands

    async def _get_commands(self, request: web.Request) -> web.Response:
        self._check_app(request)
        if "guild" in request.match_info:
            return _json(self.guild_commands.get(_id(request, "guild"), []))
        return _json(self.global_commands)

    async def _put_commands(self, request: web.Request) -> web.Response:
        self._check_app(request)
        body = request[BODY]
        errors = validate_commands(body)
        if errors:
            raise DiscordError(400, 50035, "Invalid Form Body", errors)
        guild_id = _id(request, "guild") if "guild" in request.match_info else None
        old = self.guild_commands.get(guild_id, []) if guild_id else self.global_commands
        old_ids = {(c["name"], c.get("type", 1)): c["id"] for c in old}
        out = []
        for c in body:
            cmd = dict(c)
            cmd.setdefault("type", 1)
            cmd["id"] = old_ids.get((cmd["name"], cmd["type"])) or str(self.snowflake())
            cmd["application_id"] = str(self.application_id)
            cmd["version"] = str(self.snowflake())
            cmd.setdefault("description", "")
            cmd.setdefault("default_member_permissions", None)
            cmd.setdefault("nsfw", False)
            if guild_id:
                cmd["guild_id"] = str(guild_id)
            out.append(cmd)
        if guild_id:
            self.guild_commands[guild_id] = out
        else:
            self.global_commands = out
        return _json(out)

    def _check_app(self, request: web.Request) -> None:
        if _id(request, "app") != self.application_id:
            raise DiscordError(403, 50001, "Missing Access")

    # ------------------------------------------------------------------ REST: guilds, channels, messages

    def _guild(self, request: web.Request) -> Guild:
        g = self.guilds.get(_id(request, "guild"))
        if g is None:
            raise DiscordError(404, 10004, "Unknown Guild")
        return g

    def _channel(self, request: web.Request) -> Channel:
        c = self.channels.get(_id(request, "channel"))
        if c is None:
            raise DiscordError(404, 10003, "Unknown Channel")
        return c

    def _message(self, request: web.Request, channel: Channel) -> Message:
        m = self.messages.get(_id(request, "message"))
        if m is None or m.deleted or m.channel_id != channel.id:
            raise DiscordError(404, 10008, "Unknown Message")
        return m

    async def _get_guild(self, request: web.Request) -> web.Response:
        d = self._guild(request).to_dict()
        for k in ("members", "channels", "threads", "presences", "voice_states"):
            d.pop(k)
        return _json(d)

    async def _get_guild_channels(self, request: web.Request) -> web.Response:
        g = self._guild(request)
        return _json([c.to_dict() for c in g.channels.values() if not c.is_thread])

    async def _get_member(self, request: web.Request) -> web.Response:
        m = self._guild(request).members.get(_id(request, "user"))
        if m is None:
            raise DiscordError(404, 10007, "Unknown Member")
        return _json(m.to_dict())

    async def _get_channel(self, request: web.Request) -> web.Response:
        return _json(self._channel(request).to_dict())

    async def _delete_channel(self, request: web.Request) -> web.Response:
        ch = self._channel(request)
        self._require(ch, "manage_threads" if ch.is_thread else "manage_channels")
        self.channels.pop(ch.id)
        if ch.guild_id is not None:
            self.guilds[ch.guild_id].channels.pop(ch.id, None)
        return _json(ch.to_dict())

    async def _patch_channel(self, request: web.Request) -> web.Response:
        """Only a thread's ``archived`` and ``locked`` (what the bot changes)."""
        ch = self._channel(request)
        body = request[BODY] or {}
        if not ch.is_thread or set(body) - {"archived", "locked", "auto_archive_duration"}:
            raise DiscordError(400, 50035, "Invalid Form Body: the emulator edits a thread's archived/locked only")
        perms = self._bot_permissions(ch)
        may_manage = bool(perms & PERMISSIONS["manage_threads"])
        if "locked" in body and bool(body["locked"]) != ch.locked and not may_manage:
            raise DiscordError(403, 50013, "Missing Permissions")
        if body.get("archived") is False and ch.archived and ch.locked and not may_manage:
            raise DiscordError(403, 50013, "Missing Permissions")
        if "archived" in body:
            ch.archived = bool(body["archived"])
        if "locked" in body:
            ch.locked = bool(body["locked"])
        d = ch.to_dict()
        if self._sessions:
            await self.dispatch("THREAD_UPDATE", d)
        return _json(d)

    async def _create_dm(self, request: web.Request) -> web.Response:
        uid = int(request[BODY]["recipient_id"])
        user = self.users.get(uid)
        if user is None:
            raise DiscordError(400, 50035, "Invalid Form Body")
        ch = self.dm_channels.get(uid)
        if ch is None:
            ch = Channel(self.snowflake(), 1, recipient=user)
            self.dm_channels[uid] = ch
            self.channels[ch.id] = ch
        return _json(ch.to_dict())

    def _require(self, channel: Channel, *perms: str) -> None:
        missing = [p for p in perms if not self._bot_permissions(channel) & PERMISSIONS[p]]
        if missing:
            raise DiscordError(403, 50013, "Missing Permissions")

    async def _post_message(self, request: web.Request) -> web.Response:
        ch = self._channel(request)
        if ch.type == 1:
            assert ch.recipient is not None
            if ch.recipient.id in self.closed_dms:
                raise DiscordError(403, 50007, "Cannot send messages to this user")
            audience: frozenset[int] | None = frozenset({ch.recipient.id})
        else:
            self._require(ch, "view_channel", "send_messages_in_threads" if ch.is_thread else "send_messages")
            if ch.locked and not self._bot_permissions(ch) & PERMISSIONS["manage_threads"]:
                raise DiscordError(403, 160005, "Thread is locked")
            if ch.archived:
                raise DiscordError(400, 50083, "Operation cannot be performed on an archived thread.")
            if request[FILES]:
                self._require(ch, "attach_files")
            # a private thread is seen by its members (and by members who may manage
            # threads, which the emulator's users never are)
            audience = frozenset(ch.thread_members - {self.bot_user.id}) if ch.type == 12 else None
        body = request[BODY] or {}
        if body.get("flags", 0) & Message.EPHEMERAL:
            raise DiscordError(400, 50035, "Invalid Form Body: ephemeral only in interaction responses")
        nonce = body.get("nonce")
        seen = self._nonces.setdefault(ch.id, {})
        if nonce is not None and body.get("enforce_nonce") and str(nonce) in seen:
            # Discord answers the message already created with this nonce (recently, same author)
            earlier = self.messages.get(seen[str(nonce)])
            if earlier is not None and not earlier.deleted:
                return _json(earlier.to_dict())
        m = self._new_message(ch, self.bot_user, body, request[FILES], audience=audience, new=True)
        if nonce is not None:
            seen[str(nonce)] = m.id
            while len(seen) > NONCE_WINDOW:
                seen.pop(next(iter(seen)))
        return _json(m.to_dict())

    async def _get_messages(self, request: web.Request) -> web.Response:
        ch = self._channel(request)
        limit = int(request.query.get("limit", 50))
        msgs = [m for m in self.channel_messages(ch) if m.audience is None or ch.type == 1]
        return _json([m.to_dict() for m in reversed(msgs)][:limit])

    async def _get_message(self, request: web.Request) -> web.Response:
        ch = self._channel(request)
        return _json(self._message(request, ch).to_dict())

    async def _patch_message(self, request: web.Request) -> web.Response:
        ch = self._channel(request)
        m = self._message(request, ch)
        if m.author.id != self.bot_user.id or m.ephemeral:
            raise DiscordError(403, 50005, "Cannot edit a message authored by another user")
        self._edit(m, request[BODY] or {}, request[FILES])
        return _json(m.to_dict())

    async def _delete_message(self, request: web.Request) -> web.Response:
        ch = self._channel(request)
        m = self._message(request, ch)
        m.deleted = True
        return web.Response(status=204)

    async def _create_thread(self, request: web.Request) -> web.Response:
        parent = self._channel(request)
        body = request[BODY] or {}
        if parent.is_thread or parent.type != 0:
            raise DiscordError(400, 50024, "Cannot execute action on this channel type")
        ttype = 11 if "message" in request.match_info else int(body.get("type") or 12)
        self._require(parent, "create_public_threads" if ttype == 11 else "create_private_threads")
        name = str(body.get("name", ""))
        if not 1 <= len(name) <= 100:
            raise DiscordError(400, 50035, "Invalid Form Body: thread name must be 1-100 characters")
        tid = _id(request, "message") if "message" in request.match_info else self.snowflake()
        t = Channel(tid, ttype, name=name, guild_id=parent.guild_id, parent_id=parent.id)
        t.owner_id = self.bot_user.id
        t.thread_members.add(self.bot_user.id)
        self.channels[t.id] = t
        assert parent.guild_id is not None
        self.guilds[parent.guild_id].channels[t.id] = t
        d = t.to_dict()
        if self._sessions:
            await self.dispatch("THREAD_CREATE", {**d, "newly_created": True})
        return _json(d)

    async def _add_thread_member(self, request: web.Request) -> web.Response:
        t = self._channel(request)
        uid = self.bot_user.id if request.match_info["user"] == "@me" else _id(request, "user")
        t.thread_members.add(uid)
        return web.Response(status=204)

    async def _remove_thread_member(self, request: web.Request) -> web.Response:
        t = self._channel(request)
        uid = self.bot_user.id if request.match_info["user"] == "@me" else _id(request, "user")
        t.thread_members.discard(uid)
        return web.Response(status=204)

    # ------------------------------------------------------------------ REST: interactions and webhooks

    def _interaction(self, request: web.Request) -> InteractionRecord:
        rec = self.interactions_by_token.get(request.match_info["token"])
        if rec is None:
            raise DiscordError(404, 10015, "Unknown Webhook")
        return rec

    async def _callback(self, request: web.Request) -> web.Response:
        rec = self.interactions.get(_id(request, "interaction"))
        if rec is None or rec.token != request.match_info["token"]:
            raise DiscordError(404, 10062, "Unknown interaction")
        if rec.callback_type is not None:
            raise DiscordError(400, 40060, "Interaction has already been acknowledged.")
        arrived = request[ARRIVED]
        if arrived - rec.sent_at > self.response_deadline:
            self.late.append(rec)
            raise DiscordError(404, 10062, "Unknown interaction")
        body = request[BODY] or {}
        ctype = int(body.get("type", 0))
        data = body.get("data") or {}
        allowed = {2: (4, 5, 9), 3: (4, 5, 6, 7, 9), 4: (8,)}[rec.type]
        if ctype not in allowed:
            raise DiscordError(400, 40043, f"Interaction response type {ctype} is not valid here")
        resource: dict[str, Any] = {"type": ctype}
        info: dict[str, Any] = {"id": str(rec.id), "type": rec.type}
        if ctype == 4:
            m = self._interaction_message(rec, data, request[FILES], data.get("flags", 0), new=True)
            rec.original = m
            resource["message"] = m.to_dict()
        elif ctype == 5:
            flags = (data.get("flags", 0) & Message.EPHEMERAL) | Message.LOADING
            m = self._interaction_message(rec, {}, [], flags)
            rec.original, rec.loading = m, True
            resource["message"] = m.to_dict()
            info["response_message_loading"] = True
        elif ctype in (6, 7):
            assert rec.message is not None
            rec.original = self.messages[rec.message.id]
            if ctype == 7:
                self._edit(rec.original, data, request[FILES])
                resource["message"] = rec.original.to_dict()
        elif ctype == 8:
            errors = validate_choices(data.get("choices", []))
            if errors:
                raise DiscordError(400, 50035, "Invalid Form Body", errors)
        if rec.original is not None:
            info["response_message_id"] = str(rec.original.id)
            info["response_message_ephemeral"] = rec.original.ephemeral
        rec.callback_type, rec.callback_data = ctype, data
        rec.responded_at = arrived
        rec.responded.set()
        return _json({"interaction": info, "resource": resource})

    def _interaction_message(
        self, rec: InteractionRecord, data: dict[str, Any], files: list[StoredFile], flags: int, new: bool = False
    ) -> Message:
        audience = frozenset({rec.user.id}) if flags & Message.EPHEMERAL else None
        if rec.channel.type == 1:
            audience = frozenset({rec.user.id})
        m = self._new_message(
            rec.channel, self.bot_user, {**data, "flags": flags}, files, audience=audience, interaction=rec, new=new
        )
        return m

    async def _followup(self, request: web.Request) -> web.Response:
        rec = self._interaction(request)
        if rec.callback_type is None:
            raise DiscordError(404, 10015, "Unknown Webhook")
        body = request[BODY] or {}
        if rec.loading and rec.original is not None:
            # Discord turns the deferred "thinking" message into the first followup; it keeps the
            # visibility chosen when deferring.
            m = rec.original
            check_message(body, request[FILES], new=True)
            self._edit(m, {k: v for k, v in body.items() if k != "flags"}, request[FILES])
            m.flags &= ~Message.LOADING
            rec.loading = False
        else:
            m = self._interaction_message(rec, body, request[FILES], body.get("flags", 0), new=True)
        rec.followups.append(m)
        rec.followup_times.append(request[ARRIVED])
        return _json(m.to_dict())

    def _webhook_message(self, request: web.Request, rec: InteractionRecord) -> Message:
        key = request.match_info["message"]
        if key == "@original":
            if rec.original is None:
                raise DiscordError(404, 10008, "Unknown Message")
            return rec.original
        m = self.messages.get(int(key))
        if m is None or m.deleted or m.interaction_id != rec.id:
            raise DiscordError(404, 10008, "Unknown Message")
        return m

    async def _get_webhook_message(self, request: web.Request) -> web.Response:
        rec = self._interaction(request)
        return _json(self._webhook_message(request, rec).to_dict())

    async def _edit_webhook_message(self, request: web.Request) -> web.Response:
        rec = self._interaction(request)
        m = self._webhook_message(request, rec)
        body = dict(request[BODY] or {})
        body.pop("flags", None)
        self._edit(m, body, request[FILES])
        if m is rec.original and rec.loading:
            m.flags &= ~Message.LOADING
            rec.loading = False
            rec.followup_times.append(request[ARRIVED])
        return _json(m.to_dict())

    async def _delete_webhook_message(self, request: web.Request) -> web.Response:
        rec = self._interaction(request)
        m = self._webhook_message(request, rec)
        m.deleted = True
        if m is rec.original and rec.loading:
            # deleting a deferred response ends its "thinking": a later followup is a message
            # of its own, with its own visibility
            rec.loading = False
        return web.Response(status=204)

    # ------------------------------------------------------------------ message bodies

    def _new_message(
        self,
        channel: Channel,
        author: User,
        body: dict[str, Any],
        files: list[StoredFile],
        *,
        audience: frozenset[int] | None,
        interaction: InteractionRecord | None = None,
        new: bool = False,
    ) -> Message:
        check_message(body, files, new=new)
        m = Message(
            id=self.snowflake(),
            channel_id=channel.id,
            guild_id=channel.guild_id,
            author=author,
            content=str(body.get("content") or ""),
            embeds=list(body.get("embeds") or []),
            components=list(body.get("components") or []),
            files=list(files),
            flags=int(body.get("flags") or 0),
            audience=audience,
            webhook_id=self.application_id if interaction else None,
            interaction_id=interaction.id if interaction else None,
            interaction_user=interaction.user if interaction else None,
            allowed_mentions=body.get("allowed_mentions"),
            base_url=self.base_url,
        )
        self.messages[m.id] = m
        for uid in audience or ():
            self._private.setdefault(uid, []).append(m)
        channel.message_count += 1
        channel.last_message_id = m.id
        return m

    def _edit(self, m: Message, body: dict[str, Any], files: list[StoredFile]) -> None:
        check_message(body, files)
        if "content" in body:
            m.content = str(body["content"] or "")
        if "embeds" in body:
            m.embeds = list(body["embeds"] or [])
        if "components" in body:
            m.components = list(body["components"] or [])
        if "allowed_mentions" in body:
            m.allowed_mentions = body["allowed_mentions"]
        if "attachments" in body or files:
            keep = {str(a.get("id")) for a in body.get("attachments") or []}
            m.files = [f for f in m.files if str(f.id) in keep] + list(files)
        m.edits += 1


# ---------------------------------------------------------------------- helpers


def _json(data: Any, status: int = 200, headers: dict[str, str] | None = None) -> web.Response:
    h = {"Content-Type": "application/json"}
    h.update(headers or {})
    return web.Response(body=json.dumps(data).encode(), status=status, headers=h)


def _id(request: web.Request, key: str) -> int:
    try:
        return int(request.match_info[key])
    except ValueError:
        raise DiscordError(404, 0, "404: Not Found") from None


def _no_auth(path: str) -> bool:
    return path.startswith("/api/v10/webhooks/") or path.startswith("/api/v10/interactions/")


async def _read_body(request: web.Request, new_id: Callable[[], int]) -> tuple[Any, list[StoredFile]]:
    ctype = request.headers.get("Content-Type", "")
    if ctype.startswith("multipart/form-data"):
        body: Any = None
        files: list[StoredFile] = []
        reader = await request.multipart()
        async for part in reader:
            data = await part.read()  # type: ignore[union-attr]
            if part.name == "payload_json":  # type: ignore[union-attr]
                body = json.loads(data)
            else:
                files.append(
                    StoredFile(
                        new_id(),
                        part.filename or "file",  # type: ignore[union-attr]
                        part.headers.get("Content-Type"),  # type: ignore[union-attr]
                        bytes(data),
                    )
                )
        return body, files
    if request.can_read_body:
        raw = await request.read()
        if raw and ctype == "application/json":
            return json.loads(raw), []
    return None, []


NAME_RE = re.compile(r"^[-_\w]{1,32}$")


def validate_commands(commands: list[dict[str, Any]]) -> list[str]:
    """Discord's checks on a bulk command overwrite; returns what is wrong (empty when valid)."""
    errors: list[str] = []
    chat = [c for c in commands if c.get("type", 1) == 1]
    if len(chat) > 100:
        errors.append(f"{len(chat)} chat input commands; at most 100")
    names = [c["name"] for c in chat]
    if len(set(names)) != len(names):
        errors.append("duplicate command names")

    def check_named(obj: dict[str, Any], where: str) -> None:
        name = obj.get("name", "")
        if not NAME_RE.match(name) or name != name.lower():
            errors.append(f"{where}: invalid name {name!r}")
        desc = obj.get("description", "")
        if not 1 <= len(desc) <= 100:
            errors.append(f"{where}: description must be 1-100 characters ({len(desc)})")

    def check_options(options: list[dict[str, Any]], where: str, depth: int) -> None:
        if len(options) > 25:
            errors.append(f"{where}: {len(options)} options; at most 25")
        seen_optional = False
        for o in options:
            w = f"{where} {o.get('name')}"
            check_named(o, w)
            if o["type"] in (1, 2):
                if depth >= 2 or (o["type"] == 2 and depth >= 1):
                    errors.append(f"{w}: subcommands nested too deep")
                check_options(o.get("options", []), w, depth + 1)
                continue
            if o.get("required"):
                if seen_optional:
                    errors.append(f"{w}: required option after an optional one")
            else:
                seen_optional = True
            choices = o.get("choices") or []
            if len(choices) > 25:
                errors.append(f"{w}: {len(choices)} choices; at most 25")
            if choices and o.get("autocomplete"):
                errors.append(f"{w}: choices and autocomplete together")
            for c in choices:
                if not 1 <= len(c["name"]) <= 100:
                    errors.append(f"{w}: choice name {c['name']!r} over 100 characters")

    for c in chat:
        check_named(c, f"/{c.get('name')}")
        check_options(c.get("options", []), f"/{c.get('name')}", 0)
    return errors


def validate_choices(choices: list[dict[str, Any]]) -> list[str]:
    errors = []
    if len(choices) > 25:
        errors.append(f"{len(choices)} choices; at most 25")
    for c in choices:
        if not 1 <= len(str(c.get("name", ""))) <= 100:
            errors.append(f"choice name {c.get('name')!r} must be 1-100 characters")
        if isinstance(c.get("value"), str) and len(c["value"]) > 100:
            errors.append(f"choice value {c['value']!r} over 100 characters")
    return errors


def check_message(body: dict[str, Any], files: list[StoredFile], *, new: bool = False) -> None:
    """Discord's limits on a message body beyond its OpenAPI description; raises
    ``DiscordError`` as Discord would.

    ``new``: the body creates a message, which must hold something (content, an embed, a
    component, a file, a sticker or a poll), else 50006 "Cannot send an empty message".
    Stricter than the description: content at most 2,000 characters (it says 4,000 for a
    channel post), at most 6,000 characters over all embeds, a custom id once per message.
    """
    errors: list[str] = []
    if new and not (
        str(body.get("content") or "").strip()
        or body.get("embeds")
        or body.get("components")
        or files
        or body.get("sticker_ids")
        or body.get("poll")
    ):
        raise DiscordError(400, 50006, "Cannot send an empty message")
    if len(str(body.get("content") or "")) > 2000:
        errors.append("content over 2000 characters")
    embeds = body.get("embeds") or []
    if len(embeds) > 10:
        errors.append("more than 10 embeds")
    total = 0
    for e in embeds:
        title, desc = e.get("title", "") or "", e.get("description", "") or ""
        if len(title) > 256:
            errors.append("embed title over 256")
        if len(desc) > 4096:
            errors.append("embed description over 4096")
        fields = e.get("fields", []) or []
        if len(fields) > 25:
            errors.append("more than 25 embed fields")
        total += len(title) + len(desc)
        for f in fields:
            if not 1 <= len(f.get("name", "")) <= 256:
                errors.append("embed field name must be 1-256")
            if not 1 <= len(f.get("value", "")) <= 1024:
                errors.append("embed field value must be 1-1024")
            total += len(f.get("name", "")) + len(f.get("value", ""))
        footer = (e.get("footer") or {}).get("text", "")
        if len(footer) > 2048:
            errors.append("embed footer over 2048")
        total += len(footer) + len((e.get("author") or {}).get("name", ""))
    if total > 6000:
        errors.append("embeds over 6000 characters in total")
    components = body.get("components") or []
    if len(components) > 5:
        errors.append("more than 5 action rows")
    ids = [c.get("custom_id") for row in components for c in row.get("components", []) if c.get("custom_id")]
    if len(set(ids)) != len(ids):
        errors.append("a custom_id is used twice in one message")
    for row in components:
        items = row.get("components", [])
        if row.get("type") != 1 or not 1 <= len(items) <= 5:
            errors.append("an action row holds 1-5 components")
        for c in items:
            if "custom_id" in c and not 1 <= len(c["custom_id"]) <= 100:
                errors.append("custom_id must be 1-100 characters")
            if c.get("type") == 2 and len(c.get("label", "") or "") > 80:
                errors.append("button label over 80")
            if c.get("type") == 3:
                if len(items) != 1:
                    errors.append("a select menu takes a whole row")
                opts = c.get("options", [])
                if not 1 <= len(opts) <= 25:
                    errors.append("a select menu holds 1-25 options")
                for o in opts:
                    if len(o.get("label", "")) > 100 or len(o.get("value", "")) > 100:
                        errors.append("select option label/value over 100")
    if len(files) > 10:
        errors.append("more than 10 attachments")
    if errors:
        raise DiscordError(400, 50035, "Invalid Form Body", errors)
    if sum(len(f.data) for f in files) > ATTACHMENT_SIZE_LIMIT:
        raise DiscordError(413, 40005, "Request entity too large")
