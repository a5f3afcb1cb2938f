"""Every legal action as a short sequence of choices (games.core.choices).

The property: for random positions of all five games, every legal action is reachable
from the first step, every path through the steps ends in exactly one legal action, and
every step fits a chat client's components (25 options, 80-character labels).
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from typing import Any

import pytest

import games  # noqa: F401  (registers the games)
from games.core import get_game
from games.core.agents import RandomAgent
from games.core.choices import (
    MAX_LABEL,
    MAX_MULTI_LEAVES,
    MAX_OPTIONS,
    ChoiceError,
    ChoiceTree,
    _detect_multi,
    _sub_multisets,
    decode_path,
    encode_path,
    join,
    words,
)
from games.core.replay import apply_at, start

GAMES = {
    "barbarian-hordes": (3, 4),
    "credo": (3, 4),
    "promised-land": (2, 4),
    "roman-war": (1, 2),
    "soul-of-the-empire": (2, 4),
}


def walk(tree: ChoiceTree, rand: random.Random) -> set[str]:
    """Every action reached by some path (all single choices; a sample of each multi-select's
    selections, all of them when few), checking each step's limits on the way."""
    reached: set[str] = set()
    stack: list[tuple[int, ...]] = [()]
    legal = set(tree.actions)
    while stack:
        path = stack.pop()
        step = tree.step(path)
        if step.multi is not None:
            m = step.multi
            assert 0 <= m.min_values <= m.max_values <= len(m.items) <= MAX_OPTIONS
            assert all(len(i) <= MAX_LABEL for i in m.items)
            sizes = range(m.min_values, m.max_values + 1)
            combos = [c for k in sizes for c in itertools.combinations(range(len(m.items)), k)]
            if len(combos) > 300:
                combos = rand.sample(combos, 300)
            for picks in combos:
                action = tree.resolve(path, picks)
                assert action in legal
                reached.add(action)  # type: ignore[arg-type]
            with pytest.raises(ChoiceError):
                tree.resolve(path, tuple(range(m.max_values + 1)) if m.max_values < len(m.items) else (0, 0))
            continue
        assert 1 <= len(step.options) <= MAX_OPTIONS, step
        for i, opt in enumerate(step.options):
            assert 0 < len(opt.label) <= MAX_LABEL and len(opt.description) <= 100
            nxt = (*path, i)
            action = tree.resolve(nxt)
            assert action == opt.action, "an option that names an action plays that action"
            if action is not None:
                assert action in legal
                reached.add(action)
            else:
                stack.append(nxt)
    return reached


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_every_legal_action_reachable_and_every_path_legal(game_id: str) -> None:
    game = get_game(game_id)
    rand = random.Random(game_id)
    positions = 0
    for seed, players in enumerate(GAMES[game_id]):
        s = start(game, list(range(players)), game.Options(), seed).state
        agent = RandomAgent(seed)
        for n in range(1, 160):
            if game.outcome(s) is not None:
                break
            prompts = game.to_act(s)
            seat = sorted(prompts)[0]
            if n % 4 == 0 or len(prompts) > 1:
                positions += 1
                for asked in prompts:
                    notations = [game.format_action(s, a) for a in game.legal_actions(s, asked)]
                    tree = ChoiceTree(notations)
                    assert walk(tree, rand) == set(notations)
                    for notation in notations:
                        path, picks = tree.path_to(notation)
                        assert tree.resolve(path, picks) == notation
                        for k in range(len(path)):
                            assert tree.resolve(path[:k]) is None, "an earlier step names no action"
            s = apply_at(game, s, seat, agent.choose(game, s, seat), seed, n).state
    assert positions >= 20


def test_small_prompt_is_one_click() -> None:
    tree = ChoiceTree(["attack Visigoths", "attack Huns", "play Campaign", "done"])
    step = tree.step()
    assert [o.label for o in step.options] == ["attack Visigoths", "attack Huns", "play Campaign", "done"]
    assert all(tree.clicks(a) == 1 for a in tree.actions)


def test_shared_words_move_to_the_heading() -> None:
    tree = ChoiceTree(["discard Famine", "discard Plague", "discard Wise Leader"])
    step = tree.step()
    assert step.chosen == "discard" and [o.label for o in step.options] == ["Famine", "Plague", "Wise Leader"]
    assert [o.action for o in step.options] == tree.actions


def test_discard_two_is_one_multi_select() -> None:
    """Barbarian Hordes End Phase: discard down to 8 cards (two of ten here): one menu
    where exactly two cards are picked, not 45 pairs."""
    cards = [f"Card {c}" for c in "ABCDEFGHIJ"]
    tree = ChoiceTree(f"discard {a}, {b}" for a, b in itertools.combinations(cards, 2))
    step = tree.step()
    assert step.multi is not None and step.chosen == "discard"
    assert (step.multi.min_values, step.multi.max_values) == (2, 2)
    assert list(step.multi.items) == cards
    assert tree.resolve((), (3, 0)) == "discard Card A, Card D"
    with pytest.raises(ChoiceError):
        tree.resolve((), (1,))
    assert tree.clicks("discard Card B, Card J") == 1


def test_which_dice_to_reroll_repeated_values() -> None:
    """Soul of the Empire roll and ready: any dice may be rerolled; equal values are
    separate dice (items told apart by position)."""
    dice = ["1", "1", "4"]
    acts = sorted({"reroll " + " ".join(sorted(c)) for k in (1, 2, 3) for c in itertools.combinations(dice, k)})
    tree = ChoiceTree(["ready", *acts])
    root = tree.step()
    assert [o.label for o in root.options] == ["ready", "reroll …"]
    multi = tree.step((1,)).multi
    assert multi is not None and sorted(multi.items) == ["1", "1", "4"] and multi.min_values == 1
    assert tree.resolve((1,), (0, 1)) == "reroll 1 1"
    assert tree.clicks("reroll 1 1 4") == 2


