"""A real multi-process deployment on this machine, private to one test session: its own PostgreSQL cluster and
Redis server (so the tests may stop and restart them without touching anybody else's), and the replicas
docker/compose.yml runs: two gunicorns (Django's HTTP) and two uvicorns (the sockets), each on its own port,
behind ONE Caddy with docker/Caddyfile (given both addresses of each kind), two Celery workers and one Celery beat,
all started as subprocesses and stopped in teardown (``Deployment.close``).

Nothing here is a stand-in: the servers run ``claim.wsgi:application`` and ``claim.asgi:application`` with
``claim.settings`` (DEBUG off), the worker and beat run ``celery -A claim``. Only the Redis visibility timeout is
lowered (``CELERY_VISIBILITY_TIMEOUT``, and the worker's sweep for such tasks, ``CELERY_RESTORE_SWEEP_SECONDS``) so
a task lost with a killed worker is redelivered within the test instead of after an hour.
"""

from __future__ import annotations

import contextlib
import json
import os
import pwd
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import psycopg
import redis

from tests.journeys.conftest import JOURNEY_TIMINGS

ROOT = Path(__file__).resolve().parents[2]
CADDY = os.environ.get("CADDY_PATH", "/usr/bin/caddy")


def _pg_bin() -> Path:
    """``CLAIM_FAULTS_PG_BIN``, else the newest ``/usr/lib/postgresql/<major>/bin`` (Debian's layout)."""
    if os.environ.get("CLAIM_FAULTS_PG_BIN"):
        return Path(os.environ["CLAIM_FAULTS_PG_BIN"])
    found = [p for p in Path("/usr/lib/postgresql").glob("*/bin") if p.parent.name.isdigit()]
    return max(found, key=lambda p: int(p.parent.name)) if found else Path("/usr/lib/postgresql/15/bin")


PG_BIN = _pg_bin()
UNLIMITED = "1000000/min"
VISIBILITY_TIMEOUT = 6  # seconds; production: 3600 (kombu's default, claim/settings.py)
DB_NAME = "claim_faults"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(what: str, check: Callable[[], Any], timeout: float, interval: float = 0.1) -> Any:
    """Poll ``check`` until it returns something truthy (returned) or ``timeout`` passes (AssertionError)."""
    deadline = time.monotonic() + timeout
    last: Any = None
    while time.monotonic() < deadline:
        try:
            last = check()
        except Exception as exc:  # the thing polled for may fail until it is ready
            last = exc
        else:
            if last:
                return last
        time.sleep(interval)
    raise AssertionError(f"timed out after {timeout:.0f}s waiting for {what} (last: {last!r})")


@dataclass
class Proc:
    """A subprocess in its own session (so killing it kills its children: prefork pool, uvicorn workers)."""

    name: str
    argv: list[str]
    env: dict[str, str]
    log: Path
    process: subprocess.Popen | None = None
    user: str | None = None

    def start(self) -> Proc:
        argv = ["runuser", "-u", self.user, "--", *self.argv] if self.user else self.argv
        with self.log.open("ab") as out:
            out.write(f"\n--- start {' '.join(self.argv)}\n".encode())
            out.flush()
            self.process = subprocess.Popen(argv, cwd=ROOT, env=self.env, stdout=out, stderr=subprocess.STDOUT,
                                            start_new_session=True)
        return self

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def signal(self, sig: int) -> None:
        if self.alive():
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, sig)

    def kill(self) -> None:
        """SIGKILL to the whole process group: no cleanup, no acknowledgement, like a machine that dies."""
        if self.process is None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=30)

    def stop(self, timeout: float = 15) -> None:
        if not self.alive():
            return
        self.signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.kill()

    def output(self, chars: int = 6000) -> str:
        return self.log.read_text(errors="replace")[-chars:] if self.log.exists() else ""


