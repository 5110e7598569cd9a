"""The spectators' live feed (issue 35; docs/realtime.md, "Spectating"): what the publisher sends a game's
spectators on each committed version, and the messages that end a watch.

Channel-layer messages to the group ``watch.<game id>`` (:func:`games.spectate.access.watch_group`; the spectators'
sockets, games.realtime.consumers, and watch streams, games.streams, join it):

* ``watch.update`` ``{game_id, version, final, text}``: the ``spectator_game`` frame of one version, its JSON
  text written **once** by the publisher (:func:`spectator_messages`, called from
  :func:`games.realtime.publish.build_all`, once per committed version) whatever the number of spectators.
  Built only while somebody watches (the shared count of games.spectate.counts is read first: one cache read);
  ``final`` marks the version that ended the game: after it a watcher stops watching.
* ``watch.end`` ``{game_id, reason: "not_watchable"}``: the game is no longer watchable; every watcher stops.

To a user's group ``user.<id>`` (every socket and stream of that user):

* ``watch.blocked`` ``{user_id}``: a block now stands between this user and ``user_id``
  (:func:`on_relation_changed`, the ``accounts.signals.relation_changed`` receiver); each of the user's
  connections that watches a game ``user_id`` plays in stops watching it (``watch_ended``, reason ``blocked``).
  The frame never says who blocked whom.

The players' ``spectators`` event (``SpectatorsEvent``) goes to each player's ``user.<id>`` group as a typed
frame (:func:`spectators_frames`) whenever a connection starts or stops watching.

Nothing here reads a seat's private view: the frame is :func:`games.spectate.payload.spectator_game` (the engine's
spectator view, public information only while the game runs).
"""

from __future__ import annotations

import logging
from typing import Any

import orjson

from accounts.models import Relation
from games.models import Game
from games.realtime.publish import load_game_and_seats, send_frames, send_to_groups, user_group
from games.spectate.access import may_watch, watch_group
from games.spectate.counts import counts
from games.spectate.payload import spectator_game

logger = logging.getLogger(__name__)

UPDATE_MESSAGE = "watch.update"
END_MESSAGE = "watch.end"
BLOCKED_MESSAGE = "watch.blocked"
#: At most this many games one socket or stream watches at once.
MAX_WATCHED = 10
#: The refusal of a game one may not watch: exactly the REST answer (``GameNotFound``).
NOT_FOUND = "No such game (or it is not visible to you)."
REASON_BLOCKED = "blocked"
REASON_NOT_WATCHABLE = "not_watchable"
ENDED_STATUSES = frozenset({"finished", "aborted"})


def spectator_frame_text(game_id: int, version: int, game_payload: dict[str, Any]) -> str:
    """``SpectatorGameFrame`` as JSON text: ``{"type": "spectator_game", "game_id", "version", "game"}``."""
    return orjson.dumps({"type": "spectator_game", "game_id": int(game_id), "version": int(version),
                         "game": game_payload}).decode()


def watch_ended_frame(game_id: int, reason: str) -> dict[str, Any]:
    """``WatchEndedEvent``: ``{"type": "watch_ended", "game_id", "reason"}``."""
    return {"type": "watch_ended", "game_id": int(game_id), "reason": reason}


def update_message(game: Game, payload: dict[str, Any]) -> dict[str, Any]:
    """The ``watch.update`` channel-layer message of ``payload`` (a ``SpectatorGame`` of ``game``)."""
    return {"type": UPDATE_MESSAGE, "game_id": game.pk, "version": game.version,
            "final": game.status in ENDED_STATUSES,
            "text": spectator_frame_text(game.pk, game.version, payload)}


def spectator_messages(game: Game, seats: list[Any], parts: Any = None) -> list[tuple[str, dict[str, Any]]]:
    """The messages of one committed version of ``game`` to its watch group: none while nobody watches; the
    version's ``watch.update`` (built once) for a watchable, started game; ``watch.end`` (``not_watchable``) for
    one that no longer is. One cache read (the count), plus the spectator payload when it is sent."""
    if game.started_at is None:
        return []
    watching = counts([game.pk]).get(game.pk, 0)
    if watching <= 0:
        return []
    group = watch_group(game.pk)
    if not game.watchable:
        return [(group, {"type": END_MESSAGE, "game_id": game.pk, "reason": REASON_NOT_WATCHABLE})]
    payload = spectator_game(game, seats, spectators=watching, parts=parts)
    return [(group, update_message(game, payload))]


def spectators_frames(game_id: int, players: list[int], count: int) -> list[tuple[int, dict[str, Any]]]:
    """``(user id, SpectatorsEvent)`` for each player of the game."""
    frame = {"type": "spectators", "game_id": int(game_id), "count": int(count)}
    return [(uid, frame) for uid in players]


def send_spectators(game_id: int, players: list[int], count: int) -> None:
    """Tell the game's players its spectator count (best effort, never raises)."""
    if players:
        send_frames(spectators_frames(game_id, players, count), f"spectators of game {game_id}")


def end_watching(game_id: int, reason: str = REASON_NOT_WATCHABLE) -> None:
    """Every connection watching ``game_id`` stops (``watch_ended`` with ``reason``): for a game made unwatchable
    without a new version (the publisher's next version would say so too). Never raises."""
    send_to_groups([(watch_group(game_id), {"type": END_MESSAGE, "game_id": int(game_id), "reason": reason})],
                   f"watch end of game {game_id}")


def on_relation_changed(sender: Any, user_id: int, kind: str, other_id: int, added: bool, **kwargs: Any) -> None:
    """``accounts.signals.relation_changed`` receiver: a new block makes each of the two users' connections stop
    watching the other's games (``watch.blocked`` to both users' groups; the connections know their games'
    players: no query)."""
    if kind != Relation.BLOCK or not added:
        return
    send_to_groups([(user_group(user_id), {"type": BLOCKED_MESSAGE, "user_id": other_id}),
                    (user_group(other_id), {"type": BLOCKED_MESSAGE, "user_id": user_id})],
                   "watch ends after a block")


def may_watch_game(game_id: int, user: Any) -> bool:
    """Whether ``user`` (None: anonymous) may watch ``game_id`` (False for a game that does not exist): asked
    before a connection joins the game's watch group, so that a refused one never hears its spectators' room."""
    game, seats = load_game_and_seats(game_id)
    return game is not None and may_watch(game, user, seats)


def watch_target(game_id: int, user: Any, spectators: int) -> tuple[dict[str, Any], list[int]] | None:
    """For a new watch of ``game_id`` by ``user`` (None: anonymous), already counted among the ``spectators``:
    ``(SpectatorGame, player user ids)``, or None when the game does not exist or ``user`` may not watch it (the
    same answer: ids are not revealed). Two queries: the game with its seats and users; the blocks, for a
    logged-in user. The caller joins the watch group *before* this read, so no version falls between."""
    game, seats = load_game_and_seats(game_id)
    if game is None or not may_watch(game, user, seats):
        return None
    payload = spectator_game(game, seats, spectators=spectators)
    return payload, sorted({s.user_id for s in seats if s.user_id is not None})
