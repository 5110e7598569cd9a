"""A real Celery worker and beat, against Redis and the test database, expire a game's deadline."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import time
from datetime import timedelta
from pathlib import Path
from urllib.parse import quote

import pytest
from django.conf import settings as dj_settings
from django.db import connection
from django.utils import timezone

from games import service
from games.clock.models import VacationAccount
from games.models import Game

ROOT = Path(__file__).resolve().parents[2]
CELERY = str(Path(sys.executable).with_name("celery"))

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


def _database_url() -> str:
    s = connection.settings_dict
    auth = quote(s["USER"] or "")
    if s.get("PASSWORD"):
        auth += ":" + quote(s["PASSWORD"])
    return f"postgres://{auth}@{s['HOST'] or '127.0.0.1'}:{s['PORT'] or 5432}/{s['NAME']}"


def _start(args: list[str], env: dict, log: Path) -> subprocess.Popen:
    return subprocess.Popen([CELERY, "-A", "claim", *args], cwd=ROOT, env=env, stdout=log.open("w"),
                            stderr=subprocess.STDOUT, start_new_session=True)


def _stop(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=5)


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

    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST")}
    env.update(DJANGO_SETTINGS_MODULE="claim.settings_test", DATABASE_URL=_database_url(), DB_POOL="0",
               REDIS_URL=dj_settings.REDIS_URL, CLAIM_TASK_MODE="celery", CLOCK_BEAT_SECONDS="1")
    tmp = Path(tempfile.mkdtemp(prefix="claim-beat-"))
    worker = _start(["worker", "-P", "solo", "-l", "info", "-n", f"corr-{os.getpid()}@%h"], env, tmp / "worker.log")
    beat = _start(["beat", "-l", "info", "-s", str(tmp / "schedule"), "--pidfile", str(tmp / "beat.pid")], env,
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
        from games.ratings.models import RatedGame

        for _ in range(40):
            if RatedGame.objects.filter(game=game).exists():
                break
            time.sleep(0.25)
        assert RatedGame.objects.filter(game=game).exists()
    finally:
        _stop(beat)
        _stop(worker)
