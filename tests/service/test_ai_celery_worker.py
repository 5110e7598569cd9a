"""A real Celery worker plays the AI seat of a game created through the HTTP API, from creation to the end.

The test process runs with ``TASK_MODE = "celery"``: every AI turn is sent through Redis (db of
``REDIS_URL``) and played by a ``celery -A claim worker`` subprocess against the test database; the
human seat is played by the test over HTTP. Nothing in the test process plays the AI's moves.
"""

from __future__ import annotations

import asyncio
import os
import random
import re
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from channels.layers import get_channel_layer
from django.conf import settings as dj_settings
from django.db import connection
from rest_framework.test import APIClient

from accounts.models import ApiToken
from games.models import Game, Move
from games.service import replay_log
from tests.celery_procs import celery_env, start_celery, stop

from .conftest import PLAY_SCOPES

TIMEOUT = 50.0  # seconds for the whole game (CI budget: < 60 s)

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def celery_worker_proc() -> Iterator[tuple[subprocess.Popen, Path]]:
    """A real worker subprocess (solo pool) on the test database and the test Redis; stopped in teardown."""
    if connection.vendor != "postgresql" or not dj_settings.REDIS_URL:
        pytest.skip("needs PostgreSQL and Redis (DATABASE_URL, REDIS_URL)")
    from claim.celery import app  # noqa: PLC0415 - connects the worker receivers: only for this test

    app.control.purge()  # no task left over from an earlier run may touch this test's games
    env = celery_env()
    log = Path(tempfile.mkdtemp(prefix="claim-ai-worker-")) / "worker.log"
    proc = start_celery(["worker", "-P", "solo", "-l", "info", "-n", f"ai-{os.getpid()}@%h"], env, log)
    try:
        yield proc, log
    finally:
        stop(proc)


def test_celery_worker_plays_the_ai_seat_to_the_end(settings: Any, make_user: Any,
                                                    celery_worker_proc: tuple[subprocess.Popen, Path]) -> None:
    settings.TASK_MODE = "celery"  # AI turns go through the broker to the worker, never run here
    worker, log = celery_worker_proc
    user = make_user("human")
    pushed = _collect_pushes(f"user.{user.pk}")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {ApiToken.issue(user, 'celery-test', PLAY_SCOPES)[1]}")
    created = client.post("/api/v1/games", {"kind": "claim", "opponents": [{"type": "ai", "level": 2}]},
                          format="json")
    assert created.status_code == 201, created.content
    body = created.json()
    gid = body["id"]
    assert body["status"] == "active"
    assert body["seats"][1]["type"] == "ai" and body["seats"][1]["ai_name"] == "Knight"

    rng = random.Random(5)
    human_moves = 0
    deadline = time.monotonic() + TIMEOUT
    view: dict[str, Any] = {}
    while time.monotonic() < deadline:
        view = client.get(f"/api/v1/games/{gid}").json()
        if view["status"] != "active":
            break
        if not view["my_turn"]:  # the AI seat must act: only the worker can move it on
            assert view["to_act"] == [1], view["to_act"]
            assert worker.poll() is None, log.read_text()[-3000:]
            time.sleep(0.05)
            continue
        move = rng.choice(view["legal_moves"])
        r = client.post(f"/api/v1/games/{gid}/moves", {"version": view["version"], "move": move,
                                                        "client_id": f"h{human_moves}"}, format="json")
        assert r.status_code == 201, r.content
        human_moves += 1
    assert view.get("status") == "finished", f"game not over after {TIMEOUT}s: {log.read_text()[-3000:]}"
    assert view["result"] is not None

    game = Game.objects.get(pk=gid)
    ai_moves = Move.objects.filter(game=game, seat=1).count()
    assert ai_moves > 20 and human_moves > 20
    assert ai_moves + human_moves == game.move_count == 52  # Claim: 26 cards each (C3)
    assert Move.objects.filter(game=game, seat=1, client_id__isnull=False).count() == 0
    assert replay_log(gid).ok
    # every AI move was played by the worker: one successful ``play_ai_turn`` (True) per AI move
    for _ in range(40):  # the worker logs the last task's result just after committing it
        played = re.findall(r"games\.play_ai_turn\[[^\]]+\] succeeded in [0-9.e-]+s: True", log.read_text())
        if len(played) >= ai_moves:
            break
        time.sleep(0.1)
    assert len(played) == ai_moves, log.read_text()[-3000:]
    # the worker pushed each AI move to the human's sockets (its one background loop: claim/loops.py)
    ai_versions = set(Move.objects.filter(game=game, seat=1).values_list("version", flat=True))
    for _ in range(50):
        if ai_versions <= set(pushed):
            break
        time.sleep(0.1)
    assert ai_versions <= set(pushed), sorted(ai_versions - set(pushed))


def _collect_pushes(group: str) -> list[int]:
    """Versions of the ``game.update`` messages sent to ``group``, collected on a loop of its own."""
    layer = get_channel_layer()
    loop = asyncio.new_event_loop()
    threading.Thread(target=loop.run_forever, daemon=True).start()
    inbox = asyncio.run_coroutine_threadsafe(layer.new_channel(), loop).result(5)
    asyncio.run_coroutine_threadsafe(layer.group_add(group, inbox), loop).result(5)
    versions: list[int] = []

    async def collect() -> None:
        while True:
            message = await layer.receive(inbox)
            if message.get("type") == "game.update":
                versions.append(message["version"])

    asyncio.run_coroutine_threadsafe(collect(), loop)
    return versions
