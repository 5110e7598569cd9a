"""Glicko-2 (Mark E. Glickman, "Example of the Glicko-2 system", 2013): pure Python, no Django.

Ratings are on the Glicko scale (r ≈ 1500, RD ≈ 350 for a new player). One call of :func:`rate`
is one rating period for one player: the results of the period against opponents rated *before*
the period. With no results the deviation grows (step 6 of the paper): :func:`inflate` applies that
growth for several idle periods at once.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

SCALE = 173.7178
DEFAULT_RATING = 1500.0
DEFAULT_RD = 350.0
DEFAULT_VOLATILITY = 0.06
DEFAULT_TAU = 0.5
EPSILON = 0.000001


@dataclass(frozen=True)
class Glicko:
    rating: float = DEFAULT_RATING
    rd: float = DEFAULT_RD
    volatility: float = DEFAULT_VOLATILITY


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _e(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def expected_score(player: Glicko, opponent: Glicko) -> float:
    """The probability that ``player`` beats ``opponent`` (the paper's E, on the player's side)."""
    return _e((player.rating - DEFAULT_RATING) / SCALE, (opponent.rating - DEFAULT_RATING) / SCALE, opponent.rd / SCALE)


def inflate(player: Glicko, periods: float, max_rd: float = DEFAULT_RD) -> Glicko:
    """The player after ``periods`` rating periods without games: φ' = sqrt(φ² + periods·σ²), capped."""
    if periods <= 0:
        return player
    phi = player.rd / SCALE
    phi_new = math.sqrt(phi * phi + periods * player.volatility * player.volatility)
    return Glicko(player.rating, min(phi_new * SCALE, max_rd), player.volatility)


def rate(player: Glicko, results: Iterable[tuple[Glicko, float]], tau: float = DEFAULT_TAU,
         max_rd: float = DEFAULT_RD) -> Glicko:
    """The player after one rating period with ``results`` = [(opponent before the period, score)],
    score 1 for a win, 0.5 for a draw, 0 for a loss (steps 2-8 of Glickman's paper)."""
    results = list(results)
    if not results:
        return inflate(player, 1, max_rd)
    mu = (player.rating - DEFAULT_RATING) / SCALE
    phi = player.rd / SCALE
    sigma = player.volatility
    v_inv = 0.0
    delta_sum = 0.0
    for opp, score in results:
        mu_j = (opp.rating - DEFAULT_RATING) / SCALE
        phi_j = opp.rd / SCALE
        g = _g(phi_j)
        e = _e(mu, mu_j, phi_j)
        v_inv += g * g * e * (1.0 - e)
        delta_sum += g * (score - e)
    v = 1.0 / v_inv
    delta = v * delta_sum

    # Step 5: the new volatility by the Illinois algorithm.
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        num = ex * (delta * delta - phi * phi - v - ex)
        den = 2.0 * (phi * phi + v + ex) ** 2
        return num / den - (x - a) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a = f_a / 2.0
        big_b, f_b = big_c, f_c
    sigma_new = math.exp(big_a / 2.0)

    # Steps 6-8.
    phi_star = math.sqrt(phi * phi + sigma_new * sigma_new)
    phi_new = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    mu_new = mu + phi_new * phi_new * delta_sum
    return Glicko(mu_new * SCALE + DEFAULT_RATING, min(phi_new * SCALE, max_rd), sigma_new)
