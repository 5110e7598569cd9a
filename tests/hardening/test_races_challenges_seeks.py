"""Issue 32: challenges and seeks under parallel requests, on real PostgreSQL row locks (threads, one database
connection each), and their answers over HTTP after cancel or expiry, in both database modes.

Races: two accepts of one challenge (one game, the other 409), accept against cancel, parallel creations past
the pending limit (the count used to be read without a lock: parallel posts all passed it), two compatible seeks
paired at once (the two pairings used to lock their own seek first and then each other's: a deadlock, a 500),
two pairings of one seek, cancel against pairing, parallel seek posts past the open-seek limit.
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.core.cache import cache
from django.db import connection
from django.db import connection as conn
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from rest_framework.test import APIClient

from games.challenges import service as challenges
from games.challenges.models import Challenge
from games.models import Game
from games.seeks import service as seeks
from games.seeks.models import Seek

ROUNDS = 4  # each race is run several times: a lost race must not depend on luck


def _postgres() -> None:
    if connection.vendor != "postgresql":
        pytest.skip("row locks need PostgreSQL (DATABASE_URL)")


def _race(*calls: Callable[[], Any]) -> list[Any]:
    """Run ``calls`` at once (a barrier), each in its own thread and database connection; their results in order
    (an exception is returned, not raised)."""
    barrier = threading.Barrier(len(calls))
    results: list[Any] = [None] * len(calls)

    def run(i: int, fn: Callable[[], Any]) -> None:
        try:
            barrier.wait(timeout=10)
            results[i] = fn()
        except BaseException as exc:  # reported to the test
            results[i] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, fn)) for i, fn in enumerate(calls)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert not any(t.is_alive() for t in threads), "a racing call hung"
    return results


def _http(user: Any, method: str, path: str, body: Any = None) -> tuple[int, dict]:
    client = APIClient()
    client.force_authenticate(user)
    r = getattr(client, method)(path, body if body is not None else {}, format="json")
    return r.status_code, (r.json() if r.content else {})


def _code(answer: tuple[int, dict]) -> tuple[int, str | None]:
    status, body = answer
    return status, body.get("error", {}).get("code")


@pytest.fixture
def users(make_user):
    return [make_user(name) for name in ("alice", "bob", "carol", "dave")]


# --- challenges ----------------------------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_two_accepts_of_one_open_challenge_make_one_game(users):
    _postgres()
    alice, bob, carol, _ = users
    for _ in range(ROUNDS):
        c = challenges.create(alice, to=None, kind="claim")
        answers = _race(lambda c=c: _http(bob, "post", f"/api/v1/challenges/{c.pk}/accept"),
                        lambda c=c: _http(carol, "post", f"/api/v1/challenges/{c.pk}/accept"))
        codes = sorted(_code(a) for a in answers)
        assert codes == [(200, None), (409, "challenge_not_pending")], answers
        winner = next(body for status, body in answers if status == 200)
        c.refresh_from_db()
        assert c.status == "accepted" and c.game_id == winner["game_id"]
    # one game per accepted challenge, nothing more
    assert Game.objects.filter(seats__user=alice).distinct().count() == ROUNDS


@pytest.mark.django_db(transaction=True)
def test_the_same_player_accepting_twice_at_once_gets_one_game(users):
    _postgres()
    alice, bob, _, _ = users
    for _ in range(ROUNDS):
        c = challenges.create(alice, to="bob", kind="claim")
        answers = _race(*[lambda c=c: _http(bob, "post", f"/api/v1/challenges/{c.pk}/accept")] * 3)
        assert sorted(_code(a) for a in answers) == [(200, None)] + [(409, "challenge_not_pending")] * 2, answers
    assert Game.objects.filter(seats__user=bob).distinct().count() == ROUNDS


@pytest.mark.django_db(transaction=True)
def test_accept_racing_cancel_is_one_or_the_other(users):
    _postgres()
    alice, bob, _, _ = users
    outcomes = Counter()
    for _ in range(ROUNDS * 2):
        c = challenges.create(alice, to="bob", kind="claim")
        accept, cancel = _race(lambda c=c: _http(bob, "post", f"/api/v1/challenges/{c.pk}/accept"),
                               lambda c=c: _http(alice, "post", f"/api/v1/challenges/{c.pk}/cancel"))
        c.refresh_from_db()
        if c.status == "accepted":
            assert _code(accept) == (200, None) and _code(cancel) == (409, "challenge_not_pending"), (accept, cancel)
            assert c.game_id is not None
        else:
            assert c.status == "cancelled" and c.game_id is None, c.status
            assert _code(cancel) == (200, None) and _code(accept) == (409, "challenge_not_pending"), (accept, cancel)
        outcomes[c.status] += 1
    assert Game.objects.filter(seats__user=bob).distinct().count() == outcomes["accepted"]
    print(f"accept vs cancel: {dict(outcomes)}")


@pytest.mark.django_db(transaction=True)
def test_parallel_challenges_cannot_pass_the_pending_limit(users, monkeypatch):
    """Regression: the pending count was read without a lock, so parallel posts each saw room for one more."""
    _postgres()
    alice = users[0]
    monkeypatch.setattr(challenges, "MAX_PENDING", 3)
    for round_ in range(ROUNDS):
        Challenge.objects.filter(challenger=alice).delete()
        answers = _race(*[lambda: _http(alice, "post", "/api/v1/challenges", {"kind": "claim"})] * 8)
        codes = Counter(_code(a) for a in answers)
        assert codes == {(201, None): 3, (409, "too_many_challenges"): 5}, (round_, answers)
        assert Challenge.objects.filter(challenger=alice, status="pending").count() == 3


@pytest.mark.django_db(transaction=True)
def test_parallel_challenges_to_one_player_cannot_pass_its_limit(users):
    _postgres()
    alice = users[0]
    answers = _race(*[lambda: _http(alice, "post", "/api/v1/challenges", {"kind": "claim", "to": "bob"})] * 6)
    codes = Counter(_code(a) for a in answers)
    assert codes == {(201, None): challenges.MAX_PENDING_TO_ONE,
                     (409, "too_many_challenges_to_user"): 6 - challenges.MAX_PENDING_TO_ONE}, answers
    # another player may still be challenged
    assert _code(_http(alice, "post", "/api/v1/challenges", {"kind": "claim", "to": "carol"})) == (201, None)


@pytest.mark.django_db
def test_answers_after_cancel_or_expiry_and_to_oneself_are_clear_errors(users):
    """Both database modes (SQLite without DATABASE_URL)."""
    alice, bob, _, _ = users
    c = challenges.create(alice, to="bob", kind="claim")
    assert _code(_http(alice, "post", f"/api/v1/challenges/{c.pk}/cancel")) == (200, None)
    for action in ("accept", "decline", "cancel"):
        user = alice if action == "cancel" else bob
        status, body = _http(user, "post", f"/api/v1/challenges/{c.pk}/{action}")
        assert (status, body["error"]["code"]) == (409, "challenge_not_pending"), (action, body)
        assert "cancelled" in body["error"]["message"]
    c = challenges.create(alice, to="bob", kind="claim")
    Challenge.objects.filter(pk=c.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
    status, body = _http(bob, "post", f"/api/v1/challenges/{c.pk}/accept")
    assert (status, body["error"]["code"]) == (409, "challenge_expired"), body
    status, body = _http(bob, "post", f"/api/v1/challenges/{c.pk}/accept")  # marked expired by the first answer
    assert (status, body["error"]["code"]) == (409, "challenge_not_pending") and "expired" in body["error"]["message"]
    assert not Game.objects.filter(seats__user=bob).exists()
    for to in ("alice", "ALICE"):
        status, body = _http(alice, "post", "/api/v1/challenges", {"kind": "claim", "to": to})
        assert status == 400 and "to" in body["error"]["fields"], body
        assert "yourself" in body["error"]["message"]
    own = challenges.create(alice, to=None, kind="claim")
    assert _code(_http(alice, "post", f"/api/v1/challenges/{own.pk}/accept")) == (409, "own_challenge")


@pytest.mark.django_db
def test_making_challenges_reports_its_rate_limit_and_refuses_with_429(users, settings):
    alice = users[0]
    rates = {**settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], "games_create": "2/hour"}
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": rates}

    cache.clear()
    client = APIClient()
    client.force_authenticate(alice)
    for path in ("/api/v1/challenges", "/api/v1/seeks"):
        cache.clear()
        answers = [client.post(path, {"kind": "claim"}, format="json") for _ in range(3)]
        assert [r.status_code for r in answers] == [201, 201, 429], (path, [r.content for r in answers])
        assert '"games_create";q=2;w=3600' in answers[0]["RateLimit-Policy"], answers[0].headers
        assert '"games_create";r=1;' in answers[0]["RateLimit"]
        refused = answers[2]
        assert refused.json()["error"]["code"] == "throttled" and "Retry-After" in refused.headers
        assert '"games_create";r=0;' in refused["RateLimit"]


# --- seeks ---------------------------------------------------------------------------------------------------


def _seek(user: Any, **fields: Any) -> Seek:
    base = {"kind": "claim", "seats": 2, "days_per_move": 3, "options": {}, "rated": False, "rating_range": None}
    return Seek.objects.create(user=user, **{**base, **fields})


@pytest.mark.django_db(transaction=True)
def test_two_compatible_seeks_paired_at_once_make_one_game_without_a_deadlock(users):
    """Regression: each pairing locked its own seek, then the group in id order: A held, B wanted and the other
    way round, PostgreSQL's deadlock detector killed one (an OperationalError, a 500 on POST /seeks)."""
    _postgres()
    alice, bob, _, _ = users
    for round_ in range(ROUNDS):
        a, b = _seek(alice), _seek(bob)
        results = _race(lambda a=a: seeks.try_pair(a.pk), lambda b=b: seeks.try_pair(b.pk))
        assert not any(isinstance(r, BaseException) for r in results), (round_, results)
        games = [r for r in results if r is not None]
        assert len(games) == 1, (round_, results)
        assert set(Seek.objects.filter(pk__in=[a.pk, b.pk]).values_list("status", "game_id")) == {
            ("matched", games[0].pk)}
        Game.objects.filter(pk=games[0].pk).update(status=Game.Status.FINISHED)


