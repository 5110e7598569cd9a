"""AI players over the engine interface (pure Python: no Django, Channels or Celery imports).

The service calls :func:`choose_move` with only what the AI's seat may know: the seat's view
(``rules.view(state, seat)``, which includes the public history the engine exposes) and that seat's
legal moves. The AI is never handed the true state, so it cannot read hidden cards by construction.

Levels (issue 5): 1 "Squire", 2 "Knight", 3 "King". Until the level players land, every level
plays a uniformly random legal move (seeded, so a retried task picks the same move).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

LEVELS: dict[int, str] = {1: "Squire", 2: "Knight", 3: "King"}


def level_name(level: int) -> str:
    return LEVELS.get(level, f"Level {level}")


def choose_move(kind: str, level: int, view: Mapping[str, Any], legal: Sequence[Mapping[str, Any]],
                seed: int) -> dict[str, Any]:
    """Pick one of ``legal`` for a seat that sees ``view``. Deterministic for a given ``seed``."""
    if not legal:
        raise ValueError("choose_move needs at least one legal move")
    if level not in LEVELS:
        raise ValueError(f"unknown AI level {level}; levels are {sorted(LEVELS)}")
    rng = random.Random(seed)
    return dict(legal[rng.randrange(len(legal))])
