"""Fixtures of the hardening suite (issue 9): users with tokens of every kind, an API helper that runs
on-commit hooks, and the OpenAPI operations enumerated from the generated schema."""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

import pytest
from drf_spectacular.generators import SchemaGenerator

from accounts.models import ApiToken
from tests.service.conftest import Api

FULL_SCOPES = ["games:read", "games:play", "account:read", "chat:read", "chat:write", "social"]

# How hard the property-based parts work: CI keeps them small, `make stress` raises them.
STRESS = os.environ.get("CLAIM_STRESS", "") not in ("", "0")


def env_int(name: str, ci: int, stress: int) -> int:
    raw = os.environ.get(name)
    if raw:
        return int(raw)
    return stress if STRESS else ci


@dataclass(frozen=True)
class Operation:
    method: str  # upper case
    path: str  # as in the schema, e.g. /api/v1/games/{game_id}
    operation_id: str
    documented: tuple[str, ...]  # documented response codes

    @property
    def label(self) -> str:
        return f"{self.method} {self.path.removeprefix('/api/v1')}"


def schema_operations() -> list[Operation]:
    """Every operation of the generated OpenAPI schema (what /api/v1/schema/ serves)."""
    schema = SchemaGenerator().get_schema(request=None, public=True)
    ops = []
    for path, item in schema["paths"].items():
        for method, op in item.items():
            if method.lower() not in {"get", "post", "put", "patch", "delete"}:
                continue
            if op.get("x-streaming"):  # the NDJSON streams never end: tests/realtime/test_stream_schema.py
                continue
            ops.append(Operation(method.upper(), path, op["operationId"], tuple(op.get("responses", {}))))
    return sorted(ops, key=lambda o: (o.path, o.method))


@pytest.fixture(autouse=True)
def _eager_tasks(eager_tasks):
    """AI turns and the other tasks run inline (tests/conftest.py)."""


@pytest.fixture
def make_api(make_user, django_capture_on_commit_callbacks):
    def make(username: str | None = None, scopes: list[str] | None = None, is_bot: bool = False,
             user: Any = None) -> Api:
        user = user or make_user(username, is_bot=is_bot)
        _, plain = ApiToken.issue(user, "hardening", scopes if scopes is not None else FULL_SCOPES)
        return Api(user, plain, django_capture_on_commit_callbacks)

    return make
