"""OpenSkill (Weng-Lin, Plackett-Luce model) for games of 3-4 seats and partnerships: pure Python, no Django.

A thin wrapper around the ``openskill`` package (pinned 6.2.0). Ratings are (mu, sigma) with
mu = 25, sigma = 25/3 for a new player. :func:`rate` takes teams (lists of (mu, sigma)) and ranks
(1 = best; equal ranks are ties) and returns the new (mu, sigma) per player, in the same shape.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from openskill.models import PlackettLuce

DEFAULT_MU = 25.0
DEFAULT_SIGMA = 25.0 / 3.0
# Display scale: mu 25 ↔ 1500 so that every pool reads alike (the pools never mix).
DISPLAY_FACTOR = 60.0


def _model(tau: float | None) -> PlackettLuce:
    return PlackettLuce() if tau is None else PlackettLuce(tau=tau)


def rate(teams: Sequence[Sequence[tuple[float, float]]], ranks: Sequence[float],
         tau: float | None = None) -> list[list[tuple[float, float]]]:
    """New (mu, sigma) of every player. ``tau`` is the model's additive dynamics (None: package default
    25/300, which keeps sigma from collapsing; 0: the classic update of the package's documentation)."""
    model = _model(tau)
    rated = [[model.rating(mu=mu, sigma=sigma) for mu, sigma in team] for team in teams]
    out = model.rate(rated, ranks=list(ranks))
    return [[(p.mu, p.sigma) for p in team] for team in out]


IDLE_STEP = 0.5  # sigma growth per idle rating period, in quadrature (mu units)


def inflate(sigma: float, periods: float, step: float = IDLE_STEP, max_sigma: float = DEFAULT_SIGMA) -> float:
    """Sigma after ``periods`` idle rating periods: sqrt(σ² + periods·step²), capped at a new player's."""
    if periods <= 0:
        return sigma
    return min(math.sqrt(sigma * sigma + periods * step * step), max_sigma)


def display(mu: float, sigma: float) -> tuple[float, float]:
    return mu * DISPLAY_FACTOR, sigma * DISPLAY_FACTOR
