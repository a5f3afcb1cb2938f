"""Play a game in the terminal: humans at one keyboard against AI seats.

The console is an adapter over the host service, like the Discord cogs: every
action goes through ``bot.host.Host`` and is stored in a SQLite database, so a game
kept in a file (``--db game.db``) can be stopped and resumed (``--resume``). A file
is played by one terminal at a time (an exclusive lock on ``FILE.lock``), and every
typed action carries the version of the prompt it answers, so nothing is applied to
a game that changed meanwhile.

Hidden information is kept as the bot keeps it: each human sees only its own
hand and private events. Lines are printed in the order things happened, private
ones marked "(private)". With one human, everything they may see is printed as it
happens. With several humans at one keyboard (hot-seat), a private line is printed
only while its owner has the keyboard; lines for the others are held. Before each
handover the screen and its scrollback are cleared when the output is a terminal
(else a separator is printed), the next player is asked to take the keyboard, and
only then are their held lines shown: on a terminal, everything since their last
move (public and their own private lines, in order), elsewhere their private lines.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import shlex
import signal
import sys
import tempfile
import threading
from collections.abc import Callable, Iterator
from typing import Any

from bot.host import GameFaultError, Host, HostSettings, PromptInfo, Reply, open_host
from bot.host.service import PASS_WORDS
from bot.host.usertext import UNREADABLE, readable, unreadable
from bot.lineedit import LineEditor
from games.core import GameError, StaleStateError, get_game
from games.core.english import count
from games.core.explain import explain_text
from games.core.glossary import glossary, summary
from games.core.notation import shorten
from games.core.rulebook import topic_text

Input = Callable[[str], str]

CHANNEL = 0  # the terminal's one "channel"
FIRST_USER = 1  # human seat n is played by user FIRST_USER + n
COMMANDS = ("help", "hand", "status", "log", "rules", "rules now", "explain", "undo", "undo decline", "quit")
CLEAR = "\033[2J\033[3J\033[H"  # clear the screen and the scrollback, cursor home
INTERRUPTED = 130


class TerminalNames:
    """How the host writes players in the terminal: "You" alone, else "Player N"."""

    def __init__(self, db: str = ":memory:") -> None:
        self.humans: list[int] = []
        self.db = db

    def user(self, user_id: int) -> str:
        if len(self.humans) == 1:
            return "You"
        return f"Player {user_id - FIRST_USER + 1}"

    def channel(self, channel_id: int) -> str:
        return "the terminal"

    def verify_hint(self, session_id: int) -> str:
        """How to check this game once it is over (the end of the game-over line)."""
        if self.db == ":memory:":
            return "the game was not saved (play with --db FILE to keep a game and verify it later)."
        return f"check it with: tabula verify --db {shlex.quote(self.db)} {session_id}"

    def rules_now_hint(self) -> str:
        """Where a refusal sends the player for the rule text of the step asked now."""
        return "type `rules now` for its rule text"

    def command(self, words: str) -> str:
        """How a player gives the command ``words`` (e.g. "undo") at the prompt."""
        return f"`{words}`"

    def undo_hint(self) -> str:
        """How the players asked agree to or refuse an undo request at the keyboard."""
        return "type `undo` to agree or `undo decline` to refuse"

    def repair_hint(self) -> str:
        """How the players at the keyboard get a game stopped by an incident going again."""
        return ("type 'repair undo' to take back the last action, or 'repair ai' to let an AI answer "
                "for the stuck seat (or quit).")


def incident_log_path(db: str) -> str:
    """Where the terminal writes what went wrong (incidents with their tracebacks): next to
    the game file (``FILE.log``), or ``tabula-play.log`` in the temporary folder."""
    if db == ":memory:":
        return os.path.join(tempfile.gettempdir(), "tabula-play.log")
    return db + ".log"


@contextlib.contextmanager
def _incident_log(path: str) -> Iterator[None]:
    """Send the ``tabula`` loggers to ``path`` rather than the terminal while playing, so
    no traceback is printed between the players' lines."""
    logger = logging.getLogger("tabula")
    try:
        handler: logging.Handler = logging.FileHandler(path, encoding="utf-8", delay=True)
    except OSError:
        handler = logging.NullHandler()
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    saved = logger.propagate
    logger.addHandler(handler)
    logger.propagate = False
    try:
        yield
    finally:
        logger.removeHandler(handler)
        logger.propagate = saved
        handler.close()


