"""The OpenAPI components of the JSON the engines and the service give: moves, views, events and results.

They are ``TypedDict`` s (games/rules/claim/types.py, games/rules/inheritors/types.py, the service's own in
games/service/types.py), the one source of their shapes: :func:`typed_components` turns them into components,
one per ``TypedDict`` and one per named union (:func:`_named_unions`), and the typed fields of
:mod:`games.api.serializers` refer to them (``EngineMoveField``, ``EngineViewField``, ...). The components go
in by a postprocessing hook (:func:`add_typed_components`, after drf-spectacular's enum hook, which would
otherwise name every ``type`` enum of every event). tests/service/test_schema_matches_answers.py validates real
answers against them.
"""

from __future__ import annotations

import copy
import functools
import inspect
import re
import types
from typing import (
    Annotated,
    Any,
    Literal,
    NotRequired,
    Required,
    Union,
    get_args,
    get_origin,
    get_type_hints,
    is_typeddict,
)

from games.rules import registry
from games.rules.claim import types as claim
from games.rules.inheritors import types as inheritors
from games.schema_ref import SchemaRef
from games.service import types as service


def markdown(doc: str) -> str:
    """A docstring's reST inline markup as the Markdown of OpenAPI descriptions: ``x`` and :role:`~a.b.x`
    become `x`."""
    doc = re.sub(r":[a-z]+:`~?(?:[\w.]+\.)?([^`]+)`", r"`\1`", doc)
    return doc.replace("``", "`")

def _named_unions() -> list[tuple[str, Any, str, tuple[Any, ...]]]:
    """``(component, the union, "oneOf" or "anyOf", its alternatives)``. A union of one kind is ``oneOf`` (its
    shapes exclude each other); across kinds ``anyOf`` where two kinds share a shape (``{"play": ...}``): the
    game's ``kind`` says which it is."""
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
_PREFIXES = {claim.__name__: "Claim", inheritors.__name__: "Inheritors", service.__name__: "",
             "games.realtime.types": ""}  # by name: the API does not import the real-time layer
_BASIC = {int: "integer", str: "string", bool: "boolean"}


class _Builder:
    """Turns the types of the types modules into OpenAPI 3.0 schemas, ``TypedDict`` s and named unions as
    components (closed objects: exactly the declared keys, as tests/rules/test_types.py checks)."""

    def __init__(self, unions: list[tuple[str, Any, str, tuple[Any, ...]]] | None = None) -> None:
        self.unions = _named_unions() if unions is None else unions
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
        if origin in (NotRequired, Required):  # kept by ``include_extras``; ``__required_keys__`` says it
            return self.schema(args[0])
        if origin is Annotated:  # a serializer's component (games.schema_ref.SchemaRef), else the bare type
            ref = next((m for m in tp.__metadata__ if isinstance(m, SchemaRef)), None)
            return _ref(ref.name) if ref is not None else self.schema(args[0])
        if origin in (Union, types.UnionType):
            options = [a for a in args if a is not type(None)]
            schema = self.schema(options[0]) if len(options) == 1 else {"oneOf": [self.schema(a) for a in options]}
            if len(options) == len(args):
                return schema
            if "$ref" in schema:  # oneOf, not allOf: generators keep a discriminated union's discriminator
                return {"oneOf": [schema], "nullable": True}
            if "enum" in schema:  # OpenAPI 3.0: a nullable enum lists null among its values
                schema = {**schema, "enum": [*schema["enum"], None]}
            return {**schema, "nullable": True}
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
            hints = get_type_hints(tp, include_extras=True)
            body: dict[str, Any] = {"type": "object", "properties": {k: self.schema(v) for k, v in hints.items()},
                                    "required": [k for k in hints if k in tp.__required_keys__],
                                    "additionalProperties": False}
            if tp.__doc__:
                body["description"] = markdown(inspect.cleandoc(tp.__doc__))
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


def union_components(name: str, union: Any) -> dict[str, dict[str, Any]]:
    """The components of one named union of ``TypedDict`` s (``oneOf``, with its discriminator) and of its parts,
    e.g. the NDJSON stream's lines (games/stream_schema.py): fields annotated with
    :class:`games.schema_ref.SchemaRef` refer to the serializers' components."""
    return _Builder([(name, union, "oneOf", get_args(union))]).build()


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
