"""The ``review`` event on the socket and the account stream (issue 37), in the shape the OpenAPI schema gives it;
and fair play over the real-time routes: while a game runs nothing there offers a review or an evaluation."""

from __future__ import annotations

import pytest

from games.review import tasks
from games.service import Conflict, resign
from tests.realtime.conftest import (  # noqa: F401 — fixtures
    adb,
    asgi_app,
    connect,
    make_token,
    play_one,
    receive,
    two_player_game,
)
from tests.realtime.test_stream_schema import event_line_checker
from tests.realtime.test_streams import Stream

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def lines():
    """Checks a frame against the schema (tests.realtime.test_stream_schema.event_line_checker)."""
    return event_line_checker("review")


async def _frames(comm, quiet: float = 0.5) -> list[dict]:
    got = []
    while not await comm.receive_nothing(timeout=quiet):
        got.append(await receive(comm))
    return got


def _no_evaluation(frames: list[dict]) -> None:
    for frame in frames:
        assert frame.get("type") != "review"
        text = repr(frame)
        assert "chance" not in text and "inaccuracy" not in text and "mistake" not in text


async def test_nothing_while_the_game_runs_then_the_requesters_review_events(connect, make_token, two_player_game,  # noqa: F811
                                                                             lines, asgi_app):  # noqa: F811
    gid, alice, bob = await adb(two_player_game)()
    connected, _, to_alice = await connect(token=await adb(make_token)(alice))
    assert connected
    connected, _, to_bob = await connect(token=await adb(make_token)(bob))
    assert connected
    stream = Stream(asgi_app, "/api/v1/stream/events", await adb(make_token)(alice, scopes=["games:read"]))
    assert (await stream.start())["status"] == 200
    for _ in range(6):
        await adb(play_one)(gid, alice, bob)
        for user in (alice, bob):
            with pytest.raises(Conflict) as refused:
                await adb(tasks.request_review)(user, gid)
            assert refused.value.code == "game_not_over"
    # the socket got the game's frames, and nothing of a review
    _no_evaluation(await _frames(to_alice))
    _no_evaluation(await _frames(to_bob))
    await adb(resign)(bob, gid)
    _no_evaluation(await _frames(to_alice))
    _review, queued = await adb(tasks.request_review)(alice, gid)  # eager: computed on commit
    assert queued
    frames = [f for f in await _frames(to_alice) if f["type"] == "review"]
    for frame in frames:
        lines(frame)
    assert frames[0]["status"] == "running" and frames[-1]["status"] == "done"
    total = frames[-1]["progress"]["total"]
    assert frames[-1]["progress"] == {"done": total, "total": total} and total > 0
    assert [f for f in await _frames(to_bob) if f["type"] == "review"] == []  # only the requester hears it
    got = []
    while True:  # the account stream: the same events
        line = await stream.line()
        if line is not None and line.get("type") == "review":
            lines(line)
            got.append(line)
            if line["status"] == "done":
                break
    assert got == frames
    await stream.close()
