"""No lost or duplicated move: concurrent double submits (same and different client ids, real threads and
real PostgreSQL row locks), retries with the same client id after the game moved on, and the move log
replaying to the stored state."""

from __future__ import annotations

import threading

import pytest
from django.db import connection
from rest_framework.test import APIClient

from accounts.models import ApiToken
from games.models import Game, Move
from games.service import Conflict, create_game, game_view_payload, join_game, make_move, replay_log

pytestmark = pytest.mark.django_db(transaction=True)


def _duel(make_user, kind="claim"):
    alice, bob = make_user("alice"), make_user("bob")
    game = create_game(alice, kind, opponents=[{"type": "user", "username": "bob"}])
    join_game(bob, game.pk)
    view = game_view_payload(Game.objects.get(pk=game.pk), alice)
    mover = alice if view["my_turn"] else bob
    return game.pk, mover, (bob if mover is alice else alice)


def _race(n, fn):
    barrier = threading.Barrier(n)
    results: list = [None] * n

    def run(i):
        try:
            barrier.wait()
            results[i] = ("ok", fn(i))
        except Exception as exc:
            results[i] = ("error", exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    return results


@pytest.mark.parametrize("same_client_id", [True, False], ids=["same-client-id", "different-client-ids"])
def test_concurrent_double_submit_applies_exactly_once(make_user, same_client_id):
    gid, mover, _ = _duel(make_user)
    view = game_view_payload(Game.objects.get(pk=gid), mover)
    n = 6
    results = _race(n, lambda i: make_move(mover, gid, view["version"], view["legal_moves"][0],
                                           client_id="dup" if same_client_id else f"c{i}"))
    applied = [r for kind, r in results if kind == "ok" and r[1]]
    assert len(applied) == 1, results
    if same_client_id:
        # every other submit is answered as a retry, with the very same answer
        assert all(kind == "ok" for kind, _ in results), results
        assert all(r[0] == applied[0][0] for _, r in results)
    else:
        errors = [r for kind, r in results if kind == "error"]
        assert len(errors) == n - 1
        assert all(isinstance(e, Conflict) and e.code == "stale_version" for e in errors), errors
    game = Game.objects.get(pk=gid)
    assert game.move_count == 1 and Move.objects.filter(game=game).count() == 1
    assert game.version == view["version"] + 1
    assert replay_log(gid).ok


def test_retry_with_same_client_id_after_the_game_moved_on(make_user):
    gid, mover, other = _duel(make_user)
    view = game_view_payload(Game.objects.get(pk=gid), mover)
    first, applied = make_move(mover, gid, view["version"], view["legal_moves"][0], client_id="once")
    assert applied
    # the game moves on (whoever must act now plays a few moves)
    for i in range(3):
        for user in (mover, other):
            v = game_view_payload(Game.objects.get(pk=gid), user)
            if v["my_turn"] and v["status"] == "active":
                make_move(user, gid, v["version"], v["legal_moves"][0], client_id=f"later{i}")
                break
    count = Game.objects.get(pk=gid).move_count
    again, applied = make_move(mover, gid, view["version"], view["legal_moves"][0], client_id="once")
    assert not applied and again == first
    assert Game.objects.get(pk=gid).move_count == count
    assert Move.objects.filter(game_id=gid, client_id="once").count() == 1
    assert replay_log(gid).ok


def test_http_retry_returns_200_with_the_first_answer(make_user):
    gid, mover, _ = _duel(make_user)
    _, plain = ApiToken.issue(mover, "t", ["games:read", "games:play"])
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {plain}")
    view = client.get(f"/api/v1/games/{gid}").json()
    body = {"version": view["version"], "move": view["legal_moves"][0], "client_id": "http-retry"}
    r1 = client.post(f"/api/v1/games/{gid}/moves", body, format="json")
    r2 = client.post(f"/api/v1/games/{gid}/moves", body, format="json")
    assert (r1.status_code, r2.status_code) == (201, 200)
    assert r1.json() == r2.json()
    assert Game.objects.get(pk=gid).move_count == 1


@pytest.mark.parametrize("kind", ["claim", "claim2", "inheritors"])
def test_concurrent_moves_over_a_whole_game_lose_nothing(make_user, kind):
    """Both players hammer the game from 3 threads each (stale versions, repeated ids) until it ends: every
    accepted move is in the log exactly once and the log replays to the stored state."""
    gid, a, b = _duel(make_user, kind)
    accepted: list[tuple[int, str]] = []
    lock = threading.Lock()

    def worker(i):
        user = (a, b)[i % 2]
        for _step in range(400):
            game = Game.objects.get(pk=gid)
            if game.status != "active":
                return
            v = game_view_payload(game, user)
            if not v["my_turn"]:
                continue
            cid = f"w{i}-{v['version']}"
            try:
                payload, applied = make_move(user, gid, v["version"], v["legal_moves"][0], client_id=cid)
            except Conflict:
                continue
            if applied:
                with lock:
                    accepted.append((payload["version"], cid))

    results = _race(6, worker)
    assert all(kind == "ok" for kind, _ in results), results
    game = Game.objects.get(pk=gid)
    versions = [v for v, _ in accepted]
    assert len(versions) == len(set(versions)) == game.move_count, (len(versions), game.move_count)
    assert Move.objects.filter(game=game).count() == game.move_count
    check = replay_log(gid)
    assert check.ok, check.message
