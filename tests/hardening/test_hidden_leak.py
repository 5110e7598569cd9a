"""No hidden-card leak, over complete games of every kind played through the real service.

Every seat of every other game is a player whose moves are chosen by the AI (level 1) from *their own* view, sent
over the HTTP API; in the games between, the last seats are server-side AIs instead (one of two seats, two of
three, two of four; their hands must not leak either). Claim mix and Inheritors are also played with 3 and 4
seats (4-seat Claim mix: two partnerships). A stranger keeps poking at the game. Every game is watchable and
watched (issue 35): every ``spectator_game`` frame the publisher sends the game's watch group (what a spectator's
socket and watch stream get, byte for byte) is checked as the stranger's. Every HTTP body each party receives,
and every socket message the publisher builds for each seated user (recorded at the channel layer, i.e. exactly
what their sockets get), is checked at once against the true engine state of that moment: no card of another
seat's hand, of the deck (its order) or of a face-down row, and never the seed, before the game ends. The same
spy watches real spectator sockets and watch streams over complete games in tests/spectate_live/test_leak_live.py.

CI plays ``CLAIM_LEAK_GAMES`` games per kind (default 2: one with every seat played over HTTP, one with server
AIs); ``make stress`` plays 1,000 per kind, split over parallel processes (``CLAIM_LEAK_OFFSET`` numbers the
games of one process; ``CLAIM_LEAK_KINDS`` selects kinds, e.g. ``claim,inheritors-4``).
"""

from __future__ import annotations

import json
import os
import time
from collections import defaultdict

import pytest

from games.ai import choose_move
from games.models import Game
from games.realtime import publish
from games.service import replay_log
from games.spectate import counts

from .conftest import STRESS, env_int
from .spy import GameTracker, Spy

pytestmark = pytest.mark.django_db

GAMES = env_int("CLAIM_LEAK_GAMES", ci=2, stress=1000)
OFFSET = env_int("CLAIM_LEAK_OFFSET", ci=0, stress=0)  # the first game index (parallel shards of a stress run)
# every POKE_EVERY turns (shifted per game, so over many games every turn is poked) the stranger and the first
# player fetch the game's history, record, replay and the game list
POKE_EVERY = env_int("CLAIM_LEAK_POKE_EVERY", ci=5, stress=10)
MIX = {"factions": ["knight", "goblin", "dragon", "troll", "seer"]}
# 3-4 seats: one pair plus 5 singles (between them every special faction: Undead, Dwarves, Doppelgangers,
# Gnomes, Giants, Dragons, Trolls, the Seer)
MIX3 = {"factions": ["knight", "goblin", "undead", "dwarf", "doppelganger", "troll", "seer"]}
MIX4 = {"factions": ["gnome", "giant", "undead", "dwarf", "dragon", "troll", "seer"]}
# label -> (kind, options, seats)
KINDS: dict[str, tuple[str, dict, int]] = {
    "claim": ("claim", {}, 2),
    "claim2": ("claim2", {}, 2),
    "claim-mix": ("claim-mix", MIX, 2),
    "claim-mix-3": ("claim-mix", MIX3, 3),
    "claim-mix-4": ("claim-mix", MIX4, 4),
    "inheritors": ("inheritors", {}, 2),
    "inheritors-3": ("inheritors", {}, 3),
    "inheritors-4": ("inheritors", {}, 4),
}
SELECTED = [k for k in os.environ.get("CLAIM_LEAK_KINDS", "").split(",") if k] or list(KINDS)


@pytest.fixture
def socket_spy(monkeypatch):
    """Records every message the publisher sends to a ``user.<id>`` group (what that user's sockets get)."""
    sent: dict[str, list[dict]] = defaultdict(list)
    real = publish._send_all

    async def recording(layer, messages, **kwargs):
        for group, message in messages:
            sent[group].append(json.loads(json.dumps(message)))
        await real(layer, messages, **kwargs)

    monkeypatch.setattr(publish, "_send_all", recording)
    return sent


