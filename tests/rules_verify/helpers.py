"""Self-played records of every kind and seat count, for the verifier's tests and bench/verify.py."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from games.rules.inheritors.bench import RULES as INHERITORS
from games.rules.inheritors.bench import play_random_game
from games.rules.selfplay import generate

#: (game, seats) of every kind the records cover: claim.record/1 with 2-4 seats and inheritors.record/1.
GROUPS = [("claim", 2), ("claim2", 2), ("claim-mix", 2), ("claim-mix", 3), ("claim-mix", 4),
          ("inheritors", 2), ("inheritors", 3), ("inheritors", 4)]


def records(game: str, seats: int, n: int, seed: int = 0) -> Iterator[dict[str, Any]]:
    """``n`` complete self-played records (Inheritors through its engine's interface: random legal
    moves, ``games.rules.inheritors.bench.play_random_game``)."""
    if game == "inheritors":
        for i in range(n):
            yield INHERITORS.record(play_random_game(seats, seed * 100_003 + i))
    else:
        yield from generate(game, n, seed, seats=seats)


def all_records(per_group: int, seed: int = 0) -> Iterator[dict[str, Any]]:
    for game, seats in GROUPS:
        yield from records(game, seats, per_group, seed)
