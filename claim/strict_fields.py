"""Serializer fields that take a JSON value only of the type the OpenAPI schema declares (issue 22).

DRF's ``BooleanField`` also takes ``1``, ``"yes"`` or ``"on"``, its ``IntegerField`` takes ``"7"`` and ``7.0``,
and a ``ChoiceField`` of numbers takes ``"3"``: the schema said ``boolean`` / ``integer``, the server took
other types (schemathesis' ``negative_data_rejection``). Bodies are JSON only (``claim/parsers.py``), so
these fields ask for the JSON type itself.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.extensions import OpenApiSerializerExtension
from rest_framework import serializers

from claim.ids import ID_MAX


class StrictBooleanField(serializers.BooleanField):
    """``true`` or ``false``, nothing else."""

    default_error_messages = {"invalid": "Must be true or false (a JSON boolean)."}

    def to_internal_value(self, data: Any) -> bool:
        if data is True or data is False:
            return data
        self.fail("invalid")
        raise AssertionError  # fail() raises


class StrictIntegerField(serializers.IntegerField):
    """A JSON integer (not a string, a boolean or a fraction), within the field's bounds; without bounds of its
    own, within the signed 64-bit range a database column holds."""

    default_error_messages = {"invalid": "Must be an integer (a JSON number without a fraction)."}

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("max_value", ID_MAX)
        kwargs.setdefault("min_value", -ID_MAX - 1)
        super().__init__(**kwargs)

    def to_internal_value(self, data: Any) -> int:
        if isinstance(data, bool) or not isinstance(data, int):
            self.fail("invalid")
        return super().to_internal_value(data)


class StrictChoiceField(serializers.ChoiceField):
    """One of the choices, of the choice's own JSON type (``3``, not ``"3"``)."""

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, bool) or not any(type(data) is type(choice) for choice in self.choices):
            self.fail("invalid_choice", input=data)
        return super().to_internal_value(data)


class StrictCharField(serializers.CharField):
    """A JSON string (DRF also turns numbers into strings)."""

    default_error_messages = {"invalid": "Must be a string."}

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)


# The docstring is Markdown: the OpenAPI schema shows it as the description of every body without one of its own.
class ClosedSerializer(serializers.Serializer):
    """A request body that takes its own fields only: a misspelt or unsupported key (`"colour"`, `"seats"` on a
    two-seat challenge) is a 400 naming it rather than silently ignored. Its schema says so
    (`additionalProperties: false`)."""

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, dict):
            unknown = sorted(set(data) - set(self.fields))  # a read-only field sent back is ignored, as DRF does
            if unknown:
                writable = ", ".join(name for name, field in self.fields.items() if not field.read_only)
                raise serializers.ValidationError(
                    {key: [f"Unknown field {key!r}; the fields are: {writable}."] for key in unknown})
        return super().to_internal_value(data)


class ClosedSerializerSchema(OpenApiSerializerExtension):
    """The schema of every :class:`ClosedSerializer`: no other keys (``additionalProperties: false``)."""

    target_class = ClosedSerializer
    match_subclasses = True

    def map_serializer(self, auto_schema: Any, direction: Any) -> dict[str, Any]:
        schema = {**auto_schema._map_basic_serializer(self.target, direction), "additionalProperties": False}
        for name, field in self.target.fields.items():  # a nested list's bounds (drf-spectacular leaves them out)
            prop = schema.get("properties", {}).get(name)
            if isinstance(field, serializers.ListSerializer) and prop is not None and prop.get("type") == "array":
                low, high = getattr(field, "min_length", None), getattr(field, "max_length", None)
                if low is not None or not field.allow_empty:
                    prop["minItems"] = max(low or 0, 0 if field.allow_empty else 1)
                if high is not None:
                    prop["maxItems"] = high
        return schema
