"""The JSON bodies the API (and the real-time layer) send: built from the engine's ``view`` and
``legal_moves`` for the caller's seat, never from the raw state.

:func:`game_view_payload` is the body of ``GET /api/v1/games/{id}`` for one user and the body the
real-time layer pushes to each seated user.
"""

from __future__ import annotations

from typing import Any

from django.urls import reverse

from games.ai import level_name
from games.models import Game, GameEvent, Seat

from ._common import load_state, rules_of, seat_of_user, seats_of


def _iso(dt: Any) -> str | None:
    return dt.isoformat().replace("+00:00", "Z") if dt is not None else None


def links(game: Game) -> dict[str, str]:
    gid = game.pk
    return {
        "self": reverse("games:game-detail", args=[gid]),
        "moves": reverse("games:game-moves", args=[gid]),
        "history": reverse("games:game-history", args=[gid]),
        "record": reverse("games:game-record", args=[gid]),
        "replay": reverse("games:game-replay", args=[gid]),
    }


def seat_payload(seat: Seat, user: Any) -> dict[str, Any]:
    """A seat as every viewer may see it."""
    if seat.is_ai:
        kind, username, name, is_bot = "ai", None, f"AI ({level_name(seat.ai_level)})", True
    elif seat.user_id is not None:
        kind, username, name, is_bot = "user", seat.user.username, seat.user.public_name, seat.user.is_bot
    else:
        kind, username, name, is_bot = "open", None, None, False
    return {
        "index": seat.index,
        "type": kind,
        "username": username,
        "name": name,
        "is_bot": is_bot,
        "ai_level": seat.ai_level,
        "ai_name": level_name(seat.ai_level) if seat.is_ai else None,
        "rating": None,
        "joined": seat.joined,
        "to_act": seat.to_act,
        "abort_offered": seat.abort_offered,
        "outcome": seat.outcome or None,
        "rank": seat.rank,
        "you": user is not None and seat.user_id is not None and seat.user_id == getattr(user, "pk", None),
    }


def _time_control(game: Game) -> dict[str, Any]:
    return {"type": "correspondence" if game.days_per_move else "unlimited", "days_per_move": game.days_per_move}


def game_summary(game: Game, user: Any, seats: list[Seat] | None = None) -> dict[str, Any]:
    """The inbox entry of a game: no engine view (cheap), no hidden information."""
    seats = seats if seats is not None else seats_of(game)
    mine = seat_of_user(seats, user)
    to_act = [s.index for s in seats if s.to_act] if game.status == Game.Status.ACTIVE else []
    title = _title(game)
    return {
        "id": game.pk,
        "kind": game.kind,
        "title": title,
        "status": game.status,
        "version": game.version,
        "seats": [seat_payload(s, user) for s in seats],
        "my_seat": mine.index if mine else None,
        "to_act": to_act,
        "my_turn": bool(mine and mine.index in to_act),
        "deadline": _iso(game.deadline),
        "time_control": _time_control(game),
        "rated": game.rated,
        "result": game.result if game.status == Game.Status.FINISHED else None,
        "created_at": _iso(game.created_at),
        "updated_at": _iso(game.updated_at),
        "links": links(game),
    }


def _title(game: Game) -> str:
    try:
        return rules_of(game).info.title
    except KeyError:
        return game.kind


def _last_events(game: Game) -> dict[str, Any] | None:
    entry = GameEvent.objects.filter(game=game).order_by("-version").first()
    if entry is None:
        return None
    return {"version": entry.version, "type": entry.type, "seat": entry.seat, "events": entry.events}


def _can_abort(game: Game, seats: list[Seat]) -> bool:
    if game.status == Game.Status.OPEN:
        return True
    if game.status != Game.Status.ACTIVE:
        return False
    from .lifecycle import human_has_moved

    return not human_has_moved(game, seats)


def game_view_payload(game: Game, user: Any, *, seats: list[Seat] | None = None) -> dict[str, Any]:
    """The full view of ``game`` for ``user`` (a seated user sees their seat's view; others the spectator view).

    Visibility is the caller's job (the API answers 404 for private games); this function only ever
    exposes what the engine's ``view`` shows for the user's seat.
    """
    rules = rules_of(game)
    seats = seats if seats is not None else seats_of(game)
    mine = seat_of_user(seats, user)
    my_index = mine.index if (mine is not None and mine.joined) else None
    state = load_state(game, rules)
    active = game.status == Game.Status.ACTIVE
    to_act = sorted(rules.to_act(state)) if (active and state is not None) else []
    legal = rules.legal_moves(state, my_index) if (active and my_index is not None and my_index in to_act) else []
    view = rules.view(state, my_index) if state is not None else None
    rematch = game.rematches.order_by("pk").values_list("pk", flat=True).first()
    body = {
        "id": game.pk,
        "kind": game.kind,
        "title": rules.info.title,
        "options": game.options,
        "status": game.status,
        "version": game.version,
        "move_count": game.move_count,
        "seats": [seat_payload(s, user) for s in seats],
        "my_seat": mine.index if mine else None,
        "to_act": to_act,
        "my_turn": my_index is not None and my_index in to_act,
        "legal_moves": legal,
        "deadline": _iso(game.deadline),
        "time_control": _time_control(game),
        "rated": game.rated,
        "view": view,
        "last_events": _last_events(game),
        "result": game.result if game.status == Game.Status.FINISHED else None,
        "ended_reason": game.ended_reason or None,
        "can_abort": mine is not None and _can_abort(game, seats),
        "invite_code": game.invite_code if (mine is not None and game.status == Game.Status.OPEN) else None,
        "rematch_of": game.rematch_of_id,
        "rematch": rematch,
        "created_at": _iso(game.created_at),
        "updated_at": _iso(game.updated_at),
        "links": links(game),
    }
    return body


def history_entry_payload(entry: GameEvent, game: Game, viewer_seat: int | None) -> dict[str, Any]:
    """One version of the history. Engine events are public; the raw move only after the end or to its seat."""
    move = entry.move
    show_move = move is not None and (game.is_over or (viewer_seat is not None and viewer_seat == move.seat))
    return {
        "version": entry.version,
        "type": entry.type,
        "seat": entry.seat,
        "events": entry.events,
        "move_number": move.number if move is not None else None,
        "move": move.move if show_move else None,
        "created_at": _iso(entry.created_at),
    }


def _seats_public(game: Game, seats: list[Seat]) -> list[dict[str, Any]]:
    return [seat_payload(s, None) for s in seats]


def record_payload(game: Game, seats: list[Seat] | None = None) -> dict[str, Any]:
    """The public record of an ended game: engine record, the move log, the seed and the result."""
    rules = rules_of(game)
    seats = seats if seats is not None else seats_of(game)
    state = load_state(game, rules)
    moves = list(game.moves.order_by("number").values("number", "seat", "move"))
    return {
        "id": game.pk,
        "kind": game.kind,
        "title": rules.info.title,
        "record_format": rules.info.record_format,
        "options": game.options,
        "seats": _seats_public(game, seats),
        "seed": game.seed,
        "status": game.status,
        "ended_reason": game.ended_reason or None,
        "result": game.result,
        "moves": moves,
        "record": rules.record(state) if state is not None else None,
        "created_at": _iso(game.created_at),
        "finished_at": _iso(game.finished_at),
    }
