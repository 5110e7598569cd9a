"""Kill -9 one of the two replicas of a server kind under traffic through the one proxy (docker/Caddyfile):

* a gunicorn, while two games are played move after move: no request that starts after the kill fails (the proxy
  sends it to the other replica); one in flight on the killed process may fail (502), and the client's retry of
  the same request (a move with the same ``client_id``, docs/api.md "Moves: versions and retries") succeeds and
  applies nothing twice; every game's log replays identically;
* a uvicorn, with sockets open on both: the killed one's sockets close, their clients reconnect through the
  proxy (onto the survivor), subscribe and sync, and receive every later version; nothing lost against
  ``/history`` (docs/realtime.md, "Versions, gaps and resync").

Each killed process is started again at the end (the next tests find the whole deployment).
"""

from __future__ import annotations

import asyncio
import threading
import time
import uuid
from dataclasses import dataclass, field
from typing import Any

import httpx
import pytest

from .client import Player, Socket
from .deploy import Deployment, wait_for

pytestmark = [pytest.mark.faults, pytest.mark.slow, pytest.mark.integration]


@dataclass
class Traffic:
    """A client's record: every request, and every attempt of one that failed."""

    requests: int = 0
    failures: list[tuple[float, str]] = field(default_factory=list)  # (when the attempt started, what)
    repeats: int = 0  # moves whose retry was answered 200: the first attempt had been applied
    accepted: dict[int, set[str]] = field(default_factory=dict)  # game -> client ids answered 201/200
    lock: threading.Lock = field(default_factory=threading.Lock)

    def call(self, send: Any) -> httpx.Response:
        """``send()`` until it gets an answer from the app (a 502 from the proxy or a dropped connection is a
        failed attempt: sent again, unchanged)."""
        with self.lock:
            self.requests += 1
        for _ in range(20):
            started = time.monotonic()
            try:
                r = send()
            except httpx.TransportError as exc:
                what = type(exc).__name__
            else:
                if r.status_code not in (502, 503, 504):
                    return r
                what = f"{r.status_code} {r.text[:80]}"
            with self.lock:
                self.failures.append((started, what))
            time.sleep(0.2)
        raise AssertionError(f"a request failed 20 times: {self.failures[-3:]}")


def _play_whole_game(players: list[Player], gid: int, traffic: Traffic) -> str:
    """Both seats move in turn through the proxy until the game ends; each move retried with its own client id."""
    traffic.accepted[gid] = set()
    while True:
        views = [traffic.call(lambda p=p: p.get(f"/games/{gid}")).json() for p in players]
        if views[0]["status"] != "active":
            return views[0]["status"]
        mover, view = next(((p, v) for p, v in zip(players, views, strict=True) if v["my_turn"]), (None, None))
        assert mover is not None and view["legal_moves"], views
        body = {"version": view["version"], "move": view["legal_moves"][0], "client_id": str(uuid.uuid4())}
        r = traffic.call(lambda m=mover, b=body: m.post(f"/games/{gid}/moves", b))
        assert r.status_code in (200, 201), r.text
        if r.status_code == 200:
            with traffic.lock:
                traffic.repeats += 1
        traffic.accepted[gid].add(body["client_id"])


def test_killed_gunicorn_costs_the_client_no_failed_request(deployment: Deployment) -> None:
    dep = deployment
    names = ["gina", "gus", "gale", "gil"]
    tokens = dep.make_users(*names)
    p = {n: Player(dep, n, tokens[n]) for n in names}
    games = []
    for a, b in (("gina", "gus"), ("gale", "gil")):
        gid = p[a].create("claim", [{"type": "user", "username": b}])["id"]
        assert p[b].post(f"/games/{gid}/join", {}).status_code == 201
        games.append((gid, [p[a], p[b]]))
    traffic = Traffic()
    results: dict[int, str] = {}
    errors: list[BaseException] = []

    def play(gid: int, players: list[Player]) -> None:
        try:
            results[gid] = _play_whole_game(players, gid, traffic)
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=play, args=g) for g in games]
    for t in threads:
        t.start()
    # Mid-traffic: once the first game has some moves, gunicorn 0 dies with every request it holds.
    wait_for("some moves", lambda: dep.game_row(games[0][0])[1] >= 8 or errors, 120, interval=0.05)
    requests_before = traffic.requests
    dep.gunicorns[0].kill()
    killed_at = time.monotonic()
    # Play goes on with one gunicorn, then the killed one comes back and takes its share again.
    wait_for("more moves on one gunicorn", lambda: traffic.requests >= requests_before + 60 or errors
             or not any(t.is_alive() for t in threads), 120, interval=0.1)
    dep.restart_gunicorn(0)
    back_at = time.monotonic()
    for t in threads:
        t.join(timeout=600)
    assert not errors, errors
    assert all(s == "finished" for s in results.values()), results

    failed_after_kill = [(round(at - killed_at, 2), what) for at, what in traffic.failures if at > killed_at]
    assert not failed_after_kill, f"requests that started after the kill failed: {failed_after_kill}"
    for gid, _ in games:  # each accepted client id is one move: none lost, none applied twice
        assert len(dep.move_log(gid)) == len(traffic.accepted[gid]) == dep.game_row(gid)[1]
    replays = dep.replay_all()
    assert all(replays[str(gid)] == "identical" for gid, _ in games), replays
    print(f"\ngunicorn 0 killed mid-traffic: {traffic.requests} requests over 2 whole games, "
          f"{len(traffic.failures)} failed attempt(s) (all in flight at the kill, retried: "
          f"{[w for _, w in traffic.failures]}), {traffic.repeats} retried move(s) answered as a repeat; "
          f"ran on one gunicorn for {back_at - killed_at:.1f}s")
    dep.wait_healthy(timeout=60)


