"""M6.5 the Giant choice is a move the AI players make, at every level (3 and 4 seats)."""

from __future__ import annotations

import random

import pytest

from games.ai import LEVELS, choose_move
from games.ai.claim.knowledge import build_core_n, read_view, sample_hidden_n
from games.rules.claim import CLAIM_MIX
from tests.rules_multi.helpers import GG, make_state, play


def _pending_3():
    # seat 0 wins with Giant 5; seats 1 and 2 both hold a Gnome 5, seat 2 has more Gnomes
    st = make_state([["giant-5", "seer-9", "troll-1"], ["dragon-1", "seer-8", "troll-2"],
                     ["troll-3", "seer-7", "dragon-4"]], phase=2, factions=GG,
                    gnomes=[[], ["gnome-5"], ["gnome-5", "gnome-1", "gnome-3"]])
    st, _ = play(st, "giant-5", "dragon-1", "troll-3")
    assert st.smash_seat == 0
    return st


def _pending_4():
    st = make_state([["giant-5", "seer-9"], ["seer-1", "seer-2"], ["dragon-2", "troll-5"], ["troll-0", "seer-3"]],
                    phase=2, factions=GG, gnomes=[[], ["gnome-5"], ["gnome-5"], ["gnome-5", "gnome-7"]])
    st, _ = play(st, "giant-5", "seer-1", "dragon-2", "troll-0")
    assert st.smash_seat == 0
    return st


@pytest.mark.parametrize("level", sorted(LEVELS))
@pytest.mark.parametrize("make", [_pending_3, _pending_4])
def test_M6_5_every_level_chooses_a_giant_victim_among_the_candidates(level, make):
    st = make()
    legal = CLAIM_MIX.legal_moves(st, 0)
    assert len(legal) == 2 and all("smash" in m for m in legal)
    view = CLAIM_MIX.view(st, 0)
    for seed in range(3):
        assert choose_move("claim-mix", level, view, legal, seed, budget=0.02) in legal
    # deterministic for a seed
    assert choose_move("claim-mix", level, view, legal, 7, budget=0.02) == \
        choose_move("claim-mix", level, view, legal, 7, budget=0.02)
    CLAIM_MIX.apply(st, 0, choose_move("claim-mix", level, view, legal, 1, budget=0.02))


def test_M6_5_the_squire_smashes_the_strongest_gnome_rival():
    st = _pending_3()
    assert choose_move("claim-mix", 1, CLAIM_MIX.view(st, 0), CLAIM_MIX.legal_moves(st, 0), 0) == {"smash": 2}


def test_M6_5_the_knight_values_the_smash_that_takes_a_vote_from_the_rival():
    # seat 2 would win the Gnome vote with its 3 Gnomes against seat 1's 2 only if it keeps them all;
    # smashing seat 2's Gnome 5 leaves 2 against 2 with seat 1 higher: the Knight hits seat 2
    st = make_state([["giant-5", "seer-9"], ["dragon-1", "seer-8"], ["troll-3", "seer-7"]], phase=2, factions=GG,
                    gnomes=[[], ["gnome-5", "gnome-9"], ["gnome-5", "gnome-1", "gnome-3"]])
    st, _ = play(st, "giant-5", "dragon-1", "troll-3")
    assert choose_move("claim-mix", 2, CLAIM_MIX.view(st, 0), CLAIM_MIX.legal_moves(st, 0), 0) == {"smash": 2}


def test_M6_5_the_ais_knowledge_rebuilds_the_pending_choice_from_the_view():
    st = _pending_3()
    k = read_view(CLAIM_MIX.view(st, 0))
    hands, foll, deck = sample_hidden_n(k, random.Random(0))
    b = build_core_n(k, hands, foll, deck)
    assert (b.smash_seat, b.smash_left, b.turn, b.leader) == (st.smash_seat, st.smash_left, st.turn, st.leader)
    assert [sorted(g) for g in b.gnomes] == [sorted(g) for g in st.gnomes]
