"""The replay page of a finished game (``tabula export``, ``bot.replaypage``): only what
spectators saw, in a real headless Chromium: it opens from the file, stepping changes the
board and the log, no console errors, and no card name that stayed hidden appears."""

from __future__ import annotations

import asyncio
import json
import os
import re
import shutil
from pathlib import Path

import pytest

from bot.cli import main
from bot.replaypage import build_page
from games.core import GameError, get_game
from storage import SqliteStorage
from storage.replay import options_of, replay_rows, seats_of
from tests.backends import in_ci
from tests.finished_games import play_out
from tests.host_helpers import ALICE, Host, settings

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync", "--no-first-run"]


async def _finished_roman_war(path: str) -> int:
    st = SqliteStorage(path)
    await st.open()
    try:
        return await play_out(Host(st, settings(), seeds=lambda: 42), "roman-war", [ALICE])
    finally:
        await st.close()


@pytest.fixture(scope="module")
def game_db(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, int]:
    """A finished solo Roman War game (one human seat, its moves chosen by the heuristic AI)."""
    path = str(tmp_path_factory.mktemp("replay") / "game.db")
    return path, asyncio.run(_finished_roman_war(path))


@pytest.fixture(scope="module")
def page_file(game_db: tuple[str, int], tmp_path_factory: pytest.TempPathFactory) -> Path:
    path, sid = game_db
    out = tmp_path_factory.mktemp("html")
    assert main(["export", str(sid), "--html", str(out), "--db", path]) == 0
    return out / f"game-{sid}.html"


async def _hidden_names(path: str, sid: int) -> tuple[set[str], list[str]]:
    """Card names that appeared only in private events (a hand, a card drawn), never in a
    public event, a public notation or a spectator's view; and the secret notations."""
    from games.roman_war.data import load

    st = SqliteStorage(path)
    await st.open()
    try:
        rec, rows, _ = await st.session_log(sid)
    finally:
        await st.close()
    game = get_game(rec.game_id)
    names = {c.name for c in load().cards.values()} | {c.name for c in load().hannibal.values()}
    private = " ".join(e.text for r in rows for e in r.events if e.visible_to is not None)
    public = [e.text for r in rows for e in r.events if e.visible_to is None]
    public += [r.notation for r in rows if not r.secret]
    from games.core import start

    state = start(game, seats_of(rec), options_of(game, rec), rec.seed).state
    public.append(game.view(state, None).model_dump_json())
    for r in rows[1:]:
        state = replay_rows(game, state, [r], rec.seed)
        public.append(game.view(state, None).model_dump_json())
    seen = "\n".join(public)
    hidden = {n for n in names if n in private and n not in seen}
    return hidden, [r.notation for r in rows if r.secret]


def test_page_holds_only_what_spectators_saw(game_db: tuple[str, int], page_file: Path) -> None:
    path, sid = game_db
    html = page_file.read_text(encoding="utf-8")
    hidden, secret_notations = asyncio.run(_hidden_names(path, sid))
    assert hidden, "the game should keep some card hidden (cards drawn and never played)"
    # The board images are embedded as base64, where a short name can turn up by chance
    # ("Levy" did): search the page's text with the image data taken out.
    text = re.sub(r"base64,[A-Za-z0-9+/=]+", "base64,", html)
    assert not [n for n in hidden if n in text]
    data = json.loads(re.search(r'<script id="replay-data" type="application/json">(.*?)</script>',
                                html, re.S).group(1))
    actions = [e["action"] for s in data["steps"] for e in s["entries"]]
    assert not set(secret_notations) & set(actions)
    assert "(a secret choice)" in actions
    assert "You drew" not in html  # private event lines never reach the page
    assert len(actions) == len({e["seq"] for s in data["steps"] for e in s["entries"]})
    assert "tabula verify --db" in html and f" {sid}" in html
    assert "http://" not in html and "https://" not in html  # nothing is fetched from a network


