"""Journeys: the app started exactly as the README says, driven by a phone-sized Chromium as players.

Two shapes of the server, each a set of subprocesses (docs/testing.md):

* ``embedded``: ``make run`` itself (its command line, a user's plain environment, a free ``PORT``, a
  temporary ``CLAIM_VAR_DIR``): SQLite, in-memory channel layer, tasks and beat in-process.
* ``served``: the README's served commands: ``manage.py migrate``/``collectstatic``, ``gunicorn`` (Django's
  HTTP) and ``uvicorn`` (sockets, streams) behind Caddy with ``docker/Caddyfile``, a ``celery worker`` and a
  ``celery beat``, on a PostgreSQL database of its own and a Redis database of its own.

Only the correspondence timings that are minutes or days in production are shortened, by the settings
documented for that (``JOURNEY_TIMINGS``). Every log line of every process is read at the end of a journey:
an ``ERROR`` line or a traceback fails it. The last screen of each journey is kept under
``test-artifacts/journeys/``.
"""

from __future__ import annotations

import os
import random
import re
import signal
import socket
import subprocess
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlparse

import psycopg
import pytest
import redis

ROOT = Path(__file__).resolve().parents[2]
VENV = ROOT / ".venv" / "bin"
ARTIFACTS = ROOT / "test-artifacts" / "journeys"
CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
CADDY = os.environ.get("CADDY_PATH", "/usr/bin/caddy")
CHROME_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
               "--disable-sync", "--no-first-run"]

#: The production timings these journeys shorten (claim/settings.py; docs/testing.md): a "day" of a
#: days-per-move clock lasts 8 s, "Play now" falls back to the AI after 3 s, and the beat looks at
#: deadlines and seeks every second.
JOURNEY_TIMINGS = {"CLOCK_DAY_SECONDS": "8", "SEEK_AI_FALLBACK_SECONDS": "3", "SEEK_BEAT_SECONDS": "1",
                   "CLOCK_BEAT_SECONDS": "1"}
BAD_LINE = re.compile(r'\bERROR\b|\bCRITICAL\b|Traceback \(most recent call last\)|"level":"(error|panic|fatal)"')
#: Caddy logs at error level when the browser itself drops a response it no longer wants (a page left while a
#: request was in flight: "context canceled"); that is the client going away, not a fault of the server.
CLIENT_WENT_AWAY = re.compile(r'"msg":"aborting with incomplete response","error":"context canceled"')


def _skip_reason() -> str | None:
    if not Path(CHROMIUM).exists():
        return f"{CHROMIUM} is absent (apt-get install -y chromium)"
    try:
        import playwright.sync_api  # noqa: F401, PLC0415 - is it installed?
    except ImportError:
        return "the playwright Python package is not installed"
    return None


def pytest_collection_modifyitems(config, items):
    reason = _skip_reason()
    ours = [i for i in items if "journeys" in i.nodeid]
    if reason and ours and os.environ.get("CI", "").lower() == "true":
        raise pytest.UsageError(f"journeys cannot run in CI: {reason}")
    for item in ours:
        item.add_marker(pytest.mark.e2e)
        item.add_marker(pytest.mark.integration)
        if reason:
            item.add_marker(pytest.mark.skip(reason=reason))


#: Ports for the journeys' servers: below Linux's ephemeral range (32768-60999), which ``bind(0)`` draws from.
#: ``make run`` binds its port a minute or more after it is chosen (it builds and migrates first); a port from
#: the ephemeral range could meanwhile go to another test's server (another xdist worker's), and the journey
#: would then talk to that server (a CI run saw a move answered 404 by a server that never logged it).
JOURNEY_PORTS = range(20000, 30000)


def free_port() -> int:
    """A port free now, outside the ephemeral range (:data:`JOURNEY_PORTS`)."""
    rng = random.Random()
    for _ in range(200):
        port = rng.choice(JOURNEY_PORTS)
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise RuntimeError(f"no free port in {JOURNEY_PORTS}")


