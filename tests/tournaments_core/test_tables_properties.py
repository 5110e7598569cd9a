"""Property tests (hypothesis) of the seating of table tournaments (docs/tournaments.md, "Tables") for random
histories: every active player seated or given a bye exactly once per round, nobody out seated, as many seated as
the allowed sizes permit and the sizes as even as they permit, byes to the lowest-ranked among those with the fewest,
tables filled by rank, seat 0 to whoever at the table had it least; and over whole runs with withdrawals: at most one
bye each while someone has none."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from games.tournaments.core import standings, tables
from games.tournaments.core.tables import TableGame, TableRound

SIZES = st.sampled_from([(3, 4), (3,), (4,)])


@st.composite
def table_histories(draw: st.DrawFn) -> tuple[list[tuple[int, float]], list[TableGame], list[int], set[int]]:
    """Any scores (placement points in halves), any earlier tables of 3-4 (seat order matters), byes, withdrawals."""
    n = draw(st.integers(0, 30))
    ids = draw(st.permutations(list(range(200, 200 + n))))
    players = [(p, draw(st.integers(0, 36)) / 2) for p in ids]
    past: list[TableGame] = []
    if n >= 3:
        for rnd in range(draw(st.integers(0, 6))):
            for _ in range(draw(st.integers(0, max(1, n // 3)))):
                seats = draw(st.lists(st.sampled_from(ids), min_size=3, max_size=min(4, n), unique=True))
                past.append(TableGame(rnd + 1, tuple(seats)))
    byes = draw(st.lists(st.sampled_from(ids), max_size=n)) if n else []
    withdrawn = set(draw(st.lists(st.sampled_from(ids), max_size=n // 3, unique=True))) if n else set()
    return players, past, byes, withdrawn


def _check(r: TableRound, players: list[tuple[int, float]], past: list[TableGame], byes: list[int],
           withdrawn: set[int], sizes: tuple[int, ...]) -> None:
    seed = {p: i for i, (p, _s) in enumerate(players)}
    score = dict(players)
    ranked = sorted((p for p, _s in players if p not in withdrawn), key=lambda p: (-score[p], seed[p]))
    rank = {p: i for i, p in enumerate(ranked)}
    seated = [p for t in r.tables for p in t]
    assert sorted(seated + list(r.byes)) == sorted(ranked), "every active player seated or byed, exactly once"
    assert not withdrawn & (set(seated) | set(r.byes)), "nobody out seated"
    assert all(len(t) in sizes for t in r.tables)
    # The most players seated the sizes allow, then the sizes as even as they allow (brute force over tables).
    most = max((sum(c) for c in _combos(len(ranked), sizes)), default=0)
    assert len(seated) == most
    if r.tables:
        spread = min(max(c) - min(c) for c in _combos(len(ranked), sizes) if sum(c) == most and c)
        assert max(map(len, r.tables)) - min(map(len, r.tables)) == spread
    # Byes: those with the fewest byes first, the lowest-ranked among them.
    count = Counter(byes)
    pool = list(ranked)
    for b in r.byes:
        fewest = min(count[p] for p in pool)
        assert b == max((p for p in pool if count[p] == fewest), key=rank.__getitem__)
        pool.remove(b)
    # Tables filled by rank: table 1 the best seated, and so on.
    assert sorted(seated, key=rank.__getitem__) == [p for t in sorted(r.tables, key=lambda t: min(map(rank.get, t)))
                                                    for p in sorted(t, key=rank.__getitem__)]
    assert [min(rank[p] for p in t) for t in r.tables] == sorted(min(rank[p] for p in t) for t in r.tables)
    # Seat 0 to whoever at the table had it least (then the higher-ranked), the others in that order.
    first = Counter(t.seats[0] for t in past)
    for t in r.tables:
        assert list(t) == sorted(t, key=lambda p: (first[p], rank[p]))


def _combos(n: int, sizes: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Every multiset of table sizes seating at most ``n`` players."""
    out: list[tuple[int, ...]] = [()]
    frontier: list[tuple[int, ...]] = [()]
    while frontier:
        nxt = []
        for c in frontier:
            for s in sizes:
                if (not c or s >= c[-1]) and sum(c) + s <= n:
                    nxt.append((*c, s))
        out.extend(nxt)
        frontier = nxt
    return out


@settings(max_examples=300, deadline=None)
@given(table_histories(), SIZES, st.randoms(use_true_random=False))
def test_seating_keeps_the_rules(h, sizes: tuple[int, ...], rng: random.Random) -> None:
    players, past, byes, withdrawn = h
    r = tables.seat_round(players, past, byes, withdrawn, sizes)
    _check(r, players, past, byes, withdrawn, sizes)
    # Deterministic, and the order of the history does not matter.
    shuffled_past, shuffled_byes = list(past), list(byes)
    rng.shuffle(shuffled_past)
    rng.shuffle(shuffled_byes)
    assert tables.seat_round(players, shuffled_past, shuffled_byes, withdrawn, sizes) == r


@settings(max_examples=60, deadline=None)
@given(st.integers(3, 40), st.integers(1, 8), SIZES, st.randoms(use_true_random=False))
def test_table_runs_with_withdrawals(n: int, rounds: int, sizes: tuple[int, ...], rng: random.Random) -> None:
    """Whole runs seated from their own standings, random places (ties too), losses on time and withdrawals: every
    round keeps the rules; nobody gets a second bye while an active player has none; placement points per round
    add up to what the tables hand out."""
    players = list(range(n))
    past: list[TableGame] = []
    byes: list[int] = []
    withdrawn: set[int] = set()
    for rnd in range(1, rounds + 1):
        now = standings.tables(players, past, byes, withdrawn)
        out = {s.player for s in now if s.out}
        score = {s.player: s.score for s in now}
        entries = [(p, score[p]) for p in players]
        r = tables.seat_round(entries, past, byes, out, sizes)
        _check(r, entries, past, byes, out, sizes)
        active = [p for p in players if p not in out]
        if r.byes and any(p not in byes for p in active):
            fresh = sum(p not in byes for p in active)
            assert sum(b not in byes for b in r.byes) == min(len(r.byes), fresh), "a second bye only when needed"
        byes.extend(r.byes)
        for t in r.tables:
            places = tuple(rng.randint(1, len(t)) for _ in t)
            late = rng.choice(t) if rng.random() < 0.1 else None
            past.append(TableGame(rnd, t, places, late))
        for p in active:
            if rng.random() < 0.05:
                withdrawn.add(p)
    final = standings.tables(players, past, byes, withdrawn)
    handed = sum(sum(tables.placement_points(t.places)) for t in past if t.places) + 3 * len(byes)
    assert sum(s.score for s in final) == handed
