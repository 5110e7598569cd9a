"""Scores, forfeits and tie-breaks (docs/tournaments.md, "Scoring" and "Tie-breaks").

Scores: a win 1, a draw ½, a loss 0, a bye 1. Forfeits: a player who withdrew, or who lost two games on time, is
*out*: every game of theirs still unfinished counts as a loss for them and a win for the opponent (both out: a loss
for both). Unfinished games between players who are not out do not count yet.

Tie-breaks (after the score, then the seed order as the last resort):

* Swiss: Buchholz (the sum of the opponents' scores), then Sonneborn-Berger (the opponents beaten, plus half the
  opponents drawn, each weighted by their score), then the number of wins;
* round robin: head-to-head (the points scored in the games among the players on the same score), then
  Sonneborn-Berger, then the number of wins;
* tables (:func:`tables`): placement points (:mod:`.tables`), then first places, then the opponents' points.

Opponents met by forfeit count in Buchholz and Sonneborn-Berger like the others; a bye adds nothing to them.

The result depends only on the *set* of results: the inputs are put in a canonical order first and the sums are
of halves (exact in floating point), so the order in which results arrive never changes the standings.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from .tables import BYE_POINTS, TableGame, placement_points

Result = Literal["first", "second", "draw"]

#: Losses on time that put a player out of the tournament.
TIMEOUTS_OUT = 2


@dataclass(frozen=True)
class Game:
    """A paired 2-seat game: round, the players in their seats, the result (None while unfinished) and who lost it
    on time (None if nobody did)."""

    round: int
    first: int
    second: int
    result: Result | None = None
    timed_out: int | None = None


@dataclass(frozen=True)
class Standing:
    """One line of the standings: rank (1 = best; no shared ranks), score, the tie-break values in order, games
    counted, wins, and whether the player is out (withdrawn or timed out twice)."""

    rank: int
    player: int
    score: float
    tiebreaks: tuple[float, ...]
    games: int
    wins: int
    out: bool


def out_players(games: Iterable[Game], withdrawn: Collection[int] = ()) -> frozenset[int]:
    """The players out of the tournament: withdrawn, or lost :data:`TIMEOUTS_OUT` games on time."""
    timeouts: dict[int, int] = defaultdict(int)
    for g in games:
        if g.timed_out is not None:
            timeouts[g.timed_out] += 1
    return frozenset(withdrawn) | {p for p, n in timeouts.items() if n >= TIMEOUTS_OUT}


def points(g: Game, out: Collection[int]) -> tuple[float, float] | None:
    """The game's points ``(first, second)``: its result, else the forfeit if a player is out, else None."""
    if g.result == "first":
        return 1.0, 0.0
    if g.result == "second":
        return 0.0, 1.0
    if g.result == "draw":
        return 0.5, 0.5
    a_out, b_out = g.first in out, g.second in out
    if not (a_out or b_out):
        return None
    return (0.0 if a_out else 1.0), (0.0 if b_out else 1.0)


@dataclass
class _Tally:
    score: float = 0.0
    games: int = 0
    wins: int = 0


def _canonical(games: Iterable[Game]) -> list[Game]:
    return sorted(games, key=lambda g: (g.round, g.first, g.second, g.result or "", g.timed_out or -1))


def _scored(
    players: Sequence[int], games: Iterable[Game], byes: Iterable[int], out: Collection[int]
) -> tuple[dict[int, _Tally], list[tuple[int, int, float]]]:
    """Tallies per player and the scored meetings ``(player, opponent, points of player)`` (both directions)."""
    tally = {p: _Tally() for p in players}
    meetings: list[tuple[int, int, float]] = []
    for g in _canonical(games):
        pts = points(g, out)
        if pts is None:
            continue
        for me, opp, mine in ((g.first, g.second, pts[0]), (g.second, g.first, pts[1])):
            t = tally.setdefault(me, _Tally())
            t.score += mine
            t.games += 1
            t.wins += mine == 1.0
            meetings.append((me, opp, mine))
    for p in sorted(byes):
        tally.setdefault(p, _Tally()).score += 1.0
    return tally, meetings


def _rank(
    players: Sequence[int], tally: dict[int, _Tally], breaks: Mapping[int, tuple[float, ...]], out: Collection[int]
) -> list[Standing]:
    seed = {p: i for i, p in enumerate(players)}
    order = sorted(tally, key=lambda p: (-tally[p].score, tuple(-x for x in breaks[p]), seed.get(p, len(seed)), p))
    return [
        Standing(i + 1, p, tally[p].score, breaks[p], tally[p].games, tally[p].wins, p in out)
        for i, p in enumerate(order)
    ]