def plain_env(**extra: str) -> dict[str, str]:
    """What a user's shell has: no test settings, no DATABASE_URL/REDIS_URL unless given."""
    keep = ("PATH", "HOME", "LANG", "LC_ALL", "TERM", "USER", "TMPDIR", "CHROMIUM_PATH")
    env = {k: os.environ[k] for k in keep if k in os.environ}
    env.update(JOURNEY_TIMINGS)
    env.update(extra)
    return env


@dataclass
class Server:
    """A running shape of the app: its URL, its processes and their log files."""

    name: str
    base: str
    logs: list[Path] = field(default_factory=list)
    procs: list[subprocess.Popen] = field(default_factory=list)

    def bad_lines(self) -> list[str]:
        """Every ERROR/CRITICAL line and traceback in every process's log so far."""
        found = []
        for log in self.logs:
            lines = log.read_text(errors="replace").splitlines()
            for n, line in enumerate(lines):
                if BAD_LINE.search(line) and not CLIENT_WENT_AWAY.search(line):
                    found.append(f"{log.name}:{n + 1}: " + "\n".join(lines[n:n + 12]))
        return found

    def check_logs(self) -> None:
        bad = self.bad_lines()
        assert not bad, f"{self.name}: errors in the server's logs:\n" + "\n---\n".join(bad[:5])


def _start(cmd: list[str], env: dict[str, str], log: Path) -> subprocess.Popen:
    return subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=log.open("w"), stderr=subprocess.STDOUT,
                            start_new_session=True)


def _stop(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=5)


def _wait_healthy(server: Server, timeout: float, base: str | None = None) -> None:
    """Until ``/api/v1/health`` at ``base`` (default the server's own address) answers 200."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        for proc, log in zip(server.procs, server.logs, strict=False):
            if proc.poll() is not None:
                raise RuntimeError(f"{log.name} exited {proc.returncode}:\n{log.read_text()[-3000:]}")
        try:
            with urllib.request.urlopen((base or server.base) + "/api/v1/health", timeout=2) as r:
                if r.status == 200:
                    return
        except Exception:
            time.sleep(0.3)
    raise RuntimeError(f"{server.name} did not answer in {timeout} s:\n{server.logs[0].read_text()[-3000:]}")


@pytest.fixture(scope="session")
def embedded(tmp_path_factory) -> Iterator[Server]:
    """``make run`` (README: "Two commands"), on a free port, in a temporary var dir."""
    if _skip_reason():
        pytest.skip(_skip_reason())
    var = tmp_path_factory.mktemp("embedded-var")
    port = free_port()
    env = plain_env(HOST="127.0.0.1", PORT=str(port), CLAIM_VAR_DIR=str(var))
    server = Server("embedded", f"http://127.0.0.1:{port}", logs=[var / "make-run.log"])
    server.procs.append(_start(["make", "run"], env, server.logs[0]))
    try:
        _wait_healthy(server, 300)  # make run installs, builds the PWA and migrates first
        yield server
    finally:
        for proc in server.procs:
            _stop(proc)


def _worker_suffix() -> str:
    """``_gw1`` under pytest-xdist's worker gw1 (each worker serves its own journeys), else empty."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    return f"_{worker}" if worker else ""


def _served_database() -> str:
    """A PostgreSQL database of the journeys' own, next to the one DATABASE_URL names (made empty)."""
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith("postgres"):
        pytest.skip("the served journey needs DATABASE_URL on PostgreSQL")
    parsed = urlparse(url)
    name = (parsed.path.lstrip("/") or "claim") + "_journey" + _worker_suffix()
    admin = parsed._replace(path="/postgres").geturl()
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')
    return parsed._replace(path="/" + name).geturl()


def _served_redis() -> str:
    """A Redis database of the journeys' own (15, 14 under a second xdist worker...) on REDIS_URL's server, flushed."""
    url = os.environ.get("REDIS_URL", "")
    if not url:
        pytest.skip("the served journey needs REDIS_URL")
    worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0")
    url = re.sub(r"/\d*$", "", url.rstrip("/")) + f"/{15 - int(worker[2:] or 0)}"
    redis.Redis.from_url(url).flushdb()
    return url


