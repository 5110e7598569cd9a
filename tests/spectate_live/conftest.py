"""Fixtures of the spectators' live feed tests: the socket helpers of tests/realtime, a watchable game."""

from __future__ import annotations

import pytest

from games.models import Game
from tests.realtime.conftest import (  # noqa: F401 — fixtures used here
    adb,
    asgi_app,
    connect,
    make_token,
    receive,
    session_cookie,
    two_player_game,
)


@pytest.fixture
def watchable_game(two_player_game):  # noqa: F811
    """``(game_id, alice, bob)``: an active, watchable 2-seat Claim game."""

    def make(kind: str = "claim"):
        game_id, alice, bob = two_player_game(kind)
        Game.objects.filter(pk=game_id).update(watchable=True)
        return game_id, alice, bob

    return make


async def socket_of(connect, make_token, user):  # noqa: F811
    """An open events socket of ``user`` (a games:read token)."""
    plain = await adb(make_token)(user)
    connected, _, comm = await connect(token=plain)
    assert connected
    return comm


async def next_frame(comm, *skip: str, timeout: float = 5) -> dict:
    """The next frame, skipping the in-app ``notification`` frames and those of the types ``skip``."""
    while True:
        frame = await receive(comm, timeout)
        if frame["type"] != "notification" and frame["type"] not in skip:
            return frame
