"""Creating, joining, filling seats with the AI, resigning, aborting and rematching games. One transaction each."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from accounts.relations import blocked_among
from claim import refusals
from games import signals
from games.ai import LEVELS
from games.models import DAYS_PER_MOVE_CHOICES, Game, GameClock, Seat
from games.rules.base import RulesError
from games.rules.registry import get_rules

from ._common import (
    after_commit,
    bump,
    human_has_moved,
    lock_game,
    rules_of,
    seat_of_user,
    seats_of,
    set_to_act,
    sync_to_act,
)
from .access import lock_joined_seat, require_joined_seat, require_visible
from .clock import TimeControl, clock_row, parse_time_control, refuse_unlimited_rated, time_control_of
from .errors import Blocked, Conflict, Forbidden, GameNotFound, InvalidRequest
from .payload import REMATCH_CHALLENGES, committed_parts
from .records import apply_result

DAYS_PER_MOVE = tuple(d for d, _ in DAYS_PER_MOVE_CHOICES)
#: The refusal of a join when a block stands between the user and a player of the game (it names nobody).
BLOCKED_JOIN = "You cannot join this game: a block stands between you and one of its players."


def _start_if_full(game: Game, seats: list[Seat], events: list[dict[str, Any]], stored: bool = True) -> None:
    """All seats joined: the engine deals from the secret seed and the game becomes active.

    The seats' ``to_act`` and ``rating`` (set by the ``game_starting`` receivers: the ratings app's snapshot)
    are set in memory, then, with ``stored`` (the seats are rows already: a join, an AI fill), saved in one
    UPDATE; without (:func:`create_game` with every seat filled), the caller's INSERT of the seats carries them."""
    if game.status != Game.Status.OPEN or not all(s.joined for s in seats):
        return
    rules = rules_of(game)
    state = rules.setup(game.options, game.seat_count, game.seed)
    game.state = rules.to_json(state)
    game.status = Game.Status.ACTIVE
    game.started_at = timezone.now()
    to_act = rules.to_act(state)
    set_to_act(game, seats, to_act)
    signals.game_starting.send(sender=Game, game=game, seats=seats)  # the ratings app snapshots the seats' ratings
    if stored:
        Seat.objects.bulk_update(seats, ["to_act", "rating"])
    events.append({"type": "started", "to_act": sorted(to_act)})


def _start_clock(game: Game, control: TimeControl, tournament: bool = False) -> None:
    """A bank clock gets its :class:`~games.models.GameClock` (banks full, snapshot before version 1);
    days per move and unlimited need none, except in a tournament game (``GameClock.tournament``: no vacation,
    no pause, no abort). The game keeps the row, so its payload reads no clock."""

    clock = None
    if control.control == "bank":
        clock = GameClock.objects.create(game=game, control=GameClock.Control.BANK,
                                         initial_seconds=control.initial_seconds,
                                         increment_seconds=control.increment_seconds,
                                         cap_seconds=control.cap_seconds,
                                         banks=[float(control.initial_seconds)] * game.seat_count,
                                         synced_version=game.version, tournament=tournament)
    elif tournament:
        clock = GameClock.objects.create(game=game, control=GameClock.Control.DAYS if control.days_per_move
                                         else GameClock.Control.UNLIMITED, tournament=True)
    Game.clock.related.set_cached_value(game, clock)


def is_tournament_game(game: Game) -> bool:
    """A tournament's game (its clock says so; no query after ``lock_game``, which joins the clock)."""
    clock = clock_row(game)
    return clock is not None and clock.tournament


