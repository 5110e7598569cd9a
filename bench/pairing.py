"""Swiss pairing at size: a 1,000-player Swiss over 9 rounds with random results (issue 36's goal: a round paired
in under 1 s on this machine).

    python bench/pairing.py [--players N] [--rounds R] [--seed S]

Each round is paired by :func:`games.tournaments.core.swiss.pair_round` from the scores and the games so far,
its results drawn at random (a win, a loss or a draw), a few players withdrawing as it goes. Prints each round's
pairing time, repeats and bye, then the slowest and the median round. Exit status 1 if a round repeated a
pairing, gave a second bye, or paired a withdrawn player.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.tournaments.core.swiss import Entry, pair_round


def run(players: int, rounds: int, seed: int) -> int:
    rng = random.Random(seed)
    ids = list(range(1, players + 1))
    score = dict.fromkeys(ids, 0.0)
    played: list[tuple[int, int]] = []
    byes: list[int] = []
    withdrawn: set[int] = set()
    times: list[float] = []
    bad = 0
    for r in range(1, rounds + 1):
        entries = [Entry(i, score[i]) for i in ids]
        start = time.perf_counter()
        result = pair_round(entries, played, byes, withdrawn)
        took = time.perf_counter() - start
        times.append(took)
        seen = {(min(a, b), max(a, b)) for a, b in played}
        repeats = sum((min(a, b), max(a, b)) in seen for a, b in result.pairs)
        in_round = [p for pair in result.pairs for p in pair] + ([result.bye] if result.bye is not None else [])
        problems = []
        if repeats:
            problems.append(f"{repeats} repeat(s)")
        if result.bye is not None and result.bye in byes:
            problems.append(f"a second bye for {result.bye}")
        if withdrawn & set(in_round):
            problems.append("a withdrawn player paired")
        if len(in_round) != len(set(in_round)) or len(in_round) != players - len(withdrawn):
            problems.append("not every active player exactly once")
        bad += bool(problems)
        print(f"round {r}: {len(result.pairs)} boards, bye {result.bye}, paired in {took * 1000:.1f} ms"
              + (f"  PROBLEM: {', '.join(problems)}" if problems else ""))
        for a, b in result.pairs:
            outcome = rng.random()
            score[a] += 1.0 if outcome < 0.45 else 0.5 if outcome < 0.55 else 0.0
            score[b] += 0.0 if outcome < 0.45 else 0.5 if outcome < 0.55 else 1.0
            played.append((a, b))
        if result.bye is not None:
            score[result.bye] += 1.0
            byes.append(result.bye)
        active = [i for i in ids if i not in withdrawn]
        withdrawn.update(rng.sample(active, k=min(len(active), rng.randint(0, 3))))
    print(f"{players} players, {rounds} rounds: slowest round {max(times) * 1000:.1f} ms, "
          f"median {statistics.median(times) * 1000:.1f} ms, goal < 1000 ms")
    return 1 if bad else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    return run(args.players, args.rounds, args.seed)


if __name__ == "__main__":
    sys.exit(main())
