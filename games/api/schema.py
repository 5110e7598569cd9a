"""OpenAPI examples and error responses shared by the game endpoints, and the components of the engines' JSON
shapes (:func:`add_typed_components`)."""

from __future__ import annotations

import copy
import functools
import inspect
import types
from typing import Any, Literal, Union, get_args, get_origin, get_type_hints, is_typeddict

from drf_spectacular.utils import OpenApiExample, OpenApiResponse

from .serializers import GameErrorSerializer

SEATS_EXAMPLE = [
    {"index": 0, "type": "user", "username": "ada", "name": "Ada", "is_bot": False, "ai_level": None,
     "ai_name": None, "rating": None, "joined": True, "to_act": True, "abort_offered": False, "outcome": None,
     "rank": None, "you": True},
    {"index": 1, "type": "ai", "username": None, "name": "Boris (AI)", "is_bot": True, "ai_level": 2,
     "ai_name": "Knight", "rating": None, "joined": True, "to_act": False, "abort_offered": False,
     "outcome": None, "rank": None, "you": False},
]
LINKS_EXAMPLE = {
    "self": "/api/v1/games/42", "moves": "/api/v1/games/42/moves", "history": "/api/v1/games/42/history",
    "record": "/api/v1/games/42/record", "replay": "/api/v1/games/42/replay",
}
GAME_VIEW_EXAMPLE = {
    "id": 42, "kind": "claim", "title": "Claim",
    "options": {"factions": ["goblin", "knight", "undead", "dwarf", "doppelganger"]},
    "status": "active", "version": 3, "move_count": 1, "seats": SEATS_EXAMPLE, "my_seat": 0, "creator_seat": 0,
    "to_act": [0],
    "my_turn": True, "legal_moves": [{"play": "knight-7"}, {"play": "doppelganger-2"}],
    "deadline": "2026-12-02T10:00:00Z",
    "time_control": {"type": "correspondence", "days_per_move": 3, "initial_seconds": None,
                     "increment_seconds": None, "cap_seconds": None, "description": "3 days per move"},
    "clock": {"deadline": "2026-12-02T10:00:00Z", "paused": False, "paused_at": None, "pause_requests": [],
              "seats": [{"index": 0, "running": True, "deadline": "2026-12-02T10:00:00Z", "left_seconds": None},
                        {"index": 1, "running": False, "deadline": None, "left_seconds": None}]},
    "rated": False,
    "view": {"game": "claim", "seat": 0, "phase": 1, "hand": ["goblin-0", "knight-7", "doppelganger-2"],
             "current_trick": [{"seat": 1, "card": "knight-4"}], "prize": "dwarf-6", "...": "..."},
    "last_events": {"version": 3, "type": "move", "seat": 1, "events": [{"type": "play", "seat": 1,
                                                                       "card": "knight-4"}]},
    "result": None, "ended_reason": None, "can_abort": False, "invite_code": None, "rematch_of": None,
    "rematch": None, "rematch_offer": None, "created_at": "2026-11-29T10:00:00Z", "updated_at": "2026-11-29T10:05:00Z",
    "links": LINKS_EXAMPLE,
}
GAME_VIEW_EXAMPLES = [OpenApiExample("Your view of a game", value=GAME_VIEW_EXAMPLE, response_only=True)]
BANK_VIEW_EXAMPLE = {
    **GAME_VIEW_EXAMPLE,
    "deadline": "2026-12-02T10:05:00Z",
    "time_control": {"type": "bank", "days_per_move": None, "initial_seconds": 259200, "increment_seconds": 86400,
                     "cap_seconds": 604800, "description": "3 days + 1 day per move (at most 7 days)"},
    "clock": {"deadline": "2026-12-02T10:05:00Z", "paused": False, "paused_at": None, "pause_requests": [],
              "seats": [{"index": 0, "running": True, "deadline": "2026-12-02T10:05:00Z", "left_seconds": None},
                        {"index": 1, "running": False, "deadline": None, "left_seconds": 327600}]},
}
BANK_VIEW_EXAMPLES = [OpenApiExample("A game with a bank clock", value=BANK_VIEW_EXAMPLE, response_only=True)]


def error(description: str, code: str, message: str, **extra) -> OpenApiResponse:
    return OpenApiResponse(
        GameErrorSerializer, description=description,
        examples=[OpenApiExample(code, value={"error": {"code": code, "message": message, **extra}},
                                 response_only=True)],
    )