def _parse_opponents(user: Any, opponents: Sequence[Mapping[str, Any]], count: int) -> list[dict[str, Any]]:
    if len(opponents) != count:
        raise InvalidRequest(f"{count} opponent(s) needed, got {len(opponents)}.", field="opponents")
    User = get_user_model()
    out: list[dict[str, Any]] = []
    seen: set[int] = {user.pk}
    for i, opp in enumerate(opponents):
        kind = opp.get("type")
        if kind == "open":
            out.append({"type": "open"})
        elif kind == "ai":
            level = opp.get("level", 1)
            if not isinstance(level, int) or isinstance(level, bool) or level not in LEVELS:
                raise InvalidRequest(f"opponent {i + 1}: AI level must be one of {sorted(LEVELS)}.",
                                     field="opponents")
            out.append({"type": "ai", "level": level})
        elif kind == "user":
            name = opp.get("username")
            other = opp.get("user")  # service callers that hold the user (seeks, challenges, tournaments)
            if isinstance(other, User):
                name = other.username
                other = other if other.is_active else None
            elif isinstance(name, str):
                other = User.objects.filter(username__iexact=name, is_active=True).first()
            else:
                other = None
            if other is None:
                raise InvalidRequest(gettext("opponent {n}: no player named {name}.").format(n=i + 1, name=repr(name)),
                                     field="opponents")
            if other.pk in seen:
                twice = (gettext("opponent {n}: you cannot invite yourself.") if other.pk == user.pk
                         else gettext("opponent {n}: you cannot invite {name} twice."))
                raise InvalidRequest(twice.format(n=i + 1, name=other.username), field="opponents")
            seen.add(other.pk)
            out.append({"type": "user", "user": other})
        else:
            raise InvalidRequest(f'opponent {i + 1}: type must be "user", "open" or "ai".', field="opponents")
    return out


def _refuse_blocked_invitations(user: Any, parsed: Sequence[Mapping[str, Any]]) -> None:
    """403 ``blocked`` when the creator and a user they invite have a block, either way (one query over the
    invited users); the message names the opponent, never who blocked whom."""
    invited = [(i, o["user"]) for i, o in enumerate(parsed) if o["type"] == "user"]
    blocked = blocked_among(user.pk, [u.pk for _, u in invited])
    for i, other in invited:
        if other.pk in blocked:
            raise Blocked(gettext("opponent {n}: you cannot invite {name}.").format(n=i + 1, name=other.username),
                          field="opponents")


def refuse_blocked_join(seats: Sequence[Seat], user: Any) -> None:
    """403 ``blocked`` when ``user`` and a user holding another seat (joined or invited) have a block, either
    way: one query over the game's seats (at most four)."""
    others = [s.user_id for s in seats if s.user_id is not None and s.user_id != user.pk]
    if blocked_among(user.pk, others):
        raise Blocked(BLOCKED_JOIN)


