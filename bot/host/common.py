"""What the host's modules share: its constants, how it writes names (``Names``), and the
records of an action's call (``_Applied``, ``_AutoPass``, ``_Known``, ``_Steps``)."""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from games.core import Event, Game, Seat
from storage import ActionRecord, EventRecord, SessionContext, UserPrefs

log = logging.getLogger("tabula.host")

AI_KINDS = ("heuristic", "random")
MAX_CHOICES = 25
MAX_TREE = 20_000
"""Legal actions above which a question gets no choices to click (typed with ``/play``)."""
TREES_KEPT = 64
PASS_WORDS = ("pass", "done")
"""An answer that decides nothing (auto-pass, a public pass; the terminal's --auto-pass too)."""
REPEAT_MARK = "×"
"""``place Italia ×3``: the same action three times in a row (a choice with a count)."""
REPEATED = re.compile(r"(.+?) ×(\d{1,2})")
MAX_REPEAT = 12
AUTO_PASS_TRIES = 8
"""Redraws of a seat's hidden information that must all leave a lone pass its only answer."""
SEAT_NUMBER = re.compile(r"\b[Ss]eat (\d{1,2})\b")
WIN_WORD = re.compile(r"\b(?:wins?|won)\b", re.IGNORECASE)
"""An outcome's reason that says who won: the end line quotes it instead of naming the winner twice."""
DIGEST_LINES = 12  # at most this many lines of "since your last turn" in a private prompt


def carried(rows: Sequence[ActionRecord], before: bool | None = False) -> bool | None:
    """What the earlier steps of one host operation (``rows``, in order, after steps that
    carried ``before``) say of the next step's verdict (``SteppingMixin._row_of``'s
    ``revealed``): True when one of them reveals (established), so the next one does too;
    None when none is established as revealing but one is not established yet (the next
    one reveals if it does); False otherwise."""
    if before is True:
        return True
    out = before
    for r in rows:
        if r.reveals and r.reveals_checked:
            return True
        if not r.reveals_checked:
            out = None
    return out


class Names(Protocol):
    """How the host writes a user or a channel into text.

    An adapter may also define ``verify_hint(session_id) -> str``: the end of the
    game-over line, saying how to check the finished game (default: use
    ``tabula verify``), ``text(typed) -> str``: a user's own words (already
    normalised by ``usertext.clean``) made safe to show to others (default: as
    they are), ``rules_now_hint() -> str``: where a refusal sends a player for
    the rule text of the step asked now (default: ``refusal.RULES_NOW``, the
    "Rules for this step" button), and ``undo_hint() -> str``: how the players
    asked agree to or refuse an undo request (default: the /game undo command)."""

    def user(self, user_id: int) -> str: ...

    def channel(self, channel_id: int) -> str: ...


class MentionNames:
    """Discord's mention syntax: ``<@id>`` and ``<#id>``; a user's own words with their
    markdown and mentions escaped (``discord.utils.escape_markdown``, ``escape_mentions``)."""

    def user(self, user_id: int) -> str:
        return f"<@{user_id}>"

    def channel(self, channel_id: int) -> str:
        return f"<#{channel_id}>"

    def text(self, typed: str) -> str:
        from discord.utils import escape_markdown, escape_mentions

        return escape_mentions(escape_markdown(typed))


def _notation_is_public(game: Game, state: Any, seat: Seat, action: Any) -> bool:
    """Whether everyone may read the action as typed. A game opts in with
    ``notation_is_public(state, seat, action)``; without it the notation is shown to
    its player only and the others learn what happened from the public events (an
    action may name a card kept in hand or laid face down)."""
    return _is_bare_pass(action) or bool(game.notation_is_public(state, seat, action))


def _is_bare_pass(action: Any) -> bool:
    """Whether ``action`` is a plain pass or done (kind ``pass``/``done`` and nothing else):
    declining or finishing in the open names no card, so everyone may read it. A pass
    answering a secret choice (prompt kind ``secret``) stays secret all the same."""
    fields = getattr(type(action), "model_fields", None)
    return getattr(action, "kind", None) in PASS_WORDS and fields is not None and set(fields) == {"kind"}


@dataclass(frozen=True)
class _Applied:
    row: ActionRecord
    state: Any
    auto: str = ""  # given for a human by the host: "lone" (their only legal answer, a pass),
    # "phase" (a pass, as they asked for the rest of the phase)


@dataclass(frozen=True)
class _AutoPass:
    """Which human seats the host may pass for: ``lone`` the seats whose player has
    auto-pass on (a question whose only legal answer is a pass), ``standing`` the seats
    passing for the rest of a phase, with the phase's mark (``Game.phase_mark``)."""

    lone: frozenset[Seat] = frozenset()
    standing: Mapping[Seat, str] = dataclasses.field(default_factory=dict)


@dataclass(frozen=True)
class _Known:
    """What an action's call read with the session (``Storage.session_context``) and reuses
    instead of reading it again: the server's settings, the followers and everyone's
    preferences, each human's latest action before the call, and the log's last rows
    (``rows``: those with ``after < seq``, through the call's own applied rows)."""

    guild_settings: Mapping[str, Any]
    follower_modes: Mapping[int, str]
    prefs: Mapping[int, UserPrefs]
    last_acted: Mapping[int, int]
    after: int
    rows: tuple[ActionRecord, ...]

    @classmethod
    def of(cls, ctx: SessionContext, applied: Sequence[_Applied] = ()) -> _Known:
        return cls(ctx.guild_settings, ctx.follower_modes, ctx.prefs, ctx.last_acted, ctx.tail_after,
                   (*ctx.tail, *(a.row for a in applied)))

    def rows_since_last_of(self, seq: int, user_id: int) -> list[ActionRecord] | None:
        """Rows from the user's latest action through ``seq`` ([] when the user never
        acted), or None when that reaches back before the rows held."""
        if (self.rows[-1].seq if self.rows else self.after) != seq:
            return None
        for i in range(len(self.rows) - 1, -1, -1):
            if self.rows[i].user_id == user_id:
                return list(self.rows[i:])
        return [] if user_id not in self.last_acted else None


class _LockEntry:
    """A session's asyncio lock and how many calls hold or wait for it."""

    __slots__ = ("lock", "users")

    def __init__(self) -> None:
        self.lock = asyncio.Lock()
        self.users = 0


class _Steps(list):  # type: ignore[type-arg]
    """The AI steps applied after a call (a list of ``_Applied``); ``fault`` is the
    attention record when the game's code failed on the next step (the loop stopped there)."""

    fault: dict[str, Any] | None = None


def _event_record(e: Event) -> EventRecord:
    data = e.model_dump(mode="json")
    return EventRecord(str(data.get("kind", type(e).__name__)), e.visible_to, e.describe(), data)
