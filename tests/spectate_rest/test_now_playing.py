"""``GET /watch`` (issue 35): running watchable games, newest first, keyset pages, the kind filter, blocks, bad
input, a bounded number of queries and the partial indexes."""

from __future__ import annotations

import pytest
from django.db import connection

from accounts import relations
from games.models import Game
from games.spectate import counts
from games.spectate.api import MOST

pytestmark = pytest.mark.django_db


def page(client, **params):
    """A page of ``GET /watch`` for ``client`` (an :class:`APIClient` or an ``Api``)."""
    r = client.get("/api/v1/watch", params)
    assert r.status_code == 200, r.content
    body = r.json()
    assert set(body) == {"results", "next"}
    return body


def ids(body) -> list[int]:
    return [g["id"] for g in body["results"]]


@pytest.fixture
def games(against_ai, table):
    """Three running watchable Claim games against the AI, two of Claim 2 between humans, and games that are
    not listed: one not watchable, one open (not started), one finished. Returns the listed games' ids,
    newest first, by kind."""
    listed: dict[str, list[int]] = {"claim": [], "claim2": []}
    for n in range(3):
        listed["claim"].append(against_ai(f"solo{n}")[0].pk)
    against_ai("hidden", watchable=False)
    for n in range(2):
        game, _, _ = table("claim2", names=(f"p{n}", f"q{n}"))
        listed["claim2"].append(game.pk)
    finished, a, _ = table("claim", names=("fin-a", "fin-b"))
    assert a.post(f"/api/v1/games/{finished.pk}/resign").status_code == 200
    a.create(kind="claim", opponents=[{"type": "open"}])  # watchable, but open
    return {kind: sorted(found, reverse=True) for kind, found in listed.items()}


def test_running_watchable_games_newest_first(games, anon):
    body = page(anon)
    assert ids(body) == sorted(games["claim"] + games["claim2"], reverse=True) and body["next"] is None
    entry = body["results"][0]
    assert set(entry) == {"id", "kind", "rated", "seats", "version", "moved_at", "spectators"}
    assert entry["kind"] == "claim2" and [s["username"] for s in entry["seats"]] == ["p1", "q1"]
    claim = next(g for g in body["results"] if g["kind"] == "claim")
    assert claim["seats"][1] is None  # the AI's seat


def test_keyset_pages(games, anon):
    every = sorted(games["claim"] + games["claim2"], reverse=True)
    seen, cursor, pages = [], None, 0
    while True:
        params = {"limit": 2} | ({"cursor": cursor} if cursor else {})
        body = page(anon, **params)
        seen += ids(body)
        pages += 1
        cursor = body["next"]
        if cursor is None:
            break
        assert isinstance(cursor, int) and len(body["results"]) == 2
    assert seen == every and pages == 3
    assert ids(page(anon, limit=2, cursor=str(every[1]))) == every[2:4]
    assert ids(page(anon, cursor=str(every[-1]))) == []  # past the last one


def test_kind_filter(games, anon):
    assert ids(page(anon, kind="claim")) == games["claim"]
    assert ids(page(anon, kind="claim2", limit=1)) == games["claim2"][:1]
    assert page(anon, kind="claim2", limit=1)["next"] == games["claim2"][0]
    assert ids(page(anon, kind="inheritors")) == []


def test_a_game_stops_being_listed_when_it_ends_or_is_no_longer_watchable(games, anon):
    newest = games["claim2"][0]
    Game.objects.filter(pk=newest).update(watchable=False)
    Game.objects.filter(pk=games["claim"][0]).update(status="finished")
    assert newest not in ids(page(anon)) and games["claim"][0] not in ids(page(anon))


def test_spectator_counts(games, anon):
    counts.watch_started(games["claim"][0], "socket-1")
    counts.watch_started(games["claim"][0], "stream-2")
    by_id = {g["id"]: g["spectators"] for g in page(anon)["results"]}
    assert by_id[games["claim"][0]] == 2 and by_id[games["claim"][1]] == 0


