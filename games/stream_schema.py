"""The NDJSON streams in the OpenAPI schema (drf-spectacular postprocessing hook; issue 26).

The streams are async Django views (games/streams.py) that no DRF view describes to drf-spectacular: this hook
adds their two ``GET`` operations and the line shapes, which refer to the same components the REST answers use
(``GameView``, ``GameSummary``, ``Challenge``, ``Notification``) because the lines are the socket's frames built
from the same payloads; the socket's change frames (``GameChangeFrame``, games/realtime/frames.py) are described
beside them. The paths are the module's constants, which tests/realtime/test_streams.py checks against the
URLconf's routes.

The operations carry ``x-streaming: true``: a 200 answer never ends (it is closed by the client, the game's end,
or a revoked token), so request-per-example fuzzers leave them out (tests/hardening). Their answers are
tested against a real stream in tests/realtime/test_stream_schema.py.
"""

from __future__ import annotations

from typing import Any

from . import streams

TAG = "streams"
NDJSON = "application/x-ndjson"

CHALLENGE_EVENTS = ["challenge_created", "challenge_received", "challenge_accepted", "challenge_declined",
                    "challenge_cancelled", "challenge_expired"]


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
    "StreamLifecycleEvent": {
        "type": "object", "required": ["type", "game_id", "game"],
        "description": "A game of the caller started or ended; `game` is its inbox entry (`GET /games`).",
        "properties": {"type": _const("game_started", "game_finished"), "game_id": {"type": "integer"},
                       "game": _ref("GameSummary")},
    },
    "StreamChallengeEvent": {
        "type": "object", "required": ["type", "challenge"],
        "description": "A change of a challenge the caller made or received.",
        "properties": {"type": _const(*CHALLENGE_EVENTS), "challenge": _ref("Challenge")},
    },
    "StreamRematchOffer": {
        "type": "object", "required": ["type", "game_id", "rematch_offer"],
        "description": "The rematch offer of a finished game of the caller changed (offered, accepted, declined, "
        "cancelled, expired): the game view's `rematch_offer`.",
        "properties": {"type": _const("rematch_offer"), "game_id": {"type": "integer"},
                       "rematch_offer": _ref("RematchOffer")},
    },
    "StreamNotification": {
        "type": "object", "required": ["type", "notification"],
        "description": "A new in-app notification (only with `?notifications=1`).",
        "properties": {"type": _const("notification"), "notification": _ref("Notification")},
    },
    "StreamError": {
        "type": "object", "required": ["type", "code", "message"],
        "description": "The last line of a stream whose token was revoked or expired, or whose password was "
        "reset (`code: unauthenticated`); the stream ends after it.",
        "properties": {"type": _const("error"), "code": {"type": "string"}, "message": {"type": "string"}},
    },
    "StreamEventLine": {
        "description": "One line of `GET /stream/events` (an empty line is a keep-alive).",
        "oneOf": [_ref("StreamChallengeEvent"), _ref("StreamLifecycleEvent"), _ref("StreamRematchOffer"),
                  _ref("StreamNotification"),
                  _ref("StreamError")],
    },
    "StreamGameLine": {
        "description": "One line of `GET /games/{game_id}/stream` (an empty line is a keep-alive).",
        "oneOf": [_ref("StreamGameFrame"), _ref("StreamError")],
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
    schemas.update(COMPONENTS)
    paths = result.setdefault("paths", {})
    paths[streams.EVENTS_PATH] = {"get": _operation(
        "stream_events", "Your events as an NDJSON stream",
        "Challenge changes, `game_started`, `game_finished` and `rematch_offer` of your games as they happen "
        "(the socket's typed events), and with `?notifications=1` your new in-app notifications.",
        "StreamEventLine", (401, 403, 405, 429),
        [{"name": "notifications", "in": "query", "required": False, "description": "`1` or `true`: also the "
          "`notification` lines.", "schema": {"type": "string", "enum": ["0", "1", "true", "false"]}}])}
    game_path = streams.GAME_PATH_TEMPLATE
    paths[game_path] = {"get": _operation(
        "games_stream", "One of your games as an NDJSON stream",
        "First your current view of the game, then one line per new version (the socket's `game` frames); the "
        "stream ends after the game ends.",
        "StreamGameLine", (401, 403, 404, 405, 429),
        [{"name": "game_id", "in": "path", "required": True, "schema": {"type": "integer", "minimum": 1}}])}
    return result
