"""Races on PostgreSQL row locks: two clients send a move against the same version at the same moment."""

from __future__ import annotations

import threading
import uuid

import pytest
from django.db import connection, connections, transaction
from rest_framework.test import APIClient

from accounts.models import ApiToken
from games.models import Game, GameEvent, Move
from games.notify.models import Notification
from games.service import replay_log
from games.service._common import lock_game

from .conftest import PLAY_SCOPES

RACES = 50


def _client(token: str) -> APIClient:
    c = APIClient()
    c.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    return c


@pytest.mark.django_db(transaction=True)
def test_two_clients_race_the_same_version(make_user):
    if connection.vendor != "postgresql":
        pytest.skip("row locks need PostgreSQL")

    users = [make_user("ann"), make_user("ben")]
    tokens = [ApiToken.issue(u, "race", PLAY_SCOPES)[1] for u in users]
    r = _client(tokens[0]).post("/api/v1/games", {"kind": "claim", "opponents": [{"type": "user",
                                                                                 "username": "ben"}]}, format="json")
    gid = r.json()["id"]
    assert _client(tokens[1]).post(f"/api/v1/games/{gid}/join", {}, format="json").status_code == 201

    for race in range(RACES):
        view = _client(tokens[0]).get(f"/api/v1/games/{gid}").json()
        assert view["status"] == "active"
        (seat,) = view["to_act"]
        token = tokens[seat]
        mine = _client(token).get(f"/api/v1/games/{gid}").json()
        legal = mine["legal_moves"]
        barrier = threading.Barrier(2)
        results: list[tuple[int, dict]] = [None, None]  # type: ignore[list-item]

        def attempt(i: int, move: dict, token=token, barrier=barrier, results=results, version=mine["version"]):
            try:
                client = _client(token)  # a second device of the same player
                barrier.wait(timeout=10)
                resp = client.post(f"/api/v1/games/{gid}/moves",
                                   {"version": version, "move": move, "client_id": str(uuid.uuid4())},
                                   format="json")
                results[i] = (resp.status_code, resp.json())
            finally:
                connection.close()

        threads = [threading.Thread(target=attempt, args=(i, legal[0] if i == 0 else legal[-1])) for i in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=30)
        statuses = sorted(s for s, _ in results)
        assert statuses == [201, 409], (race, results)
        loser = next(b for s, b in results if s == 409)
        winner = next(b for s, b in results if s == 201)
        assert loser["error"]["code"] == "stale_version"
        assert loser["error"]["view"]["version"] == winner["version"] == mine["version"] + 1

    # finish the game normally
    for _ in range(200):
        view = _client(tokens[0]).get(f"/api/v1/games/{gid}").json()
        if view["status"] != "active":
            break
        (seat,) = view["to_act"]
        mine = _client(tokens[seat]).get(f"/api/v1/games/{gid}").json()
        resp = _client(tokens[seat]).post(f"/api/v1/games/{gid}/moves",
                                          {"version": mine["version"], "move": mine["legal_moves"][0]}, format="json")
        assert resp.status_code == 201
    game = Game.objects.get(pk=gid)
    assert game.status == "finished"
    numbers = list(Move.objects.filter(game=game).order_by("number").values_list("number", flat=True))
    assert numbers == list(range(1, game.move_count + 1)) and game.move_count == 52
    versions = list(GameEvent.objects.filter(game=game).order_by("version").values_list("version", flat=True))
    assert versions == list(range(1, game.version + 1))
    check = replay_log(gid)
    assert check.ok, check.message


@pytest.mark.django_db(transaction=True)
def test_same_client_id_raced_applies_once(make_user):
    if connection.vendor != "postgresql":
        pytest.skip("row locks need PostgreSQL")

    user = make_user("solo")
    token = ApiToken.issue(user, "race", PLAY_SCOPES)[1]
    gid = _client(token).post("/api/v1/games", {"kind": "claim", "opponents": [{"type": "ai", "level": 1}]},
                              format="json").json()["id"]
    for _ in range(10):
        view = _client(token).get(f"/api/v1/games/{gid}").json()
        cid = str(uuid.uuid4())
        barrier = threading.Barrier(3)
        results: list = []
        lock = threading.Lock()

        def attempt(view=view, cid=cid, barrier=barrier, results=results, lock=lock):
            try:
                client = _client(token)
                barrier.wait(timeout=10)
                resp = client.post(f"/api/v1/games/{gid}/moves",
                                   {"version": view["version"], "move": view["legal_moves"][0], "client_id": cid},
                                   format="json")
                with lock:
                    results.append((resp.status_code, resp.json()))
            finally:
                connection.close()

        threads = [threading.Thread(target=attempt) for _ in range(3)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=30)
        assert sorted(s for s, _ in results) == [200, 200, 201]
        bodies = [b for _, b in results]
        assert bodies[0] == bodies[1] == bodies[2]
        assert Move.objects.filter(game_id=gid, client_id=cid).count() == 1
    assert replay_log(gid).ok


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("first", ["notification", "move"])
def test_a_row_naming_the_game_does_not_wait_for_the_move_lock(make_user, first):
    """A move locks its game row ``FOR NO KEY UPDATE``: another transaction inserting a row that references the
    game (a notification: PostgreSQL's foreign-key check takes ``FOR KEY SHARE`` on the game row) neither waits
    for a move's lock nor makes the next move wait for it, in either order."""
    if connection.vendor != "postgresql":
        pytest.skip("row locks need PostgreSQL")

    user = make_user("ann")
    game = Game.objects.create(kind="claim", seat_count=2, seed=1, created_by=user)
    holding, release, errors = threading.Event(), threading.Event(), []

    def hold_in_other_transaction():
        try:
            with transaction.atomic():
                with connection.cursor() as cursor:
                    cursor.execute("SET LOCAL lock_timeout = '3s'")
                if first == "notification":
                    Notification.objects.create(user=user, event="your_turn", game_id=game.pk, title="t")
                else:
                    lock_game(game.pk)
                holding.set()
                release.wait(timeout=10)
        except Exception as exc:
            errors.append(exc)
            holding.set()
        finally:
            connections.close_all()

    other = threading.Thread(target=hold_in_other_transaction)
    other.start()
    try:
        assert holding.wait(timeout=10)
        with transaction.atomic():
            with connection.cursor() as cursor:
                cursor.execute("SET LOCAL lock_timeout = '500ms'")
            if first == "notification":
                assert lock_game(game.pk).pk == game.pk
            else:
                Notification.objects.create(user=user, event="your_turn", game_id=game.pk, title="t")
    finally:
        release.set()
        other.join(timeout=10)
    assert not errors, errors
