"""Issue 22 items 1 and 5, "Must show": every input that gave an HTML 500 (or a debug page with the engine
state) now gets a clear 4xx JSON error, in both ways the app is started, as real server processes:

* **embedded**, as ``make run`` starts it (``CLAIM_EMBEDDED=1``, SQLite in a fresh var dir, in-memory layer,
  in-process tasks and beat; ``scripts/run.sh``'s uvicorn);
* **production**: its settings (``claim.settings``: DEBUG off, PostgreSQL, Redis, ``BEHIND_PROXY``) and its
  processes: gunicorn (Django's HTTP) and uvicorn (sockets) behind Caddy with ``docker/Caddyfile``
  (plain HTTP here, so without the HTTPS redirect).

Each bad input is sent with ``Accept: text/html`` and with ``Accept: application/json``; the answer must
be a 4xx in the API's JSON error shape, with no traceback, no HTML page and no engine state, and the
server's log must hold no traceback. Rate limits are raised (``THROTTLE_*``) so that every input is
answered on its own merits rather than with 429.
"""

from __future__ import annotations

import asyncio
import json
import os
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from django.db import connection
from websockets.asyncio.client import connect

from tests.realtime.servers import ROOT, UNLIMITED, Server, database_url, start_served, start_server, wait_ready

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

ACCEPTS = ("text/html", "application/json")
CLAMPED = {"huge limit on /games", "huge limit on history"}
DEEP = "[" * 5000 + "]" * 5000
STATE_WORDS = ("Traceback", 'File "/', "<html", "<!DOCTYPE", "SECRET_KEY", "\"deck\"", "\"seed\"", "hands")
THROTTLES = {name: UNLIMITED for name in ("THROTTLE_ANON", "THROTTLE_USER", "THROTTLE_LOGIN", "THROTTLE_REGISTER",
                                          "THROTTLE_PASSWORD_RESET", "THROTTLE_MOVES", "THROTTLE_GAMES_CREATE",
                                          "THROTTLE_CLOCK")}
SETUP = """
from accounts.models import ApiToken, User
from games.service import create_game, join_game
a = User.objects.create_user(username="alice", password="Correct-horse-42", email="alice@example.org")
b = User.objects.create_user(username="bob", password="Correct-horse-42")
g = create_game(a, "inheritors", opponents=[{"type": "user", "username": "bob"}])
join_game(b, g.pk)
scopes = ["games:read", "games:play", "account:read"]
print(json.dumps({"alice": ApiToken.issue(a, "t", scopes)[1], "bob": ApiToken.issue(b, "t", scopes)[1], "game": g.pk}))
"""


def _base_env() -> dict[str, str]:
    drop = {"DATABASE_URL", "REDIS_URL", "CELERY_BROKER_URL", "CELERY_RESULT_BACKEND", "CLAIM_TESTING", "DEBUG",
            "CLAIM_EMBEDDED", "CLAIM_TASK_MODE", "DJANGO_SETTINGS_MODULE", "SECRET_KEY"}
    return {k: v for k, v in os.environ.items() if k not in drop and not k.startswith("PYTEST")}


def _manage(env: dict[str, str], *args: str) -> str:
    proc = subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return proc.stdout


def mode_env(mode: str, tmp_path: Path, **extra: str) -> dict[str, str]:
    """A server's environment in one start mode, with ``extra`` added: ``embedded`` is scripts/run.sh's (SQLite
    in a fresh var dir, migrated; in-process tasks and beat), ``production`` the served settings on the test's
    PostgreSQL and Redis behind a proxy (skipped without them)."""
    env = _base_env()
    env.update(DJANGO_SETTINGS_MODULE="claim.settings", **extra)
    if mode == "embedded":
        env.update(CLAIM_EMBEDDED="1", CLAIM_EMBEDDED_BEAT="1", CLAIM_VAR_DIR=str(tmp_path / "var"))
        _manage(env, "migrate", "--noinput", "-v", "0")
        return env

    if connection.vendor != "postgresql" or not os.environ.get("REDIS_URL"):
        pytest.skip("production settings need PostgreSQL and Redis")
    env.update(DATABASE_URL=database_url(connection.settings_dict), REDIS_URL=os.environ["REDIS_URL"],
               SECRET_KEY="production-" + "x" * 50, DB_POOL="0", ALLOWED_HOSTS="127.0.0.1", BEHIND_PROXY="1",
               CLAIM_TASK_MODE="thread", SECURE_SSL_REDIRECT="0")
    return env


@pytest.fixture(params=["embedded", "production"])
def mode(request, tmp_path: Path) -> Iterator[dict[str, Any]]:
    env = mode_env(request.param, tmp_path, **THROTTLES)
    headers: dict[str, str] = {}
    world = json.loads(_manage(env, "shell", "-c", "import json\n" + SETUP).strip().splitlines()[-1])
    server = start_served(env) if request.param == "production" else start_server(env)
    try:
        wait_ready(server)
        yield {"name": request.param, "server": server, "headers": headers, "world": world,
               "origin": f"http://127.0.0.1:{server.port}"}
    finally:
        server.stop()