HELP_LIST = 40  # help lists every legal action up to this many, else groups them by command word


class _Stop(Exception):
    """The player stopped the game (quit, Ctrl-D, Ctrl-C)."""


@contextlib.contextmanager
def _interruptible() -> Iterator[None]:
    """Let Ctrl-C raise KeyboardInterrupt inside a blocking read at once (asyncio's own
    SIGINT handler only cancels the task, which a blocking ``input`` never notices)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.getsignal(signal.SIGINT)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


class FileLock:
    """An exclusive, non-blocking lock on ``PATH.lock`` for as long as a terminal plays
    the database ``PATH`` (POSIX ``flock``). The lock goes with the process; a clean
    release also removes the lock file, so nothing is left beside the database."""

    def __init__(self, db: str) -> None:
        self.path = f"{db}.lock"
        self.fd: int | None = None

    def acquire(self) -> bool:
        """Take the lock; False when another terminal holds it."""
        try:
            import fcntl
        except ImportError:  # no flock here: play without the guard
            return True
        while True:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                os.close(fd)
                return False
            # A releasing holder may have removed the file between our open and our lock: then
            # we hold a lock on a file nobody else will open, so start again on the new one.
            try:
                same = os.path.samestat(os.fstat(fd), os.stat(self.path))
            except FileNotFoundError:
                same = False
            if same:
                self.fd = fd
                return True
            os.close(fd)

    def release(self) -> None:
        """Remove the lock file (while still holding the lock), then drop the lock."""
        if self.fd is not None:
            fd, self.fd = self.fd, None
            with contextlib.suppress(FileNotFoundError):
                os.remove(self.path)
            os.close(fd)  # closing drops the flock


class Console:
    """One local game through the host.

    Parameters
    ----------
    game_id : str | None
        The game for a new session (None when resuming).
    players, ai : int
        Seats in all, and how many of them the computer plays (a new session).
    seed : int | None
        Session seed (default: random).
    agent_kind : str
        heuristic or random, for the AI seats.
    db : str
        SQLite file to keep the game in, or ``":memory:"``.
    resume : bool
        Continue the unfinished game stored in ``db`` instead of starting one.
    auto_pass : bool
        Answer for a human whose only legal answers are ``pass``/``done`` (no
        handover, no prompt); the table sees the pass as usual.

    Text typed at a handover prompt instead of just Enter is the incoming player's first
    command (echoed with a note), so piped input loses nothing.
    """

    def __init__(
        self,
        game_id: str | None,
        players: int = 4,
        ai: int = 3,
        seed: int | None = None,
        agent_kind: str = "heuristic",
        options: Any = None,
        out: Any = None,
        read: Input = input,
        *,
        db: str = ":memory:",
        resume: bool = False,
        auto_pass: bool = False,
    ) -> None:
        self.game_id = game_id
        self.players = players
        self.ai = ai
        self.seed = seed
        self.agent_kind = agent_kind
        self.options = dict(options or {})
        self.out = out or sys.stdout
        self.read = read
        self.db = db
        self.resume = resume
        self.auto_pass = auto_pass
        self.names = TerminalNames(db)
        self.log_path = incident_log_path(db)
        self.host: Host | None = None
        self.game: Any = None
        self.at_keyboard: int | None = None
        self.feed: list[tuple[int | None, str]] = []  # every line so far: (None | owner, text)
        self.since: dict[int, int] = {}  # user -> index in feed of their last move
        self.pending: dict[int, list[str]] = {}  # private lines held for their owner
        self.interrupted = False
        self.typed_ahead: str | None = None  # text typed at a handover prompt: the next command
        self.hinted: set[int] = set()  # players told once how to have the options explained
        self.editor = LineEditor() if read is input else LineEditor(stream=object())

    # ---------------------------------------------------------------- output

    @property
    def hot_seat(self) -> bool:
        return len(self.names.humans) > 1

    @property
    def tty(self) -> bool:
        isatty = getattr(self.out, "isatty", None)
        return bool(isatty and isatty())

    def say(self, text: str = "") -> None:
        print(text, file=self.out, flush=True)

    @staticmethod
    def _private(line: str) -> str:
        return "  (private) " + line

    def show(self, reply: Reply) -> None:
        """Print the reply's lines in order: public ones now, private ones now when their
        owner has the keyboard, else held for the owner's next turn at it."""
        feed = list(reply.feed) or [(None, x) for x in reply.text.splitlines()] + [
            (p.user_id, x) for p in reply.private for x in p.text.splitlines()]
        for owner, text in feed:
            for line in text.splitlines():
                if not line or (owner is None and line.startswith("Now: ")):
                    continue  # who must act now is said right before the prompt instead
                if owner is not None and line.startswith("You are asked: "):
                    continue
                self.feed.append((owner, line))
                if owner is None:
                    self.say(line)
                elif owner == self.at_keyboard:
                    self.say(self._private(line))
                else:
                    self.pending.setdefault(owner, []).append(line)

    def text_of(self, view: Any, how: str) -> str:
        if view is None:
            return "None"
        return self.game.summary(view) if how == "summary" else self.game.hand_text(view)

    async def board(self, user: int | None) -> str:
        assert self.host is not None
        if user is None:
            return self.text_of((await self.host.view(CHANNEL)).image.view, "summary")
        return self.text_of((await self.host.hand(CHANNEL, user)).private[0].view, "summary")

    async def hand(self, user: int) -> str:
        assert self.host is not None
        return self.text_of((await self.host.hand(CHANNEL, user)).private[0].view, "hand_text")

    async def seats(self, me: int | None) -> str:
        """The seats, one a line, the one of ``me`` (the human at the keyboard) marked."""
        assert self.host is not None
        reply = await self.host.view(CHANNEL)
        rec = await self.host.storage.open_session(CHANNEL)
        field = next((f for f in (reply.embed.fields if reply.embed else ()) if f.name == "Seats"), None)
        if field is None or rec is None:
            return ""
        lines = []
        for s, line in zip(rec.seats, field.value.splitlines(), strict=False):
            lines.append(f"  {line}" + (" ← you" if me is not None and s.user_id == me else ""))
        return "Seats:\n" + "\n".join(lines)

    async def seat_of(self, user: int) -> str:
        """"seat 2, Huns" for the user, from the host's seat list."""
        assert self.host is not None
        reply = await self.host.view(CHANNEL)
        rec = await self.host.storage.open_session(CHANNEL)
        seat = rec.seat_of(user) if rec else None
        if seat is None or reply.embed is None:
            return ""
        field = next((f for f in reply.embed.fields if f.name == "Seats"), None)
        rows = field.value.splitlines() if field else []
        label = rows[seat.seat].split(" — ", 1)[1] if seat.seat < len(rows) and " — " in rows[seat.seat] else ""
        return f"seat {seat.seat + 1}" + (f", {label}" if label else "")

    # ---------------------------------------------------------------- input

    def ask(self, prompt: str) -> str:
        """One line from the keyboard; raises _Stop on Ctrl-D or Ctrl-C."""
        try:
            with _interruptible():
                return self.read(prompt)
        except EOFError:
            raise _Stop from None
        except KeyboardInterrupt:
            self.interrupted = True
            self.say("")
            raise _Stop from None

    # ---------------------------------------------------------------- set up

    async def begin(self) -> Reply:
        """Start a new session, or load the stored one. Raises GameError."""
        host = self.host
        assert host is not None
        found = await host.storage.open_session(CHANNEL)
        if self.resume:
            if found is None:
                raise GameError(f"There is no unfinished game in {self.db} to resume.")
            self.game = get_game(found.game_id)
            self.names.humans = [s.user_id for s in found.seats if s.user_id is not None]
            self.say(f"Resuming {self.game.title} (game #{found.id}) after {count(found.seq, 'action')}.")
            reply = await host.view(CHANNEL)
            self.at_keyboard = self.names.humans[0] if len(self.names.humans) == 1 else None
            return reply
        if found is not None:
            raise GameError(f"{self.db} holds an unfinished game; add --resume to continue it, "
                            "or use another file.")
        if self.game_id is None:
            raise GameError("Name the game to play, e.g. barbarian-hordes.")
        self.game = get_game(self.game_id)
        if not self.game.min_players <= self.players <= self.game.max_players:
            raise GameError(f"{self.game.title} takes {self.game.min_players} to {self.game.max_players} "
                            f"players, not {self.players}.")
        if not 0 <= self.ai <= self.players:
            raise GameError(f"--ai must be between 0 and the number of players ({self.players}).")
        humans = [FIRST_USER + n for n in range(self.players - self.ai)]
        self.names.humans = humans
        creator = humans[0] if humans else FIRST_USER
        await host.create(None, CHANNEL, creator, self.game.id, self.options, seed=self.seed, join=bool(humans))
        for user in humans[1:]:
            await host.join(CHANNEL, user)
        if self.ai:
            await host.add_ai(CHANNEL, creator, self.ai, self.agent_kind)
        self.at_keyboard = humans[0] if len(humans) == 1 else None
        reply = await host.start(CHANNEL, creator)  # options and seats are checked before the banner
        self.say(f"{self.game.title}. Type 'help' at your prompt to see what is legal.")
        return reply

    # ---------------------------------------------------------------- loop

    async def arun(self) -> int:
        lock = None
        if self.db != ":memory:":
            from storage import file_problem

            problem = file_problem(self.db, write=True)
            if problem:
                print(f"tabula play: {problem}.", file=sys.stderr)
                return 2
            if self.resume and not os.path.isfile(self.db):
                print(f"tabula play: there is no game file {self.db} to resume.", file=sys.stderr)
                return 2
            lock = FileLock(self.db)
            if not lock.acquire():
                print(f"tabula play: {self.db} is already being played in another terminal; stop the game "
                      "there first (one terminal per file).", file=sys.stderr)
                return 2
        try:
            with _incident_log(self.log_path):
                async with open_host(self.db, HostSettings(db=self.db), names=self.names) as host:
                    self.host = host
                    return await self.session()
        except Exception as e:
            from bot.commands.backup import damage_message, is_damage

            if is_damage(e):
                print(f"tabula play: {damage_message(self.db, e)}", file=sys.stderr)
                return 1
            incident = secrets.token_hex(4)
            with _incident_log(self.log_path):
                logging.getLogger("tabula.console").error("incident %s: %s", incident, type(e).__name__,
                                                          exc_info=e)
            print(f"tabula play: something went wrong and the game stopped (incident {incident}; details in "
                  f"{self.log_path}).", file=sys.stderr)
            if self.db != ":memory:":
                print(f"Everything played before is saved: tabula play --db {shlex.quote(self.db)} --resume",
                      file=sys.stderr)
            return 1
        finally:
            if lock is not None:
                lock.release()

    async def session(self) -> int:
        try:
            reply = await self.begin()
        except GameError as e:
            print(f"tabula play: {e.message}", file=sys.stderr)
            return 2
        self.show(reply)
        if reply.status == "active":
            self.say(await self.board(self.at_keyboard))
            self.say(await self.seats(self.at_keyboard))
        try:
            while reply.status == "active":
                reply = await self.step(reply)
        except _Stop:
            self.stopped()
            return INTERRUPTED if self.interrupted else 0
        self.say("")
        self.say(await self.board(None))
        return 0

    async def step(self, reply: Reply) -> Reply:
        """Answer one prompt of a human (typed, or passed for them with --auto-pass)."""
        host = self.host
        assert host is not None
        humans = [p for p in reply.prompts if p.user_id is not None]
        if not humans and reply.session_id is not None:
            rec = await host.storage.get_session(reply.session_id)
            if rec.attention is not None:
                return await self.repair_turn()
        if not humans:
            self.say("Nobody at the keyboard is asked to act; stopping.")
            raise _Stop
        auto = next((p for p in humans if self.auto_pass and self.passlike(p)), None)
        if auto is not None:
            self.say(f"  ({self.names.user(auto.user_id)}: only '{auto.choices[0]}' is possible; "
                     "answered automatically, --auto-pass.)")
            try:
                got = await host.act(CHANNEL, auto.user_id, auto.choices[0], version=reply.version)
            except StaleStateError:
                return await self.changed()
            self.show(got)
            return got
        prompt = next((p for p in humans if p.user_id == self.at_keyboard), humans[0])
        got = await self.human_turn(prompt, reply.version)
        self.show(got)
        return got

    @staticmethod
    def passlike(prompt: PromptInfo) -> bool:
        """Whether every legal answer to ``prompt`` is a pass (``pass`` or ``done``)."""
        return bool(prompt.choices) and all(c.strip().lower() in PASS_WORDS for c in prompt.choices)

    async def changed(self) -> Reply:
        """The game moved on since the prompt was shown: say so and show where it stands."""
        assert self.host is not None
        self.say("  The game changed meanwhile; nothing was applied. Here is where it stands now:")
        reply = await self.host.view(CHANNEL)
        if reply.status == "active":
            self.say(await self.board(self.at_keyboard))
        return reply

    def stopped(self) -> None:
        if self.db != ":memory:":
            self.say(f"Stopped. Resume with: tabula play --db {shlex.quote(self.db)} --resume")
        else:
            self.say("Stopped. The game was kept in memory only; use --db FILE to be able to resume.")

    def hand_over(self, user: int) -> None:
        """Clear the screen (or print a separator), ask ``user`` to take the keyboard, then
        show what they have not seen: on a terminal everything since their last move, else
        their held private lines. Raises _Stop."""
        if self.tty:
            self.out.write(CLEAR)
            self.out.flush()
        else:
            self.say("")
            self.say("=" * 72)
        self.say(f"--- Pass the keyboard to {self.names.user(user)}; press Enter when only they can see. ---")
        typed = self.ask("").strip()
        self.editor.forget()  # the arrow keys never show the next player what was typed before
        self.at_keyboard = user
        self.typed_ahead = typed or None
        held = self.pending.pop(user, [])
        if self.tty:
            missed = [(o, x) for o, x in self.feed[self.since.get(user, 0):] if o is None or o == user]
            if missed:
                self.say("Since your last move:")
            for owner, line in missed:
                self.say(line if owner is None else self._private(line))
        else:
            for line in held:
                self.say(self._private(line))

    async def human_turn(self, prompt: PromptInfo, version: int | None) -> Reply:
        """Read commands until the prompted user has acted; raises _Stop when they quit."""
        host = self.host
        assert host is not None
        user = prompt.user_id
        assert user is not None
        if self.at_keyboard != user:
            self.hand_over(user)
        where = await self.seat_of(user)
        self.say("")
        self.say(f"{self.names.user(user)}" + (f" ({where})" if where else "") + f" — {prompt.text}")
        if prompt.explains and user not in self.hinted:  # once per player: how to read the options
            self.hinted.add(user)
            self.say("  (explain: what these options do; explain <name>: one of them; rules now: the rule text "
                     "of this step)")
        while True:
            if self.typed_ahead is not None:
                line, self.typed_ahead = self.typed_ahead, None
                self.say(f"> {readable(line)}   (typed at the handover: used as your first command)")
            else:
                if self.editor.active:
                    legal = await host.complete(CHANNEL, user, "", limit=5000)
                    self.editor.offer([*legal, *COMMANDS])
                line = self.ask("> ").strip()
            if unreadable(line):  # bytes that are not UTF-8: say so, never echo them as escapes
                self.say(f"  {UNREADABLE}")
                continue
            word = line.lower()
            if word in ("quit", "exit", "stop"):
                raise _Stop
            if word.split()[:1] in (["help"], ["?"], ["h"]):
                self.say(await self.help(user, line.split(None, 1)[1] if len(line.split()) > 1 else ""))
                continue
            if word in ("hand", "cards"):
                self.say(await self.hand(user))
                continue
            if word in ("status", "board", "b"):
                self.say(await self.board(user))
                self.say(await self.seats(user))
                continue
            if word in ("rules", "glossary", "terms"):
                self.say(self.glossary_text())
                continue
            if word.split()[:1] == ["rules"]:
                self.say(await self.rules_text(user, line.split(None, 1)[1]))
                continue
            if word == "explain":
                self.say(await self.aid_text(user, "explain"))
                continue
            if word.split()[:1] == ["explain"]:
                self.say(self.explain_text(line.split(None, 1)[1] if len(line.split()) > 1 else ""))
                continue
            if word.split()[:1] == ["log"]:
                self.say(await self.log_page(user, word.split()[1:]))
                continue
            if not line:
                continue
            self.since[user] = len(self.feed)
            try:
                if word.split()[:1] == ["repair"]:
                    return await self.repair(word)
                if word == "undo decline":
                    self.show(await host.decline_undo(CHANNEL, user))
                    return await host.view(CHANNEL)
                if word == "undo":
                    self.show(await host.undo(CHANNEL, user))
                    await self.ask_undo()
                    return await host.view(CHANNEL)
                return await host.act(CHANNEL, user, line, version=version)
            except StaleStateError:
                return await self.changed()
            except GameError as e:
                self.say(f"  {e.message}")
                if isinstance(e, GameFaultError):
                    self.say(f"  (The details of incident {e.incident} are in {self.log_path}.)")

    async def ask_undo(self) -> None:
        """An undo request waits for the other players' consent: hand the keyboard to each of
        them in turn to type ``undo`` (agree) or ``undo decline`` (refuse), as /game undo does
        on Discord; the request ends when everyone agreed or one refused. Before the keyboard
        leaves the requester they are told the request was sent and to whom; on a terminal
        (where the handover clears the screen) they press Enter first, so they read it. Raises
        _Stop on quit."""
        assert self.host is not None
        requester = self.at_keyboard
        while True:
            rec = await self.host.storage.open_session(CHANNEL)
            pending = rec.pending_undo if rec and rec.pending_undo and rec.pending_undo.get("seq") == rec.seq else None
            if pending is None:
                return
            user = next(u for u in pending["needed"] if u not in pending["approved"])
            if self.at_keyboard != user:
                if requester is not None and self.at_keyboard == requester:
                    self.undo_sent(requester, [u for u in pending["needed"] if u not in pending["approved"]])
                self.hand_over(user)
            self.say(f"{self.names.user(user)}: {self.names.undo_hint()}.")
            while True:
                if self.typed_ahead is not None:
                    line, self.typed_ahead = self.typed_ahead, None
                else:
                    line = self.ask("undo> ")
                word = " ".join(line.lower().split())
                if word in ("quit", "exit", "stop"):
                    raise _Stop
                try:
                    if word == "undo":
                        self.show(await self.host.undo(CHANNEL, user))
                        break
                    if word == "undo decline":
                        self.show(await self.host.decline_undo(CHANNEL, user))
                        return
                except GameError as e:
                    self.say(f"  {e.message}")
                    return
                self.say(f"  An undo is asked: {self.names.undo_hint()} before play goes on.")

    def undo_sent(self, requester: int, asked: list[int]) -> None:
        """Tell ``requester``, who still has the keyboard, that their undo request was sent and
        who must answer it; on a terminal wait for Enter before the screen is cleared. Raises
        _Stop on quit."""
        who = ", ".join(self.names.user(u) for u in asked)
        you = "Your" if len(self.names.humans) == 1 else f"{self.names.user(requester)}: your"
        self.say(f"  {you} undo request was sent; {who} must agree before it is done.")
        if self.tty and self.ask("  Press Enter to pass the keyboard. ").strip().lower() in ("quit", "exit", "stop"):
            raise _Stop

    async def repair(self, word: str) -> Reply:
        """``repair undo`` / ``repair ai``: the players at the keyboard act as the game's
        moderators. Raises GameError (e.g. nothing to repair)."""
        assert self.host is not None
        how = word.split()[1] if len(word.split()) == 2 else ""
        if how not in ("undo", "ai"):
            raise GameError("Type 'repair undo' (take back the last action) or 'repair ai' (an AI answers "
                            "for the stuck seat).")
        reply = await self.host.repair(CHANNEL, self.at_keyboard or FIRST_USER, how, is_moderator=True)
        self.show(reply)
        return await self.host.view(CHANNEL)

    async def repair_turn(self) -> Reply:
        """The game is stopped on an AI seat by an incident: ask the keyboard how to go on."""
        while True:
            line = self.ask("repair> ").strip().lower()
            if line in ("quit", "exit", "stop"):
                raise _Stop
            try:
                return await self.repair(line)
            except GameError as e:
                self.say(f"  {e.message}")
                if isinstance(e, GameFaultError):
                    self.say(f"  (The details of incident {e.incident} are in {self.log_path}.)")

    async def log_page(self, user: int, args: list[str]) -> str:
        """``log`` shows the latest actions, ``log N`` page N counted back from the latest."""
        assert self.host is not None
        if len(args) > 1 or (args and not args[0].isdigit()):
            return "  Type log for the latest actions, or log N (a page number, 2 = the page before)."
        page = int(args[0]) if args else 1
        return (await self.host.log(CHANNEL, user, page=page, per_page=15)).text

    def explain_text(self, name: str) -> str:
        """``explain <name>``: the full text, cost and timing of what the game calls ``name``
        (games.core.explain), or that nothing is called so, with the nearest names."""
        return "\n".join("  " + x for x in explain_text(self.game.explanations(), name).splitlines())

    @staticmethod
    def _plain(text: str) -> str:
        """Help written for Discord as indented plain lines: no bold or code marks, quotes
        indented."""
        out = []
        for x in text.splitlines():
            x = x.replace("**", "").replace("`", "")
            out.append("    " + x[2:] if x.startswith("> ") else "  " + x if x else "")
        return "\n".join(out)

    async def aid_text(self, user: int, what: str) -> str:
        """``explain`` alone: what the options of the decision asked now name; ``rules now``:
        the rule text of this step (the host's ``aid``)."""
        assert self.host is not None
        try:
            reply = await self.host.aid(CHANNEL, user, what)
        except GameError as e:
            return "  " + e.message
        return self._plain(reply.text)

    async def rules_text(self, user: int, topic: str) -> str:
        """``rules <topic>``: the rule text's sentences on a section, a ruling number or any
        word, with the rulings on them (games.core.rulebook); ``rules now`` the current step."""
        if topic.strip().lower() in ("now", "step", "this"):
            return await self.aid_text(user, "rules")
        return self._plain(topic_text(self.game, topic))

    def glossary_text(self) -> str:
        """`rules`: the game's one-screen summary and its glossary (games.core.glossary), as plain lines."""
        rows = glossary(self.game)
        text = summary(self.game)
        lines = [f"{self.game.title} — how it is played:"] if text else []
        lines += ["  " + x.replace("**", "").replace("`", "") if x else "" for x in text.splitlines()]
        if not rows:
            return "\n".join(lines + ["", "  Type help to see what you may do now."]).strip("\n")
        lines += ["", f"{self.game.title} — terms and marks:"]
        lines += [f"  {term.replace('`', '')} — {meaning.replace('`', '')}" for term, meaning in rows]
        return "\n".join(lines)

    async def help(self, user: int, topic: str = "") -> str:
        """What is legal now: every action when there are at most ``HELP_LIST`` of them (or
        those starting with ``topic``, as in ``help move``); else one line per command word
        with how many there are and a few examples."""
        assert self.host is not None
        options = await self.host.complete(CHANNEL, user, topic, limit=None)
        if topic and not options:
            return f"  Nothing legal now starts with {shorten(topic)!r}; type help to see what is."
        if len(options) <= HELP_LIST or topic:
            lines = ["Legal now (type one; names may be shortened):"]
            lines += [f"  {o}" for o in options[: HELP_LIST * 2]]
            if len(options) > HELP_LIST * 2:
                lines.append(
                    f"  ... and {len(options) - HELP_LIST * 2} more; type more of it to narrow the list, "
                    f"e.g. help {' '.join(options[-1].split()[:3])}"
                )
        else:
            groups: dict[str, list[str]] = {}
            for o in options:
                groups.setdefault(o.split()[0], []).append(o)
            lines = [f"Legal now: {count(len(options), 'action')} (type one; names may be shortened). By command word:"]
            for verb, items in groups.items():
                shown = "; ".join(items[:3]) + ("; ..." if len(items) > 3 else "")
                lines.append(f"  {verb} ({len(items)}): {shown}")
            lines.append("Type help <word> for all of them, e.g. help " + max(groups, key=lambda v: len(groups[v])) + ".")
        lines.append(f"Also: explain <name> (what a {self.game.explained} does; explain alone: these options), "
                     "rules (the summary), rules <topic> (the rule text on a phase, a word or a ruling like R3; "
                     "rules now: this step), hand, status, log [page], undo (take back your last action; undo decline: refuse an undo another player asks for), help, quit.")
        return "\n".join(lines)

    def run(self) -> int:
        return asyncio.run(self.arun())


def play(args: Any, read: Input = input, out: Any = None) -> int:
    """``tabula play`` entry point; returns the exit status (130 after Ctrl-C)."""
    console = Console(
        getattr(args, "game", None),
        args.players,
        args.ai,
        args.seed,
        args.agents,
        options=getattr(args, "options", None),
        read=read,
        out=out,
        db=getattr(args, "db", None) or ":memory:",
        resume=getattr(args, "resume", False),
        auto_pass=getattr(args, "auto_pass", False),
    )
    return console.run()