def errors(description: str, *cases: tuple[str, str]) -> OpenApiResponse:
    return OpenApiResponse(
        GameErrorSerializer, description=description,
        examples=[OpenApiExample(code, value={"error": {"code": code, "message": message}}, response_only=True)
                  for code, message in cases],
    )


E400 = error("Invalid request: field messages under `fields`.", "invalid", "kind: This field is required.",
             fields={"kind": ["This field is required."]})
E401 = error("No or bad credentials.", "not_authenticated", "Authentication credentials were not provided.")
E403 = errors("Missing token scope, or you are not (yet) a player of this game.",
              ("insufficient_scope", "This token lacks the scope: games:play (or bot:play for a bot account)."),
              ("not_seated", "You are not seated in this game."),
              ("not_joined", "You are invited to this game: join it first."))
E404 = error("No such game, or the game is private (open, active and aborted games are visible to their "
             "players only).", "not_found", "No such game (or it is not visible to you).")
E429 = error("Rate limit exceeded; the `Retry-After` header says how many seconds to wait.", "throttled",
             "Request was throttled. Expected available in 12 seconds.", retry_after=12)
STANDARD = {401: E401, 403: E403, 404: E404, 429: E429}


#: ``extend_schema(auth=...)`` of a public operation: a token, a session, or no credentials at all. (Typed Any:
#: drf-spectacular's stubs declare ``auth`` as a list of scheme names, but it takes these requirement objects.)
PUBLIC_AUTH: Any = [{"tokenAuth": []}, {"cookieAuth": []}, {}]


# ----------------------------------------------------------------------------- the engines' JSON shapes
# The moves, views, events and results of every kind are ``TypedDict`` s (games/rules/*/types.py, the service's
# own in games/service/types.py); :func:`typed_components` turns them into OpenAPI components, one per
# ``TypedDict`` and one per named union below, and the serializers' fields refer to them (serializers.TypedJSON).


def _named_unions() -> list[tuple[str, Any, str, tuple[Any, ...]]]:
    """``(component, the union, "oneOf" or "anyOf", its alternatives)``. A union of one kind is ``oneOf`` (its
    shapes exclude each other); across kinds ``anyOf`` where two kinds share a shape (``{"play": ...}``): the
    game's ``kind`` says which it is."""
    from games.rules import registry
    from games.rules.claim import types as claim
    from games.rules.inheritors import types as inheritors
    from games.service import types as service

    return [
        ("ClaimMove", claim.ClaimMove, "oneOf", get_args(claim.ClaimMove)),
        ("ClaimEvent", claim.ClaimEvent, "oneOf", get_args(claim.ClaimEvent)),
        ("InheritorsMove", inheritors.InheritorsMove, "oneOf", get_args(inheritors.InheritorsMove)),
        ("InheritorsEvent", inheritors.InheritorsEvent, "oneOf", get_args(inheritors.InheritorsEvent)),
        ("EngineMove", registry.Move, "anyOf", (claim.ClaimMove, inheritors.InheritorsMove)),
        ("EngineView", registry.View, "oneOf", (claim.ClaimView, inheritors.InheritorsView)),
        ("EngineEvent", registry.Event, "anyOf", (claim.ClaimEvent, inheritors.InheritorsEvent)),
        ("EngineResult", registry.Result, "oneOf", (claim.ClaimResult, inheritors.InheritorsResult)),
        ("ServiceEvent", service.ServiceEvent, "oneOf", get_args(service.ServiceEvent)),
        ("HistoryEvent", service.HistoryEvent, "anyOf", (registry.Event, service.ServiceEvent)),
        ("GameResult", service.GameResult, "oneOf", (registry.Result, service.EndedResult)),
    ]


#: Component names of each types module's ``TypedDict`` s: the kind's name before the class's (both kinds
#: have a ``PlayMove`` and a ``GameOverEvent``) unless it starts with it already.
_PREFIXES = {"games.rules.claim.types": "Claim", "games.rules.inheritors.types": "Inheritors",
             "games.service.types": ""}
_BASIC = {int: "integer", str: "string", bool: "boolean"}


