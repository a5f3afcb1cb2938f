"""Ephemeral copies of a player's prompts: a prompt shown as a private reply to a click or a
command (only its player sees it) stays on their screen after the game moved on. Discord lets
the bot edit such a message through the interaction's webhook while its token is valid
(15 minutes), so each copy with buttons is kept here until then: when its player is asked a
new question the copy is edited to say it was replaced (with a link to the live prompt), and
when the game ends its buttons are removed. A copy of a question still open is left alone (a
click on it is accepted). Past the token's life a copy cannot be edited; a click on it is then
refused as outdated, privately, with the question asked now.
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass

import discord

log = logging.getLogger("tabula.discord")

TOKEN_SECONDS = 14 * 60
"""How long a copy is kept editable (seconds): Discord's interaction tokens last 15 minutes."""


@dataclass
class Copy:
    """An ephemeral message ``message_id`` sent through ``interaction``, asking ``question``
    (a ``prompt_token``), with its ``content``; ``at`` when it was sent (monotonic seconds)."""

    interaction: discord.Interaction
    message_id: int
    question: str
    content: str
    at: float


class EphemeralCopies:
    """The ephemeral prompt copies of each (session, user) that can still be edited."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self._copies: dict[tuple[int, int], list[Copy]] = {}

    def add(self, session_id: int, user_id: int, interaction: discord.Interaction, message_id: int,
            question: str, content: str) -> None:
        key = (session_id, user_id)
        kept = [c for c in self._fresh(key) if c.message_id != message_id]
        self._copies[key] = [*kept, Copy(interaction, message_id, question, content, self.clock())]

    async def add_original(self, session_id: int, user_id: int, interaction: discord.Interaction,
                           question: str, content: str) -> None:
        """Keep the interaction's original response (just sent) as a copy of ``question``."""
        try:
            message = await interaction.original_response()
        except discord.HTTPException:
            log.info("could not read the original response of interaction %s", interaction.id)
            return
        self.add(session_id, user_id, interaction, message.id, question, content)

    def answered(self, message_id: int) -> None:
        """The copy ``message_id`` was answered (and edited so): it is no longer kept."""
        for key, copies in list(self._copies.items()):
            kept = [c for c in copies if c.message_id != message_id]
            if len(kept) != len(copies):
                self._copies[key] = kept

    def forget_session(self, session_id: int) -> None:
        """Drop the copies of a game that ended or was orphaned."""
        for key in [k for k in self._copies if k[0] == session_id]:
            del self._copies[key]

    def kept(self, session_id: int, user_id: int) -> list[Copy]:
        return list(self._copies.get((session_id, user_id), ()))

    async def supersede(self, session_id: int, user_id: int, live: str, text: str,
                        same: Callable[[str, str], bool]) -> int:
        """Edit the user's copies of questions other than ``live`` (``same`` tells questions
        apart) to ``text`` and no buttons; returns how many were edited."""
        key = (session_id, user_id)
        keep, done = [], 0
        for c in self._fresh(key):
            if same(c.question, live):
                keep.append(c)
            elif await self._edit(c, text):
                done += 1
        self._copies[key] = keep
        return done

    async def close(self, session_id: int, note: str) -> int:
        """The game ended: every copy of the session loses its buttons, ``note`` added."""
        done = 0
        for key in [k for k in self._copies if k[0] == session_id]:
            for c in self._fresh(key):
                done += await self._edit(c, f"{c.content}\n{note}".strip()[-2000:])
            del self._copies[key]
        return done

    def _fresh(self, key: tuple[int, int]) -> list[Copy]:
        now = self.clock()
        return [c for c in self._copies.get(key, ()) if now - c.at < TOKEN_SECONDS]

    @staticmethod
    async def _edit(c: Copy, text: str) -> bool:
        with contextlib.suppress(discord.HTTPException):
            await c.interaction.followup.edit_message(c.message_id, content=text[:2000] or "\u200b", view=None,
                                                      attachments=[])
            return True
        log.info("could not edit the ephemeral copy %s", c.message_id)
        return False
