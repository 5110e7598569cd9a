"""Claim (base game): one test per clause of /work/shared/rules/claim.md (C-clauses)."""

from __future__ import annotations

from collections import Counter

import pytest

from games.rules.base import IllegalMove
from games.rules.cards import CLAIM_FACTIONS, FACTION_NAMES, deck_for
from games.rules.claim import CLAIM
from games.rules.claim.core import OVER, PHASE2

from .helpers import c, ids, legal_cards, make_state, play, score_ids

FILL = ["goblin-1", "goblin-2", "goblin-3", "goblin-4", "goblin-5", "goblin-6", "goblin-7", "goblin-8"]


def test_C1_1_claim_deck_composition():
    deck = deck_for(CLAIM_FACTIONS)
    assert len(deck) == 52
    counts = Counter(FACTION_NAMES[x >> 4] for x in deck)
    assert counts == {"goblin": 14, "knight": 8, "undead": 10, "dwarf": 10, "doppelganger": 10}
    assert Counter(deck)[c("goblin-0")] == 5  # C1.2 the only duplicate


def test_C3_2_deal_13_each_26_in_deck_and_C5_2_prize_revealed():
    st = CLAIM.setup(None, 2, 42)
    v = CLAIM.view(st, 0)
    assert v["hand_counts"] == [13, 13]
    assert v["deck_count"] == 25 and v["prize"] is not None  # 26 minus the revealed prize
    assert v["phase"] == 1 and v["trick"] == 1


def test_C3_3_first_leader_is_random_from_the_seed():
    leaders = {CLAIM.setup(None, 2, seed).first_leader for seed in range(40)}
    assert leaders == {0, 1}
    assert CLAIM.setup(None, 2, 5).first_leader == CLAIM.setup(None, 2, 5).first_leader
    st = CLAIM.setup(None, 2, 5)
    assert CLAIM.to_act(st) == frozenset({st.first_leader})


# ---------------------------------------------------------------- C9.3 legal-move examples


def test_C9_3_goblin_lead_follower_must_play_goblin_or_doppelganger():
    st = make_state("claim", [["goblin-3", *FILL[:3]], ["goblin-0", "knight-2", "doppelganger-1", "dwarf-9"]],
                    deck=["undead-0", "undead-1", "undead-2", "undead-3", "undead-4", "undead-5",
                          "undead-6", "undead-7"])
    st, _ = play(st, "goblin-3")
    assert sorted(legal_cards(st)) == ["doppelganger-1", "goblin-0"]
    with pytest.raises(IllegalMove, match=r"you must follow Goblins.*you hold Goblin 0"):
        CLAIM.apply(st, 1, {"play": "knight-2"})  # C6.2a Knight illegal while holding a Goblin


def test_C9_3_goblin_lead_follower_without_goblin_any_card_knight_wins_dwarf_loses():
    base = make_state("claim", [["goblin-3", "goblin-4"], ["knight-2", "dwarf-9"]],
                      deck=["undead-0", "undead-1", "undead-2", "undead-3"])
    s1, _ = play(base, "goblin-3")
    assert sorted(legal_cards(s1)) == ["dwarf-9", "knight-2"]
    won, _ = play(s1, "knight-2")
    assert won.last["winner"] == 1  # C6.2 Knight beats the Goblin
    lost, _ = play(s1, "dwarf-9")
    assert lost.last["winner"] == 0  # C4.4c off-faction loses


def test_C9_3_doppelganger_lead_only_doppelganger_is_legal():
    st = make_state("claim", [["doppelganger-4", "goblin-1"], ["doppelganger-0", "undead-9"]],
                    deck=["dwarf-0", "dwarf-1", "dwarf-2", "dwarf-3"])
    st, _ = play(st, "doppelganger-4")
    assert legal_cards(st) == ["doppelganger-0"]  # C4.3
    with pytest.raises(IllegalMove, match="you must follow Doppelgangers: you hold Doppelganger 0"):
        CLAIM.apply(st, 1, {"play": "undead-9"})


def test_C4_3_doppelganger_lead_without_doppelganger_any_card():
    st = make_state("claim", [["doppelganger-4"], ["undead-9"]], deck=["dwarf-0", "dwarf-1"])
    st, _ = play(st, "doppelganger-4")
    assert legal_cards(st) == ["undead-9"]


