"""Level 2 "Knight" for 3 and 4 seats (claim-mix, claim-combined.md M3-M7).

The 2-seat Knight (:mod:`.knight`) is unchanged; this module is its N-seat counterpart. Results
are valued for this seat's *side*: its partnership with 4 seats (M3.4, piles combined M7.3), itself
with 3 seats (M7.1/M7.2). A side's chance is the same faction-coin estimate as for 2 players
(:func:`.evaluate.faction_prob`, my side's weighted cards against the strongest other side's, over
the cards still to come), combined over the 7 factions: 4 seats need a majority (4 of 7); 3 seats
use "at least 3 of 7" as the usual winning number of votes.

Every candidate card is followed by the rest of the trick, played by the later seats on a few
random placements of the unseen cards (:func:`.knowledge.sample_hidden_n`) with a simple policy,
and the trick is resolved by the engine's core (:func:`games.rules.claim.core.play`, which hands
3-4 seat tricks to :mod:`games.rules.claim.multi`). The later seats' policy: a seat whose side
already wins the trick plays its cheapest legal card (a partner never overtakes its partner);
otherwise it takes the trick with its cheapest winning card when it can. In phase 2 the last seat
of the trick instead picks the card that is best for its side after the engine resolved the trick.

Phase 1 (M5): the prize goes to the winner's side, every other seat draws one blind card (valued
as the average unseen card), played Undead score for the winner at once; the spent hand card is
charged with :func:`.evaluate.card_power`. So winning a trick the partner already wins only costs
a card, and a low card is kept back. Phase 2 (M6): the value comes from the resulting score
piles, Gnome rows and the cards still in play, as the engine distributed them: Dwarves go to the
lowest-ranked card of the side that lost (M6.3), Giants smash an opponent's Gnome (M6.5, never
the partner's: the Giant choice is valued like a card, by the position after the smash; in the
simulated tricks other winners choose with :func:`.evaluate.strongest_gnome_rival`), Trolls go to
the pool (M6.6).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from games.rules.cards import GNOME, SEER, UNDEAD
from games.rules.claim import core

from .evaluate import card_power, faction_prob, follower_weight, majority_prob, strongest_gnome_rival
from .knowledge import Knowledge, build_core_n, core_move, sample_hidden_n

SPEND = 0.045  # win-probability units per unit of card_power spent in phase 1 (as for 2 seats)
SAMPLES = 8  # placements of the unseen cards per decision
GNOME_ROW = 0.9  # a Gnome in a row may still be smashed (M6.5)


def need_votes(k: Knowledge) -> int:
    nf = len(k.factions)
    return nf // 2 + 1 if k.seats == 4 else 3


def side_value(k: Knowledge, counts: Sequence[Mapping[int, float]], rest: Mapping[int, float]) -> float:
    """P(my side wins) from weighted card counts per side and the cards still to be shared out."""
    mine = k.side(k.seat)
    probs = []
    for f in k.factions:
        me = counts[mine].get(f, 0.0)
        other = max(c.get(f, 0.0) for s, c in enumerate(counts) if s != mine)
        probs.append(faction_prob(me, other, rest.get(f, 0.0)))
    return majority_prob(probs, need_votes(k))


def n_sides(k: Knowledge) -> int:
    return 2 if k.seats == 4 else k.seats


# ------------------------------------------------------------------ the rest of a trick


def _winner_seat(st: core.Core, played: Sequence[int]) -> int:
    return (st.leader + core.winning_index(list(played))) % st.seats


def respond(st: core.Core, side: Any) -> int:
    """The simple policy of a later seat (``st.turn``) in the trick in progress."""
    opts = sorted(set(core.legal(st)), key=lambda c: (c & 15, c))
    me = st.turn
    if side(_winner_seat(st, st.played)) == side(me):
        return opts[0]
    idx = len(st.played)
    for c in opts:
        if core.winning_index([*st.played, c]) == idx:
            return c
    return opts[0]


# ------------------------------------------------------------------ phase 1


class Phase1ModelN:
    """Weighted faction counts per side after phase 1 as this seat sees them now."""

    def __init__(self, k: Knowledge) -> None:
        self.k = k
        fs = k.factions
        unseen = [c >> 4 for c in k.unseen]
        n = max(1, len(unseen))
        self.frac = {f: unseen.count(f) / n for f in fs}
        counts = [dict.fromkeys(fs, 0.0) for _ in range(n_sides(k))]
        mine = counts[k.side(k.seat)]
        for c in k.followers:
            mine[c >> 4] += follower_weight(c)
        for s in k.others:
            side = counts[k.side(s)]
            for c in k.known[s]:
                side[c >> 4] += follower_weight(c)
            hidden = max(0, k.follower_counts[s] - len(k.known[s]))
            for f in fs:
                side[f] += hidden * self.frac[f]
        for s in range(k.seats):
            for c in k.score[s]:
                counts[k.side(s)][c >> 4] += 1.2  # C6.3 Undead scored in phase 1 are final
        rest = {f: k.deck_count * self.frac[f] + 0.35 * sum(c[f] for c in counts) for f in fs}
        if UNDEAD in rest:
            rest[UNDEAD] += sum(1 for c in k.hand if c >> 4 == UNDEAD) + sum(
                k.hand_counts[s] for s in k.others) * self.frac.get(UNDEAD, 0.0)
        self.counts, self.rest = counts, rest

    def value(self, adds: Sequence[tuple[int, int, float]], blind: Sequence[int]) -> float:
        """Value after adding ``(side, faction, weight)`` cards and one blind deck card to each seat
        of ``blind`` (expected faction mix of the unseen cards)."""
        counts = [dict(c) for c in self.counts]
        rest = dict(self.rest)
        for side, f, w in adds:
            if f in counts[side]:
                counts[side][f] += w
                if f == UNDEAD:
                    rest[f] = max(0.0, rest[f] - 1)
        for s in blind:
            pile = counts[self.k.side(s)]
            for f, fr in self.frac.items():
                pile[f] += fr
                rest[f] = max(0.0, rest[f] - fr)
        return side_value(self.k, counts, rest)

    def trick_value(self, winner: int, played: Sequence[int], prize: int | None) -> float:
        """M5.2/M5.3: prize to the winner, a blind card to every other seat, Undead to the winner."""
        k = self.k
        ws = k.side(winner)
        adds = [(ws, UNDEAD, 1.2) for c in played if c >> 4 == UNDEAD]
        if prize is not None:
            adds.append((ws, prize >> 4, follower_weight(prize)))
        blind = [(winner + i) % k.seats for i in range(1, k.seats)]
        return self.value(adds, blind)


def seer_choice_value(k: Knowledge, take_top: bool) -> float:
    """M5.4: taking the peeked top card gives the prize to the left neighbour of the winner
    (this seat), keeping the prize gives it the top card; the others draw blind either way."""
    model = Phase1ModelN(k)
    prize, top = k.prize, k.peek
    assert prize is not None and top is not None
    mine, theirs = (top, prize) if take_top else (prize, top)
    left = (k.seat + 1) % k.seats
    adds = [(k.side(k.seat), UNDEAD, 1.2) for c in k.played if c >> 4 == UNDEAD]
    adds += [(k.side(k.seat), mine >> 4, follower_weight(mine)),
             (k.side(left), theirs >> 4, follower_weight(theirs))]
    blind = [(k.seat + i) % k.seats for i in range(2, k.seats)]
    return model.value(adds, blind)


def _samples(k: Knowledge, rng: random.Random) -> list[core.Core]:
    later = len(k.played) + 1 < k.seats  # somebody plays after this seat
    n = SAMPLES if later else 1
    out = []
    for _ in range(n):
        hands, foll, deck = sample_hidden_n(k, rng)
        out.append(build_core_n(k, hands, foll, deck))
    return out


def phase1_scores(k: Knowledge, legal: Sequence[int], rng: random.Random) -> dict[int, float]:
    model = Phase1ModelN(k)
    left = len(k.hand)
    bases = _samples(k, rng)
    side = k.side
    scores: dict[int, float] = {}
    cache: dict[tuple[int, int], float] = {}
    for c in sorted(set(legal)):
        total = 0.0
        for base in bases:
            played = [*k.played, c]
            hands = base.hands
            turn = (k.seat + 1) % k.seats
            st = base  # only ``played``/``turn`` are read by respond(): restore afterwards
            saved = (st.played, st.turn)
            while len(played) < k.seats:
                st.played, st.turn = played, turn
                r = respond(st, side)
                hands[turn].remove(r)
                played = [*played, r]
                turn = (turn + 1) % k.seats
            # put the sampled cards back (the same placement is reused for every candidate)
            for i in range(len(k.played) + 1, k.seats):
                hands[(k.leader + i) % k.seats].append(played[i])
            st.played, st.turn = saved
            w = _winner_seat(st, played)
            key = (w, sum(1 for x in played if x >> 4 == UNDEAD))
            v = cache.get(key)
            if v is None:
                v = model.trick_value(w, played, k.prize)
                cache[key] = v
            if w == k.seat and c >> 4 == SEER:
                v += 0.01  # M5.4 a Seer win lets us pick the better of two cards
            total += v
        scores[c] = total / len(bases) - SPEND * card_power(c, left)
    return scores


# ------------------------------------------------------------------ phase 2


def phase2_value(k: Knowledge, st: core.Core) -> float:
    """Vote estimate for my side from score piles, Gnome rows and the cards still in play."""
    fs = k.factions
    counts = [dict.fromkeys(fs, 0.0) for _ in range(n_sides(k))]
    rest = dict.fromkeys(fs, 0.0)
    for s in range(st.seats):
        side = counts[k.side(s)]
        for c in st.score[s]:
            side[c >> 4] += 1
        if st.gnomes[s]:
            side[GNOME] += GNOME_ROW * len(st.gnomes[s])
        for c in st.hands[s]:
            rest[c >> 4] += 1
    for c in st.played:
        rest[c >> 4] += 1
    for c in st.pool:
        rest[c >> 4] += 1
    return side_value(k, counts, rest)


def settle_smash(st: core.Core) -> None:
    """M6.5 a simulated Giant choice: the winner smashes the strongest Gnome rival's Gnome."""
    while st.smash_seat >= 0:
        cands = [core.smash_target(m) for m in core.legal(st)]
        core.giant_choice(st, strongest_gnome_rival(cands, st.gnomes, st.score))


