"""The emulator refuses what Discord refuses: bodies that do not validate against Discord's
OpenAPI description (400 / 50035), Discord's documented limits, late first responses; and it
injects Discord's error codes on chosen requests."""

from __future__ import annotations

import time
from typing import Any

import aiohttp
import pytest

from tests.fakediscord import FakeDiscord, InteractionRecord
from tests.fakediscord.server import ATTACHMENT_SIZE_LIMIT

pytestmark = pytest.mark.timeout(60)


@pytest.fixture
def world(fake_discord: FakeDiscord):
    fake = fake_discord
    g = fake.add_guild()
    ch = fake.add_text_channel(g)
    alice = fake.add_user("alice")
    fake.add_member(g, alice)
    return fake, ch, alice


async def call(fake: FakeDiscord, method: str, path: str, body: Any = None, **kw: Any) -> tuple[int, Any]:
    headers = {"Authorization": f"Bot {fake.token}"}
    async with (
        aiohttp.ClientSession() as s,
        s.request(method, fake.api_base + path, json=body, headers=headers, **kw) as resp,
    ):
        data = await resp.json() if resp.content_type == "application/json" else None
        return resp.status, data


def button(custom_id: str, **extra: Any) -> dict[str, Any]:
    return {"type": 2, "style": 1, "label": "Go", "custom_id": custom_id, **extra}


def select(**extra: Any) -> dict[str, Any]:
    return {"type": 3, "custom_id": "s", "options": [{"label": "a", "value": "a"}], **extra}


def row(*items: dict[str, Any]) -> dict[str, Any]:
    return {"type": 1, "components": list(items)}


INVALID_MESSAGES = {
    "embed author name of 257 characters": {"embeds": [{"author": {"name": "x" * 257}}]},
    "colour above 0xFFFFFF": {"embeds": [{"title": "t", "color": 0x1000000}]},
    "non-URL embed url": {"embeds": [{"title": "t", "url": "not a url"}]},
    "component type 99": {"content": "x", "components": [{"type": 99}]},
    "button with no style": {"content": "x", "components": [row({"type": 2, "label": "a", "custom_id": "a"})]},
    "select without custom_id": {
        "content": "x",
        "components": [row({"type": 3, "options": [{"label": "a", "value": "a"}]})],
    },
    "select with max_values 26": {"content": "x", "components": [row(select(max_values=26))]},
    "the same custom_id twice": {"content": "x", "components": [row(button("a"), button("a"))]},
    "content of 2001 characters (Discord's limit; the description says 4000)": {"content": "x" * 2001},
    "embed description of 4097 characters": {"embeds": [{"description": "x" * 4097}]},
    "26 embed fields": {"embeds": [{"fields": [{"name": "n", "value": "v"}] * 26}]},
    "6001 characters in one embed": {
        "embeds": [{"title": "t" * 200, "description": "d" * 4000, "fields": [{"name": "n", "value": "v" * 1000}] * 2}]
    },
    "an embeds object instead of a list": {"embeds": {"title": "t"}},
    "a string snowflake that is not a number": {"content": "x", "allowed_mentions": {"users": ["bob"]}},
}


@pytest.mark.parametrize("what", list(INVALID_MESSAGES))
async def test_invalid_message_is_refused_with_50035(world, what):
    fake, ch, _ = world
    fake.allow_invalid = True
    status, data = await call(fake, "POST", f"/channels/{ch.id}/messages", INVALID_MESSAGES[what])
    assert (status, data["code"]) == (400, 50035), (what, status, data)
    assert fake.channel_messages(ch) == []
    assert fake.invalid and fake.invalid[-1].error_code == 50035


@pytest.mark.parametrize("what", [*INVALID_MESSAGES, "valid"])
def test_the_compiled_check_judges_a_body_as_jsonschema_does(what):
    """The compiled check that lets a valid body through quickly (``OpenAPIChecker.errors``)
    accepts and rejects exactly what ``jsonschema`` does, formats included; the limits the
    schema cannot express are ``check_message``'s, so those bodies pass both."""
    from tests.fakediscord.openapi import checker

    body = INVALID_MESSAGES.get(what, {"content": "x", "embeds": [{"url": "https://example.com", "timestamp":
                                                                   "2026-12-02T10:00:00+00:00"}]})
    c = checker()
    template = c.route("/api/v10/channels/1/messages")
    full = list(c.validator("POST", template).iter_errors(body))
    assert c.fast_validator("POST", template).is_valid(body) == (not full), (what, [e.message for e in full])