@dataclass
class PrivateRedis:
    port: int
    tmp: Path
    proc: Proc | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        argv = [shutil.which("redis-server") or "redis-server", "--port", str(self.port), "--bind", "127.0.0.1",
                "--save", "", "--appendonly", "no", "--daemonize", "no", "--dir", str(self.tmp)]
        self.proc = Proc("redis", argv, dict(os.environ), self.tmp / "redis.log").start()
        wait_for("redis to answer", self.ping, 20)

    def client(self):
        return redis.Redis(host="127.0.0.1", port=self.port, socket_timeout=2, socket_connect_timeout=2)

    def ping(self) -> bool:
        with self.client() as c:
            return bool(c.ping())

    def stop(self) -> None:
        if self.proc:
            self.proc.stop()


@dataclass
class PrivatePostgres:
    """A throw-away cluster (initdb) on its own port and socket directory; fsync off (test data only)."""

    port: int
    tmp: Path
    user: str | None = None  # PostgreSQL refuses to run as root: then the cluster belongs to "postgres"
    proc: Proc | None = None

    @property
    def datadir(self) -> Path:
        return self.tmp / "pgdata"

    def url(self, name: str = DB_NAME) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/{name}"

    def _run(self, *argv: str) -> None:
        cmd = ["runuser", "-u", self.user, "--", *argv] if self.user else list(argv)
        subprocess.run(cmd, check=True, capture_output=True, timeout=120)

    def init(self) -> None:
        if os.geteuid() == 0:
            self.user = "postgres"
            pw = pwd.getpwnam(self.user)
            os.chown(self.tmp, pw.pw_uid, pw.pw_gid)
        self._run(str(PG_BIN / "initdb"), "-D", str(self.datadir), "-U", "postgres", "--auth=trust",
                  "--no-sync", "-E", "UTF8")
        self.start()
        self._run(str(PG_BIN / "createdb"), "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres", DB_NAME)

    def start(self) -> None:
        argv = [str(PG_BIN / "postgres"), "-D", str(self.datadir), "-p", str(self.port), "-h", "127.0.0.1",
                "-k", str(self.tmp), "-c", "fsync=off", "-c", "synchronous_commit=off",
                "-c", "full_page_writes=off", "-c", "max_connections=200"]
        self.proc = Proc("postgres", argv, dict(os.environ), self.tmp / "postgres.log", user=self.user).start()
        wait_for("postgres to accept connections", self.ready, 60, interval=0.2)

    def ready(self) -> bool:
        with psycopg.connect(host="127.0.0.1", port=self.port, user="postgres", dbname="postgres",
                             connect_timeout=2):
            return True

    def stop(self) -> None:
        """A fast shutdown (SIGINT): every session is cut, like a restart of the database server."""
        if self.proc and self.proc.alive():
            self.proc.signal(signal.SIGINT)
            try:
                self.proc.process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                self.proc.kill()

    def query(self, sql: str, params: tuple = ()) -> list[tuple]:
        with psycopg.connect(host="127.0.0.1", port=self.port, user="postgres", dbname=DB_NAME,
                             connect_timeout=5) as conn:
            return list(conn.execute(sql, params).fetchall())


REPLICAS = 2  # of each kind: gunicorn, uvicorn, Celery worker (beat: exactly one)


