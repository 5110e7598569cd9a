"""Start and stop real server processes for integration tests: ``uvicorn claim.asgi:application``, and the
production shape's ``gunicorn claim.wsgi:application`` and Caddy with ``docker/Caddyfile`` in front."""

from __future__ import annotations

import contextlib
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

import httpx
import pytest
from django.conf import settings
from django.db import connection

ROOT = Path(__file__).resolve().parents[2]
UNLIMITED = "1000000/min"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def database_url(settings_dict: dict) -> str:
    """A DATABASE_URL for the database Django is connected to (e.g. the one pytest-django created)."""
    user = quote(settings_dict.get("USER") or "", safe="")
    password = quote(settings_dict.get("PASSWORD") or "", safe="")
    auth = f"{user}:{password}@" if password else (f"{user}@" if user else "")
    host = settings_dict.get("HOST") or "127.0.0.1"
    port = settings_dict.get("PORT") or "5432"
    return f"postgres://{auth}{host}:{port}/{quote(settings_dict['NAME'], safe='')}"


def server_env(database_url: str, redis_url: str, secret_key: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in {"CLAIM_EMBEDDED", "DEBUG"}}
    env.update(
        DJANGO_SETTINGS_MODULE="claim.settings",
        DATABASE_URL=database_url,
        REDIS_URL=redis_url,
        SECRET_KEY=secret_key,
        CLAIM_TESTING="1",  # plain-HTTP cookies, no SSL redirect
        ALLOWED_HOSTS="127.0.0.1,localhost",
        CLAIM_TASK_MODE="thread",  # no Celery worker runs in tests
        THROTTLE_USER=UNLIMITED,
        THROTTLE_ANON=UNLIMITED,
        THROTTLE_MOVES=UNLIMITED,
        THROTTLE_REGISTER=UNLIMITED,
        LOG_LEVEL="WARNING",
    )
    return env


def shared_env(redis_needed_for: str) -> dict[str, str]:
    """:func:`server_env` for the database the test is connected to and ``REDIS_URL``; skips the test unless
    both are real (PostgreSQL, Redis): servers in other processes share nothing else with it."""
    if not os.environ.get("REDIS_URL"):
        pytest.skip(f"needs REDIS_URL: {redis_needed_for}")
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (DATABASE_URL): the server processes must share the test database")
    return server_env(database_url(connection.settings_dict), os.environ["REDIS_URL"], settings.SECRET_KEY)


@dataclass
class Server:
    port: int
    process: subprocess.Popen
    log: Path

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws/"

    def output(self) -> str:
        return self.log.read_text(errors="replace")[-4000:] if self.log.exists() else ""

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)
        with contextlib.suppress(OSError):
            self.log.unlink()


def _start(cmd: list[str], env: dict[str, str], port: int, name: str) -> Server:
    fd, log_path = tempfile.mkstemp(prefix=f"claim-{name}-{port}-", suffix=".log")
    with os.fdopen(fd, "wb") as log:
        process = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    return Server(port, process, Path(log_path))


def start_server(env: dict[str, str], workers: int = 1, port: int | None = None) -> Server:
    """uvicorn with the whole app (HTTP, streams, sockets), as ``make run`` and the sockets service run it."""
    port = port or free_port()
    return _start([sys.executable, "-m", "uvicorn", "claim.asgi:application", "--host", "127.0.0.1", "--port",
                   str(port), "--lifespan", "off", "--log-level", "warning", "--workers", str(workers),
                   "--no-proxy-headers"],
                  env, port, "uvicorn")


def start_gunicorn(env: dict[str, str], workers: int = 1, threads: int = 4) -> Server:
    """gunicorn with Django's HTTP (claim/wsgi.py), as the Docker image's web service runs it."""
    port = free_port()
    return _start([sys.executable, "-m", "gunicorn", "claim.wsgi:application", "--bind", f"127.0.0.1:{port}",
                   "--workers", str(workers), "--worker-class", "gthread", "--threads", str(threads)],
                  env, port, "gunicorn")