def test_many_choices_grouped_into_ranges() -> None:
    tree = ChoiceTree([f"recruit {i}" for i in range(1, 61)])
    step = tree.step()
    assert len(step.options) <= MAX_OPTIONS
    assert all(tree.resolve(tree.path_to(a)[0]) == a for a in tree.actions)
    assert max(tree.clicks(a) for a in tree.actions) == 2


def test_bad_paths_are_refused() -> None:
    tree = ChoiceTree(["support Huns with 1 army", "support Franks with 1 army", "pass"])
    with pytest.raises(ChoiceError):
        tree.step((7,))
    with pytest.raises(ChoiceError):
        tree.step((2,))  # "pass" is an action, not a step
    with pytest.raises(ChoiceError):
        decode_path("1.x")
    assert decode_path(encode_path((3, 0, 12))) == (3, 0, 12)
    with pytest.raises(ValueError):
        ChoiceTree([])


@pytest.mark.parametrize("notation", ["move 4: 1 Rome-Italia-Pannonia", "x -1", "discard A, B-C, D",
                                      "place farmer in Ramoth-Gilead"])
def test_words_join_round_trip(notation: str) -> None:
    assert join(words(notation)) == notation


def _reference_detect_multi(node: Any) -> Any:
    """The multi-select detection as first written (every continuation read before any
    check), kept to compare ``_detect_multi``'s early exits with: the same answer for every
    branch."""
    if node.count < 3 or node.count > MAX_MULTI_LEAVES:
        return None
    prefix = node.text()
    rests = []
    for leaf in node.leaves():
        rest = leaf[len(prefix):]
        if rest and not rest.startswith((" ", ",")):
            return None
        rests.append((rest.lstrip(", "), leaf))
    for sep in (", ", " "):
        keyed: dict[tuple[str, ...], str] = {}
        most: Counter[str] = Counter()
        ok = True
        for rest, leaf in rests:
            items = tuple(rest.split(sep)) if rest else ()
            if any(not i for i in items) or tuple(sorted(items)) in keyed:
                ok = False
                break
            keyed[tuple(sorted(items))] = leaf
            for item, n in Counter(items).items():
                most[item] = max(most[item], n)
        if not ok:
            continue
        slots = [item for item in most for _ in range(most[item])]
        if not 2 <= len(slots) <= MAX_OPTIONS or any(len(s) > MAX_LABEL for s in slots):
            continue
        sizes = [len(k) for k in keyed]
        lo, hi = min(sizes), max(sizes)
        if hi < 2 or _sub_multisets(list(most.values()), lo, hi) != len(keyed):
            continue
        return (tuple(slots), sep, lo, hi, keyed)
    return None


def _same_detection(tree: ChoiceTree) -> int:
    """Compares ``_detect_multi`` with the reference on every branch of ``tree``; returns
    how many multi-selects were found."""
    found = 0
    stack = [tree.root]
    while stack:
        node = stack.pop()
        stack.extend(node.children.values())
        got, want = _detect_multi(node), _reference_detect_multi(node)
        if want is None:
            assert got is None, node.text()
        else:
            found += 1
            assert got is not None, node.text()
            assert (got.slots, got.sep, got.lo, got.hi, got.by_key) == want
    return found


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_multi_select_detection_matches_the_reference(game_id: str) -> None:
    """The early exits of the multi-select detection change no step: every branch of the
    trees of random positions is detected as the reference reads it."""
    game = get_game(game_id)
    for seed, players in enumerate(GAMES[game_id]):
        s = start(game, list(range(players)), game.Options(), seed + 10).state
        agent = RandomAgent(seed)
        for n in range(1, 120):
            if game.outcome(s) is not None:
                break
            prompts = game.to_act(s)
            if n % 3 == 0:
                for asked in prompts:
                    legal = list(itertools.islice(game.legal_actions(s, asked), 3001))
                    if len(legal) <= 3000:
                        _same_detection(ChoiceTree(game.format_action(s, a) for a in legal))
            seat = sorted(prompts)[0]
            s = apply_at(game, s, seat, agent.choose(game, s, seat), seed, n).state


def test_multi_select_detection_matches_the_reference_on_made_up_lists() -> None:
    """Lists of items (some repeated, some labels too long, some selections missing or
    extra, both separators, many items) are detected as the reference detects them, and
    the complete ones are found."""
    rand = random.Random(5)
    found = 0
    for case in range(400):
        k = rand.choice([2, 3, 4, 6, 12, 24, 25, 26, 30])
        words_ = ["Famine", "Plague", "War", "x" * 81] + [f"card{i}" for i in range(40)]
        items = [rand.choice(words_[:5] if k <= 6 else words_) for _ in range(k)]
        sep = rand.choice([", ", " "])
        lo = rand.randrange(0, 2)
        hi = rand.randrange(max(lo, 1), min(k, 4 if k <= 6 else 2) + 1)
        combos = {tuple(sorted(c)) for size in range(lo, hi + 1) for c in itertools.combinations(items, size)}
        lists = sorted(combos)
        if case % 3 == 0 and len(lists) > 3:
            lists.pop(rand.randrange(len(lists)))
        if case % 5 == 0:
            lists.append(("Extra",))
        texts = [("discard " + sep.join(c)).rstrip() if c else "discard" for c in lists]
        if len(texts) > 2000:
            continue
        found += _same_detection(ChoiceTree(texts))
    assert found >= 50
