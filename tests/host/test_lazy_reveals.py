"""The reveals verdict established when an undo needs it is the one the whole check gives
when the action is stored (ARCHITECTURE.md, "Hidden information, in one place").

The host stores with each action only what is evident (randomness drawn, a private event
shown to another seat, a revealing step before it in the same operation) and leaves the
perturbations of ``games.core.secrets`` to the undo that needs the verdict
(``UndoMixin._verdicts``). Here the same random games of all five games are played on two
hosts, one running the whole check on every stored action (``reveals_at_commit``), the
other not: every row's verdict, established afterwards from the log, and every undo's
answer (allowed, asked, refused, and why) must be the same on both."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

from bot.host import Host, UndoError
from storage import ActionRecord
from tests.host_helpers import ALICE, BOB, CHANNEL, GUILD, established, host_on

TABLES = [  # (game, humans, AI seats)
    ("barbarian-hordes", (ALICE, BOB), 1),
    ("credo", (ALICE, BOB), 1),
    ("promised-land", (ALICE, BOB), 1),
    ("roman-war", (ALICE,), 0),
    ("roman-war", (ALICE, BOB), 1),
    ("soul-of-the-empire", (ALICE, BOB), 1),
]
ACTIONS = 45
"""Human actions played per game (each followed by the AI moves and passes it leads to)."""


async def _outcome(call: Any) -> tuple[str, str]:
    """What a host call answered: its reply's text, or the error it raised."""
    try:
        return "reply", (await call).text
    except UndoError as e:
        return type(e).__name__, str(e)


async def _open(host: Host, game_id: str, humans: tuple[int, ...], ai: int) -> int:
    await host.create(GUILD, CHANNEL, humans[0], game_id)
    for user in humans[1:]:
        await host.join(CHANNEL, user)
    if ai:
        await host.add_ai(CHANNEL, humans[0], ai)
    await host.start(CHANNEL, humans[0])
    return (await host.storage.open_session(CHANNEL)).id


def _as_checked(row: ActionRecord, reveals: bool | None = None) -> ActionRecord:
    """``row`` as established (``reveals`` given: with that verdict)."""
    return dataclasses.replace(row, reveals=row.reveals if reveals is None else reveals, reveals_checked=True,
                               reveals_chained=False)


async def _same_verdicts(eager: Host, lazy: Host, sid: int, after: int) -> int:
    """Every row after ``after``: stored established by the eager host, established from the
    log by the lazy one, the same. Returns how many of the lazy rows were not established
    when stored."""
    want = await eager.storage.actions(sid, after=after)
    stored = await lazy.storage.actions(sid, after=after)
    assert all(r.reveals_checked and not r.reveals_chained for r in want)
    assert all(r.reveals for r in stored if not r.reveals_checked), "a row not established is stored as revealing"
    got = await established(lazy, sid, after=after)
    assert [_as_checked(r, False) for r in stored] == [_as_checked(r, False) for r in want]
    assert [(r.seq, r.reveals) for r in got] == [(r.seq, r.reveals) for r in want]
    for r, w in zip(stored, want, strict=True):
        if r.reveals_chained:  # alone: its verdict needs the rows before it, read again
            assert [x.reveals for x in await established(lazy, sid, after=r.seq - 1, through=r.seq)] == [w.reveals]
    return sum(not r.reveals_checked for r in stored)


@pytest.mark.parametrize(("game_id", "humans", "ai"), TABLES)
async def test_lazy_verdicts_and_undo_answers_equal_the_eager_check(game_id, humans, ai):
    rand = random.Random(f"lazy {game_id} {len(humans)}")
    deferred = undos = 0
    async with host_on(seed=11) as eager, host_on(seed=11) as lazy:
        eager.reveals_at_commit = True
        sid = await _open(eager, game_id, humans, ai)
        assert await _open(lazy, game_id, humans, ai) == sid
        deferred += await _same_verdicts(eager, lazy, sid, 0)
        for _ in range(ACTIONS):
            rec = await lazy.storage.get_session(sid)
            if rec.status != "active":
                break
            view = await lazy.view(CHANNEL)
            asked = [p for p in view.prompts if p.user_id is not None]
            if not asked:
                break
            p = asked[0]
            options = sorted(set(p.choices) or set(await lazy.complete(CHANNEL, p.user_id, limit=None)))
            choice = "done" if "done" in options and rand.random() < 0.5 else rand.choice(options)
            replies = [await _outcome(h.act(CHANNEL, p.user_id, choice)) for h in (eager, lazy)]
            assert replies[0] == replies[1]
            deferred += await _same_verdicts(eager, lazy, sid, rec.seq)
            if rand.random() < 0.35:
                user = rand.choice(humans)
                answers = [await _outcome(h.undo(CHANNEL, user)) for h in (eager, lazy)]
                assert answers[0] == answers[1], "the same undo answer"
                undos += 1
                if "must agree" in answers[0][1]:
                    other = next(u for u in humans if u != user)
                    how = "undo" if rand.random() < 0.5 else "decline_undo"
                    answers = [await _outcome(getattr(h, how)(CHANNEL, other)) for h in (eager, lazy)]
                    assert answers[0] == answers[1]
                rows = [await h.storage.actions(sid) for h in (eager, lazy)]
                assert [(r.seq, r.notation) for r in rows[0]] == [(r.seq, r.notation) for r in rows[1]]
        assert [_as_checked(r) for r in await established(lazy, sid)] == await eager.storage.actions(sid, after=0)
    assert undos and deferred, "undos were asked over rows whose verdicts were left to them"
