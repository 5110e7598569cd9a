"""Reviews of ended games (issue 37): who may ask, the stored review, and its computation.

* **Who**: a player of the game (a seat's user, or one whose seat the AI took on time), or anyone who may watch it
  (:func:`games.spectate.access.may_watch`: it was watchable, and no block stands between them and a player). Anyone
  else gets 404, as for a game they may not see.
* **When**: only once the game has *finished*. A game still open or running is 409 ``game_not_over`` — fair play:
  no evaluation of any kind while it runs, through any route (the review's events and its task only ever exist
  for a finished game); an aborted game has none either (the same code).
* **Once**: a game has at most one :class:`~games.review.models.Review` row. The first request creates it
  (``queued``) and ``review.compute`` is enqueued on the ``review`` queue after the commit (:mod:`.tasks`); a later
  request returns it as it is (and adds the caller to the users told of its progress), a ``failed`` one is queued again.
* **Stuck**: a review ``queued`` or ``running`` that has not moved for :data:`STALE_SECONDS` lost its task; the
  next request queues it again.
* **How**: :func:`compute` replays the game's record (seed + moves) with the engine and, before every move, takes
  the moving seat's view and legal moves then — never the state — and asks :func:`games.ai.review.review_decision`,
  seeded from the game id and the decision's index, with a fixed budget of playouts (reproducible). Progress
  (decisions done / total) is stored after each decision and pushed to the listeners (:mod:`.events`).
"""

from __future__ import annotations

import hashlib
import logging
from datetime import timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone

from games.ai import review as ai_review
from games.models import Game, Move, Seat, SeatDeparture
from games.rules.registry import get_rules
from games.service import Conflict, GameNotFound
from games.service.access import departed
from games.spectate.access import may_watch

from . import events
from .models import MAX_LISTENERS, Review

log = logging.getLogger(__name__)

NOT_OVER = "No review while a game is running: fair play."
ABORTED = "An aborted game has no review."
UNSUPPORTED = "Reviews are not available for this kind of game yet."
#: A review queued or running that has not moved for this long lost its task (a worker or an embedded server
#: stopped): the next request queues it again (the computation restarts; it is deterministic).
STALE_SECONDS = 600


