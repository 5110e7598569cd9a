"""A static estimate of "how likely am I to win the faction votes" for the Claim family.

Each faction's vote is modelled as a coin whose bias depends on the card lead this seat holds in
that faction compared with the cards still to be shared out (a logistic in ``lead / sqrt(rest)``);
the game is won with at least 3 of the 5 votes (C8.6 / T4.2), so the estimate is the probability
of >= 3 successes of 5 independent coins (a small dynamic programme). Used by the Knight to value
prizes, followers, Seer choices and phase-2 tricks, and by the King's rollouts' tie-breaks.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence

from games.rules.cards import DOPPELGANGER, DWARF, GIANT, GNOME, KNIGHT, SEER, UNDEAD

STEEP = 1.6


def faction_prob(me: float, opp: float, rest: float) -> float:
    """P(this seat wins one faction's vote) given weighted card counts and cards still to come."""
    d = me - opp
    if rest <= 0.05:
        if abs(d) < 1e-9:
            return 0.5
        return 1.0 if d > 0 else 0.0
    x = STEEP * d / math.sqrt(rest + 1.0)
    if x > 30:
        return 1.0
    if x < -30:
        return 0.0
    return 1.0 / (1.0 + math.exp(-x))


def majority_prob(probs: Iterable[float], need: int = 3) -> float:
    """P(at least ``need`` successes) of independent coins."""
    dist = [1.0]
    for p in probs:
        nxt = [0.0] * (len(dist) + 1)
        for i, q in enumerate(dist):
            nxt[i] += q * (1 - p)
            nxt[i + 1] += q * p
        dist = nxt
    return sum(dist[need:])


def win_prob(factions: Sequence[int], me: Mapping[int, float], opp: Mapping[int, float],
             rest: Mapping[int, float]) -> float:
    return majority_prob(faction_prob(me.get(f, 0.0), opp.get(f, 0.0), rest.get(f, 0.0))
                         for f in factions)


def follower_weight(card: int) -> float:
    """How much one follower card is worth for its faction's vote in phase 2 (C7): high cards win
    phase-2 tricks and so bring in more cards; Dwarves go to the *loser* (C6.4), so low Dwarves
    are the ones that collect them."""
    f = card >> 4
    v = card & 15
    if f == DWARF:
        return 0.75 + 0.5 * (9 - v) / 9
    return 0.75 + 0.5 * v / 9


def card_power(card: int, tricks_left: int) -> float:
    """What a phase-1 hand card is worth as a trick winner later (C5: hand cards are only used to
    win prizes). Knights beat Goblin leads (C6.2), Doppelgangers follow anything (C6.5a), a Seer win
    gives a choice of two cards (T3.5)."""
    f = card >> 4
    p = (card & 15) / 9
    if f == KNIGHT:
        p += 0.35
    elif f == DOPPELGANGER:
        p += 0.25
    elif f == SEER:
        p += 0.1
    return p * min(1.0, tricks_left / 6)


def gnome_risk(card: int, opp_hand: Sequence[int]) -> float:
    """T3.2: a Gnome in my row is smashed if the opponent later collects a Giant of its value."""
    if card >> 4 != GNOME:
        return 1.0
    return 0.6 if (GIANT * 16 + (card & 15)) in opp_hand else 1.0


__all__ = ["UNDEAD", "card_power", "faction_prob", "follower_weight", "gnome_risk", "majority_prob",
           "win_prob"]


def strongest_gnome_rival(candidates: Sequence[int], gnomes: Sequence[Sequence[int]],
                          score: Sequence[Sequence[int]]) -> int:
    """M6.5 a simple Giant choice: the candidate with the most Gnomes (row + score pile: the
    strongest rival for the Gnome vote); equal -> the first listed (clockwise from the winner's left)."""
    return max(candidates, key=lambda s: (len(gnomes[s]) + sum(1 for c in score[s] if c >> 4 == GNOME),
                                          -candidates.index(s)))
