"""CPU per record of ``GET /api/v1/users/{name}/games/export`` (issue #32 finding 2), in process through
Django's test client (the WSGI handler, every middleware, DRF's throttles and the streamed body read whole).

Sets up (once, in the database it is given) a player with ``--games`` finished games: ``--templates`` Claim
games played to the end against the AI (the player's first legal move each turn; the records are complete:
deal, every move, result), then copied (game, seats, move log) up to ``--games``. Then it times, as
``time.process_time()`` of the request (process CPU: every thread), ``--rounds`` times each:

* **built**: every record built by ``record_payload`` in the request, as before issue #32 (the view's stored
  texts replaced by records built and serialized per request, nothing stored);
* **stored**: the stored texts (the first request stores the records of the copied games: unmeasured);
* **304**: the same export with ``If-None-Match``: the ETag only.

Prints CPU per request and per record (median of the rounds) and the body size per record. Embedded
(SQLite in a fresh directory) unless ``DATABASE_URL`` is given::

    .venv/bin/python bench/export.py --games 1000
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/claim_bench_export SECRET_KEY=x \\
      .venv/bin/python bench/export.py --games 1000

Use a database of its own (it is migrated and filled on first use).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "claim.settings")
if not os.environ.get("DATABASE_URL"):
    os.environ.setdefault("CLAIM_EMBEDDED", "1")
    os.environ.setdefault("CLAIM_VAR_DIR", tempfile.mkdtemp(prefix="claim-bench-export-"))
os.environ.setdefault("SECURE_SSL_REDIRECT", "0")  # the test client speaks plain HTTP
for _scope in ("ANON", "USER", "EXPORT_ANON", "GAMES_CREATE", "MOVES"):
    os.environ[f"THROTTLE_{_scope}"] = "100000000/min"  # the bench measures the work, not the limits

PLAYER = "exportbench"


def _play_to_the_end(user, kind: str) -> int:
    from games import service

    game = service.create_game(user, kind, opponents=[{"type": "ai", "level": 1}])
    while True:
        view = service.view_for(user, game.pk)
        if view["status"] == "finished":
            return game.pk
        service.make_move(user, game.pk, view["version"], view["legal_moves"][0])  # the AI answers inline


def _copy(template_ids: list[int], total: int) -> None:
    """Copies of the template games (game, seats, moves) until the player has ``total`` finished games."""
    from datetime import timedelta

    from django.db import transaction

    from games.models import Game, Move, Seat, new_invite_code

    templates = [(Game.objects.get(pk=gid), list(Seat.objects.filter(game_id=gid)),
                  list(Move.objects.filter(game_id=gid))) for gid in template_ids]
    have = Seat.objects.filter(user__username=PLAYER, finished_at__isnull=False).count()
    with transaction.atomic():
        for n in range(have, total):
            game, seats, moves = templates[n % len(templates)]
            ended = game.finished_at - timedelta(minutes=n)
            copy = Game.objects.create(**{f.attname: getattr(game, f.attname) for f in Game._meta.concrete_fields
                                          if not f.primary_key and f.name != "invite_code"},
                                       invite_code=new_invite_code())
            Game.objects.filter(pk=copy.pk).update(finished_at=ended)
            Seat.objects.bulk_create([Seat(**{f.attname: getattr(s, f.attname) for f in Seat._meta.concrete_fields
                                              if not f.primary_key and f.name not in ("game", "finished_at")},
                                           game=copy, finished_at=ended) for s in seats])
            Move.objects.bulk_create([Move(**{f.attname: getattr(m, f.attname) for f in Move._meta.concrete_fields
                                              if not f.primary_key and f.name != "game"}, game=copy) for m in moves])


def _setup(total: int, templates: int) -> None:
    from django.core.management import call_command

    from accounts.models import User

    call_command("migrate", verbosity=0)
    user = User.objects.filter(username=PLAYER).first()
    if user is None:
        user = User.objects.create_user(username=PLAYER, password="not-used-pw-123")
    from games.models import Seat

    finished = list(Seat.objects.filter(user=user, finished_at__isnull=False).values_list("game_id", flat=True))
    if len(finished) >= total:
        return
    print(f"setting up {total} finished games ({templates} played, the rest copies) ...", flush=True)
    template_ids = finished[:templates]
    while len(template_ids) < templates:
        template_ids.append(_play_to_the_end(user, "claim"))
    _copy(template_ids, total)


def _timed(client, path: str, rounds: int, **headers: str) -> tuple[float, int, int]:
    """Median CPU seconds of one request (its body read whole), its status and its body's size."""
    samples, status, size = [], 0, 0
    for _ in range(rounds):
        start = time.process_time()
        r = client.get(path, **headers)
        body = r.getvalue() if r.streaming else r.content
        samples.append(time.process_time() - start)
        status, size = r.status_code, len(body)
    return statistics.median(samples), status, size


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1000, help="finished games of the player (and the limit)")
    parser.add_argument("--templates", type=int, default=10, help="games played to the end, then copied")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()

    import django

    django.setup()
    from django.conf import settings
    from django.test import Client

    import games.service.records as records
    from games.models import Game
    from games.service import record_payload

    settings.TASK_MODE = "eager"
    settings.ALLOWED_HOSTS = ["*"]
    _setup(args.games, args.templates)
    client = Client()
    path = f"/api/v1/users/{PLAYER}/games/export?limit={min(args.games, 1000)}"
    first = client.get(path)  # stores the copies' records; warms connections and compiled SQL
    n = first.getvalue().count(b"\n")
    stored_bodies = records.record_bodies

    def built_bodies(game_ids):
        games = Game.objects.filter(pk__in=list(game_ids)).prefetch_related("seats__user")
        return {g.pk: records.serialize(record_payload(g, list(g.seats.all()))) for g in games}

    records.record_bodies = built_bodies
    try:
        built, _, size = _timed(client, path, args.rounds)
    finally:
        records.record_bodies = stored_bodies
    stored, _, size = _timed(client, path, args.rounds)
    etag = first["ETag"]
    not_modified, status, _ = _timed(client, path, args.rounds, HTTP_IF_NONE_MATCH=etag)
    assert status == 304, status
    engine = "PostgreSQL" if "postgres" in settings.DATABASES["default"]["ENGINE"] else "SQLite"
    print(f"{n} records ({size / n / 1000:.1f} kB each), {engine}, median of {args.rounds} requests:")
    for label, cpu in (("built (before)", built), ("stored (after)", stored), ("304 (If-None-Match)", not_modified)):
        print(f"  {label:20} CPU {cpu * 1000:8.1f} ms/request  {cpu * 1e6 / n:7.1f} µs/record")
    print(f"  built / stored: {built / stored:.1f}x")


if __name__ == "__main__":
    main()
