"""AI players over the engine interface (pure Python: no Django, Channels or Celery imports).

The service calls :func:`choose_move` with only what the AI's seat may know: the seat's view
(``rules.view(state, seat)``, which includes the public history the engine exposes) and that seat's
legal moves. The AI is never handed the true state, so it cannot read hidden cards by construction.

Levels (issue 5, see docs/ai.md): 1 "Squire" (random with simple sense), 2 "Knight" (heuristic),
3 "King" (search: determinized rollouts in phase 1, exact/rollout search of the perfect-information
phase 2). Every level is deterministic for a given ``seed`` (the King's time budget is converted
into a fixed number of playouts, never read from the clock), so a retried task picks the same move.
Inheritors: levels 1 and 2 in :mod:`games.ai.inheritors`, the King in :mod:`games.ai.inheritors_king`.
Other kinds: random legal moves.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from games.ai import inheritors, inheritors_king
from games.ai.claim import king, knight, squire

LEVELS: dict[int, str] = {1: "Squire", 2: "Knight", 3: "King"}
CLAIM_KINDS = ("claim", "claim2", "claim-mix")
DEFAULT_BUDGET = 1.0  # seconds per King move on one core (converted to a playout count)


def level_name(level: int) -> str:
    return LEVELS.get(level, f"Level {level}")


def random_move(legal: Sequence[Mapping[str, Any]], seed: int) -> dict[str, Any]:
    """A uniformly random legal move (the bench's "random" player)."""
    rng = random.Random(seed)
    return dict(legal[rng.randrange(len(legal))])


def choose_move(kind: str, level: int, view: Mapping[str, Any], legal: Sequence[Mapping[str, Any]],
                seed: int, budget: float | None = None) -> dict[str, Any]:
    """Pick one of ``legal`` for a seat that sees ``view``. Deterministic for a given ``seed``.

    ``budget`` (King only): seconds of thinking per move on one core, default 1 s.
    """
    if not legal:
        raise ValueError("choose_move needs at least one legal move")
    if level not in LEVELS:
        raise ValueError(f"unknown AI level {level}; levels are {sorted(LEVELS)}")
    if len(legal) == 1:
        return dict(legal[0])
    if kind in CLAIM_KINDS:
        if level == 1:
            return squire.choose(view, legal, seed)
        if level == 2:
            return knight.choose(view, legal, seed)
        return king.choose(view, legal, seed, DEFAULT_BUDGET if budget is None else budget)
    if kind == "inheritors":
        if level == 3:
            return inheritors_king.choose(view, legal, seed, DEFAULT_BUDGET if budget is None else budget)
        return inheritors.choose(view, legal, seed, level)
    return random_move(legal, seed)  # a kind without a dedicated AI yet: random legal moves
