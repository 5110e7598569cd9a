"""The API says what it does (issue 34): the OpenAPI schema and docs/api.md against the server's behaviour.

Each test names the finding it covers: an accepted challenge's game reaches both players already active; public
operations are marked public (and only they); no reST markup in descriptions; one integer type for ids in paths
and bodies; ``seats`` bounded by what the kinds take; the seek's ``rated`` default the same as the game's and the
challenge's; the OAuth scheme and endpoints.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser
from drf_spectacular.generators import SchemaGenerator
from drf_spectacular.renderers import OpenApiYamlRenderer
from drf_spectacular.validation import validate_schema
from rest_framework.request import Request
from rest_framework.test import APIClient, APIRequestFactory

from accounts.models import ApiToken, User
from games.api.serializers import MAX_SEATS, MIN_SEATS
from games.models import Seat
from games.notify.models import Notification
from games.rules.registry import GAMES
from tests.realtime.conftest import adb, asgi_app, connect, receive  # noqa: F401 - the socket fixtures

METHODS = ("get", "post", "put", "patch", "delete")


@pytest.fixture(scope="module")
def generated() -> tuple[dict[str, Any], dict[tuple[str, str], Any]]:
    """The schema /api/v1/schema/ serves, and the view class of each ``(path, method)``."""
    generator = SchemaGenerator()
    schema = generator.get_schema(request=None, public=True)
    views = {(path, method.lower()): callback.cls for path, _regex, method, callback in generator.endpoints}
    return schema, views


def operations(schema: dict[str, Any]):
    for path, item in schema["paths"].items():
        for method, op in item.items():
            if method in METHODS:
                yield path, method, op


# --- 1. an accepted challenge's game is active from its first version, for both players ------------------------

def _token_client(user) -> APIClient:

    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Bearer " + ApiToken.issue(user, "t", ["games:read", "games:play"])[1])
    return client


def _users_and_tokens():

    users = [User.objects.create_user(username=name, password="not-used-pw-123") for name in ("ada", "bob")]
    return users, [ApiToken.issue(u, "socket", ["games:read", "games:play"])[1] for u in users]


@pytest.mark.django_db(transaction=True)
async def test_an_accepted_challenge_reaches_both_players_active_never_open(connect, settings):  # noqa: F811
    settings.TASK_MODE = "eager"
    (ada, bob), plains = await adb(_users_and_tokens)()
    sockets = []
    for plain in plains:
        connected, _, comm = await connect(token=plain)
        assert connected
        await comm.send_json_to({"type": "subscribe", "games": "all"})  # every game, also one made later
        assert (await receive(comm))["type"] == "subscribed"
        sockets.append(comm)

    made = await adb(lambda: _token_client(ada).post("/api/v1/challenges", {"to": "bob", "kind": "claim",
                                                                            "days_per_move": 3}, format="json"))()
    assert made.status_code == 201, made.content
    for comm in sockets:
        assert (await receive(comm))["type"] in ("challenge_created", "challenge_received")
    accepted = await adb(lambda: _token_client(bob).post(f"/api/v1/challenges/{made.json()['id']}/accept"))()
    assert accepted.status_code == 200, accepted.content
    game_id = accepted.json()["game_id"]

    for comm in sockets:
        frames: list[dict] = []
        while not {"challenge_accepted", "game_started", "game"} <= {f["type"] for f in frames}:
            frames.append(await receive(comm))
        assert await comm.receive_nothing(timeout=0.3)
        games = [f for f in frames if f["type"] == "game"]
        assert [(f["game_id"], f["version"], f["view"]["status"]) for f in games] == [(game_id, 1, "active")]
        started = next(f for f in frames if f["type"] == "game_started")
        assert started["game"]["status"] == "active" and started["game"]["version"] == 1

    def history() -> list[dict]:
        return _token_client(ada).get(f"/api/v1/games/{game_id}/history").json()["results"]

    entries = await adb(history)()
    assert [e["type"] for e in entries] == ["created"]
    assert [e["type"] for e in entries[0]["events"]] == ["created", "joined", "started"]


@pytest.mark.django_db
def test_whoever_moves_first_after_an_accepted_challenge_is_told_it_is_their_turn(alice, bob):
    """The game starts in its ``created`` version, made by the player who accepted: the challenger, who made the
    challenge long before, hears of the turn as after a join; the one who just accepted is not told (docs: a join)."""

    seen = set()
    for attempt in range(24):  # who leads is the deal's: until both players have led once
        made = alice.post("/api/v1/challenges", {"to": "bob", "kind": "claim", "days_per_move": 3,
                                                 "seat": attempt % 2})
        assert made.status_code == 201, made.content
        game_id = bob.post(f"/api/v1/challenges/{made.json()['id']}/accept").json()["game_id"]
        first = Seat.objects.get(game_id=game_id, to_act=True).user.username
        told = list(Notification.objects.filter(game_id=game_id, event="your_turn")
                    .values_list("user__username", flat=True))
        assert told == ([] if first == "bob" else ["alice"]), (first, told)
        seen.add(first)
        if seen == {"alice", "bob"}:
            break
    assert seen == {"alice", "bob"}


# --- 4. public operations are marked public, and only they --------------------------------------------------------

def _anonymous_passes(view_class: Any, path: str, method: str) -> bool:
    """Whether the view's permissions let a request without credentials through (what DRF checks first)."""
    request = Request(getattr(APIRequestFactory(), method)(path))
    request.user, request.auth = AnonymousUser(), None
    view = view_class()
    view.request, view.args, view.kwargs, view.format_kwarg = request, (), {}, None
    return all(permission.has_permission(request, view) for permission in view.get_permissions())


