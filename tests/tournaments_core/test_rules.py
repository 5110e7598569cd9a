"""The documented rules one by one: round-robin schedule, table sizes and placement points, scores, forfeits,
tie-breaks, league moves and adjudication (docs/tournaments.md)."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.tournaments.core import league, roundrobin, standings, tables
from games.tournaments.core.adjudication import MARGIN, adjudicate
from games.tournaments.core.standings import Game
from games.tournaments.core.tables import TableGame


@given(st.integers(0, 30))
def test_round_robin_every_pair_once_with_balanced_seats(n: int) -> None:
    players = list(range(10, 10 + n))
    rounds = roundrobin.rounds(players)
    games = [g for r in rounds for g in r]
    assert len(games) == n * (n - 1) // 2 == len({frozenset(g) for g in games})
    for r in rounds:  # nobody twice in a round
        seen = [p for g in r for p in g]
        assert len(seen) == len(set(seen))
    first = Counter(a for a, _b in games)
    assert all(abs(2 * first[p] - (n - 1)) <= 1 for p in players)
    assert roundrobin.rounds(players) == rounds


def test_round_robin_rejects_duplicates() -> None:
    with pytest.raises(ValueError):
        roundrobin.rounds([1, 2, 2])


@pytest.mark.parametrize(
    ("n", "sizes"),
    [(3, [3]), (4, [4]), (5, [4]), (6, [3, 3]), (7, [4, 3]), (8, [4, 4]), (9, [3, 3, 3]), (10, [4, 3, 3]),
     (13, [4, 3, 3, 3]), (14, [4, 4, 3, 3]), (2, []), (12, [4, 4, 4]),
     # As even as possible before fewer tables, as with 9: five tables of 3, not 4, 4, 4, 3.
     (15, [3, 3, 3, 3, 3]), (18, [3] * 6), (16, [4] * 4), (17, [4, 4, 3, 3, 3])],
)
def test_table_sizes(n: int, sizes: list[int]) -> None:
    assert tables.table_sizes(n) == sizes


@given(st.integers(0, 200))
def test_table_sizes_seat_everyone_from_six(n: int) -> None:
    plan = tables.table_sizes(n)
    assert all(s in (3, 4) for s in plan)
    assert sum(plan) == n or n in (1, 2, 5)
    assert tables.table_sizes(n, (4,)) == [4] * (n // 4)


def test_placement_points() -> None:
    assert tables.placement_points([1, 2, 3, 4]) == [6, 4, 2, 0]
    assert tables.placement_points([3, 1, 2]) == [0, 6, 3]
    assert tables.placement_points([1, 1, 3, 4]) == [5, 5, 2, 0]
    assert tables.placement_points([1, 2, 2]) == [6, 1.5, 1.5]
    assert tables.placement_points([1, 1, 1]) == [3, 3, 3]


def test_table_bye_and_first_seat() -> None:
    r = tables.seat_round([(p, 0.0) for p in range(5)])
    assert r.byes == (4,) and r.tables == ((0, 1, 2, 3),)
    r = tables.seat_round([(p, 0.0) for p in range(5)], past=[TableGame(1, (0, 1, 2, 3))], byes=[4])
    assert r.byes == (3,) and r.tables[0][0] == 1, "seat 1 to who had it least, then the higher-ranked"


def test_scores_and_byes() -> None:
    games = [Game(1, 1, 2, "first"), Game(1, 3, 4, "draw"), Game(2, 2, 3, "second"), Game(2, 4, 1, None)]
    by = {s.player: s for s in standings.swiss([1, 2, 3, 4, 5], games, byes=[5])}
    assert (by[1].score, by[2].score, by[3].score, by[4].score, by[5].score) == (1, 0, 1.5, 0.5, 1)
    assert by[1].games == 1 and by[5].games == 0, "unfinished games do not count yet; a bye is no game"


def test_buchholz_then_sonneborn_berger() -> None:
    # 1 and 2 both on 2 points; 1 beat stronger opponents (higher Buchholz) and ranks first.
    games = [
        Game(1, 1, 3, "first"), Game(1, 2, 4, "first"), Game(1, 5, 6, "first"),
        Game(2, 1, 5, "first"), Game(2, 2, 6, "first"), Game(2, 3, 4, "first"),
    ]
    table = standings.swiss([2, 1, 3, 4, 5, 6], games)
    assert [s.player for s in table[:2]] == [1, 2]
    assert table[0].tiebreaks[:2] == (2.0, 2.0) and table[1].tiebreaks[:2] == (0.0, 0.0)


def test_head_to_head_before_sonneborn_berger() -> None:
    # 1 and 2 tie on 2 of 4; 2 beat 1, though 1 has the better Sonneborn-Berger (4.5 to 3.5): 2 ranks above 1.
    games = [
        Game(1, 2, 1, "first"), Game(1, 1, 3, "first"), Game(2, 1, 4, "first"), Game(2, 5, 1, "first"),
        Game(3, 3, 2, "first"), Game(3, 4, 2, "first"), Game(4, 2, 5, "first"), Game(4, 3, 4, "first"),
        Game(5, 3, 5, "first"), Game(5, 4, 5, "draw"),
    ]
    table = standings.round_robin([1, 2, 3, 4, 5], games)
    by = {s.player: s for s in table}
    assert [(s.player, s.score) for s in table] == [(3, 3), (2, 2), (1, 2), (4, 1.5), (5, 1.5)]
    assert by[2].tiebreaks[:2] == (1.0, 3.5) and by[1].tiebreaks[:2] == (0.0, 4.5)


def test_forfeits_after_two_timeouts() -> None:
    games = [
        Game(1, 1, 2, "second", timed_out=1), Game(2, 1, 3, "second", timed_out=1),
        Game(3, 4, 1), Game(3, 2, 3),
    ]
    assert standings.out_players(games) == {1}
    by = {s.player: s for s in standings.swiss([1, 2, 3, 4], games)}
    assert by[1].out and by[1].score == 0 and by[4].score == 1 and by[4].wins == 1
    assert by[2].games == 1, "the unfinished game between players still in does not count"
    with_withdrawal = {s.player: s for s in standings.swiss([1, 2, 3, 4], games, withdrawn={4})}
    assert with_withdrawal[4].score == 0 and with_withdrawal[1].score == 0, "both out: a loss for both"


def test_table_forfeit() -> None:
    games = [TableGame(1, (1, 2, 3, 4)), TableGame(1, (5, 6, 7))]
    by = {s.player: s for s in standings.tables(list(range(1, 8)), games, withdrawn={2})}
    assert [by[p].score for p in (1, 2, 3, 4)] == [4, 0, 4, 4] and by[5].games == 0


def test_league_moves_and_vacancies() -> None:
    divs = [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]]
    assert league.next_season(divs, 4, 1) == [[1, 2, 3, 5], [4, 6, 7, 9], [8, 10, 11, 12]]
    # 2 leaves: the vacancy is filled from the top of the division below — first who was relegated from it (a
    # reprieve for 4), and so on down; the new player joins the lowest division.
    assert league.next_season(divs, 4, 1, leaving={2}, newcomers=[20]) == [
        [1, 3, 5, 4], [6, 7, 9, 8], [10, 11, 12, 20]
    ]
    assert league.divide(list(range(11)), 4, min_size=4) == [[0, 1, 2, 3], [4, 5, 6, 7, 8, 9, 10]]
    with pytest.raises(ValueError):
        league.next_season(divs, 4, 3)


def test_adjudication_by_the_clock() -> None:
    day = MARGIN
    assert adjudicate([3 * day, 1 * day]) == (2, 1), "the seat that used clearly more time loses"
    assert adjudicate([1 * day, 3 * day]) == (1, 2)
    assert adjudicate([3 * day, 2.5 * day]) == (1, 1), "not 1.5 times: a draw"
    assert adjudicate([3000.0, 1000.0]) == (1, 1), "under a day apart: a draw"
    assert adjudicate([1 * day, 4 * day, 2 * day]) == (1, 2, 1)
    with pytest.raises(ValueError):
        adjudicate([1.0])
