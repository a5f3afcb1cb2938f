"""Harvest, the toy game built only on the flow engine (tests/harvest/README.md): its rules
by rule number, random play through the fuzz and the hidden-information checks, play
through the console and host, and the proof that a new game lives in its own folder."""

from __future__ import annotations

import ast
import io
import itertools
from pathlib import Path

import pytest

import tests.harvest  # noqa: F401  (registers "harvest")
from bot.console import Console
from games.core import IllegalActionError, NotYourTurnError, Rng
from games.core.fuzz import cases, fuzz_game
from games.core.secretcheck import check_game
from tests.harvest import GAME
from tests.harvest.model import Block, Gather, Pass, Play, State

RNG = Rng(11, 1)


def state(**kw: object) -> State:
    base: dict[str, object] = dict(target=8, grain=(0, 0), hands=(("harvest", "raid", "shield"), ("feast", "shield")),
                                   deck=("harvest", "feast", "raid"), turn=0, refill=False)
    return State(**{**base, **kw})  # type: ignore[arg-type]


def test_rule_1_setup_deals_hidden_hands_of_three() -> None:
    step = GAME.setup([0, 1, 2], {}, Rng(5, 0))
    assert [len(h) for h in step.state.hands] == [3, 3, 3]
    assert len(step.state.deck) == 18 - 9
    assert all(e.visible_to is not None for e in step.events if "draw" in e.describe())


def test_rule_2_a_seat_refills_to_three_before_its_turn() -> None:
    s = state(hands=(("harvest", "raid", "shield"), ("shield",)))
    after = GAME.apply(s, 0, Gather(), RNG)
    assert after.state.turn == 1 and after.state.hands[1] == ("feast", "harvest", "shield")
    drawn = [e for e in after.events if e.visible_to == (1,)]
    assert len(drawn) == 2


def test_rule_3_gather_or_play_and_a_shield_is_not_played_on_ones_turn() -> None:
    s = state()
    assert [GAME.format_action(s, a) for a in GAME.legal_actions(s, 0)] == ["gather", "play Harvest", "play Raid"]
    assert GAME.apply(s, 0, Play(card="harvest"), RNG).state.grain == (2, 0)
    with pytest.raises(IllegalActionError, match=r"Shield is played only in answer to another card \(rule 3\)"):
        GAME.apply(s, 0, Play(card="shield"), RNG)
    with pytest.raises(IllegalActionError, match="You hold no Feast; your hand: Harvest, Raid, Shield"):
        GAME.apply(s, 0, Play(card="feast"), RNG)


def test_rule_4_a_raid_is_answered_by_the_next_seat_alone() -> None:
    raided = GAME.apply(state(grain=(1, 3)), 0, Play(card="raid"), RNG).state
    assert {k: p.kind for k, p in GAME.to_act(raided).items()} == {1: "respond"}
    with pytest.raises(NotYourTurnError, match=r"^It is not your turn to act; waiting for seat 2\.$"):
        GAME.apply(raided, 0, Gather(), RNG)
    taken = GAME.apply(raided, 1, Pass(), RNG).state
    assert taken.grain == (3, 1) and taken.raid is None and taken.turn == 1
    blocked = GAME.apply(raided, 1, Block(), RNG).state
    assert blocked.grain == (1, 3) and "shield" not in blocked.hands[1] and blocked.discard[-1] == "shield"
    bare = GAME.apply(state(hands=(("raid",), ("feast",))), 0, Play(card="raid"), RNG).state
    assert GAME.legal_actions(bare, 1) == [Pass()]
    with pytest.raises(IllegalActionError, match="'block' is not possible now: you hold no Shield; you may: pass"):
        GAME.apply(bare, 1, Block(), RNG)


def test_rule_5_the_first_seat_with_the_target_wins_at_once() -> None:
    won = GAME.apply(state(grain=(7, 0)), 0, Gather(), RNG).state
    assert GAME.outcome(won) is not None and GAME.outcome(won).winners == (0,)
    assert GAME.to_act(won) == {} and GAME.legal_actions(won, 0) == []


def test_notation_reads_names_and_prefixes_and_names_what_is_legal() -> None:
    s = state()
    assert GAME.parse_action(s, 0, "PLAY harv") == Play(card="harvest")
    assert GAME.parse_action(s, 0, "ga") == Gather()
    with pytest.raises(Exception, match="command words legal now: gather, play"):
        GAME.parse_action(s, 0, "dance")


@pytest.mark.parametrize("case", cases(GAME, 12, 2026), ids=lambda c: f"{c.players}p-{c.seed}")
def test_random_play_finishes_without_a_fault(case: object) -> None:
    result = fuzz_game(GAME, case)  # type: ignore[arg-type]
    assert result.failure is None, result.failure
    assert result.finished


@pytest.mark.parametrize("players", [2, 3, 4])
def test_prompts_never_betray_hands_and_reveals_are_derived(players: int) -> None:
    report = check_game(GAME, players, {}, 99 + players, 60)
    assert report.states > 10
    assert not report.findings, [str(f) for f in report.findings[:3]]


def test_the_console_plays_it_through_the_host_without_knowing_it() -> None:
    out = io.StringIO()
    moves = itertools.cycle(["hand", "gather", "pass"])
    console = Console("harvest", 2, 1, seed=4, options={"target": 5}, out=out, read=lambda prompt: next(moves))
    assert console.run() == 0
    text = out.getvalue()
    assert "Your hand:" in text and "Game over" in text


def test_the_game_lives_in_its_folder_and_imports_only_the_core() -> None:
    folder = Path(tests.harvest.__file__).parent
    for path in folder.glob("*.py"):
        if path.name == "render.py":  # the renderer draws with render/, as every game's does
            continue
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                assert node.module.split(".")[:2] == ["games", "core"] or node.module.split(".")[0] in {
                    "__future__", "collections", "typing", "pydantic", "random", "tomllib", "functools", "pathlib"
                }, f"{path.name} imports {node.module}"
    root = Path(__file__).parents[3]
    code = [p for layer in ("games", "storage", "render", "bot") for p in (root / layer).rglob("*.py")]
    assert len(code) > 50
    assert [p for p in code if '"harvest"' in p.read_text("utf-8") or "tests.harvest" in p.read_text("utf-8")] == []


def test_its_renderer_draws_the_public_board_and_a_seats_hand_only_to_that_seat(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import render
    from render.record import recording

    monkeypatch.setitem(render.RENDERERS, "harvest", "tests.harvest.render")
    s = state(grain=(3, 5), raid=0)
    with recording() as public:
        png = render.render_view(GAME.view(s, None), {0: "Ada"})
    with recording() as own:
        render.render_view(GAME.view(s, 1), {0: "Ada"})
    assert png.startswith(b"\x89PNG")
    (tmp_path / "harvest.png").write_bytes(png)
    public_text = " ".join(t.text for t in public)
    assert "Ada: 3 of 8 grain" in public_text and "Seat 2: 5 of 8 grain" in public_text
    assert "Seat 1's Raid waits for Seat 2" in public_text and "Your hand" not in public_text
    assert "Your hand: Feast, Shield" in " ".join(t.text for t in own)
