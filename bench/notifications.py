"""Notifications and images of whole emulated games: the real bot against the local Discord API
emulator (tests/fakediscord), one game of each of the five games, played by three humans (and
AI seats where a game needs more) who answer by clicking their private prompt's buttons when it
has them and by ``/play`` otherwise; a fourth user follows each game.

    python bench/notifications.py [--games barbarian-hordes,credo] [--seed 1]

Prints, per game:

- questions: how many times a human was asked something new (a new question of their seat);
- notifications: pings (a mention Discord delivers) and new direct messages, per player, and
  the most any one question got (target: at most 1), the questions notified twice or more;
- own follow-ups: questions that follow the asker's own action within the same turn, and how
  many of them notified that player anyway (target: none: their private reply carries it);
- game over: how many players were notified when the game ended (target: all of them);
- images: board images posted in the game's channel, private images (hands), and the public
  steps whose board did not change;
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
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import discord.gateway  # noqa: E402
import discord.http  # noqa: E402
import yarl  # noqa: E402

from bot.discordbot.client import TabulaBot  # noqa: E402
from bot.discordbot.settings import BotSettings  # noqa: E402
from bot.host.replies import parse_token  # noqa: E402
from tests.fakediscord import FakeDiscord, Message, User  # noqa: E402
from tests.fakediscord.fixtures import running  # noqa: E402

GAMES: dict[str, tuple[str, int]] = {  # game -> (options, AI seats added)
    "barbarian-hordes": ("round_limit=2", 1),
    "credo": ("round_limit=2", 0),
    "promised-land": ("", 0),
    "roman-war": ("", 0),
    "soul-of-the-empire": ("round_limit=2", 0),
}
MAX_STEPS = 1500


class BenchBot(TabulaBot):
    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        pass


class Clock:
    def __init__(self) -> None:
        self.t = 1_750_000_000.0

    def __call__(self) -> float:
        return self.t


def pinged(m: Message) -> set[int]:
    return set(m.mentioned_user_ids())


def board_images(m: Message) -> int:
    return sum(1 for f in m.files if f.filename.startswith("board"))


def private_choice(fake: FakeDiscord, user: User, sid: int, token: str) -> tuple[Message, str] | None:
    """The newest message only ``user`` sees whose components answer ``token``."""
    digest = token.split(".", 1)[1]
    for m in sorted(fake.visible_to(user), key=lambda m: m.id, reverse=True):
        if m.audience is None and not _private_thread(fake, m):
            continue
        for cid in m.custom_ids():
            parts = cid.split(":")
            if len(parts) >= 4 and parts[1] in ("p", "q", "m") and parts[2] == str(sid):
                if parts[3].split(".", 1)[-1] == digest:
                    comp = m.find_component(cid)
                    if comp is not None and not comp.get("disabled"):
                        return m, cid
    return None


def _private_thread(fake: FakeDiscord, m: Message) -> bool:
    ch = fake.channels.get(m.channel_id)
    return ch is not None and ch.type == 12


async def play_game(game: str, seed: int) -> dict[str, Any]:
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
                await rec.response()
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
            await done(await fake.slash(dave, thread, "game follow"))
            first = max(fake.messages) if fake.messages else 0
            await done(await fake.slash(alice, thread, "game start"))
            rec = await bot.host.storage.open_session(thread.id)
            assert rec is not None, "the game did not start"
            sid = rec.id

            questions = 0
            notes: Counter[int] = Counter()
            per_question: dict[tuple[int, str, int], int] = defaultdict(int)
            current: dict[int, tuple[str, int] | None] = {}
            follow_ups = follow_ups_notified = 0
            seen_id = first
            public_steps = unchanged = 0
            last_board: bytes | None = None
            spectator = spectator_images = 0
            end_notified: set[int] = set()
            steps = 0
            actor: int | None = None

            async def tokens() -> dict[int, str]:
                return {uid: (await bot.host.question_token(thread.id, uid, session_id=sid)) or ""
                        for uid in humans}

            async def account(actor: int | None) -> None:
                nonlocal seen_id, questions, follow_ups, follow_ups_notified, public_steps, unchanged
                nonlocal last_board, spectator, spectator_images
                new = sorted((m for i, m in fake.messages.items() if i > seen_id), key=lambda m: m.id)
                if new:
                    seen_id = max(seen_id, new[-1].id)
                got: Counter[int] = Counter()
                for m in new:
                    ch = fake.channels.get(m.channel_id)
                    if m.ephemeral:
                        continue
                    who = pinged(m)
                    if ch is not None and ch.type == 1 and ch.recipient is not None:
                        who.add(ch.recipient.id)
                    for uid in who:
                        got[uid] += 1
                    if m.channel_id == thread.id and m.audience is None:
                        for f in m.files:
                            if f.filename.startswith("board"):
                                public_steps += 1
                                if last_board is not None and f.data == last_board:
                                    unchanged += 1
                                last_board = f.data
                    if ch is not None and ch.type == 1 and ch.recipient is not None and ch.recipient.id == dave.id:
                        spectator += 1
                        spectator_images += board_images(m)
                now = await tokens()
                status = (await bot.host.storage.get_session(sid)).status
                for uid in humans:
                    tok = now.get(uid, "")
                    parsed = parse_token(tok) if tok else None
                    before = current.get(uid)
                    if parsed is None:
                        current[uid] = None
                    elif before is None or before[0] != parsed[1] or uid == actor:
                        current[uid] = (parsed[1], parsed[0])
                        questions += 1
                        if uid == actor:
                            follow_ups += 1
                            if got[uid]:
                                follow_ups_notified += 1
                    q = current[uid]
                    if got[uid]:
                        notes[uid] += got[uid]
                        if q is not None:
                            per_question[(uid, q[0], q[1])] += got[uid]
                    if status != "active" and got[uid]:
                        end_notified.add(uid)

            await account(None)
            while True:
                rec = await bot.host.storage.get_session(sid)
                if rec.status != "active":
                    break
                toks = await tokens()
                waiting = [uid for uid, t in toks.items() if t]
                if not waiting:
                    raise RuntimeError(f"{game}: nobody human is asked")
                uid = rng.choice(waiting)
                user = humans[uid]
                found = private_choice(fake, user, sid, toks[uid])
                if found is not None:
                    msg, cid = found
                    comp = msg.find_component(cid)
                    if comp is not None and comp["type"] == 3:
                        value = rng.choice([o["value"] for o in comp["options"]])
                        await done(await fake.select(user, msg, cid, [value]))
                    else:
                        await done(await fake.click(user, msg, cid))
                else:
                    ac = await done(await fake.autocomplete(user, thread, "play", focused="action", action=""))
                    values = [c["value"] for c in ac.choices]
                    if not values:
                        raise RuntimeError(f"{game}: autocomplete offers nothing")
                    await done(await fake.slash(user, thread, "play", action=rng.choice(values)))
                actor = uid
                await account(actor)
                steps += 1
                if steps > MAX_STEPS:
                    raise RuntimeError(f"{game}: the game does not end")
            out = {
                "game": game,
                "steps": steps,
                "questions": questions,
                "notifications": sum(notes.values()),
                "per_player": [notes[u] for u in humans],
                "max_per_question": max(per_question.values(), default=0),
                "questions_notified_twice": sum(1 for v in per_question.values() if v > 1),
                "follow_ups": follow_ups,
                "follow_ups_notified": follow_ups_notified,
                "end_notified": len(end_notified),
                "players": len(humans),
                "board_images": sum(board_images(m) for m in fake.channel_messages(thread) if m.audience is None),
                "unchanged_boards": unchanged,
                "private_images": sum(1 for m in fake.messages.values() for f in m.files
                                      if f.filename.startswith("hand")),
                "spectator_messages": spectator,
                "spectator_images": spectator_images,
                "rejected": len(fake.rejected) + len(fake.unknown_routes) + len(fake.invalid),
            }
    finally:
        await fake.stop()
        tmp.cleanup()
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", default=",".join(GAMES))
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    logging.basicConfig(level=logging.CRITICAL)
    rows = []
    for g in args.games.split(","):
        try:
            rows.append(asyncio.run(play_game(g, args.seed)))
        except Exception as e:  # report the game that failed, measure the others
            print(f"{g}: failed: {e!r}", file=sys.stderr)
    head = ("game", "steps", "questions", "notifications", "per_player", "max_per_question",
            "questions_notified_twice", "follow_ups", "follow_ups_notified", "end_notified", "board_images",
            "unchanged_boards", "private_images", "spectator_messages", "spectator_images", "rejected")
    print("\t".join(head))
    for r in rows:
        print("\t".join(str(r[h]) for h in head))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