def test_an_operation_is_public_in_the_schema_exactly_when_it_needs_no_credentials(generated):
    schema, views = generated
    wrong, public = [], []
    for path, method, op in operations(schema):
        view = views.get((path, method))
        if view is None:  # the NDJSON streams and DOT's /o/ views: checked below and in test_stream_schema.py
            continue
        anonymous = _anonymous_passes(view, path, method)
        marked = {} in (op.get("security") or [])
        if anonymous != marked:
            wrong.append(f"{method.upper()} {path}: anonymous {'passes' if anonymous else 'refused'}, "
                         f"security {op.get('security')}")
        if anonymous:
            public.append(f"{method.upper()} {path}")
    assert not wrong, wrong
    for must in ("GET /api/v1/games/{game_id}", "GET /api/v1/games/{game_id}/record", "GET /api/v1/accounts/scopes",
                 "GET /api/v1/invitations/{code}", "GET /api/v1/users/{username}/games", "POST /api/v1/accounts/login",
                 "GET /api/v1/games/{game_id}/watch", "GET /api/v1/watch"):
        assert must in public, must
    assert "GET /api/v1/games" not in public


@pytest.mark.django_db
def test_a_public_read_answers_without_credentials(alice, api_client):
    game = alice.create(kind="claim", opponents=[{"type": "ai", "level": 1}])
    assert alice.post(f"/api/v1/games/{game['id']}/resign").status_code == 200
    for path in ("", "/history", "/record"):
        assert api_client.get(f"/api/v1/games/{game['id']}{path}").status_code == 200, path
    assert api_client.get("/api/v1/games").status_code == 401


# --- 6. no reST markup in descriptions ----------------------------------------------------------------------------

def test_no_rest_markup_in_the_schema(generated):

    text = OpenApiYamlRenderer().render(generated[0]).decode()
    assert "``" not in text
    roles = re.findall(r":(?:class|func|meth|mod|data|attr|exc|ref):`", text)
    assert not roles, roles


# --- 7. one integer type for ids ------------------------------------------------------------------------------------

ID_PARAMS = {"game_id", "seek_id", "period_id", "token_id", "app_id"}


def _properties(node: Any, trail: str = ""):
    if isinstance(node, dict):
        for name, sub in (node.get("properties") or {}).items():
            yield f"{trail}.{name}", name, sub
        for key, sub in node.items():
            yield from _properties(sub, f"{trail}.{key}" if key != "properties" else trail)
    elif isinstance(node, list):
        for sub in node:
            yield from _properties(sub, trail)


def test_game_ids_are_integers_in_paths_and_bodies(generated):
    schema = generated[0]
    seen = set()
    for path, method, op in operations(schema):
        for param in op.get("parameters", []) + schema["paths"][path].get("parameters", []):
            if param["in"] == "path" and param["name"] in ID_PARAMS:
                seen.add(param["name"])
                assert param["schema"]["type"] == "integer", (method, path, param)
                assert param["schema"].get("minimum") == 1, (method, path, param)
    assert {"game_id", "seek_id", "period_id", "token_id", "app_id"} <= seen
    bodies = 0
    for component, node in schema["components"]["schemas"].items():
        for trail, name, prop in _properties(node, component):
            if name in ("game_id", "rematch_of") or (name == "game" and "Read" in component):
                bodies += 1
                assert prop.get("type") == "integer", (trail, prop)
    assert bodies >= 8


# --- 5. seats bounded by what the kinds take ------------------------------------------------------------------------

def test_every_seats_in_a_request_body_is_bounded_by_the_kinds(generated):
    kinds = (min(g.info.min_seats for g in GAMES.values()), max(g.info.max_seats for g in GAMES.values()))
    assert kinds == (MIN_SEATS, MAX_SEATS)
    schema = generated[0]
    requests = {name: node for name, node in schema["components"]["schemas"].items() if name.endswith("Request")}
    counted = 0
    for component, node in requests.items():
        for trail, name, prop in _properties(node, component):
            if name == "seats" and prop.get("type") == "integer":
                counted += 1
                assert (prop.get("minimum"), prop.get("maximum")) == (MIN_SEATS, MAX_SEATS), trail
            elif name == "seats" and prop.get("type") == "array":
                counted += 1
                assert prop.get("maxItems") == MAX_SEATS - 1, trail
            elif name in ("seat", "index") and prop.get("type") == "integer":
                assert prop.get("maximum", MAX_SEATS - 1) <= MAX_SEATS - 1, trail
    assert counted >= 4  # games, seeks, quick pairing, filling with the AI
    assert "seats" not in requests["ChallengeCreateRequest"]["properties"]  # a challenge is two seats


