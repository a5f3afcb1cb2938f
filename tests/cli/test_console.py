"""The terminal console over the host: hot-seat hidden hands, stop and resume from a file."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import io
import itertools
import os
import re
import signal
import subprocess
import sys
import threading
from pathlib import Path

import tests.toygame  # noqa: F401  (registers "count")
from bot.commands import play as play_command
from bot.console import CLEAR, Console, FileLock
from bot.host import HostSettings, open_host
from games.core import NotYourTurnError
from storage import SqliteStorage
from storage.replay import verify_session


def scripted(lines, stop_after: int | None = None):
    """A reader that answers from ``lines`` (cycled), raising EOFError after ``stop_after`` reads."""
    it = itertools.cycle(lines)
    count = itertools.count()

    def read(prompt: str) -> str:
        if stop_after is not None and next(count) >= stop_after:
            raise EOFError
        return next(it)

    return read


def test_hot_seat_keeps_hands_private_stop_and_resume(tmp_path):
    db = str(tmp_path / "game.db")
    out = io.StringIO()
    console = Console("count", 2, 0, seed=5, options={"target": 12}, out=out,
                      read=scripted(["", "add", "pass"], stop_after=9), db=db)
    assert console.run() == 0
    text = out.getvalue()
    assert "Stopped. Resume with: tabula play --db" in text
    # nothing private is shown before a player has the keyboard; then each sees one hand, their own
    chunks = re.split(r"--- Pass the keyboard to (Player \d)", text)
    assert "(private)" not in chunks[0]
    seen = {}
    for player, chunk in zip(chunks[1::2], chunks[2::2], strict=True):
        hands = re.findall(r"\(private\) Your hand: ([\d, ]+)\.", chunk)
        assert len(hands) <= 1
        if hands:
            assert player not in seen
            seen[player] = hands[0]
    assert set(seen) == {"Player 1", "Player 2"}

    out2 = io.StringIO()
    resumed = Console(None, out=out2, read=scripted(["", "add", "pass"]), db=db, resume=True)
    assert resumed.run() == 0
    text2 = out2.getvalue()
    assert "Resuming Count" in text2 and "Game over" in text2

    async def check():
        async with SqliteStorage(db) as st:
            (rec,) = await st.sessions_with_status("finished")
            ok, lines = await verify_session(st, rec.id)
            assert ok, lines
            assert rec.seq > 9

    asyncio.run(check())


def test_a_file_with_an_unfinished_game_needs_resume(tmp_path, capsys):
    db = str(tmp_path / "g.db")
    Console("count", 2, 1, out=io.StringIO(), read=scripted([], stop_after=0), db=db).run()
    assert Console("count", 2, 1, out=io.StringIO(), read=scripted([]), db=db).run() == 2
    assert "--resume" in capsys.readouterr().err
    assert Console(None, out=io.StringIO(), read=scripted([]), db=str(tmp_path / "empty.db"),
                   resume=True).run() == 2
    args = argparse.Namespace(game=None, players=2, ai=None, seed=None, agents="heuristic", db=None, resume=True)
    assert play_command.run(args) == 2


def test_single_player_against_ai_with_help_and_bad_input(tmp_path):
    out = io.StringIO()
    console = Console("count", 3, 2, seed=9, options={"target": 15}, out=out,
                      read=scripted(["help", "dance", "hand", "status", "log", "add", "pass"]))
    assert console.run() == 0
    text = out.getvalue()
    assert "Legal now" in text and "add" in text
    assert "'dance' is not an action here" in text
    assert "Pass the keyboard" not in text
    assert "Game over" in text


class Screen(io.StringIO):
    """Console output that says it is a terminal (so the console clears it between players)."""

    def isatty(self) -> bool:
        return True


def private_owners(chunk: str) -> set[str]:
    return set(re.findall(r"\(private\) (Your hand|You drew)", chunk))


def test_hot_seat_clears_the_screen_before_each_handover_and_shows_private_lines_after_it():
    out = Screen()
    console = Console("count", 2, 0, seed=5, options={"target": 12}, out=out,
                      read=scripted(["", "play 3", "pass", "", "play 2", "pass", "add"], stop_after=30))
    console.run()
    text = out.getvalue()
    screens = text.split(CLEAR)
    assert len(screens) > 3 and "(private)" not in screens[0]
    for screen in screens[1:]:
        head, _, rest = screen.partition(" press Enter when only they can see. ---\n")
        assert head.startswith("--- Pass the keyboard to Player") and "(private)" not in head
        player = re.match(r"--- Pass the keyboard to (Player \d)", head).group(1)
        # every private line on this screen is the player's own: the two hands differ, so check by hand
        hands = set(re.findall(r"\(private\) Your hand: ([\d, ]+)\.", rest))
        assert len(hands) <= 1, (player, hands)
    first, second = screens[1], screens[2]
    assert first.splitlines()[0] != second.splitlines()[0]  # two different players
    hand1 = re.search(r"\(private\) Your hand: ([\d, ]+)\.", first).group(1)
    assert hand1 not in re.findall(r"\(private\) Your hand: ([\d, ]+)\.", second)


def test_hot_seat_without_a_terminal_prints_a_separator_and_holds_private_lines():
    out = io.StringIO()
    console = Console("count", 2, 0, seed=5, options={"target": 12}, out=out,
                      read=scripted(["", "play 3", "pass", "", "add"], stop_after=12))
    console.run()
    text = out.getvalue()
    assert CLEAR not in text
    parts = re.split(r"=+\n--- Pass the keyboard to (Player \d)", text)
    assert len(parts) > 3 and "(private)" not in parts[0]
    for player, chunk in zip(parts[1::2], parts[2::2], strict=True):
        drawn = re.findall(r"\(private\) You drew", chunk)
        hands = re.findall(r"\(private\) Your hand", chunk)
        assert len(hands) <= 1 and len(drawn) <= 1, (player, chunk)


def test_single_player_sees_private_lines_in_order_with_public_ones():
    out = io.StringIO()
    console = Console("count", 3, 2, seed=9, options={"target": 40}, out=out,
                      read=scripted(["play 9", "play 8", "play 7", "add"], stop_after=6))
    console.run()
    lines = out.getvalue().splitlines()
    drew = [i for i, line in enumerate(lines) if "(private) You drew" in line]
    assert drew
    for i in drew:  # right after "Seat 1 played N", before the others' answers to it
        assert re.search(r"(Seat 1|You) played \d", lines[i - 1]), lines[i - 3:i + 2]


def test_the_human_seat_is_marked_at_the_start_and_in_status():
    out = io.StringIO()
    Console("count", 3, 2, seed=9, options={"target": 40}, out=out,
            read=scripted(["status", "quit"])).run()
    text = out.getvalue()
    assert text.count("1. You ← you") == 2
    assert "AI (heuristic) ← you" not in text
    out = io.StringIO()
    Console("count", 2, 0, seed=9, options={"target": 40}, out=out,
            read=scripted(["", "status", "quit"])).run()
    text = out.getvalue()
    assert "1. Player 1 ← you" in text and "2. Player 2 ← you" not in text


def test_ctrl_c_at_the_prompt_stops_like_ctrl_d(tmp_path):
    def read(prompt: str) -> str:
        raise KeyboardInterrupt

    out = io.StringIO()
    db = str(tmp_path / "g.db")
    assert Console("count", 2, 1, seed=3, out=out, read=read, db=db).run() == 130
    assert f"Stopped. Resume with: tabula play --db {db} --resume" in out.getvalue()


def test_resuming_a_missing_file_does_not_create_it(tmp_path, capsys):
    db = tmp_path / "nope.db"
    assert Console(None, out=io.StringIO(), read=scripted([]), db=str(db), resume=True).run() == 2
    assert "no game file" in capsys.readouterr().err
    assert not db.exists() and not (tmp_path / "nope.db.lock").exists()


def test_a_file_played_in_another_terminal_is_refused(tmp_path, capsys):
    db = str(tmp_path / "g.db")
    Console("count", 2, 1, seed=3, out=io.StringIO(), read=scripted([], stop_after=0), db=db).run()
    other = FileLock(db)
    assert other.acquire()
    try:
        out = io.StringIO()
        assert Console(None, out=out, read=scripted(["add"]), db=db, resume=True).run() == 2
        assert "already being played in another terminal" in capsys.readouterr().err
    finally:
        other.release()
    assert Console(None, out=io.StringIO(), read=scripted([], stop_after=0), db=db, resume=True).run() == 0
    assert not os.path.exists(f"{db}.lock"), "a clean quit leaves no lock file beside the database"


def test_a_lock_file_removed_by_its_releasing_holder_is_not_held_twice(tmp_path):
    db = str(tmp_path / "g.db")
    first, second = FileLock(db), FileLock(db)
    assert first.acquire()
    assert not second.acquire()
    first.release()
    assert second.acquire() and os.path.exists(second.path)
    third = FileLock(db)
    assert not third.acquire(), "the recreated lock file is the one held"
    second.release()


def test_input_for_a_prompt_that_moved_on_is_not_applied(tmp_path):
    db = str(tmp_path / "g.db")
    Console("count", 2, 0, seed=3, options={"target": 40}, out=io.StringIO(),
            read=scripted([""], stop_after=1), db=db).run()
    state = {"meddled": False}

    def meddle() -> None:  # someone else plays seat 1's turn between the prompt and the answer
        async def go() -> None:
            async with open_host(db, HostSettings(db=db)) as host:
                for user in (1, 2):
                    with contextlib.suppress(NotYourTurnError):
                        await host.act(0, user, "add")

        asyncio.run(go())

    def read(prompt: str) -> str:
        if prompt == "> " and not state["meddled"]:
            state["meddled"] = True
            worker = threading.Thread(target=meddle)
            worker.start()
            worker.join()
            return "roll"
        if prompt == "> ":
            raise EOFError
        return ""

    out = io.StringIO()
    Console(None, out=out, read=read, db=db, resume=True).run()
    text = out.getvalue()
    assert "The game changed meanwhile; nothing was applied" in text

    async def rows():
        async with SqliteStorage(db) as st:
            (rec,) = await st.sessions_with_status("active")
            return [a.notation for a in await st.actions(rec.id)]

    assert "roll" not in asyncio.run(rows())


def test_game_over_line_says_how_to_verify(tmp_path):
    out = io.StringIO()
    Console("count", 2, 1, seed=9, options={"target": 6}, out=out, read=scripted(["add", "pass"])).run()
    assert "the game was not saved" in out.getvalue() and "`tabula verify`" not in out.getvalue()
    db = str(tmp_path / "done.db")
    out = io.StringIO()
    Console("count", 2, 1, seed=9, options={"target": 6}, out=out, read=scripted(["add", "pass"]), db=db).run()
    m = re.search(r"check it with: tabula verify --db (\S+) (\d+)", out.getvalue())
    assert m and m.group(1) == db

    async def check():
        async with SqliteStorage(db) as st:
            ok, lines = await verify_session(st, int(m.group(2)))
            assert ok and "in the terminal" in lines[0]

    asyncio.run(check())


def test_resume_warns_about_ignored_options(tmp_path, capsys, monkeypatch):
    db = str(tmp_path / "g.db")
    Console("count", 2, 1, seed=3, out=io.StringIO(), read=scripted([], stop_after=0), db=db).run()
    parser = argparse.ArgumentParser()
    play_command.add_parser(parser.add_subparsers())
    parsed = parser.parse_args(["play", "--db", db, "--resume", "--players", "6"])
    monkeypatch.setattr("sys.stdin", io.StringIO(""))  # Ctrl-D at the first prompt
    assert parsed.func(parsed) == 0
    assert "ignoring --players with --resume" in capsys.readouterr().err


def test_auto_pass_answers_pass_only_prompts_without_a_handover():
    def table(auto: bool) -> str:
        out = io.StringIO()
        console = Console("barbarian-hordes", 3, 0, seed=11, out=out, auto_pass=auto,
                          read=picker(out, limit=400))
        console.run()
        return out.getvalue()

    plain, auto = table(False), table(True)
    assert "answered automatically, --auto-pass" in auto
    assert "answered automatically" not in plain
    asked = re.findall(r"Legal now \(type one; names may be shortened\):\n((?:  .*\n)+)", auto)
    assert asked and all(set(block.split()) - {"pass", "done"} for block in asked)
    plain_asked = re.findall(r"Legal now \(type one; names may be shortened\):\n((?:  .*\n)+)", plain)
    assert any(not set(block.split()) - {"pass", "done"} for block in plain_asked)  # asked only to pass


def picker(out: io.StringIO, limit: int):
    """A reader that asks for help, then types a pick, 'done', 'pass' or the first option."""
    state = {"reads": 0, "asked": False}

    def read(prompt: str) -> str:
        state["reads"] += 1
        if state["reads"] > limit:
            raise EOFError
        if prompt != "> ":
            return ""
        if not state["asked"]:
            state["asked"] = True
            return "help"
        state["asked"] = False
        text = out.getvalue()
        options = [x.strip() for x in text[text.rindex("Legal now"):].splitlines()[1:] if x.startswith("  ")]
        # a long list comes grouped by command word: "  move (12): move 3: ...; move 4: ..."
        options = [re.sub(r"^\w+ \(\d+\): ", "", x).split("; ")[0] for x in options]
        for want in ("done", "pass", "fight"):
            if want in options:
                return want
        return options[0]

    return read


def test_a_real_ctrl_c_at_the_prompt_stops_at_once(tmp_path):
    """SIGINT while the console waits for a line (stdin stays open): it stops without an Enter."""
    root = Path(__file__).resolve().parents[2]
    proc = subprocess.Popen([sys.executable, "-m", "bot.cli", "play", "barbarian-hordes", "--players", "2",
                             "--seed", "3", "--db", str(tmp_path / "g.db")], cwd=tmp_path,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env={**os.environ, "PYTHONPATH": str(root)})
    try:
        seen = b""
        while not seen.endswith(b"> "):  # the prompt is written without a newline
            byte = proc.stdout.read(1)
            assert byte, seen.decode()
            seen += byte
        proc.send_signal(signal.SIGINT)
        rest, _err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 130
    assert b"Stopped. Resume with: tabula play --db" in rest


def test_log_pages_back_and_explains_a_bad_page():
    """`log N` shows page N of the log counted back from the latest actions; anything else
    after `log` gets a message saying what to type, and the game goes on."""
    out = io.StringIO()
    moves = ["add", "pass"] * 12
    console = Console("count", 2, 1, seed=9, options={"target": 99}, out=out,
                      read=scripted(moves + ["log", "log 2", "log two"], stop_after=len(moves) + 3))
    console.run()
    text = out.getvalue()
    assert "Log, page 1/" in text and "Log, page 2/" in text
    assert "Type log for the latest actions, or log N" in text


def test_help_groups_a_long_list_by_command_word_and_help_word_lists_one_kind():
    """With hundreds of legal actions (a Soul of the Empire Main Phase), help shows one line per
    command word with a count and examples; `help recruit` lists the recruits only; `rules`
    shows the game's glossary."""
    out = io.StringIO()
    setup = ["place Syria"] * 4 + ["place Jerusalem"] * 2 + ["place Italia"] * 2 + ["ready 2 3 4 5", "done"]
    console = Console("soul-of-the-empire", 4, 3, seed=3, out=out,
                      read=scripted(setup + ["help", "help recruit", "rules"], stop_after=len(setup) + 3))
    console.run()
    text = out.getvalue()
    grouped = text.split("By command word:")[1].split("Type help <word>")[0]
    assert re.search(r"^  move \(\d{3,}\): move ", grouped, re.M)
    assert re.search(r"^  recruit \(\d+\): recruit ", grouped, re.M)
    assert len(grouped.strip().splitlines()) < 12
    listed = text.split("Type help <word>")[1]
    recruits = re.findall(r"^  (recruit \S+ .*)$", listed, re.M)
    assert recruits and not re.search(r"^  move ", listed.split("terms and marks")[0], re.M)
    assert "Soul of the Empire — terms and marks:" in text and "Dice Sequence — " in text


