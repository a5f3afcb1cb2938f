"""Play a game in the terminal: humans at one keyboard against AI seats.

Hidden information is kept as the bot keeps it: each human sees only its own
hand and private events; when several humans share the keyboard, the console
asks the next one to take over before showing anything private.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

from games.core import GameError, Seat, apply_at, get_game, new_seed, start
from games.core.agents import Agent, make_agent

Input = Callable[[str], str]


class Console:
    """One local game. ``humans``: the seats played at the keyboard."""

    def __init__(
        self,
        game_id: str,
        players: int,
        ai: int,
        seed: int | None = None,
        agent_kind: str = "heuristic",
        options: Any = None,
        out: Any = None,
        read: Input = input,
    ) -> None:
        self.game = get_game(game_id)
        if not self.game.min_players <= players <= self.game.max_players:
            raise GameError(
                f"{self.game.title} takes {self.game.min_players} to {self.game.max_players} players, not {players}."
            )
        if not 0 <= ai <= players:
            raise GameError(f"--ai must be between 0 and the number of players ({players}).")
        self.seed = new_seed() if seed is None else seed
        self.humans = list(range(players - ai))
        self.agents: dict[Seat, Agent] = {
            x: make_agent(self.game, agent_kind, self.seed + x) for x in range(players - ai, players)
        }
        self.options = self.game.Options(**(options or {}))
        self.out = out or sys.stdout
        self.read = read
        step = start(self.game, list(range(players)), self.options, self.seed)
        self.state = step.state
        self.step = 0
        self.at_keyboard: Seat | None = self.humans[0] if len(self.humans) == 1 else None
        self.pending: dict[Seat, list[str]] = {x: [] for x in self.humans}
        self.setup_events = step.events

    # ---------------------------------------------------------------- output

    def say(self, text: str = "") -> None:
        print(text, file=self.out, flush=True)

    def name(self, seat: Seat) -> str:
        v = self.game.view(self.state, None)
        players = getattr(v, "players", None)
        nation = players[seat].nation if players else None
        label = nation or f"Seat {seat + 1}"
        if seat in self.agents:
            return f"{label} (AI)"
        if len(self.humans) == 1:
            return f"{label} (you)"
        return label if not nation else f"{label} (seat {seat + 1})"

    def log(self, events: Any) -> None:
        """Public events now; private ones to the human they belong to, when it is at the keyboard."""
        for e in events:
            if e.visible_to is None:
                self.say("  " + e.describe())
            else:
                for x in e.visible_to:
                    if x in self.pending:
                        self.pending[x].append(e.describe())
        self.flush_private()

    def flush_private(self) -> None:
        x = self.at_keyboard
        if x is not None and self.pending.get(x):
            for line in self.pending[x]:
                self.say("  (private) " + line)
            self.pending[x] = []

    def board(self, viewer: Seat | None) -> str:
        v = self.game.view(self.state, viewer)
        summarize = getattr(self.game, "summary", None)
        return summarize(v) if summarize else str(v)

    # ---------------------------------------------------------------- loop

    def run(self) -> int:
        self.say(f"{self.game.title} — seed {self.seed}. Type 'help' at your prompt to see what is legal.")
        self.log(self.setup_events)
        self.say(self.board(self.at_keyboard))
        while self.game.outcome(self.state) is None:
            prompts = self.game.to_act(self.state)
            ai = [x for x in prompts if x in self.agents]
            seat = ai[0] if ai else next(iter(prompts))
            if seat in self.agents:
                action = self.agents[seat].choose(self.game, self.state, seat)
                if prompts[seat].kind != "secret":  # a secret choice is announced by its event
                    self.say(f"{self.name(seat)}: {self.game.format_action(self.state, action)}")
                self.apply(seat, action)
                continue
            if not self.human_turn(seat, prompts[seat]):
                self.say(f"Stopped. The same seed ({self.seed}) and moves replay this game.")
                return 0
        outcome = self.game.outcome(self.state)
        self.say("")
        self.say(self.board(None))
        self.say(f"Game over: {outcome.reason} (seed {self.seed})")
        return 0

    def apply(self, seat: Seat, action: Any) -> None:
        self.step += 1
        st = apply_at(self.game, self.state, seat, action, self.seed, self.step)
        self.state = st.state
        self.log(st.events)

    def human_turn(self, seat: Seat, prompt: Any) -> bool:
        """Read commands until ``seat`` has acted; False when the player quits."""
        if self.at_keyboard != seat:
            self.say("")
            self.say(f"--- Pass the keyboard to {self.name(seat)}; press Enter when only they can see. ---")
            try:
                self.read("")
            except EOFError:
                return False
            self.at_keyboard = seat
            self.flush_private()
        self.say("")
        self.say(f"{self.name(seat)} — {prompt.text}")
        while True:
            try:
                line = self.read("> ").strip()
            except EOFError:
                return False
            word = line.lower()
            if word in ("quit", "exit"):
                return False
            if word in ("help", "?", "h"):
                self.say(self.help(seat))
                continue
            if word in ("hand", "cards"):
                self.say(self._hand(seat))
                continue
            if word in ("status", "board", "b"):
                self.say(self.board(seat))
                continue
            if not line:
                continue
            try:
                action = self.game.parse_action(self.state, seat, line)
            except GameError as e:
                self.say(f"  {e.message}")
                continue
            self.apply(seat, action)
            return True

    def _hand(self, seat: Seat) -> str:
        v = self.game.view(self.state, seat)
        hand_text = getattr(self.game, "hand_text", None)
        return hand_text(v) if hand_text else str(v)

    def help(self, seat: Seat) -> str:
        options = self.game.complete(self.state, seat, "")
        lines = ["Legal now (type one; names may be shortened):"]
        lines += [f"  {o}" for o in options]
        lines.append("Also: hand, status, help, quit.")
        return "\n".join(lines)


def play(args: Any, read: Input = input, out: Any = None) -> int:
    """``tabula play`` entry point."""
    try:
        console = Console(args.game, args.players, args.ai, args.seed, args.agents, read=read, out=out)
    except GameError as e:
        print(f"tabula play: {e.message}", file=sys.stderr)
        return 2
    return console.run()
