"""The Claim core's state and the trick arithmetic every seat count shares.

:class:`Core` (the mutable state on integer card codes, :mod:`games.rules.cards`), the deal
(:func:`new_core`), who wins a trick and who leads next, and the Undead of a trick. The moves
themselves (:mod:`games.rules.claim.core`: 2 seats, and :mod:`games.rules.claim.multi`: 3-4 seats)
build on this module, which imports neither.

Clause ids refer to /work/shared/rules/claim.md (C), claim2.md (T) and claim-combined.md (M).
"""

from __future__ import annotations

from typing import Any, Final

from games.rules.cards import (
    ALL_CODES,
    DOPPELGANGER,
    DRAGON,
    DWARF,
    GNOME,
    GOBLIN,
    KNIGHT,
    TROLL,
    UNDEAD,
)

# Phases. (Final constants: mypyc inlines them, scripts/build_engine.py.)
PHASE1: Final = 1
PHASE2: Final = 2
OVER: Final = 3

# The two Seer choices (T3.5b) as core "moves".
SEER_PRIZE: Final = -1
SEER_TOP: Final = -2
# M6.5 the Giant choice "smash the Gnome of seat s" (3-4 seats) as the core move SMASH0 - s.
SMASH0: Final = -10


def smash_move(seat: int) -> int:
    """The core move of the Giant choice ``{"smash": seat}`` (M6.5)."""
    return SMASH0 - seat


def smash_target(move: int) -> int:
    """The seat of a core Giant-choice move (inverse of :func:`smash_move`)."""
    return SMASH0 - move


def is_smash(move: int) -> bool:
    return move <= SMASH0

_GNOME0: Final = GNOME * 16

# Where a card goes after a phase-2 trick (T5.1 / M2.5f), indexed by code.
P2_WINNER: Final = 0
P2_LOSER: Final = 1
P2_GNOME_ROW: Final = 2
P2_TROLL_POOL: Final = 3
P2_DEST: list[int] = [P2_WINNER] * 256
for _v in range(16):
    P2_DEST[DWARF * 16 + _v] = P2_LOSER  # C6.4 Dwarves go to the loser
    P2_DEST[GNOME * 16 + _v] = P2_GNOME_ROW  # T3.1a won Gnomes go to the winner's row
    P2_DEST[TROLL * 16 + _v] = P2_TROLL_POOL  # T3.4b played Trolls go to the pool


class Core:
    """Complete game state (including secrets). Mutated in place by the core functions.

    Zones (C2, T3): ``hands``, ``deck`` (+ ``dpos``), ``prize``, ``followers``, ``score``,
    ``gnomes`` (Gnome rows), ``pool`` (Troll pool), ``discard``, ``smashed``.
    """

    __slots__ = (
        "dealt",
        "deck",
        "discard",
        "dpos",
        "factions",
        "first_leader",
        "followers",
        "gnomes",
        "hands",
        "has_doppel",
        "kind",
        "last",
        "leader",
        "moves",
        "peeked",
        "phase",
        "played",
        "pool",
        "prize",
        "public_followers",
        "score",
        "seats",
        "seer",
        "seer_next",
        "smash_left",
        "smash_seat",
        "smashed",
        "trick_no",
        "turn",
    )

    kind: str
    factions: tuple[int, ...]
    seats: int
    hands: list[list[int]]
    deck: tuple[int, ...]  # draw pile after the deal, top card first (never mutated)
    dpos: int  # index in ``deck`` of the current top card
    prize: int  # revealed prize card in phase 1 (C2.2), -1 if none
    followers: list[list[int]]
    # C2.4 cards everybody saw arrive in a seat's follower pile (prizes), still unplayed
    public_followers: list[list[int]]
    # T3.5 peeked[s]: cards s saw by a Seer peek that went to another seat, still unplayed
    peeked: list[list[int]]
    score: list[list[int]]
    gnomes: list[list[int]]
    pool: list[int]
    discard: list[int]
    smashed: list[int]
    phase: int
    trick_no: int  # tricks completed in the current phase
    leader: int
    turn: int  # seat to act, -1 once over
    played: list[int]  # cards of the trick in progress, in play order (seat = (leader+i) % seats)
    seer: int  # seat that owes a Seer choice (T3.5), else -1
    seer_next: int  # next leader of the trick whose Seer choice is pending
    # M6.5 a pending Giant choice (3-4 seats): the trick's winner, and the values of the trick's Giants
    # still to resolve in play order (the first has several candidates); -1 / [] if none
    smash_seat: int
    smash_left: list[int]
    has_doppel: bool
    last: dict[str, Any] | None  # public summary of the last completed trick (rich mode only)
    dealt: tuple[tuple[int, ...], ...]  # dealt hands (for the record)
    first_leader: int
    moves: list[tuple[int, int]]  # the move log [(seat, core move)] (rich mode only; JSON: serial.moves_json)

    def copy(self) -> Core:
        n = Core.__new__(Core)
        n.kind = self.kind
        n.factions = self.factions
        n.seats = self.seats
        n.hands = [h[:] for h in self.hands]
        n.deck = self.deck
        n.dpos = self.dpos
        n.prize = self.prize
        n.followers = [h[:] for h in self.followers]
        n.public_followers = [h[:] for h in self.public_followers]
        n.peeked = [h[:] for h in self.peeked]
        n.score = [h[:] for h in self.score]
        n.gnomes = [h[:] for h in self.gnomes]
        n.pool = self.pool[:]
        n.discard = self.discard[:]
        n.smashed = self.smashed[:]
        n.phase = self.phase
        n.trick_no = self.trick_no
        n.leader = self.leader
        n.turn = self.turn
        n.played = self.played[:]
        n.seer = self.seer
        n.seer_next = self.seer_next
        n.smash_seat = self.smash_seat
        n.smash_left = self.smash_left[:]
        n.has_doppel = self.has_doppel
        n.last = self.last
        n.dealt = self.dealt
        n.first_leader = self.first_leader
        n.moves = self.moves[:]
        return n