CADDY = os.environ.get("CADDY_PATH", "/usr/bin/caddy")


def start_proxy(env: dict[str, str], http: Server, sockets: Server) -> Server:
    """Caddy with docker/Caddyfile in front of gunicorn (``http``) and uvicorn (``sockets``); skips the test
    without Caddy, and fails it so in CI (scripts/test.sh installs Debian's caddy)."""
    if not os.access(CADDY, os.X_OK):
        missing = f"needs Caddy ({CADDY}; apt-get install caddy)"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(missing)
        pytest.skip(missing)
    port = free_port()
    home = tempfile.mkdtemp(prefix="claim-caddy-")
    return _start([CADDY, "run", "--config", str(ROOT / "docker" / "Caddyfile"), "--adapter", "caddyfile"],
                  {**env, "PORT": str(port), "HTTP_UPSTREAM": f"127.0.0.1:{http.port}",
                   "SOCKETS_UPSTREAM": f"127.0.0.1:{sockets.port}", "XDG_DATA_HOME": home, "XDG_CONFIG_HOME": home},
                  port, "caddy")


@dataclass
class ServedStack(Server):
    """The production shape on one machine: the proxy's port, process and log, and every part behind it."""

    parts: list[Server] = field(default_factory=list)

    def output(self) -> str:
        return "\n".join(f"--- {part.log.name} ---\n{part.output()}" for part in self.parts)

    def stop(self) -> None:
        for part in reversed(self.parts):
            part.stop()


def start_served(env: dict[str, str]) -> ServedStack:
    """gunicorn (HTTP) and uvicorn (sockets, streams) behind Caddy, as docker/compose.yml runs them; ready."""
    parts = [start_gunicorn(env), start_server(env)]
    try:
        for part in parts:
            wait_ready(part)
        parts.append(start_proxy(env, *parts))
        wait_ready(parts[-1])
    except BaseException:
        for part in parts:
            part.stop()
        raise
    proxy = parts[-1]
    return ServedStack(proxy.port, proxy.process, proxy.log, parts)


def wait_ready(server: Server, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.process.poll() is not None:
            code = server.process.returncode
            raise RuntimeError(f"the server on port {server.port} exited ({code}):\n{server.output()}")
        try:
            if httpx.get(f"{server.http}/api/v1/health", timeout=2).status_code < 500:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    raise RuntimeError(f"the server on port {server.port} did not answer within {timeout}s:\n{server.output()}")


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def start_claim_game(http, tokens: dict[str, str], create_base: str, join_base: str,
                           ) -> tuple[int, dict[str, dict]]:
    """Over HTTP (``http``: an ``httpx.AsyncClient``): the first of ``tokens`` (name: token) invites the second
    to a 2-player Claim game on ``create_base``, who joins on ``join_base``; the game's id and each one's view."""
    (_, host_token), (guest, guest_token) = tokens.items()
    created = await http.post(f"{create_base}/api/v1/games", headers=bearer(host_token),
                              json={"kind": "claim", "opponents": [{"type": "user", "username": guest}]})
    assert created.status_code == 201, created.text
    game_id = created.json()["id"]
    joined = await http.post(f"{join_base}/api/v1/games/{game_id}/join", headers=bearer(guest_token), json={})
    assert joined.status_code == 201, joined.text
    views = {name: (await http.get(f"{create_base}/api/v1/games/{game_id}", headers=bearer(token))).json()
             for name, token in tokens.items()}
    return game_id, views


async def first_line(lines: Any) -> dict[str, Any]:
    """The first non-empty line of an NDJSON stream (``httpx``'s ``aiter_lines()``), parsed."""
    async for line in lines:
        if line.strip():
            return json.loads(line)
    raise AssertionError("the stream ended")
