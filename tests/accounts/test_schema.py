"""The accounts endpoints in the OpenAPI schema: complete and free of generator warnings."""

from __future__ import annotations

import pytest
from django.urls import include, path
from drf_spectacular.drainage import GENERATOR_STATS
from drf_spectacular.generators import SchemaGenerator

ENDPOINTS = {
    "csrf": {"get"},
    "register": {"post"},
    "login": {"post"},
    "logout": {"post"},
    "me": {"get", "patch"},
    "password/change": {"post"},
    "password/reset": {"post"},
    "password/reset/confirm": {"post"},
    "scopes": {"get"},
    "tokens": {"get", "post"},
    "tokens/{token_id}": {"delete"},
    "bot/upgrade": {"post"},
    "me/data": {"get"},
    "me/data/{section}": {"get"},
    "me/delete": {"post"},
    "oauth/apps": {"get"},
    "oauth/apps/{app_id}": {"delete"},
}


@pytest.fixture(scope="module")
def schema():
    GENERATOR_STATS.reset()
    generator = SchemaGenerator(patterns=[path("api/v1/accounts/", include("accounts.urls"))])
    result = generator.get_schema(request=None, public=True)
    warned = dict(GENERATOR_STATS._warn_cache), dict(GENERATOR_STATS._error_cache)
    return result, warned


def test_no_warnings_or_errors(schema):
    _, (warnings, errors) = schema
    assert not warnings and not errors, (warnings, errors)


def test_every_endpoint_is_documented(schema):
    doc, _ = schema
    paths = {p.removeprefix("/api/v1/accounts/"): set(ops) - {"parameters"} for p, ops in doc["paths"].items()}
    assert paths == ENDPOINTS
    for name, ops in paths.items():
        for method in ops:
            op = doc["paths"][f"/api/v1/accounts/{name}"][method]
            assert op.get("summary"), (name, method)
            codes = set(op["responses"])
            assert codes & {"200", "201", "204"}, (name, method)


def test_error_responses_and_retry_after(schema):
    doc, _ = schema
    login = doc["paths"]["/api/v1/accounts/login"]["post"]["responses"]
    assert login["400"]["content"]["application/json"]["schema"]["$ref"] == "#/components/schemas/ApiError"
    assert "Retry-After" in login["429"]["headers"]
    me = doc["paths"]["/api/v1/accounts/me"]["get"]
    assert {"401", "403"} <= set(me["responses"])
    assert {"tokenAuth": []} in me["security"]
    assert doc["components"]["securitySchemes"]["tokenAuth"]["scheme"] == "bearer"
    created = doc["components"]["schemas"]["TokenCreated"]["properties"]
    assert "token" in created
    assert "token" not in doc["components"]["schemas"]["Token"]["properties"]
