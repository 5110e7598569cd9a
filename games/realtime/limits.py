"""Caps on held connections in one server process (docs/security.md, "Held connections").

A WebSocket or an NDJSON stream stays open for as long as its client likes, so each server process counts what it
holds: WebSockets per user (``SOCKETS_PER_USER``, 16) and WebSockets plus streams per client address
(``CONNECTIONS_PER_ADDRESS``, 100; the streams' own cap per user is ``games.streams.MAX_PER_USER``). A connection
past a cap is refused at once (a socket: an ``error`` frame and close code :data:`CLOSE_TOO_MANY`; a stream: 429)
and holds nothing. The counts live in the process's memory, on its one event loop (no lock needed: nothing awaits
between a check and its increment) and drop when the connection ends.

The client address is the one DRF's throttles use: the connection's peer, or behind our own proxy
(``BEHIND_PROXY=1``, DRF's ``NUM_PROXIES``) the address the proxy wrote into ``X-Forwarded-For``.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from django.conf import settings

#: WebSocket close code of a socket past a cap (4000-4999: application codes; 429 as in HTTP).
CLOSE_TOO_MANY = 4429

_held: Counter[str] = Counter()


def sockets_per_user() -> int:
    return int(getattr(settings, "SOCKETS_PER_USER", 16))


def connections_per_address() -> int:
    return int(getattr(settings, "CONNECTIONS_PER_ADDRESS", 100))


def client_address(scope: dict[str, Any]) -> str:
    """The client's address for an ASGI ``scope``, as DRF's throttles take it from a request (``get_ident``)."""
    proxies = int(getattr(settings, "REST_FRAMEWORK", {}).get("NUM_PROXIES") or 0)
    peer = scope.get("client")
    remote = str(peer[0]) if peer else ""
    if proxies > 0:
        for name, value in scope.get("headers", []):
            if name == b"x-forwarded-for":
                addrs = [a.strip() for a in value.decode("latin-1").split(",") if a.strip()]
                if addrs:
                    return addrs[-min(proxies, len(addrs))]
    return remote


def take(key: str, limit: int) -> bool:
    """Count one more connection under ``key`` if fewer than ``limit`` are held; False (nothing counted) if not."""
    if _held[key] >= limit:
        return False
    _held[key] += 1
    return True


def release(key: str) -> None:
    """One connection counted under ``key`` ended."""
    _held[key] -= 1
    if _held[key] <= 0:
        del _held[key]


def held(key: str) -> int:
    return _held[key]


def address_key(scope: dict[str, Any]) -> str:
    return "addr:" + client_address(scope)


def user_socket_key(user_id: int) -> str:
    return f"sockets:{user_id}"
