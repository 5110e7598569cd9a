"""The events socket at ``/ws/``: a player's stream of their own game views (docs/realtime.md).

Authentication is done by ``accounts.ws_auth`` (session cookie or ``clm_…`` token). The socket is
always *accepted* first and then, if the caller may not use it, sent one ``error`` message and
closed with an application close code, because a rejected handshake reaches a browser only as an
anonymous 1006 with no reason:

* ``4401``: no session and no token, or an invalid/revoked token;
* ``4403``: a valid token without the ``games:read`` scope (``bot:play`` of a bot account includes it).

Every connection joins the channel-layer group ``user.<id>``. The publisher
(:mod:`games.realtime.publish`) sends each seated user *their own* view to that group; this
consumer forwards it to the client only for games the client subscribed to (or all games after
``{"type": "subscribe", "games": "all"}``), and never sends an older version after a newer one.
New in-app notifications (:mod:`games.notify.live`) reach every socket of the user; the game on
screen marks the user present, and connecting and every ``ping`` mark the user online (:mod:`games.realtime.presence`).
"""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any

from channels.auth import get_user
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.utils import timezone

from accounts.authentication import effective_scopes, token_still_valid
from claim.ids import is_id
from claim.parsers import loads
from games.realtime import spectators as live
from games.spectate import counts as spectator_counts
from games.spectate.access import watch_group

from . import limits, queries
from . import tournament_watch as tournaments
from .frames import frame_for
from .presence import mark_absent, mark_online, mark_present
from .publish import client_frame, user_group
from .watch import watch

logger = logging.getLogger(__name__)

CLOSE_UNAUTHENTICATED = 4401
CLOSE_FORBIDDEN = 4403
READ_SCOPE = "games:read"
#: Most explicit game ids one socket may follow (``"all"`` has no limit).
MAX_SUBSCRIPTIONS = 500
#: Client messages are small; anything bigger is refused without parsing.
MAX_MESSAGE_CHARS = 16 * 1024


class BadRequest(Exception):
    """A client message we answer with ``{"type": "error"}``; the text is for the client, ``code`` (if any) says
    which refusal it is."""

    def __init__(self, message: str, code: str | None = None) -> None:
        super().__init__(message)
        self.code = code


def _game_ids(value: Any) -> list[int] | str:
    """Validate the ``games`` field: ``"all"`` or a list of positive integer ids (deduplicated)."""
    if value == "all":
        return "all"
    if not isinstance(value, list) or not value:
        raise BadRequest('"games" must be "all" or a non-empty list of game ids.')
    if len(value) > MAX_SUBSCRIPTIONS:
        raise BadRequest(f'"games" may list at most {MAX_SUBSCRIPTIONS} ids; use "all" to follow every game.')
    ids: list[int] = []
    for item in value:
        if not is_id(item):
            raise BadRequest(f'"games" must contain game ids (positive integers), got {json.dumps(item)[:40]}.')
        if item not in ids:
            ids.append(item)
    return ids