def test_killed_uvicorn_sockets_reconnect_through_the_proxy(deployment: Deployment) -> None:
    dep = deployment
    tokens = dep.make_users("ursa", "udo")
    ursa, udo = Player(dep, "ursa", tokens["ursa"]), Player(dep, "udo", tokens["udo"])
    gid = ursa.create("claim", [{"type": "user", "username": "udo"}])["id"]
    assert udo.post(f"/games/{gid}/join", {}).status_code == 201
    players = [ursa, udo]

    def move() -> int:
        view = next(p for p in players if p.view(gid)["my_turn"]).move_if_my_turn(gid)
        assert view is not None
        return view["version"]

    async def scenario() -> None:
        # Four sockets through the proxy (two per player): round robin puts two on each uvicorn.
        sockets = [await Socket(pl, None).open() for pl in (ursa, udo, ursa, udo)]
        for s in sockets:
            await s.subscribe([gid])
        v = move()
        for s in sockets:
            await s.recv_until(lambda m, v=v: m.get("type") == "game" and m.get("version") == v)

        dep.uvicorns[0].kill()
        killed_at = time.monotonic()
        missed = [move(), move()]  # made while the sockets of the killed replica are gone
        reconnect_s: list[float] = []

        async def follow(i: int) -> bool:
            """What each client does: notice its socket closing (or keep listening), reconnect and resync."""
            s = sockets[i]
            if not await s.closed_within(10):  # on the survivor: it heard the moves made meanwhile
                for v in missed:
                    if v not in s.versions(gid):  # closed_within kept what came meanwhile
                        await s.recv_until(lambda m, v=v: m.get("type") == "game" and m.get("version") == v)
                return False
            held = max(s.versions(gid))
            back = await Socket(s.player, None).open()  # through the proxy: only the survivor takes it
            acked = (await back.subscribe([gid]))[gid]
            assert acked == missed[-1] > held, (acked, missed, held)
            synced = await back.sync(gid)
            assert synced["version"] == missed[-1]
            reconnect_s.append(round(time.monotonic() - killed_at, 2))
            assert synced["view"] == await asyncio.to_thread(s.player.view, gid)
            back.messages[:0] = s.messages  # one client, one history
            sockets[i] = back
            return True

        closed = await asyncio.gather(*(follow(i) for i in range(len(sockets))))
        assert 0 < sum(closed) < len(sockets), f"closed: {closed} (round robin should split them)"

        # Every later version reaches every socket, once and in order.
        since = missed[-1]
        later = [move() for _ in range(4)]
        for s in sockets:
            for v in later:
                await s.recv_until(lambda m, v=v: m.get("type") == "game" and m.get("version") == v)
            assert [v for v in s.versions(gid) if v > since] == later, s.versions(gid)
        history = ursa.get(f"/games/{gid}/history?limit=500").json()["results"]
        versions = [e["version"] for e in history]
        assert versions == list(range(versions[0], later[-1] + 1)), versions
        for s in sockets:
            await s.close()
        print(f"\nuvicorn 0 killed with {len(sockets)} sockets open through the proxy: {sum(closed)} closed, "
              f"reconnected through the proxy, subscribed and synced {reconnect_s} s after the kill "
              f"(2 moves missed meanwhile); {len(later)} later versions pushed to all {len(sockets)}")

    asyncio.run(scenario())
    dep.restart_uvicorn(0)
    dep.wait_healthy(timeout=60)
