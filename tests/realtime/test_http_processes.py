"""Django's requests in request processes of their own (``HTTP_PROCESSES``, claim/http_procs.py).

Two real servers on the test database: one answers Django's requests on threads of its own process
(``HTTP_PROCESSES=0``), the other in a request process (``HTTP_PROCESSES=1``). The same requests get the same
answers from both; a request process that dies is replaced; and the request process's socket pushes reach
sockets held by the server process (tests/realtime/test_two_servers.py covers a second server)."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import time
from pathlib import Path

import httpx
import pytest

from .servers import shared_env, start_server, wait_ready

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

#: Headers whose values differ between any two answers (clock, random tokens; the length follows the body,
#: compared apart).
VARYING = {b"date", b"set-cookie", b"content-length", b"ratelimit"}  # ratelimit: the requests left


@pytest.fixture
def servers(transactional_db):
    env = shared_env("request processes share pushes and throttles through Redis")
    started = {}
    try:
        for name, processes in (("threads", "0"), ("processes", "1")):
            started[name] = start_server({**env, "HTTP_PROCESSES": processes})
        for server in started.values():
            wait_ready(server)
        yield started
    except BaseException:
        for name, server in started.items():
            print(f"--- uvicorn ({name}) output ---\n{server.output()}")
        raise
    finally:
        for server in started.values():
            server.stop()


def children(pid: int) -> list[int]:
    found = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        found += [int(c) for c in (task / "children").read_text().split()]
    return found


def comparable(response: httpx.Response) -> tuple[int, list[tuple[bytes, bytes]], object]:
    headers = [(name.lower(), value) for name, value in response.headers.raw if name.lower() not in VARYING]
    # DRF lists the allowed methods in a set's order, which differs between any two processes.
    headers = [(name, b", ".join(sorted(value.split(b", "))) if name == b"allow" else value) for name, value in headers]
    body: object = response.content
    if response.headers.get("content-type", "").startswith("application/json"):
        body = _without_timings(response.json())
    return response.status_code, sorted(headers), body


def _without_timings(data: object) -> object:
    """The health check's answer carries how long each check took ("ms")."""
    if isinstance(data, dict):
        return {key: _without_timings(value) for key, value in data.items() if key not in ("ms", "age_s")}
    if isinstance(data, list):
        return [_without_timings(value) for value in data]
    return data


def test_the_request_process_answers_as_the_threads_do(servers, make_user, make_token):
    alice = make_user()
    token = make_token(alice)
    auth = {"Authorization": f"Bearer {token}"}
    limit = 2_621_440  # Django's DATA_UPLOAD_MAX_MEMORY_SIZE, the settings' value
    requests = [
        ("GET", "/api/v1/health", {}, None),
        ("GET", "/api/v1/games", {}, None),  # no credentials: 401
        ("GET", "/api/v1/games?status=active", auth, None),
        ("GET", "/api/v1/games/%C3%A9", auth, None),  # not a route: 404
        ("POST", "/api/v1/games", {**auth, "Content-Type": "application/json"}, b"{"),  # bad JSON: 400
        ("POST", "/api/v1/games", {**auth, "Content-Type": "application/json"}, b"{}"),  # no kind: 400
        ("POST", "/api/v1/games", {**auth, "Content-Type": "application/json"}, b" " * (limit + 10)),  # too big
        ("DELETE", "/api/v1/health", {}, None),  # 405
        ("GET", "/", {}, None),  # the PWA's page
        ("GET", "/sw.js", {}, None),
        ("GET", "/static/icons/icon-192.png", {}, None),  # a binary file, through WhiteNoise
    ]
    with httpx.Client(timeout=30) as http:
        for method, path, headers, body in requests:
            answers = [http.request(method, server.http + path, headers=headers, content=body)
                       for server in servers.values()]
            threads, processes = (comparable(answer) for answer in answers)
            assert processes == threads, f"{method} {path}"
            assert [len(a.content) for a in answers] == [int(a.headers["content-length"]) for a in answers]
            assert answers[0].status_code < 500, f"{method} {path}: {answers[0].status_code}"


def test_a_session_signs_up_and_plays_through_the_request_process(servers):
    base = servers["processes"].http
    with httpx.Client(base_url=base, timeout=30) as session:
        csrf = session.get("/api/v1/accounts/csrf").json()["csrf_token"]
        signed_up = session.post("/api/v1/accounts/register", json={"username": "procs", "password": "x9!Lq2#vTr"},
                                 headers={"X-CSRFToken": csrf, "Referer": base})
        assert signed_up.status_code == 201, signed_up.text
        assert session.cookies.get("sessionid"), "the session cookie came back through the request process"
        me = session.get("/api/v1/accounts/me")
        assert me.status_code == 200 and me.json()["username"] == "procs"
        csrf = session.cookies.get("csrftoken") or csrf
        created = session.post("/api/v1/games", json={"kind": "claim", "opponents": [{"type": "ai", "level": 1}]},
                               headers={"X-CSRFToken": csrf, "Referer": base})
        assert created.status_code == 201, created.text


def test_a_created_game_pushes_from_the_request_process_to_the_servers_socket(servers, make_user, make_token):
    """The join is answered in the request process; its push reaches the creator's socket, which the server
    process holds, through the Redis channel layer."""
    from websockets.asyncio.client import connect

    server = servers["processes"]
    alice, bob = make_user(), make_user()
    tokens = {alice.username: make_token(alice), bob.username: make_token(bob)}

    async def scenario() -> None:
        async with httpx.AsyncClient(timeout=10) as http:
            created = await http.post(f"{server.http}/api/v1/games",
                                      headers={"Authorization": f"Bearer {tokens[alice.username]}"},
                                      json={"kind": "claim", "opponents": [{"type": "user", "username": bob.username}]})
            assert created.status_code == 201, created.text
            game_id, version = created.json()["id"], created.json()["version"]
            async with connect(f"{server.ws}?token={tokens[alice.username]}", origin=server.http) as ws:
                await ws.send(json.dumps({"type": "subscribe", "games": [game_id]}))
                ack = json.loads(await asyncio.wait_for(ws.recv(), 10))
                assert ack["type"] == "subscribed"
                joined = await http.post(f"{server.http}/api/v1/games/{game_id}/join",
                                         headers={"Authorization": f"Bearer {tokens[bob.username]}"}, json={})
                assert joined.status_code == 201, joined.text
                while True:
                    message = json.loads(await asyncio.wait_for(ws.recv(), 10))
                    if message["type"] == "game":
                        break
                assert message["game_id"] == game_id and message["version"] > version
                assert message["view"]["status"] == "active"

    asyncio.run(scenario())


def test_a_request_process_that_dies_is_replaced(servers):
    server = servers["processes"]
    (first,) = children(server.process.pid)
    os.kill(first, signal.SIGKILL)
    deadline = time.monotonic() + 30
    answered = None
    while time.monotonic() < deadline:
        try:
            answered = httpx.get(f"{server.http}/api/v1/health", timeout=5)
        except httpx.HTTPError:
            answered = None
        if answered is not None and answered.status_code == 200:
            break
        # Until the new process listens: 502 for a request the dead one had, else the request waits.
        assert answered is None or answered.status_code in (200, 502, 503), answered.text
        time.sleep(0.2)
    assert answered is not None and answered.status_code == 200, "no answer after the request process died"
    (second,) = children(server.process.pid)
    assert second != first
    assert "exited" in server.output()
