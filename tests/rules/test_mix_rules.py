"""The 2-player mix (M1, M2) and option validation."""

from __future__ import annotations

from collections import Counter

import pytest

from games.rules.base import InvalidOptions
from games.rules.cards import FACTION_NAMES, deck_for
from games.rules.claim import CLAIM, CLAIM2, CLAIM_MIX
from games.rules.claim.core import PHASE2
from games.rules.claim.options import faction_ids
from games.rules.claim.serial import result_of

from .helpers import ids, make_state, play, score_ids

MIX_A = ["knight", "goblin", "dragon", "seer", "troll"]
MIX_B = ["gnome", "giant", "dwarf", "doppelganger", "undead"]
MIX_C = ["gnome", "giant", "doppelganger", "dragon", "seer"]
MIX_D = ["gnome", "giant", "doppelganger", "troll", "dwarf"]


@pytest.mark.parametrize(
    ("factions", "message"),
    [
        (["knight", "undead", "dwarf", "doppelganger", "dragon"],
         "Knights and Goblins are a pair: choose both or neither"),
        (["gnome", "undead", "dwarf", "doppelganger", "dragon"],
         "Gnomes and Giants are a pair: choose both or neither"),
        (["knight", "goblin", "undead", "dwarf"], "choose exactly 3 single factions .*you chose 2"),
        (["knight", "goblin", "undead", "dwarf", "seer", "troll"], "you chose 4"),
        (["knight", "goblin", "gnome", "giant", "seer"], "exactly one pair .*you chose both"),
        (["undead", "dwarf", "doppelganger", "dragon", "troll"], "exactly one pair .*you chose none"),
        (["knight", "goblin", "undead", "dwarf", "elf"], "unknown faction 'elf'"),
        (["knight", "goblin", "undead", "undead", "dwarf"], "chosen twice"),
        ("knight,goblin", "must be a list"),
    ],
)
def test_M1_2_M2_1_invalid_mix_options(factions, message):
    with pytest.raises(InvalidOptions, match=message):
        CLAIM_MIX.normalize_options({"factions": factions}, 2)
    with pytest.raises(InvalidOptions):
        CLAIM_MIX.setup({"factions": factions}, 2, 1)


def test_M2_1_mix_requires_factions_and_two_seats():
    with pytest.raises(InvalidOptions, match='needs the option "factions"'):
        CLAIM_MIX.normalize_options({}, 2)
    with pytest.raises(InvalidOptions, match="2 players"):
        CLAIM_MIX.normalize_options({"factions": MIX_A}, 3)
    with pytest.raises(InvalidOptions, match="2 players"):
        CLAIM.setup(None, 4, 1)
    with pytest.raises(InvalidOptions, match="unknown option 'colour'"):
        CLAIM.normalize_options({"colour": "red"}, 2)


def test_claim_and_claim2_have_fixed_factions():
    assert CLAIM.normalize_options(None, 2) == {"factions": ["goblin", "knight", "undead", "dwarf",
                                                             "doppelganger"]}
    assert CLAIM2.normalize_options({}, 2)["factions"] == ["gnome", "giant", "dragon", "troll", "seer"]
    with pytest.raises(InvalidOptions, match="use claim-mix"):
        CLAIM.normalize_options({"factions": MIX_A}, 2)


def test_M2_1_mix_options_normalised_in_canonical_order_and_aliases_accepted():
    norm = CLAIM_MIX.normalize_options({"factions": ["Trolls", "seer", "Goblins", "knight", "dragon"]}, 2)
    assert norm == {"factions": ["goblin", "knight", "dragon", "troll", "seer"]}


@pytest.mark.parametrize("factions", [MIX_A, MIX_B, MIX_C, MIX_D])
def test_M2_1_mix_deck_has_52_cards_and_M2_2_deal(factions):
    fids = faction_ids(CLAIM_MIX.normalize_options({"factions": factions}, 2))
    deck = deck_for(fids)
    assert len(deck) == 52
    assert set(Counter(FACTION_NAMES[x >> 4] for x in deck)) == set(factions)
    st = CLAIM_MIX.setup({"factions": factions}, 2, 9)
    assert [len(h) for h in st.hands] == [13, 13] and len(st.deck) == 26


def test_M2_5a_doppelganger_on_dragon_lead_does_not_take_lead():
    st = make_state("claim-mix", [["dragon-3", "seer-1"], ["doppelganger-5", "seer-2"]], factions=MIX_C,
                    deck=["gnome-1", "gnome-3", "gnome-5", "gnome-7"])
    st, _ = play(st, "dragon-3", "doppelganger-5")
    assert st.last["winner"] == 1  # the Doppelganger counts as a Dragon for winning
    assert st.last["next_leader"] == 0  # ... but is no Dragon: the leader's Dragon is the last one


