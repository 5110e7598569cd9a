"""Level 2 "Knight": a hand-written heuristic player for Claim, Claim 2 and the 2-player mix.

Every candidate move is scored with the vote estimate of :mod:`.evaluate` ("probability of
winning >= 3 factions") after the move's likely outcome, minus the future value of the hand card
it spends. Tricks are resolved with the engine's core functions, never re-implemented.

Phase 1 (C5): a prize is worth what it adds to the factions this seat can still win (followers
count towards phase 2, played Undead score at once, C6.3); the loser's blind draw is worth the
average unseen card. As follower the outcome is certain; as leader the chance that the opponent
holds a legal card that beats the lead is estimated from samples of the unseen cards. Powers:
Seer peek choice compares the two distributions (T3.5b), Undead leads/captures are valued as
direct votes, Knights are kept for Goblin leads and Doppelgangers as wild followers (card_power).

Phase 2 (C7): the opponent's hand is deduced exactly (perfect information), so the Knight does a
one-trick minimax (lead -> opponent's best reply) over core-resolved tricks; this values Dwarf
dumping (C6.4), Troll pool pickups (T3.4), Gnome rows and Giant smashes (T3.1/T3.2) by the score
piles they produce, and the Dragon lead control (T3.3) by a bonus for holding the lead. Once both
hands hold at most ``EXACT_CARDS`` cards the rest of phase 2 is solved exactly (:mod:`.solver`,
within ``EXACT_NODES``): Claim 2's Troll pool, Gnome rows and Giant smashes play out over several
tricks, which the one-trick lookahead misjudged.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from games.rules.cards import GNOME, SEER, UNDEAD
from games.rules.claim import core

from . import knight_n
from .evaluate import card_power, follower_weight, gnome_risk, win_prob
from .knowledge import Knowledge, build_core, core_move, opponent_hand_phase2, read_view, sample_hidden
from .solver import Budget, Solver

SPEND = 0.045  # win-probability units per unit of card_power spent in phase 1
BEAT_RATE = 0.85  # how often an opponent able to beat a lead is assumed to do it
SAMPLES = 24
LEAD_BONUS = 0.012  # phase 2: value of leading the next trick (Dragon lead control, T3.3)
EXACT_CARDS = 12  # phase 2: solve exactly once both hands hold at most this many cards together
EXACT_NODES = 3000  # ... within this many search nodes (a few ms), else the one-trick heuristic


# ------------------------------------------------------------------ phase 1 evaluation


class Phase1Model:
    """Weighted faction counts for both seats after phase 1 as this seat sees them now."""

    def __init__(self, k: Knowledge) -> None:
        self.k = k
        fs = k.factions
        unseen = Counter(c >> 4 for c in k.unseen)
        n = max(1, len(k.unseen))
        self.frac = {f: unseen[f] / n for f in fs}
        me = dict.fromkeys(fs, 0.0)
        opp = dict.fromkeys(fs, 0.0)
        for c in k.followers:
            me[c >> 4] += follower_weight(c)
        for c in k.opp_known_followers():
            opp[c >> 4] += follower_weight(c)
        for c in k.score[k.seat]:
            me[c >> 4] += 1.2  # C6.3 Undead scored in phase 1 are final
        for c in k.score[k.opp]:
            opp[c >> 4] += 1.2
        hidden = max(0, k.opp_hidden_followers)
        rest = dict.fromkeys(fs, 0.0)
        deck = k.deck_count
        for f in fs:
            opp[f] += hidden * self.frac[f]
            rest[f] = deck * self.frac[f] + 0.35 * (me[f] + opp[f])  # phase 2 still reshuffles
        # C6.3 Undead still in hands will be scored by someone in phase 1
        rest[UNDEAD] = rest.get(UNDEAD, 0.0) + sum(1 for c in k.hand if c >> 4 == UNDEAD) \
            + k.hand_counts[k.opp] * self.frac.get(UNDEAD, 0.0)
        self.me, self.opp, self.rest = me, opp, rest

    def value(self, me_add: Sequence[tuple[int, float]] = (), opp_add: Sequence[tuple[int, float]] = (),
              me_blind: bool = False, opp_blind: bool = False) -> float:
        """Estimate after adding cards; a blind draw (C5.5) is averaged over its possible factions."""
        if me_blind or opp_blind:
            total = 0.0
            for f, fr in self.frac.items():
                if fr <= 0:
                    continue
                extra = [(f, 1.0)]  # weight 1.0 marks a card that came from the deck
                total += fr * self.value([*me_add, *(extra if me_blind else [])],
                                         [*opp_add, *(extra if opp_blind else [])])
            return total
        me = dict(self.me)
        opp = dict(self.opp)
        rest = dict(self.rest)
        # the prize is already face up (not part of ``rest``); blind draws and played Undead are
        for f, w in me_add:
            if f in me:
                me[f] += w
                if w == 1.0 or f == UNDEAD:
                    rest[f] = max(0.0, rest[f] - 1)
        for f, w in opp_add:
            if f in opp:
                opp[f] += w
                if w == 1.0 or f == UNDEAD:
                    rest[f] = max(0.0, rest[f] - 1)
        return win_prob(self.k.factions, me, opp, rest)

    def trick_value(self, i_win: bool, played: Sequence[int], prize: int | None) -> float:
        """Value after a phase-1 trick with the normal distribution (C5.4-C5.6)."""
        me_add: list[tuple[int, float]] = []
        opp_add: list[tuple[int, float]] = []
        undead = [(UNDEAD, 1.2) for c in played if c >> 4 == UNDEAD]
        if i_win:
            if prize is not None:
                me_add.append((prize >> 4, follower_weight(prize)))
            me_add += undead
            return self.value(me_add, opp_add, opp_blind=True)
        if prize is not None:
            opp_add.append((prize >> 4, follower_weight(prize)))
        opp_add += undead
        return self.value(me_add, opp_add, me_blind=True)


def seer_choice_value(k: Knowledge, take_top: bool) -> float:
    """T3.5b: value of taking the peeked top card (the loser gets the prize) or keeping the prize."""
    model = Phase1Model(k)
    prize, top = k.prize, k.peek
    assert prize is not None and top is not None
    mine, theirs = (top, prize) if take_top else (prize, top)
    undead = [(UNDEAD, 1.2) for c in k.played if c >> 4 == UNDEAD]
    return model.value([(mine >> 4, follower_weight(mine)), *undead], [(theirs >> 4, follower_weight(theirs))])


def _tricks_left(k: Knowledge) -> int:
    return len(k.hand)


def phase1_scores(k: Knowledge, legal: Sequence[int], rng: random.Random) -> dict[int, float]:
    """Score of each legal card in phase 1 (higher is better)."""
    model = Phase1Model(k)
    left = _tricks_left(k)
    scores: dict[int, float] = {}
    if k.played:  # follower: the outcome is certain (C4.4)
        lead = k.played[0]
        for c in set(legal):
            win = core.follower_wins(lead, c)
            v = model.trick_value(win, [lead, c], k.prize)
            if win and c >> 4 == SEER:
                v += 0.01  # T3.5 a Seer win lets us pick the better of two cards
            scores[c] = v - SPEND * card_power(c, left)
        return scores
    # leader: estimate how often the opponent can beat each lead from samples of its hand
    st = build_core(k, [], [], [])
    opp = k.opp
    samples = [sample_hidden(k, rng)[0] for _ in range(SAMPLES)]
    cands = sorted(set(legal))
    beat = dict.fromkeys(cands, 0)
    for hand in samples:
        st.hands[opp] = hand
        st.turn = opp
        for c in cands:
            st.played = [c]
            if any(core.follower_wins(c, r) for r in core.legal(st)):
                beat[c] += 1
    st.played = []
    for c in cands:
        p_lose = BEAT_RATE * beat[c] / len(samples)
        v_win = model.trick_value(True, [c], k.prize)
        v_lose = model.trick_value(False, [c], k.prize)
        if c >> 4 == SEER:
            v_win += 0.01
        scores[c] = (1 - p_lose) * v_win + p_lose * v_lose - SPEND * card_power(c, left)
    return scores


# ------------------------------------------------------------------ phase 2 evaluation


def phase2_value(st: core.Core, seat: int) -> float:
    """Vote estimate from score piles, Gnome rows (discounted when a matching Giant is still in the
    opponent's hand, T3.2), the Troll pool and the cards still in hands."""
    opp = 1 - seat
    fs = st.factions
    me = dict.fromkeys(fs, 0.0)
    op = dict.fromkeys(fs, 0.0)
    rest = dict.fromkeys(fs, 0.0)
    for c in st.score[seat]:
        me[c >> 4] += 1
    for c in st.score[opp]:
        op[c >> 4] += 1
    for c in st.gnomes[seat]:
        me[GNOME] += gnome_risk(c, st.hands[opp])
    for c in st.gnomes[opp]:
        op[GNOME] += gnome_risk(c, st.hands[seat])
    for h in st.hands:
        for c in h:
            rest[c >> 4] += 1
    for c in st.played:
        rest[c >> 4] += 1
    for c in st.pool:
        rest[c >> 4] += 1
    v = win_prob(fs, me, op, rest)
    if st.phase != core.OVER and st.turn == seat and not st.played:
        v += LEAD_BONUS
    return v


def phase2_exact(k: Knowledge, legal: Sequence[int]) -> int | None:
    """The last tricks of phase 2 (perfect information, C7): a card that forces a win (else a draw)
    found by the exact search, or ``None`` when every card loses or the position is too big."""
    opp_hand = opponent_hand_phase2(k)
    if len(k.hand) + len(opp_hand) > EXACT_CARDS:
        return None
    try:
        return Solver(k.seat, EXACT_NODES).best(build_core(k, opp_hand), legal)
    except Budget:
        return None


def phase2_scores(k: Knowledge, legal: Sequence[int]) -> dict[int, float]:
    st = build_core(k, opponent_hand_phase2(k))
    seat = k.seat
    scores: dict[int, float] = {}
    for c in sorted(set(legal)):
        s1 = st.copy()
        core.play(s1, c)
        if s1.played:  # we led: the opponent picks its best reply (min for us)
            worst = 2.0
            for r in sorted(set(core.legal(s1))):
                s2 = s1.copy()
                core.play(s2, r)
                worst = min(worst, phase2_value(s2, seat))
            scores[c] = worst
        else:
            scores[c] = phase2_value(s1, seat)
        # keep strong cards for later tricks when the difference is negligible
        scores[c] -= 0.0005 * (c & 15)
    return scores


# ------------------------------------------------------------------ entry point


def choose(view: Mapping[str, Any], legal: Sequence[Mapping[str, Any]], seed: int) -> dict[str, Any]:
    k = read_view(view)
    if k.seats != 2:
        return knight_n.choose_k(k, legal, seed)
    rng = random.Random(seed)
    if k.seer_pending == k.seat and k.peek is not None and k.prize is not None:
        top = seer_choice_value(k, True) > seer_choice_value(k, False)
        want = "top" if top else "prize"
        for m in legal:
            if m.get("seer") == want:
                return dict(m)
    cards = [core_move(m) for m in legal]
    if k.phase == 2:
        exact = phase2_exact(k, cards)
        if exact is not None:
            return dict(legal[cards.index(exact)])
    scores = phase1_scores(k, cards, rng) if k.phase == 1 else phase2_scores(k, cards)
    best = max(scores.values())
    # ties: the lowest card (deterministic), so equal options never waste a high card
    pick = min(c for c, s in scores.items() if s >= best - 1e-12)
    return dict(legal[cards.index(pick)])
