"""Issue 33 item 2, "vacation is invisible": a booked period shows on the clock of every seat it affects,
in every player's view, live; a future period can be cancelled and any period shortened, the days cut off
given back; the API refuses what cannot be done with a clear 4xx."""

from __future__ import annotations

from datetime import timedelta

import pytest

from games.clock.bookings import cancel_period, shorten_period, take_period
from games.clock.models import VacationAccount, VacationPeriod
from games.clock.tasks import expire_deadlines_task
from games.clock.vacation import account_for
from games.models import Game, GameEvent
from games.realtime import publish
from games.service import game_view_payload, make_move

from .conftest import T0, to_act_seat

pytestmark = pytest.mark.django_db


def _iso(dt):
    return dt.isoformat().replace("+00:00", "Z")


def _no_auto(*users):
    for u in users:
        VacationAccount.objects.update_or_create(user=u, defaults={"auto_use": False, "accrued_until": T0,
                                                                   "balance": 10})


@pytest.fixture
def pushes(monkeypatch):
    """The game views the publisher sends: ``[(user id, view)]``."""
    sent: list[tuple[int, dict]] = []

    async def send_all(layer, messages, **kwargs):
        sent.extend((int(group.split(".")[1]), m["view"]) for group, m in messages if m.get("type") == "game.update")

    monkeypatch.setattr(publish, "_send_all", send_all)
    return sent


def _game(make_user, play):
    alice, bob = make_user("alice"), make_user("bob")
    _no_auto(alice, bob)
    game = play.game(alice, bob, days=3)
    late = to_act_seat(game)
    other = next(s for s in game.seats.all() if s.index != late.index)
    return game, late, other


def _view(game, user):
    return game_view_payload(Game.objects.select_related("clock").get(pk=game.pk), user)


def test_a_booking_shows_on_the_seats_clock_in_both_views_live(make_user, play, clock, commit, pushes):
    game, late, other = _game(make_user, play)
    version = Game.objects.get(pk=game.pk).version
    pushes.clear()
    start, end = T0 + timedelta(days=1), T0 + timedelta(days=6)
    with commit():
        take_period(late.user, start, 5)  # covers the deadline T0 + 3 days
    # One new version of the game, a clock entry saying so, pushed to both players.
    assert Game.objects.get(pk=game.pk).version == version + 1
    entry = GameEvent.objects.get(game=game, version=version + 1)
    assert entry.type == "vacation" and entry.seat == late.index
    shown = {"start": _iso(start), "end": _iso(end)}
    assert entry.events == [{"type": "vacation", "seat": late.index, "vacation": shown}]
    assert sorted(uid for uid, _ in pushes) == sorted([late.user_id, other.user_id])
    for _, view in pushes:
        seat = view["clock"]["seats"][late.index]
        assert view["version"] == version + 1 and view["last_events"]["type"] == "vacation"
        assert seat["vacation"] == shown
        assert seat["running"] and seat["deadline"] == _iso(end)  # the deadline that really applies
        assert view["deadline"] == _iso(end)
        assert view["clock"]["seats"][other.index]["vacation"] is None
    # The stored deadline is untouched; the deadline task moves it exactly where the clocks said.
    assert Game.objects.get(pk=game.pk).deadline == T0 + timedelta(days=3)
    clock.shift(timedelta(days=3, minutes=2))
    with commit():
        expire_deadlines_task()
    stored = Game.objects.get(pk=game.pk)
    assert stored.status == Game.Status.ACTIVE and stored.deadline == end
    assert _view(game, other.user)["clock"]["seats"][late.index]["deadline"] == _iso(end)


def test_a_period_not_covering_the_deadline_is_shown_but_moves_nothing(make_user, play, clock, commit):
    game, late, other = _game(make_user, play)
    start = T0 + timedelta(days=4)  # after the deadline T0 + 3 days: the move is due before leaving
    with commit():
        take_period(late.user, start, 2)
    seat = _view(game, other.user)["clock"]["seats"][late.index]
    assert seat["deadline"] == _iso(T0 + timedelta(days=3))
    assert seat["vacation"] == {"start": _iso(start), "end": _iso(start + timedelta(days=2))}


