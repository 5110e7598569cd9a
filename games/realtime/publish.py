"""Push each seated human their own view of a game after a committed change.

:func:`on_game_committed` receives ``games.signals.game_committed``, which the game service sends on
commit after every committed change (move, join, resign, abort, AI move, end, clock), and calls
:func:`publish_game_update` (``games.apps`` connects it; the service does not import this module).

For every seat with a human user it builds ``game_view_payload(game, user)`` (that user's own
view, the same JSON as ``GET /api/v1/games/{id}``) and sends it to the user's group
``user.<user_id>``; the consumer (:mod:`games.realtime.consumers`) forwards it to the sockets
that subscribed to the game. A view is never sent to another user's group, so hidden information
of one seat cannot reach another seat's socket.

Publishing is best effort: any failure is logged as a warning and swallowed, so it can never undo
or fail a move. Clients detect a lost message by the version jump and resync.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Mapping
from typing import Any

import orjson
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from channels_redis.pubsub import RedisPubSubChannelLayer
from redis import asyncio as aioredis

from claim.loops import process_loop
from claim.private_api import create_pool, decode_hosts
from games.service._common import SEATS_GAME_CLOCK, game_and_seats

from .frames import change_frame, full_frame, full_frame_text, previous_views
from .lifecycle import EVENT_MESSAGE, lifecycle_messages

logger = logging.getLogger(__name__)

#: Channel-layer message type; the consumer handles it in ``game_update``.
MESSAGE_TYPE = "game.update"


def user_group(user_id: int) -> str:
    """The channel-layer group every socket of ``user_id`` joins."""
    return f"user.{user_id}"


def load_game_and_seats(game_id: int):
    """``(game, seats)`` in one query (seats ordered by index, with their users, the game and its clock),
    or ``(None, [])``. Every seat row carries the same ``Game`` instance, so ``seat.game`` costs nothing."""
    return game_and_seats(SEATS_GAME_CLOCK.fetch([game_id]))


def build_messages(game_id: int, *, game=None, seats=None, views: Mapping[int, dict] | None = None,
                   parts=None) -> list[tuple[str, dict]]:
    """The ``game.update`` messages of :func:`build_all` (without the lifecycle frames)."""
    return build_all(game_id, game=game, seats=seats, views=views, parts=parts)[0]


def build_all(game_id: int, *, game=None, seats=None, views: Mapping[int, dict] | None = None,
              parts=None) -> tuple[list[tuple[str, dict]], list[tuple[str, dict]]]:
    """``(group, message)`` for each seated human of the game (empty if the game is gone).

    ``game``/``seats``: the committed game and its seats (with users) if the caller has them, to skip
    the load query. ``views``: ``{user_id: payload}`` already built for this version (e.g. the
    mover's answer), reused instead of building them again. ``parts``: the
    :class:`~games.service.payload.GameParts` of this version; built once here otherwise, so the
    per-game parts of the views are computed once for all users.
    """
    from games.service.payload import GameParts, game_view_payload  # noqa: PLC0415 - read per call: tests patch it

    if game is None or seats is None:
        game, seats = load_game_and_seats(game_id)
        parts = None
    if game is None:
        return [], []
    views = views or {}
    built: dict[int, dict] = {}
    messages: list[tuple[str, dict]] = []
    owners: list[int] = []
    seen: set[int] = set()
    for seat in seats:
        user = seat.user
        if user is None or user.pk in seen:  # an AI or open seat
            continue
        seen.add(user.pk)
        view = views.get(user.pk)
        if view is None:
            if parts is None:
                parts = GameParts(game, seats)
            view = game_view_payload(game, user, seats=seats, parts=parts)
        messages.append(
            (user_group(user.pk), {"type": MESSAGE_TYPE, "game_id": game.pk, "version": game.version, "view": view})
        )
        built[user.pk] = view
        owners.append(user.pk)
    add_frames(game.pk, game.version, [(uid, message) for uid, (_, message) in zip(owners, messages, strict=True)])
    # game_started / game_finished for this version, if it is one (games/realtime/lifecycle.py)
    others = [(user_group(uid), message) for uid, message in lifecycle_messages(game, seats, built)]
    # the spectators' frame of this version, built once for all of them (games/realtime/spectators.py)
    return messages, others + _spectator_messages(game, seats, parts)


#: Builders of a committed version's further messages, registered by the apps that have some (games.spectate's
#: watch group frame, in games/apps.py): ``builder(game, seats, parts) -> [(group, message)]``.
VERSION_MESSAGE_BUILDERS: list[Callable[[Any, list[Any], Any], list[tuple[str, dict]]]] = []


def _spectator_messages(game, seats, parts) -> list[tuple[str, dict]]:
    """The version's messages of the registered builders (the spectators' frame: none while nobody watches).
    Never raises: the players' pushes go out whatever happens here."""
    out: list[tuple[str, dict]] = []
    for builder in VERSION_MESSAGE_BUILDERS:
        try:
            out.extend(builder(game, seats, parts))
        except Exception as exc:
            logger.warning("%s of game %s v%s failed: %s: %s", builder.__name__, game.pk, game.version,
                           type(exc).__name__, exc)
    return out


