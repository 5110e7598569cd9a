"""Trick helpers written for any number of seats (M4.4, M4.6) reduce to C4.4 / T3.3 for 2."""

from __future__ import annotations

import itertools

from games.rules.cards import ALL_CODES, DRAGON
from games.rules.claim.core import follower_wins, next_leader_index, winning_index

from .helpers import cs


def test_C4_4_predicate_equals_M4_4_for_every_pair_of_cards():
    for lead, card in itertools.product(ALL_CODES, repeat=2):
        assert winning_index([lead, card]) == (1 if follower_wins(lead, card) else 0)


def test_T3_3_next_leader_equals_M4_6_for_every_pair_of_cards():
    for lead, card in itertools.product(ALL_CODES, repeat=2):
        w = winning_index([lead, card])
        expected = 1 if card >> 4 == DRAGON else (0 if lead >> 4 == DRAGON else w)
        assert next_leader_index([lead, card], w) == expected


def test_M4_4a_highest_knight_wins_on_goblin_lead():
    assert winning_index(cs(["goblin-9", "knight-2", "knight-5", "doppelganger-9"])) == 2


def test_M4_4b_equal_values_earliest_card_wins():
    assert winning_index(cs(["undead-3", "undead-7", "doppelganger-7"])) == 1
