"""An example bot for claim, written from the public docs only (docs/api.md, docs/realtime.md).

    pip install websockets httpx
    python examples/bot.py https://claim.example.org clm_xxxxxxxx_secret [--max-games N] [--kinds claim,claim2]

It accepts every challenge of a kind it plays (declines the others with reason "kind"), joins every game of such
a kind it is invited to by username (``invitation_received``: a 3-4 seat game), plays a random move from
``legal_moves`` whenever it is its turn in any game (every kind: the moves come in the shape to send back),
answers the first chat line someone else writes in each of its games with the ``thanks`` phrase (once per game:
never its own lines, so two bots cannot loop), silences in-app notifications on its socket, and after every
(re)connect resyncs: the pending challenges, the invitations, then every active game. The token must be a bot
account's ``bot:play`` token (or games:read + games:play + account:read + chat:write). ``--max-games N``: exit
after N games have ended.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import uuid

import httpx
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

KINDS = ("claim", "claim2", "claim-mix", "inheritors")


class Bot:
    def __init__(self, base: str, token: str, kinds: set[str], max_games: int | None) -> None:
        self.base = base.rstrip("/")
        self.ws_url = self.base.replace("http", "ws", 1) + "/ws/?token=" + token
        self.http = httpx.AsyncClient(base_url=self.base + "/api/v1", headers={"Authorization": f"Bearer {token}"},
                                      timeout=30)
        self.kinds = kinds
        self.max_games = max_games
        self.versions: dict[int, int] = {}  # game id -> the version we last acted on
        self.ended: set[int] = set()
        self.busy: set[int] = set()
        self.thanked: set[int] = set()  # games whose chat we answered (once per game)
        self.joined: set[int] = set()  # invitations we took: the event and the resync's listing may both bring one
        self.me: str | None = None  # our username (GET /accounts/me)

    def log(self, *args: object) -> None:
        print("bot:", *args, flush=True)

    # --- challenges -------------------------------------------------------------------------------

    async def answer(self, challenge: dict) -> None:
        if challenge["status"] != "pending":
            return
        if challenge["kind"] not in self.kinds:
            await self.http.post(f"/challenges/{challenge['id']}/decline", json={"reason": "kind"})
            self.log("declined", challenge["id"], challenge["kind"])
            return
        r = await self.http.post(f"/challenges/{challenge['id']}/accept")
        if r.status_code == 200:
            self.log("accepted", challenge["id"], challenge["kind"], "-> game", r.json()["game_id"])
            await self.play(r.json()["game_id"])
        else:  # cancelled or expired meanwhile: nothing to do
            self.log("could not accept", challenge["id"], r.json()["error"]["code"])

    # --- invitations and chat ---------------------------------------------------------------------

    async def join(self, game: dict) -> None:
        """An invitation (a game summary with our seat not joined yet): join it if we play its kind."""
        mine = game["seats"][game["my_seat"]] if game.get("my_seat") is not None else None
        if game["status"] != "open" or mine is None or mine["joined"] or game["id"] in self.joined:
            return
        if game["kind"] not in self.kinds:
            self.log("not joining", game["id"], game["kind"])
            return
        self.joined.add(game["id"])  # before the request: a copy arriving meanwhile is not joined twice
        r = await self.http.post(f"/games/{game['id']}/join", json={})
        if r.status_code in (200, 201):
            self.log("joined", game["id"], game["kind"], f"({len(game['seats'])} seats)")
            self.versions.setdefault(game["id"], 0)
            await self.play(game["id"], r.json())
        else:  # called off meanwhile: nothing to do
            self.log("could not join", game["id"], r.json()["error"]["code"])

    async def chat(self, message: dict) -> None:
        """Answer the first line someone else writes in one of our games, once per game, in its room."""
        line = message["message"]
        game_id = message["game_id"]
        if line["author"]["username"] == self.me or game_id in self.thanked:
            return
        self.thanked.add(game_id)  # before the request: a line arriving meanwhile is not answered twice
        r = await self.http.post(f"/games/{game_id}/chat", json={"room": line["room"], "phrase": "thanks"})
        if r.status_code == 201:
            self.log("answered chat in", game_id)
        else:  # e.g. the room closed, or a rate limit: we do not insist
            self.log("could not answer chat in", game_id, r.json()["error"]["code"])

    # --- games ------------------------------------------------------------------------------------

    async def play(self, game_id: int, view: dict | None = None) -> None:
        """Move while it is our turn; the HTTP answer of a move is authoritative (docs/realtime.md)."""
        if game_id in self.busy:
            return
        self.busy.add(game_id)
        try:
            for _ in range(1000):
                if view is None:
                    r = await self.http.get(f"/games/{game_id}")
                    if r.status_code != 200:
                        return
                    view = r.json()
                if view["status"] in ("finished", "aborted"):
                    self.game_over(game_id, view["status"])
                    return
                if view["status"] != "active" or not view["my_turn"] or not view["legal_moves"]:
                    return
                body = {"version": view["version"], "move": random.choice(view["legal_moves"]),
                        "client_id": str(uuid.uuid4())}
                r = await self.http.post(f"/games/{game_id}/moves", json=body)
                if r.status_code in (200, 201):
                    view = r.json()
                    self.versions[game_id] = view["version"]
                elif r.status_code == 409:  # stale version or not our turn: error.view is the current view
                    view = r.json()["error"].get("view")
                elif r.status_code == 429:
                    await asyncio.sleep(float(r.headers.get("Retry-After", "1")))
                    view = None
                else:
                    self.log("move refused:", r.status_code, r.json()["error"]["message"])
                    return
        finally:
            self.busy.discard(game_id)

    def game_over(self, game_id: int, status: str) -> None:
        if game_id not in self.ended:
            self.ended.add(game_id)
            self.log("game", game_id, status, f"({len(self.ended)} ended)")

    def done(self) -> bool:
        return self.max_games is not None and len(self.ended) >= self.max_games

    async def resync(self) -> None:
        """After every (re)connect: what we may have missed while away."""
        if self.me is None:
            self.me = (await self.http.get("/accounts/me")).json()["username"]
        r = await self.http.get("/challenges")
        for challenge in r.json()["incoming"]:
            await self.answer(challenge)
        for game in (await self.http.get("/games", params={"status": "open", "limit": 200})).json()["results"]:
            await self.join(game)  # invitations made while we were away (and games we created: skipped)
        active = (await self.http.get("/games", params={"status": "active", "limit": 200})).json()["results"]
        for game in active:
            await self.play(game["id"])
        for game_id in set(self.versions) - {g["id"] for g in active} - self.ended:  # ended while we were away
            r = await self.http.get(f"/games/{game_id}")
            if r.status_code == 200 and r.json()["status"] in ("finished", "aborted"):
                self.game_over(game_id, r.json()["status"])

    # --- the socket -------------------------------------------------------------------------------

    async def handle(self, message: dict) -> None:
        kind = message["type"]
        if kind == "game":
            view = message["view"]
            if message["version"] > self.versions.get(message["game_id"], 0):
                self.versions[message["game_id"]] = message["version"]
                await self.play(message["game_id"], view)
        elif kind == "challenge_received":
            await self.answer(message["challenge"])
        elif kind == "invitation_received":
            await self.join(message["game"])
        elif kind == "chat":
            await self.chat(message)
        elif kind == "game_started":
            self.versions.setdefault(message["game_id"], 0)
            await self.play(message["game_id"])
        elif kind == "game_finished":
            self.game_over(message["game_id"], message["game"]["status"])
        elif kind == "error":
            self.log("server says:", message["message"])

    async def run(self) -> None:
        delay = 1
        while not self.done():
            try:
                async with connect(self.ws_url) as ws:
                    delay = 1
                    self.log("connected")
                    await ws.send(json.dumps({"type": "notifications", "enabled": False}))
                    await ws.send(json.dumps({"type": "subscribe", "games": "all"}))
                    pinger = asyncio.create_task(self.ping(ws))
                    try:
                        async for raw in ws:
                            message = json.loads(raw)
                            if message["type"] == "subscribed":
                                await self.resync()  # "all" acks carry no versions: re-read once
                            else:
                                await self.handle(message)
                            if self.done():
                                return
                    finally:
                        pinger.cancel()
            except ConnectionClosed as exc:
                if exc.rcvd and exc.rcvd.code in (4401, 4403):
                    sys.exit(f"refused: {exc.rcvd.code} (check the token and its scopes)")
                self.log("socket closed; reconnecting in", delay, "s")
            except (OSError, InvalidStatus, httpx.HTTPError) as exc:
                self.log("connection failed:", type(exc).__name__, "; reconnecting in", delay, "s")
            await asyncio.sleep(delay)
            delay = min(delay * 2, 30)

    @staticmethod
    async def ping(ws) -> None:
        """Keeps the bot listed in GET /bots/online (a ping at least every 60 s)."""
        while True:
            await asyncio.sleep(30)
            await ws.send(json.dumps({"type": "ping"}))


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("base", help="the server, e.g. https://claim.example.org")
    parser.add_argument("token", help="a bot:play token (clm_…)")
    parser.add_argument("--max-games", type=int, default=None, help="exit after this many games have ended")
    parser.add_argument("--kinds", default=",".join(KINDS), help="the game kinds to accept (comma-separated)")
    args = parser.parse_args()
    bot = Bot(args.base, args.token, set(args.kinds.split(",")), args.max_games)
    try:
        await bot.run()
    finally:
        await bot.http.aclose()
    bot.log("done:", len(bot.ended), "games ended")


if __name__ == "__main__":
    asyncio.run(main())
