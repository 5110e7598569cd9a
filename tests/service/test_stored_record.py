"""Stored public records (issue #32 finding 2): an ended game's record is built once, when it finishes, and
served from storage by ``GET /games/{id}/record`` and the export; it equals the record built from the game."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

import games.service.payload as payload
import games.service.records as records
from games.clock.models import VacationAccount
from games.clock.service import expire_deadline
from games.models import Game, GameRecord, Seat
from games.service import record_payload, seats_of

pytestmark = pytest.mark.django_db

MIX3 = {"factions": ["knight", "goblin", "undead", "dwarf", "doppelganger", "troll", "seer"]}
MIX4 = {"factions": ["gnome", "giant", "undead", "dwarf", "dragon", "troll", "seer"]}
KINDS = {  # label -> (kind, options, seats)
    "claim": ("claim", {}, 2),
    "claim2": ("claim2", {}, 2),
    "claim-mix-3": ("claim-mix", MIX3, 3),
    "claim-mix-4": ("claim-mix", MIX4, 4),
    "inheritors": ("inheritors", {}, 2),
    "inheritors-3": ("inheritors", {}, 3),
    "inheritors-4": ("inheritors", {}, 4),
}


def built(game_id: int) -> dict:
    """The record as ``record_payload`` builds it from the game now (what was answered before issue #32)."""
    game = Game.objects.get(pk=game_id)
    return record_payload(game, seats_of(game))


def play_to_the_end(api, game_id: int, max_moves: int = 3000) -> dict:
    """Play the user's seat (its first legal move each turn) until the game ends; AI seats move inline."""
    for _ in range(max_moves):
        view = api.view(game_id)
        if view["status"] == "finished":
            return view
        assert view["my_turn"], view["to_act"]
        r = api.move(game_id, view["version"], view["legal_moves"][0])
        assert r.status_code == 201, r.content
    raise AssertionError("the game did not end")


def record_over_http(game_id: int) -> dict:
    r = APIClient().get(f"/api/v1/games/{game_id}/record")
    assert r.status_code == 200, r.content
    assert r["Content-Type"] == "application/json"
    return r.json()


@pytest.mark.parametrize("label", list(KINDS))
def test_the_record_stored_when_a_game_ends_by_play_is_the_built_one(label, alice):
    kind, options, seats = KINDS[label]
    opponents = [{"type": "ai", "level": 1}] * (seats - 1)
    gid = alice.create(kind=kind, options=options, seats=seats, opponents=opponents)["id"]
    play_to_the_end(alice, gid)
    stored = GameRecord.objects.get(game_id=gid)  # written by the finishing move's transaction, before any read
    assert "seats" not in json.loads(stored.body)  # the seats show today's names: added at each read
    assert record_over_http(gid) == built(gid)
    assert GameRecord.objects.get(game_id=gid).body == stored.body  # the read stored nothing new


@pytest.mark.parametrize("how", ["resigned", "timeout"])
def test_a_game_ended_by_resignation_or_time_stores_its_record(how, alice, bob):
    gid = alice.create(kind="claim", opponents=[{"type": "user", "username": "bob"}], days_per_move=1)["id"]
    assert bob.post(f"/api/v1/games/{gid}/join").status_code == 201
    if how == "resigned":
        assert alice.post(f"/api/v1/games/{gid}/resign").status_code == 200
    else:
        for user in (alice.user, bob.user):  # no automatic vacation day: the deadline ends the game
            VacationAccount.objects.update_or_create(user=user, defaults={"auto_use": False})
        game = Game.objects.get(pk=gid)
        assert expire_deadline(gid, game.version, now=game.deadline + timedelta(seconds=1)) == "timeout"
    assert GameRecord.objects.filter(game_id=gid).exists()
    record = record_over_http(gid)
    assert record == built(gid) and record["ended_reason"] == how


def test_a_record_not_stored_yet_is_stored_on_its_first_read(alice, bob):
    """Games that ended before records were stored (and aborted games) get theirs on the first read."""
    finished = alice.create(kind="claim2", opponents=[{"type": "ai", "level": 1}])["id"]
    assert alice.post(f"/api/v1/games/{finished}/resign").status_code == 200
    GameRecord.objects.filter(game_id=finished).delete()  # as if it had ended before migration 0006
    aborted = alice.create(kind="claim", opponents=[{"type": "user", "username": "bob"}])["id"]
    assert bob.post(f"/api/v1/games/{aborted}/join").status_code == 201
    assert alice.post(f"/api/v1/games/{aborted}/abort").status_code == 200
    assert bob.post(f"/api/v1/games/{aborted}/abort").status_code == 200
    assert Game.objects.get(pk=aborted).status == "aborted" and not GameRecord.objects.filter(game_id=aborted)
    for gid, api in ((finished, APIClient()), (aborted, alice.client)):
        r = api.get(f"/api/v1/games/{gid}/record")
        assert r.status_code == 200, r.content
        assert r.json() == built(gid)
        assert GameRecord.objects.filter(game_id=gid).exists()
    lines = APIClient().get("/api/v1/users/alice/games/export").getvalue().decode().splitlines()
    assert [json.loads(line) for line in lines] == [built(finished)]


def test_the_seats_show_the_players_names_of_today(alice):
    """A display name changed after the game (or an account deleted) shows in the record and the export, and
    changes the ETags: a stored record never keeps an old name."""
    gid = alice.create(kind="claim", opponents=[{"type": "ai", "level": 1}])["id"]
    assert alice.post(f"/api/v1/games/{gid}/resign").status_code == 200
    anon = APIClient()
    before = anon.get(f"/api/v1/games/{gid}/record")
    export_before = anon.get("/api/v1/users/alice/games/export")
    alice.user.display_name = "Ada Lovelace"
    alice.user.save()
    after = anon.get(f"/api/v1/games/{gid}/record")
    assert after.json()["seats"][0]["name"] == "Ada Lovelace" and after.json() == built(gid)
    assert after["ETag"] != before["ETag"]
    export_after = anon.get("/api/v1/users/alice/games/export")
    assert json.loads(export_after.getvalue())["seats"][0]["name"] == "Ada Lovelace"
    assert export_after["ETag"] != export_before["ETag"]


def test_a_running_game_has_no_stored_record_and_no_public_one(alice, stranger):
    gid = alice.create(kind="claim", opponents=[{"type": "ai", "level": 1}])["id"]
    alice.move(gid, alice.view(gid)["version"], alice.view(gid)["legal_moves"][0])
    assert not GameRecord.objects.filter(game_id=gid).exists()
    assert not Seat.objects.filter(game_id=gid, finished_at__isnull=False).exists()
    r = alice.get(f"/api/v1/games/{gid}/record")
    assert r.status_code == 409 and r.json()["error"]["code"] == "not_finished" and "ETag" not in r
    assert stranger.get(f"/api/v1/games/{gid}/record").status_code == 404
    r = APIClient().get(f"/api/v1/games/{gid}/record", HTTP_IF_NONE_MATCH="*")
    assert r.status_code == 401 and "ETag" not in r
    assert APIClient().get("/api/v1/users/alice/games/export").getvalue() == b""
    assert not GameRecord.objects.filter(game_id=gid).exists()


def test_the_record_view_reads_the_stored_text_and_builds_nothing(alice, monkeypatch):
    gid = alice.create(kind="inheritors", opponents=[{"type": "ai", "level": 1}])["id"]
    assert alice.post(f"/api/v1/games/{gid}/resign").status_code == 200
    expected = built(gid)
    def refuse(*args, **kwargs):
        raise AssertionError("record_payload called for a stored record")

    monkeypatch.setattr(records, "record_payload", refuse)
    monkeypatch.setattr(payload, "record_payload", refuse)
    with CaptureQueriesContext(connection) as queries:
        assert record_over_http(gid) == expected
    assert not any("games_move" in q["sql"] for q in queries.captured_queries)  # no move log read
