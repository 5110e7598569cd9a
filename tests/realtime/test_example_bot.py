"""examples/bot.py against a real server process (issue 26): it accepts a challenge of every kind, plays each
game to its end from ``legal_moves``, and when the server restarts in the middle it reconnects and resyncs; (issue
35) it joins a 3-seat game it is invited to and answers a chat line once."""

from __future__ import annotations

import asyncio
import importlib.util
import random
import subprocess
import sys
import time

import httpx
import pytest

from .servers import ROOT, shared_env, start_server, wait_ready

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

SEVEN = ["knight", "goblin", "undead", "dwarf", "doppelganger", "dragon", "troll"]  # a pair and 5 singles
CHALLENGES = [
    {"kind": "claim"},
    {"kind": "claim2"},
    {"kind": "claim-mix", "options": {"factions": ["knight", "goblin", "dragon", "troll", "seer"]}},
    {"kind": "inheritors"},
]


def _play_human_turns(http: httpx.Client, game_ids: list[int]) -> dict[int, str]:
    """One pass over the games: a random legal move wherever it is the human's turn; each game's status."""
    statuses = {}
    for game_id in game_ids:
        view = http.get(f"/games/{game_id}").json()
        statuses[game_id] = view["status"]
        if view["status"] == "active" and view["my_turn"] and view["legal_moves"]:
            body = {"version": view["version"], "move": random.choice(view["legal_moves"])}
            r = http.post(f"/games/{game_id}/moves", json=body)
            assert r.status_code in (201, 409), r.text
    return statuses


def test_the_example_bot_plays_a_game_of_every_kind_and_survives_a_restart(make_user, make_token):
    env = shared_env("the bot and the test talk to a real server process")
    server = start_server(env)
    bot_process = None
    try:
        wait_ready(server)
        human = make_user("ada")
        robo = make_user("robo")
        robo.is_bot = True
        robo.save(update_fields=["is_bot"])
        bot_token = make_token(robo, scopes=["bot:play"])
        bot_process = subprocess.Popen([sys.executable, str(ROOT / "examples" / "bot.py"), server.http, bot_token,
                                        "--max-games", str(len(CHALLENGES))],
                                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        with httpx.Client(base_url=f"{server.http}/api/v1", timeout=30,
                          headers={"Authorization": f"Bearer {make_token(human)}"}) as http:
            deadline = time.monotonic() + 30
            while "robo" not in [b["username"] for b in http.get("/bots/online").json()["results"]]:
                assert time.monotonic() < deadline, "the bot never came online"
                time.sleep(0.3)
            # One pending challenge at a time: at most 3 may wait for one player (too_many_challenges_to_user).
            game_ids: list[int] = []
            for terms in CHALLENGES:
                r = http.post("/challenges", json={"to": "robo", "days_per_move": 3, **terms})
                assert r.status_code == 201, r.text
                deadline = time.monotonic() + 60
                while (answer := http.get(f"/challenges/{r.json()['id']}").json())["status"] != "accepted":
                    assert time.monotonic() < deadline, f"the bot did not accept {terms}: {answer}"
                    time.sleep(0.3)
                game_ids.append(answer["game_id"])

            restarted = False
            deadline = time.monotonic() + 600
            for passes in range(100_000):
                statuses = _play_human_turns(http, game_ids)
                if all(s == "finished" for s in statuses.values()):
                    break
                assert time.monotonic() < deadline, f"games did not end: {statuses}"
                if not restarted and passes == 5:  # mid-game
                    server.stop()  # the bot's socket drops; it must reconnect and resync by itself
                    server = start_server(env, port=server.port)
                    wait_ready(server)
                    restarted = True
        assert restarted
        out, _ = bot_process.communicate(timeout=60)
        assert bot_process.returncode == 0, out
        assert out.count("bot: accepted") == len(CHALLENGES), out
        assert "reconnecting" in out and out.count("bot: connected") >= 2, out
        assert f"done: {len(CHALLENGES)} games ended" in out, out
        for game_id in game_ids:
            record = httpx.get(f"{server.http}/api/v1/games/{game_id}/record").json()  # public now, no token
            assert record["record"]["ended_reason"] == "normal", record["kind"]
    finally:
        if bot_process is not None and bot_process.poll() is None:
            bot_process.kill()
            print(bot_process.communicate()[0])
        print(server.output())
        server.stop()


def _wait(what: str, check, seconds: float = 60):
    deadline = time.monotonic() + seconds
    while not (found := check()):
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.3)
    return found


