"""The embedded run (thread mode, no Celery beat) runs the beat schedule in-process."""

from __future__ import annotations

import threading
import time

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