def test_C9_3_undead_lead_undead_or_doppelganger_and_doppelganger_8_wins():
    st = make_state("claim", [["undead-5", "goblin-1"], ["undead-2", "doppelganger-8"]],
                    deck=["dwarf-0", "dwarf-1", "dwarf-2", "dwarf-3"])
    st, _ = play(st, "undead-5")
    assert sorted(legal_cards(st)) == ["doppelganger-8", "undead-2"]
    st, _ = play(st, "doppelganger-8")
    assert st.last["winner"] == 1


def test_C6_5a_doppelganger_may_replace_led_faction_while_holding_it():
    st2 = make_state("claim", [["knight-5", "goblin-1"], ["knight-9", "doppelganger-0"]],
                     deck=["dwarf-0", "dwarf-1", "dwarf-2", "dwarf-3"])
    st2, _ = play(st2, "knight-5")
    assert "doppelganger-0" in legal_cards(st2)
    st2, _ = play(st2, "doppelganger-0")
    assert st2.last["winner"] == 0  # C6.5b counts as a Knight 0: lower, leader wins


# ---------------------------------------------------------------- C9.4 resolution examples


def test_C9_4_goblin_5_led_vs_doppelganger_5_tie_leader_wins():
    st = make_state("claim", [["goblin-5"], ["doppelganger-5"]], deck=["dwarf-0", "dwarf-1"])
    st, _ = play(st, "goblin-5", "doppelganger-5")
    assert st.last["winner"] == 0


def test_C9_4_knight_9_led_vs_goblin_0_leader_wins():
    st = make_state("claim", [["knight-9"], ["goblin-0"]], deck=["dwarf-0", "dwarf-1"])
    st, _ = play(st, "knight-9", "goblin-0")
    assert st.last["winner"] == 0  # C6.2b no special case


def test_C9_4_phase1_undead_7_vs_doppelganger_8_follower_wins_undead_scored_doppel_discarded():
    st = make_state("claim", [["undead-7"], ["doppelganger-8"]], deck=["dwarf-4", "dwarf-1"])
    st, _ = play(st, "undead-7", "doppelganger-8")
    assert st.last["winner"] == 1
    assert score_ids(st, 1) == ["undead-7"]  # C6.3
    assert ids(st.discard) == ["doppelganger-8"]  # C6.5c
    assert ids(st.hands[1]) == ["dwarf-4"]  # C5.4 prize to the winner (now phase 2: followers = hand)


def test_C9_4_phase2_dwarf_6_vs_dwarf_2_leader_wins_both_to_follower():
    st = make_state("claim", [["dwarf-6", "goblin-1"], ["dwarf-2", "goblin-2"]], phase=PHASE2)
    st, _ = play(st, "dwarf-6", "dwarf-2")
    assert st.last["winner"] == 0
    assert score_ids(st, 1) == ["dwarf-2", "dwarf-6"] and score_ids(st, 0) == []


def test_C9_4_phase2_dwarf_6_vs_doppelganger_7_dwarf_to_loser_doppel_to_winner():
    st = make_state("claim", [["dwarf-6", "goblin-1"], ["doppelganger-7", "goblin-2"]], phase=PHASE2)
    st, _ = play(st, "dwarf-6", "doppelganger-7")
    assert st.last["winner"] == 1
    assert score_ids(st, 0) == ["dwarf-6"]
    assert score_ids(st, 1) == ["doppelganger-7"]


# ---------------------------------------------------------------- C4 trick


def test_C4_1_leader_may_play_any_card():
    st = make_state("claim", [["goblin-1", "knight-3", "undead-0"], ["dwarf-1", "dwarf-2", "dwarf-3"]],
                    deck=["dwarf-4", "dwarf-5", "dwarf-6", "dwarf-7", "dwarf-8", "dwarf-9"])
    assert sorted(legal_cards(st)) == ["goblin-1", "knight-3", "undead-0"]


def test_C4_4b_equal_values_leader_wins():
    st = make_state("claim", [["undead-4"], ["doppelganger-4"]],
                    deck=["dwarf-0", "dwarf-1"])
    st, _ = play(st, "undead-4", "doppelganger-4")
    assert st.last["winner"] == 0


def test_C4_4b_higher_following_card_wins():
    st = make_state("claim", [["knight-3"], ["knight-4"]], deck=["dwarf-0", "dwarf-1"])
    st, _ = play(st, "knight-3", "knight-4")
    assert st.last["winner"] == 1


