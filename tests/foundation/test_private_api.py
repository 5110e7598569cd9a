"""The libraries' private shapes this project relies on (claim/private_api.py lists them), and the wrappers
over them: an upgrade that changes one fails here, naming it."""

from __future__ import annotations

import asyncio
import gc
import inspect
import threading
from unittest import mock

import pytest
from asgiref.sync import SyncToAsync, sync_to_async
from channels_redis.pubsub import RedisPubSubChannelLayer
from django.conf import settings
from django.core.handlers.asgi import ASGIHandler
from django.db import connection
from django.db.models import Field
from django.dispatch import Signal
from django.test import RequestFactory
from drf_spectacular.openapi import AutoSchema
from redis.asyncio import ConnectionPool
from rest_framework.request import Request
from urllib3.connection import HTTPSConnection

from claim import loops, private_api
from games.models import Game, GameClock, Seat
from games.realtime import publish
from games.signals import commit_hooks


class _Sender:
    pass


def _sync_a(**kwargs):
    return "a"


def _sync_b(**kwargs):
    return "b"


async def _async_c(**kwargs):
    return "c"


# --- Django signals: Signal._live_receivers ------------------------------------------------------

def test_signal_live_receivers_has_the_shape_the_wrapper_reads():
    signal = Signal()
    signal.connect(_sync_a, sender=_Sender)
    found = signal._live_receivers(_Sender)
    assert isinstance(found, tuple) and len(found) == 2
    assert found[0] == [_sync_a] and found[1] == []


@pytest.mark.parametrize("use_caching", [False, True])
def test_live_receivers_are_the_ones_send_calls_in_connection_order(use_caching):
    signal = Signal(use_caching=use_caching)

    def gone(**kwargs):
        return "gone"

    signal.connect(_sync_b, sender=_Sender)
    signal.connect(_async_c, sender=_Sender)
    signal.connect(gone, sender=_Sender)  # weakly referenced: collected below
    signal.connect(_sync_a)  # any sender
    signal.connect(_sync_a, sender=Game)  # another sender only
    del gone
    gc.collect()
    sync_receivers, async_receivers = private_api.live_receivers(signal, _Sender)
    assert sync_receivers == [_sync_b, _sync_a]
    assert async_receivers == [_async_c]
    signal.disconnect(_async_c, sender=_Sender)
    assert [receiver for receiver, _ in signal.send(sender=_Sender)] == private_api.live_receivers(signal, _Sender)[0]
    assert private_api.live_receivers(Signal(), _Sender) == ([], [])


def test_the_game_signals_hooks_run_each_receiver_of_the_signal():
    signal = Signal()
    calls = []
    signal.connect(lambda **kw: calls.append(("first", kw["game_id"])), sender=Game, weak=False)
    signal.connect(lambda **kw: calls.append(("second", kw["game_id"])), sender=Game, weak=False)
    hooks = commit_hooks(signal, game_id=7)
    assert [robust for _, robust in hooks] == [True, True]
    for hook, _ in hooks:
        hook()
    assert calls == [("first", 7), ("second", 7)]


# --- asgiref: SyncToAsync.threadlocal ------------------------------------------------------------

def test_sync_to_async_threadlocal_is_a_thread_local():
    assert isinstance(SyncToAsync.threadlocal, threading.local)


def test_no_sync_to_async_loop_outside_its_threads():
    # a thread asgiref did not start for a sync_to_async call (the main thread may have run one of an earlier
    # test's calls itself, thread_sensitive, so it is not asked here)
    seen = []
    thread = threading.Thread(target=lambda: seen.append(private_api.sync_to_async_loop()))
    thread.start()
    thread.join()
    assert seen == [None]


@pytest.mark.parametrize("thread_sensitive", [True, False])
async def test_the_sync_to_async_loop_is_the_callers_loop(thread_sensitive, monkeypatch):
    monkeypatch.setattr(loops, "_loop", None)  # no recorded loop: process_loop falls back to asgiref's
    monkeypatch.setattr(loops, "_loop_pid", None)
    running = asyncio.get_running_loop()
    found = await sync_to_async(private_api.sync_to_async_loop, thread_sensitive=thread_sensitive)()
    assert found is running
    assert await sync_to_async(loops.process_loop, thread_sensitive=thread_sensitive)() is running


# --- channels_redis: the pub/sub layer's internals (games.realtime.publish) -----------------------

def test_channels_redis_utils_hosts_and_pool():
    hosts = private_api.decode_hosts(["redis://127.0.0.1:6379/5"])
    assert hosts == [{"address": "redis://127.0.0.1:6379/5"}]
    pool = private_api.create_pool(hosts[0])
    assert isinstance(pool, ConnectionPool)
    assert pool.connection_kwargs["db"] == 5