@pytest.mark.django_db(transaction=True)
def test_pairings_of_one_seek_at_once_make_one_game(users):
    _postgres()
    alice, bob, _, _ = users
    for round_ in range(ROUNDS):
        a, b = _seek(alice), _seek(bob)
        results = _race(lambda a=a: seeks.try_pair(a.pk), lambda a=a: seeks.try_pair(a.pk),
                        lambda b=b: seeks.try_pair(b.pk), seeks.pair_all)
        assert not any(isinstance(r, BaseException) for r in results), (round_, results)
        made = Seek.objects.filter(pk__in=[a.pk, b.pk]).values_list("game_id", flat=True)
        assert len(set(made)) == 1 and None not in set(made), (round_, list(made))
        assert Game.objects.filter(seats__user=alice).exclude(status=Game.Status.FINISHED).count() == 1
        Game.objects.filter(seats__user=alice).update(status=Game.Status.FINISHED)


@pytest.mark.django_db(transaction=True)
def test_cancel_racing_a_pairing_is_one_or_the_other(users):
    _postgres()
    alice, bob, _, _ = users
    outcomes = Counter()
    for _ in range(ROUNDS * 2):
        a, b = _seek(alice), _seek(bob)
        cancel, paired = _race(lambda a=a: _http(alice, "delete", f"/api/v1/seeks/{a.pk}"),
                               lambda b=b: seeks.try_pair(b.pk))
        a.refresh_from_db()
        if a.status == "cancelled":
            assert cancel[0] == 204 and paired is None, (cancel, paired)
        else:
            assert a.status == "matched" and isinstance(paired, Game), (a.status, paired)
            status, body = cancel
            assert status == 409 and body["error"]["code"] == "seek_matched", cancel
            assert str(paired.pk) in body["error"]["message"]
            Game.objects.filter(pk=paired.pk).update(status=Game.Status.FINISHED)
        outcomes[a.status] += 1
        Seek.objects.filter(pk=b.pk, status="open").update(status="cancelled")
    print(f"cancel vs pairing: {dict(outcomes)}")


