"""Issue 32: held connections (docs/security.md, "Held connections"), against real servers on loopback.

* **The proxy** (production: Caddy with ``docker/Caddyfile`` in front of gunicorn and uvicorn): slow header fields,
  a connection that sends nothing, a slow body (more of them than gunicorn has threads) and an idle keep-alive
  connection are closed by the proxy's timeouts, while a WebSocket and an NDJSON stream outlive them all. The
  timeouts are shortened here through the Caddyfile's own variables (``PROXY_*_TIMEOUT``), and their defaults are
  read from ``caddy adapt``.
* **The app** (both start modes; embedded exactly with ``scripts/run.sh``'s uvicorn flags): WebSockets per user and
  WebSockets plus NDJSON streams per client address are capped per server process (4429 / 429), a refused
  connection holds nothing, a closed one frees its place, and behind the proxy a client's own
  ``X-Forwarded-For`` does not change the address it is counted under.
* **uvicorn** (embedded): a keep-alive connection idle after an answer is closed (``--timeout-keep-alive``).

Every wait is bounded (a few seconds); each test stops by itself.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import shlex
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from games.streams import MAX_PER_USER
from tests.hardening.test_bad_input_servers import THROTTLES, _manage, mode_env
from tests.realtime.servers import CADDY, ROOT, Server, _start, free_port, start_served, wait_ready

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

PER_USER, PER_ADDRESS = 3, 12
SHORT = {"PROXY_READ_HEADER_TIMEOUT": "2s", "PROXY_READ_BODY_TIMEOUT": "3s", "PROXY_IDLE_TIMEOUT": "3s"}
BUDGET = 12.0  # seconds any one wait for the server may take before the test fails
SETUP = """
from accounts.models import ApiToken, User
scopes = ["games:read", "games:play"]
out = {}
for name in ("alice", "bob", "carol"):
    u = User.objects.create_user(username=name, password="Correct-horse-42")
    out[name] = ApiToken.issue(u, "t", scopes)[1]
