"""Bad input gets the right 4xx, never a 5xx: malformed moves, huge bodies, wrong types, other users' games,
revoked tokens and disabled accounts, session posts without CSRF, login brute force, and every HTTP method
on every schema path (OPTIONS included)."""

from __future__ import annotations

import json

import pytest
from django.conf import settings as django_settings
from rest_framework.test import APIClient

from accounts.models import ApiToken

from .conftest import FULL_SCOPES, schema_operations

pytestmark = pytest.mark.django_db


@pytest.fixture
def duel(make_api):
    """alice and bob in an active Claim game; returns (alice, bob, game id, the view of whoever must act)."""
    alice, bob = make_api("alice"), make_api("bob")
    game = alice.create(kind="claim", opponents=[{"type": "user", "username": "bob"}])
    r = bob.post(f"/api/v1/games/{game['id']}/join", {})
    assert r.status_code == 201, r.content
    va = alice.view(game["id"])
    mover, view = (alice, va) if va["my_turn"] else (bob, bob.view(game["id"]))
    return alice, bob, game["id"], mover, view


def _error(r) -> dict:
    return r.json()["error"]


# --------------------------------------------------------------------------------------------- malformed moves
MALFORMED_MOVES = {
    "empty body": {},
    "no move": {"version": 0, "client_id": "x"},
    "move null": {"version": 0, "move": None},
    "move list": {"version": 0, "move": ["goblin-0"]},
    "move string": {"version": 0, "move": "goblin-0"},
    "move empty object": {"version": 0, "move": {}},
    "unknown card": {"version": 0, "move": {"play": "dragon-99"}},
    "card is a number": {"version": 0, "move": {"play": 7}},
    "card is an object": {"version": 0, "move": {"play": {"id": "goblin-0"}}},
    "unknown move key": {"version": 0, "move": {"steal": "everything"}},
    "seer when not asked": {"version": 0, "move": {"seer": "top"}},
    "version string": {"version": "latest", "move": {"play": "goblin-0"}},
    "version float": {"version": 1.5, "move": {"play": "goblin-0"}},
    "version negative": {"version": -1, "move": {"play": "goblin-0"}},
    "version huge": {"version": 10**30, "move": {"play": "goblin-0"}},
    "version bool": {"version": True, "move": {"play": "goblin-0"}},
    "client id too long": {"version": 0, "move": {"play": "goblin-0"}, "client_id": "x" * 65},
    "client id object": {"version": 0, "move": {"play": "goblin-0"}, "client_id": {"a": 1}},
    "deep nesting": {"version": 0, "move": {"play": json.loads("[" * 200 + "]" * 200)}},
    "top-level list": [1, 2, 3],
    "top-level string": "move",
}


@pytest.mark.parametrize("name", list(MALFORMED_MOVES))
def test_malformed_move_is_a_4xx_and_changes_nothing(duel, name):
    _alice, _bob, gid, mover, view = duel
    body = MALFORMED_MOVES[name]
    if isinstance(body, dict) and body.get("version") == 0:
        body = {**body, "version": view["version"]}  # the right version: only the move is wrong
    r = mover.post(f"/api/v1/games/{gid}/moves", body)
    assert r.status_code in (400, 409), (name, r.status_code, r.content[:300])
    assert _error(r)["code"] in ("invalid", "illegal_move", "parse_error", "stale_version"), r.content[:300]
    assert mover.view(gid)["version"] == view["version"], "a refused move changed the game"


def test_move_not_json_is_400_parse_error(duel):
    _, _, gid, mover, _view = duel
    r = mover.post(f"/api/v1/games/{gid}/moves", b'{"version": 3, "move": {', content_type="application/json")
    assert r.status_code == 400 and _error(r)["code"] == "parse_error"


def test_move_as_form_data_is_415(duel):
    _, _, gid, mover, _view = duel
    r = mover.post(f"/api/v1/games/{gid}/moves", "version=3&move=x", content_type="application/x-www-form-urlencoded")
    assert r.status_code == 415 and _error(r)["code"] == "unsupported_media_type"


def test_illegal_move_names_the_legal_moves(duel):
    alice, bob, gid, mover, view = duel
    other = bob if mover is alice else alice
    hand_of_other = other.view(gid)["legal_moves"]  # not mover's cards (unless shared ids, then it is legal)
    illegal = next((m for m in hand_of_other if m not in view["legal_moves"]), None)
    if illegal is None:
        pytest.skip("both hands happened to share every legal card id")
    r = mover.move(gid, view["version"], illegal, client_id="c1")
    assert r.status_code == 400 and _error(r)["code"] == "illegal_move"
    assert _error(r)["legal_moves"] == view["legal_moves"]


