"""What one seat knows in a Claim-family game, read from its view only (never the true state).

:func:`read_view` turns a seat's view (``rules.view(state, seat)``) into integer card codes
(:mod:`games.rules.cards`) and works out the *unseen* cards: the whole deck minus every card this
seat has seen (its hand and follower pile, all public zones, prizes it watched go to the opponent,
cards it peeked with a Seer, the current trick and prize). In phase 1 the unseen cards are split
between the opponent's hand, the opponent's blind follower draws and the deck; in phase 2 (C7) the
only unseen zone is the opponent's hand, so the position is perfect information.

:func:`build_core` makes an engine core state (:class:`games.rules.claim.core.Core`) for one
assignment of the unseen cards, using the engine's public constructor ``core.new_core`` and then
setting the zones. The AI resolves tricks only through the engine's core functions.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from games.rules.cards import FACTION_ALIASES, deck_for, parse_card
from games.rules.claim import core
from games.rules.claim.core import PHASE1, PHASE2, Core


def _codes(ids: Sequence[str]) -> list[int]:
    return [parse_card(c) for c in ids]


@dataclass
class Knowledge:
    kind: str
    seat: int
    opp: int
    factions: tuple[int, ...]
    phase: int  # 1 or 2
    trick_no: int  # tricks completed in this phase
    leader: int
    to_act: int
    hand: list[int]
    followers: list[int]  # own follower pile (phase 1)
    public_followers: list[list[int]]
    peeked: list[int]  # cards this seat peeked that went to the opponent
    peek: int | None  # the top card, when this seat owes a Seer choice
    hand_counts: list[int]
    follower_counts: list[int]
    deck_count: int
    prize: int | None
    played: list[int]  # current trick in play order (leader first)
    seer_pending: int | None
    score: list[list[int]]
    gnomes: list[list[int]]
    pool: list[int]
    discard: list[int]
    smashed: list[int]
    unseen: list[int] = field(default_factory=list)  # sorted multiset of unseen codes
    totals: Counter[int] = field(default_factory=Counter)  # cards per faction in the game
    seats: int = 2
    # 3-4 seats: cards this seat knows in another seat's follower pile (phase 1) / hand (phase 2):
    # the public prizes it received (C2.4) and, for the left neighbour, this seat's Seer peeks (M5.4)
    known: list[list[int]] = field(default_factory=list)
    # factions each seat is publicly known to lack in its hand this phase (the view's ``voids``, C4.2b/C4.3)
    voids: list[frozenset[int]] = field(default_factory=list)
    # M6.5 a pending Giant choice (3-4 seats): the view's ``smash_pending`` ({seat, gnome, candidates, later})
    smash_pending: dict[str, Any] | None = None

    def smash_values(self) -> list[int]:
        """The values of the Giants still to resolve in the pending Giant choice (M6.5), first = now."""
        p = self.smash_pending
        if not p:
            return []
        return [parse_card(p["gnome"]) & 15, *(parse_card(g) & 15 for g in p.get("later", ()))]

    @property
    def partner(self) -> int | None:
        """M3.4 the partner with 4 seats (diagonal seat), else ``None``."""
        return (self.seat + 2) % 4 if self.seats == 4 else None

    def side(self, s: int) -> int:
        """Who shares a result with seat ``s``: the team (seat parity) with 4 seats, else the seat."""
        return s % 2 if self.seats == 4 else s

    @property
    def others(self) -> list[int]:
        """Every other seat, clockwise from this seat's left."""
        return [(self.seat + i) % self.seats for i in range(1, self.seats)]

    @property
    def opp_hidden_followers(self) -> int:
        """Opponent follower cards this seat has never seen (phase 1)."""
        return self.follower_counts[self.opp] - len(self.public_followers[self.opp]) - len(self.peeked)

    def opp_known_followers(self) -> list[int]:
        return self.public_followers[self.opp] + self.peeked


def read_view(view: Mapping[str, Any]) -> Knowledge:
    if int(view.get("seats", 2)) != 2:
        return read_view_n(view)
    seat = int(view["seat"])
    factions = tuple(sorted(FACTION_ALIASES[f] for f in view["factions"]))
    k = _knowledge(view, seat, 2, factions)
    full = Counter(deck_for(factions))
    k.totals = Counter(c >> 4 for c in full.elements())
    seen = Counter(k.hand)
    seen.update(k.discard)
    seen.update(k.score[0])
    seen.update(k.score[1])
    seen.update(k.gnomes[0])
    seen.update(k.gnomes[1])
    seen.update(k.pool)
    seen.update(k.smashed)
    seen.update(k.played)
    if k.phase == 1:
        seen.update(k.followers)
        seen.update(k.public_followers[k.opp])
        seen.update(k.peeked)
        if k.prize is not None:
            seen[k.prize] += 1
        if k.peek is not None:
            seen[k.peek] += 1
    full.subtract(seen)
    k.unseen = sorted(full.elements())
    return k


