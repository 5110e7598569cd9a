"""Issue 22 item 6: two deployments sharing one Redis server (different database numbers, as staging and
production often do) never hear each other's socket pushes: Redis pub/sub ignores the database number, so
every channel and group name carries the deployment's CHANNEL_PREFIX (claim/settings.py)."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from urllib.parse import urlsplit, urlunsplit

import httpx
import pytest
from django.conf import settings
from websockets.asyncio.client import connect

from .servers import shared_env, start_server, wait_ready

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


def _redis_db(url: str, db: int) -> str:
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, f"/{db}", "", ""))


def _prefix(**env: str) -> str:
    code = "import django;django.setup();from django.conf import settings as s;print(s.CHANNEL_PREFIX)"
    full = {k: v for k, v in os.environ.items() if k not in {"CHANNEL_PREFIX"}}
    full.update(DJANGO_SETTINGS_MODULE="claim.settings", CLAIM_TESTING="1", **env)
    proc = subprocess.run([sys.executable, "-c", code], env=full, capture_output=True, text=True, timeout=60,
                          cwd=settings.BASE_DIR)
    assert proc.returncode == 0, proc.stderr[-1500:]
    return proc.stdout.strip()


def test_the_prefix_is_derived_from_the_configuration():
    if not os.environ.get("REDIS_URL"):
        pytest.skip("needs REDIS_URL")
    base = os.environ["REDIS_URL"]
    a = _prefix(REDIS_URL=_redis_db(base, 5), SECRET_KEY="k" * 50)
    assert a == _prefix(REDIS_URL=_redis_db(base, 5), SECRET_KEY="k" * 50)  # servers of one deployment agree
    assert a != _prefix(REDIS_URL=_redis_db(base, 6), SECRET_KEY="k" * 50)  # another Redis database
    assert a != _prefix(REDIS_URL=_redis_db(base, 5), SECRET_KEY="j" * 50)  # another deployment's key
    assert _prefix(REDIS_URL=_redis_db(base, 5), SECRET_KEY="k" * 50, CHANNEL_PREFIX="staging") == "staging"
    assert "k" * 8 not in a


@pytest.fixture
def two_deployments(transactional_db):
    env = shared_env("deployments can only leak to each other through one Redis server")
    base = env["REDIS_URL"]
    servers = []
    try:
        for db, key in ((5, "staging-secret-" + "s" * 40), (6, "production-secret-" + "p" * 40)):
            servers.append(start_server({**env, "REDIS_URL": _redis_db(base, db), "SECRET_KEY": key}))
        for server in servers:
            wait_ready(server)
        yield servers
    finally:
        for server in servers:
            server.stop()


def test_a_push_of_one_deployment_never_reaches_a_socket_of_the_other(two_deployments, make_user, make_token):
    """The same user id on both (here: the same database, so the push would be *for* the watcher): a move
    on deployment B reaches the watcher's socket on B and never the watcher's socket on A."""
    server_a, server_b = two_deployments
    alice, bob = make_user(), make_user()
    tokens = {alice.username: make_token(alice), bob.username: make_token(bob)}

    def auth(name: str) -> dict[str, str]:
        return {"Authorization": f"Bearer {tokens[name]}"}

    async def scenario() -> None:
        async with httpx.AsyncClient(timeout=10) as http:
            created = await http.post(f"{server_b.http}/api/v1/games", headers=auth(alice.username),
                                      json={"kind": "claim", "opponents": [{"type": "user", "username": bob.username}]})
            game_id = created.json()["id"]
            assert (await http.post(f"{server_b.http}/api/v1/games/{game_id}/join", headers=auth(bob.username),
                                    json={})).status_code == 201
            views = {n: (await http.get(f"{server_b.http}/api/v1/games/{game_id}", headers=auth(n))).json()
                     for n in tokens}
            mover = next(n for n, v in views.items() if v["my_turn"])
            watcher = next(n for n in tokens if n != mover)
            async with connect(f"{server_a.ws}?token={tokens[watcher]}") as on_a, \
                    connect(f"{server_b.ws}?token={tokens[watcher]}") as on_b:
                for ws in (on_a, on_b):
                    await ws.send(json.dumps({"type": "subscribe", "games": "all"}))
                    assert json.loads(await asyncio.wait_for(ws.recv(), 10))["type"] == "subscribed"
                version = views[mover]["version"]
                moved = await http.post(f"{server_b.http}/api/v1/games/{game_id}/moves", headers=auth(mover),
                                        json={"version": version, "move": views[mover]["legal_moves"][0]})
                assert moved.status_code == 201, moved.text
                got = json.loads(await asyncio.wait_for(on_b.recv(), 10))
                assert got["type"] == "game" and got["version"] == version + 1  # B's own socket heard it
                with pytest.raises(TimeoutError):
                    await asyncio.wait_for(on_a.recv(), 3)  # A's did not
                # and A's socket is alive: a move made on A reaches it
                mover_next = watcher if got["view"]["my_turn"] else mover
                view = (await http.get(f"{server_a.http}/api/v1/games/{game_id}", headers=auth(mover_next))).json()
                moved = await http.post(f"{server_a.http}/api/v1/games/{game_id}/moves", headers=auth(mover_next),
                                        json={"version": view["version"], "move": view["legal_moves"][0]})
                assert moved.status_code == 201, moved.text
                got_a = json.loads(await asyncio.wait_for(on_a.recv(), 10))
                assert got_a["type"] == "game" and got_a["version"] == view["version"] + 1

    try:
        asyncio.run(scenario())
    except BaseException:
        for server in two_deployments:
            print(f"--- uvicorn :{server.port} output ---\n{server.output()}")
        raise