def test_games_with_a_blocked_player_are_left_out(table, player, anon):
    game, alice, bob = table()
    other, _, _ = table("claim2", names=("carl", "dora"))
    mallory, eve = player("mallory"), player("eve")
    relations.add(alice.user.pk, relations.BLOCK, mallory.user.pk)  # a player blocks the caller
    relations.add(eve.user.pk, relations.BLOCK, bob.user.pk)  # the caller blocks a player
    assert ids(page(mallory)) == [other.pk]
    assert ids(page(eve)) == [other.pk]
    assert ids(page(anon)) == [other.pk, game.pk]
    assert ids(page(player("frank"))) == [other.pk, game.pk]
    assert ids(page(alice)) == [other.pk, game.pk]  # a player sees their own game


def test_a_page_with_blocked_games_still_has_the_next_cursor(table, player):
    _, alice, _ = table(names=("a1", "b1"))
    second, _, _ = table(names=("a2", "b2"))
    third, _, _ = table(names=("a3", "b3"))
    mallory = player("mallory")
    relations.add(mallory.user.pk, relations.BLOCK, alice.user.pk)
    relations.add(mallory.user.pk, relations.BLOCK, second.seats.get(index=0).user_id)
    body = page(mallory, limit=2)
    assert ids(body) == [third.pk] and body["next"] == second.pk
    body = page(mallory, limit=2, cursor=body["next"])
    assert ids(body) == [] and body["next"] is None


@pytest.mark.parametrize(("params", "field"), [
    ({"kind": "chess"}, "kind"), ({"kind": "Claim"}, "kind"),
    ({"limit": "0"}, "limit"), ({"limit": str(MOST + 1)}, "limit"), ({"limit": "ten"}, "limit"),
    ({"limit": "-1"}, "limit"), ({"cursor": "abc"}, "cursor"), ({"cursor": "0"}, "cursor"),
    ({"cursor": "1.5"}, "cursor"), ({"cursor": str(2**63)}, "cursor"),
    ({"cursor": " 1"}, "cursor"), ({"cursor": "١٢"}, "cursor"), ({"limit": "1_0"}, "limit"),
])
def test_bad_input_is_400_with_a_message(anon, params, field):
    r = anon.get("/api/v1/watch", params)
    assert r.status_code == 400, r.content
    error = r.json()["error"]
    assert error["code"] == "invalid" and error["message"].startswith(f"{field}: ")
    assert list(error["fields"]) == [field]


def test_limits(table, anon):
    for n in range(3):
        table(names=(f"x{n}", f"y{n}"))
    assert len(page(anon)["results"]) == 3
    assert len(page(anon, limit=MOST)["results"]) == 3
    assert len(page(anon, limit=1)["results"]) == 1


def test_the_number_of_queries_does_not_grow_with_the_page(table, player, django_assert_max_num_queries):
    """A page's games, their seats with their users (one query: no N+1), the blocks (one query) and the
    spectator counts (one cache round trip, no database query); the rest is the token's authentication."""
    caller = player("watcher")
    for n in range(2):
        table("inheritors", names=(f"i{n}", f"j{n}"))
    with django_assert_max_num_queries(6) as small:
        assert len(page(caller)["results"]) == 2
    for n in range(2, 8):
        table("inheritors", names=(f"i{n}", f"j{n}"))
    with django_assert_max_num_queries(6) as large:
        assert len(page(caller)["results"]) == 8
    assert len(large.captured_queries) == len(small.captured_queries)
    games_and_seats = [q["sql"] for q in large.captured_queries if '"games_seat"' in q["sql"]
                       or 'FROM "games_game"' in q["sql"]]
    assert len(games_and_seats) == 2, games_and_seats


def test_anonymous_pages_read_no_relations(table, anon, django_assert_max_num_queries):
    table()
    with django_assert_max_num_queries(2):  # the games, their seats with their users
        page(anon)


@pytest.mark.parametrize(("kind", "index"), [(None, "game_now_playing"), ("claim", "game_now_playing_kind")])
def test_pages_read_the_partial_indexes(table, kind, index):
    if connection.vendor != "postgresql":
        pytest.skip("PostgreSQL's plans")
    table()
    qs = Game.objects.filter(status=Game.Status.ACTIVE, watchable=True, id__lt=10**9)
    if kind is not None:
        qs = qs.filter(kind=kind)
    sql, params = qs.order_by("-id").values("id").query.sql_with_params()
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_seqscan = off")
        cursor.execute(f"EXPLAIN {sql} LIMIT 21", params)
        plan = "\n".join(row[0] for row in cursor.fetchall())
    assert index in plan, plan
