"""Rating finished games exactly once, AI levels, leaderboards, the API."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games import service
from games.models import Game
from games.ratings import glicko2, openskill_rating
from games.ratings.models import RatedGame, Rating, RatingHistory
from games.ratings.service import leaderboard, pool_for, rate_game, rating_for
from games.service import game_view_payload, make_move


def test_pools():
    assert pool_for("claim", 2) == "claim"
    assert pool_for("inheritors", 2) == "inheritors"
    assert pool_for("inheritors", 4) == "inheritors-4p"


@pytest.mark.django_db
def test_a_rated_game_is_rated_once_with_glicko2(make_user, play, clock):
    alice, bob = make_user("alice"), make_user("bob")
    game = play.game(alice, bob)
    play.resign(alice, game)  # on commit: game_changed -> rating task (eager)
    a, b = Rating.objects.get(user=alice, pool="claim"), Rating.objects.get(user=bob, pool="claim")
    start = glicko2.Glicko()
    expect_b = glicko2.rate(start, [(start, 1.0)])
    expect_a = glicko2.rate(start, [(start, 0.0)])
    assert b.rating == pytest.approx(expect_b.rating) and b.rating > 1500
    assert a.rating == pytest.approx(expect_a.rating)
    assert a.deviation == pytest.approx(expect_a.rd)
    assert (b.games, b.wins, a.losses) == (1, 1, 1)
    assert RatingHistory.objects.filter(game=game).count() == 2
    assert rate_game(game.pk) is False  # a second run is a no-op
    assert RatedGame.objects.filter(game=game).count() == 1
    assert Rating.objects.get(pk=b.pk).games == 1


@pytest.mark.django_db
def test_unrated_and_unlimited_games_move_no_human_rating(make_user, play):
    alice, bob = make_user("alice"), make_user("bob")
    play.resign(alice, play.game(alice, bob, rated=False))
    with pytest.raises(service.InvalidRequest, match="never rated"):  # refused when created
        service.create_game(alice, "claim", opponents=[{"type": "user", "username": "bob"}], rated=True)
    legacy = play.game(alice, bob, days=None, rated=False)
    Game.objects.filter(pk=legacy.pk).update(rated=True)  # a row from before the rule: still not rated
    play.resign(alice, legacy)
    assert not Rating.objects.filter(user__isnull=False).exists()


@pytest.mark.django_db
def test_ai_levels_are_rated_from_games_against_people(make_user, commit):
    alice = make_user("alice")
    assert rating_for(1, "claim", 2)["rating"] == 1000
    assert rating_for(3, "claim", 2)["rating"] == 1800
    with commit():
        game = service.create_game(alice, "claim", opponents=[{"type": "ai", "level": 3}], days_per_move=3)
    with commit():
        service.resign(alice, game.pk)
    king = Rating.objects.get(ai_level=3, pool="claim")
    assert king.rating > 1800 and king.games == 1
    assert not Rating.objects.filter(user=alice).exists(), "AI games never move a person's rating"


@pytest.mark.django_db
def test_inheritors_three_players_use_openskill(make_user, play):
    a, b, c = make_user("a"), make_user("b"), make_user("c")
    game = play.game(a, b, c, kind="inheritors")
    play.resign(a, game)
    rows = {r.user.username: r for r in Rating.objects.filter(pool="inheritors-3p").select_related("user")}
    assert set(rows) == {"a", "b", "c"}
    ranks = {s.user.username: s.rank for s in game.seats.select_related("user")}
    names = sorted(rows)
    fresh = (openskill_rating.DEFAULT_MU, openskill_rating.DEFAULT_SIGMA)
    expect = openskill_rating.rate([[fresh]] * 3, [ranks[n] for n in names])
    for n, team in zip(names, expect, strict=True):
        assert rows[n].mu == pytest.approx(team[0][0])
        assert rows[n].rating == pytest.approx(team[0][0] * 60)
    assert rows["a"].rating < rows["b"].rating


@pytest.mark.django_db
def test_deviation_grows_with_inactivity_and_provisional_flag(make_user, play, clock):
    alice, bob = make_user("alice"), make_user("bob")
    play.resign(alice, play.game(alice, bob))
    now_dev = rating_for(bob, "claim", 2)
    assert now_dev["provisional"] is True  # one game: RD still high
    row = Rating.objects.get(user=bob, pool="claim")
    Rating.objects.filter(pk=row.pk).update(deviation=60)
    assert rating_for(bob, "claim", 2)["provisional"] is False
    clock.shift(timedelta(days=7 * 30))
    later = rating_for(bob, "claim", 2)
    assert later["deviation"] == round(glicko2.inflate(glicko2.Glicko(row.rating, 60, row.volatility), 30).rd)
    assert later["deviation"] > 60


@pytest.mark.django_db
def test_leaderboard_lists_active_established_players_and_ai(make_user, clock):
    now = timezone.now()
    users = {n: make_user(n) for n in ("ann", "ben", "cid", "dot", "eve")}
    spec = {"ann": (1800, 60, 1), "ben": (1900, 200, 1), "cid": (1700, 50, 1), "dot": (2000, 50, 200),
            "eve": (1600, 70, 2)}
    for name, (r, rd, days_ago) in spec.items():
        Rating.objects.create(user=users[name], pool="claim", system="glicko2", rating=r, deviation=rd, games=20,
                              last_game_at=now - timedelta(days=days_ago))
    users["eve"].is_active = False
    users["eve"].save()
    board = leaderboard("claim")
    assert [p["username"] for p in board["players"]] == ["ann", "cid"]  # ben provisional, dot idle, eve gone
    assert [p["rank"] for p in board["players"]] == [1, 2]
    assert [a["level"] for a in board["ai"]] == [1, 2, 3]


@pytest.mark.django_db
def test_leaderboard_reads_pages_from_the_top_not_the_whole_pool(make_user):
    """issue 38: the leaderboard iterated the whole pool's queryset (every active player fetched to show 100).
    Now it reads pages of 2 x limit (SQL LIMIT), and keeps reading past provisional players at the top."""
    now = timezone.now()
    for n in range(7):  # the top: provisional (deviation 250), more than one page of limit 2
        Rating.objects.create(user=make_user(f"new{n}"), pool="claim", system="glicko2", rating=2500 - n,
                              deviation=250, games=2, last_game_at=now)
    for n in range(20):
        Rating.objects.create(user=make_user(f"old{n}"), pool="claim", system="glicko2", rating=2000 - n,
                              deviation=50, games=30, last_game_at=now)
    with CaptureQueriesContext(connection) as ctx:
        board = leaderboard("claim", limit=2)
    assert [p["username"] for p in board["players"]] == ["old0", "old1"]
    reads = [q["sql"] for q in ctx.captured_queries if 'FROM "ratings_rating" INNER JOIN' in q["sql"]]
    assert len(reads) == 3 and all("LIMIT 4" in sql for sql in reads), reads  # 7 provisional: 2 pages, then 2 found


@pytest.mark.django_db
def test_ratings_api(make_user, play, api_client):
    alice, bob = make_user("alice"), make_user("bob")
    play.resign(alice, play.game(alice, bob))
    api_client.force_authenticate(bob)
    me = api_client.get("/api/v1/ratings/me").json()
    assert me["username"] == "bob" and me["ratings"][0]["pool"] == "claim" and me["ratings"][0]["wins"] == 1
    assert me["history"][0]["before"] == 1500 and me["reliability"] == 100
    other = api_client.get("/api/v1/ratings/users/ALICE").json()
    assert other["ratings"][0]["losses"] == 1
    assert api_client.get("/api/v1/ratings/users/nobody").status_code == 404
    board = api_client.get("/api/v1/leaderboards/claim")
    assert board.status_code == 200 and board.json()["system"] == "glicko2"
    assert api_client.get("/api/v1/leaderboards/inheritors-4p").json()["system"] == "openskill"
    bad = api_client.get("/api/v1/leaderboards/claim-4p")
    assert bad.status_code == 404 and bad.json()["error"]["code"] == "not_found"


@pytest.mark.django_db
def test_M3_4_four_player_partnerships_are_rated_as_teams_with_openskill(make_user, play, commit):
    """issue 8: a rated 4-player Claim game played to its end rates the two partnerships as teams."""
    users = [make_user(n) for n in ("n", "e", "s", "w")]
    factions = ["knight", "goblin", "undead", "dwarf", "doppelganger", "dragon", "seer"]
    with commit():
        game = service.create_game(users[0], "claim-mix", seats=4, options={"factions": factions},
                                   opponents=[{"type": "user", "username": u.username} for u in users[1:]],
                                   days_per_move=3, rated=True)
    for u in users[1:]:
        with commit():
            service.join_game(u, game.pk)
    by_seat = {s.index: s.user for s in game.seats.select_related("user")}
    for _ in range(200):
        game.refresh_from_db()
        if game.status != "active":
            break
        seat = game.seats.get(to_act=True)
        view = game_view_payload(game, by_seat[seat.index])
        with commit():
            make_move(by_seat[seat.index], game.pk, view["version"], view["legal_moves"][0])
    game.refresh_from_db()
    assert game.status == "finished" and game.result["teams"] == [[0, 2], [1, 3]]
    rows = {r.user_id: r for r in Rating.objects.filter(pool="claim-mix-4p")}
    assert len(rows) == 4
    winners = set(game.result["winners"])
    fresh = openskill_rating.DEFAULT_MU
    for seat, user in by_seat.items():
        assert (rows[user.pk].mu > fresh) == (seat in winners)
    for a, b in ([0, 2], [1, 3]):  # partners start equal and are rated as one team
        assert rows[by_seat[a].pk].mu == pytest.approx(rows[by_seat[b].pk].mu)


@pytest.mark.django_db
def test_pools_api_lists_every_pool_with_its_rated_players(make_user, play, api_client):
    """GET /api/v1/ratings/pools: what a client needs for a leaderboard picker (issue 7)."""
    alice, bob, cid = make_user("alice"), make_user("bob"), make_user("cid")
    play.resign(alice, play.game(alice, bob))  # two rated players in "claim"
    Rating.objects.create(user=cid, pool="inheritors-3p", system="openskill", rating=1500, deviation=300)
    gone = make_user("gone", is_active=False)
    Rating.objects.create(user=gone, pool="inheritors-3p", system="openskill", rating=1500, deviation=300)
    Rating.objects.create(ai_level=1, pool="claim2", system="glicko2", rating=1000, deviation=150)  # AI: not a player
    api_client.force_authenticate(cid)
    response = api_client.get("/api/v1/ratings/pools")
    assert response.status_code == 200
    pools = {p["pool"]: p for p in response.json()}
    assert list(pools) == ["claim", "claim2", "claim-mix", "claim-mix-3p", "claim-mix-4p",
                           "inheritors", "inheritors-3p", "inheritors-4p"]
    assert pools["claim"] == {"pool": "claim", "kind": "claim", "seats": 2, "name": "Claim", "system": "glicko2",
                              "players": 2}
    assert pools["inheritors-3p"]["players"] == 1 and pools["inheritors-3p"]["seats"] == 3
    assert pools["inheritors-3p"]["system"] == "openskill" and pools["inheritors-3p"]["kind"] == "inheritors"
    assert pools["claim2"]["players"] == 0
    # every listed pool has a leaderboard, and the schema documents the endpoint
    for pool in pools:
        assert api_client.get(f"/api/v1/leaderboards/{pool}").status_code == 200
    schema = api_client.get("/api/v1/schema/", HTTP_ACCEPT="application/json").json()
    op = schema["paths"]["/api/v1/ratings/pools"]["get"]
    assert op["operationId"] == "ratings_pools_list"
    assert op["responses"]["200"]["content"]["application/json"]["schema"]["type"] == "array"


@pytest.mark.django_db
def test_one_ai_level_in_two_seats_is_not_rated_against_itself(make_user, commit, settings):
    """Two seats of the same AI level are one rating: the game is rated once, without an error, and that
    level's rating does not move (it played itself); found by the 3/4-seat hidden-card spy."""
    settings.TASK_MODE = "eager"
    alice = make_user("alice")
    with commit():
        game = service.create_game(alice, "inheritors", seats=3, days_per_move=3, rated=False,
                                   opponents=[{"type": "ai", "level": 1}, {"type": "ai", "level": 1}])
    with commit():
        service.resign(alice, game.pk)
    game.refresh_from_db()
    assert game.status == "finished"
    assert RatedGame.objects.filter(game=game).exists(), "the game is marked rated (no retry loop)"
    squire = Rating.objects.filter(ai_level=1, pool="inheritors-3p").first()
    assert squire is None or squire.games == 0
    assert not RatingHistory.objects.filter(game=game).exists()
