"""Anonymous read of finished games and the per-user NDJSON export (issue 26)."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from games.models import Game, Seat

pytestmark = pytest.mark.django_db


def _finished(api, kind="claim", rated=False) -> int:
    gid = api.create(kind=kind, opponents=[{"type": "ai", "level": 1}])["id"]
    assert api.post(f"/api/v1/games/{gid}/resign").status_code == 200
    if rated:
        Game.objects.filter(pk=gid).update(rated=True)
    return gid


def test_a_finished_game_reads_without_credentials(alice):
    gid = _finished(alice)
    anon = APIClient()
    view = anon.get(f"/api/v1/games/{gid}")
    assert view.status_code == 200 and view.json()["my_seat"] is None and view.json()["status"] == "finished"
    for part in ("history", "record", "replay"):
        assert anon.get(f"/api/v1/games/{gid}/{part}").status_code == 200, part
    assert anon.get(f"/api/v1/games/{gid}/record").json()["record"]["result"]["reason"] == "resigned"


def test_an_unfinished_game_or_none_answers_401_without_credentials(alice):
    active = alice.create(kind="claim", opponents=[{"type": "ai", "level": 1}])["id"]
    anon = APIClient()
    for path in (f"/api/v1/games/{active}", f"/api/v1/games/{active}/history", f"/api/v1/games/{active}/record",
                 "/api/v1/games/999999"):
        r = anon.get(path)
        assert r.status_code == 401 and r.json()["error"]["code"] == "not_authenticated", path
        assert "hand" not in r.content.decode()
    assert anon.post(f"/api/v1/games/{active}/resign").status_code == 401
    assert anon.get("/api/v1/games").status_code == 401  # your inbox needs credentials


def _export(client, username="alice", **params):
    r = client.get(f"/api/v1/users/{username}/games/export", params)
    assert r.status_code == 200, r.content
    assert r["Content-Type"] == "application/x-ndjson"
    return [json.loads(line) for line in r.getvalue().decode().splitlines() if line]


def test_the_export_lists_finished_records_newest_first_and_filters(alice):
    first = _finished(alice, "claim")
    second = _finished(alice, "claim2", rated=True)
    alice.create(kind="claim", opponents=[{"type": "ai", "level": 1}])  # still active: never exported
    ended = timezone.now() - timedelta(days=3)
    Game.objects.filter(pk=first).update(finished_at=ended)
    Seat.objects.filter(game_id=first).update(finished_at=ended)  # the seats keep their game's end
    anon = APIClient()
    assert [r["id"] for r in _export(anon)] == [second, first]
    records = _export(anon, kind="claim")
    assert [r["id"] for r in records] == [first] and records[0]["record"]["ended_reason"] == "resigned"
    assert [r["id"] for r in _export(anon, rated="true")] == [second]
    assert [r["id"] for r in _export(anon, rated="false")] == [first]
    since = (timezone.now() - timedelta(days=1)).date().isoformat()
    assert [r["id"] for r in _export(anon, since=since)] == [second]
    assert [r["id"] for r in _export(anon, until=since)] == [first]
    assert [r["id"] for r in _export(anon, limit=1)] == [second]


@pytest.mark.parametrize(("params", "field"), [
    ({"kind": "chess"}, "kind"), ({"since": "yesterday"}, "since"), ({"until": "2026-13-40"}, "until"),
    ({"rated": "yes"}, "rated"), ({"limit": "0"}, "limit"), ({"limit": "x"}, "limit"),
])
def test_bad_export_filters_are_400(alice, params, field):
    r = APIClient().get("/api/v1/users/alice/games/export", params)
    assert r.status_code == 400 and field in r.json()["error"]["fields"]


def test_export_of_nobody_is_404(alice):
    r = APIClient().get("/api/v1/users/nobody/games/export")
    assert r.status_code == 404 and r.json()["error"]["code"] == "not_found"


def test_unknown_preference_keys_are_refused(alice):
    r = alice.client.patch("/api/v1/notifications/preferences", {"email_digets": True}, format="json")
    assert r.status_code == 400 and "email_digets" in r.json()["error"]["fields"]
    r = alice.client.patch("/api/v1/notifications/preferences", {"email_digest": True}, format="json")
    assert r.status_code == 200 and r.json()["email_digest"] is True
