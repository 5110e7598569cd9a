"""``GET /api/v1/invitations/{code}`` (issue 33 item 12): an open invitation's preview for the link's landing
page, public, rate-limited and telling nothing beyond what the link invites to."""

from __future__ import annotations

import json

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from games.models import Game

pytestmark = pytest.mark.django_db

KEYS = {"code", "kind", "title", "seats", "open_seats", "inviter", "time_control", "rated"}


def preview(code: str, client: APIClient | None = None):
    return (client or APIClient()).get(f"/api/v1/invitations/{code}")


def test_anonymous_preview_names_who_invites_to_what(alice, bob):
    alice.user.display_name = "Alice A."
    alice.user.save()
    game = alice.create(kind="inheritors", seats=4, days_per_move=3,
                        opponents=[{"type": "user", "username": "bob"}, {"type": "open"}, {"type": "open"}])
    r = preview(game["invite_code"])
    assert r.status_code == 200, r.content
    body = r.json()
    assert set(body) == KEYS
    assert body["kind"] == "inheritors" and body["title"] == "Inheritors"
    assert body["seats"] == 4 and body["open_seats"] == 2  # bob's invited seat is held
    assert body["inviter"] == {"username": "alice", "name": "Alice A."}
    assert body["time_control"]["type"] == "correspondence" and body["time_control"]["days_per_move"] == 3
    assert body["rated"] is False
    # nothing of the game beyond that: no id, no other player, no state
    text = json.dumps(body)
    assert "bob" not in text and str(game["id"]) not in {str(v) for v in body.values()}


def test_a_code_that_cannot_be_used_is_404_like_no_code(alice, bob):
    game = alice.create(kind="claim")  # one open seat
    code = game["invite_code"]
    assert preview(code).status_code == 200
    assert bob.post("/api/v1/games/join", {"code": code}).status_code == 201  # full: the game started
    started = preview(code)
    missing = preview("NoSuchCode12")
    assert started.status_code == missing.status_code == 404
    assert started.json() == missing.json() and started.json()["error"]["code"] == "not_found"
    # a game whose seats are all held (an invitation by name) has a code nobody can join with
    invited = alice.create(kind="claim", opponents=[{"type": "user", "username": "bob"}])
    assert preview(Game.objects.get(pk=invited["id"]).invite_code).json() == missing.json()
    # cancelled
    cancelled = alice.create(kind="claim")
    assert alice.post(f"/api/v1/games/{cancelled['id']}/abort").status_code == 200
    assert preview(cancelled["invite_code"]).status_code == 404


@pytest.mark.parametrize("code", ["x" * 25, "a%20b", "..", "ab$cd", "a.b"])
def test_malformed_codes_are_404_without_a_query(code):
    with CaptureQueriesContext(connection) as queries:
        r = preview(code)
    assert r.status_code == 404 and r.json()["error"]["code"] == "not_found"
    assert not [q for q in queries.captured_queries if "games_game" in q["sql"]]


def test_the_preview_costs_a_constant_number_of_queries(alice):
    code = alice.create(kind="claim")["invite_code"]
    for _ in range(5):
        alice.create(kind="claim")
    with CaptureQueriesContext(connection) as queries:
        assert preview(code).status_code == 200
    assert len(queries.captured_queries) <= 2  # the game with its creator and seat count; its clock


def test_tokens_need_games_read(make_api, alice):
    code = alice.create(kind="claim")["invite_code"]
    noscope = make_api("noscope", scopes=[])
    r = noscope.get(f"/api/v1/invitations/{code}")
    assert r.status_code == 403 and r.json()["error"]["code"] == "insufficient_scope"
    assert make_api("reader", scopes=["games:read"]).get(f"/api/v1/invitations/{code}").status_code == 200


def test_anonymous_previews_have_their_own_rate(alice, settings):
    code = alice.create(kind="claim")["invite_code"]
    rf = settings.REST_FRAMEWORK
    settings.REST_FRAMEWORK = {**rf, "DEFAULT_THROTTLE_RATES": {**rf["DEFAULT_THROTTLE_RATES"],
                                                                "invite_preview": "3/min"}}
    anon = APIClient()
    answers = [anon.get(f"/api/v1/invitations/{c}") for c in (code, "guess1", "guess2", code)]
    assert [r.status_code for r in answers] == [200, 404, 404, 429]
    assert answers[3].json()["error"]["code"] == "throttled" and int(answers[3]["Retry-After"]) > 0
    for _ in range(5):  # a logged-in caller keeps the "user" rate only
        assert alice.get(f"/api/v1/invitations/{code}").status_code == 200
