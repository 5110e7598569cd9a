"""``GET /games/{id}/watch`` (issue 35): who may watch (games.spectate.access.may_watch), the one 404 for every
game one may not watch, anonymous callers, scopes, the ``ETag``."""

from __future__ import annotations

import pytest

from accounts import relations
from accounts.models import ApiToken
from games.models import Game
from games.spectate import counts

from .conftest import SEAT_FIELDS, WATCH_FIELDS, watch

pytestmark = pytest.mark.django_db

NOT_FOUND = {"error": {"code": "not_found", "message": "No such game (or it is not visible to you)."}}


def test_anonymous_callers_watch_a_running_watchable_game(table, anon):
    game, _, _ = table()
    r = watch(anon, game.pk)
    assert r.status_code == 200, r.content
    assert r["Content-Type"] == "application/json" and r["ETag"].startswith('"')
    body = r.json()
    assert set(body) == WATCH_FIELDS
    assert body["id"] == game.pk and body["kind"] == "claim" and body["title"] == "Claim"
    assert body["status"] == "active" and body["watchable"] is True and body["spectators"] == 0
    assert body["version"] == game.version and body["view"]["seat"] is None and body["result"] is None
    assert [set(s) for s in body["seats"]] == [SEAT_FIELDS, SEAT_FIELDS]
    assert [s["user"]["username"] for s in body["seats"]] == ["alice", "bob"]
    assert body["to_act"] == [s["index"] for s in body["seats"] if s["to_act"]]
    assert body["links"] == {"self": f"/api/v1/games/{game.pk}/watch", "game": f"/api/v1/games/{game.pk}",
                             "chat": f"/api/v1/games/{game.pk}/chat", "record": f"/api/v1/games/{game.pk}/record"}


def test_players_and_other_users_watch_it_too(table, player):
    game, alice, bob = table()
    for who in (alice, bob, player("carol")):
        r = watch(who, game.pk)
        assert r.status_code == 200, r.content
        assert r.json()["view"]["seat"] is None  # the spectator view, even for a player


def _refused(r) -> None:
    assert r.status_code == 404, r.content
    assert r.json() == NOT_FOUND


def test_one_answer_for_every_game_one_may_not_watch(table, player, anon):
    hidden, alice, _ = table(watchable=False)
    carol = player("carol")
    waiting = carol.create(kind="claim", opponents=[{"type": "open"}], watchable=True)  # not started
    assert Game.objects.get(pk=waiting["id"]).watchable is True
    for client in (anon, carol, alice):
        _refused(watch(client, hidden.pk))  # not watchable: not even its own players read it here
        _refused(watch(client, waiting["id"]))  # not started: its creator neither
        _refused(watch(client, 987654321))  # no such game


def test_a_block_either_way_hides_the_game(table, player, anon):
    game, alice, bob = table()
    carol, dan = player("carol"), player("dan")
    relations.add(alice.user.pk, relations.BLOCK, carol.user.pk)  # a player blocks the watcher
    relations.add(dan.user.pk, relations.BLOCK, bob.user.pk)  # the watcher blocks a player
    _refused(watch(carol, game.pk))
    _refused(watch(dan, game.pk))
    assert watch(anon, game.pk).status_code == 200
    assert watch(player("erin"), game.pk).status_code == 200
    relations.remove(alice.user.pk, relations.BLOCK, carol.user.pk)
    assert watch(carol, game.pk).status_code == 200


def test_a_finished_watchable_game_shows_its_result(table, anon):
    game, alice, _ = table()
    assert alice.post(f"/api/v1/games/{game.pk}/resign").status_code == 200
    body = watch(anon, game.pk).json()
    assert body["status"] == "finished" and body["ended_reason"] == "resigned" and body["to_act"] == []
    assert body["result"]["winner"] == 1
    assert [s["outcome"] for s in body["seats"]] == ["loss", "win"]


def test_a_token_needs_games_read(table, anon):
    game, alice, _ = table()
    _, plain = ApiToken.issue(alice.user, "none", [])
    r = anon.get(f"/api/v1/games/{game.pk}/watch", HTTP_AUTHORIZATION=f"Bearer {plain}")
    assert r.status_code == 403 and r.json()["error"]["code"] == "insufficient_scope"
    r = anon.get(f"/api/v1/games/{game.pk}/watch", HTTP_AUTHORIZATION="Bearer clm_not-a-token")
    assert r.status_code == 401


def test_etag_and_if_none_match(table, anon):
    game, alice, bob = table()
    first = watch(anon, game.pk)
    tag = first["ETag"]
    again = watch(anon, game.pk, HTTP_IF_NONE_MATCH=tag)
    assert again.status_code == 304 and again.content == b"" and again["ETag"] == tag
    assert watch(anon, game.pk, HTTP_IF_NONE_MATCH='"something-else"').status_code == 200
    counts.watch_started(game.pk, "a-socket")  # one more spectator: a new answer
    counted = watch(anon, game.pk, HTTP_IF_NONE_MATCH=tag)
    assert counted.status_code == 200 and counted.json()["spectators"] == 1 and counted["ETag"] != tag
    mover = next(p for p in (alice, bob) if p.view(game.pk)["my_turn"])
    view = mover.view(game.pk)
    assert mover.move(game.pk, view["version"], view["legal_moves"][0]).status_code == 201
    moved = watch(anon, game.pk, HTTP_IF_NONE_MATCH=counted["ETag"])
    assert moved.status_code == 200 and moved.json()["version"] == view["version"] + 1


def test_a_bounded_number_of_queries(table, anon, django_assert_max_num_queries):
    game, _, _ = table()
    with django_assert_max_num_queries(4):  # the game, seats, users and clock in one; the last history entry...
        assert watch(anon, game.pk).status_code == 200
