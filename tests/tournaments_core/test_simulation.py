"""Simulations in virtual time (issue 36, "Must show"): a 64-player Swiss over 7 rounds with random results,
timeouts, withdrawals and adjudications; an 8-player round robin; a 100-player league over two seasons; a table
tournament for 3-4 seat kinds. Standings are recomputed independently here and compared, and they must not depend
on the order in which results arrive."""

from __future__ import annotations

import random
from collections import Counter, defaultdict
from dataclasses import dataclass
from itertools import pairwise

import pytest

from games.tournaments.core import league, roundrobin, standings, tables
from games.tournaments.core.adjudication import adjudicate
from games.tournaments.core.standings import Game
from games.tournaments.core.swiss import SEAT_LIMIT, Entry, pair_round
from games.tournaments.core.tables import TableGame

HOUR = 3600.0
DAY = 24 * HOUR
MAX_GAME = 14 * DAY  # the tournament's maximum game duration


@dataclass
class Finished:
    """A game of the simulation and the virtual time its result arrived."""

    game: Game
    at: float


def _recompute_swiss(players: list[int], games: list[Game], byes: list[int], out: set[int]) -> list[tuple]:
    """The Swiss standings, written out again from the documented rules: (player, score, Buchholz, SB, wins)."""
    score: dict[int, float] = defaultdict(float)
    wins: dict[int, int] = defaultdict(int)
    counted: list[tuple[int, int, float]] = []
    for g in games:
        if g.result is not None:
            a = {"first": 1.0, "second": 0.0, "draw": 0.5}[g.result]
            b = 1.0 - a
        elif g.first in out or g.second in out:
            a, b = (0.0 if g.first in out else 1.0), (0.0 if g.second in out else 1.0)
        else:
            continue
        counted += [(g.first, g.second, a), (g.second, g.first, b)]
    for me, _opp, pts in counted:
        score[me] += pts
        wins[me] += pts == 1.0
    for p in byes:
        score[p] += 1.0
    buchholz = {p: sum(score[o] for m, o, _x in counted if m == p) for p in players}
    sb = {p: sum(x * score[o] for m, o, x in counted if m == p) for p in players}
    order = sorted(players, key=lambda p: (-score[p], -buchholz[p], -sb[p], -wins[p], players.index(p)))
    return [(p, score[p], buchholz[p], sb[p], wins[p]) for p in order]


def _play(rng: random.Random, start: float, a: int, b: int, rnd: int) -> Finished:
    """One correspondence game in virtual time: a result, a loss on time, or an adjudication at the maximum."""
    duration = rng.expovariate(1 / (6 * DAY))
    used_a, used_b = rng.uniform(0.2, 0.8) * duration, rng.uniform(0.2, 0.8) * duration
    if duration > MAX_GAME:  # adjudicated by the clocks
        places = adjudicate([used_a * MAX_GAME / duration, used_b * MAX_GAME / duration])
        result = "draw" if places == (1, 1) else ("first" if places == (1, 2) else "second")
        return Finished(Game(rnd, a, b, result), start + MAX_GAME)
    x = rng.random()
    if x < 0.08:  # the player to move runs out of time
        loser = rng.choice((a, b))
        return Finished(Game(rnd, a, b, "second" if loser == a else "first", timed_out=loser), start + duration)
    result = "first" if x < 0.5 else "second" if x < 0.9 else "draw"
    return Finished(Game(rnd, a, b, result), start + duration)


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_swiss_64_players_7_rounds(seed: int) -> None:
    rng = random.Random(seed)
    players = list(range(1000, 1064))
    rng.shuffle(players)  # seed order
    withdraw_at = {p: rng.uniform(0, 60 * DAY) for p in rng.sample(players, 5)}
    now = 0.0
    finished: list[Finished] = []
    byes: list[int] = []
    withdrawn: set[int] = set()
    pairings: list[tuple[int, int]] = []
    for rnd in range(1, 8):
        games = [f.game for f in finished]
        out = set(standings.out_players(games, withdrawn))
        table = {s.player: s.score for s in standings.swiss(players, games, byes, withdrawn)}
        r = pair_round([Entry(p, table[p]) for p in players], pairings, byes, out)
        paired = [p for ab in r.pairs for p in ab]
        assert sorted(paired + ([r.bye] if r.bye is not None else [])) == sorted(p for p in players if p not in out)
        assert r.repeats == 0 and not r.seat_limit_dropped
        if r.bye is not None:
            byes.append(r.bye)
        ends = [now]
        for a, b in r.pairs:
            pairings.append((a, b))
            f = _play(rng, now, a, b, rnd)
            if rnd == 3 and not any(g.game.result is None for g in finished) and a not in withdraw_at:
                withdraw_at[a] = (now + f.at) / 2  # one withdrawal surely in the middle of a game
            # A player who withdraws while the game runs forfeits it: no result, the service records the withdrawal.
            quits = [p for p in (a, b) if p not in withdrawn and now <= withdraw_at.get(p, float("inf")) < f.at]
            if quits:
                when = min(withdraw_at[p] for p in quits)
                withdrawn.update(quits)
                f = Finished(Game(rnd, a, b), when)
            finished.append(f)
            ends.append(f.at)
        for p, t in withdraw_at.items():  # withdrawals between games
            if t <= max(ends):
                withdrawn.add(p)
        now = max(ends)  # the next round is paired when the last game of this one ends

    games = [f.game for f in finished]
    assert len({frozenset(ab) for ab in pairings}) == len(pairings), "no repeat pairing"
    assert max(Counter(byes).values(), default=0) <= 1, "at most one bye each"
    first = Counter(a for a, _b in pairings)
    played = Counter(p for ab in pairings for p in ab)
    assert all(abs(2 * first[p] - played[p]) <= SEAT_LIMIT for p in players)
    assert any(g.timed_out for g in games) and withdrawn
    assert any(g.result is None for g in games), "a withdrawal forfeited a running game"

    out = set(standings.out_players(games, withdrawn))
    final = standings.swiss(players, games, byes, withdrawn)
    assert [(s.player, s.score, *s.tiebreaks) for s in final] == [
        (p, sc, bh, sb, float(w)) for p, sc, bh, sb, w in _recompute_swiss(players, games, byes, out)
    ]
    assert [s.rank for s in final] == list(range(1, 65))
    # Every game counts once: the points handed out are the counted games (minus double forfeits) plus the byes.
    assert sum(s.score for s in final) == pytest.approx(
        sum(sum(standings.points(g, out) or ()) for g in games) + len(byes)
    )
    # Whatever the order in which results arrive, the same standings.
    by_arrival = [f.game for f in sorted(finished, key=lambda f: f.at)]
    for order in (by_arrival, by_arrival[::-1], rng.sample(games, len(games))):
        assert standings.swiss(players, order, byes[::-1], withdrawn) == final


