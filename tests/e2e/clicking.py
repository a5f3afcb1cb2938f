"""Answering a question by clicks alone, as a player on a phone would: find the private
message that asks it, then click through its steps (buttons, menus, multi-select menus)
until an action is played."""

from __future__ import annotations

import random
from typing import Any

from tests.fakediscord import FakeDiscord, Message, User

STEP_PREFIXES = ("tabula:c:", "tabula:k:", "tabula:n:")


def step_components(m: Message, session_id: int, seq: int | None = None) -> list[dict[str, Any]]:
    """The components of ``m`` that answer a question of this session (asked after action
    ``seq`` when given), Back buttons left out."""
    out = []
    for row in m.components:
        for c in row.get("components", []):
            cid = c.get("custom_id", "")
            if not cid.startswith(STEP_PREFIXES) or c.get("label") == "Back":
                continue
            sid, token = cid.split(":")[2:4]
            if int(sid) != session_id or (seq is not None and not token.startswith(f"{seq}.")):
                continue
            out.append(c)
    return out


def pending_step(fake: FakeDiscord, user: User, session_id: int, seq: int) -> Message | None:
    """The newest message only ``user`` sees that offers choices for the question this
    session asks after action ``seq``."""
    for m in sorted(fake.visible_to(user), key=lambda m: m.id, reverse=True):
        if m.audience is not None and not m.deleted and step_components(m, session_id, seq):
            return m
    return None


async def click_through(world: Any, user: User, message: Message, session_id: int, rng: random.Random,
                        *, prefer: str | None = None) -> tuple[Any, int]:
    """Click through the steps on ``message`` (choosing at random, or the option whose label
    starts with ``prefer`` when there is one) until the choices name an action and it is
    played: (the last interaction, the number of clicks)."""
    fake = world.fake
    clicks = 0
    token = None
    while True:
        m = fake.messages[message.id]
        comps = step_components(m, session_id)
        if token is not None:
            comps = [c for c in comps if c["custom_id"].split(":")[3] == token]
        assert comps, f"no step to click on: {m.content!r}"
        token = comps[0]["custom_id"].split(":")[3]
        preferred = [c for c in comps if prefer and str(c.get("label", "")).lower().startswith(prefer)]
        comp = rng.choice(preferred or comps)
        clicks += 1
        if comp["type"] == 3:
            values = [o["value"] for o in comp["options"]]
            lo, hi = comp.get("min_values", 1), comp.get("max_values", 1)
            picked = rng.sample(values, rng.randint(lo, min(hi, len(values))))
            rec = await world.select(user, m, comp["custom_id"], picked)
        else:
            rec = await world.click(user, m, comp["custom_id"])
        after = fake.messages[message.id]
        if rec.ephemeral and rec.original is not None and rec.original.id != message.id \
                and step_components(rec.original, session_id):
            message = rec.original  # the next step came as a new private reply
            continue
        if step_components(after, session_id) and any(
            c["custom_id"].split(":")[3] == token for c in step_components(after, session_id)
        ) and "You chose" not in after.content:
            continue  # the next step, shown in place
        return rec, clicks


def plays_at_once(c: dict[str, Any]) -> bool:
    """Whether clicking ``c`` (or picking its first option) plays an action rather than
    showing a further step."""
    if c["type"] == 2:
        return not str(c.get("label", "")).endswith("…")
    options = c.get("options") or []
    return bool(options) and c.get("min_values", 1) <= 1 and not str(options[0]["label"]).endswith("…")


def pending_choice(fake: FakeDiscord, user: User, session_id: int, seq: int) -> tuple[Message, list[str]] | None:
    """The newest message only ``user`` sees with a component that plays an action of the
    question asked after action ``seq`` at once (a button, or a menu whose first option is an
    action): (message, those custom ids)."""
    for m in sorted(fake.visible_to(user), key=lambda m: m.id, reverse=True):
        if m.audience is None or m.deleted:
            continue
        ids = [c["custom_id"] for c in step_components(m, session_id, seq) if plays_at_once(c)]
        if ids:
            return m, ids
    return None
