"""Level 1 "Squire": a random legal move with simple sense.

* Follower that cannot win the trick with any legal card: plays its cheapest legal card.
* Follower that can win: on a prize worth having (value >= 5, or any phase-2 trick) it wins with
  its cheapest winning card; on a poor prize it plays its cheapest card instead of wasting one.
* Leader: a random card, but on a poor phase-1 prize never its highest card.
* Seer choice (T3.5b): keeps the higher of the prize and the peeked card.
* Giant choice (3-4 seats, M6.5): smashes the Gnome of the opponent with the most Gnomes.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from games.rules.claim import core

from .evaluate import strongest_gnome_rival
from .knowledge import core_move, read_view

GOOD_PRIZE = 5


def choose(view: Mapping[str, Any], legal: Sequence[Mapping[str, Any]], seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    k = read_view(view)
    if k.seer_pending == k.seat and k.peek is not None and k.prize is not None:
        want = "top" if (k.peek & 15) > (k.prize & 15) else "prize"
        return next(dict(m) for m in legal if m.get("seer") == want)
    if any("smash" in m for m in legal):
        seats = [int(m["smash"]) for m in legal]
        return {"smash": strongest_gnome_rival(seats, k.gnomes, k.score)}
    cards = [core_move(m) for m in legal]

    def pick(c: int) -> dict[str, Any]:
        return dict(legal[cards.index(c)])

    def cheapest(cs: Sequence[int]) -> int:
        return min(cs, key=lambda c: (c & 15, c))

    prize_good = k.phase == 2 or (k.prize is not None and (k.prize & 15) >= GOOD_PRIZE)
    if k.played:
        lead = k.played[0]
        winners = [c for c in cards if core.follower_wins(lead, c)]
        if winners and prize_good:
            return pick(cheapest(winners))
        return pick(cheapest(cards))
    if not prize_good and len(cards) > 1:
        top = max(c & 15 for c in cards)
        lower = [c for c in cards if (c & 15) < top]
        if lower:
            return pick(lower[rng.randrange(len(lower))])
    return dict(legal[rng.randrange(len(legal))])
