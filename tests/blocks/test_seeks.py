"""Blocks and matchmaking (issue 35): two users with a block are never paired, nor seated at one table, and
never see each other's seeks in the lobby (rulings in games/seeks/service.py and lobby.py)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.models import Game
from games.seeks import service
from games.seeks.models import Seek

from .conftest import err, no_names, stand

pytestmark = pytest.mark.django_db

WHO = pytest.mark.parametrize("alice_blocks", [True, False], ids=["alice_blocks_bob", "bob_blocks_alice"])
SEEK = {"kind": "claim", "seats": 2, "days_per_move": 3, "rated": False}


def pair(alice, bob, alice_blocks: bool):
    return (alice, bob) if alice_blocks else (bob, alice)


def seek(api, **body) -> dict:
    r = api.post("/api/v1/seeks", {**SEEK, **body})
    assert r.status_code == 201, r.content
    return r.json()


def players(game_id: int) -> set[str]:
    return {s.user.username for s in Game.objects.get(pk=game_id).seats.all() if s.user is not None}


@WHO
def test_two_seekers_with_a_block_are_never_paired_and_the_others_still_are(alice, bob, carol, dave, block,
                                                                           alice_blocks):
    block(*pair(alice, bob, alice_blocks))
    first = seek(bob)
    second = seek(alice)
    assert first["status"] == second["status"] == "open"  # compatible in every other way
    with_bob = seek(carol)  # bob waited longest
    assert with_bob["status"] == "matched" and players(with_bob["game_id"]) == {"bob", "carol"}
    with_alice = seek(dave)
    assert with_alice["status"] == "matched" and players(with_alice["game_id"]) == {"alice", "dave"}


@WHO
def test_the_periodic_pairing_never_pairs_them_either(alice, bob, carol, block, django_capture_on_commit_callbacks,
                                                     alice_blocks):
    block(*pair(alice, bob, alice_blocks))
    for user in (alice.user, bob.user):
        Seek.objects.create(user=user, **SEEK)  # waiting, no pairing tried yet
    with django_capture_on_commit_callbacks(execute=True):
        assert service.pair_all() == 0
    assert Seek.objects.filter(status=Seek.Status.OPEN).count() == 2
    Seek.objects.create(user=carol.user, **SEEK)
    with django_capture_on_commit_callbacks(execute=True):
        assert service.pair_all() == 1
    (game,) = Game.objects.all()
    assert players(game.pk) in ({"alice", "carol"}, {"bob", "carol"})


@WHO
def test_a_table_of_three_never_seats_both(alice, bob, carol, dave, block, alice_blocks):
    block(*pair(alice, bob, alice_blocks))
    three = {"kind": "inheritors", "seats": 3}
    assert seek(alice, **three)["status"] == "open"
    assert seek(bob, **three)["status"] == "open"
    assert seek(carol, **three)["status"] == "open"  # alice, bob, carol: no table without both
    done = seek(dave, **three)
    assert done["status"] == "matched"
    seated = players(done["game_id"])
    assert len(seated) == 3 and {"carol", "dave"} <= seated and not {"alice", "bob"} <= seated


def test_the_blocks_of_a_pairing_are_one_query_over_its_candidates(alice, bob, carol, make_user):
    others = [make_user(f"p{i}") for i in range(8)]
    for user in (bob.user, carol.user, *others):
        Seek.objects.create(user=user, **{**SEEK, "kind": "claim2"})  # no candidate: another kind
    mine = Seek.objects.create(user=alice.user, **SEEK)
    with CaptureQueriesContext(connection) as ctx:
        assert service.find_group(mine, mine.created_at) is None
    assert sum('"accounts_relation"' in q["sql"] for q in ctx.captured_queries) == 0  # nobody to ask about
    for user in (bob.user, carol.user, *others):
        Seek.objects.filter(user=user).update(kind="claim")
    with CaptureQueriesContext(connection) as ctx:
        assert service.find_group(mine, mine.created_at) is not None
    assert sum('"accounts_relation"' in q["sql"] for q in ctx.captured_queries) == 1


@WHO
def test_the_lobby_hides_their_seeks_from_each_other_and_refuses_joining_one(alice, bob, carol, block,
                                                                            alice_blocks):
    block(*pair(alice, bob, alice_blocks))
    bobs = Seek.objects.create(user=bob.user, **SEEK)
    alices = Seek.objects.create(user=alice.user, **SEEK)
    carols = Seek.objects.create(user=carol.user, **SEEK)

    def lobby(api) -> list[int]:
        r = api.get("/api/v1/seeks/lobby")
        assert r.status_code == 200, r.content
        return [s["id"] for s in r.json()["results"]]

    def others(api) -> list[int]:
        return [s["id"] for s in api.get("/api/v1/seeks").json()["others"]]

    assert lobby(alice) == others(alice) == [carols.pk]
    assert lobby(bob) == others(bob) == [carols.pk]
    assert lobby(carol) == others(carol) == [bobs.pk, alices.pk]
    for me, theirs in ((alice, bobs), (bob, alices)):
        body = err(me.post(f"/api/v1/seeks/{theirs.pk}/accept"), 403, "blocked")
        no_names(body["message"], alice, bob)
    assert Seek.objects.count() == 3 and not Game.objects.exists()  # nothing of theirs left behind
    r = alice.post(f"/api/v1/seeks/{carols.pk}/accept")
    assert r.status_code == 201 and r.json()["status"] == "matched", r.content


def test_a_block_arriving_while_a_group_is_formed_makes_no_game(alice, bob, monkeypatch):
    """The group was found before the block was read (as if it came in between): creating the game refuses the
    pair (403 inside the pairing), the pairing rolls it back and finds no other group; the post is still 201."""
    assert seek(bob)["status"] == "open"
    stand(alice, bob)
    monkeypatch.setattr(service, "blocked_pairs", lambda user_ids: set())
    mine = seek(alice)
    assert mine["status"] == "open" and not Game.objects.exists()
    assert Seek.objects.filter(status=Seek.Status.OPEN).count() == 2
