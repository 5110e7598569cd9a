"""Two :class:`random.Random` draws the engines make in their hot loops, as plain functions.

``randbelow(rng)(n)`` returns what ``rng.randrange(n)`` returns and ``shuffle(rng, x)`` leaves ``x``
as ``rng.shuffle(x)`` does, consuming exactly the same numbers of the generator (CPython's
rejection sampling on ``getrandbits``: ``Random._randbelow_with_getrandbits``), so a seed deals and
plays the same games either way; ``tests/rules/test_rand.py`` checks both against the standard
library. They only skip the method dispatch of the standard spelling.
"""

from __future__ import annotations

import random
from collections.abc import Callable

_BITS = tuple(n.bit_length() for n in range(256))  # n.bit_length() of the small n of card games


def randbelow(rng: random.Random) -> Callable[[int], int]:
    """A function ``n -> rng.randrange(n)`` for ``n >= 1`` (the same draws)."""
    getrandbits = rng.getrandbits
    bits = _BITS

    def below(n: int) -> int:
        k = bits[n] if n < 256 else n.bit_length()
        r = getrandbits(k)
        while r >= n:
            r = getrandbits(k)
        return r

    return below


def shuffle(rng: random.Random, x: list[int]) -> None:
    """``rng.shuffle(x)`` (the same draws, the same order)."""
    getrandbits = rng.getrandbits
    bits = _BITS
    for i in range(len(x) - 1, 0, -1):
        n = i + 1
        k = bits[n] if n < 256 else n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        x[i], x[j] = x[j], x[i]
