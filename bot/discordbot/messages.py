"""The texts of the Discord adapter's messages within Discord's limits: the notices the outbox
posts, and the pure functions that lay out a reply's public and private text (cut and split
at lines, the "Now" block kept, the "since your last turn" digest), its embed, and the marks
followers are told by (turn, round)."""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable, Sequence
from typing import Any

import discord

from bot.host.replies import Embed, PromptInfo, Reply, parse_token

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


class FakeResponse:
    """Just enough of a response for ``discord.NotFound`` when a channel cannot be resolved."""

    def __init__(self, status: int) -> None:
        self.status = status
        self.reason = "Not Found"


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
