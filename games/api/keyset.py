"""Keyset pages: the ``cursor`` is the id of the last row of the previous page (the answer's ``next``), and
the next page is a range of an index after that row's ``(instant, id)``, never an ``OFFSET``: page 1000 costs
what page 1 costs (plus one unique-index lookup of the cursor's row)."""

from __future__ import annotations

import re

from rest_framework.exceptions import ValidationError

from claim import refusals

MAX_ID = 2**63 - 1
#: ASCII digits only: Python's ``int()`` also takes spaces, underscores and other scripts' digits ("١٢").
_INTEGER = re.compile(r"-?[0-9]{1,19}")


def _int(raw: str | None, name: str, low: int, high: int) -> int | None:
    if raw is None or raw == "":
        return None
    if not _INTEGER.fullmatch(raw):
        raise ValidationError({name: [refusals.not_an_integer(name)]})
    value = int(raw)
    if not low <= value <= high:
        raise ValidationError({name: [refusals.not_between(name, low, high)]})
    return value


def cursor_param(raw: str | None) -> int | None:
    """``cursor`` from the query string: an id (400 ``invalid`` for anything else), None when absent."""
    return _int(raw, "cursor", 1, MAX_ID)


def limit_param(raw: str | None, default: int, most: int) -> int:
    """``limit`` from the query string: 1..``most`` (400 ``invalid`` otherwise), ``default`` when absent."""
    value = _int(raw, "limit", 1, most)
    return default if value is None else value


CURSOR_SCHEMA = {"type": "integer", "minimum": 1, "maximum": MAX_ID}
