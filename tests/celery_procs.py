"""Real Celery processes for integration tests: started on the test database and the test Redis."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path
from urllib.parse import quote

from django.conf import settings as dj_settings
from django.db import connection

ROOT = Path(__file__).resolve().parents[1]
CELERY = str(Path(sys.executable).with_name("celery"))


def database_url_of_tests() -> str:
    """The URL of the database pytest-django created for this run (the ``test_…`` one)."""
    s = connection.settings_dict
    auth = quote(s["USER"] or "")
    if s.get("PASSWORD"):
        auth += ":" + quote(s["PASSWORD"])
    return f"postgres://{auth}@{s['HOST'] or '127.0.0.1'}:{s['PORT'] or 5432}/{s['NAME']}"


def celery_env(**extra: str) -> dict[str, str]:
    """The environment of a worker/beat that shares this test's database and Redis, tasks via Celery."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST")}
    env.update(DJANGO_SETTINGS_MODULE="claim.settings_test", DATABASE_URL=database_url_of_tests(), DB_POOL="0",
               REDIS_URL=dj_settings.REDIS_URL, CLAIM_TASK_MODE="celery", **extra)
    return env


def start_celery(args: list[str], env: dict[str, str], log: Path) -> subprocess.Popen:
    """``celery -A claim <args>`` in its own process group, output to ``log``."""
    return subprocess.Popen([CELERY, "-A", "claim", *args], cwd=ROOT, env=env, stdout=log.open("w"),
                            stderr=subprocess.STDOUT, start_new_session=True)


def stop(proc: subprocess.Popen) -> None:
    """SIGTERM the process group, SIGKILL after 10 s."""
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=5)
