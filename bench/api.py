"""API + real-time benchmark: concurrent human-vs-human games over HTTP, pushes over WebSockets.

Usage::

    .venv/bin/python bench/api.py                      # starts its own server (see below)
    .venv/bin/python bench/api.py http://127.0.0.1:8000 --games 50 --clients 50 --duration 30

What it does:

1. Registers ``2 * games`` users through ``POST /api/v1/accounts/register`` (CSRF + session). With
   ``--auth token`` (the default) it creates a ``games:read games:play`` token for each (``POST
   /api/v1/accounts/tokens``) and every game request and socket sends ``Authorization: Bearer``, as a bot
   does; with ``--auth session`` they send what the PWA sends (``frontend/src/api.ts``): the session and
   CSRF cookies, ``X-CSRFToken`` and the page's ``Origin``.
2. Pairs them into ``games`` human-vs-human games (``POST /api/v1/games`` inviting the partner,
   ``POST /api/v1/games/{id}/join``). A finished game is replaced by a new one for the same pair.
   Setup then plays a random 0 to ``--spread - 1`` moves of each game (unmeasured), so that the games are
   at different stages and end at different times, as many players' games do; every 2-player Claim game
   is 52 moves long, so games started together end within a few hundred milliseconds of each other, all
   of them again one game length later, and each such burst of 40 endings (final moves, new games,
   game-over work) made the top percent of the latencies (docs/performance.md, tenth round). ``--spread 0``
   starts every game from its first move, as the runs before the tenth round did.
3. Opens one WebSocket per user to ``/ws/`` (``{"type": "subscribe", "games": "all"}``).
4. ``clients`` concurrent workers play random legal moves as fast as they can for ``duration``
   seconds. Whose turn it is comes from the mover's HTTP answer or from the opponent's socket (a real
   client works the same way), so every move needs exactly one HTTP request.
5. Prints moves/s, HTTP move latency (p50/p95/p99) and the push latency to the opponent's socket,
   each on one line, and the CPU per move of the server, the Celery worker, this client, PostgreSQL and Redis
   (their processes on this machine, if any) and the whole machine.

The client shares the machine with the server, so it is kept cheap: game requests (moves, new games,
resyncs) go through a minimal HTTP/1.1 client over keep-alive asyncio streams (``KeepAliveHTTP``; one
request per connection at a time, idle connections reused), JSON is parsed with ``orjson``, the client runs
on uvloop when it is installed, and a socket frame's view is parsed only when it is newer than what the
player has (the mover's own copy of its move is recognised by its first bytes and dropped). Only
registration and the started server's health check use ``httpx``, whose CPU per request was larger
than all the rest of the client's work per move.

Without ``--rate`` the clients send as fast as answers come back: that measures capacity, and the
latency it prints is then mostly time spent queued behind the other clients' moves (Little's law).
``--rate R`` paces the clients to R moves/s in all: the latency of moves at that offered load.

Push latency is given two ways: from sending the move request until the opponent's socket has the
new version (end to end), and from the mover having the HTTP answer until the opponent has it (the
extra delay of the push; it can be negative, because the server publishes on commit, before it writes
the HTTP answer).

Without a URL it starts its own server, as deployed (``--http-server gunicorn``, the default): ``gunicorn
claim.wsgi:application --workers 2`` (``--workers`` to change; ``GUNICORN_FLAGS``, ``--gunicorn-flags``) for
Django's HTTP and one ``uvicorn claim.asgi:application`` (``UVICORN_FLAGS``) for the sockets, both counted as
server CPU; with ``--proxy`` Debian's Caddy with ``docker/Caddyfile`` in front of both, as in
``docker/compose.yml`` (its CPU on a line of its own), else the clients reach the two servers directly.
``--http-server uvicorn`` runs one uvicorn (``--workers`` processes) for everything, as ``make run`` does.
They run on a free port, on the PostgreSQL database ``claim_bench`` (created and migrated when
missing; override with ``--database-url``) and Redis database 3 (``--redis-url``; a separate Redis
database so test runs that flush the cache do not wipe the channel layer's groups), with the
throttles lifted. Background tasks (the ``game_changed`` receivers: notifications, clocks, ratings)
run as deployed with ``--tasks celery`` (the default): the bench starts a Celery worker
(``celery -A claim worker --concurrency 2``, broker = the bench's Redis database) and prints its CPU
per move on its own line; ``--tasks thread`` runs them on the server's in-process thread pool
(``CLAIM_TASK_MODE=thread``), so their CPU counts as server CPU. The worker's niceness (``WORKER_NICE``)
applies as deployed.
Against your own server, lift the throttles yourself (``THROTTLE_REGISTER``, ``THROTTLE_USER``,
``THROTTLE_MOVES``), or the bench hits 429s.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import re
import secrets
import socket
import ssl
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlparse, urlunparse

import httpx
import orjson
import psycopg
import redis
from websockets.asyncio.client import connect as ws_connect
from websockets.exceptions import ConnectionClosedOK

ROOT = Path(__file__).resolve().parents[1]
UNLIMITED = "100000000/min"
# The deployment's uvicorn flags (scripts/run.sh, docker/Dockerfile; docs/performance.md).
UVICORN_FLAGS = "--http httptools --loop uvloop --ws-per-message-deflate false --no-access-log"
GUNICORN_FLAGS = "--worker-class gthread --threads 8 --keep-alive 75"


# --- the server ---------------------------------------------------------------------------------

def _speed() -> float:
    """CPU seconds of a fixed pure-Python loop: the same figure on the same machine unless its host is busy,
    so runs of different days (or hours) can be compared."""
    start = time.process_time()
    total = 0
    for i in range(10_000_000):
        total += i
    return time.process_time() - start


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _ensure_database(database_url: str) -> None:
    parsed = urlparse(database_url)
    name = parsed.path.lstrip("/")
    admin = urlunparse(parsed._replace(path="/postgres"))
    with psycopg.connect(admin, autocommit=True) as conn:
        if conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone() is None:
            conn.execute(f'CREATE DATABASE "{name}"')


def _vacuum(database_url: str) -> None:
    """``VACUUM (ANALYZE)`` the bench database: what autovacuum would have done since the last run. It is
    off on this machine: each move updates its game and seat rows, whose dead versions piled up (280,000
    dead rows of 6,300 games after a few dozen runs), and the move path's prepared statements are planned
    for the table statistics of their first use (stale ones made the seats query 4 times slower)."""
    with psycopg.connect(database_url, autocommit=True) as conn:
        conn.execute("VACUUM (ANALYZE)")


def _checkpoints(database_url: str) -> int | None:
    """PostgreSQL's checkpoint count so far (None if it cannot be read, e.g. another database server)."""
    try:
        with psycopg.connect(database_url, autocommit=True, connect_timeout=3) as conn:
            row = conn.execute("SELECT checkpoints_timed + checkpoints_req FROM pg_stat_bgwriter").fetchone()
            return int(row[0])
    except psycopg.Error:
        return None


