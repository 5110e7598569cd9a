"""The fast rules core shared by Claim, Claim 2 and the 2-player mix.

Everything here works on integer card codes (:mod:`games.rules.cards`) and a mutable
:class:`Core` state. The rich, JSON-speaking interface (:mod:`games.rules.claim.engine`) copies a
state, validates the move and then calls :func:`play` / :func:`seer_choice`; random playouts
(:mod:`games.rules.claim.playout`) call the same functions directly on a private copy.

Clause ids refer to /work/shared/rules/claim.md (C), claim2.md (T) and claim-combined.md (M).
The functions here handle 2 seats (C, T, M2) directly; legal moves and turn order work for any
number of seats, and a complete trick of 3-4 seats (M4-M6) is handed to
:mod:`games.rules.claim.multi` (its [R] rulings are in :mod:`.multiplayer_rulings`).
"""

from __future__ import annotations

from typing import Any

from games.rules.cards import (
    DOPPELGANGER,
    DRAGON,
    DWARF,
    GIANT,
    GNOME,
    GOBLIN,
    KNIGHT,
    SEER,
    TROLL,
    UNDEAD,
)

# Phases.
PHASE1, PHASE2, OVER = 1, 2, 3

# The two Seer choices (T3.5b) as core "moves".
SEER_PRIZE, SEER_TOP = -1, -2
# M6.5 the Giant choice "smash the Gnome of seat s" (3-4 seats) as the core move SMASH0 - s.
SMASH0 = -10


def smash_move(seat: int) -> int:
    """The core move of the Giant choice ``{"smash": seat}`` (M6.5)."""
    return SMASH0 - seat


def smash_target(move: int) -> int:
    """The seat of a core Giant-choice move (inverse of :func:`smash_move`)."""
    return SMASH0 - move


def is_smash(move: int) -> bool:
    return move <= SMASH0

_GNOME0 = GNOME * 16

# Where a card goes after a phase-2 trick (T5.1 / M2.5f), indexed by code.
P2_WINNER, P2_LOSER, P2_GNOME_ROW, P2_TROLL_POOL = 0, 1, 2, 3
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
    moves: list[dict[str, Any]]  # the move log [{"seat": s, "move": {...}}] (rich mode only)

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


# --------------------------------------------------------------------------- legal moves


def legal(st: Core) -> list[int]:
    """The legal core moves of the seat to act (``st.turn``). May return ``st``'s own hand list:
    callers must not mutate the result."""
    if st.seer >= 0:
        return [SEER_PRIZE, SEER_TOP]  # T3.5b
    if st.smash_seat >= 0:
        from games.rules.claim import multi

        return [smash_move(s) for s in multi.smash_candidates(st)]  # M6.5 the winner chooses
    hand = st.hands[st.turn]
    played = st.played
    if not played:
        return hand  # C4.1 the leader plays any card
    lf = played[0] >> 4
    if lf == DOPPELGANGER:
        # C4.3 a Doppelganger lead must be followed by a Doppelganger if possible
        opts = [c for c in hand if c >> 4 == DOPPELGANGER]
        return opts or hand
    opts = [c for c in hand if c >> 4 == lf]
    if not opts:
        return hand  # C4.2b cannot follow: any card
    if st.has_doppel:
        # C4.2a / C6.5a a Doppelganger may replace the led faction
        opts += [c for c in hand if c >> 4 == DOPPELGANGER]
    return opts


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


