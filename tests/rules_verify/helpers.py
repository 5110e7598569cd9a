"""Self-played records of every kind and seat count, for the verifier's tests and bench/verify.py."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from games.rules.selfplay import generate

#: (game, seats) of every kind the records cover: claim.record/1 with 2-4 seats and inheritors.record/1.
GROUPS = [("claim", 2), ("claim2", 2), ("claim-mix", 2), ("claim-mix", 3), ("claim-mix", 4),
          ("inheritors", 2), ("inheritors", 3), ("inheritors", 4)]


def records(game: str, seats: int, n: int, seed: int = 0) -> Iterator[dict[str, Any]]:
    """``n`` complete self-played records (``games.rules.selfplay``, Inheritors included)."""
    yield from generate(game, n, seed, seats=seats)


def all_records(per_group: int, seed: int = 0) -> Iterator[dict[str, Any]]:
    for game, seats in GROUPS:
        yield from records(game, seats, per_group, seed)