def test_round_robin_8_players() -> None:
    rng = random.Random(8)
    players = [11, 12, 13, 14, 15, 16, 17, 18]
    schedule = roundrobin.all_games(players)
    assert len(schedule) == 28 and len({frozenset(g) for g in schedule}) == 28
    first = Counter(a for a, _b in schedule)
    assert sorted(first[p] for p in players) == [3, 3, 3, 3, 4, 4, 4, 4]
    # All games start at once; 15 withdraws on day 10; 17 loses on time twice.
    games: list[Game] = []
    timeouts_17 = 0
    for rnd, (a, b) in enumerate(schedule):
        end = rng.uniform(1, 30) * DAY
        if 15 in (a, b) and end > 10 * DAY:
            games.append(Game(rnd, a, b))  # unfinished at the withdrawal
            continue
        if 17 in (a, b) and timeouts_17 < 2 and 15 not in (a, b):
            timeouts_17 += 1
            games.append(Game(rnd, a, b, "second" if a == 17 else "first", timed_out=17))
            continue
        if 17 in (a, b) and timeouts_17 >= 2 and rng.random() < 0.5:
            games.append(Game(rnd, a, b))  # still running when 17 was out
            continue
        games.append(Game(rnd, a, b, rng.choice(["first", "second", "draw"])))
    final = standings.round_robin(players, games, withdrawn={15})
    out = standings.out_players(games, {15})
    assert out == {15, 17}
    for s in final:
        if s.player not in out:
            assert s.games == 7, "every game of an active player counts: played or won by forfeit"
    by = {s.player: s for s in final}
    # Forfeits: losses for those out, wins for their opponents.
    for g in games:
        if g.result is None:
            for me, opp in ((g.first, g.second), (g.second, g.first)):
                if opp in out and me not in out:
                    assert standings.crosstable(games, {15})[(me, opp)] == [1.0]
    assert sum(s.score for s in final) == pytest.approx(
        28 - sum(1 for g in games if g.result is None and g.first in out and g.second in out)
    )
    # Ranking by score, then head-to-head among equal scores, then Sonneborn-Berger.
    for x, y in pairwise(final):
        assert (x.score, *x.tiebreaks) >= (y.score, *y.tiebreaks)
    for order in (games[::-1], rng.sample(games, len(games))):
        assert standings.round_robin(players, order, withdrawn={15}) == final
    assert by[15].out and by[17].out


def _play_division(rng: random.Random, members: list[int], strength: dict[int, float]) -> list[int]:
    """A round robin of one division with results biased by strength; the finishing order."""
    games = []
    for rnd, (a, b) in enumerate(roundrobin.all_games(members)):
        x = rng.random() * (strength[a] + strength[b] + 0.3)
        result = "first" if x < strength[a] else "second" if x < strength[a] + strength[b] else "draw"
        games.append(Game(rnd, a, b, result))
    return [s.player for s in standings.round_robin(members, games)]


