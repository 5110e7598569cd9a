"""Tournament events over the real ``/ws/`` socket and the account NDJSON stream (issue 36; docs/realtime.md,
"Tournaments"): ``watch_tournament`` / ``unwatch_tournament`` and their refusals; a watcher who is no entrant gets the
public events (standings...) but never another's ``new_game``; an entrant who also watches gets each event once;
every frame as the OpenAPI schema types it."""

from __future__ import annotations

import pytest

from games import service as games
from games.realtime.tournament_watch import MAX_WATCHED_TOURNAMENTS
from games.tournaments import service
from games.tournaments.models import Tournament, TournamentGame
from tests.realtime.conftest import adb, asgi_app, assert_silent, connect, make_token, receive  # noqa: F401
from tests.realtime.test_stream_schema import served_schema, validator
from tests.realtime.test_streams import Stream

from .conftest import DAYS

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def schema():
    return served_schema()


def _check(schema: dict, component: str, frame: dict) -> None:
    validator(schema, f"#/components/schemas/{component}").validate(frame)


async def _socket(connect, make_token, user):  # noqa: F811
    connected, _, comm = await connect(token=await adb(make_token)(user))
    assert connected
    return comm


async def _ask(comm, message: dict) -> dict:
    await comm.send_json_to(message)
    while True:
        frame = await receive(comm)
        if frame["type"] in ("watching_tournament", "unwatched_tournament", "error"):
            return frame


async def _tournament_frames(comm, quiet: float = 0.6) -> list[dict]:
    """The ``tournament`` frames the socket got until it was quiet for ``quiet`` s (other frames skipped)."""
    got = []
    while not await comm.receive_nothing(timeout=quiet):
        frame = await receive(comm)
        if frame["type"] == "tournament":
            got.append(frame)
    return got


def _open_cup(creator, max_players: int = 2) -> Tournament:
    return service.create(creator, name="Live cup", kind="claim", format="swiss", rounds=1, max_players=max_players,
                          time_control=DAYS)


async def test_watchers_get_the_public_events_entrants_theirs_each_once(connect, make_token, make_user,  # noqa: F811
                                                                        schema):
    org, alice, bob, sam = [await adb(make_user)(name) for name in ("org", "alice", "bob", "sam")]
    t = await adb(_open_cup)(org)
    to_alice, to_bob, to_sam = [await _socket(connect, make_token, u) for u in (alice, bob, sam)]
    for comm in (to_alice, to_sam):  # alice is an entrant and watches too; sam only watches
        reply = await _ask(comm, {"type": "watch_tournament", "tournament_id": t.pk, "id": "w1"})
        assert reply == {"type": "watching_tournament", "tournament_id": t.pk, "id": "w1"}
        _check(schema, "TournamentSocketMessage", reply)
    await adb(service.join)(alice, t.pk)
    await adb(service.join)(bob, t.pk)  # full: it starts (eager tasks), round 1 is paired, the game made
    tg = await adb(lambda: TournamentGame.objects.get(tournament_id=t.pk))()

    def event(what: str, round_number: int | None = None, game_id: int | None = None) -> dict:
        return {"type": "tournament", "tournament_id": t.pk, "what": what, "round": round_number, "game_id": game_id}

    start = [event("started"), event("round_paired", 1), event("new_game", 1, tg.game_id)]
    alice_frames = await _tournament_frames(to_alice)
    assert sorted(alice_frames, key=str) == sorted(start, key=str)  # each once, though by two groups
    assert sorted(await _tournament_frames(to_bob), key=str) == sorted(start, key=str)
    assert sorted(await _tournament_frames(to_sam), key=str) == sorted(start[:2], key=str)  # not bob's game
    for frame in alice_frames:
        _check(schema, "StreamEventLine", frame)
        _check(schema, "TournamentEvent", frame)
    loser = alice if tg.players[0] == alice.pk else bob
    await adb(games.resign)(loser, tg.game_id)  # the only game: standings, then the end
    end = [event("standings", 1), event("finished")]
    for comm in (to_alice, to_bob, to_sam):
        assert sorted(await _tournament_frames(comm), key=str) == sorted(end, key=str)
    await adb(lambda: Tournament.objects.filter(pk=t.pk).update(status="open"))()
    assert await _ask(to_sam, {"type": "unwatch_tournament", "tournament_id": t.pk}) == {
        "type": "unwatched_tournament", "tournament_id": t.pk}
    await adb(service.cancel)(org, t.pk)  # now nothing reaches sam
    assert await _tournament_frames(to_sam) == []
    assert [f["what"] for f in await _tournament_frames(to_alice)] == ["cancelled"]


