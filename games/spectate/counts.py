"""How many spectators watch each game, kept in Django's cache (Redis when ``REDIS_URL`` is set, so every web
process and socket server shares it; the embedded run's one process keeps it in memory).

Per game one cache entry ``spectate:watchers:<game id>``: a dict from a watcher's key (its socket's channel
name, a stream's id: any string unique per watching connection) to the time its entry expires. A watcher is
counted from :func:`watch_started` until :func:`watch_stopped` or until :data:`WATCHER_TTL` seconds without a
refresh (call :func:`watch_refresh`, or :func:`watch_started` again, at least every ``WATCHER_TTL / 2``
seconds): a socket server that dies without saying goodbye stops being counted within the TTL.

Writes of one game's entry take a short lock (``cache.add``, atomic in every backend) so that two processes do
not lose each other's watcher. A game holds at most :data:`MAX_WATCHERS` entries (a bounded entry; beyond it
new watchers are not counted). :func:`counts` reads any number of games in one round trip (``get_many``).
"""

from __future__ import annotations

import time
from collections.abc import Iterable

from django.core.cache import cache

#: Seconds a watcher stays counted without a refresh.
WATCHER_TTL = 90
#: At most this many watchers are counted per game.
MAX_WATCHERS = 5000

_LOCK_TTL = 2
_LOCK_TRIES = 20


def _key(game_id: int) -> str:
    return f"spectate:watchers:{int(game_id)}"


def _live(entry: object, now: float) -> dict[str, float]:
    if not isinstance(entry, dict):
        return {}
    return {k: exp for k, exp in entry.items() if isinstance(exp, (int, float)) and exp > now}


def _update(game_id: int, key: str, *, add: bool) -> int:
    """Add (or refresh) or remove ``key`` among ``game_id``'s watchers under the game's lock; the new count."""
    lock = _key(game_id) + ":lock"
    locked = False
    for _ in range(_LOCK_TRIES):
        locked = bool(cache.add(lock, 1, timeout=_LOCK_TTL))
        if locked:
            break
        time.sleep(0.01)
    # Without the lock after the tries (a holder that died: it expires in _LOCK_TTL) the write goes ahead: at
    # worst a concurrent watcher is missed until its next refresh.
    try:
        now = time.time()
        watchers = _live(cache.get(_key(game_id)), now)
        if add:
            if key in watchers or len(watchers) < MAX_WATCHERS:
                watchers[key] = now + WATCHER_TTL
        else:
            watchers.pop(key, None)
        if watchers:
            cache.set(_key(game_id), watchers, timeout=WATCHER_TTL)
        else:
            cache.delete(_key(game_id))
        return len(watchers)
    finally:
        if locked:
            cache.delete(lock)


def watch_started(game_id: int, key: str) -> int:
    """``key`` (one watching connection) now watches ``game_id`` (again: a refresh); the game's spectator count."""
    return _update(game_id, str(key), add=True)


def watch_refresh(game_id: int, key: str) -> int:
    """``key`` still watches ``game_id`` (keeps it counted for another :data:`WATCHER_TTL`); the count."""
    return _update(game_id, str(key), add=True)


def watch_stopped(game_id: int, key: str) -> int:
    """``key`` no longer watches ``game_id``; the game's spectator count (unknown keys change nothing)."""
    return _update(game_id, str(key), add=False)


def count(game_id: int) -> int:
    """The spectators of one game now."""
    return counts([game_id]).get(int(game_id), 0)


def counts(game_ids: Iterable[int]) -> dict[int, int]:
    """The spectators now of each of ``game_ids`` (0 for a game nobody watches): one cache round trip."""
    ids = [int(g) for g in game_ids]
    if not ids:
        return {}
    now = time.time()
    found = cache.get_many([_key(g) for g in ids])
    return {g: len(_live(found.get(_key(g)), now)) for g in ids}