def _finish_trick(k: Knowledge, st: core.Core) -> None:
    """Later seats complete the trick in progress: the simple policy, except that the last seat
    picks the card that is best for its side once the engine resolved the trick."""
    side = k.side
    n = st.seats
    settle_smash(st)
    while st.played:
        if len(st.played) == n - 1:
            me = st.turn
            best = None
            best_v = -1.0
            for r in sorted(set(core.legal(st))):
                s2 = st.copy()
                core.play(s2, r)
                settle_smash(s2)
                v = phase2_value(k, s2)
                if side(me) != side(k.seat):
                    v = 1.0 - v
                if v > best_v + 1e-12:
                    best, best_v = r, v
            assert best is not None
            core.play(st, best)
            settle_smash(st)
            return
        core.play(st, respond(st, side))
    settle_smash(st)


def phase2_scores(k: Knowledge, legal: Sequence[int], rng: random.Random) -> dict[int, float]:
    bases = _samples(k, rng)
    scores: dict[int, float] = {}
    for c in sorted(set(legal)):
        total = 0.0
        for base in bases:
            st = base.copy()
            core.play(st, c)
            _finish_trick(k, st)
            total += phase2_value(k, st)
        # keep strong cards for later tricks when the difference is negligible
        scores[c] = total / len(bases) - 0.0005 * (c & 15)
    return scores