def create_game(user: Any, kind: str, options: Mapping[str, Any] | None = None, seats: int = 2,
                opponents: Sequence[Mapping[str, Any]] | None = None, days_per_move: int | None = None,
                rated: bool = False, seat: int | None = 0, rematch_of: Game | None = None,
                time_control: Mapping[str, Any] | None = None, seated: bool = False,
                watchable: bool | None = None, tournament: bool = False) -> Game:
    """A new game; the creator takes ``seat``. It starts at once when every seat is filled (AI seats are).

    ``seated`` (service only: an accepted challenge, both players agreed): the invited users are seated as joined
    at once, so the game is created started (its first version is ``active``, no ``open`` one is ever published);
    the history's ``created`` entry lists their ``joined`` events and is made by the last of them (the one who
    accepted: the others are told it is their turn).

    Time control: ``time_control`` (days per move, a bank with increment and cap, or unlimited; see
    :func:`games.service.clock.parse_time_control`) or the older ``days_per_move`` (null = unlimited).
    Unlimited games are never rated: ``rated`` with no time control is refused (400).

    An opponent ``{"type": "user", "user": <User>}`` (service only: the caller holds the user) reads no user;
    ``{"type": "user", "username": ...}`` looks the active user up.

    ``seat=None`` (service only, e.g. AI-vs-AI games for benchmarks): the creator does not play, and
    ``opponents`` fills every seat.

    ``watchable``: whether others may watch it once started (issue 35); None: the model's default, not watchable
    (``POST /games``, challenges and seeks pass the request's choice or default). ``tournament`` (service only:
    games.tournaments, with ``seated``): the players entered a tournament and are paired by it, so no block
    between them refuses the game (docs/tournaments.md); its clock takes no vacation and no pause, and it cannot
    be aborted (:func:`is_tournament_game`).
    """
    try:
        rules = get_rules(kind)
    except RulesError as exc:
        raise InvalidRequest(str(exc), field="kind") from None
    info = rules.info
    if not isinstance(seats, int) or isinstance(seats, bool) or seats < 1:
        raise InvalidRequest("seats must be a positive integer.", field="seats")
    try:  # the engine checks the options and the number of seats; its message goes to the player
        normalized = rules.normalize_options(options or {}, seats)
    except RulesError as exc:
        raise InvalidRequest(str(exc), field="options", code="invalid_options") from None
    if not info.min_seats <= seats <= info.max_seats:
        span = f"{info.min_seats}" if info.min_seats == info.max_seats else f"{info.min_seats}-{info.max_seats}"
        raise InvalidRequest(f"{info.title} is played by {span} players, not {seats}.", field="seats")
    control = parse_time_control(time_control, days_per_move)
    if seat is not None and not 0 <= seat < seats:
        raise InvalidRequest(refusals.not_between("seat", 0, seats - 1), field="seat")
    others_count = seats - 1 if seat is not None else seats
    if opponents is None:
        opponents = [{"type": "open"}] * others_count
    parsed = _parse_opponents(user, opponents, others_count)
    if seat is not None and not tournament:
        _refuse_blocked_invitations(user, parsed)
    if rated and any(o["type"] == "ai" for o in parsed):
        raise InvalidRequest(gettext("Games against the AI are never rated."), field="rated")
    refuse_unlimited_rated(rated, control)

    now = timezone.now()
    with transaction.atomic():
        extra = {} if watchable is None else {"watchable": bool(watchable)}
        game = Game.objects.create(kind=kind, options=normalized, seat_count=seats, created_by=user,
                                   rated=bool(rated), days_per_move=control.days_per_move, rematch_of=rematch_of,
                                   created_at=now, updated_at=now, **extra)
        _start_clock(game, control, tournament)
        rows: list[Seat] = []
        others = iter(parsed)
        for index in range(seats):
            if index == seat:
                rows.append(Seat(game=game, index=index, user=user, joined_at=now))
                continue
            opp = next(others)
            if opp["type"] == "ai":
                rows.append(Seat(game=game, index=index, ai_level=opp["level"], joined_at=now))
            elif opp["type"] == "user":
                rows.append(Seat(game=game, index=index, user=opp["user"], joined_at=now if seated else None))
            else:
                rows.append(Seat(game=game, index=index))
        events: list[dict[str, Any]] = [{"type": "created", "seat": seat}]
        if rematch_of is not None:
            events[0]["rematch_of"] = rematch_of.pk
        actor = seat
        if seated:
            joined = [s.index for s in rows if s.user_id is not None and s.index != seat]
            events += [{"type": "joined", "seat": index} for index in joined]
            actor = joined[-1] if joined else seat
        _start_if_full(game, rows, events, stored=False)  # every seat filled: dealt before the seats are inserted
        Seat.objects.bulk_create(rows)  # the seats in index order, their users and the game attached, as seats_of
        seat_rows = rows
        entry = bump(game, "created", actor, events)
        game.save()
        after_commit(game, seat_rows, parts=committed_parts(game, seat_rows, entry))
    return game


