"""M3 setup for 3 and 4 players: options, deck, deal, teams, first leader, the rulings flag."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from games.rules.base import InvalidOptions
from games.rules.cards import FACTION_NAMES, deck_for
from games.rules.claim import CLAIM, CLAIM2, CLAIM_MIX
from games.rules.claim.options import random_mix

from .helpers import GG, KG

SEVEN_KG = {"factions": KG}


def test_M3_1_info_claim_mix_takes_2_to_4_seats_claim_and_claim2_only_2():
    assert (CLAIM_MIX.info.min_seats, CLAIM_MIX.info.max_seats) == (2, 4)
    assert CLAIM.info.max_seats == 2 and CLAIM2.info.max_seats == 2


@pytest.mark.parametrize("seats", [3, 4])
def test_M3_1_normalized_options_carry_seven_factions_and_the_rulings_flag(seats):
    opts = CLAIM_MIX.normalize_options({"factions": ["Seers", "goblin", "Knights", "undead", "dwarf",
                                                     "doppelganger", "dragon"]}, seats)
    assert opts == {"factions": ["goblin", "knight", "undead", "dwarf", "doppelganger", "dragon", "seer"],
                    "reconstructed_rules": True}
    assert CLAIM_MIX.normalize_options(opts, seats) == opts  # normalized options normalize again


@pytest.mark.parametrize(("factions", "message"), [
    (["knight", "goblin", "undead", "dwarf", "doppelganger"],
     r"exactly 5 single factions for 3 players .*mix for 2 players.*you chose 3"),
    (["knight", "goblin", "gnome", "giant", "undead", "dwarf", "seer"], "exactly one pair .*both"),
    (["knight", "undead", "dwarf", "doppelganger", "dragon", "troll", "seer"],
     "Knights and Goblins are a pair"),
    (["undead", "dwarf", "doppelganger", "dragon", "troll", "seer"], "exactly one pair .*none"),
    (["gnome", "giant", "undead", "dwarf", "doppelganger", "dragon", "troll", "seer"], "you chose 6"),
    (["gnome", "giant", "undead", "undead", "dwarf", "dragon", "troll"], "chosen twice"),
])
def test_M3_1_M1_2_invalid_3p_mixes_have_clear_messages(factions, message):
    with pytest.raises(InvalidOptions, match=message):
        CLAIM_MIX.normalize_options({"factions": factions}, 3)


def test_M3_1_missing_factions_and_bad_seat_counts():
    with pytest.raises(InvalidOptions, match=r'needs the option "factions" for 4 players.*plus 5 of'):
        CLAIM_MIX.normalize_options({}, 4)
    for seats in (0, 1, 5):
        with pytest.raises(InvalidOptions, match=f"2, 3 or 4 players, not {seats}"):
            CLAIM_MIX.normalize_options(SEVEN_KG, seats)
    with pytest.raises(InvalidOptions, match="unknown option 'teams'"):
        CLAIM_MIX.normalize_options({**SEVEN_KG, "teams": [[0, 1], [2, 3]]}, 4)
    # the flag is not an option of the 2-player game (its options are unchanged)
    with pytest.raises(InvalidOptions, match="unknown option 'reconstructed_rules'"):
        CLAIM_MIX.normalize_options({"factions": KG[:5], "reconstructed_rules": True}, 2)


@pytest.mark.parametrize("kind", [CLAIM, CLAIM2])
@pytest.mark.parametrize("seats", [3, 4])
def test_M3_1_claim_or_claim2_alone_cannot_seat_3_or_4(kind, seats):
    # one box has only 52 cards (5 factions); M3.1 needs both boxes
    with pytest.raises(InvalidOptions, match=r"alone is for 2 players: .* need both boxes .*claim-mix"):
        kind.normalize_options(None, seats)
    with pytest.raises(InvalidOptions, match="2 players"):
        kind.setup(None, seats, 1)


@pytest.mark.parametrize(("seats", "hand"), [(3, 12), (4, 9)])
@pytest.mark.parametrize("factions", [KG, GG])
def test_M3_1_M3_2_deal_72_cards_hands_of_12_or_9_and_36_in_the_deck(seats, hand, factions):
    st = CLAIM_MIX.setup({"factions": factions}, seats, 5)
    assert [len(h) for h in st.hands] == [hand] * seats
    assert len(st.deck) == 36 and st.dpos == 1 and st.prize == st.deck[0]  # C5.2 first prize revealed
    everything = Counter(c for h in st.hands for c in h) + Counter(st.deck)
    assert everything == Counter(deck_for(st.factions)) and sum(everything.values()) == 72
    assert len(st.factions) == 7


def test_M3_1_random_mix_for_3_4_seats_is_one_pair_and_five_singles():
    rng = random.Random(3)
    for _ in range(50):
        mix = random_mix(rng, 4)
        assert len(mix) == 7 and len(deck_for(mix)) == 72
        CLAIM_MIX.normalize_options({"factions": _names(mix)}, 4)


def _names(mix):
    return [FACTION_NAMES[f] for f in mix]


def test_M3_3_M3_4_teams_only_for_4_players_diagonal_partners():
    v3 = CLAIM_MIX.view(CLAIM_MIX.setup(SEVEN_KG, 3, 1), 0)
    v4 = CLAIM_MIX.view(CLAIM_MIX.setup(SEVEN_KG, 4, 1), 0)
    assert v3["teams"] is None and v3["seats"] == 3
    assert v4["teams"] == [[0, 2], [1, 3]] and v4["seats"] == 4
    assert v3["reconstructed_rules"] is True and v4["reconstructed_rules"] is True


def test_M3_5_first_leader_is_random_from_the_seed_and_every_seat_can_lead():
    leaders = {CLAIM_MIX.setup(SEVEN_KG, 4, seed).first_leader for seed in range(40)}
    assert leaders == {0, 1, 2, 3}
    assert CLAIM_MIX.setup(SEVEN_KG, 3, 7).hands == CLAIM_MIX.setup(SEVEN_KG, 3, 7).hands


def test_two_player_views_have_no_new_keys():
    v = CLAIM_MIX.view(CLAIM_MIX.setup({"factions": KG[:5]}, 2, 1), 0)
    assert "teams" not in v and "reconstructed_rules" not in v
    assert CLAIM_MIX.normalize_options({"factions": KG[:5]}, 2) == {"factions": KG[:2][::-1] + KG[2:5]}
