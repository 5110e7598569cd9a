"""M6 phase 2 with 3 or 4 players: Dwarves, Gnomes, Giants, Trolls, Dragons."""

from __future__ import annotations

import itertools
import json

import pytest

from games.rules.base import IllegalMove, NotYourTurn
from games.rules.claim import CLAIM_MIX
from games.rules.claim import multiplayer_rulings as R
from games.rules.claim.core import OVER, PHASE2
from games.rules.selfplay import generate

from .helpers import GG, KG, cs, ids, make_state, play


def test_M6_2_the_winner_collects_the_trick():
    st = make_state([["goblin-3", "dwarf-0"], ["goblin-7", "dwarf-1"], ["undead-9", "dwarf-2"]],
                    phase=PHASE2)
    st, _ = play(st, "goblin-3", "goblin-7", "undead-9")
    assert ids(st.score[1]) == ["goblin-3", "goblin-7", "undead-9"] and st.score[0] == st.score[2] == []


def test_M6_3_dwarves_go_to_the_player_of_the_lowest_ranked_card_winners_dwarf_included():
    st = make_state([["dwarf-5"], ["dwarf-2"], ["goblin-9"]], phase=PHASE2)
    st, _ = play(st, "dwarf-5", "dwarf-2", "goblin-9")
    assert st.last["winner"] == 0 and st.last["dwarves_to"] == 2
    assert ids(st.score[2]) == ["dwarf-2", "dwarf-5"] and ids(st.score[0]) == ["goblin-9"]


def test_M6_3_all_dwarves_following_the_lowest_value_takes_them():
    st = make_state([["dwarf-5"], ["dwarf-2"], ["dwarf-8"], ["doppelganger-4"]], phase=PHASE2)
    st, _ = play(st, "dwarf-5", "dwarf-2", "dwarf-8", "doppelganger-4")
    assert st.last["winner"] == 2 and st.last["dwarves_to"] == 1
    assert ids(st.score[1]) == ["dwarf-2", "dwarf-5", "dwarf-8"] and ids(st.score[2]) == ["doppelganger-4"]


def test_M6_3_equal_off_faction_values_the_later_card_ranks_lowest():
    st = make_state([["dwarf-4"], ["troll-3"], ["seer-3"]], phase=PHASE2, factions=GG)
    st, _ = play(st, "dwarf-4", "troll-3", "seer-3")
    assert st.last["dwarves_to"] == 2 and ids(st.score[2]) == ["dwarf-4"]


def test_M6_3_4_players_dwarves_never_go_to_the_winners_partner_the_trick_of_issue_23():
    # seat 0 leads Goblin 5, seat 1 Goblin 7, seat 2 Goblin 6, seat 3 Dwarf 0: seat 1 wins; the
    # lowest card of the trick is seat 3's (its partner) -> the Dwarf goes to the other team's
    # lowest card instead: seat 0's Goblin 5 (below seat 2's Goblin 6)
    st = make_state([["goblin-5"], ["goblin-7"], ["goblin-6"], ["dwarf-0"]], phase=PHASE2)
    st, _ = play(st, "goblin-5", "goblin-7", "goblin-6", "dwarf-0")
    assert st.last["winner"] == 1 and st.last["dwarves_to"] == 0
    assert ids(st.score[0]) == ["dwarf-0"] and ids(st.score[1]) == ["goblin-5", "goblin-6", "goblin-7"]
    assert st.score[3] == []


def test_M6_3_4_players_the_losing_teams_lower_card_takes_them_off_faction_below_led():
    # seat 2 wins (team 0); team 1 = seats 1 (Goblin 2, follows) and 3 (Undead 9, off-faction):
    # a card counting as led ranks above any off-faction card (M4.5) -> seat 3
    st = make_state([["dwarf-4"], ["dwarf-2"], ["dwarf-8"], ["undead-9"]], phase=PHASE2)
    st, _ = play(st, "dwarf-4", "dwarf-2", "dwarf-8", "undead-9")
    assert st.last["winner"] == 2 and st.last["dwarves_to"] == 3
    assert ids(st.score[3]) == ["dwarf-2", "dwarf-4", "dwarf-8"] and ids(st.score[2]) == ["undead-9"]


