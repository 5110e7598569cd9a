"""The NDJSON streams in the OpenAPI schema (drf-spectacular postprocessing hook; issue 26).

The streams are async Django views (games/streams.py) that no DRF view describes to drf-spectacular: this hook
adds their two ``GET`` operations and the line shapes, which refer to the same components the REST answers use
(``GameView``, ``GameSummary``, ``Challenge``, ``RematchOffer``, ``Notification``, ``PublicUser``, ``ChatLine``)
because the lines are the socket's frames built from the same payloads; the socket's change frames
(``GameChangeFrame``, games/realtime/frames.py) are described beside them. The account stream's lines (the
socket's typed events) are built from their ``TypedDict`` s in games/realtime/types.py (``StreamEventLine``, a
``oneOf`` discriminated by ``type``); a name a serializer's component already has is refused.

The paths are the module's constants, which tests/realtime/test_streams.py checks against the
URLconf's routes.

The operations carry ``x-streaming: true``: a 200 answer never ends (it is closed by the client, the game's end,
or a revoked token), so request-per-example fuzzers leave them out (tests/hardening). Their answers are
tested against a real stream in tests/realtime/test_stream_schema.py.
"""

from __future__ import annotations

from typing import Any

from . import streams
from .api.typed_schema import union_components
from .realtime import types as event_types

TAG = "streams"
NDJSON = "application/x-ndjson"

#: The components of the account stream's lines (``StreamEventLine`` and each event's), from their ``TypedDict`` s
#: (games/realtime/types.py): the socket's typed events are the same frames.
EVENT_COMPONENTS = union_components("StreamEventLine", event_types.StreamEventLine)
#: The socket's tournament watch messages, both ways (``watch_tournament``, ``watching_tournament``, their refusals):
#: no stream carries them, the schema types them for the clients of the ``/ws/`` socket (docs/realtime.md).
SOCKET_COMPONENTS = union_components("TournamentSocketMessage", event_types.TournamentSocketMessage)


#: The REST answers' components the lines refer to (checked present in the generated schema).
REFERRED = {"GameView", "HistoryEvent", "SpectatorGame", "ChatEvent", "ChatHiddenEvent", "StreamError", "ApiError"}


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def _const(*values: str) -> dict[str, Any]:
    return {"type": "string", "enum": list(values)}


COMPONENTS: dict[str, dict[str, Any]] = {
    "StreamGameFrame": {
        "type": "object", "required": ["type", "game_id", "version", "view"],
        "description": "The caller's own view of the game at `version` (the socket's `game` frame).",
        "properties": {"type": _const("game"), "game_id": {"type": "integer"}, "version": {"type": "integer"},
                       "view": _ref("GameView")},
    },
    "JsonPatchOperation": {
        "type": "object", "required": ["op", "path"],
        "description": "One RFC 6902 operation (`path`, `from`: RFC 6901 JSON Pointers into the view).",
        "properties": {"op": _const("add", "remove", "replace", "move", "copy", "test"), "path": {"type": "string"},
                       "from": {"type": "string"}, "value": {}},
    },
    "GameChangeFrame": {
        "type": "object", "required": ["type", "game_id", "version", "base", "events"],
        "description": "What changed in the caller's view (socket after `{\"type\": \"frames\", \"format\": "
        "\"patch\"}`, docs/realtime.md): `patch` turns the view at `base` (always `version - 1`) into the view at "
        "`version`; a client holding another version asks for `sync`. `events`: the engine's public events of "
        "this version. Carries `view` instead of `patch` when the patch would be larger.",
        "properties": {"type": _const("game"), "game_id": {"type": "integer"}, "version": {"type": "integer"},
                       "base": {"type": "integer"}, "events": {"type": "array", "items": _ref("HistoryEvent")},
                       "patch": {"type": "array", "items": _ref("JsonPatchOperation")}, "view": _ref("GameView")},
    },
    "SocketGameFrame": {
        "description": "A `game` frame of the `/ws/` socket: the full view (`sync`, and every change unless the "
        "socket asked for patches), or a change frame.",
        "oneOf": [_ref("StreamGameFrame"), _ref("GameChangeFrame")],
    },
    "StreamGameLine": {
        "description": "One line of `GET /games/{game_id}/stream` (an empty line is a keep-alive).",
        "oneOf": [_ref("StreamGameFrame"), _ref("ChatEvent"), _ref("ChatHiddenEvent"), _ref("StreamError")],
    },
    # the spectators' feed (issue 35; games/realtime/spectators.py): the socket's `watch` frames and the watch stream
    "SpectatorGameFrame": {
        "type": "object", "required": ["type", "game_id", "version", "game"],
        "description": "The game as a spectator sees it at `version` (`GET /games/{id}/watch`): first the current "
        "one, then one per new version, in order; the frame of the version that ended the game is the last.",
        "properties": {"type": _const("spectator_game"), "game_id": {"type": "integer"},
                       "version": {"type": "integer"}, "game": _ref("SpectatorGame")},
    },
    "WatchEndedEvent": {
        "type": "object", "required": ["type", "game_id", "reason"],
        "description": "The watch of the game ended: a block now stands between the watcher and a player "
        "(`blocked`, either way: it never says who blocked whom), or the game is no longer watchable "
        "(`not_watchable`). Nothing more of that game follows.",
        "properties": {"type": _const("watch_ended"), "game_id": {"type": "integer"},
                       "reason": _const("blocked", "not_watchable")},
    },
    "WatchChatLine": {
        "type": "object", "required": ["type", "game_id"],
        "description": "A line of the game's spectators' room (`chat`, with `message`: the chat line, its phrase "
        "in English beside its code) or its hiding (`chat_hidden`, with `message_id`).",
        "properties": {"type": _const("chat", "chat_hidden"), "game_id": {"type": "integer"},
                       "message": {"type": "object"}, "message_id": {"type": "integer"}},
    },
    "StreamWatchLine": {
        "description": "One line of `GET /games/{game_id}/watch/stream` (an empty line is a keep-alive).",
        "oneOf": [_ref("SpectatorGameFrame"), _ref("WatchEndedEvent"), _ref("WatchChatLine"), _ref("StreamError")],
    },
}