def _take_seat(game: Game, seats: list[Seat], user: Any, mine: Seat | None) -> Seat:
    if game.status != Game.Status.OPEN:
        raise Conflict(gettext("This game is no longer open for joining."), code="not_open")
    if mine is None:
        mine = next((s for s in seats if s.user_id is None and not s.is_ai), None)
        if mine is None:
            raise Conflict(gettext("Every seat of this game is taken."), code="game_full")
        mine.user = user
    mine.joined_at = timezone.now()
    mine.save(update_fields=["user", "joined_at"])
    return mine


def join_game(user: Any, game_id: int | None = None, code: str | None = None) -> tuple[Game, bool]:
    """Join by invitation code (any open seat) or as the invited user. Returns (game, joined now). 403 ``blocked``
    when the user and a player seated or invited in the game have a block (:func:`refuse_blocked_join`)."""
    with transaction.atomic():
        if game_id is None:
            found = Game.objects.filter(invite_code=code or "").values_list("pk", flat=True).first()
            if found is None:
                raise GameNotFound(gettext("No game has this invitation code."))
            game_id = found
        game = lock_game(game_id)
        seats = seats_of(game)
        mine = seat_of_user(seats, user)
        if code is not None and code != game.invite_code and mine is None:
            raise GameNotFound()
        if mine is None and code is None:
            require_visible(game, seats, user)  # 404 for private games
            raise Conflict(gettext("This game is no longer open for joining."), code="not_open")
        if mine is not None and mine.joined:
            return game, False
        if game.status == Game.Status.OPEN:
            refuse_blocked_join(seats, user)
        taken = _take_seat(game, seats, user, mine)
        events: list[dict[str, Any]] = [{"type": "joined", "seat": taken.index}]
        _start_if_full(game, seats, events)
        entry = bump(game, "joined", taken.index, events)
        game.save()
        after_commit(game, seats, parts=committed_parts(game, seats, entry))
    return game, True


def fill_with_ai(user: Any, game_id: int, levels: Mapping[int, int]) -> Game:
    """The creator of an open game seats the AI in empty seats: ``levels`` maps a seat index to an AI level.

    Only seats nobody holds (no invited or joined user, no AI) can be filled; seats left out stay open.
    When no seat is left empty the game starts (the engine deals), as when the last player joins. A rated game
    takes no AI (409 ``rated_no_ai``), as at creation. One history entry ``ai_filled``.
    """
    if not levels:
        raise InvalidRequest("Name at least one seat to fill.", field="seats")
    for index, level in levels.items():
        if level not in LEVELS:
            raise InvalidRequest(f"seat {index}: AI level must be one of {sorted(LEVELS)}.", field="seats")
    with transaction.atomic():
        game = lock_game(game_id)
        seats = seats_of(game)
        mine = require_visible(game, seats, user)
        if mine is None or game.created_by_id != user.pk:
            raise Forbidden("Only the player who created this game can fill its seats with the AI.",
                            code="not_creator")
        if game.status != Game.Status.OPEN:
            raise Conflict("This game is no longer open: its seats are all taken.", code="not_open")
        if game.rated:
            raise Conflict("A rated game takes no AI players: invite people to its seats, or start an unrated "
                           "game.", code="rated_no_ai")
        by_index = {s.index: s for s in seats}
        now = timezone.now()
        filled: list[Seat] = []
        for index in sorted(levels):
            seat = by_index.get(index)
            if seat is None:
                raise InvalidRequest(f"This game has seats 0 to {game.seat_count - 1}, not {index}.",
                                     field="seats")
            if seat.user_id is not None or seat.is_ai:
                who = "the AI" if seat.is_ai else "a player"
                raise Conflict(f"Seat {index} is held by {who}: only empty seats can be filled.",
                               code="seat_taken")
            seat.ai_level, seat.joined_at = levels[index], now
            filled.append(seat)
        Seat.objects.bulk_update(filled, ["ai_level", "joined_at"])
        events: list[dict[str, Any]] = [{"type": "ai_filled", "seat": s.index, "ai_level": s.ai_level}
                                        for s in filled]
        _start_if_full(game, seats, events)
        entry = bump(game, "ai_filled", mine.index, events)
        game.save()
        after_commit(game, seats, parts=committed_parts(game, seats, entry))
    return game


