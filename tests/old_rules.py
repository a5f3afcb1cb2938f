"""A Soul of the Empire session as rules version 1 stored it, written straight into storage.

Version 1 of Soul of the Empire's rules had each combat side choose its Combat Card together with
a combat Power Card and Conscription in one secret ``commit`` (``{"kind": "commit", "card": ...,
"power": ..., "conscript": ...}``); version 2 asks for the Power Card and Conscription first and
its ``Commit`` names the Combat Card only (pydantic, ``extra="forbid"``). ``store_old_soul`` plays
a two-player game with the heuristic agents up to a combat's secret choice, then stores the first
side's choice as version 1 logged it (the action row with ``power`` and ``conscript``) and the
snapshot after it (its ``combat.choices`` holding that old ``Commit``): neither loads under
version 2.
"""

from __future__ import annotations

from typing import Any

import games  # noqa: F401  (registers the games)
from games.core import Rng, get_game, start
from games.core.agents import make_agent
from storage import ActionRecord, EventRecord, NewSession, SeatRecord, SessionRecord, SessionUpdate, Storage
from storage.replay import state_json

SOUL = "soul-of-the-empire"


def _events(step: Any) -> tuple[EventRecord, ...]:
    out = []
    for e in step.events:
        data = e.model_dump(mode="json")
        out.append(EventRecord(str(data.get("kind", "")), e.visible_to, e.describe(), data))
    return tuple(out)


async def store_old_soul(storage: Storage, *, guild: int, channel: int, users: tuple[int, int], now: float,
                         seed: int = 4, rules_version: int = 1, old_rows: bool = True) -> SessionRecord:
    """Store an active two-player Soul of the Empire session (``users`` at seats 1 and 2) started
    under ``rules_version``, played by the heuristic agents up to a combat's secret choice.
    With ``old_rows`` the first side's Combat Card is then stored as version 1 wrote it (the
    ``commit`` row with ``power`` and ``conscript``, and the snapshot after it); without, the log
    ends before it (every row loads under version 2). Returns the stored session."""
    game = get_game(SOUL)
    seats = tuple(SeatRecord(i, u, None, None, now) for i, u in enumerate(users))
    rec = await storage.create_session(NewSession(guild, channel, SOUL, {}, seed, users[0], seats,
                                                  rules_version=rules_version), now)
    step = start(game, [0, 1], game.Options(), seed)
    rows = [ActionRecord(0, None, "setup", None, _events(step), None, False, True, None, now)]
    state = step.state
    agents = {s: make_agent(game, "heuristic", seed=seed + s) for s in (0, 1)}
    seq = 0
    while True:
        prompts = game.to_act(state)
        seat = sorted(prompts)[0]
        combat = state.combat
        if combat is not None and combat.stage == "choose" and not combat.choices:
            break
        action = agents[seat].choose(game, state, seat)
        seq += 1
        nxt = game.apply(state, seat, action, Rng(seed, seq))
        rows.append(ActionRecord(seq, seat, game.format_action(state, action), action.model_dump(mode="json"),
                                 _events(nxt), users[seat], prompts[seat].kind == "secret", False, None, now))
        state = nxt.state
    snapshots: tuple[tuple[int, dict[str, Any]], ...] = ()
    if old_rows:
        action = agents[seat].choose(game, state, seat)
        seq += 1
        nxt = game.apply(state, seat, action, Rng(seed, seq))
        old = {**action.model_dump(mode="json"), "power": None, "conscript": 0}  # version 1's Commit
        rows.append(ActionRecord(seq, seat, game.format_action(state, action), old, _events(nxt), users[seat],
                                 True, False, None, now))
        state = nxt.state
        snap = state_json(state)
        snap["combat"]["choices"] = {side: {**c, "power": None, "conscript": 0}
                                     for side, c in snap["combat"]["choices"].items()}
        snapshots = ((seq, snap),)
    to_act = tuple(sorted(game.to_act(state)))
    return await storage.update(rec.id, rec.version, SessionUpdate(
        status="active", started_at=now, append=tuple(rows), snapshots=snapshots, to_act=to_act,
        wait_deadline=now + 7 * 86400, rules_version=rules_version), now)
