"""Table tournaments for 3-4 seat kinds (docs/tournaments.md, "Tables").

Each round seats the active players by score — the best four (or three) at table 1, the next at table 2, and so on
— at tables of the allowed sizes, as many players seated as possible and the sizes as even as the allowed ones
permit (with sizes 3 and 4: every count from 6 up seats everyone; 3, 4 seat everyone; 5 seats four and gives one
bye). The bye goes to the lowest-ranked active player without one (if all have had one: the fewest). Within a
table, seat 1 goes to whoever has had seat 1 least often, then the higher-ranked; the others follow in that order.

Placement points: place k (1 = best) at a table of n scores ``6*(n-k)/(n-1)``: 6/4/2/0 at four, 6/3/0 at three;
players sharing a place share the mean of the points of the places they cover. A bye scores 3 (the mean of a
table's points).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass

#: Placement points of a first place (the scale: 6 is divisible by 2 and 3, so 3- and 4-seat tables score evenly).
TOP = 6.0
#: Placement points of a bye.
BYE_POINTS = 3.0


@dataclass(frozen=True)
class TableGame:
    """A played (or running) table: round, the players by seat, their places (1 = best, ties allowed; None while
    unfinished), and who lost on time (None if nobody)."""

    round: int
    seats: tuple[int, ...]
    places: tuple[int, ...] | None = None
    timed_out: int | None = None


@dataclass(frozen=True)
class TableRound:
    """One round: the tables (players by seat) and the players with a bye."""

    tables: tuple[tuple[int, ...], ...]
    byes: tuple[int, ...]


def table_sizes(n: int, sizes: Collection[int] = (3, 4)) -> list[int]:
    """Table sizes for ``n`` players: most players seated, then sizes as even as possible, then fewer tables; larger
    tables first. Raises ValueError for no or non-positive sizes."""
    allowed = sorted(set(sizes))
    if not allowed or allowed[0] < 2:
        raise ValueError("table sizes must be at least 2")
    best: tuple[tuple[int, int, int, tuple[int, ...]], tuple[int, ...]] | None = None
    # Every multiset of allowed sizes with total <= n, judged as a whole (a best plan for n - s plus s is not
    # always a best plan for n: 12 is best as 4+4+4, but 15 as five 3s).
    for combo in _multisets(allowed, n):
        key = (-sum(combo), (max(combo) - min(combo)) if combo else 0, len(combo), combo)
        if best is None or key < best[0]:
            best = (key, combo)
    assert best is not None
    return sorted(best[1], reverse=True)


def _multisets(allowed: Sequence[int], n: int) -> Iterator[tuple[int, ...]]:
    """Every multiset (ascending) of the ``allowed`` sizes (ascending, at least 2) whose total is at most ``n``:
    O(n^len(allowed)) of them: about 700 for 3-4 seats and 128 players."""
    if not allowed:
        yield ()
        return
    size, rest = allowed[0], allowed[1:]
    for k in range(n // size + 1):
        for tail in _multisets(rest, n - k * size):
            yield (size,) * k + tail


def seat_round(
    players: Sequence[tuple[int, float]],
    past: Sequence[TableGame] = (),
    byes: Sequence[int] = (),
    withdrawn: Collection[int] = (),
    sizes: Collection[int] = (3, 4),
) -> TableRound:
    """Seat one round. ``players``: ``(id, placement points so far)`` in seed order; ``past``: the tables so far."""
    out = set(withdrawn)
    seed = {p: i for i, (p, _s) in enumerate(players)}
    score = dict(players)
    ranked = sorted((p for p, _s in players if p not in out), key=lambda p: (-score[p], seed[p]))
    plan = table_sizes(len(ranked), sizes)
    n_byes = len(ranked) - sum(plan)
    bye_count = Counter(byes)
    chosen: list[int] = []
    for _ in range(n_byes):
        pool = [p for p in ranked if p not in chosen]
        fewest = min(bye_count[p] for p in pool)
        chosen.append(next(p for p in reversed(pool) if bye_count[p] == fewest))
    seated = [p for p in ranked if p not in chosen]
    first = Counter(t.seats[0] for t in past if t.seats)
    rank = {p: i for i, p in enumerate(ranked)}
    tables: list[tuple[int, ...]] = []
    i = 0
    for size in plan:
        group = seated[i : i + size]
        i += size
        tables.append(tuple(sorted(group, key=lambda p: (first[p], rank[p]))))
    return TableRound(tuple(tables), tuple(chosen))


def placement_points(places: Sequence[int]) -> list[float]:
    """Points per seat for the places of one table (ties share the mean of the points of the places they cover)."""
    n = len(places)
    if n < 2:
        raise ValueError("a table has at least two seats")
    order = sorted(range(n), key=lambda s: places[s])
    scale = [TOP * (n - 1 - k) / (n - 1) for k in range(n)]
    out = [0.0] * n
    k = 0
    while k < n:
        j = k
        while j < n and places[order[j]] == places[order[k]]:
            j += 1
        share = sum(scale[k:j]) / (j - k)
        for s in order[k:j]:
            out[s] = share
        k = j
    return out