@pytest.mark.django_db(transaction=True)
def test_parallel_seek_posts_cannot_pass_the_open_seek_limit(users, settings):
    _postgres()
    alice = users[0]
    settings.SEEK_MAX_OPEN = 3
    for round_ in range(ROUNDS):
        Seek.objects.filter(user=alice).delete()
        answers = _race(*[lambda: _http(alice, "post", "/api/v1/seeks", {"kind": "claim"})] * 8)
        codes = Counter(_code(a) for a in answers)
        assert codes == {(201, None): 3, (409, "too_many_seeks"): 5}, (round_, answers)


@pytest.mark.django_db
def test_open_seeks_are_limited_and_a_matched_seek_cannot_be_cancelled(users, settings):
    """Both database modes."""
    alice, bob, _, _ = users
    settings.SEEK_MAX_OPEN = 2
    for _ in range(2):
        assert _code(_http(alice, "post", "/api/v1/seeks", {"kind": "claim", "seats": 2}))[0] == 201
    status, body = _http(alice, "post", "/api/v1/seeks", {"kind": "claim"})
    assert (status, body["error"]["code"]) == (409, "too_many_seeks") and "cancel one" in body["error"]["message"]
    status, body = _http(alice, "post", "/api/v1/seeks/quick", {"kind": "claim"})
    assert (status, body["error"]["code"]) == (409, "too_many_seeks")
    Seek.objects.filter(user=alice).update(status="cancelled")
    a = _seek(alice)
    game = seeks.try_pair(_seek(bob).pk)
    assert game is not None
    status, body = _http(alice, "delete", f"/api/v1/seeks/{a.pk}")
    assert (status, body["error"]["code"]) == (409, "seek_matched") and str(game.pk) in body["error"]["message"]
    status, body = _http(bob, "delete", f"/api/v1/seeks/{a.pk}")  # not bob's
    assert (status, body["error"]["code"]) == (404, "not_found")


@pytest.mark.django_db
def test_the_game_cap_reads_a_bounded_number_of_finished_games(users, settings):
    """A player's whole history is never counted: the finished games are counted under a LIMIT of what the
    cap can still use (SEEK_CAP_MAX - SEEK_CAP_BASE)."""
    alice, bob, _, _ = users
    settings.SEEK_CAP_BASE, settings.SEEK_CAP_MAX = 1, 3
    for _ in range(4):
        g = seeks.try_pair(_seek(alice).pk) or seeks.try_pair(_seek(bob).pk)
        assert g is not None
        Game.objects.filter(pk=g.pk).update(status=Game.Status.FINISHED)
    with CaptureQueriesContext(conn) as queries:
        assert seeks.game_cap(alice) == 3
    (sql,) = [q["sql"] for q in queries.captured_queries if "COUNT" in q["sql"].upper()]
    assert "LIMIT 2" in sql.upper(), sql
