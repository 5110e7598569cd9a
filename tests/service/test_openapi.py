"""Every game endpoint is in the OpenAPI schema, with examples and its error responses."""

from __future__ import annotations

import pytest
from drf_spectacular.generators import SchemaGenerator
from drf_spectacular.validation import validate_schema

ENDPOINTS = {
    ("/api/v1/games", "get"): {"200", "400", "401", "403", "429"},
    ("/api/v1/games", "post"): {"201", "400", "401", "403", "429"},
    ("/api/v1/games/join", "post"): {"200", "201", "400", "404", "409"},
    ("/api/v1/games/{game_id}", "get"): {"200", "401", "403", "404"},
    ("/api/v1/games/{game_id}/join", "post"): {"200", "201", "404", "409"},
    ("/api/v1/games/{game_id}/moves", "post"): {"200", "201", "400", "401", "403", "404", "409", "429"},
    ("/api/v1/games/{game_id}/resign", "post"): {"200", "403", "404", "409"},
    ("/api/v1/games/{game_id}/abort", "post"): {"200", "403", "404", "409"},
    ("/api/v1/games/{game_id}/rematch", "post"): {"200", "201", "202", "403", "404", "409"},
    ("/api/v1/games/{game_id}/history", "get"): {"200", "400", "404"},
    ("/api/v1/games/{game_id}/record", "get"): {"200", "404", "409"},
    ("/api/v1/games/{game_id}/replay", "get"): {"200", "400", "404", "409"},
    ("/api/v1/invitations/{code}", "get"): {"200", "403", "404", "429"},
}


@pytest.fixture(scope="module")
def schema():
    return SchemaGenerator().get_schema(request=None, public=True)


def test_schema_is_valid(schema):
    validate_schema(schema)


@pytest.mark.parametrize(("path", "method"), sorted(ENDPOINTS))
def test_endpoint_documented_with_errors(schema, path, method):
    op = schema["paths"][path][method]
    assert op.get("description") and op.get("summary")
    assert ENDPOINTS[(path, method)] <= set(op["responses"]), set(op["responses"])
    for code, response in op["responses"].items():
        if code.startswith(("4", "5")):
            ref = response["content"]["application/json"]["schema"]["$ref"]
            assert ref.endswith("/GameError") and response["content"]["application/json"].get("examples")
    if method == "post" and path in ("/api/v1/games", "/api/v1/games/{game_id}/moves", "/api/v1/games/join"):
        assert op["requestBody"]["content"]["application/json"].get("examples")


def test_the_rematch_offer_is_typed_in_the_view_the_challenge_and_the_event_stream(schema):
    comps = schema["components"]["schemas"]
    offer = comps["RematchOffer"]
    assert {"kind", "id", "by", "status", "game_id", "declined_by", "joined", "links"} <= set(offer["required"])
    assert comps["GameView"]["properties"]["rematch_offer"]["allOf"][0]["$ref"].endswith("/RematchOffer")
    assert "rematch_of" in comps["Challenge"]["properties"]
    line = comps["StreamEventLine"]["oneOf"]
    assert {"$ref": "#/components/schemas/StreamRematchOffer"} in line
    event = comps["StreamRematchOffer"]
    assert event["properties"]["type"]["enum"] == ["rematch_offer"]
    assert event["properties"]["rematch_offer"]["$ref"].endswith("/RematchOffer")
