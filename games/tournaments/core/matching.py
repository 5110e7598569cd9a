"""Maximum-cardinality matching in a general graph (Edmonds' blossom algorithm), grown from a given matching.

The Swiss pairing (:mod:`.swiss`) builds most pairs with its score-group pass and calls :func:`grow` only to
complete them: each exposed vertex costs one alternating-tree search, O(V + E) with early exit at the first
augmenting path, plus O(V) per blossom contracted. Neighbours are read through a callback so the (dense) graph of
"may still meet" is never materialised. The result is a maximum matching (Berge's theorem: a vertex without an
augmenting path when searched never gains one later), so a pairing without repeats is found whenever one exists.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

Neighbours = Callable[[int], Iterable[int]]


def grow(n: int, neighbours: Neighbours, match: list[int]) -> list[int]:
    """Grow ``match`` (``match[v]`` is v's mate or -1; updated in place and returned) to a maximum matching of the
    graph on vertices ``0..n-1`` whose edges ``neighbours(v)`` gives (symmetric). Roots are searched in index
    order, so the result is deterministic."""
    for root in range(n):
        if match[root] == -1:
            end, parent = _search(n, neighbours, match, root)
            while end != -1:  # augment along the path root ... end
                mid = parent[end]
                nxt = match[mid]
                match[end] = mid
                match[mid] = end
                end = nxt
    return match


def _search(n: int, neighbours: Neighbours, match: list[int], root: int) -> tuple[int, list[int]]:
    """An alternating-tree search from ``root``: (the exposed end of an augmenting path or -1, the parents)."""
    used = [False] * n
    parent = [-1] * n
    base = list(range(n))
    used[root] = True
    queue = [root]
    head = 0

    def lca(a: int, b: int) -> int:
        seen = [False] * n
        while True:
            a = base[a]
            seen[a] = True
            if match[a] == -1:
                break
            a = parent[match[a]]
        while True:
            b = base[b]
            if seen[b]:
                return b
            b = parent[match[b]]

    def mark(v: int, b: int, child: int, blossom: list[bool]) -> None:
        while base[v] != b:
            blossom[base[v]] = blossom[base[match[v]]] = True
            parent[v] = child
            child = match[v]
            v = parent[match[v]]

    while head < len(queue):
        v = queue[head]
        head += 1
        for to in neighbours(v):
            if base[v] == base[to] or match[v] == to:
                continue
            if to == root or (match[to] != -1 and parent[match[to]] != -1):
                b = lca(v, to)
                blossom = [False] * n
                mark(v, b, to, blossom)
                mark(to, b, v, blossom)
                for i in range(n):
                    if blossom[base[i]]:
                        base[i] = b
                        if not used[i]:
                            used[i] = True
                            queue.append(i)
            elif parent[to] == -1:
                parent[to] = v
                if match[to] == -1:
                    return to, parent
                used[match[to]] = True
                queue.append(match[to])
    return -1, parent