def _knowledge(view: Mapping[str, Any], seat: int, n: int, factions: tuple[int, ...]) -> Knowledge:
    """The zones of a view as card codes (shared by the 2-seat and the N-seat readers);
    ``opp`` is the left neighbour (the opponent with 2 seats)."""
    score = [[parse_card(c) for f in view["score"][s] for c in view["score"][s][f]] for s in range(n)]
    return Knowledge(
        kind=view["game"],
        seat=seat,
        opp=(seat + 1) % n,
        factions=factions,
        phase=int(view["phase"]),
        trick_no=int(view["trick"]) - 1,
        leader=int(view["leader"]),
        to_act=int(view["to_act"][0]) if view["to_act"] else -1,
        hand=_codes(view["hand"]),
        followers=_codes(view.get("followers", [])),
        public_followers=[_codes(p) for p in view["public_followers"]],
        peeked=_codes(view.get("peeked_cards", [])),
        peek=parse_card(view["peek"]) if view.get("peek") else None,
        hand_counts=list(view["hand_counts"]),
        follower_counts=list(view["follower_counts"]),
        deck_count=int(view["deck_count"]),
        prize=parse_card(view["prize"]) if view.get("prize") else None,
        played=[parse_card(t["card"]) for t in view["current_trick"]],
        seer_pending=view.get("seer_pending"),
        score=score,
        gnomes=[_codes(r) for r in view["gnome_rows"]],
        pool=_codes(view["troll_pool"]),
        discard=_codes(view["discard"]),
        smashed=_codes(view["smashed"]),
        seats=n,
        voids=[frozenset(FACTION_ALIASES[f] for f in v) for v in view.get("voids") or [[]] * n],
        smash_pending=view.get("smash_pending"),
    )


def read_view_n(view: Mapping[str, Any]) -> Knowledge:
    """3-4 seats (claim-combined.md M3-M7). ``unseen`` is every card whose place this seat does not
    know: all cards - own hand and follower pile - every public zone (score piles, Gnome rows,
    Troll pool, discard, smashed, current trick, prize, peeked top card) - the known cards of the
    other seats (``known``: public prizes, and this seat's Seer peeks, which always went to its
    left neighbour, M5.4). ``opp`` is the left neighbour (only used by 2-seat code paths)."""
    seat = int(view["seat"])
    n = int(view["seats"])
    factions = tuple(sorted(FACTION_ALIASES[f] for f in view["factions"]))
    k = _knowledge(view, seat, n, factions)
    k.known = [[] if s == seat else k.public_followers[s][:] for s in range(n)]
    k.known[(seat + 1) % n] += k.peeked
    full = Counter(deck_for(factions))
    k.totals = Counter(c >> 4 for c in full.elements())
    seen = Counter(k.hand)
    seen.update(k.followers)
    for s in range(n):
        seen.update(k.score[s])
        seen.update(k.gnomes[s])
        seen.update(k.known[s])
    for zone in (k.discard, k.pool, k.smashed, k.played):
        seen.update(zone)
    if k.phase == 1 and k.prize is not None:
        seen[k.prize] += 1
    if k.phase == 1 and k.peek is not None:
        seen[k.peek] += 1
    full.subtract(seen)
    k.unseen = sorted(full.elements())
    return k


def sample_hidden_n(k: Knowledge, rng: random.Random) -> tuple[list[list[int]], list[list[int]], list[int]]:
    """3-4 seats: one uniformly random placement of the unseen cards consistent with the view:
    ``(hands, followers, deck)`` for every seat (this seat's own zones as they are; the other
    seats' known cards kept in place). Phase 1 fills each other seat's hand (``hand_counts``) and
    hidden follower draws, the rest is the deck below the prize (and below a peeked top card);
    phase 2 fills each other hand up to its count."""
    cards = k.unseen[:]
    rng.shuffle(cards)
    n = k.seats
    hands: list[list[int]] = [[] for _ in range(n)]
    foll: list[list[int]] = [[] for _ in range(n)]
    hands[k.seat] = k.hand[:]
    voids = k.voids or [frozenset()] * n
    # hands first, the seats with the most public voids first: each takes the first unseen cards it can hold
    for s in sorted(k.others, key=lambda s: -len(voids[s])):
        nh = k.hand_counts[s] if k.phase == 1 else max(0, k.hand_counts[s] - len(k.known[s]))
        fits = [c for c in cards if c >> 4 not in voids[s]] if voids[s] else cards
        if len(fits) < nh:
            fits = cards  # cannot happen with a consistent view; stay total
        took = fits[:nh]
        hands[s] = took if k.phase == 1 else k.known[s] + took
        for c in took:
            cards.remove(c)
    pos = 0
    if k.phase == 1:
        for s in k.others:
            nf = max(0, k.follower_counts[s] - len(k.known[s]))
            foll[s] = k.known[s] + cards[pos:pos + nf]
            pos += nf
        foll[k.seat] = k.followers[:]
    return hands, foll, cards[pos:]


