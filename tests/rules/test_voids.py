"""The public ``voids`` of a Claim view: factions a seat is known to lack in this phase (C4.2b, C4.3)."""

from __future__ import annotations

import random

import pytest

from games.rules.cards import FACTION_ALIASES, FACTION_NAMES
from games.rules.claim import CLAIM, CLAIM_MIX
from games.rules.claim.options import random_mix

from .helpers import RULES, make_state


def test_c4_2b_a_follower_who_does_not_follow_shows_a_void():
    st = make_state("claim", [["goblin-3", "knight-2"], ["knight-5", "undead-1"]], deck=["dwarf-1"] * 4)
    assert CLAIM.view(st, 0)["voids"] == [[], []]
    st, _ = CLAIM.apply(st, 0, {"play": "goblin-3"})
    st, _ = CLAIM.apply(st, 1, {"play": "undead-1"})
    assert CLAIM.view(st, 0)["voids"] == [[], ["goblin"]]
    assert CLAIM.view(st, None)["voids"] == CLAIM.view(st, 1)["voids"], "public: the same for everyone"


def test_c4_2a_a_doppelganger_on_another_lead_shows_nothing_but_c4_3_a_doppelganger_lead_does():
    st = make_state("claim", [["goblin-3", "doppelganger-2", "undead-1"], ["goblin-5", "doppelganger-1", "undead-2"]],
                    deck=["dwarf-1"] * 6)
    st, _ = CLAIM.apply(st, 0, {"play": "goblin-3"})
    st, _ = CLAIM.apply(st, 1, {"play": "doppelganger-1"})  # C4.2a allowed although it holds a Goblin
    assert CLAIM.view(st, 0)["voids"] == [[], []]
    assert st.leader == 0  # the Doppelganger 1 counts as a Goblin 1 and loses (C6.5b)
    st, _ = CLAIM.apply(st, 0, {"play": "doppelganger-2"})
    st, _ = CLAIM.apply(st, 1, {"play": "goblin-5"})  # C4.3 no Doppelganger left
    assert CLAIM.view(st, 0)["voids"] == [[], ["doppelganger"]]


@pytest.mark.parametrize("kind,seats", [("claim", 2), ("claim2", 2), ("claim-mix", 2), ("claim-mix", 3),
                                        ("claim-mix", 4)])
def test_a_seat_never_holds_a_card_of_its_public_voids(kind, seats):
    rules = RULES[kind] if seats == 2 else CLAIM_MIX
    rng = random.Random(7)
    shown = 0
    for game in range(40):
        options = {"factions": [FACTION_NAMES[f] for f in random_mix(rng)] if seats == 2 else
                   ["knight", "goblin", "undead", "dwarf", "doppelganger", "troll", "seer"]} \
            if kind == "claim-mix" else None
        st = rules.setup(options, seats, game)
        phase = st.phase
        while not rules.is_over(st):
            voids = rules.view(st, None)["voids"]
            if st.phase != phase:
                phase = st.phase
                assert voids == [[]] * seats, "a new phase starts with new hands"
            for s in range(seats):
                held = {c >> 4 for c in st.hands[s]}
                assert not held & {FACTION_ALIASES[f] for f in voids[s]}, (kind, game, s, voids[s])
                shown += len(voids[s])
            (seat, *_) = sorted(rules.to_act(st))
            moves = rules.legal_moves(st, seat)
            st, _ = rules.apply(st, seat, moves[rng.randrange(len(moves))])
        assert rules.view(st, None)["voids"] == [[]] * seats
    assert shown > 0
