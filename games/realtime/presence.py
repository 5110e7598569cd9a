"""Who has a game open right now: a key per (user, game) in Django's cache, set by the socket consumer while
the game is on screen (``viewing``) and refreshed on every client message; the notifications app sends
nothing about a game to a user who is looking at it (:mod:`games.notify.service`)."""

from __future__ import annotations

from collections.abc import Iterable

from django.core.cache import cache

PRESENCE_TTL = 90  # seconds; the consumer refreshes it while the game is open


def presence_key(user_id: int, game_id: int) -> str:
    return f"presence:{user_id}:{game_id}"


def mark_present(user_id: int, game_id: int, ttl: int = PRESENCE_TTL) -> None:
    """The user has the game open right now (call on subscribe and on every client message/ping)."""
    cache.set(presence_key(user_id, game_id), 1, ttl)


def mark_absent(user_id: int, game_id: int) -> None:
    cache.delete(presence_key(user_id, game_id))


def is_present(user_id: int, game_id: int | None) -> bool:
    return game_id is not None and cache.get(presence_key(user_id, game_id)) is not None


def present_users(user_ids: list[int], game_id: int | None) -> set[int]:
    """Who of ``user_ids`` has game ``game_id`` open right now: one cache round trip for all."""
    if game_id is None:
        return set()
    return {u for u, _ in present_pairs([(u, game_id) for u in user_ids])}


def present_pairs(pairs: Iterable[tuple[int, int | None]]) -> set[tuple[int, int]]:
    """Which ``(user id, game id)`` pairs are "the user has the game open right now": one cache round
    trip for all (pairs without a game are never present)."""
    keys = {presence_key(u, g): (u, g) for u, g in pairs if g is not None}
    if not keys:
        return set()
    return {keys[k] for k in cache.get_many(list(keys))}
