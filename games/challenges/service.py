"""Challenges (issue 26): create (to a user or open), accept, decline with a reason, cancel, expire.

Rulings:

* A challenge is for one two-seat game of any kind, with the options, time control and rated flag of
  ``POST /games`` (checked when the challenge is made, so accepting cannot fail on them). ``seat`` is the
  challenger's seat (0 or 1), null: drawn at random when accepted.
* To a user: only that user may accept or decline. Open (``to`` null): anyone else who has the id (ten
  random characters) may accept; it cannot be declined, only cancelled by the challenger.
* It expires ``expires_in`` seconds after it was made (default :data:`DEFAULT_TTL`, 3 days; between 60 s
  and 14 days); ``challenges.expire`` marks expired ones every minute, and an answer to an expired one
  is 409 ``challenge_expired`` (and expires it at once).
* At most :data:`MAX_PENDING` pending challenges made per user (409 ``too_many_challenges``), and at most
  :data:`MAX_PENDING_TO_ONE` of them to one user (409 ``too_many_challenges_to_user``); none to yourself
  (400). The counts are taken under a lock on the challenger's user row, so parallel requests cannot pass
  the limit together; making one is also rate limited (``games_create``, api.py).
* Answers (accept, decline, cancel, expire) lock the challenge row: of two answers racing, the first wins
  and the second gets 409 ``challenge_not_pending`` (one game at most per challenge).
* Accepting creates the game through ``games.service.create_game`` with both players seated (``seated``): its
  first version is already active, so neither player ever sees it ``open``. The game is watchable (issue 35)
  when the challenge says so (``watchable``, the challenger's choice: default true in the request; a rematch
  challenge keeps the finished game's).
* A rematch of a finished two-seat game against a human is a challenge to the other player with
  ``rematch_of`` set (games/challenges/rematch.py, through ``POST /games/{id}/rematch``); accepting it makes
  the game a rematch of that one (``rematch_of``).
* Blocks (issue 35): no challenge between two users with a block, either way. Making one to such a user, or
  accepting one (to you, or open) from such a user, is 403 ``blocked`` ("You cannot challenge this player." /
  "You cannot accept this challenge.", never who blocked whom). When a block is added, the pending challenges
  between the two are cancelled (:func:`cancel_between`, the ``relation_changed`` receiver in games/blocks.py),
  with the usual ``challenge_cancelled`` events.
* Every change is sent to the sockets (and event streams) of both users as a typed event:
  ``challenge_created`` (challenger) / ``challenge_received`` (the user challenged), ``challenge_accepted``,
  ``challenge_declined``, ``challenge_cancelled``, ``challenge_expired``; each carries the challenge.
"""

from __future__ import annotations

import secrets
from datetime import timedelta
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext

from accounts.lookup import no_player_called
from accounts.models import User
from accounts.relations import blocked_between
from games.rules.base import RulesError
from games.rules.registry import get_rules
from games.service import create_game
from games.service.clock import parse_time_control, refuse_unlimited_rated
from games.service.errors import Blocked, Conflict, InvalidRequest, ServiceError
from games.service.payload import offer_links

from . import events
from .models import Challenge

DEFAULT_TTL = 3 * 86400
MIN_TTL, MAX_TTL = 60, 14 * 86400
MAX_PENDING = 20
MAX_PENDING_TO_ONE = 3

#: Why a challenge is declined (the challenger sees the reason and its text).
DECLINE_REASONS: dict[str, str] = {
    "generic": "I'm not accepting challenges at the moment.",
    "later": "This is not the right time for me, please ask again later.",
    "time_control": "I'm not accepting challenges with this time control.",
    "rated": "Please send me a rated challenge instead.",
    "casual": "Please send me a casual (unrated) challenge instead.",
    "kind": "I'm not accepting challenges of this game kind.",
    "no_bot": "I'm not accepting challenges from bots.",
    "only_bot": "I'm only accepting challenges from bots.",
}


#: For the OpenAPI enum (claim/settings.py, ENUM_NAME_OVERRIDES).
DECLINE_REASON_CHOICES = sorted(DECLINE_REASONS)


class ChallengeNotFound(ServiceError):
    status = 404
    code = "not_found"

    def __init__(self, message: str = "No such challenge (or it is not for you).", **kw: Any) -> None:
        super().__init__(message, **kw)


