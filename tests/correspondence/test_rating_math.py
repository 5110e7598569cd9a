"""Rating arithmetic against published reference values (no database)."""

from __future__ import annotations

import pytest

from games.ratings import glicko2, openskill_rating


def test_glicko2_matches_glickmans_worked_example():
    # Glickman, "Example of the Glicko-2 system": 1500/200/0.06 vs 1400/30 (win), 1550/100 (loss),
    # 1700/300 (loss), tau = 0.5  ->  r' = 1464.06, RD' = 151.52, sigma' = 0.05999.
    player = glicko2.Glicko(1500, 200, 0.06)
    results = [(glicko2.Glicko(1400, 30), 1.0), (glicko2.Glicko(1550, 100), 0.0), (glicko2.Glicko(1700, 300), 0.0)]
    new = glicko2.rate(player, results, tau=0.5)
    assert new.rating == pytest.approx(1464.06, abs=0.01)
    assert new.rd == pytest.approx(151.52, abs=0.01)
    assert new.volatility == pytest.approx(0.05999, abs=0.00001)


def test_glicko2_deviation_grows_without_games_and_is_capped():
    p = glicko2.Glicko(1700, 50, 0.06)
    one = glicko2.inflate(p, 1)
    assert one.rd == pytest.approx((50**2 + (0.06 * glicko2.SCALE) ** 2) ** 0.5)
    assert glicko2.rate(p, []).rd == pytest.approx(one.rd)
    assert glicko2.inflate(p, 10_000).rd == 350
    assert glicko2.inflate(p, 0) == p


def test_openskill_matches_the_documented_two_team_example():
    # openskill.py README (PyPI, 3.x): a1 (25, 8.333) + a2 (32.444, 5.123) beat b1 (43.381, 2.421) +
    # b2 (25.188, 6.211). The classic update (no additive dynamics, tau = 0) gives these values.
    teams = [[(25.0, 25 / 3), (32.444, 5.123)], [(43.381, 2.421), (25.188, 6.211)]]
    (x1, x2), (y1, y2) = openskill_rating.rate(teams, [1, 2], tau=0)
    assert x1 == pytest.approx((28.669648436582808, 8.071520788025197))
    assert x2 == pytest.approx((33.83086971107981, 5.062772998705765))
    assert y1 == pytest.approx((43.071274808241974, 2.4166900452721256))
    assert y2 == pytest.approx((23.149503312339064, 6.1378606973362135))


def test_openskill_three_player_free_for_all_orders_by_rank():
    new = openskill_rating.rate([[(25.0, 25 / 3)]] * 3, [2, 1, 3])
    mus = [team[0][0] for team in new]
    assert mus[1] > mus[0] > mus[2]
    assert all(team[0][1] < 25 / 3 for team in new)
