"""Exact search of a 2-player Claim phase 2 (C7: perfect information once phase 1 is over).

:class:`Solver` answers "can ``seat`` force a final result >= ``need``" (1 = a win, 0.5 = at least
a draw) with a memoised AND/OR search over tricks resolved by the engine core (``core.play``), so
every power (Dwarves, Trolls, Gnome rows, Giant smashes, Dragon leads) comes from the engine.
The search stops with :class:`Budget` after ``max_nodes`` expanded positions. Used by the King
(phase 2 endgames) and by the Knight (the last few tricks).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.rules.claim import core
from games.rules.claim.scoring import fast_winner


class Budget(Exception):
    """The node budget ran out before the question was answered."""


def result(st: core.Core, seat: int) -> float:
    """1 if ``seat`` won the finished game, 0.5 for a draw, else 0."""
    w = fast_winner(st.score, st.factions)
    return 0.5 if w is None else (1.0 if w == seat else 0.0)


class Solver:
    """Exact phase-2 search: can ``seat`` force a final result >= ``need`` (1 win, 0.5 draw)?"""

    def __init__(self, seat: int, max_nodes: int) -> None:
        self.seat = seat
        self.max_nodes = max_nodes
        self.nodes = 0
        self.memo: dict[tuple[Any, ...], bool] = {}

    def key(self, st: core.Core, need: float) -> tuple[Any, ...]:
        return (need, st.turn, st.leader, tuple(st.played), tuple(sorted(st.hands[0])),
                tuple(sorted(st.hands[1])), tuple(sorted(st.score[0])), tuple(sorted(st.score[1])),
                tuple(sorted(st.gnomes[0])), tuple(sorted(st.gnomes[1])), tuple(sorted(st.pool)))

    def force(self, st: core.Core, need: float) -> bool:
        if st.phase == core.OVER:
            return result(st, self.seat) >= need
        key = self.key(st, need)
        hit = self.memo.get(key)
        if hit is not None:
            return hit
        self.nodes += 1
        if self.nodes > self.max_nodes:
            raise Budget
        mine = st.turn == self.seat
        moves = sorted(set(core.legal(st)), reverse=True)
        out = not mine
        for m in moves:
            child = st.copy()
            core.play(child, m)
            ok = self.force(child, need)
            if mine and ok:
                out = True
                break
            if not mine and not ok:
                out = False
                break
        self.memo[key] = out
        return out

    def best(self, root: core.Core, cands: Sequence[int]) -> int | None:
        """A move of ``cands`` that forces a win, else one that forces a draw (highest card first),
        else ``None`` (every move loses against best play). May raise :class:`Budget`."""
        for need in (1.0, 0.5):
            for m in sorted(set(cands), reverse=True):
                child = root.copy()
                core.play(child, m)
                if self.force(child, need):
                    return m
        return None


__all__ = ["Budget", "Solver", "result"]
