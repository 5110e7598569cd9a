"""The lobby (issue 33): others' open seeks I may join, keyset pages, and joining one by the pairing's rules."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games.models import Game
from games.ratings.models import Rating
from games.seeks import lobby, service
from games.seeks.models import Seek

pytestmark = pytest.mark.django_db
LOBBY = "/api/v1/seeks/lobby"


def _rate(user, r: float, pool: str = "claim") -> None:
    Rating.objects.create(user=user, pool=pool, system="glicko2", rating=r, deviation=60, games=30)


def _waiting(user, minutes_ago: int = 0, **kw) -> Seek:
    """An open seek stored without a pairing attempt, posted ``minutes_ago``."""
    fields = {"kind": "claim", "seats": 2, "days_per_move": 3, "rated": True, "rating_range": None,
              "created_at": timezone.now() - timedelta(minutes=minutes_ago)}
    fields.update(kw)
    return Seek.objects.create(user=user, **fields)


def _ids(body: dict) -> list[int]:
    return [s["id"] for s in body["results"]]


def test_lists_others_compatible_open_seeks_oldest_first(alice, bob, make_user):
    carol, dave, eve = make_user("carol"), make_user("dave"), make_user("eve")
    _rate(alice.user, 1500), _rate(carol, 1900), _rate(dave, 1520)
    narrow = _waiting(carol, 5, rating_range=100)  # 400 apart: alice is outside its window
    old = _waiting(bob.user, 9)
    near = _waiting(dave, 3, rating_range=100)
    _waiting(alice.user, 8)  # her own
    Seek.objects.create(user=eve, kind="claim", status=Seek.Status.MATCHED)
    picky = _waiting(eve, 1, min_reliability=101)  # nobody is that reliable
    r = alice.get(LOBBY)
    assert r.status_code == 200, r.content
    body = r.json()
    assert _ids(body) == [old.pk, near.pk] and body["next"] is None
    assert narrow.pk not in _ids(body) and picky.pk not in _ids(body)
    first = body["results"][0]
    assert first["username"] == "bob" and first["rating"] == 1500 and first["kind"] == "claim"
    assert {"seats", "time_control", "rated", "rating_range", "window", "name", "is_bot"} <= set(first)


def test_keyset_pages_walk_every_seek_once(alice, make_user):
    made = [_waiting(make_user(f"p{i}"), 30 - i) for i in range(7)]
    seen, cursor = [], None
    for _ in range(5):
        r = alice.get(LOBBY, {"limit": 3, **({"cursor": cursor} if cursor else {})})
        assert r.status_code == 200, r.content
        seen += _ids(r.json())
        cursor = r.json()["next"]
        if cursor is None:
            break
    assert seen == [s.pk for s in made]
    # a cursor whose seek was paired or cancelled since still marks its place
    Seek.objects.filter(pk=made[2].pk).update(status=Seek.Status.CANCELLED)
    r = alice.get(LOBBY, {"limit": 2, "cursor": made[2].pk})
    assert _ids(r.json()) == [made[3].pk, made[4].pk]


def test_a_page_costs_the_same_queries_whatever_the_history(alice, make_user):
    users = [make_user(f"h{i}") for i in range(6)]
    for u in users:
        _waiting(u, 3)

    def queries() -> int:
        with CaptureQueriesContext(connection) as ctx:
            assert alice.get(LOBBY).status_code == 200
        return len(ctx.captured_queries)

    queries()  # the token's first use of the day is written once
    before = queries()
    Seek.objects.bulk_create([Seek(user=users[i % 6], kind="claim", status=Seek.Status.CANCELLED)
                              for i in range(300)])
    for u in users:
        _waiting(u, 1)
    assert queries() == before


@pytest.mark.parametrize("cursor", ["nope", "1.5", "x" * 300, "0", "-3", str(2**63)])
def test_bad_cursor_limit_and_kind_are_clear_400s(alice, cursor):
    r = alice.get(LOBBY, {"cursor": cursor})
    assert r.status_code == 400 and "cursor" in r.json()["error"]["fields"], r.content
    r = alice.get(LOBBY, {"cursor": "999999"})
    assert r.status_code == 404 and "cursor" in r.json()["error"]["message"], r.content
    for params, field in (({"limit": "0"}, "limit"), ({"limit": "x"}, "limit"), ({"kind": "chess"}, "kind")):
        r = alice.get(LOBBY, params)
        assert r.status_code == 400 and field in r.json()["error"]["fields"], r.content


def test_bots_see_only_seeks_that_welcome_them_and_humans_see_bots(alice, make_api):
    botty = make_api("botty", scopes=["bot:play"], is_bot=True)
    plain = _waiting(alice.user, 5)
    welcoming = _waiting(alice.user, 4, kind="claim2", bots_welcome=True)
    assert _ids(botty.get(LOBBY).json()) == [welcoming.pk]
    bots = _waiting(botty.user, 3)
    human = make_api("harry")
    assert _ids(human.get(LOBBY).json()) == [plain.pk, welcoming.pk, bots.pk]


def test_joining_a_two_seat_seek_starts_the_game(alice, bob):
    theirs = _waiting(bob.user, 5, rated=False, days_per_move=2)
    r = alice.post(f"/api/v1/seeks/{theirs.pk}/accept")
    assert r.status_code == 201, r.content
    mine = r.json()
    assert mine["status"] == "matched" and mine["username"] == "alice" and mine["game_id"]
    game = Game.objects.get(pk=mine["game_id"])
    assert game.status == Game.Status.ACTIVE and not game.rated and game.days_per_move == 2
    assert {s.user.username for s in game.seats.all()} == {"alice", "bob"}
    theirs.refresh_from_db()
    assert theirs.status == Seek.Status.MATCHED and theirs.game_id == game.pk
    assert bob.user.notifications.filter(event="match_found").exists()
    # taken: the next one is told so, and no seek of theirs is left behind
    r = alice.post(f"/api/v1/seeks/{theirs.pk}/accept")
    assert r.status_code == 404, r.content


def test_joining_refusals(alice, bob, make_user):
    _rate(alice.user, 1500), _rate(bob.user, 1900)
    own = _waiting(alice.user, 2)
    r = alice.post(f"/api/v1/seeks/{own.pk}/accept")
    assert r.status_code == 409 and r.json()["error"]["code"] == "own_seek", r.content
    narrow = _waiting(bob.user, 2, rating_range=50)
    r = alice.post(f"/api/v1/seeks/{narrow.pk}/accept")
    assert r.status_code == 409 and r.json()["error"]["code"] == "not_compatible", r.content
    assert "1500" in r.json()["error"]["message"]
    assert alice.post("/api/v1/seeks/999999/accept").status_code == 404
    assert not Seek.objects.filter(user=alice.user).exclude(pk=own.pk).exists()


def test_a_seek_taken_meanwhile_leaves_nothing_behind(alice, bob, make_user, monkeypatch):
    theirs = _waiting(bob.user, 5)
    real = service._pair_once

    def taken_first(seek_id, oldest_first, partner=None):
        Seek.objects.filter(pk=partner).update(status=Seek.Status.CANCELLED)  # another pairing won the lock
        return real(seek_id, oldest_first, partner=partner)

    monkeypatch.setattr(service, "_pair_once", taken_first)
    with pytest.raises(lobby.NotJoinable) as exc:
        lobby.accept(alice.user, theirs.pk)
    assert exc.value.code == "seek_taken"
    assert not Seek.objects.filter(user=alice.user).exists()
    assert not Game.objects.exists()


def test_joining_a_three_seat_seek_waits_for_the_third(alice, bob, make_user):
    carol = make_user("carol")
    opts = {"factions": ["knight", "goblin", "undead", "dwarf", "dragon", "troll", "seer"]}
    theirs = _waiting(bob.user, 5, kind="claim-mix", seats=3, options=opts, rated=False)
    r = alice.post(f"/api/v1/seeks/{theirs.pk}/accept")
    assert r.status_code == 201 and r.json()["status"] == "open" and r.json()["game_id"] is None, r.content

    _mine, game = lobby.accept(carol, theirs.pk)
    assert game is not None and game.seat_count == 3
    assert {s.user.username for s in game.seats.all()} == {"alice", "bob", "carol"}
    assert Seek.objects.filter(game=game).count() == 3
