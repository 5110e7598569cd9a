"""3- and 4-player Claim through the game service and the HTTP API (AI seats, partnerships, hidden
information, record and replay). Needs Django: skipped in the pure run (``-p no:django``)."""

from __future__ import annotations

import pytest

try:
    from django.apps import apps

    _READY = apps.ready
except Exception:  # pragma: no cover - Django not importable
    _READY = False
if not _READY:
    pytest.skip("needs Django (run without -p no:django)", allow_module_level=True)

from games.models import Game
from games.rules.registry import get_rules
from games.service import replay_log
from tests.rules_multi.helpers import giant_choice_seed, steer_to_giant_choice
from tests.service.conftest import assert_no_leak, hidden_card_ids, state_at

pytestmark = pytest.mark.django_db

SEVEN = ["knight", "goblin", "undead", "dwarf", "doppelganger", "dragon", "seer"]
SEVEN_GG = ["gnome", "giant", "undead", "dwarf", "dragon", "troll", "seer"]


def _play_alice_to_the_end(alice, gid: int, seats: int) -> dict:
    for i in range(200):
        view = alice.view(gid)
        if view["status"] != "active":
            return view
        assert view["my_turn"] is True and view["to_act"] == [0]  # AI seats have already moved
        v = view["view"]
        assert len(v["hand"]) == v["hand_counts"][0] and v["seats"] == seats
        # M3.7 nothing of the other hands (the partner's included) reaches alice
        game = Game.objects.get(pk=gid)
        assert_no_leak(view, hidden_card_ids(state_at(game), 0), game.seed, f"view {i}")
        r = alice.move(gid, view["version"], view["legal_moves"][-1], client_id=f"m{i}")
        assert r.status_code == 201, r.content
    raise AssertionError("the game did not end")


@pytest.mark.parametrize(("seats", "factions"), [(4, SEVEN), (3, SEVEN_GG)])
def test_claim_mix_with_ai_level_1_seats_end_to_end(alice, stranger, seats, factions):
    body = {"kind": "claim-mix", "seats": seats, "options": {"factions": factions},
            "opponents": [{"type": "ai", "level": 1}] * (seats - 1)}
    r = alice.post("/api/v1/games", body)
    assert r.status_code == 201, r.content
    created = r.json()
    gid = created["id"]
    assert created["status"] == "active" and len(created["seats"]) == seats
    game = Game.objects.get(pk=gid)
    assert game.options["reconstructed_rules"] is True and len(game.options["factions"]) == 7
    first = alice.view(gid)["view"]
    assert first["reconstructed_rules"] is True
    assert first["teams"] == ([[0, 2], [1, 3]] if seats == 4 else None)
    assert len(first["hand"]) == {3: 12, 4: 9}[seats]

    final = _play_alice_to_the_end(alice, gid, seats)
    assert final["status"] == "finished" and final["ended_reason"] == "normal"
    game.refresh_from_db()
    rules = get_rules("claim-mix")
    result = rules.result(rules.from_json(game.state))
    assert final["result"] == result and game.move_count >= 72
    outcomes = {s["index"]: s["outcome"] for s in final["seats"]}
    ranks = {s["index"]: s["rank"] for s in final["seats"]}
    assert [ranks[i] for i in range(seats)] == result["ranks"]
    for i in range(seats):
        expected = "win" if i in result["winners"] else ("draw" if not result["winners"] else "loss")
        if result["winners"] and len(result["winners"]) == seats:
            expected = "draw"
        assert outcomes[i] == expected, (i, outcomes, result["winners"])
    if seats == 4:
        assert outcomes[0] == outcomes[2] and outcomes[1] == outcomes[3]  # partners share the outcome
    assert replay_log(gid).ok

    rec = stranger.get(f"/api/v1/games/{gid}/record")
    assert rec.status_code == 200
    record = rec.json()["record"]
    assert record["seats"] == seats and record["reconstructed_rules"] is True
    assert ("teams" in record) == (seats == 4)
    assert rules.replay_record(record) == record["result"]
    replay_0 = stranger.get(f"/api/v1/games/{gid}/replay", {"step": 0}).json()
    assert [len(v["hand"]) for v in replay_0["seat_views"]] == [{3: 12, 4: 9}[seats]] * seats