@pytest.mark.parametrize(("path", "body"), [
    ("/api/v1/games", {"kind": "inheritors", "seats": MAX_SEATS + 1}),
    ("/api/v1/games", {"kind": "claim", "seats": MIN_SEATS - 1}),
    ("/api/v1/games", {"kind": "claim", "seats": 3}),  # in the schema's bounds, not Claim's
    ("/api/v1/seeks", {"kind": "inheritors", "seats": MAX_SEATS + 1}),
    ("/api/v1/seeks/quick", {"kind": "claim", "seats": 4}),
    ("/api/v1/challenges", {"kind": "claim", "seats": 3}),
    ("/api/v1/games", {"kind": "claim", "seat": MAX_SEATS}),
])
@pytest.mark.django_db
def test_seats_out_of_range_is_a_clear_400(alice, path, body):
    answer = alice.post(path, body)
    assert answer.status_code == 400, answer.content
    error = answer.json()["error"]
    field = "seat" if "seat" in body else "seats"
    if error["code"] == "invalid_options":  # the engine's own words on its number of players (docs/api.md)
        assert "2 players" in error["message"], error
    else:
        assert error["code"] == "invalid" and error["fields"][field][0], error


@pytest.mark.django_db
def test_filling_more_seats_than_any_kind_has_is_a_400(alice):
    game = alice.create(kind="inheritors", seats=4)
    answer = alice.post(f"/api/v1/games/{game['id']}/fill",
                        {"seats": [{"index": i, "level": 1} for i in range(1, MAX_SEATS + 1)]})
    assert answer.status_code == 400 and "seats" in answer.json()["error"]["fields"], answer.content


# --- 8. rated: the same default everywhere, in the schema and on the server -----------------------------------------

def test_the_rated_default_is_false_in_every_create_body(generated):
    comps = generated[0]["components"]["schemas"]
    for name in ("CreateGameRequest", "ChallengeCreateRequest", "SeekRequest", "QuickRequest"):
        assert comps[name]["properties"]["rated"].get("default") is False, name


@pytest.mark.django_db
def test_a_seek_without_rated_is_unrated_like_a_game_and_a_challenge(alice, bob):
    seek = alice.post("/api/v1/seeks", {"kind": "claim", "days_per_move": 3})
    assert seek.status_code == 201 and seek.json()["rated"] is False, seek.content
    quick = bob.post("/api/v1/seeks/quick", {"kind": "claim", "days_per_move": 5})
    assert quick.status_code == 201 and quick.json()["rated"] is False, quick.content
    game = alice.create(kind="claim", days_per_move=3)
    assert game["rated"] is False
    challenge = alice.post("/api/v1/challenges", {"kind": "claim", "days_per_move": 3})
    assert challenge.status_code == 201 and challenge.json()["rated"] is False


# --- 2. OAuth in the schema ----------------------------------------------------------------------------------------

def test_the_oauth_scheme_and_endpoints_are_in_the_schema(generated):
    schema = generated[0]
    scheme = schema["components"]["securitySchemes"]["oauth2"]
    flow = scheme["flows"]["authorizationCode"]
    assert (flow["authorizationUrl"], flow["tokenUrl"], flow["refreshUrl"]) == ("/o/authorize/", "/o/token/",
                                                                                "/o/token/")
    assert set(flow["scopes"]) == {"games:read", "games:play", "bot:play", "account:read", "chat:read", "chat:write",
                                   "social"}
    assert "PKCE" in scheme["description"] and "S256" in scheme["description"]
    moves = schema["paths"]["/api/v1/games/{game_id}/moves"]["post"]["security"]
    assert {"oauth2": ["games:play"]} in moves and {"tokenAuth": []} in moves and {} not in moves
    token = schema["paths"]["/o/token/"]["post"]
    body = token["requestBody"]["content"]["application/x-www-form-urlencoded"]["schema"]["$ref"]
    assert body.endswith("/OAuthTokenRequest") and token["security"] == [{}]
    assert {"200", "400", "401"} <= set(token["responses"])
    assert "reuse" in token["description"]
    revoke = schema["paths"]["/o/revoke_token/"]["post"]
    assert "refresh token" in revoke["description"] and revoke["security"] == [{}]


def test_the_schema_is_valid_with_the_oauth_additions(generated):

    validate_schema(generated[0])
