"""A player of the deployment: HTTP over httpx, the events socket over ``websockets`` (docs/realtime.md); through
the one proxy unless a replica is named (``server=i``)."""

from __future__ import annotations

import asyncio
import json
import uuid
from dataclasses import dataclass, field
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from .deploy import Deployment


@dataclass
class Player:
    dep: Deployment
    name: str
    token: str

    def _url(self, server: int | None, path: str) -> str:
        """Through the proxy (``server`` None), or straight to gunicorn ``server``."""
        return f"{self.dep.http(server)}/api/v1{path}"

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}

    def get(self, path: str, server: int | None = None, timeout: float = 20) -> httpx.Response:
        return httpx.get(self._url(server, path), headers=self.headers, timeout=timeout)

    def post(self, path: str, body: dict[str, Any], server: int | None = None, timeout: float = 20) -> httpx.Response:
        return httpx.post(self._url(server, path), headers=self.headers, json=body, timeout=timeout)

    def view(self, game_id: int, server: int | None = None) -> dict[str, Any]:
        r = self.get(f"/games/{game_id}", server)
        assert r.status_code == 200, r.text
        return r.json()

    def create(self, kind: str, opponents: list[dict[str, Any]], server: int | None = None) -> dict[str, Any]:
        r = self.post("/games", {"kind": kind, "opponents": opponents}, server)
        assert r.status_code == 201, r.text
        return r.json()

    def move(self, view: dict[str, Any], server: int | None = None) -> httpx.Response:
        """Play the first legal move of ``view`` against its version (a fresh client id)."""
        return self.post(f"/games/{view['id']}/moves", {"version": view["version"], "move": view["legal_moves"][0],
                                                         "client_id": str(uuid.uuid4())}, server)

    def move_if_my_turn(self, game_id: int, server: int | None = None) -> dict[str, Any] | None:
        view = self.view(game_id, server)
        if view["status"] != "active" or not view["my_turn"] or not view["legal_moves"]:
            return None
        r = self.move(view, server)
        assert r.status_code == 201, r.text
        return r.json()


@dataclass
class Socket:
    """One ``/ws/`` connection, keeping every message it received."""

    player: Player
    server: int | None  # None: through the proxy; i: straight to uvicorn i
    ws: ClientConnection | None = None
    messages: list[dict[str, Any]] = field(default_factory=list)

    async def open(self) -> Socket:
        url = self.player.dep.ws(self.server, self.player.token)
        self.ws = await connect(url, open_timeout=10, close_timeout=2)
        return self

    async def send(self, message: dict[str, Any]) -> None:
        await self.ws.send(json.dumps(message))

    async def recv(self, timeout: float = 10) -> dict[str, Any]:
        message = json.loads(await asyncio.wait_for(self.ws.recv(), timeout))
        self.messages.append(message)
        return message

    async def recv_until(self, match: Any, timeout: float = 15) -> dict[str, Any]:
        """The first message for which ``match(message)`` is true (the others are kept in ``messages``)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            left = deadline - loop.time()
            if left <= 0:
                raise AssertionError(f"no matching message within {timeout}s; got {self.messages[-5:]}")
            message = await self.recv(left)
            if match(message):
                return message

    async def subscribe(self, game_ids: list[int]) -> dict[str, int]:
        await self.send({"type": "subscribe", "games": game_ids, "id": "sub"})
        ack = await self.recv_until(lambda m: m.get("id") == "sub")
        assert ack["type"] == "subscribed", ack
        return {int(k): v for k, v in ack["versions"].items()}

    async def sync(self, game_id: int) -> dict[str, Any]:
        ref = f"sync-{uuid.uuid4().hex[:6]}"
        await self.send({"type": "sync", "game_id": game_id, "id": ref})
        reply = await self.recv_until(lambda m: m.get("id") == ref)
        assert reply["type"] == "game", reply
        return reply

    async def closed_within(self, timeout: float) -> bool:
        """True if the server closes the socket within ``timeout`` (messages until then are kept)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        try:
            while (left := deadline - loop.time()) > 0:
                await self.recv(left)
        except ConnectionClosed:
            return True
        except TimeoutError:
            return False
        return False

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()

    def versions(self, game_id: int) -> list[int]:
        return [m["version"] for m in self.messages if m.get("type") == "game" and m.get("game_id") == game_id]
