"""Deadlines with frozen time: loss on time, AI replacement, +time, pause, vacation, bank clocks."""

from __future__ import annotations

from datetime import timedelta

import pytest

from games.clock import service as clock_service
from games.clock.models import VacationAccount, VacationUse
from games.clock.tasks import expire_deadlines_task
from games.clock.vacation import account_for
from games.models import Game, GameClock, GameEvent, SeatDeparture
from games.rules.registry import get_rules
from games.service import clock as game_clock
from games.service import make_move

from .conftest import T0, to_act_seat


def _expire(commit):
    with commit():
        return expire_deadlines_task()


def _no_vacation(*users):
    for u in users:
        VacationAccount.objects.update_or_create(user=u, defaults={"auto_use": False, "accrued_until": T0})


@pytest.mark.django_db
def test_deadline_then_loss_on_time(make_user, play, clock, commit):
    alice, bob = make_user("alice"), make_user("bob")
    _no_vacation(alice, bob)
    game = play.game(alice, bob, days=2)
    assert game.deadline == T0 + timedelta(days=2)
    late = to_act_seat(game)
    clock.shift(timedelta(days=2) - timedelta(minutes=1))
    assert _expire(commit) == 0
    clock.shift(timedelta(minutes=2))
    assert _expire(commit) == 1
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.ended_reason == "timeout"
    assert game.result["timeout"] == late.index and game.result["reason"] == "timeout"
    outcomes = {s.index: s.outcome for s in game.seats.all()}
    assert outcomes[late.index] == "loss" and outcomes[1 - late.index] == "win"
    assert _expire(commit) == 0  # idempotent
    assert clock_service.expire_deadline(game.pk, game.version - 1) is None  # stale version: nothing


@pytest.mark.django_db
def test_a_move_resets_the_deadline(make_user, play, clock, commit):
    alice, bob = make_user("alice"), make_user("bob")
    game = play.game(alice, bob, days=1)
    seat = to_act_seat(game)
    clock.shift(timedelta(hours=20))

    rules = get_rules(game.kind)
    legal = rules.legal_moves(rules.from_json(game.state), seat.index)
    with commit():
        make_move(seat.user, game.pk, game.version, legal[0])
    game.refresh_from_db()
    assert game.deadline == T0 + timedelta(hours=20) + timedelta(days=1)


@pytest.mark.django_db
def test_opponent_gives_more_time(make_user, play, clock, commit, api_client):
    alice, bob = make_user("alice"), make_user("bob")
    _no_vacation(alice, bob)
    game = play.game(alice, bob, days=1)
    mover = to_act_seat(game)
    other = game.seats.exclude(pk=mover.pk).get()
    api_client.force_authenticate(mover.user)
    r = api_client.post(f"/api/v1/games/{game.pk}/clock/give-time")
    assert r.status_code == 409 and r.json()["error"]["code"] == "own_turn"
    api_client.force_authenticate(other.user)
    clock.shift(timedelta(hours=23))
    with commit():
        r = api_client.post(f"/api/v1/games/{game.pk}/clock/give-time")
    assert r.status_code == 200, r.content
    assert r.json()["deadline"] == (T0 + timedelta(days=2)).isoformat().replace("+00:00", "Z")
    clock.shift(timedelta(hours=2))
    assert _expire(commit) == 0
    clock.shift(timedelta(days=1))
    assert _expire(commit) == 1


@pytest.mark.django_db
def test_three_players_timed_out_seat_is_replaced_by_ai(make_user, play, clock, commit):
    a, b, c = make_user("a"), make_user("b"), make_user("c")
    _no_vacation(a, b, c)
    game = play.game(a, b, c, kind="inheritors", days=1)
    late = to_act_seat(game)
    user = late.user
    clock.shift(timedelta(days=1, minutes=1))
    assert _expire(commit) == 1
    late.refresh_from_db()
    game.refresh_from_db()
    assert late.ai_level == 2 and late.user is None
    dep = SeatDeparture.objects.get(game=game)
    assert (dep.user, dep.seat, dep.replaced_by_ai) == (user, late.index, 2)
    assert game.status in (Game.Status.ACTIVE, Game.Status.FINISHED)
    assert game.move_count >= 1, "the AI took the turn at once"



