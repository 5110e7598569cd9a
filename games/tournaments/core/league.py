"""Seasonal leagues (docs/tournaments.md, "League"): divisions of a fixed size, promotion and relegation.

Division 0 is the top. At a season's end the top ``k`` of every division but the top go up one, the bottom ``k``
of every division but the lowest go down one. Then the players leaving are removed, the new players join at the
bottom, and the ladder (top division first; within a division: those relegated into it, then those who stayed, then
those promoted into it, each in their finishing order; new players last, in the order given) is cut again into
divisions of ``size``: a vacancy is filled from the top of the division below — first a player relegated from the
division with the vacancy (a reprieve), else the best who stayed there (an extra promotion), and so on down. The lowest
division takes the remainder; if that is fewer than ``min_size`` players they join the division above it.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence


def divide(ladder: Sequence[int], size: int, min_size: int = 2) -> list[list[int]]:
    """Cut a ladder (best first) into divisions of ``size``; a last division under ``min_size`` joins the one above."""
    if size < 2 or not 1 <= min_size <= size:
        raise ValueError("need size >= 2 and 1 <= min_size <= size")
    if len(set(ladder)) != len(ladder):
        raise ValueError("duplicate player ids")
    divisions = [list(ladder[i : i + size]) for i in range(0, len(ladder), size)]
    if len(divisions) > 1 and len(divisions[-1]) < min_size:
        divisions[-2].extend(divisions.pop())
    return divisions


def next_season(
    finished: Sequence[Sequence[int]],
    size: int,
    k: int,
    leaving: Collection[int] = (),
    newcomers: Sequence[int] = (),
    min_size: int = 2,
) -> list[list[int]]:
    """The next season's divisions from this season's (each in finishing order, best first)."""
    if k < 0 or any(2 * k > len(d) for d in finished[1:-1]) or (len(finished) > 1 and k > min(map(len, finished))):
        raise ValueError("k players cannot move both up and down from a division that small")
    last = len(finished) - 1
    down_in: list[list[int]] = [[] for _ in finished]
    stay: list[list[int]] = [[] for _ in finished]
    up_in: list[list[int]] = [[] for _ in finished]
    for d, members in enumerate(finished):
        members = list(members)
        up = members[:k] if d > 0 else []
        down = members[len(members) - k :] if d < last and k else []
        for p in up:
            up_in[d - 1].append(p)
        for p in down:
            down_in[d + 1].append(p)
        stay[d] = [p for p in members if p not in up and p not in down]
    ladder = [p for d in range(len(finished)) for p in down_in[d] + stay[d] + up_in[d]]
    gone = set(leaving)
    ladder = [p for p in ladder if p not in gone]
    present = set(ladder)
    for p in newcomers:
        if p not in gone and p not in present:
            ladder.append(p)
            present.add(p)
    return divide(ladder, size, min_size)
