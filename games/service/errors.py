"""Service errors: a status, a stable code and a message a person can act on.

The API turns them into ``{"error": {"code", "message", ...payload}}``. Messages never carry
hidden information (another seat's hand, the deck, the seed).
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext


class ServiceError(Exception):
    status = 400
    code = "invalid"

    def __init__(self, message: str, *, code: str | None = None, status: int | None = None,
                 payload: dict[str, Any] | None = None, field: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code
        if status is not None:
            self.status = status
        self.payload = payload or {}
        self.field = field


class InvalidRequest(ServiceError):
    """400: the request cannot be served as asked (bad kind, options, opponents...)."""


class IllegalMoveError(ServiceError):
    status = 400
    code = "illegal_move"


class GameNotFound(ServiceError):
    status = 404
    code = "not_found"

    def __init__(self, message: str | None = None, **kw: Any) -> None:
        super().__init__(gettext("No such game (or it is not visible to you).") if message is None else message, **kw)


class Forbidden(ServiceError):
    status = 403
    code = "not_seated"


class Blocked(ServiceError):
    """403 ``blocked``: a block stands between the user and another player (either way). The message never says
    who blocked whom."""

    status = 403
    code = "blocked"


class Conflict(ServiceError):
    """409: the game is not in a state that allows this (stale version, not your turn, ...)."""

    status = 409
    code = "conflict"