def test_C4_4c_off_faction_card_loses_whatever_its_value():
    st = make_state("claim", [["goblin-0"], ["undead-9"]], deck=["dwarf-0", "dwarf-1"])
    st, _ = play(st, "goblin-0", "undead-9")
    assert st.last["winner"] == 0


def test_C4_5_winner_leads_next_trick():
    st = make_state("claim", [["goblin-1", "goblin-2"], ["goblin-5", "goblin-6"]],
                    deck=["dwarf-0", "dwarf-1", "dwarf-2", "dwarf-3"])
    st, _ = play(st, "goblin-1", "goblin-5")
    assert CLAIM.to_act(st) == frozenset({1}) and st.leader == 1


# ---------------------------------------------------------------- C6 powers


def test_C6_1_goblins_have_no_power_discarded_in_phase1():
    st = make_state("claim", [["goblin-1"], ["goblin-5"]], deck=["dwarf-0", "dwarf-1"])
    st, _ = play(st, "goblin-1", "goblin-5")
    assert ids(st.discard) == ["goblin-1", "goblin-5"] and st.score == [[], []]


def test_C6_2_knight_on_goblin_lead_beats_any_goblin():
    st = make_state("claim", [["goblin-9"], ["knight-2"]], deck=["dwarf-0", "dwarf-1"])
    st, _ = play(st, "goblin-9", "knight-2")
    assert st.last["winner"] == 1


def test_C6_2_knight_beats_goblin_in_phase_2_too():
    st = make_state("claim", [["goblin-9", "goblin-1"], ["knight-2", "knight-3"]], phase=PHASE2)
    st, _ = play(st, "goblin-9", "knight-2")
    assert st.last["winner"] == 1 and score_ids(st, 1) == ["goblin-9", "knight-2"]


def test_C6_2b_knight_led_goblin_followed_leader_wins():
    st = make_state("claim", [["knight-2"], ["goblin-9"]], deck=["dwarf-0", "dwarf-1"])
    st, _ = play(st, "knight-2", "goblin-9")
    assert st.last["winner"] == 0


def test_C6_2c_doppelganger_on_goblin_lead_compares_values():
    st = make_state("claim", [["goblin-3"], ["doppelganger-4"]], deck=["dwarf-0", "dwarf-1"])
    st, _ = play(st, "goblin-3", "doppelganger-4")
    assert st.last["winner"] == 1


def test_C6_3_both_played_undead_go_to_winner_score_pile():
    st = make_state("claim", [["undead-3"], ["undead-8"]], deck=["dwarf-0", "dwarf-1"])
    st, _ = play(st, "undead-3", "undead-8")
    assert score_ids(st, 1) == ["undead-3", "undead-8"] and st.discard == []


def test_C6_3_undead_of_the_loser_also_goes_to_the_winner():
    st = make_state("claim", [["goblin-3"], ["undead-8"]], deck=["dwarf-0", "dwarf-1"])
    st, _ = play(st, "goblin-3", "undead-8")
    assert st.last["winner"] == 0 and score_ids(st, 0) == ["undead-8"]
    assert st.last["undead_scored"] == [c("undead-8")]


def test_C6_3_revealed_undead_prize_goes_to_followers_not_score():
    st = make_state("claim", [["goblin-3"], ["goblin-1"]], deck=["undead-5", "dwarf-1"])
    st, _ = play(st, "goblin-3", "goblin-1")
    assert st.score == [[], []] and ids(st.hands[0]) == ["undead-5"]


def test_C6_3_undead_have_no_power_in_phase_2():
    st = make_state("claim", [["goblin-3", "goblin-1"], ["undead-8", "undead-1"]], phase=PHASE2)
    st, _ = play(st, "goblin-3", "undead-8")
    assert score_ids(st, 0) == ["goblin-3", "undead-8"]


def test_C6_4_dwarves_go_to_loser_in_phase_2():
    st = make_state("claim", [["dwarf-3", "goblin-1"], ["dwarf-8", "goblin-2"]], phase=PHASE2)
    st, _ = play(st, "dwarf-3", "dwarf-8")
    assert st.last["winner"] == 1 and score_ids(st, 0) == ["dwarf-3", "dwarf-8"]
    assert st.last["dwarves_to_loser"] == [c("dwarf-3"), c("dwarf-8")]


