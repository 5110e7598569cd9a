"""The AI sees only its seat's view: two hidden states with the same view give the same move."""

from __future__ import annotations

import inspect

import pytest

from games.ai import LEVELS, choose_move
from games.rules.registry import get_rules
from tests.ai.helpers import random_state


def _swap_hidden(st, seat):
    """A different true state that ``seat`` cannot tell apart: exchange the opponent's first hand
    card with a face-down deck card (phase 1), or swap two unseen cards between them."""
    other = st.copy()
    opp = 1 - seat
    deck = list(other.deck)
    below = other.dpos + 1  # keep the top card (a Seer winner may have peeked it)
    for i in range(below, len(deck)):
        for j, c in enumerate(other.hands[opp]):
            if deck[i] != c:
                other.hands[opp][j], deck[i] = deck[i], c
                other.deck = tuple(deck)
                return other
    return None


def test_choose_move_receives_no_state():
    params = list(inspect.signature(choose_move).parameters)
    assert params[:5] == ["kind", "level", "view", "legal", "seed"]


@pytest.mark.parametrize("kind", ["claim", "claim2", "claim-mix"])
@pytest.mark.parametrize("level", sorted(LEVELS))
def test_same_view_same_move(kind, level):
    rules = get_rules(kind)
    checked = 0
    for seed in range(12):
        st = random_state(kind, seed, 2 * (seed % 9))
        if st.phase != 1:
            continue
        seat = next(iter(rules.to_act(st)))
        other = _swap_hidden(st, seat)
        if other is None:
            continue
        assert other.hands[1 - seat] != st.hands[1 - seat] or other.deck != st.deck
        view = rules.view(st, seat)
        assert rules.view(other, seat) == view  # indistinguishable for this seat
        legal = rules.legal_moves(st, seat)
        a = choose_move(kind, level, view, legal, 99, budget=0.02)
        b = choose_move(kind, level, rules.view(other, seat), rules.legal_moves(other, seat), 99, budget=0.02)
        assert a == b
        checked += 1
    assert checked >= 5