def _purge_queue(redis_url: str) -> None:
    """Drop Celery tasks left in the bench's broker database by an earlier run (or by anything that
    enqueued there without a worker): a worker working off that backlog would be measured as the
    cost of this run's moves."""
    client = redis.Redis.from_url(redis_url)
    left = client.llen("celery")
    client.delete("celery", "unacked", "unacked_index")
    if left:
        print(f"setup: dropped {left} queued tasks of an earlier run from {redis_url}")


def start_server(args) -> tuple[str, subprocess.Popen, Path]:
    env = {k: v for k, v in os.environ.items() if k not in {"CLAIM_EMBEDDED", "DEBUG"}}
    env.update(
        DJANGO_SETTINGS_MODULE=args.settings,
        DATABASE_URL=args.database_url,
        REDIS_URL=args.redis_url,
        SECRET_KEY=env.get("SECRET_KEY") or "bench-only-secret-key-" + secrets.token_hex(16),
        CLAIM_TESTING="1",  # plain HTTP (no SSL redirect, no secure cookies); fast password hashing
        ALLOWED_HOSTS="127.0.0.1,localhost",
        CLAIM_TASK_MODE=args.tasks,
        CELERY_BROKER_URL=args.redis_url, CELERY_RESULT_BACKEND=args.redis_url,
        THROTTLE_USER=UNLIMITED, THROTTLE_ANON=UNLIMITED, THROTTLE_MOVES=UNLIMITED,
        THROTTLE_REGISTER=UNLIMITED, THROTTLE_LOGIN=UNLIMITED,
        LOG_LEVEL="WARNING",
        DB_CONN_MAX_AGE=str(args.conn_max_age),
    )
    _ensure_database(args.database_url)
    _purge_queue(args.redis_url)
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT, env=env, check=True)
    port = args.port or _free_port()
    log = Path(tempfile.mkstemp(prefix="claim-bench-uvicorn-", suffix=".log")[1])
    cmd = [sys.executable, "-m", "uvicorn", "claim.asgi:application", "--host", "127.0.0.1", "--port", str(port),
           "--lifespan", "off", "--log-level", "warning", "--workers", str(args.workers), *args.uvicorn_flags.split()]
    with log.open("wb") as out:
        if args.http_server == "gunicorn":  # Django's HTTP on gunicorn's threads; uvicorn keeps the sockets
            ws_port, http_port = _free_port(), (_free_port() if args.proxy else port)
            ws_cmd = cmd.copy()
            ws_cmd[ws_cmd.index("--port") + 1] = str(ws_port)
            ws_cmd[ws_cmd.index("--workers") + 1] = "1"
            args.ws_proc = subprocess.Popen(ws_cmd, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
            cmd = [sys.executable, "-m", "gunicorn", "claim.wsgi:application", "--bind", f"127.0.0.1:{http_port}",
                   "--workers", str(args.workers), *args.gunicorn_flags.split()]
            if args.proxy:  # the deployment's proxy in front of both, on the bench's port (docker/Caddyfile)
                args.proxy_proc = subprocess.Popen(
                    [args.proxy, "run", "--config", str(ROOT / "docker" / "Caddyfile"), "--adapter", "caddyfile"],
                    cwd=ROOT, env={**env, "PORT": str(port), "HTTP_UPSTREAM": f"127.0.0.1:{http_port}",
                                   "SOCKETS_UPSTREAM": f"127.0.0.1:{ws_port}"}, stdout=out, stderr=subprocess.STDOUT)
            else:
                args.ws_url = f"http://127.0.0.1:{ws_port}"
        proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
        if args.tasks == "celery":
            args.worker_proc = subprocess.Popen(
                [sys.executable, "-m", "celery", "-A", "claim", "worker", "--loglevel", "WARNING", "--concurrency",
                 "2", "--without-gossip", "--without-mingle", "--without-heartbeat"],
                cwd=ROOT, env={**env, **dict(a.split("=", 1) for a in args.worker_env)}, stdout=out,
                stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            _stop_worker(args)
            raise SystemExit(f"the server exited:\n{log.read_text()[-3000:]}")
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(f"{url}/api/v1/health", timeout=2).status_code < 500:
                return url, proc, log
        time.sleep(0.2)
    proc.kill()
    _stop_worker(args)
    raise SystemExit(f"the server did not answer within 60 s:\n{log.read_text()[-3000:]}")


def _stop_worker(args) -> None:
    for worker in (getattr(args, name, None) for name in ("worker_proc", "ws_proc", "proxy_proc")):
        if worker is None:
            continue
        worker.terminate()
        try:
            worker.wait(timeout=10)
        except subprocess.TimeoutExpired:
            worker.kill()


# --- a minimal HTTP/1.1 client -------------------------------------------------------------------

class ProtocolError(Exception):
    """The server's answer is not HTTP/1.1 as this client understands it."""


# What a request can fail with: connection errors and timeouts (OSError), a connection closed
# mid-answer (IncompleteReadError is an EOFError), an over-long header, a malformed answer.
HTTP_ERRORS = (OSError, EOFError, asyncio.LimitOverrunError, ProtocolError)


class KeepAliveHTTP:
    """HTTP/1.1 over keep-alive connections, as little Python as possible per request.

    A pool of idle connections: a request takes the most recently used one that the server has not
    closed (or opens one), sends the request, reads the answer (``Content-Length``, chunked, or up to
    the end of the connection) and puts the connection back unless either side said
    ``Connection: close``. A connection is used by one request at a time, like httpx's pool.
    """

    def __init__(self, base: str, timeout: float = 30.0) -> None:
        url = urlparse(base)
        self.host = url.hostname or "127.0.0.1"
        self.port = url.port or (443 if url.scheme == "https" else 80)
        self.ssl = ssl.create_default_context() if url.scheme == "https" else None
        self.prefix = url.path.rstrip("/").encode()
        self.host_header = url.netloc.encode()
        self.timeout = timeout
        self.idle: list[tuple[asyncio.StreamReader, asyncio.StreamWriter]] = []

    async def request(self, method: bytes, path: str, auth: bytes, body: bytes | None = None) -> tuple[int, bytes]:
        """``(status, body)`` of one request; ``auth`` is the credential's header lines (each ending in CRLF):
        ``Authorization: Bearer …`` for a token, or the PWA's ``Cookie``, ``X-CSRFToken`` and ``Origin``."""
        head = b"%s %s%s HTTP/1.1\r\nHost: %s\r\nUser-Agent: claim-bench\r\nAccept: application/json\r\n%s" % (
            method, self.prefix, path.encode(), self.host_header, auth)
        if body is None:
            message = head + b"\r\n"
        else:
            message = head + b"Content-Type: application/json\r\nContent-Length: %d\r\n\r\n%s" % (len(body), body)
        async with asyncio.timeout(self.timeout):
            reader, writer = await self._connection()
            try:
                writer.write(message)
                status, keep, data = await self._answer(reader, method == b"HEAD")
            except BaseException:
                writer.close()
                raise
        if keep:
            self.idle.append((reader, writer))
        else:
            writer.close()
        return status, data

    async def _connection(self) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
        while self.idle:
            reader, writer = self.idle.pop()
            if not (reader.at_eof() or writer.is_closing()):
                return reader, writer
            writer.close()  # the server closed it while it was idle (keep-alive timeout)
        return await asyncio.open_connection(self.host, self.port, ssl=self.ssl)

    @staticmethod
    async def _answer(reader: asyncio.StreamReader, head_only: bool) -> tuple[int, bool, bytes]:
        while True:
            lines = (await reader.readuntil(b"\r\n\r\n"))[:-4].split(b"\r\n")
            parts = lines[0].split(b" ", 2)
            if len(parts) < 2 or not parts[0].startswith(b"HTTP/") or not parts[1].isdigit():
                raise ProtocolError(f"bad status line {lines[0][:100]!r}")
            status = int(parts[1])
            if not 100 <= status < 200:
                break  # (a 1xx interim answer is followed by the real one)
        keep = parts[0] == b"HTTP/1.1"
        length = None
        chunked = False
        for line in lines[1:]:
            name, _, value = line.partition(b":")
            name = name.strip().lower()
            if name == b"content-length":
                if not value.strip().isdigit():
                    raise ProtocolError(f"bad Content-Length {value[:50]!r}")
                length = int(value)
            elif name == b"transfer-encoding":
                chunked = b"chunked" in value.lower()
            elif name == b"connection":
                value = value.strip().lower()
                if value == b"close":
                    keep = False
                elif value == b"keep-alive":
                    keep = True
        if head_only or status in (204, 304):
            return status, keep, b""
        if chunked:
            return status, keep, await KeepAliveHTTP._chunked(reader)
        if length is not None:
            return status, keep, await reader.readexactly(length)
        return status, False, await reader.read()  # delimited by the end of the connection

    @staticmethod
    async def _chunked(reader: asyncio.StreamReader) -> bytes:
        chunks = []
        while True:
            size_line = (await reader.readuntil(b"\r\n")).split(b";", 1)[0].strip()
            try:
                size = int(size_line, 16)
            except ValueError:
                raise ProtocolError(f"bad chunk size {size_line[:50]!r}") from None
            if size == 0:
                while await reader.readuntil(b"\r\n") != b"\r\n":
                    pass  # trailers
                return b"".join(chunks)
            chunks.append((await reader.readexactly(size + 2))[:-2])

    def close(self) -> None:
        for _, writer in self.idle:
            writer.close()
        self.idle.clear()


def _text(body: bytes) -> str:
    return body[:300].decode(errors="replace")


# --- players and games --------------------------------------------------------------------------

@dataclass
class Player:
    """A user and how their requests authenticate (``--auth``): ``auth`` holds the credential's header lines.

    ``token``: ``Authorization: Bearer`` as a bot sends it. ``session``: what the PWA sends
    (``frontend/src/api.ts``, same-origin ``fetch`` with ``credentials: "same-origin"``): the ``sessionid``
    and ``csrftoken`` cookies, ``X-CSRFToken`` with the cookie's value on unsafe methods (sent on every
    request here: Django ignores it on GET) and the page's ``Origin``, which a browser adds to a POST."""

    username: str
    token: str = ""
    session: str = ""
    csrf: str = ""
    origin: str = ""
    ws: object = None
    auth: bytes = field(init=False, repr=False)

    def __post_init__(self) -> None:
        if self.session:
            self.auth = (f"Cookie: csrftoken={self.csrf}; sessionid={self.session}\r\nX-CSRFToken: {self.csrf}\r\n"
                         f"Origin: {self.origin}\r\n").encode()
        else:
            self.auth = f"Authorization: Bearer {self.token}\r\n".encode()


@dataclass
class Game:
    pair: tuple[Player, Player]
    id: int = 0
    enqueued_version: int = -1  # the newest version a turn was queued for (dedupes HTTP vs socket)
    seen: dict[str, int] = field(default_factory=dict)  # username → the newest version that player has a view of
    inbox: asyncio.Queue | None = None  # while setup plays the game forward: its views, instead of queued turns


@dataclass
class Stats:
    moves: int = 0
    errors: dict[str, int] = field(default_factory=dict)
    move_ms: list[float] = field(default_factory=list)
    push_from_send_ms: list[float] = field(default_factory=list)
    push_from_answer_ms: list[float] = field(default_factory=list)
    pushes_lost: int = 0
    pushes_superseded: int = 0  # the socket had a newer version of the game first, so the server skipped this one
    games_finished: int = 0
    # (game id, version, request sent, answer received) of every move made while measuring
    measured: list[tuple[int, int, float, float]] = field(default_factory=list)

    def error(self, what: str) -> None:
        self.errors[what] = self.errors.get(what, 0) + 1


async def register(base: str, username: str, auth: str = "token") -> Player:
    password = secrets.token_urlsafe(18)  # nothing like the username (a "bench-" prefix was sometimes refused)
    async with httpx.AsyncClient(base_url=base, timeout=30) as session:  # own cookie jar
        csrf = (await session.get("/api/v1/accounts/csrf")).json()["csrf_token"]
        r = await session.post("/api/v1/accounts/register", json={"username": username, "password": password},
                               headers={"X-CSRFToken": csrf, "Referer": base})
        if r.status_code != 201:
            raise SystemExit(f"register {username}: {r.status_code} {r.text[:300]}")
        csrf = session.cookies.get("csrftoken") or csrf
        if auth == "session":  # the PWA's credential: the session register started, and its CSRF cookie
            return Player(username, session=session.cookies["sessionid"], csrf=csrf, origin=base)
        scopes = ["games:read", "games:play"]
        r = await session.post("/api/v1/accounts/tokens", json={"name": "bench", "scopes": scopes},
                               headers={"X-CSRFToken": csrf, "Referer": base})
        if r.status_code != 201:
            raise SystemExit(f"token for {username}: {r.status_code} {r.text[:300]}")
        return Player(username, r.json()["token"])


async def new_game(http: KeepAliveHTTP, game: Game, kind: str) -> list[dict]:
    a, b = game.pair
    status, body = await http.request(
        b"POST", "/api/v1/games", a.auth,
        orjson.dumps({"kind": kind, "opponents": [{"type": "user", "username": b.username}]}))
    if status != 201:
        raise RuntimeError(f"create game: {status} {_text(body)}")
    game.id = orjson.loads(body)["id"]
    game.enqueued_version = -1
    game.seen = {}
    status, body = await http.request(b"POST", f"/api/v1/games/{game.id}/join", b.auth, b"{}")
    if status != 201:
        raise RuntimeError(f"join game: {status} {_text(body)}")
    return [orjson.loads(body), orjson.loads((await http.request(b"GET", f"/api/v1/games/{game.id}", a.auth))[1])]


async def play_random(http: KeepAliveHTTP, game: Game, player: Player, view: dict, rng: random.Random
                      ) -> tuple[int, bytes]:
    """``POST`` a random legal move of ``player``'s ``view`` (with a fresh ``client_id``): ``(status, body)``."""
    move = rng.choice(view["legal_moves"])
    body = orjson.dumps({"version": view["version"], "move": move, "client_id": secrets.token_hex(8)})
    return await http.request(b"POST", f"/api/v1/games/{game.id}/moves", player.auth, body)


def _error_code(body: bytes) -> str:
    """The ``error.code`` of an error answer, if it is one of the API's JSON errors."""
    with contextlib.suppress(ValueError, AttributeError):
        return str(orjson.loads(body).get("error", {}).get("code", ""))
    return ""


def percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    k = max(0, min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1))))
    return ordered[k]


