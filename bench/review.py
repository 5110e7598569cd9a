"""CPU time of a game review (issue 37): every decision of a 2-seat game, as the review task computes it.

    python bench/review.py [--kind claim] [--seed 1] [--playouts N] [--games 1] [--players 2,1]

Plays a seeded game between two AI players (default Knight vs Squire: quick, with some errors to find), then
reviews every decision of both seats with :func:`games.ai.review.review_decision` from the seat's view then (the
task's own loop without the database: the same seeds, budget and code). Prints the process CPU seconds (not wall
time: the machine may be shared), the per-decision budget in playouts, the decisions (all, per seat, forced, by
the exact solver) and the marks. Goal: a 2-seat Claim game in < 30 s of CPU.
"""

from __future__ import annotations

import argparse
import hashlib
import random
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.ai import choose_move
from games.ai import review as ai_review
from games.ai.match import deal_options
from games.rules import native
from games.rules.registry import get_rules


def decision_seed(game_id: int, index: int) -> int:
    """As games.review.service.decision_seed (kept free of Django here)."""
    return int.from_bytes(hashlib.sha256(f"claim-review:{game_id}:{index}".encode()).digest()[:8], "big")


def play(kind: str, seed: int, levels: tuple[int, int]) -> tuple[dict | None, int, list[tuple[int, dict]]]:
    rules = get_rules(kind)
    options = deal_options(kind, seed)
    st = rules.setup(options, 2, seed)
    moves: list[tuple[int, dict]] = []
    rng = random.Random(seed)
    while not rules.is_over(st):
        seat = next(iter(rules.to_act(st)))
        move = choose_move(kind, levels[seat], rules.view(st, seat), rules.legal_moves(st, seat), rng.randrange(2**31),
                           budget=0.05)
        moves.append((seat, move))
        st, _ = rules.apply(st, seat, move)
    return options, seed, moves


def review_game(kind: str, options: dict | None, seed: int, moves: list[tuple[int, dict]], playouts: int,
                game_id: int) -> list[ai_review.DecisionReview]:
    rules = get_rules(kind)
    st = rules.setup(options, 2, seed)
    out = []
    for index, (seat, move) in enumerate(moves):
        out.append(ai_review.review_decision(kind, rules.view(st, seat), rules.legal_moves(st, seat), move,
                                             decision_seed(game_id, index), playouts))
        st, _ = rules.apply(st, seat, move)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--kind", default="claim", choices=ai_review.REVIEW_KINDS)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--games", type=int, default=1)
    ap.add_argument("--playouts", type=int, default=ai_review.PLAYOUTS, help="budget per decision")
    ap.add_argument("--players", default="2,1", help="the two AI levels that play the game reviewed")
    args = ap.parse_args()
    levels = tuple(int(x) for x in args.players.split(","))
    assert len(levels) == 2
    print(f"engine: {native.describe()}")
    print(f"budget per decision: {args.playouts} playouts (every candidate on at least "
          f"{ai_review.MIN_ITERATIONS} deals), exact solver up to {ai_review.EXACT_NODES} nodes in 2-seat endgames")
    worst = 0.0
    for g in range(args.games):
        seed = args.seed + g
        options, seed, moves = play(args.kind, seed, levels)  # type: ignore[arg-type]
        cpu0 = time.process_time()
        wall0 = time.perf_counter()
        decisions = review_game(args.kind, options, seed, moves, args.playouts, game_id=seed)
        cpu = time.process_time() - cpu0
        wall = time.perf_counter() - wall0
        worst = max(worst, cpu)
        per_seat = Counter(seat for seat, _ in moves)
        methods = Counter(d.method for d in decisions)
        marks = Counter(d.mark for d in decisions if d.mark)
        print(f"{args.kind} seed {seed}: {len(decisions)} decisions ({per_seat[0]} + {per_seat[1]} per seat; "
              f"forced {methods['forced']}, exact {methods['exact']}, playouts {methods['playouts']}) | "
              f"CPU {cpu:.1f} s ({cpu / max(1, len(decisions)) * 1000:.0f} ms per decision; wall {wall:.1f} s) | "
              f"mistakes {marks['mistake']}, inaccuracies {marks['inaccuracy']}")
    print(f"worst game: {worst:.1f} s CPU (goal < 30 s)")


if __name__ == "__main__":
    main()
