"""Random-agent fuzz of every game (issue: "no reachable position raises") and the
conservation invariants (``games.core.invariants``).

A bounded slice of ``tabula fuzz``: every game, every player count, every rule
variant, played with uniformly random legal actions for a bounded number of steps,
checking after each step what ``games.core.fuzz`` checks (no exception, someone asked
unless over, a legal action for every asked seat, notation round trips, the
conservation invariants). Longer runs: ``tabula fuzz GAME --games N``.

And the invariants are shown to fail: the Barbarian Hordes war cards dropped from
the discard pile, or the blocking cards, are caught by the fuzz and by the
conformance playouts.
"""

from __future__ import annotations

import io
from typing import Any

import pytest

from bot.cli import main
from bot.commands import fuzz as fuzz_cmd
from games.barbarian_hordes.rules import war as war_rules
from games.core import all_games, fuzz, get_game
from games.core.invariants import check_invariants, invariants_of, ledger, total

from .test_conformance import playout

# Steps per (player count, variant) case in the slice, so that each game takes about
# 15-25 s on a loaded 2-core machine; a case that ends sooner starts no other game.
SLICE_STEPS = {
    "barbarian-hordes": 220,
    "credo": 300,
    "promised-land": 400,
    "roman-war": 400,
    "soul-of-the-empire": 450,
}
SLICE_NOTATION_CAP = 6
SLICE_SEED = 17


def production_games() -> list[Any]:
    return [g for g in all_games() if type(g).__module__.startswith("games.")]


def slice_cases(game: Any) -> list[fuzz.Case]:
    """One case per player count and variant."""
    out = []
    i = 0
    for n in range(game.min_players, game.max_players + 1):
        for opts in fuzz.variants_of(game, n):
            out.append(fuzz.Case(game.id, n, opts, fuzz.case_seed(SLICE_SEED, i)))
            i += 1
    return out


def describe(f: fuzz.Failure) -> str:
    out = io.StringIO()
    fuzz_cmd.print_failure(f, out)
    return out.getvalue()


def test_every_game_has_invariants_and_variants() -> None:
    for game in production_games():
        assert invariants_of(game.id) is not None, f"{game.id}: no conservation invariants registered"
        assert game.id in SLICE_STEPS, f"{game.id}: give it a slice length"
        cases = slice_cases(game)
        assert len(cases) > game.max_players - game.min_players, f"{game.id}: every player count is covered"


@pytest.mark.parametrize("game_id", sorted(SLICE_STEPS))
def test_random_play_slice(game_id: str) -> None:
    """Every player count and variant of the game, random legal actions, checked after every step."""
    game = get_game(game_id)
    report = fuzz.run(
        game, slice_cases(game), max_steps=SLICE_STEPS[game_id], notation_cap=SLICE_NOTATION_CAP
    )
    assert report.steps >= len(slice_cases(game)) * 20
    assert not report.failures, "\n".join(describe(f) for f in report.failures)


def test_the_options_that_change_the_rules_are_fuzzed() -> None:
    """The variants named by the rule texts and the session options are all covered."""

    def seen(game_id: str) -> set[tuple[str, Any]]:
        game = get_game(game_id)
        return {
            (k, v if not isinstance(v, tuple) else "lineup")
            for n in range(game.min_players, game.max_players + 1)
            for opts in fuzz.variants_of(game, n)
            for k, v in opts.items()
        }

    assert ("variant", "three-player") in seen("barbarian-hordes")
    assert {("ask_all", False)} <= seen("credo")
    assert ("no_dice", True) in seen("promised-land")
    assert {("mode", "duel"), ("level_abilities", False), ("fee", 2), ("fee", 3), ("manual", True)} <= seen(
        "roman-war"
    )
    assert ("factions", "lineup") in seen("soul-of-the-empire")


# --------------------------------------------------------------------------- the invariants can fail


