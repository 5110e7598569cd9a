"""games.rules.rand draws exactly what random.Random's randrange / shuffle draw (the seeds' games depend on it)."""

from __future__ import annotations

import random

import pytest

from games.rules.rand import randbelow, shuffle


@pytest.mark.parametrize("seed", [0, 1, 7, 2**63 - 1, 123456789])
def test_randbelow_draws_what_randrange_draws(seed: int) -> None:
    ours, std = random.Random(seed), random.Random(seed)
    below = randbelow(ours)
    sizes = [1, 2, 3, 4, 5, 7, 8, 9, 13, 16, 17, 31, 32, 33, 52, 64, 65, 72, 1000, 2**40 + 3]
    for i in range(3000):
        n = sizes[i % len(sizes)]
        assert below(n) == std.randrange(n)
    assert ours.getstate() == std.getstate()


@pytest.mark.parametrize("size", [0, 1, 2, 3, 13, 26, 52, 72, 200])
def test_shuffle_is_random_shuffle(size: int) -> None:
    for seed in range(40):
        ours, std = random.Random(seed), random.Random(seed)
        a = list(range(size))
        b = list(range(size))
        shuffle(ours, a)
        std.shuffle(b)
        assert a == b
        assert ours.getstate() == std.getstate()
