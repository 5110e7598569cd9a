"""``GET /following``, ``/followers``, ``/blocks``, ``/mutes`` and ``/friends`` (issue 35; games/social): keyset
pages, bad cursors and limits, only one's own lists, presence, watchable games, query bounds."""

from __future__ import annotations

import pytest

from accounts import relations
from accounts.models import Relation
from games.realtime.presence import mark_online
from games.social import service

from .conftest import err, running

pytestmark = pytest.mark.django_db


def names(page: dict) -> list[str]:
    return [u["username"] for u in page["results"]]


def walk(api, path: str, limit: int) -> list[dict]:
    """Every page of ``path``, in order."""
    pages, cursor = [], None
    while True:
        params = {"limit": limit} | ({"cursor": cursor} if cursor else {})
        r = api.get(path, params)
        assert r.status_code == 200, r.content
        pages.append(r.json())
        cursor = r.json()["next"]
        if cursor is None:
            return pages
        assert isinstance(cursor, int)


def test_each_list_is_mine_newest_first(alice, bob, carol, member):
    dave = member("dave")
    alice.follow("bob")
    alice.follow("carol")
    bob.follow("alice")
    dave.follow("alice")
    alice.follow("dave", "mute")
    carol.follow("dave", "block")  # carol's: never in alice's lists
    bob.follow("carol", "mute")
    alice.follow("carol", "block")  # ends alice's follow of carol
    assert names(alice.get("/api/v1/following").json()) == ["bob"]
    assert names(alice.get("/api/v1/followers").json()) == ["dave", "bob"]
    assert names(alice.get("/api/v1/blocks").json()) == ["carol"]
    assert names(alice.get("/api/v1/mutes").json()) == ["dave"]
    assert alice.get("/api/v1/blocks").json() == {"results": [{"username": "carol", "name": "carol",
                                                               "is_bot": False}], "next": None}
    # carol is blocked by alice: her lists say nothing of it
    assert names(carol.get("/api/v1/blocks").json()) == ["dave"]
    assert names(carol.get("/api/v1/followers").json()) == []
    assert names(dave.get("/api/v1/blocks").json()) == [] and names(dave.get("/api/v1/mutes").json()) == []
    assert names(bob.get("/api/v1/mutes").json()) == ["carol"]


def test_keyset_pages_walk_the_whole_list_once(alice, member):
    others = [member(f"p{i:02d}") for i in range(23)]
    for o in others:
        alice.follow(o.user.username)
        o.follow("alice")
    for path in ("/api/v1/following", "/api/v1/followers"):
        pages = walk(alice, path, 5)
        assert [len(p["results"]) for p in pages] == [5, 5, 5, 5, 3]
        seen = [n for p in pages for n in names(p)]
        assert seen == [o.user.username for o in reversed(others)]
    assert len(alice.get("/api/v1/following").json()["results"]) == 23  # default limit 50
    exact = walk(alice, "/api/v1/following", 23)
    assert len(exact) == 1 and exact[0]["next"] is None


def test_inactive_accounts_are_left_out(alice, bob, carol):
    alice.follow("bob")
    alice.follow("carol")
    carol.user.is_active = False
    carol.user.save(update_fields=["is_active"])
    assert names(alice.get("/api/v1/following").json()) == ["bob"]


@pytest.mark.parametrize("path", ["/api/v1/following", "/api/v1/followers", "/api/v1/blocks", "/api/v1/mutes",
                                  "/api/v1/friends"])
@pytest.mark.parametrize(("param", "value"), [
    ("cursor", "abc"), ("cursor", "0"), ("cursor", "-1"), ("cursor", "1.5"), ("cursor", " 1"), ("cursor", "١٢"),
    ("cursor", "9" * 19), ("limit", "0"), ("limit", "101"), ("limit", "x"), ("limit", "-3"),
])
def test_a_bad_cursor_or_limit_is_400(alice, path, param, value):
    body = err(alice.get(path, {param: value}), 400, "invalid")
    assert param in body["fields"]


@pytest.mark.parametrize("path", ["/api/v1/following", "/api/v1/followers", "/api/v1/blocks", "/api/v1/mutes",
                                  "/api/v1/friends"])
def test_lists_need_a_login_and_the_social_scope(member, api_client, path):
    err(api_client.get(path), 401, "not_authenticated")
    err(member("reader", scopes=["games:read"]).get(path), 403, "insufficient_scope")
    err(member("robot", scopes=["bot:play"], is_bot=True).get(path), 403, "insufficient_scope")
    assert member("pwa", scopes=None).get(path).status_code == 200
    assert member("limit100").get(path, {"limit": "100", "cursor": "123"}).json() == {"results": [], "next": None}


def test_a_list_page_is_a_few_queries_whatever_its_length(alice, member, django_assert_max_num_queries):
    for i in range(30):
        other = member(f"q{i}")
        alice.follow(other.user.username)
        other.follow("alice")
        alice.follow(other.user.username, "mute")
    for path in ("/api/v1/following", "/api/v1/followers", "/api/v1/mutes"):
        with django_assert_max_num_queries(3):  # the token (+ its user), the page with its users
            r = alice.get(path, {"limit": 100})
        assert len(r.json()["results"]) == 30


