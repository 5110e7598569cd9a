"""The matchmaking round at size (issue 38): ``games.seeks.service.pair_all`` over N open seeks, in-process.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/claim_mm REDIS_URL=redis://127.0.0.1:6379/9 \\
      SECRET_KEY=x .venv/bin/python bench/matchmaking.py [--seeks 1000] [--rounds 3] [--profile]

Sets up (once, in the database it is given: use one of its own; it is migrated and filled on first use)
``--users`` players (default: as many as seeks) with a Claim rating each (normal around 1500, sd 200). Then each
round, in one transaction that is rolled back at its end: ``--seeks`` open 2-seat rated Claim seeks of distinct
random players (days per move 1, 3 or 7; rating range none, 100, 200 or 400; made 0-60 minutes ago, so windows
have widened), the same shape as ``bench/scale.py``'s round; then ``pair_all()``, its statements counted
(``connection.execute_wrapper``). Prints per round: seconds, games made, queries per paired game, process CPU per
paired game (``time.process_time``: this process only, not the database's), commit hooks queued per game (the
publish and background work that runs after a real round commits; rolled back here, so never run nor timed).
Where ``plan_round`` exists, the time of the round's pairing alone (read-only) too, before the round.
``--profile`` prints a cProfile of the last round.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import random
import statistics
import sys
import time
from datetime import timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "claim.settings")

PREFIX = "mmb"


def _setup(n_users: int) -> list[int]:
    from django.core.management import call_command

    from accounts.models import User
    from games.ratings.models import Rating

    call_command("migrate", verbosity=0)
    have = User.objects.filter(username__startswith=PREFIX).count()
    if have < n_users:
        print(f"setting up {n_users - have} players ...", flush=True)
        rng = random.Random(38)
        made = User.objects.bulk_create([
            User(username=f"{PREFIX}{i:06d}", email=f"{PREFIX}{i}@example.org", password="!")
            for i in range(have, n_users)])
        Rating.objects.bulk_create([
            Rating(user=u, pool="claim", system=Rating.System.GLICKO2, rating=rng.gauss(1500, 200), deviation=80,
                   games=30)
            for u in made])
    return list(User.objects.filter(username__startswith=PREFIX).order_by("pk").values_list("pk", flat=True)
                [:n_users])


def _round(users: list[int], seeks: int, seed: int, profile: cProfile.Profile | None) -> dict[str, float]:
    from django.db import connection, transaction
    from django.utils import timezone

    from games.seeks import service
    from games.seeks.models import Seek
    from games.seeks.service import pair_all

    rng = random.Random(seed)
    now = timezone.now()
    with transaction.atomic():
        Seek.objects.bulk_create([
            Seek(user_id=uid, kind="claim", seats=2, days_per_move=rng.choice([1, 3, 7]), rated=True,
                 rating_range=rng.choice([None, 100, 200, 400]),
                 created_at=now - timedelta(seconds=rng.uniform(0, 3600)))
            for uid in rng.sample(users, seeks)])
        plan = float("nan")
        if hasattr(service, "plan_round"):  # the round's pairing alone, read-only (no game made)
            start = time.perf_counter()
            service.plan_round()
            plan = time.perf_counter() - start
        hooks_before = len(connection.run_on_commit)
        queries = [0]

        def count(execute, sql, params, many, context):  # every statement, however many (no DEBUG log cap)
            queries[0] += 1
            return execute(sql, params, many, context)

        with connection.execute_wrapper(count):
            cpu = time.process_time()
            start = time.perf_counter()
            if profile is not None:
                profile.enable()
            made = pair_all()
            if profile is not None:
                profile.disable()
            wall = time.perf_counter() - start
            cpu = time.process_time() - cpu
        hooks = len(connection.run_on_commit) - hooks_before
        transaction.set_rollback(True)
    per = max(made, 1)
    return {"s": wall, "plan s": plan, "games": made, "queries/game": queries[0] / per, "cpu ms/game": 1000 * cpu / per,
            "wall ms/game": 1000 * wall / per, "hooks/game": hooks / per}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seeks", type=int, default=1000)
    parser.add_argument("--users", type=int, default=0, help="players set up (default: --seeks)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--profile", action="store_true", help="cProfile of the last round (top 40, cumulative)")
    args = parser.parse_args()

    import django

    django.setup()
    from django.conf import settings

    settings.DEBUG = False
    users = _setup(max(args.users, args.seeks))
    rows = []
    for r in range(args.rounds):
        prof = cProfile.Profile() if args.profile and r == args.rounds - 1 else None
        row = _round(users, args.seeks, seed=r, profile=prof)
        rows.append(row)
        print(f"round {r + 1}: {row['s']:.2f} s (plan alone {row['plan s']:.2f} s), {row['games']:.0f} games, "
              f"{row['queries/game']:.1f} queries/game, CPU {row['cpu ms/game']:.1f} ms/game, "
              f"wall {row['wall ms/game']:.1f} ms/game, {row['hooks/game']:.1f} commit hooks/game", flush=True)
        if prof is not None:
            pstats.Stats(prof).sort_stats("cumulative").print_stats(40)
    print(f"median of {args.rounds} rounds over {args.seeks} seeks: "
          + ", ".join(f"{k} {statistics.median(row[k] for row in rows):.2f}" for k in rows[0]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
