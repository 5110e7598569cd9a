"""A real Celery worker and beat, against Redis and the test database, expire a game's deadline."""

from __future__ import annotations

import os
import tempfile
import time
from datetime import timedelta
from pathlib import Path

import pytest
from django.conf import settings as dj_settings
from django.db import connection
from django.utils import timezone

from games import service
from games.clock.models import VacationAccount
from games.models import Game
from games.ratings.models import RatedGame
from tests.celery_procs import celery_env, start_celery, stop

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


def test_worker_and_beat_end_a_game_past_its_deadline(make_user):
    if connection.vendor != "postgresql" or not dj_settings.REDIS_URL:
        pytest.skip("needs PostgreSQL and Redis (DATABASE_URL, REDIS_URL)")
    alice, bob = make_user("alice"), make_user("bob")
    for u in (alice, bob):
        VacationAccount.objects.create(user=u, auto_use=False)
    game = service.create_game(alice, "claim", opponents=[{"type": "user", "username": "bob"}], days_per_move=1,
                               rated=True)
    service.join_game(bob, game.pk)
    Game.objects.filter(pk=game.pk).update(deadline=timezone.now() - timedelta(minutes=1))

    env = celery_env(CLOCK_BEAT_SECONDS="1")
    tmp = Path(tempfile.mkdtemp(prefix="claim-beat-"))
    worker = start_celery(["worker", "-P", "solo", "-l", "info", "-n", f"corr-{os.getpid()}@%h"], env,
                          tmp / "worker.log")
    beat = start_celery(["beat", "-l", "info", "-s", str(tmp / "schedule"), "--pidfile", str(tmp / "beat.pid")], env,
                  tmp / "beat.log")
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            game.refresh_from_db()
            if game.status == Game.Status.FINISHED:
                break
            assert worker.poll() is None, (tmp / "worker.log").read_text()[-3000:]
            assert beat.poll() is None, (tmp / "beat.log").read_text()[-3000:]
            time.sleep(0.5)
        assert game.status == Game.Status.FINISHED, (tmp / "worker.log").read_text()[-3000:]
        assert game.ended_reason == "timeout"
        # the worker also rated the game (game_changed -> ratings.rate_game through the broker)

        for _ in range(40):
            if RatedGame.objects.filter(game=game).exists():
                break
            time.sleep(0.25)
        assert RatedGame.objects.filter(game=game).exists()
    finally:
        stop(beat)
        stop(worker)
