"""A whole game played by its human seats through the Discord emulator, counting what each
player was sent: notifications per question, images, a follower's updates (issue "one
notification per question"). Used by ``tests/e2e/test_notifications.py`` and
``bench/notifications.py``.

A notification is a created message (an edit notifies nobody) that pings the player, or a
created direct message to them. A question is new when the player's ``prompt_token``
digest changes or they acted; a follow-up is a new question of the player who just acted.
"""

from __future__ import annotations

import random
from collections import Counter, defaultdict
from collections.abc import Awaitable, Callable
from typing import Any

from bot.host.replies import parse_token
from tests.fakediscord import Channel, FakeDiscord, Message, User

MAX_STEPS = 1500


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
            if (len(parts) >= 4 and parts[1] in ("p", "q", "m") and parts[2] == str(sid)
                    and parts[3].split(".", 1)[-1] == digest):
                comp = m.find_component(cid)
                if comp is not None and not comp.get("disabled"):
                    return m, cid
    return None


def _private_thread(fake: FakeDiscord, m: Message) -> bool:
    ch = fake.channels.get(m.channel_id)
    return ch is not None and ch.type == 12


async def play_through(
    fake: FakeDiscord, bot: Any, thread: Channel, sid: int, humans: dict[int, User], rng: random.Random,
    *, spectator: User | None = None, first: int = 0, max_steps: int | None = None,
    decide: Callable[[User], Awaitable[int | None]] | None = None,
) -> dict[str, Any]:
    """Play session ``sid`` to its end: a random human who is asked clicks one of the buttons
    of their live private prompt, or types a suggested ``/play``; returns the counts (see
    ``bench/notifications.py``). ``first``: messages with ids up to it are not counted;
    ``max_steps``: stop after that many actions (the game then goes on); ``decide``: how a
    player answers instead (clicks their way to an action and returns the clicks made, or
    None when nothing could be clicked: they then type a suggested ``/play``). The result
    counts the clicks per decision (``clicks``) and the decisions typed (``typed``)."""
    follower_id = spectator.id if spectator is not None else 0
    game = (await bot.host.storage.get_session(sid)).game_id

    async def done(rec: Any) -> Any:
        await rec.response(timeout=120.0)
        await bot.tracker.idle()
        return rec

    questions = 0
    notes: Counter[int] = Counter()
    per_question: dict[tuple[int, str, int], int] = defaultdict(int)
    current: dict[int, tuple[str, int] | None] = {}
    follow_ups = follow_ups_notified = 0
    seen_id = first
    public_steps = updates = 0
    follower_msgs = follower_images = 0
    end_notified: set[int] = set()
    steps = 0
    actor: int | None = None
    clicks: list[int] = []
    typed = 0

    async def tokens() -> dict[int, str]:
        return {uid: (await bot.host.question_token(thread.id, uid, session_id=sid)) or ""
                for uid in humans}

    async def account(actor: int | None) -> None:
        nonlocal seen_id, questions, follow_ups, follow_ups_notified, public_steps, updates
        nonlocal follower_msgs, follower_images
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
            if m.channel_id == thread.id and m.audience is None and ("**Now**" in m.content or "Game over" in m.content):
                updates += 1
            if m.channel_id == thread.id and m.audience is None:
                for f in m.files:
                    if f.filename.startswith("board"):
                        public_steps += 1
            if ch is not None and ch.type == 1 and ch.recipient is not None and ch.recipient.id == follower_id:
                follower_msgs += 1
                follower_images += board_images(m)
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
            if status != "active" and (got[uid] or uid == actor):  # the actor reads the reply to their move
                end_notified.add(uid)

    await account(None)
    while True:
        rec = await bot.host.storage.get_session(sid)
        if rec.status != "active" or (max_steps is not None and steps >= max_steps):
            break
        toks = await tokens()
        waiting = [uid for uid, t in toks.items() if t]
        if not waiting:
            raise RuntimeError(f"{game}: nobody human is asked")
        uid = rng.choice(waiting)
        user = humans[uid]
        made = await decide(user) if decide is not None else None
        found = private_choice(fake, user, sid, toks[uid]) if decide is None else None
        if made is not None:
            clicks.append(made)
        elif found is not None:
            clicks.append(1)
            msg, cid = found
            comp = msg.find_component(cid)
            if comp is not None and comp["type"] == 3:
                value = rng.choice([o["value"] for o in comp["options"]])
                await done(await fake.select(user, msg, cid, [value]))
            else:
                await done(await fake.click(user, msg, cid))
        else:
            typed += 1
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
        "public_updates": updates,
        "private_images": sum(1 for m in fake.messages.values() for f in m.files
                              if f.filename.startswith("hand")),
        "spectator_messages": follower_msgs,
        "follower_images": follower_images,
        "rejected": len(fake.rejected) + len(fake.unknown_routes) + len(fake.invalid),
        "clicks": clicks,
        "typed": typed,
    }
    return out