def _play_one(kind: str, options: dict, seats: int, index: int, make_api, socket_spy) -> int:
    humans = seats if index % 2 == 0 else max(1, seats - 2)  # the other seats are server-side AIs
    players = [make_api(f"{'abcd'[s]}{index}") for s in range(humans)]
    a, stranger = players[0], make_api(f"m{index}")
    opponents = [{"type": "user", "username": p.user.username} for p in players[1:]]
    opponents += [{"type": "ai", "level": 1}] * (seats - humans)
    created = a.post("/api/v1/games", {"kind": kind, "options": options, "seats": seats, "opponents": opponents})
    assert created.status_code == 201, created.content
    gid = created.json()["id"]
    for p in players[1:]:
        assert p.post(f"/api/v1/games/{gid}/join", {}).status_code == 201
    Game.objects.filter(pk=gid).update(watchable=True)
    watcher = f"leak-spy-{gid}"
    counts.watch_started(gid, watcher)  # somebody watches: the publisher sends the spectator frames
    game = Game.objects.get(pk=gid)
    tracker = GameTracker(game)
    spies = {}
    for api in players:
        seat = api.view(gid)["my_seat"]
        spies[api.user.pk] = Spy(tracker, seat, f"seat {seat} ({api.user.username})")
    stranger_spy = Spy(tracker, None, "stranger")
    spectator_spy = Spy(tracker, None, "spectator")
    spectator_checked = [0]
    api_by_pk = {api.user.pk: api for api in players}
    checked_upto = {pk: 0 for pk in api_by_pk}
    socket_checked = {pk: 0 for pk in api_by_pk}

    def check_new_bodies():
        tracker.refresh()  # nothing changes while the bodies received since the last request are checked
        for pk, api in api_by_pk.items():
            for body in api.bodies[checked_upto[pk]:]:
                spies[pk].check(body, "http")
            checked_upto[pk] = len(api.bodies)
            msgs = socket_spy.get(f"user.{pk}", [])
            for msg in msgs[socket_checked[pk]:]:
                if msg.get("game_id") == gid:
                    spies[pk].check(msg, "socket")
            socket_checked[pk] = len(msgs)
        for body in stranger.bodies:
            stranger_spy.check(body, "http")
        stranger.bodies.clear()
        frames = socket_spy.get(f"watch.{gid}", [])
        for msg in frames[spectator_checked[0]:]:
            if msg.get("type") == "watch.update":  # the frame's text, exactly what the spectators receive
                frame = json.loads(msg["text"])
                assert frame["type"] == "spectator_game" and frame["game"]["version"] == msg["version"]
                spectator_spy.check(frame["game"], "spectator socket")
                assert str(game.seed) not in msg["text"]
        spectator_checked[0] = len(frames)

    def latest_views() -> dict[int, dict]:
        """Each player's newest view of this game: pushed over its socket or answered over HTTP (a client
        driven by its socket, as the PWA is); a player whose newest view is older than another's re-fetches."""
        newest: dict[int, dict] = {}
        for pk, api in api_by_pk.items():
            candidates = [m["view"] for m in socket_spy.get(f"user.{pk}", [])[-3:] if m.get("game_id") == gid]
            candidates += [b for b in api.bodies[-2:] if isinstance(b, dict) and b.get("id") == gid and "my_turn" in b]
            if candidates:
                newest[pk] = max(candidates, key=lambda v: v["version"])
        top = max((v["version"] for v in newest.values()), default=-1)
        for pk, api in api_by_pk.items():
            if pk not in newest or newest[pk]["version"] != top:
                newest[pk] = api.view(gid)
        return newest

    for turn in range(2000):
        check_new_bodies()
        views = latest_views()
        check_new_bodies()
        any_view = next(iter(views.values()))
        if any_view["status"] != "active":
            break
        if (turn + index) % POKE_EVERY == 0:
            for path in (f"/api/v1/games/{gid}", f"/api/v1/games/{gid}/history", f"/api/v1/games/{gid}/record"):
                r = stranger.get(path)
                assert r.status_code == 404, (path, r.status_code)
            a.get(f"/api/v1/games/{gid}/history", {"limit": 500})
            a.get(f"/api/v1/games/{gid}/record")
            a.get(f"/api/v1/games/{gid}/replay")
            a.get("/api/v1/games", {"status": "all"})
        movers = [pk for pk, v in views.items() if v["my_turn"] and v["legal_moves"]]
        assert movers, f"nobody can move in {kind} game {gid}: {any_view['to_act']}"
        pk = movers[0]
        v = views[pk]
        move = choose_move(kind, 1, v["view"], v["legal_moves"], seed=turn * 7919 + index)
        r = api_by_pk[pk].move(gid, v["version"], move, client_id=f"t{turn}")
        assert r.status_code == 201, r.content[:400]
    else:
        raise AssertionError(f"{kind} game {gid} did not end")
    check_new_bodies()
    counts.watch_stopped(gid, watcher)
    game.refresh_from_db()
    assert game.status == "finished"
    updates = [m for m in socket_spy.get(f"watch.{gid}", []) if m.get("type") == "watch.update"]
    assert updates and updates[-1]["final"] and spectator_spy.checked > 0  # watched to the end
    versions = [m["version"] for m in updates]
    assert versions == sorted(set(versions))  # one frame per version

    check = replay_log(gid)  # the log is the truth: replaying it reproduces the stored state
    assert check.ok, (kind, gid, check.message)
    # after the end the record is public, to the stranger too
    assert stranger.get(f"/api/v1/games/{gid}/record").status_code == 200
    assert all(s.checked > 0 for s in spies.values())
    return sum(s.checked for s in spies.values()) + stranger_spy.checked + spectator_spy.checked


@pytest.mark.parametrize("label", SELECTED)
def test_no_hidden_card_leaks_over_complete_games(label, make_api, socket_spy):
    kind, options, seats = KINDS[label]
    started = time.monotonic()
    checked = 0
    for i in range(OFFSET, OFFSET + GAMES):
        n = _play_one(kind, options, seats, i, make_api, socket_spy)
        checked += n
        if STRESS:  # progress of long runs (scripts/stress.sh counts these lines, also of an interrupted run)
            print(f"leak spy game {label} #{i}: clean, {n} bodies/messages checked", flush=True)
    sockets = sum(len(v) for v in socket_spy.values())
    # one parseable line per run: scripts/stress.sh adds them up
    print(f"\nleak spy {label}: {GAMES} games, {checked} bodies/messages checked, {sockets} socket messages, "
          f"leaks 0, {time.monotonic() - started:.1f}s")
    assert sockets > 0
