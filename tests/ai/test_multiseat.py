"""The AI levels on 3- and 4-seat claim-mix (claim-combined.md M3-M7): legal moves, determinism,
no peeking, N-seat knowledge and a team strength check that can fail."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

from games.ai import LEVELS, choose_move
from games.ai.claim import knight_n
from games.ai.claim.evaluate import card_power
from games.ai.claim.knowledge import build_core_n, read_view, sample_hidden_n
from games.ai.match import deal_options, play_game
from games.rules.cards import SEER, UNDEAD, parse_card
from games.rules.claim import core
from games.rules.registry import get_rules

KIND = "claim-mix"
TINY = 0.01  # King budget (seconds) for the property tests


def random_state_n(seats: int, seed: int, steps: int):
    """A 3-4 seat claim-mix state after ``steps`` random moves (or the last state before the end)."""
    rules = get_rules(KIND)
    st = rules.setup(deal_options(KIND, seed, seats), seats, seed)
    rng = random.Random(seed)
    for _ in range(steps):
        seat = next(iter(rules.to_act(st)))
        nxt, _ = rules.apply(st, seat, rng.choice(rules.legal_moves(st, seat)))
        if rules.is_over(nxt):
            break
        st = nxt
    return st


def _zones(st) -> Counter:
    out: Counter = Counter()
    for z in (*st.hands, *st.followers, *st.score, *st.gnomes, st.pool, st.discard, st.smashed, st.played):
        out.update(z)
    if st.phase == core.PHASE1:
        out.update(st.deck[st.dpos:])
        out[st.prize] += 1
    return out


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seats=hs.sampled_from([3, 4]), seed=hs.integers(0, 10**6), steps=hs.integers(0, 80),
       level=hs.sampled_from(sorted(LEVELS)))
def test_moves_are_legal_on_3_and_4_seats(seats, seed, steps, level):
    rules = get_rules(KIND)
    st = random_state_n(seats, seed, steps)
    seat = next(iter(rules.to_act(st)))
    legal = rules.legal_moves(st, seat)
    move = choose_move(KIND, level, rules.view(st, seat), legal, seed, budget=TINY)
    assert move in legal
    rules.apply(st, seat, move)  # the engine accepts it


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seats=hs.sampled_from([3, 4]), seed=hs.integers(0, 10**6), steps=hs.integers(0, 80))
def test_sampled_placements_match_the_true_zones(seats, seed, steps):
    """Unseen = all cards - own - every public zone; each sample gives every seat the right counts,
    keeps the known cards (public prizes, Seer peeks) where they really are and loses no card."""
    rules = get_rules(KIND)
    st = random_state_n(seats, seed, steps)
    seat = next(iter(rules.to_act(st)))
    k = read_view(rules.view(st, seat))
    assert k.seats == seats and k.seat == seat
    assert k.partner == ((seat + 2) % 4 if seats == 4 else None)
    for s in k.others:
        zone = st.followers[s] if st.phase == core.PHASE1 else st.hands[s]
        assert not Counter(k.known[s]) - Counter(zone)
    b = build_core_n(k, *sample_hidden_n(k, random.Random(seed)))
    assert [len(h) for h in b.hands] == [len(h) for h in st.hands]
    assert [len(f) for f in b.followers] == [len(f) for f in st.followers]
    assert (b.phase, b.turn, b.leader, b.prize, b.seer, b.seer_next) == \
        (st.phase, st.turn, st.leader, st.prize, st.seer, st.seer_next)
    if st.phase == core.PHASE1:
        assert len(b.deck) - b.dpos == len(st.deck) - st.dpos
    assert _zones(b) == _zones(st)
    assert sorted(b.hands[seat]) == sorted(st.hands[seat])


@pytest.mark.parametrize("seats", [3, 4])
@pytest.mark.parametrize("level", sorted(LEVELS))
def test_same_inputs_same_move(seats, level):
    rules = get_rules(KIND)
    for seed in range(5):
        st = random_state_n(seats, seed, 5 + 9 * seed)
        seat = next(iter(rules.to_act(st)))
        view = rules.view(st, seat)
        legal = rules.legal_moves(st, seat)
        a = choose_move(KIND, level, view, legal, 1234, budget=TINY)
        b = choose_move(KIND, level, rules.view(st, seat), rules.legal_moves(st, seat), 1234, budget=TINY)
        assert a == b


def _swap_hidden(st, seat):
    """A different true state that ``seat`` cannot tell apart: phase 1 exchanges an unknown hand
    card of another seat with a face-down deck card below the top; phase 2 exchanges two different
    cards between the hands of two other seats (never cards that seat knows about)."""
    other = st.copy()
    n = st.seats
    others = [(seat + i) % n for i in range(1, n)]
    if st.phase == core.PHASE1:
        deck = list(other.deck)
        for s in others:
            for i in range(other.dpos + 1, len(deck)):
                for j, c in enumerate(other.hands[s]):
                    if deck[i] != c:
                        other.hands[s][j], deck[i] = deck[i], c
                        other.deck = tuple(deck)
                        return other
        return None
    known = {s: Counter(st.public_followers[s]) for s in others}
    known[(seat + 1) % n].update(st.peeked[seat])
    for a in others:
        for b in others:
            if a >= b:
                continue
            free_a = Counter(st.hands[a]) - known[a]
            free_b = Counter(st.hands[b]) - known[b]
            for ca in free_a:
                for cb in free_b:
                    if ca != cb:
                        other.hands[a].remove(ca)
                        other.hands[b].remove(cb)
                        other.hands[a].append(cb)
                        other.hands[b].append(ca)
                        return other
    return None


@pytest.mark.parametrize("seats", [3, 4])
@pytest.mark.parametrize("level", sorted(LEVELS))
def test_same_view_same_move(seats, level):
    rules = get_rules(KIND)
    checked = {1: 0, 2: 0}
    for seed in range(16):
        st = random_state_n(seats, seed, 3 + 7 * seed)
        seat = next(iter(rules.to_act(st)))
        other = _swap_hidden(st, seat)
        if other is None:
            continue
        assert other.hands != st.hands
        view = rules.view(st, seat)
        assert rules.view(other, seat) == view  # indistinguishable for this seat
        a = choose_move(KIND, level, view, rules.legal_moves(st, seat), 99, budget=TINY)
        b = choose_move(KIND, level, rules.view(other, seat), rules.legal_moves(other, seat), 99,
                        budget=TINY)
        assert a == b
        checked[st.phase] += 1
    assert checked[1] >= 3 and checked[2] >= 3


def test_knight_does_not_overtake_its_partner():
    """4 seats, phase 1, last to play while the partner wins the trick: the Knight keeps the trick
    with the partner (or itself, never the other team) and spends its least valuable card (winning
    a trick the partner already wins would waste a card)."""
    rules = get_rules(KIND)
    checked = 0
    for seed in range(400):
        st = random_state_n(4, seed, 3 + seed % 40)
        if st.phase != core.PHASE1 or len(st.played) != 3 or st.seer >= 0:
            continue
        seat = st.turn
        partner = (seat + 2) % 4
        if (st.leader + core.winning_index(st.played)) % 4 != partner:
            continue
        legal = sorted(set(core.legal(st)))
        # a Seer win (choice of two cards) or an Undead (scores for the trick's winner, C6.3) can
        # be worth playing into the partner's trick: only plain cards here
        if any(c >> 4 in (SEER, UNDEAD) for c in legal) or len(legal) < 2:
            continue
        move = choose_move(KIND, 2, rules.view(st, seat), rules.legal_moves(st, seat), seed)
        c = parse_card(move["play"])
        w = (st.leader + core.winning_index([*st.played, c])) % 4
        assert w % 2 == seat % 2
        left = len(st.hands[seat])
        assert card_power(c, left) == min(card_power(x, left) for x in legal)
        checked += 1
    assert checked >= 5


def test_knight_phase2_values_the_team():
    """The N-seat phase-2 value counts the partner's score pile for this seat's side."""
    rules = get_rules(KIND)
    st = random_state_n(4, 7, 80)
    assert st.phase == core.PHASE2
    seat = st.turn
    k = read_view(rules.view(st, seat))
    base = knight_n.phase2_value(k, st)
    fed = st.copy()
    partner_gets = fed.copy()
    f = k.factions[0]
    fed.score[(seat + 1) % 4].extend([f * 16 + 9] * 4)  # an opponent collects 4 cards
    partner_gets.score[(seat + 2) % 4].extend([f * 16 + 9] * 4)  # the partner collects them
    assert knight_n.phase2_value(k, fed) < base < knight_n.phase2_value(k, partner_gets)


def _team_score(a, b, deals: int, seed0: int) -> float:
    """Team ``a`` against team ``b`` on 4 seats: every deal twice with the teams swapped."""
    total = 0.0
    for d in range(deals):
        for swap in (0, 1):
            players = [a if (s + swap) % 2 == 0 else b for s in range(4)]
            out = play_game(KIND, players, seed0 + d, seats=4)
            if not out.winners:
                total += 0.5
            else:
                total += float(players[out.winners[0]] == a)
    return total / (2 * deals)


def test_knight_team_beats_random_team_4_seats():
    # measured 2026-11-29 on these 100 games (50 deals x 2 seatings): Knight team 0.83 (~17 s);
    # a Squire team scores 0.68 on the same deals, so 0.72 fails if the Knight drops to that level
    assert _team_score(2, "random", 50, 80_000) >= 0.72
