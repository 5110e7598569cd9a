"""M6 phase 2 with 3 or 4 players: Dwarves, Gnomes, Giants, Trolls, Dragons."""

from __future__ import annotations

from games.rules.claim import CLAIM_MIX
from games.rules.claim import multiplayer_rulings as R
from games.rules.claim.core import OVER, PHASE2

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


def test_M6_5_giant_smashes_the_matching_gnome_of_the_opponent_with_most_gnomes():
    st = make_state([["giant-5"], ["dragon-1"], ["troll-2"]], phase=PHASE2, factions=GG,
                    gnomes=[[], ["gnome-5"], ["gnome-5", "gnome-1"]])
    st, _ = play(st, "giant-5", "dragon-1", "troll-2")
    assert st.last["smashed"] == cs(["gnome-5"]) and st.last["smashed_from"] == [2]
    assert ids(st.score[2]) == ["gnome-1"] and ids(st.score[1]) == ["gnome-5"]


def test_M6_5_equal_rivals_the_first_opponent_clockwise_from_the_winners_left():
    st = make_state([["seer-0"], ["troll-0"], ["giant-3"]], leader=2, phase=PHASE2, factions=GG,
                    gnomes=[["gnome-3"], ["gnome-3"], []])
    st, _ = play(st, "giant-3", "seer-0", "troll-0")
    assert st.last["winner"] == 2 and st.last["smashed_from"] == [0]
    # the Gnomes in the score pile count as well
    st = make_state([["seer-0"], ["troll-0"], ["giant-3"]], leader=2, phase=PHASE2, factions=GG,
                    gnomes=[["gnome-3"], ["gnome-3"], []], score=[[], ["gnome-9"], []])
    st, _ = play(st, "giant-3", "seer-0", "troll-0")
    assert st.last["smashed_from"] == [1]


def test_M6_5_never_the_partners_gnome_with_4_players():
    st = make_state([["giant-5"], ["seer-1"], ["dragon-2"], ["troll-0"]], phase=PHASE2, factions=GG,
                    gnomes=[[], ["gnome-3"], ["gnome-5"], []])
    st, _ = play(st, "giant-5", "seer-1", "dragon-2", "troll-0")
    assert st.last["smashed"] == [] and st.smashed == []
    assert ids(st.score[2]) == ["gnome-5"]
    assert R.opponents(0, 4) == [1, 3] and R.opponents(3, 4) == [0, 2] and R.opponents(1, 3) == [2, 0]


def test_M6_5_4_players_either_opponent_with_more_gnomes():
    st = make_state([["giant-5"], ["seer-1"], ["dragon-2"], ["troll-0"]], phase=PHASE2, factions=GG,
                    gnomes=[[], ["gnome-5"], ["gnome-5"], ["gnome-5", "gnome-7"]])
    st, _ = play(st, "giant-5", "seer-1", "dragon-2", "troll-0")
    assert st.last["smashed_from"] == [3]


def test_M6_5_T3_2c_several_giants_smash_one_gnome_each_from_any_opponent():
    st = make_state([["giant-5"], ["giant-7"], ["giant-1"]], phase=PHASE2, factions=GG,
                    gnomes=[["gnome-5"], ["gnome-7"], ["gnome-1", "gnome-7"]])
    st, _ = play(st, "giant-5", "giant-7", "giant-1")
    assert st.last["winner"] == 1
    assert st.last["smashed"] == cs(["gnome-5", "gnome-7", "gnome-1"])
    assert st.last["smashed_from"] == [0, 2, 2]
    assert ids(st.score[1]) == ["giant-1", "giant-5", "giant-7", "gnome-7"]  # own Gnome never smashed


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