@dataclass
class Deployment:
    """One Caddy (``port``) in front of ``REPLICAS`` gunicorns and uvicorns, ``REPLICAS`` Celery workers, one beat.

    A client talks to the proxy (``http()``, ``ws(None, token)``); a test that needs one replica in particular
    addresses it directly (``http(i)``: gunicorn i, ``ws(i, token)``: uvicorn i).
    """

    tmp: Path
    pg: PrivatePostgres
    redis: PrivateRedis
    env: dict[str, str] = field(default_factory=dict)
    port: int = 0  # the proxy's
    http_ports: list[int] = field(default_factory=list)
    socket_ports: list[int] = field(default_factory=list)
    gunicorns: list[Proc] = field(default_factory=list)
    uvicorns: list[Proc] = field(default_factory=list)
    proxy: Proc | None = None
    workers: list[Proc] = field(default_factory=list)
    beat: Proc | None = None
    worker_starts: int = 0

    # --- processes -----------------------------------------------------------------------------------------
    def _python(self, name: str, *args: str) -> Proc:
        return Proc(name, [sys.executable, *args], self.env, self.tmp / f"{name}.log")

    @property
    def servers(self) -> list[Proc]:
        """Every process that serves clients: the gunicorns, the uvicorns and the proxy."""
        return [*self.gunicorns, *self.uvicorns, *([self.proxy] if self.proxy else [])]

    def _gunicorn(self, i: int) -> Proc:
        return self._python(f"gunicorn{i}", "-m", "gunicorn", "claim.wsgi:application", "--bind",
                            f"127.0.0.1:{self.http_ports[i]}", "--workers", "1", "--worker-class", "gthread",
                            "--threads", "4")

    def _uvicorn(self, i: int) -> Proc:
        return self._python(f"uvicorn{i}", "-m", "uvicorn", "claim.asgi:application", "--host", "127.0.0.1",
                            "--port", str(self.socket_ports[i]), "--lifespan", "off", "--log-level", "warning")

    def start_servers(self) -> None:
        """``REPLICAS`` gunicorns and uvicorns, each on its own port, and one Caddy (docker/Caddyfile) in front of
        them all, given every address as compose's proxy is (space-separated ``HTTP_UPSTREAM``/``SOCKETS_UPSTREAM``)."""
        self.port = free_port()
        for i in range(REPLICAS):
            self.http_ports.append(free_port())
            self.socket_ports.append(free_port())
            self.gunicorns.append(self._gunicorn(i).start())
            self.uvicorns.append(self._uvicorn(i).start())
        self.proxy = Proc(
            "caddy", [CADDY, "run", "--config", str(ROOT / "docker" / "Caddyfile"), "--adapter", "caddyfile"],
            {**self.env, "PORT": str(self.port),
             "HTTP_UPSTREAM": " ".join(f"127.0.0.1:{p}" for p in self.http_ports),
             "SOCKETS_UPSTREAM": " ".join(f"127.0.0.1:{p}" for p in self.socket_ports),
             "XDG_DATA_HOME": str(self.tmp), "XDG_CONFIG_HOME": str(self.tmp)}, self.tmp / "caddy.log").start()

    def restart_gunicorn(self, i: int) -> None:
        """Start gunicorn i again on its port (after a kill) and wait until it answers."""
        self.gunicorns[i] = self._gunicorn(i).start()
        wait_for(f"gunicorn{i} to answer", lambda: self._answers(f"http://127.0.0.1:{self.http_ports[i]}"), 60, 0.3)

    def restart_uvicorn(self, i: int) -> None:
        self.uvicorns[i] = self._uvicorn(i).start()
        wait_for(f"uvicorn{i} to answer", lambda: self._answers(f"http://127.0.0.1:{self.socket_ports[i]}"), 60, 0.3)

    @staticmethod
    def _answers(base: str) -> bool:
        return httpx.get(f"{base}/api/v1/health", timeout=5).status_code == 200

    def start_worker(self, i: int | None = None) -> Proc:
        """Worker ``i`` again (a new one when None): a prefork pool of one, with a node name of its own."""
        self.worker_starts += 1
        n = len(self.workers) if i is None else i
        proc = self._python(
            f"worker{n}", "-m", "celery", "-A", "claim", "worker", "-l", "info", "-c", "1", "-P", "prefork",
            "-n", f"faults{n}-{self.worker_starts}@%h", "--without-gossip", "--without-mingle").start()
        if i is None:
            self.workers.append(proc)
        else:
            self.workers[i] = proc
        return proc

    def start_beat(self) -> None:
        self.beat = self._python("beat", "-m", "celery", "-A", "claim", "beat", "-l", "info",
                                 "-s", str(self.tmp / "beat-schedule")).start()

    def http(self, i: int | None = None) -> str:
        """The proxy's address, or gunicorn ``i``'s."""
        return f"http://127.0.0.1:{self.port if i is None else self.http_ports[i]}"

    def ws(self, i: int | None, token: str) -> str:
        """The events socket through the proxy, or on uvicorn ``i``."""
        return f"ws://127.0.0.1:{self.port if i is None else self.socket_ports[i]}/ws/?token={token}"

    def healthy(self, base: str) -> bool:
        r = httpx.get(f"{base}/api/v1/health", timeout=5)
        return r.status_code == 200 and r.json()["ok"] and r.json()["checks"]["celery"]["ok"]

    def wait_healthy(self, timeout: float = 90) -> None:
        """Every gunicorn, every uvicorn and the proxy answer, reach the database and Redis, and a Celery worker
        is alive (its heartbeat)."""
        bases = [*(f"http://127.0.0.1:{p}" for p in [*self.http_ports, *self.socket_ports]), self.http()]
        for base in bases:
            def check(base: str = base) -> bool:
                for proc in [*self.servers, *self.workers]:
                    if not proc.alive():
                        raise RuntimeError(f"{proc.name} exited:\n{proc.output()}")
                return self.healthy(base)

            wait_for(f"{base} to be healthy", check, timeout, interval=0.5)

    def log_marks(self) -> dict[str, int]:
        """How long each worker's log is now: pass to ``worker_log_since``."""
        return {w.name: w.log.stat().st_size if w.log.exists() else 0 for w in self.workers}

    def worker_logs_since(self, marks: dict[str, int]) -> list[str]:
        """What each worker (by index) logged since ``marks``."""
        out = []
        for w in self.workers:
            with w.log.open("rb") as f:
                f.seek(marks.get(w.name, 0))
                out.append(f.read().decode(errors="replace"))
        return out

    def worker_log_since(self, marks: dict[str, int]) -> str:
        """What every worker logged since ``marks`` (one worker's lines after the other's)."""
        return "\n".join(self.worker_logs_since(marks))

    # --- Django management from outside ----------------------------------------------------------------------
    def manage(self, code: str) -> Any:
        """Run Python in ``manage.py shell`` against the deployment; the code prints one JSON line last."""
        out = subprocess.run([sys.executable, "manage.py", "shell", "-c", code], cwd=ROOT, env=self.env,
                             capture_output=True, text=True, timeout=180)
        if out.returncode != 0:
            raise RuntimeError(f"manage.py shell failed ({out.returncode}):\n{out.stderr[-3000:]}")
        return json.loads(out.stdout.strip().splitlines()[-1])

    def make_users(self, *names: str) -> dict[str, str]:
        """Users with a games:read+games:play token each: ``{name: token}``."""
        code = (
            "import json\n"
            "from accounts.models import ApiToken, User\n"
            "out = {}\n"
            f"for name in {list(names)!r}:\n"
            "    user = User.objects.create_user(username=name, password='faults-pw-1234')\n"
            "    out[name] = ApiToken.issue(user, 'faults', ['games:read', 'games:play'])[1]\n"
            "print(json.dumps(out))\n"
        )
        return self.manage(code)

    def replay_all(self) -> dict[str, str]:
        """``replay_log`` of every game that has moves: ``{game id: message}`` (all "identical" when sound)."""
        code = (
            "import json\n"
            "from games.models import Game\n"
            "from games.service import replay_log\n"
            "print(json.dumps({str(g): replay_log(g).message for g in\n"
            "      Game.objects.filter(move_count__gt=0).values_list('pk', flat=True)}))\n"
        )
        return self.manage(code)

    def game_row(self, game_id: int) -> tuple[int, int, str]:
        """(version, move_count, status) straight from PostgreSQL."""
        (row,) = self.pg.query("SELECT version, move_count, status FROM games_game WHERE id = %s", (game_id,))
        return row

    def move_log(self, game_id: int) -> list[tuple[int, int, int]]:
        """(number, version, seat) of every stored move, in order."""
        return self.pg.query("SELECT number, version, seat FROM games_move WHERE game_id = %s ORDER BY number",
                             (game_id,))

    # --- teardown ----------------------------------------------------------------------------------------------
    def dump(self) -> str:
        procs = [*self.servers, *self.workers, self.beat, self.redis.proc, self.pg.proc]
        return "\n".join(f"--- {p.name} ({p.log}) ---\n{p.output(3000)}" for p in procs if p is not None)

    def close(self) -> None:
        for proc in [self.proxy, *self.gunicorns, *self.uvicorns, *self.workers, self.beat]:
            if proc is not None:
                with contextlib.suppress(Exception):
                    proc.stop(timeout=10)
        with contextlib.suppress(Exception):
            self.redis.stop()
        with contextlib.suppress(Exception):
            self.pg.stop()
        shutil.rmtree(self.tmp, ignore_errors=True)