def test_ledger_names_what_is_missing_duplicated_or_unknown() -> None:
    problems = ledger("card", ["a", "b", "c", "c"], {"deck": ["a", "c"], "hand": ["a", "x"]})
    assert "card 'a': 2 copies for 1 (in deck, hand)" in problems
    assert "card 'b': 1 of 1 missing" in problems
    assert "card 'c': 1 of 2 missing (held: deck)" in problems
    assert "unknown card 'x' in hand" in problems
    assert ledger("card", {"a": 1, "b": 2}, {"deck": ["b", "a"]}) == []
    assert total("coins", 10, {"supply": 7, "seat 1": 3}) == []
    assert total("coins", 10, {"supply": 11, "seat 1": -1}) == ["coins: seat 1 holds -1"]


def _drop_after_war(monkeypatch: pytest.MonkeyPatch, which: str) -> None:
    """Mutate Barbarian Hordes so the cards committed to a war (``force``) or the
    blocking cards (``block``) vanish instead of going to the discard pile."""
    original = war_rules.resolve_war

    def resolve(game: Any, ctx: Any) -> None:
        war = ctx.s.war
        if which == "force":
            gone = {c for con in war.contributions for c in con.cards}
        else:
            gone = {con.block for con in war.contributions if con.block}
        original(game, ctx)
        ctx.update(discard=tuple(c for c in ctx.s.discard if c not in gone))

    monkeypatch.setattr(war_rules, "resolve_war", resolve)


@pytest.mark.parametrize("which", ["force", "block"])
def test_cards_dropped_after_a_war_are_caught_by_the_fuzz(
    monkeypatch: pytest.MonkeyPatch, which: str
) -> None:
    """THE DECK: "The deck contains one of each card listed"; the cards played in a war
    are discarded ("Some cards when played (discarded) offer a Force Bonus")."""
    game = get_game("barbarian-hordes")
    _drop_after_war(monkeypatch, which)
    for i in range(40):
        r = fuzz.fuzz_game(
            game, fuzz.Case(game.id, 3 + i % 4, {}, fuzz.case_seed(99, i)), max_steps=1500, notation_cap=1
        )
        if r.failure is not None:
            assert r.failure.kind == "invariant", describe(r.failure)
            assert "missing" in r.failure.message
            return
    pytest.fail(f"dropping the {which} cards of a war was not caught")


