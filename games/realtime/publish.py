"""Push each seated human their own view of a game after a committed change.

The game service calls :func:`publish_game_update` from ``transaction.on_commit`` after every
committed change (move, join, resign, abort, AI move, end)::

    transaction.on_commit(lambda: publish_game_update(game.id))

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
from collections.abc import Mapping

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from claim.loops import process_loop

logger = logging.getLogger(__name__)

#: Channel-layer message type; the consumer handles it in ``game_update``.
MESSAGE_TYPE = "game.update"


def user_group(user_id: int) -> str:
    """The channel-layer group every socket of ``user_id`` joins."""
    return f"user.{user_id}"


def load_game_and_seats(game_id: int):
    """``(game, seats)`` in one query (seats ordered by index, with their users), or ``(None, [])``.

    Every seat row carries the same ``Game`` instance, so ``seat.game`` costs nothing more.
    """
    from games.models import Seat

    seats = list(Seat.objects.select_related("game", "game__clock", "user").filter(game_id=game_id)
                 .order_by("index"))
    if not seats:
        return None, []
    game = seats[0].game
    for seat in seats:
        seat.game = game
    return game, seats


def build_messages(game_id: int, *, game=None, seats=None, views: Mapping[int, dict] | None = None,
                   parts=None) -> list[tuple[str, dict]]:
    """``(group, message)`` for each seated human of the game (empty if the game is gone).

    ``game``/``seats``: the committed game and its seats (with users) if the caller has them, to skip
    the load query. ``views``: ``{user_id: payload}`` already built for this version (e.g. the
    mover's answer), reused instead of building them again. ``parts``: the
    :class:`~games.service.payload.GameParts` of this version; built once here otherwise, so the
    per-game parts of the views are computed once for all users.
    """
    from games.service.payload import GameParts, game_view_payload

    if game is None or seats is None:
        game, seats = load_game_and_seats(game_id)
        parts = None
    if game is None:
        return []
    views = views or {}
    messages: list[tuple[str, dict]] = []
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
    return messages


async def _send_all(layer, messages: list[tuple[str, dict]]) -> None:
    for group, message in messages:
        await layer.group_send(group, message)


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
        else:
            async_to_sync(_send_all)(layer, messages)
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
        messages = build_messages(game_id, game=game, seats=seats, views=views, parts=parts)
    except Exception as exc:  # publishing must never break the move
        logger.warning("publish_game_update(%s) failed: %s: %s", game_id, type(exc).__name__, exc)
        return
    send_to_groups(messages, f"publish_game_update({game_id})")
