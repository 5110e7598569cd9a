"""Start and stop real ``uvicorn claim.asgi:application`` processes for integration tests."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

import httpx

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
    import pytest
    from django.conf import settings
    from django.db import connection

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


def start_server(env: dict[str, str], workers: int = 1, port: int | None = None) -> Server:
    port = port or free_port()
    fd, log_path = tempfile.mkstemp(prefix=f"claim-uvicorn-{port}-", suffix=".log")
    with os.fdopen(fd, "wb") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "uvicorn", "claim.asgi:application", "--host", "127.0.0.1", "--port", str(port),
             "--lifespan", "off", "--log-level", "warning", "--workers", str(workers)],
            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
        )
    return Server(port, process, Path(log_path))


def wait_ready(server: Server, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.process.poll() is not None:
            code = server.process.returncode
            raise RuntimeError(f"uvicorn on port {server.port} exited ({code}):\n{server.output()}")
        try:
            if httpx.get(f"{server.http}/api/v1/health", timeout=2).status_code < 500:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    raise RuntimeError(f"uvicorn on port {server.port} did not answer within {timeout}s:\n{server.output()}")
