"""Issue 22 item 4: ``/api/v1/health`` is cheap for anyone to call (one computation per process per
MAX_AGE, no 1-second worker ping), and is 503 only when this server cannot serve (claim/health.py)."""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path
from unittest import mock

import pytest
import redis
from django.conf import settings
from rest_framework.test import APIClient

from claim import health
from tests.celery_procs import celery_env, start_celery, stop

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh():
    health.reset()
    redis.Redis.from_url(settings.REDIS_URL).delete(health.HEARTBEAT_KEY) if settings.REDIS_URL else None
    yield
    health.reset()


def test_many_anonymous_calls_compute_the_answer_once_per_window(api_client, settings):
    settings.TASK_MODE = "celery"
    with mock.patch.object(health, "_compute", wraps=health._compute) as compute:
        answers: list[int] = []

        def call() -> None:
            answers.append(APIClient().get("/api/v1/health").status_code)

        threads = [threading.Thread(target=call) for _ in range(16)]
        started = time.perf_counter()
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        elapsed = time.perf_counter() - started
    assert compute.call_count == 1, compute.call_count
    assert len(answers) == 16
    print(f"16 concurrent health calls: {elapsed * 1000:.0f} ms")


def test_no_worker_is_reported_but_is_not_a_503(api_client, settings):
    if not settings.REDIS_URL:
        pytest.skip("needs Redis")
    settings.TASK_MODE = "celery"
    r = api_client.get("/api/v1/health")
    body = r.json()
    assert r.status_code == 200 and body["ok"] is True
    assert body["checks"]["celery"]["ok"] is False and body["checks"]["celery"]["error"] == "RuntimeError"
    assert "age_s" in body


def test_a_database_failure_is_503_without_the_error_text(api_client):
    with mock.patch.object(health, "_database", side_effect=RuntimeError("password=hunter2 host=10.0.0.5")):
        r = api_client.get("/api/v1/health")
    assert r.status_code == 503
    assert "hunter2" not in r.content.decode() and "10.0.0.5" not in r.content.decode()


def test_a_real_worker_is_seen_by_its_heartbeat(api_client, settings, tmp_path: Path):
    if not settings.REDIS_URL:
        pytest.skip("needs Redis")
    settings.TASK_MODE = "celery"
    log = tmp_path / "worker.log"
    proc = start_celery(["worker", "-P", "solo", "-l", "info", "-n", f"health-{os.getpid()}@%h"], celery_env(), log)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            health.reset()
            body = api_client.get("/api/v1/health").json()
            if body["checks"]["celery"]["ok"]:
                break
            time.sleep(0.5)
        else:
            pytest.fail("no heartbeat within 60 s:\n" + log.read_text(errors="replace")[-3000:])
        assert body["checks"]["celery"]["detail"] == "1 worker(s)"
        assert body["checks"]["celery"]["ms"] < 500
    finally:
        stop(proc)