def test_partners_and_opponents_see_no_other_hand_humans_4_seats(make_api):
    players = [make_api(n) for n in ("p0", "p1", "p2", "p3")]
    body = {"kind": "claim-mix", "seats": 4, "options": {"factions": SEVEN},
            "opponents": [{"type": "user", "username": n} for n in ("p1", "p2", "p3")]}
    r = players[0].post("/api/v1/games", body)
    assert r.status_code == 201, r.content
    gid = r.json()["id"]
    for p in players[1:]:
        assert p.post(f"/api/v1/games/{gid}/join").status_code == 201
    by_seat = {p.view(gid)["my_seat"]: p for p in players}
    for i in range(40):  # phase 1 is enough to check the partner's cards
        view = players[0].view(gid)
        (seat,) = view["to_act"]
        mover = by_seat[seat]
        mine = mover.view(gid)
        game = Game.objects.get(pk=gid)
        st = state_at(game)
        for s, p in by_seat.items():
            assert_no_leak(p.view(gid), hidden_card_ids(st, s), game.seed, f"seat {s} step {i}")
        assert mover.move(gid, mine["version"], mine["legal_moves"][0], client_id=f"c{i}").status_code == 201


def test_bad_multiplayer_requests_are_rejected_with_clear_messages(alice):
    r = alice.post("/api/v1/games", {"kind": "claim-mix", "seats": 3,
                                     "options": {"factions": SEVEN[:5]},
                                     "opponents": [{"type": "ai", "level": 1}] * 2})
    assert r.status_code == 400 and "5 single factions for 3 players" in r.content.decode()
    r = alice.post("/api/v1/games", {"kind": "claim2", "seats": 4,
                                     "opponents": [{"type": "ai", "level": 1}] * 3})
    assert r.status_code == 400 and "need both boxes" in r.content.decode()


@pytest.mark.parametrize("level", [2])
def test_claim_mix_4_seats_with_ai_level_2(alice, level):
    """AI level 2 on 3-4 seats (games/ai is owned by another engineer; see the report)."""
    body = {"kind": "claim-mix", "seats": 4, "options": {"factions": SEVEN},
            "opponents": [{"type": "ai", "level": level}] * 3}
    r = alice.post("/api/v1/games", body)
    assert r.status_code == 201, r.content
    _play_alice_to_the_end(alice, r.json()["id"], 4)


GNOMES_GIANTS = ["gnome", "giant", "undead", "dwarf", "dragon", "troll", "seer"]


def test_M6_5_the_giant_choice_through_the_api_with_three_humans(make_api):
    players = [make_api(n) for n in ("g0", "g1", "g2")]
    body = {"kind": "claim-mix", "seats": 3, "options": {"factions": GNOMES_GIANTS},
            "opponents": [{"type": "user", "username": n} for n in ("g1", "g2")]}
    r = players[0].post("/api/v1/games", body)
    assert r.status_code == 201, r.content
    gid = r.json()["id"]
    Game.objects.filter(pk=gid).update(seed=giant_choice_seed({"factions": GNOMES_GIANTS}))
    for p in players[1:]:
        assert p.post(f"/api/v1/games/{gid}/join").status_code == 201
    by_seat = {p.view(gid)["my_seat"]: p for p in players}
    rules = get_rules("claim-mix")
    moves = steer_to_giant_choice(rules.from_json(Game.objects.get(pk=gid).state), tries=20)
    for i, (seat, move) in enumerate(moves):
        p = by_seat[seat]
        assert p.move(gid, p.view(gid)["version"], move, client_id=f"s{i}").status_code == 201
    view = players[0].view(gid)
    (winner,) = view["to_act"]
    mine = by_seat[winner].view(gid)
    pending = mine["view"]["smash_pending"]
    assert pending["seat"] == winner and len(pending["candidates"]) >= 2
    assert mine["legal_moves"] == [{"smash": s} for s in pending["candidates"]]
    # a card, the winner's own seat, a non-integer: 4xx with a message naming the choice
    hand = mine["view"]["hand"]
    for bad in ({"play": hand[0]}, {"smash": winner}, {"smash": "1"}, {"smash": True}):
        r = by_seat[winner].move(gid, mine["version"], bad, client_id=f"bad{bad}")
        assert 400 <= r.status_code < 500, (bad, r.status_code, r.content)
        assert "smash" in r.content.decode() or "Giant" in r.content.decode(), r.content
    r = by_seat[winner].move(gid, mine["version"], {"smash": pending["candidates"][-1]}, client_id="ok")
    assert r.status_code == 201, r.content
    after = by_seat[winner].view(gid)
    v = after["view"]
    assert v["smash_pending"] is None or v["smash_pending"]["gnome"] != pending["gnome"] or \
        v["smash_pending"]["later"] != pending["later"]
    assert replay_log(gid).ok