def test_M2_5a_doppelganger_winning_on_seer_lead_gives_no_peek():
    st = make_state("claim-mix", [["seer-3", "dragon-1"], ["doppelganger-5", "dragon-2"]],
                    factions=MIX_C, deck=["gnome-1", "gnome-3", "gnome-5", "gnome-7"])
    st, _ = play(st, "seer-3", "doppelganger-5")
    assert st.last["winner"] == 1 and st.seer == -1 and st.last["seer"] is None


def test_M2_5a_doppelganger_on_troll_lead_goes_straight_to_score_pile():
    st = make_state("claim-mix", [["troll-3", "dwarf-1"], ["doppelganger-5", "dwarf-2"]], factions=MIX_D,
                    phase=PHASE2)
    st, _ = play(st, "troll-3", "doppelganger-5")
    assert score_ids(st, 1) == ["doppelganger-5", "troll-3"]  # the Troll goes via the pool
    assert st.pool == []


def test_M2_5a_doppelganger_on_gnome_lead_goes_to_score_pile_not_row_and_giant_smashes_nothing():
    st = make_state("claim-mix", [["gnome-3", "giant-5"], ["doppelganger-5", "dwarf-2"]],
                    factions=MIX_D, phase=PHASE2)
    st, _ = play(st, "gnome-3", "doppelganger-5")
    assert ids(st.gnomes[1]) == ["gnome-3"] and score_ids(st, 1) == ["doppelganger-5"]
    st2 = make_state("claim-mix", [["giant-5", "dwarf-1"], ["doppelganger-5", "dwarf-2"]],
                     factions=MIX_D, phase=PHASE2, gnomes=[["gnome-5"], ["gnome-5"]])
    st2, _ = play(st2, "giant-5", "doppelganger-5")
    assert st2.last["winner"] == 0  # tie -> leader; the leader's Giant smashes the follower's Gnome 5
    assert st2.gnomes == [[st2.gnomes[0][0]], []]
    st3 = make_state("claim-mix", [["giant-3", "dwarf-1"], ["doppelganger-5", "dwarf-2"]],
                     factions=MIX_D, phase=PHASE2, gnomes=[["gnome-5"], ["gnome-5"]])
    st3, _ = play(st3, "giant-3", "doppelganger-5")
    assert st3.last["winner"] == 1 and st3.smashed == []  # a winning Doppelganger smashes nothing


def test_M2_5b_phase2_dwarves_to_loser_gnomes_row_trolls_pool_giants_smash():
    st = make_state("claim-mix", [["dwarf-2", "troll-1"], ["dwarf-7", "troll-2"]], factions=MIX_D,
                    phase=PHASE2, pool=["troll-9"])
    st, _ = play(st, "dwarf-2", "dwarf-7")
    assert score_ids(st, 0) == ["dwarf-2", "dwarf-7"] and score_ids(st, 1) == ["troll-9"]
    st = make_state("claim-mix", [["giant-5", "troll-1"], ["dwarf-7", "troll-2"]], factions=MIX_D,
                    phase=PHASE2, gnomes=[[], ["gnome-5"]])
    st, _ = play(st, "giant-5", "dwarf-7")
    assert st.last["winner"] == 0 and score_ids(st, 1) == ["dwarf-7"]  # Dwarf to the loser
    assert score_ids(st, 0) == ["giant-5"] and ids(st.smashed) == ["gnome-5"]


def test_M2_5c_phase1_undead_still_scored_with_seer_choice():
    st = make_state("claim-mix", [["seer-6", "goblin-1"], ["undead-4", "goblin-2"]],
                    factions=["knight", "goblin", "undead", "seer", "dragon"],
                    deck=["knight-9", "dragon-5", "goblin-3", "goblin-4"])
    st, _ = play(st, "seer-6", "undead-4", "seer:top")
    assert score_ids(st, 0) == ["undead-4"]
    assert ids(st.followers[0]) == ["dragon-5"] and ids(st.followers[1]) == ["knight-9"]


def test_M2_5d_dragon_changes_only_the_leader_with_undead():
    st = make_state("claim-mix", [["undead-6", "goblin-1"], ["dragon-4", "goblin-2"]],
                    factions=["knight", "goblin", "undead", "seer", "dragon"],
                    deck=["knight-9", "dragon-5", "goblin-3", "goblin-4"])
    st, _ = play(st, "undead-6", "dragon-4")
    assert st.last["winner"] == 0 and score_ids(st, 0) == ["undead-6"]
    assert ids(st.followers[0]) == ["knight-9"] and st.leader == 1


def test_M2_4_mix_uses_T4_3_tiebreak_for_goblin_zeros():
    st = make_state("claim-mix", [[], []], factions=MIX_A, phase=PHASE2,
                    score=[["goblin-0", "goblin-0"], ["goblin-0", "goblin-1"]])
    assert result_of(st)["votes"]["goblin"] == 1