def test_cards_dropped_after_a_war_are_caught_by_the_conformance_playouts(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _drop_after_war(monkeypatch, "force")
    with pytest.raises(AssertionError, match="conservation invariants broken: card .* missing"):
        for i in range(10):
            playout("barbarian-hordes", 4, "heuristic", 7_000 + i)


def test_a_card_in_two_places_is_caught() -> None:
    game = get_game("credo")
    s = fuzz_start(game, 4)
    p = s.players[0]
    twice = s.model_copy(
        update={"players": (p.model_copy(update={"hand": p.hand + (s.event_deck[0],)}), *s.players[1:])}
    )
    assert check_invariants(game, s) == []
    problems = check_invariants(game, twice)
    assert problems and "2 copies for 1" in problems[0]


def test_units_lost_are_caught() -> None:
    """Promised Land: the counters of a colour are in the supply or on the map."""
    game = get_game("promised-land")
    s = fuzz_start(game, 4)
    supply = tuple((c, n - 1 if i == 0 else n) for i, (c, n) in enumerate(s.unit_supply))
    problems = check_invariants(game, s.model_copy(update={"unit_supply": supply}))
    assert any("units" in p for p in problems), problems


def fuzz_start(game: Any, players: int) -> Any:
    from games.core import start

    return start(game, list(range(players)), game.Options(), 12345).state


# --------------------------------------------------------------------------- the command


def test_fuzz_command_reports_games_steps_and_failures(capsys: pytest.CaptureFixture[str]) -> None:
    status = main(
        ["fuzz", "roman-war", "--games", "3", "--seed", "2", "--max-steps", "60", "--players", "1-2"]
    )
    out = capsys.readouterr().out
    assert status == 0, out
    assert "Roman War" in out and "fuzz, 3 games, seed 2" in out
    assert "games: 3 (" in out
    assert "steps: " in out and "failures: 0" in out


def test_fuzz_command_prints_what_reproduces_a_failure(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _drop_after_war(monkeypatch, "force")
    status = main(["fuzz", "barbarian-hordes", "--games", "6", "--players", "4", "--notation-cap", "1"])
    out = capsys.readouterr().out
    assert status == 1, out
    assert "failures: 0" not in out
    assert "invariant at step" in out and "seed " in out and "4 players" in out and "options: " in out
    assert "1. seat " in out
    # the session seed it prints replays that failure alone
    seed = int(out.split("invariant at step", 1)[1].split("seed ", 1)[1].split(",", 1)[0])
    assert (
        main(
            ["fuzz", "barbarian-hordes", "--session-seed", str(seed), "--players", "4", "--notation-cap", "1"]
        )
        == 1
    )


def test_fuzz_command_interrupted_reports_the_games_done(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Ctrl-C ends a long run with the figures of the games finished so far (exit status 1)."""
    real = fuzz.fuzz_game
    calls = []

    def stop_at_third(*args, **kw):
        calls.append(1)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return real(*args, **kw)

    monkeypatch.setattr(fuzz, "fuzz_game", stop_at_third)
    status = main(["fuzz", "roman-war", "--games", "5", "--max-steps", "40", "--players", "1"])
    out = capsys.readouterr().out
    assert status == 1, out
    assert "interrupted after 2 of 5 games" in out and "games: 2 (" in out and "failures: 0" in out


def _without_time(out: str) -> str:
    return "\n".join(line for line in out.splitlines() if not line.startswith("time: "))


def test_fuzz_command_in_parallel_reports_what_a_serial_run_does(capsys: pytest.CaptureFixture[str]) -> None:
    """--jobs 2 plays the games of a serial run, with their seeds: the same games, steps and
    failures, printed the same way (in case order, whichever worker finished first)."""
    import tests.faultygame  # noqa: F401  (registers "count-faulty": its reader misreads a card)

    runs = []
    for jobs in ("1", "2"):
        status = main(["fuzz", "count-faulty", "--games", "12", "--seed", "3", "--jobs", jobs])
        runs.append((status, _without_time(capsys.readouterr().out)))
    assert runs[0] == runs[1]
    status, out = runs[1]
    assert status == 1 and "failures: 0" not in out and "notation at step" in out and "1. seat " in out


def test_fuzz_command_in_parallel_interrupted_reports_the_games_done(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Ctrl-C in a parallel run ends its workers and prints the figures of the games finished."""
    real = fuzz._count
    calls = []

    def stop_at_third(*args: Any) -> None:
        calls.append(1)
        if len(calls) == 3:
            raise KeyboardInterrupt
        real(*args)

    monkeypatch.setattr(fuzz, "_count", stop_at_third)
    status = main(["fuzz", "roman-war", "--games", "6", "--max-steps", "30", "--players", "1", "--jobs", "2"])
    out = capsys.readouterr().out
    assert status == 1, out
    assert "interrupted after 2 of 6 games; the games in play are not counted" in out and "games: 2 (" in out


def test_fuzz_command_rejects_bad_arguments(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["fuzz", "credo", "--games", "1", "--players", "2"]) == 2
    assert "3 to 6 players" in capsys.readouterr().err
    assert main(["fuzz", "credo", "--games", "1", "-o", "colour=blue"]) == 2
    assert "ask_all" in capsys.readouterr().err
    assert main(["fuzz", "credo", "--session-seed", "5"]) == 2
    assert "--players N" in capsys.readouterr().err
    assert main(["fuzz", "credo", "--jobs", "0"]) == 2
    assert "--jobs must be at least 1" in capsys.readouterr().err
