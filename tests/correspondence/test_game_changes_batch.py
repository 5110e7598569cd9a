"""The batched ``game_changed`` path (``games.signals.dispatch_game_changes``, what the background task
runs): a batch does exactly what dispatching its changes one by one does (notifications, live pushes,
delivery and rating tasks, clocks), duplicates and out-of-order versions included; a failing receiver
or batch handler never stops the others; and a batch of plain moves costs a constant number of queries."""

from __future__ import annotations

import logging
from unittest import mock

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

import games.signals
from games import service
from games.clock import receivers as clock_receivers
from games.clock import service as clock_service
from games.models import Game, GameClock
from games.notify import receivers as notify_receivers
from games.notify.models import Notification, NotifySettings, Preference, PushSubscription
from games.notify.service import channels, channels_for
from games.realtime.presence import mark_absent, mark_present
from games.service._common import after_commit, lock_game, rules_of, seats_of
from games.service.moves import _commit_move
from games.signals import batched, dispatch_game_changed, dispatch_game_changes, game_changed
from games.tasks import game_changed_task

pytestmark = pytest.mark.django_db

DAY = 86400
BANK = {"type": "bank", "initial_seconds": 3 * DAY, "increment_seconds": DAY, "cap_seconds": int(3.5 * DAY)}


def _move(game_id: int) -> list:
    """The player to act plays their first legal move; its receivers do not run (no commit hooks run
    in the test's transaction), the tests dispatch the change themselves. Returns the change."""
    game = Game.objects.get(pk=game_id)
    seat = game.seats.filter(to_act=True).select_related("user").order_by("index").first()
    view = service.game_view_payload(service.queries.get_game(game_id), seat.user)
    body, applied = service.make_move(seat.user, game_id, view["version"], view["legal_moves"][0])
    assert applied
    return [game_id, body["version"], body["status"]]


def _move_not_ending_the_pause(game_id: int) -> list:
    """A move written without ending a pause itself, as an AI's turn is (``play_ai_turn``): the clock
    receiver ends the pause. (A player's move ends it in its own transaction: test_clock.py.)"""
    with transaction.atomic():
        game = lock_game(game_id)
        seats = seats_of(game)
        rules = rules_of(game)
        state = rules.from_json(game.state)
        seat = min(rules.to_act(state))
        new_state, events = rules.apply(state, seat, rules.legal_moves(state, seat)[0])
        _commit_move(game, seats, rules, seat, rules.legal_moves(state, seat)[0], new_state, events, None)
        after_commit(game, seats)
    return [game_id, game.version, game.status]


def _state(game_id: int) -> list:
    game = Game.objects.get(pk=game_id)
    return [game_id, game.version, game.status]


def _per_change(changes: list) -> None:
    for game_id, version, status in changes:
        dispatch_game_changed(game_id, version, status)


def _batch(changes: list) -> None:
    game_changed_task([list(c) for c in changes])  # the task's body, as the worker runs it


def _outcome(changes: list, dispatch, capture) -> tuple:
    """What ``dispatch(changes)`` does, then undone (savepoint): the notifications written (in creation
    order), the live pushes, the tasks enqueued (by task, in order), the clock receiver's writes (in
    order) and every clock and deadline. Notification ids are replaced by their rank so two runs compare."""
    sid = transaction.savepoint()
    pushes: list = []
    tasks: list = []
    writes: list = []

    def recorded(name, real):
        return lambda *args: (writes.append((name, *args)), real(*args))[1]

    before = max(Notification.objects.values_list("pk", flat=True), default=0)
    with (mock.patch("games.notify.live.push_to_sockets", side_effect=pushes.extend),
          mock.patch("claim.tasks.enqueue", side_effect=lambda task, *args, **kw: tasks.append((task.name, args))),
          mock.patch.object(clock_receivers, "_end_pause_by_move",
                            recorded("end_pause", clock_receivers._end_pause_by_move)),
          mock.patch.object(clock_service, "sync_bank_deadline",
                            recorded("sync_bank", clock_service.sync_bank_deadline)),
          capture(execute=True)):
        dispatch(changes)
    notes = list(Notification.objects.filter(pk__gt=before).order_by("pk"))
    rank = {n.pk: i for i, n in enumerate(notes)}
    rows = [(n.user_id, n.event, n.game_id, n.title, n.body, n.data, n.inbox, n.created_at) for n in notes]
    live = [(uid, {**item, "id": rank[item["id"]]}) for uid, item in pushes]
    by_task: dict[str, list] = {}
    for name, args in tasks:
        by_task.setdefault(name, []).append((rank[args[0]], *args[1:]) if name == "notify.deliver" else args)
    clocks = list(GameClock.objects.order_by("game_id").values_list(
        "game_id", "paused_at", "paused_version", "pause_requests", "bonus_seconds", "banks", "turn_started_at",
        "synced_version"))
    deadlines = list(Game.objects.order_by("pk").values_list("pk", "deadline"))
    transaction.savepoint_rollback(sid)
    return rows, live, by_task, clocks, deadlines, writes