class _Builder:
    """Turns the types of the types modules into OpenAPI 3.0 schemas, ``TypedDict`` s and named unions as
    components (closed objects: exactly the declared keys, as tests/rules/test_types.py checks)."""

    def __init__(self) -> None:
        self.unions = _named_unions()
        self.components: dict[str, dict[str, Any]] = {}
        self.origins: dict[str, Any] = {}

    def build(self) -> dict[str, dict[str, Any]]:
        for name, _union, keyword, parts in self.unions:
            body: dict[str, Any] = {keyword: [self.schema(p) for p in parts]}
            found = self._discriminator(parts)
            if found:
                body["discriminator"] = found
            self._add(name, body, name)
        return dict(sorted(self.components.items()))

    def _add(self, name: str, body: dict[str, Any], origin: Any) -> None:
        if self.origins.setdefault(name, origin) is not origin:
            raise ValueError(f"two types are the OpenAPI component {name}")
        self.components[name] = body

    def typeddict_name(self, tp: Any) -> str:
        prefix = _PREFIXES[tp.__module__]
        return tp.__name__ if tp.__name__.startswith(prefix) else prefix + tp.__name__

    def schema(self, tp: Any) -> dict[str, Any]:
        if tp is Any:
            return {}
        for name, union, _keyword, _parts in self.unions:
            if tp == union:
                return _ref(name)
        if is_typeddict(tp):
            return _ref(self._typeddict(tp))
        origin, args = get_origin(tp), get_args(tp)
        if origin in (Union, types.UnionType):
            options = [a for a in args if a is not type(None)]
            schema = self.schema(options[0]) if len(options) == 1 else {"oneOf": [self.schema(a) for a in options]}
            if len(options) == len(args):
                return schema
            return {"allOf": [schema], "nullable": True} if "$ref" in schema else {**schema, "nullable": True}
        if origin is Literal:
            (kind,) = {type(a) for a in args}
            return {"type": _BASIC[kind], "enum": list(args)}
        if origin is list:
            return {"type": "array", "items": self.schema(args[0])}
        if origin is dict and args[0] is str:
            return {"type": "object", "additionalProperties": self.schema(args[1])}
        if tp in _BASIC:
            return {"type": _BASIC[tp]}
        raise TypeError(f"no OpenAPI schema for {tp!r}")

    def _typeddict(self, tp: Any) -> str:
        name = self.typeddict_name(tp)
        if name not in self.components:
            self.components[name] = {}  # a type that contains itself refers to its component
            hints = get_type_hints(tp)
            body: dict[str, Any] = {"type": "object", "properties": {k: self.schema(v) for k, v in hints.items()},
                                    "required": [k for k in hints if k in tp.__required_keys__],
                                    "additionalProperties": False}
            if tp.__doc__:
                body["description"] = inspect.cleandoc(tp.__doc__)
            self._add(name, body, tp)
        return name

    def _discriminator(self, parts: tuple[Any, ...]) -> dict[str, Any] | None:
        """The key whose values (a ``Literal`` in every alternative, each value in one) tell them apart."""
        if not all(is_typeddict(p) for p in parts):
            return None
        hints = [get_type_hints(p) for p in parts]
        for key in [k for k in hints[0] if k in parts[0].__required_keys__]:
            mapping: dict[str, str] = {}
            for part, hint in zip(parts, hints, strict=True):
                values = get_args(hint.get(key)) if get_origin(hint.get(key)) is Literal else ()
                if key not in part.__required_keys__ or not values or any(v in mapping for v in values):
                    break
                mapping.update({v: _ref(self.typeddict_name(part))["$ref"] for v in values})
            else:
                return {"propertyName": key, "mapping": mapping}
        return None


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


@functools.cache
def _typed_components() -> dict[str, dict[str, Any]]:
    return _Builder().build()


def typed_components() -> dict[str, dict[str, Any]]:
    """The OpenAPI components of every kind's moves, views, events and results (and the service's events and
    results): ``EngineMove``, ``EngineView``, ``EngineEvent``, ``HistoryEvent``, ``GameResult`` and the parts
    they are made of (``ClaimView``, ``InheritorsQuestMove``, ...)."""
    return copy.deepcopy(_typed_components())


def add_typed_components(result: dict[str, Any], generator: Any, request: Any, public: bool) -> dict[str, Any]:
    """``POSTPROCESSING_HOOKS`` entry (after drf-spectacular's enum hook, which would name every ``type`` enum):
    the components of :func:`typed_components`, which the typed fields of the serializers refer to."""
    schemas = result.setdefault("components", {}).setdefault("schemas", {})
    for name, body in typed_components().items():
        if name in schemas:
            raise ValueError(f"the OpenAPI component {name} is also a serializer's")
        schemas[name] = body
    result["components"]["schemas"] = dict(sorted(schemas.items()))
    return result
