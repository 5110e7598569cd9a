"""A tournament game is an ordinary game with a tournament's rules (issue 36): started, watchable and rated as the
tournament says, no pause (409), no abort (409), no vacation (a booked period or the balance never saves it from
a timeout, and its clock shows none), and a block between two entrants does not stop their pairing."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.models import Relation
from games import service as games
from games.clock.models import VacationAccount, VacationPeriod
from games.clock.service import expire_deadline
from games.models import Game, GameClock, Seat
from games.service import Conflict

from .conftest import round_games

pytestmark = pytest.mark.django_db


@pytest.fixture
def started(play):
    creator = play.users(1, "org")[0]
    players = play.users(4)
    t = play.tournament(creator, players, rounds=2, rated=True)
    return t, {u.pk: u for u in players}


def _to_act(tg):
    index = Seat.objects.get(game_id=tg.game_id, to_act=True).index
    return tg.players[index]


def test_games_are_started_watchable_rated_with_a_tournament_clock(started):
    t, _ = started
    for tg in round_games(t, 1):
        game = Game.objects.get(pk=tg.game_id)
        assert game.status == "active" and game.watchable and game.rated and game.days_per_move == 3
        assert GameClock.objects.get(game=game).tournament
        assert list(Seat.objects.filter(game=game).order_by("index").values_list("user_id", flat=True)) == tg.players


def test_no_pause_and_no_abort(started):
    t, users = started
    tg = round_games(t, 1)[0]
    from accounts.models import ApiToken  # noqa: PLC0415

    player = users[tg.players[0]]
    _, plain = ApiToken.issue(player, "t", ["games:read", "games:play"])
    from rest_framework.test import APIClient  # noqa: PLC0415

    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {plain}")
    answer = client.post(f"/api/v1/games/{tg.game_id}/clock/pause", {}, format="json")
    assert answer.status_code == 409 and answer.json()["error"]["code"] == "tournament_game", answer.content
    answer = client.post(f"/api/v1/games/{tg.game_id}/abort", {}, format="json")
    assert answer.status_code == 409 and answer.json()["error"]["code"] == "tournament_game", answer.content
    assert "withdraw" in answer.json()["error"]["message"]
    with pytest.raises(Conflict):
        games.accept_abort(player, tg.game_id)
    assert Game.objects.get(pk=tg.game_id).status == "active"


def test_vacation_never_saves_a_tournament_game(started, play):
    t, users = started
    tg = round_games(t, 1)[0]
    late = _to_act(tg)
    now = timezone.now()
    VacationPeriod.objects.create(user_id=late, start=now - timedelta(hours=1), end=now + timedelta(days=5), days=5)
    VacationAccount.objects.update_or_create(user_id=late, defaults={"balance": 20, "auto_use": True})
    view = games.view_for(users[late], tg.game_id)
    assert all(s["vacation"] is None for s in view["clock"]["seats"])
    game = Game.objects.get(pk=tg.game_id)
    Game.objects.filter(pk=game.pk).update(deadline=now - timedelta(minutes=1))
    with play.commit():
        assert expire_deadline(game.pk, game.version) == "timeout"
    tg.refresh_from_db()
    assert tg.finished and tg.timed_out == [late]


def test_a_block_between_entrants_does_not_stop_pairing(play):
    creator = play.users(1, "org")[0]
    players = play.users(2, "b")
    Relation.objects.create(user=players[0], other=players[1], kind=Relation.BLOCK)
    from games.tournaments import service  # noqa: PLC0415

    with play.commit():
        t = service.create(creator, name="Blocked", kind="claim", format="swiss", rounds=1, max_players=3,
                           time_control={"type": "days", "days_per_move": 3}, starts_at=timezone.now()
                           + timedelta(hours=1))
    with play.commit():
        service.join(players[0], t.pk)
    from games.service import Blocked  # noqa: PLC0415

    with pytest.raises(Blocked):  # joining is refused while the block stands (it names nobody)
        service.join(players[1], t.pk)
    Relation.objects.all().delete()
    with play.commit():
        service.join(players[1], t.pk)
    Relation.objects.create(user=players[1], other=players[0], kind=Relation.BLOCK)  # blocked after joining
    with play.commit():
        service.start(t.pk)
    (tg,) = round_games(t, 1)
    assert Game.objects.get(pk=tg.game_id).status == "active"


def test_a_resigned_game_counts_and_its_rematch_is_outside_the_tournament(started, play):
    t, users = started
    tg = round_games(t, 1)[0]
    play.resign(users[tg.players[1]], tg.game_id)
    tg.refresh_from_db()
    assert tg.finished and tg.places == [1, 2]
    with play.commit():
        answer = games.rematch(users[tg.players[0]], tg.game_id)  # a challenge: an ordinary game once accepted
    assert answer.outcome == "offered"
    assert not GameClock.objects.filter(tournament=True).exclude(game__tournament_game__isnull=False).exists()


def test_a_deleted_account_withdraws_and_its_entries_are_in_the_export(started, play):
    from accounts.privacy import Section  # noqa: PLC0415
    from accounts.services import delete_account  # noqa: PLC0415
    from accounts.signals import personal_data_requested  # noqa: PLC0415

    t, users = started
    tg = round_games(t, 1)[0]
    gone = users[tg.players[0]]
    sections = {s.name: s for _r, found in personal_data_requested.send(sender=None, user=gone)
                for s in (found or []) if isinstance(s, Section)}
    rows = sections["tournament_entries"].page(gone, None, 10)
    assert [r["id"] for r in rows] == [t.pk] and rows[0]["tournament"] == t.name
    with play.commit():
        delete_account(gone)
    tg.refresh_from_db()
    assert tg.finished and tg.places == [2, 1]
    from games.tournaments.models import Entry  # noqa: PLC0415

    assert Entry.objects.get(tournament=t, user=gone).withdrawn_at is not None
