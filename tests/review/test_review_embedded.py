"""Embedded mode (``make run``: ``TASK_MODE = "thread"``): the review runs on its own in-process thread, never on
the pool of the AI's turns (claim/tasks.py routes a task by ``CELERY_TASK_ROUTES``)."""

from __future__ import annotations

from typing import Any

import pytest

from claim import tasks as claim_tasks
from games.review.tasks import compute_review_task
from games.tasks import play_ai_turn_task

from .conftest import start_game

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_review_task_has_its_own_pool():
    assert claim_tasks.task_queue(compute_review_task) == "review"
    assert claim_tasks.task_queue(play_ai_turn_task) is None
    review_pool = claim_tasks._pool_for(compute_review_task)
    assert review_pool is claim_tasks._pool_for(compute_review_task)
    assert review_pool is not claim_tasks._pool_for(play_ai_turn_task)
    assert review_pool._max_workers == 1
    claim_tasks.wait_for_thread_tasks()


def test_a_review_in_thread_mode(settings: Any, make_api: Any):
    a, b = make_api("alice"), make_api("bob")
    gid = start_game(a, b, seed=4)
    assert a.post(f"/api/v1/games/{gid}/resign", {}).status_code == 200
    settings.TASK_MODE = "thread"
    assert a.post(f"/api/v1/games/{gid}/review").status_code == 202
    claim_tasks.wait_for_thread_tasks()
    assert a.get(f"/api/v1/games/{gid}/review").json()["status"] == "done"
