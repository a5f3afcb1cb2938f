"""Turning the host's plain ``Reply`` objects into Discord messages.

Who sees what:

- the public part (``text``, ``embed``, the board image) goes to the game's channel, pinging
  only the humans who must act now, chose pings (``/game prefs notify:thread``) and were not
  pinged for the same question already, never the player who just acted; the board image only
  when the public board changed (``ImageRequest.board_key``), the text alone otherwise;
- each ``PrivatePart`` goes to its user alone: an ephemeral followup when that user is the one
  who interacted (and their private home is brought up to date in place, without a
  notification), otherwise to their private home for the game (``homes``: a private thread, or
  direct messages), where the live prompt is edited in place while its question stays open; when
  their DMs are closed, a short public notice (with nothing private in it) tells them to use
  ``/game hand``;
- a seat's choices (buttons, select menu) are only ever sent privately, since they can reveal a
  hand;
- an ``ephemeral`` reply (hand, log, errors...) goes to the caller alone;
- followers get the public text and board by DM every move, turn or round, as they chose.

Keeping the channel quiet: a turn update (after an action, a closed response window) is one
message with what happened, who must act now and the board image; the status embed (seats,
seed commitment) is left to ``/game status`` and the lobby. The AI seats' steps that follow a
human action come in that same message. The closed-DM notice is posted once per game and player.

Rendering happens after deferring, in a worker process (``render.pool``), so the 3-second deadline of the first
response is never at risk.

Delivery after a commit: a change that is stored (a move, a closed window, a lobby change) is
never reported as not stored. Its public message (what happened, who must act with their ping)
is first written to the database's ``outbox`` table, then sent; a Discord error does not reach
the player as an apology but picks a fallback, and what still fails is retried later by a
background task (``run``), also after a restart:

- the interaction's followup is gone (404 / 10015 "Unknown Webhook", an expired token): the
  update is posted in the game's channel instead;
- the upload is too large (413 / 40005): the board goes as a JPEG, then half size, then not at
  all, and the message says so;
- the game's thread is archived (400 / 50083): the bot unarchives it and posts;
- no permission to attach files (403): the update goes without its image, saying so;
- no permission to post, or the thread is locked (403 / 50013, 160005): the player who acted is
  told privately, with the true reason, and delivery is retried rarely until the channel takes
  posts again; meanwhile the game refuses moves (``cannot_post``) before applying them;
- rate limits and Discord's own failures (429, 5xx, network): retried with a growing delay.

A channel post carries an enforced nonce made from the outbox id, so a retry after a lost answer
or a restart never posts the same update twice. Private parts that fail for any reason other
than closed DMs (403 / 50007) are stored and retried the same way, as a new direct message.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import io
import logging
import re
import threading
import time
import weakref
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

import aiohttp
import discord

from bot.host.replies import Embed, ImageRequest, PrivatePart, PromptInfo, Reply, parse_token
from render.pool import RenderPool

from . import components
from .background import Background
from .copies import EphemeralCopies
from .homes import GAME_OVER, SUPERSEDED, Homes, display_name
from .tree import send_private as send_private_text

if TYPE_CHECKING:
    from .client import TabulaBot

log = logging.getLogger("tabula.discord")

EMBED_COLOUR = 0x8C5A2B
DM_CLOSED = 50007
DM_RETRY_SECONDS = 24 * 3600.0  # how long DMs found closed are not tried again
FALLBACK_NOTICE = (
    "{mentions}: I could not send you a direct message. Use `/game hand` here to see your hand and choices."
)
CHANGED_FILE = "changed.png"
CHANGED_CAPTION = "Where the map changed (the whole board is attached):"
NO_FILES_NOTE = "(No board image: I am not allowed to attach files here. `/game status` shows it.)"
CANNOT_POST = (
    "Your action was applied and is stored, but {reason}, so the others were not told yet; "
    "I will post the update there as soon as I can. What happened:\n{text}"
)
NO_PERMISSION = (
    "I am not allowed to send messages in <#{channel}> (a server admin should give me the "
    "Send Messages permission there)"
)
THREAD_LOCKED = "the game's thread <#{channel}> is locked (a moderator can unlock it)"
IMAGE_SMALLER_NOTE = "(The board image was too large for Discord; this one is smaller. `/game status` shows it.)"
IMAGE_DROPPED_NOTE = "(The board image was too large for Discord to take. `/game status` shows the board.)"
IMAGE_LATER_NOTE = "(`/game status` shows the board.)"
LOG_HINT = "see `/game log`"

# Delivery timing (seconds): a message being sent now is leased for LEASE before the background
# task may pick it up; retries wait RETRY_BASE * 2**attempts, at most RETRY_CAP (CLOSED_* for a
# channel that refuses the bot's posts), and stop after GIVE_UP_AFTER attempts.
LEASE = 60.0
#: Discord's upload limit for a server without boosts (bytes); a replay page is made to fit the
#: channel's server's limit less this margin for the request around it.
UPLOAD_LIMIT = 10 * 1024 * 1024
UPLOAD_MARGIN = 256 * 1024
RETRY_BASE = 1.0
RETRY_CAP = 300.0
CLOSED_BASE = 60.0
CLOSED_CAP = 3600.0
GIVE_UP_AFTER = 40
KEEP_DONE = 7 * 86400.0  # delivered messages are kept a week (for ``tabula db`` inspection), then pruned


def to_embed(e: Embed | None) -> discord.Embed | None:
    """A discord.py embed from the host's embed data, cut to Discord's limits."""
    if e is None:
        return None
    embed = discord.Embed(title=e.title[:256], description=e.description[:4096] or None, colour=EMBED_COLOUR)
    for f in e.fields[:25]:
        embed.add_field(name=(f.name or "\u200b")[:256], value=(f.value or "\u200b")[:1024], inline=f.inline)
    if e.footer:
        embed.set_footer(text=e.footer[:2048])
    while len(embed) > 6000 and embed.fields:
        embed.remove_field(-1)
    return embed


def cut(text: str, limit: int = 2000) -> str:
    """``text`` within ``limit`` characters: cut at the last line break that fits (or at the
    limit when a single line is longer), ending with "…"."""
    if len(text) <= limit:
        return text
    head = text[: limit - 1]
    at = head.rfind("\n")
    if at >= limit // 2:
        head = head[:at]
    return head + "…"


def split_lines(text: str, limit: int = 2000, most: int = 5) -> list[str]:
    """``text`` as at most ``most`` messages of at most ``limit`` characters each, split at
    line breaks (a longer single line is cut); the last one is cut with "…" if still too long."""
    out: list[str] = []
    current = ""
    for line in text.split("\n"):
        while len(line) > limit:
            line = line[: limit - 1] + "…"
        candidate = f"{current}\n{line}" if current else line
        if len(candidate) <= limit:
            current = candidate
            continue
        out.append(current)
        current = line
    out.append(current)
    if len(out) > most:
        out = [*out[: most - 1], cut("\n".join(out[most - 1 :]), limit)]
    return out


async def send_pages(interaction: discord.Interaction, text: str, *, most: int = 3, more: str = "") -> None:
    """Answer a long help ``text`` privately as up to ``most`` messages of Discord's 2000
    characters, split at line breaks; when it needs more, the last message ends with
    ``more`` (a pointer to where the rest is read) after "…"."""
    chunks = split_lines(text, most=10_000)
    if len(chunks) > most:
        tail = f"\n… {more}" if more else "\n…"
        chunks = [*chunks[: most - 1], cut(chunks[most - 1], 2000 - len(tail)) + tail]
    for i, chunk in enumerate(chunks):
        if i == 0 and not interaction.response.is_done():
            await interaction.response.send_message(chunk, ephemeral=True, allowed_mentions=discord.AllowedMentions.none())
        else:
            await interaction.followup.send(chunk, ephemeral=True, allowed_mentions=discord.AllowedMentions.none())


NOW_OR_END = re.compile(r"^(\*\*Now\*\*|Now: |Game over|The game was abandoned)")


def fit(text: str, limit: int = 2000) -> str:
    """A public update within ``limit`` characters that keeps the lines that matter.

    The lines from the "Now" block (who must act, with their pings) or the game's end (winner
    and seed) to the end are kept whole; the lines before them (what happened, often a long
    run of AI moves) keep as many first lines as fit, then one line says how many more there
    were and that ``/game log`` has them. Cuts fall at line boundaries."""
    if len(text) <= limit:
        return text
    lines = text.split("\n")
    at = next((i for i, line in enumerate(lines) if NOW_OR_END.match(line)), len(lines))
    head, tail = lines[:at], lines[at:]
    tail_text = "\n".join(tail)
    if len(tail_text) > limit - 60:
        return cut(tail_text, limit)
    kept: list[str] = []
    for i, line in enumerate(head):
        more = len(head) - i
        note = f"… {more} more line{'s' if more != 1 else ''}: {LOG_HINT}"
        used = sum(len(x) + 1 for x in kept)
        if used + len(line) + 1 + len(note) + 1 + len(tail_text) > limit:
            kept.append(note)
            break
        kept.append(line)
    return "\n".join([*kept, *tail])


def mention_line(user_ids: Iterable[int]) -> str:
    return " ".join(f"<@{u}>" for u in user_ids)


def split_now(line: str, prompts: Sequence[PromptInfo]) -> list[tuple[str, PromptInfo]] | None:
    """Read the host's ``Now: <who>: <prompt>; <who>: <prompt>`` line back into (who, prompt)
    pairs, using the prompts' own texts to find where each part ends; None if it does not fit."""
    rest = line[len("Now: ") :]
    out = []
    for p in prompts:
        text = p.shown or p.text
        idx = rest.find(f": {text}")
        if idx <= 0:
            return None
        out.append((rest[:idx], p))
        rest = rest[idx + 2 + len(text) :].removeprefix("; ")
    return out if not rest.strip() else None


