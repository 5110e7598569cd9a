"""Every [R] ruling of multiplayer_rulings reduces exactly to the 2-player rule when N = 2
(claim-combined.md, header), checked against the 2-player core on all card pairs."""

from __future__ import annotations

import itertools

from games.rules.cards import ALL_CODES, DRAGON
from games.rules.claim import multiplayer_rulings as R
from games.rules.claim.core import follower_wins
from games.rules.claim.scoring import faction_vote


def test_M4_4_and_M4_5_and_M6_3_reduce_to_C4_4_and_C6_4_for_two_cards():
    for lead, card in itertools.product(ALL_CODES, repeat=2):
        w = R.trick_winner([lead, card])
        assert w == (1 if follower_wins(lead, card) else 0)
        assert R.lowest_ranked_index([lead, card], w) == 1 - w  # the loser's card
        for leader in (0, 1):
            assert R.dwarf_recipient([lead, card], w, leader, 2) == (leader + 1 - w) % 2


def test_M4_6_reduces_to_T3_3c():
    for lead, card in itertools.product(ALL_CODES, repeat=2):
        w = 1 if follower_wins(lead, card) else 0
        expected = 1 if card >> 4 == DRAGON else (0 if lead >> 4 == DRAGON else w)
        assert R.next_leader([lead, card], w) == expected


def test_M5_2_M5_4_reduce_to_C5_4_C5_5_and_T3_5b():
    for winner in (0, 1):
        assert R.phase1_receivers(winner, 2) == [1 - winner]
        assert R.seer_receivers(winner, 2, take_top=False) == (winner, 1 - winner, [])
        assert R.seer_receivers(winner, 2, take_top=True) == (1 - winner, winner, [])


def test_M6_5_reduces_to_T3_2_the_opponents_row():
    g5 = [0x55]
    assert R.giant_candidates(0, 5, 2, [[], g5]) == [1]
    assert R.giant_candidates(1, 5, 2, [g5, g5]) == [0]
    assert R.giant_candidates(0, 5, 2, [g5, []]) == []  # never the winner's own Gnome


def test_M6_3_reduces_to_C6_4_the_loser():
    for lead, card in ((0x35, 0x32), (0x32, 0x35), (0x35, 0x07)):  # Dwarf 5 / Dwarf 2 / Goblin 7
        w = R.trick_winner([lead, card])
        for leader in (0, 1):
            assert R.dwarf_recipient([lead, card], w, leader, 2) == (leader + 1 - w) % 2


def test_M7_1_reduces_to_C8_2_C8_4_for_two_players():
    piles = [[], [0x03], [0x05], [0x03, 0x00], [0x05, 0x00], [0x00, 0x00], [0x00]]
    for a, b in itertools.product(piles, repeat=2):
        a_s, b_s = sorted(a, reverse=True), sorted(b, reverse=True)
        assert R.faction_vote_n([a_s, b_s]) == faction_vote(a_s, b_s)
