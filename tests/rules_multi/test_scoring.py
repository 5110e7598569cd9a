"""M7 scoring with 3 players (each for themselves) and 4 players (partnerships)."""

from __future__ import annotations

from games.rules.claim import CLAIM_MIX
from games.rules.claim import multiplayer_rulings as R
from games.rules.claim.core import OVER, PHASE2

from .helpers import KG, cs, make_state


def _over(score, factions=KG):
    st = make_state([[] for _ in score], phase=PHASE2, factions=factions, score=score)
    st.phase = OVER
    st.turn = -1
    return st


def test_M7_1_most_cards_wins_the_vote_then_highest_cards_then_nobody():
    assert R.faction_vote_n([cs(["goblin-3", "goblin-1"]), cs(["goblin-9"]), []]) == 0
    # tied for most: compare highest, then second-highest (T4.3)
    assert R.faction_vote_n([cs(["goblin-5", "goblin-1"]), cs(["goblin-5", "goblin-2"]), cs(["goblin-9"])]) == 1
    # still tied -> nobody, even though a third player has cards (not tied for most: irrelevant)
    assert R.faction_vote_n([cs(["goblin-0", "goblin-0"]), cs(["goblin-0", "goblin-0"]), cs(["goblin-9"])]) is None
    assert R.faction_vote_n([[], [], []]) is None  # C8.5
    # three-way tie broken by values
    assert R.faction_vote_n([cs(["dwarf-3"]), cs(["dwarf-8"]), cs(["dwarf-5"])]) == 1


def test_M7_2_three_players_most_votes_wins():
    st = _over([["goblin-1", "goblin-2", "knight-3", "undead-1"], ["dwarf-1", "dragon-1"], ["seer-1"]])
    res = CLAIM_MIX.result(st)
    assert res["winner"] == 0 and res["winners"] == [0] and res["ranks"] == [1, 2, 3]
    assert res["votes"] == {"goblin": 0, "knight": 0, "undead": 0, "dwarf": 1, "doppelganger": None,
                            "dragon": 1, "seer": 2}
    assert res["votes_won"] == [3, 2, 1] and res["reconstructed_rules"] is True


def test_M7_2_equal_votes_more_cards_in_the_factions_that_voted_for_you():
    st = _over([["goblin-1", "goblin-2", "goblin-3"], ["dwarf-1", "dwarf-2"], ["seer-1"]])
    res = CLAIM_MIX.result(st)
    assert res["votes_won"] == [1, 1, 1] and res["cards_for"] == [3, 2, 1]
    assert res["winners"] == [0] and res["ranks"] == [1, 2, 3] and "more cards" in res["reason"]


def test_M7_2_A24_still_equal_is_a_shared_win():
    st = _over([["goblin-1", "goblin-2"], ["dwarf-1", "dwarf-2"], ["seer-1"]])
    res = CLAIM_MIX.result(st)
    assert res["winner"] is None and res["winners"] == [0, 1] and res["ranks"] == [1, 1, 3]
    assert res["reason"].startswith("shared win")
    st = _over([["goblin-1"], ["dwarf-1"], ["seer-1"]])
    assert CLAIM_MIX.result(st)["winners"] == [0, 1, 2] and CLAIM_MIX.result(st)["ranks"] == [1, 1, 1]


def test_M7_3_partners_piles_are_combined():
    # seat 1 alone has the most Goblins, but team {0, 2} has more together
    st = _over([["goblin-1", "goblin-2"], ["goblin-3", "goblin-4", "goblin-5"], ["goblin-6", "goblin-0"], []])
    res = CLAIM_MIX.result(st)
    assert res["votes"]["goblin"] == 0 and res["teams"] == [[0, 2], [1, 3]]
    assert res["team_counts"][0]["goblin"] == 4 and res["team_counts"][1]["goblin"] == 3
    assert res["winning_team"] == 0 and res["winners"] == [0, 2] and res["ranks"] == [1, 2, 1, 2]
    assert res["winner"] is None  # a team wins


def test_M7_3_more_votes_wins_even_without_four():
    # team 1: knight, undead, dwarf (3); team 0: goblin, seer (2); doppelganger/dragon: nobody
    st = _over([["goblin-1"], ["knight-3"], ["seer-2"], ["undead-1", "dwarf-4"]])
    res = CLAIM_MIX.result(st)
    assert res["votes_won"] == [2, 3] and res["winners"] == [1, 3]


def test_M7_3_T4_4_equal_votes_then_cards_then_draw():
    st = _over([["goblin-1", "goblin-2"], ["knight-3"], [], []])
    res = CLAIM_MIX.result(st)
    assert res["votes_won"] == [1, 1] and res["winners"] == [0, 2]
    st = _over([["goblin-1"], ["knight-3"], [], []])
    res = CLAIM_MIX.result(st)
    assert res["winners"] == [] and res["winning_team"] is None and res["ranks"] == [1, 1, 1, 1]
    assert res["reason"].startswith("draw")


def test_M7_3_leading_in_the_view_is_per_team_with_4_players():
    st = make_state([["seer-0"], ["seer-1"], ["seer-2"], ["seer-3"]], phase=PHASE2,
                    score=[["goblin-1"], ["goblin-2", "goblin-3"], ["goblin-4", "goblin-5"], []])
    assert CLAIM_MIX.view(st, 0)["leading"]["goblin"] == 0
    st3 = make_state([["seer-0"], ["seer-1"], ["seer-2"]], phase=PHASE2,
                     score=[["goblin-1"], ["goblin-2", "goblin-3"], ["goblin-4"]])
    assert CLAIM_MIX.view(st3, 0)["leading"]["goblin"] == 1
