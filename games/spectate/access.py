"""Who may watch a game (the one implementation: the watch endpoints, the socket's ``watch`` and the chat's
spectators' room use it)."""

from __future__ import annotations

from typing import Any

from accounts.relations import blocked_among
from games.models import Game, Seat


def may_watch(game: Game, user: Any, seats: list[Seat] | None = None) -> bool:
    """Whether ``user`` may watch ``game`` as a spectator: it is watchable, has started, and no player of it has a
    block with ``user`` either way (one indexed query on the relations; none for an anonymous ``user``, who has
    no blocks). ``seats``: the game's, read when not given. A player of the game passes when the rest holds (a
    player never blocks a fellow player's game away from themselves: ``blocked_among`` leaves ``user`` out)."""
    if not game.watchable or game.started_at is None:
        return False
    user_pk = getattr(user, "pk", None) if user is not None and getattr(user, "is_authenticated", False) else None
    if user_pk is None:
        return True
    if seats is None:
        seats = list(Seat.objects.filter(game_id=game.pk))
    return not blocked_among(user_pk, [s.user_id for s in seats if s.user_id is not None])


def watch_group(game_id: int) -> str:
    """The channel-layer group of a game's spectators' sockets and watch streams (their frames, the spectators'
    room's chat lines)."""
    return f"watch.{game_id}"
