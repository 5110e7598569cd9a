"""The spectator's JSON: ``SpectatorGame`` (``GET /games/{id}/watch``, the socket's ``spectator_game`` frame) and
``NowPlayingGame`` (``GET /watch``), built from public seat fields and the engine's spectator view only.

Nothing here reads the seed, the move log or the mover's stored answers; the engine state is only handed to
``rules.spectator_view`` (public information only while the game runs: tests/rules/test_spectator_view.py).
"""

from __future__ import annotations

from typing import Any

from django.urls import reverse

from games.models import Game, Seat
from games.service.payload import AI_SEAT_NAMES, GameParts, ended_result


def _iso(dt: Any) -> str | None:
    return dt.isoformat().replace("+00:00", "Z") if dt is not None else None


def public_user(user: Any) -> dict[str, Any]:
    """``PublicUser``: username, public name and whether it is a bot account."""
    return {"username": user.username, "name": user.public_name, "is_bot": user.is_bot}


def spectator_seat(seat: Seat) -> dict[str, Any]:
    """``SpectatorSeat``: who sits there (a person, or the AI with its level and the seat's own AI name, "Ada"),
    whether it is to act, and its outcome once over. No rating, no abort offers."""
    if seat.is_ai:
        user = None
        ai_name: str | None = AI_SEAT_NAMES[seat.index % len(AI_SEAT_NAMES)]
    else:
        user = public_user(seat.user) if seat.user_id is not None and seat.user is not None else None
        ai_name = None
    return {
        "index": seat.index,
        "user": user,
        "ai_level": seat.ai_level,
        "ai_name": ai_name,
        "to_act": seat.to_act,
        "outcome": seat.outcome or None,
    }


def watch_links(game: Game) -> dict[str, str]:
    """Where a spectator goes from here: this payload, the game (players), its chat and, once over, its record."""
    base = reverse("games:game-detail", args=[game.pk])
    return {"self": f"{base}/watch", "game": base, "chat": f"{base}/chat", "record": f"{base}/record"}


def spectator_game(game: Game, seats: list[Seat], *, spectators: int, parts: GameParts | None = None) -> dict[str, Any]:
    """``SpectatorGame``: the game as a spectator sees it at ``game.version``.

    ``view`` is the engine's spectator view of the current state (``rules.spectator_view``), ``clock`` the same
    live clock the players' payload shows (:class:`games.service.payload.GameParts`), ``result`` the result
    once ended (null before), ``spectators`` the count the caller read (:func:`games.spectate.counts.counts`).
    Whether the caller may watch is the caller's job (:func:`games.spectate.access.may_watch`). ``parts``: the
    per-version parts the players' pushes already built (no second engine load or clock read).
    """
    parts = parts if parts is not None else GameParts(game, seats)
    state = parts.state
    view = parts.rules.spectator_view(state) if state is not None else None
    active = game.status == Game.Status.ACTIVE
    return {
        "id": game.pk,
        "kind": game.kind,
        "title": parts.rules.info.title,
        "status": game.status,
        "version": game.version,
        "move_count": game.move_count,
        "rated": game.rated,
        "watchable": game.watchable,
        "seats": [spectator_seat(s) for s in parts.seats],
        "to_act": list(parts.to_act) if active else [],
        "view": view,
        "clock": parts.clock if state is not None else None,
        "result": ended_result(game) if game.is_over else None,
        "ended_reason": game.ended_reason or None,
        "spectators": int(spectators),
        "started_at": _iso(game.started_at),
        "updated_at": _iso(game.updated_at),
        "links": watch_links(game),
    }


def now_playing_game(game: Game, seats: list[Seat], *, spectators: int) -> dict[str, Any]:
    """``NowPlayingGame``: a running watchable game in the "now playing" list (no engine view: cheap). ``seats``
    are the players in seat order, ``null`` for an AI seat; ``moved_at`` is the last change (``updated_at``)."""
    return {
        "id": game.pk,
        "kind": game.kind,
        "rated": game.rated,
        "seats": [public_user(s.user) if (not s.is_ai and s.user_id is not None and s.user is not None) else None
                  for s in seats],
        "version": game.version,
        "moved_at": _iso(game.updated_at),
        "spectators": int(spectators),
    }
