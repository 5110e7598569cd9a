"""The spectators' feed in the production shape (docker/compose.yml as real processes: Caddy with docker/Caddyfile
in front of gunicorn and uvicorn): a move answered by gunicorn reaches a spectator's socket and an anonymous watch
stream opened through the proxy on uvicorn (the Redis channel layer between them), as the same
``spectator_game`` frame, and gunicorn's ``GET`` of the watch stream path never happens (the proxy's route)."""

from __future__ import annotations

import asyncio
import json

import httpx
import pytest
from websockets.asyncio.client import connect

from games.models import Game
from tests.realtime.servers import bearer, first_line, start_claim_game

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


def test_a_move_through_the_proxy_reaches_a_spectator_socket_and_watch_stream(served, make_user, make_token):
    alice, bob, sam = make_user(), make_user(), make_user()
    tokens = {alice.username: make_token(alice), bob.username: make_token(bob)}
    sam_token = make_token(sam)

    async def scenario() -> None:
        async with httpx.AsyncClient(base_url=served.http, timeout=10) as http:
            game_id, views = await start_claim_game(http, tokens, "", "")
            await asyncio.to_thread(lambda: Game.objects.filter(pk=game_id).update(watchable=True))
            mover = next(name for name, view in views.items() if view["my_turn"])
            version = views[mover]["version"]
            async with connect(f"{served.ws}?token={sam_token}", origin=served.http) as ws, \
                    http.stream("GET", f"/api/v1/games/{game_id}/watch/stream") as stream:
                assert stream.status_code == 200 and stream.headers["content-type"] == "application/x-ndjson"
                lines = stream.aiter_lines()
                first = await asyncio.wait_for(first_line(lines), 10)
                assert (first["type"], first["version"]) == ("spectator_game", version)
                await ws.send(json.dumps({"type": "watch", "game_id": game_id}))
                assert json.loads(await asyncio.wait_for(ws.recv(), 10))["type"] == "watching"
                assert json.loads(await asyncio.wait_for(ws.recv(), 10))["version"] == version
                moved = await http.post(f"/api/v1/games/{game_id}/moves", headers=bearer(tokens[mover]),
                                        json={"version": version, "move": views[mover]["legal_moves"][0]})
                assert moved.status_code == 201, moved.text
                pushed = json.loads(await asyncio.wait_for(ws.recv(), 10))
                streamed = await asyncio.wait_for(first_line(lines), 10)
                assert pushed == streamed
                assert (pushed["type"], pushed["version"]) == ("spectator_game", version + 1)
                assert pushed["game"]["spectators"] == 2

    try:
        asyncio.run(scenario())
    except BaseException:
        print(served.output())
        raise
    log = "\n".join(line for line in served.output().splitlines() if "aborting with incomplete response" not in line)
    assert "Traceback" not in log and " ERROR " not in log and '"level":"error"' not in log, log[-3000:]
