"""The King's deals respect the public voids of the view (a seat that did not follow holds none of the led
faction this phase: C4.2b, C4.3), and still place exactly the unseen cards."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from games.ai.claim.knowledge import read_view, sample_hidden, sample_hidden_n
from games.ai.match import deal_options
from games.rules.claim.core import PHASE1
from games.rules.registry import get_rules


def _states_with_voids(kind: str, seats: int, games: int):
    """(state, seat to act) in phase 1 where some other seat shows a void, over random games."""
    rules = get_rules(kind)
    rng = random.Random(11)
    for seed in range(games):
        st = rules.setup(deal_options(kind, seed, seats), seats, seed)
        while not rules.is_over(st) and st.phase == PHASE1:
            seat = sorted(rules.to_act(st))[0]
            view = rules.view(st, seat)
            if st.seer < 0 and any(view["voids"][s] for s in range(seats) if s != seat):
                yield st, seat, view
            st, _ = rules.apply(st, seat, rng.choice(rules.legal_moves(st, seat)))


@pytest.mark.parametrize("kind", ["claim", "claim2"])
def test_two_seat_deals_keep_the_opponents_voids(kind):
    found = 0
    for st, _seat, view in _states_with_voids(kind, 2, 15):
        k = read_view(view)
        assert k.voids[k.opp], "read from the view"
        for i in range(20):
            hand, foll, deck = sample_hidden(k, random.Random(i))
            assert not {c >> 4 for c in hand} & k.voids[k.opp]
            assert len(hand) == len(st.hands[k.opp])
            assert Counter(hand + foll + deck) == Counter(k.unseen)
        found += 1
    assert found > 20


@pytest.mark.parametrize("seats", [3, 4])
def test_n_seat_deals_keep_every_seats_voids(seats):
    found = 0
    for st, _seat, view in _states_with_voids("claim-mix", seats, 8):
        k = read_view(view)
        for i in range(10):
            hands, foll, deck = sample_hidden_n(k, random.Random(i))
            for s in k.others:
                assert not {c >> 4 for c in hands[s]} & k.voids[s], (s, k.voids[s])
                assert len(hands[s]) == len(st.hands[s])
            placed = [c for s in k.others for c in hands[s] + foll[s]] + deck
            known = [c for s in k.others for c in k.known[s]]
            assert Counter(placed) == Counter(k.unseen) + Counter(known)
        found += 1
    assert found > 10