def play(st: Core, card: int, rec: bool = False) -> None:
    """The seat ``st.turn`` plays ``card`` (must be legal; not checked here).

    With ``rec`` a public summary of a completed trick is stored in ``st.last``.
    """
    seat = st.turn
    st.hands[seat].remove(card)
    if st.phase != PHASE1:
        # C2.4 bookkeeping for views: a known card of this hand is now played (public)
        if card in st.public_followers[seat]:
            st.public_followers[seat].remove(card)
        else:
            for other in range(st.seats):
                known = st.peeked[other]  # what another seat saw going into this hand
                if other != seat and card in known:
                    known.remove(card)
    played = st.played
    played.append(card)
    if len(played) < st.seats:
        st.turn = (seat + 1) % st.seats  # M3.6 clockwise
        return
    if st.seats != 2:
        # 3-4 seats (M4-M6): resolved in a separate module; the 2-seat path below is unchanged.
        from games.rules.claim import multi

        multi.complete_trick(st, rec)
        return
    # The trick is complete. 2 seats: C4.4 (M4.4 for more seats, see winning_index).
    lead = played[0]
    ff = card >> 4
    leader = st.leader
    follower = 1 - leader
    if (lead >> 4 == GOBLIN and ff == KNIGHT) or (
        (ff == lead >> 4 or ff == DOPPELGANGER) and (card & 15) > (lead & 15)
    ):
        winner = follower
    else:
        winner = leader
    # T3.3 next leader: the last Dragon played (follower's card is the later one), else winner.
    if ff == DRAGON:
        nxt = follower
    elif lead >> 4 == DRAGON:
        nxt = leader
    else:
        nxt = winner
    if st.phase == PHASE1:
        # T3.5a the winner won with a Seer (their own played card is a real Seer) -> choice.
        wcard = card if winner == follower else lead
        if wcard >> 4 == SEER:
            st.seer = winner
            st.seer_next = nxt
            st.turn = winner  # the Seer choice is the winner's explicit move
            return
        _finish_phase1(st, winner, nxt, False, False, rec)
    else:
        _finish_phase2(st, winner, nxt, rec)


def seer_choice(st: Core, take_top: bool, rec: bool = False) -> None:
    """T3.5b the pending Seer winner keeps the prize or takes the (peeked) top card."""
    if st.seats != 2:
        from games.rules.claim import multi

        multi.seer_choice_done(st, take_top, rec)  # M5.4
        return
    winner = st.seer
    nxt = st.seer_next
    st.seer = -1
    st.seer_next = -1
    _finish_phase1(st, winner, nxt, True, take_top, rec)


def giant_choice(st: Core, target: int, rec: bool = False) -> None:
    """M6.5 the pending Giant winner smashes the matching Gnome of ``target`` (3-4 seats)."""
    from games.rules.claim import multi

    multi.giant_choice_done(st, target, rec)


def apply_move(st: Core, m: int, rec: bool = False) -> None:
    """Any core move: a card code, a Seer choice (T3.5b) or a Giant choice (M6.5)."""
    if m >= 0:
        play(st, m, rec)
    elif is_smash(m):
        giant_choice(st, smash_target(m), rec)
    else:
        seer_choice(st, m == SEER_TOP, rec)


def score_undead(st: Core, winner: int, played: list[int]) -> tuple[list[int], list[int]]:
    """C5.6 / C6.3 / M5.3: every played Undead goes to the trick winner's score pile, the other
    played cards to the discard. Returns (undead, discarded)."""
    undead = [c for c in played if c >> 4 == UNDEAD]
    discarded = [c for c in played if c >> 4 != UNDEAD]
    st.score[winner].extend(undead)
    st.discard.extend(discarded)
    return undead, discarded


