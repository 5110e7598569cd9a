"""Fixtures for the events socket: tokens, sessions and a communicator factory (users: tests/conftest.py)."""

from __future__ import annotations

import contextlib

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client

from accounts.models import ApiToken
from games.models import Game
from games.service import create_game, game_view_payload, join_game, make_move

ORIGIN = (b"origin", b"http://testserver")


@pytest.fixture
def asgi_app():
    # Imported lazily: AllowedHostsOriginValidator reads ALLOWED_HOSTS at import time, and
    # pytest-django adds "testserver" to it only once the test environment is set up.
    from claim.asgi import application  # noqa: PLC0415 - see above

    return application


@pytest.fixture
def make_token():
    def make(user, scopes=("games:read", "games:play")) -> str:
        _, plain = ApiToken.issue(user, "test", list(scopes))
        return plain

    return make


@pytest.fixture
def session_cookie():
    def make(user) -> tuple[bytes, bytes]:
        client = Client()
        client.force_login(user)
        value = client.cookies[settings.SESSION_COOKIE_NAME].value
        return (b"cookie", f"{settings.SESSION_COOKIE_NAME}={value}".encode())

    return make


@pytest.fixture
async def connect(asgi_app):
    """``await connect(token=…)`` / ``await connect(headers=[…])`` → (connected, close_code, communicator)."""
    opened: list[WebsocketCommunicator] = []

    async def open_socket(path: str = "/ws/", *, token: str | None = None, headers=(), origin: bool = True):
        if token:
            path = f"{path}?token={token}"
        hdrs = [*headers, ORIGIN] if origin else list(headers)
        hdrs.append((b"host", b"testserver"))  # what a browser sends: the socket's own host
        comm = WebsocketCommunicator(asgi_app, path, headers=hdrs)
        opened.append(comm)
        connected, code = await comm.connect(timeout=5)
        return connected, code, comm

    yield open_socket
    for comm in opened:
        with contextlib.suppress(Exception):
            await comm.disconnect(timeout=2)


async def receive(comm: WebsocketCommunicator, timeout: float = 5) -> dict:
    return await comm.receive_json_from(timeout=timeout)


async def assert_silent(comm: WebsocketCommunicator, timeout: float = 0.5) -> None:
    assert await comm.receive_nothing(timeout=timeout), "the socket received an unexpected message"


adb = database_sync_to_async


@pytest.fixture
def two_player_game(make_user):
    """``(game_id, alice, bob)``: an active 2-seat Claim game, alice in seat 0, bob in seat 1."""

    def make(kind: str = "claim"):
        alice, bob = make_user(), make_user()
        game = create_game(alice, kind, opponents=[{"type": "user", "username": bob.username}])
        join_game(bob, game.pk)
        return game.pk, alice, bob

    return make


def view_of(game_id: int, user) -> dict:
    """The user's own view, exactly as GET /api/v1/games/{id} builds it."""
    return game_view_payload(Game.objects.get(pk=game_id), user)


def play_one(game_id: int, *users) -> tuple[object, int]:
    """Whoever of ``users`` must act plays their first legal move; returns (mover, new version)."""
    for user in users:
        view = view_of(game_id, user)
        if view["my_turn"] and view["legal_moves"]:
            payload, applied = make_move(user, game_id, view["version"], view["legal_moves"][0])
            assert applied
            return user, payload["version"]
    raise AssertionError("nobody among the given users may move")
