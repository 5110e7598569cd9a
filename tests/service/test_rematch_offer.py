"""A rematch is an offer to the same players (issue 33 item 3; rulings in games/challenges/rematch.py).

Two seats against a human: a challenge with ``rematch_of``, answered on the finished game (``POST
/games/{id}/rematch``) or as a challenge; three or four seats: a new game inviting the same users, declined by
``POST /games/{new}/abort``. Every change reaches the players as the typed ``rematch_offer`` event."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.services import delete_account
from games.challenges import events
from games.challenges.models import Challenge
from games.models import Game
from games.service._common import seats_of
from games.service.payload import rematch_of_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def frames(monkeypatch):
    """Every typed frame sent to a user's group: ``[(user id, frame)]``."""
    sent: list[tuple[int, dict]] = []
    real = events.send_frames

    def spy(items, what):
        sent.extend(items)
        real(items, what)

    monkeypatch.setattr(events, "send_frames", spy)
    return sent


def offers(frames, user) -> list[dict]:
    return [f for uid, f in frames if uid == user.user.pk and f["type"] == "rematch_offer"]


def err(response, status: int, code: str) -> dict:
    assert response.status_code == status, response.content
    body = response.json()["error"]
    assert body["code"] == code and body["message"]
    return body


def finished_pair(alice, bob, **body) -> int:
    gid = alice.create(kind="claim", opponents=[{"type": "user", "username": "bob"}], **body)["id"]
    assert bob.post(f"/api/v1/games/{gid}/join").status_code in (200, 201)
    assert alice.post(f"/api/v1/games/{gid}/resign").status_code == 200
    return gid


def test_the_offer_is_a_challenge_shown_on_both_end_screens_and_in_the_inbox(alice, bob, frames):
    gid = finished_pair(alice, bob, days_per_move=5, rated=True)
    r = alice.post(f"/api/v1/games/{gid}/rematch")
    assert r.status_code == 202, r.content
    offer = r.json()["rematch_offer"]
    assert offer["kind"] == "challenge" and offer["by"] == 0 and offer["status"] == "pending"
    assert offer["joined"] == [0] and offer["game_id"] is None and offer["expires_at"]
    assert offer["links"]["accept"] == f"/api/v1/challenges/{offer['id']}/accept"
    assert bob.view(gid)["rematch_offer"] == offer
    incoming = bob.get("/api/v1/challenges").json()["incoming"]
    assert [(c["id"], c["rematch_of"], c["rated"], c["seat"]) for c in incoming] == [(offer["id"], gid, True, 0)]
    assert incoming[0]["time_control"]["days_per_move"] == 5
    pushed = offers(frames, bob)
    assert pushed == [{"type": "rematch_offer", "game_id": gid, "rematch_offer": offer}]
    assert offers(frames, alice) == pushed


def test_offering_twice_is_one_offer(alice, bob):
    gid = finished_pair(alice, bob)
    first = alice.post(f"/api/v1/games/{gid}/rematch").json()["rematch_offer"]
    again = alice.post(f"/api/v1/games/{gid}/rematch")
    assert again.status_code == 202 and again.json()["rematch_offer"]["id"] == first["id"]
    assert Challenge.objects.filter(rematch_of_id=gid).count() == 1


def test_accepting_in_the_inbox_starts_the_rematch_for_both(alice, bob, frames):
    gid = finished_pair(alice, bob, days_per_move=2)
    offer = alice.post(f"/api/v1/games/{gid}/rematch").json()["rematch_offer"]
    frames.clear()
    done = bob.post(offer["links"]["accept"]).json()
    new = bob.view(done["game_id"])
    assert new["status"] == "active" and new["rematch_of"] == gid and new["my_seat"] == 1
    assert alice.view(done["game_id"])["my_seat"] == 0  # the same seats
    seen = alice.view(gid)
    assert seen["rematch"] == new["id"]
    assert seen["rematch_offer"]["status"] == "accepted" and seen["rematch_offer"]["game_id"] == new["id"]
    assert seen["rematch_offer"]["joined"] == [0, 1]
    assert [f["rematch_offer"]["status"] for f in offers(frames, alice)] == ["accepted"]
    # Either player's request now returns that game.
    for api in (alice, bob):
        r = api.post(f"/api/v1/games/{gid}/rematch")
        assert r.status_code == 200 and r.json()["id"] == new["id"]


def test_the_second_players_request_accepts(alice, bob):
    gid = finished_pair(alice, bob)
    assert bob.post(f"/api/v1/games/{gid}/rematch").status_code == 202
    r = alice.post(f"/api/v1/games/{gid}/rematch")
    assert r.status_code == 200 and r.json()["status"] == "active" and r.json()["rematch_of"] == gid


