"""games/fastmoves.py: the move endpoint on the event loop answers exactly as Django's stack does, and
hands every other case to it untouched (issue 4)."""

from __future__ import annotations

import asyncio
import json
import os
import re
from typing import Any

import httpx
import pytest
from asgiref.sync import sync_to_async
from django.db import connection

from claim import asyncdb
from claim.http import http_application
from games import fastmoves
from games.models import Game, GameEvent, Move
from games.service.moves import replay_log

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(not os.environ.get("REDIS_URL") or not os.environ.get("DATABASE_URL", "").startswith("postgres"),
                       reason="the fast path needs PostgreSQL and Redis"),
]


@pytest.fixture(autouse=True)
def redis_cache(settings):
    """The deployment's Redis cache (throttles), on a database of its own that the test may flush."""
    url = re.sub(r"/\d*$", "", os.environ["REDIS_URL"].rstrip("/")) + "/14"
    settings.CACHES = {"default": {"BACKEND": "claim.cache.RedisCache", "LOCATION": url}}
    from django.core.cache import cache

    cache.clear()
    fastmoves._throttles.clear()
    fastmoves.stats.clear()
    yield
    cache.clear()
    if getattr(connection, "pool", None) is not None:  # the WSGI threads' pooled connections: let teardown drop the DB
        connection.close_pool()


def _run(scenario) -> Any:
    async def main():
        try:
            return await scenario()
        finally:
            await asyncdb.close_pool()

    return asyncio.run(main())


def _client(fast: bool) -> httpx.AsyncClient:
    inner = http_application()
    app = fastmoves.FastMoves(inner) if fast else inner
    return httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://testserver")


def _started_game(alice, bob) -> int:
    game = alice.create(kind="claim", opponents=[{"type": "user", "username": bob.user.username}])
    r = bob.post(f"/api/v1/games/{game['id']}/join")
    assert r.status_code == 201, r.content
    return game["id"]


def _token(api) -> str:
    return api.client._credentials["HTTP_AUTHORIZATION"]


async def _view(http: httpx.AsyncClient, api, game_id: int) -> dict:
    r = await http.get(f"/api/v1/games/{game_id}", headers={"Authorization": _token(api)})
    assert r.status_code == 200, r.text
    return r.json()


async def _move(http, api, game_id: int, version: int, move: Any, client_id: str | None = None, **kw):
    body: dict[str, Any] = {"version": version, "move": move}
    if client_id is not None:
        body["client_id"] = client_id
    return await http.post(f"/api/v1/games/{game_id}/moves", json=body, headers={"Authorization": _token(api), **kw})


async def _mover(http, players, game_id: int):
    """``(api, view)`` of the player whose turn it is."""
    for api in players:
        view = await _view(http, api, game_id)
        if view["my_turn"]:
            return api, view
    raise AssertionError("nobody's turn")


_VOLATILE = {"date", "server", "content-length", "ratelimit"}  # ratelimit: the requests left (compared below)


def _headers(r: httpx.Response) -> dict[str, str]:
    return {k: v for k, v in r.headers.items() if k not in _VOLATILE}


def test_a_whole_game_over_the_fast_path_answers_like_django(alice, bob):
    """Every move but the last is played on the loop; each answer equals the mover's view read back through
    Django, with Django's headers, the last one included (result, outcomes, ranks); the log replays."""
    game_id = _started_game(alice, bob)

    async def scenario():
        async with _client(fast=True) as http, _client(fast=False) as plain:
            n = 0
            while True:
                api, view = await _mover(http, (alice, bob), game_id)
                r = await _move(http, api, game_id, view["version"], view["legal_moves"][-1], client_id=f"m{n}")
                assert r.status_code == 201, r.text
                n += 1
                assert r.json() == await _view(plain, api, game_id)
                if r.json()["status"] != "active":
                    break
                if fastmoves.stats["fast"] == 1:  # the first fast answer: headers as Django gives a move
                    fast_headers = _headers(r)
                    other, other_view = await _mover(plain, (alice, bob), game_id)
                    d = await _move(plain, other, game_id, other_view["version"], other_view["legal_moves"][0],
                                    client_id=f"m{n}")
                    assert d.status_code == 201
                    assert _headers(d) == fast_headers
                    assert [i.split(";")[0] for i in d.headers["ratelimit"].split(", ")] == \
                        [i.split(";")[0] for i in r.headers["ratelimit"].split(", ")] == ['"user"', '"moves"']
                    assert int(r.headers["content-length"]) == len(r.content)
                    n += 1
            return n

    moves = _run(scenario)
    # one move was played through Django alone, to compare the headers
    assert dict(fastmoves.stats) == {"fast": moves - 1}
    check = replay_log(game_id)
    assert check.ok, check.message
    game = Game.objects.get(pk=game_id)
    assert game.status == "finished" and game.move_count == moves and game.finished_at and game.result
    seats = list(game.seats.order_by("index"))
    assert sorted(s.outcome for s in seats) in (["draw", "draw"], ["loss", "win"]) and not any(s.to_act for s in seats)
    assert {s.rank for s in seats} <= {1, 2}
    assert list(GameEvent.objects.filter(game=game, type="move").values_list("version", flat=True)) == \
        sorted(Move.objects.filter(game=game).values_list("version", flat=True))