def _stat(pid: int | str) -> tuple[str, list[str]]:
    """``(command name, the fields after it)`` of ``/proc/<pid>/stat``: field 11 is user time, 12 system time, 13
    and 14 those of the ended children it waited for, in clock ticks."""
    head, tail = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)
    return head.split("(", 1)[1], tail.split()


def _seconds(ticks: list[str]) -> float:
    return sum(int(t) for t in ticks) / os.sysconf("SC_CLK_TCK")


def process_tree_cpu(pid: int) -> float:
    """CPU seconds (user + system) used so far by ``pid`` and its live descendants (gunicorn or uvicorn workers)."""
    total = 0.0
    pids, todo = [], [pid]
    while todo:  # the whole tree: uvicorn or gunicorn workers are the server's children
        p = todo.pop()
        pids.append(p)
        with contextlib.suppress(OSError):
            for task in Path(f"/proc/{p}/task").iterdir():
                todo += [int(c) for c in Path(f"/proc/{p}/task/{task.name}/children").read_text().split()]
    for p in pids:
        with contextlib.suppress(OSError, IndexError, ValueError):
            total += _seconds(_stat(p)[1][11:13])
    return total


def services_cpu() -> dict[str, float]:
    """CPU seconds used so far by this machine's PostgreSQL (its processes, and through the postmaster's
    children's total the backends that have ended) and Redis, by name; empty where ``/proc`` is not."""
    used = {"PostgreSQL": 0.0, "Redis": 0.0}
    with contextlib.suppress(OSError):
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            with contextlib.suppress(OSError, IndexError, ValueError):
                comm, fields = _stat(entry.name)
                name = "PostgreSQL" if comm.startswith("postgres") else "Redis" if comm == "redis-server" else None
                if name is None:
                    continue
                used[name] += _seconds(fields[11:13])
                if name == "PostgreSQL" and comm == "postgres" and not (entry / "cmdline").read_bytes().startswith(
                        b"postgres:"):  # the postmaster: what its ended backends used
                    used[name] += _seconds(fields[13:15])
    return {name: seconds for name, seconds in used.items() if seconds}


