"""Restart Redis (channel layer, broker, cache; no persistence, so it comes back empty) under two servers with
open sockets: a request during the outage gets a 503 in the API's error shape (Redis holds the rate-limit
counters) and changes nothing; every socket is either closed by the server or keeps receiving pushes (never open
and deaf); a client that reconnects, subscribes and syncs (docs/realtime.md) holds the current version, and every
move made after the restart (the refused one, retried, among them) is pushed to it, version after version."""

from __future__ import annotations

import asyncio
import time

import pytest
from websockets.exceptions import ConnectionClosed

from .client import Player, Socket
from .deploy import Deployment

pytestmark = [pytest.mark.faults, pytest.mark.slow, pytest.mark.integration]


def _mover(players: list[Player], game_id: int) -> Player:
    return next(p for p in players if p.view(game_id)["my_turn"])


async def _reconnect(old: Socket, game_id: int, timeout: float = 60) -> tuple[Socket, dict]:
    """What a client does after losing its socket: connect (to the other server, with retries), subscribe,
    compare the ack's version with the one it holds, sync when the game moved on."""
    held = max(old.versions(game_id))
    deadline = time.monotonic() + timeout
    while True:
        try:
            sock = await Socket(old.player, 1 - old.server).open()
            versions = await sock.subscribe([game_id])
            break
        except (OSError, ConnectionClosed, TimeoutError, AssertionError):
            if time.monotonic() > deadline:
                raise
            await asyncio.sleep(0.5)
    sock.messages[:0] = old.messages  # one client, one history
    synced = None
    if versions[game_id] != held:
        reply = await sock.sync(game_id)
        assert reply["version"] >= versions[game_id] > held
        assert reply["view"] == old.player.view(game_id), "the sync did not give the current view"
        synced = reply["version"]
    return sock, {"held": held, "ack": versions[game_id], "synced": synced}


def test_redis_restart_sockets_reconnect_and_resync(deployment: Deployment) -> None:
    dep = deployment
    tokens = dep.make_users("rosa", "rudi")
    rosa, rudi = Player(dep, "rosa", tokens["rosa"]), Player(dep, "rudi", tokens["rudi"])
    gid = rosa.create("claim", [{"type": "user", "username": "rudi"}], server=0)["id"]
    assert rudi.post(f"/games/{gid}/join", {}, server=1).status_code == 201
    players = [rosa, rudi]

    async def scenario() -> None:
        sockets = {"rosa": await Socket(rosa, 0).open(), "rudi": await Socket(rudi, 1).open()}
        for s in sockets.values():
            await s.subscribe([gid])
        view = _mover(players, gid).move_if_my_turn(gid)
        for s in sockets.values():
            await s.recv_until(lambda m: m.get("version") == view["version"])

        # Redis goes away and comes back empty (no persistence).
        mover = _mover(players, gid)
        mover_view = mover.view(gid)
        outage_started = time.monotonic()
        dep.redis.stop()
        # A move during the outage: 503 with the error shape and Retry-After, nothing applied.
        before = dep.game_row(gid)
        body = {"version": mover_view["version"], "move": mover_view["legal_moves"][0], "client_id": "in-the-outage"}
        during = mover.post(f"/games/{gid}/moves", body)
        assert during.status_code == 503, (during.status_code, during.text)
        assert during.json()["error"]["code"] == "service_unavailable"
        assert during.headers["Retry-After"]
        assert dep.game_row(gid) == before
        dep.redis.start()
        outage = time.monotonic() - outage_started
        retried = mover.post(f"/games/{gid}/moves", body)  # the client retries once Redis is back
        assert retried.status_code == 201, retried.text

        # Every socket is closed by the server or still hears moves; the client's own logic resyncs either way.
        resynced = {}
        closed = {}
        for name, sock in list(sockets.items()):
            closed[name] = await sock.closed_within(15)
            if closed[name]:
                sockets[name], resynced[name] = await _reconnect(sock, gid)
        current = rosa.view(gid)["version"]
        for name, sock in sockets.items():
            if not closed[name]:  # open through the restart: it must still get new moves (checked below)
                continue
            last = max(sock.versions(gid))
            assert last == current, f"{name} holds version {last} after the resync, the game is at {current}"

        # Moves after the restart reach every socket, each version exactly once and in order.
        for i in range(4):
            view = _mover(players, gid).move_if_my_turn(gid, server=i % 2)
            assert view is not None
            for sock in sockets.values():
                await sock.recv_until(lambda m, v=view["version"]: m.get("version") == v, timeout=15)
        final = rosa.view(gid)["version"]
        assert final == current + 4
        for name, sock in sockets.items():
            pushed = [v for v in sock.versions(gid) if v > current]
            assert pushed == list(range(current + 1, final + 1)), (name, sock.versions(gid))
        # Nothing lost for a client that resyncs: /history has every version, with no gap.
        history = rosa.get(f"/games/{gid}/history?limit=500").json()
        versions = [e["version"] for e in history["results"]]
        assert versions == list(range(versions[0], final + 1)), versions
        for sock in sockets.values():
            await sock.close()
        print(f"\nredis outage {outage:.1f}s; move during it: {during.status_code}; sockets closed: {closed}; "
              f"resync: {resynced}")

    asyncio.run(scenario())
    # The worker and both servers are whole again (a worker answers the health check's ping).
    dep.wait_healthy(timeout=60)
    assert set(dep.replay_all().values()) == {"identical"}