def add_frames(game_id: int, version: int, messages: list[tuple[int, dict]]) -> None:
    """Give each user's ``game.update`` message its full frame's text (``text``) and, where this process or the
    shared cache has that user's view of ``version - 1``, its change frame (``change``, with ``base``:
    :mod:`games.realtime.frames`); then remember this version's views for the next. Never raises: without a
    change frame, clients get the full one."""
    texts: dict[int, str] = {}
    for user_id, message in messages:
        texts[user_id] = orjson.dumps(message["view"]).decode()
        message["text"] = full_frame_text(game_id, version, texts[user_id])
    try:
        old_views = previous_views.get(game_id, version - 1) if version > 1 else None
        for user_id, message in messages:
            old = (old_views or {}).get(user_id)
            if old is not None:
                change = change_frame(game_id, version, old, orjson.loads(texts[user_id]))
                if change is not None:
                    message["base"], message["change"] = version - 1, change
        previous_views.put(game_id, version, texts)
    except Exception as exc:  # the full frames are enough: a change frame is only a saving
        logger.warning("change frames of game %s v%s failed: %s: %s", game_id, version, type(exc).__name__, exc)


async def _send_all(layer, messages: list[tuple[str, dict]], pipelined: bool = True) -> None:
    """Send on the layer; ``pipelined``: through the loop's :class:`_PubSubPublisher` where there is one
    (only on a loop that outlives the call: it sends after this returns)."""
    publisher = _pubsub_publisher(layer) if pipelined else None
    if publisher is not None:
        publisher.put(messages)
        return
    for group, message in messages:
        await layer.group_send(group, message)


class _PubSubPublisher:
    """``group_send`` for channels_redis' pub/sub layer, pipelined.

    The layer publishes one message per round trip under a lock it shares with its subscriptions, so at
    load the pushes of a process queue behind each other, one round trip each. This sends the same
    PUBLISH commands (the layer's channel names and serializer) from one task per event loop: whatever
    is queued goes out in one pipelined round trip, in the order it was queued. A failed round trip is
    logged and its messages are lost, like any push the layer fails to send (clients resync on a gap).
    """

    def __init__(self, layer, host) -> None:
        self.layer = layer
        self.loop_layer = layer._get_layer()
        self.client = aioredis.Redis(connection_pool=create_pool(host))
        self.queue: list[tuple[str, bytes]] = []
        self.wake = asyncio.Event()
        self.task = asyncio.ensure_future(self._run())

    def put(self, messages: list[tuple[str, dict]]) -> None:
        for group, message in messages:
            self.queue.append((self.loop_layer._get_group_channel_name(group), self.layer.serialize(_slim(message))))
        self.wake.set()

    async def _run(self) -> None:
        while True:
            await self.wake.wait()
            self.wake.clear()
            items, self.queue = self.queue, []
            if not items:
                continue
            try:
                async with self.client.pipeline(transaction=False) as pipe:
                    for channel, data in items:
                        pipe.publish(channel, data)
                    await pipe.execute()
            except Exception as exc:
                logger.warning("publishing %d socket messages failed: %s: %s", len(items), type(exc).__name__, exc)


def _slim(message: dict) -> dict:
    """A ``game.update`` as it travels through the layer: the frames' JSON text already written (``text``, the full
    frame; ``change`` and ``base`` where there is a change frame), without the view: encoded once by the
    publisher, not per socket, and cheaper through the layer's serializer than the nested view."""
    if message.get("type") != MESSAGE_TYPE or "view" not in message:
        return message
    slim = {key: value for key, value in message.items() if key != "view"}
    slim.setdefault("text", client_frame(message["game_id"], message["version"], message["view"]))
    return slim