@pytest.fixture
def world(make_user, play, clock, commit):
    """Games of every kind of change, whose latest changes have not been dispatched yet: ``changes`` in
    commit order (several games interleaved)."""
    a, b, c, d, e = (make_user(n) for n in ("ann", "bob", "cyd", "dan", "eve"))
    PushSubscription.objects.create(user=d, endpoint="https://push.example/d", p256dh="k", auth="a")
    Preference.objects.create(user=c, event="opponent_moved", inapp=False, push=False, email=False)
    Preference.objects.create(user=b, event="your_turn", inapp=False, push=False, email=True)  # e-mail only
    plain = play.game(a, b, rated=False)
    pushed = play.game(c, d, rated=False)
    three = play.game(a, c, e, kind="inheritors")
    over = play.game(a, e)
    with commit():
        bank = service.create_game(a, "claim", opponents=[{"type": "user", "username": "dan"}], time_control=BANK,
                                   rated=True)
        service.join_game(d, bank.pk)
    with commit():
        paused = service.create_game(b, "claim", opponents=[{"type": "user", "username": "eve"}],
                                     time_control=BANK, rated=True)
        service.join_game(e, paused.pk)
    mark_present(a.pk, plain.pk)  # ann looks at the table: never told about it
    changes = [_move(plain.pk), _move(pushed.pk), _move(three.pk), _move(bank.pk), _move(plain.pk)]
    clock_service.request_pause(b, paused.pk)
    clock_service.request_pause(e, paused.pk)
    changes += [_state(paused.pk), _move(three.pk), _move(pushed.pk)]
    changes += [_move_not_ending_the_pause(paused.pk), _move(bank.pk),
                _move_not_ending_the_pause(paused.pk)]  # a move ends the pause, then another
    challenge = service.create_game(e, "claim", opponents=[{"type": "user", "username": "ann"}])
    changes.append(_state(challenge.pk))
    changes.append([over.pk, over.version, "active"])  # an old version seen late
    service.resign(e, over.pk)
    changes += [_state(over.pk), _move(three.pk)]
    assert len({game_id for game_id, *_ in changes}) == 7
    return changes


def test_a_batch_does_what_dispatching_each_change_does(world, django_capture_on_commit_callbacks):
    one_by_one = _outcome(world, _per_change, django_capture_on_commit_callbacks)
    batched = _outcome(world, _batch, django_capture_on_commit_callbacks)
    assert batched == one_by_one
    rows, live, tasks, clocks, _, writes = batched
    assert {name for name, *_ in writes} == {"end_pause", "sync_bank"}
    events = {event for _, event, *_ in rows}
    assert events == {"your_turn", "opponent_moved", "challenge_received", "game_over"}, events
    assert live and tasks["notify.deliver"] and tasks["ratings.rate_game"], tasks
    paused = world[5][0]
    assert {game_id: paused_at for game_id, paused_at, *_ in clocks}[paused] is None, "a move ended the pause"
    assert GameClock.objects.get(game_id=paused).paused_at is not None, "undone (savepoint)"


def test_duplicates_and_out_of_order_versions_in_a_batch(world, django_capture_on_commit_callbacks):
    mixed = [*reversed(world), world[0], world[3], world[-1], world[0], world[10], world[10]]
    one_by_one = _outcome(mixed, _per_change, django_capture_on_commit_callbacks)
    batched = _outcome(mixed, _batch, django_capture_on_commit_callbacks)
    assert batched == one_by_one
    # Each change is handled as on its own: a version seen twice is announced twice, as per change.
    alone = [_outcome([c], _batch, django_capture_on_commit_callbacks)[0] for c in mixed]
    assert batched[0] == [row for rows in alone for row in rows]
    (note,) = alone[-1]
    assert batched[0].count(note) == mixed.count(world[10]) == 3
    # The move that ends the pause comes first here; the paused game's later (older or repeated) changes
    # find its clock no longer paused, as per change: the clock is read again after the pause ended.
    paused = world[10][0]
    writes = [(name, version) for name, game_id, version in batched[5] if game_id == paused]
    assert writes[0] == ("end_pause", world[10][1]) and {name for name, _ in writes[1:]} == {"sync_bank"}


