"""The fast random playout is rule-for-rule identical to the core (replayed through the engine)."""

from __future__ import annotations

import random

import pytest

from games.rules.cards import CLAIM2_FACTIONS, CLAIM_FACTIONS, FACTION_NAMES
from games.rules.claim import core
from games.rules.claim.core import OVER, SEER_TOP
from games.rules.claim.options import random_mix
from games.rules.claim.playout import greedy_follow, random_deal, random_game, random_playout
from games.rules.claim.scoring import fast_winner

from .helpers import RULES, c, cs


def _replay_log(start, log):
    st = start.copy()
    for seat, m in log:
        assert seat == st.turn
        if m < 0:
            assert st.seer == seat
            core.seer_choice(st, m == SEER_TOP)
        else:
            assert m in core.legal(st)
            core.play(st, m)
    return st


@pytest.mark.parametrize("greedy", [0.0, 0.7, 1.0])
@pytest.mark.parametrize("kind", ["claim", "claim2", "claim-mix"])
def test_playout_equals_core_replay(kind, greedy):
    rng = random.Random(kind)
    for _ in range(300):
        factions = {"claim": CLAIM_FACTIONS, "claim2": CLAIM2_FACTIONS}.get(kind) or random_mix(rng)
        start = random_deal(kind, factions, rng)
        played = start.copy()
        log: list[tuple[int, int]] = []
        winner = random_playout(played, rng, log, greedy=greedy)
        ref = _replay_log(start, log)  # every greedy choice is legal too
        assert ref.phase == OVER and played.phase == OVER
        for zone in ("score", "discard", "smashed", "pool", "gnomes", "hands"):
            a, b = getattr(ref, zone), getattr(played, zone)
            if zone in ("score", "gnomes", "hands"):
                assert [sorted(x) for x in a] == [sorted(x) for x in b], zone
            else:
                assert sorted(a) == sorted(b), zone
        assert winner == fast_winner(ref.score, ref.factions)
        res = RULES[kind].result(ref)
        assert res["winner"] == winner


@pytest.mark.parametrize("lead,opts,chosen", [
    ("goblin-3", ["goblin-1", "goblin-5", "goblin-9"], "goblin-5"),  # C4.4 the cheapest card that wins
    ("goblin-9", ["goblin-1", "goblin-5"], "goblin-1"),  # cannot win: the cheapest card
    ("goblin-9", ["knight-8", "undead-0", "dwarf-2"], "knight-8"),  # C6.2 a Knight beats a Goblin lead
    ("knight-5", ["knight-2", "doppelganger-6", "knight-7"], "doppelganger-6"),  # C6.5b
    ("undead-4", ["goblin-9", "dwarf-0"], "dwarf-0"),  # off-faction cards never win
])
def test_greedy_follow_wins_cheaply_or_dumps_low(lead, opts, chosen):
    assert greedy_follow(cs(opts), c(lead)) == c(chosen)


def test_playout_from_mid_trick_and_pending_seer():
    rng = random.Random(5)
    rules = RULES["claim2"]
    for seed in range(60):
        st = rules.setup(None, 2, seed)
        for _ in range(rng.randrange(60)):
            if rules.is_over(st):
                break
            seat = next(iter(rules.to_act(st)))
            st, _ = rules.apply(st, seat, rng.choice(rules.legal_moves(st, seat)))
        log: list[tuple[int, int]] = []
        copy = st.copy()
        winner = random_playout(copy, rng, log)
        ref = _replay_log(st, log)
        assert ref.phase == OVER
        assert [sorted(x) for x in ref.score] == [sorted(x) for x in copy.score]
        assert winner == rules.result(ref)["winner"]
        assert st.phase != OVER or not log  # the original is untouched


def test_random_game_runs_for_every_mix():
    rng = random.Random(1)
    outcomes = set()
    for _ in range(200):
        factions = random_mix(rng)
        assert len({FACTION_NAMES[f] for f in factions}) == 5
        outcomes.add(random_game(factions, rng))
    assert outcomes <= {0, 1, None} and {0, 1} <= outcomes