def test_the_example_bot_joins_a_three_seat_game_it_is_invited_to_and_answers_chat_once(make_user, make_token):
    """Issue 35: invited by username to a 3-seat game, the bot joins (``invitation_received``) and plays it to its
    end; the first line someone else writes it answers once with the ``thanks`` phrase, never a second time."""
    env = shared_env("the bot and the test talk to a real server process")
    server = start_server(env)
    bot_process = None
    try:
        wait_ready(server)
        human = make_user("ada")
        robo = make_user("robo")
        robo.is_bot = True
        robo.save(update_fields=["is_bot"])
        bot_process = subprocess.Popen([sys.executable, str(ROOT / "examples" / "bot.py"), server.http,
                                        make_token(robo, scopes=["bot:play"]), "--max-games", "1"],
                                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        token = make_token(human, scopes=["games:read", "games:play", "chat:read", "chat:write"])
        with httpx.Client(base_url=f"{server.http}/api/v1", timeout=30,
                          headers={"Authorization": f"Bearer {token}"}) as http:
            _wait("the bot online",
                  lambda: "robo" in [b["username"] for b in http.get("/bots/online").json()["results"]])
            r = http.post("/games", json={"kind": "claim-mix", "seats": 3, "days_per_move": 3,
                                          "options": {"factions": SEVEN},
                                          "opponents": [{"type": "user", "username": "robo"},
                                                        {"type": "ai", "level": 1}]})
            assert r.status_code == 201, r.text
            game_id = r.json()["id"]
            _wait("the bot to join", lambda: http.get(f"/games/{game_id}").json()["status"] != "open")
            assert http.get(f"/games/{game_id}").json()["status"] == "active"  # robo joined: every seat filled

            def robo_lines() -> list[dict]:
                lines = http.get(f"/games/{game_id}/chat").json()["results"]
                return [line for line in lines if line["author"]["username"] == "robo"]

            assert http.post(f"/games/{game_id}/chat", json={"text": "Good luck, robo!"}).status_code == 201
            (answer,) = _wait("the bot's answer", robo_lines)
            assert answer["phrase"] == "thanks" and answer["room"] == "players"
            assert http.post(f"/games/{game_id}/chat", json={"phrase": "have_fun"}).status_code == 201

            deadline = time.monotonic() + 300
            while _play_human_turns(http, [game_id])[game_id] != "finished":
                assert time.monotonic() < deadline, "the game did not end"
            assert len(robo_lines()) == 1  # answered once, not again (nor its own line)
        out, _ = bot_process.communicate(timeout=60)
        assert bot_process.returncode == 0, out
        assert out.count("bot: joined") == 1 and out.count("bot: answered chat") == 1, out
        assert "done: 1 games ended" in out, out
    finally:
        if bot_process is not None and bot_process.poll() is None:
            bot_process.kill()
            print(bot_process.communicate()[0])
        print(server.output())
        server.stop()


def test_the_example_bot_joins_an_invitation_once_when_it_arrives_twice():
    """The resync's listing of open games and the ``invitation_received`` event can bring the same invitation,
    both showing our seat not joined yet: the bot posts one join (the second answer would be a 200 too, since
    joining a seat you hold changes nothing, docs/api.md), so it never reports or plays the game twice."""
    spec = importlib.util.spec_from_file_location("example_bot", ROOT / "examples" / "bot.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    posts: list[str] = []

    def answer(request: httpx.Request) -> httpx.Response:
        if request.method == "POST":
            posts.append(request.url.path)
        return httpx.Response(200, json={"id": 7, "status": "active", "my_turn": False, "legal_moves": [],
                                         "version": 1})

    bot = module.Bot("http://testserver", "clm_x", {"claim"}, max_games=None)
    bot.http = httpx.AsyncClient(base_url="http://testserver/api/v1", transport=httpx.MockTransport(answer))
    summary = {"id": 7, "kind": "claim", "status": "open", "my_seat": 1,
               "seats": [{"joined": True}, {"joined": False}]}

    async def twice() -> None:
        await asyncio.gather(bot.join(summary), bot.join(dict(summary)))
        await bot.join(summary)

    asyncio.run(twice())
    assert posts == ["/api/v1/games/7/join"]