def test_wrong_seat_is_409_not_your_turn(duel):
    alice, bob, gid, mover, view = duel
    waiting = bob if mover is alice else alice
    r = waiting.move(gid, view["version"], view["legal_moves"][0], client_id="w1")
    assert r.status_code == 409 and _error(r)["code"] == "not_your_turn"


# ----------------------------------------------------------------------------------------------- huge bodies
@pytest.mark.parametrize("path", ["/api/v1/games", "/api/v1/games/{gid}/moves", "/api/v1/games/join",
                                  "/api/v1/accounts/login", "/api/v1/accounts/register"])
def test_body_over_data_upload_max_memory_size_is_refused(duel, path):
    _alice, _, gid, mover, view = duel
    size = django_settings.DATA_UPLOAD_MAX_MEMORY_SIZE + 1024
    body = json.dumps({"kind": "claim", "padding": "x" * size, "version": view["version"],
                       "move": view["legal_moves"][0], "username": "alice", "password": "x"})
    r = mover.post(path.format(gid=gid), body, content_type="application/json")
    assert r.status_code in (400, 413), (r.status_code, r.content[:300])
    assert mover.view(gid)["version"] == view["version"], "an oversized move was applied"


def test_body_over_limit_gets_the_api_error_shape(duel):
    _, _, gid, mover, view = duel
    body = json.dumps({"version": view["version"], "move": view["legal_moves"][0],
                       "padding": "x" * (django_settings.DATA_UPLOAD_MAX_MEMORY_SIZE + 1)})
    r = mover.post(f"/api/v1/games/{gid}/moves", body, content_type="application/json")
    assert r.status_code == 413
    assert r["Content-Type"].startswith("application/json"), r["Content-Type"]
    assert r.json()["error"]["code"] == "too_large"


# ------------------------------------------------------------------------------------------------ wrong types
WRONG_CREATES = {
    "kind int": {"kind": 3},
    "kind unknown": {"kind": "chess"},
    "kind null": {"kind": None},
    "options list": {"kind": "claim", "options": [1]},
    "seats string": {"kind": "claim", "seats": "two"},
    "seats zero": {"kind": "claim", "seats": 0},
    "seats huge": {"kind": "claim", "seats": 10**9},
    "opponents string": {"kind": "claim", "opponents": "ai"},
    "opponent level 9": {"kind": "claim", "opponents": [{"type": "ai", "level": 9}]},
    "opponent unknown user": {"kind": "claim", "opponents": [{"type": "user", "username": "nobody-here"}]},
    "opponent self": {"kind": "claim", "opponents": [{"type": "user", "username": "alice"}]},
    "opponent type unknown": {"kind": "claim", "opponents": [{"type": "martian"}]},
    "days_per_move 4": {"kind": "claim", "days_per_move": 4},
    "days_per_move string": {"kind": "claim", "days_per_move": "soon"},
    "rated vs ai": {"kind": "claim", "opponents": [{"type": "ai", "level": 1}], "rated": True},
    "seat out of range": {"kind": "claim", "seat": 5},
    "mix without factions": {"kind": "claim-mix", "opponents": [{"type": "ai", "level": 1}]},
    "mix bad factions": {"kind": "claim-mix", "options": {"factions": ["x", "y"]}},
}


@pytest.mark.parametrize("name", list(WRONG_CREATES))
def test_create_with_wrong_types_is_400(make_api, name):
    alice = make_api("alice")
    r = alice.post("/api/v1/games", WRONG_CREATES[name])
    assert r.status_code == 400, (name, r.status_code, r.content[:300])
    assert _error(r)["code"] in ("invalid", "invalid_options")


@pytest.mark.parametrize(("path", "body", "key"), [
    ("/api/v1/games", {"kind": "claim", "colour": "red"}, "colour"),
    ("/api/v1/games", {"kind": "claim", "opponents": [{"type": "ai", "level": 1, "lvl": 3}]}, "lvl"),
    ("/api/v1/challenges", {"kind": "claim", "seats": 3}, "seats"),  # a challenge has two seats: not silently
    ("/api/v1/seeks", {"kind": "claim", "days_per_move": 3, "rating": 1500}, "rating"),
    ("/api/v1/games/{gid}/moves", {"version": 0, "move": {"play": "x"}, "clientid": "a"}, "clientid"),
    ("/api/v1/notifications/read", {"all": True, "unread": True}, "unread"),
    ("/api/v1/vacation", {"auto": False}, "auto"),
])
def test_an_unknown_field_is_a_400_naming_it(duel, path, body, key):
    """A misspelt or unsupported key is refused, not ignored (the request would do something else than asked)."""
    alice, _, gid, _, _ = duel
    if path == "/api/v1/vacation":
        r = alice.client.patch(path, body, format="json")
    else:
        r = alice.post(path.format(gid=gid), body)
    assert r.status_code == 400, (path, r.status_code, r.content[:300])
    fields = _error(r)["fields"]
    flat = json.dumps(fields)
    assert f"Unknown field '{key}'" in flat, fields


