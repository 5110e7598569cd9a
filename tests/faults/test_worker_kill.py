"""Kill Celery workers (SIGKILL, the whole process group) while one computes a King move. acks_late: the task
taken by the killed worker stays unacknowledged in Redis and is redelivered after the visibility timeout;
play_ai_turn is idempotent by game version, so the move is made exactly once.

* Every worker killed: nothing happens until a worker runs again; then the move is made, once.
* One of the two killed: the other one redelivers the task to itself and finishes the AI's turns, to the end of
  the game.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable

import pytest

from .client import Player
from .deploy import VISIBILITY_TIMEOUT, Deployment, wait_for

pytestmark = [pytest.mark.faults, pytest.mark.slow, pytest.mark.integration]

RECEIVED = re.compile(r"Task games\.play_ai_turn\[([0-9a-f-]+)\] received")


def _received_since(dep: Deployment, marks: dict[str, int]) -> list[str]:
    return RECEIVED.findall(dep.worker_log_since(marks))


def _assert_log_sound(dep: Deployment, game_id: int) -> None:
    version, move_count, _ = dep.game_row(game_id)
    log = dep.move_log(game_id)
    numbers = [n for n, _, _ in log]
    assert numbers == list(range(1, move_count + 1)), f"move log has a gap or a duplicate: {numbers}"
    versions = [v for _, v, _ in log]
    assert versions and len(set(versions)) == len(versions) and versions == sorted(versions), versions
    assert versions[-1] <= version
    assert dep.replay_all()[str(game_id)] == "identical"


def _kill_mid_king_move(dep: Deployment, human: Player, gid: int, kill: Callable[[int], None],
                        restart: Callable[[], None]) -> tuple[str, int, int]:
    """Make the human move that hands the turn to the King, and ``kill(i)`` (i: the worker that took the AI task)
    while it thinks. Returns (task id, the version the King must move at, i). ``restart`` undoes a kill that
    landed too late (the King had a single legal move, or was quicker), before the next attempt."""
    for _attempt in range(12):
        # Let the AI finish whatever it does, then make the human move that hands the turn to the King.
        view = wait_for("the human's turn", lambda: (v := human.view(gid))["my_turn"] and v, 60, interval=0.2)
        assert view["status"] == "active", "the game ended before a kill landed mid-move"
        marks = dep.log_marks()
        moved = human.move(view)
        assert moved.status_code == 201, moved.text
        version = moved.json()["version"]
        if moved.json()["my_turn"]:
            continue  # still the human's turn (the trick is not over): no AI task yet
        task = wait_for("a worker to take the AI task", lambda m=marks: _received_since(dep, m), 30,
                        interval=0.01)[0]
        taker = next(i for i, log in enumerate(dep.worker_logs_since(marks)) if task in log)
        time.sleep(0.05)  # inside the ~1 s of thinking, well before the commit
        kill(taker)
        if dep.game_row(gid)[0] != version:  # not a mid-move kill
            restart()
            continue
        # The task is taken but not acknowledged: it waits in the broker's unacked set, not lost.
        unacked = dep.redis.client().hvals("unacked")
        assert any(task.encode() in raw for raw in unacked), f"task {task} is not in the unacked set: {unacked}"
        return task, version, taker
    raise AssertionError("no kill landed while the King was thinking in 12 attempts")


def _assert_once_and_idempotent(dep: Deployment, human: Player, game: dict, version: int) -> None:
    """The version the King moved at has one move, by the AI's seat; the same task again changes nothing."""
    gid = game["id"]
    log = dep.move_log(gid)
    assert [v for _, v, _ in log].count(version + 1) == 1
    ai_seat = next(s["index"] for s in game["seats"] if s["type"] == "ai")
    assert next(seat for _, v, seat in log if v == version + 1) == ai_seat
    wait_for("the human's turn again", lambda: human.view(gid)["my_turn"] or human.view(gid)["status"] != "active",
             60, interval=0.2)
    before = dep.game_row(gid)
    marks = dep.log_marks()
    dep.manage(f"import json; from games.tasks import play_ai_turn_task as t; t.delay({gid}, {version}); print(1)")
    wait_for("the duplicate task to finish", lambda: re.search(
        r"Task games\.play_ai_turn\[[0-9a-f-]+\] succeeded in [0-9.]+s: False", dep.worker_log_since(marks)), 60)
    assert dep.game_row(gid) == before


