"""Two ASGI server processes share PostgreSQL and Redis: a move posted over HTTP to server A reaches
the opponent's socket on server B (the channel layer is the only link between them)."""

from __future__ import annotations

import asyncio
import json

import httpx
import pytest
from websockets.asyncio.client import connect

from .servers import bearer, shared_env, start_claim_game, start_server, wait_ready

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def two_servers(transactional_db):
    env = shared_env("two server processes can only share events through the Redis channel layer")
    servers = []
    try:
        # Two uvicorn servers: A answers the create below, B the join; B's socket hears A's moves through Redis.
        for _ in range(2):
            servers.append(start_server(env))
        for server in servers:
            wait_ready(server)
        yield servers
    finally:
        for server in servers:
            server.stop()


def test_a_move_on_server_a_reaches_the_socket_on_server_b(two_servers, make_user, make_token):
    server_a, server_b = two_servers
    alice, bob = make_user(), make_user()
    tokens = {alice.username: make_token(alice), bob.username: make_token(bob)}

    def auth(name: str) -> dict[str, str]:
        return bearer(tokens[name])

    async def scenario() -> None:
        async with httpx.AsyncClient(timeout=10) as http:
            # A answers the create, B the join
            game_id, views = await start_claim_game(http, tokens, server_a.http, server_b.http)
            mover = next(name for name, view in views.items() if view["my_turn"])
            watcher = next(name for name in tokens if name != mover)

            async with connect(f"{server_b.ws}?token={tokens[watcher]}", origin=server_b.http) as ws:
                await ws.send(json.dumps({"type": "subscribe", "games": [game_id]}))
                ack = json.loads(await asyncio.wait_for(ws.recv(), 10))
                version = views[mover]["version"]
                assert ack == {"type": "subscribed", "games": [game_id], "versions": {str(game_id): version}}

                moved = await http.post(f"{server_a.http}/api/v1/games/{game_id}/moves", headers=auth(mover),
                                        json={"version": version, "move": views[mover]["legal_moves"][0],
                                              "client_id": "two-servers-1"})
                assert moved.status_code == 201, moved.text

                message = json.loads(await asyncio.wait_for(ws.recv(), 10))
                assert message["type"] == "game"
                assert message["game_id"] == game_id
                assert message["version"] == version + 1
                assert message["view"]["seats"][message["view"]["my_seat"]]["username"] == watcher
                current = await http.get(f"{server_b.http}/api/v1/games/{game_id}", headers=auth(watcher))
                assert message["view"] == current.json()

    try:
        asyncio.run(scenario())
    except BaseException:
        for server in two_servers:
            print(f"--- uvicorn :{server.port} output ---\n{server.output()}")
        raise
