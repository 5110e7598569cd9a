"""Push latency to a game's spectators (issue 35): ``--spectators`` sockets watch one game while its two players
move, on the ASGI app (one ``uvicorn claim.asgi:application``) with the Redis channel layer.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/claim_bench_spectators REDIS_URL=redis://127.0.0.1:6379/4 \\
      .venv/bin/python bench/spectators.py [--spectators 50] [--moves 200] [--pause 0.05]

What it does: creates (in the given database, migrated on first use) two players and ``--spectators`` watchers
with ``games:read games:play`` tokens, a watchable 2-seat Claim game between the players (a new one whenever a
game ends), and opens one socket per player (``subscribe`` ``all``) and one per watcher (``watch`` the game).
The players then play random legal moves over HTTP, one at a time, ``--pause`` seconds apart, ``--moves`` in all.
For every move it notes when the request was sent and when each socket received the version: the players' push
(the opponent's ``game`` frame) and the spectators' (each watcher's ``spectator_game`` frame, built once per
version by the publisher). Prints p50/p95/p99/max of both, from the move's request, and the frames missed
(a watcher that never got a version) or out of order. No assertions: figures only. Goal: spectators' p99 under
100 ms.

The client shares the machine with the server (and whatever else runs on it): compare the two lines, which
carry the same noise.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import random
import secrets
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlparse, urlunparse

import httpx
import orjson
import psycopg
from websockets.asyncio.client import connect as ws_connect
from websockets.typing import Origin

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
UNLIMITED = "100000000/min"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def ensure_database(database_url: str) -> None:
    parsed = urlparse(database_url)
    name = parsed.path.lstrip("/")
    admin = urlunparse(parsed._replace(path="/postgres"))
    with psycopg.connect(admin, autocommit=True) as conn:
        if conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone() is None:
            conn.execute(f'CREATE DATABASE "{name}"')


def percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[max(0, min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1))))]


def server_env(args) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in {"CLAIM_EMBEDDED", "DEBUG"}}
    env.update(DJANGO_SETTINGS_MODULE="claim.settings", DATABASE_URL=args.database_url, REDIS_URL=args.redis_url,
               SECRET_KEY=env.get("SECRET_KEY") or "bench-only-secret-key-" + secrets.token_hex(16),
               CLAIM_TESTING="1", ALLOWED_HOSTS="127.0.0.1,localhost", CLAIM_TASK_MODE="thread",
               THROTTLE_USER=UNLIMITED, THROTTLE_ANON=UNLIMITED, THROTTLE_MOVES=UNLIMITED, LOG_LEVEL="WARNING",
               PYTHONPATH=str(ROOT))
    return env


def start_server(args, env: dict[str, str]) -> tuple[str, subprocess.Popen, Path]:
    port = free_port()
    log = Path(tempfile.mkstemp(prefix="claim-bench-spectators-", suffix=".log")[1])
    cmd = [sys.executable, "-m", "uvicorn", "claim.asgi:application", "--host", "127.0.0.1", "--port", str(port),
           "--lifespan", "off", "--log-level", "warning", "--ws", "websockets"]
    with log.open("wb") as out:
        proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"the server exited:\n{log.read_text()[-3000:]}")
        try:
            if httpx.get(f"{url}/api/v1/health", timeout=2).status_code < 500:
                return url, proc, log
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    proc.kill()
    raise SystemExit(f"the server did not answer within 60 s:\n{log.read_text()[-3000:]}")


def setup_accounts(n: int) -> tuple[list[tuple[int, str, str]], list[str]]:
    """Two players ``(user id, username, token)`` and ``n`` watchers' tokens (new accounts each run)."""
    from accounts.models import ApiToken, User

    run = secrets.token_hex(3)

    def make(name: str) -> tuple[int, str, str]:
        user = User.objects.create_user(username=f"{name}{run}", email=f"{name}{run}@bench.invalid",
                                        password=secrets.token_hex(8))
        _, plain = ApiToken.issue(user, "bench", ["games:read", "games:play"])
        return user.pk, user.username, plain

    players = [make("pa"), make("pb")]
    return players, [make(f"w{i}_")[2] for i in range(n)]


def new_game(players: list[tuple[int, str, str]]) -> int:
    """A watchable 2-seat Claim game between the two players, started."""
    from accounts.models import User
    from games.models import Game
    from games.service import create_game, join_game

    a, b = User.objects.get(pk=players[0][0]), User.objects.get(pk=players[1][0])
    game = create_game(a, "claim", opponents=[{"type": "user", "username": b.username}])
    join_game(b, game.pk)
    Game.objects.filter(pk=game.pk).update(watchable=True)
    return game.pk


class Clock:
    """When each version of each game was asked for (the move request sent) and reached each socket."""

    def __init__(self) -> None:
        self.sent: dict[tuple[int, int], float] = {}
        self.players: dict[tuple[int, int], float] = {}
        self.spectators: dict[tuple[int, int], list[float]] = {}
        self.out_of_order = 0


async def read_player(ws, clock: Clock, me: int, views: dict) -> None:
    async for text in ws:
        frame = orjson.loads(text)
        if frame.get("type") == "game":
            key = (frame["game_id"], frame["version"])
            clock.players.setdefault(key, time.perf_counter())
            views[me] = frame["view"]