def test_batches_are_split_into_chunks(world, django_capture_on_commit_callbacks, monkeypatch):
    whole = _outcome(world, _batch, django_capture_on_commit_callbacks)
    handler = getattr(notify_receivers.on_game_changed, games.signals._BATCH_ATTR)
    sizes: list[int] = []
    monkeypatch.setattr(notify_receivers.on_game_changed, games.signals._BATCH_ATTR,
                        lambda changes: (sizes.append(len(changes)), handler(changes))[1])
    monkeypatch.setattr(games.signals, "CHUNK", 4)
    assert _outcome(world, _batch, django_capture_on_commit_callbacks) == whole
    assert sizes == [4, 4, 4, 3] and len(world) == 15


def test_a_failing_batch_handler_falls_back_to_one_call_per_change(world, django_capture_on_commit_callbacks,
                                                                   monkeypatch, caplog):
    expected = _outcome(world, _per_change, django_capture_on_commit_callbacks)

    def broken(changes):
        raise RuntimeError("batch handler bug")

    monkeypatch.setattr(notify_receivers.on_game_changed, games.signals._BATCH_ATTR, broken)
    with caplog.at_level(logging.ERROR, logger="games.signals"):
        got = _outcome(world, _batch, django_capture_on_commit_callbacks)
    assert got == expected, "the same notifications, one change at a time"
    (failure,) = [r for r in caplog.records if "batch handler" in r.getMessage()]
    assert "running them one by one" in failure.getMessage() and failure.exc_info


def test_failing_receivers_never_stop_the_others(world, django_capture_on_commit_callbacks, caplog):
    expected = _outcome(world, _batch, django_capture_on_commit_callbacks)
    bad_game = world[0][0]
    calls: list = []

    def old_style(sender, game_id, version, status, **kwargs):  # connected the usual way: one call per change
        calls.append(("old", game_id, version))
        if game_id == bad_game:
            raise RuntimeError("receiver bug")

    def batch_handler(changes):
        calls.append(("batch", len(changes)))
        raise RuntimeError("batch bug")

    def with_batch(sender, game_id, version, status, **kwargs):
        calls.append(("fallback", game_id, version))
        raise RuntimeError("per-change bug too")

    batched(batch_handler)(with_batch)
    game_changed.connect(old_style, dispatch_uid="test.old_style")
    game_changed.connect(with_batch, dispatch_uid="test.with_batch")
    try:
        with caplog.at_level(logging.ERROR):
            got = _outcome(world, _batch, django_capture_on_commit_callbacks)
    finally:
        game_changed.disconnect(dispatch_uid="test.old_style")
        game_changed.disconnect(dispatch_uid="test.with_batch")
    assert got == expected, "notifications, clocks and ratings as without the broken receivers"
    assert [x for x in calls if x[0] == "old"] == [("old", g, v) for g, v, _ in world], "every change, in order"
    assert [x for x in calls if x[0] == "batch"] == [("batch", len(world))]
    assert [x for x in calls if x[0] == "fallback"] == [("fallback", g, v) for g, v, _ in world]
    failed = [r for r in caplog.records if "failed for game" in r.getMessage()]
    assert len(failed) == sum(1 for g, *_ in world if g == bad_game) + len(world)


def test_a_failing_clock_change_is_logged_and_the_others_go_on(world, django_capture_on_commit_callbacks,
                                                               monkeypatch, caplog):
    expected = _outcome(world, _batch, django_capture_on_commit_callbacks)

    def broken(game_id, version):
        raise RuntimeError("clock bug")

    monkeypatch.setattr(clock_receivers, "_end_pause_by_move", broken)
    with caplog.at_level(logging.ERROR, logger="games.clock"):
        rows, live, tasks, clocks, *_ = _outcome(world, _batch, django_capture_on_commit_callbacks)
    assert (rows, live, tasks) == expected[:3], "notifications and ratings unaffected"
    paused, bank = world[5][0], world[3][0]
    assert world[8][0] == world[10][0] == paused and world[9][0] == bank
    clocks, was = ({row[0]: row for row in rows} for rows in (clocks, expected[3]))
    assert clocks[bank] == was[bank], "the bank game's clock followed its moves"
    assert clocks[paused][1] is not None, "the pause was not ended"
    failed = [r.getMessage() for r in caplog.records if r.name == "games.clock"]
    # both moves of the paused game failed (the clock is read again after a failure: still paused)
    assert failed == [f"clock receiver failed for game {paused} v{world[i][1]}" for i in (8, 10)]


