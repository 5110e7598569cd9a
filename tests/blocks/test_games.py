"""Blocks and games (issue 35): no invitation to, or join of, a game where a player has a block with you (either
way); a block added calls off the open games holding both; rematches between them refused
(rulings in games/service/lifecycle.py and games/blocks.py)."""

from __future__ import annotations

import pytest

from games.challenges.models import Challenge
from games.models import Game, GameEvent

from .conftest import err, no_names, stand

pytestmark = pytest.mark.django_db

WHO = pytest.mark.parametrize("alice_blocks", [True, False], ids=["alice_blocks_bob", "bob_blocks_alice"])


def pair(alice, bob, alice_blocks: bool):
    return (alice, bob) if alice_blocks else (bob, alice)


def invite(api, *names: str, kind: str = "claim", seats: int = 2, open_seats: int = 0):
    opponents = [{"type": "user", "username": n} for n in names] + [{"type": "open"}] * open_seats
    return api.post("/api/v1/games", {"kind": kind, "seats": seats, "opponents": opponents})


def status(game_id: int) -> str:
    return Game.objects.get(pk=game_id).status


@WHO
def test_neither_can_invite_the_other(alice, bob, carol, block, alice_blocks):
    block(*pair(alice, bob, alice_blocks))
    body = err(invite(alice, "bob"), 403, "blocked")
    assert body["message"] == "opponent 1: you cannot invite bob."
    assert body["fields"] == {"opponents": [body["message"]]}
    err(invite(bob, "alice"), 403, "blocked")
    body = err(invite(alice, "carol", "bob", kind="inheritors", seats=3), 403, "blocked")
    assert body["message"].startswith("opponent 2:")
    assert not Game.objects.exists()
    assert invite(alice, "carol").status_code == 201


@WHO
def test_joining_by_code_is_refused_when_a_seated_or_invited_player_has_a_block(alice, bob, carol, dave, block,
                                                                               alice_blocks):
    block(*pair(alice, bob, alice_blocks))
    # alice created the game (seated): bob cannot take its open seat, by the code or by id with the code
    game = carol.create(kind="inheritors", seats=4, opponents=[{"type": "user", "username": "alice"},
                                                               {"type": "open"}, {"type": "open"}])
    code = game["invite_code"]
    for r in (bob.post("/api/v1/games/join", {"code": code}),
              bob.post(f"/api/v1/games/{game['id']}/join", {"code": code})):
        body = err(r, 403, "blocked")
        no_names(body["message"], alice, bob)
    # alice is only invited there (not joined): the same
    assert dave.post("/api/v1/games/join", {"code": code}).status_code == 201
    assert [s["username"] for s in carol.view(game["id"])["seats"]] == ["carol", "alice", "dave", None]
    err(bob.post("/api/v1/games/join", {"code": code}), 403, "blocked")
    # and the other way round: bob invited (or joined), alice cannot take the open seat
    other = carol.create(kind="inheritors", seats=3, opponents=[{"type": "user", "username": "bob"},
                                                                {"type": "open"}])
    err(alice.post("/api/v1/games/join", {"code": other["invite_code"]}), 403, "blocked")
    assert bob.post(f"/api/v1/games/{other['id']}/join").status_code == 201
    body = err(alice.post("/api/v1/games/join", {"code": other["invite_code"]}), 403, "blocked")
    no_names(body["message"], alice, bob)
    assert carol.view(other["id"])["status"] == "open"
    assert dave.post("/api/v1/games/join", {"code": other["invite_code"]}).status_code == 201


@WHO
def test_an_invitation_made_before_the_block_cannot_be_accepted(alice, bob, alice_blocks):
    game = invite(alice, "bob").json()
    stand(*pair(alice, bob, alice_blocks))  # the block's receiver has not run yet
    err(bob.post(f"/api/v1/games/{game['id']}/join"), 403, "blocked")
    assert status(game["id"]) == "open"


