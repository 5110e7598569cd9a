"""Scoring: C8, T4, M2.4 (T4.3/T4.4 tie-breaks for every kind)."""

from __future__ import annotations

import random

from games.rules.cards import ALL_CODES, CLAIM_FACTIONS, UNDEAD
from games.rules.claim.core import PHASE2
from games.rules.claim.playout import _winner, random_deal, random_playout
from games.rules.claim.scoring import decide, piles_by_faction
from games.rules.claim.serial import result_of

from .helpers import make_state


def _result(kind, pile0, pile1):
    return result_of(make_state(kind, [[], []], phase=PHASE2, score=[pile0, pile1]))


UNDEAD_6_4 = (["undead-0", "undead-1", "undead-2", "undead-3", "undead-4", "undead-5"],
              ["undead-6", "undead-7", "undead-8", "undead-9"])


def test_C8_1_counts_per_faction_value_irrelevant():
    r = _result("claim", ["goblin-0", "goblin-0", "knight-2"], ["goblin-9"])
    assert r["counts"][0]["goblin"] == 2 and r["counts"][1]["goblin"] == 1
    assert r["votes"]["goblin"] == 0  # C8.2 more cards wins even with lower values


def test_C8_2_more_cards_wins_the_vote():
    r = _result("claim", ["dwarf-0", "dwarf-1"], ["dwarf-9"])
    assert r["votes"]["dwarf"] == 0


def test_C8_3_equal_counts_highest_card_wins():
    r = _result("claim", ["dwarf-0", "dwarf-8"], ["dwarf-9", "dwarf-1"])
    assert r["votes"]["dwarf"] == 1


def test_C8_4_goblin_zero_tiebreak_next_highest():
    r = _result("claim", ["goblin-0", "goblin-0", "goblin-0"], ["goblin-0", "goblin-0", "goblin-1"])
    assert r["votes"]["goblin"] == 1
    r = _result("claim", ["goblin-5", "goblin-3", "goblin-0"], ["goblin-5", "goblin-2", "goblin-1"])
    assert r["votes"]["goblin"] == 0  # second-highest decides


def test_C8_4_all_compared_cards_equal_nobody_gets_the_vote():
    r = _result("claim", ["goblin-0", "goblin-0"], ["goblin-0", "goblin-0"])
    assert r["votes"]["goblin"] is None


def test_T4_3_gnome_tie_compares_second_and_third_highest():
    r = _result("claim2", ["gnome-7", "gnome-5", "gnome-1"], ["gnome-7", "gnome-5", "gnome-3"])
    assert r["votes"]["gnome"] == 1
    r = _result("claim2", ["giant-7", "giant-1"], ["giant-7", "giant-1"])
    assert r["votes"]["giant"] is None  # T4.3 [R] all equal -> nobody


def test_C8_5_zero_zero_nobody_gets_the_vote():
    r = _result("claim", ["undead-0"], [])
    assert r["votes"]["knight"] is None and r["counts"][0]["knight"] == 0


def test_C8_6_three_votes_win():
    r = _result("claim", ["goblin-1", "knight-2", "undead-3"], ["dwarf-1", "doppelganger-2"])
    assert r["winner"] == 0 and r["votes"] == {"goblin": 0, "knight": 0, "undead": 0, "dwarf": 1,
                                              "doppelganger": 1}


def test_C8_7_without_three_votes_more_votes_wins():
    # 2-1 with two votes unassigned (0-0 factions)
    r = _result("claim", ["goblin-1", "knight-2"], ["undead-3"])
    assert r["winner"] == 0 and "more factions" in r["reason"]


def test_C8_7_T4_4_equal_votes_more_cards_in_the_factions_that_voted_for_you():
    # 2-2, goblin unassigned (all equal); seat 1 has more cards in its factions
    r = _result("claim", ["goblin-0", "knight-9", "undead-9"],
                ["goblin-0", "dwarf-1", "dwarf-2", "doppelganger-3"])
    assert r["votes"] == {"goblin": None, "knight": 0, "undead": 0, "dwarf": 1, "doppelganger": 1}
    assert r["winner"] == 1 and "more cards" in r["reason"]


def test_T4_4_still_equal_is_a_draw():
    r = _result("claim2", ["gnome-1", "giant-1"], ["dragon-1", "troll-1"])
    assert r["winner"] is None and r["reason"].startswith("draw")


def test_T4_2_claim2_three_votes_win():
    r = _result("claim2", ["gnome-1", "giant-1", "seer-0"], ["dragon-1", "troll-1", "troll-2"])
    assert r["winner"] == 0


def test_C8_8_undead_vote_is_always_assigned_in_complete_games():
    rng = random.Random(8)
    for _ in range(300):
        st = random_deal("claim", CLAIM_FACTIONS, rng)
        random_playout(st, rng)
        by = [piles_by_faction(p, CLAIM_FACTIONS) for p in st.score]
        assert len(by[0][UNDEAD]) + len(by[1][UNDEAD]) == 10
        assert decide(by, CLAIM_FACTIONS)[1][UNDEAD] is not None


def test_fast_winner_matches_full_scoring_on_random_piles():
    rng = random.Random(3)
    for _ in range(3000):
        factions = tuple(sorted(rng.sample(range(10), 5)))
        cards = [x for x in ALL_CODES if x >> 4 in factions]
        piles = [[rng.choice(cards) for _ in range(rng.randrange(8))] for _ in range(2)]
        by = [piles_by_faction(p, factions) for p in piles]
        assert _winner(piles, factions) == decide(by, factions)[0]