def test_M6_3_4_players_ties_on_the_losing_team_the_later_card_takes_them():
    # seat 1 and seat 3 (team 1) both play an off-faction 3: the later one (seat 3) ranks lower
    st = make_state([["dwarf-6"], ["undead-3"], ["dwarf-9"], ["doppelganger-3"]], phase=PHASE2,
                    factions=KG)
    st, _ = play(st, "dwarf-6", "undead-3", "dwarf-9", "doppelganger-3")
    # the Doppelganger counts as led (M4.3) and ranks above the off-faction Undead 3 -> seat 1
    assert st.last["winner"] == 2 and st.last["dwarves_to"] == 1
    st = make_state([["dwarf-6"], ["undead-3"], ["dwarf-9"], ["undead-3"]], phase=PHASE2)
    st, _ = play(st, "dwarf-6", "undead-3", "dwarf-9", "undead-3")
    assert st.last["dwarves_to"] == 3 and ids(st.score[3]) == ["dwarf-6", "dwarf-9"]


def test_M6_3_4_players_winners_own_dwarf_goes_to_the_other_team_too():
    st = make_state([["goblin-1"], ["goblin-0"], ["dwarf-9"], ["goblin-3"]], leader=2, phase=PHASE2)
    # seat 2 leads Dwarf 9 and wins (nobody follows Dwarves); team 1 = seats 3 (Goblin 3), 1 (Goblin 0)
    st, _ = play(st, "dwarf-9", "goblin-3", "goblin-1", "goblin-0")
    assert st.last["winner"] == 2 and st.last["dwarves_to"] == 1 and ids(st.score[1]) == ["dwarf-9"]


def test_M6_3_3_players_the_recipient_is_always_a_player_who_lost():
    # checked for the same flaw: with 3 players every other player is an opponent, so the lowest
    # card of the trick (never the winner's) is always a losing opponent's

    cards = [0x02, 0x35, 0x07, 0x31, 0x19, 0x40, 0x45]  # goblins, dwarves, knight, undead, doppelganger
    for trick in itertools.permutations(cards, 3):
        w = R.trick_winner(trick)
        for leader in range(3):
            to = R.dwarf_recipient(trick, w, leader, 3)
            assert to != (leader + w) % 3
            assert to == (leader + R.lowest_ranked_index(trick, w)) % 3


def test_M6_3_4_players_a_trick_without_an_opposing_card_cannot_occur():
    # a complete trick holds two cards of each team; a 1-card "trick" is refused, never guessed
    assert R.dwarf_recipient([0x35, 0x32], 0, 0, 4) == 1
    with pytest.raises(ValueError, match="no card of the side that lost"):
        R.dwarf_recipient([0x35], 0, 0, 4)


def test_M6_3_doppelganger_on_a_dwarf_lead_goes_to_the_winner():
    st = make_state([["dwarf-1"], ["doppelganger-7"], ["goblin-0"]], phase=PHASE2)
    st, _ = play(st, "dwarf-1", "doppelganger-7", "goblin-0")
    assert ids(st.score[1]) == ["doppelganger-7", "goblin-0"] and ids(st.score[2]) == ["dwarf-1"]


def test_M6_4_won_gnomes_go_to_the_winners_row_and_are_scored_at_the_end():
    st = make_state([["gnome-3", "seer-0"], ["gnome-7", "seer-1"], ["gnome-1", "seer-2"]], phase=PHASE2, factions=GG)
    st, _ = play(st, "gnome-3", "gnome-7", "gnome-1")
    assert ids(st.gnomes[1]) == ["gnome-1", "gnome-3", "gnome-7"] and st.score[1] == []
    st, _ = play(st, "seer-1", "seer-2", "seer-0")
    assert st.phase == OVER and ids(st.score[1]) == ["gnome-1", "gnome-3", "gnome-7"]


def test_M6_5_one_candidate_the_giant_smashes_at_once():
    st = make_state([["giant-5", "seer-9"], ["dragon-1", "seer-8"], ["troll-2", "seer-7"]], phase=PHASE2,
                    factions=GG, gnomes=[[], ["gnome-1"], ["gnome-5", "gnome-1"]])
    st, ev = play(st, "giant-5", "dragon-1", "troll-2")
    assert st.last["smashed"] == cs(["gnome-5"]) and st.last["smashed_from"] == [2]
    assert st.smash_seat == -1 and ids(st.gnomes[2]) == ["gnome-1"] and st.turn == 1  # Dragon leads
    assert not [e for e in ev if e["type"] == "smash_pending"]