def test_a_declined_offer_is_seen_by_the_offerer_and_not_repeated(alice, bob, frames):
    gid = finished_pair(alice, bob)
    offer = alice.post(f"/api/v1/games/{gid}/rematch").json()["rematch_offer"]
    frames.clear()
    assert bob.post(offer["links"]["decline"], {"reason": "later"}).status_code == 200
    seen = alice.view(gid)["rematch_offer"]
    assert seen["status"] == "declined" and seen["declined_by"] == 1 and seen["decline_reason"] == "later"
    assert [f["rematch_offer"]["status"] for f in offers(frames, alice)] == ["declined"]
    assert "declined" in err(alice.post(f"/api/v1/games/{gid}/rematch"), 409, "rematch_declined")["message"]
    # The player who declined may still offer one themselves.
    again = bob.post(f"/api/v1/games/{gid}/rematch")
    assert again.status_code == 202 and again.json()["rematch_offer"]["by"] == 1


def test_an_expired_offer_may_be_made_again(alice, bob, frames):
    gid = finished_pair(alice, bob)
    first = alice.post(f"/api/v1/games/{gid}/rematch").json()["rematch_offer"]
    Challenge.objects.filter(pk=first["id"]).update(expires_at=timezone.now() - timedelta(seconds=1))
    assert bob.view(gid)["rematch_offer"]["status"] == "expired"  # shown so before the periodic run
    err(bob.post(first["links"]["accept"]), 409, "challenge_expired")
    frames.clear()
    r = alice.post(f"/api/v1/games/{gid}/rematch")
    assert r.status_code == 202 and r.json()["rematch_offer"]["id"] != first["id"]
    assert Challenge.objects.get(pk=first["id"]).status == "expired"
    assert bob.view(gid)["rematch_offer"]["status"] == "pending"


def test_an_expired_offer_is_not_accepted_by_the_other_players_request(alice, bob):
    gid = finished_pair(alice, bob)
    first = alice.post(f"/api/v1/games/{gid}/rematch").json()["rematch_offer"]
    Challenge.objects.filter(pk=first["id"]).update(expires_at=timezone.now() - timedelta(seconds=1))
    r = bob.post(f"/api/v1/games/{gid}/rematch")  # a new offer of bob's, not a game
    assert r.status_code == 202 and r.json()["rematch_offer"]["by"] == 1


def test_the_offerer_cancels(alice, bob):
    gid = finished_pair(alice, bob)
    offer = alice.post(f"/api/v1/games/{gid}/rematch").json()["rematch_offer"]
    assert alice.post(offer["links"]["cancel"]).status_code == 200
    assert bob.view(gid)["rematch_offer"]["status"] == "cancelled"
    assert alice.post(f"/api/v1/games/{gid}/rematch").status_code == 202  # a new offer


def test_no_offer_to_a_deleted_or_deactivated_account(alice, bob, make_api):
    gid = finished_pair(alice, bob)
    delete_account(bob.user)
    body = err(alice.post(f"/api/v1/games/{gid}/rematch"), 409, "opponent_unavailable")
    assert "closed" in body["message"]
    carol = make_api("carol")
    gid2 = alice.create(kind="claim", opponents=[{"type": "user", "username": "carol"}])["id"]
    carol.post(f"/api/v1/games/{gid2}/join")
    carol.post(f"/api/v1/games/{gid2}/resign")
    carol.user.is_active = False
    carol.user.save()
    err(alice.post(f"/api/v1/games/{gid2}/rematch"), 409, "opponent_unavailable")
    assert not Challenge.objects.filter(rematch_of_id__in=[gid, gid2]).exists()


def test_an_offer_to_an_account_deleted_meanwhile_is_gone(alice, bob):
    gid = finished_pair(alice, bob)
    alice.post(f"/api/v1/games/{gid}/rematch")
    delete_account(bob.user)
    assert alice.view(gid)["rematch_offer"] is None
    err(alice.post(f"/api/v1/games/{gid}/rematch"), 409, "opponent_unavailable")


def test_not_finished_and_strangers(alice, bob, stranger):
    gid = alice.create(kind="claim", opponents=[{"type": "user", "username": "bob"}])["id"]
    bob.post(f"/api/v1/games/{gid}/join")
    err(alice.post(f"/api/v1/games/{gid}/rematch"), 409, "not_finished")
    alice.post(f"/api/v1/games/{gid}/resign")
    assert stranger.post(f"/api/v1/games/{gid}/rematch").status_code == 403
    assert stranger.get(f"/api/v1/games/{gid}").json()["rematch_offer"] is None


# ----------------------------------------------------------------------------- three and four seats

