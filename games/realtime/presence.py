"""Presence, in Django's cache (Redis when configured): who is online, and who has a game open right now.

* **Online** (issue 35; friends and profiles, games/social; the bots' list, games.bots): a key per user, set by the
  socket consumer on connect and on every ``ping`` and by the NDJSON streams when they open and on every
  keep-alive, lasting :data:`ONLINE_TTL` seconds, so a user whose last socket or stream went quiet drops off within
  that time. Whether others are *shown* it is the reader's business (``User.hide_presence``).
* **Viewing a game**: a key per (user, game), set by the socket consumer while the game is on screen (``viewing``)
  and refreshed on every client message; the notifications app sends nothing about a game to a user who is looking
  at it (:mod:`games.notify.service`).
"""

from __future__ import annotations

from collections.abc import Iterable

from django.core.cache import cache

PRESENCE_TTL = 90  # seconds; the consumer refreshes it while the game is open
#: Seconds a user stays online after their last sign of life (the socket pings at least every 60 s, the
#: streams send a keep-alive every 20 s).
ONLINE_TTL = 90


def online_key(user_id: int) -> str:
    return f"online:{user_id}"


def mark_online(user_id: int) -> None:
    """``user_id`` has a live socket or stream right now (call on connect, ping and keep-alive)."""
    cache.set(online_key(user_id), 1, ONLINE_TTL)


def online_among(user_ids: Iterable[int]) -> set[int]:
    """Which of ``user_ids`` are online now: one cache round trip for all (``get_many``)."""
    keys = {online_key(u): u for u in user_ids}
    if not keys:
        return set()
    return {keys[k] for k in cache.get_many(list(keys))}


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