def _csrf(client: httpx.Client, mode: dict[str, Any]) -> dict[str, str]:
    r = client.get("/api/v1/accounts/csrf", headers=mode["headers"])
    assert r.status_code == 200, r.text
    cookie = r.cookies.get("csrftoken") or client.cookies.get("csrftoken")  # Secure in production: sent by hand
    return {"X-CSRFToken": r.json()["csrf_token"], "Origin": mode["origin"], "Referer": mode["origin"] + "/",
            "Cookie": f"csrftoken={cookie}"}


def _bad_inputs(mode: dict[str, Any], client: httpx.Client) -> list[tuple[str, str, str, Any, dict[str, str]]]:
    """(label, method, path, raw body or None, extra headers)."""
    w = mode["world"]
    alice = {"Authorization": f"Bearer {w['alice']}"}
    csrf = _csrf(client, mode)
    gid = w["game"]
    views = {n: client.get(f"/api/v1/games/{gid}", headers={**mode["headers"], "Authorization": f"Bearer {w[n]}"})
             .json() for n in ("alice", "bob")}
    mover = next(n for n in views if views[n]["my_turn"])
    legal, version = views[mover]["legal_moves"][0], views[mover]["version"]
    as_mover = {"Authorization": f"Bearer {w[mover]}"}
    deep_move = json.dumps({"version": version, "move": {**legal, "x": json.loads("[" * 600 + "]" * 600)}})
    items = [
        ("nested JSON on register", "POST", "/api/v1/accounts/register", DEEP, csrf),
        ("nested JSON on login", "POST", "/api/v1/accounts/login", DEEP, csrf),
        ("nested JSON on password reset", "POST", "/api/v1/accounts/password/reset", DEEP, csrf),
        ("nested JSON on reset confirm", "POST", "/api/v1/accounts/password/reset/confirm", DEEP, csrf),
        ("NUL in login", "POST", "/api/v1/accounts/login", '{"username": "al\\u0000ice", "password": "x"}', csrf),
        ("lone surrogate in login", "POST", "/api/v1/accounts/login", '{"username": "\\ud800", "password": "x"}',
         csrf),
        ("NUL in reset e-mail", "POST", "/api/v1/accounts/password/reset", '{"email": "a\\u0000@example.org"}',
         csrf),
        ("NUL in time_zone", "POST", "/api/v1/accounts/register",
         '{"username": "dave", "password": "Correct-horse-42", "time_zone": "Europe/Pra\\u0000gue"}', csrf),
        ("e-mail over 254 characters", "POST", "/api/v1/accounts/register",
         json.dumps({"username": "carol", "password": "Correct-horse-42", "email": "a" * 250 + "@example.org"}),
         csrf),
        ("huge limit on /games", "GET", "/api/v1/games?limit=67382452360409202688", None, alice),
        ("huge offset on /games", "GET", "/api/v1/games?offset=67382452360409202688", None, alice),
        ("huge limit on history", "GET", f"/api/v1/games/{gid}/history?limit=67382452360409202688", None, alice),
        ("NUL in ratings lookup", "GET", "/api/v1/ratings/users/%00", None, alice),
        ("bad Inheritors options", "POST", "/api/v1/games",
         json.dumps({"kind": "inheritors", "options": {"clans": ["wolf"]},
                     "opponents": [{"type": "ai", "level": 1}]}), alice),
        ("NUL in an Inheritors move key", "POST", f"/api/v1/games/{gid}/moves",
         '{"version": VERSION, "move": {"action\\u0000": "play"}}'.replace("VERSION", str(version)), as_mover),
        ("lone surrogate in an Inheritors move", "POST", f"/api/v1/games/{gid}/moves",
         '{"version": VERSION, "move": {"claim_clan": "\\udc00"}}'.replace("VERSION", str(version)), as_mover),
        ("legal move with a deep extra key", "POST", f"/api/v1/games/{gid}/moves", deep_move, as_mover),
        ("legal move with an extra key", "POST", f"/api/v1/games/{gid}/moves",
         json.dumps({"version": version, "move": {**legal, "x": [[1]]}}), as_mover),
        ("ids past 64 bits to mark read", "POST", "/api/v1/notifications/read", json.dumps({"ids": [2**64]}), alice),
        ("ids below 64 bits to mark read", "POST", "/api/v1/notifications/read", json.dumps({"ids": [-2**64]}),
         alice),
    ]
    return items