def now_lines(line: str, prompts: Sequence[PromptInfo]) -> list[str]:
    """The host's "Now: ..." line, one seat per line (easier to read on a phone), with a
    response window's deadline as a Discord timestamp (shown in each reader's time zone)."""
    parts = split_now(line, prompts)
    if parts is None:
        return [line]

    def one(who: str, p: PromptInfo) -> str:
        text = (p.shown or p.text).rstrip()
        if p.deadline is not None:
            text = f"{text.rstrip('.')} (closes <t:{int(p.deadline)}:R>)"
        return f"{who}: {text}"

    if len(parts) == 1:
        return [f"**Now** {one(*parts[0])}"]
    return ["**Now**", *(f"- {one(who, p)}" for who, p in parts)]


def public_text(reply: Reply) -> str:
    """The public text of a reply: the host's lines, its "Now: ..." line rewritten one seat per
    line, and a mention of each player who must act and is not named yet."""
    lines = reply.text.split("\n") if reply.text else []
    if reply.prompts:
        for i in range(len(lines) - 1, -1, -1):
            if lines[i].startswith("Now: "):
                lines[i : i + 1] = now_lines(lines[i], reply.prompts)
                break
    text = "\n".join(lines)
    missing = [u for u in reply.mentions if f"<@{u}>" not in text]
    if missing:
        text = f"{text}\n{mention_line(missing)}" if text else mention_line(missing)
    return text


def release(view: discord.ui.View | None) -> None:
    """Drop a sent view from discord.py's view store: clicks are routed by custom id
    (``TabulaBot.on_interaction``), so keeping every posted view in memory would only leak."""
    if view is not None:
        view.stop()


def dedupe_lines(texts: Iterable[str]) -> str:
    seen: list[str] = []
    for t in texts:
        for line in (t or "").split("\n"):
            if line and line not in seen:
                seen.append(line)
    return "\n".join(seen)


RENDER_THREADS = 2
_RENDER_POOL: concurrent.futures.ThreadPoolExecutor | None = None
_BOARDS: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, RenderPool] = weakref.WeakKeyDictionary()


def _render_pool() -> concurrent.futures.ThreadPoolExecutor:
    """A small pool of threads for the light image work of the bot (a JPEG for an upload
    Discord refused); board images are drawn in worker processes (``board_pool``)."""
    global _RENDER_POOL
    if _RENDER_POOL is None:
        _RENDER_POOL = concurrent.futures.ThreadPoolExecutor(
            max_workers=RENDER_THREADS, thread_name_prefix="tabula-render"
        )
    return _RENDER_POOL


def board_pool() -> RenderPool:
    """The board image pool of the running event loop (``render.pool``; its worker
    processes, one per core, are shared by the whole process): back-pressure, coalescing of a game's waiting public boards and one drawing per distinct
    view."""
    loop = asyncio.get_running_loop()
    if loop not in _BOARDS:
        _BOARDS[loop] = RenderPool()
    return _BOARDS[loop]


async def render_png(
    image: ImageRequest | None,
    audience: int | None = None,
    names: dict[int, str] | None = None,
    *,
    hand: bool = False,
) -> bytes | None:
    """The PNG of a board image request, drawn in a worker process; None if it fails.
    ``names`` maps seats to the players' display names written on the board. With ``hand``,
    a seat's hand alone in large text (``render.phone``; its board when the View shows no hand).

    Boards waiting to be drawn are coalesced: when a newer board for the same readers is
    already waiting, the older one is not drawn and this returns the newer one. The readers
    are the game's channel for a public board (a View whose ``viewer`` is None) and, for a
    seat's own view, the seat as seen by the user ``audience`` (the one it is sent to); a
    seat's view without an ``audience`` is never coalesced."""
    if image is None or image.view is None:
        return None
    try:
        viewer = getattr(image.view, "viewer", 0)
        kind = "hand" if hand else "seat"
        if viewer is None:
            slot: tuple[Any, ...] | None = ("public" if not hand else "public hand", image.session_id)
        elif audience is not None:
            slot = (kind, image.session_id, viewer, audience)
        else:
            slot = None
        if hand:
            return await board_pool().hand_png(image.view, names or None, slot=slot)
        return await board_pool().png(image.view, names or None, slot=slot)
    except Exception:
        log.exception("rendering %s session %s failed", image.game_id, image.session_id)
        return None


async def render_changed_png(
    image: ImageRequest | None, before: Any, names: dict[int, str] | None = None
) -> bytes | None:
    """The PNG of the part of a tall public board that changed since the public View
    ``before`` (``render.phone.changed_png``: a window of the map a phone can read), drawn in a
    worker process; None for boards a phone reads whole, when the map did not change, or if it
    fails."""
    if image is None or image.view is None or before is None or getattr(image.view, "viewer", 0) is not None:
        return None
    try:
        return await board_pool().changed_png(image.view, before, names or None, slot=("changed", image.session_id))
    except Exception:
        log.exception("cropping %s session %s failed", image.game_id, image.session_id)
        return None


