"""A real Celery worker that consumes only the ``review`` queue computes a review requested over HTTP (issue 37).

The test process sends ``review.compute`` through Redis (``TASK_MODE = "celery"``); the worker subprocess
(``celery -A claim worker -Q review``, solo pool) runs it against the test database. Nothing in the test process
computes the review, and a worker of the default queue only would never see it (``CELERY_TASK_ROUTES``).
"""

from __future__ import annotations

import os
import re
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings as dj_settings
from django.db import connection

from games.models import Game, Move
from tests.celery_procs import celery_env, start_celery, stop

from .conftest import start_game

TIMEOUT = 60.0

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def review_worker() -> Iterator[tuple[subprocess.Popen, Path]]:
    if connection.vendor != "postgresql" or not dj_settings.REDIS_URL:
        pytest.skip("needs PostgreSQL and Redis (DATABASE_URL, REDIS_URL)")
    from claim.celery import app  # noqa: PLC0415 - connects the worker receivers: only for this test

    app.control.purge()
    log = Path(tempfile.mkdtemp(prefix="claim-review-worker-")) / "worker.log"
    proc = start_celery(["worker", "-P", "solo", "-l", "info", "-Q", "review", "-n", f"review-{os.getpid()}@%h"],
                        celery_env(), log)
    try:
        yield proc, log
    finally:
        stop(proc)


def test_the_review_worker_computes_a_requested_review(settings: Any, make_api: Any,
                                                       review_worker: tuple[subprocess.Popen, Path]) -> None:
    _proc, log = review_worker
    a, b = make_api("alice"), make_api("bob")
    gid = start_game(a, b, seed=11)
    for _ in range(8):
        mover = a if a.view(gid)["my_turn"] else b
        mine = mover.view(gid)
        assert mover.move(gid, mine["version"], mine["legal_moves"][-1]).status_code == 201
    assert a.post(f"/api/v1/games/{gid}/resign", {}).status_code == 200
    assert Game.objects.get(pk=gid).status == Game.Status.FINISHED
    settings.TASK_MODE = "celery"  # from here the review goes through the broker to the worker
    r = b.post(f"/api/v1/games/{gid}/review")
    assert r.status_code == 202, r.content
    deadline = time.monotonic() + TIMEOUT
    body: dict[str, Any] = {}
    while time.monotonic() < deadline:
        body = b.get(f"/api/v1/games/{gid}/review").json()
        if body["status"] in ("done", "failed"):
            break
        time.sleep(0.3)
    text = log.read_text()
    assert body["status"] == "done", (body, text[-3000:])
    moves = Move.objects.filter(game_id=gid).count()
    assert body["progress"] == {"done": moves, "total": moves} and len(body["decisions"]) == moves
    assert len(re.findall(r"Task review\.compute\[[0-9a-f-]+\] succeeded in [0-9.]+s: True", text)) == 1, text
