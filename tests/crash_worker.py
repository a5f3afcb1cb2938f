"""A worker process for the crash test: plays the toy game through the host on a
database file forever, printing ``committed SESSION SEQ`` after each action has been
durably stored. The test kills it with SIGKILL at random points.

Usage: ``python -m tests.crash_worker DB_PATH WORKER_SEED``
"""

from __future__ import annotations

import asyncio
import random
import sys

from bot.host import Host, HostSettings
from games.core import GameError
from storage import SqliteStorage
from tests.host_helpers import ALICE, BOB, CAROL, GUILD

CHANNELS = range(500, 600)


async def main(path: str, seed: int) -> None:
    rand = random.Random(seed)
    st = SqliteStorage(path)
    await st.open()
    host = Host(st, HostSettings(db=path, snapshot_every=7), seeds=lambda: rand.getrandbits(63))
    print("ready", flush=True)
    channel = None
    for ch in CHANNELS:
        if await st.open_session(ch) is not None:
            channel = ch
            break
    while True:
        if channel is None:
            used = {r.channel_id for r in await st.sessions_with_status("finished", "abandoned")}
            channel = next(ch for ch in CHANNELS if ch not in used)
            await host.create(GUILD, channel, ALICE, "count", {"target": rand.choice([40, 200])})
            await host.join(channel, BOB)
            await host.join(channel, CAROL)
            await host.add_ai(channel, ALICE, 1)
            reply = await host.start(channel, ALICE)
        else:
            reply = await host.view(channel)
        while reply.status == "active":
            prompt = next(p for p in reply.prompts if p.user_id is not None)
            if prompt.kind == "respond":
                text = rand.choice(["pass", "pass", "block"])
            else:
                text = rand.choice(prompt.choices)
            reply = await host.act(channel, prompt.user_id, text, interaction_id=f"{seed}-{rand.random()}")
            rec = await st.get_session(reply.session_id)
            print(f"committed {rec.id} {rec.seq}", flush=True)
            if rand.random() < 0.05:
                print(f"undoing {rec.id} 0", flush=True)
                try:
                    await host.undo(channel, prompt.user_id)
                    rec = await st.get_session(reply.session_id)
                    print(f"undone {rec.id} {rec.seq}", flush=True)
                except GameError as e:  # a refusal a player would read (consent needed, nothing to undo)
                    # anything else crashes the worker, and the test reports it as a bug
                    print(f"refused {rec.id} {rec.seq} {e.code}", flush=True)
                reply = await host.view(channel)
        channel = None


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2])))
