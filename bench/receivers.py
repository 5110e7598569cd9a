"""CPU of the ``game_changed`` receivers per change, in-process.

Sets up (once, in the database it is given) ``--games`` two-human games of Claim with ``--moves`` stored
moves each, with the receivers switched off; then runs the Celery task's body
(``games.tasks.game_changed_task``) over those move versions in batches of ``--batch`` changes of
different games, as the worker would, and prints the process CPU (``time.process_time()``, every
thread of the process: the channel-layer loop's sends included) and wall time per change. Every change
writes one notification (the player who did not move is away). ``--per-change`` dispatches each
change on its own (``dispatch_game_changed``) instead, the pre-batch path. ``--profile`` prints a
cProfile of the timed run.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/claim_receivers REDIS_URL=redis://127.0.0.1:6379/6 \\
      SECRET_KEY=x .venv/bin/python bench/receivers.py

Use a database of its own (it is migrated and filled on first use).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "claim.settings")

PREFIX = "rcpu"


def _setup(n_games: int, moves: int) -> None:
    from django.core.management import call_command

    import games.tasks
    from accounts.models import User
    from games import service

    call_command("migrate", verbosity=0)
    if User.objects.filter(username__startswith=PREFIX).exists():
        return
    games.tasks.send_game_changed = lambda *args: None  # receivers off while the games are made
    print(f"setting up {n_games} games x {moves} moves ...", flush=True)
    for n in range(n_games):
        a = User.objects.create_user(username=f"{PREFIX}a{n}", password="not-used-pw-123", email=f"a{n}@example.org")
        b = User.objects.create_user(username=f"{PREFIX}b{n}", password="not-used-pw-123", email=f"b{n}@example.org")
        game = service.create_game(a, "claim", opponents=[{"type": "user", "username": b.username}],
                                   days_per_move=3, rated=False)
        service.join_game(b, game.pk)
        users = {s.index: s.user for s in game.seats.select_related("user")}
        for _ in range(moves):
            seat = game.seats.get(to_act=True)
            view = service.game_view_payload(service.queries.get_game(game.pk), users[seat.index])
            service.make_move(users[seat.index], game.pk, view["version"], view["legal_moves"][0])


def _changes(limit: int) -> list[list]:
    from games.models import GameEvent

    rows = list(GameEvent.objects.filter(type="move", game__seats__user__username__startswith=PREFIX)
                .values_list("game_id", "version", "game__status").distinct())
    # Batches of changes of different games: order by the move's rank within its game, then by game.
    rank: dict[int, int] = {}
    ordered = []
    for game_id, version, status in sorted(rows, key=lambda r: (r[0], r[1])):
        rank[game_id] = rank.get(game_id, -1) + 1
        ordered.append((rank[game_id], game_id, [game_id, version, status]))
    return [c for _, _, c in sorted(ordered)][:limit]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--moves", type=int, default=6)
    parser.add_argument("--changes", type=int, default=300)
    parser.add_argument("--batch", type=int, default=6)
    parser.add_argument("--rounds", type=int, default=3, help="timed runs over the same changes")
    parser.add_argument("--per-change", action="store_true", help="dispatch_game_changed per change")
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()

    import django

    django.setup()
    from django.conf import settings
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from claim.loops import start_background_loop
    from games.notify.models import Notification
    from games.signals import dispatch_game_changed
    from games.tasks import game_changed_task

    settings.TASK_MODE = "eager"  # nothing here is enqueued (no finished game, no push or e-mail channel)
    _setup(args.games, args.moves)
    start_background_loop()  # as the worker does (claim/celery.py): live pushes on one loop
    changes = _changes(args.changes)
    batches = [changes[i:i + args.batch] for i in range(0, len(changes), args.batch)]

    def run() -> None:
        for batch in batches:
            if args.per_change:
                for game_id, version, status in batch:
                    dispatch_game_changed(game_id, version, status)
            else:
                game_changed_task(batch)

    run()  # warm-up: SQL compiled, connections open
    before = Notification.objects.count()
    with CaptureQueriesContext(connection) as ctx:
        run()
    queries = len(ctx.captured_queries)
    written = Notification.objects.count() - before
    mode = "per change" if args.per_change else f"game_changed_task, batches of {args.batch}"
    print(f"{len(changes)} changes, {mode}: {queries / len(changes):.2f} queries and "
          f"{written / len(changes):.2f} notifications per change")
    profiler = None
    if args.profile:
        import cProfile

        profiler = cProfile.Profile()
    for _ in range(args.rounds):
        time.sleep(0.5)  # let the previous round's pushes drain
        cpu, wall = time.process_time(), time.perf_counter()
        if profiler is not None:
            profiler.enable()
        run()
        if profiler is not None:
            profiler.disable()
        wall = time.perf_counter() - wall
        time.sleep(0.5)  # the pushes handed to the loop are counted too (idle sleep costs no CPU)
        cpu = time.process_time() - cpu
        print(f"  CPU {cpu * 1000 / len(changes):.2f} ms/change, wall {wall * 1000 / len(changes):.2f} ms/change")
    if profiler is not None:
        import pstats

        pstats.Stats(profiler).sort_stats("cumulative").print_stats(45)


if __name__ == "__main__":
    main()