# --- friends ----------------------------------------------------------------------------------------------------

def friend_names(page: dict) -> list[str]:
    return [f["user"]["username"] for f in page["results"]]


def test_friends_are_mutual_follows_online_first(alice, bob, carol, member):
    dave, erin = member("dave"), member("erin")
    for other in (bob, carol, dave, erin):
        alice.follow(other.user.username)
    for other in (bob, carol, dave):
        other.follow("alice")  # erin does not follow back
    member("fan").follow("alice")  # a follower alice does not follow: no friend
    mark_online(carol.user.pk)
    mark_online(erin.user.pk)
    page = alice.get("/api/v1/friends").json()
    assert friend_names(page) == ["carol", "dave", "bob"] and page["next"] is None
    carol_entry = page["results"][0]
    assert carol_entry == {"user": {"username": "carol", "name": "carol", "is_bot": False}, "online": True,
                           "watchable_games": []}
    assert [f["online"] for f in page["results"]] == [True, False, False]


def test_a_friend_who_hides_presence_is_never_online(alice, bob):
    alice.follow("bob")
    bob.follow("alice")
    mark_online(bob.user.pk)
    assert alice.get("/api/v1/friends").json()["results"][0]["online"] is True
    bob.user.hide_presence = True
    bob.user.save(update_fields=["hide_presence"])
    assert alice.get("/api/v1/friends").json()["results"][0]["online"] is False


def test_hide_presence_is_read_and_written_on_the_profile(member):
    pwa = member("pwa", scopes=None)
    assert pwa.get("/api/v1/accounts/me").json()["hide_presence"] is False
    r = pwa.client.patch("/api/v1/accounts/me", {"hide_presence": True}, format="json")
    assert r.status_code == 200 and r.json()["hide_presence"] is True
    pwa.user.refresh_from_db()
    assert pwa.user.hide_presence is True
    body = err(pwa.client.patch("/api/v1/accounts/me", {"hide_presence": "yes"}, format="json"), 400, "invalid")
    assert "hide_presence" in body["fields"]


def test_friends_watchable_games(alice, bob, carol, member):
    alice.follow("bob")
    bob.follow("alice")
    alice.follow("carol")
    carol.follow("alice")
    games = [running(bob.user) for _ in range(7)]
    running(bob.user, watchable=False)
    finished = running(bob.user)
    finished.status = "finished"
    finished.save(update_fields=["status"])
    mallory = member("mallory")
    shared = running(carol.user, opponent=mallory.user)
    page = alice.get("/api/v1/friends").json()
    by = {f["user"]["username"]: f for f in page["results"]}
    assert by["bob"]["watchable_games"] == [g.pk for g in reversed(games)][:5]
    assert by["carol"]["watchable_games"] == [shared.pk]
    # a block between alice and a player of carol's game, either way, takes it off her list
    relations.add(mallory.user.pk, "block", alice.user.pk)
    by = {f["user"]["username"]: f for f in alice.get("/api/v1/friends").json()["results"]}
    assert by["carol"]["watchable_games"] == [] and len(by["bob"]["watchable_games"]) == 5
    relations.remove(mallory.user.pk, "block", alice.user.pk)
    relations.add(alice.user.pk, "block", mallory.user.pk)
    by = {f["user"]["username"]: f for f in alice.get("/api/v1/friends").json()["results"]}
    assert by["carol"]["watchable_games"] == []


def test_friends_pages_walk_every_friend_once(alice, member, monkeypatch):
    monkeypatch.setattr(service, "FRIENDS_SCAN", 6)  # a small window: pages with fewer than limit, next not null
    friends = []
    for i in range(20):
        other = member(f"f{i:02d}")
        alice.follow(other.user.username)
        if i % 3 == 0:
            other.follow("alice")
            friends.append(other.user.username)
    pages = walk(alice, "/api/v1/friends", 2)
    seen = [n for p in pages for n in friend_names(p)]
    assert seen == list(reversed(friends))
    assert all(len(p["results"]) <= 2 for p in pages)
    assert pages[-1]["next"] is None


def test_the_friends_page_is_bounded(alice, member, django_assert_max_num_queries):
    for i in range(25):
        other = member(f"g{i}")
        alice.follow(other.user.username)
        other.follow("alice")
        running(other.user)
        running(other.user)
        mark_online(other.user.pk)
    with django_assert_max_num_queries(4):  # the token (+ its user), the window of follows, the watchable games
        page = alice.get("/api/v1/friends", {"limit": 100}).json()
    assert len(page["results"]) == 25 and all(len(f["watchable_games"]) == 2 for f in page["results"])
    assert all(f["online"] for f in page["results"])


def test_friends_leave_out_inactive_accounts(alice, bob, carol):
    for other in (bob, carol):
        alice.follow(other.user.username)
        other.follow("alice")
    bob.user.is_active = False
    bob.user.save(update_fields=["is_active"])
    assert friend_names(alice.get("/api/v1/friends").json()) == ["carol"]
    assert Relation.objects.filter(user=alice.user, other=bob.user).exists()  # kept: the account may come back
