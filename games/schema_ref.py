"""``SchemaRef``: ``Annotated`` metadata saying that a ``TypedDict``'s field is a serializer's OpenAPI component.

Pure Python, in a module of its own: the typed events (games/realtime/types.py) annotate their fields with it and
the schema builder (games/api/typed_schema.py) reads it, without the API importing the real-time layer (which
imports games.spectate, whose REST views import the API).
"""

from __future__ import annotations


class SchemaRef:
    """``Annotated`` metadata: this field is the OpenAPI component ``name`` (a serializer's, e.g. ``GameSummary``)."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return f"SchemaRef({self.name!r})"
