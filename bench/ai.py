"""Round-robin of the AI players (one core).

    python bench/ai.py [--kind claim] [--games 500] [--king-budget 1.0] [--players random,1,2,3]
                       [--pairs 2:random,3:2] [--seed 1] [--seats 2|3|4]

Players: ``random`` (uniform legal moves), 1 Squire, 2 Knight, 3 King. ``--games`` is the number
of games per pairing; deals are fixed by ``--seed`` and every deal is played twice with the seats
swapped (so --games is rounded up to an even number). For each pairing one line prints the first
player's score with a 95% confidence interval (normal approximation on per-game scores; a draw
counts as half a win, and the draw rate is printed separately) and the think time per move of both
players. A summary per player follows: mean / p95 / max think time per move, as CPU time of the
deciding thread (what one core spends) and as wall-clock time (inflated when the machine is busy).

``--seats 3|4`` (claim-mix only, claim-combined.md M3-M7): with 4 seats the first player of a
pairing is a team in seats {0, 2} against the second player's team in {1, 3}, every deal played
twice with the teams swapped; the score is the first team's win rate (a draw counts as half).
With 3 seats the first player sits alone against two copies of the second, every deal played three
times (the first player in each seat); the score is its share of the wins (a shared win is split),
where 33.3% is an even result. ``--kind inheritors --seats 3|4``: no teams, the first player alone against
copies of the second in every seat in turn (its share of the wins; 25% is even with 4 seats).

``--progress`` prints a running tally with its 95% CI and the first player's think times after each
deal (stderr). Ctrl-C (SIGINT) during a 2-seat pairing stops it and prints the pairing line and the
think-time summary for the complete deals played so far, marked ``STOPPED after N of M deals``.
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.ai import LEVELS
from games.ai.match import Player, play_game
from games.rules import native

NAMES = {"random": "random", **{str(k): v for k, v in LEVELS.items()}}


def parse_player(text: str) -> Player:
    text = text.strip().lower()
    if text == "random":
        return "random"
    for k, v in LEVELS.items():
        if text in (str(k), v.lower()):
            return k
    raise SystemExit(f"unknown player {text!r}: use random, 1/squire, 2/knight, 3/king")


def name(p: Player) -> str:
    return NAMES[str(p)]


def pct(xs: list[float], q: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(q * len(s)))] if s else 0.0


def score_ci(scores: list[float]) -> tuple[float, float, float]:
    n = len(scores)
    m = statistics.mean(scores)
    sd = statistics.pstdev(scores) if n > 1 else 0.0
    h = 1.96 * sd / math.sqrt(n) if n else 0.0
    return m, max(0.0, m - h), min(1.0, m + h)


def seatings(a: Player, b: Player, seats: int, teams: bool = True) -> list[tuple[list[Player], list[int]]]:
    """The seatings of one deal: (players by seat, the seats of ``a``). ``teams``: 4 seats play in teams."""
    if seats == 2:
        return [([a, b], [0]), ([b, a], [1])]
    if seats == 4 and teams:  # M3.4 teams {0, 2} and {1, 3}
        return [([a, b, a, b], [0, 2]), ([b, a, b, a], [1, 3])]
    return [([a if s == i else b for s in range(seats)], [i]) for i in range(seats)]


def run_pairing(kind: str, a: Player, b: Player, games: int, seed: int, budget: float,
                cpu: dict[str, list[float]], wall: dict[str, list[float]], progress: bool = False,
                seats: int = 2) -> str:
    if seats != 2:
        return run_pairing_n(kind, a, b, games, seed, budget, cpu, wall, progress, seats)
    deals = (games + 1) // 2
    scores: list[float] = []
    draws = 0
    ta_cpu: list[float] = []
    tb_cpu: list[float] = []
    t0 = time.perf_counter()
    done = deals
    try:
        for d in range(deals):
            deal_seed = seed * 100_003 + d
            outs = [(1 if swap else 0, play_game(kind, (b, a) if swap else (a, b), deal_seed, budget=budget))
                    for swap in (False, True)]
            for sa, out in outs:  # a deal counts only once both seatings are played
                if out.winner is None:
                    draws += 1
                    scores.append(0.5)
                else:
                    scores.append(1.0 if out.winner == sa else 0.0)
                ta_cpu += out.cpu[sa]
                tb_cpu += out.cpu[1 - sa]
                cpu[name(a)] += out.cpu[sa]
                cpu[name(b)] += out.cpu[1 - sa]
                wall[name(a)] += out.times[sa]
                wall[name(b)] += out.times[1 - sa]
            if progress:
                _progress(name(a), scores, ta_cpu)
    except KeyboardInterrupt:  # Ctrl-C / SIGINT: report the complete deals played so far
        done = len(scores) // 2
        if not scores:
            raise
    stopped = "" if done == deals else f" STOPPED after {done} of {deals} deals"
    m, lo, hi = score_ci(scores)
    el = time.perf_counter() - t0
    return (f"{kind:<9} {name(a):>6} vs {name(b):<6} {len(scores):>4} games ({done} deals x2{stopped}): "
            f"{name(a)} scores {100 * m:5.1f}% [95% CI {100 * lo:5.1f}, {100 * hi:5.1f}], "
            f"draws {100 * draws / len(scores):.1f}% (counted as half) | think CPU ms mean/p95: "
            f"{name(a)} {1e3 * statistics.mean(ta_cpu):.1f}/{1e3 * pct(ta_cpu, .95):.1f}, "
            f"{name(b)} {1e3 * statistics.mean(tb_cpu):.1f}/{1e3 * pct(tb_cpu, .95):.1f} | {el:.0f}s wall")


def _progress(who: str, scores: list[float], cpu: list[float]) -> None:
    m, lo, hi = score_ci(scores)
    print(f"  ... {len(scores)} games: {who} {sum(scores):g}/{len(scores)} = {100 * m:.1f}% [95% CI {100 * lo:.1f}, "
          f"{100 * hi:.1f}] | {who} think CPU ms mean/p95/max {1e3 * statistics.mean(cpu or [0.0]):.1f}/"
          f"{1e3 * pct(cpu, .95):.1f}/{1e3 * max(cpu or [0.0]):.1f}", file=sys.stderr, flush=True)


def run_pairing_n(kind: str, a: Player, b: Player, games: int, seed: int, budget: float,
                  cpu: dict[str, list[float]], wall: dict[str, list[float]], progress: bool,
                  seats: int) -> str:
    """3-4 seats: the first player's (team's) score, see the module docstring."""
    teams = kind != "inheritors"  # Inheritors has no teams: alone against copies of the second player
    per = len(seatings(a, b, seats, teams))
    deals = (games + per - 1) // per
    scores: list[float] = []
    draws = 0
    ta_cpu: list[float] = []
    tb_cpu: list[float] = []
    t0 = time.perf_counter()
    for d in range(deals):
        deal_seed = seed * 100_003 + d
        for players, mine in seatings(a, b, seats, teams):
            out = play_game(kind, players, deal_seed, budget=budget, seats=seats)
            won = [s for s in out.winners if s in mine]
            if not out.winners:
                draws += 1
                scores.append(0.5)
            elif seats == 4 and teams:
                scores.append(1.0 if won else 0.0)
            else:
                scores.append(len(won) / len(out.winners))
            for s in range(seats):
                p = players[s]
                (ta_cpu if s in mine else tb_cpu).extend(out.cpu[s])
                cpu[name(p)] += out.cpu[s]
                wall[name(p)] += out.times[s]
        if progress:
            _progress(name(a), scores, ta_cpu)
    m, lo, hi = score_ci(scores)
    el = time.perf_counter() - t0
    who = (f"team {name(a)} vs team {name(b)}" if seats == 4 and teams else f"{name(a)} vs {seats - 1}x {name(b)}")
    what = f"team {name(a)} wins" if seats == 4 and teams else f"{name(a)} wins (even: {100 / seats:.1f}%)"
    return (f"{kind} {seats} seats: {who} {len(scores):>4} games ({deals} deals x{per}): "
            f"{what} {100 * m:5.1f}% [95% CI {100 * lo:5.1f}, {100 * hi:5.1f}], "
            f"draws {100 * draws / len(scores):.1f}% (counted as half) | think CPU ms mean/p95: "
            f"{name(a)} {1e3 * statistics.mean(ta_cpu):.1f}/{1e3 * pct(ta_cpu, .95):.1f}, "
            f"{name(b)} {1e3 * statistics.mean(tb_cpu):.1f}/{1e3 * pct(tb_cpu, .95):.1f} | {el:.0f}s wall")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--kind", default="claim", help="claim, claim2, claim-mix or inheritors")
    ap.add_argument("--games", type=int, default=500, help="games per pairing (deals x 2 seatings)")
    ap.add_argument("--king-budget", type=float, default=1.0, help="King seconds per move (1 core)")
    ap.add_argument("--players", default="random,1,2,3", help="comma-separated players for the round-robin")
    ap.add_argument("--pairs", default=None, help="only these pairings, e.g. 2:random,3:2")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--seats", type=int, default=2, choices=(2, 3, 4),
                    help="3 or 4 seats (claim-mix: 4 seats is a team win rate; inheritors: alone vs copies)")
    ap.add_argument("--progress", action="store_true", help="running tally on stderr after each deal")
    args = ap.parse_args(argv)
    if args.seats != 2 and args.kind not in ("claim-mix", "inheritors"):
        raise SystemExit("--seats 3|4 needs --kind claim-mix (M3.1) or inheritors")
    if args.pairs:
        pairs = [tuple(parse_player(x) for x in p.split(":")) for p in args.pairs.split(",")]
    else:
        ps = [parse_player(x) for x in args.players.split(",")]
        # stronger player first: (Knight, random), (King, Knight), ...
        order = sorted(ps, key=lambda p: -1 if p == "random" else int(p))
        pairs = [(order[j], order[i]) for i in range(len(order)) for j in range(i + 1, len(order))]
    cpu: dict[str, list[float]] = {n: [] for n in NAMES.values()}
    wall: dict[str, list[float]] = {n: [] for n in NAMES.values()}
    print(f"# bench/ai.py kind={args.kind} games/pairing={args.games} king-budget={args.king_budget}s "
          f"seed={args.seed} seats={args.seats} engine={native.describe()}", flush=True)
    for a, b in pairs:
        line = run_pairing(args.kind, a, b, args.games, args.seed, args.king_budget, cpu, wall,
                           args.progress, args.seats)
        print(line, flush=True)
        if "STOPPED" in line:
            break
    for n in NAMES.values():
        c, w = cpu[n], wall[n]
        if not c:
            continue
        print(f"think {n:<6} {len(c):>6} moves: CPU ms mean {1e3 * statistics.mean(c):7.1f}  "
              f"p95 {1e3 * pct(c, .95):7.1f}  max {1e3 * max(c):7.1f} | wall ms mean "
              f"{1e3 * statistics.mean(w):7.1f}  p95 {1e3 * pct(w, .95):7.1f}  max {1e3 * max(w):7.1f}",
              flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
