"""Issue 22: a game view read while the other seat (or the AI) moves is one version, whole.

8.6 % of the views read while the AI moved were at version v but carried ``last_events`` of v+1: the game
row and its last history entry were read by two statements, and a move committed between them. Here a real
move of the other player is committed (by another connection) just before each statement the view reads
after its first one, in turn; every answer must describe one version: its ``last_events`` is the entry of
its ``version``, its seats' ``to_act`` is its ``to_act``, and its legal moves are those of that version.
"""

from __future__ import annotations

import threading
from typing import Any

import pytest
from django.db import connection

from accounts.models import User
from games import service
from games.models import GameEvent

pytestmark = pytest.mark.django_db(transaction=True)


def _move_elsewhere(user: User, game_id: int) -> None:
    """The seat to act plays its first legal move, committed by another thread's connection."""
    failure: list[BaseException] = []

    def run() -> None:
        try:
            view = service.view_for(user, game_id)
            service.make_move(user, game_id, view["version"], view["legal_moves"][0])
        except BaseException as exc:  # reported in the test's thread
            failure.append(exc)
        finally:
            connection.close()

    thread = threading.Thread(target=run)
    thread.start()
    thread.join(timeout=30)
    assert not failure, failure


def _view_with_a_move_before_statement(viewer: User, mover: User, game_id: int, k: int) -> tuple[dict, int]:
    """``viewer``'s view of the game, with ``mover``'s move committed just before the view's ``k``-th SQL
    statement (counted from 1). Returns the view and how many statements it made."""
    count = 0

    def wrapper(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        nonlocal count
        count += 1
        if count == k:
            _move_elsewhere(mover, game_id)
        return execute(sql, params, many, context)

    with connection.execute_wrapper(wrapper):
        view = service.view_for(viewer, game_id)
    return view, count


def _assert_one_version(view: dict, game_id: int) -> None:
    version = view["version"]
    assert view["last_events"] is not None
    assert view["last_events"]["version"] == version, (view["version"], view["last_events"])
    entry = GameEvent.objects.get(game_id=game_id, version=version)
    assert view["last_events"]["events"] == entry.events
    assert [s["index"] for s in view["seats"] if s["to_act"]] == view["to_act"]
    assert view["my_turn"] == (view["my_seat"] in view["to_act"])
    assert bool(view["legal_moves"]) == view["my_turn"]


def test_a_move_committed_between_the_views_reads_never_tears_it(make_user) -> None:
    ann, ben = make_user("ann"), make_user("ben")
    game = service.create_game(ann, "claim", opponents=[{"type": "user", "username": "ben"}])
    service.join_game(ben, game_id=game.pk)
    players = {0: ann, 1: ben}

    # How many statements a view makes when nothing happens meanwhile.
    _, statements = _view_with_a_move_before_statement(ann, ann, game.pk, k=0)
    assert statements >= 2
    checked = 0
    for k in range(2, statements + 1):
        for viewer in (ann, ben):
            before = service.view_for(viewer, game.pk)
            if before["status"] != "active":
                pytest.fail("the game ended before every interleaving was tried")
            (seat,) = before["to_act"]
            view, _ = _view_with_a_move_before_statement(viewer, players[seat], game.pk, k)
            assert view["version"] in (before["version"], before["version"] + 1)
            _assert_one_version(view, game.pk)
            checked += 1
    assert checked == 2 * (statements - 1)
