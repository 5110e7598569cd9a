"""Round-robin schedule (docs/tournaments.md, "Round robin"): every pair once, by the circle method.

All games of a correspondence round robin start at once; the rounds are kept only as the order in which the pairs
are listed. First seats are balanced: with an even number of players each plays ``(n-2)/2`` or ``n/2`` first
seats out of ``n-1``; with an odd number (a "dummy" completes the circle: who meets it rests that round) each plays
exactly ``(n-1)/2`` first seats.
"""

from __future__ import annotations

from collections.abc import Sequence


def rounds(players: Sequence[int]) -> list[list[tuple[int, int]]]:
    """The rounds of a single round robin, each a list of ``(first seat, second seat)``; ``players`` in seed order.
    Deterministic; every unordered pair appears exactly once."""
    if len(set(players)) != len(players):
        raise ValueError("duplicate player ids")
    circle: list[int | None] = list(players)
    if len(circle) % 2:
        circle.append(None)
    n = len(circle)
    if n < 2:
        return []
    fixed = circle[-1]
    ring = circle[:-1]
    out: list[list[tuple[int, int]]] = []
    for r in range(n - 1):
        games: list[tuple[int, int]] = []
        # The fixed player meets ring[r], alternating the seat by round.
        a, b = ring[r], fixed
        if r % 2:
            a, b = b, a
        if a is not None and b is not None:
            games.append((a, b))
        for i in range(1, n // 2):
            x, y = ring[(r + i) % (n - 1)], ring[(r - i) % (n - 1)]
            if x is not None and y is not None:
                games.append((x, y) if i % 2 else (y, x))
        out.append(games)
    return out


def all_games(players: Sequence[int]) -> list[tuple[int, int]]:
    """Every game of the round robin, ``(first seat, second seat)``, in round order."""
    return [g for rnd in rounds(players) for g in rnd]
