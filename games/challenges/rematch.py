"""Rematch offers (issue 33): a finished two-seat game against a human is offered again as a challenge.

``POST /games/{id}/rematch`` runs ``games.service.rematch``, which asks this module (registered in
:data:`games.service.payload.REMATCH_CHALLENGES` by the app's ``ready()``) for a two-seat game against a
human; three or four seats stay a new game inviting the same users (the service's own way). Rulings:

* The offer is a challenge from the player asking to the other one: the finished game's kind, options, time
  control, rated and watchable flags, the challenger in the same seat, ``rematch_of`` naming the finished game. It
  waits :data:`~games.challenges.service.DEFAULT_TTL` and counts towards the challenger's pending limits.
* Asking again while it waits changes nothing (202 again); the other player's request accepts it (200, the
  new game), as does ``POST /challenges/{id}/accept``. Once accepted, either request returns that game.
* Declined: the player declined cannot offer it again on this game (409 ``rematch_declined``); the one who
  declined may offer it themselves. Expired or cancelled: a new offer may be made.
* An opponent whose account is closed (deleted or deactivated) gets no offer: 409 ``opponent_unavailable``.
* Every change of the offer is sent to both players as ``rematch_offer`` (the challenge's events say it;
  games/challenges/events.py); for a rematch made as a game, :func:`on_game_committed` sends it when that
  game is created, joined, started or called off.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.utils import timezone

from games import signals
from games.models import Game, Seat
from games.service._common import lock_game, seats_of
from games.service.clock import clock_row, time_control_of
from games.service.errors import Conflict
from games.service.lifecycle import unavailable_opponents
from games.service.payload import REMATCH_CHALLENGES, rematch_of_game

from . import events, service
from .models import Challenge

#: The history entries of a rematch game that change its offer (created and joined while open, the start,
#: the call-off); later versions (moves) do not.
OFFER_CHANGES = frozenset({"created", "joined", "ai_filled", "aborted"})


def find(game: Game, seats: list[Seat]) -> dict[str, Any] | None:
    """The offer of the newest challenge made as a rematch of ``game`` (the ``rematch_of`` index), or None."""
    c = Challenge.objects.filter(rematch_of=game).order_by("-created_at", "-pk").first()
    return None if c is None else service.challenge_offer_payload(c)


def offer(user: Any, game: Game, seats: list[Seat], mine: Seat) -> tuple[Game, str] | None:
    """Make, repeat or accept the rematch offer of finished two-seat ``game`` (locked by the caller); None: the
    game already has a rematch made before offers were challenges (the service handles it)."""
    c = (Challenge.objects.select_for_update(of=("self",)).select_related("challenger", "to")
         .filter(rematch_of=game).order_by("-created_at", "-pk").first())
    if c is None and game.rematches.exists():
        return None
    if c is not None:
        if c.status == Challenge.Status.PENDING and c.expires_at <= timezone.now():
            service._end(c, Challenge.Status.EXPIRED)
        elif c.status == Challenge.Status.PENDING:
            if c.challenger_id == user.pk:
                return game, "offered"
            accepted = service._accept(c, user)
            assert accepted.game_id is not None  # an accepted challenge has its game
            return lock_game(accepted.game_id), "accepted"  # as the join left it (started)
        elif c.status == Challenge.Status.ACCEPTED and c.game is not None:
            return c.game, "existing"
        elif c.status == Challenge.Status.DECLINED and c.challenger_id == user.pk:
            raise Conflict(f"{c.to.public_name if c.to else 'Your opponent'} declined your rematch offer.",
                           code="rematch_declined")
    gone = unavailable_opponents(seats, mine)
    if gone:
        closed = gone[0].user
        raise Conflict(f"No rematch: the account of {closed.public_name if closed else 'your opponent'} is closed.",
                       code="opponent_unavailable")
    other = next(s for s in seats if s.index != mine.index)
    service._check_pending(user, other.user)
    control = time_control_of(game, clock_row(game))
    now = timezone.now()
    made = Challenge.objects.create(challenger=user, to=other.user, kind=game.kind, options=game.options,
                                    time_control=control.request(), rated=game.rated and control.timed,
                                    watchable=game.watchable,
                                    seat=mine.index, rematch_of=game, created_at=now,
                                    expires_at=now + timedelta(seconds=service.DEFAULT_TTL))
    service.notify(made, "created")
    return game, "offered"


def on_game_committed(sender: Any = None, *, game_id: int, status: str, game: Any = None, parts: Any = None,
                      **kwargs: Any) -> None:
    """``game_committed`` receiver: a change of a game made as a rematch (three or four seats) that changes its
    offer sends ``rematch_offer`` of the finished game to its players. No query for other changes: the
    committed game comes with the signal, except for an abort (then one indexed read of ``rematch_of``)."""
    if game is None:
        if status != Game.Status.ABORTED:
            return
        rematch_of = Game.objects.filter(pk=game_id).values_list("rematch_of_id", flat=True).first()
    else:
        rematch_of = game.rematch_of_id
        change = getattr(getattr(parts, "last_event", None), "type", None)
        if rematch_of is None or status == Game.Status.FINISHED or change not in OFFER_CHANGES:
            return
    if rematch_of is None:
        return
    finished = Game.objects.filter(pk=rematch_of).first()
    if finished is None:
        return
    finished_seats = seats_of(finished)
    _, found = rematch_of_game(finished, finished_seats)
    if found is None or found["kind"] != "game":
        return
    users = [s.user_id for s in finished_seats if s.user_id is not None]
    events.send_frames(events.rematch_frames(finished.pk, users, found), f"rematch offer of game {finished.pk}")


def connect() -> None:
    """Register the two-seat offers with the service and follow rematch games (the app's ``ready()``)."""
    REMATCH_CHALLENGES["find"] = find
    REMATCH_CHALLENGES["offer"] = offer
    signals.game_committed.connect(on_game_committed, dispatch_uid="games.challenges.rematch")
