"""The JSON bodies the API (and the real-time layer) send: built from the engine's ``view`` and
``legal_moves`` for the caller's seat, never from the raw state.

:func:`game_view_payload` is the body of ``GET /api/v1/games/{id}`` for one user and the body the
real-time layer pushes to each seated user.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from django.urls import get_script_prefix, reverse

from games.ai import level_name
from games.models import Game, GameEvent, Seat

from ._common import human_has_moved, load_state, rules_of, seat_of_user, seats_of
from .clock import clock_row, clock_view, time_control_of


def _iso(dt: Any) -> str | None:
    return dt.isoformat().replace("+00:00", "Z") if dt is not None else None


_LINKS = {"self": "games:game-detail", "moves": "games:game-moves", "history": "games:game-history",
          "record": "games:game-record", "replay": "games:game-replay"}
_ANY_ID = 918273645546372819  # reversed once in place of a game id, then replaced by each game's


@functools.lru_cache(maxsize=8)
def _link_templates(script_prefix: str) -> tuple[tuple[str, str, str], ...]:
    """``(name, before the id, after the id)`` of every link: ``reverse`` once, not five times a view."""
    out = []
    for name, route in _LINKS.items():
        before, _, after = reverse(route, args=[_ANY_ID]).partition(str(_ANY_ID))
        out.append((name, before, after))
    return tuple(out)


def links(game: Game) -> dict[str, str]:
    gid = str(game.pk)
    return {name: f"{before}{gid}{after}" for name, before, after in _link_templates(get_script_prefix())}


#: The AI seats' own names, by seat index (docs/api.md "Seats"): proper names that read as nobody's faction,
#: clan, level or number, one per seat, so that several AI seats of a game differ and a seat keeps its name
#: when the AI takes it over. ``accounts.names.AI_SEAT_NAMES`` reserves them (a test compares).
AI_SEAT_NAMES = ("Ada", "Boris", "Cleo", "Dario")


def ai_seat_name(index: int) -> str:
    """The name the API gives the AI playing seat ``index``: "Ada (AI)", "Boris (AI)"... (the level is
    ``ai_level``/``ai_name`` beside it, never in the name: "Knight" is a faction's name too)."""
    return f"{AI_SEAT_NAMES[index % len(AI_SEAT_NAMES)]} (AI)"


def seats_payload(seats: list[Seat], user: Any) -> list[dict[str, Any]]:
    """The seats as every viewer may see them; each AI seat named by its seat (:func:`ai_seat_name`), so in a
    3-4 seat game everyone knows who played what."""
    return [seat_payload(s, user) for s in seats]


def seat_payload(seat: Seat, user: Any) -> dict[str, Any]:
    """A seat as every viewer may see it."""
    if seat.is_ai:
        name = ai_seat_name(seat.index)
        kind, username, is_bot = "ai", None, True
    elif seat.user_id is not None:
        seat_user = seat.user
        assert seat_user is not None  # user_id is set
        kind, username, name, is_bot = "user", seat_user.username, seat_user.public_name, seat_user.is_bot
    else:
        kind, username, name, is_bot = "open", None, None, False
    return {
        "index": seat.index,
        "type": kind,
        "username": username,
        "name": name,
        "is_bot": is_bot,
        "ai_level": seat.ai_level,
        "ai_name": level_name(seat.ai_level) if seat.ai_level is not None else None,  # seat.is_ai
        "rating": seat.rating,
        "joined": seat.joined,
        "to_act": seat.to_act,
        "abort_offered": seat.abort_offered,
        "outcome": seat.outcome or None,
        "rank": seat.rank,
        "you": user is not None and seat.user_id is not None and seat.user_id == getattr(user, "pk", None),
    }


def _time_control(game: Game) -> dict[str, Any]:
    """The time control (``type`` "correspondence" = days per move, "bank" or "unlimited") and its description."""
    return time_control_of(game, clock_row(game)).payload()


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
        "seats": seats_payload(seats, user),
        "my_seat": mine.index if mine else None,
        "creator_seat": creator_seat(game, seats),
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


def creator_seat(game: Game, seats: list[Seat]) -> int | None:
    """The seat of the player who created the game (who invited the others), from the seats at hand: no query."""
    return next((s.index for s in seats if s.user_id is not None and s.user_id == game.created_by_id), None)


def _title(game: Game) -> str:
    try:
        return rules_of(game).info.title
    except KeyError:
        return game.kind


def _event_payload(entry: GameEvent | None) -> dict[str, Any] | None:
    if entry is None:
        return None
    return {"version": entry.version, "type": entry.type, "seat": entry.seat, "events": entry.events}


def _last_entry(game: Game) -> GameEvent | None:
    """The history entry of ``game.version`` (the latest at or before it): a move committed after ``game``
    was read writes a later one, which belongs to a later view (issue 22, the torn read)."""
    return GameEvent.objects.filter(game=game, version__lte=game.version).order_by("-version").first()


def _can_abort(game: Game, seats: list[Seat]) -> bool:
    if game.status == Game.Status.OPEN:
        return True
    if game.status != Game.Status.ACTIVE:
        return False
    return not human_has_moved(game, seats)


_UNSET: Any = object()


class GameParts:
    """What every user's view of one version of a game shares, computed once (at most one query each).

    The per-user part (the engine's ``view`` and ``legal_moves`` for the user's own seat, ``my_seat``,
    ``you``) is built by :func:`game_view_payload`; nothing seat-specific is kept here except the
    engine state, which never leaves the server. Callers that already know a part (the service right
    after a move knows the new state, the last history entry, whether a human has moved) pass it in.
    """

    def __init__(self, game: Game, seats: list[Seat], *, rules: Any = None, state: Any = _UNSET,
                 last_event: GameEvent | Any | None = _UNSET, human_moved: bool | None = None,
                 rematch: int | Any | None = _UNSET) -> None:
        # ``last_event``: the history entry at the game's version (unsaved is fine: its fields are read).
        self.game = game
        self.seats = seats
        self.rules = rules or rules_of(game)
        self.state = load_state(game, self.rules) if state is _UNSET else state
        active = game.status == Game.Status.ACTIVE
        self.to_act = sorted(self.rules.to_act(self.state)) if (active and self.state is not None) else []
        self._last_event = last_event
        self._last_events: Any = _UNSET
        self._human_moved = human_moved
        self._can_abort: bool | None = None
        self._rematch: Any = rematch
        self._rematch_offer: Any = _UNSET
        self._seats: list[dict[str, Any]] | None = None
        self._links: dict[str, str] | None = None
        self._clock: dict[str, Any] | None = None
        self._time_control: dict[str, Any] | None = None

    @property
    def last_event(self) -> GameEvent | None:
        if self._last_event is _UNSET:
            self._last_event = _last_entry(self.game)
        return self._last_event

    @property
    def last_events(self) -> dict[str, Any] | None:
        if self._last_events is _UNSET:
            self._last_events = _event_payload(self.last_event)
        return self._last_events

    @property
    def clock(self) -> dict[str, Any]:
        """The live clock (:func:`games.service.clock.clock_view`): no query when the game was loaded with
        its clock; a bank clock one version behind is extended by the last entry, read only then. The seats'
        booked vacation comes from the clock app's reader (a cache read; the database on a miss)."""
        if self._clock is None:
            row = clock_row(self.game)
            stale = (row is not None and row.control == row.Control.BANK and row.synced_version != self.game.version
                     and self.game.status == Game.Status.ACTIVE)
            self._clock = clock_view(self.game, self.seats, self.to_act, row,
                                     last_event=self.last_event if stale else None)
        return self._clock

    @property
    def time_control(self) -> dict[str, Any]:
        if self._time_control is None:
            self._time_control = _time_control(self.game)
        return self._time_control

    @property
    def can_abort(self) -> bool:
        if self._can_abort is None:
            game = self.game
            if game.status == Game.Status.ACTIVE and self._human_moved is not None:
                self._can_abort = not self._human_moved
            else:
                self._can_abort = _can_abort(game, self.seats)
        return self._can_abort

    @property
    def rematch(self) -> int | None:
        """The id of the rematch game (null while a two-seat offer waits, or after it was declined)."""
        self._load_rematch()
        return self._rematch

    @property
    def rematch_offer(self) -> dict[str, Any] | None:
        """The rematch offer of a finished game (:func:`rematch_offer_of`), null when there is none."""
        self._load_rematch()
        return self._rematch_offer

    def _load_rematch(self) -> None:
        if self._rematch is not _UNSET and self._rematch_offer is not _UNSET:
            return
        if self._rematch is None or self.game.status != Game.Status.FINISHED:
            # A game that has just ended (the service passes ``rematch=None``) or has not finished has neither:
            # a rematch is offered from a finished game only (games.service.rematch).
            self._rematch, self._rematch_offer = None, None
            return
        self._rematch, self._rematch_offer = rematch_of_game(self.game, self.seats)

    @property
    def links(self) -> dict[str, str]:
        if self._links is None:
            self._links = links(self.game)
        return self._links

    def seat_payloads(self) -> list[dict[str, Any]]:
        """Every seat as anybody sees it, without ``you`` (added per viewer)."""
        if self._seats is None:
            self._seats = seats_payload(self.seats, None)
        return self._seats


def committed_parts(game: Game, seats: list[Seat], last_event: GameEvent) -> GameParts:
    """The :class:`GameParts` of the version a service call has just written (``seats`` and ``last_event``
    as committed), for its commit hooks; remembered on ``game``, so the caller's answer built from the same
    instance at the same version (:func:`game_view_payload` without ``seats``) reads nothing again."""
    parts = GameParts(game, seats, last_event=last_event)
    game._committed_parts = (game.version, parts)  # type: ignore[attr-defined]
    return parts


def _remembered_parts(game: Game) -> GameParts | None:
    found = getattr(game, "_committed_parts", None)
    return found[1] if found is not None and found[0] == game.version else None


def game_view_payload(game: Game, user: Any, *, seats: list[Seat] | None = None,
                      parts: GameParts | None = None) -> dict[str, Any]:
    """The full view of ``game`` for ``user`` (a seated user sees their seat's view; others the spectator view).

    Visibility is the caller's job (the API answers 404 for private games); this function only ever
    exposes what the engine's ``view`` shows for the user's seat. ``parts``: the per-game parts of this
    version (:class:`GameParts`), shared by the views of several users; without it or ``seats``, those a
    service call remembered for this version of this instance (:func:`committed_parts`), else built here.
    """
    if parts is None and seats is None:
        parts = _remembered_parts(game)
    if parts is None:
        parts = GameParts(game, seats if seats is not None else seats_of(game))
    seats = parts.seats
    rules, state, to_act = parts.rules, parts.state, parts.to_act
    mine = seat_of_user(seats, user)
    my_index = mine.index if (mine is not None and mine.joined) else None
    active = game.status == Game.Status.ACTIVE
    legal = rules.legal_moves(state, my_index) if (active and my_index is not None and my_index in to_act) else []
    view = rules.view(state, my_index) if state is not None else None
    user_pk = getattr(user, "pk", None) if user is not None else None
    seat_rows = [
        {**body, "you": user is not None and s.user_id is not None and s.user_id == user_pk}
        for s, body in zip(seats, parts.seat_payloads(), strict=True)
    ]
    body = {
        "id": game.pk,
        "kind": game.kind,
        "title": rules.info.title,
        "options": game.options,
        "status": game.status,
        "version": game.version,
        "move_count": game.move_count,
        "seats": seat_rows,
        "my_seat": mine.index if mine else None,
        "creator_seat": creator_seat(game, seats),
        "to_act": list(to_act),
        "my_turn": my_index is not None and my_index in to_act,
        "legal_moves": legal,
        "deadline": parts.clock["deadline"],
        "time_control": parts.time_control,
        "clock": parts.clock,
        "rated": game.rated,
        "watchable": game.watchable,
        "view": view,
        "last_events": parts.last_events,
        "result": game.result if game.status == Game.Status.FINISHED else None,
        "ended_reason": game.ended_reason or None,
        "can_abort": mine is not None and parts.can_abort,
        "invite_code": game.invite_code if (mine is not None and game.status == Game.Status.OPEN) else None,
        "rematch_of": game.rematch_of_id,
        "rematch": parts.rematch,
        "rematch_offer": parts.rematch_offer,
        "created_at": _iso(game.created_at),
        "updated_at": _iso(game.updated_at),
        "links": parts.links,
    }
    return body


# --- Rematch offers (issue 33) ----------------------------------------------------------------------------

#: How two-seat rematch offers against a human (challenges) are read and made: ``"find"(game, seats)`` gives
#: the offer of a finished game or None, ``"offer"(user, game, seats, mine)`` makes or answers one
#: (games/challenges/rematch.py registers both in the app's ``ready()``: the service does not import its
#: subscribers). Without them, every rematch is a new game, as for three or four seats.
REMATCH_CHALLENGES: dict[str, Callable[..., Any]] = {}

#: ``rematch_offer.status`` (for the OpenAPI enum).
REMATCH_OFFER_STATUSES = ["pending", "accepted", "declined", "cancelled", "expired"]


def rematch_of_game(game: Game, seats: list[Seat]) -> tuple[int | None, dict[str, Any] | None]:
    """``(rematch, rematch_offer)`` of a finished game: the rematch game's id (null until accepted, and for one
    called off) and the offer. The offer is the newest challenge made as its rematch if there is one (two
    seats against a human), else the newest game made as its rematch. Indexed reads (the foreign keys'
    indexes): one challenge, or one game and its seats (and its ``aborted`` entry once called off)."""
    find = REMATCH_CHALLENGES.get("find")
    offer = find(game, seats) if find is not None else None
    if offer is not None:
        return (offer["game_id"] if offer["status"] == "accepted" else None), offer
    latest = Game.objects.filter(rematch_of=game).order_by("-pk").first()
    if latest is None:
        return None, None
    return (None if latest.status == Game.Status.ABORTED else latest.pk), game_offer_payload(latest, seats_of(latest))


def _aborting_seat(game: Game) -> int | None:
    return (GameEvent.objects.filter(game=game, type="aborted").order_by("-version")
            .values_list("seat", flat=True).first())


def offer_links(kind: str, ident: str) -> dict[str, str]:
    """Where to answer an offer: a challenge's accept/decline/cancel, or the rematch game's join/abort."""
    if kind == "challenge":
        base = f"/api/v1/challenges/{ident}"
        return {"accept": f"{base}/accept", "decline": f"{base}/decline", "cancel": f"{base}/cancel"}
    base = f"/api/v1/games/{ident}"
    return {"accept": f"{base}/join", "decline": f"{base}/abort", "cancel": f"{base}/abort"}


def game_offer_payload(rematch: Game, seats: list[Seat]) -> dict[str, Any]:
    """The offer of a rematch made as a new game (three or four seats, or against the AI), from that game and
    its seats (the same seat numbers as the finished game). Open: ``pending``; started: ``accepted``; called
    off: ``cancelled`` by its creator, else ``declined`` by the seat that called it off (``declined_by``)."""
    by = creator_seat(rematch, seats)
    declined_by = None
    if rematch.status == Game.Status.OPEN:
        status = "pending"
    elif rematch.status == Game.Status.ABORTED:
        ended_by = _aborting_seat(rematch)
        if ended_by is None or ended_by == by:
            status = "cancelled"
        else:
            status, declined_by = "declined", ended_by
    else:
        status = "accepted"
    return {"kind": "game", "id": str(rematch.pk), "by": by, "status": status, "game_id": rematch.pk,
            "declined_by": declined_by, "decline_reason": None,
            "joined": [s.index for s in seats if s.user_id is not None and s.joined],
            "expires_at": None, "links": offer_links("game", str(rematch.pk))}


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
        "move": move.move if move is not None and show_move else None,
        "created_at": _iso(entry.created_at),
    }


def _seats_public(game: Game, seats: list[Seat]) -> list[dict[str, Any]]:
    return seats_payload(seats, None)


def ended_result(game: Game) -> dict[str, Any] | None:
    """The result of an ended game as the service decided it (with ``reason``): an aborted game has none
    stored, so it gets a result without winners."""
    if game.status == Game.Status.ABORTED:
        return {"winner": None, "winners": [], "reason": "aborted"}
    return game.result


def self_contained_record(game: Game, record: dict[str, Any]) -> dict[str, Any]:
    """The engine's record with how the game ended (issue 26): ``ended_reason`` always, and ``result``
    filled from the game when the engine has none because play was cut short (resigned, timeout, aborted).
    A game that ended by play keeps the engine's own ``result`` (``replay_record`` recomputes exactly it)."""
    record = dict(record)
    record["ended_reason"] = game.ended_reason or None
    if record.get("result") is None:
        record["result"] = ended_result(game)
    return record


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
        "result": ended_result(game),
        "moves": moves,
        "record": self_contained_record(game, rules.record(state)) if state is not None else None,
        "created_at": _iso(game.created_at),
        "finished_at": _iso(game.finished_at),
    }
