"""The command tree: one ``on_error`` for every command, and tracking of work in flight."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections import OrderedDict
from collections.abc import AsyncIterator, Coroutine
from typing import Any

import discord
from discord import app_commands

from games.core import AmbiguousActionError, GameError

log = logging.getLogger("tabula.discord")

APOLOGY = (
    "Sorry, something went wrong on our side and nothing was changed by this command. "
    "If it happens again, tell the server admin the incident id `{incident}`."
)


class Tracker:
    """Counts interactions being handled, so shutdown and tests can wait until all are done,
    and remembers the ids of recent interactions so that one delivered twice (a gateway
    replay) is handled once. Across restarts the host's stored interaction ids do that."""

    SEEN = 10_000  # interaction ids remembered

    def __init__(self) -> None:
        self._seen: OrderedDict[int, None] = OrderedDict()
        self._busy = 0
        self._idle = asyncio.Event()
        self._idle.set()
        self._tasks: set[asyncio.Task[Any]] = set()
        self.deliveries = 0  # interactions received, repeats included (tests wait on it)

    @contextlib.asynccontextmanager
    async def busy(self) -> AsyncIterator[None]:
        self._busy += 1
        self._idle.clear()
        try:
            yield
        finally:
            self._busy -= 1
            if self._busy == 0:
                self._idle.set()

    def spawn(self, coro: Coroutine[Any, Any, Any], name: str) -> asyncio.Task[Any]:
        """Run ``coro`` as a task counted as busy until it ends."""

        async def run() -> Any:
            return await coro

        task = asyncio.get_running_loop().create_task(run(), name=name)
        self.adopt(task)  # counted from now, before the task first runs
        return task

    def first_time(self, interaction_id: int) -> bool:
        """True the first time an interaction id is seen (recently), False after."""
        self.deliveries += 1
        if interaction_id in self._seen:
            return False
        self._seen[interaction_id] = None
        if len(self._seen) > self.SEEN:
            self._seen.popitem(last=False)
        return True

    def adopt(self, task: asyncio.Task[Any]) -> None:
        """Count an already running task as busy until it ends."""
        if task in self._tasks:
            return
        self._busy += 1
        self._idle.clear()
        self._tasks.add(task)

        def done(t: asyncio.Task[Any]) -> None:
            self._tasks.discard(t)
            self._busy -= 1
            if self._busy == 0:
                self._idle.set()

        task.add_done_callback(done)

    async def idle(self) -> None:
        """Wait until no interaction is being handled."""
        await self._idle.wait()


def player_message(error: BaseException) -> str | None:
    """The player-safe text of a ``GameError`` (with candidates for an ambiguous action), or None."""
    if isinstance(error, app_commands.CommandInvokeError):
        error = error.original
    if isinstance(error, AmbiguousActionError):
        cands = ", ".join(f"`{c}`" for c in error.candidates[:15])
        return (
            f"{error.message}\nDid you mean: {cands}"
            if cands and cands not in error.message
            else error.message
        )
    if isinstance(error, GameError):
        return error.message
    return None


PUBLIC_DEFERS: OrderedDict[int, None] = OrderedDict()
"""Interactions deferred publicly before their answer was known (``defer_public``), the
latest ``Tracker.SEEN``."""


async def defer_public(interaction: discord.Interaction) -> None:
    """The first response of an action the rules took: a public "thinking" message that its
    public update replaces. An answer that turns out private after all goes through
    ``keep_private`` first."""
    if interaction.response.is_done():
        return
    PUBLIC_DEFERS[interaction.id] = None
    if len(PUBLIC_DEFERS) > Tracker.SEEN:
        PUBLIC_DEFERS.popitem(last=False)
    await interaction.response.defer(thinking=True)