def smash_scores(k: Knowledge, moves: Sequence[int], rng: random.Random) -> dict[int, float]:
    """M6.5 my Giant choice: each candidate valued by the position after its smash."""
    bases = _samples(k, rng)
    out: dict[int, float] = {}
    for m in moves:
        total = 0.0
        for base in bases:
            st = base.copy()
            core.apply_move(st, m)
            settle_smash(st)
            total += phase2_value(k, st)
        out[m] = total / len(bases)
    return out


# ------------------------------------------------------------------ entry point


def scores(k: Knowledge, cards: Sequence[int], rng: random.Random) -> dict[int, float]:
    return phase1_scores(k, cards, rng) if k.phase == 1 else phase2_scores(k, cards, rng)


def choose_k(k: Knowledge, legal: Sequence[Mapping[str, Any]], seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    if k.seer_pending == k.seat and k.peek is not None and k.prize is not None:
        want = "top" if seer_choice_value(k, True) > seer_choice_value(k, False) else "prize"
        for m in legal:
            if m.get("seer") == want:
                return dict(m)
    cards = [core_move(m) for m in legal]
    smash = any(core.is_smash(c) for c in cards)
    sc = smash_scores(k, cards, rng) if smash else scores(k, cards, rng)
    best = max(sc.values())
    pick = min(c for c, s in sc.items() if s >= best - 1e-12)  # ties: the lowest card / last seat
    return dict(legal[cards.index(pick)])