def test_no_hidden_card_in_any_fast_answer_or_push(alice, bob, monkeypatch):
    """A whole game on the fast path, spied on: every answer and every socket message the publisher hands
    on carries no card of the other seat's hand, of the deck or the seed, and goes to its own user only."""
    from games.realtime import publish

    from .conftest import assert_no_leak, hidden_card_ids, state_at

    game_id = _started_game(alice, bob)
    sent: list[tuple[str, dict]] = []
    monkeypatch.setattr(publish, "send_to_groups", lambda messages, what: sent.extend(messages))
    seat_of = {}

    async def scenario():
        checked = 0
        async with _client(fast=True) as http:
            while True:
                api, view = await _mover(http, (alice, bob), game_id)
                seat_of[api.user.pk] = view["my_seat"]
                sent.clear()
                r = await _move(http, api, game_id, view["version"], view["legal_moves"][0])
                assert r.status_code == 201, r.text
                if r.json()["status"] != "active":
                    return checked
                game = await sync_to_async(Game.objects.get)(pk=game_id)
                state = state_at(game)
                assert_no_leak(r.json(), hidden_card_ids(state, view["my_seat"]), game.seed, "fast answer")
                updates = [(g, m) for g, m in sent if m["type"] == "game.update"]
                assert sorted(group for group, _ in updates) == sorted([f"user.{alice.user.pk}", f"user.{bob.user.pk}"])
                for group, message in sent:
                    user_pk = int(group.split(".")[1])
                    if message["type"] != "game.update":  # an in-app notification: no view at all
                        assert "view" not in json.dumps(message)
                        continue
                    seat = message["view"]["my_seat"]
                    assert seat == seat_of.get(user_pk, seat) and message["view"]["seats"][seat]["you"]
                    assert_no_leak(message, hidden_card_ids(state, seat), game.seed, f"push to {group}")
                checked += 1

    checked = _run(scenario)
    assert checked > 20 and fastmoves.stats["fast"] == checked + 1  # + the last move (then all is public)


def test_every_refusal_and_retry_is_answered_by_django(alice, bob, stranger, make_api):
    """Stale version, not your turn, an illegal or malformed move, a retried client_id, a bad token, a token
    without the play scope, a stranger: the fast path hands each to Django, whose answer is unchanged."""
    game_id = _started_game(alice, bob)
    reader = make_api("reader", scopes=["games:read"])

    async def answers(fast: bool) -> list[tuple[int, Any]]:
        async with _client(fast=fast) as http:
            api, view = await _mover(http, (alice, bob), game_id)
            other = bob if api is alice else alice
            version, legal = view["version"], view["legal_moves"]
            out = []
            r = await _move(http, api, game_id, version, legal[0], client_id="first")
            first = r.json()
            out.append((r.status_code, None))
            for r in (
                await _move(http, api, game_id, version, legal[0], client_id="first"),  # retry: first answer
                await _move(http, api, game_id, version, legal[0]),  # stale
                await _move(http, other, game_id, version + 1, {"play": "nope-1"}),  # illegal
                await _move(http, api, game_id, version + 1, legal[0]),  # not your turn
                await _move(http, other, game_id, version + 1, []),  # malformed
                await _move(http, other, game_id, "x", {"play": "a"}),  # malformed version
                await _move(http, stranger, game_id, version + 1, {"play": "a"}),  # not seated: 404
                await _move(http, reader, game_id, version + 1, {"play": "a"}),  # scope
                await http.post(f"/api/v1/games/{game_id}/moves", json={"version": 1, "move": {"a": 1}},
                                headers={"Authorization": "Bearer clm_00000000_nope"}),
                await http.post(f"/api/v1/games/{game_id}/moves", content=b"{not json",
                                headers={"Authorization": _token(other), "Content-Type": "application/json"}),
            ):
                body = r.json()
                if r.status_code == 200:
                    assert body == first
                out.append((r.status_code, _stable(body)))
            return out

    fast = _run(lambda: answers(True))
    fast_stats = dict(fastmoves.stats)
    assert [code for code, _ in fast] == [201, 200, 409, 400, 409, 400, 400, 404, 403, 401, 400]
    assert "fast" not in fast_stats or fast_stats["fast"] <= 1  # only the first move can be fast (tokens are new)
    # the same requests on a fresh game through Django alone give the same answers
    game_id = _started_game(alice, bob)
    plain = _run(lambda: answers(False))
    assert _no_ids(fast) == _no_ids(plain)