def decision_seed(game_id: int, index: int) -> int:
    """The fixed seed of decision ``index`` (its game version before the move) of game ``game_id``."""
    digest = hashlib.sha256(f"claim-review:{game_id}:{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def may_review(game: Game, seats: list[Seat], user: Any) -> bool:
    """A player of ``game`` (seated, or replaced by the AI on time), or someone who may watch it."""
    if not getattr(user, "is_authenticated", False):
        return False
    if any(s.user_id == user.pk for s in seats) or departed(game, user):
        return True
    return may_watch(game, user, seats)


def _game_for(user: Any, game_id: int) -> Game:
    """The game ``user`` may review, or 404 (:class:`GameNotFound`) / 409 (``game_not_over``)."""
    try:
        game = Game.objects.get(pk=game_id)
    except Game.DoesNotExist:
        raise GameNotFound() from None
    seats = list(Seat.objects.filter(game_id=game.pk))
    if not may_review(game, seats, user):
        raise GameNotFound()
    if game.status == Game.Status.ABORTED:
        raise Conflict(ABORTED, code="game_not_over")
    if game.status != Game.Status.FINISHED:
        raise Conflict(NOT_OVER, code="game_not_over")
    if not ai_review.supports(game.kind):
        raise Conflict(UNSUPPORTED, code="review_unavailable")
    return game


def get_review(user: Any, game_id: int) -> Review:
    """The stored review of a game ``user`` may review: 404 ``no_review`` when none was requested yet."""
    game = _game_for(user, game_id)
    review = Review.objects.filter(game_id=game.pk).first()
    if review is None:
        raise GameNotFound("No review of this game was requested yet.", code="no_review")
    return review


def request_review(user: Any, game_id: int) -> tuple[Review, bool]:
    """Ask for the review of a game: ``(review, queued_now)``; ``queued_now`` is True when this request created
    it or queued a failed one again (the caller then enqueues ``review.compute``: :func:`.tasks.request_review`)."""
    game = _game_for(user, game_id)
    with transaction.atomic():
        review, created = Review.objects.select_for_update().get_or_create(
            game_id=game.pk, defaults={"requested_by_id": user.pk, "listeners": [user.pk],
                                       "total": Move.objects.filter(game_id=game.pk).count(),
                                       "playouts": ai_review.playouts_for(game.kind)})
        queued = created
        if not created:
            if user.pk not in review.listeners and len(review.listeners) < MAX_LISTENERS:
                review.listeners = [*review.listeners, user.pk]
            stale = timezone.now() - timedelta(seconds=STALE_SECONDS)
            if review.status == Review.Status.FAILED or (
                    review.status in (Review.Status.QUEUED, Review.Status.RUNNING) and review.touched_at < stale):
                review.status, review.done, review.error, review.decisions = Review.Status.QUEUED, 0, "", []
                review.playouts = ai_review.playouts_for(game.kind)
                review.touched_at = timezone.now()
                queued = True
            review.save()
    return review, queued


def _players(game: Game) -> dict[int, tuple[str | None, Any]]:
    """Seat index -> (username of its player, the time the AI took it over or None). None: an AI seat."""
    seats = {s.index: s for s in Seat.objects.filter(game_id=game.pk).select_related("user")}
    out: dict[int, tuple[str | None, Any]] = {
        i: (s.user.username if s.user is not None else None, None) for i, s in seats.items()}
    for d in SeatDeparture.objects.filter(game_id=game.pk).select_related("user"):
        out[d.seat] = (d.user.username, d.created_at)
    return out


def _decision_json(index: int, seat: int, player: str | None, d: ai_review.DecisionReview) -> dict[str, Any]:
    return {
        "index": index, "seat": seat, "player": player, "played": d.played, "best": d.best,
        "chance_played": d.chance_played, "chance_best": d.chance_best, "drop": d.drop, "mark": d.mark,
        "options": [{"move": o.move, "chance": o.chance} for o in d.options],
    }


def review_decisions(game: Game, playouts: int, progress: Any = None) -> list[dict[str, Any]]:
    """Every decision of ``game`` (finished) reviewed from its seat's view then; ``progress(done)`` after each."""
    rules = get_rules(game.kind)
    players = _players(game)
    rows = list(Move.objects.filter(game_id=game.pk).order_by("number").values_list("seat", "move", "version",
                                                                                    "created_at"))
    state = rules.setup(game.options, game.seat_count, game.seed)
    out: list[dict[str, Any]] = []
    for done, (seat, move, version, created_at) in enumerate(rows, start=1):
        index = version - 1
        view = rules.view(state, seat)  # the seat's information then: never the state itself
        legal = rules.legal_moves(state, seat)
        d = ai_review.review_decision(game.kind, view, legal, move, decision_seed(game.pk, index), playouts)
        name, replaced_at = players.get(seat, (None, None))
        player = None if replaced_at is not None and created_at >= replaced_at else name
        out.append(_decision_json(index, seat, player, d))
        state, _ = rules.apply(state, seat, move)
        if progress is not None:
            progress(done)
    return out


def compute(game_id: int) -> bool:
    """Compute and store the review of ``game_id`` (the ``review.compute`` task). Idempotent: a review done or
    failed is left alone; one queued or running (a redelivered task) is computed (again: the result is the same).
    Returns True when it stored a review."""
    with transaction.atomic():
        review = Review.objects.select_for_update().filter(game_id=game_id).select_related("game").first()
        if review is None or review.status in (Review.Status.DONE, Review.Status.FAILED):
            return False
        game = review.game
        if game.status != Game.Status.FINISHED:  # never while it runs (cannot be: reviews are created after)
            review.status, review.error = Review.Status.FAILED, "The game is not finished."
            review.save(update_fields=["status", "error"])
            return False
        review.status, review.done, review.touched_at = Review.Status.RUNNING, 0, timezone.now()
        review.total = Move.objects.filter(game_id=game_id).count()
        review.save(update_fields=["status", "done", "total", "touched_at"])
    events.push(review)
    playouts = review.playouts or ai_review.playouts_for(game.kind)

    def progress(done: int) -> None:
        review.done = done
        Review.objects.filter(pk=game_id, status=Review.Status.RUNNING).update(done=done, touched_at=timezone.now())
        events.push(review)

    try:
        decisions = review_decisions(game, playouts, progress)
    except Exception as exc:
        log.exception("review of game %s failed", game_id)
        review.status, review.error = Review.Status.FAILED, f"{type(exc).__name__}: {exc}"[:200]
        Review.objects.filter(pk=game_id).update(status=review.status, error=review.error)
        events.push(review)
        return False
    review.status, review.decisions, review.done = Review.Status.DONE, decisions, len(decisions)
    review.finished_at = timezone.now()
    Review.objects.filter(pk=game_id).update(status=review.status, decisions=decisions, done=review.done,
                                             finished_at=review.finished_at)
    events.push(review)
    return True


def review_payload(review: Review) -> dict[str, Any]:
    """The API's ``Review`` object."""
    return {
        "game_id": review.game_id,
        "status": review.status,
        "progress": {"done": review.done, "total": review.total},
        "thresholds": {"inaccuracy": ai_review.INACCURACY, "mistake": ai_review.MISTAKE},
        "decisions": review.decisions if review.status == Review.Status.DONE else [],
    }