def deploy() -> Deployment:
    """Start everything; the caller must ``close()`` it (also when this raises: then it cleans up itself)."""
    tmp = Path(tempfile.mkdtemp(prefix="claim-faults-"))
    pg = PrivatePostgres(free_port(), tmp)
    redis = PrivateRedis(free_port(), tmp)
    dep = Deployment(tmp, pg, redis)
    try:
        redis.start()
        pg.init()
        env = {k: v for k, v in os.environ.items()
               if not k.startswith(("CLAIM_", "CELERY_", "DB_", "THROTTLE_")) and k not in {"DEBUG"}}
        env.update(
            DJANGO_SETTINGS_MODULE="claim.settings",
            DATABASE_URL=pg.url(),
            REDIS_URL=redis.url,
            SECRET_KEY="faults-only-secret-key-not-for-production-0123456789abcdef",
            DEBUG="0",
            ALLOWED_HOSTS="127.0.0.1,localhost", BEHIND_PROXY="1",
            # plain HTTP on 127.0.0.1: no TLS redirect, cookies over http (the rest stays production)
            SECURE_SSL_REDIRECT="0", SESSION_COOKIE_SECURE="0", CSRF_COOKIE_SECURE="0", SECURE_HSTS_SECONDS="0",
            CLAIM_TASK_MODE="celery",
            CELERY_VISIBILITY_TIMEOUT=str(VISIBILITY_TIMEOUT),
            CELERY_RESTORE_SWEEP_SECONDS="1",
            DB_POOL_TIMEOUT="3",  # a request waits this long for a database connection before its 503
            THROTTLE_USER=UNLIMITED, THROTTLE_ANON=UNLIMITED, THROTTLE_MOVES=UNLIMITED,
            THROTTLE_GAMES_CREATE=UNLIMITED,
            LOG_LEVEL="INFO",
            PYTHONUNBUFFERED="1",
            CLAIM_VAR_DIR=str(tmp / "var"),  # collected static files (the PWA), beat's schedule
            # The served journey (test_journey.py) runs here too: its shortened correspondence timings
            # (tests/journeys/conftest.py); the other tests' games have no clock.
            **JOURNEY_TIMINGS,
        )
        dep.env = env
        for step in (["migrate", "--noinput", "-v", "0"], ["collectstatic", "--noinput", "-v", "0"]):
            done = subprocess.run([sys.executable, "manage.py", *step], cwd=ROOT, env=env, capture_output=True,
                                  text=True, timeout=600)
            if done.returncode != 0:
                raise RuntimeError(f"{step[0]} failed:\n{done.stderr[-3000:]}")
        dep.start_servers()
        for _ in range(REPLICAS):
            dep.start_worker()
        dep.start_beat()
        dep.wait_healthy()
    except BaseException:
        print(dep.dump())
        dep.close()
        raise
    return dep