def client_frame(game_id: int, version: int, view: dict) -> str:
    """The socket's full frame of a game view (docs/realtime.md): ``{"type": "game", "game_id", "version", "view"}``."""
    return full_frame(game_id, version, view)


_publishers: dict[int, tuple[asyncio.AbstractEventLoop, _PubSubPublisher]] = {}


def _pubsub_publisher(layer) -> _PubSubPublisher | None:
    """The pipelined publisher of the running loop for a one-host pub/sub layer, else None."""
    if not isinstance(layer, RedisPubSubChannelLayer):
        return None
    hosts = layer._kwargs.get("hosts") or (layer._args[0] if layer._args else None)
    if not hosts or len(hosts) != 1:
        return None
    loop = asyncio.get_running_loop()
    found = _publishers.get(id(layer))
    if found is None or found[0] is not loop or found[1].task.done():
        found = _publishers[id(layer)] = (loop, _PubSubPublisher(layer, decode_hosts(hosts)[0]))
    return found[1]


def send_frames(items: list[tuple[int, dict[str, Any]]], what: str) -> None:
    """Typed events to users' sockets and account streams: ``items`` are ``(user id, frame)``. Never raises."""
    send_to_groups([(user_group(uid), {"type": EVENT_MESSAGE, "frame": frame}) for uid, frame in items], what)


def send_to_groups(messages: list[tuple[str, dict]], what: str) -> None:
    """Send ``(group, message)`` pairs on the channel layer. Never raises: a failure is logged as a
    warning naming ``what``. Where the process has an event loop for it (a request thread of the ASGI
    server, a Celery worker: :mod:`claim.loops`), the sends are handed to it and the caller goes on
    without waiting for Redis; elsewhere (management commands, tests) it sends and waits."""

    def log_failure(future) -> None:
        exc = None if future.cancelled() else future.exception()
        if exc is not None:
            logger.warning("%s failed: %s: %s", what, type(exc).__name__, exc)

    try:
        layer = get_channel_layer()
        if layer is None or not messages:
            return
        loop = process_loop()
        if loop is not None:
            asyncio.run_coroutine_threadsafe(_send_all(layer, messages), loop).add_done_callback(log_failure)
        else:  # a loop for this call only: send and wait, not through a publisher that would outlive it
            async_to_sync(_send_all)(layer, messages, pipelined=False)
    except Exception as exc:  # sending must never break what caused it
        logger.warning("%s failed: %s: %s", what, type(exc).__name__, exc)


def publish_game_update(game_id: int, *, game=None, seats=None, views: Mapping[int, dict] | None = None,
                        parts=None) -> None:
    """Send each seated human their own view of game ``game_id``. Never raises.

    The optional arguments only save work (see :func:`build_messages`); pass them only with the
    state that was committed, e.g. from the ``on_commit`` hook of the transaction that changed it.
    The views are built here, before returning; :func:`send_to_groups` sends them.
    """
    try:
        updates, lifecycle = build_all(game_id, game=game, seats=seats, views=views, parts=parts)
        messages = updates + lifecycle
    except Exception as exc:  # publishing must never break the move
        logger.warning("publish_game_update(%s) failed: %s: %s", game_id, type(exc).__name__, exc)
        return
    send_to_groups(messages, f"publish_game_update({game_id})")


def on_game_committed(sender: Any, game_id: int, game: Any = None, seats: Any = None,
                      views: Mapping[int, dict] | None = None, parts: Any = None, **kwargs: Any) -> None:
    """``game_committed`` receiver: publish the committed version (reusing what the service built)."""
    if game is None:
        publish_game_update(game_id)
    else:
        publish_game_update(game_id, game=game, seats=seats, views=views, parts=parts)


def on_credentials_changed(sender: Any, user_id: int, **kwargs: Any) -> None:
    """``accounts.signals.credentials_changed`` receiver: every open socket of the user re-checks its
    credential (``auth.recheck``, :mod:`games.realtime.consumers`)."""
    send_to_groups([(user_group(user_id), {"type": "auth.recheck"})], "credential re-check")
