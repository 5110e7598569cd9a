"""Live tournament pages on the ``/ws/`` socket (issue 36; docs/realtime.md, "Tournaments").

A socket that sends ``{"type": "watch_tournament", "tournament_id": N}`` joins the channel-layer group
``tournament.<N>`` (:func:`tournament_group`). The tournaments app (:mod:`games.tournaments.receivers`) sends each of
a tournament's public ``tournament`` events once to that group as :data:`MESSAGE` and to its entrants' ``user.<id>``
groups as ``client.event``; both carry the same ``key``, so a socket that is an entrant's *and* watches the tournament
forwards the event once (:class:`Seen`). Personal events (``new_game``) go to the players' groups only.

The real-time layer does not import the tournaments app (it stands above it): whether a tournament exists is asked
of the lookup the app registers in its ``AppConfig.ready`` (:func:`register_lookup`).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable

#: Channel-layer message type of a tournament event sent to its watchers; the consumer's ``tournament_event``.
MESSAGE = "tournament.event"
#: Most tournaments one socket may watch at once.
MAX_WATCHED_TOURNAMENTS = 10
#: The events a socket remembers to forward each once (an entrant who watches gets each by two groups).
SEEN_KEYS = 256

_lookup: list[Callable[[int], bool]] = []


def tournament_group(tournament_id: int) -> str:
    return f"tournament.{tournament_id}"


def register_lookup(exists: Callable[[int], bool]) -> None:
    """The tournaments app's ``exists(tournament_id)`` (one query), registered once at start-up."""
    _lookup[:] = [exists]


def tournament_exists(tournament_id: int) -> bool:
    """Whether the tournament exists (False when no tournaments app registered its lookup)."""
    return bool(_lookup) and _lookup[0](tournament_id)


class Seen:
    """The keys of the last :data:`SEEN_KEYS` events a socket forwarded: :meth:`first` is True once per key."""

    def __init__(self, size: int = SEEN_KEYS) -> None:
        self.order: deque[str] = deque()
        self.keys: set[str] = set()
        self.size = size

    def first(self, key: str) -> bool:
        if key in self.keys:
            return False
        self.keys.add(key)
        self.order.append(key)
        if len(self.order) > self.size:
            self.keys.discard(self.order.popleft())
        return True