def _finish_phase1(st: Core, winner: int, nxt: int, seer: bool, take_top: bool, rec: bool) -> None:
    """Phase-1 end of trick after the winner is known (M2.5e / T5.2 / C5.7 order)."""
    loser = 1 - winner  # M5.2 would give one card to each other seat, clockwise
    prize = st.prize
    top = st.deck[st.dpos]  # C5.8 / T3.5d a card is always there
    st.dpos += 1
    if take_top:
        # T3.5b winner takes the top card, the loser receives the face-up prize
        st.followers[winner].append(top)
        st.followers[loser].append(prize)
        st.public_followers[loser].append(prize)  # T3.5c the prize's destination is public
    else:
        # C5.4 prize to the winner; C5.5 the loser draws blind
        st.followers[winner].append(prize)
        st.public_followers[winner].append(prize)
        st.followers[loser].append(top)
        if seer:
            st.peeked[winner].append(top)  # T3.5b the Seer winner has seen the loser's card
    played = st.played
    # C5.6 / C6.3 every played Undead goes to the winner's score pile; the rest is discarded.
    undead, discarded = score_undead(st, winner, played)
    st.trick_no += 1
    if rec:
        st.last = {
            "phase": 1,
            "trick": st.trick_no,
            "cards": _trick_cards(st, played),
            "winner": winner,
            "next_leader": nxt,
            "prize": prize,
            "prize_to": loser if take_top else winner,
            "blind_draw": None if take_top else loser,
            "seer": ({"seat": winner, "choice": "top" if take_top else "prize"} if seer else None),
            "undead_scored": undead,
            "discarded": discarded,
        }
    st.played = []
    st.leader = nxt  # C4.5 / T3.3
    st.turn = nxt
    if st.hands[nxt]:
        _reveal_prize(st)  # C5.2 next trick
    else:
        # C5.8 hands empty -> C7.1 phase 2: the follower piles become the hands.
        # C7.2 / T3.3d the next leader (winner or Dragon player) leads phase-2 trick 1.
        st.prize = -1
        st.phase = PHASE2
        st.trick_no = 0
        st.hands = st.followers
        st.followers = [[] for _ in range(st.seats)]


def _finish_phase2(st: Core, winner: int, nxt: int, rec: bool) -> None:
    """Phase-2 end of trick (T5.1 / M2.5f order)."""
    loser = 1 - winner  # M6.3 would use the lowest-ranked card's player
    played = st.played
    sw = st.score[winner]
    pool = st.pool
    gnome_row = st.gnomes[winner]
    dest = P2_DEST
    to_loser: list[int] = []
    for c in played:
        d = dest[c]
        if d == P2_WINNER:
            sw.append(c)  # C7.4 (Doppelgangers included, C6.5c / M2.5a)
        elif d == P2_LOSER:
            st.score[loser].append(c)  # C6.4 every Dwarf of the trick goes to the loser
            to_loser.append(c)
        elif d == P2_GNOME_ROW:
            gnome_row.append(c)  # T3.1a
        else:
            pool.append(c)  # T3.4b played Trolls go to the pool first
    last_trick = not st.hands[0]  # all hands are empty after the last trick
    pickup: list[int] = []
    if pool:
        if last_trick:
            pickup = pool[:]  # T3.4d the last trick's winner takes every remaining Troll
            pool.clear()
        else:
            m = max(pool)  # T3.4b/c the single highest Troll of the pool
            pool.remove(m)
            pickup = [m]
        sw.extend(pickup)
    smashes: list[int] = []
    for c in played:
        if c >> 4 == GIANT:
            # T3.2a/c each Giant collected smashes one opponent Gnome of the same value (auto, T3.2e)
            g = _GNOME0 + (c & 15)
            row = st.gnomes[loser]
            if g in row:
                row.remove(g)
                st.smashed.append(g)
                smashes.append(g)
    st.trick_no += 1
    if rec:
        st.last = {
            "phase": 2,
            "trick": st.trick_no,
            "cards": _trick_cards(st, played),
            "winner": winner,
            "next_leader": nxt,
            "dwarves_to_loser": to_loser,
            "gnomes_to_row": [c for c in played if c >> 4 == GNOME],
            "trolls_to_pool": [c for c in played if c >> 4 == TROLL],
            "troll_pickup": pickup,
            "smashed": smashes,
        }
    st.played = []
    if last_trick:
        # T3.1b remaining Gnomes are scored; T3.3d a last-trick Dragon has no effect.
        for s in range(st.seats):
            if st.gnomes[s]:
                st.score[s].extend(st.gnomes[s])
                st.gnomes[s] = []
        st.phase = OVER
        st.turn = -1
        st.leader = nxt
    else:
        st.leader = nxt
        st.turn = nxt


def _trick_cards(st: Core, played: list[int]) -> list[tuple[int, int]]:
    n = st.seats
    return [((st.leader + i) % n, c) for i, c in enumerate(played)]