def test_M6_5_two_candidates_the_winner_chooses_with_an_explicit_move():
    st = make_state([["giant-5", "seer-9"], ["dragon-1", "seer-8"], ["troll-2", "seer-7"]], phase=PHASE2,
                    factions=GG, gnomes=[[], ["gnome-5"], ["gnome-5", "gnome-1"]])
    st, ev = play(st, "giant-5", "dragon-1", "troll-2")
    # the trick is complete and reported; the winner (seat 0) owes the choice before anyone plays on
    assert st.last["winner"] == 0 and st.last["smashed"] == [] and st.played == []
    assert CLAIM_MIX.to_act(st) == frozenset({0})
    assert CLAIM_MIX.legal_moves(st, 0) == [{"smash": 1}, {"smash": 2}]
    assert CLAIM_MIX.legal_moves(st, 1) == []
    assert ev[-1] == {"type": "smash_pending", "seat": 0, "gnome": "gnome-5", "candidates": [1, 2]}
    v = CLAIM_MIX.view(st, 1)
    assert v["smash_pending"] == {"seat": 0, "gnome": "gnome-5", "candidates": [1, 2], "later": []}
    with pytest.raises(IllegalMove, match="choose whose"):
        CLAIM_MIX.apply(st, 0, {"play": "seer-9"})
    with pytest.raises(IllegalMove, match="not a seat you may choose"):
        CLAIM_MIX.apply(st, 0, {"smash": 0})  # never the winner's own Gnome
    with pytest.raises(NotYourTurn):
        CLAIM_MIX.apply(st, 1, {"smash": 2})
    st2, ev = play(st, "smash:1")  # the winner picks the opponent with fewer Gnomes: its choice
    assert ev == [{"type": "smash", "seat": 0, "from": 1, "gnome": "gnome-5"}]
    assert st2.last["smashed"] == cs(["gnome-5"]) and st2.last["smashed_from"] == [1]
    assert st2.gnomes[1] == [] and ids(st2.gnomes[2]) == ["gnome-1", "gnome-5"]
    assert st2.smash_seat == -1 and CLAIM_MIX.to_act(st2) == frozenset({1})  # the Dragon leads next
    assert st.last["smashed"] == []  # the state before the choice is unchanged
    assert CLAIM_MIX.view(st2, 1)["smash_pending"] is None


def test_M6_5_T3_2c_several_giants_one_choice_each_in_play_order():
    st = make_state([["giant-5", "seer-0"], ["giant-7", "seer-1"], ["giant-1", "seer-2"]], phase=PHASE2,
                    factions=GG, gnomes=[["gnome-5", "gnome-7"], ["gnome-7"], ["gnome-1", "gnome-7"]])
    st, _ = play(st, "giant-5", "giant-7", "giant-1")
    assert st.last["winner"] == 1
    # Giant 5: only seat 0 has a Gnome 5 -> at once; Giant 7: seats 2 and 0 -> the winner chooses
    assert st.last["smashed"] == cs(["gnome-5"]) and st.last["smashed_from"] == [0]
    assert CLAIM_MIX.view(st, 1)["smash_pending"] == {"seat": 1, "gnome": "gnome-7", "candidates": [2, 0],
                                                      "later": ["gnome-1"]}
    st, _ = play(st, "smash:0")
    # Giant 1: only seat 2 has a Gnome 1 -> at once; the winner's own Gnome 7 is never smashed
    assert st.last["smashed"] == cs(["gnome-5", "gnome-7", "gnome-1"]) and st.last["smashed_from"] == [0, 0, 2]
    assert ids(st.gnomes[1]) == ["gnome-7"] and ids(st.gnomes[2]) == ["gnome-7"] and st.gnomes[0] == []
    assert ids(st.score[1]) == ["giant-1", "giant-5", "giant-7"] and st.smash_seat == -1


def test_M6_5_never_the_partners_gnome_with_4_players():
    st = make_state([["giant-5"], ["seer-1"], ["dragon-2"], ["troll-0"]], phase=PHASE2, factions=GG,
                    gnomes=[[], ["gnome-3"], ["gnome-5"], []])
    st, _ = play(st, "giant-5", "seer-1", "dragon-2", "troll-0")
    assert st.last["smashed"] == [] and st.smashed == [] and st.phase == OVER
    assert ids(st.score[2]) == ["gnome-5"]
    assert R.opponents(0, 4) == [1, 3] and R.opponents(3, 4) == [0, 2] and R.opponents(1, 3) == [2, 0]
    assert R.giant_candidates(0, 5, 4, [["gnome-5"], [], [0x55], []]) == []  # the partner (seat 2) never