@pytest.mark.django_db
def test_a_player_replaced_by_the_ai_still_sees_the_game_and_is_told(make_user, play, clock, commit, api_client):
    """Issue 21: the timed-out player of a 3-seat game lost all access (404) and was told nothing."""
    a, b, c = make_user("a"), make_user("b"), make_user("c")
    _no_vacation(a, b, c)
    game = play.game(a, b, c, kind="inheritors", days=1)
    late = to_act_seat(game)
    user = late.user
    clock.shift(timedelta(days=1, minutes=1))
    assert _expire(commit) == 1
    api_client.force_authenticate(user)
    r = api_client.get(f"/api/v1/games/{game.pk}")
    assert r.status_code == 200, r.content
    assert r.json()["my_seat"] is None and not r.json()["legal_moves"]
    assert r.json()["seats"][late.index]["type"] == "ai"
    note = user.notifications.get(event="seat_replaced")
    assert note.game_id == game.pk and note.title == f"You ran out of time in Inheritors #{game.pk}"
    assert note.data["url"] == f"/#/game/{game.pk}"
    stranger = make_user("stranger")
    api_client.force_authenticate(stranger)
    assert api_client.get(f"/api/v1/games/{game.pk}").status_code == 404


@pytest.mark.django_db
def test_vacation_accrues_and_is_used_automatically(make_user, play, clock, commit, settings):
    settings.VACATION_START_DAYS = 0  # accrual alone (the newcomer's week: below)
    alice, bob = make_user("alice"), make_user("bob")
    for u in (alice, bob):
        u.date_joined = T0 - timedelta(days=15)  # two weeks: 2 days
        u.save()
    assert account_for(alice).balance == 2
    game = play.game(alice, bob, days=1)
    late = to_act_seat(game)
    clock.shift(timedelta(days=1, hours=1))
    assert _expire(commit) == 0
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    assert game.deadline == T0 + timedelta(days=2)
    assert account_for(late.user).balance == 1
    assert VacationUse.objects.filter(user=late.user, game=game).count() == 1
    note = late.user.notifications.get(event="vacation_used")
    assert "vacation" in note.body
    clock.shift(timedelta(days=1))
    _expire(commit)
    clock.shift(timedelta(days=1))
    _expire(commit)  # balance gone: loses on time
    game.refresh_from_db()
    assert game.ended_reason == "timeout"
    assert account_for(late.user).balance == 0


@pytest.mark.django_db
def test_booked_vacation_period_covers_a_deadline(make_user, play, clock, commit, api_client, settings):
    settings.VACATION_START_DAYS = 0  # accrual alone (the newcomer's week: below)
    alice, bob = make_user("alice"), make_user("bob")
    for u in (alice, bob):
        u.date_joined = T0 - timedelta(days=70)
        u.save()
    game = play.game(alice, bob, days=1)
    late = to_act_seat(game)
    api_client.force_authenticate(late.user)
    r = api_client.post("/api/v1/vacation/periods", {"start": T0.isoformat(), "days": 5}, format="json")
    assert r.status_code == 201 and r.json()["balance_days"] == 5
    too_many = api_client.post("/api/v1/vacation/periods", {"start": T0.isoformat(), "days": 6}, format="json")
    assert too_many.status_code == 400
    clock.shift(timedelta(days=1, minutes=5))
    _expire(commit)
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE and game.deadline == T0 + timedelta(days=5)