def machine_cpu() -> tuple[float, float, float] | None:
    """``(busy, steal, total)`` CPU seconds of the whole machine so far (``/proc/stat``; None elsewhere): busy is
    everything but idle, I/O wait and steal, so PostgreSQL, Redis, the kernel's network work and processes that
    came and went (a backend per connection) are in it; steal is time the host gave to other guests."""
    with contextlib.suppress(OSError, ValueError, IndexError):
        fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:9]]
        tick = os.sysconf("SC_CLK_TCK")
        total = sum(fields)
        return (total - fields[3] - fields[4] - fields[7]) / tick, fields[7] / tick, total / tick
    return None


#: The start of a game frame as the server writes it (games.realtime.publish.client_frame): the client reads the
#: game and version from it and parses the whole view only when it may start a turn.
_FRAME_HEAD = re.compile(rb'\{"type":"game","game_id":(\d+),"version":(\d+),')


class Bench:
    def server_tree_cpu(self) -> float:
        """CPU seconds of the started server: its process tree, and the sockets' uvicorn beside gunicorn."""
        if not self.server_pid:
            return 0.0
        ws = getattr(self.args, "ws_proc", None)
        return process_tree_cpu(self.server_pid) + (process_tree_cpu(ws.pid) if ws else 0.0)

    def __init__(self, base: str, args, server_pid: int | None = None) -> None:
        self.server_pid = server_pid
        self.server_cpu = 0.0
        self.worker_cpu: float | None = None
        self.proxy_cpu: float | None = None
        self.base = base
        self.args = args
        self.stats = Stats()
        self.queue: asyncio.Queue = asyncio.Queue()
        self.games: dict[int, Game] = {}
        self.stop_at = 0.0
        self.measuring = False
        self.rng = random.Random(args.seed)
        self.next_slot = 0.0  # --rate: when the next move may be sent
        self.client_cpu = 0.0
        self.waiting: dict[tuple[int, int], Player] = {}  # (game id, version) → the opponent who must see it
        self.pushed_at: dict[tuple[int, int], float] = {}  # (game id, version) → the opponent's socket had it
        self.socket_newest: dict[tuple[int, str], int] = {}  # (game id, username) → the newest version its socket had

    def offer(self, game: Game, player: Player, view: dict) -> None:
        """A view of ``player`` arrived (HTTP answer or socket): queue their turn if it is new."""
        if view.get("id") != game.id:
            return
        if view["version"] > game.seen.get(player.username, -1):
            game.seen[player.username] = view["version"]
        if game.inbox is not None:
            game.inbox.put_nowait((player, view))
            return
        if view.get("status") != "active":
            return
        if view.get("my_turn") and view.get("legal_moves") and view["version"] > game.enqueued_version:
            game.enqueued_version = view["version"]
            self.queue.put_nowait((game, player, view))

    async def socket_reader(self, player: Player) -> None:
        recv = player.ws.recv
        while True:
            try:
                raw = await recv(decode=False)  # bytes: orjson parses them without a UTF-8 decode first
            except ConnectionClosedOK:
                return
            now = time.perf_counter()
            if raw.startswith(b'{"type":"notification"'):
                continue  # the inbox item that comes with a turn: nothing to play
            head = _FRAME_HEAD.match(raw)
            if head is None:  # not the server's game frame layout (an error, a layout it may change to): read it all
                message = orjson.loads(raw)
                if message.get("type") != "game":
                    continue
                game_id, version = message["game_id"], message["version"]
            else:
                game_id, version, message = int(head[1]), int(head[2]), None
            key = (game_id, version)
            newest = (game_id, player.username)
            if version > self.socket_newest.get(newest, -1):
                self.socket_newest[newest] = version
            if self.waiting.get(key) is player:
                del self.waiting[key]
                self.pushed_at[key] = now
            game = self.games.get(game_id)
            if game is None or version <= game.seen.get(player.username, -1):
                continue  # a view this player already has (the mover's own copy): not parsed again
            self.offer(game, player, (message or orjson.loads(raw))["view"])

    async def worker(self, http: KeepAliveHTTP) -> None:
        queue = self.queue
        while time.perf_counter() < self.stop_at:
            try:
                game, player, view = queue.get_nowait()
            except asyncio.QueueEmpty:
                try:
                    async with asyncio.timeout(0.5):  # (no task per wait, unlike asyncio.wait_for)
                        game, player, view = await queue.get()
                except TimeoutError:
                    continue
            if view.get("id") != game.id:
                continue  # a turn of a game that has been replaced
            if self.args.rate:  # paced (open loop): one move every 1/rate seconds across all clients
                slot = max(self.next_slot, time.perf_counter())
                self.next_slot = slot + 1.0 / self.args.rate
                await asyncio.sleep(max(0.0, slot - time.perf_counter()))
            version = view["version"]
            opponent = game.pair[1] if player is game.pair[0] else game.pair[0]
            self.waiting[(game.id, version + 1)] = opponent
            sent = time.perf_counter()
            try:
                status, raw = await play_random(http, game, player, view, self.rng)
            except HTTP_ERRORS as exc:
                self.stats.error(type(exc).__name__)
                await self.resync(http, game)
                continue
            answered = time.perf_counter()
            if status != 201:
                self.stats.error(f"HTTP {status} {_error_code(raw)}".strip())
                await self.resync(http, game)
                continue
            if self.measuring:
                self.stats.moves += 1
                self.stats.move_ms.append((answered - sent) * 1000)
                self.stats.measured.append((game.id, version + 1, sent, answered))
            body = orjson.loads(raw)
            if body["status"] != "active":
                self.stats.games_finished += 1
                await self.restart(http, game)
            else:
                self.offer(game, player, body)

    async def resync(self, http: KeepAliveHTTP, game: Game) -> None:
        for player in game.pair:
            status, raw = await http.request(b"GET", f"/api/v1/games/{game.id}", player.auth)
            if status == 200:
                view = orjson.loads(raw)
                game.enqueued_version = min(game.enqueued_version, view["version"] - 1)
                self.offer(game, player, view)

    async def restart(self, http: KeepAliveHTTP, game: Game, forward: int = 0) -> int:
        """Replace ``game`` by a new one for the same pair; with ``forward``, play that many random moves of
        it first (setup's spread), then queue its turn. Returns the moves played here."""
        self.games.pop(game.id, None)
        views = await new_game(http, game, self.args.kind)
        self.games[game.id] = game
        if forward:
            game.inbox = asyncio.Queue()
        for player, view in zip(game.pair[::-1], views, strict=True):  # join answer is b's, then a's view
            self.offer(game, player, view)
        return await self.play_forward(http, game, forward) if forward else 0

    async def play_forward(self, http: KeepAliveHTTP, game: Game, moves: int) -> int:
        """Play ``moves`` random moves of ``game`` (its views come to ``game.inbox``, from the answers and the
        sockets), then queue the turn of the version reached as :meth:`offer` does. Returns the moves played."""
        inbox, acted, played = game.inbox, -1, 0  # acted: the version of the last move played here
        while True:
            player, view = await asyncio.wait_for(inbox.get(), 10)
            if view.get("status") != "active":  # the game ended first (a short kind): a new one, from its start
                game.inbox = None
                await self.restart(http, game)
                return played
            if view["version"] <= acted or not (view.get("my_turn") and view.get("legal_moves")):
                continue  # not a turn, or one already played (the answer and the mover's socket both bring it)
            if moves == 0:
                break
            moves, acted, played = moves - 1, view["version"], played + 1
            status, raw = await play_random(http, game, player, view, self.rng)
            if status != 201:
                raise RuntimeError(f"setup move: {status} {_text(raw)}")
            self.offer(game, player, orjson.loads(raw))
        game.inbox = None
        self.offer(game, player, view)
        return played

    async def run(self) -> None:
        args = self.args
        http = KeepAliveHTTP(self.base, timeout=30)
        try:
            tag = secrets.token_hex(3)
            t0 = time.perf_counter()
            sem = asyncio.Semaphore(16)

            async def reg(i: int) -> Player:
                async with sem:
                    return await register(self.base, f"bench{tag}-{i}", args.auth)

            players = await asyncio.gather(*(reg(i) for i in range(2 * args.games)))
            print(f"setup: registered {len(players)} users, authenticating by {args.auth}, in "
                  f"{time.perf_counter() - t0:.1f} s")
            ws_base = (self.args.ws_url or self.base).replace("http", "ws", 1) + "/ws/"
            for p in players:
                if p.session:  # the PWA's socket: its cookies, checked against its Origin
                    origin = self.args.ws_url or self.base
                    p.ws = await ws_connect(ws_base, origin=origin, max_size=2**22, additional_headers={
                        "Cookie": f"csrftoken={p.csrf}; sessionid={p.session}"})
                else:
                    p.ws = await ws_connect(f"{ws_base}?token={p.token}", origin=self.args.ws_url or self.base,
                                            max_size=2**22)
                await p.ws.send(orjson.dumps({"type": "subscribe", "games": "all"}).decode())
                ack = orjson.loads(await p.ws.recv())
                assert ack["type"] == "subscribed", ack
            readers = [asyncio.create_task(self.socket_reader(p)) for p in players]
            pairs = [Game((players[2 * i], players[2 * i + 1])) for i in range(args.games)]
            t0 = time.perf_counter()
            forward = [self.rng.randrange(args.spread) if args.spread > 0 else 0 for _ in pairs]
            played = await asyncio.gather(*(self.restart(http, g, n) for g, n in zip(pairs, forward, strict=True)))
            print(f"setup: {args.games} games and {len(players)} sockets ready"
                  + (f", spread over their length: {sum(played)} moves played first, in "
                     f"{time.perf_counter() - t0:.1f} s" if args.spread > 0 else ", all at their first move"))
            if self.server_pid:  # our own server: its database as autovacuum would keep it
                t0 = time.perf_counter()
                await asyncio.to_thread(_vacuum, args.database_url)
                print(f"setup: VACUUM (ANALYZE) of the bench database in {time.perf_counter() - t0:.1f} s")

            self.stop_at = time.perf_counter() + args.warmup + args.duration
            workers = [asyncio.create_task(self.worker(http)) for _ in range(args.clients)]
            await asyncio.sleep(args.warmup)
            self.measuring = True
            started = time.perf_counter()
            cpu0 = self.server_tree_cpu()
            checkpoints0 = await asyncio.to_thread(_checkpoints, args.database_url)
            worker = getattr(args, "worker_proc", None)
            wcpu0 = process_tree_cpu(worker.pid) if worker else 0.0
            proxy = getattr(args, "proxy_proc", None)
            pcpu0 = process_tree_cpu(proxy.pid) if proxy else 0.0
            ccpu0 = time.process_time()
            machine0, services0 = machine_cpu(), services_cpu()
            await asyncio.gather(*workers)
            elapsed = time.perf_counter() - started
            self.client_cpu = time.process_time() - ccpu0
            machine1, services1 = machine_cpu(), services_cpu()
            self.services = {name: used - services0.get(name, 0.0) for name, used in services1.items()}
            self.machine = None if machine0 is None or machine1 is None else tuple(
                b - a for a, b in zip(machine0, machine1, strict=True))
            checkpoints1 = await asyncio.to_thread(_checkpoints, args.database_url)
            self.checkpoints = None if None in (checkpoints0, checkpoints1) else checkpoints1 - checkpoints0
            self.measuring = False
            if self.server_pid:
                self.server_cpu = self.server_tree_cpu() - cpu0
            if worker:
                self.worker_cpu = process_tree_cpu(worker.pid) - wcpu0
            if proxy:
                self.proxy_cpu = process_tree_cpu(proxy.pid) - pcpu0
            await self.collect_pushes()
            for task in readers:
                task.cancel()
            for p in players:
                await p.ws.close()
        finally:
            http.close()
        self.report(elapsed)

    async def collect_pushes(self, grace: float = 3.0) -> None:
        """Push latency of every measured move, waiting up to ``grace`` seconds for the last pushes;
        a push that has not arrived by then is counted as lost, unless the opponent's socket had a newer
        version of the game first: a socket never gets an older version after a newer one, and with two
        server processes a player who moves twice in a row (a trick's winner leads) can have the second
        move's push published before the first's. That view supersedes the skipped one, so it is counted
        apart (superseded), with no latency."""
        s = self.stats

        def superseded(game_id: int, version: int) -> bool:
            who = self.waiting.get((game_id, version))
            return who is not None and self.socket_newest.get((game_id, who.username), -1) > version

        deadline = time.perf_counter() + grace
        while time.perf_counter() < deadline and any(
                (g, v) not in self.pushed_at and not superseded(g, v) for g, v, _, _ in s.measured):
            await asyncio.sleep(0.05)
        for game_id, version, sent, answered in s.measured:
            at = self.pushed_at.get((game_id, version))
            if at is None:
                if superseded(game_id, version):
                    s.pushes_superseded += 1
                else:
                    s.pushes_lost += 1
                continue
            s.push_from_send_ms.append((at - sent) * 1000)
            s.push_from_answer_ms.append((at - answered) * 1000)

    def report(self, elapsed: float) -> None:
        s, a = self.stats, self.args
        if a.dump:  # one line per measured move: sent (s, perf_counter), HTTP latency (ms), game, version
            with open(a.dump, "w") as out:
                for game_id, version, sent, answered in s.measured:
                    out.write(f"{sent:.4f} {(answered - sent) * 1000:.1f} {game_id} {version}\n")
        print(f"moves/s: {s.moves / elapsed:.1f} ({s.moves} moves in {elapsed:.1f} s; {a.clients} clients, "
              f"{a.games} games, {s.games_finished} games finished)")
        print(f"move latency ms (HTTP POST /moves): p50 {percentile(s.move_ms, 50):.1f}  "
              f"p95 {percentile(s.move_ms, 95):.1f}  p99 {percentile(s.move_ms, 99):.1f}  "
              f"max {max(s.move_ms, default=float('nan')):.1f}")
        print(f"push latency ms (move sent -> opponent socket): p50 {percentile(s.push_from_send_ms, 50):.1f}  "
              f"p99 {percentile(s.push_from_send_ms, 99):.1f}  (n={len(s.push_from_send_ms)})")
        print(f"push latency ms (move accepted -> opponent socket): p50 {percentile(s.push_from_answer_ms, 50):.1f}"
              f"  p99 {percentile(s.push_from_answer_ms, 99):.1f}  (n={len(s.push_from_answer_ms)};"
              " from the mover's reading its answer: negative where the push came first)")
        errors = ", ".join(f"{k}: {v}" for k, v in sorted(s.errors.items())) or "none"
        superseded = (f"; superseded (a newer version of the game reached that socket first): {s.pushes_superseded}"
                      if s.pushes_superseded else "")
        print(f"errors: {errors}; pushes not seen within 3 s: {s.pushes_lost}{superseded}")
        if getattr(self, "checkpoints", None) is not None:
            print(f"PostgreSQL checkpoints during the run: {self.checkpoints} (their writes stall commits for a "
                  "moment: the latency tail)")
        if s.move_ms:
            print(f"(mean move latency {statistics.fmean(s.move_ms):.1f} ms)")
        if self.server_pid and s.moves:
            print(f"server CPU: {self.server_cpu * 1000 / s.moves:.1f} ms per move "
                  f"({self.server_cpu / elapsed * 100:.0f}% of one core; PostgreSQL and Redis not included)")
        if s.moves:
            print(f"bench client CPU: {self.client_cpu * 1000 / s.moves:.1f} ms per move "
                  f"({self.client_cpu / elapsed * 100:.0f}% of one core, on the same machine)")
        if self.proxy_cpu is not None and s.moves:
            print(f"proxy CPU: {self.proxy_cpu * 1000 / s.moves:.1f} ms per move "
                  f"({self.proxy_cpu / elapsed * 100:.0f}% of one core; Caddy in front of both servers)")
        if self.worker_cpu is not None and s.moves:
            print(f"task worker CPU: {self.worker_cpu * 1000 / s.moves:.1f} ms per move "
                  f"({self.worker_cpu / elapsed * 100:.0f}% of one core; Celery, game_changed receivers)")
        for name, used in getattr(self, "services", {}).items():
            if s.moves:
                print(f"{name} CPU: {used * 1000 / s.moves:.1f} ms per move ({used / elapsed * 100:.0f}% of one core; "
                      "its processes on this machine, whoever they served)")
        machine = getattr(self, "machine", None)
        if machine is not None and s.moves and machine[2] > 0:
            busy, steal, total = machine
            print(f"machine CPU: {busy * 1000 / s.moves:.1f} ms per move, every process and the kernel "
                  f"(busy {busy / total * 100:.0f}% of {os.cpu_count()} CPUs, steal {steal / total * 100:.0f}%): "
                  "compare runs by this when the host's speed moves")