def _stable(body: Any) -> Any:
    """An error body without the view's volatile fields (timestamps, ids, cards of this deal)."""
    error = body.get("error", {}) if isinstance(body, dict) else {}
    return {"code": error.get("code"), "message": re.sub(r"\d+", "N", str(error.get("message", "")))}


def _no_ids(answers):
    return [(code, body if code != 400 or body["code"] != "illegal_move" else "illegal") for code, body in answers]


def test_a_throttled_move_is_counted_once_and_refused_by_drf(alice, bob, settings):
    """The fast path checks the throttles in one round trip; when one refuses it takes its records back and
    DRF answers 429 with Retry-After, counting the request exactly as it always did: the user throttle
    records it, the moves throttle does not."""
    import redis
    from rest_framework.settings import api_settings

    from claim.throttling import user_throttle_logs
    from games.api.views import GameMovesView

    game_id = _started_game(alice, bob)
    client = redis.Redis.from_url(settings.CACHES["default"]["LOCATION"])
    rates = dict(api_settings.DEFAULT_THROTTLE_RATES)
    api_settings.DEFAULT_THROTTLE_RATES["moves"] = "2/min"
    try:
        async def scenario():
            out = []
            async with _client(fast=True) as http:
                for _ in range(6):
                    api, view = await _mover(http, (alice, bob), game_id)
                    (user_log, *_), (moves_log, *_) = user_throttle_logs(GameMovesView, api.user.pk)
                    before = client.zcard(user_log), client.zcard(moves_log)
                    r = await _move(http, api, game_id, view["version"], view["legal_moves"][0])
                    after = client.zcard(user_log), client.zcard(moves_log)
                    out.append((api.user.username, r.status_code, r.headers.get("retry-after"),
                                after[0] - before[0], after[1] - before[1]))
            return out

        answers = _run(scenario)
    finally:
        api_settings.DEFAULT_THROTTLE_RATES.clear()
        api_settings.DEFAULT_THROTTLE_RATES.update(rates)
    for name in ("alice", "bob"):
        codes = [code for who, code, *_ in answers if who == name]
        assert codes == [201] * min(2, len(codes)) + [429] * (len(codes) - 2)  # 2 moves a minute each
    assert sum(1 for a in answers if a[1] == 429) == 2
    for _, code, retry_after, user_delta, moves_delta in answers:
        assert user_delta == 1  # each request counted once by the user throttle, fast or not
        assert moves_delta == (1 if code == 201 else 0)
        assert (retry_after is not None) == (code == 429)
    assert fastmoves.stats["fast"] == 4 and fastmoves.stats["delegated: throttled"] == 2


