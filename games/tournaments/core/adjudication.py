"""Adjudication of a game still running when the tournament's maximum game duration is over
(docs/tournaments.md, "Adjudication").

The clock decides: the seat that has used clearly the most thinking time loses — "clearly": at least
``ratio`` times (default 1.5) the thinking time of every other seat *and* at least ``margin`` seconds (default one
day) more. In a 2-seat game the other seat wins; at a table the slow seat takes the last place and the others share
the first. Otherwise the game is a draw (every seat shares the first place).

Thinking time, not time remaining, because tournament games share one time control and a correspondence clock
refills each move: the total a seat has spent is what made the game outlast the tournament.
"""

from __future__ import annotations

from collections.abc import Sequence

RATIO = 1.5
MARGIN = 86400.0


def adjudicate(used: Sequence[float], ratio: float = RATIO, margin: float = MARGIN) -> tuple[int, ...]:
    """Places per seat (1 = best) from the seconds each seat has used."""
    if len(used) < 2 or any(u < 0 for u in used):
        raise ValueError("need two or more seats with non-negative times")
    slow = max(range(len(used)), key=lambda s: (used[s], -s))
    others = [u for s, u in enumerate(used) if s != slow]
    top = max(others)
    if used[slow] >= ratio * top and used[slow] - top >= margin:
        return tuple(2 if s == slow else 1 for s in range(len(used)))
    return tuple(1 for _ in used)