@pytest.mark.django_db
def test_vacation_auto_use_can_be_switched_off(make_user, play, clock, commit, api_client, settings):
    settings.VACATION_START_DAYS = 0  # accrual alone (the newcomer's week: below)
    alice, bob = make_user("alice"), make_user("bob")
    for u in (alice, bob):
        u.date_joined = T0 - timedelta(days=70)
        u.save()
    game = play.game(alice, bob, days=1)
    late = to_act_seat(game)
    api_client.force_authenticate(late.user)
    r = api_client.patch("/api/v1/vacation", {"auto_use": False}, format="json")
    assert r.json()["auto_use"] is False and r.json()["balance_days"] == 10
    clock.shift(timedelta(days=1, minutes=5))
    _expire(commit)
    game.refresh_from_db()
    assert game.ended_reason == "timeout"


@pytest.mark.django_db
def test_a_newcomer_starts_with_a_week_and_is_told_plainly_when_asking_for_more(make_user, clock, api_client):
    """Issue 21: every new account had 0 days, and asking showed "days: You have 0 vacation day(s); 3
    asked for." A newcomer has 7 days (docs/correspondence.md); too many days gets a message to act on."""
    new = make_user("newcomer")
    new.date_joined = T0
    new.save()
    assert account_for(new).balance == 7
    api_client.force_authenticate(new)
    r = api_client.post("/api/v1/vacation/periods", {"start": T0.isoformat(), "days": 8}, format="json")
    assert r.status_code == 400
    said = r.json()["error"]["fields"]["days"][0]
    assert said.startswith("You have 7 vacation days left and asked for 8") and "book fewer days" in said
    r = api_client.post("/api/v1/vacation/periods", {"start": T0.isoformat(), "days": 3}, format="json")
    assert r.status_code == 201 and r.json()["balance_days"] == 4


@pytest.mark.django_db
@pytest.mark.parametrize(("start", "said"), [
    (T0 - timedelta(days=2), "cannot start in the past"),  # its days would be spent on nothing
    (T0 + timedelta(days=366), "at most 365 days ahead"),
    ("9999-12-30T00:00:00", "at most 365 days ahead"),  # its end was past year 9999: a 500
])
def test_a_vacation_period_in_the_past_or_far_ahead_is_refused_and_costs_nothing(make_user, clock, api_client,
                                                                                  start, said):
    user = make_user("traveller")
    user.date_joined = T0
    user.save()
    api_client.force_authenticate(user)
    start = start if isinstance(start, str) else start.isoformat()
    r = api_client.post("/api/v1/vacation/periods", {"start": start, "days": 2}, format="json")
    assert r.status_code == 400 and said in r.json()["error"]["fields"]["start"][0], r.content
    assert account_for(user).balance == 7
    r = api_client.post("/api/v1/vacation/periods", {"start": (T0 - timedelta(hours=20)).isoformat(), "days": 2},
                        format="json")  # earlier today in another time zone
    assert r.status_code == 201 and r.json()["balance_days"] == 5 and len(r.json()["periods"]) == 1


@pytest.mark.django_db
def test_vacation_accrual_is_capped_at_30(make_user, clock):
    old = make_user("old")
    old.date_joined = T0 - timedelta(days=7 * 100)
    old.save()
    assert account_for(old).balance == 30


@pytest.mark.django_db
def test_mutual_pause_stops_the_clock(make_user, play, clock, commit, api_client):
    alice, bob = make_user("alice"), make_user("bob")
    _no_vacation(alice, bob)
    game = play.game(alice, bob, days=2)
    api_client.force_authenticate(alice)
    with commit():
        r = api_client.post(f"/api/v1/games/{game.pk}/clock/pause")
    assert r.json()["paused"] is False and r.json()["pause_requests"] == [0]
    clock.shift(timedelta(days=1))
    api_client.force_authenticate(bob)
    with commit():
        r = api_client.post(f"/api/v1/games/{game.pk}/clock/pause")
    assert r.json()["paused"] is True and r.json()["deadline"] is None
    clock.shift(timedelta(days=30))
    assert _expire(commit) == 0
    with commit():
        r = api_client.post(f"/api/v1/games/{game.pk}/clock/resume")
    game.refresh_from_db()
    assert game.deadline == T0 + timedelta(days=31) + timedelta(days=1)  # the day that was left


