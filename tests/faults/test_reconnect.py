"""A client loses its socket mid-game (a phone going into a tunnel), its opponent moves twice meanwhile, the
client reconnects (to the other server), subscribes, sees from the ack's version that it missed something and
sends sync: it gets the current view, and from then on every version is pushed; nothing is lost (docs/realtime.md,
"Versions, gaps and resync")."""

from __future__ import annotations

import asyncio

import pytest

from .client import Player, Socket
from .deploy import Deployment

pytestmark = [pytest.mark.faults, pytest.mark.slow, pytest.mark.integration]


def test_reconnect_mid_game_sync_gives_the_current_view(deployment: Deployment) -> None:
    dep = deployment
    tokens = dep.make_users("tina", "theo")
    tina, theo = Player(dep, "tina", tokens["tina"]), Player(dep, "theo", tokens["theo"])
    gid = tina.create("claim", [{"type": "user", "username": "theo"}])["id"]
    assert theo.post(f"/games/{gid}/join", {}, server=1).status_code == 201

    async def scenario() -> None:
        sock = await Socket(tina, 0).open()
        held = (await sock.subscribe([gid]))[gid]
        # Play until tina has just moved and theo must move: her socket sees her own move pushed.
        while not theo.view(gid)["my_turn"]:
            view = tina.move_if_my_turn(gid)
            assert view is not None
            held = (await sock.recv_until(lambda m, v=view["version"]: m.get("version") == v))["version"]
        await sock.close()  # gone

        # The opponent moves twice (tina moves in between over HTTP on another device when it is her turn;
        # her socket client does not know).
        theo_moves = 0
        while theo_moves < 2:
            if theo.move_if_my_turn(gid, server=1) is not None:
                theo_moves += 1
            else:
                assert tina.move_if_my_turn(gid, server=1) is not None
        current = tina.view(gid)
        assert current["version"] >= held + 2

        # Back: subscribe, compare, sync.
        back = await Socket(tina, 1).open()
        versions = await back.subscribe([gid])
        assert versions[gid] == current["version"] > held
        synced = await back.sync(gid)
        assert synced["version"] == current["version"]
        assert synced["view"] == tina.view(gid, server=1)  # exactly her GET view: her hand, her legal moves
        assert synced["view"]["seats"][synced["view"]["my_seat"]]["username"] == "tina"

        # Every version the client missed is in /history, nothing skipped.
        history = tina.get(f"/games/{gid}/history?from_version={held + 1}&limit=500").json()["results"]
        assert [e["version"] for e in history] == list(range(held + 1, current["version"] + 1))

        # From now on every move is pushed to the reconnected socket, version after version.
        for _ in range(3):
            mover = tina if tina.view(gid)["my_turn"] else theo
            view = mover.move_if_my_turn(gid)
            await back.recv_until(lambda m, v=view["version"]: m.get("type") == "game" and m.get("version") == v)
        pushed = [v for v in back.versions(gid) if v > current["version"]]
        assert pushed == list(range(current["version"] + 1, current["version"] + 4)), back.versions(gid)
        await back.close()

    asyncio.run(scenario())
