"""``PUT`` / ``DELETE /users/{username}/follow|block|mute`` (issue 35; games/social/api.py): the answer, idempotence,
the lookup of the name, refusals, scopes and the rate."""

from __future__ import annotations

import pytest

from accounts.models import Relation
from tests.blocks.conftest import no_names

from .conftest import SOCIAL, err

pytestmark = pytest.mark.django_db

KEYS = {"username", "following", "followed_by", "friends", "blocking", "muting"}


def stance(**on: bool) -> dict:
    return {k: on.get(k, False) for k in ("following", "followed_by", "friends", "blocking", "muting")}


def test_following_answers_the_relationship_and_is_idempotent(alice, bob):
    r = alice.follow("bob")
    assert r.status_code == 200, r.content
    assert set(r.json()) == KEYS
    assert r.json() == {"username": "bob", **stance(following=True)}
    assert alice.follow("bob").json() == r.json()  # again: the same answer, one row
    assert Relation.objects.filter(user=alice.user, kind="follow", other=bob.user).count() == 1
    back = bob.follow("alice")
    assert back.json() == {"username": "alice", **stance(following=True, followed_by=True, friends=True)}
    r = alice.follow("bob", on=False)
    assert r.status_code == 200 and r.json() == {"username": "bob", **stance(followed_by=True)}
    assert alice.follow("bob", on=False).json() == r.json()  # removing what is not there: the same answer


def test_blocking_and_muting(alice, bob):
    alice.follow("bob")
    bob.follow("alice")
    r = alice.follow("bob", "mute")
    assert r.json() == {"username": "bob", **stance(following=True, followed_by=True, friends=True, muting=True)}
    r = alice.follow("bob", "block")
    assert r.status_code == 200
    assert r.json() == {"username": "bob", **stance(blocking=True, muting=True)}  # a block ends both follows
    assert not Relation.objects.filter(kind="follow").exists()
    assert alice.follow("bob", "block").json() == r.json()
    assert alice.follow("bob", "block", on=False).json() == {"username": "bob", **stance(muting=True)}
    assert alice.follow("bob", "mute", on=False).json() == {"username": "bob", **stance()}


def test_the_answer_never_says_they_block_me(alice, bob):
    bob.follow("alice", "block")
    r = alice.follow("bob", "mute")
    assert r.status_code == 200
    assert r.json() == {"username": "bob", **stance(muting=True)}
    assert "blocked_by" not in r.content.decode()


@pytest.mark.parametrize("blocker", ["alice", "bob"])
def test_following_across_a_block_is_refused_in_neutral_words(alice, bob, blocker):
    (alice if blocker == "alice" else bob).follow("alice" if blocker == "bob" else "bob", "block")
    body = err(alice.follow("bob"), 403, "blocked")
    no_names(body["message"], alice, bob)
    assert body["message"] == "You cannot follow this player."
    assert not Relation.objects.filter(kind="follow").exists()
    assert alice.follow("bob", "mute").status_code == 200  # a mute is one's own business
    assert alice.follow("bob", on=False).status_code == 200  # so is removing a follow that is not there


def test_the_name_is_found_in_any_letter_case_and_compatibility_form(alice, member):
    member("Bob")
    member("Zoë")
    assert alice.follow("BOB").json()["username"] == "Bob"
    assert alice.follow("\uff42\uff4f\uff42").json()["username"] == "Bob"  # full-width letters: NFKC
    r = alice.follow("ZOË")
    assert r.status_code == 200 and r.json()["username"] == "Zoë"
    assert alice.follow("zoe").status_code == 404  # another letter, another name


@pytest.mark.parametrize("name", ["nobody", "a" * 151, "b%20ob", "bob%2Fgames", "  ", "🙂", "b\u0131b"])
def test_an_unknown_player_is_404(alice, bob, name):
    for kind in ("follow", "block", "mute"):
        for on in (True, False):
            body = err(alice.follow(name, kind, on), 404, "not_found")
            assert "No player is called" in body["message"] or "no API endpoint" in body["message"]


def test_a_nul_in_the_name_is_400(alice, bob):
    err(alice.follow("bob%00"), 400, "invalid")  # the address filter (claim.middleware)


def test_an_inactive_player_is_404(alice, member):
    member("gone", is_active=False)
    err(alice.follow("gone"), 404, "not_found")
    assert not Relation.objects.exists()


@pytest.mark.parametrize("kind", ["follow", "block", "mute"])
def test_oneself_is_400(alice, kind):
    body = err(alice.follow("ALICE", kind), 400, "invalid")
    assert body["message"] == f"You cannot {kind} yourself." and body["fields"] == {
        "username": [f"You cannot {kind} yourself."]}
    err(alice.follow("alice", kind, on=False), 400, "invalid")


def test_tokens_need_the_social_scope_and_bot_play_is_not_enough(member, bob):
    reader = member("reader", scopes=["games:read", "games:play", "account:read", "chat:write"])
    body = err(reader.follow("bob"), 403, "insufficient_scope")
    assert "social" in body["message"]
    robot = member("robot", scopes=["bot:play"], is_bot=True)
    err(robot.follow("bob"), 403, "insufficient_scope")
    assert member("robot2", scopes=["bot:play", "social"], is_bot=True).follow("bob").status_code == 200
    assert member("social_only", scopes=["social"]).follow("bob").status_code == 200


def test_a_session_may_and_nobody_anonymous(member, bob, api_client):
    pwa = member("pwa", scopes=None)
    assert pwa.follow("bob").status_code == 200
    err(api_client.put("/api/v1/users/bob/follow"), 401, "not_authenticated")
    err(api_client.delete("/api/v1/users/bob/block"), 401, "not_authenticated")


def test_a_body_is_ignored_and_other_methods_are_405(alice, bob):
    assert alice.put("/api/v1/users/bob/follow", {"anything": 1}).status_code == 200
    assert alice.post("/api/v1/users/bob/follow").status_code == 405
    assert alice.get("/api/v1/users/bob/follow").status_code == 405


def test_writes_are_rate_limited_per_user(alice, member, rates):
    rates(social="3/min")
    for name in ("b1", "b2", "b3", "b4"):
        member(name)
    for name in ("b1", "b2", "b3"):
        assert alice.follow(name).status_code == 200
    body = err(alice.follow("b4", "mute"), 429, "throttled")
    assert body["retry_after"] >= 1
    assert alice.get("/api/v1/following").status_code == 200  # reading is not counted
    other = member("other", scopes=SOCIAL)
    assert other.follow("b4").status_code == 200  # per user


def test_a_write_costs_a_few_queries(alice, bob, django_assert_max_num_queries):
    # the token and its user, the token's last use, the player, the blocks, get_or_create (+ savepoint), the stances;
    # then the followed event: the followed user's block or mute, both accounts active (games/social/events.py)
    with django_assert_max_num_queries(11):
        assert alice.follow("bob").status_code == 200
    with django_assert_max_num_queries(12):  # and the block's receivers: challenges, open games (games.blocks)
        assert alice.follow("bob", "block").status_code == 200