def test_a_move_during_the_vacation_shows_the_deadline_after_it_in_the_movers_answer(make_user, play, clock, commit):
    """The opponent moves while I am away: my new deadline (3 days on) falls in my vacation, so the move's own
    answer and the view pushed to me already show the end of the vacation."""
    game, late, other = _game(make_user, play)
    with commit():
        take_period(other.user, T0, 10)
    view = _view(game, late.user)
    with commit():
        answer, _ = make_move(late.user, game.pk, view["version"], view["legal_moves"][0], client_id="v1")
    assert answer["to_act"] == [other.index]  # Claim: the other seat answers the lead
    seat = answer["clock"]["seats"][other.index]
    assert seat["deadline"] == _iso(T0 + timedelta(days=10)) and seat["vacation"]["end"] == seat["deadline"]


def test_cancelling_a_future_period_gives_every_day_back_and_clears_the_clocks(make_user, play, clock, commit,
                                                                                pushes):
    _, late, other = _game(make_user, play)
    with commit():
        period = take_period(late.user, T0 + timedelta(days=1), 4)
    assert account_for(late.user).balance == 6
    pushes.clear()
    with commit():
        given = cancel_period(late.user, period.pk)
    assert given == 4 and account_for(late.user).balance == 10
    assert not VacationPeriod.objects.filter(pk=period.pk).exists()
    assert {uid for uid, _ in pushes} == {late.user_id, other.user_id}
    for _, view in pushes:
        seat = view["clock"]["seats"][late.index]
        assert seat["vacation"] is None and seat["deadline"] == _iso(T0 + timedelta(days=3))
        assert view["last_events"]["events"] == [{"type": "vacation", "seat": late.index, "vacation": None}]


def test_shortening_an_ongoing_period_keeps_the_days_begun_and_brings_a_moved_deadline_back(
        make_user, play, clock, commit):
    game, late, other = _game(make_user, play)
    with commit():
        period = take_period(late.user, T0 - timedelta(hours=2), 10)
    clock.shift(timedelta(days=3, minutes=2))  # the deadline passed in the vacation: moved to its end
    with commit():
        expire_deadlines_task()
    assert Game.objects.get(pk=game.pk).deadline == period.end
    # 3 days 2 h 2 min after its start: day 4 has begun. It can end after day 4 at the earliest.
    with pytest.raises(Exception, match="4 day"):
        shorten_period(late.user, period.pk, days=3)
    with commit():
        period, given = shorten_period(late.user, period.pk, days=4)
    assert given == 6 and account_for(late.user).balance == 6  # 10 - 10 booked + 6 back
    new_end = T0 - timedelta(hours=2) + timedelta(days=4)
    assert period.end == new_end and period.days == 4
    stored = Game.objects.get(pk=game.pk)
    assert stored.deadline == new_end  # the deadline the period had moved ends with it now
    seat = _view(game, other.user)["clock"]["seats"][late.index]
    assert seat["deadline"] == _iso(new_end) and seat["vacation"]["end"] == _iso(new_end)


def test_only_the_users_active_games_get_a_version(make_user, play, clock, commit):
    alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
    _no_auto(alice, bob, carol)
    active = play.game(alice, bob, days=3)
    over = play.resign(bob, play.game(alice, bob, days=3))
    theirs = play.game(bob, carol, days=3)
    before = {g.pk: Game.objects.get(pk=g.pk).version for g in (active, over, theirs)}
    with commit():
        take_period(alice, T0 + timedelta(days=20), 2)
    after = {g.pk: Game.objects.get(pk=g.pk).version for g in (active, over, theirs)}
    assert after == {active.pk: before[active.pk] + 1, over.pk: before[over.pk], theirs.pk: before[theirs.pk]}
    # A second period behind the first one shows nowhere new: no version.
    with commit():
        take_period(alice, T0 + timedelta(days=40), 2)
    assert Game.objects.get(pk=active.pk).version == after[active.pk]


def test_a_move_against_the_version_before_a_vacation_entry_is_still_taken(make_user, play, clock, commit):
    game, late, other = _game(make_user, play)
    view = _view(game, late.user)
    with commit():
        take_period(other.user, T0 + timedelta(days=1), 2)
    with commit():
        answer, applied = make_move(late.user, game.pk, view["version"], view["legal_moves"][0], client_id="v2")
    assert applied and answer["version"] == view["version"] + 2


# ----------------------------------------------------------------------------------------- the API

@pytest.fixture
def booked(make_user, api_client, clock, commit):
    alice = make_user("alice")
    _no_auto(alice)
    api_client.force_authenticate(alice)
    with commit():
        r = api_client.post("/api/v1/vacation/periods", {"start": (T0 + timedelta(days=2)).isoformat(), "days": 5},
                            format="json")
    assert r.status_code == 201, r.content
    return alice, r.json()["periods"][0]


