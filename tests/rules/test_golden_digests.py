"""Golden digests: a seed still deals and plays exactly the same games, records and AI moves.

The digests were taken before the engine-speed work (issue 37) and must not move when the engine
gets faster: same seed -> the same self-play records (every kind and seat count, with the legal
moves) and the same random playouts (tests/ai/test_golden_moves.py: the same AI moves). A rules change that is
meant to change games updates them deliberately.
"""

from __future__ import annotations

import hashlib
import json
import random

import pytest

from games.rules.cards import CLAIM2_FACTIONS, CLAIM_FACTIONS
from games.rules.claim import core
from games.rules.claim.options import random_mix
from games.rules.claim.playout import random_deal, random_game, random_game_n, random_playout
from games.rules.selfplay import generate


def digest(value: object) -> str:
    return hashlib.sha256(repr(value).encode()).hexdigest()[:16]


SELFPLAY = [
    ("claim", 2, 40, 5, False, "94dd2e50915cc17d"),
    ("claim", 2, 10, 11, True, "c6a30ea7d93de2cb"),
    ("claim2", 2, 40, 6, False, "90bf6be1dd213c7f"),
    ("claim2", 2, 10, 12, True, "3aec387ae861ccef"),
    ("claim-mix", 2, 40, 7, False, "fc2411e3ae3b98ee"),
    ("claim-mix", 2, 10, 13, True, "c7a265525b4693f9"),
    ("claim-mix", 3, 20, 9, False, "98ebb4b879b574e4"),
    ("claim-mix", 3, 6, 14, True, "376182757f23381e"),
    ("claim-mix", 4, 20, 10, False, "4b9b9efad69474b1"),
    ("claim-mix", 4, 6, 15, True, "eca61eba9963febd"),
    ("inheritors", 2, 3, 1, False, "89b2c848c5d2b800"),
    ("inheritors", 3, 3, 2, True, "d1f73dff8058a2f1"),
]


@pytest.mark.parametrize(("game", "seats", "games", "seed", "with_legal", "expected"), SELFPLAY)
def test_self_play_records_are_unchanged(game: str, seats: int, games: int, seed: int, with_legal: bool,
                                         expected: str) -> None:
    lines = [json.dumps(r, separators=(",", ":"))
             for r in generate(game, games, seed, with_legal=with_legal, seats=seats)]
    assert digest(lines) == expected


def test_random_playouts_are_unchanged() -> None:
    rng = random.Random(3)
    games = [random_game(fs or random_mix(rng), rng) for fs in (CLAIM_FACTIONS, CLAIM2_FACTIONS, None) * 100]
    games += [random_game_n(random_mix(rng, 3 + i % 2), 3 + i % 2, rng) for i in range(20)]
    ends = []
    for i in range(60):  # from mid-game states, logged, half of them greedy (the King's rollouts)
        st = random_deal("claim-mix", random_mix(rng), rng)
        for _ in range(rng.randrange(60)):
            if st.phase == core.OVER:
                break
            if st.seer >= 0:
                core.seer_choice(st, rng.random() < 0.5)
            else:
                opts = core.legal(st)
                core.apply_move(st, opts[rng.randrange(len(opts))])
        log: list[tuple[int, int]] = []
        w = random_playout(st, rng, log=log, greedy=0.7 if i % 2 else 0.0)
        ends.append((w, log, st.hands, st.score, st.discard, st.gnomes, st.pool, st.smashed, st.dpos))
    assert digest((games, ends, rng.random())) == "0fae5c38fffb5afc"
