"""Read side: the correspondence inbox, one game's view, history, record and replay."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.db.models import BooleanField, Exists, F, OuterRef, QuerySet, Value

from claim import refusals
from games.models import Game, GameEvent, Seat
from games.rules.registry import GAMES

from ._common import SEATS_GAME_CLOCK, game_and_seats, seats_of
from .access import require_visible
from .errors import Conflict, GameNotFound, InvalidRequest
from .moves import replay_step
from .payload import game_view_payload
from .records import record_etag, record_text

INBOX_STATUSES: dict[str, tuple[str, ...]] = {
    "current": (Game.Status.OPEN, Game.Status.ACTIVE),
    "open": (Game.Status.OPEN,),
    "active": (Game.Status.ACTIVE,),
    "finished": (Game.Status.FINISHED,),
    "aborted": (Game.Status.ABORTED,),
    "all": tuple(Game.Status.values),
}


#: Fields of the inbox's game summaries owned by other apps (games.chat registers ``unread_chat`` when it is
#: ready): ``name -> fn(user, games) -> {game id: value}``, answering a whole page at once (bounded queries of
#: the page's games, never of the user's history); a game it leaves out gets ``default``.
SummaryField = tuple[Callable[[Any, list[Game]], dict[int, Any]], Any]
SUMMARY_FIELDS: dict[str, SummaryField] = {}


def with_summary_fields(user: Any, games: list[Game], summaries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``summaries`` (of ``games``, in that order) with the :data:`SUMMARY_FIELDS` added."""
    for name, (fn, default) in SUMMARY_FIELDS.items():
        values = fn(user, games)
        for game, summary in zip(games, summaries, strict=True):
            summary[name] = values.get(game.pk, default)
    return summaries


def inbox(user: Any, status: str = "current", kind: str | None = None) -> QuerySet[Game]:
    """The user's games (of one ``kind`` if given), correspondence order: my turn first, then nearest deadline,
    then most recently updated. ``finished``: newest finished first, a range of the seat_user_finished index
    (a page costs its own rows, however long the player's history)."""
    if status not in INBOX_STATUSES:
        raise InvalidRequest(refusals.not_one_of("status", INBOX_STATUSES), field="status")
    if kind is not None and kind not in GAMES:
        raise InvalidRequest(refusals.not_one_of("kind", sorted(GAMES)), field="kind")
    if status == "finished":
        games = Game.objects.filter(kind=kind) if kind is not None else Game.objects
        return (
            games.filter(seats__user=user, seats__finished_at__isnull=False, status=Game.Status.FINISHED)
            .annotate(my_turn=Value(False, output_field=BooleanField()))
            .order_by("-seats__finished_at", "-seats__game_id")
            .select_related("clock").prefetch_related("seats__user")
        )
    mine = Seat.objects.filter(game=OuterRef("pk"), user=user)
    if status in ("current", "open", "active"):
        # Only the seats of games not finished (the seat_user_current index), never the player's history.
        mine = mine.filter(finished_at__isnull=True)
    games = Game.objects.filter(kind=kind) if kind is not None else Game.objects
    return (
        games.filter(Exists(mine), status__in=INBOX_STATUSES[status])
        .annotate(my_turn=Exists(mine.filter(to_act=True)))
        .order_by("-my_turn", F("deadline").asc(nulls_last=True), "-updated_at", "-pk")
        .select_related("clock").prefetch_related("seats__user")
    )


def get_game(game_id: int) -> Game:
    try:
        return Game.objects.select_related("clock").get(pk=game_id)
    except Game.DoesNotExist:
        raise GameNotFound() from None


def view_for(user: Any, game_id: int) -> dict[str, Any]:
    """``user``'s view of one version: the game, its clock and its seats come from one statement (one
    snapshot), and every later read is of that version (``last_events`` is the entry of ``game.version``,
    :class:`~games.service.payload.GameParts`), so a move committed meanwhile never tears it (issue 22)."""
    game, seats = game_and_seats(SEATS_GAME_CLOCK.fetch([game_id]))
    if game is None:  # every game has its seats; none: no such game
        raise GameNotFound()
    require_visible(game, seats, user)
    return game_view_payload(game, user, seats=seats)


def history_for(user: Any, game_id: int, from_version: int = 0) -> tuple[Game, Seat | None, QuerySet[GameEvent]]:
    game = get_game(game_id)
    seats = seats_of(game)
    mine = require_visible(game, seats, user)
    entries = GameEvent.objects.filter(game=game, version__gte=from_version).select_related("move").order_by("version")
    return game, (mine if mine is not None and mine.joined else None), entries


def _require_ended(game: Game) -> None:
    if game.status == Game.Status.ABORTED and game.state is None:
        raise Conflict("This game was aborted before it was dealt: there is no record.", code="no_record")
    if game.status not in (Game.Status.FINISHED, Game.Status.ABORTED):
        raise Conflict("The record is published when the game ends.", code="not_finished")


@dataclass(frozen=True)
class PublicRecord:
    """An ended game's record, to be answered: its ETag at once (no record read), its text on demand."""

    game: Game
    seats: list[Seat]
    reader: Any = None

    @property
    def etag(self) -> str:
        return record_etag(self.game, self.seats, self.reader)

    def text(self) -> str:
        """The record as JSON text: the stored one (stored now if it was not), with the seats of today and the
        parts that may change after the end (the chat: ``records.LIVE_PARTS``) as the reader sees them."""
        return record_text(self.game, self.seats, self.reader)


def public_record(user: Any, game_id: int) -> PublicRecord:
    """The record of a game ``user`` may see that has ended (409 ``not_finished`` / ``no_record`` otherwise)."""
    game = get_game(game_id)
    seats = seats_of(game)
    require_visible(game, seats, user)
    _require_ended(game)
    return PublicRecord(game, seats, user)


def replay_for(user: Any, game_id: int, step: int | None) -> dict[str, Any]:
    game = get_game(game_id)
    seats = seats_of(game)
    require_visible(game, seats, user)
    _require_ended(game)
    total = game.move_count
    step = total if step is None else step
    if not 0 <= step <= total:
        raise InvalidRequest(refusals.not_between("step", 0, total), field="step")
    return replay_step(game, step)