def test_page_fits_a_limit_with_narrower_images_then_fewer_steps(game_db: tuple[str, int]) -> None:
    path, sid = game_db

    async def build(limit: int):
        st = SqliteStorage(path)
        await st.open()
        try:
            return await build_page(st, sid, max_bytes=limit)
        finally:
            await st.close()

    small = asyncio.run(build(300_000))
    assert small.size <= 300_000
    assert small.steps < small.actions + 1 and "steps shown" in small.note and small.note in small.html
    data = json.loads(re.search(r'type="application/json">(.*?)</script>', small.html, re.S).group(1))
    assert [e["seq"] for s in data["steps"] for e in s["entries"]] == list(range(small.actions + 1))


def test_export_refuses_a_game_not_over(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    async def open_game() -> int:
        st = SqliteStorage(str(tmp_path / "g.db"))
        await st.open()
        try:
            host = Host(st, settings(), seeds=lambda: 7)
            await host.create(1, 10, ALICE, "roman-war", {})
            rec = await host.start(10, ALICE)
            return rec.session_id
        finally:
            await st.close()

    sid = asyncio.run(open_game())
    assert main(["export", str(sid), "--html", str(tmp_path / "out"), "--db", str(tmp_path / "g.db")]) == 2
    err = capsys.readouterr().err
    assert "is not over" in err and "seed stays secret" in err
    assert not (tmp_path / "out").exists()
    with pytest.raises(GameError):
        async def unknown() -> None:
            st = SqliteStorage(str(tmp_path / "g.db"))
            await st.open()
            try:
                await build_page(st, 999)
            finally:
                await st.close()
        asyncio.run(unknown())


def _browser_or_skip() -> None:
    why = None
    if shutil.which(CHROMIUM) is None:
        why = f"no Chromium at {CHROMIUM} (Debian's chromium package; .ci/run installs it)"
    else:
        try:
            import playwright.sync_api  # noqa: F401
        except ImportError:
            why = "Playwright for Python is not installed (pip install -e '.[test]')"
    if why:
        if in_ci():
            pytest.fail(f"{why}; CI must run the browser test", pytrace=False)
        pytest.skip(why)


def test_page_in_headless_chromium(page_file: Path, game_db: tuple[str, int]) -> None:
    _browser_or_skip()
    from playwright.sync_api import sync_playwright

    hidden, _ = asyncio.run(_hidden_names(*game_db))
    problems: list[str] = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS,
                                    env={**os.environ, "HOME": str(page_file.parent)})
        try:
            page = browser.new_page()
            page.on("console", lambda m: problems.append(f"console {m.type}: {m.text}") if m.type in (
                "error", "warning") else None)
            page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
            page.on("request", lambda r: problems.append(f"request {r.url}") if not r.url.startswith(
                ("file:", "data:")) else None)
            page.goto(page_file.as_uri())
            assert page.inner_text("#where").startswith("step 1 of ")
            first_image = page.get_attribute("#image", "src")
            first_log = page.inner_text("#log")
            assert first_log.startswith("Setup")
            # the first step whose board differs from the setup's
            for _ in range(10):
                page.keyboard.press("ArrowRight")
                if page.get_attribute("#image", "src") != first_image:
                    break
            assert page.get_attribute("#image", "src") != first_image
            assert page.inner_text("#log") != first_log and "1. " in page.inner_text("#log")
            page.keyboard.press("End")
            last = page.inner_text("#where")
            total = int(re.search(r"of (\d+)", last).group(1))
            assert last.startswith(f"step {total} of {total}")
            assert page.evaluate("document.getElementById('image').naturalWidth") > 0
            page.keyboard.press("Home")
            assert page.inner_text("#where").startswith("step 1 of ")
            page.fill("#slider", "3")
            page.dispatch_event("#slider", "input")
            assert page.inner_text("#where").startswith("step 4 of ")
            page.click("#next")
            assert page.inner_text("#where").startswith("step 5 of ")
            text = page.inner_text("body")
            assert not [n for n in hidden if n in text]
        finally:
            browser.close()
    assert problems == []
