"""Follows, blocks and mutes through the API, the lists of them, friends and the public profile (issue 35).

Every read here is bounded by an index, never by the length of a user's lists or history:

* a list page (``/following``, ``/followers``, ``/blocks``, ``/mutes``) is one backward range of
  ``accounts_relation_page`` (user, kind, id) or ``accounts_relation_to_page`` (other, kind, id) from the cursor,
  ``limit`` + 1 rows, each row's user joined by its key;
* a friends page reads at most :data:`FRIENDS_SCAN` of my follows from the cursor (the same index range), each
  checked for the reverse follow by the unique index (user, kind, other); the mutual ones are the page, so a page
  may hold fewer than ``limit`` friends while ``next`` is not null. Their presence is one cache round trip and
  their watchable games one query (:func:`watchable_games`);
* the profile: the ratings (one row per pool) and the :data:`HISTORY` latest changes of each pool
  (``history_rating_latest``), the 10 latest finished games (``seat_user_finished``, as ``GET /users/{u}/games``),
  the reliability (:mod:`games.clock.reliability`: two bounded queries), the caller's stances (one query).
"""

from __future__ import annotations

from typing import Any

from django.db.models import Exists, F, OuterRef, Window
from django.db.models.functions import RowNumber
from django.utils import timezone
from django.utils.translation import gettext, gettext_noop

from accounts import relations
from accounts.models import Relation, User
from games.api.profile_games import finished_page, page_payload
from games.clock.reliability import reliability
from games.models import Game, Seat
from games.ratings.models import Rating, RatingHistory
from games.ratings.service import current_deviation
from games.realtime.presence import online_among
from games.service.errors import Blocked, InvalidRequest
from games.spectate.payload import public_user

FOLLOW, BLOCK, MUTE = Relation.FOLLOW, Relation.BLOCK, Relation.MUTE
#: The most watchable games listed per user (a friend, a profile).
WATCHABLE_PER_USER = 5
#: The most of my follows one friends page reads.
FRIENDS_SCAN = 200
#: Rating changes per pool on a profile, newest first.
HISTORY = 50
#: Finished games on a profile, newest first.
RECENT_GAMES = 10
#: The lists of ``GET /following`` ...: (kind, whose list: mine (``user`` is me) or theirs (``other`` is me)).
LISTS = {"following": (FOLLOW, True), "followers": (FOLLOW, False), "blocks": (BLOCK, True), "mutes": (MUTE, True)}
VERBS = {FOLLOW: "follow", BLOCK: "block", MUTE: "mute"}
#: The neutral refusal of a follow across a block, either way (never who blocked whom).
BLOCKED_FOLLOW = gettext_noop("You cannot follow this player.")
#: Refusing a relation to oneself, by kind (whole sentences, for the translations).
YOURSELF = {FOLLOW: gettext_noop("You cannot follow yourself."), BLOCK: gettext_noop("You cannot block yourself."),
            MUTE: gettext_noop("You cannot mute yourself.")}


def _iso(dt: Any) -> str:
    return dt.isoformat().replace("+00:00", "Z")


def relationship(viewer_id: int, other: User, stance: dict[str, bool] | None = None) -> dict[str, Any]:
    """``Relationship``: what ``viewer_id`` does about ``other`` and whether ``other`` follows back; never
    whether ``other`` blocks the viewer. ``stance``: :func:`accounts.relations.stances`, read when not given."""
    st = stance if stance is not None else relations.stances(viewer_id, other.pk)
    return {"username": other.username, "following": st["following"], "followed_by": st["followed_by"],
            "friends": st["following"] and st["followed_by"], "blocking": st["blocking"], "muting": st["muting"]}


def set_relation(me: User, kind: str, other: User, on: bool) -> dict[str, Any]:
    """``me`` now follows / blocks / mutes ``other`` (``on``) or no longer does; the ``Relationship`` after it.
    Idempotent. A follow across a block, either way, is refused (:class:`Blocked`, neutral words); blocking ends
    both follows (:func:`accounts.relations.add`)."""
    if other.pk == me.pk:
        raise InvalidRequest(gettext(YOURSELF[kind]), field="username")
    if not on:
        relations.remove(me.pk, kind, other.pk)
    elif kind == FOLLOW and relations.blocked_between(me.pk, other.pk):
        raise Blocked(gettext(BLOCKED_FOLLOW))
    else:
        relations.add(me.pk, kind, other.pk)
    return relationship(me.pk, other)


def user_page(me: User, name: str, cursor: int | None, limit: int) -> tuple[list[dict[str, Any]], int | None]:
    """One page of the list ``name`` (:data:`LISTS`), newest relation first: ``PublicUser`` entries and the cursor
    of the next page (the last relation's id; None: the last page). Inactive accounts are left out."""
    kind, mine = LISTS[name]
    if mine:
        rows = Relation.objects.filter(user_id=me.pk, kind=kind, other__is_active=True).select_related("other")
    else:
        rows = Relation.objects.filter(other_id=me.pk, kind=kind, user__is_active=True).select_related("user")
    if cursor is not None:
        rows = rows.filter(id__lt=cursor)
    found = list(rows.order_by("-id")[:limit + 1])
    page = found[:limit]
    users = [r.other if mine else r.user for r in page]
    return [public_user(u) for u in users], page[-1].pk if len(found) > limit else None


