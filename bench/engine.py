"""Benchmark of the rules engines (one core): the Claim family and Inheritors.

    python bench/engine.py [--games N] [--seed S]

Prints random complete games per second for each kind (deal + random playout + scoring, the
fast path used by the AI), then the mean time of one rich ``apply`` and one ``view``. The games/s
figure is wall-clock; Inheritors games list their moves through the rich interface and play them
on one state in place (``engine.play``), as the King's playouts do. The CPU-time rate is printed
too because other processes on a shared machine slow the wall-clock figure down.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.rules import native
from games.rules.cards import CLAIM2_FACTIONS, CLAIM_FACTIONS
from games.rules.claim.options import random_mix
from games.rules.claim.playout import random_game
from games.rules.inheritors.bench import play_random_game as inheritors_random_game
from games.rules.registry import get_rules


def bench_playouts(kind: str, games: int, seed: int) -> tuple[float, float]:
    """(games per wall-clock second, games per CPU second of this process)."""
    rng = random.Random(seed)
    if kind == "claim-mix":
        mixes = [random_mix(rng) for _ in range(64)]
    else:
        mixes = [CLAIM_FACTIONS if kind == "claim" else CLAIM2_FACTIONS]
    m = len(mixes)
    start = time.perf_counter()
    cpu = time.process_time()
    for i in range(games):
        random_game(mixes[i % m], rng)
    return games / (time.perf_counter() - start), games / (time.process_time() - cpu)


def bench_rich(games: int, seed: int) -> tuple[float, float, int]:
    """Mean seconds of one ``apply`` and one ``view`` over complete Claim games."""
    rules = get_rules("claim")
    rng = random.Random(seed)
    t_apply = t_view = 0.0
    n = 0
    perf = time.perf_counter
    for g in range(games):
        st = rules.setup(None, 2, seed + g)
        while not rules.is_over(st):
            seat = next(iter(rules.to_act(st)))
            move = rng.choice(rules.legal_moves(st, seat))
            t0 = perf()
            rules.view(st, seat)
            t1 = perf()
            st, _ = rules.apply(st, seat, move)
            t2 = perf()
            t_view += t1 - t0
            t_apply += t2 - t1
            n += 1
    return t_apply / n, t_view / n, n


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=20000, help="random games per kind")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--inheritors-games", type=int, default=100, help="random Inheritors games per seat count")
    args = parser.parse_args(argv)
    print(f"engine: {native.describe()}")
    for kind in ("claim", "claim2", "claim-mix"):
        wall, cpu = bench_playouts(kind, args.games, args.seed)
        print(f"{kind:<10} {wall:>9,.0f} random complete games/s  "
              f"({args.games:,} games, 1 core; {cpu:,.0f}/s of CPU time)")
    for seats in (2, 4):
        start, cpu = time.perf_counter(), time.process_time()
        for i in range(args.inheritors_games):
            inheritors_random_game(seats, args.seed + i)
        wall_rate = args.inheritors_games / (time.perf_counter() - start)
        cpu_rate = args.inheritors_games / (time.process_time() - cpu)
        print(f"inheritors-{seats}p {wall_rate:>6,.0f} random complete games/s  "
              f"({args.inheritors_games:,} games, 1 core; {cpu_rate:,.0f}/s of CPU time)")
    rich_games = max(1, min(200, args.games // 50))
    apply_s, view_s, n = bench_rich(rich_games, args.seed)
    print(f"apply      {apply_s * 1e6:>9.1f} µs mean per rich apply  ({n:,} moves, claim)")
    print(f"view       {view_s * 1e6:>9.1f} µs mean per view        ({n:,} views, claim)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