def test_pubsub_layer_keeps_its_constructor_arguments():
    by_keyword = RedisPubSubChannelLayer(hosts=["redis://127.0.0.1:6379/5"], prefix="p")
    assert by_keyword._kwargs["hosts"] == ["redis://127.0.0.1:6379/5"] and by_keyword._args == ()
    by_position = RedisPubSubChannelLayer(["redis://127.0.0.1:6379/5"])
    assert by_position._args[0] == ["redis://127.0.0.1:6379/5"] and by_position._kwargs == {}
    assert by_keyword.deserialize(by_keyword.serialize({"type": "x", "n": 1})) == {"type": "x", "n": 1}


async def test_pubsub_loop_layer_names_group_channels():
    layer = RedisPubSubChannelLayer(hosts=["redis://127.0.0.1:6379/5"], prefix="p")
    loop_layer = layer._get_layer()
    assert loop_layer is layer._get_layer()  # one per running loop
    name = loop_layer._get_group_channel_name("user.1")
    assert isinstance(name, str) and "user.1" in name and name != loop_layer._get_group_channel_name("user.2")


@pytest.mark.skipif(not settings.REDIS_URL, reason="needs Redis (REDIS_URL)")
async def test_the_pipelined_publisher_reaches_the_layers_group_subscribers():
    layer = RedisPubSubChannelLayer(hosts=[settings.REDIS_URL], prefix="private-api-test")
    channel = await layer.new_channel()
    await layer.group_add("user.42", channel)
    publisher = publish._pubsub_publisher(layer)
    assert publisher is not None
    try:
        publisher.put([("user.42", {"type": "notice", "n": 1})])
        assert await asyncio.wait_for(layer.receive(channel), 5) == {"type": "notice", "n": 1}
    finally:
        publisher.task.cancel()
        publish._publishers.pop(id(layer), None)
        await publisher.client.aclose()
        await layer.flush()


# --- claim.rowsql: the ORM's and the backends' internals -------------------------------------------

def test_options_concrete_fields_and_auto_field():
    fields = Game._meta.concrete_fields
    assert all(isinstance(f, Field) and f.attname and f.column for f in fields)
    assert Game._meta.auto_field is Game._meta.pk and Game._meta.pk in fields


def test_field_column_expression_and_converters():
    field = Game._meta.get_field("state")
    col = field.get_col(Game._meta.db_table)
    assert col.target is field and col.output_field is field
    converters = connection.ops.get_db_converters(col)
    assert isinstance(converters, list) and all(callable(fn) for fn in converters)


def test_relations_target_fields_and_cached_values():
    forward = Seat._meta.get_field("game")
    assert forward.target_field is Game._meta.pk
    seat, game = Seat(), Game()
    forward.set_cached_value(seat, game)
    assert seat.game is game
    reverse = Game._meta.get_field("clock")  # the reverse one-to-one
    assert reverse.field is GameClock._meta.get_field("game")
    clock = GameClock()
    reverse.field.remote_field.set_cached_value(game, clock)
    assert game.clock is clock


def test_backend_operations_and_features():
    assert connection.ops.quote_name("game") in ('"game"', "`game`")
    for feature in ("can_return_columns_from_insert", "has_select_for_update", "has_select_for_no_key_update",
                    "has_select_for_update_of"):
        assert isinstance(getattr(connection.features, feature), bool), feature


# --- urllib3 (games.notify.endpoints), drf-spectacular (claim.strict_fields), DRF (views) ---------

def test_urllib3_connects_to_its_dns_host():
    conn = HTTPSConnection("push.example", 443)
    assert conn._dns_host == "push.example"
    conn._dns_host = "203.0.113.5"  # what games.notify.endpoints pins
    with (mock.patch("urllib3.util.connection.create_connection", side_effect=OSError("stop")) as connect,
          pytest.raises(Exception, match="stop")):
        conn._new_conn()
    assert connect.call_args.args[0] == ("203.0.113.5", 443)


def test_spectacular_maps_a_basic_serializer():
    parameters = list(inspect.signature(AutoSchema._map_basic_serializer).parameters)
    assert parameters[:3] == ["self", "serializer", "direction"]


def test_drf_request_wraps_the_django_request():
    django_request = RequestFactory().get("/")
    assert Request(django_request)._request is django_request


def test_django_asgi_handler_wraps_handle_in_a_thread_sensitive_context():
    """StreamsHandler replaces ``__call__`` by its body minus the context: both shapes must still be Django's."""


    assert list(inspect.signature(ASGIHandler.handle).parameters) == ["self", "scope", "receive", "send"]
    source = inspect.getsource(ASGIHandler.__call__)
    assert "ThreadSensitiveContext" in source and "self.handle(scope, receive, send)" in source, source
