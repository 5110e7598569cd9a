"""Kill the Celery worker (SIGKILL, its whole process group) while it computes a King move: once a worker runs
again, the move is made exactly once (acks_late: the unacknowledged task is redelivered after the visibility
timeout; play_ai_turn is idempotent by game version)."""

from __future__ import annotations

import re
import time

import pytest

from .client import Player
from .deploy import VISIBILITY_TIMEOUT, Deployment, wait_for

pytestmark = [pytest.mark.faults, pytest.mark.slow, pytest.mark.integration]

RECEIVED = re.compile(r"Task games\.play_ai_turn\[([0-9a-f-]+)\] received")


def _received_since(dep: Deployment, offset: int) -> list[str]:
    return RECEIVED.findall(dep.worker_log()[offset:])


def _assert_log_sound(dep: Deployment, game_id: int) -> None:
    version, move_count, _ = dep.game_row(game_id)
    log = dep.move_log(game_id)
    numbers = [n for n, _, _ in log]
    assert numbers == list(range(1, move_count + 1)), f"move log has a gap or a duplicate: {numbers}"
    versions = [v for _, v, _ in log]
    assert versions and len(set(versions)) == len(versions) and versions == sorted(versions), versions
    assert versions[-1] <= version
    assert dep.replay_all()[str(game_id)] == "identical"


def test_killed_worker_mid_king_move_the_move_is_made_once(deployment: Deployment) -> None:
    dep = deployment
    tokens = dep.make_users("kingslayer")
    human = Player(dep, "kingslayer", tokens["kingslayer"])
    game = human.create("claim", [{"type": "ai", "level": 3}])
    gid = game["id"]

    killed_task = None
    for _attempt in range(12):
        # Let the AI finish whatever it does, then make the human move that hands the turn to the King.
        view = wait_for("the human's turn", lambda: (v := human.view(gid))["my_turn"] and v, 60, interval=0.2)
        assert view["status"] == "active", "the game ended before a kill landed mid-move"
        offset = len(dep.worker_log())
        moved = human.move(view)
        assert moved.status_code == 201, moved.text
        version = moved.json()["version"]
        if moved.json()["my_turn"]:
            continue  # still the human's turn (the trick is not over): no AI task yet
        task = wait_for("the worker to take the AI task", lambda o=offset: _received_since(dep, o), 30,
                        interval=0.01)[0]
        time.sleep(0.05)  # inside the ~1 s of thinking, well before the commit
        dep.worker.kill()
        after_kill, _, _ = dep.game_row(gid)
        if after_kill != version:  # the King had a single legal move or was quicker: not a mid-move kill
            dep.start_worker()
            continue
        # The task is taken but not acknowledged: it waits in the broker's unacked set, not lost.
        unacked = dep.redis.client().hvals("unacked")
        assert any(task.encode() in raw for raw in unacked), f"task {task} is not in the unacked set: {unacked}"
        killed_task = task
        break
    assert killed_task is not None, "no kill landed while the King was thinking in 12 attempts"

    # Nothing happens while no worker runs (the move is not made by anything else).
    time.sleep(1)
    assert dep.game_row(gid)[0] == version
    started = time.monotonic()
    offset = len(dep.worker_log())
    dep.start_worker()
    # After the visibility timeout the restarted worker restores the task, and it runs to the end.
    wait_for("the AI move after the restart", lambda: dep.game_row(gid)[0] > version, VISIBILITY_TIMEOUT + 60)
    redelivery = time.monotonic() - started
    assert killed_task in _received_since(dep, offset), "the move was not made by the redelivered task"
    print(f"\nworker killed mid King move; redelivered and played {redelivery:.1f}s after the restart "
          f"(visibility timeout {VISIBILITY_TIMEOUT}s)")

    # Exactly once: the version the King moved at has one move; the same task again changes nothing.
    log = dep.move_log(gid)
    assert [v for _, v, _ in log].count(version + 1) == 1
    ai_seat = next(s["index"] for s in game["seats"] if s["type"] == "ai")
    assert next(seat for _, v, seat in log if v == version + 1) == ai_seat
    wait_for("the human's turn again", lambda: human.view(gid)["my_turn"] or human.view(gid)["status"] != "active",
             60, interval=0.2)
    before = dep.game_row(gid)
    offset = len(dep.worker_log())
    dep.manage(f"import json; from games.tasks import play_ai_turn_task as t; t.delay({gid}, {version}); print(1)")
    wait_for("the duplicate task to finish", lambda: re.search(
        r"Task games\.play_ai_turn\[[0-9a-f-]+\] succeeded in [0-9.]+s: False", dep.worker_log()[offset:]), 60)
    assert dep.game_row(gid) == before
    assert not dep.redis.client().hlen("unacked"), "a task is still unacknowledged"
    _assert_log_sound(dep, gid)
