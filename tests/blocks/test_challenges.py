"""Blocks and challenges (issue 35): no challenge between two users with a block, either way; a block added
cancels the pending ones between them (rulings in games/challenges/service.py)."""

from __future__ import annotations

import pytest

from accounts import relations
from games.challenges.models import Challenge

from .conftest import err, no_names, stand

pytestmark = pytest.mark.django_db

WHO = pytest.mark.parametrize("alice_blocks", [True, False], ids=["alice_blocks_bob", "bob_blocks_alice"])


def pair(alice, bob, alice_blocks: bool):
    """``(blocker, blocked)``."""
    return (alice, bob) if alice_blocks else (bob, alice)


def challenge(api, **body):
    return api.post("/api/v1/challenges", {"kind": "claim", **body})


@WHO
def test_neither_can_challenge_the_other(alice, bob, block, alice_blocks):
    block(*pair(alice, bob, alice_blocks))
    for me, other in ((alice, bob), (bob, alice)):
        body = err(challenge(me, to=other.user.username), 403, "blocked")
        assert body["message"] == "You cannot challenge this player."
        no_names(body["message"], alice, bob)
    assert not Challenge.objects.exists()


@WHO
def test_a_challenge_made_before_the_block_cannot_be_accepted(alice, bob, alice_blocks):
    r = challenge(alice, to="bob")
    assert r.status_code == 201, r.content
    cid = r.json()["id"]
    stand(*pair(alice, bob, alice_blocks))  # the block's receiver has not run yet
    body = err(bob.post(f"/api/v1/challenges/{cid}/accept"), 403, "blocked")
    no_names(body["message"], alice, bob)
    c = Challenge.objects.get(pk=cid)
    assert c.status == Challenge.Status.PENDING and c.game_id is None  # nothing was made


@WHO
def test_an_open_challenge_is_refused_to_a_player_with_a_block(alice, bob, carol, alice_blocks):
    cid = challenge(alice).json()["id"]  # open: anyone with its id
    stand(*pair(alice, bob, alice_blocks))
    err(bob.post(f"/api/v1/challenges/{cid}/accept"), 403, "blocked")
    r = carol.post(f"/api/v1/challenges/{cid}/accept")
    assert r.status_code == 200 and r.json()["status"] == "accepted", r.content


@WHO
def test_a_block_cancels_the_pending_challenges_between_the_two_both_ways(alice, bob, carol, block, frames,
                                                                          alice_blocks):
    to_bob = challenge(alice, to="bob").json()["id"]
    to_alice = challenge(bob, to="alice").json()["id"]
    to_carol = challenge(alice, to="carol").json()["id"]
    open_one = challenge(bob).json()["id"]
    frames.clear()
    block(*pair(alice, bob, alice_blocks))
    status = dict(Challenge.objects.values_list("pk", "status"))
    assert status[to_bob] == status[to_alice] == "cancelled"
    assert status[to_carol] == status[open_one] == "pending"
    # the usual cancel events, to both players of each
    cancelled = {(uid, f["challenge"]["id"]) for uid, f in frames if f["type"] == "challenge_cancelled"}
    assert cancelled == {(alice.user.pk, to_bob), (bob.user.pk, to_bob), (alice.user.pk, to_alice),
                         (bob.user.pk, to_alice)}
    assert alice.get("/api/v1/challenges").json()["incoming"] == []
    assert [c["id"] for c in alice.get("/api/v1/challenges").json()["outgoing"]] == [to_carol]
    err(bob.post(f"/api/v1/challenges/{to_bob}/accept"), 409, "challenge_not_pending")


def test_after_the_block_is_lifted_they_may_challenge_again(alice, bob, block):
    block(alice, bob)
    err(challenge(bob, to="alice"), 403, "blocked")
    assert relations.remove(alice.user.pk, "block", bob.user.pk)
    r = challenge(bob, to="alice")
    assert r.status_code == 201, r.content


def test_a_mute_or_a_follow_changes_nothing(alice, bob, django_capture_on_commit_callbacks):
    cid = challenge(alice, to="bob").json()["id"]
    with django_capture_on_commit_callbacks(execute=True):
        relations.add(bob.user.pk, "mute", alice.user.pk)
        relations.add(alice.user.pk, "follow", bob.user.pk)
    assert Challenge.objects.get(pk=cid).status == Challenge.Status.PENDING
    assert challenge(bob, to="alice").status_code == 201