def test_api_shortens_by_days_or_end_and_cancels(booked, api_client, commit):
    _, p = booked
    assert p["started"] is False and p["days_begun"] == 0
    with commit():
        r = api_client.patch(f"/api/v1/vacation/periods/{p['id']}", {"days": 3}, format="json")
    assert r.status_code == 200, r.content
    body = r.json()
    assert body["given_back_days"] == 2 and body["balance_days"] == 7
    assert body["periods"][0]["end"] == _iso(T0 + timedelta(days=5))
    # An end in the middle of a day keeps that day: 1.5 days → 2.
    with commit():
        r = api_client.patch(f"/api/v1/vacation/periods/{p['id']}",
                             {"end": (T0 + timedelta(days=3, hours=12)).isoformat()}, format="json")
    assert r.status_code == 200 and r.json()["periods"][0]["days"] == 2 and r.json()["given_back_days"] == 1
    with commit():
        r = api_client.delete(f"/api/v1/vacation/periods/{p['id']}")
    assert r.status_code == 200 and r.json()["periods"] == [] and r.json()["balance_days"] == 10
    assert api_client.delete(f"/api/v1/vacation/periods/{p['id']}").status_code == 404


@pytest.mark.parametrize(("body", "field", "said"), [
    ({"days": 5}, "days", "can only be shortened: it has 5 days"),
    ({"days": 9}, "days", "can only be shortened"),
    ({"days": 0}, "days", "greater than or equal to 1"),
    ({"days": "2"}, "days", ""),
    ({}, "days", "either days"),
    ({"days": 2, "end": "2026-12-05T00:00:00Z"}, "days", "not both"),
    ({"end": "not a date"}, "end", "Datetime has wrong format"),
    ({"end": "2026-11-30T00:00:00Z"}, "end", "must be after the period's start"),
    ({"end": "2027-01-30T00:00:00Z"}, "days", "can only be shortened"),
    ({"days": 2, "extra": 1}, "", ""),
])
def test_api_refuses_bad_shortening_with_a_clear_400(booked, api_client, body, field, said):
    alice, p = booked
    r = api_client.patch(f"/api/v1/vacation/periods/{p['id']}", body, format="json")
    assert r.status_code == 400, r.content
    err = r.json()["error"]
    text = " ".join(m for msgs in err.get("fields", {}).values() for m in msgs) + " " + err["message"]
    assert said in text
    if field:
        assert field in err.get("fields", {}) or err.get("field") == field or field in err["message"], err
    assert account_for(alice).balance == 5 and VacationPeriod.objects.get(pk=p["id"]).days == 5


def test_api_someone_elses_or_unknown_period_is_404(booked, api_client, make_user):
    _, p = booked
    api_client.force_authenticate(make_user("mallory"))
    for call in (lambda u: api_client.patch(u, {"days": 1}, format="json"), api_client.delete):
        for url in (f"/api/v1/vacation/periods/{p['id']}", "/api/v1/vacation/periods/999999999"):
            r = call(url)
            assert r.status_code == 404 and r.json()["error"]["code"] == "not_found", r.content
    assert VacationPeriod.objects.get(pk=p["id"]).days == 5


def test_api_a_started_or_past_period(booked, api_client, clock, commit):
    _, p = booked
    url = f"/api/v1/vacation/periods/{p['id']}"
    clock.shift(timedelta(days=2, hours=1))  # day 1 of 5 has begun
    r = api_client.delete(url)
    assert r.status_code == 409 and r.json()["error"]["code"] == "period_started"
    assert "shorten it instead" in r.json()["error"]["message"]
    assert api_client.get("/api/v1/vacation").json()["periods"][0]["days_begun"] == 1
    with commit():
        r = api_client.patch(url, {"days": 1}, format="json")  # "end after today"
    assert r.status_code == 200 and r.json()["given_back_days"] == 4
    r = api_client.patch(url, {"days": 1}, format="json")
    assert r.status_code == 409 and r.json()["error"]["code"] == "period_last_day"
    clock.shift(timedelta(days=1))
    for r in (api_client.delete(url), api_client.patch(url, {"days": 1}, format="json")):
        assert r.status_code == 409 and r.json()["error"]["code"] == "period_over"