async def read_watcher(ws, clock: Clock, watched: dict) -> None:
    last: dict[int, int] = {}
    async for text in ws:
        now = time.perf_counter()
        if not text.startswith('{"type":"spectator_game"'):
            continue
        frame = orjson.loads(text)
        gid, version = frame["game_id"], frame["version"]
        if version <= last.get(gid, 0):
            clock.out_of_order += 1
        last[gid] = version
        clock.spectators.setdefault((gid, version), []).append(now)
        watched.setdefault(gid, set()).add(id(ws))


async def run(args) -> None:
    env = server_env(args)
    os.environ.update({k: env[k] for k in ("DATABASE_URL", "REDIS_URL", "SECRET_KEY", "CLAIM_TESTING",
                                           "DJANGO_SETTINGS_MODULE")})
    os.environ.pop("CLAIM_EMBEDDED", None)
    ensure_database(args.database_url)
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT, env=env, check=True)
    import django

    django.setup()
    from asgiref.sync import sync_to_async

    url, proc, log = start_server(args, env)
    try:
        players, watcher_tokens = await sync_to_async(setup_accounts)(args.spectators)
        ws_base = url.replace("http", "ws", 1) + "/ws/"
        clock = Clock()
        views: dict[int, dict] = {}
        watched: dict[int, set[int]] = {}
        origin = Origin(url)
        player_ws = []
        for _, _, token in players:
            ws = await ws_connect(f"{ws_base}?token={token}", origin=origin, max_size=2**22)
            await ws.send('{"type":"subscribe","games":"all"}')
            await ws.recv()
            player_ws.append(ws)
        watchers = [await ws_connect(f"{ws_base}?token={t}", origin=origin, max_size=2**22) for t in watcher_tokens]
        tasks = [asyncio.ensure_future(read_player(ws, clock, pk, views))
                 for ws, (pk, _, _) in zip(player_ws, players, strict=True)]
        rng = random.Random(args.seed)
        async with httpx.AsyncClient(base_url=url, timeout=30) as http:
            game_id = None
            moves = 0
            while moves < args.moves:
                if game_id is None:
                    for t in tasks[2:]:
                        t.cancel()
                    game_id = await sync_to_async(new_game)(players)
                    for ws in watchers:
                        await ws.send(orjson.dumps({"type": "watch", "game_id": game_id}).decode())
                        assert orjson.loads(await ws.recv())["type"] == "watching"
                        await ws.recv()  # the current frame
                    tasks[2:] = [asyncio.ensure_future(read_watcher(ws, clock, watched)) for ws in watchers]
                    views.clear()
                mover = None
                for _, _, token in players:
                    r = await http.get(f"/api/v1/games/{game_id}", headers={"Authorization": f"Bearer {token}"})
                    view = r.json()
                    if view["status"] != "active":
                        break
                    if view["my_turn"] and view["legal_moves"]:
                        mover = (token, view)
                        break
                if mover is None:
                    game_id = None
                    continue
                token, view = mover
                key = (game_id, view["version"] + 1)
                clock.sent[key] = time.perf_counter()
                r = await http.post(f"/api/v1/games/{game_id}/moves", headers={"Authorization": f"Bearer {token}"},
                                    json={"version": view["version"], "move": rng.choice(view["legal_moves"])})
                if r.status_code != 201:
                    print("move refused:", r.status_code, r.text[:200])
                    continue
                moves += 1
                if r.json().get("status") != "active":
                    game_id = None
                await asyncio.sleep(args.pause)
        await asyncio.sleep(1.0)  # the last pushes
        for t in tasks:
            t.cancel()
        player_ms = [1000 * (clock.players[k] - t0) for k, t0 in clock.sent.items() if k in clock.players]
        spect_ms = [1000 * (t - t0) for k, t0 in clock.sent.items() for t in clock.spectators.get(k, [])]
        expected = len(clock.sent) * args.spectators
        print(f"{len(clock.sent)} moves, {args.spectators} spectator sockets on the game, pause {args.pause}s")
        for label, values in (("players' push (opponent socket)", player_ms),
                              ("spectators' push (every watcher)", spect_ms)):
            print(f"{label:34s} n={len(values):6d}  p50 {percentile(values, 50):6.1f} ms  "
                  f"p95 {percentile(values, 95):6.1f} ms  p99 {percentile(values, 99):6.1f} ms  "
                  f"max {max(values, default=float('nan')):6.1f} ms")
        print(f"spectator frames missed {expected - len(spect_ms)}, out of order {clock.out_of_order}")
        for ws in [*player_ws, *watchers]:
            await ws.close()
    finally:
        proc.terminate()
        proc.wait(10)
        log.unlink(missing_ok=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--spectators", type=int, default=50)
    parser.add_argument("--moves", type=int, default=200)
    parser.add_argument("--pause", type=float, default=0.05, help="seconds between moves")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--database-url", default=os.environ.get("DATABASE_URL", ""))
    parser.add_argument("--redis-url", default=os.environ.get("REDIS_URL", ""))
    args = parser.parse_args()
    logging.getLogger("httpx").setLevel(logging.WARNING)
    if not args.database_url.startswith("postgres") or not args.redis_url:
        raise SystemExit("give DATABASE_URL (PostgreSQL, a database of its own) and REDIS_URL")
    asyncio.run(run(args))


if __name__ == "__main__":
    main()