def test_M6_5_4_players_both_opponents_have_one_the_winner_chooses_never_the_partner():
    st = make_state([["giant-5"], ["seer-1"], ["dragon-2"], ["troll-0"]], phase=PHASE2, factions=GG,
                    gnomes=[[], ["gnome-5"], ["gnome-5"], ["gnome-5", "gnome-7"]])
    st, _ = play(st, "giant-5", "seer-1", "dragon-2", "troll-0")
    assert st.phase == PHASE2 and CLAIM_MIX.legal_moves(st, 0) == [{"smash": 1}, {"smash": 3}]
    with pytest.raises(IllegalMove):
        CLAIM_MIX.apply(st, 0, {"smash": 2})  # the partner
    st, ev = play(st, "smash:1")
    assert st.last["smashed_from"] == [1]
    # it was the last trick: the game ends after the choice, Gnome rows scored (T3.1b)
    assert st.phase == OVER and ev[-1]["type"] == "game_over" and ids(st.score[2]) == ["gnome-5"]
    assert st.score[1] == [] and ids(st.score[3]) == ["gnome-5", "gnome-7"]


def test_M6_5_a_pending_giant_choice_survives_json_and_records():
    st = make_state([["giant-5", "seer-9"], ["dragon-1", "seer-8"], ["troll-2", "seer-7"]], phase=PHASE2,
                    factions=GG, gnomes=[[], ["gnome-5"], ["gnome-5", "gnome-1"]])
    st, _ = play(st, "giant-5", "dragon-1", "troll-2")
    data = json.loads(json.dumps(CLAIM_MIX.to_json(st)))
    back = CLAIM_MIX.from_json(data)
    assert CLAIM_MIX.to_json(back) == CLAIM_MIX.to_json(st) and back.smash_seat == 0
    assert CLAIM_MIX.legal_moves(back, 0) == [{"smash": 1}, {"smash": 2}]
    old = {k: v for k, v in data.items() if k not in ("smash_seat", "smash_left")}
    assert CLAIM_MIX.from_json(old).smash_seat == -1  # states saved before M6.5 was a move
    st, _ = play(st, "smash:2")
    assert CLAIM_MIX.to_json(st).get("smash_seat") is None
    assert CLAIM_MIX.record(st)["moves"][-1] == {"seat": 0, "move": {"smash": 2}}


def test_M6_5_giant_choices_in_self_played_records_replay():
    seen = 0
    for seats in (3, 4):
        for rec in generate("claim-mix", 120, 5, seats=seats, factions=GG):
            smashes = [m for m in rec["moves"] if "smash" in m["move"]]
            seen += len(smashes)
            assert CLAIM_MIX.replay_record(rec) == rec["result"]
    assert seen > 0


def test_M6_6_trolls_one_per_trick_from_the_pool_last_trick_takes_all():
    st = make_state([["troll-4", "gnome-1"], ["troll-8", "gnome-3"], ["troll-6", "gnome-7"]], phase=PHASE2,
                    factions=GG)
    st, _ = play(st, "troll-4", "troll-8", "troll-6")
    assert ids(st.score[1]) == ["troll-8"] and ids(st.pool) == ["troll-4", "troll-6"]
    st, _ = play(st, "gnome-3", "gnome-7", "gnome-1")
    assert sorted(st.last["troll_pickup"]) == cs(["troll-4", "troll-6"])
    assert ids(st.score[2]) == ["gnome-1", "gnome-3", "gnome-7", "troll-4", "troll-6"] and st.pool == []


def test_M6_6_a_trick_can_add_up_to_N_trolls():
    st = make_state([["troll-1", "seer-0"], ["troll-2", "seer-1"], ["troll-3", "seer-2"], ["troll-9", "seer-3"]],
                    phase=PHASE2, factions=GG)
    st, _ = play(st, "troll-1", "troll-2", "troll-3", "troll-9")
    assert ids(st.score[3]) == ["troll-9"] and len(st.pool) == 3


def test_M6_7_phase_2_last_dragon_leads_next():
    st = make_state([["seer-5", "seer-0"], ["dragon-1", "troll-1"], ["seer-2", "seer-3"]], phase=PHASE2,
                    factions=GG)
    st, _ = play(st, "seer-5", "dragon-1", "seer-2")
    assert st.last["winner"] == 0 and st.leader == 1 and ids(st.score[0]) == ["dragon-1", "seer-2", "seer-5"]


def test_M6_1_phase_2_has_12_or_9_tricks():
    for seats, n in ((3, 12), (4, 9)):
        st = CLAIM_MIX.setup({"factions": KG}, seats, 11)
        last_trick = 0
        while not CLAIM_MIX.is_over(st):
            (seat,) = CLAIM_MIX.to_act(st)
            st, _ = CLAIM_MIX.apply(st, seat, CLAIM_MIX.legal_moves(st, seat)[-1])
            if st.phase != 1 and st.last and st.last["phase"] == 2:
                last_trick = st.last["trick"]
        assert last_trick == n
