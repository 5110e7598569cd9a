"""Random self-play for tests and speed measurements (no Django)."""

from __future__ import annotations

import random
import time

from . import engine
from .engine import InheritorsRules
from .state import InheritorsState

RULES = InheritorsRules()


def play_random_game(seats: int, seed: int, options: dict[str, object] | None = None,
                     max_moves: int = 20000) -> InheritorsState:
    """Play uniformly random legal moves (a random seat from ``to_act``) until the end, on one state in place
    (``engine.play``, as the King's playouts do; ``apply`` is a copy of the state and the same ``play``)."""
    rng = random.Random(seed ^ 0x5EED)
    state = RULES.setup(options, seats, seed)
    for _ in range(max_moves):
        acting = RULES.to_act(state)
        if not acting:
            return state
        seat = rng.choice(sorted(acting))
        moves = RULES.legal_moves(state, seat)
        engine.play(state, seat, rng.choice(moves))
    raise RuntimeError(f"game did not end within {max_moves} moves (seats={seats}, seed={seed})")


def games_per_second(seats: int, n: int = 50, seed: int = 0) -> float:
    """Play ``n`` random games with ``seats`` players; return games per second."""
    start = time.perf_counter()
    for i in range(n):
        play_random_game(seats, seed + i)
    return n / (time.perf_counter() - start)


if __name__ == "__main__":  # pragma: no cover
    for k in (2, 3, 4):
        print(f"{k} players: {games_per_second(k):.1f} games/s")
