"""The NDJSON streams in the served OpenAPI schema (issue 26, games/stream_schema.py): their paths are the ones
the stream views answer, and what a real stream sends (lines, errors) validates against the documented shapes."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from jsonschema import Draft202012Validator
from referencing import Registry, Resource

from games import streams
from games.challenges import service
from games.service import resign
from tests.openapi_json import json_schema

from .conftest import adb, play_one
from .test_streams import Stream

pytestmark = pytest.mark.django_db(transaction=True)


def served_schema() -> dict:
    response = Client().get("/api/v1/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert response.status_code == 200
    return json.loads(response.content)


def validator(schema: dict, ref: str) -> Draft202012Validator:
    """A JSON Schema validator for ``#/components/...`` of the OpenAPI document (refs resolved in it)."""
    registry = Registry().with_resource("urn:claim-openapi", Resource.opaque(json_schema(schema)))
    return Draft202012Validator({"$ref": "urn:claim-openapi" + ref}, registry=registry)


def event_line_checker(*types: str):
    """A check of one account-stream or socket event frame: it validates against the schema's ``StreamEventLine``
    and the component its ``type`` names (the discriminator's), after asserting ``types`` are in that mapping."""
    schema = served_schema()
    union = validator(schema, "#/components/schemas/StreamEventLine")
    mapping = schema["components"]["schemas"]["StreamEventLine"]["discriminator"]["mapping"]
    for kind in types:
        assert kind in mapping, kind

    def check(frame: dict) -> None:
        union.validate(frame)
        validator(schema, mapping[frame["type"]]).validate(frame)

    return check


def test_the_schema_documents_both_streams_as_ndjson_with_bearer_auth():
    schema = served_schema()
    events = schema["paths"][streams.EVENTS_PATH]["get"]
    game = schema["paths"]["/api/v1/games/{game_id}/stream"]["get"]
    assert streams.GAME_PATH.match("/api/v1/games/{game_id}/stream".replace("{game_id}", "7"))
    for op, line in ((events, "StreamEventLine"), (game, "StreamGameLine")):
        assert op["x-streaming"] is True and op["security"] == [{"tokenAuth": []}, {"cookieAuth": []}]  # as REST
        assert op["responses"]["200"]["content"]["application/x-ndjson"]["schema"]["$ref"].endswith(line)
        assert op["responses"]["401"]["content"]["application/json"]["schema"]["$ref"].endswith("ApiError")
    assert "404" in game["responses"]
    frame = schema["components"]["schemas"]["StreamGameFrame"]
    assert frame["properties"]["view"] == {"$ref": "#/components/schemas/GameView"}  # the REST view's component


async def test_a_real_game_stream_and_its_errors_match_the_schema(asgi_app, make_token, two_player_game):
    schema = await adb(served_schema)()
    game_id, alice, bob = await adb(two_player_game)()
    token = await adb(make_token)(alice, scopes=["games:read"])
    lines = validator(schema, "#/components/schemas/StreamGameLine")
    stream = Stream(asgi_app, f"/api/v1/games/{game_id}/stream", token)
    assert (await stream.start())["status"] == 200
    received = [await stream.line()]
    await adb(play_one)(game_id, alice, bob)
    received.append(await stream.line())
    await adb(resign)(bob, game_id)
    received.append(await stream.line())
    frames = validator(schema, "#/components/schemas/StreamGameFrame")
    for line in received:
        problems = [f"{list(e.absolute_path)}: {e.message[:200]}" for e in frames.iter_errors(line)]
        assert not problems, problems
        lines.validate(line)
    errors = validator(schema, "#/components/schemas/ApiError")
    game_template = "/api/v1/games/{game_id}/stream"
    no_read = await adb(make_token)(alice, scopes=["account:read"])
    for template, game, plain, status in ((game_template, game_id, None, 401),
                                          (game_template, game_id, "clm_nothing_x", 401),
                                          (game_template, 999999, token, 404),
                                          ("/api/v1/stream/events", None, no_read, 403)):
        refused = Stream(asgi_app, template.replace("{game_id}", str(game)), plain)
        start = await refused.start()
        assert start["status"] == status, template
        assert str(status) in schema["paths"][template]["get"]["responses"]
        body = await refused.comm.receive_output(timeout=5)
        errors.validate(json.loads(body["body"]))


async def test_a_real_event_stream_line_matches_the_schema(asgi_app, make_user, make_token):
    schema = await adb(served_schema)()
    alice, bob = await adb(make_user)(), await adb(make_user)()
    stream = Stream(asgi_app, "/api/v1/stream/events", await adb(make_token)(bob, scopes=["games:read"]))
    assert (await stream.start())["status"] == 200
    await adb(service.create)(alice, to=bob.username, kind="claim")
    validator(schema, "#/components/schemas/StreamEventLine").validate(await stream.line())
    await stream.close()