def test_explain_at_the_prompt_gives_a_named_things_text_or_the_nearest_names():
    """`explain huns` prints the nation's ability from nations.toml ("Horsemen: an extra
    Conquest Phase each turn."); an unknown name says so and suggests the nearest; `help`
    lists explain; `explain` alone gives the texts of what the options asked now name (the
    nations still to pick); the game waits for an action meanwhile."""
    out = io.StringIO()
    console = Console("barbarian-hordes", 2, 1, seed=1, out=out,
                      read=scripted(["explain huns", "explain hnus", "explain", "help"], stop_after=4))
    console.run()
    text = out.getvalue()
    assert "Huns (nation): Tier 1 nation. Horsemen: an extra Conquest Phase each turn." in text
    assert "Nothing called 'hnus' in this game. Nearest: Huns" in text
    assert "You are asked: Pick your nation." in text and "Visigoths (nation): Tier 1 nation." in text
    hint = "(explain: what these options do; explain <name>: one of them; rules now: the rule text of this step)"
    assert text.count(hint) == 1  # said once, at the first prompt naming cards or nations
    assert "explain <name>" in text


def test_rules_opens_with_the_games_summary_even_without_a_glossary():
    """`rules` in Barbarian Hordes (no glossary) shows its SUMMARY.md: turn phases and victory."""
    out = io.StringIO()
    console = Console("barbarian-hordes", 2, 1, seed=1, out=out, read=scripted(["rules"], stop_after=1))
    console.run()
    text = out.getvalue()
    assert "Barbarian Hordes — how it is played:" in text
    assert "How to win: be the first to hold 10 Territory Tokens." in text
    assert "has no glossary" not in text


