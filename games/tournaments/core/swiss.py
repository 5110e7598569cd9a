"""Swiss pairing of one round (docs/tournaments.md, "Swiss").

Input: the players in seed order (the service's order: rating, then entry) with their scores, the games already
paired (ordered: first seat, second seat; forfeited games included), the byes already given and the withdrawn
players. First-seat counts are read from the ordered games. Output: the boards and the bye.

Rules, in priority order (each a hard constraint as long as some pairing satisfies it):

1. every active (not withdrawn) player is paired exactly once, or gets the bye;
2. nobody gets a second bye (if every active player has had one, the fewest-byes player gets it);
3. no two players meet twice;
4. nobody's first-seat surplus (first seats minus second seats) passes +2 or -2 — two players who both need the
   same seat by two are not paired;
5. the bye goes to the lowest-ranked eligible player (lowest score, then last in seed order);
6. score groups are paired Dutch-style: top half against bottom half, in rank order, preferring opponents that
   want the other seat; an odd group floats its lowest-ranked player down.

How: a score-group pass with bounded backtracking builds the pairs; Edmonds' matching (:mod:`.matching`)
then completes them exactly, so rules 3 and 4 fail only when no pairing could keep them. If rule 4 cannot hold,
it is dropped; if rule 3 cannot, a maximum number of pairs without repeats is kept and the rest are paired with the
opponents met least often (``SwissRound.repeats`` counts them). Seats: the player with the lower first-seat surplus
takes the first seat, then the one with fewer first seats, then the higher-ranked.

Cost: about linear in the players on realistic rounds (bench/pairing.py: 1,000 players well under a second); the
matching step is polynomial (never an exponential search), and the backtracking has a fixed node budget per group.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field

from .matching import grow

#: Backtracking nodes allowed per score group before the pass falls back to greedy (the matching completes it).
BRACKET_BUDGET = 2000
#: Groups larger than this are paired greedily by the pass (no backtracking; the matching repairs).
BACKTRACK_MAX = 200
#: The first-seat surplus nobody should pass (rule 4).
SEAT_LIMIT = 2


@dataclass(frozen=True)
class Entry:
    """A player and their score before the round."""

    id: int
    score: float


@dataclass(frozen=True)
class SwissRound:
    """One round's pairing: boards ``(first seat, second seat)`` in board order, the bye (or None), the number of
    boards that repeat an earlier pairing, and whether the first-seat limit (rule 4) had to be given up."""

    pairs: tuple[tuple[int, int], ...]
    bye: int | None
    repeats: int = 0
    seat_limit_dropped: bool = False
    notes: tuple[str, ...] = field(default=())


@dataclass
class _History:
    meetings: Counter[tuple[int, int]]
    first: Counter[int]
    games: Counter[int]
    byes: Counter[int]

    def met(self, a: int, b: int) -> int:
        return self.meetings[(a, b) if a < b else (b, a)]

    def surplus(self, p: int) -> int:
        return 2 * self.first[p] - self.games[p]


def history(played: Sequence[tuple[int, int]], byes: Collection[int] | Sequence[int]) -> _History:
    """Meetings, first seats, games and byes per player from the games paired so far."""
    meetings: Counter[tuple[int, int]] = Counter()
    first: Counter[int] = Counter()
    games: Counter[int] = Counter()
    for a, b in played:
        meetings[(a, b) if a < b else (b, a)] += 1
        first[a] += 1
        games[a] += 1
        games[b] += 1
    return _History(meetings, first, games, Counter(byes))


def pair_round(
    players: Sequence[Entry],
    played: Sequence[tuple[int, int]] = (),
    byes: Collection[int] | Sequence[int] = (),
    withdrawn: Collection[int] = (),
) -> SwissRound:
    """Pair one Swiss round (rules in the module docstring). Deterministic: the same input gives the same round."""
    ids = [p.id for p in players]
    if len(set(ids)) != len(ids):
        raise ValueError("duplicate player ids")
    hist = history(played, byes)
    seed = {p.id: i for i, p in enumerate(players)}
    score = {p.id: p.score for p in players}
    out = set(withdrawn)
    ranked = sorted((p.id for p in players if p.id not in out), key=lambda i: (-score[i], seed[i]))
    if not ranked:
        return SwissRound((), None)

    pref = {p: (1 if hist.surplus(p) < 0 else -1 if hist.surplus(p) > 0 else 0) for p in ranked}
    candidates: list[int | None] = [None]
    if len(ranked) % 2:
        fewest = min(hist.byes[p] for p in ranked)
        candidates = [p for p in reversed(ranked) if hist.byes[p] == fewest]

    for seat_limit in (True, False):
        ok = _edge_test(hist, seat_limit)
        if len(ranked) % 2 and not _some_bye_works(ranked, score, candidates, ok, pref):
            continue
        for bye in candidates:
            rest = [p for p in ranked if p != bye]
            pairs, left = _pair(rest, score, ok, pref)
            if not left:
                return _finish(pairs, bye, ranked, hist, seat_limit_dropped=not seat_limit)

    # Repeats cannot be avoided: keep a maximum set of new pairs, pair the rest with the least-met opponents.
    bye = candidates[0]
    rest = [p for p in ranked if p != bye]
    pairs, left = _pair(rest, score, _edge_test(hist, False), pref)
    repeats = 0
    rank = {p: i for i, p in enumerate(ranked)}
    left.sort(key=rank.__getitem__)
    while left:
        a = left.pop(0)
        b = min(left, key=lambda q: (hist.met(a, q), rank[q]))
        left.remove(b)
        pairs.append((a, b))
        repeats += 1
    return _finish(pairs, bye, ranked, hist, seat_limit_dropped=True, repeats=repeats)


Test = Callable[[int, int], bool]


def _edge_test(hist: _History, seat_limit: bool) -> Test:
    def ok(a: int, b: int) -> bool:
        if hist.met(a, b):
            return False
        if seat_limit:
            sa, sb = hist.surplus(a), hist.surplus(b)
            if (sa >= SEAT_LIMIT and sb >= SEAT_LIMIT) or (sa <= -SEAT_LIMIT and sb <= -SEAT_LIMIT):
                return False
        return True

    return ok


def _some_bye_works(
    ranked: list[int], score: dict[int, float], candidates: list[int | None], ok: Test, pref: dict[int, int]
) -> bool:
    """Whether some candidate can take the bye with everyone else paired under ``ok``: one matching on the players
    plus a virtual bye vertex joined to the candidates (the pass's pairing of all but the first candidate seeds it)."""
    first = candidates[0]
    rest = [p for p in ranked if p != first]
    pairs, _left = _pair(rest, score, ok, pref, complete=False)
    index = {p: i for i, p in enumerate(ranked)}
    n = len(ranked) + 1
    bye_v = n - 1
    eligible = {index[c] for c in candidates if c is not None}
    match = [-1] * n
    for a, b in pairs:
        match[index[a]], match[index[b]] = index[b], index[a]
    if first is not None:
        match[index[first]], match[bye_v] = bye_v, index[first]

    def neighbours(v: int) -> list[int]:
        if v == bye_v:
            return sorted(eligible)
        p = ranked[v]
        out = [i for i, q in enumerate(ranked) if i != v and ok(p, q)]
        if v in eligible:
            out.append(bye_v)
        return out

    grow(n, neighbours, match)
    return all(m != -1 for m in match)


def _pair(
    rest: list[int], score: dict[int, float], ok: Test, pref: dict[int, int], complete: bool = True
) -> tuple[list[tuple[int, int]], list[int]]:
    """The score-group pass, then (``complete``) the matching: (pairs, players left unpaired). ``pref``: the seat
    each player wants (+1 first, -1 second, 0 either)."""
    pairs: list[tuple[int, int]] = []
    carry: list[int] = []
    i = 0
    while i < len(rest):
        j = i
        while j < len(rest) and score[rest[j]] == score[rest[i]]:
            j += 1
        bracket = carry + rest[i:j]
        got, carry = _pair_bracket(bracket, ok, pref)
        pairs.extend(got)
        i = j
    if not complete or not carry:
        return pairs, carry
    index = {p: k for k, p in enumerate(rest)}
    match = [-1] * len(rest)
    for a, b in pairs:
        match[index[a]], match[index[b]] = index[b], index[a]

    def neighbours(v: int) -> list[int]:
        p = rest[v]
        return [k for k, q in enumerate(rest) if k != v and ok(p, q)]

    grow(len(rest), neighbours, match)
    done: list[tuple[int, int]] = []
    left: list[int] = []
    for k, m in enumerate(match):
        if m == -1:
            left.append(rest[k])
        elif k < m:
            done.append((rest[k], rest[m]))
    return done, left


def _pair_bracket(
    bracket: list[int], ok: Test, pref: dict[int, int]
) -> tuple[list[tuple[int, int]], list[int]]:
    """Pair one score group (with the players floated into it): (pairs, players floated down, in rank order)."""

    def order(rem: list[int]) -> list[int]:
        m = len(rem) // 2
        natural = rem[m:] + rem[m - 1 : 0 : -1] if m else rem[1:]
        p = pref.get(rem[0], 0)
        return sorted(natural, key=lambda q: p != 0 and pref.get(q, 0) == p)  # stable: seat-compatible first

    def greedy(rem: list[int]) -> tuple[list[tuple[int, int]], list[int]]:
        rem = list(rem)
        got: list[tuple[int, int]] = []
        floats: list[int] = []
        while rem:
            p = rem[0]
            mate = next((q for q in order(rem) if ok(p, q)), None)
            if mate is None:
                floats.append(p)
                rem.pop(0)
            else:
                got.append((p, mate))
                rem.remove(p)
                rem.remove(mate)
        return got, floats

    got, floats = greedy(bracket)
    if len(floats) <= len(bracket) % 2 or len(bracket) > BACKTRACK_MAX:
        return got, floats

    budget = [BRACKET_BUDGET]

    def dfs(rem: list[int], may_float: int) -> tuple[list[tuple[int, int]], list[int]] | None:
        if not rem:
            return [], []
        budget[0] -= 1
        if budget[0] < 0:
            return None
        p = rem[0]
        for q in order(rem):
            if ok(p, q):
                sub = dfs([r for r in rem[1:] if r != q], may_float)
                if sub is not None:
                    return [(p, q), *sub[0]], sub[1]
        if may_float:
            sub = dfs(rem[1:], may_float - 1)
            if sub is not None:
                return sub[0], [p, *sub[1]]
        return None

    found = dfs(bracket, len(bracket) % 2)
    return found if found is not None else (got, floats)


def _finish(
    pairs: list[tuple[int, int]],
    bye: int | None,
    ranked: list[int],
    hist: _History,
    seat_limit_dropped: bool,
    repeats: int = 0,
) -> SwissRound:
    """Seats and board order (by the higher-ranked player of each board)."""
    rank = {p: i for i, p in enumerate(ranked)}
    boards: list[tuple[int, int]] = []
    for a, b in pairs:
        hi, lo = (a, b) if rank[a] < rank[b] else (b, a)
        key_hi = (hist.surplus(hi), hist.first[hi], 0)
        key_lo = (hist.surplus(lo), hist.first[lo], 1)
        boards.append((hi, lo) if key_hi < key_lo else (lo, hi))
    boards.sort(key=lambda ab: min(rank[ab[0]], rank[ab[1]]))
    return SwissRound(tuple(boards), bye, repeats, seat_limit_dropped)