def _away_moves(make_user, play, n: int) -> list:
    changes = []
    for i in range(n):
        x, y = make_user(f"x{n}_{i}"), make_user(f"y{n}_{i}")
        game = play.game(x, y, rated=False)
        mark_absent(x.pk, game.pk)
        mark_absent(y.pk, game.pk)
        changes.append(_move(game.pk))
    return changes


def test_a_batch_of_moves_costs_a_constant_number_of_queries(make_user, play, django_assert_max_num_queries,
                                                             django_capture_on_commit_callbacks):
    counts = {}
    for n in (1, 3, 8):
        changes = _away_moves(make_user, play, n)
        before = Notification.objects.count()
        # clocks, history entries, seats, channels, one INSERT: for the whole batch
        with (django_capture_on_commit_callbacks(execute=False) as hooks, django_assert_max_num_queries(5),
              CaptureQueriesContext(connection) as ctx):
            dispatch_game_changes(changes)
        counts[n] = len(ctx.captured_queries)
        assert Notification.objects.count() == before + n, "one notification per move: the other player"
        assert len(hooks) == 1, "one live push for the whole batch (nowhere to deliver push or e-mail)"
    assert counts == {1: 5, 3: 5, 8: 5}, counts


def test_a_batch_watched_by_everyone_costs_two_queries(make_user, play, django_assert_max_num_queries,
                                                       django_capture_on_commit_callbacks):
    changes = _away_moves(make_user, play, 4)
    for game_id, *_ in changes:
        for seat in Game.objects.get(pk=game_id).seats.all():
            mark_present(seat.user_id, game_id)
    # the clocks and the history entries; the seats: and then every user concerned is at the table
    with django_capture_on_commit_callbacks(execute=False) as hooks, django_assert_max_num_queries(3):
        dispatch_game_changes(changes)
    assert hooks == []


@pytest.mark.parametrize("kind", ["sync", "async"])
def test_a_receiver_connected_the_usual_way_gets_each_change(world, kind):
    seen: list = []

    def receiver(sender, game_id, version, status, **kwargs):
        seen.append((game_id, version, status))

    async def async_receiver(sender, game_id, version, status, **kwargs):
        receiver(sender, game_id, version, status)

    connected = receiver if kind == "sync" else async_receiver
    game_changed.connect(connected)
    try:
        dispatch_game_changes(world[:4])
    finally:
        game_changed.disconnect(connected)
    assert seen == [tuple(c) for c in world[:4]]


def test_channels_of_several_events_in_one_query(make_user, django_assert_num_queries):
    plain, subscribed, picky, digest = (make_user(n) for n in ("plain", "subscribed", "picky", "digest"))
    PushSubscription.objects.create(user=subscribed, endpoint="https://push.example/s", p256dh="k", auth="a")
    Preference.objects.create(user=picky, event="your_turn", inapp=False, push=True, email=True)
    Preference.objects.create(user=picky, event="game_over", inapp=True, push=False, email=True)
    Preference.objects.create(user=digest, event="opponent_moved", inapp=True, push=True, email=True)
    NotifySettings.objects.create(user=digest, email_digest=True)
    users = [plain.pk, subscribed.pk, picky.pk, digest.pk, 987654]
    events = ["your_turn", "opponent_moved", "game_over", "challenge_received"]
    with django_assert_num_queries(1):
        got = channels_for(users, events)
    assert got == {(u, e): channels([u], e)[u] for u in users for e in events}
    assert got[(picky.pk, "your_turn")] == (False, False, True) and got[(picky.pk, "game_over")] == (True, False, True)
    assert channels_for([], events) == {} and channels_for(users, []) == {}


def test_a_join_and_the_joiners_move_in_one_batch_announce_one_turn(make_user, django_capture_on_commit_callbacks):
    """Issue 21: a join and a move dispatched in one batch gave the same player two your_turn (each change
    read the seats as they are now). A change that a later turn of its game supersedes announces nothing,
    one by one as in a batch."""
    ann, bob = make_user("ann"), make_user("bob")
    for _attempt in range(20):  # until bob, who joins, moves first
        game = service.create_game(ann, "claim", opponents=[{"type": "user", "username": "bob"}])
        service.join_game(bob, game.pk)
        if Game.objects.get(pk=game.pk).seats.get(user=bob).to_act:
            break
    else:
        pytest.skip("bob never moved first")
    joined = _state(game.pk)
    moved = _move(game.pk)
    for dispatch in (dispatch_game_changes, _per_change):
        Notification.objects.all().delete()
        with django_capture_on_commit_callbacks(execute=True):
            dispatch([joined, moved])
        turns = list(Notification.objects.filter(event="your_turn", game_id=game.pk).values_list("user__username",
                                                                                                  flat=True))
        assert turns == ["ann"], (dispatch.__name__, turns)
