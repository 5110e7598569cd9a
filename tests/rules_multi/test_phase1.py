"""M5 phase 1 with 3 or 4 players: prize and blind draws, Undead, Seers, the phase-2 leader."""

from __future__ import annotations

from games.rules.claim import CLAIM_MIX

from .helpers import GG, cs, ids, make_state, play

DECK3 = ["troll-0", "troll-1", "troll-2", "troll-3", "troll-4", "troll-5"]


def test_M5_2_winner_takes_the_prize_others_draw_blind_clockwise_from_the_winners_left():
    st = make_state([["dwarf-3", "seer-0"], ["dwarf-5", "seer-1"], ["dwarf-1", "seer-2"], ["dwarf-2", "seer-3"]],
                    deck=["troll-9", "troll-1", "troll-2", "troll-3", "troll-4", "troll-5", "troll-6", "troll-7"],
                    factions=GG)
    st, events = play(st, "dwarf-3", "dwarf-5", "dwarf-1", "dwarf-2")
    assert st.last["winner"] == 1 and st.last["prize_to"] == 1
    assert [ids(f) for f in st.followers] == [["troll-3"], ["troll-9"], ["troll-1"], ["troll-2"]]
    assert st.last["blind_draws"] == [2, 3, 0]
    assert [e["seat"] for e in events if e["type"] == "blind_draw"] == [2, 3, 0]
    assert ids(st.public_followers[1]) == ["troll-9"]  # C2.4 the prize's destination is public
    assert st.prize == st.deck[4] and CLAIM_MIX.view(st, 0)["deck_count"] == 3


def test_M5_1_after_k_tricks_every_player_has_k_followers_and_the_deck_shrinks_by_N():
    st = CLAIM_MIX.setup({"factions": GG}, 3, 4)
    for k in range(1, 13):
        while True:
            (seat,) = CLAIM_MIX.to_act(st)
            st, _ = CLAIM_MIX.apply(st, seat, CLAIM_MIX.legal_moves(st, seat)[0])
            if st.last is not None and st.last["trick"] == k and not st.played and st.seer < 0:
                break
        if k < 12:
            assert [len(f) for f in st.followers] == [k] * 3 and [len(h) for h in st.hands] == [12 - k] * 3
            assert len(st.deck) - st.dpos == 36 - 3 * k - 1  # the next prize is revealed
    # M5.1 / M6.1 after phase 1: hands = 12 followers each, deck empty
    assert st.phase == 2 and [len(h) for h in st.hands] == [12] * 3 and st.dpos == 36


def test_M5_3_every_played_undead_goes_to_the_winners_score_pile():
    st = make_state([["undead-3", "dwarf-0"], ["undead-7", "dwarf-1"], ["doppelganger-9", "dwarf-2"]],
                    deck=DECK3, factions=["knight", "goblin", "undead", "dwarf", "doppelganger", "seer", "troll"])
    st, _ = play(st, "undead-3", "undead-7", "doppelganger-9")
    assert st.last["winner"] == 2
    assert ids(st.score[2]) == ["undead-3", "undead-7"] and ids(st.discard) == ["doppelganger-9"]


def _seer_state():
    return make_state([["seer-2", "dwarf-0"], ["seer-6", "dwarf-1"], ["dwarf-9", "dwarf-2"]],
                      deck=["troll-9", "troll-0", "troll-5", "troll-1", "troll-2", "troll-3"], factions=GG)


def test_M5_4_seer_winner_peeks_keeps_the_prize_and_the_left_player_gets_the_peeked_card():
    st, events = play(_seer_state(), "seer-2", "seer-6", "dwarf-9")
    assert st.seer == 1 and CLAIM_MIX.to_act(st) == {1}
    assert {"type": "seer_pending", "seat": 1} in events
    assert CLAIM_MIX.view(st, 1)["peek"] == "troll-0"
    assert "peek" not in CLAIM_MIX.view(st, 2) and "troll-0" not in str(CLAIM_MIX.view(st, 2))
    st, _ = play(st, "seer:prize")
    assert [ids(f) for f in st.followers] == [["troll-5"], ["troll-9"], ["troll-0"]]
    assert st.last["prize_to"] == 1 and st.last["blind_draws"] == [2, 0]
    assert CLAIM_MIX.view(st, 1)["peeked_cards"] == ["troll-0"]  # the winner knows seat 2's card
    assert CLAIM_MIX.view(st, 0)["peeked_cards"] == []


def test_M5_4_seer_winner_takes_the_top_card_and_the_left_player_gets_the_face_up_prize():
    st, _ = play(_seer_state(), "seer-2", "seer-6", "dwarf-9", "seer:top")
    assert [ids(f) for f in st.followers] == [["troll-5"], ["troll-0"], ["troll-9"]]
    assert st.last["prize_to"] == 2 and st.last["blind_draws"] == [0]
    assert ids(st.public_followers[2]) == ["troll-9"] and st.public_followers[1] == []
    assert st.last["seer"] == {"seat": 1, "choice": "top"}


def test_M5_4_no_seer_power_for_a_seer_that_did_not_win_or_a_doppelganger():
    st = make_state([["seer-2", "dwarf-0"], ["doppelganger-8", "dwarf-1"], ["seer-6", "dwarf-2"]],
                    deck=DECK3, factions=["knight", "goblin", "undead", "dwarf", "doppelganger", "seer", "troll"])
    st, _ = play(st, "seer-2", "doppelganger-8", "seer-6")
    assert st.seer == -1 and st.last["winner"] == 1 and st.last["seer"] is None


def test_M5_6_phase_2_is_led_by_the_last_dragon_of_the_last_phase_1_trick():
    st = make_state([["seer-5"], ["seer-1"], ["dragon-0"]], deck=["troll-1", "troll-2", "troll-3"], factions=GG)
    st, events = play(st, "seer-5", "seer-1", "dragon-0", "seer:prize")
    assert st.phase == 2 and st.leader == 2 and CLAIM_MIX.to_act(st) == {2}
    assert {"type": "phase", "phase": 2, "leader": 2} in events
    assert [ids(h) for h in st.hands] == [["troll-1"], ["troll-2"], ["troll-3"]]  # M5.4 T to the left


def test_M5_5_undead_prize_is_a_follower_not_scored():
    st = make_state([["dwarf-1"], ["dwarf-2"], ["dwarf-3"]], deck=["undead-9", "troll-2", "troll-3"], factions=GG)
    st, _ = play(st, "dwarf-1", "dwarf-2", "dwarf-3")
    assert ids(st.hands[2]) == ["undead-9"] and st.score == [[], [], []]
    assert cs(["dwarf-1", "dwarf-2", "dwarf-3"]) == sorted(st.discard)