def resign(user: Any, game_id: int) -> Game:
    """The seat gives up: it loses, every other seat wins. Ends the game for everyone."""
    with transaction.atomic():
        game, seats, mine = lock_joined_seat(user, game_id, active="Only a game in play can be resigned.")
        others = [s.index for s in seats if s.index != mine.index]
        ranks = [2 if s.index == mine.index else 1 for s in seats]
        result = {"winner": others[0] if len(others) == 1 else None, "winners": others, "ranks": ranks,
                  "reason": "resigned", "resigned": mine.index}
        apply_result(game, seats, result, "resigned")
        bump(game, "resigned", mine.index, [{"type": "resigned", "seat": mine.index},
                                             {"type": "game_over", "result": result}])
        game.save()
        after_commit(game, seats)
    return game


#: The refusal of an abort (offer or acceptance) in a tournament game.
TOURNAMENT_NO_ABORT = ("A tournament game cannot be aborted: play it, resign it, or withdraw from the tournament "
                       "(your remaining games are then forfeited).")


def adjudicate(game_id: int, ranks: Sequence[int]) -> Game | None:
    """End a game in play by a decision of the site (a tournament's maximum game duration passed:
    games.tournaments): ``ranks`` per seat, 1 = best (all 1: a draw). The result says ``reason: "adjudicated"``;
    one history entry ``adjudicated`` with its ``game_over``. None: the game is no longer in play (nothing done)."""
    with transaction.atomic():
        game = lock_game(game_id)
        if game.status != Game.Status.ACTIVE:
            return None
        seats = seats_of(game)
        if len(ranks) != len(seats) or any(r < 1 for r in ranks):
            raise InvalidRequest(f"ranks must give each of the {len(seats)} seats a place from 1.", field="ranks")
        winners = [i for i, r in enumerate(ranks) if r == 1]
        if len(winners) == len(seats):
            winners = []
        result = {"winner": winners[0] if len(winners) == 1 else None, "winners": winners, "ranks": list(ranks),
                  "reason": "adjudicated"}
        apply_result(game, seats, result, "adjudicated")
        bump(game, "adjudicated", None, [{"type": "game_over", "result": result}])
        game.save()
        after_commit(game, seats)
    return game


def _abort(game: Game, seats: list[Seat], mine: Seat, *, accept: bool) -> Game:
    if not game.is_over and is_tournament_game(game):
        raise Conflict(TOURNAMENT_NO_ABORT, code="tournament_game")
    if game.status == Game.Status.OPEN:
        # Before the game starts, any seated user can call it off (the creator cancels, an invitee declines).
        events: list[dict[str, Any]] = [{"type": "aborted", "seat": mine.index}]
    elif game.status == Game.Status.ACTIVE and not human_has_moved(game, seats):
        humans = [s for s in seats if s.user_id is not None]
        if accept and not any(s.abort_offered for s in humans if s.index != mine.index):
            raise Conflict("There is no abort offer to accept.", code="no_abort_offer")
        if mine.abort_offered:
            return game
        mine.abort_offered = True
        mine.save(update_fields=["abort_offered"])
        events = [{"type": "abort_offered", "seat": mine.index}]
        if not all(s.abort_offered for s in humans):
            bump(game, "abort_offer", mine.index, events)
            game.save()
            after_commit(game, seats)
            return game
        events.append({"type": "aborted"})
    elif game.status == Game.Status.ACTIVE:
        raise Conflict("A game can only be aborted before the first move of a player; resign instead.",
                       code="abort_not_allowed")
    else:
        raise Conflict("This game has already ended.", code="not_active")
    game.status = Game.Status.ABORTED
    game.ended_reason = "aborted"
    game.finished_at = timezone.now()
    sync_to_act(game, seats, frozenset())
    bump(game, "aborted", mine.index, events)
    game.save()
    after_commit(game, seats)
    return game