def build_core_n(k: Knowledge, hands: list[list[int]], followers: list[list[int]],
                 deck: list[int]) -> Core:
    """3-4 seats: an engine core state for one placement (see :func:`sample_hidden_n`)."""
    n = k.seats
    if k.phase == 1:
        top = [k.prize] if k.prize is not None else []
        if k.peek is not None:
            top.append(k.peek)  # M5.4 the Seer winner knows the top card
        st = core.new_core(k.kind, k.factions, [h[:] for h in hands], top + list(deck) or [0],
                           k.leader)
        st.prize = k.prize if k.prize is not None else -1
        st.dpos = 1 if k.prize is not None else 0
        st.followers = [f[:] for f in followers]
        st.phase = PHASE1
    else:
        st = core.new_core(k.kind, k.factions, [h[:] for h in hands], [0], k.leader)
        st.prize = -1
        st.phase = PHASE2
    st.score = [s[:] for s in k.score]
    st.gnomes = [g[:] for g in k.gnomes]
    st.pool = k.pool[:]
    st.discard = k.discard[:]
    st.smashed = k.smashed[:]
    st.trick_no = k.trick_no
    st.leader = k.leader
    st.played = k.played[:]
    st.turn = k.to_act
    if k.seer_pending is not None:
        st.seer = int(k.seer_pending)
        played = k.played
        nxt = core.next_leader_index(played, core.winning_index(played))
        st.seer_next = (k.leader + nxt) % n
    if k.smash_pending:  # M6.5 the trick is complete; its winner owes the Giant choice
        st.smash_seat = int(k.smash_pending["seat"])
        st.smash_left = k.smash_values()
    return st


def sample_hidden(k: Knowledge, rng: random.Random) -> tuple[list[int], list[int], list[int]]:
    """One uniformly random assignment of the unseen cards (phase 1) consistent with the view, the
    opponent's public voids included: (opponent hand, opponent hidden followers, deck top first, without
    the prize and without a card this seat peeked)."""
    cards = k.unseen[:]
    rng.shuffle(cards)
    nh = k.hand_counts[k.opp]
    nf = max(0, k.opp_hidden_followers)
    void = k.voids[k.opp] if k.voids else frozenset()
    if void:  # the opponent's hand holds none of its void factions: they are among the other unseen cards
        fits = [c for c in cards if c >> 4 not in void]
        if len(fits) >= nh:
            hand = fits[:nh]
            rest = fits[nh:] + [c for c in cards if c >> 4 in void]
            rng.shuffle(rest)
            return hand, rest[:nf], rest[nf:]
    hand = cards[:nh]
    foll = cards[nh:nh + nf]
    deck = cards[nh + nf:]
    return hand, foll, deck


def opponent_hand_phase2(k: Knowledge) -> list[int]:
    """Phase 2 is perfect information: the opponent's hand is every unseen card."""
    return k.unseen[:]


def build_core(k: Knowledge, opp_hand: list[int], opp_followers: list[int] | None = None,
               deck: list[int] | None = None) -> Core:
    """An engine core state consistent with ``k`` for one assignment of the unseen cards."""
    hands: list[list[int]] = [[], []]
    hands[k.seat] = k.hand[:]
    hands[k.opp] = list(opp_hand)
    if k.phase == 1:
        top = [k.prize] if k.prize is not None else []
        if k.peek is not None:
            top.append(k.peek)  # T3.5a the Seer winner knows the top card
        st = core.new_core(k.kind, k.factions, hands, top + list(deck or []), k.leader)
        # new_core reveals the prize only when the leader still holds cards: set it explicitly
        st.prize = k.prize if k.prize is not None else -1
        st.dpos = 1 if k.prize is not None else 0
        foll: list[list[int]] = [[], []]
        foll[k.seat] = k.followers[:]
        foll[k.opp] = k.opp_known_followers() + list(opp_followers or [])
        st.followers = foll
        st.phase = PHASE1
    else:
        st = core.new_core(k.kind, k.factions, hands, [0], k.leader)
        st.prize = -1
        st.phase = PHASE2
    st.score = [k.score[0][:], k.score[1][:]]
    st.gnomes = [k.gnomes[0][:], k.gnomes[1][:]]
    st.pool = k.pool[:]
    st.discard = k.discard[:]
    st.smashed = k.smashed[:]
    st.trick_no = k.trick_no
    st.leader = k.leader
    st.played = k.played[:]
    st.turn = k.to_act
    if k.seer_pending is not None:
        st.seer = int(k.seer_pending)
        played = k.played
        st.seer_next = core.next_leader_index(played, core.winning_index(played))
        st.seer_next = (k.leader + st.seer_next) % 2
    return st


def core_move(move: Mapping[str, Any]) -> int:
    if "smash" in move:
        return core.smash_move(int(move["smash"]))  # M6.5
    if "seer" in move:
        return core.SEER_TOP if move["seer"] == "top" else core.SEER_PRIZE
    return parse_card(move["play"])


def apply_core(st: Core, m: int) -> None:
    """Apply a core move (card, Seer choice or Giant choice) with the engine's core functions."""
    core.apply_move(st, m)


__all__ = ["PHASE1", "PHASE2", "Knowledge", "apply_core", "build_core", "build_core_n", "core_move",
           "opponent_hand_phase2", "read_view", "read_view_n", "sample_hidden", "sample_hidden_n"]
