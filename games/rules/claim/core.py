"""The fast rules core shared by Claim, Claim 2 and the 2-player mix.

Everything here works on integer card codes (:mod:`games.rules.cards`) and a mutable
:class:`Core` state. The rich, JSON-speaking interface (:mod:`games.rules.claim.engine`) copies a
state, validates the move and then calls :func:`play` / :func:`seer_choice`; random playouts
(:mod:`games.rules.claim.playout`) call the same functions directly on a private copy.

Clause ids refer to /work/shared/rules/claim.md (C), claim2.md (T) and claim-combined.md (M).
The functions here handle 2 seats (C, T, M2) directly; legal moves and turn order work for any
number of seats, and a complete trick of 3-4 seats (M4-M6) is handed to
:mod:`games.rules.claim.multi` (its [R] rulings are in :mod:`.multiplayer_rulings`). The state and
the trick arithmetic both use are :mod:`games.rules.claim.state` (its names are re-exported here).
"""

from __future__ import annotations

from games.rules.cards import DOPPELGANGER, DRAGON, GIANT, GNOME, GOBLIN, KNIGHT, SEER, TROLL
from games.rules.claim import multi
from games.rules.claim.state import (
    _GNOME0,
    OVER,
    P2_DEST,
    P2_GNOME_ROW,
    P2_LOSER,
    P2_TROLL_POOL,
    P2_WINNER,
    PHASE1,
    PHASE2,
    SEER_PRIZE,
    SEER_TOP,
    SMASH0,
    Core,
    _reveal_prize,
    _trick_cards,
    follower_wins,
    is_smash,
    new_core,
    next_leader_index,
    score_undead,
    smash_move,
    smash_target,
    winning_index,
)

__all__ = [
    "OVER",
    "P2_DEST",
    "P2_GNOME_ROW",
    "P2_LOSER",
    "P2_TROLL_POOL",
    "P2_WINNER",
    "PHASE1",
    "PHASE2",
    "SEER_PRIZE",
    "SEER_TOP",
    "SMASH0",
    "Core",
    "apply_move",
    "follower_wins",
    "giant_choice",
    "is_smash",
    "legal",
    "new_core",
    "next_leader_index",
    "play",
    "score_undead",
    "seer_choice",
    "smash_move",
    "smash_target",
    "winning_index",
]


# --------------------------------------------------------------------------- legal moves


def legal(st: Core) -> list[int]:
    """The legal core moves of the seat to act (``st.turn``). May return ``st``'s own hand list:
    callers must not mutate the result."""
    if st.seer >= 0:
        return [SEER_PRIZE, SEER_TOP]  # T3.5b
    if st.smash_seat >= 0:
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


def play(st: Core, card: int, rec: bool = False) -> None:
    """The seat ``st.turn`` plays ``card`` (must be legal; not checked here).

    With ``rec`` a public summary of a completed trick is stored in ``st.last``.
    """
    seat = st.turn
    st.hands[seat].remove(card)
    if st.phase != PHASE1:
        # C2.4 bookkeeping for views: a known card of this hand is now played (public)
        public = st.public_followers[seat]
        if card in public:
            public.remove(card)
        else:
            for other, known in enumerate(st.peeked):  # what another seat saw going into this hand
                if card in known and other != seat:
                    known.remove(card)
    played = st.played
    played.append(card)
    if len(played) < st.seats:
        st.turn = (seat + 1) % st.seats  # M3.6 clockwise
        return
    if st.seats != 2:
        # 3-4 seats (M4-M6): resolved in a separate module; the 2-seat path below is unchanged.
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
        multi.seer_choice_done(st, take_top, rec)  # M5.4
        return
    winner = st.seer
    nxt = st.seer_next
    st.seer = -1
    st.seer_next = -1
    _finish_phase1(st, winner, nxt, True, take_top, rec)


def giant_choice(st: Core, target: int, rec: bool = False) -> None:
    """M6.5 the pending Giant winner smashes the matching Gnome of ``target`` (3-4 seats)."""
    multi.giant_choice_done(st, target, rec)


def apply_move(st: Core, m: int, rec: bool = False) -> None:
    """Any core move: a card code, a Seer choice (T3.5b) or a Giant choice (M6.5)."""
    if m >= 0:
        play(st, m, rec)
    elif is_smash(m):
        giant_choice(st, smash_target(m), rec)
    else:
        seer_choice(st, m == SEER_TOP, rec)


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