def _iso(value: Any) -> str | None:
    return None if value is None else value.isoformat().replace("+00:00", "Z")


def _person(user: Any) -> dict[str, Any] | None:
    if user is None:
        return None
    return {"username": user.username, "name": user.public_name, "is_bot": user.is_bot}


def challenge_payload(c: Challenge) -> dict[str, Any]:
    """The public shape of a challenge (the same for both users, on HTTP and on the socket)."""
    return {
        "id": c.id,
        "status": c.status,
        "challenger": _person(c.challenger),
        "to": _person(c.to),
        "open": c.is_open,
        "kind": c.kind,
        "title": get_rules(c.kind).info.title,
        "options": c.options,
        "time_control": parse_time_control(c.time_control).payload(),
        "rated": c.rated,
        "watchable": c.watchable,
        "seat": c.seat,
        "decline_reason": c.decline_reason or None,
        "decline_message": DECLINE_REASONS.get(c.decline_reason) if c.decline_reason else None,
        "game_id": c.game_id,
        "rematch_of": c.rematch_of_id,
        "created_at": _iso(c.created_at),
        "expires_at": _iso(c.expires_at),
        "ended_at": _iso(c.ended_at),
        "links": {"self": f"/api/v1/challenges/{c.id}", "accept": f"/api/v1/challenges/{c.id}/accept",
                  "decline": f"/api/v1/challenges/{c.id}/decline", "cancel": f"/api/v1/challenges/{c.id}/cancel",
                  "game": None if c.game_id is None else f"/api/v1/games/{c.game_id}"},
    }


def effective_status(c: Challenge) -> str:
    """The status, with a pending challenge past its time shown expired (the periodic run marks it soon)."""
    if c.status == Challenge.Status.PENDING and c.expires_at <= timezone.now():
        return Challenge.Status.EXPIRED
    return c.status


def challenge_offer_payload(c: Challenge) -> dict[str, Any]:
    """The ``rematch_offer`` of the finished game a rematch challenge was made from (``GET /games/{id}`` and
    the ``rematch_offer`` event): seats are those of that game (the challenger keeps theirs)."""
    status = effective_status(c)
    by = c.seat if c.seat is not None else 0
    other = 1 - by
    return {"kind": "challenge", "id": c.id, "by": by, "status": status, "game_id": c.game_id,
            "declined_by": other if status == Challenge.Status.DECLINED else None,
            "decline_reason": c.decline_reason or None,
            "joined": [by, other] if status == Challenge.Status.ACCEPTED else [by],
            "expires_at": _iso(c.expires_at), "links": offer_links("challenge", c.id)}


def notify(c: Challenge, change: str) -> None:
    """The typed events of this change once the transaction commits: the challenge's to both users, and for a
    rematch challenge also ``rematch_offer`` of the finished game (games/challenges/events.py)."""
    offer = challenge_offer_payload(c) if c.rematch_of_id is not None else None
    events.on_commit(c, change, challenge_payload(c), offer=offer)


def _terms(kind: str, options: Any, time_control: Any, days_per_move: int | None, rated: bool) -> tuple[dict, dict]:
    """The game's terms as ``POST /games`` checks them (the same errors): normalized options and time control."""
    try:
        rules = get_rules(kind)
    except RulesError as exc:
        raise InvalidRequest(str(exc), field="kind") from None
    try:
        normalized = rules.normalize_options(options or {}, 2)
    except RulesError as exc:
        raise InvalidRequest(str(exc), field="options", code="invalid_options") from None
    control = parse_time_control(time_control, days_per_move)
    refuse_unlimited_rated(rated, control)
    return normalized, control.request()


