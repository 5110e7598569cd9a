"""Change frames (issue 34): a socket that asked for ``{"type": "frames", "format": "patch"}`` gets, per version,
``base``, ``events`` and an RFC 6902 patch from its previous view; applied in turn, the patches give exactly the
seat's ``GET /api/v1/games/{id}`` view, over whole games (2-seat Claim, 4-seat Claim with AI seats, Inheritors),
and never carry what the seat may not see. A client at another version than ``base`` gets the full view."""

from __future__ import annotations

import json
import random

import jsonpatch
import pytest
from django.core.cache import cache

from games.models import Game
from games.realtime import frames, publish
from games.realtime.frames import change_frame, frame_for
from games.service import create_game, join_game, make_move
from tests.service.conftest import hidden_card_ids, state_at

from .conftest import adb, play_one, receive, view_of
from .test_stream_schema import served_schema, validator

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _fresh_previous_views(settings):
    settings.TASK_MODE = "eager"  # the AI seats play inside the commit hook of the human move
    frames.previous_views.clear()
    yield
    frames.previous_views.clear()


def _strings(value) -> set[str]:
    """Every string (keys and values) of a JSON value."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set(value) | set().union(*(_strings(v) for v in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(_strings(v) for v in value)) if value else set()
    return set()


def _hidden(game_id: int, move_count: int, seat: int, view: dict) -> set[str]:
    """What ``seat`` may not know at ``move_count``. Claim: the other hands, follower piles and the deck, less what
    the seat has seen (tests/service/conftest.py). Inheritors: the cards in the other hands that the seat's own
    full view does not name (a pile taken from the market is public)."""

    game = Game.objects.get(pk=game_id)
    st = state_at(game, move_count)
    if game.kind == "inheritors":
        return {c for s, hand in enumerate(st.hands) if s != seat for c in hand} - _strings(view)
    return hidden_card_ids(st, seat)


async def _next_game(comm) -> str:
    """The next ``game`` frame's text (typed events such as ``game_finished`` are skipped)."""
    while True:
        raw = await comm.receive_from(timeout=5)
        if json.loads(raw)["type"] == "game":
            return raw


def _settled(view: dict) -> dict:
    """The view less what the ratings app adds to a seat after the end without a new version (``rating.after``,
    ``rating.change``: written in the background once the last version was pushed)."""
    if view["status"] == "active":
        return view
    seats = [{**s, "rating": {k: v for k, v in (s["rating"] or {}).items() if k not in ("after", "change")}}
             for s in view["seats"]]
    return {**view, "seats": seats}


class Seat:
    """One player's two sockets: one asked for change frames (its view kept by applying them), one full frames."""

    def __init__(self, user, patched, full) -> None:
        self.user, self.patched, self.full = user, patched, full
        self.held: dict | None = None
        self.kinds: list[str] = []

    async def start(self, game_id: int) -> None:
        for comm in (self.patched, self.full):
            await comm.send_json_to({"type": "subscribe", "games": [game_id]})
            assert (await receive(comm))["type"] == "subscribed"
        await self.patched.send_json_to({"type": "sync", "game_id": game_id})
        synced = await receive(self.patched)
        assert set(synced) == {"type", "game_id", "version", "view"}  # sync: always the full view
        self.held = synced["view"]

    async def next_version(self, game_id: int) -> dict:
        """Receive the next version on both sockets, apply the change frame, check it against the full frame."""
        raw = await _next_game(self.patched)
        frame = json.loads(raw)
        full = json.loads(await _next_game(self.full))
        assert full["version"] == frame["version"] and set(full) == {"type", "game_id", "version", "view"}
        assert frame["type"] == "game" and frame["game_id"] == game_id
        assert frame["base"] == self.held["version"] == frame["version"] - 1
        assert frame["events"] == full["view"]["last_events"]["events"]
        if "patch" in frame:
            self.kinds.append("patch")
            # values only from the seat's new view: nothing the seat's GET would not show
            values = [op["value"] for op in frame["patch"] if "value" in op]
            assert _strings(values) <= _strings(full["view"]), "a patch carried a string its view does not"
            self.held = jsonpatch.apply_patch(self.held, frame["patch"])
        else:
            self.kinds.append("view")
            self.held = frame["view"]
        assert self.held == full["view"], "the patched view differs from the full view of the same version"
        seat = full["view"]["my_seat"]
        leaked = sorted(c for c in await adb(_hidden)(game_id, full["view"]["move_count"], seat, full["view"])
                        if f'"{c}"' in raw)
        assert not leaked, f"seat {seat}'s change frame named hidden cards {leaked}"
        return frame