def finished_three(alice, bob, carol) -> int:
    gid = alice.create(kind="inheritors", seats=3, opponents=[{"type": "user", "username": "bob"},
                                                              {"type": "user", "username": "carol"}])["id"]
    for api in (bob, carol):
        assert api.post(f"/api/v1/games/{gid}/join").status_code in (200, 201)
    assert bob.post(f"/api/v1/games/{gid}/resign").status_code == 200
    return gid


@pytest.fixture
def carol(make_api):
    return make_api("carol")


def test_three_seats_invite_the_same_players_live_and_start_when_all_accept(alice, bob, carol, frames):
    gid = finished_three(alice, bob, carol)
    r = bob.post(f"/api/v1/games/{gid}/rematch")
    assert r.status_code == 201, r.content
    new = r.json()
    assert new["status"] == "open" and new["rematch_of"] == gid and new["my_seat"] == 1
    offer = carol.view(gid)["rematch_offer"]
    assert offer == {"kind": "game", "id": str(new["id"]), "by": 1, "status": "pending", "game_id": new["id"],
                     "declined_by": None, "decline_reason": None, "joined": [1], "expires_at": None,
                     "links": {"accept": f"/api/v1/games/{new['id']}/join",
                               "decline": f"/api/v1/games/{new['id']}/abort",
                               "cancel": f"/api/v1/games/{new['id']}/abort"}}
    assert [f["rematch_offer"]["status"] for f in offers(frames, carol)] == ["pending"]
    assert bob.post(f"/api/v1/games/{gid}/rematch").json()["id"] == new["id"]  # twice: the same game
    assert carol.post(offer["links"]["accept"]).status_code in (200, 201)
    assert alice.view(gid)["rematch_offer"]["joined"] == [1, 2]
    r = alice.post(f"/api/v1/games/{gid}/rematch")  # the last one, through the finished game
    assert r.status_code == 200 and r.json()["status"] == "active"
    assert [f["rematch_offer"]["status"] for f in offers(frames, alice)] == ["pending", "pending", "accepted"]
    assert bob.view(gid)["rematch_offer"]["status"] == "accepted"


def test_three_seats_declined_by_one_invitee_who_the_offerer_sees(alice, bob, carol, frames):
    gid = finished_three(alice, bob, carol)
    new = alice.post(f"/api/v1/games/{gid}/rematch").json()
    frames.clear()
    assert carol.post(f"/api/v1/games/{new['id']}/abort").status_code == 200
    seen = alice.view(gid)
    assert seen["rematch"] is None
    assert seen["rematch_offer"]["status"] == "declined" and seen["rematch_offer"]["declined_by"] == 2
    assert [f["rematch_offer"]["declined_by"] for f in offers(frames, alice)] == [2]
    err(alice.post(f"/api/v1/games/{gid}/rematch"), 409, "rematch_declined")
    again = bob.post(f"/api/v1/games/{gid}/rematch")  # another player may offer a new one
    assert again.status_code == 201 and again.json()["id"] != new["id"]


def test_three_seats_the_offerer_cancels_and_may_offer_again(alice, bob, carol):
    gid = finished_three(alice, bob, carol)
    new = alice.post(f"/api/v1/games/{gid}/rematch").json()
    alice.post(f"/api/v1/games/{new['id']}/abort")
    assert bob.view(gid)["rematch_offer"]["status"] == "cancelled"
    assert alice.post(f"/api/v1/games/{gid}/rematch").status_code == 201


def test_three_seats_with_a_closed_account_get_no_offer(alice, bob, carol):
    gid = finished_three(alice, bob, carol)
    delete_account(carol.user)
    err(alice.post(f"/api/v1/games/{gid}/rematch"), 409, "opponent_unavailable")


def test_a_rematch_of_a_rated_game_is_rated_with_the_same_time_control(alice, bob):
    gid = finished_pair(alice, bob, rated=True, time_control={"type": "bank", "initial_seconds": 86400,
                                                             "increment_seconds": 3600, "cap_seconds": 172800})
    bob.post(f"/api/v1/games/{gid}/rematch")
    new = alice.post(f"/api/v1/games/{gid}/rematch").json()
    assert new["rated"] is True and new["time_control"]["type"] == "bank"
    assert (new["time_control"]["initial_seconds"], new["time_control"]["increment_seconds"]) == (86400, 3600)


def test_the_offer_of_two_seats_is_one_query(alice, bob, django_assert_max_num_queries):
    """The end screen's GET: the rematch part is one indexed read of the challenges (two seats)."""
    gid = finished_pair(alice, bob)
    alice.post(f"/api/v1/games/{gid}/rematch")
    game = Game.objects.get(pk=gid)
    seats = seats_of(game)
    with django_assert_max_num_queries(1):
        rematch, offer = rematch_of_game(game, seats)
    assert rematch is None and offer["status"] == "pending"
