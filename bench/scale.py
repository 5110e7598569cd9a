"""Cost as the data grows (issue 38): the same figures on databases of 10k, 100k, 1M finished games.

    .venv/bin/python bench/scale.py --sizes 10k,100k [--reseed] [--rounds 3] [--sockets 10000]
    make scale

For each size it keeps a database ``claim_scale_<size>`` (``--admin-url``'s server; created and seeded once, reused
by later runs; ``--reseed`` drops and refills it). Seeding (``bench/scale_seed.py``): a pool of real games played
once by the service (``claim_scale_pool``), copied with PostgreSQL ``COPY`` into ``size`` finished 2-seat Claim
games (each with its move log, history, stored record, rated-game and rating-history rows), 10,000 running games
(five "busy" players with 200 each), one long 4-seat Inheritors game (the pool's longest), ``max(10k, min(100k,
size / 2))`` players with a rating each, and 4 unread notifications per running game for the daily digest's 10k
subscribers. One player (``s000000``) has 1,000 finished games at every size (one game in ``size / 1000``).

Then, per size, on the served shape (gunicorn, 2 workers x 8 gthreads, for HTTP; one uvicorn for the sockets; as the
README's "Served" section starts them, without the proxy; background tasks in the servers' thread pool), from a
client on the same machine over loopback, ``--rounds`` rounds of bounded request loops (each figure: the median of
the rounds' figures):

* a move (``POST /games/{id}/moves``, token) of the busy players' running games: HTTP p50/p99 and the server's CPU
  per move (the gunicorn workers' CPU over a loop of view + move, minus that of a loop of views alone);
* ``GET`` of the busy player's inbox (200 running games; the first page), one of his games (its view), the Claim
  leaderboard, the public profile
  and the profile's games of the 1,000-game player, the long game's history and record, and the export of that
  player's 1,000 games: HTTP p50/p99 and the gunicorn workers' CPU per request;
* for each of these, PostgreSQL's CPU per request, and Redis's per move (the servers' processes: other work on the
  machine counts);
* in-process (``time.perf_counter``, the function called directly, rolled back after): the matchmaking round
  (``games.seeks.service.pair_all``) over 1,000 open seeks, and the daily digest (``send_digests``: 10k subscribers);
* sockets: ``--sockets`` idle authenticated WebSockets on the one uvicorn (RSS delta / N), then the time from a move's
  request to the last of 50 and of 500 spectator sockets watching that game receiving it (median of 5 moves).

With ``--explain`` (the largest size by default) it also calls the hot endpoints in-process through Django's test
client, captures their SQL (``connection.execute_wrapper``), and writes ``EXPLAIN (ANALYZE, BUFFERS)`` of every
statement to ``docs/explain/scale.md``, flagging sequential scans of tables over 10,000 rows; and it compares the
move path's reads through ``claim/rowsql.py`` with the ORM querysets they stand for (in-process, CPU per move).

Loopback only; the machine it runs on is what it measures (write ``uptime`` next to the figures).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import resource
import secrets
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import scale_seed  # noqa: E402  (bench/ on the path)
from api import _free_port, process_tree_cpu, services_cpu  # noqa: E402

UNLIMITED = "100000000/min"
GUNICORN = ["--worker-class", "gthread", "--threads", "8", "--keep-alive", "75"]
UVICORN = ["--http", "httptools", "--loop", "uvloop", "--ws-per-message-deflate", "false", "--no-access-log"]


def percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[max(0, min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1))))]


def raise_nofile() -> None:
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def server_env(database_url: str, redis_url: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in {"CLAIM_EMBEDDED", "DEBUG"}}
    env.update(DJANGO_SETTINGS_MODULE="claim.settings", DATABASE_URL=database_url, REDIS_URL=redis_url,
               SECRET_KEY=env.get("SECRET_KEY") or "bench-only-secret-key-" + secrets.token_hex(16),
               CLAIM_TESTING="1", ALLOWED_HOSTS="127.0.0.1,localhost,testserver", CLAIM_TASK_MODE="thread",
               THROTTLE_USER=UNLIMITED, THROTTLE_ANON=UNLIMITED, THROTTLE_MOVES=UNLIMITED,
               THROTTLE_EXPORT_ANON=UNLIMITED, THROTTLE_GAMES_CREATE=UNLIMITED, LOG_LEVEL="WARNING",
               EMAIL_BACKEND="django.core.mail.backends.locmem.EmailBackend", SECURE_SSL_REDIRECT="0",
               SOCKETS_PER_USER="1000000", CONNECTIONS_PER_ADDRESS="1000000", PYTHONPATH=str(ROOT))
    return env


def wait_up(url: str, proc: subprocess.Popen, log: Path) -> None:
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"a server exited:\n{log.read_text()[-3000:]}")
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(f"{url}/api/v1/health", timeout=2).status_code < 500:
                return
        time.sleep(0.3)
    raise SystemExit(f"a server did not answer within 90 s:\n{log.read_text()[-3000:]}")


class Servers:
    """gunicorn (HTTP) and one uvicorn (sockets), as the README's "Served" section starts them (no proxy)."""

    def __init__(self, env: dict[str, str]) -> None:
        self.log = Path(tempfile.mkstemp(prefix="claim-bench-scale-", suffix=".log")[1])
        http_port, ws_port = _free_port(), _free_port()
        self.http, self.ws = f"http://127.0.0.1:{http_port}", f"http://127.0.0.1:{ws_port}"
        with self.log.open("wb") as out:
            self.gunicorn = subprocess.Popen(
                [sys.executable, "-m", "gunicorn", "claim.wsgi:application", "--bind", f"127.0.0.1:{http_port}",
                 "--workers", "2", *GUNICORN], cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
            self.uvicorn = subprocess.Popen(
                [sys.executable, "-m", "uvicorn", "claim.asgi:application", "--host", "127.0.0.1", "--port",
                 str(ws_port), "--lifespan", "off", "--log-level", "warning", *UVICORN],
                cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT, preexec_fn=raise_nofile)
        wait_up(self.http, self.gunicorn, self.log)
        wait_up(self.ws, self.uvicorn, self.log)

    def stop(self) -> None:
        for proc in (self.gunicorn, self.uvicorn):
            proc.terminate()
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                proc.kill()
        self.log.unlink(missing_ok=True)


def rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


# ------------------------------------------------------------------------------------------------ one size

def setup_tokens(info: dict[str, Any]) -> dict[str, Any]:
    """Tokens of the heavy and busy players and of the busy players' opponents in the games the moves use."""
    from accounts.models import ApiToken, User
    from games.models import Game, Seat

    def token(user: Any) -> str:
        return ApiToken.issue(user, "scale bench", ["games:read", "games:play"])[1]

    heavy = User.objects.get(username=info["heavy"])
    busy = User.objects.get(username=info["busy"][0])
    games = list(Game.objects.filter(status=Game.Status.ACTIVE, seats__user=busy, kind="claim")
                 .order_by("id").values_list("id", flat=True)[:41])
    games, viewed = games[:40], games[40]  # the moves play the first 40; the last is only viewed
    tokens: dict[int, str] = {heavy.pk: token(heavy), busy.pk: token(busy)}
    seats: dict[int, dict[int, int]] = {}
    for seat in Seat.objects.filter(game_id__in=games).select_related("user"):
        if seat.user_id not in tokens:
            tokens[seat.user_id] = token(seat.user)
        seats.setdefault(seat.game_id, {})[seat.index] = seat.user_id
    return {"heavy": tokens[heavy.pk], "busy": tokens[busy.pk], "tokens": tokens, "games": seats,
            "heavy_name": heavy.username, "long_game": info["long_game"], "viewed": viewed}


def http_figures(base: str, gunicorn_pid: int, t: dict[str, Any], rounds: int, reps: int, moves: int
                 ) -> dict[str, Any]:
    """HTTP p50/p99 (ms) of each endpoint and of a move, with the gunicorn workers' and PostgreSQL's CPU per request
    (ms; PostgreSQL's is the whole server's, so other work on the machine counts in it); medians of the rounds."""
    rng = random.Random(38)
    auth = {uid: {"Authorization": f"Bearer {tok}"} for uid, tok in t["tokens"].items()}
    heavy = {"Authorization": f"Bearer {t['heavy']}"}
    busy = {"Authorization": f"Bearer {t['busy']}"}
    name, long_game = t["heavy_name"], t["long_game"]
    endpoints = {
        "inbox (200 running games)": ("/api/v1/games", busy),
        "game view": (f"/api/v1/games/{t['viewed']}", busy),
        "leaderboard": ("/api/v1/leaderboards/claim", heavy),
        "profile GET /users/{u}": (f"/api/v1/users/{name}", busy),
        "profile games": (f"/api/v1/users/{name}/games", busy),
        "long game history": (f"/api/v1/games/{long_game}/history", heavy),
        "long game record": (f"/api/v1/games/{long_game}/record", heavy),
        "export 1,000 games": (f"/api/v1/users/{name}/games/export?limit=1000", busy),
    }
    out: dict[str, Any] = {}
    per_round: dict[str, list[tuple[float, float, float, float]]] = {k: [] for k in endpoints}
    move_rounds: list[tuple[float, float, float, float, float]] = []
    live = {gid: dict(seats) for gid, seats in t["games"].items()}
    with httpx.Client(base_url=base, timeout=60) as http:
        def get(path: str, headers: dict[str, str]) -> float:
            start = time.perf_counter()
            r = http.get(path, headers=headers)
            _ = r.content
            if r.status_code != 200:
                raise SystemExit(f"GET {path}: {r.status_code} {r.text[:300]}")
            return 1000 * (time.perf_counter() - start)

        def mover_view(gid: int) -> tuple[dict[str, str], dict] | None:
            for uid in live[gid].values():
                view = http.get(f"/api/v1/games/{gid}", headers=auth[uid]).json()
                if view.get("status") != "active":
                    return None
                if view.get("my_turn") and view.get("legal_moves"):
                    return auth[uid], view
            return None

        for _label, (path, headers) in endpoints.items():  # warm: connections, compiled SQL, caches
            for _ in range(2):
                get(path, headers)
        for _ in range(rounds):
            for label, (path, headers) in endpoints.items():
                cpu0, pg0 = process_tree_cpu(gunicorn_pid), pg_cpu()
                times = [get(path, headers) for _ in range(reps)]
                per_round[label].append((percentile(times, 50), percentile(times, 99),
                                         1000 * (process_tree_cpu(gunicorn_pid) - cpu0) / reps,
                                         1000 * (pg_cpu() - pg0) / reps))
            # moves: a loop of (the mover's view + the move), then a loop of views alone; CPU difference per move
            latencies: list[float] = []
            cpu0, pg0, redis0 = process_tree_cpu(gunicorn_pid), pg_cpu(), redis_cpu()
            done = 0
            while done < moves and live:
                gid = rng.choice(list(live))
                found = mover_view(gid)
                if found is None:
                    live.pop(gid)
                    continue
                headers, view = found
                start = time.perf_counter()
                r = http.post(f"/api/v1/games/{gid}/moves", headers=headers,
                              json={"version": view["version"], "move": rng.choice(view["legal_moves"])})
                latencies.append(1000 * (time.perf_counter() - start))
                if r.status_code != 201:
                    raise SystemExit(f"move refused: {r.status_code} {r.text[:300]}")
                done += 1
            cpu_moves, pg_moves = process_tree_cpu(gunicorn_pid) - cpu0, pg_cpu() - pg0
            redis_moves = redis_cpu() - redis0
            cpu0, pg0, redis0 = process_tree_cpu(gunicorn_pid), pg_cpu(), redis_cpu()
            views = 0
            while views < done and live:
                gid = rng.choice(list(live))
                if mover_view(gid) is not None:
                    views += 1
            cpu_views, pg_views = process_tree_cpu(gunicorn_pid) - cpu0, pg_cpu() - pg0
            redis_views = redis_cpu() - redis0
            if done:
                move_rounds.append((percentile(latencies, 50), percentile(latencies, 99),
                                    1000 * (cpu_moves - cpu_views) / done, 1000 * (pg_moves - pg_views) / done,
                                    1000 * (redis_moves - redis_views) / done))
    for label, figures in per_round.items():
        out[label] = {"p50": statistics.median(f[0] for f in figures), "p99": statistics.median(f[1] for f in figures),
                      "cpu": statistics.median(f[2] for f in figures), "pg": statistics.median(f[3] for f in figures)}
    out["move"] = {"p50": statistics.median(m[0] for m in move_rounds),
                   "p99": statistics.median(m[1] for m in move_rounds),
                   "cpu": statistics.median(m[2] for m in move_rounds),
                   "pg": statistics.median(m[3] for m in move_rounds),
                   "redis": statistics.median(m[4] for m in move_rounds)}
    return out


def pg_cpu() -> float:
    """CPU seconds used so far by this machine's PostgreSQL (every database's: other work on the machine counts)."""
    return services_cpu().get("PostgreSQL", 0.0)


def redis_cpu() -> float:
    """CPU seconds used so far by this machine's Redis server (every client's)."""
    return services_cpu().get("Redis", 0.0)


def background_figures(rounds: int) -> dict[str, float]:
    """Seconds of one matchmaking round over 1,000 open seeks and of the daily digest (median; rolled back)."""
    from django.db import transaction

    from accounts.models import User
    from games.notify.models import NotifySettings
    from games.notify.service import send_digests
    from games.seeks.models import Seek
    from games.seeks.service import pair_all

    users = list(User.objects.filter(username__startswith="s").order_by("id").values_list("id", flat=True)[:20_000])
    rng = random.Random(38)
    pair, digest = [], []
    for _ in range(rounds):
        with transaction.atomic():
            Seek.objects.bulk_create([
                Seek(user_id=uid, kind="claim", seats=2, days_per_move=rng.choice([1, 3, 7]), rated=True,
                     rating_range=rng.choice([None, 100, 200, 400]))
                for uid in rng.sample(users, 1000)])
            start = time.perf_counter()
            pair_all()
            pair.append(time.perf_counter() - start)
            transaction.set_rollback(True)
    for _ in range(max(1, rounds - 1)):
        with transaction.atomic():
            start = time.perf_counter()
            sent = send_digests()
            digest.append(time.perf_counter() - start)
            transaction.set_rollback(True)
    subscribers = NotifySettings.objects.filter(email_digest=True).count()
    return {"matchmaking (1,000 seeks) s": statistics.median(pair), "digest s": statistics.median(digest),
            "digest ms per subscriber": 1000 * statistics.median(digest) / max(1, subscribers),
            "digest e-mails": sent, "digest subscribers": subscribers}


async def socket_figures(ws_base: str, http_base: str, uvicorn_pid: int, t: dict[str, Any], n: int,
                         watchers: tuple[int, ...] = (50, 500), moves: int = 5) -> dict[str, float]:
    from websockets.asyncio.client import connect
    from websockets.typing import Origin

    origin = Origin(http_base)
    url = f"{ws_base}/ws/?token={t['heavy']}"
    out: dict[str, float] = {}
    socks = []
    before = rss_kb(uvicorn_pid)
    try:
        for i in range(0, n, 200):
            socks += await asyncio.gather(*[connect(url, origin=origin, max_size=2**22, open_timeout=120)
                                            for _ in range(min(200, n - i))])
        await asyncio.sleep(2)
        out["sockets"] = len(socks)
        out["rss per socket kB"] = (rss_kb(uvicorn_pid) - before) / max(1, len(socks))
        out["uvicorn RSS MB"] = rss_kb(uvicorn_pid) / 1024
    finally:
        await asyncio.gather(*[s.close() for s in socks], return_exceptions=True)
    socks = []
    await asyncio.sleep(5)  # the server forgets the closed sockets
    from asgiref.sync import sync_to_async

    from games.models import Game

    rng = random.Random(5)
    gids = list(t["games"])
    auth = {uid: {"Authorization": f"Bearer {tok}"} for uid, tok in t["tokens"].items()}
    async with httpx.AsyncClient(base_url=http_base, timeout=60) as http:
        for count in watchers:
            samples: list[float] = []
            tried = 0
            while len(samples) < moves and tried < 40:
                tried += 1
                gid = gids[rng.randrange(len(gids))]
                await sync_to_async(lambda g=gid: Game.objects.filter(pk=g).update(watchable=True))()
                views = [(await http.get(f"/api/v1/games/{gid}", headers=auth[uid])).json()
                         for uid in t["games"][gid].values()]
                if views[0].get("status") != "active":
                    continue
                watchers_ws = []
                for i in range(0, count, 100):
                    watchers_ws += await asyncio.gather(*[connect(url, origin=origin, max_size=2**22,
                                                                  open_timeout=120)
                                                          for _ in range(min(100, count - i))])
                try:
                    for ws in watchers_ws:
                        await ws.send(json.dumps({"type": "watch", "game_id": gid}))
                    for ws in watchers_ws:
                        while json.loads(await ws.recv()).get("type") != "spectator_game":
                            pass
                    for _ in range(moves):
                        found = None
                        for uid in t["games"][gid].values():
                            view = (await http.get(f"/api/v1/games/{gid}", headers=auth[uid])).json()
                            if view.get("status") == "active" and view.get("my_turn") and view.get("legal_moves"):
                                found = (uid, view)
                                break
                        if found is None:
                            break
                        uid, view = found

                        async def next_frame(ws, version: int = view["version"] + 1) -> float:
                            while True:
                                frame = json.loads(await ws.recv())
                                if frame.get("type") == "spectator_game" and frame.get("version", 0) >= version:
                                    return time.perf_counter()

                        waiting = [asyncio.ensure_future(next_frame(ws)) for ws in watchers_ws]
                        start = time.perf_counter()
                        r = await http.post(f"/api/v1/games/{gid}/moves", headers=auth[uid],
                                            json={"version": view["version"],
                                                  "move": rng.choice(view["legal_moves"])})
                        if r.status_code != 201:
                            for w in waiting:
                                w.cancel()
                            break
                        done = await asyncio.wait_for(asyncio.gather(*waiting), 60)
                        samples.append(1000 * (max(done) - start))
                        if len(samples) >= moves:
                            break
                finally:
                    await asyncio.gather(*[ws.close() for ws in watchers_ws], return_exceptions=True)
            out[f"fan-out to {count} watchers ms"] = statistics.median(samples) if samples else float("nan")
    return out


def measure_one(args: argparse.Namespace) -> None:
    """The child of one size: servers up, figures, JSON on the last line of stdout."""
    raise_nofile()
    env = server_env(args.database_url, args.redis_url)
    os.environ.update({k: env[k] for k in env if k.isupper()})
    import django

    django.setup()
    from django.db import connection

    with connection.cursor() as cur:
        cur.execute("SELECT value FROM scale_seed WHERE key = 'info'")
        info = json.loads(cur.fetchone()[0])
    t = setup_tokens(info)
    results: dict[str, Any] = {"info": info}
    servers = Servers(env)
    try:
        results["http"] = http_figures(servers.http, servers.gunicorn.pid, t, args.rounds, args.reps, args.moves)
        print("HTTP " + json.dumps(results["http"]), flush=True)
        if args.sockets:
            try:
                results["sockets"] = asyncio.run(socket_figures(servers.ws.replace("http", "ws", 1), servers.http,
                                                                servers.uvicorn.pid, t, args.sockets))
            except Exception as exc:  # report the rest of the figures anyway
                results["socket error"] = f"{type(exc).__name__}: {exc}"
            print("SOCKETS " + json.dumps(results.get("sockets") or results.get("socket error")), flush=True)
    finally:
        servers.stop()
    results["background"] = background_figures(args.rounds)
    if args.explain:
        import scale_explain

        results["rowsql"] = scale_explain.rowsql_vs_orm(t, args.rounds)
        results["explain"] = scale_explain.explain(t, Path(args.explain), info)
    print("RESULT " + json.dumps(results), flush=True)


# ------------------------------------------------------------------------------------------------ the driver


def flatten(r: dict[str, Any]) -> dict[str, float]:
    flat: dict[str, float] = {}
    for label, fig in r["http"].items():
        flat[f"{label} p50 ms"] = fig["p50"]
        flat[f"{label} p99 ms"] = fig["p99"]
        if "cpu" in fig:
            flat[f"{label} server CPU ms"] = fig["cpu"]
        if "pg" in fig:
            flat[f"{label} PostgreSQL CPU ms"] = fig["pg"]
        if "redis" in fig:
            flat[f"{label} Redis CPU ms"] = fig["redis"]
    for label, value in r.get("background", {}).items():
        if label not in ("digest e-mails", "digest subscribers"):
            flat[label] = value
    for label, value in r.get("sockets", {}).items():
        if label != "sockets":
            flat[label] = value
    return flat


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="10k,100k", help="finished games per database, e.g. 10k,100k,1M")
    parser.add_argument("--reseed", action="store_true", help="drop and refill the sizes' databases")
    parser.add_argument("--seed-only", action="store_true")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--reps", type=int, default=30, help="requests per endpoint and round")
    parser.add_argument("--moves", type=int, default=60, help="moves per round")
    parser.add_argument("--sockets", type=int, default=10_000, help="idle sockets on the uvicorn (0: none)")
    parser.add_argument("--explain", default=None, metavar="FILE",
                        help="EXPLAIN report of the largest size (default docs/explain/scale.md; 'none': skip)")
    parser.add_argument("--admin-url", default=os.environ.get("SCALE_ADMIN_URL",
                                                              "postgres://postgres@127.0.0.1:5432/postgres"))
    parser.add_argument("--redis-url", default=os.environ.get("SCALE_REDIS_URL", "redis://127.0.0.1:6379/13"))
    parser.add_argument("--prefix", default="claim_scale")
    parser.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    parser.add_argument("--compare", metavar="FILES", help="only print the table of earlier --json files against the "
                        "first one's smallest size (comma-separated, e.g. 10k.json,1m.json)")
    parser.add_argument("--measure", action="store_true", help=argparse.SUPPRESS)  # the child of one size
    parser.add_argument("--database-url", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure:
        measure_one(args)
        return
    if args.compare:
        files = [json.loads(Path(name).read_text()) for name in args.compare.split(",")]
        ratios({label: r for results in files for label, r in results.items()})
        return
    sizes = [(label.strip(), scale_seed.parse_size(label)) for label in args.sizes.split(",")]
    base = args.admin_url.rsplit("/", 1)[0]
    env = server_env(args.admin_url, args.redis_url)
    scale_seed.make_pool(args.admin_url, f"{args.prefix}_pool", {**env, "CLAIM_TASK_MODE": "eager"}, 30, 40, 2)
    results: dict[str, dict[str, Any]] = {}
    for label, size in sizes:
        db = f"{args.prefix}_{label.lower()}"
        url = f"{base}/{db}"
        created = scale_seed.ensure_database(args.admin_url, db, drop=args.reseed)
        seeded = False
        if not created:
            import psycopg

            with psycopg.connect(url) as conn:
                seeded = conn.execute("SELECT to_regclass('scale_seed') IS NOT NULL").fetchone()[0]
        if not seeded:
            scale_seed.migrate({**env, "DATABASE_URL": url})
            print(f"{label}: seeding {db} ...", flush=True)
            info = scale_seed.seed(args.admin_url, f"{args.prefix}_pool", db, size, env)
            print(f"{label}: seeded in {info['seconds_with_vacuum']} s: {json.dumps(info['rows'])}", flush=True)
        if args.seed_only:
            continue
        largest = label == sizes[-1][0]
        explain = None if args.explain == "none" else (args.explain or ("docs/explain/scale.md" if largest else None))
        cmd = [sys.executable, __file__, "--measure", "--database-url", url, "--redis-url", args.redis_url,
               "--rounds", str(args.rounds), "--reps", str(args.reps), "--moves", str(args.moves),
               "--sockets", str(args.sockets)]
        if explain and largest:
            cmd += ["--explain", explain]
        print(f"{label}: measuring (load average {os.getloadavg()[0]:.1f}) ...", flush=True)
        proc = subprocess.run(cmd, cwd=ROOT, env={**env, "DATABASE_URL": url}, capture_output=True, text=True)
        lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("RESULT ")]
        if proc.returncode or not lines:
            raise SystemExit(f"{label}: the measuring child failed:\n{proc.stdout[-3000:]}\n{proc.stderr[-5000:]}")
        results[label] = json.loads(lines[-1][7:])
        results[label]["load"] = os.getloadavg()[0]
        report(label, results[label])
    if len(results) > 1:
        ratios(results)
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1))


