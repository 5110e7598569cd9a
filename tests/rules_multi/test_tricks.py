"""M4 trick play with 3 or 4 players: following, the winner, ranking, the next leader."""

from __future__ import annotations

import pytest

from games.rules.base import IllegalMove
from games.rules.claim import CLAIM_MIX
from games.rules.claim import multiplayer_rulings as R
from games.rules.claim.core import PHASE2

from .helpers import GG, cs, legal_cards, make_state, play

D = ["undead-0", "undead-1", "undead-2", "undead-3", "undead-4", "undead-5", "undead-6", "undead-7", "undead-8"]


def test_M3_6_play_proceeds_clockwise_from_the_leader():
    st = make_state([["dwarf-1"], ["dwarf-2"], ["dwarf-3"], ["dwarf-4"]], leader=2, phase=PHASE2)
    order = []
    for _ in range(4):
        (seat,) = CLAIM_MIX.to_act(st)
        order.append(seat)
        st, _ = play(st, CLAIM_MIX.legal_moves(st, seat)[0]["play"])
    assert order == [2, 3, 0, 1]


def test_M4_2_every_other_player_must_follow_or_play_a_doppelganger():
    st = make_state([["goblin-3", "dwarf-0"], ["knight-4", "dwarf-1"], ["goblin-5", "knight-9", "doppelganger-2"]],
                    deck=D)
    st, _ = play(st, "goblin-3")
    assert legal_cards(st) == ["knight-4", "dwarf-1"]  # C4.2b cannot follow: anything
    st, _ = play(st, "knight-4")
    # M4.2 the Knight does not change the led faction: seat 2 still must follow Goblins
    assert legal_cards(st) == ["goblin-5", "doppelganger-2"]
    with pytest.raises(IllegalMove, match=r"you must follow Goblins \(or play a Doppelganger\): you hold Goblin 5"):
        CLAIM_MIX.apply(st, 2, {"play": "knight-9"})


def test_M4_2_a_led_doppelganger_must_be_followed_by_doppelgangers_if_able():
    st = make_state([["doppelganger-3", "dwarf-0"], ["doppelganger-1", "goblin-9"], ["goblin-5", "dwarf-4"]],
                    deck=D)
    st, _ = play(st, "doppelganger-3")
    assert legal_cards(st) == ["doppelganger-1"]
    st, _ = play(st, "doppelganger-1")
    assert legal_cards(st) == ["goblin-5", "dwarf-4"]


def test_M4_4a_highest_knight_beats_several_goblins():
    st = make_state([["goblin-9", "dwarf-0"], ["knight-3", "dwarf-1"], ["knight-7", "dwarf-2"],
                     ["goblin-8", "dwarf-3"]], deck=D)
    st, _ = play(st, "goblin-9", "knight-3", "knight-7", "goblin-8")
    assert st.last["winner"] == 2


def test_M4_4a_A19_a_knight_beats_a_doppelganger_counting_as_goblin():
    st = make_state([["goblin-1", "dwarf-0"], ["doppelganger-9", "dwarf-1"], ["knight-2", "dwarf-2"]], deck=D)
    st, _ = play(st, "goblin-1", "doppelganger-9", "knight-2")
    assert st.last["winner"] == 2
    assert R.trick_winner(cs(["goblin-1", "doppelganger-9", "knight-2"])) == 2


def test_M4_4b_A18_equal_values_between_non_leaders_go_to_the_earliest_card():
    st = make_state([["goblin-3", "dwarf-0"], ["doppelganger-5", "dwarf-1"], ["goblin-5", "dwarf-2"]], deck=D)
    st, _ = play(st, "goblin-3", "doppelganger-5", "goblin-5")
    assert st.last["winner"] == 1
    # the leader keeps ties too (C4.4b)
    assert R.trick_winner(cs(["goblin-5", "goblin-5", "doppelganger-5", "goblin-0"])) == 0


def test_M4_4b_off_faction_cards_never_win_and_a_led_doppelganger_is_compared_by_value():
    assert R.trick_winner(cs(["dwarf-2", "undead-9", "goblin-9", "dwarf-1"])) == 0
    assert R.trick_winner(cs(["doppelganger-2", "undead-9", "doppelganger-4"])) == 2


def test_M4_5_card_ranking_counts_as_led_then_off_faction_then_earlier():
    cards = cs(["goblin-3", "knight-2", "goblin-0", "doppelganger-1", "dwarf-9", "undead-9"])
    w = R.trick_winner(cards)
    assert w == 1
    order = sorted((i for i in range(len(cards)) if i != w), key=lambda i: R.rank_key(cards, i), reverse=True)
    # goblin-3 (led) > doppelganger-1 > goblin-0 (counting as led) > dwarf-9 > undead-9 (off, later lower)
    assert order == [0, 3, 2, 4, 5]
    assert R.lowest_ranked_index(cards, w) == 5
    # Knights rank above Goblins/Doppelgangers on a Goblin lead (the losing Knight too)
    cards = cs(["goblin-9", "knight-2", "knight-5", "doppelganger-9"])
    assert R.trick_winner(cards) == 2
    assert R.lowest_ranked_index(cards, 2) == 3


def test_M4_6_T3_3_the_last_dragon_played_leads_next_even_if_it_lost():
    st = make_state([["dragon-9", "dwarf-0"], ["dragon-1", "dwarf-1"], ["seer-0", "dwarf-2"], ["dragon-0", "dwarf-3"]],
                    deck=D, factions=GG)
    st, _ = play(st, "dragon-9", "dragon-1", "seer-0", "dragon-0")
    assert st.last["winner"] == 0 and st.last["next_leader"] == 3 and CLAIM_MIX.to_act(st) == {3}
    # no Dragon: the winner leads
    assert R.next_leader(cs(["seer-1", "seer-5", "troll-9"]), 1) == 1


def test_M4_6_a_doppelganger_is_never_a_dragon():
    assert R.next_leader(cs(["dragon-3", "doppelganger-5", "undead-1"]), 1) == 0
