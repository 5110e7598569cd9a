"""Scoring (I12): S1 influence, S2 tome majority, S3 relics, S4 quests, S5 honors; winner and
tie-breaks. Every [R] ruling has its own function."""

from __future__ import annotations

from typing import Literal

from . import cards as C
from . import clans, data
from .state import InheritorsState
from .types import InheritorsResult, ScoreRow, Tiebreak


def influence(state: InheritorsState, seat: int) -> int:
    """I12.2 S1: sum of top values."""
    return sum(state.top(seat, c) for c in state.colours)


def tomes_in_hand(state: InheritorsState, seat: int) -> int:
    """Tomes + epics in hand (I12.3 without Lynx; I12.6 tie-break count)."""
    return sum(1 for cid in state.hands[seat] if C.is_wild(cid))


def tome_count(state: InheritorsState, seat: int) -> int:
    """I12.3 T(P): tomes + epics in hand, +2 with Lynx (AMB-19)."""
    return tomes_in_hand(state, seat) + clans.tome_bonus(state, seat)


def tome_majority(counts: list[int]) -> list[int]:
    """I12.3 [R] (AMB-29): only T >= 1 competes; the highest score 3; if exactly one has the
    highest, everyone with the next-highest scores 1; if several tie for the highest, each scores 3
    and nobody scores the 1."""
    points = [0] * len(counts)
    competing = sorted({t for t in counts if t >= 1}, reverse=True)
    if not competing:
        return points
    first = competing[0]
    firsts = [i for i, t in enumerate(counts) if t == first]
    for i in firsts:
        points[i] = data.TOME_FIRST
    if len(firsts) == 1 and len(competing) > 1:
        second = competing[1]
        for i, t in enumerate(counts):
            if t == second:
                points[i] = data.TOME_SECOND
    return points


def relic_points(state: InheritorsState, seat: int) -> int:
    """I12.4 [R] (AMB-30): each relic in hand scores +1 (Bear +2) if P has a stack of its colour
    whose top is >= every other player's top (ties count), else -1 (Bear -2). Relics elsewhere
    score nothing."""
    value = clans.relic_value(state, seat)
    total = 0
    for cid in state.hands[seat]:
        if not C.is_relic(cid):
            continue
        colour = C.CARDS[cid].colour or ""
        mine = state.top(seat, colour)
        best = mine > 0 and all(mine >= state.top(o, colour) for o in state.others(seat))
        total += value if best else -value
    return total


def quest_met(state: InheritorsState, seat: int, qid: str) -> bool:
    """I10.2 / I10.4 [P]: evaluate a quest's condition on P's final hand (data-driven)."""
    q = data.QUESTS[qid]
    hand = state.hands[seat]
    kind = q["kind"]
    if kind == "colour_cards":
        return sum(1 for cid in hand if q["colour"] in C.colours_of(cid)) >= int(q["min"])
    if kind == "advocates":
        return sum(1 for cid in hand if C.is_advocate(cid)) >= int(q["min"])
    if kind == "relics":
        return sum(1 for cid in hand if C.is_relic(cid)) >= int(q["min"])
    raise ValueError(f"unknown quest kind {kind!r}")


def quest_points(state: InheritorsState, seat: int) -> int:
    """I10.2 [R] (AMB-36): a met quest scores its VP, an unmet quest 0."""
    return sum(int(data.QUESTS[q]["vp"]) for q in state.quests[seat] if quest_met(state, seat, q))


def honor_points(state: InheritorsState, seat: int) -> int:
    """I12.5 S5: 1 VP per claimed honor."""
    return len(state.honors[seat])


def breakdown(state: InheritorsState) -> list[ScoreRow]:
    """I12.7 per-seat breakdown S1-S5 and total."""
    tomes = tome_majority([tome_count(state, s) for s in range(state.seats)])
    out: list[ScoreRow] = []
    for s in range(state.seats):
        parts = (influence(state, s), tomes[s], relic_points(state, s), quest_points(state, s),
                 honor_points(state, s))
        out.append({"influence": parts[0], "tomes": parts[1], "relics": parts[2], "quests": parts[3],
                    "honors": parts[4], "total": sum(parts)})
    return out


def tiebreak_key(state: InheritorsState, seat: int, total: int) -> tuple[int, int, int]:
    """I12.6 [R] (AMB-31): total, then tomes + epics in hand (no Lynx bonus), then hand size."""
    return (total, tomes_in_hand(state, seat), len(state.hands[seat]))


def compute_result(state: InheritorsState) -> InheritorsResult:
    scores = breakdown(state)
    keys = [tiebreak_key(state, s, scores[s]["total"]) for s in range(state.seats)]
    best = max(keys)
    winners = [s for s in range(state.seats) if keys[s] == best]
    ranks = [1 + sum(1 for k in keys if k > keys[s]) for s in range(state.seats)]
    top_total = best[0]
    tied_on_total = [s for s in range(state.seats) if keys[s][0] == top_total]
    decided_by: Literal["tomes", "hand", "shared"] | None = None
    if len(tied_on_total) > 1:
        if len(winners) == 1:
            top_tomes = max(keys[s][1] for s in tied_on_total)
            n_tomes = sum(1 for s in tied_on_total if keys[s][1] == top_tomes)
            decided_by = "tomes" if n_tomes == 1 else "hand"
        else:
            decided_by = "shared"
    tiebreak: Tiebreak = {
        "order": ["total", "tomes_in_hand", "hand_size"],
        "keys": [list(k) for k in keys],
        "decided_by": decided_by,
    }
    return {
        "winner": winners[0] if len(winners) == 1 else None,
        "winners": winners,
        "ranks": ranks,
        "scores": scores,
        "tiebreak": tiebreak,
    }