async def _seats(connect, make_token, users) -> list[Seat]:
    out = []
    for user in users:
        plain = await adb(make_token)(user)
        comms = []
        for _ in range(2):
            connected, _, comm = await connect(token=plain)
            assert connected
            await comm.send_json_to({"type": "notifications", "enabled": False})
            assert (await receive(comm))["type"] == "notifications"
            comms.append(comm)
        await comms[0].send_json_to({"type": "frames", "format": "patch"})
        assert await receive(comms[0]) == {"type": "frames", "format": "patch"}
        out.append(Seat(user, *comms))
    return out


def _current_version(game_id: int) -> int:

    return Game.objects.values_list("version", flat=True).get(pk=game_id)


async def _play_out(game_id: int, seats: list[Seat], rng: random.Random, max_moves: int = 600) -> None:
    """Random legal moves by whichever human must act, to the end; after each change every seat's patched view is
    checked against its full frames, and once the game waits for a human, against its REST view."""

    for seat in seats:
        await seat.start(game_id)
    for _ in range(max_moves):
        mover = next((s for s in seats if s.held["my_turn"] and s.held["legal_moves"]), None)
        if mover is None:
            break
        move = rng.choice(mover.held["legal_moves"])
        _, applied = await adb(make_move)(mover.user, game_id, mover.held["version"], move)
        assert applied
        target = await adb(_current_version)(game_id)  # AI seats may have moved on after it
        for seat in seats:
            while seat.held["version"] < target:
                await seat.next_version(game_id)
            rest = await adb(view_of)(game_id, seat.user)
            assert _settled(seat.held) == _settled(rest), jsonpatch.make_patch(seat.held, rest).patch
        if seats[0].held["status"] != "active":
            break
    assert seats[0].held["status"] == "finished", "the game did not end"
    for seat in seats:
        assert seat.kinds.count("patch") >= 0.9 * len(seat.kinds), seat.kinds


async def test_two_seat_claim_frames_rebuild_each_rest_view(connect, make_token, two_player_game):
    game_id, alice, bob = await adb(two_player_game)()
    await _play_out(game_id, await _seats(connect, make_token, [alice, bob]), random.Random(34))


async def test_four_seat_claim_with_ai_seats_frames_rebuild_each_rest_view(connect, make_token, make_user):

    alice, bob = await adb(make_user)(), await adb(make_user)()
    factions = ["knight", "goblin", "undead", "dwarf", "doppelganger", "dragon", "seer"]
    game = await adb(create_game)(alice, "claim-mix", seats=4, options={"factions": factions},
                                  opponents=[{"type": "ai", "level": 1}, {"type": "user", "username": bob.username},
                                             {"type": "ai", "level": 1}])
    await adb(join_game)(bob, game.pk)
    await _play_out(game.pk, await _seats(connect, make_token, [alice, bob]), random.Random(4))


async def test_inheritors_frames_rebuild_each_rest_view(connect, make_token, make_user):

    alice, bob = await adb(make_user)(), await adb(make_user)()
    game = await adb(create_game)(alice, "inheritors", seats=3,
                                  opponents=[{"type": "user", "username": bob.username}, {"type": "ai", "level": 1}])
    await adb(join_game)(bob, game.pk)
    await _play_out(game.pk, await _seats(connect, make_token, [alice, bob]), random.Random(7), max_moves=1500)


async def test_a_client_behind_base_syncs_to_the_full_view(connect, make_token, two_player_game):
    """The client compares ``base`` with what it holds: one that missed a version asks for ``sync``."""

    game_id, alice, bob = await adb(two_player_game)()
    (seat,) = await _seats(connect, make_token, [alice])
    await seat.start(game_id)
    held = seat.held["version"]
    await adb(play_one)(game_id, alice, bob)
    missed = await receive(seat.patched)  # this one the client "loses"
    await receive(seat.full)
    await adb(play_one)(game_id, alice, bob)
    frame = await receive(seat.patched)
    assert frame["base"] == missed["version"] != held  # not what the client holds: it may not apply the patch
    await seat.patched.send_json_to({"type": "sync", "game_id": game_id, "id": "s"})
    synced = await receive(seat.patched)
    assert synced == {"type": "game", "game_id": game_id, "version": frame["version"], "view": synced["view"],
                      "id": "s"}
    assert synced["view"] == await adb(view_of)(game_id, alice)


async def test_without_the_previous_views_the_full_view_goes_out(connect, make_token, two_player_game):


    game_id, alice, bob = await adb(two_player_game)()
    (seat,) = await _seats(connect, make_token, [alice])
    await seat.start(game_id)
    frames.previous_views.clear()
    await adb(cache.clear)()
    _, version = await adb(play_one)(game_id, alice, bob)
    frame = await receive(seat.patched)
    assert set(frame) == {"type", "game_id", "version", "view"} and frame["version"] == version
    assert frame["view"] == await adb(view_of)(game_id, alice)