def test_each_bad_input_is_a_clear_4xx_json_error_in_both_modes(mode):
    server: Server = mode["server"]
    answers = []
    with httpx.Client(base_url=server.http, timeout=20) as client:
        for label, method, path, body, extra in _bad_inputs(mode, client):
            for accept in ACCEPTS:
                headers = {**mode["headers"], **extra, "Accept": accept}
                if body is not None:
                    headers["Content-Type"] = "application/json"
                r = client.request(method, path, content=body, headers=headers)
                answers.append((label, accept, r.status_code))
                assert r.headers["content-type"].startswith("application/json"), (mode["name"], label, accept)
                if label in CLAMPED:  # a page of at most MAX_LIMIT rows (claim/pagination.py), not an error
                    assert r.status_code == 200 and len(r.json()["results"]) <= 200, (label, r.status_code)
                    continue
                assert r.status_code == 400, (mode["name"], label, accept, r.status_code, r.text[:500])
                error = r.json()["error"]
                assert error["code"] and error["message"], (label, r.text[:300])
                for word in STATE_WORDS:
                    assert word not in r.text, (mode["name"], label, accept, word, r.text[:500])
        # an id past what a database column holds names no game: 404 on every route of a game (SQLite: no
        # OverflowError)
        alice = {**mode["headers"], "Authorization": f"Bearer {mode['world']['alice']}"}
        for path in ("", "/moves", "/join", "/resign", "/abort", "/rematch", "/history", "/record", "/clock"):
            method = "GET" if path in ("", "/history", "/record", "/clock") else "POST"
            r = client.request(method, f"/api/v1/games/{2**63}{path}", json={}, headers=alice)
            assert r.status_code == 404 and r.json()["error"]["code"] == "not_found", (path, r.status_code, r.text)
        # the socket's address asked for by plain HTTP: what it is, in JSON
        r = client.get("/ws/", headers={**mode["headers"], "Accept": "text/html"})
        assert r.status_code == 404 and "WebSocket" in r.json()["error"]["message"], (r.status_code, r.text[:300])
        # outside the API: a plain page, never a debug page
        for path in ("/%00", "/admin/login/?next=%00"):
            for accept in ACCEPTS:
                r = client.get(path, headers={**mode["headers"], "Accept": accept})
                assert 400 <= r.status_code < 500 and "Traceback" not in r.text, (path, r.status_code, r.text[:300])
    log = server.output()
    assert "Traceback" not in log and " ERROR " not in log, log[-3000:]
    print(f"{mode['name']}: {len(answers)} answers, statuses {sorted({a[2] for a in answers})}"
          f"({sum(1 for a in answers if a[2] == 200)} clamped pages)")


def test_nested_json_and_ids_past_64_bits_on_the_socket_are_error_frames_in_both_modes(mode):
    server: Server = mode["server"]

    async def scenario() -> None:
        async with connect(f"{server.ws}?token={mode['world']['alice']}") as ws:
            await ws.send("[" * 5000 + "]" * 5000)
            message = json.loads(await asyncio.wait_for(ws.recv(), 10))
            assert message["type"] == "error" and "nested deeper" in message["message"]
            for message in ({"type": "sync", "game_id": 2**63}, {"type": "subscribe", "games": [2**63]},
                            {"type": "viewing", "game_id": 2**64}):
                await ws.send(json.dumps(message))
                answer = json.loads(await asyncio.wait_for(ws.recv(), 10))
                assert answer["type"] == "error" and "positive integer" in answer["message"], (message, answer)
            await ws.send(json.dumps({"type": "ping"}))
            assert json.loads(await asyncio.wait_for(ws.recv(), 10)) == {"type": "pong"}

    asyncio.run(scenario())
    assert "Traceback" not in server.output()


def _raw(port: int, request: bytes) -> tuple[int, str, bytes]:
    """Send ``request`` as bytes on a new connection: (status, content type, body) of the answer."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(request)
        data = b""
        while chunk := sock.recv(65536):
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    types = [line.split(":", 1)[1].strip() for line in lines[1:] if line.lower().startswith("content-type:")]
    return int(lines[0].split()[1]), (types or [""])[0], body


HTTP_LEVEL = {  # refused by the HTTP server itself, before Django: label -> (request, production status)
    "address of 9000 characters": (b"GET /api/v1/health?" + b"a" * 9000 + b" HTTP/1.1\r\nHost: 127.0.0.1\r\n", 414),
    "header field of 10000 bytes": (b"GET /api/v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-A: " + b"a" * 10000
                                    + b"\r\n", 431),
    "150 header fields": (b"GET /api/v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                          + b"".join(b"X-%d: 1\r\n" % i for i in range(150)), 431),
    "not HTTP": (b"\x00\x01GARBAGE\r\n", 400),
}


def test_requests_the_http_server_refuses_never_get_an_html_page(mode):
    """Limits of the HTTP servers (gunicorn's request line and header limits behind Caddy in production,
    uvicorn's parser embedded): the answer is a 4xx without an HTML page; in production the API's JSON error
    (docker/Caddyfile rewrites gunicorn's HTML pages)."""
    server: Server = mode["server"]
    for label, (request, production_status) in HTTP_LEVEL.items():
        status, content_type, body = _raw(server.port, request + b"Connection: close\r\n\r\n")
        assert status < 500 and "html" not in content_type and b"<html" not in body.lower(), (label, status, body)
        if mode["name"] == "production":
            assert status == production_status, (label, status, body)
            if status != 400:  # Caddy's own 400 for what is not HTTP at all is plain text
                assert content_type == "application/json", (label, content_type)
                error = json.loads(body)["error"]
                assert error["code"] and error["message"], (label, body)
    assert "Traceback" not in server.output()