class EventsConsumer(AsyncJsonWebsocketConsumer):
    """One player's socket. State: which games it follows and the last version sent per game."""

    async def connect(self) -> None:
        self.user = None
        self.follow_all = False
        self.subscribed: set[int] = set()
        self.sent_versions: dict[int, int] = {}
        self.group: str | None = None
        self.viewing: int | None = None  # the game the user has open on screen right now
        self.notifications_on = True  # {"type": "notifications", "enabled": false} silences them (bots)
        self.patches = False  # {"type": "frames", "format": "patch"}: change frames (games.realtime.frames)
        self.expiry: asyncio.TimerHandle | None = None  # an OAuth token's end: re-check then (auth_recheck)
        self.holds: list[str] = []  # what this socket counts against the caps of games.realtime.limits
        self.watching: dict[int, list[int]] = {}  # watched game id -> its players' user ids ("watch")
        self.watch_versions: dict[int, int] = {}  # the last spectator_game version sent per watched game
        self.watch_refresher: asyncio.Task | None = None  # keeps this socket counted (games.spectate.counts)
        self.tournaments: set[int] = set()  # watched tournaments ("watch_tournament")
        self.seen = tournaments.Seen()  # the tournament events forwarded (an entrant's come by two groups)

        await self.accept()
        if not await self._hold(limits.address_key(self.scope), limits.connections_per_address(),
                                "too_many_connections", "open sockets and streams from one address"):
            return
        user = self.scope.get("user")
        token = self.scope.get("token")
        if self.scope.get("token_invalid") or user is None or not user.is_authenticated:
            await self._refuse(CLOSE_UNAUTHENTICATED, "unauthenticated",
                               "Log in, or pass a valid API token (?token=clm_… or Authorization: Bearer).")
            return
        if token is not None and READ_SCOPE not in effective_scopes(token.scopes, user.is_bot):
            await self._refuse(CLOSE_FORBIDDEN, "forbidden",
                               f"This token lacks the scope {READ_SCOPE} (or bot:play on a bot account).")
            return
        if not await self._hold(limits.user_socket_key(user.pk), limits.sockets_per_user(), "too_many_sockets",
                                "open sockets per player"):
            return
        self.user = user
        self.group = user_group(user.pk)
        await self.channel_layer.group_add(self.group, self.channel_name)
        watch().add(user.pk, self.channel_name)  # a deactivated account's socket closes (games.realtime.watch)
        expires = getattr(token, "expires", None)  # OAuth access tokens expire; personal tokens do not
        if expires is not None:
            delay = max(0.0, (expires - timezone.now()).total_seconds()) + 0.5
            self.expiry = asyncio.get_running_loop().call_later(delay, lambda: asyncio.ensure_future(
                self.channel_layer.send(self.channel_name, {"type": "auth.recheck"})))
        await database_sync_to_async(mark_online)(user.pk)  # online while it pings (friends, bots' list)

    async def _hold(self, key: str, limit: int, error: str, what: str) -> bool:
        """Count this socket under ``key`` (released in :meth:`disconnect`); past ``limit``, refuse it (4429)."""
        if limits.take(key, limit):
            self.holds.append(key)
            return True
        await self._refuse(limits.CLOSE_TOO_MANY, error, f"At most {limit} {what} on this server: close one "
                                                         f"(another tab or device) and connect again.")
        return False

    async def _refuse(self, code: int, error: str, message: str) -> None:
        await self.send_json({"type": "error", "code": error, "message": message})
        await self.close(code=code)

    async def disconnect(self, code: int) -> None:
        for key in getattr(self, "holds", ()):
            limits.release(key)
        self.holds = []
        if self.expiry is not None:
            self.expiry.cancel()
        for game_id in list(getattr(self, "watching", ())):
            await self._stop_watching(game_id)
        for tournament_id in list(getattr(self, "tournaments", ())):
            await self.channel_layer.group_discard(tournaments.tournament_group(tournament_id), self.channel_name)
        self.tournaments = set()
        refresher = getattr(self, "watch_refresher", None)
        if refresher is not None:
            refresher.cancel()
            self.watch_refresher = None
        if self.viewing is not None and self.user is not None:
            await database_sync_to_async(mark_absent)(self.user.pk, self.viewing)
            self.viewing = None
        if self.group is not None and self.user is not None:  # (the group is set with the user)
            watch().discard(self.user.pk, self.channel_name)
            await self.channel_layer.group_discard(self.group, self.channel_name)
            self.group = None

    # --- client → server -----------------------------------------------------------------------

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None, **kwargs) -> None:
        if self.user is None:  # refused sockets are closing; ignore whatever still arrives
            return
        if text_data is None:
            await self._error("Send JSON text frames, not binary frames.")
            return
        if len(text_data) > MAX_MESSAGE_CHARS:
            await self._error(f"Message too long (at most {MAX_MESSAGE_CHARS} characters).")
            return
        try:  # bounded like the API's bodies (depth, NUL, lone surrogates): claim/parsers.py
            content = loads(text_data)
        except ValueError as exc:
            await self._error(f"Malformed JSON. ({exc})")
            return
        await self.receive_json(content)

    async def receive_json(self, content: Any, **kwargs) -> None:
        ref = content.get("id") if isinstance(content, dict) else None
        try:
            if not isinstance(content, dict):
                raise BadRequest('A message must be a JSON object with a "type".')
            kind = content.get("type")
            handler = self.HANDLERS.get(kind) if isinstance(kind, str) else None
            if handler is None:
                known = ", ".join(sorted(self.HANDLERS))
                raise BadRequest(f"Unknown message type {json.dumps(kind)[:40]}; known types: {known}.")
            reply = await handler(self, content)
        except BadRequest as exc:
            await self._error(str(exc), ref, exc.code)
            return
        except Exception:  # a bug must not kill the socket; the client may retry or resync
            logger.exception("events socket: handling a %r message failed", content.get("type"))
            await self._error("Internal error; try again or fetch GET /api/v1/games/{id}.", ref)
            return
        if reply is not None:
            await self._reply(reply, ref)

    async def _reply(self, message: dict, ref: Any = None) -> None:
        if ref is not None and isinstance(ref, (str, int)) and not isinstance(ref, bool):
            message["id"] = ref
        await self.send_json(message)

    async def _error(self, message: str, ref: Any = None, code: str | None = None) -> None:
        await self._reply({"type": "error", "message": message, **({"code": code} if code else {})}, ref)

    @property
    def me(self) -> Any:
        """The socket's user, for the message handlers: :meth:`receive` calls them only once it is set."""
        assert self.user is not None
        return self.user

    async def on_ping(self, content: dict) -> dict:
        await database_sync_to_async(mark_online)(self.me.pk)  # online while it pings (games.realtime.presence)
        if self.viewing is not None:  # keep the presence of the open game fresh
            await database_sync_to_async(mark_present)(self.me.pk, self.viewing)
        return {"type": "pong"}

    async def on_viewing(self, content: dict) -> dict:
        """``{"type": "viewing", "game_id": id | null}``: the game the user has open right now.

        No notification (push, e-mail) is sent for a game the user is looking at (issue 6); the
        presence lasts while the socket pings (at least every 60 s) and ends with the socket.
        """
        game_id = content.get("game_id")
        if game_id is not None and not is_id(game_id):
            raise BadRequest('"viewing" needs "game_id": a game id (positive integer) or null.')
        if game_id is not None:
            versions = await database_sync_to_async(queries.seated_game_versions)(self.me.pk, [game_id])
            if game_id not in versions:
                raise BadRequest(f"Not one of your games: {game_id}.")
        if self.viewing is not None and self.viewing != game_id:
            await database_sync_to_async(mark_absent)(self.me.pk, self.viewing)
        self.viewing = game_id
        if game_id is not None:
            await database_sync_to_async(mark_present)(self.me.pk, game_id)
        return {"type": "viewing", "game_id": game_id}

    async def on_notifications(self, content: dict) -> dict:
        """``{"type": "notifications", "enabled": false}``: this socket no longer gets ``notification``
        frames (a bot needs none; lifecycle and challenge events still come). ``true`` turns them back on."""
        enabled = content.get("enabled")
        if not isinstance(enabled, bool):
            raise BadRequest('"notifications" needs "enabled": true or false.')
        self.notifications_on = enabled
        return {"type": "notifications", "enabled": enabled}

    async def on_frames(self, content: dict) -> dict:
        """``{"type": "frames", "format": "patch"}``: from now on a change of a game comes as a change frame (what
        changed: ``base``, ``events``, an RFC 6902 ``patch``) where the server has one, instead of the full view;
        ``"view"`` (the default) turns full frames back on. ``sync`` always answers with the full view."""
        mode = content.get("format")
        if mode not in ("patch", "view"):
            raise BadRequest('"frames" needs "format": "patch" or "view".')
        self.patches = mode == "patch"
        return {"type": "frames", "format": mode}

    async def on_subscribe(self, content: dict) -> dict:
        games = _game_ids(content.get("games"))
        if games == "all":
            self.follow_all = True
            return {"type": "subscribed", "games": "all"}
        versions = await database_sync_to_async(queries.seated_game_versions)(self.me.pk, games)
        missing = [g for g in games if g not in versions]
        if len(self.subscribed | set(versions)) > MAX_SUBSCRIPTIONS:
            raise BadRequest(f"At most {MAX_SUBSCRIPTIONS} games per socket; use \"all\" to follow every game.")
        self.subscribed.update(versions)
        if missing:
            # Same words for "does not exist" and "not yours": the socket must not reveal game ids.
            await self._error(f"Not one of your games: {', '.join(map(str, missing))}.", content.get("id"))
        ordered = [g for g in games if g in versions]
        return {"type": "subscribed", "games": ordered, "versions": {str(g): versions[g] for g in ordered}}

    async def on_unsubscribe(self, content: dict) -> dict:
        games = _game_ids(content.get("games"))
        if isinstance(games, str):  # "all"
            self.follow_all = False
            self.subscribed.clear()
            self.sent_versions.clear()
        else:
            self.subscribed.difference_update(games)
            for g in games:
                self.sent_versions.pop(g, None)
        return {"type": "unsubscribed", "games": games}

    async def on_sync(self, content: dict) -> dict:
        game_id = content.get("game_id")
        if not is_id(game_id):
            raise BadRequest('"sync" needs "game_id": a game id (positive integer).')
        current = await database_sync_to_async(queries.current_view)(self.me, game_id)
        if current is None:
            raise BadRequest(f"Not one of your games: {game_id}.")
        self.sent_versions[game_id] = max(self.sent_versions.get(game_id, 0), current["version"])
        return {"type": "game", **current}

    # --- spectating (issue 35; games/realtime/spectators.py) ---------------------------------------------

    async def on_watch(self, content: dict) -> dict | None:
        """``{"type": "watch", "game_id": N}``: watch a game as a spectator. Answered ``watching`` (with the
        current version) then the ``spectator_game`` frame; then one ``spectator_game`` frame per new version, in
        order, until ``unwatch``, the game's end (its final frame is the last), or ``watch_ended``. Refused
        with the REST endpoint's words when the game may not be watched (games.spectate.access.may_watch); at
        most ``MAX_WATCHED`` games per socket."""
        game_id = content.get("game_id")
        if not is_id(game_id):
            raise BadRequest('"watch" needs "game_id": a game id (positive integer).')
        if game_id not in self.watching and len(self.watching) >= live.MAX_WATCHED:
            raise BadRequest(f"At most {live.MAX_WATCHED} watched games per socket: unwatch one first.")
        again = game_id in self.watching
        if not again and not await database_sync_to_async(live.may_watch_game)(game_id, self.me):
            raise BadRequest(live.NOT_FOUND)  # refused before joining: the watch group's lines never reach it
        # joined and counted first, read second: no version falls between the two
        await self.channel_layer.group_add(watch_group(game_id), self.channel_name)
        count = await database_sync_to_async(spectator_counts.watch_started)(game_id, self.channel_name)
        target = await database_sync_to_async(live.watch_target)(game_id, self.me, count)
        if target is None:
            if not again:
                await self.channel_layer.group_discard(watch_group(game_id), self.channel_name)
                await database_sync_to_async(spectator_counts.watch_stopped)(game_id, self.channel_name)
            else:
                await self._stop_watching(game_id)
            raise BadRequest(live.NOT_FOUND)
        payload, players = target
        self.watching[game_id] = players
        if self.watch_refresher is None or self.watch_refresher.done():
            self.watch_refresher = asyncio.ensure_future(self._refresh_watches())
        if not again:
            await database_sync_to_async(live.send_spectators)(game_id, players, count)
        version = payload["version"]
        await self._reply({"type": "watching", "game_id": game_id, "version": version}, content.get("id"))
        self.watch_versions[game_id] = version
        await self.send(text_data=live.spectator_frame_text(game_id, version, payload))
        if payload["status"] in live.ENDED_STATUSES:  # an ended game: its final frame, then nothing more
            await self._stop_watching(game_id)
        return None

    async def on_unwatch(self, content: dict) -> dict:
        """``{"type": "unwatch", "game_id": N}``: stop watching (answered ``unwatched`` also for a game not
        watched)."""
        game_id = content.get("game_id")
        if not is_id(game_id):
            raise BadRequest('"unwatch" needs "game_id": a game id (positive integer).')
        await self._stop_watching(game_id)
        return {"type": "unwatched", "game_id": game_id}

    async def _stop_watching(self, game_id: int, reason: str | None = None) -> None:
        """Leave the game's watch group and count; tell its players the new count; ``reason``: send
        ``watch_ended`` with it."""
        players = self.watching.pop(game_id, None)
        self.watch_versions.pop(game_id, None)
        if players is None:
            return
        await self.channel_layer.group_discard(watch_group(game_id), self.channel_name)
        try:
            count = await database_sync_to_async(spectator_counts.watch_stopped)(game_id, self.channel_name)
            await database_sync_to_async(live.send_spectators)(game_id, players, count)
        except Exception as exc:  # the count expires by itself (WATCHER_TTL)
            logger.warning("uncounting a watcher of game %s failed: %s: %s", game_id, type(exc).__name__, exc)
        if reason is not None:
            await self.send_json(live.watch_ended_frame(game_id, reason))

    async def _refresh_watches(self) -> None:
        """Keep this socket counted among the spectators of its watched games (the count forgets a watcher not
        refreshed within ``WATCHER_TTL``: a server that died stops being counted)."""
        while self.watching:
            await asyncio.sleep(spectator_counts.WATCHER_TTL / 3)
            for game_id in list(self.watching):
                try:
                    await database_sync_to_async(spectator_counts.watch_refresh)(game_id, self.channel_name)
                except Exception as exc:
                    logger.warning("refreshing a watcher of game %s failed: %s", game_id, exc)

    # --- live tournament pages (issue 36; games/realtime/tournament_watch.py) ---------------------------------

    async def on_watch_tournament(self, content: dict) -> dict:
        """``{"type": "watch_tournament", "tournament_id": N}``: this socket gets the tournament's ``tournament``
        events (not the personal ``new_game`` of others) until ``unwatch_tournament`` or the socket's end. Answered
        ``watching_tournament`` (again for one watched already); refused ``bad_request``, ``not_found``,
        ``too_many``."""
        tournament_id = content.get("tournament_id")
        if not is_id(tournament_id):
            raise BadRequest('"watch_tournament" needs "tournament_id": a tournament id (positive integer).',
                             "bad_request")
        if tournament_id not in self.tournaments:
            if len(self.tournaments) >= tournaments.MAX_WATCHED_TOURNAMENTS:
                raise BadRequest(f"At most {tournaments.MAX_WATCHED_TOURNAMENTS} watched tournaments per socket: "
                                 "unwatch one first.", "too_many")
            if not await database_sync_to_async(tournaments.tournament_exists)(tournament_id):
                raise BadRequest("No such tournament.", "not_found")
            await self.channel_layer.group_add(tournaments.tournament_group(tournament_id), self.channel_name)
            self.tournaments.add(tournament_id)
        return {"type": "watching_tournament", "tournament_id": tournament_id}

    async def on_unwatch_tournament(self, content: dict) -> dict:
        """``{"type": "unwatch_tournament", "tournament_id": N}``: stop (answered ``unwatched_tournament`` also for
        a tournament not watched)."""
        tournament_id = content.get("tournament_id")
        if not is_id(tournament_id):
            raise BadRequest('"unwatch_tournament" needs "tournament_id": a tournament id (positive integer).',
                             "bad_request")
        if tournament_id in self.tournaments:
            self.tournaments.discard(tournament_id)
            await self.channel_layer.group_discard(tournaments.tournament_group(tournament_id), self.channel_name)
        return {"type": "unwatched_tournament", "tournament_id": tournament_id}

    HANDLERS = {
        "ping": on_ping,
        "subscribe": on_subscribe,
        "unsubscribe": on_unsubscribe,
        "sync": on_sync,
        "viewing": on_viewing,
        "notifications": on_notifications,
        "frames": on_frames,
        "watch": on_watch,
        "unwatch": on_unwatch,
        "watch_tournament": on_watch_tournament,
        "unwatch_tournament": on_unwatch_tournament,
    }

    # --- channel layer → client ----------------------------------------------------------------

    #: Channel-layer messages whose handlers use no database connection.
    NO_DATABASE = frozenset({"game.update", "notification.new", "client.event", live.UPDATE_MESSAGE,
                             tournaments.MESSAGE})

    async def dispatch(self, message: dict) -> None:
        """Channels closes stale database connections in a worker thread before every handler; the
        pushes forwarded here use none, and that thread hop was a tenth of the server's CPU per move."""
        if message.get("type") in self.NO_DATABASE:
            await getattr(self, message["type"].replace(".", "_"))(message)
            return
        await super().dispatch(message)

    async def game_update(self, event: dict) -> None:
        """A view published for this user (``type: game.update``); forward it if followed and new."""
        game_id = event["game_id"]
        if not (self.follow_all or game_id in self.subscribed):
            return
        version = event["version"]
        sent = self.sent_versions.get(game_id, 0)
        if version <= sent:
            return  # an older (or repeated) version arrived late: the client already has a newer view
        self.sent_versions[game_id] = version
        if self.patches:  # the change frame if the client may hold its base (what this socket sent, if anything)
            await self.send(text_data=frame_for(event, sent or None))
            return
        text = event.get("text")  # written once by the publisher (publish.add_frames)
        await self.send(text_data=text if text is not None else client_frame(game_id, version, event["view"]))

    async def watch_update(self, event: dict) -> None:
        """A watched game's ``spectator_game`` frame (``watch.update``, written once by the publisher); forwarded
        if watched and newer than the last sent; after the final one (the game ended) the watch stops."""
        game_id = event["game_id"]
        if game_id not in self.watching:
            return
        version = event["version"]
        if version <= self.watch_versions.get(game_id, 0):
            return
        self.watch_versions[game_id] = version
        await self.send(text_data=event["text"])
        if event.get("final"):
            await self._stop_watching(game_id)

    async def watch_end(self, event: dict) -> None:
        """``watch.end``: the game is no longer watchable: ``watch_ended`` and the watch stops."""
        if event["game_id"] in self.watching:
            await self._stop_watching(event["game_id"], event.get("reason") or live.REASON_NOT_WATCHABLE)

    async def watch_blocked(self, event: dict) -> None:
        """``watch.blocked``: a block now stands between this user and ``user_id``: every watched game of theirs
        ends (``watch_ended``, reason ``blocked``)."""
        other = event["user_id"]
        for game_id, players in list(self.watching.items()):
            if other in players:
                await self._stop_watching(game_id, live.REASON_BLOCKED)

    async def auth_recheck(self, event: dict) -> None:
        """``auth.recheck`` (``accounts.signals.credentials_changed``, sent on by
        ``games.realtime.publish.on_credentials_changed``): a token of the user was revoked, a session logged
        out, a password changed, the account deactivated or deleted (also found by games.realtime.watch); a socket
        whose own credential no longer holds is closed with 4401."""
        if self.user is None:
            return
        token = self.scope.get("token")
        if token is not None:
            valid = await database_sync_to_async(token_still_valid)(token)
        else:
            session = self.scope.get("session")
            key = getattr(session, "session_key", None)
            # the session still stored (not logged out), and its password hash still the user's
            valid = (key is not None and await database_sync_to_async(session.exists)(key)
                     and (await get_user(self.scope)).is_authenticated)
        if not valid:
            await self._refuse(CLOSE_UNAUTHENTICATED, "unauthenticated",
                               "Your token was revoked or your session ended (logged out, password changed or "
                               "reset, account disabled): log in again.")

    async def notification_new(self, event: dict) -> None:
        """A new in-app notification for this user (``type: notification.new``, from
        :mod:`games.notify.live`): every socket of the user gets it, whatever games it follows."""
        if self.notifications_on:
            await self.send_json({"type": "notification", "notification": event["notification"]})

    async def client_event(self, event: dict) -> None:
        """A typed event for this user (``type: client.event``): a challenge change (games.challenges.events),
        ``game_started``, ``game_finished`` (games.realtime.lifecycle); every socket of the user gets it. A
        ``tournament`` event carries a ``key``: sent once even if the socket also watches that tournament."""
        key = event.get("key")
        if key is not None and not self.seen.first(key):
            return
        await self.send_json(event["frame"])

    async def tournament_event(self, event: dict) -> None:
        """A watched tournament's public event (``tournament.event``, games/realtime/tournament_watch.py): forwarded
        while watched, once (the entrant's own copy may have come first)."""
        if event["tournament_id"] not in self.tournaments or not self.seen.first(event["key"]):
            return
        await self.send_json(event["frame"])