def friends_page(me: User, cursor: int | None, limit: int) -> tuple[list[dict[str, Any]], int | None]:
    """One page of my friends (mutual follows), newest follow of mine first, then the online ones first within the
    page: ``Friend`` entries and the next cursor (module docstring: at most :data:`FRIENDS_SCAN` follows read)."""
    back = Relation.objects.filter(user_id=OuterRef("other_id"), kind=FOLLOW, other_id=me.pk)
    rows = Relation.objects.filter(user_id=me.pk, kind=FOLLOW).annotate(mutual=Exists(back)).select_related("other")
    if cursor is not None:
        rows = rows.filter(id__lt=cursor)
    window = list(rows.order_by("-id")[:FRIENDS_SCAN])
    taken: list[Relation] = []
    stop = len(window)
    for i, row in enumerate(window):
        if row.mutual and row.other.is_active:  # type: ignore[attr-defined]  # the annotation
            taken.append(row)
            if len(taken) == limit:
                stop = i + 1
                break
    full = len(window) == FRIENDS_SCAN
    if len(taken) == limit:
        rest = any(r.mutual and r.other.is_active for r in window[stop:])  # type: ignore[attr-defined]
        following = taken[-1].pk if rest or full else None
    else:
        following = window[-1].pk if full else None
    friends = [r.other for r in taken]
    online = online_among(u.pk for u in friends if not u.hide_presence)
    games = watchable_games([u.pk for u in friends], me.pk)
    entries = [{"user": public_user(u), "online": u.pk in online, "watchable_games": games.get(u.pk, [])}
               for u in friends]
    entries.sort(key=lambda e: not e["online"])  # online first; otherwise in the page's order
    return entries, following


def watchable_games(user_ids: list[int], viewer_id: int | None) -> dict[int, list[int]]:
    """The running watchable games of each of ``user_ids`` (newest first, at most :data:`WATCHABLE_PER_USER`
    each), leaving out every game where a player has a block with ``viewer_id`` either way (as
    :func:`games.spectate.access.may_watch`). One query: the users' unfinished seats (``seat_user_current``), their
    games by key, the blocks by the relations' two indexes, numbered per user."""
    if not user_ids:
        return {}
    seats = Seat.objects.filter(user_id__in=user_ids, finished_at__isnull=True, game__status=Game.Status.ACTIVE,
                                game__watchable=True)
    if viewer_id is not None:
        i_block = Relation.objects.filter(user_id=viewer_id, kind=BLOCK).values("other_id")
        block_me = Relation.objects.filter(other_id=viewer_id, kind=BLOCK).values("user_id")
        seats = (seats.exclude(Exists(Seat.objects.filter(game_id=OuterRef("game_id"), user_id__in=i_block)))
                 .exclude(Exists(Seat.objects.filter(game_id=OuterRef("game_id"), user_id__in=block_me))))
    numbered = seats.annotate(n=Window(RowNumber(), partition_by=[F("user_id")], order_by=F("game_id").desc()))
    out: dict[int, list[int]] = {}
    for uid, gid in (numbered.filter(n__lte=WATCHABLE_PER_USER).order_by("user_id", "-game_id")
                     .values_list("user_id", "game_id")):
        out.setdefault(uid, []).append(gid)
    return out


def public_ratings(user: User) -> list[dict[str, Any]]:
    """``PublicRating`` per pool the user has a rating in (by pool), each with its :data:`HISTORY` latest
    changes, newest first: one query for the ratings, one index range per pool."""
    now = timezone.now()
    out = []
    for row in Rating.objects.filter(user=user).order_by("pool"):
        history = (RatingHistory.objects.filter(rating=row).order_by("-created_at", "-id")
                   .values_list("created_at", "after")[:HISTORY])
        out.append({"pool": row.pool, "rating": round(row.rating), "deviation": round(current_deviation(row, now)),
                    "games": row.games, "history": [{"at": _iso(at), "rating": round(after)} for at, after in history]})
    return out


def profile(user: User, viewer: Any) -> dict[str, Any]:
    """``PublicProfile`` of ``user`` as ``viewer`` (a user, or anonymous) sees it. A block between the two, either
    way, leaves the public part (ratings, games, reliability) but hides the presence and the watchable games."""
    viewer_id = viewer.pk if getattr(viewer, "is_authenticated", False) else None
    other = viewer_id is not None and viewer_id != user.pk
    stance = relations.stances(viewer_id, user.pk) if other and viewer_id is not None else None
    blocked = stance is not None and (stance["blocking"] or stance["blocked_by"])
    game_ids, _ = finished_page(user, None, None, RECENT_GAMES)
    if viewer_id is None or blocked or (user.hide_presence and other):
        online = None
    else:
        online = user.pk in online_among([user.pk])
    return {
        "user": public_user(user),
        "joined": _iso(user.date_joined),
        "ratings": public_ratings(user),
        "recent_games": page_payload(user, viewer, game_ids),
        "reliability": reliability(user),
        "online": online,
        "watchable_games": [] if blocked else watchable_games([user.pk], viewer_id).get(user.pk, []),
        "relationship": relationship(viewer_id, user, stance) if stance is not None and viewer_id is not None
        else None,
    }