@pytest.mark.parametrize("bad", ["7", 0, -3, True, None, 2**70, 1.5, [1], {"id": 1}])
async def test_bad_watch_messages_are_refused(connect, make_token, make_user, schema, bad):  # noqa: F811
    sam = await adb(make_user)("sam")
    comm = await _socket(connect, make_token, sam)
    for kind in ("watch_tournament", "unwatch_tournament"):
        message = {"type": kind} if bad is None else {"type": kind, "tournament_id": bad}
        reply = await _ask(comm, {**message, "id": 5})
        assert reply["type"] == "error" and reply["code"] == "bad_request" and reply["id"] == 5
        assert "tournament_id" in reply["message"]
        _check(schema, "TournamentSocketMessage", reply)


async def test_unknown_tournaments_and_too_many_watches_are_refused(connect, make_token, make_user,  # noqa: F811
                                                                    schema):
    org, sam = await adb(make_user)("org"), await adb(make_user)("sam")
    comm = await _socket(connect, make_token, sam)
    reply = await _ask(comm, {"type": "watch_tournament", "tournament_id": 987654321})
    assert reply == {"type": "error", "code": "not_found", "message": "No such tournament."}
    _check(schema, "TournamentSocketMessage", reply)
    ids = []
    for i in range(MAX_WATCHED_TOURNAMENTS + 1):
        creator = org if i < 3 else await adb(make_user)(f"org{i}")  # three open per creator
        ids.append((await adb(_open_cup)(creator)).pk)
    for tid in ids[:MAX_WATCHED_TOURNAMENTS]:
        assert (await _ask(comm, {"type": "watch_tournament", "tournament_id": tid}))["type"] == "watching_tournament"
    again = await _ask(comm, {"type": "watch_tournament", "tournament_id": ids[0]})  # watched already: fine
    assert again == {"type": "watching_tournament", "tournament_id": ids[0]}
    refused = await _ask(comm, {"type": "watch_tournament", "tournament_id": ids[-1]})
    assert refused["type"] == "error" and refused["code"] == "too_many"
    await _ask(comm, {"type": "unwatch_tournament", "tournament_id": ids[0]})
    assert (await _ask(comm, {"type": "watch_tournament", "tournament_id": ids[-1]}))["type"] == "watching_tournament"
    # a tournament not watched: unwatched all the same
    assert await _ask(comm, {"type": "unwatch_tournament", "tournament_id": 987654321}) == {
        "type": "unwatched_tournament", "tournament_id": 987654321}
    await assert_silent(comm, 0.3)


async def test_the_account_stream_carries_the_entrants_tournament_events(asgi_app, make_token, make_user,  # noqa: F811
                                                                         schema):
    org, alice, bob = [await adb(make_user)(name) for name in ("org", "alice", "bob")]
    t = await adb(_open_cup)(org)
    stream = Stream(asgi_app, "/api/v1/stream/events", await adb(make_token)(bob, scopes=["games:read"]))
    assert (await stream.start())["status"] == 200
    org_stream = Stream(asgi_app, "/api/v1/stream/events", await adb(make_token)(org, scopes=["games:read"]))
    assert (await org_stream.start())["status"] == 200
    await adb(service.join)(alice, t.pk)
    await adb(service.join)(bob, t.pk)
    seen = []
    while len(seen) < 3:
        line = await stream.line()
        assert line is not None
        if line["type"] == "tournament":
            _check(schema, "StreamEventLine", line)
            seen.append(line["what"])
    assert sorted(seen) == ["new_game", "round_paired", "started"]
    await stream.close()
    # the creator, no entrant, hears nothing of it on their stream
    with pytest.raises(TimeoutError):
        await org_stream.line(timeout=0.5)
