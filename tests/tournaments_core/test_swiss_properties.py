"""Property tests (hypothesis) of the Swiss pairing against a brute-force oracle on small fields: every active
player paired once, at most one bye each, no repeat while one is avoidable, the first-seat limit kept while it can
be, the bye to the lowest-ranked player that allows the best pairing, determinism."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable

from hypothesis import given, settings
from hypothesis import strategies as st

from games.tournaments.core import standings
from games.tournaments.core.swiss import SEAT_LIMIT, Entry, SwissRound, pair_round


@st.composite
def histories(draw: st.DrawFn, max_players: int = 11) -> tuple[list[Entry], list[tuple[int, int]], list[int], set[int]]:
    """Arbitrary (not necessarily Swiss-like) histories: any scores, any earlier games, byes and withdrawals."""
    n = draw(st.integers(1, max_players))
    ids = draw(st.permutations(list(range(100, 100 + n))))
    players = [Entry(i, draw(st.integers(0, 12)) / 2) for i in ids]
    pair = st.tuples(st.sampled_from(ids), st.sampled_from(ids)).filter(lambda ab: ab[0] != ab[1])
    played = draw(st.lists(pair, max_size=3 * n))
    byes = draw(st.lists(st.sampled_from(ids), max_size=n, unique=True))
    withdrawn = set(draw(st.lists(st.sampled_from(ids), max_size=max(0, n // 3), unique=True)))
    return players, played, byes, withdrawn


def _oracle_tests(played: list[tuple[int, int]]) -> tuple[Callable[[int, int], bool], Callable[[int, int], bool]]:
    met = Counter(frozenset(ab) for ab in played)
    first = Counter(a for a, _b in played)
    games = Counter(p for ab in played for p in ab)

    def surplus(p: int) -> int:
        return first[p] - (games[p] - first[p])

    def new(a: int, b: int) -> bool:
        return met[frozenset((a, b))] == 0

    def strict(a: int, b: int) -> bool:
        sa, sb = surplus(a), surplus(b)
        same = (sa >= SEAT_LIMIT and sb >= SEAT_LIMIT) or (sa <= -SEAT_LIMIT and sb <= -SEAT_LIMIT)
        return new(a, b) and not same

    return strict, new


def _max_pairs(players: list[int], ok: Callable[[int, int], bool]) -> int:
    """Brute force: the most disjoint pairs ``ok`` allows among ``players``."""
    if len(players) < 2:
        return 0
    p, rest = players[0], players[1:]
    best = _max_pairs(rest, ok)  # p unpaired
    for q in rest:
        if ok(p, q):
            best = max(best, 1 + _max_pairs([r for r in rest if r != q], ok))
            if best == len(players) // 2:
                break
    return best


def _ranked(players: list[Entry], withdrawn: set[int]) -> list[int]:
    seed = {p.id: i for i, p in enumerate(players)}
    score = {p.id: p.score for p in players}
    return sorted((p.id for p in players if p.id not in withdrawn), key=lambda i: (-score[i], seed[i]))


def _check_shape(r: SwissRound, players: list[Entry], byes: list[int], withdrawn: set[int]) -> None:
    active = _ranked(players, withdrawn)
    seen = [p for ab in r.pairs for p in ab] + ([r.bye] if r.bye is not None else [])
    assert sorted(seen) == sorted(active), "every active player exactly once"
    assert (r.bye is not None) == (len(active) % 2 == 1)
    if r.bye is not None and any(p not in byes for p in active):
        assert r.bye not in byes, "a second bye while someone has none"


@settings(max_examples=300, deadline=None)
@given(histories())
def test_pairing_is_optimal_for_the_oracle(h: tuple[list[Entry], list[tuple[int, int]], list[int], set[int]]) -> None:
    players, played, byes, withdrawn = h
    _assert_optimal(players, played, byes, withdrawn, pair_round(players, played, byes, withdrawn))


def _assert_optimal(
    players: list[Entry], played: list[tuple[int, int]], byes: list[int], withdrawn: set[int], r: SwissRound
) -> None:
    """``r`` against the brute-force oracle (small fields only)."""
    _check_shape(r, players, byes, withdrawn)
    strict, new = _oracle_tests(played)
    active = _ranked(players, withdrawn)
    bye_count = Counter(byes)
    candidates: list[int | None] = [None]
    if len(active) % 2:
        fewest = min(bye_count[p] for p in active)
        candidates = [p for p in reversed(active) if bye_count[p] == fewest]
    for level, ok in (("strict", strict), ("new", new)):
        for c in candidates:
            rest = [p for p in active if p != c]
            if _max_pairs(rest, ok) == len(rest) // 2:
                assert r.bye == c, f"the bye goes to the lowest-ranked player allowing a {level} pairing"
                assert r.repeats == 0
                assert all(new(a, b) for a, b in r.pairs), "no repeat while avoidable"
                assert r.seat_limit_dropped == (level == "new")
                if level == "strict":
                    assert all(strict(a, b) for a, b in r.pairs)
                return
    # No pairing without repeats exists: as few repeats as possible.
    rest = [p for p in active if p != r.bye]
    assert r.repeats == len(rest) // 2 - _max_pairs(rest, new)
    assert sum(not new(a, b) for a, b in r.pairs) == r.repeats


@settings(max_examples=150, deadline=None)
@given(histories(max_players=16), st.randoms(use_true_random=False))
def test_deterministic_and_independent_of_history_order(
    h: tuple[list[Entry], list[tuple[int, int]], list[int], set[int]], rng: random.Random
) -> None:
    players, played, byes, withdrawn = h
    r = pair_round(players, played, byes, withdrawn)
    assert pair_round(players, played, byes, withdrawn) == r
    shuffled_played, shuffled_byes = list(played), list(byes)
    rng.shuffle(shuffled_played)
    rng.shuffle(shuffled_byes)
    assert pair_round(players, shuffled_played, shuffled_byes, withdrawn) == r


def _simulate(n: int, rounds: int, rng: random.Random) -> tuple[list[tuple[int, int]], list[int], list[SwissRound]]:
    """A Swiss run with the pairing's own history and random results; small fields are checked against the oracle
    every round (a round-by-round Swiss can leave no repeat-free pairing in a late round of a small field)."""
    score = dict.fromkeys(range(n), 0.0)
    played: list[tuple[int, int]] = []
    byes: list[int] = []
    out: list[SwissRound] = []
    for _ in range(rounds):
        entries = [Entry(p, score[p]) for p in range(n)]
        r = pair_round(entries, played, byes)
        if n <= 11:
            _assert_optimal(entries, played, byes, set(), r)
        out.append(r)
        for a, b in r.pairs:
            played.append((a, b))
            x = rng.random()
            if x < 0.45:
                score[a] += 1
            elif x < 0.9:
                score[b] += 1
            else:
                score[a] += 0.5
                score[b] += 0.5
        if r.bye is not None:
            byes.append(r.bye)
            score[r.bye] += 1
    return played, byes, out


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 40), st.integers(1, 9), st.randoms(use_true_random=False))
def test_swiss_runs_keep_the_rules(n: int, rounds: int, rng: random.Random) -> None:
    """Runs with fewer rounds than players: optimal every round (small fields), no repeat in fields of 12 or more,
    one bye at most, first seats within the limit."""
    rounds = min(rounds, n - 1 if n % 2 == 0 else n)
    played, byes, results = _simulate(n, rounds, rng)
    assert len({frozenset(ab) for ab in played}) == len(played) - sum(r.repeats for r in results)
    if n >= 12:
        assert not any(r.repeats for r in results), "no repeat pairing"
    assert max(Counter(byes).values(), default=0) <= 1
    first = Counter(a for a, _b in played)
    games = Counter(p for ab in played for p in ab)
    if not any(r.seat_limit_dropped for r in results):
        assert all(abs(2 * first[p] - games[p]) <= SEAT_LIMIT for p in range(n))


def test_first_round_is_top_half_against_bottom_half() -> None:
    r = pair_round([Entry(i, 0.0) for i in range(8)])
    assert [tuple(sorted(ab)) for ab in r.pairs] == [(0, 4), (1, 5), (2, 6), (3, 7)]
    assert r.bye is None and r.repeats == 0


def test_odd_field_bye_to_lowest_without_one() -> None:
    players = [Entry(i, 0.0) for i in range(5)]
    assert pair_round(players).bye == 4
    assert pair_round(players, byes=[4]).bye == 3
    # The bye follows the score, not the seed: the seed-last player leads on points.
    players = [Entry(0, 0.0), Entry(1, 1.0), Entry(2, 0.0), Entry(3, 1.0), Entry(4, 2.0)]
    assert pair_round(players).bye == 2


def test_withdrawn_players_are_not_paired() -> None:
    r = pair_round([Entry(i, 0.0) for i in range(6)], withdrawn={2, 5})
    assert sorted(p for ab in r.pairs for p in ab) == [0, 1, 3, 4] and r.bye is None


def test_impossible_without_repeat_pairs_the_least_met() -> None:
    # Four players who have all met once, and 0-1 twice: the only fallback pairs avoid 0-1.
    played = [(0, 1), (2, 3), (0, 2), (1, 3), (0, 3), (1, 2), (1, 0)]
    r = pair_round([Entry(i, 0.0) for i in range(4)], played)
    assert r.repeats == 2 and r.seat_limit_dropped
    assert {frozenset(ab) for ab in r.pairs} & {frozenset((0, 1))} == set()


def test_seats_go_to_who_had_the_first_seat_less() -> None:
    r = pair_round([Entry(0, 1.0), Entry(1, 1.0)], played=[(0, 2), (3, 1)])
    assert r.pairs == ((1, 0),)
    r = pair_round([Entry(0, 1.0), Entry(1, 1.0)], played=[(2, 0), (3, 1)])
    assert r.pairs == ((0, 1),)  # equal: the higher-ranked player


@settings(max_examples=80, deadline=None)
@given(st.integers(2, 64), st.integers(1, 9), st.randoms(use_true_random=False))
def test_swiss_runs_with_withdrawals_keep_the_rules(n: int, rounds: int, rng: random.Random) -> None:
    """Runs seated from their own standings with random results, losses on time (two put a player out) and
    withdrawals between rounds, so the field changes parity: every round everyone active is paired once or has the
    bye, nobody out is paired, a second bye only when every active player has had one, no repeat whenever the field
    guarantees a pairing without one (Dirac: before round r each of the m players to pair has met at most r - 1
    of the others, so with m >= 2r the graph of who has not met has degrees >= m/2, a Hamiltonian cycle, and a
    perfect matching), the seat limit kept unless
    the round says it gave way; small fields against the brute-force oracle."""
    players = list(range(n))
    played: list[tuple[int, int]] = []
    games: list[standings.Game] = []
    byes: list[int] = []
    withdrawn: set[int] = set()
    dropped = False
    for rnd in range(1, rounds + 1):
        out = set(standings.out_players(games, withdrawn))
        score = {s.player: s.score for s in standings.swiss(players, games, byes, withdrawn)}
        entries = [Entry(p, score[p]) for p in players]
        active = [p for p in players if p not in out]
        r = pair_round(entries, played, byes, out)
        if len(active) <= 11:
            _assert_optimal(entries, played, byes, out, r)
        else:
            _check_shape(r, entries, byes, out)
        seated = len(active) - (r.bye is not None)
        if seated >= 2 * rnd:
            assert r.repeats == 0, "no repeat while the field guarantees a pairing without one"
        dropped |= r.seat_limit_dropped
        for a, b in r.pairs:
            played.append((a, b))
            x = rng.random()
            late = None
            if x < 0.05:
                late = rng.choice((a, b))
            result = "second" if late == a else "first" if late == b else "first" if x < 0.5 else "second" \
                if x < 0.9 else "draw"
            games.append(standings.Game(rnd, a, b, result, late))  # type: ignore[arg-type]
        if r.bye is not None:
            byes.append(r.bye)
        for p in active:
            if rng.random() < 0.04:
                withdrawn.add(p)
    if rounds <= n - 1 - len(set(standings.out_players(games, withdrawn))):
        assert max(Counter(byes).values(), default=0) <= 1, "at most one bye each"
    first = Counter(a for a, _b in played)
    count = Counter(p for ab in played for p in ab)
    if not dropped:
        assert all(abs(2 * first[p] - count[p]) <= SEAT_LIMIT for p in count), "seat-0 surplus within ±2"