@WHO
def test_a_block_calls_off_the_open_games_holding_both(alice, bob, carol, block, alice_blocks):
    two = invite(alice, "bob").json()["id"]  # bob invited
    three = invite(carol, "alice", "bob", kind="inheritors", seats=3).json()["id"]  # both invited by carol
    assert bob.post(f"/api/v1/games/{three}/join").status_code == 201  # one joined
    by_code = alice.create(kind="claim")  # bob took the open seat by its code: started, it goes on
    assert bob.post("/api/v1/games/join", {"code": by_code["invite_code"]}).status_code == 201
    waiting = alice.create(kind="inheritors", seats=3, opponents=[{"type": "open"}, {"type": "open"}])
    assert bob.post("/api/v1/games/join", {"code": waiting["invite_code"]}).status_code == 201  # both joined, open
    with_carol = invite(alice, "carol").json()["id"]
    before = {gid: Game.objects.get(pk=gid).version for gid in (two, three, waiting["id"])}
    block(*pair(alice, bob, alice_blocks))
    assert [status(g) for g in (two, three, waiting["id"])] == ["aborted"] * 3
    assert status(by_code["id"]) == "active" and status(with_carol) == "open"
    for gid, version in before.items():
        entry = GameEvent.objects.get(game_id=gid, version=version + 1)
        assert (entry.type, entry.seat, entry.events) == ("aborted", None, [{"type": "aborted"}])  # nobody named
    for api in (alice, bob, carol):
        assert api.view(three)["status"] == "aborted"
    inbox = {g["id"] for g in alice.get("/api/v1/games").json()["results"]}
    assert two not in inbox and three not in inbox and with_carol in inbox


def finished(alice, bob, *others, seats: int = 2) -> int:
    names = [bob.user.username, *(o.user.username for o in others)]
    gid = invite(alice, *names, kind="claim" if seats == 2 else "inheritors", seats=seats).json()["id"]
    for api in (bob, *others):
        assert api.post(f"/api/v1/games/{gid}/join").status_code == 201
    assert alice.post(f"/api/v1/games/{gid}/resign").status_code == 200
    return gid


@WHO
def test_no_rematch_between_players_with_a_block(alice, bob, carol, block, alice_blocks):
    two = finished(alice, bob)
    three = finished(alice, bob, carol, seats=3)
    block(*pair(alice, bob, alice_blocks))
    for api, gid in ((alice, two), (bob, two), (alice, three), (bob, three)):
        body = err(api.post(f"/api/v1/games/{gid}/rematch"), 403, "blocked")
        no_names(body["message"], alice, bob)
    assert not Challenge.objects.exists() and not Game.objects.filter(rematch_of__isnull=False).exists()
    # carol, who has no block, may still ask (she is not told of theirs): the new game invites both, and neither
    # of them can join it while the other holds a seat
    r = carol.post(f"/api/v1/games/{three}/rematch")
    assert r.status_code == 201, r.content
    new = r.json()["id"]
    err(alice.post(f"/api/v1/games/{new}/join"), 403, "blocked")
    err(bob.post(f"/api/v1/games/{new}/join"), 403, "blocked")
    assert carol.view(new)["status"] == "open"


@WHO
def test_a_block_cancels_a_pending_rematch_offer_and_calls_off_a_rematch_game(alice, bob, carol, block,
                                                                              alice_blocks):
    two = finished(alice, bob)
    assert alice.post(f"/api/v1/games/{two}/rematch").status_code == 202  # a challenge to bob
    three = finished(alice, bob, carol, seats=3)
    assert alice.post(f"/api/v1/games/{three}/rematch").status_code == 201  # a new game inviting both
    block(*pair(alice, bob, alice_blocks))
    assert alice.view(two)["rematch_offer"]["status"] == "cancelled"
    offer = carol.view(three)["rematch_offer"]
    assert offer["status"] == "cancelled" and offer["declined_by"] is None  # called off by no seat
    assert status(offer["game_id"]) == "aborted"
