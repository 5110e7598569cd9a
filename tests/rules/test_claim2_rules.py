"""Claim 2: one test per clause of /work/shared/rules/claim2.md (T-clauses), incl. T5.3 and T5.6."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from games.rules.base import IllegalMove
from games.rules.cards import CLAIM2_FACTIONS, FACTION_NAMES, deck_for
from games.rules.claim import CLAIM2
from games.rules.claim.core import OVER, PHASE2

from .helpers import c, ids, legal_cards, make_state, play, score_ids


def test_T1_1_claim2_deck_composition():
    deck = deck_for(CLAIM2_FACTIONS)
    assert len(deck) == 52
    counts = Counter(FACTION_NAMES[x >> 4] for x in deck)
    assert counts == {"gnome": 13, "giant": 9, "dragon": 10, "troll": 10, "seer": 10}
    assert Counter(deck)[c("gnome-1")] == 3 and Counter(deck)[c("giant-9")] == 1


def test_T2_2_must_follow_led_faction_no_wild_card():
    st = make_state("claim2", [["troll-3", "seer-1"], ["troll-1", "seer-9"]],
                    deck=["gnome-1", "gnome-3", "gnome-5", "gnome-7"])
    st, _ = play(st, "troll-3")
    assert legal_cards(st) == ["troll-1"]
    with pytest.raises(IllegalMove, match="you must follow Trolls: you hold Troll 1"):
        CLAIM2.apply(st, 1, {"play": "seer-9"})


def test_T2_3_giant_does_not_follow_a_gnome_lead():
    st = make_state("claim2", [["gnome-5"], ["giant-9"]], phase=PHASE2)
    st, _ = play(st, "gnome-5", "giant-9")
    assert st.last["winner"] == 0


def test_T2_2_equal_values_leader_wins():
    st = make_state("claim2", [["gnome-5"], ["gnome-5"]], phase=PHASE2)
    st, _ = play(st, "gnome-5", "gnome-5")
    assert st.last["winner"] == 0


# ---------------------------------------------------------------- Gnomes


def test_T3_1a_won_gnomes_go_to_winner_gnome_row_in_phase_2():
    st = make_state("claim2", [["gnome-3", "troll-1"], ["gnome-7", "troll-2"]], phase=PHASE2)
    st, _ = play(st, "gnome-3", "gnome-7")
    assert ids(st.gnomes[1]) == ["gnome-3", "gnome-7"] and st.score == [[], []]
    assert CLAIM2.view(st, None)["gnome_rows"] == [[], ["gnome-3", "gnome-7"]]


def test_T3_1b_gnome_rows_are_scored_at_the_end():
    st = make_state("claim2", [["gnome-3"], ["gnome-7"]], phase=PHASE2, gnomes=[["gnome-1"], []])
    st, _ = play(st, "gnome-3", "gnome-7")
    assert st.phase == OVER and st.gnomes == [[], []]
    assert score_ids(st, 0) == ["gnome-1"] and score_ids(st, 1) == ["gnome-3", "gnome-7"]


def test_T3_1c_gnomes_have_no_power_in_phase_1():
    st = make_state("claim2", [["gnome-3"], ["gnome-7"]], deck=["seer-0", "seer-1"])
    st, _ = play(st, "gnome-3", "gnome-7")
    assert ids(st.discard) == ["gnome-3", "gnome-7"] and st.gnomes == [[], []]


# ---------------------------------------------------------------- Giants


def test_T3_2a_giant_smashes_opponent_gnome_of_same_value():
    st = make_state("claim2", [["giant-5", "troll-1"], ["giant-1", "troll-2"]], phase=PHASE2,
                    gnomes=[["gnome-5"], ["gnome-5", "gnome-3"]])
    st, _ = play(st, "giant-5", "giant-1")
    assert st.last["winner"] == 0
    assert ids(st.gnomes[1]) == ["gnome-3"] and ids(st.smashed) == ["gnome-5"]
    assert ids(st.gnomes[0]) == ["gnome-5"]  # T3.2d never the winner's own Gnomes
    assert score_ids(st, 0) == ["giant-1", "giant-5"]  # T3.2b


def test_T3_2c_two_giants_smash_up_to_two_gnomes_values_matched_individually():
    st = make_state("claim2", [["giant-5", "troll-1"], ["giant-3", "troll-2"]], phase=PHASE2,
                    gnomes=[[], ["gnome-5", "gnome-3", "gnome-3", "gnome-7"]])
    st, _ = play(st, "giant-5", "giant-3")
    assert ids(st.gnomes[1]) == ["gnome-3", "gnome-7"]
    assert ids(st.smashed) == ["gnome-3", "gnome-5"]
    assert st.last["smashed"] == [c("gnome-5"), c("gnome-3")]


def test_T3_2c_no_matching_gnome_nothing_happens():
    st = make_state("claim2", [["giant-9", "troll-1"], ["troll-2", "troll-3"]], phase=PHASE2,
                    gnomes=[[], ["gnome-7"]])
    st, _ = play(st, "giant-9", "troll-2")
    assert ids(st.gnomes[1]) == ["gnome-7"] and st.smashed == []


def test_T3_2d_loser_giant_never_smashes_the_winner_gnomes():
    st = make_state("claim2", [["troll-5", "troll-1"], ["giant-5", "seer-2"]], phase=PHASE2,
                    gnomes=[["gnome-5"], []])
    st, _ = play(st, "troll-5", "giant-5")
    assert st.last["winner"] == 0  # the winner collects the Giant; the winner's own Gnome is safe
    assert ids(st.gnomes[0]) == ["gnome-5"] and st.smashed == []


def test_T3_2d_giant_does_nothing_in_phase_1():
    st = make_state("claim2", [["giant-5"], ["giant-1"]], deck=["seer-0", "seer-1"],
                    gnomes=[[], ["gnome-5"]])
    st, _ = play(st, "giant-5", "giant-1")
    assert ids(st.discard) == ["giant-1", "giant-5"] and ids(st.gnomes[1]) == ["gnome-5"]


def test_T3_2e_smash_happens_after_the_trick_gnomes_of_this_trick_are_the_winners():
    st = make_state("claim2", [["giant-5", "troll-1"], ["gnome-5", "troll-2"]], phase=PHASE2)
    st, _ = play(st, "giant-5", "gnome-5")
    assert ids(st.gnomes[0]) == ["gnome-5"] and st.smashed == []


# ---------------------------------------------------------------- Dragons


def test_T3_3a_follower_dragon_leads_next_even_when_losing():
    st = make_state("claim2", [["troll-9", "troll-1"], ["dragon-0", "seer-1"]],
                    deck=["seer-2", "seer-3", "seer-4", "seer-5"])
    st, _ = play(st, "troll-9", "dragon-0")
    assert st.last["winner"] == 0 and st.last["next_leader"] == 1
    assert CLAIM2.to_act(st) == frozenset({1})


def test_T3_3c_leader_dragon_leads_next_when_follower_plays_no_dragon():
    st = make_state("claim2", [["dragon-1", "troll-1"], ["seer-1", "seer-2"]],
                    deck=["seer-3", "seer-4", "seer-5", "seer-6"])
    st, _ = play(st, "dragon-1", "seer-1")
    assert st.last["winner"] == 0 and st.last["next_leader"] == 0


def test_T3_3b_trick_resolved_normally_winner_takes_cards_dragon_player_leads():
    st = make_state("claim2", [["troll-4", "troll-1"], ["dragon-9", "seer-2"]], phase=PHASE2)
    st, _ = play(st, "troll-4", "dragon-9")
    assert st.last["winner"] == 0 and score_ids(st, 0) == ["dragon-9", "troll-4"]
    assert CLAIM2.to_act(st) == frozenset({1})


def test_T3_3d_dragon_in_phase1_last_trick_decides_phase2_leader():
    st = make_state("claim2", [["troll-9"], ["dragon-0"]], deck=["seer-2", "seer-3"])
    st, _ = play(st, "troll-9", "dragon-0")
    assert st.phase == PHASE2 and CLAIM2.to_act(st) == frozenset({1})


def test_T3_3d_dragon_in_phase2_last_trick_has_no_effect():
    st = make_state("claim2", [["troll-9"], ["dragon-0"]], phase=PHASE2)
    st, _ = play(st, "troll-9", "dragon-0")
    assert st.phase == OVER and CLAIM2.to_act(st) == frozenset()
    assert score_ids(st, 0) == ["dragon-0", "troll-9"]


# ---------------------------------------------------------------- Trolls


def test_T3_4b_played_trolls_go_to_pool_winner_takes_highest():
    st = make_state("claim2", [["troll-4", "seer-1"], ["troll-8", "seer-2"]], phase=PHASE2)
    st, _ = play(st, "troll-4", "troll-8")
    assert score_ids(st, 1) == ["troll-8"] and ids(st.pool) == ["troll-4"]


def test_T3_4b_highest_of_pool_may_be_an_older_troll():
    st = make_state("claim2", [["troll-1", "seer-1"], ["troll-2", "seer-2"]], phase=PHASE2,
                    pool=["troll-9"])
    st, _ = play(st, "troll-1", "troll-2")
    assert score_ids(st, 1) == ["troll-9"] and ids(st.pool) == ["troll-1", "troll-2"]


def test_T3_4c_trick_without_troll_still_takes_highest_pooled_troll():
    st = make_state("claim2", [["seer-1", "seer-3"], ["seer-2", "seer-4"]], phase=PHASE2,
                    pool=["troll-4", "troll-6"])
    st, _ = play(st, "seer-1", "seer-2")
    assert score_ids(st, 1) == ["seer-1", "seer-2", "troll-6"] and ids(st.pool) == ["troll-4"]
    assert st.last["troll_pickup"] == [c("troll-6")]


def test_T3_4d_last_trick_takes_all_trolls():
    st = make_state("claim2", [["troll-1"], ["troll-2"]], phase=PHASE2, pool=["troll-4", "troll-6"])
    st, _ = play(st, "troll-1", "troll-2")
    assert score_ids(st, 1) == ["troll-1", "troll-2", "troll-4", "troll-6"] and st.pool == []


def test_T3_4_at_most_one_troll_per_trick_before_the_last():
    st = make_state("claim2", [["troll-1", "seer-1"], ["troll-2", "seer-2"]], phase=PHASE2)
    st, _ = play(st, "troll-1", "troll-2")
    assert score_ids(st, 1) == ["troll-2"]


def test_T3_4f_trolls_have_no_power_in_phase_1():
    st = make_state("claim2", [["troll-1"], ["troll-2"]], deck=["seer-0", "seer-1"])
    st, _ = play(st, "troll-1", "troll-2")
    assert ids(st.discard) == ["troll-1", "troll-2"] and st.pool == []


# ---------------------------------------------------------------- Seers

SEER_DECK = ["gnome-9", "dragon-7", "troll-0", "troll-1"]


def _seer_trick():
    st = make_state("claim2", [["seer-2", "troll-5"], ["seer-6", "troll-3"]], deck=SEER_DECK)
    return play(st, "seer-2", "seer-6")


def test_T3_5a_winning_with_a_seer_requires_the_winners_choice():
    st, events = _seer_trick()
    assert CLAIM2.to_act(st) == frozenset({1})
    assert CLAIM2.legal_moves(st, 1) == [{"seer": "prize"}, {"seer": "top"}]
    assert {"type": "seer_pending", "seat": 1} in events
    with pytest.raises(IllegalMove, match="you won with a Seer"):
        CLAIM2.apply(st, 1, {"play": "troll-3"})


def test_T3_5a_peeked_top_card_is_shown_only_to_the_winner():
    st, events = _seer_trick()
    assert CLAIM2.view(st, 1)["peek"] == "dragon-7"
    for seat in (0, None):
        assert "dragon-7" not in json.dumps(CLAIM2.view(st, seat))
    assert "dragon-7" not in json.dumps(events)


def test_T3_5b_keep_prize_loser_takes_the_peeked_top_card():
    st, _ = _seer_trick()
    st, events = play(st, "seer:prize")
    assert ids(st.followers[1]) == ["gnome-9"] and ids(st.followers[0]) == ["dragon-7"]
    assert CLAIM2.view(st, 1)["peeked_cards"] == ["dragon-7"]  # the winner saw it
    assert "dragon-7" not in json.dumps(CLAIM2.view(st, None))
    assert st.last["seer"] == {"seat": 1, "choice": "prize"}
    assert {"type": "seer", "seat": 1, "choice": "prize"} in events


def test_T3_5b_take_top_card_loser_receives_the_face_up_prize():
    st, events = _seer_trick()
    st, events = play(st, "seer:top")
    assert ids(st.followers[1]) == ["dragon-7"] and ids(st.followers[0]) == ["gnome-9"]
    v0 = CLAIM2.view(st, 0)
    assert v0["public_followers"] == [["gnome-9"], []]  # T3.5c the prize's destination is public
    assert "dragon-7" not in json.dumps(v0) and "dragon-7" not in json.dumps(events)
    assert st.last["prize_to"] == 0 and st.last["blind_draw"] is None


def test_T3_5_losing_seer_gives_no_choice():
    st = make_state("claim2", [["troll-6", "troll-5"], ["seer-2", "gnome-3"]], deck=SEER_DECK)
    st, _ = play(st, "troll-6", "seer-2")
    assert st.last["winner"] == 0 and st.seer == -1  # the Seer was played by the loser
    assert CLAIM2.to_act(st) == frozenset({0}) and ids(st.followers[0]) == ["gnome-9"]


def test_T3_5_winner_leading_a_seer_also_peeks():
    st = make_state("claim2", [["seer-6", "troll-5"], ["troll-2", "troll-3"]], deck=SEER_DECK)
    st, _ = play(st, "seer-6", "troll-2")
    assert st.seer == 0 and CLAIM2.view(st, 0)["peek"] == "dragon-7"


def test_T3_5e_seers_have_no_power_in_phase_2():
    st = make_state("claim2", [["seer-2", "troll-5"], ["seer-6", "troll-3"]], phase=PHASE2)
    st, _ = play(st, "seer-2", "seer-6")
    assert st.seer == -1 and score_ids(st, 1) == ["seer-2", "seer-6"]


# ---------------------------------------------------------------- T5.3 / T5.4 / T5.6 examples


def test_T5_3_follower_cannot_follow_dragon_lead_leader_wins_and_leads():
    st = make_state("claim2", [["dragon-2", "troll-1"], ["troll-9", "seer-9"]],
                    deck=["gnome-1", "gnome-3", "gnome-5", "gnome-7"])
    st, _ = play(st, "dragon-2", "troll-9")
    assert st.last["winner"] == 0 and st.last["next_leader"] == 0


def test_T5_3_off_faction_dragon_follower_loses_draws_blind_but_leads_next():
    st = make_state("claim2", [["troll-2", "troll-1"], ["dragon-9", "seer-9"]],
                    deck=["gnome-1", "gnome-3", "gnome-5", "gnome-7"])
    st, _ = play(st, "troll-2", "dragon-9")
    assert st.last["winner"] == 0 and st.last["blind_draw"] == 1 and st.last["next_leader"] == 1
    st2 = make_state("claim2", [["troll-2", "troll-1"], ["dragon-9", "seer-9"]], phase=PHASE2)
    st2, _ = play(st2, "troll-2", "dragon-9")
    assert score_ids(st2, 1) == [] and CLAIM2.to_act(st2) == frozenset({1})  # gets nothing, leads


def test_T5_3_both_dragons_follower_leads_next_even_if_leader_won():
    st = make_state("claim2", [["dragon-8", "troll-1"], ["dragon-3", "seer-9"]],
                    deck=["gnome-1", "gnome-3", "gnome-5", "gnome-7"])
    st, _ = play(st, "dragon-8", "dragon-3")
    assert st.last["winner"] == 0 and st.last["next_leader"] == 1


def test_T5_4_seer_win_with_dragon_played_by_loser():
    st = make_state("claim2", [["seer-6", "troll-5"], ["dragon-2", "troll-3"]], deck=SEER_DECK)
    st, _ = play(st, "seer-6", "dragon-2")
    assert st.seer == 0  # the Seer power applies to the distribution
    st, _ = play(st, "seer:top")
    assert ids(st.followers[0]) == ["dragon-7"] and ids(st.followers[1]) == ["gnome-9"]
    assert CLAIM2.to_act(st) == frozenset({1})  # the loser leads next


def test_T5_6_troll_4_vs_troll_8_then_gnomes_pick_up_pooled_troll():
    st = make_state("claim2", [["troll-4", "gnome-3", "seer-1"], ["troll-8", "gnome-7", "seer-2"]],
                    phase=PHASE2)
    st, _ = play(st, "troll-4", "troll-8")
    assert st.last["winner"] == 1
    assert score_ids(st, 1) == ["troll-8"] and ids(st.pool) == ["troll-4"]
    st, _ = play(st, "gnome-7", "gnome-3")  # seat 1 won and leads; no Troll in this trick
    assert st.last["winner"] == 1
    assert ids(st.gnomes[1]) == ["gnome-3", "gnome-7"]
    assert score_ids(st, 1) == ["troll-4", "troll-8"] and st.pool == []


def test_T5_6_giant_5_vs_gnome_5_leader_wins_gnome_to_row_giant_may_smash():
    st = make_state("claim2", [["giant-5", "seer-1"], ["gnome-5", "seer-2"]], phase=PHASE2,
                    gnomes=[[], ["gnome-5"]])
    st, _ = play(st, "giant-5", "gnome-5")
    assert st.last["winner"] == 0
    assert ids(st.gnomes[0]) == ["gnome-5"] and score_ids(st, 0) == ["giant-5"]
    assert st.gnomes[1] == [] and ids(st.smashed) == ["gnome-5"]


def test_T5_6_seer_2_vs_seer_6_follower_peeks_takes_top_leader_gets_prize():
    st, _ = _seer_trick()
    st, _ = play(st, "seer:top")
    assert ids(st.followers[1]) == ["dragon-7"] and ids(st.followers[0]) == ["gnome-9"]


def test_T5_6_troll_9_vs_dragon_0_leader_wins_prize_follower_draws_and_leads():
    st = make_state("claim2", [["troll-9", "troll-1"], ["dragon-0", "seer-1"]],
                    deck=["gnome-9", "seer-7", "troll-0", "seer-0"])
    st, _ = play(st, "troll-9", "dragon-0")
    assert ids(st.followers[0]) == ["gnome-9"] and ids(st.followers[1]) == ["seer-7"]
    assert CLAIM2.to_act(st) == frozenset({1})
