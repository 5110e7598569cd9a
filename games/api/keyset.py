"""Opaque cursors of keyset pages: ``(instant, id)`` of the last row sent, as URL-safe text.

A page after a cursor is a range of an index (``WHERE (t, id) < (cursor)`` in the index order), never an
``OFFSET``: page 1000 costs what page 1 costs."""

from __future__ import annotations

import base64
import binascii
from datetime import datetime

from django.utils.dateparse import parse_datetime
from rest_framework.exceptions import ValidationError

MAX_ID = 2**63 - 1


def encode(moment: datetime, pk: int) -> str:
    """The cursor of the row ``(moment, pk)``."""
    return base64.urlsafe_b64encode(f"{moment.isoformat()}|{pk}".encode()).decode().rstrip("=")


def decode(raw: str | None, name: str = "cursor") -> tuple[datetime, int] | None:
    """``(moment, pk)`` of a cursor from :func:`encode`; None for none; 400 ``invalid`` (under ``fields``) for
    anything else: a cursor is only ever one this server sent."""
    if raw is None or raw == "":
        return None
    bad = ValidationError({name: [f"{name} is not a cursor of this list: send back the `next` of a page."]})
    if len(raw) > 200:
        raise bad
    try:
        text = base64.urlsafe_b64decode(raw + "=" * (-len(raw) % 4)).decode()
        when, _, pk = text.rpartition("|")
        moment = parse_datetime(when)
        number = int(pk)
    except (binascii.Error, UnicodeDecodeError, ValueError):
        raise bad from None
    if moment is None or moment.tzinfo is None or not 0 < number <= MAX_ID:
        raise bad
    return moment, number


def limit_param(raw: str | None, default: int, most: int) -> int:
    """``limit`` from the query string: 1..``most`` (400 ``invalid`` otherwise), ``default`` when absent."""
    if raw is None or raw == "":
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ValidationError({"limit": ["limit must be an integer."]}) from None
    if not 1 <= value <= most:
        raise ValidationError({"limit": [f"limit must be between 1 and {most}."]})
    return value
