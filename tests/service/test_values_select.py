"""claim.rowsql.ValuesSelect gives what the ORM's ``values_list`` gives (the receivers' hot SELECTs)."""

from __future__ import annotations

import pytest

from claim.rowsql import ValuesSelect
from games.models import GameClock, GameEvent, Seat
from games.notify.service import channels

pytestmark = pytest.mark.django_db


def test_rows_equal_values_list_with_a_join_and_conversions(alice, bob):
    game = alice.create(kind="claim", opponents=[{"type": "user", "username": bob.user.username}], days_per_move=2)
    assert bob.post(f"/api/v1/games/{game['id']}/join").status_code == 201
    gid = game["id"]
    events = ValuesSelect(GameEvent, ["version", "type", "seat", "game__kind", "created_at"],
                          where="t0.game_id = %s", order_by="t0.version")
    assert events.rows([gid]) == list(GameEvent.objects.filter(game_id=gid).order_by("version")
                                      .values_list("version", "type", "seat", "game__kind", "created_at"))
    seats = ValuesSelect(Seat, ["index", "user_id", "joined_at", "to_act", "outcome", "rank"],
                         where="t0.game_id = %s AND t0.user_id IS NOT NULL", order_by='t0."index"')
    expected = list(Seat.objects.filter(game_id=gid, user__isnull=False).order_by("index")
                    .values_list("index", "user_id", "joined_at", "to_act", "outcome", "rank"))
    assert seats.rows([gid]) == expected and len(expected) == 2
    assert all(isinstance(row[3], bool) for row in expected)
    clock = ValuesSelect(GameClock, ["control", "paused_at"], where="t0.game_id = %s")
    assert clock.rows([gid]) == list(GameClock.objects.filter(game_id=gid).values_list("control", "paused_at"))


def test_channels_follow_preferences_subscriptions_address_and_digest(make_user):
    from games.notify.models import NotifySettings, Preference, PushSubscription

    plain, subscribed, muted, digest = (make_user(n) for n in ("plain", "subscribed", "muted", "digest"))
    PushSubscription.objects.create(user=subscribed, endpoint="https://push.example/1", p256dh="k", auth="a")
    Preference.objects.create(user=muted, event="your_turn", inapp=False, push=False, email=False)
    Preference.objects.create(user=digest, event="your_turn", inapp=True, push=True, email=True)
    Preference.objects.create(user=plain, event="game_over", inapp=True, push=True, email=True)
    NotifySettings.objects.create(user=digest, email_digest=True)
    for u in (plain, subscribed, muted, digest):
        u.email = f"{u.username}@example.org"
        u.save()
    got = channels([plain.pk, subscribed.pk, muted.pk, digest.pk, 987654], "your_turn")
    # your_turn's default is in-app + push; push needs a subscription, e-mail an address and no digest
    assert got == {plain.pk: (True, False, False), subscribed.pk: (True, True, False),
                   muted.pk: (False, False, False), digest.pk: (True, False, False), 987654: (True, False, False)}
    assert channels([plain.pk], "game_over") == {plain.pk: (True, False, True)}
    assert channels([], "your_turn") == {}
