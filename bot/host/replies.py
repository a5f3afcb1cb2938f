"""Plain reply objects the host returns; any adapter (discord.py cogs, the terminal,
tests) turns them into messages. No discord types here.

A ``Reply`` has a public part (``text``, ``embed``, ``image``) meant for the
channel, private parts for single users (their hand, what they drew, what they
are asked), the users to ping, and the followers to notify. ``ephemeral`` replies
(hand, log, my games, errors) are for the caller only: send ``text``/``embed``
privately.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any

from games.core import PromptKind, Seat
from games.core.choices import ChoiceStep


@dataclass(frozen=True)
class EmbedField:
    """One field of an embed: ``name`` up to 256 characters, ``value`` up to 1024."""

    name: str
    value: str
    inline: bool = False


@dataclass(frozen=True)
class Embed:
    """Embed-like data: a title, a description and fields, adapter-agnostic."""

    title: str
    description: str = ""
    fields: tuple[EmbedField, ...] = ()
    footer: str = ""


@dataclass(frozen=True)
class ImageRequest:
    """Ask the adapter to render a board image of ``view`` (a game View model, never a
    State) for session ``session_id`` at ``version``; ``viewer`` None = public."""

    game_id: str
    session_id: int
    version: int
    view: Any
    viewer: Seat | None = None
    players: tuple[tuple[Seat, int | None, str], ...] = ()

    def board_key(self) -> str:
        """What the board shows, as a string that changes exactly when the drawn board does:
        the View without who is asked now (``BOARD_IGNORES``: the turn marker, the waiting
        seats, the prompt, the response window), which the update's text says anyway."""
        if self.view is None:
            return ""
        dump = self.view.model_dump(mode="json", exclude=set(BOARD_IGNORES) & set(type(self.view).model_fields))
        return repr(sorted(dump.items()))


# View fields that say who is asked now rather than what is on the board: a change in them
# alone gets a text line, not a new board image.
BOARD_IGNORES = ("active", "waiting", "prompt", "window", "task", "stage")


@dataclass(frozen=True)
class PromptInfo:
    """A seat being asked for input now.

    ``kind`` turn / respond / secret; ``text`` the game's prompt; ``choices`` the legal
    actions in notation when there are at most 25 (buttons, a select menu), else empty;
    ``user_id`` None for an AI seat; ``deadline`` when a respond window closes (epoch s);
    ``token`` the question's identity as asked (``prompt_token``): an answer carries it (a
    button's custom id) or is bound to it on receipt (a typed action), and is refused as
    outdated when the seat's question is no longer the same. ``explains`` whether its
    options name things the game explains (cards, nations, abilities...): a "What do these
    do?" button is offered with them. ``step`` the first step of the
    choices that lead to each legal action (``games.core.choices``), for a human seat; None
    for an AI seat or when there are too many legal actions to list. ``shown`` the prompt as
    the "Now" line shows it after the seat's name (its name not repeated, players named).
    ``phase_pass`` when pass is among a human seat's answers, what the game calls the span
    ("phase", "round"): a "pass for the rest of this phase" button is offered with them
    (``Host.act(for_phase=True)``); "" otherwise.
    """

    seat: Seat
    user_id: int | None
    kind: PromptKind
    text: str
    choices: tuple[str, ...] = ()
    deadline: float | None = None
    token: str = ""
    explains: bool = False
    step: ChoiceStep | None = None
    shown: str = ""
    phase_pass: str = ""


def prompt_token(seq: int, kind: str, text: str, choices: tuple[str, ...]) -> str:
    """The identity of a seat's question: ``"<seq>.<digest>"``, at most 30 characters.

    ``seq`` is the number of the last action stored when the question was shown (actions
    numbered from 0, the setup); ``digest`` 10 hex digits of a hash of the prompt's kind,
    text and choices (the legal actions in notation when at most 25, else none). Two tokens
    name the same question when their digests are equal and the seat did not act between
    their ``seq``s (``Host.act`` checks both)."""
    h = hashlib.blake2b(digest_size=5)
    for part in (kind, text, *choices):
        h.update(part.encode("utf-8"))
        h.update(b"\x00")
    return f"{seq}.{h.hexdigest()}"


def parse_token(token: str) -> tuple[int, str] | None:
    """``(seq, digest)`` of a ``prompt_token``; None when malformed."""
    seq, _, digest = token.partition(".")
    if not seq.isdigit() or len(seq) > 18 or len(digest) != 10:
        return None
    try:
        int(digest, 16)
    except ValueError:
        return None
    return int(seq), digest


