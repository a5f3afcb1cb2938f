"""Deterministic randomness (games.core.rng; ARCHITECTURE.md, "Randomness and fairness"):
step ``n`` of a session draws from ``random.Random("tabula:{seed}:{n}").random()`` only,
and every draw is built from that sequence as documented, so a game replays anywhere."""

from __future__ import annotations

import random

import pytest

from games.core.rng import SEED_BITS, CountingRng, Rng, new_seed


def floats(seed: int, step: int, k: int) -> list[float]:
    r = random.Random(f"tabula:{seed}:{step}")
    return [r.random() for _ in range(k)]


def test_new_seeds_fill_63_bits():
    assert SEED_BITS == 63
    seeds = [new_seed() for _ in range(200)]
    assert all(0 <= s < 2**63 for s in seeds)
    assert max(s.bit_length() for s in seeds) == 63  # each draw has its top bit set half the time
    assert len(set(seeds)) == len(seeds)


def test_a_step_draws_the_documented_sequence():
    rng = Rng(12345, 7)
    assert (rng.seed, rng.step) == (12345, 7)
    assert [rng.random() for _ in range(5)] == floats(12345, 7, 5)
    assert Rng(12345, 8).random() != Rng(12345, 7).random() != Rng(12346, 7).random()


def test_below_scales_one_float_and_refuses_an_empty_range():
    rng, ref = Rng(3, 1), floats(3, 1, 300)
    assert [rng.below(7) for _ in range(300)] == [int(f * 7) for f in ref]
    assert Rng(3, 1).below(1) == 0
    with pytest.raises(ValueError, match=r"below\(\) needs n >= 1"):
        Rng(3, 1).below(0)


def test_dice_are_one_plus_below_their_sides():
    ref = floats(5, 2, 40)
    assert Rng(5, 2).dice(40) == tuple(1 + int(f * 6) for f in ref)
    assert set(Rng(5, 2).dice(200)) == {1, 2, 3, 4, 5, 6}
    assert Rng(5, 2).die(20) == 1 + int(ref[0] * 20)
    assert [Rng(5, s).die() for s in range(100)] == [1 + int(floats(5, s, 1)[0] * 6) for s in range(100)]
    assert Rng(5, 2).dice(0) == ()


def test_choice_picks_by_below_and_refuses_an_empty_sequence():
    ref = floats(9, 4, 1)
    assert Rng(9, 4).choice("abcde") == "abcde"[int(ref[0] * 5)]
    assert {Rng(9, s).choice((1, 2, 3)) for s in range(60)} == {1, 2, 3}
    with pytest.raises(IndexError, match="empty sequence"):
        Rng(9, 4).choice([])


def fisher_yates(items, ref):
    out, draws = list(items), iter(ref)
    for i in range(len(out) - 1, 0, -1):
        j = int(next(draws) * (i + 1))
        out[i], out[j] = out[j], out[i]
    return tuple(out)


def test_shuffle_is_fisher_yates_on_a_copy():
    items = list(range(10))
    assert Rng(11, 3).shuffle(items) == fisher_yates(items, floats(11, 3, 9))
    assert items == list(range(10))
    rng = Rng(11, 3)
    rng.shuffle(items)
    assert rng.random() == floats(11, 3, 10)[9]  # one draw per swap, none for the first item
    assert Rng(11, 3).shuffle(["x"]) == ("x",) and Rng(11, 3).shuffle([]) == ()
    # every order of three items comes up, the last item included in the swaps
    assert len({Rng(11, s).shuffle("abc") for s in range(200)}) == 6


def test_sample_takes_the_first_k_of_a_shuffle_and_refuses_impossible_sizes():
    items = tuple("abcdefg")
    assert Rng(2, 2).sample(items, 3) == Rng(2, 2).shuffle(items)[:3]
    assert Rng(2, 2).sample(items, 7) == Rng(2, 2).shuffle(items) and Rng(2, 2).sample(items, 0) == ()
    for k in (8, -1):
        with pytest.raises(ValueError, match="sample larger than population"):
            Rng(2, 2).sample(items, k)


def test_a_counting_rng_draws_the_same_and_its_position_counts_the_draws():
    """CountingRng: the documented sequence of its step, and a position that is equal only
    where nothing was drawn in between (as Rng's), here the number of draws."""
    plain, counted = Rng(99, 3), CountingRng(99, 3)
    assert counted.position() == 0
    assert [counted.die() for _ in range(4)] == [plain.die() for _ in range(4)]
    before = counted.position()
    assert counted.position() == before == 4
    assert counted.shuffle(range(6)) == plain.shuffle(range(6))
    assert counted.position() == 4 + 5
    assert counted.random() == plain.random()