AUTH = ("Authenticated as every REST endpoint is: a bearer token, personal (`clm_…`) or OAuth (`clo_…`), with "
        "`games:read` (or `bot:play` of a bot account), or the session; the same rate limits, and refusals in the "
        "API's error shape. At most "
        f"{streams.MAX_PER_USER} open streams per user and server process (429 beyond). One JSON object per line "
        f"(`{NDJSON}`); an empty line every {int(streams.KEEPALIVE_SECONDS)} s keeps proxies from closing it. "
        "Best effort like the socket: after a reconnect, re-read what you follow. Never ends by itself "
        "(`x-streaming`): read it line by line.")


def _errors(*codes: int) -> dict[str, Any]:
    words = {401: "No token, or a malformed, unknown, revoked or expired one (`WWW-Authenticate: Bearer`).",
             403: "The token lacks `games:read`.", 404: "No such game, or not one of yours.",
             405: "Streams are read with GET.",
             429: "A rate limit (`throttled`, `Retry-After`), or too many open streams for this user "
                  "(`too_many_streams`) or connections from this address (`too_many_connections`)."}
    return {str(code): {"description": words[code], "content": {"application/json": {"schema": _ref("ApiError")}}}
            for code in codes}


def _operation(operation_id: str, summary: str, description: str, line: str, codes: tuple[int, ...],
               parameters: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "operationId": operation_id, "summary": summary, "description": description + " " + AUTH,
        "tags": [TAG], "parameters": parameters, "security": [{"tokenAuth": []}, {"cookieAuth": []}],
        "x-streaming": True,
        "responses": {"200": {"description": "The stream: one JSON object per line.",
                              "content": {NDJSON: {"schema": _ref(line)}}}, **_errors(*codes)},
    }


def add_stream_paths(result: dict[str, Any], generator: Any, request: Any, public: bool) -> dict[str, Any]:
    """``POSTPROCESSING_HOOKS`` entry: the two stream operations and their line components (in the whole API's
    schema only, not in one generated for a part of the URLs)."""
    if getattr(generator, "patterns", None) is not None or getattr(generator, "urlconf", None) is not None:
        return result
    schemas = result.setdefault("components", {}).setdefault("schemas", {})
    for name in (*EVENT_COMPONENTS, *SOCKET_COMPONENTS):
        if name in schemas:
            raise ValueError(f"the OpenAPI component {name} is also a serializer's")
    schemas.update(EVENT_COMPONENTS)
    schemas.update(SOCKET_COMPONENTS)
    schemas.update(COMPONENTS)
    # the components the lines refer to by name are the REST answers' (``SpectatorGame``: games/spectate/schema.py)
    missing = sorted(name for name in REFERRED if name not in schemas)
    if missing:
        raise ValueError(f"the stream lines refer to components no serializer defines: {', '.join(missing)}")
    paths = result.setdefault("paths", {})
    paths[streams.EVENTS_PATH] = {"get": _operation(
        "stream_events", "Your events as an NDJSON stream",
        "Challenge changes, `game_started`, `game_finished`, `rematch_offer`, `invitation_received`, "
        "`invitation_cancelled`, `chat`, `chat_hidden`, `spectators`, `followed`, `tournament` and `review` as they "
        "happen "
        "(the socket's typed events, each a `StreamEventLine` alternative told apart by `type`), and with "
        "`?notifications=1` your new in-app notifications.",
        "StreamEventLine", (401, 403, 405, 429),
        [{"name": "notifications", "in": "query", "required": False, "description": "`1` or `true`: also the "
          "`notification` lines.", "schema": {"type": "string", "enum": ["0", "1", "true", "false"]}}])}
    game_path = streams.GAME_PATH_TEMPLATE
    paths[game_path] = {"get": _operation(
        "games_stream", "One of your games as an NDJSON stream",
        "First your current view of the game, then one line per new version (the socket's `game` frames) and "
        "the game's `chat` / `chat_hidden` events; the stream ends after the game ends.",
        "StreamGameLine", (401, 403, 404, 405, 429),
        [{"name": "game_id", "in": "path", "required": True, "schema": {"type": "integer", "minimum": 1}}])}
    watch = _operation(
        "games_watch_stream", "Watch a game as an NDJSON stream",
        "A spectator's feed of a watchable game: first its `spectator_game` frame, then one line per new "
        "version and the spectators' room's chat; the stream ends after the final frame (the game ended) or a "
        "`watch_ended` line. 404 (`not_found`, the words of `GET /games/{id}/watch`) for a game one may not "
        "watch. Anonymous callers may watch (under the anonymous rate limit; their streams count against their "
        "address).", "StreamWatchLine", (401, 403, 404, 405, 429),
        [{"name": "game_id", "in": "path", "required": True, "schema": {"type": "integer", "minimum": 1}}])
    watch["security"] = [{"tokenAuth": []}, {"cookieAuth": []}, {}]
    watch["responses"]["404"]["description"] = "No such game, or it is not visible to you (not watchable, not " \
        "started, a block between you and a player)."
    paths[streams.WATCH_PATH_TEMPLATE] = {"get": watch}
    return result
