"""Follows, blocks and mutes between users (:class:`accounts.models.Relation`).

Every question here is answered from the ``(user, kind, other)`` unique index or the ``(other, kind, user)``
index, bounded by the ids asked about, never by a user's whole list.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db import transaction
from django.db.models import Q

from .models import Relation
from .signals import relation_changed

FOLLOW, BLOCK, MUTE = Relation.FOLLOW, Relation.BLOCK, Relation.MUTE


def add(user_id: int, kind: str, other_id: int) -> bool:
    """``user_id`` now follows / blocks / mutes ``other_id``; whether that is new. Blocking also ends
    both follows between the two."""
    if user_id == other_id:
        raise ValueError("a user cannot follow, block or mute themselves")
    _, created = Relation.objects.get_or_create(user_id=user_id, kind=kind, other_id=other_id)
    if kind == BLOCK:
        Relation.objects.filter(kind=FOLLOW).filter(
            Q(user_id=user_id, other_id=other_id) | Q(user_id=other_id, other_id=user_id)).delete()
    if created:
        _changed(user_id, kind, other_id, added=True)
    return created


def remove(user_id: int, kind: str, other_id: int) -> bool:
    """``user_id`` no longer follows / blocks / mutes ``other_id``; whether there was such a relation."""
    deleted, _ = Relation.objects.filter(user_id=user_id, kind=kind, other_id=other_id).delete()
    if deleted:
        _changed(user_id, kind, other_id, added=False)
    return deleted > 0


def _changed(user_id: int, kind: str, other_id: int, *, added: bool) -> None:
    transaction.on_commit(lambda: relation_changed.send(
        sender=None, user_id=user_id, kind=kind, other_id=other_id, added=added), robust=True)


def has(user_id: int, kind: str, other_id: int) -> bool:
    return Relation.objects.filter(user_id=user_id, kind=kind, other_id=other_id).exists()


def blocked_between(a: int, b: int) -> bool:
    """Whether either of the two blocks the other."""
    return bool(blocked_among(a, [b]))


def blocked_among(user_id: int, others: Iterable[int]) -> set[int]:
    """Those of ``others`` who block ``user_id`` or whom ``user_id`` blocks (one query)."""
    ids = {o for o in others if o is not None and o != user_id}
    if not ids:
        return set()
    rows = Relation.objects.filter(kind=BLOCK).filter(
        Q(user_id=user_id, other_id__in=ids) | Q(other_id=user_id, user_id__in=ids)).values_list("user_id", "other_id")
    return {b if a == user_id else a for a, b in rows}


def muted_among(user_id: int, authors: Iterable[int]) -> set[int]:
    """Those of ``authors`` whose chat ``user_id`` has muted or blocked, either way (one query): their lines
    are hidden from ``user_id``."""
    ids = {a for a in authors if a is not None and a != user_id}
    if not ids:
        return set()
    rows = Relation.objects.filter(
        Q(user_id=user_id, kind__in=(MUTE, BLOCK), other_id__in=ids) | Q(other_id=user_id, kind=BLOCK, user_id__in=ids)
    ).values_list("user_id", "other_id")
    return {b if a == user_id else a for a, b in rows}


def stances(user_id: int, other_id: int) -> dict[str, bool]:
    """What ``user_id`` sees on ``other_id``'s profile: ``following``, ``followed_by``, ``blocking``, ``muting``,
    ``blocked_by`` (one query)."""
    rows = set(Relation.objects.filter(
        Q(user_id=user_id, other_id=other_id) | Q(user_id=other_id, other_id=user_id, kind__in=(FOLLOW, BLOCK))
    ).values_list("user_id", "kind"))
    return {
        "following": (user_id, FOLLOW) in rows,
        "followed_by": (other_id, FOLLOW) in rows,
        "blocking": (user_id, BLOCK) in rows,
        "muting": (user_id, MUTE) in rows,
        "blocked_by": (other_id, BLOCK) in rows,
    }
