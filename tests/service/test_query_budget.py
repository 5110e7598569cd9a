"""Query budget of the hot path (docs/performance.md): a move over HTTP, and what the publisher adds.

A move is: the token lookup (accounts), the game row locked, its seats with their users, the move row
(inserted with the mover's answer; a repeated ``client_id`` is caught by the insert), one UPDATE for
the seats whose ``to_act`` changed, the history entry and the game row. Publishing the new version to
both players reuses the committed game and seats and the mover's answer: no query at all.
Raise a budget only with a reason written down in docs/performance.md.
"""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

import games.tasks
from games.realtime import publish
from games.service import make_move

pytestmark = pytest.mark.django_db

MOVE_QUERIES = 7  # token, lock game, seats+users, insert move, update seats, insert event, update game


@pytest.fixture(autouse=True)
def _background_followers_not_counted(monkeypatch):
    """``game_changed`` receivers (clocks, notifications, ratings) run in a background task, not in
    the request; tests run tasks inline (eager), so keep them out of the request's count here."""
    dispatched: list[tuple[int, int, str]] = []
    monkeypatch.setattr(games.tasks, "send_game_changed", lambda *args: dispatched.append(args))
    yield
    assert dispatched, "every committed change still hands game_changed to the background"


def _started(alice, bob) -> tuple[int, object, dict]:
    game = alice.create(kind="claim", opponents=[{"type": "user", "username": bob.user.username}])
    r = bob.post(f"/api/v1/games/{game['id']}/join")
    assert r.status_code == 201, r.content
    views = {api: api.view(game["id"]) for api in (alice, bob)}
    mover = next(api for api, v in views.items() if v["my_turn"])
    return game["id"], mover, views[mover]


def _queries(ctx) -> list[str]:
    # Test transactions turn BEGIN/COMMIT into savepoints; they are not queries of the move.
    return [q["sql"] for q in ctx.captured_queries if "SAVEPOINT" not in q["sql"]]


def test_a_move_over_http_stays_within_its_query_budget(alice, bob, django_assert_max_num_queries, monkeypatch):
    game_id, mover, view = _started(alice, bob)
    sent: list[tuple[str, dict]] = []
    monkeypatch.setattr(publish, "_send_all", _record(sent))
    with CaptureQueriesContext(connection) as ctx:
        r = mover.move(game_id, view["version"], view["legal_moves"][0], client_id="budget-1")
    assert r.status_code == 201, r.content
    queries = _queries(ctx)
    assert len(queries) <= MOVE_QUERIES, "\n".join(queries)
    # Both players got their own view of the new version, built without a query.
    assert sorted(m["view"]["my_seat"] for _, m in sent) == [0, 1]
    assert {m["version"] for _, m in sent} == {r.json()["version"]}
    assert next(m["view"] for _, m in sent if m["view"]["my_seat"] == view["my_seat"]) == r.json()


def test_a_pwa_move_with_session_and_csrf_costs_what_a_token_move_costs(alice, bob):
    """The PWA's credential (session cookie + CSRF header): the session comes from the cache, the user is one
    query, as the token lookup is for a token client: the same budget on the one move path."""
    game_id, mover, view = _started(alice, bob)
    client = APIClient(enforce_csrf_checks=True)
    client.force_login(mover.user)
    csrf = client.get("/api/v1/accounts/csrf").json()["csrf_token"]
    body = {"version": view["version"], "move": view["legal_moves"][0], "client_id": "budget-pwa"}
    refused = client.post(f"/api/v1/games/{game_id}/moves", body, format="json")
    assert refused.status_code == 403 and "CSRF" in refused.json()["error"]["message"]
    with CaptureQueriesContext(connection) as ctx:
        r = client.post(f"/api/v1/games/{game_id}/moves", body, format="json", HTTP_X_CSRFTOKEN=csrf)
    assert r.status_code == 201, r.content
    assert r.json()["version"] == view["version"] + 1 and r.headers["RateLimit-Policy"]
    queries = _queries(ctx)
    assert len(queries) <= MOVE_QUERIES, "\n".join(queries)
    assert not any("django_session" in q for q in queries), "\n".join(queries)


def test_max_num_queries_of_a_move_and_of_its_retry(alice, bob, django_assert_max_num_queries):
    game_id, mover, view = _started(alice, bob)
    with django_assert_max_num_queries(MOVE_QUERIES + 2):  # + the test's SAVEPOINT/RELEASE
        r = mover.move(game_id, view["version"], view["legal_moves"][0], client_id="budget-2")
    assert r.status_code == 201
    # A retry (same client_id, old version): lock, seats, the stored answer.
    with django_assert_max_num_queries(4 + 2):
        again = mover.move(game_id, view["version"], view["legal_moves"][0], client_id="budget-2")
    assert again.status_code == 200 and again.json() == r.json()


def test_publishing_after_a_move_reads_nothing(alice, bob, monkeypatch, django_capture_on_commit_callbacks):
    game_id, mover, view = _started(alice, bob)
    with django_capture_on_commit_callbacks(execute=False) as hooks:
        make_move(mover.user, game_id, view["version"], view["legal_moves"][0], client_id="budget-3")
    sent: list[tuple[str, dict]] = []
    monkeypatch.setattr(publish, "_send_all", _record(sent))
    with CaptureQueriesContext(connection) as ctx:
        for hook in hooks:
            hook()
    assert _queries(ctx) == []
    assert len(sent) == 2


def _record(sink: list):
    async def send_all(layer, messages, **kwargs):
        sink.extend(messages)

    return send_all