print(json.dumps(out))
"""


def run_sh_uvicorn_flags() -> list[str]:
    """The flags ``scripts/run.sh`` starts uvicorn with (after the app), host and port left out."""
    text = (ROOT / "scripts" / "run.sh").read_text().replace("\\\n", " ")
    line = next(line for line in text.splitlines() if line.strip().startswith("exec .venv/bin/uvicorn"))
    words = shlex.split(line)[3:]  # exec, .venv/bin/uvicorn, claim.asgi:application
    flags: list[str] = []
    skip = False
    for i, word in enumerate(words):
        if skip:
            skip = False
            continue
        if word in ("--host", "--port"):
            skip = True
            continue
        flags.append(word)
        assert "$" not in word, (i, word)
    return flags


def start_embedded(env: dict[str, str]) -> Server:
    port = free_port()
    cmd = [sys.executable, "-m", "uvicorn", "claim.asgi:application", "--host", "127.0.0.1", "--port", str(port),
           *run_sh_uvicorn_flags()]
    return _start(cmd, env, port, "uvicorn-run-sh")


@pytest.fixture(params=["embedded", "production"])
def mode(request, tmp_path: Path) -> Iterator[dict[str, Any]]:
    env = mode_env(request.param, tmp_path, SOCKETS_PER_USER=str(PER_USER), CONNECTIONS_PER_ADDRESS=str(PER_ADDRESS),
                   **THROTTLES, **SHORT)
    tokens = json.loads(_manage(env, "shell", "-c", "import json\n" + SETUP).strip().splitlines()[-1])
    server = start_served(env) if request.param == "production" else start_embedded(env)
    try:
        wait_ready(server)
        yield {"name": request.param, "server": server, "tokens": tokens}
    finally:
        server.stop()


# --- the app's caps ------------------------------------------------------------------------------------------


async def _socket(server: Server, token: str, headers: dict[str, str] | None = None) -> tuple[Any, dict | None]:
    """A socket of ``token``; ``(socket, None)`` when it is held (it answers a ping), ``(None, error frame)`` with
    close code 4429 when it is refused."""
    ws = await connect(f"{server.ws}?token={token}", additional_headers=headers or {}, open_timeout=BUDGET)
    with contextlib.suppress(ConnectionClosed):  # a refused socket may be closed already
        await ws.send(json.dumps({"type": "ping"}))
    frame = json.loads(await asyncio.wait_for(ws.recv(), BUDGET))  # frames sent before a close still arrive
    if frame == {"type": "pong"}:
        return ws, None
    await asyncio.wait_for(ws.wait_closed(), BUDGET)
    assert ws.close_code == 4429, (ws.close_code, frame)
    return None, frame


async def _stream(http: httpx.AsyncClient, token: str) -> tuple[Any, int, dict | None]:
    """An event stream of ``token``: ``(open response, 200, None)`` or ``(None, status, error)``."""
    request = http.build_request("GET", "/api/v1/stream/events", headers={"Authorization": f"Bearer {token}"})
    response = await http.send(request, stream=True)
    if response.status_code == 200:
        return response, 200, None
    body = json.loads(await response.aread())
    await response.aclose()
    return None, response.status_code, body["error"]


def test_sockets_per_user_and_connections_per_address_are_capped_in_both_modes(mode):
    """alice's sockets fill her cap (3), bob's streams fill his (8), carol's socket fills the address (12)."""
    server: Server = mode["server"]
    t = mode["tokens"]
    assert PER_USER + MAX_PER_USER + 1 == PER_ADDRESS

    async def scenario() -> None:
        async with httpx.AsyncClient(base_url=server.http, timeout=BUDGET) as http:
            alice = [await _socket(server, t["alice"]) for _ in range(PER_USER)]
            assert all(ws is not None for ws, _ in alice), alice
            ws, refused = await _socket(server, t["alice"])  # one socket too many for alice
            assert ws is None and refused["code"] == "too_many_sockets", refused
            assert f"At most {PER_USER}" in refused["message"]
            streams = [await _stream(http, t["bob"]) for _ in range(MAX_PER_USER)]
            assert [status for _, status, _ in streams] == [200] * MAX_PER_USER, streams
            _, status, error = await _stream(http, t["bob"])  # one stream too many for bob
            assert (status, error["code"]) == (429, "too_many_streams"), (status, error)
            carol, _ = await _socket(server, t["carol"])
            assert carol is not None  # the address's last place
            ws, refused = await _socket(server, t["carol"])
            assert ws is None and refused["code"] == "too_many_connections", refused
            _, status, error = await _stream(http, t["carol"])
            assert (status, error["code"]) == (429, "too_many_connections"), (status, error)
            if mode["name"] == "production":  # a forwarding header of the client's own counts for nothing
                ws, refused = await _socket(server, t["carol"], {"X-Forwarded-For": "198.51.100.7"})
                assert ws is None and refused["code"] == "too_many_connections", refused
            # a closed connection frees its place, for the address and for the user
            await alice[0][0].close()
            ws = await _retry(lambda: _socket(server, t["carol"]))
            assert ws is not None, "a closed socket's place was not freed"
            await streams[0][0].aclose()
            await ws.close()
            again = await _retry(lambda: _socket(server, t["alice"]))
            assert again is not None, "a closed stream's or socket's place was not freed"
            for sock in (again, carol, *(s for s, _ in alice[1:])):
                await sock.close()
            for response, _, _ in streams[1:]:
                await response.aclose()

    asyncio.run(scenario())
    log = server.output()
    assert "Traceback" not in log, log[-3000:]


async def _retry(attempt: Any) -> Any:
    """The socket ``attempt()`` holds, trying again every half second (the server's side of a close takes a
    moment) for at most :data:`BUDGET` seconds; None if it is still refused then."""
    deadline = time.monotonic() + BUDGET
    while time.monotonic() < deadline:
        ws, _ = await attempt()
        if ws is not None:
            return ws
        await asyncio.sleep(0.5)
    return None


# --- uvicorn and the proxy's timeouts ------------------------------------------------------------------------


def _closed_after(sock: socket.socket, trickle: bytes = b"", every: float = 0.5) -> tuple[float, bytes]:
    """Send ``trickle`` every ``every`` seconds (nothing if empty) until the server closes the connection; the
    seconds it took and what the server sent. Fails after :data:`BUDGET` seconds."""
    start = time.monotonic()
    sock.settimeout(every)
    received = b""
    while time.monotonic() - start < BUDGET:
        try:
            chunk = sock.recv(65536)
            if not chunk:
                return time.monotonic() - start, received
            received += chunk
        except TimeoutError:
            if trickle:
                try:
                    sock.sendall(trickle)
                except OSError:  # reset by the server: closed
                    return time.monotonic() - start, received
        except ConnectionResetError:
            return time.monotonic() - start, received
    raise AssertionError(f"the server kept the connection open for {BUDGET} s; it sent {received[:200]!r}")


def _connect(port: int) -> socket.socket:
    return socket.create_connection(("127.0.0.1", port), timeout=BUDGET)


