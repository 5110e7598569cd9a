"""claim.tasks.Batcher: many game_changed items travel as one Celery task (docs/performance.md)."""

from __future__ import annotations

import threading
import time

import pytest

from claim.tasks import Batcher


class FakeTask:
    name = "tests.fake"

    def __init__(self, fail_first: int = 0) -> None:
        self.sent: list[list] = []
        self.fail_first = fail_first
        self.event = threading.Event()

    def apply_async(self, args, **kwargs) -> None:
        if self.fail_first:
            self.fail_first -= 1
            raise ConnectionError("broker away")
        self.sent.append(list(args[0]))
        self.event.set()

    def apply(self, args, kwargs=None, throw=False):  # eager mode
        self.sent.append(list(args[0]))


def _wait_for(task: FakeTask, items: int, timeout: float = 5.0) -> None:
    deadline = time.monotonic() + timeout
    while sum(len(b) for b in task.sent) < items and time.monotonic() < deadline:
        time.sleep(0.005)


def test_items_of_one_window_go_as_one_task(settings):
    settings.TASK_MODE = "celery"
    task = FakeTask()
    batcher = Batcher(task, window=0.2)
    for i in range(5):
        batcher.add([i, 1, "active"])
    _wait_for(task, 5)
    assert task.sent == [[[0, 1, "active"], [1, 1, "active"], [2, 1, "active"], [3, 1, "active"],
                          [4, 1, "active"]]]


def test_a_full_batch_goes_at_once_and_order_is_kept(settings):
    settings.TASK_MODE = "celery"
    task = FakeTask()
    batcher = Batcher(task, window=30, max_items=3)  # the window alone would never send within the test
    for i in range(3):
        batcher.add(i)
    _wait_for(task, 3)
    assert task.sent == [[0, 1, 2]]


def test_a_failed_send_is_retried_with_nothing_lost(settings):
    settings.TASK_MODE = "celery"
    task = FakeTask(fail_first=1)
    batcher = Batcher(task, window=0.01)
    batcher.add("a")
    batcher.add("b")
    _wait_for(task, 2)
    assert [item for batch in task.sent for item in batch] == ["a", "b"]


def test_flush_sends_what_waits(settings):
    settings.TASK_MODE = "celery"
    task = FakeTask()
    batcher = Batcher(task, window=30)
    batcher.add("x")
    batcher.flush()
    assert task.sent == [["x"]]


@pytest.mark.parametrize("mode", ["eager"])
def test_outside_celery_each_item_runs_at_once(settings, mode):
    settings.TASK_MODE = mode
    task = FakeTask()
    batcher = Batcher(task, window=30)
    batcher.add("x")
    batcher.add("y")
    assert task.sent == [["x"], ["y"]]