async def test_an_empty_message_is_refused_with_50006(world):
    fake, ch, _ = world
    status, data = await call(fake, "POST", f"/channels/{ch.id}/messages", {"content": ""})
    assert (status, data["code"]) == (400, 50006)


async def test_valid_bodies_pass_with_integer_snowflakes(world):
    fake, ch, alice = world
    body = {
        "content": "hello <@1>",
        "allowed_mentions": {"parse": [], "users": [alice.id]},  # discord.py sends integers
        "embeds": [{"title": "t", "url": "https://example.com/x", "color": 0xFFFFFF, "author": {"name": "a" * 256}}],
        "components": [row(button("a"), button("b")), row(select(max_values=25))],
    }
    status, data = await call(fake, "POST", f"/channels/{ch.id}/messages", body)
    assert status == 200, data
    status, data = await call(fake, "POST", "/users/@me/channels", {"recipient_id": alice.id})
    assert status == 200, data


async def test_non_numeric_recipient_is_400_not_500(world):
    fake, _, _ = world
    fake.allow_invalid = True
    status, data = await call(fake, "POST", "/users/@me/channels", {"recipient_id": "bob"})
    assert (status, data["code"]) == (400, 50035)


def pending(fake: FakeDiscord, user: Any, channel: Any, itype: int = 4) -> InteractionRecord:
    iid = fake.snowflake()
    rec = InteractionRecord(iid, f"itoken-{iid}", itype, user, channel, {"name": "play"})
    rec.sent_at = time.perf_counter()
    fake.interactions[iid] = rec
    fake.interactions_by_token[rec.token] = rec
    return rec


async def test_autocomplete_answer_without_data_or_with_long_values_is_refused(world):
    fake, ch, alice = world
    fake.allow_invalid = True
    rec = pending(fake, alice, ch)
    path = f"/interactions/{rec.id}/{rec.token}/callback"
    status, data = await call(fake, "POST", path, {"type": 8})
    assert (status, data["code"]) == (400, 50035)
    # Discord documents 100 characters for a choice's name and value (the description: 6000 for a value)
    status, data = await call(fake, "POST", path, {"type": 8, "data": {"choices": [{"name": "a", "value": "v" * 101}]}})
    assert (status, data["code"]) == (400, 50035)
    status, data = await call(fake, "POST", path, {"type": 8, "data": {"choices": [{"name": "n" * 101, "value": "v"}]}})
    assert (status, data["code"]) == (400, 50035)
    status, _ = await call(fake, "POST", path, {"type": 8, "data": {"choices": [{"name": "n", "value": "v" * 100}]}})
    assert status == 200


async def test_thread_auto_archive_of_5_minutes_is_refused(world):
    fake, ch, _ = world
    fake.allow_invalid = True
    status, msg = await call(fake, "POST", f"/channels/{ch.id}/messages", {"content": "start"})
    assert status == 200
    path = f"/channels/{ch.id}/messages/{msg['id']}/threads"
    status, data = await call(fake, "POST", path, {"name": "t", "auto_archive_duration": 5})
    assert (status, data["code"]) == (400, 50035)
    status, _ = await call(fake, "POST", path, {"name": "t", "auto_archive_duration": 60})
    assert status == 200


async def test_upload_over_the_size_limit_is_413(world):
    fake, ch, _ = world
    form = aiohttp.FormData()
    form.add_field("payload_json", '{"content": "board"}', content_type="application/json")
    form.add_field("files[0]", b"\0" * (ATTACHMENT_SIZE_LIMIT + 1), filename="board.png", content_type="image/png")
    status, data = await call(fake, "POST", f"/channels/{ch.id}/messages", data=form)
    assert (status, data["code"]) == (413, 40005)


