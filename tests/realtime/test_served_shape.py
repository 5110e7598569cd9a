"""The production shape (docker/compose.yml) as real processes: Caddy with docker/Caddyfile in front of
gunicorn (Django's HTTP, claim/wsgi.py) and uvicorn (sockets and NDJSON streams, claim/asgi.py).

A move posted through the proxy is answered by a gunicorn thread; the opponent's socket and NDJSON stream,
opened through the same proxy on uvicorn, both get the new version: the Redis channel layer is the only
link between the two servers, and the proxy's routes must send each path to the server that serves it.
"""

from __future__ import annotations

import asyncio
import json

import httpx
import pytest
from websockets.asyncio.client import connect

from .servers import bearer, first_line, start_claim_game

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


def test_a_move_through_the_proxy_reaches_the_socket_and_the_stream(served, make_user, make_token):
    alice, bob = make_user(), make_user()
    tokens = {alice.username: make_token(alice), bob.username: make_token(bob)}

    def auth(name: str) -> dict[str, str]:
        return bearer(tokens[name])

    async def scenario() -> None:
        async with httpx.AsyncClient(base_url=served.http, timeout=10) as http:
            game_id, views = await start_claim_game(http, tokens, "", "")
            mover = next(name for name, view in views.items() if view["my_turn"])
            watcher = next(name for name in tokens if name != mover)
            version = views[mover]["version"]

            async with connect(f"{served.ws}?token={tokens[watcher]}", origin=served.http) as ws, \
                    http.stream("GET", f"/api/v1/games/{game_id}/stream", headers=auth(watcher)) as stream:
                assert stream.status_code == 200
                assert stream.headers["content-type"] == "application/x-ndjson"
                lines = stream.aiter_lines()
                first = await asyncio.wait_for(first_line(lines), 10)
                assert (first["type"], first["version"]) == ("game", version)
                await ws.send(json.dumps({"type": "subscribe", "games": [game_id]}))
                ack = json.loads(await asyncio.wait_for(ws.recv(), 10))
                assert ack == {"type": "subscribed", "games": [game_id], "versions": {str(game_id): version}}

                moved = await http.post(f"/api/v1/games/{game_id}/moves", headers=auth(mover),
                                        json={"version": version, "move": views[mover]["legal_moves"][0],
                                              "client_id": "served-shape-1"})
                assert moved.status_code == 201, moved.text

                pushed = json.loads(await asyncio.wait_for(ws.recv(), 10))
                streamed = await asyncio.wait_for(first_line(lines), 10)
                current = (await http.get(f"/api/v1/games/{game_id}", headers=auth(watcher))).json()
                for frame in (pushed, streamed):
                    assert (frame["type"], frame["game_id"], frame["version"]) == ("game", game_id, version + 1)
                    assert frame["view"] == current

    try:
        asyncio.run(scenario())
    except BaseException:
        print(served.output())
        raise
    # Caddy logs a stream the client closed, as this test closes it, as "aborting with incomplete response"
    # at level error: the only such line allowed.
    log = "\n".join(line for line in served.output().splitlines() if "aborting with incomplete response" not in line)
    assert "Traceback" not in log and " ERROR " not in log and '"level":"error"' not in log, log[-3000:]