def report(label: str, r: dict[str, Any]) -> None:
    info = r["info"]
    print(f"\n## {label}: {info['size']} finished games, {info['players']} players, {info['active']} running, "
          f"long game {info['long_moves']} moves; load average {r['load']:.1f}")
    print("| figure | value |\n|---|---|")
    for key, value in flatten(r).items():
        print(f"| {key} | {value:.1f} |")
    if "sockets" in r:
        print(f"| (sockets held) | {r['sockets']['sockets']} |")
    if "rowsql" in r:
        print("\nrowsql vs ORM (move path reads, in-process CPU ms per move, median of rounds): "
              + json.dumps(r["rowsql"]))
    if "explain" in r:
        print("\nEXPLAIN: " + json.dumps(r["explain"]))


def ratios(results: dict[str, dict[str, Any]]) -> None:
    labels = list(results)
    flats = {label: flatten(r) for label, r in results.items()}
    first = flats[labels[0]]
    print("\n## every size against the smallest\n")
    print("| figure | " + " | ".join(labels) + " | " + " | ".join(f"{b} / {labels[0]}" for b in labels[1:]) + " |")
    print("|---" * (1 + 2 * len(labels) - 1) + "|")
    for key, value in first.items():
        cells = [f"{flats[label].get(key, float('nan')):.1f}" for label in labels]
        rs = [f"{flats[label].get(key, float('nan')) / value:.2f}" if value else "-" for label in labels[1:]]
        print(f"| {key} | " + " | ".join(cells) + " | " + " | ".join(rs) + " |")


if __name__ == "__main__":
    main()