@pytest.mark.parametrize(("path", "params", "expected"), [
    ("/api/v1/games", {"status": "everything"}, {400}),
    ("/api/v1/games", {"kind": "chess"}, {400}),
    ("/api/v1/games", {"kind": "claim"}, {200}),
    # DRF's LimitOffsetPagination fell back to the default; the schema says an integer >= 1 / >= 0 (issue 22)
    ("/api/v1/games", {"limit": "many"}, {400}),
    ("/api/v1/games", {"limit": "0"}, {400}),
    ("/api/v1/games", {"limit": "9" * 30}, {200}),  # clamped to 200
    ("/api/v1/games", {"offset": "-5"}, {400}),
    ("/api/v1/notifications", {"unread": "null"}, {400}),
    ("/api/v1/notifications", {"unread": "1"}, {200}),
    ("/api/v1/games/{gid}/history", {"from_version": "abc"}, {400}),
    ("/api/v1/games/{gid}/history", {"from_version": "-1"}, {400}),
    ("/api/v1/games/{gid}/history", {"from_version": "9" * 40}, {200}),  # nothing that late: empty page
    ("/api/v1/games/{gid}/replay", {"step": "x"}, {400, 409}),
    ("/api/v1/games/{gid}/replay", {"step": "9" * 40}, {400, 409}),
])
def test_bad_query_parameters(duel, path, params, expected):
    alice, _, gid, _, _ = duel
    r = alice.get(path.format(gid=gid), params)
    assert r.status_code in expected, (path, params, r.status_code, r.content[:300])


@pytest.mark.parametrize("gid", ["0", "-1", "99999999999999999999", "abc"])
def test_odd_game_ids_are_404(make_api, gid):
    alice = make_api("alice")
    r = alice.get(f"/api/v1/games/{gid}")
    assert r.status_code == 404, (gid, r.status_code, r.content[:200])


# ------------------------------------------------------------------------------------------ other users' games
def test_other_users_active_game_is_invisible_everywhere(duel, make_api):
    _alice, _bob, gid, mover, view = duel
    mallory = make_api("mallory")
    for method, path, body in [
        ("get", f"/api/v1/games/{gid}", None), ("get", f"/api/v1/games/{gid}/history", None),
        ("get", f"/api/v1/games/{gid}/record", None), ("get", f"/api/v1/games/{gid}/replay", None),
        ("post", f"/api/v1/games/{gid}/moves", {"version": view["version"], "move": view["legal_moves"][0]}),
        ("post", f"/api/v1/games/{gid}/resign", {}), ("post", f"/api/v1/games/{gid}/abort", {}),
        ("post", f"/api/v1/games/{gid}/join", {}), ("post", f"/api/v1/games/{gid}/rematch", {}),
    ]:
        r = getattr(mallory, method)(path, body) if body is not None else getattr(mallory, method)(path)
        assert r.status_code == 404, (method, path, r.status_code, r.content[:200])
        assert str(view["version"]) not in json.dumps(r.json().get("error", {}).get("view", ""))
    assert mallory.get("/api/v1/games", {"status": "all"}).json()["count"] == 0
    assert mover.view(gid)["version"] == view["version"]


# --------------------------------------------------------------------------------------- revoked tokens etc.
def test_revoked_token_is_401(make_user):
    user = make_user("alice")
    token, plain = ApiToken.issue(user, "t", FULL_SCOPES)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {plain}")
    assert client.get("/api/v1/games").status_code == 200
    session = APIClient()
    session.force_login(user)
    assert session.delete(f"/api/v1/accounts/tokens/{token.pk}").status_code == 204
    r = client.get("/api/v1/games")
    assert r.status_code == 401 and r.json()["error"]["code"] == "authentication_failed"
    assert "revoked" in r.json()["error"]["message"]
    assert r.headers.get("WWW-Authenticate", "").startswith("Bearer")


@pytest.mark.parametrize("header", [
    "Bearer clm_deadbeef_notthesecret",  # unknown prefix
    "Bearer clm_short_x",  # malformed
    "Bearer " + "a" * 5000,  # absurdly long
    "Bearer clm_deadbeef_x extra",  # extra part
    "Bearer",  # no token
])
def test_malformed_or_unknown_tokens_are_401(db, header):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=header)
    r = client.get("/api/v1/games")
    assert r.status_code == 401, (header[:40], r.status_code, r.content[:200])


