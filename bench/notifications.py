"""Notifications and images of whole emulated games: the real bot against the local Discord API
emulator (tests/fakediscord), one game of each of the five games, played by three humans (and
AI seats where a game needs more) who answer by clicking their private prompt's buttons when it
has them and by ``/play`` otherwise; a fourth user follows each game.

    python bench/notifications.py [--games barbarian-hordes,credo] [--seed 1] [--notify thread|dm]
                                  [--every move|turn|round]

Prints, per game:

- questions: how many times a human was asked something new (a new question of their seat);
- notifications: pings (a mention Discord delivers) and new direct messages, per player, and
  the most any one question got (target: at most 1), the questions notified twice or more;
- own follow-ups: questions that follow the asker's own action within the same turn, and how
  many of them notified that player anyway (target: none: their private reply carries it);
- game over: how many players were notified when the game ended (target: all of them);
- images: board images posted in the game's channel, public updates (messages saying who is
  asked now or that the game is over), private images (hands);
- spectator: messages the follower received, and how many carried the board image.

A notification is counted when a message is created (an edit notifies nobody) that pings the
player, or when a direct message is created for them.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import logging
import random
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import discord.gateway  # noqa: E402
import discord.http  # noqa: E402
import yarl  # noqa: E402

from bot.discordbot.client import TabulaBot  # noqa: E402
from bot.discordbot.settings import BotSettings  # noqa: E402
from tests.e2e.playthrough import play_through  # noqa: E402
from tests.fakediscord import FakeDiscord  # noqa: E402
from tests.fakediscord.fixtures import running  # noqa: E402

GAMES: dict[str, tuple[str, int]] = {  # game -> (options, AI seats added)
    "barbarian-hordes": ("round_limit=2", 1),
    "credo": ("round_limit=2", 0),
    "promised-land": ("", 0),
    "roman-war": ("", 0),
    "soul-of-the-empire": ("round_limit=2", 0),
}


class BenchBot(TabulaBot):
    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        pass


class Clock:
    def __init__(self) -> None:
        self.t = 1_750_000_000.0

    def __call__(self) -> float:
        return self.t


async def play_game(game: str, seed: int, notify: str | None = None, every: str | None = None,
                    driver: Any = None) -> dict[str, Any]:
    """Play one emulated game (see the module's docstring) and return ``play_through``'s
    counts. ``driver(fake, bot, session_id)``, when given, returns how each player answers
    (``play_through``'s ``decide``)."""
    options, ais = GAMES[game]
    fake = await FakeDiscord().start()
    discord.http.Route.BASE = fake.api_base
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(fake.gateway_url)
    g = fake.add_guild("Historians")
    channel = fake.add_text_channel(g, "games")
    alice, bob, carol, dave = (fake.add_user(n) for n in ("alice", "bob", "carol", "dave"))
    for u in (alice, bob, carol, dave):
        fake.add_member(g, u)
    humans = {u.id: u for u in (alice, bob, carol)}
    tmp = tempfile.TemporaryDirectory()
    seeds = itertools.count(seed)
    bot = BenchBot(
        BotSettings(discord_token=fake.token, db=str(Path(tmp.name) / "t.db"), dev_guild=g.id),
        clock=Clock(), reminders=False, guild_ready_timeout=0.01, host_args={"seeds": lambda: next(seeds)},
    )
    rng = random.Random(seed)
    out: dict[str, Any] = {}
    try:
        async with running(bot, fake):
            async def done(rec: Any) -> Any:
                await rec.response(timeout=120.0)
                await bot.tracker.idle()
                return rec

            await bot.sync_commands(g.id)
            await done(await fake.slash(alice, channel, "game new", game=game,
                                        **({"options": options} if options else {})))
            thread = next(c for c in fake.channels.values() if c.type == 11)
            for u in (bob, carol):
                await done(await fake.slash(u, thread, "game join"))
            if ais:
                await done(await fake.slash(alice, thread, "game ai", count=ais))
            await done(await fake.slash(dave, thread, "game follow", **({"every": every} if every else {})))
            if notify:
                for u in humans.values():
                    await done(await fake.slash(u, thread, "game prefs", notify=notify))
            first = max(fake.messages) if fake.messages else 0
            await done(await fake.slash(alice, thread, "game start"))
            rec = await bot.host.storage.open_session(thread.id)
            assert rec is not None, "the game did not start"
            sid = rec.id

            decide = driver(fake, bot, sid) if driver is not None else None
            out = await play_through(fake, bot, thread, sid, humans, rng, spectator=dave, first=first,
                                     decide=decide)
    finally:
        await fake.stop()
        tmp.cleanup()
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", default=",".join(GAMES))
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--notify", choices=("thread", "dm"), help="every player's /game prefs notify")
    ap.add_argument("--every", choices=("move", "turn", "round"), help="the follower's /game follow every")
    ap.add_argument("--log", action="store_true", help="show the bot's warnings and errors")
    args = ap.parse_args()
    logging.basicConfig(level=logging.CRITICAL if not args.log else logging.WARNING)
    rows = []
    for g in args.games.split(","):
        try:
            rows.append(asyncio.run(play_game(g, args.seed, args.notify, args.every)))
        except Exception as e:  # report the game that failed, measure the others
            print(f"{g}: failed: {e!r}", file=sys.stderr)
    head = ("game", "steps", "questions", "notifications", "per_player", "max_per_question",
            "questions_notified_twice", "follow_ups", "follow_ups_notified", "end_notified", "board_images",
            "public_updates", "private_images", "spectator_messages", "follower_images", "rejected")
    print("\t".join(head))
    for r in rows:
        print("\t".join(str(r[h]) for h in head))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
