"""Issue #32 finding 2: the anonymous export is no CPU lever. In process (the WSGI test client): the export
streams stored records a piece at a time; ``If-None-Match`` gets 304 without reading a record; anonymous
exports have their own, lower rate; the game ids come from the ``seat_user_finished`` index.
(Real servers of both modes: ``test_export_servers.py``.)"""

from __future__ import annotations

import json

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

import games.api.export as export
import games.service.records as records
from games.api.export import finished_game_ids
from games.models import GameRecord

pytestmark = pytest.mark.django_db

EXPORT = "/api/v1/users/alice/games/export"


@pytest.fixture
def alice(make_api):
    return make_api("alice")


@pytest.fixture
def bob(make_api):
    return make_api("bob")


def finish_games(api, n: int, kind: str = "claim") -> list[int]:
    ids = []
    for _ in range(n):
        gid = api.create(kind=kind, opponents=[{"type": "ai", "level": 1}])["id"]
        assert api.post(f"/api/v1/games/{gid}/resign").status_code == 200
        ids.append(gid)
    return ids


def _record_reads(queries: CaptureQueriesContext) -> list[str]:
    return [q["sql"] for q in queries.captured_queries if "games_gamerecord" in q["sql"]]


def test_the_export_streams_a_piece_of_records_at_a_time(alice, monkeypatch):
    ids = finish_games(alice, 5)
    monkeypatch.setattr(export, "CHUNK", 2)
    with CaptureQueriesContext(connection) as queries:
        r = APIClient().get(EXPORT)
        assert r.status_code == 200 and r.streaming and not r.has_header("Content-Length")
        assert _record_reads(queries) == []  # the view returned before reading a record
        pieces, before = [], len(queries)
        for piece in r.streaming_content:
            pieces.append(piece)
            assert len(_record_reads(queries)) == len(pieces)  # each piece read when it is sent
            assert len(queries) - before == 2 * len(pieces)  # its stored texts, its seats and users: no N+1
    assert [piece.count(b"\n") for piece in pieces] == [2, 2, 1]
    lines = b"".join(pieces).decode().splitlines()
    assert [json.loads(line)["id"] for line in lines] == ids[::-1]
    assert r["Content-Disposition"] == 'attachment; filename="alice-games.ndjson"'


def test_if_none_match_answers_304_without_reading_a_record(alice, bob):
    finish_games(alice, 3)
    anon = APIClient()
    first = anon.get(EXPORT)
    etag = first["ETag"]
    assert first.status_code == 200 and etag.startswith('"export-')
    with CaptureQueriesContext(connection) as queries:
        again = anon.get(EXPORT, HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304 and again["ETag"] == etag and not again.streaming and again.content == b""
    assert _record_reads(queries) == [] and len(queries) <= 4  # user, game ids, seats' names (+ no record)
    assert anon.get(EXPORT, HTTP_IF_NONE_MATCH=f'W/"x", {etag}').status_code == 304  # a list; weak comparison
    assert anon.get(EXPORT, {"limit": 2}, HTTP_IF_NONE_MATCH=etag).status_code == 200  # other games, other tag
    assert anon.get(EXPORT, HTTP_IF_NONE_MATCH='"export-stale"').status_code == 200
    finish_games(alice, 1)  # a new game: a new tag
    assert anon.get(EXPORT, HTTP_IF_NONE_MATCH=etag).status_code == 200
    gid = finish_games(bob, 1)[0]
    record = anon.get(f"/api/v1/games/{gid}/record")
    tag = record["ETag"]
    assert record.status_code == 200 and tag.startswith('"record-')
    with CaptureQueriesContext(connection) as queries:
        again = anon.get(f"/api/v1/games/{gid}/record", HTTP_IF_NONE_MATCH=tag)
    assert again.status_code == 304 and again.content == b"" and again["ETag"] == tag
    assert _record_reads(queries) == []
    assert anon.get(f"/api/v1/games/{gid}/record", HTTP_IF_NONE_MATCH="*").status_code == 304
    assert anon.head(f"/api/v1/games/{gid}/record", HTTP_IF_NONE_MATCH=tag).status_code == 304


def test_anonymous_exports_have_their_own_lower_rate(alice, settings):
    finish_games(alice, 1)
    rf = settings.REST_FRAMEWORK
    settings.REST_FRAMEWORK = {**rf, "DEFAULT_THROTTLE_RATES": {**rf["DEFAULT_THROTTLE_RATES"], "export_anon": "3/min"}}
    anon = APIClient()
    answers = [anon.get(EXPORT) for _ in range(4)]
    assert [r.status_code for r in answers] == [200, 200, 200, 429]
    assert '"export_anon";q=3;w=60' in answers[0]["RateLimit-Policy"] and '"anon"' in answers[0]["RateLimit-Policy"]
    assert '"export_anon";r=0' in answers[2]["RateLimit"]
    limited = answers[3]
    assert limited.json()["error"]["code"] == "throttled" and int(limited["Retry-After"]) > 0
    assert anon.get("/api/v1/games/1/record").status_code != 429  # the other anonymous reads keep theirs
    for _ in range(5):  # a token keeps the "user" rate only
        r = alice.get(EXPORT)
        assert r.status_code == 200 and "export_anon" not in r["RateLimit-Policy"]


def test_the_export_reads_records_never_built_per_request(alice, monkeypatch):
    finish_games(alice, 3)

    def refuse(*args, **kwargs):
        raise AssertionError("a stored record was built again")

    monkeypatch.setattr(records, "record_payload", refuse)
    assert len(APIClient().get(EXPORT).getvalue().splitlines()) == 3
    assert GameRecord.objects.count() == 3


def test_the_game_ids_come_from_the_seat_user_finished_index(alice):
    """EXPLAIN on PostgreSQL: a range scan of the partial index in its order (no sort of the player's seats),
    stopped by the LIMIT. (The planner prefers a sequential scan of a tiny table: turned off here.)"""
    if connection.vendor != "postgresql":
        pytest.skip("the plan checked is PostgreSQL's")
    finish_games(alice, 3)
    for filters in ({"limit": "100"}, {"limit": "10", "kind": "claim", "rated": "false"},
                    {"limit": "5", "since": "2026-01-01"}):
        with CaptureQueriesContext(connection) as queries:
            assert len(finished_game_ids(alice.user, export.parse_filters(filters))) == 3
        (query,) = queries.captured_queries  # one statement, its parameters filled in
        with connection.cursor() as cursor:
            cursor.execute("SET LOCAL enable_seqscan = off")
            cursor.execute("SET LOCAL enable_bitmapscan = off")
            cursor.execute(f"EXPLAIN {query['sql']}")
            plan = "\n".join(row[0] for row in cursor.fetchall())
        assert "seat_user_finished" in plan and "Sort" not in plan and "Limit" in plan, plan
