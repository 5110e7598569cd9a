"""Stop PostgreSQL under the running deployment, then start it again: requests during the outage get 503 in the
API's error shape (with Retry-After) on both servers and change nothing; once the database is back the servers
(without a restart: their psycopg pools recover), the worker and beat go on by themselves; every game's log
replays to its stored snapshot."""

from __future__ import annotations

import time

import httpx
import pytest

from .client import Player
from .deploy import Deployment, wait_for

pytestmark = [pytest.mark.faults, pytest.mark.slow, pytest.mark.integration]


def _assert_unavailable(r: httpx.Response) -> None:
    assert r.status_code == 503, (r.status_code, r.text[:300])
    assert r.json()["error"]["code"] == "service_unavailable", r.text
    assert r.headers.get("Retry-After"), r.headers


def test_postgres_restart_503_then_recovers_by_itself(deployment: Deployment) -> None:
    dep = deployment
    tokens = dep.make_users("petra", "paul", "pia")
    petra, paul, pia = (Player(dep, n, tokens[n]) for n in ("petra", "paul", "pia"))
    duel = petra.create("claim2", [{"type": "user", "username": "paul"}])["id"]
    assert paul.post(f"/games/{duel}/join", {}, server=1).status_code == 201
    solo = pia.create("inheritors", [{"type": "ai", "level": 1}])["id"]
    players = [petra, paul]
    for _ in range(3):
        next(p for p in players if p.view(duel)["my_turn"]).move_if_my_turn(duel)
    wait_for("pia's turn against the AI", lambda: pia.view(solo)["my_turn"], 60, interval=0.5)
    views = {p.name: p.view(duel) for p in players}
    mover = next(p for p in players if views[p.name]["my_turn"])
    before = dep.game_row(duel)
    servers_before = [s.process.pid for s in dep.servers]

    dep.pg.stop()
    outage_started = time.monotonic()
    try:
        # Reads and writes, on both gunicorns and through the proxy (which must not take its own replicas out):
        # 503 in the error shape, within the pool's wait (DB_POOL_TIMEOUT 3 s).
        for server in (0, 1, None):
            started = time.monotonic()
            _assert_unavailable(petra.get(f"/games/{duel}", server))
            _assert_unavailable(petra.get("/games", server))
            _assert_unavailable(mover.post(f"/games/{duel}/moves", {
                "version": views[mover.name]["version"], "move": views[mover.name]["legal_moves"][0],
                "client_id": "in-the-outage"}, server))
            assert time.monotonic() - started < 20
            health = httpx.get(f"{dep.http(server)}/api/v1/health", timeout=20)
            assert health.status_code == 503 and not health.json()["checks"]["database"]["ok"]
    finally:
        dep.pg.start()
    outage = time.monotonic() - outage_started

    # Back by itself: the same server processes serve every request again (no stale pooled connection left).
    recovered_after = wait_for("both servers to serve the game again", lambda: all(
        petra.get(f"/games/{duel}", s).status_code == 200 for s in (0, 1, None)) and time.monotonic(), 60, interval=0.5)
    for server in (0, 1, None):
        for _ in range(25):  # more than the pool's min size: every connection of the pool is sound
            r = petra.get(f"/games/{duel}", server)
            assert r.status_code == 200, (server, r.status_code, r.text[:200])
    assert [s.process.pid for s in dep.servers] == servers_before and all(s.alive() for s in dep.servers)
    assert dep.game_row(duel) == before, "the move refused during the outage was applied"

    # The refused move, retried with its client id, is applied once; play goes on on both servers.
    retry = mover.post(f"/games/{duel}/moves", {"version": views[mover.name]["version"],
                                                "move": views[mover.name]["legal_moves"][0],
                                                "client_id": "in-the-outage"}, server=1)
    assert retry.status_code == 201, retry.text
    for i in range(4):
        assert next(p for p in players if p.view(duel)["my_turn"]).move_if_my_turn(duel, server=i % 2)
    # The worker recovered too: the AI (seat 1) answers moves made after the restart.
    since = dep.game_row(solo)[0]

    def ai_moved() -> bool:
        pia.move_if_my_turn(solo)
        return any(seat == 1 and v > since for _, v, seat in dep.move_log(solo))

    wait_for("the AI's answer after the restart", ai_moved, 90, interval=1)
    dep.wait_healthy(timeout=60)

    replays = dep.replay_all()
    assert set(replays.values()) == {"identical"}, replays
    print(f"\npostgres outage {outage:.1f}s; both servers served again "
          f"{recovered_after - outage_started - outage:.1f}s after the start; {len(replays)} games replay identically")
