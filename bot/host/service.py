"""The host service: sessions, seats, turns, AI seats and timers, without Discord.

Adapters call it with plain ids (guild, channel, user) and send the ``Reply`` it
returns. Every call that changes a session holds that session's asyncio lock and
the storage's ``session_guard`` (on PostgreSQL an advisory lock, so several bot
processes take turns on a session), and writes through ``Storage.update`` with the
version it read: concurrent calls in one process are serialised, and a writer in
another process waits for the guard or, where there is none (SQLite), is rejected
with ``StaleStateError`` instead of overwriting.

Rules enforced here (each failure is a ``GameError`` with a player-safe message
and changes nothing): only seated players act, and only when the game prompts
their seat; one action at a time per session; undo only of your own last action
and only while nothing hidden or random was revealed since (else every other
player must agree); a finished or abandoned game accepts no action but stays
readable.

``Host`` is a facade: its methods live in modules by job, each a mixin it combines
(``lobby``, ``play``, ``windows`` for response windows and wait deadlines, ``undo``,
``reading`` for views, logs and completion, ``people`` for seats, followers, preferences
and a session's end, ``standings``), over the shared machinery of ``questions`` (what a
seat is asked, choices and intent tokens), ``presentation`` (the replies),
``stepping`` (applying actions and AI turns) and ``sessions`` (finding, locking, caching
and committing a session); ``common`` holds what they share. This module holds the
constructor, the state every job reads.

Decisions (where the design is silent)
--------------------------------------
- Seats are numbered in joining order; leaving a lobby closes the gap. Leaving a
  started game hands the seat to a heuristic AI (an asynchronous game should not
  stall); the creator or a moderator can ``replace`` it with a human. A seat a
  human holds changes hands only by its holder or a moderator (its new holder
  reads its hand).
- A response window's deadline starts when the window opens; answers do not
  extend it. A window that opens while another closes gets a fresh deadline.
- A secret choice (prompt kind ``secret``) is logged with its notation hidden from
  every other viewer, also after the game ends; its events follow ``visible_to``.
- An action "reveals" when what anyone can see afterwards depends on information
  hidden from its player before (dice, deck order, other hands, face-down cards):
  the game establishes it (``games.core.secrets``: randomness drawn, a private
  event to another seat, or a different outcome on perturbed hidden information,
  which is tried only when an undo needs the verdict);
  undoing such an action, or one followed by another human's action, needs the
  consent of every other human; with no other human (AI opponents only) it is
  refused. Any new action voids a pending undo request.
- Log page 1 is the most recent actions (what a channel wants to see first).
- ``sha256`` is taken over the seed's decimal text (``storage.seed_hash``).
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from games.core import Seat, new_seed
from games.core.choices import ChoiceTree
from storage import SessionContext, SessionRecord, Storage

from .common import (
    DIGEST_LINES,
    MAX_CHOICES,
    PASS_WORDS,
    MentionNames,
    Names,
    _Applied,
    _LockEntry,
    _notation_is_public,
)
from .lobby import LobbyMixin
from .people import PeopleMixin
from .play import PlayMixin
from .presentation import PresentationMixin
from .questions import QuestionsMixin
from .reading import ReadingMixin
from .sessions import SessionsMixin
from .settings import HostSettings
from .standings import StandingsMixin
from .stepping import SteppingMixin
from .undo import UndoMixin
from .windows import WindowsMixin

__all__ = ["DIGEST_LINES", "MAX_CHOICES", "PASS_WORDS", "Host", "MentionNames", "Names", "_Applied",
           "_notation_is_public"]


class Host(
    LobbyMixin, PlayMixin, WindowsMixin, UndoMixin, ReadingMixin, PeopleMixin, StandingsMixin,
    QuestionsMixin, PresentationMixin, SteppingMixin, SessionsMixin,
):
    """The Discord-free host service.

    Parameters
    ----------
    storage : Storage
        An opened storage backend.
    settings : HostSettings | None
        Defaults from the environment (``TABULA_*``).
    clock : Callable[[], float]
        Current time, seconds since the Unix epoch (tests pass a fake clock).
    names : Names | None
        How users and channels are written into texts; Discord mentions by default.
    seeds : Callable[[], int] | None
        Source of new session seeds (63-bit); the OS's entropy by default.
    """

    def __init__(
        self,
        storage: Storage,
        settings: HostSettings | None = None,
        *,
        clock: Callable[[], float] = time.time,
        names: Names | None = None,
        seeds: Callable[[], int] | None = None,
    ) -> None:
        self.storage = storage
        self.settings = settings or HostSettings()
        self.clock = clock
        self.names: Names = names or MentionNames()
        self.seeds = seeds or new_seed
        self._locks: dict[int, _LockEntry] = {}
        self._cache: OrderedDict[int, tuple[int, Any]] = OrderedDict()
        self._deadlines_checked = False
        # sessions saved under other rules: loaded once per process (``tick``); those suspended
        # whose channel this process is still to tell
        self._rules_checked = False
        self._untold: set[int] = set()
        # what this process knows at once, without waiting (to bind an intent on receipt):
        # session -> its newest record seen with the cached state, channel -> session, and
        # session -> commits made by this process
        self._latest: dict[int, SessionRecord] = {}
        self._by_channel: dict[int, int] = {}
        self._commits: dict[int, int] = {}
        # session -> the context its last action here left (``_next_context``): the next action
        # computes from it and commits with its fingerprint, without reading first
        self._contexts: dict[int, SessionContext] = {}
        # (session, seq, seat) -> the choices leading to that seat's legal actions then
        self._trees: OrderedDict[tuple[int, int, Seat], ChoiceTree | None] = OrderedDict()