def _sonneborn_berger(meetings: list[tuple[int, int, float]], tally: dict[int, _Tally]) -> dict[int, float]:
    sb: dict[int, float] = defaultdict(float)
    for me, opp, mine in meetings:
        sb[me] += mine * tally[opp].score
    return sb


def swiss(
    players: Sequence[int], games: Iterable[Game], byes: Iterable[int] = (), withdrawn: Collection[int] = ()
) -> list[Standing]:
    """Swiss standings: score, Buchholz, Sonneborn-Berger, wins, seed order. ``players`` in seed order."""
    games = list(games)
    out = out_players(games, withdrawn)
    tally, meetings = _scored(players, games, byes, out)
    buchholz: dict[int, float] = defaultdict(float)
    for me, opp, _mine in meetings:
        buchholz[me] += tally[opp].score
    sb = _sonneborn_berger(meetings, tally)
    breaks = {p: (buchholz[p], sb[p], float(tally[p].wins)) for p in tally}
    return _rank(players, tally, breaks, out)


def round_robin(players: Sequence[int], games: Iterable[Game], withdrawn: Collection[int] = ()) -> list[Standing]:
    """Round-robin standings: score, head-to-head among the players on the same score, Sonneborn-Berger, wins."""
    games = list(games)
    out = out_players(games, withdrawn)
    tally, meetings = _scored(players, games, (), out)
    h2h: dict[int, float] = defaultdict(float)
    for me, opp, mine in meetings:
        if tally[me].score == tally[opp].score:
            h2h[me] += mine
    sb = _sonneborn_berger(meetings, tally)
    breaks = {p: (h2h[p], sb[p], float(tally[p].wins)) for p in tally}
    return _rank(players, tally, breaks, out)


def crosstable(games: Iterable[Game], withdrawn: Collection[int] = ()) -> dict[tuple[int, int], list[float]]:
    """Points per ordered pair ``(player, opponent)``, one entry per counted game, in round order."""
    games = list(games)
    out = out_players(games, withdrawn)
    table: dict[tuple[int, int], list[float]] = defaultdict(list)
    for g in _canonical(games):
        pts = points(g, out)
        if pts is not None:
            table[(g.first, g.second)].append(pts[0])
            table[(g.second, g.first)].append(pts[1])
    return dict(table)


def table_points(t: TableGame, out: Collection[int]) -> list[float] | None:
    """Placement points per seat: from the places, else (a player out, the table unfinished) the forfeit — the
    players out share the last places, the others the first places — else None."""
    if t.places is not None:
        return placement_points(t.places)
    if not any(p in out for p in t.seats):
        return None
    return placement_points([2 if p in out else 1 for p in t.seats])


def tables(
    players: Sequence[int], games: Iterable[TableGame], byes: Iterable[int] = (), withdrawn: Collection[int] = ()
) -> list[Standing]:
    """Table standings: placement points, then first places, then the opponents' placement points (the sum of
    the final totals of everyone met at a table), then seed order. ``wins`` counts first places (shared or not)."""
    games = sorted(games, key=lambda t: (t.round, t.seats))
    timeouts: dict[int, int] = defaultdict(int)
    for t in games:
        if t.timed_out is not None:
            timeouts[t.timed_out] += 1
    out = frozenset(withdrawn) | {p for p, n in timeouts.items() if n >= TIMEOUTS_OUT}
    tally = {p: _Tally() for p in players}
    met: list[tuple[int, int]] = []
    for t in games:
        pts = table_points(t, out)
        if pts is None:
            continue
        best = max(pts)
        for seat, p in enumerate(t.seats):
            tt = tally.setdefault(p, _Tally())
            tt.score += pts[seat]
            tt.games += 1
            tt.wins += pts[seat] == best
            met.extend((p, q) for q in t.seats if q != p)
    for p in sorted(byes):
        tally.setdefault(p, _Tally()).score += BYE_POINTS
    opp: dict[int, float] = defaultdict(float)
    for p, q in met:
        opp[p] += tally[q].score
    breaks = {p: (float(tally[p].wins), opp[p]) for p in tally}
    return _rank(players, tally, breaks, out)