def _loop_factory():
    """uvloop's event loop when installed (the server's, too): the client's share of the machine is smaller."""
    try:
        import uvloop  # noqa: PLC0415 - optional: the standard loop without it
    except ImportError:
        return None
    return uvloop.new_event_loop


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("url", nargs="?", help="a running server, e.g. http://127.0.0.1:8000 (default: start one)")
    parser.add_argument("--games", type=int, default=20, help="concurrent games (2 users each); default 20")
    parser.add_argument("--clients", type=int, default=20, help="concurrent HTTP clients; default 20")
    parser.add_argument("--duration", type=float, default=20, help="measured seconds; default 20")
    parser.add_argument("--warmup", type=float, default=3, help="unmeasured seconds first; default 3")
    parser.add_argument("--spread", type=int, default=50, metavar="MOVES",
                        help="setup plays a random 0 to MOVES-1 moves of each game first, so games end at different "
                             "times; default 50 (a 2-player Claim game is 52 moves); 0: all start at their first move")
    parser.add_argument("--kind", default="claim", help="game kind; default claim")
    parser.add_argument("--auth", choices=["token", "session"], default="token",
                        help="how every game request and socket authenticates: an API token (Authorization: "
                             "Bearer, as bots) or the PWA's session cookie with its CSRF header and Origin; "
                             "default token")
    parser.add_argument("--port", type=int, default=0, help="port of the started server; default a free one")
    parser.add_argument("--worker-env", nargs="*", default=["DB_POOL=0", "DB_CONN_MAX_AGE=600"], metavar="NAME=VALUE",
                        help="extra environment of the Celery worker; default as deployed (docker/compose.yml): "
                             "DB_POOL=0 DB_CONN_MAX_AGE=600")
    parser.add_argument("--rate", type=float, default=0,
                        help="offered load in moves/s (paced: latency at a given load); default 0 = as fast as "
                             "the clients can (capacity: latency then mostly measures the queue)")
    parser.add_argument("--ws-url", default=None,
                        help="the sockets' server, if not URL's (e.g. uvicorn beside gunicorn)")
    parser.add_argument("--http-server", choices=["uvicorn", "gunicorn"], default="gunicorn",
                        help="the started server's HTTP: gunicorn (WSGI, GUNICORN_FLAGS, as deployed) beside a "
                             "uvicorn for the sockets (default), or uvicorn for everything (ASGI, as `make run`)")
    parser.add_argument("--gunicorn-flags", default=GUNICORN_FLAGS, help=f"default {GUNICORN_FLAGS!r}")
    parser.add_argument("--proxy", nargs="?", const="/usr/bin/caddy", default=None, metavar="CADDY",
                        help="with --http-server gunicorn: put Caddy (this binary; default /usr/bin/caddy) with "
                             "docker/Caddyfile in front of both servers, as deployed; its CPU is printed apart")
    parser.add_argument("--workers", type=int, default=2,
                        help="worker processes of the started HTTP server (WEB_CONCURRENCY); default 2, as deployed")
    parser.add_argument("--database-url", default=os.environ.get("BENCH_DATABASE_URL",
                                                                 "postgres://postgres@127.0.0.1:5432/claim_bench"))
    parser.add_argument("--redis-url", default=os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/3"))
    parser.add_argument("--conn-max-age", type=int, default=int(os.environ.get("DB_CONN_MAX_AGE", "0")),
                        help="DB_CONN_MAX_AGE of the started server (default 0, the project default: one connection "
                             "per request. Under ASGI every request runs in its own thread, so persistent "
                             "connections pile up; see the report)")
    parser.add_argument("--settings", default=os.environ.get("BENCH_SETTINGS", "claim.settings"),
                        help="DJANGO_SETTINGS_MODULE of the started server; default claim.settings")
    parser.add_argument("--uvicorn-flags", default=UVICORN_FLAGS,
                        help=f"more flags of the started uvicorn; default the deployment's: {UVICORN_FLAGS!r} "
                             "(pass e.g. '--no-access-log' alone to compare with uvicorn's defaults)")
    parser.add_argument("--tasks", choices=["celery", "thread"], default="celery",
                        help="background tasks of the started server: a Celery worker (default, as deployed) or "
                             "the server's in-process thread pool")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--dump", metavar="FILE",
                        help="write one line per measured move (send time, HTTP latency ms, game, version) to FILE")
    args = parser.parse_args()

    proc = log = None
    url = args.url
    if not url:
        url, proc, log = start_server(args)
        shape = (f"gunicorn --workers {args.workers} {args.gunicorn_flags} + uvicorn {args.uvicorn_flags}"
                 + (" behind Caddy" if args.proxy else "") if args.http_server == "gunicorn"
                 else f"uvicorn --workers {args.workers} {args.uvicorn_flags}")
        print(f"server: {url} (auth: {args.auth}; {shape}; "
              f"tasks: {args.tasks}; "
              f"DB_CONN_MAX_AGE={args.conn_max_age}, "
              f"{args.database_url}, {args.redis_url}); pid {proc.pid}")
    print(f"machine: {os.cpu_count()} CPUs, load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}, "
          f"speed: {_speed():.2f} s CPU for a 10M-step Python loop (this machine's host load varies it)")
    try:
        with asyncio.Runner(loop_factory=_loop_factory()) as runner:
            runner.run(Bench(url.rstrip("/"), args, proc.pid if proc else None).run())
    finally:
        if proc is not None:
            _stop_worker(args)
            proc.terminate()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
            tail = log.read_text(errors="replace").strip()[-1500:]
            if tail:
                print(f"server log (tail):\n{tail}")
            log.unlink(missing_ok=True)


if __name__ == "__main__":
    main()
