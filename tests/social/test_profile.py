"""``GET /users/{username}`` (issue 35; games/social): the public profile, as anonymous callers, other players and
the player see it, across a block, its bounds; and the reliability it shows (games/clock/reliability.py)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from accounts import relations
from games.clock import reliability as rel
from games.models import Game, Seat, SeatDeparture
from games.ratings.models import Rating, RatingHistory
from games.realtime.presence import mark_online
from games.service import resign

from .conftest import err, running

pytestmark = pytest.mark.django_db

FIELDS = {"user", "joined", "ratings", "recent_games", "reliability", "online", "watchable_games", "relationship"}


def finished(user, n: int) -> list[Game]:
    """``n`` games of ``user`` against the AI, each resigned (finished, lost)."""
    out = []
    for _ in range(n):
        game = running(user, watchable=False)
        resign(user, game.pk)
        out.append(game)
    return out


def test_anonymous_callers_see_the_public_profile(api_client, bob):
    bob.user.display_name = "Bobby"
    bob.user.save(update_fields=["display_name"])
    games = finished(bob.user, 12)
    watchable = running(bob.user)
    rating = Rating.objects.create(user=bob.user, pool="claim", system="glicko2", rating=1612.4, deviation=80.2,
                                   games=60, last_game_at=timezone.now())
    now = timezone.now()
    RatingHistory.objects.bulk_create([RatingHistory(rating=rating, before=1500 + i, after=1501 + i, deviation=80,
                                                     created_at=now - timedelta(hours=60 - i)) for i in range(60)])
    r = api_client.get("/api/v1/users/BOB")
    assert r.status_code == 200, r.content
    body = r.json()
    assert set(body) == FIELDS
    assert body["user"] == {"username": "bob", "name": "Bobby", "is_bot": False}
    assert body["joined"].endswith("Z")
    assert body["online"] is None and body["relationship"] is None
    assert body["watchable_games"] == [watchable.pk]
    assert [g["id"] for g in body["recent_games"]] == [g.pk for g in reversed(games)][:10]
    assert {"player_seat", "outcome", "ended_reason", "finished_at"} <= set(body["recent_games"][0])
    assert body["recent_games"][0]["outcome"] == "loss"
    [pool] = body["ratings"]
    assert set(pool) == {"pool", "rating", "deviation", "games", "history"}
    assert (pool["pool"], pool["rating"], pool["games"]) == ("claim", 1612, 60)
    assert len(pool["history"]) == 50 and pool["history"][0]["rating"] == 1560  # the latest, newest first
    assert pool["history"][-1]["rating"] == 1511
    assert body["reliability"] == rel.reliability(bob.user) == 100  # resigning is no miss


def test_a_player_sees_presence_and_the_relationship(alice, bob):
    alice.follow("bob")
    body = alice.get("/api/v1/users/bob").json()
    assert body["online"] is False
    assert body["relationship"] == {"username": "bob", "following": True, "followed_by": False, "friends": False,
                                    "blocking": False, "muting": False}
    mark_online(bob.user.pk)
    assert alice.get("/api/v1/users/bob").json()["online"] is True
    bob.user.hide_presence = True
    bob.user.save(update_fields=["hide_presence"])
    assert alice.get("/api/v1/users/bob").json()["online"] is None
    mine = bob.get("/api/v1/users/bob").json()  # one's own profile: no relationship, one's own presence
    assert mine["relationship"] is None and mine["online"] is True


@pytest.mark.parametrize("blocker", ["alice", "bob"])
def test_across_a_block_the_profile_is_public_only(alice, bob, blocker):
    game = running(bob.user)
    finished(bob.user, 1)
    mark_online(bob.user.pk)
    a, b = (alice, bob) if blocker == "alice" else (bob, alice)
    relations.add(a.user.pk, "block", b.user.pk)
    body = alice.get("/api/v1/users/bob").json()
    assert body["watchable_games"] == [] and body["online"] is None
    assert len(body["recent_games"]) == 1 and body["user"]["username"] == "bob"
    assert body["relationship"]["blocking"] is (blocker == "alice")
    assert "blocked_by" not in body["relationship"]
    # a third player still sees the game
    relations.remove(a.user.pk, "block", b.user.pk)
    assert alice.get("/api/v1/users/bob").json()["watchable_games"] == [game.pk]


def test_watchable_games_leave_out_those_with_a_player_who_has_a_block_with_me(alice, bob, member):
    mallory = member("mallory")
    shared = running(bob.user, opponent=mallory.user)
    alone = running(bob.user)
    assert alice.get("/api/v1/users/bob").json()["watchable_games"] == [alone.pk, shared.pk]
    relations.add(mallory.user.pk, "block", alice.user.pk)
    assert alice.get("/api/v1/users/bob").json()["watchable_games"] == [alone.pk]
    assert member("zed").get("/api/v1/users/bob").json()["watchable_games"] == [alone.pk, shared.pk]


def test_unknown_and_inactive_players_are_404(api_client, alice, member):
    member("gone", is_active=False)
    for name in ("nobody", "gone", "x" * 200, "al ice"):
        body = err(api_client.get(f"/api/v1/users/{name}"), 404, "not_found")
        assert "No player is called" in body["message"]
    err(alice.get("/api/v1/users/nobody"), 404, "not_found")


def test_unicode_names(api_client, member):
    member("Zoë")
    assert api_client.get("/api/v1/users/zoË").json()["user"]["username"] == "Zoë"
    err(api_client.get("/api/v1/users/zoe"), 404, "not_found")


def test_tokens_need_games_read(member, bob):
    err(member("nosocial", scopes=["social"]).get("/api/v1/users/bob"), 403, "insufficient_scope")
    assert member("reader", scopes=["games:read"]).get("/api/v1/users/bob").status_code == 200
    assert member("robot", scopes=["bot:play"], is_bot=True).get("/api/v1/users/bob").status_code == 200


def test_the_profile_is_a_bounded_number_of_queries(alice, bob, django_assert_max_num_queries):
    finished(bob.user, 15)
    for _ in range(8):
        running(bob.user)
    for pool in ("claim", "claim2", "inheritors-3p"):
        rating = Rating.objects.create(user=bob.user, pool=pool, system="glicko2", rating=1500, deviation=80)
        RatingHistory.objects.bulk_create([RatingHistory(rating=rating, before=1500, after=1500 + i, deviation=80)
                                           for i in range(70)])
    # the token (+ user) and its last use, the player, the stances, the finished page, the ratings and one range per
    # pool, the page's games, seats and their users, the reliability (2), the watchable games
    with django_assert_max_num_queries(15):
        body = alice.get("/api/v1/users/bob").json()
    assert len(body["recent_games"]) == 10 and len(body["watchable_games"]) == 5
    assert [len(p["history"]) for p in body["ratings"]] == [50, 50, 50]


# --- reliability ------------------------------------------------------------------------------------------------

def unbounded_reliability(user) -> int:
    """The reliability as it was computed before issue 35 (every finished game of the user read), for comparison."""
    left = set(SeatDeparture.objects.filter(user=user).values_list("game_id", flat=True))
    timeouts = set(Seat.objects.filter(user=user, game__ended_reason="timeout", outcome=Seat.Outcome.LOSS,
                                       game__status=Game.Status.FINISHED).values_list("game_id", flat=True))
    missed = left | timeouts
    played = set(Game.objects.filter(seats__user=user, status=Game.Status.FINISHED).values_list("pk", flat=True))
    played |= left
    recent = list(Game.objects.filter(pk__in=played).order_by("-finished_at", "-pk").values_list("pk", flat=True)
                  [:rel.WINDOW])
    if not recent:
        return 100
    forgive = len(recent) // rel.FORGIVE_EVERY
    total = good = 0.0
    for k, gid in enumerate(recent):
        w = rel.DECAY**k
        total += w
        if gid in missed and forgive > 0:
            forgive -= 1
            good += w
        elif gid not in missed:
            good += w
    return round(100 * good / total)


def test_the_bounded_reliability_is_the_figure_it_was(bob, monkeypatch):
    monkeypatch.setattr(rel, "WINDOW", 8)
    assert rel.reliability(bob.user) == unbounded_reliability(bob.user) == 100
    games = finished(bob.user, 12)
    now = timezone.now()
    for i, game in enumerate(games):  # distinct ends, some of them lost on time
        Game.objects.filter(pk=game.pk).update(finished_at=now - timedelta(hours=i),
                                               ended_reason="timeout" if i % 3 == 0 else "resigned")
        Seat.objects.filter(game=game).update(finished_at=now - timedelta(hours=i))
    assert rel.reliability(bob.user) == unbounded_reliability(bob.user) < 100
    left = running(bob.user)  # a game left on time, still running: the newest
    SeatDeparture.objects.create(game=left, seat=0, user=bob.user)
    Seat.objects.filter(game=left, index=0).update(user=None, ai_level=1)
    assert rel.reliability(bob.user) == unbounded_reliability(bob.user)
    old = finished(bob.user, 1)[0]  # and one left long ago
    Game.objects.filter(pk=old.pk).update(finished_at=now - timedelta(days=30))
    Seat.objects.filter(game=old).update(finished_at=now - timedelta(days=30))
    SeatDeparture.objects.create(game=old, seat=1, user=bob.user)
    assert rel.reliability(bob.user) == unbounded_reliability(bob.user)
