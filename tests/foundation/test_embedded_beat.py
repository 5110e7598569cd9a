"""The embedded run (thread mode, no Celery beat) runs the beat schedule in-process."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path

from celery import shared_task

from claim.tasks import start_embedded_beat

HITS: list[float] = []


@shared_task(name="tests.beat_probe")
def beat_probe() -> None:
    HITS.append(time.monotonic())


def test_schedule_runs_in_process_in_thread_mode(settings):
    settings.TASK_MODE = "thread"
    settings.CELERY_BEAT_SCHEDULE = {"probe": {"task": "tests.beat_probe", "schedule": 0.2}}
    HITS.clear()
    stop = threading.Event()
    thread = start_embedded_beat(poll_seconds=0.05, stop=stop)
    try:
        deadline = time.monotonic() + 10
        while len(HITS) < 3 and time.monotonic() < deadline:
            time.sleep(0.05)
    finally:
        stop.set()
        thread.join(timeout=5)
    assert len(HITS) >= 3, "the probe task ran every 0.2 s"
    assert not thread.is_alive()


def test_no_embedded_beat_when_a_broker_runs_the_schedule(settings):
    settings.TASK_MODE = "celery"
    assert start_embedded_beat() is None


def test_the_embedded_server_knows_and_runs_every_scheduled_task(tmp_path):
    """Issue 21: `make run` logged NotRegistered for every beat task (the web process never imported the
    task modules). A fresh interpreter loads the ASGI app as `make run` does (CLAIM_EMBEDDED,
    CLAIM_EMBEDDED_BEAT), then runs each scheduled task by name through the embedded beat."""
    root = Path(__file__).resolve().parents[2]
    script = """
import logging, threading, time
logging.basicConfig(level=logging.WARNING)
import claim.asgi  # noqa: F401  (starts the embedded beat, as the server does)
from django.conf import settings
from django.core.management import call_command
call_command("migrate", verbosity=0)
from claim.celery import app
from claim import tasks
names = sorted({e["task"] for e in settings.CELERY_BEAT_SCHEDULE.values()})
missing = [n for n in names if n not in app.tasks]
assert not missing, missing
ran = []
for name in names:
    task = app.tasks[name]
    result = task.apply()
    assert not result.failed(), (name, result.result)
    ran.append(name)
settings.CELERY_BEAT_SCHEDULE = {n: {"task": n, "schedule": 0.1} for n in names}
stop = threading.Event()
thread = tasks.start_embedded_beat(poll_seconds=0.05, stop=stop)
time.sleep(1.0)
stop.set(); thread.join(5)
tasks.wait_for_thread_tasks()
print("RAN", " ".join(ran))
"""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("PYTEST") and k not in ("REDIS_URL", "CELERY_BROKER_URL", "DATABASE_URL",
                                                       "CLAIM_TESTING", "DJANGO_SETTINGS_MODULE")}
    env.update(CLAIM_EMBEDDED="1", CLAIM_EMBEDDED_BEAT="1", CLAIM_VAR_DIR=str(tmp_path))
    proc = subprocess.run([sys.executable, "-c", script], cwd=root, env=env, capture_output=True, text=True,
                          timeout=120)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, out
    assert "NotRegistered" not in out and "Traceback" not in out and "ERROR" not in out, out
    ran = next(line for line in proc.stdout.splitlines() if line.startswith("RAN ")).split()[1:]
    for name in ("clock.expire_deadlines", "seeks.pair_all", "games.resume_ai_turns", "notify.send_reminders"):
        assert name in ran
