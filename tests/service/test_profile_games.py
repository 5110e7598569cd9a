"""A player's finished games on their profile (issue 33): public, newest first, keyset pages on
``seat_user_finished``, the same statements for page 1 and page 50."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from games.models import Game, Seat

pytestmark = pytest.mark.django_db


def _finished(api, n: int) -> list[int]:
    """``n`` games of ``api``'s player against the AI, resigned at once: finished, newest last."""
    ids = []
    for _ in range(n):
        g = api.create(kind="claim", opponents=[{"type": "ai", "level": 1}])
        r = api.post(f"/api/v1/games/{g['id']}/resign", {"version": api.view(g["id"])["version"]})
        assert r.status_code == 200, r.content
        ids.append(g["id"])
    return ids


def _walk(client, username: str, limit: int) -> tuple[list[int], int]:
    seen, cursor, pages = [], None, 0
    while True:
        params = {"limit": limit, **({"cursor": cursor} if cursor else {})}
        r = client.get(f"/api/v1/users/{username}/games", params)
        assert r.status_code == 200, r.content
        seen += [g["id"] for g in r.json()["results"]]
        pages += 1
        cursor = r.json()["next"]
        if cursor is None:
            return seen, pages


def test_finished_games_newest_first_in_pages_public(alice, bob):
    done = _finished(alice, 5)
    alice.create(kind="claim", opponents=[{"type": "ai", "level": 1}])  # active: not listed
    seen, pages = _walk(APIClient(), "alice", 2)  # anonymous
    assert seen == done[::-1] and pages == 3
    seen, _ = _walk(bob.client, "ALICE", 50)  # another player; the name in any case
    assert seen == done[::-1]
    row = bob.get("/api/v1/users/alice/games").json()["results"][0]
    assert row["status"] == "finished" and row["player_seat"] == 0 and row["outcome"] == "loss"
    assert row["ended_reason"] == "resigned" and row["finished_at"] and row["my_seat"] is None
    assert row["links"]["replay"] == f"/api/v1/games/{row['id']}/replay"
    assert next(s["name"] for s in row["seats"]) == "alice"


def test_ties_on_the_end_instant_are_neither_lost_nor_repeated(alice):
    done = _finished(alice, 4)
    Game.objects.filter(pk__in=done).update(finished_at=Game.objects.get(pk=done[0]).finished_at)

    Seat.objects.filter(game_id__in=done).update(finished_at=Game.objects.get(pk=done[0]).finished_at)
    seen, _ = _walk(alice.client, "alice", 1)
    assert seen == sorted(done, reverse=True)


def test_every_page_costs_the_same(alice):
    _finished(alice, 6)

    def cost(cursor: str | None) -> tuple[int, str | None]:
        with CaptureQueriesContext(connection) as ctx:
            r = APIClient().get("/api/v1/users/alice/games", {"limit": 2, **({"cursor": cursor} if cursor else {})})
        assert r.status_code == 200
        return len(ctx.captured_queries), r.json()["next"]

    first, cursor = cost(None)
    second, cursor = cost(cursor)
    third, _ = cost(cursor)
    assert first + 1 == second == third <= 6  # after a cursor: its row by the unique index (game, user)


def test_unknown_player_and_bad_input(alice):
    client = APIClient()
    r = client.get("/api/v1/users/nobody/games")
    assert r.status_code == 404 and r.json()["error"]["code"] == "not_found"
    for params, field in (({"cursor": "garbage!"}, "cursor"), ({"limit": "51"}, "limit"),
                          ({"limit": "-1"}, "limit"), ({"cursor": "0"}, "cursor")):
        r = client.get("/api/v1/users/alice/games", params)
        assert r.status_code == 400 and field in r.json()["error"]["fields"], r.content
    active = alice.create(kind="claim", opponents=[{"type": "ai", "level": 1}])["id"]
    for cursor in (active, 999999):  # not a finished game of hers
        r = client.get("/api/v1/users/alice/games", {"cursor": cursor})
        assert r.status_code == 404 and "not a finished game" in r.json()["error"]["message"], r.content