def create(user: Any, *, to: str | None, kind: str, options: Any = None, time_control: Any = None,
           days_per_move: int | None = None, rated: bool = False, seat: int | None = None,
           expires_in: int | None = None, watchable: bool = False) -> Challenge:
    normalized, control = _terms(kind, options, time_control, days_per_move, rated)
    ttl = DEFAULT_TTL if expires_in is None else expires_in
    if not MIN_TTL <= ttl <= MAX_TTL:
        raise InvalidRequest(f"expires_in must be between {MIN_TTL} and {MAX_TTL} seconds.", field="expires_in")
    target = None
    if to is not None:
        target = User.objects.filter(username__iexact=to, is_active=True).first()
        if target is None:
            raise InvalidRequest(no_player_called(to), field="to")
        if target.pk == user.pk:
            raise InvalidRequest(gettext("You cannot challenge yourself."), field="to")
        if blocked_between(user.pk, target.pk):
            raise Blocked(gettext("You cannot challenge this player."), field="to")
    with transaction.atomic():
        _check_pending(user, target)
        now = timezone.now()
        c = Challenge.objects.create(challenger=user, to=target, is_open=target is None, kind=kind,
                                     options=normalized, time_control=control,
                                     rated=bool(rated), watchable=bool(watchable), seat=seat, created_at=now,
                                     expires_at=now + timedelta(seconds=ttl))
        notify(c, "created")
    return c


def _check_pending(user: Any, target: Any) -> None:
    """Refuse a new challenge past :data:`MAX_PENDING` (or :data:`MAX_PENDING_TO_ONE` to ``target``).

    Runs inside the creating transaction, after locking the challenger's user row (``FOR NO KEY UPDATE``: it
    serializes one user's creations and blocks no foreign key to that user), so two parallel requests
    cannot both see room for one more. The counts read the ``challenge_outgoing`` index: at most
    :data:`MAX_PENDING` pending rows of this user, whatever their history."""
    list(User.objects.select_for_update(no_key=True).filter(pk=user.pk).values_list("pk", flat=True))
    pending = Challenge.objects.filter(challenger=user, status=Challenge.Status.PENDING,
                                       expires_at__gt=timezone.now())
    count = pending.count()
    if count >= MAX_PENDING:
        raise Conflict(gettext("You have {count} pending challenges, the most allowed: cancel one first.").format(
            count=count), code="too_many_challenges")
    if target is not None:
        to_one = pending.filter(to=target).count()
        if to_one >= MAX_PENDING_TO_ONE:
            message = gettext("You have {count} pending challenges to {name}, the most allowed to one player: "
                              "wait for an answer or cancel one first.")
            raise Conflict(message.format(count=to_one, name=target.username), code="too_many_challenges_to_user")


def _locked(challenge_id: str) -> Challenge:
    c = (Challenge.objects.select_for_update(of=("self",)).select_related("challenger", "to")
         .filter(pk=challenge_id).first())
    if c is None:
        raise ChallengeNotFound()
    return c


def visible_to(c: Challenge, user: Any) -> bool:
    return c.is_open or user.pk in (c.challenger_id, c.to_id)


def get(user: Any, challenge_id: str) -> Challenge:
    c = Challenge.objects.select_related("challenger", "to").filter(pk=challenge_id).first()
    if c is None or not visible_to(c, user):
        raise ChallengeNotFound()
    if c.status == Challenge.Status.PENDING and c.expires_at <= timezone.now():
        expire_one(c.pk)
        c.refresh_from_db()
    return c


def _end(c: Challenge, status: str, reason: str = "") -> None:
    c.status, c.decline_reason, c.ended_at = status, reason, timezone.now()
    c.save(update_fields=["status", "decline_reason", "ended_at", "game"])
    notify(c, status)


def _answer(fn: Any, user: Any, challenge_id: str, *args: Any) -> Any:
    """Run ``fn(challenge, user, *args)`` on the locked, pending challenge. One past its time is marked
    expired (committed, with its events) and refused with 409 ``challenge_expired``."""
    with transaction.atomic():
        c = _locked(challenge_id)
        if not visible_to(c, user):
            raise ChallengeNotFound()
        if c.status == Challenge.Status.PENDING and c.expires_at > timezone.now():
            return fn(c, user, *args)
        if c.status != Challenge.Status.PENDING:
            raise Conflict(f"This challenge is already {c.status}.", code="challenge_not_pending")
        _end(c, Challenge.Status.EXPIRED)
    raise Conflict("This challenge has expired.", code="challenge_expired")


