"""Play a game in the terminal: humans at one keyboard against AI seats.

The console is an adapter over the host service, like the Discord cogs: every
action goes through ``bot.host.Host`` and is stored in a SQLite database, so a game
kept in a file (``--db game.db``) can be stopped and resumed (``--resume``).

Hidden information is kept as the bot keeps it: each human sees only its own
hand and private events; when several humans share the keyboard, the console
asks the next one to take over before showing anything private.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Callable
from typing import Any

from bot.host import Host, HostSettings, Reply, open_host
from games.core import GameError, get_game

Input = Callable[[str], str]

CHANNEL = 0  # the terminal's one "channel"
FIRST_USER = 1  # human seat n is played by user FIRST_USER + n


class TerminalNames:
    """How the host writes players in the terminal: "You" alone, else "Player N"."""

    def __init__(self) -> None:
        self.humans: list[int] = []

    def user(self, user_id: int) -> str:
        if len(self.humans) == 1:
            return "You"
        return f"Player {user_id - FIRST_USER + 1}"

    def channel(self, channel_id: int) -> str:
        return "the terminal"


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
        self.names = TerminalNames()
        self.host: Host | None = None
        self.game: Any = None
        self.at_keyboard: int | None = None
        self.pending: dict[int, list[str]] = {}

    # ---------------------------------------------------------------- output

    def say(self, text: str = "") -> None:
        print(text, file=self.out, flush=True)

    def show(self, reply: Reply) -> None:
        """Public text now; private parts to their owner, when at the keyboard."""
        text = "\n".join(x for x in reply.text.splitlines() if not x.startswith("Now: "))
        if text:  # who must act now is said right before the prompt instead
            self.say(text)
        for part in reply.private:
            lines = [x for x in part.text.splitlines() if x and not x.startswith("You are asked: ")]
            self.pending.setdefault(part.user_id, []).extend(lines)
        self.flush_private()

    def flush_private(self) -> None:
        user = self.at_keyboard
        if user is not None and self.pending.get(user):
            for line in self.pending[user]:
                self.say("  (private) " + line)
            self.pending[user] = []

    def text_of(self, view: Any, how: str) -> str:
        render = getattr(self.game, how, None)
        return render(view) if render and view is not None else str(view)

    async def board(self, user: int | None) -> str:
        assert self.host is not None
        if user is None:
            return self.text_of((await self.host.view(CHANNEL)).image.view, "summary")
        return self.text_of((await self.host.hand(CHANNEL, user)).private[0].view, "summary")

    async def hand(self, user: int) -> str:
        assert self.host is not None
        return self.text_of((await self.host.hand(CHANNEL, user)).private[0].view, "hand_text")

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
            self.say(f"Resuming {self.game.title} (game #{found.id}) after {found.seq} actions.")
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
        self.say(f"{self.game.title}. Type 'help' at your prompt to see what is legal.")
        return await host.start(CHANNEL, creator)

    # ---------------------------------------------------------------- loop

    async def arun(self) -> int:
        async with open_host(self.db, HostSettings(db=self.db), names=self.names) as host:
            self.host = host
            try:
                reply = await self.begin()
            except GameError as e:
                print(f"tabula play: {e.message}", file=sys.stderr)
                return 2
            self.show(reply)
            if reply.status == "active":
                self.say(await self.board(self.at_keyboard))
            while reply.status == "active":
                prompt = next((p for p in reply.prompts if p.user_id is not None), None)
                if prompt is None:
                    self.say("Nobody at the keyboard is asked to act; stopping.")
                    return 1
                got = await self.human_turn(prompt.user_id, prompt.text)
                if got is None:
                    self.stopped(reply)
                    return 0
                reply = got
                self.show(reply)
            self.say("")
            self.say(await self.board(None))
            return 0

    def stopped(self, reply: Reply) -> None:
        if self.db != ":memory:":
            self.say(f"Stopped. Resume with: tabula play --db {self.db} --resume")
        else:
            self.say("Stopped. The game was kept in memory only; use --db FILE to be able to resume.")

    async def human_turn(self, user: int, prompt_text: str) -> Reply | None:
        """Read commands until ``user`` has acted; None when the player quits."""
        host = self.host
        assert host is not None
        if self.at_keyboard != user:
            self.say("")
            self.say(f"--- Pass the keyboard to {self.names.user(user)}; press Enter when only they can see. ---")
            try:
                self.read("")
            except EOFError:
                return None
            self.at_keyboard = user
            self.flush_private()
        self.say("")
        self.say(f"{self.names.user(user)} — {prompt_text}")
        while True:
            try:
                line = self.read("> ").strip()
            except EOFError:
                return None
            word = line.lower()
            if word in ("quit", "exit", "stop"):
                return None
            if word in ("help", "?", "h"):
                self.say(await self.help(user))
                continue
            if word in ("hand", "cards"):
                self.say(await self.hand(user))
                continue
            if word in ("status", "board", "b"):
                self.say(await self.board(user))
                continue
            if word == "log":
                self.say((await host.log(CHANNEL, user, per_page=15)).text)
                continue
            if not line:
                continue
            try:
                if word == "undo":
                    reply = await host.undo(CHANNEL, user)
                    self.show(reply)
                    return await host.view(CHANNEL)
                return await host.act(CHANNEL, user, line)
            except GameError as e:
                self.say(f"  {e.message}")

    async def help(self, user: int) -> str:
        assert self.host is not None
        options = await self.host.complete(CHANNEL, user, "", limit=None)
        lines = ["Legal now (type one; names may be shortened):"]
        lines += [f"  {o}" for o in options]
        lines.append("Also: hand, status, log, undo, help, quit.")
        return "\n".join(lines)

    def run(self) -> int:
        return asyncio.run(self.arun())


def play(args: Any, read: Input = input, out: Any = None) -> int:
    """``tabula play`` entry point."""
    console = Console(
        getattr(args, "game", None),
        args.players,
        args.ai,
        args.seed,
        args.agents,
        read=read,
        out=out,
        db=getattr(args, "db", None) or ":memory:",
        resume=getattr(args, "resume", False),
    )
    return console.run()