@pytest.mark.parametrize("header", ["Basic YWxpY2U6cHc=", "Token clm_deadbeef_x", "Digest username=alice"])
def test_another_authorization_scheme_is_401_saying_which_one_is_taken(db, header):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=header)
    r = client.get("/api/v1/games")
    assert r.status_code == 401 and "must be 'Bearer <token>'" in r.json()["error"]["message"], r.content


def test_token_with_right_prefix_wrong_secret_is_401(make_user):
    user = make_user("alice")
    _, plain = ApiToken.issue(user, "t", FULL_SCOPES)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {plain[:-4]}AAAA")
    assert client.get("/api/v1/games").status_code == 401


def test_disabled_account_token_is_401(make_user):
    user = make_user("alice")
    _, plain = ApiToken.issue(user, "t", FULL_SCOPES)
    user.is_active = False
    user.save(update_fields=["is_active"])
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {plain}")
    r = client.get("/api/v1/games")
    assert r.status_code == 401 and "disabled" in r.json()["error"]["message"]


# ------------------------------------------------------------------------------------------------------- CSRF
def _csrf_session(make_user) -> tuple[APIClient, str]:
    user = make_user("alice")
    client = APIClient(enforce_csrf_checks=True)
    client.force_login(user)
    csrf = client.get("/api/v1/accounts/csrf").json()["csrf_token"]
    return client, csrf


@pytest.mark.parametrize(("method", "path", "body"), [
    ("post", "/api/v1/games", {"kind": "claim", "opponents": [{"type": "ai", "level": 1}]}),
    ("post", "/api/v1/accounts/tokens", {"name": "x", "scopes": ["games:read"]}),
    ("patch", "/api/v1/accounts/me", {"display_name": "Evil"}),
    ("post", "/api/v1/accounts/password/change",
     {"old_password": "Correct-horse-42", "new_password": "Evil-pw-123456"}),
    ("post", "/api/v1/seeks", {"kind": "claim", "rated": False}),
    ("patch", "/api/v1/notifications/preferences", {"email_digest": True}),
])
def test_session_post_without_csrf_is_403_and_with_csrf_passes(make_user, method, path, body):
    client, csrf = _csrf_session(make_user)
    r = getattr(client, method)(path, body, format="json")
    assert r.status_code == 403, (path, r.status_code, r.content[:200])
    r = getattr(client, method)(path, body, format="json", HTTP_X_CSRFTOKEN=csrf)
    assert r.status_code in (200, 201, 204), (path, r.status_code, r.content[:200])


def test_login_without_csrf_is_403(make_user):
    make_user("alice")
    client = APIClient(enforce_csrf_checks=True)
    r = client.post("/api/v1/accounts/login", {"username": "alice", "password": "Correct-horse-42"}, format="json")
    assert r.status_code == 403


# -------------------------------------------------------------------------------------------- login brute force
def test_login_brute_force_is_throttled(make_user):
    make_user("alice")
    client = APIClient()
    statuses = []
    for i in range(15):
        r = client.post("/api/v1/accounts/login", {"username": "alice", "password": f"guess-{i}"}, format="json")
        statuses.append(r.status_code)
    assert statuses[:10] == [400] * 10, statuses
    assert set(statuses[10:]) == {429}, statuses
    assert int(r.headers["Retry-After"]) > 0 and r.json()["error"]["code"] == "throttled"
    # the right password does not get through the throttle either, nor another letter case of the name
    for username in ("alice", "ALICE"):
        r = client.post("/api/v1/accounts/login", {"username": username, "password": "Correct-horse-42"},
                        format="json")
        assert r.status_code == 429, (username, r.status_code)


# ----------------------------------------------------------------------------------- every method on every path
PATHS = sorted({op.path for op in schema_operations()})


@pytest.mark.parametrize("method", ["options", "put", "head", "delete", "patch", "post", "get"])
@pytest.mark.parametrize("path", [pytest.param(p, id=p.removeprefix("/api/v1")) for p in PATHS])
def test_no_method_on_any_path_is_a_5xx(duel, path, method):
    alice, _, gid, _, _ = duel
    url = (path.replace("{game_id}", str(gid)).replace("{token_id}", "1").replace("{seek_id}", "1")
           .replace("{username}", "bob").replace("{pool}", "claim"))
    client = alice.client
    r = getattr(client, method)(url, {}, format="json") if method in ("put", "patch", "post", "delete") \
        else getattr(client, method)(url)
    assert r.status_code < 500, (method.upper(), url, r.status_code, r.content[:300])