def test_C6_4_one_dwarf_to_loser_other_card_to_winner():
    st = make_state("claim", [["goblin-5", "goblin-1"], ["dwarf-8", "undead-2"]], phase=PHASE2)
    st, _ = play(st, "goblin-5", "dwarf-8")
    assert score_ids(st, 0) == ["goblin-5"] and score_ids(st, 1) == ["dwarf-8"]


def test_C6_4_dwarves_have_no_power_in_phase_1():
    st = make_state("claim", [["dwarf-3"], ["dwarf-8"]], deck=["goblin-0", "goblin-1"])
    st, _ = play(st, "dwarf-3", "dwarf-8")
    assert ids(st.discard) == ["dwarf-3", "dwarf-8"] and st.score == [[], []]


def test_C6_5c_doppelganger_on_undead_lead_is_discarded_not_scored():
    st = make_state("claim", [["undead-3"], ["doppelganger-1"]], deck=["goblin-0", "goblin-1"])
    st, _ = play(st, "undead-3", "doppelganger-1")
    assert score_ids(st, 0) == ["undead-3"] and ids(st.discard) == ["doppelganger-1"]


def test_C6_5c_doppelganger_on_dwarf_lead_phase2_goes_to_winner():
    st = make_state("claim", [["dwarf-3", "goblin-1"], ["doppelganger-1", "goblin-2"]], phase=PHASE2)
    st, _ = play(st, "dwarf-3", "doppelganger-1")
    assert st.last["winner"] == 0
    assert score_ids(st, 0) == ["doppelganger-1"] and score_ids(st, 1) == ["dwarf-3"]


def test_C6_5e_doppelganger_scores_as_doppelganger():
    st = make_state("claim", [["knight-3"], ["doppelganger-5"]], phase=PHASE2)
    st, _ = play(st, "knight-3", "doppelganger-5")
    assert CLAIM.result(st)["counts"][1] == {"goblin": 0, "knight": 1, "undead": 0, "dwarf": 0,
                                             "doppelganger": 1}


# ---------------------------------------------------------------- C5 / C7 phases


def test_C5_4_prize_to_winner_and_C5_5_loser_draws_blind():
    st = make_state("claim", [["goblin-3", "goblin-4"], ["goblin-1", "goblin-2"]],
                    deck=["knight-9", "undead-1", "dwarf-2", "dwarf-3"])
    st, events = play(st, "goblin-3", "goblin-1")
    assert ids(st.followers[0]) == ["knight-9"] and ids(st.followers[1]) == ["undead-1"]
    assert st.last["prize_to"] == 0 and st.last["blind_draw"] == 1
    assert {"type": "blind_draw", "seat": 1} in events
    assert CLAIM.view(st, None)["prize"] == "dwarf-2"  # C5.2 next prize


def test_C5_8_phase1_has_13_tricks_and_C7_1_followers_become_hands():
    st = CLAIM.setup(None, 2, 3)
    for k in range(1, 14):
        for _ in range(2):
            seat = next(iter(CLAIM.to_act(st)))
            st, _ = CLAIM.apply(st, seat, CLAIM.legal_moves(st, seat)[0])
        v = CLAIM.view(st, None)
        if k < 13:
            # C9.2 after trick k: deck = 26 - 2k (minus the revealed prize), followers = k, hands = 13 - k
            assert v["deck_count"] + 1 == 26 - 2 * k
            assert v["follower_counts"] == [k, k] and v["hand_counts"] == [13 - k, 13 - k]
    assert st.phase == PHASE2 and [len(h) for h in st.hands] == [13, 13]
    assert st.followers == [[], []] and st.dpos == len(st.deck)


def test_C7_2_phase2_first_leader_is_winner_of_phase1_last_trick():
    st = make_state("claim", [["goblin-1"], ["goblin-5"]], deck=["dwarf-0", "dwarf-1"])
    st, events = play(st, "goblin-1", "goblin-5")
    assert st.phase == PHASE2 and CLAIM.to_act(st) == frozenset({1})
    assert {"type": "phase", "phase": 2, "leader": 1} in events


def test_C7_4_phase2_winner_takes_both_cards_and_C7_5_game_ends():
    st = make_state("claim", [["goblin-1"], ["goblin-5"]], phase=PHASE2)
    st, events = play(st, "goblin-1", "goblin-5")
    assert score_ids(st, 1) == ["goblin-1", "goblin-5"]
    assert st.phase == OVER and CLAIM.is_over(st) and CLAIM.to_act(st) == frozenset()
    assert events[-1]["type"] == "game_over"