@pytest.mark.django_db
def test_a_move_ends_the_pause_in_its_own_answer(make_user, play, clock, commit, api_client):
    """Issue 21: the move that ends a pause answered ``paused: true`` with both requests still set, and
    no history entry said the pause ended."""
    alice, bob = make_user("alice"), make_user("bob")
    _no_vacation(alice, bob)
    game = play.game(alice, bob, days=2)
    for user in (alice, bob):
        api_client.force_authenticate(user)
        with commit():
            r = api_client.post(f"/api/v1/games/{game.pk}/clock/pause")
    assert r.json()["paused"] is True
    game.refresh_from_db()
    seat = to_act_seat(game)

    rules = get_rules(game.kind)
    legal = rules.legal_moves(rules.from_json(game.state), seat.index)
    api_client.force_authenticate(seat.user)
    with commit():
        r = api_client.post(f"/api/v1/games/{game.pk}/moves", {"version": game.version, "move": legal[0]},
                            format="json")
    assert r.status_code == 201, r.content
    body = r.json()
    clock_part = body.get("clock") or body
    assert clock_part["paused"] is False and clock_part["pause_requests"] == []
    types = list(GameEvent.objects.filter(game=game).order_by("version").values_list("type", "seat"))
    assert types[-2:] == [("resumed", seat.index), ("move", seat.index)]
    cl = GameClock.objects.get(game=game)
    assert cl.paused_at is None and cl.pause_requests == []
    game.refresh_from_db()
    assert game.deadline is not None


@pytest.mark.django_db
def test_bank_clock_with_increment_and_cap(make_user, play, clock, commit):
    alice, bob = make_user("alice"), make_user("bob")
    _no_vacation(alice, bob)
    game = play.game(alice, bob, days=None, rated=False)
    GameClock.objects.create(game=game, control=GameClock.Control.BANK, initial_seconds=3 * 86400,
                             increment_seconds=86400, cap_seconds=int(3.5 * 86400))
    clock_service.sync_bank_deadline(game.pk, game.version)
    game.refresh_from_db()
    assert game.deadline == T0 + timedelta(days=3)
    seat = to_act_seat(game)

    rules = get_rules(game.kind)
    clock.shift(timedelta(hours=6))
    legal = rules.legal_moves(rules.from_json(game.state), seat.index)
    with commit():
        make_move(seat.user, game.pk, game.version, legal[0])
    game.refresh_from_db()
    cl = GameClock.objects.get(game=game)
    banks = game_clock.banks_now(game, cl, list(game.seats.all()))
    assert banks[seat.index] == 3.5 * 86400  # 3 d - 6 h + 1 d = 3.75 d, capped at 3.5 d
    nxt = to_act_seat(game)
    assert game.deadline == T0 + timedelta(hours=6) + timedelta(seconds=banks[nxt.index])
    clock.shift(timedelta(days=5))
    assert _expire(commit) == 1
    game.refresh_from_db()
    assert game.ended_reason == "timeout"


@pytest.mark.django_db
def test_clock_endpoint_shows_remaining_time(make_user, play, clock, api_client):
    alice, bob = make_user("alice"), make_user("bob")
    game = play.game(alice, bob, days=3)
    clock.shift(timedelta(hours=12))
    api_client.force_authenticate(alice)
    body = api_client.get(f"/api/v1/games/{game.pk}/clock").json()
    assert body["control"] == "days" and body["days_per_move"] == 3
    assert sorted(x for x in body["remaining_seconds"] if x is not None) == [2.5 * 86400]
    api_client.force_authenticate(make_user("mallory"))
    assert api_client.get(f"/api/v1/games/{game.pk}/clock").status_code in (200, 404)
