"""One's follows, blocks and mutes in the data export, and their end with the account (issue 35; accounts/privacy.py,
accounts.services.delete_account)."""

from __future__ import annotations

import pytest

from accounts.models import Relation
from tests.factories import PASSWORD

pytestmark = pytest.mark.django_db


def test_the_export_holds_my_own_relations_only(member, bob, carol):
    alice = member("alice", scopes=None)  # the export is session only
    alice.follow("bob")
    alice.follow("carol", "mute")
    bob.follow("alice")  # bob's: not in alice's export
    carol.follow("alice", "block")
    data = alice.get("/api/v1/accounts/me/data").json()
    sections = data["sections"]
    assert [r["username"] for r in sections["following"]["items"]] == ["bob"]
    assert [r["username"] for r in sections["mutes"]["items"]] == ["carol"]
    assert sections["blocks"]["items"] == []
    item = sections["following"]["items"][0]
    assert set(item) == {"id", "user_id", "username", "created_at"} and item["user_id"] == bob.user.pk
    assert data["account"]["hide_presence"] is False
    carol_data = member("carol", user=carol.user, scopes=None).get("/api/v1/accounts/me/data").json()["sections"]
    assert [r["username"] for r in carol_data["blocks"]["items"]] == ["alice"]
    assert carol_data["following"]["items"] == [] and carol_data["mutes"]["items"] == []


def test_the_sections_are_paged(member):
    alice = member("alice", scopes=None)
    for i in range(105):
        member(f"u{i:03d}")
        alice.follow(f"u{i:03d}")
    first = alice.get("/api/v1/accounts/me/data").json()["sections"]["following"]
    assert len(first["items"]) == 100 and first["items"][0]["username"] == "u104" and first["next"]
    rest = alice.get(first["next"]).json()
    assert [r["username"] for r in rest["items"]] == ["u004", "u003", "u002", "u001", "u000"] and rest["next"] is None


def test_deleting_an_account_removes_its_relations_both_ways(member, bob, carol):
    alice = member("alice", scopes=None)
    alice.follow("bob")
    alice.follow("carol", "block")
    bob.follow("alice")
    bob.follow("carol")
    r = alice.post("/api/v1/accounts/me/delete", {"password": PASSWORD})
    assert r.status_code == 204, r.content
    assert list(Relation.objects.values_list("user__username", "kind", "other__username")) == [
        ("bob", "follow", "carol")]
    assert bob.get("/api/v1/followers").json()["results"] == []
    assert bob.get("/api/v1/following").json()["results"] == [{"username": "carol", "name": "carol",
                                                                "is_bot": False}]