async def test_a_first_response_after_three_seconds_is_refused_and_recorded(world):
    fake, ch, alice = world
    rec = pending(fake, alice, ch, itype=2)
    rec.sent_at -= 3.5
    status, data = await call(fake, "POST", f"/interactions/{rec.id}/{rec.token}/callback", {"type": 5})
    assert (status, data["code"]) == (404, 10062)
    assert fake.late == [rec]
    fake.late.clear()  # the fixture would fail this test otherwise, as it fails any late answer


async def test_a_first_response_is_timed_to_its_arrival_not_to_the_emulators_checks(world):
    """Discord times the 3-second window by when the callback arrives; the emulator's own
    reading and checking of the body (0.3 s here) is not the bot's latency."""
    fake, ch, alice = world
    rec = pending(fake, alice, ch, itype=2)
    checker = fake.openapi

    class SlowChecker:
        def errors(self, *args: Any) -> list[str]:
            time.sleep(0.3)
            return checker.errors(*args) if checker is not None else []

    fake.openapi = SlowChecker()
    try:
        t0 = time.perf_counter()
        status, _ = await call(fake, "POST", f"/interactions/{rec.id}/{rec.token}/callback", {"type": 5})
        took = time.perf_counter() - t0
    finally:
        fake.openapi = checker
    assert status == 200
    assert took >= 0.3
    assert rec.responded_at is not None and rec.responded_at - t0 < 0.3


@pytest.mark.parametrize(
    ("status", "code"), [(413, 40005), (404, 10015), (400, 50083), (403, 160005), (403, 50007), (429, 0), (503, 0)]
)
async def test_injected_error_codes(world, status, code):
    fake, ch, _ = world
    fake.fail("POST", rf"/channels/{ch.id}/messages$", status, code=code, retry_after=0.01)
    got, data = await call(fake, "POST", f"/channels/{ch.id}/messages", {"content": "x"})
    assert got == status
    if status != 429:
        assert data["code"] == code
    got, _ = await call(fake, "POST", f"/channels/{ch.id}/messages", {"content": "x"})
    assert got == 200  # only the chosen request


async def test_archived_and_locked_threads(world):
    fake, ch, _ = world
    _, msg = await call(fake, "POST", f"/channels/{ch.id}/messages", {"content": "start"})
    _, t = await call(fake, "POST", f"/channels/{ch.id}/messages/{msg['id']}/threads", {"name": "game"})
    thread = fake.channels[int(t["id"])]
    fake.archive(thread)
    status, data = await call(fake, "POST", f"/channels/{thread.id}/messages", {"content": "x"})
    assert (status, data["code"]) == (400, 50083)
    status, data = await call(fake, "PATCH", f"/channels/{thread.id}", {"archived": False})
    assert status == 200 and data["thread_metadata"]["archived"] is False
    status, _ = await call(fake, "POST", f"/channels/{thread.id}/messages", {"content": "x"})
    assert status == 200
    fake.lock(thread)
    fake.deny(thread, "manage_threads")
    status, data = await call(fake, "POST", f"/channels/{thread.id}/messages", {"content": "x"})
    assert (status, data["code"]) == (403, 160005)


async def test_enforced_nonce_creates_one_message(world):
    fake, ch, _ = world
    body = {"content": "update", "nonce": "tabula-outbox-7", "enforce_nonce": True}
    s1, m1 = await call(fake, "POST", f"/channels/{ch.id}/messages", body)
    s2, m2 = await call(fake, "POST", f"/channels/{ch.id}/messages", body)
    assert (s1, s2) == (200, 200) and m1["id"] == m2["id"]
    assert len(fake.channel_messages(ch)) == 1


async def test_chaos_injects_a_fraction(world):
    fake, ch, _ = world
    fake.chaos(0.5, seed=3, errors=((503, 0, "503: Service Unavailable"),))
    statuses = [(await call(fake, "POST", f"/channels/{ch.id}/messages", {"content": "x"}))[0] for _ in range(40)]
    assert 5 < statuses.count(503) < 35 and statuses.count(200) == 40 - statuses.count(503)