@dataclass(frozen=True)
class ChoiceResult:
    """Where a click among a question's choices leads: the next ``step`` to show, or the
    ``action`` (in notation) it names; ``text`` is the question, ``game`` its heading,
    ``explains`` and ``phase_pass`` as for ``PromptInfo``."""

    step: ChoiceStep | None
    action: str | None
    text: str
    game: str = ""
    explains: bool = False
    phase_pass: str = ""


@dataclass(frozen=True)
class PrivatePart:
    """Something for one user only: ``text`` lines, their ``view`` (the game's View for
    their seat) and their ``prompt``. ``dm`` is the user's preference for direct
    messages (otherwise show it when they ask, e.g. an ephemeral reply); ``notify`` how they
    are told of a new question: "thread" (a ping in the game's thread, the prompt in their
    private thread) or "dm" (the prompt by direct message, no ping). ``digest`` is what
    happened since the user's own last action (public lines and their own private lines,
    the latest ``DIGEST_LINES`` at most), ``digest_more`` how many earlier lines were left
    out (the full log has them)."""

    user_id: int
    seat: Seat | None
    text: str
    view: Any = None
    prompt: PromptInfo | None = None
    dm: bool = True
    notify: str = "thread"
    digest: tuple[str, ...] = ()
    digest_more: int = 0


@dataclass(frozen=True)
class LogEntry:
    """One action of the log as ``viewer`` may see it: ``lines`` are the visible events."""

    seq: int
    seat: Seat | None
    who: str
    notation: str
    lines: tuple[str, ...]
    at: float


@dataclass(frozen=True)
class GameSummary:
    """One line of "my games": where, what, and whether the user must act."""

    session_id: int
    guild_id: int | None
    channel_id: int
    game_id: str
    title: str
    status: str
    seat: Seat | None
    your_turn: bool
    updated_at: float


@dataclass(frozen=True)
class Reply:
    """What the host answers to one call.

    Attributes
    ----------
    text : str
        Public text for the channel (or for the caller alone when ``ephemeral``).
    embed : Embed | None
        Status embed.
    image : ImageRequest | None
        A board image to render and attach.
    private : tuple[PrivatePart, ...]
        Parts for single users.
    mentions : tuple[int, ...]
        User ids to ping: the humans who must act now.
    prompts : tuple[PromptInfo, ...]
        Every seat asked for input now (humans and AI).
    notify : tuple[int, ...]
        Followers to send the public text to (they asked for updates, DMs on).
    ephemeral : bool
        The whole reply is for the caller only.
    session_id, version : int | None
        The session and its version after the call (for buttons' custom ids).
    status : str | None
        lobby / active / finished / abandoned.
    duplicate : bool
        The interaction had already been handled: nothing was applied again.
    log : tuple[LogEntry, ...]
        For log replies; ``page`` of ``pages``.
    games : tuple[GameSummary, ...]
        For "my games".
    feed : tuple[tuple[int | None, str], ...]
        Every line of the reply in the order things happened: ``(None, line)`` for a
        public line of ``text``, ``(user_id, line)`` for a line of that user's private
        part (a terminal shows them interleaved, Discord sends them apart).
    following : tuple[tuple[int, str], ...]
        Followers and how often they want updates ("move", "turn", "round"); ``notify``
        holds the same users.
    game : str
        The game the reply is about, as a heading for private messages, which are read
        away from its channel: title, number and where it is played ("Credo #4 in
        <#123>"); "" when the reply is about no one game.
    """

    text: str = ""
    embed: Embed | None = None
    image: ImageRequest | None = None
    private: tuple[PrivatePart, ...] = ()
    mentions: tuple[int, ...] = ()
    prompts: tuple[PromptInfo, ...] = ()
    notify: tuple[int, ...] = ()
    ephemeral: bool = False
    session_id: int | None = None
    version: int | None = None
    status: str | None = None
    duplicate: bool = False
    log: tuple[LogEntry, ...] = ()
    page: int = 1
    pages: int = 1
    games: tuple[GameSummary, ...] = field(default=())
    feed: tuple[tuple[int | None, str], ...] = ()
    game: str = ""
    following: tuple[tuple[int, str], ...] = ()

    def private_for(self, user_id: int) -> list[PrivatePart]:
        """The private parts addressed to ``user_id``."""
        return [p for p in self.private if p.user_id == user_id]