def test_every_worker_killed_mid_king_move_the_move_is_made_once(deployment: Deployment) -> None:
    dep = deployment
    tokens = dep.make_users("kingslayer")
    human = Player(dep, "kingslayer", tokens["kingslayer"])
    game = human.create("claim", [{"type": "ai", "level": 3}])
    gid = game["id"]

    def kill_all(taker: int) -> None:
        for i in [taker, *(j for j in range(len(dep.workers)) if j != taker)]:
            dep.workers[i].kill()

    def restart_all() -> None:
        for i in range(len(dep.workers)):
            dep.start_worker(i)

    killed_task, version, _ = _kill_mid_king_move(dep, human, gid, kill_all, restart_all)

    # Nothing happens while no worker runs (the move is not made by anything else).
    time.sleep(1)
    assert dep.game_row(gid)[0] == version
    started = time.monotonic()
    marks = dep.log_marks()
    restart_all()
    # After the visibility timeout a restarted worker restores the task, and it runs to the end.
    wait_for("the AI move after the restart", lambda: dep.game_row(gid)[0] > version, VISIBILITY_TIMEOUT + 60)
    redelivery = time.monotonic() - started
    assert killed_task in _received_since(dep, marks), "the move was not made by the redelivered task"
    print(f"\nevery worker killed mid King move; redelivered and played {redelivery:.1f}s after the restart "
          f"(visibility timeout {VISIBILITY_TIMEOUT}s)")

    _assert_once_and_idempotent(dep, human, game, version)
    wait_for("no task left unacknowledged", lambda: not dep.redis.client().hlen("unacked"), 30, interval=0.5)
    _assert_log_sound(dep, gid)


def test_one_of_two_workers_killed_the_other_finishes_the_ai_game(deployment: Deployment) -> None:
    dep = deployment
    assert len(dep.workers) == 2
    tokens = dep.make_users("halfking")
    human = Player(dep, "halfking", tokens["halfking"])
    game = human.create("claim", [{"type": "ai", "level": 3}])
    gid = game["id"]

    killed: list[int] = []

    def kill_one(taker: int) -> None:
        dep.workers[taker].kill()
        killed.append(taker)

    def restart_it() -> None:
        dep.start_worker(killed.pop())

    killed_task, version, taker = _kill_mid_king_move(dep, human, gid, kill_one, restart_it)
    survivor = 1 - taker
    assert dep.workers[survivor].alive() and not dep.workers[taker].alive()
    started = time.monotonic()
    marks = dep.log_marks()
    # No restart: the surviving worker restores the unacknowledged task after the visibility timeout.
    wait_for("the survivor to make the AI move", lambda: dep.game_row(gid)[0] > version, VISIBILITY_TIMEOUT + 60)
    redelivery = time.monotonic() - started
    assert killed_task in RECEIVED.findall(dep.worker_logs_since(marks)[survivor]), \
        "the survivor did not run the killed worker's task"
    _assert_once_and_idempotent(dep, human, game, version)

    # The survivor plays every later AI turn, to the end of the game (the killed worker stays dead meanwhile,
    # and nothing else runs tasks: CLAIM_TASK_MODE=celery).
    played = 0
    while human.view(gid)["status"] == "active":
        if human.move_if_my_turn(gid) is not None:
            played += 1
        else:
            time.sleep(0.1)
    assert human.view(gid)["status"] == "finished"
    assert not dep.workers[taker].alive() and dep.workers[survivor].alive()
    ai_moves = [v for _, v, seat in dep.move_log(gid) if v > version + 1 and seat != game["my_seat"]]
    assert ai_moves, "the AI made no move after the kill"
    print(f"\none of two workers killed mid King move; the survivor redelivered and played it {redelivery:.1f}s "
          f"later (visibility timeout {VISIBILITY_TIMEOUT}s), then {len(ai_moves)} more AI moves to the end "
          f"({played} human moves)")

    dep.start_worker(taker)
    dep.wait_healthy(timeout=60)
    assert not dep.redis.client().hlen("unacked"), "a task is still unacknowledged"
    _assert_log_sound(dep, gid)
