"""End-of-game scoring (C8, T4, M2.4).

Per faction (C8.1/C8.2): more cards wins the vote; equal counts -> compare the cards' values
sorted from high to low, lexicographically (C8.3 highest card, C8.4/T4.3 then the next-highest,
...); every compared card equal (including 0-0, C8.5) -> nobody gets the vote.
Overall: >= 3 votes wins (C8.6/T4.2); else more votes; else more cards in the factions that voted
for the player (C8.7/T4.4); else a draw (winner ``None``).
"""

from __future__ import annotations

from collections.abc import Sequence


def piles_by_faction(pile: Sequence[int], factions: Sequence[int]) -> dict[int, list[int]]:
    """The codes of ``pile`` per faction, each list sorted from the highest value down."""
    out: dict[int, list[int]] = {f: [] for f in factions}
    for c in sorted(pile, reverse=True):
        out[c >> 4].append(c)
    return out


def faction_vote(a: list[int], b: list[int]) -> int | None:
    """The seat (0 or 1) that wins one faction's vote given both seats' cards sorted high→low."""
    if len(a) != len(b):
        return 0 if len(a) > len(b) else 1  # C8.2 more cards
    if a == b:
        return None  # C8.4 / T4.3 / C8.5 all compared cards equal, or 0-0: nobody
    # C8.3 / C8.4 / T4.3 highest card, then next-highest ... (same faction -> codes order as values)
    return 0 if a > b else 1


def decide(
    by_faction: Sequence[dict[int, list[int]]], factions: Sequence[int]
) -> tuple[int | None, dict[int, int | None], str]:
    """(winner, votes per faction, reason) for two seats."""
    votes: dict[int, int | None] = {}
    n_votes = [0, 0]
    cards_for = [0, 0]
    for f in factions:
        v = faction_vote(by_faction[0][f], by_faction[1][f])
        votes[f] = v
        if v is not None:
            n_votes[v] += 1
            cards_for[v] += len(by_faction[v][f])
    for s in (0, 1):
        if n_votes[s] >= 3:
            return s, votes, f"seat {s} won {n_votes[s]} factions"  # C8.6 / T4.2
    if n_votes[0] != n_votes[1]:
        s = 0 if n_votes[0] > n_votes[1] else 1
        return s, votes, f"seat {s} won more factions ({n_votes[s]} to {n_votes[1 - s]})"  # C8.7
    if cards_for[0] != cards_for[1]:
        s = 0 if cards_for[0] > cards_for[1] else 1
        # C8.7 / T4.4 more cards in the factions that voted for the player
        return s, votes, (
            f"{n_votes[0]} factions each; seat {s} has more cards in its factions "
            f"({cards_for[s]} to {cards_for[1 - s]})"
        )
    return None, votes, f"draw: {n_votes[0]} factions each and {cards_for[0]} cards each"  # T4.4 [R]


def fast_winner(score: Sequence[Sequence[int]], factions: Sequence[int]) -> int | None:
    """Only the winner (used by random playouts)."""
    return decide([piles_by_faction(score[0], factions), piles_by_faction(score[1], factions)],
                  factions)[0]
