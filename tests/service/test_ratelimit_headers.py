"""RateLimit / RateLimit-Policy fields on throttled answers (issue 26; claim/ratelimit.py)."""

from __future__ import annotations

import re

import pytest

from claim.throttling import UserRateThrottle

pytestmark = pytest.mark.django_db

ITEM = re.compile(r'^"(?P<name>[a-z_]+)";(?P<a>[qr])=(?P<x>\d+);(?P<b>[wt])=(?P<y>\d+)$')


def parse(value: str) -> dict[str, tuple[int, int]]:
    out = {}
    for item in value.split(", "):
        m = ITEM.match(item)
        assert m, item
        out[m["name"]] = (int(m["x"]), int(m["y"]))
    return out


def test_a_read_carries_the_user_policy_and_what_is_left(alice):
    first = alice.get("/api/v1/games")
    policy, left = parse(first["RateLimit-Policy"]), parse(first["RateLimit"])
    assert policy == {"user": (1200, 60)}
    remaining, reset = left["user"]
    second = alice.get("/api/v1/games")
    assert parse(second["RateLimit"])["user"][0] == remaining - 1
    assert 0 < reset <= 60


def test_a_move_carries_both_of_its_policies(alice):
    gid = alice.create(kind="claim", opponents=[{"type": "ai", "level": 1}])["id"]
    view = alice.view(gid)
    r = alice.move(gid, view["version"], view["legal_moves"][0])
    assert set(parse(r["RateLimit-Policy"])) == {"user", "moves"}


def test_a_429_says_none_left_and_when(alice, monkeypatch):
    monkeypatch.setattr(UserRateThrottle, "get_rate", lambda self: "2/min")
    alice.get("/api/v1/games"), alice.get("/api/v1/games")
    refused = alice.get("/api/v1/games")
    assert refused.status_code == 429
    remaining, reset = parse(refused["RateLimit"])["user"]
    assert remaining == 0 and reset == int(refused["Retry-After"])
    assert parse(refused["RateLimit-Policy"])["user"] == (2, 60)


def test_login_reports_its_policy(client):
    r = client.post("/api/v1/accounts/login", {"username": "x", "password": "y"}, content_type="application/json")
    assert "login" in parse(r["RateLimit-Policy"])