def hot_seat_undo(answer: str) -> str:
    """Barbarian Hordes, two players at one keyboard: both pick, Player 1 asks to undo its
    pick and Player 2 answers ``answer``; the transcript."""
    out = io.StringIO()
    console = Console("barbarian-hordes", 2, 0, seed=21, out=out,
                      read=scripted(["", "pick huns", "", "pick visigoths", "undo", "", answer, "", "status"],
                                    stop_after=9))
    console.run()
    return out.getvalue()


def test_hot_seat_undo_request_is_worded_for_the_terminal_and_the_other_player_agrees_with_undo():
    """An undo after another player acted needs their consent; at one keyboard the request hands
    the keyboard to them, says to type `undo` (not Discord's /game undo), and their `undo`
    agrees to it (it is not a request of their own)."""
    text = hot_seat_undo("undo")
    assert "/game" not in text
    assert "Player 2: type `undo` to agree or `undo decline` to refuse." in text
    assert "Player 1 undid 'pick Huns'" in text and "everyone agreed" in text
    assert "Player 2 asks to undo" not in text
    assert text.rstrip().splitlines()[-1].startswith(">") or "Pick your nation" in text.split("undid")[1]


def test_hot_seat_undo_decline_refuses_the_request_and_play_goes_on():
    text = hot_seat_undo("undo decline")
    assert "Player 2 refused the undo of 'pick Huns'; the game goes on." in text
    assert "undid" not in text