@pytest.fixture(scope="session")
def served(tmp_path_factory) -> Iterator[Server]:
    """The README's served shape: migrate, collectstatic, gunicorn and uvicorn behind Caddy, a Celery worker
    and beat."""
    if _skip_reason():
        pytest.skip(_skip_reason())
    var = tmp_path_factory.mktemp("served-var")
    if not os.access(CADDY, os.X_OK):
        missing = f"the served journey needs Caddy ({CADDY}; apt-get install caddy)"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(missing)
        pytest.skip(missing)
    port, http_port, sockets_port = free_port(), free_port(), free_port()
    env = plain_env(DATABASE_URL=_served_database(), REDIS_URL=_served_redis(), CLAIM_VAR_DIR=str(var),
                    SECRET_KEY="journey-only-secret-key-0123456789-0123456789-0123456789",
                    ALLOWED_HOSTS="127.0.0.1,localhost", BEHIND_PROXY="1", SECURE_SSL_REDIRECT="0",
                    SESSION_COOKIE_SECURE="0",
                    CSRF_COOKIE_SECURE="0", SECURE_HSTS_SECONDS="0")
    for step in (["manage.py", "migrate", "--noinput", "-v", "0"],
                 ["manage.py", "collectstatic", "--noinput", "-v", "0"]):
        subprocess.run([str(VENV / "python"), *step], cwd=ROOT, env=env, check=True, timeout=300)
    server = Server("served", f"http://127.0.0.1:{port}")
    commands = {
        "gunicorn.log": [str(VENV / "gunicorn"), "claim.wsgi:application", "--bind", f"127.0.0.1:{http_port}",
                         "--workers", "2", "--worker-class", "gthread", "--threads", "8", "--keep-alive", "75"],
        "uvicorn.log": [str(VENV / "uvicorn"), "claim.asgi:application", "--host", "127.0.0.1", "--port",
                        str(sockets_port), "--lifespan", "off", "--http", "httptools", "--loop", "uvloop",
                        "--ws-per-message-deflate", "false", "--no-access-log"],
        "caddy.log": [CADDY, "run", "--config", str(ROOT / "docker" / "Caddyfile"), "--adapter", "caddyfile"],
        "worker.log": [str(VENV / "celery"), "-A", "claim", "worker", "--loglevel", "INFO", "--concurrency", "2"],
        "beat.log": [str(VENV / "celery"), "-A", "claim", "beat", "--loglevel", "INFO", "--schedule",
                     str(var / "celerybeat-schedule")],
    }
    proxy_env = {**env, "PORT": str(port), "HTTP_UPSTREAM": f"127.0.0.1:{http_port}",
                 "SOCKETS_UPSTREAM": f"127.0.0.1:{sockets_port}", "XDG_DATA_HOME": str(var),
                 "XDG_CONFIG_HOME": str(var)}
    try:
        for name, cmd in commands.items():
            if name == "caddy.log":  # the upstreams first: a proxy that cannot reach them logs an error
                _wait_healthy(server, 120, f"http://127.0.0.1:{http_port}")
                _wait_healthy(server, 120, f"http://127.0.0.1:{sockets_port}")
            server.logs.append(var / name)
            server.procs.append(_start(cmd, proxy_env if name == "caddy.log" else env, var / name))
        _wait_healthy(server, 120)
        yield server
    finally:
        for proc in reversed(server.procs):
            _stop(proc)


@pytest.fixture(params=["embedded", "served"])
def app(request) -> Server:
    return request.getfixturevalue(request.param)


@pytest.fixture
def browser():
    """Debian's Chromium through Playwright (function scope: its sync API runs a loop in this thread)."""
    from playwright.sync_api import sync_playwright  # noqa: PLC0415 - optional: these tests skip without it

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROME_ARGS)
        yield b
        b.close()
