"""Fast random games (for the AI and the benchmark).

``random_playout(state, rng)`` plays a core state to the end with random legal moves and returns
the winner; ``random_game(factions, rng)`` deals a fresh game and does the same.

Move choice: the leader plays a uniformly random card of their hand; the follower a uniformly
random card among the legal ones (each *physical* card equally likely, so two Goblin 0s count
twice); a pending Seer choice is a coin flip, a Giant choice (3-4 seats, M6.5) uniform.

The trick loop below is the core procedure of :mod:`games.rules.claim.core` written out with
local variables only (this is what makes ~10,000 games/s possible in plain Python). It must stay
rule-for-rule identical to the core: ``tests/rules/test_playout.py`` replays logged playouts
through the core and compares every zone.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from functools import partial
from itertools import repeat, starmap

from games.rules.cards import (
    DOPPELGANGER,
    DRAGON,
    GIANT,
    GNOME,
    GOBLIN,
    KNIGHT,
    SEER,
    UNDEAD,
    deck_for,
)
from games.rules.claim import core
from games.rules.claim.core import OVER, P2_DEST, PHASE1, SEER_PRIZE, SEER_TOP, Core
from games.rules.claim.multi import HAND_SIZE, winners_n
from games.rules.claim.state import beaters

_BASE_DECKS: dict[tuple[int, ...], list[int]] = {}


def _base(factions: Sequence[int]) -> list[int]:
    key = tuple(factions)
    deck = _BASE_DECKS.get(key)
    if deck is None:
        deck = _BASE_DECKS[key] = deck_for(key)
    return deck


def random_deal(kind: str, factions: Sequence[int], rng: random.Random) -> Core:
    """A fresh core state dealt with ``rng`` (a quick shuffle; not the deal of ``setup(seed)``)."""
    hands, deck, first = _shuffle(factions, rng)
    return core.new_core(kind, tuple(factions), hands, deck, first)


def _shuffle(factions: Sequence[int], rng: random.Random) -> tuple[list[list[int]], tuple[int, ...], int]:
    base = _base(factions)
    # C3.1 shuffle: sort by random keys (the cards' keys drawn in deck order; sorted() is stable)
    keys = starmap(rng.random, repeat((), len(base)))
    deck = sorted(base, key=partial(next, keys))
    # C3.2 deal 13 each; C3.3 [R] random first leader
    return [deck[:13], deck[13:26]], tuple(deck[26:]), 0 if rng.random() < 0.5 else 1


def random_game(factions: Sequence[int], rng: random.Random) -> int | None:
    """Deal and play one complete random game; returns the winner (None = draw)."""
    hands, deck, first = _shuffle(factions, rng)
    factions = tuple(factions)
    return _run(hands, deck, 1, deck[0], [[], []], [[], []], [[], []], [], [], [], PHASE1, first,
                factions, rng.random, None)[0]


def random_playout(st: Core, rng: random.Random, log: list[tuple[int, int]] | None = None,
                   greedy: float = 0.0) -> int | None:
    """Play ``st`` to the end with random legal moves; returns the winner (None = draw).

    ``greedy`` (2 seats, whole tricks): the probability that a follower plays :func:`greedy_follow`
    (the cheapest card that wins the trick, else its cheapest card) instead of a random legal card; the
    AI's rollouts use it so that they resemble play (a purely random phase 2 misjudges phase-1 prizes).

    ``st`` is consumed: afterwards its zones (hands, score piles, discard, ...) hold the final
    position, but the view-only bookkeeping (public followers, peeks, ``last``, ``moves``) is not
    maintained. Pass ``st.copy()`` to keep the original. With ``log``, every move is appended as
    ``(seat, core move)`` (card code, or ``SEER_PRIZE``/``SEER_TOP``).
    """
    rnd = rng.random
    if st.seats != 2:
        return _playout_n(st, rnd, log)  # 3-4 seats: the core functions (M3-M7)
    # Finish a trick in progress (or a pending Seer choice) with the core functions.
    while st.phase != OVER and (st.played or st.seer >= 0):
        seat = st.turn
        if st.seer >= 0:
            m = SEER_TOP if rnd() < 0.5 else SEER_PRIZE
            core.seer_choice(st, m == SEER_TOP)
        else:
            opts = core.legal(st)  # cards, or the Giant choice's seats (M6.5, uniformly)
            m = opts[int(rnd() * len(opts))]
            core.apply_move(st, m)
        if log is not None:
            log.append((seat, m))
    if st.phase != OVER:
        out = _run(st.hands, st.deck, st.dpos, st.prize, st.followers, st.score, st.gnomes, st.pool,
                   st.discard, st.smashed, st.phase, st.leader, st.factions, rnd, log, greedy)
        (_, st.hands, st.followers, st.dpos, st.leader) = out
        st.prize = -1
        st.phase = OVER
        st.turn = -1
    return _winner(st.score, st.factions)


def _playout_n(st: Core, rnd: Callable[[], float], log: list[tuple[int, int]] | None) -> int | None:
    """3-4 seats: random legal moves through the core (same move choice as for 2 seats); returns
    the single winner, ``None`` for a shared win / draw / a team win (see ``result_n``)."""
    while st.phase != OVER:
        seat = st.turn
        if st.seer >= 0:
            m = SEER_TOP if rnd() < 0.5 else SEER_PRIZE
            core.seer_choice(st, m == SEER_TOP)
        else:
            opts = core.legal(st)  # cards, or the Giant choice's seats (M6.5, uniformly)
            m = opts[int(rnd() * len(opts))]
            core.apply_move(st, m)
        if log is not None:
            log.append((seat, m))
    winners = winners_n(st)
    return winners[0] if len(winners) == 1 else None


def random_game_n(factions: Sequence[int], seats: int, rng: random.Random,
                  kind: str = "claim-mix") -> list[int]:
    """3-4 seats (M3): deal 12/9 cards each from the 72-card deck and play a random game;
    returns the winning seats (a team's two seats with 4 players; [] = draw)."""
    base = _base(factions)
    deck = base[:]
    rng.shuffle(deck)
    k = HAND_SIZE[seats]
    st = core.new_core(kind, tuple(factions), [deck[k * s:k * (s + 1)] for s in range(seats)],
                       deck[k * seats:], rng.randrange(seats))
    _playout_n(st, rng.random, None)
    return winners_n(st)


def greedy_follow(opts: list[int], lead: int) -> int:
    """A follower's simple policy: the lowest legal card that wins the trick against ``lead`` (C4.4),
    else the lowest legal card (first of equal values)."""
    beats = beaters(lead)
    low = opts[0]
    lv = low & 15
    win = -1
    wv = 16
    for c in opts:
        v = c & 15
        if v < lv:
            low = c
            lv = v
        if v < wv and c in beats:
            win = c
            wv = v
    return win if win >= 0 else low


def _buckets(hand: list[int]) -> list[list[int]]:
    """The hand split by faction: ``b[f]`` = cards of faction ``f`` (kept in sync with the hand)."""
    b: list[list[int]] = [[], [], [], [], [], [], [], [], [], []]
    for c in hand:
        b[c >> 4].append(c)
    return b


def _run(hands: list[list[int]], deck: tuple[int, ...], dpos: int, prize: int,
         followers: list[list[int]], score: list[list[int]], gnomes: list[list[int]],
         pool: list[int], discard: list[int], smashed: list[int], phase: int, leader: int,
         factions: tuple[int, ...], rnd: Callable[[], float], log: list[tuple[int, int]] | None,
         greedy: float = 0.0) -> tuple[int | None, list[list[int]], list[list[int]], int, int]:
    """Whole tricks from a trick boundary to the end of the game (2 seats). Mutates the zones."""
    # Module constants as locals (the loop below is the hot path of every AI playout).
    goblin, knight, undead, doppel, dragon, seer, giant = (
        GOBLIN, KNIGHT, UNDEAD, DOPPELGANGER, DRAGON, SEER, GIANT)
    has_doppel = doppel in factions
    has_giant = giant in factions
    dest = P2_DEST
    if phase == PHASE1:
        buckets = [_buckets(hands[0]), _buckets(hands[1])]
        while True:  # ---------------------------------------------------- phase 1 (C5)
            follower = 1 - leader
            lhand = hands[leader]
            fhand = hands[follower]
            n = len(lhand)
            lead = lhand.pop(int(rnd() * n)) if n > 1 else lhand.pop()  # C4.1 any card
            lf = lead >> 4
            buckets[leader][lf].remove(lead)
            fb = buckets[follower]
            if lf == doppel:
                opts = fb[doppel] or fhand  # C4.3
            else:
                opts = fb[lf]
                if not opts:
                    opts = fhand  # C4.2b
                elif has_doppel and fb[doppel]:
                    opts = opts + fb[doppel]  # C4.2a / C6.5a
            k = len(opts)
            card = greedy_follow(opts, lead) if greedy and rnd() < greedy else opts[int(rnd() * k)]
            fhand.remove(card)
            ff = card >> 4
            fb[ff].remove(card)
            if log is not None:
                log.append((leader, lead))
                log.append((follower, card))
            if (lf == goblin and ff == knight) or (  # C4.4
                (ff == lf or ff == doppel) and (card & 15) > (lead & 15)  # noqa: SIM109
            ):
                winner = follower
                wf = ff
            else:
                winner = leader
                wf = lf
            top = deck[dpos]
            dpos += 1
            if wf == seer and rnd() < 0.5:  # T3.5 won with a Seer: take the top card
                if log is not None:
                    log.append((winner, SEER_TOP))
                followers[winner].append(top)
                followers[1 - winner].append(prize)
            else:
                if wf == seer and log is not None:
                    log.append((winner, SEER_PRIZE))
                followers[winner].append(prize)  # C5.4
                followers[1 - winner].append(top)  # C5.5
            # C5.6 / C6.3 played Undead to the winner's score pile, the rest discarded
            if lf == undead:
                score[winner].append(lead)
            else:
                discard.append(lead)
            if ff == undead:
                score[winner].append(card)
            else:
                discard.append(card)
            # T3.3 next leader: last Dragon played, else the winner (C4.5)
            leader = follower if ff == dragon else (leader if lf == dragon else winner)
            if not lhand:
                break
            prize = deck[dpos]  # C5.2
            dpos += 1
        # C7.1 the follower piles become the hands (C7.2 / T3.3d: ``leader`` leads)
        hands = followers
        followers = [[], []]
    buckets = [_buckets(hands[0]), _buckets(hands[1])]
    while True:  # -------------------------------------------------------- phase 2 (C7, T5.1)
        follower = 1 - leader
        lhand = hands[leader]
        fhand = hands[follower]
        n = len(lhand)
        lead = lhand.pop(int(rnd() * n)) if n > 1 else lhand.pop()
        lf = lead >> 4
        buckets[leader][lf].remove(lead)
        fb = buckets[follower]
        if lf == doppel:
            opts = fb[doppel] or fhand
        else:
            opts = fb[lf]
            if not opts:
                opts = fhand
            elif has_doppel and fb[doppel]:
                opts = opts + fb[doppel]
        k = len(opts)
        card = greedy_follow(opts, lead) if greedy and rnd() < greedy else opts[int(rnd() * k)]
        fhand.remove(card)
        ff = card >> 4
        fb[ff].remove(card)
        if log is not None:
            log.append((leader, lead))
            log.append((follower, card))
        if (lf == goblin and ff == knight) or (
            (ff == lf or ff == doppel) and (card & 15) > (lead & 15)  # noqa: SIM109
        ):
            winner = follower
        else:
            winner = leader
        loser = 1 - winner
        sw = score[winner]
        # The piles indexed by P2_DEST: C7.4 the winner's score pile, C6.4 Dwarves to the loser,
        # T3.1a the winner's Gnome row, T3.4b the Troll pool
        to = [sw, score[loser], gnomes[winner], pool]
        to[dest[lead]].append(lead)
        to[dest[card]].append(card)
        if pool:
            if lhand:
                m = max(pool)  # T3.4b the single highest pooled Troll
                pool.remove(m)
                sw.append(m)
            else:
                sw.extend(pool)  # T3.4d last trick: all
                pool.clear()
        if has_giant and (lf == giant or ff == giant):
            for c in [lead, card]:
                if c >> 4 == giant:  # T3.2 automatic smash of a same-value opponent Gnome
                    g = GNOME * 16 + (c & 15)
                    row = gnomes[loser]
                    if g in row:
                        row.remove(g)
                        smashed.append(g)
        leader = follower if ff == dragon else (leader if lf == dragon else winner)  # T3.3
        if not lhand:
            for s in (0, 1):  # T3.1b
                if gnomes[s]:
                    score[s].extend(gnomes[s])
                    gnomes[s].clear()
            return _winner(score, factions), hands, followers, dpos, leader


def _winner(score: list[list[int]], factions: tuple[int, ...]) -> int | None:
    """C8 / T4 / M2.4 overall winner only (same rules as :func:`scoring.decide`, tested equal)."""
    s0 = score[0]
    s1 = score[1]
    n0 = [0] * 10  # cards of each faction
    n1 = [0] * 10
    for c in s0:
        n0[c >> 4] += 1
    for c in s1:
        n1[c >> 4] += 1
    v0 = v1 = k0 = k1 = 0
    for f in factions:
        a = n0[f]
        b = n1[f]
        if a == b:
            if not a:
                continue  # C8.5 0-0: nobody
            # C8.3 / C8.4 / T4.3 compare values high to low; all equal -> nobody
            sa = sorted([c for c in s0 if c >> 4 == f], reverse=True)
            sb = sorted([c for c in s1 if c >> 4 == f], reverse=True)
            if sa == sb:
                continue
            won = sa > sb
        else:
            won = a > b
        if won:
            v0 += 1
            k0 += a
        else:
            v1 += 1
            k1 += b
    if v0 >= 3 or (v1 < 3 and v0 > v1) or (v0 == v1 and k0 > k1):
        return 0
    if v1 >= 3 or v1 > v0 or k1 > k0:
        return 1
    return None