def test_a_refusal_in_the_terminal_points_to_rules_now_in_one_clause():
    """A refused action names the step asked now and, for the terminal, `rules now`, without
    Discord's button name or brackets within brackets."""
    out = io.StringIO()
    console = Console("barbarian-hordes", 2, 1, seed=21, out=out,
                      read=scripted(["attack"], stop_after=1))
    console.run()
    refusals = [x for x in out.getvalue().splitlines() if "not possible now" in x or "not legal now" in x]
    assert len(refusals) == 1, out.getvalue()
    for line in refusals:
        assert "type `rules now` for its rule text" in line, line
        assert "Rules for this step" not in line and "((" not in line and "))" not in line, line


def test_over_long_input_is_answered_with_it_shortened():
    """A 20,000-character word after `help`, `explain` or `rules` is echoed shortened (with an
    ellipsis), and `explain` says the longest name it looks up; no line repeats the input."""
    out = io.StringIO()
    long = "abcdefghij" * 2000
    console = Console("barbarian-hordes", 2, 1, seed=1, out=out,
                      read=scripted([f"help {long}", f"explain {long}", f"rules {long}"], stop_after=3))
    console.run()
    text = out.getvalue()
    assert "Nothing legal now starts with 'abcdefghij" in text
    assert "A name here is at most 100 characters" in text and "20,000" in text
    assert "Nothing in the rule text or the rulings matches 'abcdefghij" in text
    assert long[:200] not in text and text.count("…") >= 3