async def test_the_socket_sends_the_full_view_when_it_sent_another_version_than_base(connect, make_token,
                                                                                     two_player_game, monkeypatch):
    """A socket that sent version ``v`` (a push or a sync) sends the full frame when ``base`` is not ``v`` (the
    push of the version between was lost), and the change frame again once it sent the base."""


    game_id, alice, bob = await adb(two_player_game)()
    (seat,) = await _seats(connect, make_token, [alice])
    await seat.start(game_id)  # the socket sent v (its sync)
    sent = publish.send_to_groups
    monkeypatch.setattr(publish, "send_to_groups", lambda messages, what: None)
    await adb(play_one)(game_id, alice, bob)  # v + 1: published nowhere (a lost push)
    monkeypatch.setattr(publish, "send_to_groups", sent)
    _, version = await adb(play_one)(game_id, alice, bob)
    frame = await receive(seat.patched)
    assert set(frame) == {"type", "game_id", "version", "view"} and frame["version"] == version
    assert frame["view"] == await adb(view_of)(game_id, alice)
    _, version = await adb(play_one)(game_id, alice, bob)
    frame = await receive(seat.patched)
    assert frame["base"] == version - 1 and "patch" in frame


async def test_frames_format_is_validated(connect, make_token, make_user):
    (seat,) = await _seats(connect, make_token, [await adb(make_user)()])
    await seat.patched.send_json_to({"type": "frames", "format": "diff", "id": 1})
    assert await receive(seat.patched) == {"type": "error", "message": '"frames" needs "format": "patch" or "view".',
                                           "id": 1}
    await seat.patched.send_json_to({"type": "frames", "format": "view"})
    assert await receive(seat.patched) == {"type": "frames", "format": "view"}


# --- the frame builder itself ------------------------------------------------------------------------------------


def _view(version: int, seat: int | None = 0, **extra) -> dict:
    return {"id": 5, "version": version, "my_seat": seat, "last_events": {"version": version, "events": []}, **extra}


def test_no_patch_between_two_seats_or_across_a_gap():
    assert change_frame(5, 2, _view(1, seat=1), _view(2, seat=0)) is None  # bob's view is never alice's base
    assert change_frame(5, 2, _view(1, seat=None), _view(2, seat=0)) is None  # nor a spectator's
    assert change_frame(5, 3, _view(1), _view(3)) is None  # the base is always version - 1
    assert change_frame(5, 2, {**_view(1), "id": 6}, _view(2)) is None


def test_a_patch_larger_than_the_view_sends_the_view():
    old = _view(1, hand=[f"card-{i}" for i in range(20)])
    new = _view(2, hand=[f"card-{i}" for i in range(1, 20)])
    frame = json.loads(change_frame(5, 2, old, new))
    assert frame == {"type": "game", "game_id": 5, "version": 2, "base": 1, "events": [], "patch": frame["patch"]}
    big = json.loads(change_frame(5, 2, _view(1, a=list(range(50))), {"id": 5, "version": 2, "my_seat": 0}))
    assert "patch" not in big and big["view"] == {"id": 5, "version": 2, "my_seat": 0}


def test_frame_for_picks_the_change_only_for_its_base():
    message = {"game_id": 5, "version": 2, "base": 1, "change": '{"c":1}', "text": '{"f":1}'}
    assert frame_for(message, 1) == '{"c":1}'
    assert frame_for(message, None) == '{"c":1}'  # unknown: the client compares base itself
    assert frame_for(message, 3) == '{"f":1}'
    assert frame_for({"game_id": 5, "version": 2, "text": '{"f":1}'}, 1) == '{"f":1}'


async def test_change_frames_match_the_schema(connect, make_token, two_player_game):
    """What the socket really sends validates against ``SocketGameFrame`` of the served OpenAPI schema."""

    schema = await adb(served_schema)()
    check = validator(schema, "#/components/schemas/SocketGameFrame")
    game_id, alice, bob = await adb(two_player_game)()
    (seat,) = await _seats(connect, make_token, [alice])
    await seat.start(game_id)
    received = []
    for _ in range(3):
        await adb(play_one)(game_id, alice, bob)
        received.append(json.loads(await _next_game(seat.patched)))
    await seat.patched.send_json_to({"type": "sync", "game_id": game_id})
    received.append(await receive(seat.patched))
    assert [("patch" in f, "view" in f) for f in received] == [(True, False)] * 3 + [(False, True)]
    for frame in received:
        problems = [f"{list(e.absolute_path)}: {e.message[:200]}" for e in check.iter_errors(frame)]
        assert not problems, problems
