"""Claim for 3 and 4 players: OUR RULINGS where the printed sheet is unclear.

The "Combining Claim and Claim 2" sheet could only be read up to its setup part (source S3 in
/work/shared/rules/sources-and-ambiguities.md). Every clause of claim-combined.md tagged [R]
(recommended ruling: a generalisation of the 2-player rule that reduces exactly to it with 2
players) is implemented in this module and nowhere else, one function per clause, so that a
ruling can be found, reviewed and changed in one place once the printed sheet (or Board Game
Arena's implementation) settles it. The list is mirrored in docs/rulings.md, section "Claim for 3
and 4 players (our rulings)". Games with 3-4 seats carry ``"reconstructed_rules": true`` in their
options, views and results so that clients can say "these are our rulings where the printed sheet
is unclear".

The N-seat mechanics that follow from verified/derived clauses ([V]/[D]) live in
:mod:`games.rules.claim.multi`; the 2-player game never calls this module.

Clause index (claim-combined.md):

* M3.5 first leader: random from the seed ............................ :func:`first_leader`
* M3.6 clockwise play ................................................ :func:`next_seat`
* M3.7 views hide every other hand, the partner's too ................. :func:`hand_visible`
* M4.4 trick winner (A18 ties to the earliest, A19 Knights vs Doppelgangers) :func:`trick_winner`
* M4.5 ranking of the cards of a trick ............................... :func:`rank_key`
* M4.6 next leader: last Dragon, else the winner ..................... :func:`next_leader`
* M5.2 phase-1 distribution: prize to the winner, blind draws clockwise :func:`phase1_receivers`
* M5.4 Seers with N players (A21) .................................... :func:`seer_receivers`
* M5.6 phase-2 first leader (A1/A11) ................................. :func:`phase2_first_leader`
* M6.3 Dwarves to the lowest-ranked card of the side that lost (A20) .. :func:`dwarf_recipient`
* M6.5 Giants: the winner chooses the opponent, never the partner (A22) :func:`giant_candidates`
* M7.1 3 players: faction votes with several players ................. :func:`faction_vote_n`
* M7.2 3 players: winner, tie-breaks, shared wins, ranks (A24) ....... :func:`decide_three`
* M7.3 4 players: partnership scoring with combined piles (A23) ....... :func:`decide_teams`
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TypedDict

from games.rules.cards import DOPPELGANGER, GNOME, GOBLIN, KNIGHT
from games.rules.claim.scoring import faction_vote
from games.rules.claim.state import next_leader_index, winning_index

#: Shown by clients next to every 3-4 player game (options, view, result).
RECONSTRUCTED_RULES = True


class ThreeDecision(TypedDict):
    """M7.1 / M7.2 the decision of a 3-seat game (factions as codes)."""

    votes: dict[int, int | None]  # faction -> seat
    votes_won: list[int]
    cards_for: list[int]
    winners: list[int]
    ranks: list[int]
    reason: str


class TeamDecision(TypedDict):
    """M7.3 the decision of a 4-seat game (factions as codes)."""

    votes: dict[int, int | None]  # faction -> team
    votes_won: list[int]
    cards_for: list[int]
    winning_team: int | None
    reason: str

#: M3.4 [V]/[D] the partnerships of 4 players: diagonal seats.
TEAMS_4 = ((0, 2), (1, 3))


def teams_for(seats: int) -> tuple[tuple[int, ...], ...] | None:
    """M3.3 / M3.4: 4 players form the teams {0, 2} and {1, 3}; otherwise everybody plays alone."""
    return TEAMS_4 if seats == 4 else None


def team_of(seat: int, seats: int) -> int | None:
    """The team index of ``seat`` with 4 players (seat parity), else ``None``."""
    return seat % 2 if seats == 4 else None


def opponents(seat: int, seats: int) -> list[int]:
    """Every opponent of ``seat``, clockwise from its left: 3 players -> both others; 4 players ->
    the two players of the other team (never the partner)."""
    out = [(seat + i) % seats for i in range(1, seats)]
    if seats == 4:
        out = [s for s in out if s % 2 != seat % 2]
    return out


# --------------------------------------------------------------------------- M3 setup and turn order


def first_leader(rng: random.Random, seats: int) -> int:
    """M3.5 [R] the youngest player leads first (C3.3); digitally: a random seat from the seed."""
    return rng.randrange(seats)


def next_seat(seat: int, seats: int) -> int:
    """M3.6 [R] play proceeds clockwise (increasing seat numbers), one card per player per trick."""
    return (seat + 1) % seats


def hand_visible(viewer: int | None, owner: int) -> bool:
    """M3.7 [R] partners may not show each other their cards: a view shows only the viewer's own
    hand / follower pile (never the partner's)."""
    return viewer == owner


# --------------------------------------------------------------------------- M4 trick play


def trick_winner(cards: Sequence[int]) -> int:
    """M4.4 [R] index (in play order) of the winning card.

    a. Goblin led and at least one Knight played -> the highest Knight; it beats every Goblin and
       every Doppelganger counting as a Goblin (A19); equal Knights -> the earlier one.
    b. otherwise the highest card counting as led (led faction, or a Doppelganger played by a
       non-leader, M4.3); equal values -> the card played earliest (A18, generalising "ties go to
       the leader").
    """
    return winning_index(list(cards))


def rank_key(cards: Sequence[int], index: int) -> tuple[int, int, int]:
    """M4.5 [R] sort key of card ``index`` among the non-winning cards of a trick (higher ranks
    higher): cards counting as led (with Knights above Goblins/Doppelgangers on a Goblin lead),
    then off-faction cards; by value, descending; equal values -> the earlier card ranks higher.
    The winner ranks first and is never compared with this key."""
    lf = cards[0] >> 4
    c = cards[index]
    f = c >> 4
    if lf == GOBLIN and f == KNIGHT:
        group = 2
    elif index == 0 or f in (lf, DOPPELGANGER):
        group = 1  # M4.3 counts as led
    else:
        group = 0
    return (group, c & 15, -index)


def lowest_ranked_index(cards: Sequence[int], winner_index: int) -> int:
    """M4.5 [R] index of the lowest-ranked card of the trick (never the winner's card).
    [D] With 2 cards this is always the loser's card."""
    return min((i for i in range(len(cards)) if i != winner_index), key=lambda i: rank_key(cards, i))


def next_leader(cards: Sequence[int], winner_index: int) -> int:
    """M4.6 [R] index of the card whose player leads next: the last Dragon of the trick (T3.3),
    else the winner. A Doppelganger is never a Dragon (M2.5a)."""
    return next_leader_index(list(cards), winner_index)


# --------------------------------------------------------------------------- M5 phase 1


def phase1_receivers(winner: int, seats: int) -> list[int]:
    """M5.2 [R] the winner takes the prize; then every other player, clockwise starting left of the
    winner, takes the top deck card blind. Returns those other players in drawing order."""
    return [(winner + i) % seats for i in range(1, seats)]


def seer_receivers(winner: int, seats: int, take_top: bool) -> tuple[int, int, list[int]]:
    """M5.4 [R] (A21) a winner who won with a Seer peeked at the top card T and chose.

    Returns ``(gets_the_prize, gets_T, blind_drawers)``: keeping the prize, the first player left
    of the winner receives T (which the winner has seen); taking T, that player receives the
    face-up prize instead of a blind card. Everybody else draws blind as usual (M5.2). With 2
    players this is exactly T3.5b.
    """
    others = phase1_receivers(winner, seats)
    first = others[0]
    if take_top:
        return first, winner, others[1:]
    return winner, first, others[1:]


def phase2_first_leader(next_leader_after_last_phase1_trick: int) -> int:
    """M5.6 [R] (A1, A11) the player who would lead the next phase-1 trick (winner of the last
    phase-1 trick, or its last Dragon's player) leads phase-2 trick 1."""
    return next_leader_after_last_phase1_trick


# --------------------------------------------------------------------------- M6 phase 2


def side_of(seat: int, seats: int) -> int:
    """The side a seat plays for: its team with 4 players (M3.4), itself otherwise (M3.3)."""
    return seat % 2 if seats == 4 else seat


def dwarf_recipient(cards: Sequence[int], winner_index: int, leader: int, seats: int) -> int:
    """M6.3 [R] (A20) every Dwarf played in a phase-2 trick (the winner's own too) goes to the score
    pile of the player of the **lowest-ranked card (M4.5) among the cards of the side that did not
    win the trick**. 3 players: every other player is such a side, so this is the lowest-ranked card
    of the trick. 4 players: the lowest-ranked of the two cards of the team that did not win (never
    the winner's partner: the Dwarves' point is that the losing side takes them). With 2 players:
    the loser (C6.4).

    Ties: M4.5 ranks every card strictly (equal group and value -> the earlier card ranks higher),
    so of two equal cards the later-played one takes the Dwarves. A trick with no card of a losing
    side cannot occur (every player plays one card to each trick; with 4 players the other team
    always has two cards in it): such input raises ``ValueError`` rather than being guessed at.
    """
    win_side = side_of((leader + winner_index) % seats, seats)
    losing = [i for i in range(len(cards)) if side_of((leader + i) % seats, seats) != win_side]
    if not losing:
        raise ValueError("M6.3: a trick with no card of the side that lost (every player plays one card)")
    return (leader + min(losing, key=lambda i: rank_key(cards, i))) % seats


def giant_candidates(winner: int, value: int, seats: int, gnome_rows: Sequence[Sequence[int]]) -> list[int]:
    """M6.5 [R] (A22) the players whose Gnome a Giant of ``value`` collected by ``winner`` may smash:
    every opponent (3 players: either other player; 4 players: the two players of the other team,
    never the partner) whose Gnome row holds a Gnome of that value, clockwise from the winner's left.

    The **winner chooses** among them with the explicit move ``{"smash": seat}`` when there are two
    (the engine waits for it, like the Seer choice); with one candidate the smash happens at once,
    with none nothing happens. (With 4 players the choice cannot change the result: the two
    opponents' piles are combined; it is still the winner's, as the rule says.)
    """
    gnome = GNOME * 16 + value
    return [s for s in opponents(winner, seats) if gnome in gnome_rows[s]]


# --------------------------------------------------------------------------- M7 scoring


def faction_vote_n(piles: Sequence[list[int]]) -> int | None:
    """M7.1 [R] one faction's vote among several players, given each player's cards of that
    faction sorted from the highest down: the most cards wins; players tied for most compare their
    highest cards, then the second-highest, ... (T4.3); still tied -> nobody. Players not tied for
    most play no part. 0 cards for everybody -> nobody (C8.5)."""
    most = max(len(p) for p in piles)
    if most == 0:
        return None
    tied = [s for s, p in enumerate(piles) if len(p) == most]
    if len(tied) == 1:
        return tied[0]
    best = max(piles[s] for s in tied)
    top = [s for s in tied if piles[s] == best]
    return top[0] if len(top) == 1 else None


def _ranks(keys: Sequence[tuple[int, int]]) -> list[int]:
    return [1 + sum(1 for k in keys if k > mine) for mine in keys]


def decide_three(by_faction: Sequence[dict[int, list[int]]], factions: Sequence[int]) -> ThreeDecision:
    """M7.1 / M7.2 [R] (A24) 3 players: the most votes wins; equal most votes -> more cards in total
    in the factions that voted for the player (T4.4); still equal -> a shared win (several
    ``winners``). Our ruling for the other places: ranks use the same key (votes, then cards in
    the player's factions), equal keys share a rank.

    Returns ``{"votes": {faction: seat|None}, "votes_won": [...], "cards_for": [...],
    "winners": [...], "ranks": [...], "reason": str}``.
    """
    n = len(by_faction)
    votes: dict[int, int | None] = {}
    won = [0] * n
    cards_for = [0] * n
    for f in factions:
        v = faction_vote_n([b[f] for b in by_faction])
        votes[f] = v
        if v is not None:
            won[v] += 1
            cards_for[v] += len(by_faction[v][f])
    keys = [(won[s], cards_for[s]) for s in range(n)]
    ranks = _ranks(keys)
    winners = [s for s in range(n) if ranks[s] == 1]
    top = max(won)
    tied_votes = [s for s in range(n) if won[s] == top]
    if len(tied_votes) == 1:
        reason = f"seat {winners[0]} won the most factions ({top})"
    elif len(winners) == 1:
        reason = (f"{top} factions each for seats {', '.join(map(str, tied_votes))}; seat {winners[0]} "
                  f"has more cards in its factions ({cards_for[winners[0]]})")
    else:
        reason = (f"shared win: seats {', '.join(map(str, winners))} have {top} factions and "
                  f"{cards_for[winners[0]]} cards in them each")
    return {"votes": votes, "votes_won": won, "cards_for": cards_for, "winners": winners,
            "ranks": ranks, "reason": reason}


def decide_teams(team_by_faction: Sequence[dict[int, list[int]]], factions: Sequence[int]) -> TeamDecision:
    """M7.3 [R] (A23) 4 players: each partnership's score piles (Gnome rows included at the end) are
    combined and the two teams compare per faction exactly like two players (C8.2-C8.5, T4.3). The
    team with more votes wins (with all 7 votes assigned: at least 4). Equal votes -> more cards in
    the factions that voted for the team (T4.4); still equal -> a draw.

    Returns ``{"votes": {faction: team|None}, "votes_won": [t0, t1], "cards_for": [t0, t1],
    "winning_team": 0|1|None, "reason": str}``.
    """
    votes: dict[int, int | None] = {}
    won = [0, 0]
    cards_for = [0, 0]
    for f in factions:
        v = faction_vote(team_by_faction[0][f], team_by_faction[1][f])
        votes[f] = v
        if v is not None:
            won[v] += 1
            cards_for[v] += len(team_by_faction[v][f])
    team: int | None
    if won[0] != won[1]:
        team = 0 if won[0] > won[1] else 1
        reason = f"team {team} won more factions ({won[team]} to {won[1 - team]})"
    elif cards_for[0] != cards_for[1]:
        team = 0 if cards_for[0] > cards_for[1] else 1
        reason = (f"{won[0]} factions each; team {team} has more cards in its factions "
                  f"({cards_for[team]} to {cards_for[1 - team]})")
    else:
        team = None
        reason = f"draw: {won[0]} factions each and {cards_for[0]} cards each"
    return {"votes": votes, "votes_won": won, "cards_for": cards_for, "winning_team": team,
            "reason": reason}