def shrink(png: bytes, half: bool) -> bytes:
    """A PNG as a JPEG (quality 80), at half its size when ``half``: for an upload Discord
    refused as too large (413)."""
    from PIL import Image

    img = Image.open(io.BytesIO(png)).convert("RGB")
    if half:
        img = img.resize((max(1, img.width // 2), max(1, img.height // 2)))
    out = io.BytesIO()
    img.save(out, "JPEG", quality=80 if not half else 70, optimize=True)
    return out.getvalue()


class _FakeResponse:
    """Just enough of a response for ``discord.NotFound`` when a channel cannot be resolved."""

    def __init__(self, status: int) -> None:
        self.status = status
        self.reason = "Not Found"


def png_file(data: bytes | None, name: str = "board.png") -> list[discord.File]:
    return [] if data is None else [discord.File(io.BytesIO(data), filename=name)]


def heading(reply: Reply) -> str:
    """The first line of a private message: which game it is about (title, number and a
    link to its channel or thread), since a DM or a reply is read away from the game and a
    player may be in several games; "" for a reply about no one game."""
    return f"**{reply.game}**" if reply.game else ""


def happened(text: str) -> str:
    """The lines of a public update before its "Now" block or the game's end: what happened."""
    lines = text.split("\n")
    at = next((i for i, line in enumerate(lines) if NOW_OR_END.match(line)), len(lines))
    return "\n".join(lines[:at])


def turn_mark(view: Any) -> Any:
    """Whose turn a public View shows (its ``active`` seat, or Promised Land's ``turn``),
    with the round: a "once per turn" follower is sent an update when it changes."""
    if view is None:
        return None
    turn = getattr(view, "active", None)
    if turn is None and getattr(view, "turn", None) is not None:
        turn = getattr(view.turn, "seat", None)
    return (round_mark(view), turn)


def round_mark(view: Any) -> Any:
    """The round a public View shows (``round``, or Promised Land's ``time``): a "once per
    round" follower is sent an update when it changes."""
    if view is None:
        return None
    found = getattr(view, "round", None)
    return found if found is not None else getattr(view, "time", None)


DIGEST_HEAD = "Since your last turn:"


def private_text(head: str, digest: Sequence[str], more: int, body: str, limit: int = 2000) -> str:
    """A private prompt's text within ``limit`` characters: the game's heading, the "since
    your last turn" digest (as a quote; the oldest lines dropped first when it does not fit,
    and a line saying how many the full log has), then the part's own lines and question,
    which are kept whole (cut last)."""
    body = body.strip()
    lines = list(digest)
    dropped = more
    while True:
        block: list[str] = []
        if lines:
            block = [DIGEST_HEAD]
            if dropped:
                block.append(f"> … {dropped} earlier line{'s' if dropped != 1 else ''}: **Full log**")
            block += [f"> {line}" for line in lines]
        text = "\n".join(x for x in (head, "\n".join(block), body) if x)
        if len(text) <= limit or not lines:
            return cut(text, limit)
        lines.pop(0)
        dropped += 1


def same_question(a: str, b: str) -> bool:
    """Whether two ``prompt_token``s name the same question (equal digests): the live prompt
    is edited in place rather than posted again."""
    pa, pb = parse_token(a), parse_token(b)
    return pa is not None and pb is not None and pa[1] == pb[1]


def prompt_for(reply: Reply, user_id: int) -> PromptInfo | None:
    for p in reply.prompts:
        if p.user_id == user_id:
            return p
    for part in reply.private_for(user_id):
        if part.prompt is not None:
            return part.prompt
    return None


class Outbox:
    """Sends replies for one bot."""

    def __init__(self, bot: TabulaBot) -> None:
        self.bot = bot
        # each player's private home per game and the message of its live prompt
        self.homes = Homes(bot)
        # the prompts shown as ephemeral replies, edited when replaced or when the game ends
        self.copies = EphemeralCopies()
        # session -> the public board last posted (``ImageRequest.board_key``): a new board
        # image only when it changed
        self._boards: dict[int, str] = {}
        # (session, follower) -> public texts not sent yet and the turn/round last sent
        self._following: dict[tuple[int, int], tuple[list[str], Any]] = {}
        # user id -> display name written on boards
        self._names: dict[int, str] = {}
        # users whose last DM was refused as closed (code 50007), until deliver_private stores it
        self._refused: set[int] = set()
        # session -> {user: what they were asked} as of the last public message
        self._asked: dict[int, dict[int, str]] = {}
        # outbox id -> the board image request of a message not delivered yet (in memory only:
        # after a restart the board is asked from the host again)
        self._images: dict[int, ImageRequest | None] = {}
        # outbox id -> the game's public View last posted before it (for the crop of what changed)
        self._before: dict[int, Any] = {}
        self._board_views: dict[int, Any] = {}  # session -> the public View of its last board posted
        self._inflight: set[int] = set()
        self._replays: set[asyncio.Task[Any]] = set()  # replay pages being built and sent
        # channel id -> why the bot may not post there, from its last refused post
        self._closed: dict[int, str] = {}
        self._wake = asyncio.Event()
        self._background = Background("tabula-outbox", self.run)
        self.retry_base = RETRY_BASE
        self.poll_seconds = 1.0
        self.delivered = 0  # messages taken by Discord since start (for tests and figures)

    # ---------------------------------------------------------------- entry points

    async def answer(
        self, interaction: discord.Interaction, reply: Reply, *, game_channel_id: int | None = None
    ) -> None:
        """Send ``reply`` as the answer to ``interaction`` (a slash command or a click).

        A reply about a session (a stored change) goes through the stored outbox: Discord's
        errors after this point are handled there and never reach the player as a failure."""
        if reply.ephemeral:
            await self.private_answer(interaction, reply)
            return
        here = game_channel_id is None or interaction.channel_id == game_channel_id
        target = game_channel_id or interaction.channel_id
        assert target is not None
        if reply.session_id is None:
            if here and interaction.type is discord.InteractionType.application_command:
                await self.public_answer(interaction, reply)
            else:
                await self._defer(interaction, ephemeral=True)
                await self.post_public(target, reply, interaction=interaction)
        elif here and interaction.type is discord.InteractionType.application_command:
            await self._defer(interaction, ephemeral=False)
            await self.deliver_public(target, reply, interaction=interaction, followup=True)
        else:
            await self._defer(interaction, ephemeral=True)
            await self.deliver_public(target, reply, interaction=interaction)
        await self._after_public(reply, interaction)

    async def publish(
        self, channel_id: int, reply: Reply, interaction: discord.Interaction | None = None
    ) -> None:
        """A turn update that is not the answer to a slash command in the game's channel (a
        click, a closed response window): the public message, private parts, followers."""
        if reply.session_id is None:
            await self.post_public(channel_id, reply, interaction=interaction)
        else:
            await self.deliver_public(channel_id, reply, interaction=interaction)
        await self._after_public(reply, interaction)

    async def _defer(self, interaction: discord.Interaction, *, ephemeral: bool) -> None:
        """The first response, if not sent yet; a failure here is left to the outbox (the
        update then goes to the channel)."""
        if interaction.response.is_done():
            return
        try:
            await interaction.response.defer(ephemeral=ephemeral, thinking=not ephemeral)
        except discord.HTTPException:
            log.warning("could not defer interaction %s", interaction.id, exc_info=True)

    async def _after_public(self, reply: Reply, interaction: discord.Interaction | None) -> None:
        """Private parts and followers of a stored change: no error escapes (the change is
        stored; a private part that cannot go now is stored and retried)."""
        try:
            await self.deliver_private(reply, interaction)
        except Exception:
            log.exception("delivering the private parts of session %s failed", reply.session_id)
        try:
            await self.notify_followers(reply)
        except Exception:
            log.exception("notifying the followers of session %s failed", reply.session_id)
        if reply.session_id is not None and reply.status in ("finished", "abandoned"):
            try:
                await self.homes.close(reply.session_id)
                await self.copies.close(reply.session_id, GAME_OVER)
            except Exception:
                log.exception("closing the private prompts of session %s failed", reply.session_id)
        self._forget_if_over(reply)

    def _forget_if_over(self, reply: Reply) -> None:
        if reply.session_id is not None and reply.status in ("finished", "abandoned"):
            self.forget_session(reply.session_id)

    def forget_session(self, session_id: int) -> None:
        """Drop what is kept for a game that ended or was orphaned: the DMs that asked its
        players something, who was asked what (who was told their DMs are closed is stored)."""
        self.homes.forget_session(session_id)
        self.copies.forget_session(session_id)
        self._boards.pop(session_id, None)
        self._board_views.pop(session_id, None)
        for key in [k for k in self._following if k[0] == session_id]:
            del self._following[key]
        self._asked.pop(session_id, None)

    def sessions_kept(self) -> set[int]:
        """The sessions the outbox keeps anything for (for tests and ``bench/``)."""
        return self.homes.sessions_kept() | set(self._asked) | set(self._boards) | {k[0] for k in self._following}

    async def public_answer(
        self, interaction: discord.Interaction, reply: Reply, *, full: bool = False
    ) -> None:
        """The public part as the interaction's response (deferred first when rendering).

        ``full`` adds the status embed to a game in progress (``/game status``)."""
        kwargs = self._public_kwargs(reply, full=full, actor=interaction.user.id)
        if reply.image is not None:
            if not interaction.response.is_done():
                await interaction.response.defer(thinking=True)
            files = png_file(await self._png(reply.image))
            await interaction.followup.send(**kwargs, files=files, wait=True)
        elif interaction.response.is_done():
            await interaction.followup.send(**kwargs, wait=True)
        else:
            await interaction.response.send_message(**kwargs)
        release(kwargs.get("view"))

    async def post_public(
        self, channel_id: int, reply: Reply, *, interaction: discord.Interaction | None = None
    ) -> discord.Message | None:
        """The public part as a new message in the game's channel.

        Without the Attach Files permission the message goes without its image (and says so).
        Without permission to post at all, the player who acted (``interaction``) is told
        privately, with the public text; the action itself stands. Returns the message, or None.
        """
        if reply.session_id is not None:
            return await self.deliver_public(channel_id, reply, interaction=interaction)
        channel = await self._channel(channel_id)
        if channel is None:
            return None
        png = await self._png(reply.image)
        kwargs = self._public_kwargs(reply, actor=interaction.user.id if interaction is not None else None)
        try:
            try:
                return await channel.send(**kwargs, files=png_file(png))
            except discord.Forbidden:
                if png is None:
                    raise
                log.warning("cannot attach files in channel %s; posting without the image", channel_id)
                kwargs["content"] = cut(f"{kwargs.get('content') or ''}\n{NO_FILES_NOTE}".strip())
                return await channel.send(**kwargs)
        except discord.Forbidden:
            log.warning("cannot post in channel %s (missing permissions)", channel_id)
            if interaction is not None:
                reason = NO_PERMISSION.format(channel=channel_id)
                text = cut(CANNOT_POST.format(reason=reason, text=public_text(reply)))
                try:
                    await send_private_text(interaction, text)
                except discord.HTTPException:
                    log.warning(
                        "could not tell user %s that channel %s is closed", interaction.user.id, channel_id
                    )
            return None
        finally:
            release(kwargs.get("view"))

    # ---------------------------------------------------------------- the stored outbox

    async def deliver_public(
        self,
        channel_id: int,
        reply: Reply,
        *,
        interaction: discord.Interaction | None = None,
        followup: bool = False,
    ) -> discord.Message | None:
        """Store the public message of a stored change in the outbox, then send it (as the
        interaction's followup when ``followup``, else to ``channel_id``), falling back and
        retrying as the module docstring says. Returns the message when it went at once."""
        assert reply.session_id is not None
        await self._prepare_homes(reply)
        kwargs = self._public_kwargs(reply, actor=interaction.user.id if interaction is not None else None)
        release(kwargs.get("view"))
        embed = kwargs.get("embed")
        before = self._board_views.get(reply.session_id)
        changed = self._board_changed(reply)
        payload: dict[str, Any] = {
            "channel": channel_id,
            "content": kwargs.get("content") or "",
            "embed": embed.to_dict() if embed is not None else None,
            "users": [int(o.id) for o in kwargs["allowed_mentions"].users or []],
            "hand": "view" in kwargs,
            "image": "png" if changed else None,
            "version": reply.version,
            "token": interaction.token if followup and interaction is not None else None,
            "actor": interaction.user.id if interaction is not None else None,
        }
        now = time.time()
        oid = await self.bot.host.storage.outbox_add(reply.session_id, "public", payload, now, now + LEASE)
        self._images[oid] = reply.image
        if payload["image"] and before is not None:
            self._before[oid] = before
        original = dict(payload)
        message = await self._attempt(oid, reply.session_id, payload, 0, interaction)
        await self._mirror(reply, original)
        if reply.status == "finished" and reply.feed and not reply.duplicate:
            await self._queue_replay(reply.session_id, channel_id)
        return message

    async def _queue_replay(self, session_id: int, channel_id: int) -> None:
        """Store the posting of the game's replay page (``bot.replaypage``) in its channel, after
        the update that ended it. Never raises: the game's end is stored and announced already."""
        try:
            now = time.time()
            payload = {"replay": session_id, "channel": channel_id}
            oid = await self.bot.host.storage.outbox_add(session_id, "public", payload, now, now + LEASE)
            self._background_replay(oid, session_id, payload)
        except Exception:
            log.exception("could not queue the replay page of session %s", session_id)

    def _background_replay(self, oid: int, session_id: int, payload: dict[str, Any]) -> None:
        """Build and send the page without holding up the reply that ended the game."""
        task = asyncio.get_running_loop().create_task(self._attempt(oid, session_id, payload, 0))
        self._replays.add(task)
        task.add_done_callback(self._replays.discard)

    async def _send_replay(self, oid: int, session_id: int, payload: dict[str, Any]) -> discord.Message:
        """The finished game's replay page as an HTML attachment in the game's channel, made to fit
        the server's upload limit (``payload["max_bytes"]`` once Discord refused a larger one)."""
        from bot.replaypage import build_page

        channel = await self._channel(int(payload["channel"]))
        if channel is None:
            raise discord.NotFound(_FakeResponse(404), {"code": 10003, "message": "Unknown Channel"})
        guild = getattr(channel, "guild", None)
        limit = int(payload.get("max_bytes") or (getattr(guild, "filesize_limit", None) or UPLOAD_LIMIT)) \
            - UPLOAD_MARGIN
        stop = threading.Event()
        try:
            page = await build_page(self.bot.host.storage, session_id, max_bytes=limit, stop=stop)
        except asyncio.CancelledError:
            stop.set()  # the thread making the page stops at its next step
            raise
        name = await self.bot.host.game_name(session_id)
        title = name.split(" in ", 1)[0] if name else f"game #{session_id}"
        text = (f"Replay of {title}: open the attached page in a browser for the public board after each "
                "step, the public log, and the seed with the command that checks it.")
        if page.note:
            text += f" To fit Discord's upload limit: {page.note}"
        payload["tried"] = page.size
        return await channel.send(
            content=cut(text),
            file=discord.File(io.BytesIO(page.html.encode("utf-8")), filename=f"tabula-game-{session_id}.html"),
            allowed_mentions=discord.AllowedMentions.none(), nonce=f"tabula-o{oid}")

    async def _mirror(self, reply: Reply, payload: dict[str, Any]) -> None:
        """The same public update in each channel the game is mirrored to (``/game mirror``):
        the same text, embed and board image, through the same stored outbox and retries, but
        pinging nobody, without the "My hand" button and as nobody's answer. After the game's
        last update the mirrors stop. Never raises: the game's own update is stored already."""
        assert reply.session_id is not None
        try:
            targets = await self.bot.host.mirrors_of(reply.session_id)
            if not targets:
                return
            for target in targets:
                mirrored = {**payload, "channel": target, "users": [], "hand": False, "token": None, "actor": None,
                            "mirror": reply.session_id, "game_channel": payload["channel"]}
                now = time.time()
                oid = await self.bot.host.storage.outbox_add(reply.session_id, "public", mirrored, now, now + LEASE)
                self._images[oid] = reply.image
                await self._attempt(oid, reply.session_id, mirrored, 0)
            if reply.status in ("finished", "abandoned"):
                await self.bot.host.stop_mirror(reply.session_id)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("mirroring the update of session %s failed", reply.session_id)

    async def _attempt(
        self,
        oid: int,
        session_id: int,
        payload: dict[str, Any],
        attempts: int,
        interaction: discord.Interaction | None = None,
    ) -> discord.Message | None:
        """One delivery of an outbox message, with its immediate fallbacks; records the result
        (delivered, retry later, given up). Never raises but on cancellation."""
        storage = self.bot.host.storage
        self._inflight.add(oid)
        error = ""
        try:
            for _ in range(6):
                try:
                    if payload.get("kind") == "dm":
                        message = await self._send_dm(oid, session_id, payload)
                    elif payload.get("replay"):
                        message = await self._send_replay(oid, session_id, payload)
                    else:
                        message = await self._send_public(oid, session_id, payload)
                except discord.HTTPException as e:
                    error = f"{e.status} {e.code} {e.text[:200]}"
                    step = await self._fallback(oid, payload, e, interaction)
                    if step == "again":
                        continue
                    if step == "give up":
                        log.error("outbox %s given up: %s", oid, error)
                        await storage.outbox_done(oid, time.time(), None, error)
                        self._forget_image(oid)
                        return None
                    break
                except (TimeoutError, aiohttp.ClientError, OSError) as e:
                    error = f"network: {e!r}"[:300]
                    break
                except Exception as e:
                    log.exception("outbox %s: unexpected error", oid)
                    error = f"bug: {e!r}"[:300]
                    break
                else:
                    await storage.outbox_done(oid, time.time(), getattr(message, "id", None))
                    self._forget_image(oid)
                    self.delivered += 1
                    if payload.get("kind") != "dm":
                        self._closed.pop(int(payload["channel"]), None)
                    return message
            attempts += 1
            if attempts >= GIVE_UP_AFTER:
                log.error("outbox %s given up after %s attempts: %s", oid, attempts, error)
                await storage.outbox_done(oid, time.time(), None, error)
                self._forget_image(oid)
                return None
            closed = payload.get("kind") != "dm" and int(payload["channel"]) in self._closed
            base, cap = (CLOSED_BASE, CLOSED_CAP) if closed else (self.retry_base, RETRY_CAP)
            delay = min(cap, base * 2 ** (attempts - 1))
            log.info("outbox %s: attempt %s failed (%s); again in %.1f s", oid, attempts, error, delay)
            await storage.outbox_retry(oid, payload, attempts, time.time() + delay, error)
            self._wake.set()
            return None
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("outbox %s: could not record the delivery", oid)
            return None
        finally:
            self._inflight.discard(oid)

    async def _fallback(
        self,
        oid: int,
        payload: dict[str, Any],
        e: discord.HTTPException,
        interaction: discord.Interaction | None,
    ) -> str:
        """What to do after Discord refused a delivery: "again" (the payload was changed to a
        fallback), "retry" later, or "give up"."""
        status, code = e.status, e.code
        if payload.get("token") and (status in (401, 404) or code in (10015, 10062, 50027)):
            payload["token"] = None  # the followup is gone: post in the channel instead
            return "again"
        if payload.get("replay") and (status == 413 or code == 40005):  # a smaller page
            payload["max_bytes"] = int(min(payload.get("max_bytes") or UPLOAD_LIMIT,
                                           payload.get("tried") or UPLOAD_LIMIT) * 0.6) + UPLOAD_MARGIN
            return "again"
        if status == 413 or code == 40005:
            payload["image"] = {"png": "jpeg", "jpeg": "small"}.get(payload.get("image") or "")
            payload["note"] = IMAGE_SMALLER_NOTE if payload["image"] else IMAGE_DROPPED_NOTE
            return "again"
        if payload.get("kind") == "dm":
            if status == 403 or (status == 400 and code == 50035):
                return "give up"  # closed DMs (50007): the public notice and /game hand cover it
            return "retry"
        channel_id = int(payload["channel"])
        if payload.get("mirror") and status == 404 and code == 10003:  # the mirror channel is gone
            await self.bot.host.stop_mirror(int(payload["mirror"]), channel_id)
            return "give up"
        if code == 50083 and not payload.get("unarchived"):
            payload["unarchived"] = True
            try:
                await self.bot.http.edit_channel(channel_id, archived=False)
                return "again"
            except discord.HTTPException as again:
                log.warning("could not unarchive thread %s: %s", channel_id, again)
                self._closed[channel_id] = f"the game's thread <#{channel_id}> is archived and I may not reopen it"
        elif status == 403 and code == 50013 and payload.get("image") and not payload.get("no_files"):
            payload["no_files"] = True  # may post but not attach: the update without its image
            payload["image"] = None
            payload["note"] = NO_FILES_NOTE
            return "again"
        elif status == 403:
            self._closed[channel_id] = (
                THREAD_LOCKED.format(channel=channel_id) if code == 160005 else NO_PERMISSION.format(channel=channel_id)
            )
        elif status == 404 and code == 10003:
            return "give up"  # the channel is gone
        elif status == 400 and code == 50035:
            if payload.get("plain"):
                return "give up"
            log.error("Discord refused outbox %s as invalid (%s); sending its text alone", oid, e.text[:300])
            payload.update(plain=True, image=None, embed=None, hand=False)
            return "again"
        elif code != 50083:  # anything else (429, 5xx, ...) is retried; 50083 too, as a closed channel
            return "retry"
        if channel_id in self._closed and not payload.get("told") and payload.get("actor"):
            payload["told"] = True
            await self._tell_actor(payload, self._closed[channel_id], interaction)
        return "retry"

    async def _tell_actor(
        self, payload: dict[str, Any], reason: str, interaction: discord.Interaction | None
    ) -> None:
        """Tell the player who acted, privately, that the change is stored but the channel
        does not take the bot's posts (and why)."""
        text = cut(CANNOT_POST.format(reason=reason, text=payload.get("content") or ""))
        try:
            if interaction is not None:
                await send_private_text(interaction, text)
            else:
                user = self.bot.get_user(int(payload["actor"])) or await self.bot.fetch_user(int(payload["actor"]))
                await user.send(text, allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException:
            log.warning("could not tell user %s that channel %s is closed", payload.get("actor"), payload["channel"])

    async def _image_bytes(self, oid: int, session_id: int, payload: dict[str, Any]) -> bytes | None:
        """The board image of an outbox message in the form its payload asks for (png, jpeg,
        small), or None. After a restart the host's current board is used when the game has
        not moved on since; otherwise the message says `/game status` shows the board."""
        mode = payload.get("image")
        if not mode:
            return None
        if oid not in self._images:
            request = None
            with contextlib.suppress(Exception):
                found = await self.bot.host.view(int(payload.get("game_channel") or payload["channel"]),
                                                 session_id=session_id)
                if found.version == payload.get("version"):
                    request = found.image
            self._images[oid] = request
            if request is None:
                payload["image"] = None
                payload["note"] = IMAGE_LATER_NOTE
                return None
        png = await self._png(self._images[oid])
        if png is None or mode == "png":
            return png
        return await asyncio.get_running_loop().run_in_executor(_render_pool(), shrink, png, mode == "small")

    async def _changed_png(self, oid: int, payload: dict[str, Any]) -> bytes | None:
        """The crop of what changed on a tall board since the game's last board posted
        (``render_changed_png``), for an update posting the full board as a PNG; None otherwise
        (a board a phone reads whole, a smaller fallback image, or after a restart, when the
        last board is not known)."""
        image, before = self._images.get(oid), self._before.get(oid)
        if payload.get("image") != "png" or image is None or before is None:
            return None
        return await render_changed_png(image, before, await self._board_names(image))

    async def _send_public(self, oid: int, session_id: int, payload: dict[str, Any]) -> discord.Message:
        png = await self._image_bytes(oid, session_id, payload)
        content = payload.get("content") or ""
        if payload.get("note"):
            content = fit(f"{content}\n{payload['note']}".strip())
        kwargs: dict[str, Any] = {
            "content": content or None,
            "allowed_mentions": discord.AllowedMentions(
                everyone=False, roles=False, users=[discord.Object(u) for u in payload.get("users") or []]
            ),
        }
        if payload.get("embed"):
            kwargs["embed"] = discord.Embed.from_dict(payload["embed"])
        if png is not None:
            kwargs["files"] = png_file(png, "board.jpg" if payload.get("image") in ("jpeg", "small") else "board.png")
            crop = await self._changed_png(oid, payload)
            if crop is not None:  # a tall board: the part that changed, readable on a phone, in the embed
                kwargs["files"] += png_file(crop, CHANGED_FILE)
                embed = kwargs.get("embed") or discord.Embed(description=CHANGED_CAPTION)
                kwargs["embed"] = embed.set_image(url=f"attachment://{CHANGED_FILE}")
        view = components.hand_view(session_id) if payload.get("hand") else None
        if view is not None:
            kwargs["view"] = view
        try:
            if payload.get("token"):
                webhook = discord.Webhook.from_state(
                    {"id": self.bot.application_id, "type": 3, "token": payload["token"]}, self.bot._connection
                )
                return await webhook.send(**kwargs, wait=True)
            channel = await self._channel(int(payload["channel"]))
            if channel is None:
                raise discord.NotFound(_FakeResponse(404), {"code": 10003, "message": "Unknown Channel"})
            return await channel.send(**kwargs, nonce=f"tabula-o{oid}")
        finally:
            release(view)

    async def _send_dm(self, oid: int, session_id: int, payload: dict[str, Any]) -> discord.Message:
        content = payload.get("content") or "\u200b"
        kwargs: dict[str, Any] = {"content": cut(content), "allowed_mentions": discord.AllowedMentions.none()}
        choices = payload.get("choices") or []
        view = None
        if payload.get("question"):  # the buttons answer the question it names
            aids = ("explain", "rules") if payload.get("explains") else ("rules",)
            if payload.get("step"):
                step = components.step_from_json(payload["step"])
                view = components.step_view(session_id, str(payload["question"]), step, aids=aids,
                                            phase_pass=str(payload.get("phase_pass") or ""))
            else:
                view = components.choice_view(session_id, str(payload["question"]), tuple(choices), aids=aids,
                                              phase_pass=str(payload.get("phase_pass") or ""))
            kwargs["view"] = view
        try:
            user = self.bot.get_user(int(payload["user"])) or await self.bot.fetch_user(int(payload["user"]))
            return await user.send(**kwargs)
        finally:
            release(view)

    async def queue_dm(self, session_id: int, user_id: int, text: str, prompt: PromptInfo | None,
                       version: int | None) -> None:
        """Store a private part that could not go now, to be sent again as a new DM."""
        payload = {
            "kind": "dm",
            "user": user_id,
            "content": text,
            "choices": list(prompt.choices) if prompt is not None else [],
            "step": components.step_to_json(prompt.step) if prompt is not None and prompt.step else None,
            "question": prompt.token if prompt is not None else None,
            "explains": prompt.explains if prompt is not None else False,
            "phase_pass": prompt.phase_pass if prompt is not None else "",
            "version": version,
        }
        now = time.time()
        await self.bot.host.storage.outbox_add(session_id, "dm", payload, now, now + self.retry_base)
        self._wake.set()

    def cannot_post(self, channel_id: int) -> str | None:
        """Why the bot cannot post in ``channel_id`` as far as its last post there showed, or None."""
        return self._closed.get(channel_id)

    async def why_closed(self, channel_id: int, interaction: discord.Interaction | None = None) -> str | None:
        """Why a game played in ``channel_id`` cannot take a move now (the bot may not post
        its update there), or None when it can: from the interaction's own permissions when it
        happens in that channel, from the thread's state (locked) as Discord last told, and from
        the last refused post."""
        channel: Any = None
        perms = None
        if interaction is not None and interaction.channel_id == channel_id:
            perms = interaction.app_permissions
            channel = interaction.channel
        if channel is None or not hasattr(channel, "locked"):
            channel = self.bot.get_channel(channel_id) or channel
        if perms is None and isinstance(channel, discord.abc.GuildChannel | discord.Thread):
            me = channel.guild.me
            if me is not None:
                perms = channel.permissions_for(me)
        thread = isinstance(channel, discord.Thread)
        if perms is not None and (
            not perms.view_channel or not (perms.send_messages_in_threads if thread else perms.send_messages)
        ):
            return NO_PERMISSION.format(channel=channel_id)
        if thread and channel.locked and not (perms.manage_threads if perms is not None else False):
            return THREAD_LOCKED.format(channel=channel_id)
        return self._closed.get(channel_id)

    # ---------------------------------------------------------------- the background task

    def start(self) -> None:
        """Start the background delivery of stored messages (resumes what a restart left)."""
        self._background.start()

    async def stop(self) -> None:
        for task in list(self._replays):  # a page not sent yet is sent after the restart (it is stored)
            task.cancel()
        await self._background.stop()

    async def run(self) -> None:
        """Deliver due stored messages until cancelled; once an hour, forget the messages
        delivered more than ``KEEP_DONE`` seconds ago."""
        pruned = 0.0
        while True:
            try:
                await self.run_once()
                if time.time() - pruned > 3600:
                    pruned = time.time()
                    await self.bot.host.storage.outbox_prune(pruned - KEEP_DONE)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("outbox pass failed")
            self._wake.clear()
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self._wake.wait(), self.poll_seconds)

    async def run_once(self, now: float | None = None) -> int:
        """Attempt every stored message due at ``now`` once; returns how many were attempted."""
        storage = self.bot.host.storage
        due = await storage.outbox_due(time.time() if now is None else now)
        sharded = (getattr(self.bot, "shard_count", None) or 1) > 1
        n = 0
        for rec in due:
            if rec.id in self._inflight:
                continue
            if sharded:  # several processes share the database: each delivers its own guilds'
                try:
                    guild_id = (await storage.get_session(rec.session_id)).guild_id
                except Exception:
                    guild_id = None
                if not self.bot.owns_guild(guild_id):
                    continue
            payload = dict(rec.payload)
            if rec.kind == "dm":
                payload["kind"] = "dm"
            await self._attempt(rec.id, rec.session_id, payload, rec.attempts)
            n += 1
        return n

    async def pending(self) -> int:
        """How many stored messages are not delivered yet."""
        return len(await self.bot.host.storage.outbox_due(float("inf"), limit=10_000))

    async def private_answer(self, interaction: discord.Interaction, reply: Reply) -> None:
        """An ephemeral reply: text, embed, the viewer's board image and their choices."""
        uid = interaction.user.id
        parts = reply.private_for(uid)
        image = reply.image
        if image is None:
            view = next((p.view for p in parts if p.view is not None), None)
            if view is not None and reply.session_id is not None:
                image = ImageRequest(getattr(view, "game", ""), reply.session_id, reply.version or 0, view)
        choices = self._choice_view(reply, uid)
        embed = to_embed(reply.embed)
        chunks = split_lines(dedupe_lines([heading(reply), reply.text, *(p.text for p in parts)]))
        content = chunks[0] or ("\u200b" if embed is None and image is None else "")
        kwargs: dict[str, Any] = {"content": content or None, "ephemeral": True}
        if embed is not None:
            kwargs["embed"] = embed
        if choices is not None:
            kwargs["view"] = choices
        if image is not None:
            if not interaction.response.is_done():
                await interaction.response.defer(ephemeral=True, thinking=True)
            names = await self._board_names(image)
            kwargs["files"] = png_file(await render_png(image, uid, names, hand=True), "hand.png")
        prompt = prompt_for(reply, uid) if choices is not None else None
        if interaction.response.is_done():
            sent = await interaction.followup.send(**kwargs, wait=True)
            if prompt is not None and reply.session_id is not None:
                self.copies.add(reply.session_id, uid, interaction, sent.id, prompt.token, content)
        else:
            await interaction.response.send_message(**kwargs)
            if prompt is not None and reply.session_id is not None:
                await self.copies.add_original(reply.session_id, uid, interaction, prompt.token, content)
        release(choices)
        for more in chunks[1:]:  # a long text (a log page) goes on in further private messages
            await interaction.followup.send(more, ephemeral=True, allowed_mentions=discord.AllowedMentions.none())

    # ---------------------------------------------------------------- private parts and followers

    async def deliver_private(self, reply: Reply, interaction: discord.Interaction | None = None) -> None:
        """Send each private part to its user; public fallback notice for closed DMs.

        A user whose DMs were refused as closed (Discord code 50007) is not sent DMs again
        for ``DM_RETRY_SECONDS``; the notice telling them to use ``/game hand`` is posted
        once per game and user, and both are stored, so a restart repeats neither."""
        storage = self.bot.host.storage
        now = self.bot.host.clock()
        closed: list[int] = []
        actor = interaction.user.id if interaction is not None else None
        by_user: dict[int, list[PrivatePart]] = {}
        for part in reply.private:
            by_user.setdefault(part.user_id, []).append(part)
        wanted = [u for u, parts in by_user.items()
                  if u != actor and any(p.dm or p.notify == "thread" for p in parts)]
        marked = await storage.closed_dms(wanted) if wanted else {}
        try:
            await self._deliver_parts(reply, interaction, by_user, wanted, marked, closed, now)
        finally:
            for uid, parts in by_user.items():  # earlier copies now point to the prompt just delivered
                asked = next((p.prompt for p in parts if p.prompt is not None), None)
                if asked is not None and asked.token:
                    try:
                        await self.supersede_copies(reply, uid, asked.token)
                    except Exception:
                        log.warning("could not edit the earlier copies of user %s", uid, exc_info=True)
        if closed and reply.session_id is not None:
            posted = False
            channel_id = await self._game_channel(reply)
            if channel_id is not None:
                channel = await self._channel(channel_id)
                if channel is not None:
                    try:
                        await channel.send(
                            FALLBACK_NOTICE.format(mentions=mention_line(closed)),
                            allowed_mentions=discord.AllowedMentions(
                                users=[discord.Object(u) for u in closed]
                            ),
                        )
                        posted = True
                    except discord.HTTPException:
                        log.warning("could not post the closed-DM notice in %s", channel_id)
            if not posted:  # tell them next time instead
                for uid in closed:
                    await storage.clear_closed_dm_notices(uid)

    async def _deliver_parts(self, reply: Reply, interaction: discord.Interaction | None,
                             by_user: dict[int, list[PrivatePart]], wanted: list[int], marked: dict[int, float],
                             closed: list[int], now: float) -> None:
        """``deliver_private``'s sending, user by user; those whose DMs are closed and who are
        to be told so are added to ``closed``."""
        storage = self.bot.host.storage
        actor = interaction.user.id if interaction is not None else None
        for uid, parts in by_user.items():
            if uid == actor and interaction is not None:
                await self._ephemeral_parts(interaction, reply, parts)
                closed_at = (await storage.closed_dms([uid])).get(uid)
                dm_closed = closed_at is not None and now - closed_at < DM_RETRY_SECONDS
                if (reply.session_id is not None and any(p.prompt is not None for p in parts)
                        and not (dm_closed and self.homes.kind_of(reply.session_id, uid) != "thread")):
                    try:  # their home shows the same question, edited in place (no notification)
                        await self.dm(uid, reply, parts, quiet=True)
                    except Exception:
                        log.warning("could not update the private home of user %s", uid, exc_info=True)
                continue
            if uid not in wanted:
                continue
            since = marked.get(uid)
            by_dm = reply.session_id is None or self.homes.kind_of(reply.session_id, uid) == "dm" or (
                self.homes.kind_of(reply.session_id, uid) is None and all(p.notify == "dm" for p in parts))
            if since is not None and now - since < DM_RETRY_SECONDS and by_dm:
                sent = False  # closed not long ago: do not knock again after every update
            else:
                sent = await self.dm(uid, reply, parts)
                if sent and since is not None:
                    await storage.set_closed_dms(uid, None)
                    await storage.clear_closed_dm_notices(uid)
                elif not sent and uid in self._refused:
                    self._refused.discard(uid)
                    await storage.set_closed_dms(uid, now)
            if not sent and reply.session_id is not None and await storage.claim_closed_dm_notice(
                reply.session_id, uid, now
            ):
                closed.append(uid)

    async def _ephemeral_parts(
        self, interaction: discord.Interaction, reply: Reply, parts: Sequence[PrivatePart]
    ) -> None:
        kwargs = self._private_kwargs(reply, interaction.user.id, parts)
        png = await self._private_png(reply, parts, interaction.user.id)
        if png is not None:
            kwargs["files"] = png_file(png, "hand.png")
        prompt = next((p.prompt for p in parts if p.prompt is not None), None) or prompt_for(
            reply, interaction.user.id)
        kept = prompt is not None and kwargs.get("view") is not None and reply.session_id is not None
        try:
            if not interaction.response.is_done():
                await interaction.response.send_message(**kwargs, ephemeral=True)
                if kept:
                    assert prompt is not None and reply.session_id is not None
                    await self.copies.add_original(reply.session_id, interaction.user.id, interaction, prompt.token,
                                                   kwargs["content"])
            else:
                sent = await interaction.followup.send(**kwargs, ephemeral=True, wait=True)
                if kept:
                    assert prompt is not None and reply.session_id is not None
                    self.copies.add(reply.session_id, interaction.user.id, interaction, sent.id, prompt.token,
                                    kwargs["content"])
        except discord.HTTPException as e:
            # the interaction can no longer answer (expired, unknown webhook...): by DM instead
            log.info("ephemeral part for user %s failed (%s); sending it by DM", interaction.user.id, e)
            if reply.session_id is not None:
                prompt = next((p.prompt for p in parts if p.prompt is not None), None)
                await self.queue_dm(reply.session_id, interaction.user.id, kwargs["content"], prompt, reply.version)
        finally:
            release(kwargs.get("view"))

    async def dm(self, user_id: int, reply: Reply, parts: Sequence[PrivatePart], *, quiet: bool = False) -> bool:
        """Send the parts to the user's private home for this game (``homes``); False when
        that home is their direct messages and those are closed.

        The home holds one live prompt, edited in place while the same question is open
        (someone else acted meanwhile) and, with ``quiet``, also for a new one (the player's
        own follow-up, which the reply to their action already carries). A new question is
        posted as a new message and the earlier one is edited to point to it; lines without a
        question go into the live message of a direct-message home (a new DM would notify)."""
        if reply.session_id is None:
            return await self._send_dm_now(user_id, reply, parts)
        prompt = next((p.prompt for p in parts if p.prompt is not None), None)
        notify = next((p.notify for p in parts), "thread")
        home = await self.homes.home(reply, user_id, notify=notify, dms=any(p.dm for p in parts))
        if home is None:
            return False
        kwargs = self._private_kwargs(reply, user_id, parts)
        png = await self._private_png(reply, parts, user_id)
        view = kwargs.get("view")
        try:
            live = home.message_id
            same = (live is not None and prompt is not None and home.question is not None
                    and same_question(home.question, prompt.token))
            info_only = prompt is None
            # lines without a question go into a DM home's live message (a new DM would notify),
            # but the game's end is news for everyone
            quiet_info = info_only and home.kind == "dm" and reply.status == "active"
            edit = live is not None and (same or quiet or quiet_info)
            if edit:
                try:
                    message = await self.homes.edit(
                        home, **kwargs, attachments=png_file(png, "hand.png") if png is not None else []
                    )
                    await self.homes.remember(home, message.id, prompt.token if prompt else None)
                    return True
                except discord.NotFound:
                    pass  # deleted: post a new one
                except discord.HTTPException:
                    log.info("could not edit the live prompt of user %s; posting a new one", user_id)
            if png is not None:
                kwargs["files"] = png_file(png, "hand.png")
            message = await self.homes.post(home, **kwargs)
            if message is None:  # the private thread refused: their direct messages instead
                return await self.dm(user_id, reply, parts, quiet=quiet) if home.kind == "thread" else False
            if live is not None and (prompt is not None or home.question is not None):
                await self.homes.supersede(home, live, await self.homes.link(home, message.id), heading(reply))
            await self.homes.remember(home, message.id, prompt.token if prompt else None)
            return True
        except discord.Forbidden as e:
            if e.code == DM_CLOSED:
                self._refused.add(user_id)
                await self.homes.drop(home)
            return False
        except discord.HTTPException:
            # not closed DMs (those are 403): Discord failed; the DM is stored and sent again
            log.warning("DM to user %s failed; it will be sent again", user_id, exc_info=True)
            await self.queue_dm(reply.session_id, user_id, kwargs["content"], prompt, reply.version)
            return True
        finally:
            release(view)

    async def _send_dm_now(self, user_id: int, reply: Reply, parts: Sequence[PrivatePart]) -> bool:
        kwargs = self._private_kwargs(reply, user_id, parts)
        try:
            user = self.bot.get_user(user_id) or await self.bot.fetch_user(user_id)
            await user.send(**kwargs)
            return True
        except discord.Forbidden as e:
            if e.code == DM_CLOSED:
                self._refused.add(user_id)
            return False
        finally:
            release(kwargs.get("view"))

    def forget_message(self, message_id: int) -> None:
        """The message (a prompt that was answered) is no longer a live question."""
        self.homes.answered(message_id)
        self.copies.answered(message_id)

    async def supersede_copies(self, reply: Reply, user_id: int, live: str) -> None:
        """Edit the user's ephemeral copies of earlier questions of this game (``live``: the
        ``prompt_token`` asked now) to say they were replaced, with a link to the live prompt
        in their home (or to the game's channel)."""
        if reply.session_id is None or not self.copies.kept(reply.session_id, user_id):
            return
        link = await self.homes.live_link(reply.session_id, user_id)
        if link is None:
            channel_id = await self._game_channel(reply)
            link = f"<#{channel_id}>" if channel_id else "the game's channel"
        text = "\n".join(x for x in (heading(reply), SUPERSEDED.format(link=link)) if x)
        await self.copies.supersede(reply.session_id, user_id, live, text, same_question)

    def is_home(self, channel_id: int | None, user_id: int) -> bool:
        """Whether ``channel_id`` is ``user_id``'s private thread for one of their games."""
        return self.homes.is_home(channel_id, user_id)

    async def notify_followers(self, reply: Reply) -> None:
        """DM the public text to the followers who asked for updates, with the public board:
        every move, once per turn (when the seat whose turn it is changes) or once per round
        (when the round changes), as each chose (``/game follow``); a turn or round update
        carries every public line since the follower's last one (cut to fit), and the game's
        end always goes out."""
        if not reply.notify or not reply.text or reply.session_id is None:
            return
        if reply.game:
            where = f" — {reply.game}"
        else:
            channel_id = await self._game_channel(reply)
            where = f" in <#{channel_id}>" if channel_id else ""
        modes = dict(reply.following) or {uid: "move" for uid in reply.notify}
        view = reply.image.view if reply.image is not None else None
        marks = {"move": None, "turn": turn_mark(view), "round": round_mark(view)}
        over = reply.status in ("finished", "abandoned")
        storage = self.bot.host.storage
        now = self.bot.host.clock()
        marked = await storage.closed_dms(reply.notify)
        png: bytes | None = None
        for uid in reply.notify:
            mode = modes.get(uid, "move")
            key = (reply.session_id, uid)
            first = key not in self._following
            waiting, last = self._following.get(key, ([], None))
            waiting = [*waiting, public_text(reply)]
            mark = marks.get(mode)
            if mode != "move" and not over and not first and mark == last:
                self._following[key] = (waiting, last)  # the same turn or round: later, together
                continue
            self._following[key] = ([], mark)
            if uid in marked and now - marked[uid] < DM_RETRY_SECONDS:
                continue
            # what happened in each update since the last one sent, then the latest whole
            text = fit("\n".join([f"Update{where}:", *(h for t in waiting[:-1] if (h := happened(t))), waiting[-1]]))
            if png is None and reply.image is not None:
                png = await self._png(reply.image)
            try:
                user = self.bot.get_user(uid) or await self.bot.fetch_user(uid)
                await user.send(text, allowed_mentions=discord.AllowedMentions.none(), files=png_file(png))
                if uid in marked:
                    await storage.set_closed_dms(uid, None)
            except discord.HTTPException as e:
                log.info("could not notify follower %s", uid)
                if isinstance(e, discord.Forbidden) and e.code == DM_CLOSED:
                    await storage.set_closed_dms(uid, now)

    # ---------------------------------------------------------------- helpers

    def _public_kwargs(self, reply: Reply, *, full: bool = False, actor: int | None = None) -> dict[str, Any]:
        """Content, mentions, the embed and the "My hand" button of a public message.

        A turn update (a game under way or just over, with a board image) carries no embed
        unless ``full``: its text already says what happened and who must act. ``actor``, the
        user whose interaction this answers, is named but not pinged: their own follow-up
        question reaches them in the reply to what they just did."""
        text = public_text(reply)
        kwargs: dict[str, Any] = {
            "content": fit(text) or None,
            "allowed_mentions": discord.AllowedMentions(
                everyone=False, roles=False, users=[discord.Object(u) for u in self._to_ping(reply) if u != actor]
            ),
        }
        turn_update = reply.image is not None and reply.status in ("active", "finished") and bool(text)
        embed = None if turn_update and not full else to_embed(reply.embed)
        if embed is not None:
            kwargs["embed"] = embed
        if reply.session_id is not None and reply.status == "active":
            kwargs["view"] = components.hand_view(reply.session_id)
        return kwargs

    async def _prepare_homes(self, reply: Reply) -> None:
        """Make the private homes of the players asked now before the public message, so that
        one whose home is their DMs is told there and not pinged as well."""
        for part in reply.private:
            if part.prompt is None or reply.session_id is None:
                continue
            try:
                await self.homes.home(reply, part.user_id, notify=part.notify, dms=part.dm)
            except Exception:
                log.warning("could not open the private home of user %s", part.user_id, exc_info=True)

    def _board_changed(self, reply: Reply) -> bool:
        """Whether a stored change's update carries the board image: only when the public
        board differs from the last one posted for the game (``ImageRequest.board_key``:
        the public View, not the pixels, without who is asked); otherwise the update is its
        text alone."""
        if reply.image is None or reply.session_id is None:
            return False
        key = reply.image.board_key()
        if self._boards.get(reply.session_id) == key:
            return False
        self._boards[reply.session_id] = key
        if getattr(reply.image.view, "viewer", 0) is None:
            self._board_views[reply.session_id] = reply.image.view
        return True

    def _forget_image(self, oid: int) -> None:
        self._images.pop(oid, None)
        self._before.pop(oid, None)

    async def _png(self, image: ImageRequest | None, audience: int | None = None) -> bytes | None:
        """``render_png`` (``audience`` the one user a seat's view is drawn for) with the
        players' display names written on the board."""
        if image is None:
            return None
        return await render_png(image, audience, await self._board_names(image))

    async def _board_names(self, image: ImageRequest) -> dict[int, str]:
        """Seat -> the name written on the board: a player's display name (control characters
        removed, shortened: ``homes.display_name``), an AI seat's "AI"."""
        names: dict[int, str] = {}
        for seat, user_id, _label in image.players:
            if user_id is None:
                names[seat] = "AI"
                continue
            if user_id not in self._names:
                user = self.bot.get_user(user_id)
                if user is None:
                    with contextlib.suppress(discord.HTTPException):
                        user = await self.bot.fetch_user(user_id)
                self._names[user_id] = display_name(user.display_name) if user is not None else ""
            if self._names[user_id]:
                names[seat] = self._names[user_id]
        return names

    def _to_ping(self, reply: Reply) -> list[int]:
        """The players to notify: those who must act and were not already pinged for the same
        question by the previous public message of this game (a player waiting in a response
        window while others play cards is named each time but pinged once)."""
        if reply.session_id is None:
            return list(reply.mentions)
        before = self._asked.get(reply.session_id, {})
        now = {p.user_id: f"{p.kind}:{p.text}" for p in reply.prompts if p.user_id is not None}
        if reply.prompts or reply.status != "active":
            self._asked[reply.session_id] = now
        return [u for u in reply.mentions if (u not in now or before.get(u) != now[u])
                and self.homes.kind_of(reply.session_id, u) != "dm"]  # a DM home notifies by itself

    def _private_kwargs(self, reply: Reply, user_id: int, parts: Sequence[PrivatePart]) -> dict[str, Any]:
        body = "\n".join(p.text for p in parts if p.text)
        digest = next((p for p in parts if p.digest), None)
        text = private_text(heading(reply), digest.digest if digest else (), digest.digest_more if digest else 0, body)
        kwargs: dict[str, Any] = {
            "content": text or "\u200b",
            "allowed_mentions": discord.AllowedMentions.none(),
        }
        view = self._choice_view(reply, user_id, parts)
        if digest is not None and reply.session_id is not None:
            view = components.with_log_button(view, reply.session_id)
        if view is not None:
            kwargs["view"] = view
        return kwargs

    def _choice_view(
        self, reply: Reply, user_id: int, parts: Sequence[PrivatePart] | None = None
    ) -> discord.ui.View | None:
        if reply.session_id is None or reply.version is None or reply.status not in (None, "active"):
            return None
        prompt = next((p.prompt for p in parts or () if p.prompt is not None), None) or prompt_for(
            reply, user_id
        )
        if prompt is None or not prompt.token:
            return None
        aids = ("explain", "rules") if prompt.explains else ("rules",)
        if prompt.step is not None:
            return components.step_view(reply.session_id, prompt.token, prompt.step, aids=aids,
                                        phase_pass=prompt.phase_pass)
        return components.choice_view(reply.session_id, prompt.token, prompt.choices, aids=aids,
                                      phase_pass=prompt.phase_pass)

    async def _private_png(self, reply: Reply, parts: Sequence[PrivatePart], user_id: int) -> bytes | None:
        view = next((p.view for p in parts if p.view is not None), None)
        if view is None or reply.session_id is None:
            return None
        image = ImageRequest(getattr(view, "game", ""), reply.session_id, reply.version or 0, view)
        return await render_png(image, user_id, await self._board_names(image), hand=True)

    async def _game_channel(self, reply: Reply) -> int | None:
        if reply.session_id is None:
            return None
        return await self.bot.session_channel(reply.session_id)

    async def _channel(self, channel_id: int) -> discord.abc.Messageable | None:
        channel = self.bot.get_channel(channel_id)
        if channel is None:
            try:
                channel = await self.bot.fetch_channel(channel_id)
            except discord.HTTPException as e:
                log.warning("channel %s is gone", channel_id)
                await self.bot.orphan_on_not_found(e, channel_id, None)  # 10003/10004: its game is orphaned
                return None
        return channel if isinstance(channel, discord.abc.Messageable) else None