def offer_abort(user: Any, game_id: int) -> Game:
    """Offer to abort (before the first move). Once every human seat has offered, the game is aborted.

    While the game is still open, a seated user (creator or invitee) aborts it at once.
    """
    with transaction.atomic():
        game = lock_game(game_id)
        seats = seats_of(game)
        mine = require_visible(game, seats, user)
        if mine is None or (not mine.joined and game.status != Game.Status.OPEN):
            mine = require_joined_seat(game, seats, user)  # raises 403
        return _abort(game, seats, mine, accept=False)


def accept_abort(user: Any, game_id: int) -> Game:
    """Accept another seat's abort offer (409 ``no_abort_offer`` if there is none)."""
    with transaction.atomic():
        game, seats, mine = lock_joined_seat(user, game_id)
        return _abort(game, seats, mine, accept=True)


class RematchAnswer(NamedTuple):
    """What ``POST /games/{id}/rematch`` did: ``outcome`` "created" (``game`` is the new game: 201),
    "offered" (a two-seat offer waits for the other player; ``game`` is the finished game, whose
    ``rematch_offer`` is pending: 202), "accepted" (this request accepted the other player's offer or joined
    their rematch: the new game, 200) or "existing" (the rematch already there: 200)."""

    game: Game
    outcome: str


def unavailable_opponents(seats: Sequence[Seat], mine: Seat) -> list[Seat]:
    """The other human seats whose account is closed (deleted or deactivated): no rematch can seat them."""
    return [s for s in seats if s.index != mine.index and s.user is not None and not s.user.is_active]


def _refuse_unavailable(seats: Sequence[Seat], mine: Seat) -> None:
    gone = unavailable_opponents(seats, mine)
    if gone:
        names = ", ".join(s.user.public_name for s in gone if s.user is not None)  # every one has a user
        raise Conflict(f"No rematch: the account of {names} is closed.", code="opponent_unavailable")


def rematch(user: Any, game_id: int) -> RematchAnswer:
    """Offer the same players a rematch of a finished game, or accept the offer another player made.

    Two seats against a human: the offer is a challenge to that player (games.challenges, registered in
    :data:`~games.service.payload.REMATCH_CHALLENGES`), with the same kind, options, seats, time control and
    rated flag; asking again while it waits changes nothing; the other player's request accepts it. Three or
    four seats (and against the AI): a new game inviting the same users to the same seats, AI seats filled;
    another player's request joins it (their invitation can be declined: ``POST /games/{new}/abort``). Either
    way the rematch keeps the finished game's ``watchable``. A rated game's rematch is rated, with the same
    time control (an old rated game without one comes back unrated). 409: not finished (``not_finished``), an
    opponent's account closed (``opponent_unavailable``), or the offer of this player was declined
    (``rematch_declined``); 403 ``blocked`` when the user and another human player have a block (either way),
    whatever the state of the offer. All under the finished game's lock, so two requests cannot make two offers."""
    with transaction.atomic():
        game, seats, mine = lock_joined_seat(user, game_id)
        if game.status != Game.Status.FINISHED:
            raise Conflict("A rematch can be asked for once the game has finished.", code="not_finished")
        humans = [s for s in seats if s.user_id is not None and s.index != mine.index]
        if blocked_among(user.pk, [s.user_id for s in humans if s.user_id is not None]):
            raise Blocked("You cannot play a rematch with this player." if len(humans) == 1
                          else "You cannot play a rematch with these players.")
        offer = REMATCH_CHALLENGES.get("offer")
        if game.seat_count == 2 and humans and offer is not None:
            found = offer(user, game, seats, mine)
            if found is not None:
                return RematchAnswer(*found)
        existing = game.rematches.order_by("-pk").first()
        if existing is not None:
            answer = _answer_existing(user, existing, mine)
            if answer is not None:
                return answer
        _refuse_unavailable(seats, mine)
        opponents: list[dict[str, Any]] = []
        for s in seats:
            if s.index == mine.index:
                continue
            if s.is_ai:
                opponents.append({"type": "ai", "level": s.ai_level})
            elif s.user is not None:  # no query when user_id is None
                opponents.append({"type": "user", "username": s.user.username})
            else:
                opponents.append({"type": "open"})
        control = time_control_of(game, clock_row(game))
        # The same time control; an old rated game without one (before the rule) comes back unrated.
        new = create_game(user, game.kind, game.options, game.seat_count, opponents, None,
                          game.rated and control.timed, seat=mine.index, rematch_of=game,
                          time_control=control.request(), watchable=game.watchable)
        return RematchAnswer(new, "created")


