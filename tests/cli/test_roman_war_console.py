"""Roman War in the terminal console (through the host): a solo game, a co-op game of
three and a duel between two people at one keyboard play through to a win or a loss."""

from __future__ import annotations

import io

import games.roman_war  # noqa: F401  (registers the game even when imported alone)
from bot.console import Console


def player(out: io.StringIO, limit: int = 4000):
    """A reader that asks for ``help`` and then types one of the legal texts it printed:
    an Ambush at a Roman, a discard, done or pass, or the first one offered."""
    state = {"reads": 0, "asked": False}

    def read(prompt: str) -> str:
        state["reads"] += 1
        if state["reads"] > limit:
            return "quit"
        if prompt != "> ":
            return ""  # pass the keyboard
        if not state["asked"]:
            state["asked"] = True
            return "help"
        state["asked"] = False
        text = out.getvalue()
        block = text[text.rindex("Legal now") :].splitlines()[1:]
        options = [line.strip() for line in block if line.startswith("  ")]
        for pick in (
            lambda o: o.startswith("play ") and " at " in o,
            lambda o: o.startswith("discard"),
            lambda o: o in ("done", "pass"),
        ):
            chosen = [o for o in options if pick(o)]
            if chosen:
                return chosen[0]
        return options[0]

    return read


def run(players: int, ai: int, seed: int, options: dict | None = None) -> str:
    out = io.StringIO()
    console = Console("roman-war", players, ai, seed=seed, options=options, out=out, read=player(out))
    assert console.run() == 0
    return out.getvalue()


def test_solo_plays_to_the_end():
    text = run(1, 0, 3)
    assert "Rome wins!" in text or "Hannibal wins" in text


def test_coop_game_of_three_plays_to_the_end():
    text = run(3, 3, 4)
    assert "Rome wins!" in text or "Hannibal wins" in text


def test_duel_with_two_people():
    text = run(2, 0, 5, {"mode": "duel"})
    assert "plays the Hannibal side" in text
    assert "Hannibal plays the Ambush" in text
    assert "Rome wins!" in text or "Hannibal wins" in text


def test_simulate_reports_the_team_win_rate():
    """``tabula simulate roman-war``: AI-only games end without errors; every Roman seat
    shares the result."""
    from bot.commands.simulate import simulate
    from games.core import get_game

    report = simulate(get_game("roman-war"), 4, 3, players=(1, 3))
    assert report.errors == [] and len(report.records) == 4
    for r in report.records:
        assert r.winners in ((), r.labels)


def test_simulate_counts_the_roman_team_once(capsys):
    """Co-op Roman War: the Romans win or lose together (Game.sides), so the report has one row
    for the team, named by its seats ("Fabius + Scipio + Marcellus"), not one row per seat
    all at the same rate; the Hannibal deck's wins are the games no seat won."""
    from bot.cli import main

    assert main(["simulate", "roman-war", "--games", "3", "--players", "3", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "win rate by side" in out
    rows = [line for line in out.splitlines() if line.startswith("  ") and "+" in line]
    assert len(rows) == 1 and rows[0].split()[:5] == ["Fabius", "+", "Scipio", "+", "Marcellus"]
    assert "seat 1" not in out


def test_every_accepted_action_is_echoed_with_who_played_it():
    """Roman War keeps an action's notation for its player (others read its public events),
    so `play Levy` was confirmed as "You played: play Levy" while `done`, public, read
    "Fabius (You): done". Every accepted action is now echoed as "<who>: <action>" alike, the
    notation of a secret one marked private."""
    out = io.StringIO()
    typed: list[str] = []
    state = {"reads": 0, "asked": False}

    def read(prompt: str) -> str:  # help, then a card play if one is legal, else the first option
        state["reads"] += 1
        if state["reads"] > 3000:
            return "quit"
        if prompt != "> ":
            return ""
        state["asked"] = not state["asked"]
        if state["asked"]:
            return "help"
        text = out.getvalue()
        options = [x.strip() for x in text[text.rindex("Legal now"):].splitlines()[1:] if x.startswith("  ")]
        line = next((o for o in options if o.startswith(("play ", "cost "))), options[0])
        typed.append(line)
        out.write(f"TYPED {line}\n")
        return line

    assert Console("roman-war", 1, 0, seed=3, out=out, read=read).run() == 0
    lines = out.getvalue().splitlines()
    assert any(x.startswith("play ") for x in typed) and "done" in typed
    assert not any("You played:" in x for x in lines)
    for i, line in enumerate(lines):
        if line.startswith("TYPED "):
            action = line[len("TYPED "):]
            assert lines[i + 1] in (f"Fabius (You): {action}", f"  (private) Fabius (You): {action}"), "\n".join(lines[i - 3:i + 4])
