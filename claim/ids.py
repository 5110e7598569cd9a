"""Database ids and integers as they arrive in requests: at most the signed 64-bit range a column holds.

A larger number would reach the database driver and fail there (an ``OverflowError`` on SQLite, out of range on
PostgreSQL); an id past the range names no row, so a route answers 404 and a socket message an error.
"""

from __future__ import annotations

from typing import Any, TypeGuard

#: The largest value of a ``BigAutoField`` / ``bigint`` column.
ID_MAX = 2**63 - 1


def is_id(value: Any) -> TypeGuard[int]:
    """A JSON integer (not a boolean) that can be a row's id: 1 … ``ID_MAX``."""
    return isinstance(value, int) and not isinstance(value, bool) and 0 < value <= ID_MAX


class IdConverter:
    """The ``<id:…>`` path converter: digits naming an id in range; anything else matches no route (404)."""

    regex = "[0-9]{1,19}"

    def to_python(self, value: str) -> int:
        number = int(value)
        if not 0 < number <= ID_MAX:
            raise ValueError(value)
        return number

    def to_url(self, value: int) -> str:
        return str(value)
