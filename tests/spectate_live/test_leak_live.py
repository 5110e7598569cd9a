"""The hidden-card spy (tests/hardening/spy.py) on a real spectator socket and a real (anonymous) watch stream,
over complete games of every kind (Claim, Claim 2, the mix with 2-4 seats, Inheritors with 2-4): alice plays the
AI's choice from her own view against server AIs, and every ``spectator_game`` frame either spectator receives
is checked against the true engine state of its version: no card of any hand, of the deck or of a face-down row,
and never the seed, before the end. Each version arrives once and in order, the final one last."""

from __future__ import annotations

import pytest

from games.ai import choose_move
from games.models import Game
from games.service import create_game, game_view_payload, make_move
from tests.hardening.spy import GameTracker, Spy
from tests.realtime.test_streams import Stream
from tests.spectate.conftest import EVERY_KIND, MIX_FACTIONS

from .conftest import adb, next_frame, socket_of

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _eager(eager_tasks):
    """AI turns inline (tests/conftest.py)."""


def _new_game(alice, kind: str, seats: int) -> int:
    options = {"factions": MIX_FACTIONS[seats]} if kind == "claim-mix" else None
    game = create_game(alice, kind, options=options, seats=seats, opponents=[{"type": "ai", "level": 1}] * (seats - 1))
    Game.objects.filter(pk=game.pk).update(watchable=True)
    return game.pk


def _play_to_the_end(alice, game_id: int) -> None:
    for turn in range(3000):
        game = Game.objects.get(pk=game_id)
        if game.status != "active":
            return
        v = game_view_payload(game, alice)
        assert v["my_turn"] and v["legal_moves"], v["to_act"]
        move = choose_move(game.kind, 1, v["view"], v["legal_moves"], seed=turn * 7919 + game_id)
        _, applied = make_move(alice, game_id, v["version"], move)
        assert applied
    raise AssertionError(f"game {game_id} did not end")


def _check(frames: list[dict], game_id: int, who: str) -> int:
    tracker = GameTracker(Game.objects.get(pk=game_id))
    spy = Spy(tracker, None, who)
    seed = str(tracker.game.seed)
    for frame in frames:
        assert frame["type"] == "spectator_game" and frame["game"]["version"] == frame["version"]
        spy.check(frame["game"], who)
        if frame["game"]["status"] == "active":
            assert seed not in str(frame)
    return spy.checked


@pytest.mark.parametrize(("kind", "seats"), EVERY_KIND)
async def test_no_hidden_card_reaches_a_spectator_socket_or_watch_stream(asgi_app, connect, make_token, make_user,
                                                                        kind, seats):
    alice, sam = await adb(make_user)("alice"), await adb(make_user)("sam")
    game_id = await adb(_new_game)(alice, kind, seats)
    sock = await socket_of(connect, make_token, sam)
    await sock.send_json_to({"type": "watch", "game_id": game_id})
    assert (await next_frame(sock))["type"] == "watching"
    socket_frames = [await next_frame(sock)]
    stream = Stream(asgi_app, f"/api/v1/games/{game_id}/watch/stream", None)
    assert (await stream.start())["status"] == 200
    stream_frames = [await stream.line()]
    await adb(_play_to_the_end)(alice, game_id)
    while socket_frames[-1]["game"]["status"] == "active":
        socket_frames.append(await next_frame(sock, "spectators"))
    while stream_frames[-1]["game"]["status"] == "active":
        stream_frames.append(await stream.line())
    assert await stream.line() is None  # the stream ends with the final frame
    final = await adb(Game.objects.get)(pk=game_id)
    for frames in (socket_frames, stream_frames):
        versions = [f["version"] for f in frames]
        assert versions == sorted(set(versions)) and versions[-1] == final.version
        assert frames[-1]["game"]["result"] is not None
    checked = await adb(_check)(socket_frames, game_id, "spectator socket")
    checked += await adb(_check)(stream_frames, game_id, "watch stream")
    assert checked >= 2 and len(socket_frames) > 2
    print(f"\nspectator leak spy {kind}-{seats}: {len(socket_frames)} socket + {len(stream_frames)} stream frames, "
          f"{checked} checked, leaks 0")