def test_two_clients_race_the_same_version_on_the_loop(make_api):
    """50 races of the same version on the fast path: exactly one move wins each time, the other gets
    Django's 409; the log has no gap or duplicate and replays to the stored snapshot."""
    alice, bob = make_api("racer-a"), make_api("racer-b")
    game_id = _started_game(alice, bob)
    # a second token of the same player: two clients of one seat
    from accounts.models import ApiToken

    _, second = ApiToken.issue(alice.user, "second", ["games:read", "games:play"])

    async def scenario():
        wins = 0
        async with _client(fast=True) as http:
            for race in range(50):
                api, view = await _mover(http, (alice, bob), game_id)
                if view["status"] != "active":
                    break
                tokens = [_token(api), f"Bearer {second}" if api is alice else _token(api)]
                legal = view["legal_moves"]
                body = [{"version": view["version"], "move": legal[0], "client_id": f"r{race}a"},
                        {"version": view["version"], "move": legal[-1], "client_id": f"r{race}b"}]
                answers = await asyncio.gather(*(
                    http.post(f"/api/v1/games/{game_id}/moves", json=b, headers={"Authorization": t})
                    for b, t in zip(body, tokens, strict=True)))
                codes = sorted(r.status_code for r in answers)
                assert codes[0] == 201 and codes[1] in (201, 409), codes
                assert codes != [201, 201]
                wins += 1
                if any(r.status_code == 201 and r.json()["status"] != "active" for r in answers):
                    break
        return wins

    wins = _run(scenario)
    game = Game.objects.get(pk=game_id)
    assert game.move_count == wins
    numbers = list(Move.objects.filter(game=game).order_by("number").values_list("number", flat=True))
    assert numbers == list(range(1, wins + 1))
    check = replay_log(game_id)
    assert check.ok, check.message
    assert fastmoves.stats["fast"] >= wins - 3


def test_the_fast_path_uses_no_django_connection(alice, bob):
    """The loop never touches Django's (synchronous) connection: a query there would raise
    SynchronousOnlyOperation and be handed to Django as an error."""
    game_id = _started_game(alice, bob)

    async def scenario():
        async with _client(fast=True) as http:
            for _ in range(6):
                api, view = await _mover(http, (alice, bob), game_id)
                r = await _move(http, api, game_id, view["version"], view["legal_moves"][0])
                assert r.status_code == 201

    _run(scenario)
    assert fastmoves.stats["delegated: error"] == 0
    assert fastmoves.stats["fast"] >= 4
    assert connection.vendor == "postgresql"


def test_the_answer_is_written_byte_for_byte_as_drf_writes_it(alice, bob):
    from rest_framework.renderers import JSONRenderer

    from games.service.payload import game_view_payload

    game = Game.objects.get(pk=_started_game(alice, bob))
    payloads = [game_view_payload(game, alice.user), {"text": "line\u2028para\u2029 é \"/\\", "n": [1, None, True]}]
    for payload in payloads:
        assert fastmoves._render(payload) == JSONRenderer().render(payload, "application/json")


def test_malformed_moves_and_tokens_get_djangos_answers(alice, bob):
    """The hardening suite's malformed bodies and tokens (tests/hardening/test_bad_input.py), through the ASGI
    app with and without the fast path: the same status, error code and message, and the game unchanged."""
    from tests.hardening.test_bad_input import MALFORMED_MOVES

    game_id = _started_game(alice, bob)
    headers = ["Bearer clm_deadbeef_notthesecret", "Bearer clm_short_x", "Bearer " + "a" * 5000,
               "Bearer clm_deadbeef_x extra", "Bearer"]

    async def scenario():
        async with _client(fast=True) as fast, _client(fast=False) as plain:
            api, view = await _mover(fast, (alice, bob), game_id)
            pairs = []
            for name, body in MALFORMED_MOVES.items():
                if isinstance(body, dict) and body.get("version") == 0:
                    body = {**body, "version": view["version"]}
                answers = [await http.post(f"/api/v1/games/{game_id}/moves", json=body,
                                           headers={"Authorization": _token(api)}) for http in (fast, plain)]
                pairs.append((name, *answers))
            for header in headers:
                answers = [await http.post(f"/api/v1/games/{game_id}/moves", headers={"Authorization": header},
                                           json={"version": view["version"], "move": view["legal_moves"][0]})
                           for http in (fast, plain)]
                pairs.append((header[:20], *answers))
            return pairs, view["version"], (await _view(plain, api, game_id))["version"]

    pairs, before, after = _run(scenario)
    for name, fast, plain in pairs:
        assert fast.status_code == plain.status_code, name
        assert 400 <= fast.status_code < 500, (name, fast.status_code)
        assert _stable(fast.json()) == _stable(plain.json()), name
    assert after == before
    assert fastmoves.stats["fast"] == 0


