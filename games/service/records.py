"""Stored public records (issue #32): an ended game's record is built by :func:`record_payload` once and kept
as compact JSON text (:class:`~games.models.GameRecord`); ``GET /games/{id}/record`` and the export serve that
text with the game's seats added.

What is stored is the record without its ``seats``: a seat shows its player's current username and display
name, which change (a profile edit, an account deletion: accounts.services.delete_account), so the seats are
built at each read (:func:`seats_payload`, the code ``record_payload`` uses) and written as the record's last
key. Everything else of an ended game never changes.

A game that finishes by play, resignation or time stores its record in the transaction that finishes it
(:func:`apply_result`, :func:`store_record`). A game that ended before records were stored, or was aborted,
gets its record stored on the first read (:func:`record_bodies`): ``INSERT … ON CONFLICT DO NOTHING``, so two
first reads at once store one row and both answer the same record.

ETags (:func:`record_etag`, :func:`export_etag`) name the games, their ends, their players' names and
:data:`RECORD_SHAPE`: no record is read or built to answer ``304``. Whoever changes what
:func:`record_payload` returns bumps :data:`RECORD_SHAPE` and adds a migration emptying ``games_gamerecord``
(the records are then stored again as they are read).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable, Iterator, Sequence
from itertools import groupby
from typing import Any

from accounts.models import User
from games.models import Game, GameRecord, Seat

from ._common import save_result, set_result
from .payload import record_payload, seats_payload

#: Parts of ``GET /games/{id}/record`` that may still change after the end, added at each read and not stored
#: (the table chat: games.chat registers ``chat`` when it is ready): ``key -> (value, tag)``, where
#: ``value(game, reader)`` is the part's JSON-ready value (None: the record has no such key) and
#: ``tag(game, reader)`` a short text that changes whenever the value does (it is part of the record's ETag). The
#: export's records (:func:`record_lines`) do not carry them.
LivePart = tuple[Callable[[Game, Any], Any], Callable[[Game, Any], str]]
LIVE_PARTS: dict[str, LivePart] = {}

#: Version of the stored records' shape: part of every record ETag (see the module docstring).
RECORD_SHAPE = 1
#: What ``seats_payload`` reads of a seat and its user: the export loads only these (no password hash, no
#: dates of the account to convert).
SEAT_FIELDS = ("game_id", "index", "user_id", "ai_level", "joined_at", "to_act", "abort_offered", "outcome", "rank",
               "rating", "user__username", "user__display_name", "user__is_bot")


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def serialize(record: dict[str, Any]) -> str:
    """The stored text of a record: compact JSON of everything but ``seats`` (a JSON string never holds a raw
    line break, so a record is one NDJSON line)."""
    return _dumps({key: value for key, value in record.items() if key != "seats"})


def with_seats(body: str, seats: list[Seat]) -> str:
    """The whole record: the stored ``body`` with the seats, as ``record_payload`` shows them, as its last key."""
    return f'{body[:-1]},"seats":{_dumps(seats_payload(seats, None))}}}'


def _insert(rows: Sequence[GameRecord]) -> None:
    """Store records; one that is already stored (a concurrent first read) is left as it is."""
    GameRecord.objects.bulk_create(rows, ignore_conflicts=True)


def store_record(game: Game, seats: list[Seat]) -> str:
    """Build the record of ``game`` (ended, its seats ``seats``), store it and return the stored text."""
    body = serialize(record_payload(game, seats))
    _insert([GameRecord(game_id=game.pk, body=body)])
    return body


def apply_result(game: Game, seats: list[Seat], result: dict[str, Any], reason: str) -> None:
    """Finish the game: store the result, each seat's outcome, rank and end, and the game's record.

    The caller holds the game's row lock, every move of the game is in the log, and it saves ``game``
    (status, result, ``finished_at``) in the same transaction."""
    set_result(game, seats, result, reason)
    save_result(seats)
    store_record(game, seats)


def record_bodies(game_ids: Iterable[int]) -> dict[int, str]:
    """The stored texts of ended games by id: one SELECT; the records not stored yet are built and stored
    (their games and seats in two more SELECTs). Only ids of ended games may be passed."""
    ids = list(game_ids)
    found = dict(GameRecord.objects.filter(game_id__in=ids).values_list("game_id", "body"))
    missing = [gid for gid in ids if gid not in found]
    if missing:
        games = Game.objects.filter(pk__in=missing).prefetch_related("seats__user")
        rows = [GameRecord(game_id=g.pk, body=serialize(record_payload(g, list(g.seats.all())))) for g in games]
        _insert(rows)
        found.update((row.game_id, row.body) for row in rows)
    return found


def record_text(game: Game, seats: list[Seat], reader: Any = None) -> str:
    """The whole record of one ended game (``seats``: its seats, with their users), its text stored if it was not,
    with the :data:`LIVE_PARTS` as ``reader`` sees them before the seats."""
    body = record_bodies([game.pk])[game.pk]
    if LIVE_PARTS:
        values = [(key, value(game, reader)) for key, (value, _) in LIVE_PARTS.items()]
        parts = "".join(f",{_dumps(key)}:{_dumps(v)}" for key, v in values if v is not None)
        body = f"{body[:-1]}{parts}}}"
    return with_seats(body, seats)


def record_lines(game_ids: Sequence[int]) -> Iterator[str]:
    """The records of ``game_ids`` (ended games), in that order, one NDJSON line each: two SELECTs (the stored
    texts; the seats and their users), plus two when some record was not stored yet."""
    bodies = record_bodies(game_ids)
    seats = (Seat.objects.filter(game_id__in=game_ids).select_related("user").only(*SEAT_FIELDS)
             .order_by("game_id", "index"))
    by_game = {gid: list(rows) for gid, rows in groupby(seats, key=lambda s: s.game_id)}
    for gid in game_ids:
        yield with_seats(bodies[gid], by_game.get(gid, [])) + "\n"


def _names(seats: Iterable[tuple[Any, ...]]) -> str:
    return ";".join(",".join("" if v is None else str(v) for v in seat) for seat in seats)


def _seat_key(seat: Seat) -> tuple[Any, ...]:
    user = seat.user if seat.user_id is not None else None
    return (seat.index, seat.user_id, user.username if user else None, user.display_name if user else None)


def record_etag(game: Game, seats: list[Seat], reader: Any = None) -> str:
    """The strong ETag of an ended game's record: its id and end, its players' names, the records' shape and the
    tags of the :data:`LIVE_PARTS` for ``reader``."""
    ended = game.finished_at.isoformat() if game.finished_at is not None else ""
    live = "|".join(tag(game, reader) for _, tag in LIVE_PARTS.values())
    digest = hashlib.sha256(f"{RECORD_SHAPE}|{game.pk}|{ended}|{_names(map(_seat_key, seats))}|{live}".encode())
    return f'"record-{digest.hexdigest()[:32]}"'


def export_etag(username: str, game_ids: Sequence[int]) -> str:
    """The strong ETag of an export: the player, the games in order and their players' names (the seats by
    ``seat_unique_index``, then their users by primary key; no record read). Two lookups rather than a join: for a
    page of 1,000 games the planner hashed the whole user table (docs/explain/scale.md)."""
    seats = list(Seat.objects.filter(game_id__in=game_ids).order_by("game_id", "index")
                 .values_list("game_id", "index", "user_id"))
    ids = {user_id for _, _, user_id in seats if user_id is not None}
    names = {uid: (username, shown) for uid, username, shown
             in User.objects.filter(id__in=ids).values_list("id", "username", "display_name")} if ids else {}
    rows = ((game_id, index, user_id, *names.get(user_id, (None, None))) for game_id, index, user_id in seats)
    text = f"{RECORD_SHAPE}|{username}|{','.join(map(str, game_ids))}|{_names(rows)}"
    return f'"export-{hashlib.sha256(text.encode()).hexdigest()[:32]}"'