def _accept(c: Challenge, user: Any) -> Challenge:
    if user.pk == c.challenger_id:
        raise Conflict("You cannot accept your own challenge; cancel it instead.", code="own_challenge")
    if blocked_between(user.pk, c.challenger_id):
        raise Blocked("You cannot accept this challenge.")
    seat = c.seat if c.seat is not None else secrets.randbelow(2)
    # Both players are seated at once: the game's first version is active (docs/api.md), never an open one.
    game = create_game(c.challenger, c.kind, c.options, 2, opponents=[{"type": "user", "user": user}],
                       rated=c.rated, seat=seat, time_control=c.time_control, rematch_of=c.rematch_of, seated=True,
                       watchable=c.watchable)
    if c.to_id is None:
        c.to = user
        c.save(update_fields=["to"])
    c.game = game
    _end(c, Challenge.Status.ACCEPTED)
    return c


def _decline(c: Challenge, user: Any, reason: str) -> Challenge:
    if c.is_open:
        raise Conflict("An open challenge cannot be declined: just leave it.", code="open_challenge")
    if user.pk != c.to_id:
        raise Conflict("You cannot decline your own challenge; cancel it instead.", code="own_challenge")
    _end(c, Challenge.Status.DECLINED, reason)
    return c


def _cancel(c: Challenge, user: Any) -> Challenge:
    if user.pk != c.challenger_id:
        raise Conflict("Only the challenger can cancel a challenge; decline it instead.", code="not_challenger")
    _end(c, Challenge.Status.CANCELLED)
    return c


def accept(user: Any, challenge_id: str) -> Challenge:
    return _answer(_accept, user, challenge_id)


def decline(user: Any, challenge_id: str, reason: str = "generic") -> Challenge:
    if reason not in DECLINE_REASONS:
        raise InvalidRequest(f"reason must be one of: {', '.join(DECLINE_REASONS)}.", field="reason")
    return _answer(_decline, user, challenge_id, reason)


def cancel(user: Any, challenge_id: str) -> Challenge:
    return _answer(_cancel, user, challenge_id)


def pending_for(user: Any) -> tuple[list[Challenge], list[Challenge]]:
    """``(incoming, outgoing)``: the pending, unexpired challenges to and by ``user``, newest first."""
    now = timezone.now()
    base = Challenge.objects.filter(status=Challenge.Status.PENDING, expires_at__gt=now).select_related("challenger",
                                                                                                       "to")
    return list(base.filter(to=user)[:100]), list(base.filter(challenger=user)[:100])


def cancel_between(user_id: int, other_id: int) -> int:
    """A block now stands between the two users: cancel every pending challenge either made to the other (a
    rematch offer too), with the usual ``challenge_cancelled`` events (one past its time is marked expired
    instead). Returns how many were ended.

    Reads the ``challenge_outgoing`` index (challenger, status) for each side: at most
    :data:`MAX_PENDING` pending rows each, whatever their history; each is then locked and ended in its own
    transaction, so an answer racing it either comes first or finds it cancelled."""
    pending = list(Challenge.objects.filter(status=Challenge.Status.PENDING)
                   .filter(Q(challenger_id=user_id, to_id=other_id) | Q(challenger_id=other_id, to_id=user_id))
                   .values_list("pk", flat=True)[:2 * MAX_PENDING])
    ended = 0
    for challenge_id in pending:
        with transaction.atomic():
            c = Challenge.objects.select_for_update(of=("self",)).select_related("challenger", "to").filter(
                pk=challenge_id).first()
            if c is None or c.status != Challenge.Status.PENDING:
                continue
            _end(c, Challenge.Status.CANCELLED if c.expires_at > timezone.now() else Challenge.Status.EXPIRED)
            ended += 1
    return ended


def expire_one(challenge_id: str) -> bool:
    with transaction.atomic():
        c = Challenge.objects.select_for_update(of=("self",)).select_related("challenger", "to").filter(
            pk=challenge_id).first()
        if c is None or c.status != Challenge.Status.PENDING or c.expires_at > timezone.now():
            return False
        _end(c, Challenge.Status.EXPIRED)
    return True


def expire_due() -> int:
    """The periodic run (``challenges.expire``): mark every pending challenge past its time, with events."""
    due = list(Challenge.objects.filter(status=Challenge.Status.PENDING, expires_at__lte=timezone.now())
               .values_list("pk", flat=True)[:1000])
    return sum(1 for pk in due if expire_one(pk))