def new_core(
    kind: str,
    factions: tuple[int, ...],
    hands: list[list[int]],
    deck: list[int] | tuple[int, ...],
    first_leader: int,
) -> Core:
    """A game right after the deal (C3): hands dealt, ``deck`` top card first.

    Starts phase 1 by revealing the first prize (C5.2). Hands/deck of other sizes are accepted so
    that tests can build short situations; the phase ends when the hands are empty (C5.8).
    """
    st = Core.__new__(Core)
    seats = len(hands)
    st.kind = kind
    st.factions = tuple(factions)
    st.seats = seats
    st.hands = [list(h) for h in hands]
    st.deck = tuple(deck)
    st.dpos = 0
    st.prize = -1
    st.followers = [[] for _ in range(seats)]
    st.public_followers = [[] for _ in range(seats)]
    st.peeked = [[] for _ in range(seats)]
    st.score = [[] for _ in range(seats)]
    st.gnomes = [[] for _ in range(seats)]
    st.pool = []
    st.discard = []
    st.smashed = []
    st.phase = PHASE1
    st.trick_no = 0
    st.leader = first_leader  # C3.3
    st.turn = first_leader
    st.played = []
    st.seer = -1
    st.seer_next = -1
    st.smash_seat = -1
    st.smash_left = []
    st.has_doppel = DOPPELGANGER in st.factions
    st.last = None
    st.dealt = tuple(tuple(h) for h in hands)
    st.first_leader = first_leader
    st.moves = []
    if st.hands[first_leader]:
        _reveal_prize(st)  # C5.2
    else:  # pragma: no cover - degenerate test states only
        st.phase = OVER
        st.turn = -1
    return st


def _reveal_prize(st: Core) -> None:
    # C5.2 turn the top card face up as the prize.
    st.prize = st.deck[st.dpos]
    st.dpos += 1


# --------------------------------------------------------------------------- trick resolution


def follower_wins(lead: int, card: int) -> bool:
    """C4.4 for a 2-card trick (T2.2 for Claim 2; the Knight/Doppelganger cases cannot occur there).

    a. Goblin led, Knight followed -> follower wins (C6.2).
    b. the follower's card counts as following (led faction, or a Doppelganger, C6.5b) ->
       higher value wins, equal values -> leader.
    c. otherwise the leader wins.
    """
    lf = lead >> 4
    ff = card >> 4
    if lf == GOBLIN and ff == KNIGHT:
        return True
    return ff in (lf, DOPPELGANGER) and (card & 15) > (lead & 15)


_BEATERS: dict[int, frozenset[int]] = {}


def beaters(lead: int) -> frozenset[int]:
    """Every card code that wins a 2-card trick as the follower against ``lead``
    (:func:`follower_wins`, tabled once per lead)."""
    out = _BEATERS.get(lead)
    if out is None:
        out = _BEATERS[lead] = frozenset(c for c in ALL_CODES if follower_wins(lead, c))
    return out


def winning_index(cards: list[int]) -> int:
    """Index (play order) of the card that wins a trick of any size (M4.4; equals C4.4 for 2).

    a. Goblin led and Knights played -> highest Knight, earliest on equal values (M4.4a).
    b. otherwise the highest card that counts as led (led faction, or a Doppelganger played by a
       non-leader); equal values -> earliest played (M4.4b, generalising "ties to the leader").
    """
    lead = cards[0]
    lf = lead >> 4
    if lf == GOBLIN:
        best = -1
        for i in range(1, len(cards)):
            c = cards[i]
            if c >> 4 == KNIGHT and (best < 0 or (c & 15) > (cards[best] & 15)):
                best = i
        if best >= 0:
            return best
    best = 0
    bv = lead & 15
    for i in range(1, len(cards)):
        c = cards[i]
        f = c >> 4
        if f in (lf, DOPPELGANGER) and (c & 15) > bv:
            best = i
            bv = c & 15
    return best


def next_leader_index(cards: list[int], winner_index: int) -> int:
    """T3.3a / M4.6: whoever played the last Dragon (in play order) leads next, else the winner.
    A Doppelganger is never a Dragon (M2.5a)."""
    for i in range(len(cards) - 1, -1, -1):
        if cards[i] >> 4 == DRAGON:
            return i
    return winner_index


def score_undead(st: Core, winner: int, played: list[int]) -> tuple[list[int], list[int]]:
    """C5.6 / C6.3 / M5.3: every played Undead goes to the trick winner's score pile, the other
    played cards to the discard. Returns (undead, discarded)."""
    undead = [c for c in played if c >> 4 == UNDEAD]
    discarded = [c for c in played if c >> 4 != UNDEAD] if undead else played[:]
    st.score[winner].extend(undead)
    st.discard.extend(discarded)
    return undead, discarded


def _trick_cards(st: Core, played: list[int]) -> list[tuple[int, int]]:
    n = st.seats
    return [((st.leader + i) % n, c) for i, c in enumerate(played)]