def test_help_says_what_undo_does() -> None:
    """The "Also:" line of help says what undo does in words a newcomer reads (tester finding:
    "undo (undo decline: refuse one asked)" was cryptic)."""
    import io

    from bot.console import Console

    said = iter(["help", "quit"])
    out = io.StringIO()
    Console("count", 2, 1, seed=4, options={"target": 6}, out=out, read=lambda p: next(said, "quit")).run()
    text = out.getvalue()
    assert "undo (take back your last action; undo decline: refuse an undo another player asks for)" in text
    assert "refuse one asked" not in text


def test_an_undo_typed_at_the_handover_is_confirmed_to_its_requester_before_the_screen_is_cleared():
    """Player 1 types `undo` at the handover prompt (their first command); the request needs
    Player 2's consent, so the keyboard goes to Player 2. On a terminal the handover clears the
    screen: Player 1 is first told the request was sent and to whom, and presses Enter, so the
    confirmation is on Player 1's screen, not erased unseen."""
    out = Screen()
    reads: list[str] = []
    answers = iter(["", "pick huns", "", "pick visigoths", "undo", "", "", "undo", "", "status"])

    def read(prompt: str) -> str:
        reads.append(prompt)
        try:
            return next(answers)
        except StopIteration:
            raise EOFError from None

    Console("barbarian-hordes", 2, 0, seed=21, out=out, read=read).run()
    screens = out.getvalue().split(CLEAR)
    asked = next(s for s in screens if "asks to undo 'pick Huns'" in s)
    assert asked.startswith("--- Pass the keyboard to Player 1")  # the requester's own screen
    assert "Player 1: your undo request was sent; Player 2 must agree before it is done." in asked
    assert "  Press Enter to pass the keyboard. " in reads
    after = screens[screens.index(asked) + 1]
    assert after.startswith("--- Pass the keyboard to Player 2")
    assert "Player 2: type `undo` to agree or `undo decline` to refuse." in after
    assert "Player 1 undid 'pick Huns'" in out.getvalue()