async def keep_private(interaction: discord.Interaction) -> None:
    """Before a private answer to an interaction deferred publicly (``defer_public``) whose
    answer turned out private (an action refused after the rules took it: another process
    moved the game on, or it was handled already): the public "thinking" message is deleted,
    so that the answer comes as a message of its own, which only its user sees (the first
    followup of a deferred response would replace that message, keeping its visibility)."""
    if interaction.id not in PUBLIC_DEFERS:
        return
    del PUBLIC_DEFERS[interaction.id]
    try:
        message = await interaction.original_response()
        if message.flags.loading:
            await interaction.delete_original_response()
    except discord.HTTPException:
        log.warning("could not withdraw the public response of interaction %s", interaction.id, exc_info=True)


async def send_private(interaction: discord.Interaction, text: str) -> None:
    """Answer ``text`` to the interaction's user alone, whatever state the interaction is in."""
    text = text[:2000]
    if not interaction.response.is_done():
        await interaction.response.send_message(text, ephemeral=True)
        return
    await keep_private(interaction)
    await interaction.followup.send(text, ephemeral=True)


async def with_game(interaction: discord.Interaction, text: str) -> str:
    """``text`` under the heading of the game played in the interaction's channel, if any."""
    if interaction.channel_id is None:
        return text
    try:
        host = getattr(interaction.client, "host", None)
        if host is None:
            return text
        name = await host.game_name(channel_id=interaction.channel_id)
    except Exception:  # the refusal matters more than its heading
        log.warning("no game name for channel %s", interaction.channel_id, exc_info=True)
        return text
    return f"**{name}**\n{text}" if name and name not in text else text


class TabulaTree(app_commands.CommandTree):
    """``CommandTree`` with the project's single error handler.

    A ``GameError`` becomes an ephemeral message with its player-safe text. A failed check
    becomes an ephemeral explanation. Anything else is logged with a short incident id, and
    the player gets an apology naming that id: no traceback ever reaches a player.
    """

    def __init__(self, client: discord.Client, **options: Any) -> None:
        super().__init__(client, **options)
        self.tracker: Tracker = getattr(client, "tracker", None) or Tracker()

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        """Count the interaction as in flight until discord.py's task for it ends.

        discord.py runs every application-command interaction (commands and autocomplete) in
        a task of its own and calls this check first, inside that task. Tying the tracker to
        ``asyncio.current_task()`` covers every way the task can end (success, an error passed
        to ``on_error``, autocomplete, an unexpected exception) with public API only, so
        ``TabulaBot.close`` and the tests can wait until every interaction is fully handled.

        An interaction delivered a second time is dropped here (False: discord.py then does
        nothing more with it).
        """
        if not self.tracker.first_time(interaction.id):
            log.info("interaction %s delivered again; already handled", interaction.id)
            return False
        task = asyncio.current_task()
        if task is not None:
            self.tracker.adopt(task)
        return True

    async def on_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        await report_error(interaction, error)


async def report_error(interaction: discord.Interaction, error: BaseException) -> None:
    """Tell the user what went wrong, privately; log anything unexpected with an incident id.

    A game's refusal starts with the game it is about (title, number, channel), as every
    private reply does."""
    text = player_message(error)
    if text is not None:
        text = await with_game(interaction, text)
    if text is None and isinstance(error, app_commands.CheckFailure):
        text = str(error) or "You cannot use this command here."
    if text is None and isinstance(error, app_commands.CommandNotFound):
        text = "This command is out of date; the server admin should run `tabula sync`."
    if text is None:
        incident = secrets.token_hex(4)
        original = getattr(error, "original", error)
        command = interaction.command.qualified_name if interaction.command else interaction.data
        log.error(
            "incident %s: %s in %s (guild %s, channel %s, user %s)",
            incident,
            type(original).__name__,
            command,
            interaction.guild_id,
            interaction.channel_id,
            interaction.user.id,
            exc_info=original,
        )
        text = APOLOGY.format(incident=incident)
    try:
        await send_private(interaction, text)
    except discord.HTTPException:
        log.warning("could not tell user %s about an error", interaction.user.id, exc_info=True)
