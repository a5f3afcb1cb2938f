"""Errors the host raises. All are ``GameError``s: the adapters show ``message`` to the
player (ephemerally) and nothing was changed. Storage's own player-facing errors
(``ChannelBusyError``, ``UnknownSessionError``) are re-exported here."""

from __future__ import annotations

from games.core import GameError, StaleStateError
from storage import ChannelBusyError, UnknownSessionError


class NoSessionError(GameError):
    """The channel has no game (of the kind the command needs)."""

    code = "no_session"


class NotSeatedError(GameError):
    """The user holds no seat in the session."""

    code = "not_seated"


class PermissionDeniedError(GameError):
    """The user may not do this (e.g. only the creator or a moderator may abandon)."""

    code = "forbidden"


class LobbyError(GameError):
    """A lobby operation that does not fit: full table, already seated, already started..."""

    code = "lobby"


class InvalidOptionError(GameError):
    """An option or faction the game does not accept."""

    code = "invalid_option"


class OutdatedActionError(StaleStateError):
    """An action (a click, or a typed action bound on receipt) answered a question its seat
    is no longer asked: the seat's prompt changed, or the seat acted, between the moment the
    sender saw the game and the moment the action was handled. Nothing was applied; the
    message says what the seat is asked now."""

    code = "outdated_action"


class UndoError(GameError):
    """Undo is not possible (nothing of yours to undo, game over, consent missing...)."""

    code = "undo"


class GameFaultError(GameError):
    """The game's own code failed (an exception that is not a rule-level error). Nothing of
    the failing call was stored; ``incident`` is the id logged with the traceback, and the
    session is marked as needing attention (``SessionRecord.attention``)."""

    code = "incident"

    def __init__(self, message: str, incident: str) -> None:
        super().__init__(message)
        self.incident = incident


class OrphanedError(GameError):
    """The session's channel, thread or server is gone for the bot: it takes no more
    actions until a moderator abandons it (``/game abandon game:<number>``)."""

    code = "orphaned"


class SuspendedError(GameError):
    """The session was saved under an older version of its game's rules and its log or
    snapshot no longer loads under the version this bot plays (``SessionRecord.suspended``):
    it takes no more actions and waits for nobody; its creator or a moderator can only end
    it (``/game abandon``). Nothing was changed; ``message`` says so in full."""

    code = "suspended"


__all__ = [
    "ChannelBusyError",
    "GameFaultError",
    "OrphanedError",
    "InvalidOptionError",
    "LobbyError",
    "NoSessionError",
    "NotSeatedError",
    "OutdatedActionError",
    "PermissionDeniedError",
    "SuspendedError",
    "UndoError",
    "UnknownSessionError",
]