@pytest.mark.parametrize("kind, seats, options", [
    ("claim2", 2, None), ("claim-mix", 2, {"factions": ["knight", "goblin", "dragon", "troll", "seer"]}),
    ("inheritors", 2, None), ("inheritors", 4, None),
    ("claim-mix", 3, {"factions": ["knight", "goblin", "undead", "dwarf", "doppelganger", "troll", "seer"]})])
def test_every_kind_and_seat_count_plays_to_the_end_on_the_fast_path(make_api, kind, seats, options):
    """The fast path knows no game: every kind and seat count the service plays goes through it, and each answer
    is the mover's view as Django reads it back; the log replays to the stored state."""
    players = [make_api(f"p{n}") for n in range(seats)]
    body: dict[str, Any] = {"kind": kind, "opponents": [{"type": "user", "username": p.user.username}
                                                         for p in players[1:]]}
    if seats > 2:
        body["seats"] = seats
    if options:
        body["options"] = options
    game_id = players[0].create(**body)["id"]
    for p in players[1:]:
        assert p.post(f"/api/v1/games/{game_id}/join").status_code == 201

    async def scenario():
        moves = 0
        async with _client(fast=True) as http, _client(fast=False) as plain:
            while moves < 2000:
                api, view = await _mover(http, players, game_id)
                r = await _move(http, api, game_id, view["version"], view["legal_moves"][-1], client_id=f"m{moves}")
                assert r.status_code == 201, r.text
                moves += 1
                if moves % 7 == 0 or r.json()["status"] != "active":
                    assert r.json() == await _view(plain, api, game_id)
                if r.json()["status"] != "active":
                    return moves
        raise AssertionError("no end")

    moves = _run(scenario)
    assert dict(fastmoves.stats) == {"fast": moves}
    assert Game.objects.get(pk=game_id).status == "finished"
    check = replay_log(game_id)
    assert check.ok, check.message


def test_a_move_against_the_ai_starts_its_turn(alice):
    """After a fast move the service's commit hooks run: here the AI's turn (inline in eager task mode), so the
    human's next view is the AI's answer to it."""
    game_id = alice.create(kind="claim", opponents=[{"type": "ai", "level": 1}])["id"]

    async def scenario():
        async with _client(fast=True) as http:
            versions = []
            for _ in range(6):
                view = await _view(http, alice, game_id)
                assert view["my_turn"], view["to_act"]  # the AI has always answered already
                r = await _move(http, alice, game_id, view["version"], view["legal_moves"][0])
                assert r.status_code == 201, r.text
                versions.append((view["version"], r.json()["version"]))
            return versions

    versions = _run(scenario)
    assert all(after == before + 1 for before, after in versions)
    assert fastmoves.stats["fast"] == 6
    assert Game.objects.get(pk=game_id).move_count >= 11  # 6 human moves and the AI's answers


def test_a_bank_clock_move_is_played_on_the_loop_without_an_error(alice, bob, caplog):
    from games.models import GameClock

    """Issue 21: every move of a bank-clock game logged "fast move path failed" with a
    SynchronousOnlyOperation traceback (the clock's arithmetic read the database from the loop)."""
    game = alice.create(kind="claim", opponents=[{"type": "user", "username": bob.user.username}],
                        time_control={"type": "bank", "initial_seconds": 3 * 86400, "increment_seconds": 86400,
                                      "cap_seconds": 4 * 86400})
    assert bob.post(f"/api/v1/games/{game['id']}/join").status_code == 201
    game_id = game["id"]

    async def scenario():
        async with _client(fast=True) as http, _client(fast=False) as plain:
            for n in range(4):
                if n >= 2:  # the receiver has not synced the bank yet (served: it runs a batch later)
                    await sync_to_async(GameClock.objects.filter(game_id=game_id).update)(banks=[])
                api, view = await _mover(http, (alice, bob), game_id)
                r = await _move(http, api, game_id, view["version"], view["legal_moves"][0], client_id=f"b{n}")
                assert r.status_code == 201, r.text
                if n < 2:
                    assert r.json() == await _view(plain, api, game_id)

    with caplog.at_level("INFO", logger="games.fastmoves"):
        _run(scenario)
    assert not [rec for rec in caplog.records if rec.levelname in ("ERROR", "CRITICAL") or rec.exc_info], \
        [rec.getMessage() for rec in caplog.records]
    assert dict(fastmoves.stats) == {"fast": 2, "delegated: bank clock behind": 2}