def test_an_idle_keep_alive_connection_is_closed_in_both_modes(mode):
    """uvicorn (embedded, ``--timeout-keep-alive 5``) and the proxy (``idle``, shortened to 3 s here)."""
    server: Server = mode["server"]
    with _connect(server.port) as sock:
        sock.sendall(b"GET /api/v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        seconds, received = _closed_after(sock)
    assert received.startswith(b"HTTP/1.1 200"), received[:200]
    print(f"{mode['name']}: idle keep-alive connection closed after {seconds:.1f} s")


def test_the_proxy_cuts_slow_headers_silence_and_slow_bodies_but_not_sockets_or_streams(mode):
    if mode["name"] != "production":
        pytest.skip("uvicorn alone has no header or body timeout: docs/security.md, 'Held connections'")
    server: Server = mode["server"]
    figures = {}
    with _connect(server.port) as sock:  # slow header fields: one more every half second
        sock.sendall(b"GET /api/v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        figures["slow headers"], _ = _closed_after(sock, b"X-Slow: 1\r\n")
    with _connect(server.port) as sock:  # a connection that sends nothing
        figures["silence"], _ = _closed_after(sock)
    # slow bodies on more connections than gunicorn has threads (tests/realtime/servers.py: 4)
    slow = [_connect(server.port) for _ in range(6)]
    for sock in slow:
        sock.sendall(b"POST /api/v1/accounts/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                     b"Content-Length: 100000\r\n\r\n{")
    try:
        figures["slow body"], _ = _closed_after(slow[0], b" ")
        for sock in slow[1:]:
            _closed_after(sock, b" ")
    finally:
        for sock in slow:
            sock.close()
    r = httpx.get(f"{server.http}/api/v1/health", timeout=BUDGET)  # gunicorn's threads are free again
    assert r.status_code == 200, r.text

    t = mode["tokens"]

    async def held() -> None:
        """A socket and a stream outlive every timeout above (read_body, idle: 3 s here)."""
        async with httpx.AsyncClient(base_url=server.http, timeout=BUDGET) as http:
            ws, _ = await _socket(server, t["alice"])
            response, status, _ = await _stream(http, t["alice"])
            assert ws is not None and status == 200
            await asyncio.sleep(5)
            await ws.send(json.dumps({"type": "ping"}))
            assert json.loads(await asyncio.wait_for(ws.recv(), BUDGET)) == {"type": "pong"}
            made = await http.post("/api/v1/challenges", json={"kind": "claim", "to": "alice"},
                                   headers={"Authorization": f"Bearer {t['bob']}"})
            assert made.status_code == 201, made.text
            lines = response.aiter_lines()
            while True:
                line = await asyncio.wait_for(anext(lines), BUDGET)
                if line.strip():
                    assert json.loads(line)["type"] == "challenge_received", line
                    break
            await response.aclose()
            await ws.close()

    asyncio.run(held())
    print("proxy closed after (s): " + ", ".join(f"{k} {v:.1f}" for k, v in figures.items()))
    assert "Traceback" not in server.output()


def test_the_proxys_timeouts_default_to_the_documented_values():
    """``caddy adapt`` of docker/Caddyfile as the deployment runs it (no PROXY_* variables set)."""
    if not os.access(CADDY, os.X_OK):
        pytest.skip(f"needs Caddy ({CADDY})")
    env = {k: v for k, v in os.environ.items() if not k.startswith("PROXY_")}
    out = subprocess.run([CADDY, "adapt", "--config", str(ROOT / "docker" / "Caddyfile"), "--adapter", "caddyfile"],
                         env={**env, "HTTP_UPSTREAM": "web:8000", "SOCKETS_UPSTREAM": "sockets:8000"},
                         capture_output=True, text=True, timeout=30, check=True).stdout
    (server,) = json.loads(out)["apps"]["http"]["servers"].values()
    second = 1_000_000_000
    assert server["read_header_timeout"] == 10 * second, server
    assert server["read_timeout"] == 30 * second, server
    assert server["idle_timeout"] == 120 * second, server
    assert "write_timeout" not in server, server  # it would end the streams


def test_run_sh_starts_uvicorn_with_its_connection_timeouts():
    flags = run_sh_uvicorn_flags()
    pairs = dict(zip(flags, [*flags[1:], ""], strict=True))
    assert pairs["--timeout-keep-alive"] == "5" and pairs["--ws-ping-interval"] == "20", flags
    assert pairs["--ws-ping-timeout"] == "20", flags
