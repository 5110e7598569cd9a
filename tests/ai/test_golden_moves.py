"""Golden digests: a seed still gives exactly the same Squire / Knight / King moves.

The digests were taken before the engine-speed work (issue 37) and must not move when the engine
gets faster (tests/rules/test_golden_digests.py does the same for records and playouts). A change
meant to change the AI's play updates them deliberately.
"""

from __future__ import annotations

import hashlib

import pytest

from games.ai import choose_move
from games.ai.match import deal_options, get_engine


def digest(value: object) -> str:
    return hashlib.sha256(repr(value).encode()).hexdigest()[:16]


def ai_moves(kind: str, levels: list[int], deal_seed: int, budget: float, seats: int = 2) -> list[object]:
    rules = get_engine(kind)
    opts = deal_options(kind, deal_seed) if seats == 2 else deal_options(kind, deal_seed, seats)
    st = rules.setup(opts, seats, deal_seed)
    moves = []
    step = 0
    while not rules.is_over(st):
        seat = min(rules.to_act(st))
        legal = rules.legal_moves(st, seat)
        m = choose_move(kind, levels[seat], rules.view(st, seat), legal,
                        (deal_seed * 1_000_003 + step) & 0x7FFFFFFF, budget=budget)
        moves.append(m)
        st, _ = rules.apply(st, seat, m)
        step += 1
    return moves


@pytest.mark.parametrize(("kind", "expected"), [
    ("claim", "1d3bfffaf6dcc328"), ("claim2", "ce342ce0b2513c02"), ("claim-mix", "9ffecaf788d1ea18"),
])
def test_ai_moves_are_unchanged(kind: str, expected: str) -> None:
    games = [ai_moves(kind, [3, 2], 100, 0.01), ai_moves(kind, [1, 3], 200, 0.01)]
    assert digest(games) == expected


@pytest.mark.parametrize(("seats", "expected"), [(3, "5a8eab61a4ec98e1"), (4, "d0ce6fc6f211f440")])
def test_ai_moves_on_3_and_4_seats_are_unchanged(seats: int, expected: str) -> None:
    assert digest(ai_moves("claim-mix", [3, 2, 1, 3][:seats], 300, 0.01, seats)) == expected


@pytest.mark.parametrize(("seats", "levels", "expected"), [
    (2, [3, 2], "0e04ce9f68a2182f"), (3, [1, 3, 2], "88bfff855dc47b84"),
])
def test_inheritors_ai_moves_are_unchanged(seats: int, levels: list[int], expected: str) -> None:
    """Inheritors Squire / Knight / King: digests taken before the playouts' legal moves got cheaper."""
    assert digest(ai_moves("inheritors", levels, 400 + seats, 0.02, seats)) == expected