def test_league_100_players_two_seasons() -> None:
    rng = random.Random(100)
    players = list(range(1, 101))
    strength = {p: rng.uniform(0.1, 1.0) for p in players}
    size, k = 10, 2
    season1 = league.divide(sorted(players, key=lambda p: -strength[p]), size)
    assert [len(d) for d in season1] == [10] * 10
    results1 = [_play_division(rng, d, strength) for d in season1]
    season2 = league.next_season(results1, size, k)
    where2 = {p: i for i, d in enumerate(season2) for p in d}
    assert [len(d) for d in season2] == [10] * 10 and len(where2) == 100
    for d, order in enumerate(results1):
        for pos, p in enumerate(order):
            if pos < k and d > 0:
                assert where2[p] == d - 1, "promoted"
            elif pos >= size - k and d < len(results1) - 1:
                assert where2[p] == d + 1, "relegated"
            else:
                assert where2[p] == d, "stays"

    # Season 2 ends; four leave (one from the top division, three from the middle), six new players join.
    results2 = [_play_division(rng, d, strength) for d in season2]
    leaving = {results2[0][5], results2[4][0], results2[4][9], results2[6][3]}
    newcomers = list(range(201, 207))
    season3 = league.next_season(results2, size, k, leaving=leaving, newcomers=newcomers, min_size=5)
    where3 = {p: i for i, d in enumerate(season3) for p in d}
    assert sum(map(len, season3)) == 102 and [len(d) for d in season3[:-1]] == [10] * 9 and len(season3[-1]) == 12
    assert not leaving & set(where3) and all(where3[p] == 9 for p in newcomers)
    for d, order in enumerate(results2):
        for pos, p in enumerate(order):
            if p in leaving:
                continue
            standard = d - 1 if pos < k and d > 0 else d + 1 if pos >= size - k and d < 9 else d
            # A vacancy above pulls the best below up (an extra promotion); nobody falls further than relegation.
            assert standard - 1 <= where3[p] <= standard
            # Only vacancies move anyone beyond the standard: at most one extra promotion per leaver above.
            above = sum(1 for q in leaving if where2[q] <= standard)
            if where3[p] < standard:
                assert above > 0


def test_table_tournament_3_4_seats() -> None:
    rng = random.Random(34)
    players = list(range(500, 514))  # 14: tables of 4, 4, 3, 3
    withdrawn: set[int] = set()
    played: list[TableGame] = []
    byes: list[int] = []
    for rnd in range(1, 7):
        now = standings.tables(players, played, byes, withdrawn)
        out = {s.player for s in now if s.out}
        score = {s.player: s.score for s in now}
        r = tables.seat_round([(p, score[p]) for p in players], played, byes, out)
        active = [p for p in players if p not in out]
        seated = [p for t in r.tables for p in t]
        assert sorted(seated + list(r.byes)) == sorted(active)
        assert all(len(t) in (3, 4) for t in r.tables)
        assert max(map(len, r.tables)) - min(map(len, r.tables)) <= 1
        for hi, lo in pairwise(r.tables):
            assert min(score[p] for p in hi) >= max(score[p] for p in lo), "seated by score"
        byes.extend(r.byes)
        for t in r.tables:
            if rnd == 3 and 503 in t:  # 503 withdraws during round 3: the table is unfinished
                withdrawn.add(503)
                played.append(TableGame(rnd, t))
                continue
            if rng.random() < 0.1:  # outlasted the maximum: adjudicated by the clocks
                places = adjudicate([rng.uniform(0, 5) * DAY for _ in t])
                played.append(TableGame(rnd, t, places))
                continue
            places = tuple(rng.randint(1, len(t)) for _ in t)
            timed = t[0] if rng.random() < 0.15 else None
            played.append(TableGame(rnd, t, places, timed))
    final = standings.tables(players, played, byes, withdrawn)
    out = {s.player for s in final if s.out}
    assert 503 in out
    # Recompute: placement points (6/4/2/0 at four, 6/3/0 at three, ties share), forfeits, byes 3.
    pts: dict[int, float] = defaultdict(float)
    firsts: dict[int, int] = defaultdict(int)
    for t in played:
        n = len(t.seats)
        places = t.places or tuple(2 if p in out else 1 for p in t.seats)
        for seat, p in enumerate(t.seats):
            better = sum(1 for q in places if q < places[seat])
            same = sum(1 for q in places if q == places[seat])
            share = sum(6 * (n - 1 - k) / (n - 1) for k in range(better, better + same)) / same
            pts[p] += share
            firsts[p] += better == 0
    for p in byes:
        pts[p] += 3
    assert {s.player: s.score for s in final} == pytest.approx({p: pts[p] for p in players})
    assert {s.player: s.wins for s in final} == {p: firsts[p] for p in players}
    for x, y in pairwise(final):
        assert (x.score, *x.tiebreaks) >= (y.score, *y.tiebreaks)
    assert standings.tables(players, played[::-1], byes, withdrawn) == final