def _answer_existing(user: Any, existing: Game, mine: Seat) -> RematchAnswer | None:
    """The newest rematch game already made: join it if invited, return it if in it; None: make a new one
    (the last was called off by its creator). One called off by another seat refuses its creator a new one."""
    existing = lock_game(existing.pk)
    ex_seats = seats_of(existing)
    ex_mine = seat_of_user(ex_seats, user)
    if existing.status == Game.Status.ABORTED:
        if existing.created_by_id == user.pk and _aborted_by(existing) not in (None, mine.index):
            raise Conflict("Your rematch offer was declined.", code="rematch_declined")
        return None
    if ex_mine is not None and not ex_mine.joined and existing.status == Game.Status.OPEN:
        _take_seat(existing, ex_seats, user, ex_mine)
        events: list[dict[str, Any]] = [{"type": "joined", "seat": ex_mine.index}]
        _start_if_full(existing, ex_seats, events)
        entry = bump(existing, "joined", ex_mine.index, events)
        existing.save()
        after_commit(existing, ex_seats, parts=committed_parts(existing, ex_seats, entry))
        return RematchAnswer(existing, "accepted")
    return RematchAnswer(existing, "existing")


def _aborted_by(game: Game) -> int | None:
    return game.events.filter(type="aborted").order_by("-version").values_list("seat", flat=True).first()


#: At most this many open games are called off per block (a user's current seats: the ``seat_user_current`` index).
CALL_OFF_MOST = 200


def call_off_blocked(user_id: int, other_id: int) -> list[int]:
    """A block now stands between the two users: every open game holding both of them (joined or invited) is
    called off, as an invitee's decline would, but by no seat (``aborted`` entry without a seat: nobody is named,
    so a rematch offer made as that game reads ``cancelled``). A game that has started goes on. Returns the ids
    of the games called off.

    Reads the first user's current seats (the partial index ``seat_user_current``, at most
    :data:`CALL_OFF_MOST`) joined to the game and the other user's seat (``seat_unique_user``); each game is
    then locked and called off in its own transaction, after checking it is still open and still holds both."""
    candidates = list(Seat.objects.filter(user_id=user_id, finished_at__isnull=True, game__status=Game.Status.OPEN,
                                          game__seats__user_id=other_id)
                      .order_by("game_id").values_list("game_id", flat=True)[:CALL_OFF_MOST])
    done: list[int] = []
    for game_id in candidates:
        with transaction.atomic():
            game = lock_game(game_id)
            seats = seats_of(game)
            if game.status != Game.Status.OPEN or not {user_id, other_id} <= {s.user_id for s in seats}:
                continue
            game.status = Game.Status.ABORTED
            game.ended_reason = "aborted"
            game.finished_at = timezone.now()
            sync_to_act(game, seats, frozenset())
            bump(game, "aborted", None, [{"type": "aborted"}])
            game.save()
            after_commit(game, seats)
        done.append(game_id)
    return done
